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
		if i != 35 {
			continue
		}
		opt := DefaultOptions()
		var tr Trace
		opt.Trace = &tr
		res := Query(&a, &b, &opt)
		t.Logf("res %v %v starts %d", res.Distance, res.Status, res.Starts)
		for _, s := range tr.Steps {
			t.Logf("start %d resid %.3e step %.3e cond %.2e q %.4f", s.Start, s.Residual, s.Step, s.Condition, s.Q)
		}
	}
}
