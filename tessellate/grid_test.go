package tessellate

import (
	"errors"
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestGridSweep: closed genus-0 meshes, vertices exactly on the surface,
// normals equal to geom's gradient, and volumes converging to the closed form
// at second order, over the parameter range.
func TestGridSweep(t *testing.T) {
	var g Grid
	for k, s := range sweep(12) {
		m, err := g.Build(s, 64, 32)
		if err != nil {
			t.Fatalf("shape %d: %v", k, err)
		}
		top := m.Topology()
		if !top.Sphere() || top.Vertices != 64*31+2 || top.Triangles != 2*64*31 {
			t.Errorf("shape %d %+v: %v", k, s, top)
		}
		if f := m.FacesAgreeWithNormals(); f != 0 {
			t.Errorf("shape %d: %d triangles face against the normals", k, f)
		}
		dev := m.Deviation(&s)
		if dev.VertexResidual > 1e-12 {
			t.Errorf("shape %d: vertex residual %g", k, dev.VertexResidual)
		}
		// geom floors |u|, |v|, |w| at 1e-150 before taking powers, which
		// tilts its gradient by up to (1e-150)^(2/e−1) (1e-8 and more for
		// e near 2, times the axis ratios) on the coordinate planes, where
		// the grid places its equator and seam samples; the grid's factored
		// gradient has no floor. Elsewhere both must agree to rounding.
		worstOn, worstOff := 0.0, 0.0
		for i, p := range m.Positions {
			g, ok := s.Normal(p)
			if !ok {
				t.Fatalf("shape %d: no normal at vertex %d %v", k, i, p)
			}
			n := m.Normals[i]
			a := math.Atan2(g.Cross(n).Len(), g.Dot(n))
			if p[0] == 0 || p[1] == 0 || p[2] == 0 {
				worstOn = math.Max(worstOn, a)
			} else {
				worstOff = math.Max(worstOff, a)
			}
		}
		if worstOff > 1e-12 || worstOn > 1e-5 {
			t.Errorf("shape %d %+v: normals off the gradient by %g rad (%g on coordinate planes)", k, s, worstOff, worstOn)
		}
		want := Volume(&s)
		v1 := m.Volume()
		m2, _ := g.Build(s, 256, 128)
		v2 := m2.Volume()
		e1, e2 := want-v1, want-v2
		// Inscribed polyhedra: below the body, and 16 times the cells
		// must shrink the gap at least 4-fold (second order gives 16).
		if e1 <= 0 || e2 <= 0 || e2 > e1/4 {
			t.Errorf("shape %d %+v: volume gaps %.3g (64x32), %.3g (256x128) of %.6g", k, s, e1, e2, want)
		}
		if e2/want > 2e-3 {
			t.Errorf("shape %d: 256x128 volume off by %.3g relative", k, e2/want)
		}
	}
}

// TestGridEvenSampling: for box-like shapes the angle-centre grid puts
// nearly all samples at the corners; the corrected grid keeps the longest
// equator edge within a small factor of the average.
func TestGridEvenSampling(t *testing.T) {
	for _, e := range []float64{0.1, 0.3, 1, 1.9} {
		s := geom.Superovoid{A: [3]float64{1, 0.5, 1}, Eps: [2]float64{e, e}}
		var g Grid
		m, err := g.Build(s, 64, 32)
		if err != nil {
			t.Fatal(err)
		}
		// Equator ring: 16th ring (index 1 + 15·64 … ) has z = 0.
		ring := m.Positions[1+15*64 : 1+16*64]
		if math.Abs(ring[0][2]) > 1e-12 {
			t.Fatalf("ring 16 not at the equator: z = %g", ring[0][2])
		}
		per, longest := 0.0, 0.0
		for i := range ring {
			l := ring[(i+1)%64].Sub(ring[i]).Len()
			per += l
			longest = math.Max(longest, l)
		}
		// Angle-centre samples at the same resolution, for comparison.
		acLongest := 0.0
		for i := 0; i < 64; i++ {
			p := s.Point(2*math.Pi*float64(i)/64, 0)
			q := s.Point(2*math.Pi*float64(i+1)/64, 0)
			acLongest = math.Max(acLongest, q.Sub(p).Len())
		}
		ratio := longest / (per / 64)
		t.Logf("e=%.1f: longest/mean edge %.2f (angle-centre grid %.2f)", e, ratio, acLongest/(per/64))
		if ratio > 2.2 {
			t.Errorf("e=%g: longest equator edge %.2f× the mean", e, ratio)
		}
		if e <= 0.3 && ratio > 0.5*acLongest/(per/64) {
			t.Errorf("e=%g: no better than the angle-centre grid", e)
		}
	}
}

// TestGridEdge: a target edge length bounds the edges along the equator and
// meridians.
func TestGridEdge(t *testing.T) {
	var g Grid
	for k, s := range sweep(4) {
		edge := 0.05 * maxAxis(s)
		n1, n2, err := g.SlicesForEdge(s, edge)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := g.Build(s, n1, n2)
		// Meridian edges in the xz plane (azimuth 0 sample is on +x).
		longest := 0.0
		prev := m.Positions[0]
		for j := 0; j < n2-1; j++ {
			p := m.Positions[1+j*n1]
			longest = math.Max(longest, p.Sub(prev).Len())
			prev = p
		}
		if longest > 1.1*edge {
			t.Errorf("shape %d: meridian edge %.4g > edge %.4g", k, longest, edge)
		}
	}
	if _, _, err := g.SlicesForEdge(geom.Sphere(1), 0); err == nil {
		t.Error("edge 0 accepted")
	}
}

func TestGridBadInput(t *testing.T) {
	var g Grid
	good := geom.Sphere(1)
	for _, c := range []struct {
		s      geom.Superovoid
		n1, n2 int
	}{
		{geom.Superovoid{A: [3]float64{1, -1, 1}, Eps: [2]float64{1, 1}}, 8, 8},
		{geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{math.NaN(), 1}}, 8, 8},
		{geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1}, Taper: [2]float64{0.7, 0}}, 8, 8},
		{good, 2, 8}, {good, 8, 1}, {good, 1 << 20, 8}, {good, 8, 1 << 20},
	} {
		if _, err := g.Build(c.s, c.n1, c.n2); err == nil {
			t.Errorf("%+v %dx%d accepted", c.s, c.n1, c.n2)
		}
	}
}

