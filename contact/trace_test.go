package contact

import (
	"math"
	"testing"
)

// TestTraceEndsAtAnswer: with a trace, every start's iterates are recorded
// from its starting point (iterate 0) to its last step, the one taken
// without an evaluation included, so that on a query answered by its only
// start the trace ends at the answer's witness points with the residual
// reached there; and tracing changes no answer.
// (Before, a start that ended with such a step left it out: the trace
// stopped one step short, at a residual near 1e-6 or above.)
func TestTraceEndsAtAnswer(t *testing.T) {
	pairs := PaperBattery(120, 9)
	finals, single := 0, 0
	for _, m := range allMethods {
		for i := range pairs {
			a, b := &pairs[i][0], &pairs[i][1]
			opt := DefaultOptions()
			opt.Method = m
			plain := Query(a, b, &opt)
			var tr Trace
			opt.Trace = &tr
			r := Query(a, b, &opt)
			if r.Distance != plain.Distance || r.P != plain.P || r.Status != plain.Status {
				t.Fatalf("%v pair %d: traced %.17g (%v), untraced %.17g (%v)", m, i, r.Distance, r.Status, plain.Distance, plain.Status)
			}
			if len(tr.Steps) == 0 {
				t.Fatalf("%v pair %d: empty trace (%d iterations)", m, i, r.Iterations)
			}
			// (An iteration whose step every damping refused ends its run
			// untraced: it moved nothing.)
			runs, traced := 0, 0
			for k, s := range tr.Steps {
				// Each run begins with its iterate 0, a new start with a
				// new run, and numbers the rest in order.
				if k == 0 || s.Start != tr.Steps[k-1].Start || s.Iter == 0 {
					if s.Iter != 0 || s.Step != 0 {
						t.Errorf("%v pair %d: start %d begins with iterate %d (step %g)", m, i, s.Start, s.Iter, s.Step)
					}
					if k > 0 && s.Start < tr.Steps[k-1].Start {
						t.Errorf("%v pair %d: start %d after start %d", m, i, s.Start, tr.Steps[k-1].Start)
					}
					runs++
				} else if s.Iter != tr.Steps[k-1].Iter+1 {
					t.Errorf("%v pair %d: start %d: iterate %d after %d", m, i, s.Start, s.Iter, tr.Steps[k-1].Iter)
				}
				if k+1 == len(tr.Steps) || tr.Steps[k+1].Iter == 0 {
					traced += s.Iter // the run's steps
				}
				if s.Final {
					finals++
					if k+1 < len(tr.Steps) && tr.Steps[k+1].Start == s.Start {
						t.Errorf("%v pair %d: step %d of start %d is marked final but not last", m, i, k, s.Start)
					}
				}
				if math.IsNaN(s.Residual) || math.IsInf(s.Residual, 0) {
					t.Errorf("%v pair %d step %d: residual %v", m, i, k, s.Residual)
				}
			}
			if traced > r.Iterations || runs < r.Starts {
				t.Errorf("%v pair %d: %d steps in %d runs traced, %d iterations in %d starts", m, i, traced, runs, r.Iterations, r.Starts)
			}
			if r.Starts != 1 || runs != 1 || r.Status != Converged || r.Fallback {
				continue
			}
			single++
			last := tr.Steps[len(tr.Steps)-1]
			if last.Iter != r.Iterations {
				t.Errorf("%v pair %d: %d iterations, the trace's last iterate is number %d", m, i, r.Iterations, last.Iter)
			}
			scale := 1e-12 * (1 + r.P.Len() + r.Q.Len())
			if last.P.Sub(r.P).Len() > scale || last.Qw.Sub(r.Q).Len() > scale {
				t.Errorf("%v pair %d: trace ends at %v, %v; answer %v, %v", m, i, last.P, last.Qw, r.P, r.Q)
			}
			if last.Residual > 1e-9 {
				t.Errorf("%v pair %d: trace ends at residual %.3g", m, i, last.Residual)
			}
		}
	}
	t.Logf("%d final steps recorded; %d single-start answers checked", finals, single)
	if finals == 0 || single < len(pairs) {
		t.Errorf("too few cases: %d final steps, %d single-start answers", finals, single)
	}
}
