package contact

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestTipContact: two pointy tapered shapes (pair 6 of a scratch draw of
// 1,000 overlaps with placedPair, exponents 1.3–1.9, seed 7) where a's
// tip presses into b's face. Newton crawls towards the tip and stops 1e-8
// or so short of it: every scheme answered a pair deeper (implicit
// 2e-8, the parametric schemes 2.1e-9)
// than the tip's own translation (noTips). The answer is now the tip's:
// one witness is an axis point of its body, the other its foot on the
// other body (the normal there, from the gradient, along the pair's line), b moved along the
// normal by 0.99 of the depth overlaps a and by 1.01 is apart (dense
// samples), and it is shallower than the crawled pair.
func TestTipContact(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.2977425787807808, 1.2000393639712168, 1.1209007606606822}, Eps: [2]float64{1.6411770380563122, 1.8526411621850383}, Taper: [2]float64{-0.18750184165021377, -0.29882296734856406}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.7300113904148332, V: geom.Vec3{0.05578232969524038, 0.4105197077502216, 0.5435487752787657}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.3477137573052378, 0.36958700331391436, 1.6600698591443244}, Eps: [2]float64{1.4459056310847056, 1.7626039316365243}, Taper: [2]float64{-0.2016100427950186, 0.2706978365399839}},
		Pose: geom.Pose{Position: geom.Vec3{-0.8247285194324695, 1.3607572452386771, 0.3889138926078934}, Orientation: geom.Quat{W: 0.6007512306430332, V: geom.Vec3{-0.22750794877256345, 0.2575542846035007, -0.7218059868195613}}}}
	ta, tb := a.Pose.Transform(), b.Pose.Transform()
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		sv, crawl := NewSolver(opt), NewSolver(opt)
		crawl.noTips = true
		res, old := sv.Query(&a, &b), crawl.Query(&a, &b)
		if res.Status != Converged || !(res.Distance < 0) || !(res.Distance > old.Distance+1e-9) {
			t.Errorf("%v: %v %.12f, without the tip check %.12f: want a converged overlap more than 1e-9 shallower", m, res.Status, res.Distance, old.Distance)
			continue
		}
		// One witness at a tip of its body, the other a foot of it on the
		// other body (that body's normal there along the pair's line).
		isTip := func(s *geom.Superovoid, x geom.Vec3) bool {
			for k := 0; k < 3; k++ {
				var tip geom.Vec3
				tip[k] = s.A[k]
				if x.Sub(tip).Len() < 1e-12 || x.Add(tip).Len() < 1e-12 {
					return true
				}
			}
			return false
		}
		d := res.P.Sub(res.Q).Normalize()
		nb, okb := b.Shape.Normal(tb.InvPoint(res.Q))
		na, oka := a.Shape.Normal(ta.InvPoint(res.P))
		aTip := isTip(&a.Shape, ta.InvPoint(res.P)) && okb && tb.Dir(nb).Add(d).Len() < 1e-7
		bTip := isTip(&b.Shape, tb.InvPoint(res.Q)) && oka && ta.Dir(na).Sub(d).Len() < 1e-7
		if !aTip && !bTip || math.Abs(res.P.Sub(res.Q).Len()+res.Distance) > 1e-12 {
			t.Errorf("%v: neither witness is a tip with its foot on the other body (P %v, Q %v, depth %.12f)", m, res.P, res.Q, res.Distance)
		}
		checkDepthBySamples(t, &a, &b, &res, 0.01, m.String())
	}
}

