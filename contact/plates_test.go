package contact

import (
	"math"
	"math/rand/v2"
	"os"
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

// turnedPlate returns plate k of the stream seeded by seed: a 2×2×0.2 plate
// turned at random across the unit block, both of exponent e in [0.1, 1],
// the plate's centre within ±1.6, ±1.6, ±1.2 of the block's.
func turnedPlate(seed uint64, k int) (a, b geom.Body) {
	r := rand.New(rand.NewPCG(seed, 99))
	for i := 0; i < k; i++ {
		nextTurnedPlate(r)
	}
	return nextTurnedPlate(r)
}

// nextTurnedPlate draws the next plate of a turnedPlate stream.
func nextTurnedPlate(r *rand.Rand) (a, b geom.Body) {
	e := 0.1 + 0.9*r.Float64()
	pos := geom.Vec3{(2*r.Float64() - 1) * 1.6, (2*r.Float64() - 1) * 1.6, (2*r.Float64() - 1) * 1.2}
	q := geom.Quat{W: r.NormFloat64(), V: geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}.Normalize()
	a = geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{e, e}}, Pose: geom.Identity()}
	b = geom.Body{Shape: geom.Superovoid{A: [3]float64{2, 2, 0.2}, Eps: [2]float64{e, e}}, Pose: geom.Pose{Position: pos, Orientation: q}}
	return a, b
}

// TestMTDTurnedPlates: plates turned at random across a block. In a sweep
// of 300 such plates (seeds 1 and 2) these ten were answered with a deeper
// pair than the minimum translation distance, by up to 0.74; after the
// fixes all 300 were right, and so were 200 held-out ones (seed 3). The
// sweep checks each plate against the reference search (about 0.8 s a
// plate), hence only these here. Three causes:
// the basin of the answer opens only along an edge-against-edge direction;
// a better direction within 25° of a worse pair found was skipped; and
// Newton, started on a plate's face 4° from the answer's normal, crawled
// across the face until its iterations ran out.
func TestMTDTurnedPlates(t *testing.T) {
	cases := []struct {
		seed uint64
		k    int
	}{{1, 2}, {1, 3}, {2, 45}, {2, 122}, {2, 143}, {2, 154}, {2, 155}, {2, 180}, {2, 186}, {2, 187}}
	for _, c := range cases {
		a, b := turnedPlate(c.seed, c.k)
		opt := DefaultOptions()
		res := Query(&a, &b, &opt)
		ref, refN := refSignedDistance(&a, &b)
		at := refGapAt(&a, &b, res.Normal)
		if res.Status == Failed || math.Abs(at-res.Distance) > 1e-6 || res.Distance < ref-1e-6 {
			t.Errorf("seed %d plate %d (e %.2f): got %.9f (%v, %d starts), independent gap at its normal %.9f, independent max %.9f along %.3f",
				c.seed, c.k, a.Shape.Eps[0], res.Distance, res.Status, res.Starts, at, ref, refN)
		}
	}
}

// TestMTDTurnedPlatesSweep checks the first plates of the turnedPlate
// streams of seeds 1 to 3 (100, 200 and 200 plates) against the reference
// search: about 6 minutes, so it runs only when SOVVIZ_PLATE_SWEEP=1 is set
// (docs/contact.md quotes it).
func TestMTDTurnedPlatesSweep(t *testing.T) {
	if os.Getenv("SOVVIZ_PLATE_SWEEP") != "1" {
		t.Skip("set SOVVIZ_PLATE_SWEEP=1 to run the 500-plate sweep (about 6 minutes)")
	}
	bad := 0
	for _, s := range []struct {
		seed uint64
		n    int
	}{{1, 100}, {2, 200}, {3, 200}} {
		r := rand.New(sweepPCG(t, s.seed, 99))
		for k := 0; k < s.n; k++ {
			a, b := nextTurnedPlate(r)
			opt := DefaultOptions()
			res := Query(&a, &b, &opt)
			ref, _ := refSignedDistance(&a, &b)
			at := refGapAt(&a, &b, res.Normal)
			if res.Status == Failed || math.Abs(at-res.Distance) > 1e-6 || res.Distance < ref-1e-6 {
				bad++
				t.Errorf("seed %d plate %d (e %.2f): got %.9f (%v), reference %.9f", s.seed, k, a.Shape.Eps[0], res.Distance, res.Status, ref)
			}
		}
	}
	t.Logf("%d of 500 plates wrong", bad)
}

// TestNewtonStopsWhenStalled: on paper-battery pair 3236 (two box-like
// shapes, deep overlap) the cold start and the first multi-start start get
// stuck at a minimum of the merit with a residual near 0.17; damped steps
// wandered there until their iteration caps (40 iterations, and 12 then 40
// more). Each Newton run now stops within two stall windows (an exploratory
// start's continuation is a second run), and the answer is still the
// reference's minimum translation distance.
func TestNewtonStopsWhenStalled(t *testing.T) {
	pairs := PaperBattery(3237, 1)
	a, b := &pairs[3236][0], &pairs[3236][1]
	opt := DefaultOptions()
	var tr Trace
	opt.Trace = &tr
	res := Query(a, b, &opt)
	perStart := map[int]int{}
	for _, s := range tr.Steps {
		if s.Iter > 0 { // (Iter 0 is where the start began)
			perStart[s.Start]++
		}
	}
	for s, n := range perStart {
		if n > exploreIter+2*stallWindow {
			t.Errorf("start %d took %d iterations (exploration cap %d, stall window %d)", s, n, exploreIter, stallWindow)
		}
	}
	ref, _ := refSignedDistance(a, b)
	at := refGapAt(a, b, res.Normal)
	if res.Status != Converged || math.Abs(at-res.Distance) > 1e-6 || res.Distance < ref-1e-6 {
		t.Errorf("got %.9f (%v), independent gap at its normal %.9f, independent max %.9f", res.Distance, res.Status, at, ref)
	}
}

