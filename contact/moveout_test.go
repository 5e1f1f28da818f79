package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// twoPlacePairs are pointy tapered pairs (both shapes non-convex) that
// overlap in two places, where the shallowest common-normal pair's
// translation leaves the other place overlapping (pairs 121 of
// TestMovedAlongNormalSweep's kind 21 and 251 of the same with
// SOVVIZ_SWEEP_SEED=44): answered 0.081767 and 0.020471 deep before
// moveOutCheck, while b moved out by 1.1 times that along the normal
// still overlapped. depth is the translation distance by bisection on the
// moved queries' sign over 600 directions and a local refinement (scratch
// scan, 2026-12-06); the tests check it independently by dense samples.
var twoPlacePairs = []struct {
	name  string
	a, b  geom.Body
	depth float64
}{
	{"kind 21 pair 121",
		refuteBody([3]float64{0.8746014731284115, 1.7303658315479147, 1.0263674385756996}, [2]float64{1.653053164104744, 1.7964902012230588}, [2]float64{-0.2757840432668447, -0.1116486337741317}, [3]float64{0, 0, 0}, [4]float64{0.2694582766555372, -0.04591163089959379, -0.018098015357076044, 0.9617467551960353}),
		refuteBody([3]float64{0.5182319469491716, 1.058606130800633, 0.5493756659820439}, [2]float64{1.7805929250383776, 1.8799201232390197}, [2]float64{0.4750616175146969, -0.41023695572818464}, [3]float64{0.4197970568645621, 0.4999756382961255, 0.9475070388370264}, [4]float64{-0.953239403871286, -0.2853395409884596, 0.02197644951943145, -0.09712374026019698}),
		0.106277},
	{"kind 21 pair 251, seed 44",
		refuteBody([3]float64{1.9556775016665788, 0.6485254625278115, 1.5910677354699336}, [2]float64{1.7885171760482197, 1.8838098070380043}, [2]float64{0.11259541769196035, -0.29451694948922236}, [3]float64{0, 0, 0}, [4]float64{0.7023341101150749, 0.10269140673554052, -0.7006953320184457, 0.07216179348590111}),
		refuteBody([3]float64{0.9986991026821321, 0.5209257122189479, 1.1362140827639557}, [2]float64{1.854785264273414, 1.8115337961259166}, [2]float64{0.3882468695734993, -0.1086191799503875}, [3]float64{0.6405512306186542, -0.7109392612641935, 1.333451042566922}, [4]float64{0.7965965238219266, 0.41503888420631646, 0.09597937820858526, -0.4289110184995156}),
		0.070431},
}

// TestMoveOutDeeperPair: every scheme answers the two-place overlaps above
// with the translation that clears both places. By dense samples, b moved
// along the answer's normal by 0.99 of its depth still overlaps a and by
// 1.01 of it is apart, and moved by 0.99 of the depth along directions up
// to 0.2 rad from the normal it still overlaps (no shorter translation
// nearby). Without the check the answers were 0.0818 and 0.0205 deep.
func TestMoveOutDeeperPair(t *testing.T) {
	for _, p := range twoPlacePairs {
		for _, m := range allMethods {
			opt := DefaultOptions()
			opt.Method = m
			res := Query(&p.a, &p.b, &opt)
			tag := fmt.Sprintf("%s, %v", p.name, m)
			if res.Status != Converged || math.Abs(-res.Distance-p.depth) > 1e-5 {
				t.Errorf("%s: %v %.9f, want -%.6f", tag, res.Status, res.Distance, p.depth)
				continue
			}
			// The moved queries' iterations count in the answer's, the
			// same on a solver that has answered before (its mover's
			// result was once added up across checks).
			sv := NewSolver(opt)
			sv.Query(&p.a, &p.b)
			if again := sv.Query(&p.a, &p.b); again.Iterations != res.Iterations || again.Starts != res.Starts || again.Distance != res.Distance {
				t.Errorf("%s: asked again, %d iterations and %d starts (%.9f), first %d and %d", tag, again.Iterations, again.Starts, again.Distance, res.Iterations, res.Starts)
			}
			if res.StillOverlapping != 0 {
				t.Errorf("%s: StillOverlapping %g on an answer that separates the bodies", tag, res.StillOverlapping)
			}
			checkDepthBySamples(t, &p.a, &p.b, &res, 0.01, tag)
			if m == Implicit {
				// (One scheme: the answers are the same pair.)
				checkNoShorterNearby(t, &p.a, &p.b, &res, tag)
			}
		}
	}
}