// TestTipSeeds: pair 3218 of TestQuerySymmetries' sweep at
// SOVVIZ_SWEEP_SEED=2. a's pointy tip (e 1.94 and 1.92) lies 0.0039 inside
// b (tapered, e 0.67 and 1.51), and b holds two basins beside the tip's
// foot, 2.6e-7 apart in depth, their normals 6° apart. The tip's own
// translation leaves the bodies overlapping (tipCheck refuses it), and
// every cold query answered the deeper basin, converged, unless the pair
// stood elsewhere in the world, where the probe's fixed directions found
// the other. Newton from the answer's witness beside the tip and the
// tip's foot finds the shallower one (tipCheck's seeds). In every scheme
// the answer must be a converged overlap shallower than without the seeds
// by more than 1e-9 that, moved out along its normal by 1 + 1e-6 times its
// depth, dense samples find apart, and, moved out by 1 − 1e-6 times it,
// overlapping; the pair turned and shifted must get the same depth;
// without the seeds the depth must be deeper than the translation the
// samples found to part the bodies; and the default solver's answer must
// be the seeds' (Solver.tipSeeded).
func TestTipSeeds(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.8727725271643458, 1.1080643265034604, 1.26718610533754}, Eps: [2]float64{1.9397727764274801, 1.9195961734687164}, Taper: [2]float64{0.3402840964211332, -0.4081635937997471}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.43324498213568086, V: geom.Vec3{-0.2881351061433949, 0.6244288019379891, 0.5825509568889881}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.7275236620723706, 1.1854241907604361, 0.712918786124979}, Eps: [2]float64{0.669928617032845, 1.5102403909695783}, Taper: [2]float64{0.36542530462311884, -0.4864953528031025}},
		Pose: geom.Pose{Position: geom.Vec3{0.6812315851240267, 1.5547323638733423, -0.5005735914341065}, Orientation: geom.Quat{W: -0.254632867582887, V: geom.Vec3{0.1661798478451818, 0.46689844595799296, 0.8303927998716506}}}}
	tol := pairTolOf(&a, &b)
	moved := func(res *Result, f float64) geom.Body {
		c := b
		c.Pose.Position = b.Pose.Position.Add(res.Normal.Mul(-f * res.Distance))
		return c
	}
	// Without the seeds: the deeper basin's answer.
	sv := NewSolver(DefaultOptions())
	sv.noTipSeeds = true
	old := sv.Query(&a, &b)
	parts := math.Inf(1) // the shallowest translation the samples found to part the bodies
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		res := NewSolver(opt).Query(&a, &b)
		if res.Status != Converged || !(res.Distance < 0) || !(res.Distance > old.Distance+1e-9) {
			t.Errorf("%v: %v %.15g, want a converged overlap shallower than without the seeds (%.15g) by more than 1e-9", m, res.Status, res.Distance, old.Distance)
			continue
		}
		out, in := moved(&res, 1+1e-6), moved(&res, 1-1e-6)
		if deep := refinedDeepest(&a, &out, 240, 120); !(deep >= 0) {
			t.Errorf("%v: %.15g: moved out by 1 + 1e-6 times the depth, dense samples find the bodies overlapping (%.3g)", m, res.Distance, deep)
		} else {
			parts = min(parts, -res.Distance*(1+1e-6))
		}
		if deep := refinedDeepest(&a, &in, 240, 120); !(deep < 0) {
			t.Errorf("%v: %.15g: moved out by 1 − 1e-6 times the depth, dense samples find the bodies apart (%.3g)", m, res.Distance, deep)
		}
		q, sh := geom.Quat{W: 0.5, V: geom.Vec3{0.5, -0.5, 0.5}}, geom.Vec3{3, -7, 2}
		ma, mb := rigidMoved(a, q, sh), rigidMoved(b, q, sh)
		if mv := NewSolver(opt).Query(&ma, &mb); mv.Status != Converged || !(math.Abs(mv.Distance-res.Distance) <= tol) {
			t.Errorf("%v: %.15g, turned and shifted %v %.15g", m, res.Distance, mv.Status, mv.Distance)
		}
		t.Logf("%v: %v %.15g (without the seeds %.15g)", m, res.Status, res.Distance, old.Distance)
	}
	if !(-old.Distance > parts+1e-9) {
		t.Errorf("without the tip's seeds %v %.15g: no deeper than the samples' %.15g, the pair no longer tests them", old.Status, old.Distance, parts)
	}
	sv = NewSolver(DefaultOptions())
	if sv.Query(&a, &b); sv.tipSeeded != 1 {
		t.Errorf("the tip's seeds replaced %d answers, want the one", sv.tipSeeded)
	}
}

// TestTipSeedTakes: tipCheck's Newton pair replaces the answer only when
// it is shallower by more than the tolerance and no shallower than the
// deepest tip's own depth (a proven lower bound), within the tolerance.
func TestTipSeedTakes(t *testing.T) {
	ov := func(sd float64) candidate { return candidate{valid: true, converged: true, sd: sd} }
	best := ov(-0.5)
	tips := []candidate{ov(-0.2), ov(-0.3)}
	for _, c := range []struct {
		near float64
		want bool
	}{
		{-0.4, true},          // between the answer and the deepest tip
		{-0.3 + 1e-12, true},  // at the deepest tip, within tol
		{-0.25, false},        // shallower than the deepest tip: too shallow
		{-0.5 + 1e-12, false}, // not shallower than the answer by more than tol
	} {
		near := ov(c.near)
		if got := tipSeedTakes(&near, &best, tips, 1e-9); got != c.want {
			t.Errorf("near %.12g, answer %.12g, tips %v: %v, want %v", c.near, best.sd, []float64{tips[0].sd, tips[1].sd}, got, c.want)
		}
	}
	if near := (candidate{sd: -0.4}); tipSeedTakes(&near, &best, tips, 1e-9) {
		t.Errorf("an invalid pair was taken")
	}
}