// TestNewtonStopsWhenStalledFar: on paper-battery pairs 3870 and 1689 (two
// tapered shapes, deep overlaps; support guess) the cold start stalls with
// a scaled residual near 0.2, far from any root, its damped steps not
// growing: judged over farWindow iterations it stops by its 12th step,
// where over stallWindow it ran 16 (as with noFarStall), and the answer is
// the same.
func TestNewtonStopsWhenStalledFar(t *testing.T) {
	pairs := PaperBattery(3871, 1)
	for _, i := range []int{3870, 1689} {
		a, b := &pairs[i][0], &pairs[i][1]
		first := func(noFar bool) (int, Result) {
			opt := DefaultOptions()
			opt.Guess = Support
			var tr Trace
			opt.Trace = &tr
			sv := NewSolver(opt)
			sv.noFarStall = noFar
			res := sv.Query(a, b)
			n := 0
			for _, s := range tr.Steps {
				if s.Start == 0 && s.Iter > 0 {
					n++
				}
			}
			return n, res
		}
		nf, rf := first(false)
		ns, rs := first(true)
		if nf > 3*farWindow || ns <= nf {
			t.Errorf("pair %d: cold start took %d steps (%d judged over stallWindow only)", i, nf, ns)
		}
		if rf.Status != Converged || math.Abs(rf.Distance-rs.Distance) > 1e-9 {
			t.Errorf("pair %d: %.12f (%v), without the far window %.12f (%v)", i, rf.Distance, rf.Status, rs.Distance, rs.Status)
		}
	}
}

// TestFarStallKeepsDistances: the far-stall window is a heuristic that
// ends runs early, so it may change a status (a fresh review's harness saw
// two parametric answers on tapered wide pairs go from converged to
// max_iterations and five the other way) but never a distance: on 400
// pairs of the wide battery with tapers up to 0.5 (placed untapered, then
// tapered), in every scheme, the distances with and without it agree to
// 1e-9 of the bodies' size wherever neither query failed. The changed
// statuses are logged.
func TestFarStallKeepsDistances(t *testing.T) {
	r := rand.New(rand.NewPCG(534, 11))
	n := 400
	if testing.Short() {
		n = 100
	}
	pairs := make([][2]geom.Body, n)
	for k := range pairs {
		a, b := battery(r, 1)
		a.Shape.Taper = [2]float64{r.Float64() - 0.5, r.Float64() - 0.5}
		b.Shape.Taper = [2]float64{r.Float64() - 0.5, r.Float64() - 0.5}
		pairs[k] = [2]geom.Body{a, b}
	}
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		sv, noFar := NewSolver(opt), NewSolver(opt)
		noFar.noFarStall = true
		changed := 0
		for k := range pairs {
			a, b := &pairs[k][0], &pairs[k][1]
			rf, rn := sv.Query(a, b), noFar.Query(a, b)
			if rf.Status == Failed || rn.Status == Failed {
				if rf.Status != rn.Status {
					t.Errorf("%v pair %d: %v with the far window, %v without", m, k, rf.Status, rn.Status)
				}
				continue
			}
			tol := 1e-9 * max(maxAxis(&a.Shape), maxAxis(&b.Shape))
			if !(math.Abs(rf.Distance-rn.Distance) <= tol) {
				t.Errorf("%v pair %d: %.12f (%v) with the far window, %.12f (%v) without", m, k, rf.Distance, rf.Status, rn.Distance, rn.Status)
			}
			if rf.Status != rn.Status {
				changed++
				t.Logf("%v pair %d: %v with the far window, %v without (distance %.9f)", m, k, rf.Status, rn.Status, rf.Distance)
			}
		}
		t.Logf("%v: %d of %d statuses changed by the far window", m, changed, len(pairs))
	}
}

// TestCrawlReseedsOnlyCrawls: a ranked start that runs out of iterations is
// re-seeded by a climb of the gap only when its residual was still falling
// (over its last 4 iterations, by more than 10% in the merit): on paper
// pairs 2061 and 3035 such starts stood still at residuals of 0.014 and
// 0.078 and the re-seeds found nothing better; with every such start
// re-seeded (noCrawlTest) the answers are the same. The re-seed that turned
// plate 180 of seed 2 (TestMTDTurnedPlates) was a crawl and still happens.
func TestCrawlReseedsOnlyCrawls(t *testing.T) {
	pairs := PaperBattery(3036, 1)
	for _, i := range []int{2061, 3035} {
		a, b := &pairs[i][0], &pairs[i][1]
		opt := DefaultOptions()
		opt.Guess = Support
		sv, all := NewSolver(opt), NewSolver(opt)
		all.noCrawlTest = true
		r, ra := sv.Query(a, b), all.Query(a, b)
		if sv.crawls != 0 || all.crawls == 0 {
			t.Errorf("pair %d: %d re-seeds (%d with every start that ran out re-seeded)", i, sv.crawls, all.crawls)
		}
		if math.Abs(r.Distance-ra.Distance) > 1e-9 || r.Status != ra.Status {
			t.Errorf("pair %d: %.12f (%v), re-seeding every start %.12f (%v)", i, r.Distance, r.Status, ra.Distance, ra.Status)
		}
	}
	a, b := turnedPlate(2, 180)
	sv := NewSolver(DefaultOptions())
	sv.Query(&a, &b)
	if sv.crawls == 0 {
		t.Error("plate 180 of seed 2: its crawling start was not re-seeded")
	}
}
