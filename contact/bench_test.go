package contact

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/sovviz/sovviz/geom"
)

func paperPairs(n int, seed uint64) [][2]geom.Body {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([][2]geom.Body, n)
	for i := range out {
		a, b := battery(r, 0)
		// The paper's battery is tapered: tx, ty uniform in [-0.4, 0.4].
		a.Shape.Taper = [2]float64{0.8*r.Float64() - 0.4, 0.8*r.Float64() - 0.4}
		b.Shape.Taper = [2]float64{0.8*r.Float64() - 0.4, 0.8*r.Float64() - 0.4}
		out[i] = [2]geom.Body{a, b}
	}
	return out
}

func benchMethod(b *testing.B, m Method) {
	opt := DefaultOptions()
	opt.Method = m
	benchCold(b, NewSolver(opt), paperPairs(1000, 1))
}

// benchCold times cold queries of sv over pairs, one after another, once
// every pair has been queried (the per-shape cache warmed: shape analysis
// is not part of a query).
func benchCold(b *testing.B, sv *Solver, pairs [][2]geom.Body) {
	for i := range pairs {
		sv.Query(&pairs[i][0], &pairs[i][1])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &pairs[i%len(pairs)]
		sv.Query(&p[0], &p[1])
	}
}

func BenchmarkQueryImplicit(b *testing.B)   { benchMethod(b, Implicit) }
func BenchmarkQueryParametric(b *testing.B) { benchMethod(b, Parametric) }
func BenchmarkQueryNTB(b *testing.B)        { benchMethod(b, NTB) }

func BenchmarkQueryWarm(b *testing.B) { benchWarm(b, paperPairs(200, 2), DefaultOptions()) }

// benchWarm moves b by up to 0.5e-3 per query of a pair and warm-starts from
// the pair's previous answer.
func benchWarm(b *testing.B, pairs [][2]geom.Body, opt Options) {
	benchWarmLoop(b, NewSolver(opt), pairs, func(_, pb *geom.Body, r *rand.Rand) {
		// a small motion per frame, as in an animation
		pb.Pose.Position[0] += 1e-3 * (r.Float64() - 0.5)
	})
}

// benchWarmLoop times warm queries of pairs, each moved by move before its
// query, after one untimed cold query each.
func benchWarmLoop(b *testing.B, sv *Solver, pairs [][2]geom.Body, move func(a, b *geom.Body, r *rand.Rand)) {
	prev := make([]Result, len(pairs))
	for i := range pairs {
		prev[i] = sv.Query(&pairs[i][0], &pairs[i][1])
	}
	r := rand.New(rand.NewPCG(3, 3))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(pairs)
		p := &pairs[k]
		move(&p[0], &p[1], r)
		prev[k] = sv.QueryWarm(&p[0], &p[1], &prev[k])
	}
}

// TestLatencyDistribution prints median and p99 of cold queries (not an
// assertion: timing targets are measured, never asserted).
func TestLatencyDistribution(t *testing.T) {
	if testing.Short() {
		t.Skip("timing report only")
	}
	pairs := paperPairs(2000, 5)
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		sv := NewSolver(opt)
		for i := range pairs {
			sv.Query(&pairs[i][0], &pairs[i][1])
		}
		sv.tries, sv.improved = 0, 0 // count the timed pass only
		ts := make([]float64, len(pairs))
		var sepT, ovlT []float64
		iters, fb, starts := 0, 0, 0
		for i := range pairs {
			t0 := time.Now()
			r := sv.Query(&pairs[i][0], &pairs[i][1])
			ts[i] = float64(time.Since(t0).Nanoseconds()) / 1e3
			iters += r.Iterations
			starts += r.Starts
			if r.Fallback {
				fb++
			}
			if r.Distance > 0 {
				sepT = append(sepT, ts[i])
			} else {
				ovlT = append(ovlT, ts[i])
			}
		}
		sort.Float64s(sepT)
		sort.Float64s(ovlT)
		if len(sepT) > 0 && len(ovlT) > 0 {
			t.Logf("%v: separated %d median %.2f µs; overlapping %d median %.2f µs; mean starts %.2f", m, len(sepT), sepT[len(sepT)/2], len(ovlT), ovlT[len(ovlT)/2], float64(starts)/float64(len(pairs)))
		}
		sort.Float64s(ts)
		t.Logf("%v: median %.2f µs p99 %.2f µs max %.1f; mean iterations %.2f; fallbacks %d", m, ts[len(ts)/2], ts[len(ts)*99/100], ts[len(ts)-1], float64(iters)/float64(len(pairs)), fb)
		// The insurance the multi-start buys: its ranked starts against an
		// answer that was already a converged overlap, and how many found
		// one better by more than 1e-9 of the bodies' size. (This battery
		// has such starts: none counted means the counters came loose.)
		t.Logf("%v: %d ranked starts against a converged overlapping answer, %d of them improved it", m, sv.tries, sv.improved)
		if sv.tries == 0 {
			t.Fatal("no ranked start counted")
		}
	}
}

