package contact

import (
	"math"
	"testing"
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
