package contact

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// The reported normals (taken from Newton's last evaluation, to first order
// in its last step) are the exact surface normals at the reported points,
// for every scheme, cold and warm.
func TestResultNormalsAreExact(t *testing.T) {
	pairs := PaperBattery(400, 9)
	worst := 0.0
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method, opt.Guess = m, Support
		sv := NewSolver(opt)
		for i := range pairs {
			a, b := &pairs[i][0], &pairs[i][1]
			r := sv.Query(a, b)
			b.Pose.Position[0] += 1e-3
			w := sv.QueryWarm(a, b, &r)
			b.Pose.Position[0] -= 1e-3
			for _, res := range []*Result{&r, &w} {
				if res.Status != Converged {
					t.Fatalf("%v pair %d: %v", m, i, res.Status)
				}
				ta, tb := a.Pose.Transform(), b.Pose.Transform()
				na, _ := a.Shape.Normal(res.LocalP)
				nb, _ := b.Shape.Normal(res.LocalQ)
				ea := ta.Dir(na).Sub(res.Normal).Len() // the angle, to first order
				eb := tb.Dir(nb).Sub(res.NormalQ).Len()
				worst = math.Max(worst, math.Max(ea, eb))
				if ea > 1e-11 || eb > 1e-11 {
					t.Fatalf("%v pair %d: normals off by %.3g, %.3g rad", m, i, ea, eb)
				}
			}
		}
	}
	t.Logf("worst normal error %.3g rad", worst)
}

// Witness points on a coordinate plane of shapes with an exponent near 2:
// the normal lies in the plane too (the floored |x|^(p−1) once tilted it by
// 1.4e-4), and q − p is along it.
func TestNormalsOnSymmetryPlane(t *testing.T) {
	for _, e1 := range []float64{1.9, 1.95} {
		a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{e1, 1}, Taper: [2]float64{0.2, 0.1}}, Pose: geom.Identity()}
		b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{e1, 1}}, Pose: geom.Pose{Position: geom.Vec3{0, 2.5, 0}, Orientation: geom.Quat{W: 1}}}
		opt := DefaultOptions()
		r := Query(&a, &b, &opt)
		d := r.Q.Sub(r.P)
		if r.Status != Converged || r.P[0] != 0 || r.Normal[0] != 0 || d.Mul(1/d.Len()).Sub(r.Normal).Len() > 1e-9 {
			t.Fatalf("e1 %g: %v p %v q %v normal %v", e1, r.Status, r.P, r.Q, r.Normal)
		}
	}
}

// Pointy tips face to face and pointed sections side by side (exponents
// near 2, where the normal turns abruptly at the tip): the distance is the
// gap between the tips, and the answer converges (it once ended "failed"
// with the right distance: the support point of the axis direction was
// Point(0, π/2), 1e-32 off the tip, where the normal is already tilted).
func TestPointyTipsFaceToFace(t *testing.T) {
	for _, c := range []struct {
		eps geom.Vec3
		at  geom.Vec3
	}{
		{geom.Vec3{1, 1.95}, geom.Vec3{0, 0, 2.5}},
		{geom.Vec3{1, 1.9}, geom.Vec3{0, 0, -2.5}},
		{geom.Vec3{1.95, 1}, geom.Vec3{0, 2.5, 0}},
		{geom.Vec3{1.9, 1}, geom.Vec3{2.5, 0, 0}},
	} {
		s := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{c.eps[0], c.eps[1]}}
		a := geom.Body{Shape: s, Pose: geom.Identity()}
		b := geom.Body{Shape: s, Pose: geom.Pose{Position: c.at, Orientation: geom.Quat{W: 1}}}
		opt := DefaultOptions()
		r := Query(&a, &b, &opt)
		if r.Status != Converged || math.Abs(r.Distance-0.5) > 1e-9 {
			t.Errorf("eps %v at %v: %v (%v)", c.eps[:2], c.at, r.Distance, r.Status)
		}
	}
}