// benchSupport times cold queries of sovviz's default solver (implicit
// scheme, support guess) on the paper battery's separated or overlapping
// pairs only: the two rows of README's benchmark table, without the
// per-query timer of sovviz bench.
func benchSupport(b *testing.B, separated bool) {
	all := PaperBattery(4000, 1)
	opt := DefaultOptions()
	opt.Guess = Support
	sv := NewSolver(opt)
	var idx []int
	for i := 0; i < len(all) && len(idx) < 1500; i++ {
		if (sv.Query(&all[i][0], &all[i][1]).Distance > 0) == separated {
			idx = append(idx, i)
		}
	}
	for _, i := range idx { // the chosen pairs' shapes, last in the analysis cache
		sv.Prepare(&all[i][0].Shape)
		sv.Prepare(&all[i][1].Shape)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &all[idx[i%len(idx)]]
		sv.Query(&p[0], &p[1])
	}
}

func BenchmarkQuerySupportSeparated(b *testing.B)   { benchSupport(b, true) }
func BenchmarkQuerySupportOverlapping(b *testing.B) { benchSupport(b, false) }

// BenchmarkQuerySupportWarm: warm starts of the default solver.
func BenchmarkQuerySupportWarm(b *testing.B) {
	opt := DefaultOptions()
	opt.Guess = Support
	benchWarm(b, PaperBattery(500, 2), opt)
}

// separatedConvexPairs returns the first 300 pairs of the paper battery
// (3,000 pairs, seed 2) that sv answers separated with both shapes convex.
func separatedConvexPairs(sv *Solver) [][2]geom.Body {
	all := PaperBattery(3000, 2)
	var pairs [][2]geom.Body
	for i := 0; i < len(all) && len(pairs) < 300; i++ {
		if r := sv.Query(&all[i][0], &all[i][1]); r.Distance > 0 && r.NonConvex == 0 {
			pairs = append(pairs, all[i])
		}
	}
	return pairs
}

// BenchmarkQuerySupportWarmConvexSeparated: warm starts of the default
// solver on separated pairs of convex shapes only, which need no
// certificate check: with benchWarm's small motion (no turn) nearly every
// query takes two Newton steps, one reassembly and one full evaluation,
// so this is what a warm query costs beyond them. (sovviz bench's warm
// run also turns the bodies: mostly three steps and two evaluations.)
func BenchmarkQuerySupportWarmConvexSeparated(b *testing.B) {
	opt := DefaultOptions()
	opt.Guess = Support
	sv := NewSolver(opt)
	pairs := separatedConvexPairs(sv)
	benchWarm(b, pairs, opt)
}

// BenchmarkQuerySupportWarmTurningConvexSeparated is
// BenchmarkQuerySupportWarmConvexSeparated with sovviz bench's warm motion
// (b moves 1e-3 along a random direction and both bodies turn 0.5° about
// random axes per step), 50 steps per pair from its cold answer as there:
// mostly three Newton steps, a chord first step, one full evaluation and
// factorisation, and a chord last step after a second evaluation. The
// restarts between pairs are not timed.
func BenchmarkQuerySupportWarmTurningConvexSeparated(b *testing.B) {
	opt := DefaultOptions()
	opt.Guess = Support
	sv := NewSolver(opt)
	benchWarmRestarts(b, sv, separatedConvexPairs(sv), 3)
}