// TestLimits: shapes at the parameter limits give a valid mesh or an
// error, never a panic or NaN.
func TestLimits(t *testing.T) {
	var g Grid
	var mt Marcher
	for _, e1 := range []float64{geom.MinEps, 1, geom.MaxEps} {
		for _, e2 := range []float64{geom.MinEps, 1, geom.MaxEps} {
			for _, tp := range []float64{-geom.MaxTaper, geom.MaxTaper} {
				s := geom.Superovoid{A: [3]float64{0.3, 1.8, 1}, Eps: [2]float64{e1, e2}, Taper: [2]float64{tp, -tp}}
				m, err := g.Build(s, 3, 2)
				if err != nil || !m.Topology().Sphere() {
					t.Errorf("grid 3x2 %+v: %v", s, err)
				}
				m, err = mt.Build(s, MarchOptions{Edge: 0.06})
				if err != nil {
					// Creases of e near 2 on thin shapes can defeat the
					// front; that must be reported, quickly, as ErrNoClose.
					if !errors.Is(err, ErrNoClose) {
						t.Errorf("marching %+v: unexpected error %v", s, err)
					}
					t.Logf("marching %+v: %v", s, err)
					continue
				}
				top := m.Topology()
				dev := m.Deviation(&s)
				if !top.Sphere() || !(dev.VertexResidual <= 1e-9) {
					t.Errorf("marching %+v: %v residual %g", s, top, dev.VertexResidual)
				}
			}
		}
	}
}

// TestNoAllocs: re-tessellating with grown buffers allocates nothing.
func TestNoAllocs(t *testing.T) {
	s := geom.Superovoid{A: [3]float64{1, 0.8, 0.6}, Eps: [2]float64{0.4, 1.3}, Taper: [2]float64{0.2, -0.1}}
	var g Grid
	g.Build(s, 64, 32)
	e := 0.3
	if a := testing.AllocsPerRun(20, func() {
		e = 1.7 - e // a slider dragged back and forth
		s.Eps[0] = e
		g.Build(s, 64, 32)
	}); a != 0 {
		t.Errorf("grid: %v allocations per build", a)
	}
	var mt Marcher
	mt.Build(s, MarchOptions{Edge: 0.05})
	mt.Build(geom.Superovoid{A: [3]float64{1, 0.8, 0.6}, Eps: [2]float64{1.3, 1.3}, Taper: [2]float64{0.2, -0.1}}, MarchOptions{Edge: 0.05})
	if a := testing.AllocsPerRun(10, func() {
		e = 1.7 - e
		s.Eps[1] = e
		mt.Build(s, MarchOptions{Edge: 0.05})
	}); a != 0 {
		t.Errorf("marching triangles: %v allocations per build", a)
	}
}