// TestMoveOutOctreeGuess: with the octree guess the moved queries take
// their octrees from the solver they serve (one copy per shape, no
// allocation per check), and the answer is the same.
func TestMoveOutOctreeGuess(t *testing.T) {
	p := twoPlacePairs[0]
	opt := DefaultOptions()
	opt.Guess = Octree
	sv := NewSolver(opt)
	res := sv.Query(&p.a, &p.b)
	if res.Status != Converged || math.Abs(-res.Distance-p.depth) > 1e-5 {
		t.Errorf("%s, octree guess: %v %.9f, want -%.6f", p.name, res.Status, res.Distance, p.depth)
	}
	if sv.mover == nil || sv.moveChecks == 0 {
		t.Fatalf("no move-out check ran")
	}
	if n := len(sv.mover.octs) + len(sv.mover.octsOld); n != 0 {
		t.Errorf("the mover built %d octrees of its own", n)
	}
}

// TestMoveOutWarmSwitched: a warm start whose search takes its answer from
// another place than the pair it tracked runs the full check even on a
// pair never refused: twoPlacePairs' first pair warm-started from its
// right answer with the refusal cleared at every step, whose search goes
// back to the shallow place from the second step on.
func TestMoveOutWarmSwitched(t *testing.T) {
	p := twoPlacePairs[0]
	sv, cold := NewSolver(DefaultOptions()), NewSolver(DefaultOptions())
	a, b := p.a, p.b
	prev := sv.Query(&a, &b)
	if !prev.moveRefused {
		t.Fatalf("cold answer %.9f not marked refused", prev.Distance)
	}
	r := rand.New(rand.NewPCG(5, 5))
	for k := 0; k < 4; k++ {
		prev.moveRefused = false
		benchMotion(&a, &b, r)
		w := sv.QueryWarm(&a, &b, &prev)
		c := cold.Query(&a, &b)
		if math.Abs(w.Distance-c.Distance) > 1e-9 {
			t.Errorf("step %d: warm %v %.9f, cold %v %.9f", k, w.Status, w.Distance, c.Status, c.Distance)
		}
		prev = w
	}
}

// TestMoveOutWarm: warm starts through a small animation of the same pairs
// answer what cold queries answer. Without moveOutWarm the warm search
// took the shallow place's pair back at the first step (0.0757 for 0.1048
// on pair 121).
func TestMoveOutWarm(t *testing.T) {
	for _, p := range twoPlacePairs {
		for _, m := range allMethods {
			opt := DefaultOptions()
			opt.Method = m
			sv, cold := NewSolver(opt), NewSolver(opt)
			a, b := p.a, p.b
			prev := sv.Query(&a, &b)
			r := rand.New(rand.NewPCG(5, 5))
			for k := 0; k < 12; k++ {
				benchMotion(&a, &b, r)
				w := sv.QueryWarm(&a, &b, &prev)
				c := cold.Query(&a, &b)
				if w.Status != Converged || math.Abs(w.Distance-c.Distance) > 1e-9 {
					t.Errorf("%s, %v, step %d: warm %v %.9f, cold %v %.9f", p.name, m, k, w.Status, w.Distance, c.Status, c.Distance)
					break
				}
				prev = w
			}
			if sv.moveReplaced == 0 {
				t.Errorf("%s, %v: no move-out check replaced an answer", p.name, m)
			}
		}
	}
}

// TestStillOverlappingWarm: an answer the move-out check refutes but cannot
// replace says so (Result.StillOverlapping), and so do warm starts through
// a small animation exactly where dense samples confirm that b moved out
// along the normal by 1.01 of the depth still overlaps a: pair 382 of
// TestExtremeRangeOverlapAlongNormal (a small pointy tapered shape 0.5419
// deep in a large one). Its warm answers dropped the flag at every step
// before warm starts ran the full check on such a pair, and at steps 5 to
// 7 while they checked with Newton runs only (review of 2026-12-06).
// (Without the chart's polish of the check's runs, which finds the pair
// that clears both places since TestMoveOutCuspPolish.)
func TestStillOverlappingWarm(t *testing.T) {
	a := refuteBody([3]float64{0.22724252876542006, 0.22622358953538046, 0.5813866759021217}, [2]float64{0.10162178466609115, 1.8603988671520135}, [2]float64{0.18520676729827423, -0.43519685068208946}, [3]float64{0, 0, 0}, [4]float64{0.14681453382006257, 0.3523726569747413, 0.5058541909809847, -0.7735570701265244})
	b := refuteBody([3]float64{2.305003858758441, 1.4914847669449767, 2.2312396247675297}, [2]float64{1.8763535175459936, 1.4461826578521944}, [2]float64{-0.4531517459757851, -0.3600300708966907}, [3]float64{0.1674452868634106, -1.271389799526026, 0.07731444751846961}, [4]float64{-0.18305808846113417, 0.2568359962995331, -0.7715380068604671, -0.5524980644523194})
	sv := NewSolver(DefaultOptions())
	sv.noMoveOutCusp = true
	res := sv.Query(&a, &b)
	if !(res.StillOverlapping > 0) || !(res.Distance < 0) {
		t.Fatalf("cold: %v %.9f, StillOverlapping %g; want an overlap that says it is too shallow", res.Status, res.Distance, res.StillOverlapping)
	}
	r := rand.New(rand.NewPCG(7, 7))
	for k := 0; k < 10; k++ {
		benchMotion(&a, &b, r)
		w := sv.QueryWarm(&a, &b, &res)
		c := b
		c.Pose.Position = b.Pose.Position.Add(w.Normal.Mul(-1.01 * w.Distance))
		deep := refinedDeepest(&a, &c, 240, 120)
		if (w.StillOverlapping > 0) != (deep < 0) {
			t.Errorf("step %d: %v %.9f, StillOverlapping %g, but moved out by 1.01 of the depth the samples' deepest residual is %g", k, w.Status, w.Distance, w.StillOverlapping, deep)
		}
		if w.Distance < 0 && !w.moveRefused {
			// (The refusal is kept while the pair overlaps, so that
			// every warm step checks in full: a warm start that fell
			// back to a cold query lost it, review of 2026-12-06.)
			t.Errorf("step %d: the pair's refusal is forgotten", k)
		}
		res = w
	}
}

