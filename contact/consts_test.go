package contact

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
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

// pair.witness, the classification's proof that a witness lies in the
// other body, decides as inside(…, 1e-9) does: the log residual against
// ln(1 + 1e-9) instead of the residual against 1e-9. Checked on points
// around the surface, within 1e-7 of it on either side and at 1e-9
// exactly, for paper-battery shapes in random poses.
func TestWitnessInsideMatchesInside(t *testing.T) {
	if logWitnessLim != math.Log1p(1e-9) {
		t.Fatalf("logWitnessLim %v, ln(1 + 1e-9) %v", logWitnessLim, math.Log1p(1e-9))
	}
	pairs := PaperBattery(300, 12)
	checked, in := 0, 0
	for i := range pairs {
		b := &pairs[i][0]
		s := &b.Shape
		k := s.ImplicitConsts()
		tr := b.Pose.Transform()
		for j := 0; j < 40; j++ {
			p1, p2 := 0.3*float64(j), 0.17*float64(j)-3
			x := s.Point(p1, math.Remainder(p2, math.Pi/2))
			n, ok := s.Normal(x)
			if !ok {
				continue
			}
			for _, off := range []float64{-1e-7, -1e-9, 0, 1e-9, 1e-7, 0.1, -0.1} {
				w := tr.Point(x.Add(n.Mul(off)))
				got, want := new(pair).witness(&k, s, &tr, w, false), inside(s, &tr, w, 1e-9)
				if got != want {
					f, _ := s.Residual(tr.InvPoint(w))
					t.Fatalf("pair %d point %d offset %g: pair.witness %v, inside %v (F %g)", i, j, off, got, want, f)
				}
				checked++
				if got {
					in++
				}
			}
		}
	}
	if checked < 50000 || in < checked/2 || in > checked*5/6 { // (five offsets of seven are inside)
		t.Fatalf("%d points checked, %d inside", checked, in)
	}
	if new(pair).witness(nil, &pairs[0][0].Shape, &geom.Transform{R: geom.Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}}, vec{}, false) != true {
		t.Fatalf("outside a query pair.witness does not fall back to inside")
	}
}
