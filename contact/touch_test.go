package contact

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestTouchingPointyPairs places a pointy shape (both exponents 1.6–1.95,
// tapered, most of them caved) and a whole-range shape so that their
// exact support points along a random direction n are g apart along n:
// the support planes then separate the bodies by g and the two points
// realise it, so the distance is exactly g for g ≥ 0, and an overlap of g
// < 0 is at most |g| deep. Resting contact in a multibody scene looks like
// this. No answer that is not failed may be below g by more than 1e-9 of
// the size (closer, or deeper, than the bodies are), a converged one not
// above it either (max_iterations answers may be: a true distance, at or
// above the minimum); failed ones are counted. 300 pairs at each gap by
// default, 2,000 with SOVVIZ_TOUCH_SWEEP=1 (about 10 s):
//
//	SOVVIZ_TOUCH_SWEEP=1 go test -count 1 -run TouchingPointyPairs -v ./contact
//
// KNOWN FAILURE (2026-11-25, issue #2's note): the 2,000-pair run fails on
// two converged answers of the default, implicit scheme, both on pairs
// with a caved shape, where overlapping answers come from a multi-start
// over a handful of directions and no certificate (docs/contact.md,
// "Known limits"): at g = −1e-10 pair 140 is answered −0.147 deep (the
// parametric and ntb schemes answer −1.004e-10), and at g = 0 pair 1716
// −7.6e-9. It also counts 3 failed answers at g = 0 and 6 at −1e-10 (the
// distance is then an estimate) and 6 max_iterations ones, up to 1.1e-5
// above g. The default 300 pairs pass. (Checking non-convex overlaps with
// the hulls' expanding polytope from 0.3 of the smallest semi-axis, as
// convex ones are, instead of from 1.0 (checkMTD) answers pair 140 right,
// but made the paper battery's cold overlapping queries 70 µs on average
// and 1,028 µs at p99 instead of 5.8 and 16.4 (sovviz bench -guess support
// -method implicit): a non-convex shape's exact support is a global
// search. Not adopted.)
func TestTouchingPointyPairs(t *testing.T) {
	n := 300
	if os.Getenv("SOVVIZ_TOUCH_SWEEP") == "1" {
		n = 2000
	}
	r := rand.New(rand.NewPCG(4243, 2))
	opt := DefaultOptions()
	for _, g := range []float64{0, 1e-10, -1e-10} {
		failed, placed := 0, 0
		for i := 0; i < n; i++ {
			a := geom.Body{Shape: rangedShape(r, 1.6, 1.95), Pose: geom.Pose{Orientation: randQuat(r)}}
			b := geom.Body{Shape: rangedShape(r, 0.05, 1.95), Pose: geom.Pose{Orientation: randQuat(r)}}
			nrm := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
			ta, tb := a.Pose.Transform(), b.Pose.Transform()
			pl, okA := SupportPoint(&a.Shape, ta.InvDir(nrm))
			ql, okB := SupportPoint(&b.Shape, tb.InvDir(nrm.Mul(-1)))
			if !okA || !okB {
				t.Fatalf("pair %d: no support point", i)
			}
			b.Pose.Position = ta.Point(pl).Add(nrm.Mul(g)).Sub(tb.Dir(ql))
			placed++
			res := Query(&a, &b, &opt)
			if res.Status == Failed {
				failed++
				continue
			}
			// Never below g (closer, or deeper, than the bodies are);
			// converged, not above it either.
			tol := 1e-9 * math.Max(1, math.Max(maxAxis(&a.Shape), maxAxis(&b.Shape)))
			if !finiteResult(&res) || res.Distance < g-tol || res.Status == Converged && res.Distance > g+tol {
				t.Errorf("g = %g, pair %d: %v %.17g (%s, %s)", g, i, res.Status, res.Distance, goBody(&a), goBody(&b))
			}
		}
		t.Logf("gap %g: %d pairs, %d failed", g, placed, failed)
	}
}
