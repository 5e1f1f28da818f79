package contact

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestMTDThinPlates: a thin plate overlapping a block, a case where the
// gap function has several local maxima with narrow basins (pushing the
// plate out through its thin side, or sideways through its long one) and
// where Newton crawls between nearly flat faces. Every answer must be the
// minimum translation distance of the independent reference (two-sided, as
// in checkAgainstReference, to 1e-6: box-like faces may end Newton at
// max_iterations with a residual near 1e-8, which the status says).
func TestMTDThinPlates(t *testing.T) {
	// Each case failed before the fixes of the multi-start (too few starts
	// near the plate's thin direction; Newton stalling between flat faces;
	// exploratory starts cut short). The reference search is slow on
	// box-like shapes (about 3 s a pair), hence only these.
	cases := []struct{ e, x, z float64 }{
		{0.1, 0.9, 0}, {0.1, 0.9, 0.3}, {0.1, 1.5, 0.6}, {0.1, 2, 0.3},
		{0.2, 0.5, 0}, {0.2, 0.5, 0.6}, {0.3, 2, 0.3}, {0.5, 2, 0.3},
	}
	bad := 0
	for i, c := range cases {
		e := c.e
		a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{e, e}}, Pose: geom.Identity()}
		b := geom.Body{Shape: geom.Superovoid{A: [3]float64{2, 2, 0.2}, Eps: [2]float64{e, e}}, Pose: geom.Pose{Position: geom.Vec3{c.x, 0, c.z}, Orientation: geom.Quat{W: 1}}}
		opt := DefaultOptions()
		res := Query(&a, &b, &opt)
		if res.Status == Failed {
			t.Errorf("plate %d: failed", i)
			bad++
			continue
		}
		ref, refN := refSignedDistance(&a, &b)
		at := refGapAt(&a, &b, res.Normal)
		if res.Distance >= 0 || math.Abs(at-res.Distance) > 1e-6 || res.Distance < ref-1e-6 {
			bad++
			t.Errorf("plate %d (e %.2f): got %.9f (%v, %d starts), independent gap at its normal %.9f, independent max %.9f along %.3f",
				i, e, res.Distance, res.Status, res.Starts, at, ref, refN)
		}
	}
	if bad > 0 {
		t.Logf("%d of %d plates wrong", bad, len(cases))
	}
}