// TestHullGapCheck: pair 4 of TestMovedAlongNormalSweep's kind 18 with
// SOVVIZ_SWEEP_SEED=54, two pointy tapered shapes (both non-convex)
// overlapping 0.22 of the smaller semi-axis, was answered 0.136754 deep in
// every scheme; b moved out by half that was answered 0.058120 deep, not
// the rest, 0.068377. The hulls' exact support gap along the probe's first
// ranked direction, 0.1287, proves the answer too deep (hullGapCheck), and
// the polytope leads to the pair 0.114205 deep, 35° from the old normal
// (a scratch scan of 600 directions, bisecting the moved queries' sign,
// found the same). Checked as TestMoveOutDeeperPair checks its pairs, by
// dense samples along the normal and around it.
func TestHullGapCheck(t *testing.T) {
	a := refuteBody([3]float64{0.8206211410722763, 0.5137661340373422, 0.5613914417785381}, [2]float64{1.8963248538164013, 1.8081064900946626}, [2]float64{-0.004728800778258768, 0.2840771948952632}, [3]float64{0, 0, 0}, [4]float64{0.29696635740073024, -0.408871394967251, 0.3508694655878946, 0.7883690652655907})
	b := refuteBody([3]float64{1.2890815032745073, 1.0675184670287974, 1.431943784887469}, [2]float64{1.8478605232167449, 1.725650381380545}, [2]float64{-0.3851091525160554, 0.023489429350601054}, [3]float64{0.5489086706085801, -1.5795563138372102, 0.275473656531876}, [4]float64{0.49280627543013006, -0.8122477215909198, 0.16315533417831102, 0.2660374984775757})
	const depth = 0.114205
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		sv := NewSolver(opt)
		// (Three climbs, as before 2026-12-06, no deepSeeds, no
		// same-normal seeds and no chart's polish of the climbs' starts:
		// with eight climbs, from the points sharing the answer's normal,
		// or polishing a start's crawl, the probe finds this pair itself.)
		sv.fewClimbs, sv.noDeepSeeds, sv.noSameNormal, sv.noProbeCusp = true, true, true, true
		res := sv.Query(&a, &b)
		tag := fmt.Sprintf("%v", m)
		if res.Status != Converged || math.Abs(-res.Distance-depth) > 1e-5 {
			t.Errorf("%s: %v %.9f, want -%.6f", tag, res.Status, res.Distance, depth)
			continue
		}
		if sv.hullGapped == 0 {
			t.Errorf("%s: answered without the hulls' gap check", tag)
		}
		checkDepthBySamples(t, &a, &b, &res, 0.01, tag)
		if m == Implicit {
			checkNoShorterNearby(t, &a, &b, &res, tag)
		}
	}
}

// checkNoShorterNearby checks an overlapping answer's minimality around its
// normal by dense samples: b moved by 0.99 of the depth along directions
// 0.05 and 0.2 rad from the normal still overlaps a.
func checkNoShorterNearby(t *testing.T, a, b *geom.Body, res *Result, tag string) {
	t.Helper()
	for _, ang := range []float64{0.05, 0.2} {
		for k := 0; k < 6; k++ {
			phi := 2 * math.Pi * float64(k) / 6
			dir := res.Normal.Mul(math.Cos(ang)).Add(res.TangentP.Mul(math.Sin(ang) * math.Cos(phi))).Add(res.BinormalP.Mul(math.Sin(ang) * math.Sin(phi)))
			c := *b
			c.Pose.Position = b.Pose.Position.Add(dir.Mul(-0.99 * res.Distance))
			if deep := refinedDeepest(a, &c, 120, 60); !(deep < 0) {
				t.Errorf("%s: b moved by 0.99 of the depth %.3f rad off the normal (azimuth %d) is apart by samples (%g)", tag, ang, k, deep)
			}
		}
	}
}

