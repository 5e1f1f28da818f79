package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// scaleFactors are the sizes at which the scale-invariance tests compare a
// body with its unit-scale original: the support search once overflowed
// beyond 5e7 and underflowed below 2e-8 at e1 = 1.95 (its section norm's
// terms raised to k = 40), with errors up to 95% of the support at 1e9.
var scaleFactors = []float64{1e-12, 1e-9, 1e-6, 1, 1e6, 1e9, 1e12}

// scaleShapes returns shapes over the whole parameter range: every pair of
// the exponents' grid, ends included, with no taper, equal tapers, the
// extreme opposite tapers and random ones, then random shapes with
// extreme exponents; semi-axes in [0.3, 2].
func scaleShapes(r *rand.Rand) []Superovoid {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	grid := []float64{MinEps, 0.3, 1, 1.7, MaxEps}
	var out []Superovoid
	for _, e1 := range grid {
		for _, e2 := range grid {
			for v := 0; v < 5; v++ {
				s := Superovoid{A: [3]float64{u(0.3, 2), u(0.3, 2), u(0.3, 2)}, Eps: [2]float64{e1, e2}}
				switch v {
				case 1:
					s.Taper[0] = u(-MaxTaper, MaxTaper)
					s.Taper[1] = s.Taper[0]
				case 2:
					s.Taper = [2]float64{MaxTaper, -MaxTaper}
				case 3:
					s.Taper = [2]float64{-MaxTaper, MaxTaper}
				case 4:
					s.Taper = [2]float64{u(-MaxTaper, MaxTaper), u(-MaxTaper, MaxTaper)}
				}
				out = append(out, s)
			}
		}
	}
	for i := 0; i < 100; i++ {
		s := Superovoid{A: [3]float64{u(0.3, 2), u(0.3, 2), u(0.3, 2)},
			Eps:   [2]float64{u(MinEps, MaxEps), u(MinEps, MaxEps)},
			Taper: [2]float64{u(-MaxTaper, MaxTaper), u(-MaxTaper, MaxTaper)}}
		if i%2 == 0 {
			s.Eps = [2]float64{extremeEps(r), extremeEps(r)}
		}
		out = append(out, s)
	}
	return out
}

// scaled returns s with its semi-axes multiplied by f.
func scaled(s Superovoid, f float64) Superovoid {
	s.A = [3]float64{s.A[0] * f, s.A[1] * f, s.A[2] * f}
	return s
}

// scaleDirections returns random directions and a few special ones:
// horizontal, within 1e-3 and 1e-8 of the axis, and along a principal
// axis.
func scaleDirections(r *rand.Rand, m int) []Vec3 {
	ns := []Vec3{{0.6, -0.8, 0}, {1e-3, 2e-3, 1}, {-1e-8, 1e-8, -1}, {1, 0, 0.3}, {0, -1, -0.2}}
	for len(ns) < m {
		ns = append(ns, Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()})
	}
	return ns
}

// The support function, the point with a given normal and the support
// point of a convex shape scale with the body: Support(f·body, n) =
// f·Support(body, n) to 1e-12 relative at every size from 1e-12 to 1e12,
// over the whole parameter range. Before the support problem was measured
// in units of the section's larger term, the section norm's terms
// overflowed or underflowed at k = 2/(2 − e1) up to 40 and the search fell
// back to the tip: errors up to 95% at 1e9 and 1e-9.
func TestSupportScaleInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	shapes := scaleShapes(r)
	worstH, worstX, worstCvx := 0.0, 0.0, 0.0
	checks := 0
	for _, s := range shapes {
		ns := scaleDirections(r, 24)
		h1 := make([]float64, len(ns))
		x1 := make([]Vec3, len(ns))
		c1 := make([]Vec3, len(ns))
		for j, n := range ns {
			h1[j], x1[j] = s.Support(n)
			c1[j] = s.SupportOfConvex(n)
		}
		R := s.BoundingRadiusFast()
		for _, f := range scaleFactors {
			sf := scaled(s, f)
			for j, n := range ns {
				h, x := sf.Support(n)
				xc := sf.SupportOfConvex(n)
				checks++
				eh := math.Abs(h/f-h1[j]) / math.Abs(h1[j])
				ex := x.Mul(1/f).Sub(x1[j]).Len() / R
				ec := xc.Mul(1/f).Sub(c1[j]).Len() / R
				worstH, worstX, worstCvx = max(worstH, eh), max(worstX, ex), max(worstCvx, ec)
				if !(eh <= 1e-12) || !(ex <= 1e-12) || !(ec <= 1e-12) {
					t.Fatalf("%+v at scale %g, n = %v: support %.17g (%.17g at scale 1, %.3g relative), point %v (%v, %.3g of the size), convex search's %v (%v, %.3g)",
						s, f, n, h/f, h1[j], eh, x.Mul(1/f), x1[j], ex, xc.Mul(1/f), c1[j], ec)
				}
			}
		}
	}
	t.Logf("%d shapes, %d comparisons: worst relative error of the support %.3g, of the point %.3g (of the size), of the convex search's point %.3g",
		len(shapes), checks, worstH, worstX, worstCvx)
}

