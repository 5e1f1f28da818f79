package tessellate

import (
	"math"
	"math/rand"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestEvaluatorMatchesGeom: the marcher's specialised evaluator gives geom's
// residual and gradient near the surface, for integer, half-integer and
// general exponents, tapers, and points on the coordinate planes.
func TestEvaluatorMatchesGeom(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	shapes := append(sweep(20),
		geom.Superovoid{A: [3]float64{1, 0.8, 0.6}, Eps: [2]float64{0.5, 0.8}, Taper: [2]float64{0.2, -0.1}},
		geom.Superovoid{A: [3]float64{1.8, 0.3, 0.45}, Eps: [2]float64{0.1, 0.1}, Taper: [2]float64{0.3, 0}},
		geom.Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{0.05, 1.95}, Taper: [2]float64{-0.5, 0.5}},
		geom.Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{1.95, 0.05}},
	)
	var ev evaluator
	worstF, worstN := 0.0, 0.0
	n := 0
	for _, s := range shapes {
		ev.init(&s)
		for k := 0; k < 400; k++ {
			p1, p2 := rng.Float64()*2*math.Pi, (rng.Float64()-0.5)*math.Pi
			x := s.Point(p1, p2).Mul(1 + 0.02*(rng.Float64()-0.5))
			switch k % 8 {
			case 1:
				x[0] = 0
			case 2:
				x[1] = 0
			case 3:
				x[2] = 0
			}
			r, ok := s.ResidualHessian(x, false)
			if !ok {
				continue
			}
			f, g, ok := ev.eval(x)
			if !ok {
				// Only the z axis of box-like shapes may be refused.
				if x[0] != 0 && x[1] != 0 {
					t.Errorf("%+v at %v: refused (geom: %v)", s, x, r)
				}
				continue
			}
			n++
			df := math.Abs(f-r.G) / math.Max(1, math.Abs(r.G))
			worstF = math.Max(worstF, df)
			if df > 1e-13 {
				t.Errorf("%+v at %v: F = %.17g, geom %.17g", s, x, f, r.G)
			}
			a, b := g.Normalize(), r.Grad.Normalize()
			an := math.Atan2(a.Cross(b).Len(), a.Dot(b))
			worstN = math.Max(worstN, an)
			if an > 1e-13 || math.Abs(g.Len()/r.Grad.Len()-1) > 1e-12 {
				t.Errorf("%+v at %v: gradient %v, geom %v", s, x, g, r.Grad)
			}
		}
	}
	t.Logf("%d points: worst residual difference %.2g, worst normal angle %.2g rad", n, worstF, worstN)
	if n < 10000 {
		t.Errorf("only %d points compared", n)
	}
}

// TestEvaluatorProject: projections land on the surface to ProjectTol with
// the normal of geom's gradient.
func TestEvaluatorProject(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var ev evaluator
	for _, s := range sweep(20) {
		ev.init(&s)
		for k := 0; k < 200; k++ {
			x := s.Point(rng.Float64()*2*math.Pi, (rng.Float64()-0.5)*math.Pi).Mul(1 + 0.01*(rng.Float64()-0.5))
			p, nv, ok := ev.project(x, 0.1)
			if !ok {
				continue
			}
			r, _ := s.ResidualHessian(p, false)
			if math.Abs(r.G) > 2*ProjectTol {
				t.Errorf("%+v: residual %g after projection", s, r.G)
			}
			if a := r.Grad.Normalize().Sub(nv).Len(); a > 1e-13 {
				t.Errorf("%+v: normal off by %g", s, a)
			}
		}
	}
}

// TestEvaluatorNear: an evaluation started from the powers of a nearby
// point (the binomial series of powSpec.powNear, or exp/log beyond its
// range) gives what a fresh evaluation gives, over steps from Newton's last
// corrections to a few percent of the coordinates.
func TestEvaluatorNear(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	shapes := append(sweep(20),
		geom.Superovoid{A: [3]float64{1, 0.8, 0.6}, Eps: [2]float64{0.3, 0.3}},
		geom.Superovoid{A: [3]float64{1, 0.8, 0.6}, Eps: [2]float64{0.5, 0.8}, Taper: [2]float64{0.2, -0.1}},
		geom.Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{0.05, 1.95}, Taper: [2]float64{-0.5, 0.5}},
		geom.Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{1.95, 0.05}},
	)
	var ev evaluator
	worstF, worstN := 0.0, 0.0
	series := 0
	for _, s := range shapes {
		ev.init(&s)
		for k := 0; k < 300; k++ {
			x0 := s.Point(rng.Float64()*2*math.Pi, (rng.Float64()-0.5)*math.Pi).Mul(1 + 0.01*(rng.Float64()-0.5))
			var c powCache
			if _, _, ok := ev.evalc(x0, &c, false); !ok {
				continue
			}
			step := math.Pow(10, -1-12*rng.Float64()) * maxAxis(s)
			x1 := x0.Add(geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Normalize().Mul(step))
			if k%5 == 0 {
				x1[k/5%3] = x0[k/5%3] // one base unchanged
			}
			c0 := c
			f, g, ok := ev.evalc(x1, &c, true)
			fw, gw, okw := ev.eval(x1)
			if ok != okw {
				t.Fatalf("%+v at %v: near ok %v, fresh ok %v", s, x1, ok, okw)
			}
			if !ok {
				continue
			}
			if r := math.Abs(c.au-c0.au) * c0.iu; ev.pp.general && r <= ev.pp.rmax && r > 0 {
				series++
			}
			df := math.Abs(f - fw)
			an := math.Atan2(g.Cross(gw).Len(), g.Dot(gw))
			worstF, worstN = math.Max(worstF, df), math.Max(worstN, an)
			if df > 1e-14*math.Max(1, math.Abs(fw)) || an > 1e-14 || math.Abs(g.Len()/gw.Len()-1) > 1e-13 {
				t.Errorf("%+v from %v to %v: F %.17g (fresh %.17g), gradient %v (fresh %v)", s, x0, x1, f, fw, g, gw)
			}
		}
	}
	t.Logf("worst residual difference %.2g, normal angle %.2g rad; %d series evaluations", worstF, worstN, series)
	if series < 1000 {
		t.Errorf("only %d evaluations used the series", series)
	}
}
