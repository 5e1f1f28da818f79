package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/sovviz/sovviz/geom"
)

// Warm starts take their first step with the previous answer's factorised
// Jacobian and mostly end with a chord step from the one before (newton's
// chordStep and chordFinal), and answer as the same warm starts without
// either chord step do: the same status, distances within 1e-11, points
// within 1e-9; and as a cold query does, distances within 1e-11 (the
// issue asks for 1e-9).
func TestWarmChordSteps(t *testing.T) {
	opt := DefaultOptions()
	opt.Guess = Support
	sv, plain := NewSolver(opt), NewSolver(opt)
	plain.noChords = true
	pairs := PaperBattery(200, 3)
	r := rand.New(rand.NewPCG(5, 6))
	queries, warmUsable := 0, 0
	var worstD, worstP, worstCold float64
	for i := range pairs {
		a, b := pairs[i][0], pairs[i][1]
		prev := sv.Query(&a, &b)
		pp := prev
		for k := 0; k < 15; k++ {
			benchMotion(&a, &b, r)
			if prev.warm.lu.ok && prev.Status == Converged {
				warmUsable++
			}
			got := sv.QueryWarm(&a, &b, &prev)
			want := plain.QueryWarm(&a, &b, &pp)
			queries++
			if got.Status != want.Status {
				t.Fatalf("pair %d step %d: %v with the chord steps, %v without", i, k, got.Status, want.Status)
			}
			worstD = max(worstD, math.Abs(got.Distance-want.Distance))
			worstP = max(worstP, got.P.Sub(want.P).Len(), got.Q.Sub(want.Q).Len())
			if k == 14 {
				c := sv.Query(&a, &b)
				worstCold = max(worstCold, math.Abs(c.Distance-got.Distance))
			}
			prev, pp = got, want
		}
	}
	t.Logf("%d warm queries, %d with a kept factorisation: %d chord first steps, %d chord final steps; worst |Δd| %.3g, |ΔP| %.3g against no chords, |Δd| %.3g against cold",
		queries, warmUsable, sv.chords, sv.finals, worstD, worstP, worstCold)
	if plain.chords != 0 || plain.finals != 0 {
		t.Fatalf("noChords took %d and %d chord steps", plain.chords, plain.finals)
	}
	if sv.chords < warmUsable*9/10 || sv.finals < queries/2 {
		t.Errorf("chord steps taken: %d first of %d usable, %d final of %d queries", sv.chords, warmUsable, sv.finals, queries)
	}
	if worstD > 1e-11 || worstP > 1e-9 || worstCold > 1e-11 {
		t.Errorf("worst |Δd| %.3g, |ΔP| %.3g against no chords, |Δd| %.3g against cold", worstD, worstP, worstCold)
	}
}

// An answer ended by a chord step lies where a fresh evaluation puts it on
// both surfaces with a common normal: the system's residual there, scaled
// as Newton's merit, is at most 1e-11 (the convergence test itself accepts
// 1e-8 with a step below the tolerance), on the paper battery and on the
// wide one (semi-axes 0.3–2, exponents 0.1–1.9, untapered and tapered),
// whose pointy and box-like shapes change their curvature fast. Measured:
// 5.9e-12, against 6.3e-10 after the final Newton steps of the same queries
// without chord steps; with chordFinal's bound on the Hessians' change
// raised from 3e-12 to 1e-8, 8.0e-9.
func TestChordFinalResidual(t *testing.T) {
	opt := DefaultOptions()
	opt.Guess = Support
	sv, plain := NewSolver(opt), NewSolver(opt)
	plain.noChords = true
	var pairs [][2]geom.Body
	pairs = append(pairs, PaperBattery(150, 4)...)
	wr := rand.New(rand.NewPCG(31, 32))
	for i := 0; i < 150; i++ {
		a, b := battery(wr, 1)
		pairs = append(pairs, [2]geom.Body{a, b})
		a.Shape.Taper = [2]float64{0.4, -0.2}
		pairs = append(pairs, [2]geom.Body{a, b})
	}
	r := rand.New(rand.NewPCG(7, 8))
	ended := 0
	var worst, worstPlain float64
	residual := func(a, b *geom.Body, res *Result) float64 {
		pr := newPair(a, b)
		x := [6]float64{res.LocalP[0], res.LocalP[1], res.LocalP[2], res.LocalQ[0], res.LocalQ[1], res.LocalQ[2]}
		var s system
		if !s.eval(Implicit, &pr, &x, false) {
			t.Fatalf("the answer's points leave the domain")
		}
		return math.Sqrt(merit(&s.phi, 6, 1/charLength(&pr)))
	}
	for i := range pairs {
		a, b := pairs[i][0], pairs[i][1]
		prev := sv.Query(&a, &b)
		pp := plain.Query(&a, &b)
		for k := 0; k < 10; k++ {
			benchMotion(&a, &b, r)
			n0 := sv.finals
			prev = sv.QueryWarm(&a, &b, &prev)
			pp = plain.QueryWarm(&a, &b, &pp)
			// (One start: the answer is the warm run's, which the chord
			// step ended. Where the query searched again, its answer can
			// be another run's, ended by a full step: 1.49e-11 on a pointy
			// non-convex overlap once warm starts probed those, 7 starts.)
			if sv.finals == n0 || prev.Starts != 1 || prev.Status != Converged || pp.Status != Converged || !prev.Certified && prev.Distance > 0 {
				continue
			}
			ended++
			worst = max(worst, residual(&a, &b, &prev))
			worstPlain = max(worstPlain, residual(&a, &b, &pp))
		}
	}
	t.Logf("%d answers ended by a chord step: worst residual %.3g (%.3g for the same queries without chord steps)", ended, worst, worstPlain)
	if ended < 1000 {
		t.Fatalf("only %d answers ended by a chord step", ended)
	}
	if worst > 1e-11 {
		t.Errorf("worst residual %.3g after a final chord step", worst)
	}
}