// The support check's verdicts do not depend on the body's size: for the
// support points themselves and for random surface points with their
// normals (accepted and refused), at every size from 1e-12 to 1e12, with
// the tolerance scaled with the body.
func TestSupportVerdictScaleInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(73, 74))
	shapes := scaleShapes(r)
	type probe struct {
		n, x        Vec3
		ok, premise bool
	}
	checks, accepted, refused, skipped := 0, 0, 0, 0
	tiny := func(x Vec3) bool {
		for _, c := range x {
			if c != 0 && math.Abs(c) < 1e-280 {
				return true
			}
		}
		return false
	}
	for _, s := range shapes {
		tol := 1e-9 * s.BoundingRadiusFast()
		var probes []probe
		tab := s.SupportTable()
		for j, n := range scaleDirections(r, 12) {
			var x Vec3
			if j%2 == 0 {
				x, _, _, _ = s.PointWithNormal(n)
			} else {
				x = s.Point(-math.Pi+2*math.Pi*r.Float64(), -1.5+3*r.Float64())
				var ok bool
				if n, ok = s.Normal(x); !ok {
					continue
				}
			}
			if tiny(x) {
				// Coordinates within 1e-280 of 0 (a pointy tip's support
				// point, within 1e-300 of the axis): at 1e-12 they would
				// be subnormal, not the same point scaled.
				skipped++
				continue
			}
			e, ok := s.Hessian(x)
			if !ok {
				continue
			}
			v, pr := tab.SupportVerdict(n, x, tol, &e)
			probes = append(probes, probe{n, x, v, pr})
		}
		for _, f := range scaleFactors {
			sf := scaled(s, f)
			tf := sf.SupportTable()
			for _, p := range probes {
				x := p.x.Mul(f)
				e, ok := sf.Hessian(x)
				if !ok {
					t.Fatalf("%+v at scale %g: no Hessian at %v", s, f, x)
				}
				v, pr := tf.SupportVerdict(p.n, x, tol*f, &e)
				checks++
				if v {
					accepted++
				} else {
					refused++
				}
				if v != p.ok || pr != p.premise {
					t.Errorf("%+v at scale %g, n = %v, x = %v (scaled): verdict (%v, premise %v), at scale 1 (%v, %v)",
						s, f, p.n, p.x, v, pr, p.ok, p.premise)
				}
			}
		}
	}
	t.Logf("%d checks (%d accepted, %d refused) agree at every scale (%d points within 1e-280 of an axis left out)", checks, accepted, refused, skipped)
	if accepted == 0 || refused == 0 {
		t.Fatalf("accepted %d, refused %d: the sweep tests one side only", accepted, refused)
	}
}

// Convexity's verdict and its measured gap scale with the body (its scan
// uses the section norm of the support search): the gap to 1e-11 of the
// size (its bitangent's golden-section searches round to about 1e-12).
func TestConvexityScaleInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(75, 76))
	shapes := scaleShapes(r)
	worst := 0.0
	for i, s := range shapes {
		if i%3 != 0 {
			continue // (a third of them: the scan is the slow part)
		}
		c1 := s.Convexity()
		for _, f := range []float64{1e-12, 1e-9, 1e9, 1e12} {
			sf := scaled(s, f)
			c := sf.Convexity()
			e := math.Abs(c.HullGap/f-c1.HullGap) / s.BoundingRadiusFast()
			worst = max(worst, e)
			if c.Convex != c1.Convex || c.Reason != c1.Reason || !(e <= 1e-11) {
				t.Errorf("%+v at scale %g: convex %v (%s) gap %.17g; at scale 1 %v (%s) gap %.17g",
					s, f, c.Convex, c.Reason, c.HullGap/f, c1.Convex, c1.Reason, c1.HullGap)
			}
		}
	}
	t.Logf("worst difference of the hull gap %.3g of the size", worst)
}
