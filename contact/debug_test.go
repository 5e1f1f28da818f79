package contact

import (
	"math/rand/v2"
	"testing"
)

func TestDebugPair(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	for i := 0; i < 40; i++ {
		battery(r, 0)
	}
	for i := 0; i < 36; i++ {
		a, b := battery(r, 1)
		if i != 28 {
			continue
		}
		opt := DefaultOptions()
		res := Query(&a, &b, &opt)
		t.Logf("res %v %v starts %d", res.Distance, res.Status, res.Starts)
		t.Logf("local P %v params %v; local Q %v params %v", res.LocalP, res.ParamsP, res.LocalQ, res.ParamsQ)
		ra, rb := newRefBody(&a), newRefBody(&b)
		ha, p := ra.support(res.Normal)
		hb, q := rb.support(res.Normal.Mul(-1))
		at := a.Pose.Transform()
		bt := b.Pose.Transform()
		t.Logf("ref P local %v (h %.12f vs solver %.12f)", at.InvPoint(p), ha, res.Normal.Dot(res.P))
		t.Logf("ref Q local %v (h %.12f vs solver %.12f)", bt.InvPoint(q), hb, -res.Normal.Dot(res.Q))
		fa, _ := a.Shape.Residual(res.LocalP)
		fb, _ := b.Shape.Residual(res.LocalQ)
		t.Logf("residuals %g %g", fa, fb)
	}
}