// A traced warm start records its chord step like any other: the start
// (Iter 0), then one iterate per step with the residual falling, and its
// last step marked Final and ending at the answer.
func TestWarmTraceWithChord(t *testing.T) {
	opt := DefaultOptions()
	opt.Guess = Support
	var tr Trace
	pairs := PaperBattery(80, 5)
	r := rand.New(rand.NewPCG(9, 10))
	checked := 0
	for i := range pairs {
		a, b := pairs[i][0], pairs[i][1]
		sv := NewSolver(opt)
		prev := sv.Query(&a, &b)
		benchMotion(&a, &b, r)
		topt := opt
		topt.Trace = &tr
		sv.SetOptions(topt)
		n0, f0 := sv.chords, sv.finals
		res := sv.QueryWarm(&a, &b, &prev)
		if sv.chords == n0 || sv.finals == f0 || res.Starts != 1 {
			continue
		}
		checked++
		st := tr.Steps
		if len(st) != res.Iterations+1 || st[0].Iter != 0 || st[1].Iter != 1 || !(st[1].Condition >= 1) {
			t.Fatalf("pair %d: %d steps for %d iterations: %+v", i, len(st), res.Iterations, st)
		}
		for k := 1; k < len(st); k++ {
			if !(st[k].Residual < st[k-1].Residual) && st[k].Residual > 1e-13 {
				t.Fatalf("pair %d: the residual rose at step %d: %g after %g", i, k, st[k].Residual, st[k-1].Residual)
			}
		}
		last := st[len(st)-1]
		if !last.Final || last.P.Sub(res.P).Len() > 1e-12 || last.Qw.Sub(res.Q).Len() > 1e-12 {
			t.Fatalf("pair %d: the trace ends at %v %v (final %v), the answer is %v %v", i, last.P, last.Qw, last.Final, res.P, res.Q)
		}
	}
	if checked < 20 {
		t.Fatalf("only %d traced warm starts took both chord steps", checked)
	}
}

// TestWarmPaths animates 300 paper-battery pairs (with SOVVIZ_WARM_PATHS=1
// all 3,000) for 50 steps with sovviz bench's motion and splits the warm
// queries by kind of pair, Newton iterations and the path the run took:
// whether its first step was a chord step and whether a chord last step
// ended it. Every query must converge; with -v it reports each path's
// share and median time, and which paths fill the middle of the time
// distribution (docs/bench.md, "Why the warm median is not 1 µs"):
//
//	SOVVIZ_WARM_PATHS=1 go test -run WarmPaths -v ./contact
func TestWarmPaths(t *testing.T) {
	n := 300
	if os.Getenv("SOVVIZ_WARM_PATHS") == "1" {
		n = 3000
	}
	opt := DefaultOptions()
	opt.Guess = Support
	sv := NewSolver(opt)
	pairs := PaperBattery(n, 1)
	rng := rand.New(rand.NewPCG(1, 0xa11a))
	type rec struct {
		ns  float64
		key string
	}
	var recs []rec
	for i := range pairs {
		a, b := pairs[i][0], pairs[i][1]
		prev := sv.Query(&a, &b)
		for k := 0; k < 50; k++ {
			benchMotion(&a, &b, rng)
			c0, f0 := sv.chords, sv.finals
			t0 := time.Now()
			r := sv.QueryWarm(&a, &b, &prev)
			dt := float64(time.Since(t0).Nanoseconds())
			if r.Status != Converged {
				t.Fatalf("pair %d step %d: %v", i, k, r.Status)
			}
			kind := "separated"
			if r.Distance < 0 {
				kind = "overlapping"
			}
			if r.NonConvex != 0 {
				kind += ", non-convex"
			} else {
				kind += ", convex"
			}
			key := fmt.Sprintf("%-24s %d iterations, chord first %-5v chord last %v", kind, min(r.Iterations, 5), sv.chords > c0, sv.finals > f0)
			recs = append(recs, rec{dt, key})
			prev = r
		}
	}
	all := make([]float64, len(recs))
	for i := range recs {
		all[i] = recs[i].ns
	}
	sort.Float64s(all)
	lo, hi := all[len(all)*45/100], all[len(all)*55/100]
	t.Logf("%d warm queries: median %.0f ns; the middle tenth (45th to 55th percentile) is %.0f–%.0f ns", len(recs), all[len(all)/2], lo, hi)
	times := map[string][]float64{}
	mid := map[string]int{}
	for _, r := range recs {
		times[r.key] = append(times[r.key], r.ns)
		if r.ns >= lo && r.ns <= hi {
			mid[r.key]++
		}
	}
	keys := make([]string, 0, len(times))
	for k := range times {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := times[k]
		if len(v)*200 < len(recs) {
			continue // paths under 0.5% of the queries
		}
		sort.Float64s(v)
		t.Logf("%s: %5.1f%% of the queries, median %5.0f ns, %5.1f%% of the middle tenth", k, 100*float64(len(v))/float64(len(recs)), v[len(v)/2], 100*float64(mid[k])/float64(max(1, len(recs)/10)))
	}
}
