package tessellate

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestVolumeClosedForm checks the closed form against the sphere, the cube
// limit and direct numerical integration of the section areas (midpoint
// rule on the superellipse area in polar form), tapers included.
func TestVolumeClosedForm(t *testing.T) {
	if v := Volume(&geom.Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{1, 1}}); math.Abs(v-4*math.Pi*6/3) > 1e-12 {
		t.Errorf("ellipsoid volume %v", v)
	}
	if v := Volume(&geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1e-4, 1e-4}}); math.Abs(v-8) > 1e-2 {
		t.Errorf("cube limit %v", v)
	}
	// e = 2 is the octahedron |x|+|y|+|z| ≤ 1, volume 4/3.
	if v := Volume(&geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{2, 2}}); math.Abs(v-4.0/3) > 1e-12 {
		t.Errorf("octahedron volume %v", v)
	}
	for k, s := range sweep(20) {
		got := Volume(&s)
		want := integrateVolume(&s)
		if math.Abs(got-want) > 1e-6*want {
			t.Errorf("shape %d %+v: closed form %.10g, integral %.10g", k, s, got, want)
		}
	}
}

// integrateVolume integrates the section areas over z numerically. The area
// of |x/A|^p + |y/B|^p ≤ 1 is ∫ ½ρ(φ)² dφ with ρ(φ) the polar radius.
func integrateVolume(s *geom.Superovoid) float64 {
	e1, e2 := s.Eps[0], s.Eps[1]
	unit := 0.0 // area of the unit superellipse
	const nphi = 40000
	for i := 0; i < nphi; i++ {
		phi := (float64(i) + 0.5) * 2 * math.Pi / nphi
		c, sn := math.Abs(math.Cos(phi)), math.Abs(math.Sin(phi))
		r := math.Pow(math.Pow(c, 2/e1)+math.Pow(sn, 2/e1), -e1/2)
		unit += 0.5 * r * r * 2 * math.Pi / nphi
	}
	// Substitute w = sin θ: the profile term (1 − |w|^(2/e2))^e2 drops to
	// zero with an infinite slope at |w| = 1, and the cos θ factor smooths
	// that for the midpoint rule (a power-law substitution like
	// w = spow(sin θ, e2) would be singular at w = 0 for e2 < 1).
	v := 0.0
	const nz = 40000
	for i := 0; i < nz; i++ {
		th := -math.Pi/2 + (float64(i)+0.5)*math.Pi/nz
		sn, cs := math.Sincos(th)
		r2 := math.Pow(math.Max(0, 1-math.Pow(math.Abs(sn), 2/e2)), e2)
		area := unit * s.A[0] * (1 + s.Taper[0]*sn) * s.A[1] * (1 + s.Taper[1]*sn) * r2
		v += area * s.A[2] * cs * math.Pi / nz
	}
	return v
}
