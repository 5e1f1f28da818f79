package contact

import (
	"math"
	"testing"
)

// TestTraceEndsAtAnswer: with a trace, every start's last Newton step is
// recorded, the one taken without an evaluation included, so that on a
// query answered by its only start the trace ends at the answer's witness
// points with the residual reached there; and tracing changes no answer.
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
			for k, s := range tr.Steps {
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
			if r.Starts != 1 || r.Status != Converged || r.Fallback {
				continue
			}
			single++
			last := tr.Steps[len(tr.Steps)-1]
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
