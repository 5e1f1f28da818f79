package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
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

// approachKnown are the answers TestApproachSweep finds too deep at its
// own seed and accepts (draw/pair/step/answer). None since 2026-12-07:
// the last, draw 0's pair 94 at step 55, warm, 0.235505 where the hulls
// part after 0.231406, is answered right since the probe looks again
// where the best direction it measured comes near the answer
// (TestHullGapAscentWarm).
var approachKnown = map[string]bool{}

// TestApproachSweep approaches overlapping pointy pairs with a non-convex
// shape from random directions, 60 steps from apart (0.02 or more) to the
// drawn overlap, and checks at every step within the depth range
// (0.3 of the smaller smallest semi-axis) the three schemes' cold answers
// and a warm start's (implicit). Two bounds refute an answer as too deep:
// the shallowest translation found that parts the convex hulls
// (hullDepthBound, then dense samples' supports along its direction),
// which also catches an error all four answers share; and, where they
// disagree by more than 1e-9, 1.0001 times the shallowest answer whose
// translation, 1.0001 times its depth, leaves the bodies apart by dense
// samples (refinedDeepest). An answer whose own translation leaves them
// overlapping is too shallow. It fails on any such answer not in
// approachKnown (at the default seed; SOVVIZ_SWEEP_SEED=N draws other
// pairs and directions, and accepts none). It runs only
// when SOVVIZ_APPROACH_SWEEP=1 is set (about 6 minutes;
// SOVVIZ_APPROACH_DRAW=k runs draw k alone):
//
//	SOVVIZ_APPROACH_SWEEP=1 go test -count 1 -run TestApproachSweep -v ./contact
func TestApproachSweep(t *testing.T) {
	if os.Getenv("SOVVIZ_APPROACH_SWEEP") != "1" {
		t.Skip("set SOVVIZ_APPROACH_SWEEP=1 to run the sweep of approaches (about 6 minutes)")
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
			// Translations that part the hulls part the bodies: no answer
			// may be deeper than the hulls' shallowest one found by dense
			// directions (hullDepthBound), where the schemes agree too.
			hd, hn := hullDepthBound(&a, &b)
			if -deepest > hd+1e-9 {
				// The search's supports are geom's, which missed a
				// maximum of a nearly flat profile before its flat check
				// (TestSupportTwoMaximaOneInterval): the bound that
				// refutes an answer is dense samples'.
				// (Both estimates lie at or below the true overlap: the
				// larger is the closer.)
				hd = max(hd, denseSupport(&a, hn)+denseSupport(&b, hn.Mul(-1)))
			}
			if shallowest-deepest <= 1e-9 && -deepest <= hd+1e-9 {
				continue
			}
			apart := func(x *Result) bool {
				c := b
				c.Pose.Position = b.Pose.Position.Add(x.Normal.Mul(-1.0001 * x.Distance))
				return !(refinedDeepest(&a, &c, 200, 100) < 0)
			}
			bound := -hd
			src := fmt.Sprintf("b moved %.9f along %.6f parts the hulls", hd, hn)
			for i := range rs {
				// (What apart proves: b moved 1.0001 times the depth is
				// apart. An answer shallower than another by less than
				// that slack refutes nothing: an unconverged answer 1e-7
				// shallower than the converged ones bounded them once.)
				if d := 1.0001 * rs[i].Distance; d > bound && apart(&rs[i]) {
					bound = d
					src = fmt.Sprintf("b moved %.9f along another normal is apart", -bound)
				}
			}
			for i := range rs {
				x := &rs[i]
				var why string
				switch {
				case x.Distance < bound-1e-9:
					why = fmt.Sprintf("too deep: %.9f, and %s", x.Distance, src)
				case !apart(x):
					why = fmt.Sprintf("too shallow: %.9f, and b moved 1.0001 times that along its normal still overlaps", x.Distance)
				default:
					continue
				}
				if !reseeded && approachKnown[fmt.Sprintf("%d/%d/%d/%s", di, pi, k, names[i])] {
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

// hullDepthBound is the shallowest translation of b found that parts the
// convex hulls of a and b (so the bodies too): the least overlap of their
// support functions, h_a(n) + h_b(−n), over 400 directions spread over the
// sphere, refined by a pattern search from the best three more than 20°
// apart. Any direction's overlap bounds the minimum translation distance
// from above, however well the search did; it is the bodies' own where
// their shallowest translation's contacts are hull points.
func hullDepthBound(a, b *geom.Body) (depth float64, dir geom.Vec3) {
	// (The support tables' search: the shapes' own scan is several times
	// slower.)
	ta, tb := a.Shape.SupportTable(), b.Shape.SupportTable()
	fa, fb := a.Pose.Transform(), b.Pose.Transform()
	h := func(tab *geom.SupportTable, tf *geom.Transform, n geom.Vec3) float64 {
		x, _, _, _ := tab.PointWithNormal(tf.InvDir(n))
		return n.Dot(tf.Point(x))
	}
	over := func(n geom.Vec3) float64 {
		return h(&ta, &fa, n) + h(&tb, &fb, n.Mul(-1))
	}
	const n = 400
	var o [n]float64
	for k := range o {
		o[k] = over(fibonacciDir(k, n))
	}
	depth = math.Inf(1)
	var kept []geom.Vec3
	for len(kept) < 3 {
		best := -1
		for k := range o {
			if !math.IsInf(o[k], 1) && (best < 0 || o[k] < o[best]) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		d := fibonacciDir(best, n)
		for k := range o {
			if fibonacciDir(k, n).Dot(d) > math.Cos(20*math.Pi/180) {
				o[k] = math.Inf(1)
			}
		}
		kept = append(kept, d)
		v := over(d)
		// A compass search on the sphere: the step grows after a move and
		// halves where no neighbour is lower.
		for step, it := 0.02, 0; step > 1e-9 && it < 400; it++ {
			e1 := d.Cross(geom.Vec3{1, 0, 0})
			if e1.Len() < 0.5 {
				e1 = d.Cross(geom.Vec3{0, 1, 0})
			}
			e1 = e1.Normalize()
			e2 := d.Cross(e1)
			bd, bv := d, v
			for _, e := range [4]geom.Vec3{e1, e1.Mul(-1), e2, e2.Mul(-1)} {
				c := d.Add(e.Mul(step)).Normalize()
				if w := over(c); w < bv {
					bd, bv = c, w
				}
			}
			if bv < v {
				d, v, step = bd, bv, 1.5*step
			} else {
				step /= 2
			}
		}
		if v < depth {
			depth, dir = v, d
		}
	}
	return depth, dir
}

// denseSupport is b's support function along the world direction n from
// dense samples: the largest n·x over a grid of 800 azimuths by 401
// zeniths (tips and ridges on it), refined by a pattern search from the
// best sample of each of the grid's eight best separate regions.
func denseSupport(b *geom.Body, n geom.Vec3) float64 {
	const N = 400
	tf := b.Pose.Transform()
	nl := tf.InvDir(n)
	at := func(p1, p2 float64) float64 { return nl.Dot(b.Shape.Point(p1, p2)) }
	type sample struct{ v, p1, p2 float64 }
	var top []sample
	for j := 0; j < 2*N; j++ {
		p1 := -math.Pi + math.Pi*float64(j)/N
		for i := 0; i <= N; i++ {
			p2 := -math.Pi/2 + math.Pi*float64(i)/N
			v := at(p1, p2)
			if len(top) == 8 && v <= top[7].v {
				continue
			}
			// (Separate regions: a sample within four grid steps of a
			// kept one replaces it when better.)
			k := len(top)
			for m, x := range top {
				if math.Abs(math.Remainder(x.p1-p1, 2*math.Pi)) < 4*math.Pi/N && math.Abs(x.p2-p2) < 4*math.Pi/N {
					k = m
					break
				}
			}
			if k < len(top) && top[k].v >= v {
				continue
			}
			if k == len(top) {
				if len(top) < 8 {
					top = append(top, sample{})
				} else {
					k = 7
				}
			}
			top[k] = sample{v, p1, p2}
			sort.Slice(top, func(x, y int) bool { return top[x].v > top[y].v })
		}
	}
	best := math.Inf(-1)
	for _, x := range top {
		v, p1, p2 := x.v, x.p1, x.p2
		for st := math.Pi / N; st > 1e-13; st *= 0.6 {
			for moved := true; moved; {
				moved = false
				for _, d := range [4][2]float64{{st, 0}, {-st, 0}, {0, st}, {0, -st}} {
					q2 := max(-math.Pi/2, min(math.Pi/2, p2+d[1]))
					if w := at(p1+d[0], q2); w > v {
						v, p1, p2, moved = w, p1+d[0], q2, true
					}
				}
			}
		}
		best = max(best, v)
	}
	return best + n.Dot(b.Pose.Position)
}
