package contact

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// denseSignedDistance is the signed distance from c to the surface of s
// (local frame) by dense parametric sampling and local refinement: an
// independent reference that sees dents as well as hulls.
func denseSignedDistance(s *geom.Superovoid, c geom.Vec3) float64 {
	best, b1, b2 := math.Inf(1), 0.0, 0.0
	const na, nz = 400, 200
	for i := 0; i < na; i++ {
		for j := 0; j <= nz; j++ {
			p1 := -math.Pi + 2*math.Pi*float64(i)/na
			p2 := -math.Pi/2 + math.Pi*float64(j)/nz
			if d := s.Point(p1, p2).Sub(c).Len(); d < best {
				best, b1, b2 = d, p1, p2
			}
		}
	}
	st1, st2 := 2*math.Pi/na, math.Pi/nz
	for it := 0; it < 80; it++ {
		for _, d := range [][2]float64{{st1, 0}, {-st1, 0}, {0, st2}, {0, -st2}} {
			q2 := math.Max(-math.Pi/2, math.Min(math.Pi/2, b2+d[1]))
			if v := s.Point(b1+d[0], q2).Sub(c).Len(); v < best {
				best, b1, b2 = v, b1+d[0], q2
			}
		}
		st1, st2 = st1*0.7, st2*0.7
	}
	if f, ok := s.Residual(c); ok && f < 0 {
		return -best
	}
	return best
}

// A large sphere against the caved-in side of a pointy tapered body (e2 =
// 1.95, taper 0.5: the hull bridges a dent up to 0.09 deep). The support
// seeds of the multi-start sit on the hull; the octree seed refined by
// alternating projections finds the pair in the dent (these placements
// returned 0.086, 0.026, 0.026, 0.015 before it). The distance to a sphere
// is the distance to its centre minus its radius, so dense sampling of the
// dented body alone gives the truth.
func TestSphereInDent(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1.95}, Taper: [2]float64{0.5, 0.5}}, Pose: geom.Identity()}
	for _, c := range []struct {
		rho float64
		at  geom.Vec3
	}{
		{2.503, geom.Vec3{2.2327167944635757, 0, -2.3068657853749825}},
		{2.566, geom.Vec3{2.22795476553426, 0, -2.3185456746065123}},
		{2.258, geom.Vec3{1.9935109385776084, 0, -2.113830171165602}},
		{2.585, geom.Vec3{2.229554386300482, 0, -2.3305222265587147}},
	} {
		b := geom.Body{Shape: geom.Sphere(c.rho), Pose: geom.Pose{Position: c.at, Orientation: geom.Quat{W: 1}}}
		opt := DefaultOptions()
		r := Query(&a, &b, &opt)
		want := denseSignedDistance(&a.Shape, c.at) - c.rho
		if r.Status != Converged || math.Abs(r.Distance-want) > 1e-6 {
			t.Errorf("sphere %g at %v: distance %.9g (%v, certified %v), dense sampling %.9g", c.rho, c.at, r.Distance, r.Status, r.Certified, want)
		}
	}
}

// Paper 000's battery never pays for the dent search: its shapes' hull gaps
// (up to about 2% of their size) stay below caveGap, while the caved-in
// shape of TestSphereInDent is above it.
func TestBatteryBelowCaveGap(t *testing.T) {
	c := newShapeCache()
	worst := 0.0
	for _, p := range PaperBattery(1500, 1) {
		for i := range p {
			in := c.info(&p[i].Shape)
			worst = math.Max(worst, in.hullGap/maxAxis(&p[i].Shape))
		}
	}
	t.Logf("largest hull gap in the battery: %.3g of the largest semi-axis", worst)
	if worst >= caveGap {
		t.Fatalf("a battery shape has hull gap %.3g >= caveGap %g", worst, caveGap)
	}
	dent := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1.95}, Taper: [2]float64{0.5, 0.5}}
	if in := c.info(&dent); in.hullGap <= caveGap*maxAxis(&dent) {
		t.Fatalf("the caved-in shape has hull gap %g, not above caveGap", in.hullGap)
	}
}
