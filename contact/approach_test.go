package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// approachDraws are TestApproachSweep's draws: pairs of placedPair with
// both exponents from lo to 1.9 (overlapping within the range, a
// non-convex shape), or with lo 0 the pairs of nonConvexPointyOverlaps.
var approachDraws = []struct {
	n    int
	seed uint64
	lo   float64
}{
	{150, 2, 1.6}, {150, 3, 1.3}, {300, 1, 0},
}

// approachKnown are the answers TestApproachSweep finds too deep and
// accepts: draw 0's pair 94 at steps 55 and 56, whose shortest
// translation touches the bodies at two points at once (docs/contact.md,
// "Known limits").
var approachKnown = map[string]bool{"0/94/55": true, "0/94/56": true}

// TestApproachSweep approaches overlapping pointy pairs with a non-convex
// shape from random directions, 60 steps from apart (0.02 or more) to the
// drawn overlap, and compares at every step within the depth
// range (0.3 of the smaller smallest semi-axis) the three schemes' cold
// answers and a warm start's (implicit). Where they disagree by more than
// 1e-9, the shallowest answer whose translation, 1.0001 times its depth,
// leaves the bodies apart by dense samples (refinedDeepest) bounds the
// others: a deeper one is too deep, and one whose own translation leaves
// them overlapping too shallow. It fails on any such answer not in
// approachKnown (at the default seed; SOVVIZ_SWEEP_SEED=N draws other
// pairs and directions, and accepts none). It runs only when
// SOVVIZ_APPROACH_SWEEP=1 is set (about 3 minutes; SOVVIZ_APPROACH_DRAW=k
// runs draw k alone):
//
//	SOVVIZ_APPROACH_SWEEP=1 go test -count 1 -run TestApproachSweep -v ./contact
func TestApproachSweep(t *testing.T) {
	if os.Getenv("SOVVIZ_APPROACH_SWEEP") != "1" {
		t.Skip("set SOVVIZ_APPROACH_SWEEP=1 to run the sweep of approaches (about 3 minutes)")
	}
	for di, dr := range approachDraws {
		if k := os.Getenv("SOVVIZ_APPROACH_DRAW"); k != "" && k != fmt.Sprint(di) {
			continue
		}
		approachDraw(t, di, dr.n, dr.seed, dr.lo)
	}
}

func approachDraw(t *testing.T, di, n int, seed uint64, lo float64) {
	r := rand.New(sweepPCG(t, seed, 3))
	_, reseeded := os.LookupEnv("SOVVIZ_SWEEP_SEED")
	var pairs [][2]geom.Body
	if lo > 0 {
		sv := NewSolver(DefaultOptions())
		for len(pairs) < n {
			a, b := placedPair(r, lo, 1.9, lo, 1.9)
			if d := sv.Query(&a, &b).Distance; d < 0 && -d < 0.3*min(minAxis(&a.Shape), minAxis(&b.Shape)) && !analysedPair(sv, &a, &b).convex {
				pairs = append(pairs, [2]geom.Body{a, b})
			}
		}
	} else {
		pairs = nonConvexPointyOverlaps(n, 100+seed)
	}
	var cold [3]*Solver
	for i, m := range allMethods {
		o := DefaultOptions()
		o.Method = m
		cold[i] = NewSolver(o)
	}
	warm := NewSolver(DefaultOptions())
	names := [4]string{"implicit", "parametric", "ntb", "warm"}
	wrong, known, compared := 0, 0, 0
	for pi, p := range pairs {
		a, b := p[0], p[1]
		end := b.Pose.Position
		d := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		for s := 0.05; ; s *= 1.3 {
			b.Pose.Position = end.Add(d.Mul(s))
			if cold[0].Query(&a, &b).Distance > 0.02 {
				break
			}
		}
		start := b.Pose.Position
		lim := 0.3 * min(minAxis(&a.Shape), minAxis(&b.Shape))
		const steps = 60
		var prev Result
		for k := 0; k <= steps; k++ {
			b.Pose.Position = start.Add(end.Sub(start).Mul(float64(k) / steps))
			var rs [4]Result
			for i := range cold {
				rs[i] = cold[i].Query(&a, &b)
			}
			if k == 0 {
				rs[3] = warm.Query(&a, &b)
			} else {
				rs[3] = warm.QueryWarm(&a, &b, &prev)
			}
			prev = rs[3]
			deepest, shallowest := math.Inf(1), math.Inf(-1)
			for _, x := range rs {
				deepest, shallowest = min(deepest, x.Distance), max(shallowest, x.Distance)
			}
			if !(shallowest < 0) || -shallowest > lim {
				continue
			}
			compared++
			if shallowest-deepest <= 1e-9 {
				continue
			}
			apart := func(x *Result) bool {
				c := b
				c.Pose.Position = b.Pose.Position.Add(x.Normal.Mul(-1.0001 * x.Distance))
				return !(refinedDeepest(&a, &c, 200, 100) < 0)
			}
			bound := math.Inf(-1)
			for i := range rs {
				if rs[i].Distance > bound && apart(&rs[i]) {
					bound = rs[i].Distance
				}
			}
			for i := range rs {
				x := &rs[i]
				var why string
				switch {
				case x.Distance < bound-1e-9:
					why = fmt.Sprintf("too deep: %.9f, and b moved %.9f along another normal is apart", x.Distance, -bound)
				case !apart(x):
					why = fmt.Sprintf("too shallow: %.9f, and b moved 1.0001 times that along its normal still overlaps", x.Distance)
				default:
					continue
				}
				if !reseeded && approachKnown[fmt.Sprintf("%d/%d/%d", di, pi, k)] {
					known++
					t.Logf("draw %d pair %d step %d, %s: %s (known)", di, pi, k, names[i], why)
					continue
				}
				wrong++
				t.Errorf("draw %d pair %d step %d, %s: %s", di, pi, k, names[i], why)
			}
		}
	}
	t.Logf("draw %d (%d pairs, seed %d, exponents from %g): %d answers compared in range, %d wrong, %d known", di, len(pairs), seed, lo, 4*compared, wrong, known)
}