// benchWarmRestarts animates the pairs in turn, 50 warm steps of
// benchMotion (random stream seed) from each one's cold answer, which is
// not timed.
func benchWarmRestarts(b *testing.B, sv *Solver, pairs [][2]geom.Body, seed uint64) {
	r := rand.New(rand.NewPCG(seed, seed))
	var a, c geom.Body
	var prev Result
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%50 == 0 {
			b.StopTimer()
			p := &pairs[(i/50)%len(pairs)]
			a, c = p[0], p[1]
			prev = sv.Query(&a, &c)
			b.StartTimer()
		}
		benchMotion(&a, &c, r)
		prev = sv.QueryWarm(&a, &c, &prev)
	}
}

// BenchmarkQueryCavedDent: a sphere against the caved-in side of a pointy
// tapered body (TestSphereInDent's first placement), where the answer is not
// certified and the octree dent search runs.
func BenchmarkQueryCavedDent(b *testing.B) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1.95}, Taper: [2]float64{0.5, 0.5}}, Pose: geom.Identity()}
	s := geom.Body{Shape: geom.Sphere(2.503), Pose: geom.Pose{Position: geom.Vec3{2.2327167944635757, 0, -2.3068657853749825}, Orientation: geom.Quat{W: 1}}}
	opt := DefaultOptions()
	opt.Guess = Support
	sv := NewSolver(opt)
	sv.Query(&a, &s)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sv.Query(&a, &s)
	}
}

// BenchmarkMultiStartRanking times the multi-start on overlapping pairs of
// the paper battery whose first answer it keeps without a start: the
// ranking of its directions (and the edge directions of box-like pairs)
// alone, which every cold overlapping query pays.
func BenchmarkMultiStartRanking(b *testing.B) {
	all := PaperBattery(3000, 1)
	opt := DefaultOptions()
	opt.Guess = Support
	sv := NewSolver(opt)
	type state struct {
		pr   pair
		best candidate
		seen vec
	}
	var ps []state
	for i := 0; i < len(all) && len(ps) < 200; i++ {
		pr := analysedPair(sv, &all[i][0], &all[i][1])
		var res Result
		x0, seen := sv.coldGuess(Implicit, &pr, &res)
		best := sv.solveFrom(Implicit, &pr, x0, &res, sv.opt.MaxIter)
		if !best.valid || !best.converged || best.separated {
			continue
		}
		kept := best
		res.Starts = 0
		sv.multiStart(Implicit, &pr, &kept, &res, seen, exploreIter)
		if res.Starts == 0 {
			ps = append(ps, state{pr, best, seen})
		}
	}
	if len(ps) == 0 {
		b.Fatal("no overlapping pair whose multi-start starts nothing")
	}
	var res Result
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &ps[i%len(ps)]
		best := p.best
		res.Starts = 0
		sv.multiStart(Implicit, &p.pr, &best, &res, p.seen, exploreIter)
		if res.Starts != 0 {
			b.Fatal("the multi-start started")
		}
	}
}

// BenchmarkQueryPointy: cold queries of TestPointyMovedAlongNormal's 400
// pointy pairs (e 1.5–1.9, tapered, 355 with a non-convex shape), one
// after another: the mean cost of such pairs, the ridge search and the
// dent search of caved shapes included (docs/contact.md, step 5).
func BenchmarkQueryPointy(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 55))
	pairs := make([][2]geom.Body, 400)
	for i := range pairs {
		a, c := placedPair(r, 1.5, 1.9, 1.5, 1.9)
		pairs[i] = [2]geom.Body{a, c}
	}
	benchCold(b, NewSolver(DefaultOptions()), pairs)
}