// TestMoveOutNearTouching: overlaps of pointy non-convex pairs moved out
// along their normals until 1e-8 and 1e-9 of the smaller semi-axis is left
// are not marked too shallow, and keep the answer the solver gives without
// the check. The check once counted the moved query's rounding, overlaps
// of 1e-14 to 7e-13, as evidence: 6 of 85 such answers, each right, were
// marked StillOverlapping and some replaced (review of 2026-12-06).
func TestMoveOutNearTouching(t *testing.T) {
	if testing.Short() {
		t.Skip("85 pointy pairs, twice")
	}
	on := NewSolver(DefaultOptions())
	off := NewSolver(DefaultOptions())
	off.noMoveOut = true
	n := 0
	for i, p := range nonConvexPointyOverlaps(120, 9) {
		a, b := p[0], p[1]
		r := off.Query(&a, &b)
		if !(r.Distance < 0) || r.Status != Converged {
			continue
		}
		L := min(minAxis(&a.Shape), minAxis(&b.Shape))
		for _, left := range []float64{1e-8, 1e-9} {
			c := b
			c.Pose.Position = b.Pose.Position.Add(r.Normal.Mul(-r.Distance - left*L))
			w := on.Query(&a, &c)
			wo := off.Query(&a, &c)
			n++
			if w.StillOverlapping != 0 || math.Abs(w.Distance-wo.Distance) > 1e-12*L {
				t.Errorf("pair %d moved out to %g·L: %v %.3g, StillOverlapping %g; without the check %v %.3g", i, left, w.Status, w.Distance, w.StillOverlapping, wo.Status, wo.Distance)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d near-touching queries", n)
	}
}

// TestMoveOutCounts: on 400 pointy non-convex pairs (291 overlapping) every
// overlap is moved out (none is certified; tipCheck's moved query moves
// out the answers it replaces), the move-out check, hullGapCheck and
// tipCheck change an answer only where dense samples show the new one
// right (b moved along its normal by 0.99 of its depth overlaps a, by 1.01
// is apart), and StillOverlapping marks an answer only where the samples
// show it too shallow. It logs how often each check ran and changed
// something, and how many pairs the chart's polish of the move-out
// check's runs gave (docs/contact.md, steps 6 and 7, cite the counts).
func TestMoveOutCounts(t *testing.T) {
	pairs := nonConvexPointyOverlaps(400, 5)
	on := NewSolver(DefaultOptions())
	off := NewSolver(DefaultOptions())
	off.noMoveOut, off.noHullGap, off.noTips = true, true, true
	changed, flagged, ov := 0, 0, 0
	for i := range pairs {
		a, b := &pairs[i][0], &pairs[i][1]
		r := on.Query(a, b)
		r0 := off.Query(a, b)
		if r.Distance < 0 {
			ov++
		}
		tag := fmt.Sprintf("pair %d (%.9f, without the check %.9f)", i, r.Distance, r0.Distance)
		if r.StillOverlapping > 0 {
			flagged++
			c := *b
			c.Pose.Position = b.Pose.Position.Add(r.Normal.Mul(-1.01 * r.Distance))
			if deep := refinedDeepest(a, &c, 120, 60); !(deep < 0) {
				t.Errorf("%s: StillOverlapping %g, but moved out by 1.01 of the depth it is apart by samples (%g)", tag, r.StillOverlapping, deep)
			}
		} else if math.Abs(r.Distance-r0.Distance) > 1e-9 {
			changed++
			checkDepthBySamples(t, a, b, &r, 0.01, tag)
		}
	}
	// (An answer tipCheck replaced was moved out by its moved query.)
	if on.moveChecks+on.tipReplaced < ov {
		t.Errorf("%d move-out queries and %d tip replacements for %d overlaps of pointy non-convex pairs (never certified): some were not checked", on.moveChecks, on.tipReplaced, ov)
	}
	t.Logf("%d pairs, %d overlapping: %d move-out queries, %d refuted, %d replaced, %d proven too deep by the hulls' gap, %d replaced by a tip's translation; %d answers changed by the three checks, %d marked still overlapping; %d pairs given by the chart's polish in the move-out check",
		len(pairs), ov, on.moveChecks, on.moveRefuted, on.moveReplaced, on.hullGapped, on.tipReplaced, changed, flagged, on.moveCusps)
}

// BenchmarkQueryTwoPlaceWarm: warm starts through an animation of
// twoPlacePairs' first pair (benchWarmRestarts: 50 steps per untimed cold
// start), where the move-out check runs in full at every step;
// ...NoMoveOut without the check, which answers the shallow place.
func BenchmarkQueryTwoPlaceWarm(b *testing.B)          { benchTwoPlaceWarm(b, false) }
func BenchmarkQueryTwoPlaceWarmNoMoveOut(b *testing.B) { benchTwoPlaceWarm(b, true) }

func benchTwoPlaceWarm(b *testing.B, off bool) {
	p := twoPlacePairs[0]
	sv := NewSolver(DefaultOptions())
	sv.noMoveOut = off
	benchWarmRestarts(b, sv, [][2]geom.Body{{p.a, p.b}}, 5)
}

// TestDeepTwoPlaceOverlaps: overlaps of pointy non-convex pairs deeper than
// the 30% of the smaller semi-axis that the sweeps answered wrong
// (docs/contact.md, "Known limits"). Pair 208 of TestMovedAlongNormalSweep's
// kind 21 with SOVVIZ_SWEEP_SEED=43 (0.55 of the smaller semi-axis deep) was
// answered 0.464372 in the implicit scheme where the others answered
// 0.309623; hullGapCheck proves that too deep, and every scheme answers
// 0.309623, right by dense samples. Pair 110 of kind 19 of the same seed
// (1.08 deep) and pair 3837 of TestWidePlacedPairs with
// SOVVIZ_SWEEP_SEED=13 (1.8 deep) are too shallow, their true translations
// touching the bodies at two points at once: their answers say so
// (StillOverlapping, about 0.013 and 0.016), which dense samples confirm;
// 3837's check takes all three moved queries (two replacements).
func TestDeepTwoPlaceOverlaps(t *testing.T) {
	if testing.Short() {
		t.Skip("three deep pointy overlaps in every scheme")
	}
	for _, p := range []struct {
		name    string
		a, b    geom.Body
		depth   float64 // the right depth, or 0 where the answer is marked too shallow
		replace int     // the replacements of the implicit scheme's check
	}{
		{"kind 21 pair 208, seed 43",
			refuteBody([3]float64{1.6722379020644813, 1.811816643069025, 0.6014529775214146}, [2]float64{1.6791596497688075, 1.8939205102364478}, [2]float64{0.21261450239486157, 0.025613902088052587}, [3]float64{0, 0, 0}, [4]float64{-0.30153325495231237, -0.27124111339660717, 0.16805678738342533, -0.898478085862752}),
			refuteBody([3]float64{1.6809547094853314, 0.5594369135606303, 1.3461465731867697}, [2]float64{1.6646604822228277, 1.655904405847434}, [2]float64{-0.16435853669909117, -0.19968387051634828}, [3]float64{-0.04265691892316958, -2.1127839622616316, 0.07060333202084468}, [4]float64{-0.3214250878908097, -0.2633212204748973, -0.8195010425579009, -0.39467187506650314}),
			0.309623, 0},
		{"kind 19 pair 110, seed 43",
			refuteBody([3]float64{0.3195332791816892, 0.9402810680692208, 1.851679531132105}, [2]float64{1.8131915068587732, 1.664469206767307}, [2]float64{0.40863315518752796, 0.20612291582640152}, [3]float64{0, 0, 0}, [4]float64{0.33799298617606655, -0.6815751017806309, -0.6155432832896472, -0.20572454478138727}),
			refuteBody([3]float64{1.0063959714770085, 0.5847782457756935, 0.41066425678543683}, [2]float64{1.8948002796057373, 1.7721818611683255}, [2]float64{-0.40921279301884717, 0.34696973447918134}, [3]float64{-0.5862984170193445, 0.613636302381172, -0.5824155910575743}, [4]float64{-0.14783451984342827, 0.1264963760362561, 0.7403538246279143, -0.6434437317677254}),
			0, -1},
		{"wide placed pair 3837, seed 13",
			refuteBody([3]float64{1.5334250740735218, 1.9010363540852107, 0.3765365398957777}, [2]float64{1.7779360381825262, 0.20791702910654053}, [2]float64{0.17054340023449188, -0.39884735704652763}, [3]float64{0, 0, 0}, [4]float64{-0.8870000783976938, 0.4156484910740968, -0.17805790896170764, -0.0936086205778915}),
			refuteBody([3]float64{1.360019884420487, 1.6152166834572015, 1.667073685705482}, [2]float64{1.7245581610745189, 0.1470068614314262}, [2]float64{0.1817358793143351, -0.16986700549168077}, [3]float64{-1.548958563826129, 1.045590534666201, -0.5247790217491631}, [4]float64{0.17894386530625356, -0.23568376050378892, 0.8897837731618079, 0.3474436574784268}),
			0, moveOutTries - 1},
	} {
		for _, m := range allMethods {
			opt := DefaultOptions()
			opt.Method = m
			sv := NewSolver(opt)
			res := sv.Query(&p.a, &p.b)
			tag := fmt.Sprintf("%s, %v", p.name, m)
			t.Logf("%s: %v %.9f, StillOverlapping %.3g; %d moved queries, %d replacements, %d hull-gap proofs", tag, res.Status, res.Distance, res.StillOverlapping, sv.moveChecks, sv.moveReplaced, sv.hullGapped)
			if !(res.Distance < 0) {
				t.Errorf("%s: %v %.9f, want an overlap", tag, res.Status, res.Distance)
				continue
			}
			if m == Implicit && p.replace >= 0 && sv.moveReplaced != p.replace {
				t.Errorf("%s: %d replacements, want %d", tag, sv.moveReplaced, p.replace)
			}
			if p.depth > 0 {
				if res.Status != Converged || math.Abs(-res.Distance-p.depth) > 1e-5 || res.StillOverlapping != 0 {
					t.Errorf("%s: %v %.9f (StillOverlapping %g), want -%.6f", tag, res.Status, res.Distance, res.StillOverlapping, p.depth)
				}
				checkDepthBySamples(t, &p.a, &p.b, &res, 0.01, tag)
				continue
			}
			c := p.b
			c.Pose.Position = p.b.Pose.Position.Add(res.Normal.Mul(-1.01 * res.Distance))
			if !(res.StillOverlapping > 0) {
				t.Errorf("%s: %.9f not marked too shallow", tag, res.Distance)
			} else if deep := refinedDeepest(&p.a, &c, 240, 120); !(deep < 0) {
				t.Errorf("%s: marked too shallow (%g), but moved out by 1.01 of its depth it is apart by samples (%g)", tag, res.StillOverlapping, deep)
			}
		}
	}
}

// TestMoveOutCuspPolish: two answers marked StillOverlapping until the
// move-out check polished its crawling runs in the chart (cuspPolish).
// Step 14 of draw 0's pair 46 in TestApproachSweep with
// SOVVIZ_SWEEP_SEED=24, two pointy tapered shapes overlapping in two
// places: every scheme's cold answer was 0.130006 deep, 0.0185 left after
// moving b out, where a warm start had tracked 0.181199 along a normal 2°
// away; Newton from the moved query's pair crawled in every scheme (0.1468
// deep, unconverged), the chart converges there, and the next check leads
// to 0.181199. And pair 382 of TestExtremeRangeOverlapAlongNormal (a small
// pointy tapered shape in a large one, beyond the depths), answered
// 0.541914 with 0.0185 left, now 0.549999591 along a normal 7° away. Every
// scheme answers the new depth (to 1e-8), unmarked; b moved 1.0001 times
// it along its normal is apart from a by dense samples; without the polish
// the answers are marked again.
func TestMoveOutCuspPolish(t *testing.T) {
	cases := []apartCase{{
		"seed 24 pair 46",
		geom.Body{Shape: geom.Superovoid{A: [3]float64{1.4374912792737313, 0.5827075939512546, 1.2377322751068838}, Eps: [2]float64{1.671397151804732, 1.8827734886888285}, Taper: [2]float64{0.08219478234912758, -0.47794170879024}},
			Pose: geom.Pose{Orientation: geom.Quat{W: 0.4285167441054929, V: geom.Vec3{-0.6536801886141889, 0.09523708280889115, -0.6164458687448545}}}},
		geom.Body{Shape: geom.Superovoid{A: [3]float64{1.7298910876307003, 1.9394875731335632, 0.5855662632075871}, Eps: [2]float64{1.7590453529650747, 1.7495386452304469}, Taper: [2]float64{-0.38088425092054534, 0.45544399014591497}},
			Pose: geom.Pose{Position: geom.Vec3{0.7663930814357875, 0.4828375694526701, 0.799602831648931}, Orientation: geom.Quat{W: -0.21331194432227354, V: geom.Vec3{-0.13453070685610471, -0.828084676657289, 0.5006748162306958}}}},
		geom.Vec3{0.005482782596154423, 0.7287752051287053, 0.6847310709209979}.Mul(1.0001 * 0.181198522),
	}, {
		"pair 382",
		refuteBody([3]float64{0.22724252876542006, 0.22622358953538046, 0.5813866759021217}, [2]float64{0.10162178466609115, 1.8603988671520135}, [2]float64{0.18520676729827423, -0.43519685068208946}, [3]float64{0, 0, 0}, [4]float64{0.14681453382006257, 0.3523726569747413, 0.5058541909809847, -0.7735570701265244}),
		refuteBody([3]float64{2.305003858758441, 1.4914847669449767, 2.2312396247675297}, [2]float64{1.8763535175459936, 1.4461826578521944}, [2]float64{-0.4531517459757851, -0.3600300708966907}, [3]float64{0.1674452868634106, -1.271389799526026, 0.07731444751846961}, [4]float64{-0.18305808846113417, 0.2568359962995331, -0.7715380068604671, -0.5524980644523194}),
		geom.Vec3{0.4766515844246743, -0.7372448601443529, -0.47882489832524555}.Mul(1.0001 * 0.549999591),
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkNoDeeperThanApart(t, &tc.a, &tc.b, tc.apart, "the chart's polish in the move-out check", true, nil)
			for _, m := range allMethods {
				opt := DefaultOptions()
				opt.Method = m
				res := NewSolver(opt).Query(&tc.a, &tc.b)
				if res.StillOverlapping != 0 {
					t.Errorf("%v: %.9f, still overlapping by %g", m, res.Distance, res.StillOverlapping)
				}
				if want := tc.apart.Len() / 1.0001; math.Abs(-res.Distance-want) > 1e-8 {
					t.Errorf("%v: %.9f, want -%.9f", m, res.Distance, want)
				}
				sv := NewSolver(opt)
				sv.noMoveOutCusp = true
				if res := sv.Query(&tc.a, &tc.b); !(res.StillOverlapping > 0) {
					t.Errorf("%v: without the polish %.9f, not marked still overlapping: the pair no longer tests it", m, res.Distance)
				}
			}
		})
	}
}

// TestMoveOutWarmFirstOverlap: the first overlapping step of a warm
// animation after a separated one is move-out checked. A caved box-like
// prism (e 1.95, 0.05, hull gap 0.099) coming down on a tapered box-like
// shape (e 0.05, 0.5), turning 2° a step, met it in two places at once;
// warm queries tracked the pair of the place where it had been 0.0025
// apart, 0.025 deep, which moveOutWarm left unchecked (the check had run
// on no overlap of the pair yet), while b moved out by that along its
// normal still overlaps by 0.056 (a residual): the cold query answers
// 0.057990, the translation that clears both places. Found by feeding 200
// such animations of 100 steps to `sovviz query -warm` and to `sovviz
// query`, and comparing the answers: this pair's next four steps were
// 0.0021 to 0.054 deep where the cold answers were 0.118 to 0.145. The
// warm answer must equal the cold one and come apart when b moves out by
// 1.0001 times it; without the check it is the shallow pair.
func TestMoveOutWarmFirstOverlap(t *testing.T) {
	a := refuteBody([3]float64{0.4788740604304401, 1.0045932072990456, 0.5508196947956661}, [2]float64{0.05, 0.5}, [2]float64{0.48857193166870583, 0.24084996035121564}, [3]float64{},
		[4]float64{-0.41113723616672526, -0.8332214424907519, -0.23156753982664757, -0.28824412450117853})
	shapeB := func(p [3]float64, q [4]float64) geom.Body {
		return refuteBody([3]float64{0.7369752133819014, 0.43786429342647215, 0.7116302223277052}, [2]float64{1.95, 0.05}, [2]float64{0.344116397448608, -0.2524085779858424}, p, q)
	}
	apart := shapeB([3]float64{0.693002469900043, 0.6628472026510228, 0.2962497789037}, [4]float64{-0.5559077713079259, 0.06326063422200098, 0.18525871499260316, -0.8078637573728491})
	touching := shapeB([3]float64{0.6581118633152122, 0.639159673079877, 0.29146852878687274}, [4]float64{-0.5655390394086849, 0.07472991131367598, 0.1883301431030073, -0.7994453029811083})
	for _, off := range []bool{false, true} {
		sv := NewSolver(DefaultOptions())
		// (Both off: since TestMoveOutWarmTracked an overlap the first
		// check skips is checked as a tracked one.)
		sv.noWarmFirstMoveOut, sv.noWarmTrackedCheck = off, off
		prev := sv.Query(&a, &apart)
		if !(prev.Distance > 0) {
			t.Fatalf("setup: the first step is %v %.9g, not apart", prev.Status, prev.Distance)
		}
		w := sv.QueryWarm(&a, &touching, &prev)
		c := touching
		c.Pose.Position = touching.Pose.Position.Add(w.Normal.Mul(-1.0001 * w.Distance))
		deep := refinedDeepest(&a, &c, 240, 120)
		if off {
			if deep > 0 {
				t.Errorf("without the check: warm %.9g, apart when moved out by it: the pair no longer tests it", w.Distance)
			}
			continue
		}
		cold := NewSolver(DefaultOptions()).Query(&a, &touching)
		if w.Status != Converged || math.Abs(w.Distance-cold.Distance) > 1e-9 || !(deep > 0) {
			t.Errorf("warm %v %.9g (cold %.9g): moved out by 1.0001 times it, deepest residual %.3g", w.Status, w.Distance, cold.Distance, deep)
		}
	}
}

// TestWarmSearchSeparatedGoesCold: a warm search that trades the tracked
// overlap for a separated pair no certificate proves goes cold. An
// approach of a caved box-like prism (e 1.9, 0.05, hull gap 0.178) and a
// tapered box-like shape (e 1, 0.05), turning 2° a step, fed to `sovviz
// query -warm` (as TestMoveOutWarmFirstOverlap's): from the step before,
// 0.0668 deep, Newton tracked the overlap to 0.0164 deep, the cold query's
// answer, and the warm search replaced it with a common-normal pair 0.0426
// apart (a separated pair beats an overlapping one there), which stood,
// converged, while dense samples find points of one body 0.021 (as a
// residual) inside the other. The warm answer must equal the cold one;
// without going cold it is the separated pair.
func TestWarmSearchSeparatedGoesCold(t *testing.T) {
	a := refuteBody([3]float64{0.741275865050719, 0.9225348261291324, 1.4125846015006662}, [2]float64{1, 0.05}, [2]float64{0.07969883643169573, -0.20903476379211217}, [3]float64{},
		[4]float64{0.7880247939799169, 0.13454198951236407, -0.5095165609936898, -0.3182895713090959})
	shapeB := func(p [3]float64, q [4]float64) geom.Body {
		return refuteBody([3]float64{0.6846541780158342, 1.2968472450834692, 0.43990086439147846}, [2]float64{1.9, 0.05}, [2]float64{-0.3605771790213538, 0.337004966110369}, p, q)
	}
	before := shapeB([3]float64{0.06596729042582584, 1.3713760581787917, -0.5153245752938878}, [4]float64{0.2596664072774991, -0.6812423064180109, 0.07375346596375423, -0.6804724117377577})
	after := shapeB([3]float64{0.05944336817571086, 1.4237697818951895, -0.5412809923657411}, [4]float64{0.26477279332557524, -0.6903194210344555, 0.06418019902074494, -0.6702502270875305})
	if deep := refinedDeepest(&a, &after, 240, 120); !(deep < -0.01) {
		t.Fatalf("setup: deepest residual %.3g, want an overlap", deep)
	}
	cold := NewSolver(DefaultOptions()).Query(&a, &after)
	for _, off := range []bool{false, true} {
		sv := NewSolver(DefaultOptions())
		sv.noWarmSeparatedCold = off
		prev := sv.Query(&a, &before)
		if !(prev.Distance < 0) {
			t.Fatalf("setup: the first step is %v %.9g, not overlapping", prev.Status, prev.Distance)
		}
		w := sv.QueryWarm(&a, &after, &prev)
		switch {
		case off && !(w.Distance > 0):
			t.Errorf("without going cold: warm %v %.9g: the pair no longer tests it", w.Status, w.Distance)
		case !off && (w.Status != Converged || math.Abs(w.Distance-cold.Distance) > 1e-9 || !(w.Distance < 0)):
			t.Errorf("warm %v %.9g, cold %v %.9g", w.Status, w.Distance, cold.Status, cold.Distance)
		}
	}
}

// TestMoveOutWarmTracked: an overlap tracked from prev's checked answer is
// checked again unless the hulls' support planes along its normal prove
// the move parts the bodies. Pair 141 of TestApproachSweep's first draw
// at SOVVIZ_SWEEP_SEED=41: two pointy tapered shapes (exponents 1.69 to
// 1.89) approached in 60 steps. From step 58 the warm start tracked the
// basin it had followed, 0.020528 to 0.019350 deep, while b moved out by
// 1.0001 times that along its normal still overlapped a (cold queries
// answer 0.021876 at step 58); the check skipped tracked overlaps. Each of
// the last three warm answers must be a converged overlap whose
// translation parts the bodies by dense samples, with at least one tracked
// overlap checked in full; without those checks step 58's must not.
func TestMoveOutWarmTracked(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.7562818627712156, 1.0652333021770253, 0.7488818180714745}, Eps: [2]float64{1.822670880451093, 1.6936058572404715}, Taper: [2]float64{0.4949695358876819, -0.3056476351557099}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.10389571487010159, V: geom.Vec3{-0.9684962242976662, 0.15286935434193663, -0.16688829933783372}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.1997281629304348, 1.3637035888288394, 0.8206713472979108}, Eps: [2]float64{1.7556003193617826, 1.885372497282917}, Taper: [2]float64{-0.3496811388334158, 0.47814884827602433}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.5524291397612799, V: geom.Vec3{-0.3596065073067049, 0.10232707144379108, -0.7450062925204204}}}}
	start := geom.Vec3{0.3536146042282804, 0.7976738721721109, 1.205381860498369}
	end := geom.Vec3{0.5939681265972849, -0.0653601489091989, 1.224412946377838}
	parts := func(b geom.Body, r *Result) bool {
		b.Pose.Position = b.Pose.Position.Add(r.Normal.Mul(-1.0001 * r.Distance))
		return !(refinedDeepest(&a, &b, 200, 100) < 0)
	}
	for _, off := range []bool{false, true} {
		sv := NewSolver(DefaultOptions())
		sv.noWarmTrackedCheck = off
		var prev Result
		for k := 0; k <= 60; k++ {
			b.Pose.Position = start.Add(end.Sub(start).Mul(float64(k) / 60))
			if k == 0 {
				prev = sv.Query(&a, &b)
			} else {
				prev = sv.QueryWarm(&a, &b, &prev)
			}
			switch {
			case off && k == 58:
				if parts(b, &prev) {
					t.Errorf("without the tracked checks, step 58: %v %.9f parts the bodies: the pair no longer tests them", prev.Status, prev.Distance)
				}
			case !off && k >= 58:
				if prev.Status != Converged || !(prev.Distance < 0) || !parts(b, &prev) {
					t.Errorf("step %d: warm %v %.9f: want a converged overlap whose translation parts the bodies", k, prev.Status, prev.Distance)
				}
			}
		}
		if !off && sv.warmTrackedChecks == 0 {
			t.Errorf("no tracked overlap checked in full: the pair no longer tests the check")
		}
	}
}
