package contact

import (
	"testing"
)

// A solver keeps the evaluation constants of its last query's shapes
// (Solver.consts): queries that change shapes, on either side, answer bit
// for bit as a fresh solver does, and a warm start of the same shapes in
// new poses computes none again.
func TestSolverConstsFollowShapes(t *testing.T) {
	opt := DefaultOptions()
	opt.Guess = Support
	pairs := PaperBattery(60, 11)
	sv := NewSolver(opt)
	for i := range pairs {
		a, b := &pairs[i][0], &pairs[i][1]
		switch i % 3 {
		case 1:
			b = &pairs[i-1][1] // only a's shape changes
		case 2:
			a = &pairs[i-1][0] // only b's
		}
		got := sv.Query(a, b)
		if sv.consts[0].s != a.Shape || sv.consts[1].s != b.Shape {
			t.Fatalf("pair %d: the solver holds the constants of other shapes", i)
		}
		want := NewSolver(opt).Query(a, b)
		if got.Distance != want.Distance || got.P != want.P || got.Q != want.Q || got.Status != want.Status {
			t.Fatalf("pair %d: %v %v with kept constants, %v %v fresh", i, got.Distance, got.Status, want.Distance, want.Status)
		}
		made := sv.consts[0].made + sv.consts[1].made
		b2 := *b
		b2.Pose.Position[0] += 1e-3
		sv.QueryWarm(a, &b2, &got)
		if n := sv.consts[0].made + sv.consts[1].made; n != made {
			t.Fatalf("pair %d: a warm start of the same shapes computed their constants again (%d times)", i, n-made)
		}
	}
}
