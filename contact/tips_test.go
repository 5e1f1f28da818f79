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
