package contact

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestWarmMatchesCold animates pairs at the range's ends as a simulation
// steps them through `sovviz query -warm`, and compares every warm answer
// with a cold query's. Each animation draws two shapes (semi-axes 0.3–2,
// exponents from 0.05, 0.1, 0.5, 1, 1.5, 1.9 and 1.95, tapers ±0.5), moves
// b from 1.3 times the sum of the largest semi-axes apart to 0.5 times it
// and back, drifting sideways and turning 2° a step. Where warm and cold
// differ by more than 1e-8, both must be separated or both overlapping,
// two separated answers must not differ (one is then not the closest
// pair), and each overlap must be a translation that parts the bodies (b
// moved out along its normal by 1.0001 times it is apart by dense
// samples), but for overlaps of non-convex shapes deeper than the issue's
// depths (0.3 of the smaller smallest semi-axis), which have no
// certificate and are only counted. The same comparison through the
// command line found two warm faults (TestMoveOutWarmFirstOverlap,
// TestWarmSearchSeparatedGoesCold); this draw meets neither at its seed
// nor at seeds 1 to 3 with their mends switched off, and at its seed
// every answer it compares is such a deep overlap: it guards the cases
// above for draws to come. SOVVIZ_WARM_COLD_SWEEP=1 runs 200 animations
// of 100 steps instead of 6 of 40 (about 70 s; 22 steps differ);
// SOVVIZ_SWEEP_SEED=N draws others: seeds 2 to 5 pass, and seed 1 fails
// on pair 117's step 39, a warm answer 0.131571 deep of two pointy
// tapered shapes that b moved out by it leaves overlapping, where the
// cold answer, 0.132397, parts them (the move-out check does not run on
// warm steps tracked from an overlap it passed: docs/contact.md, "Known
// limits"); seed 6 on pair 75's step 74, 0.124065 against 0.127459, two
// box-like shapes with dips, whose overlaps the check never covers:
//
//	SOVVIZ_WARM_COLD_SWEEP=1 go test -count 1 -run TestWarmMatchesCold -v ./contact
func TestWarmMatchesCold(t *testing.T) {
	pairs, steps := 6, 40
	if os.Getenv("SOVVIZ_WARM_COLD_SWEEP") == "1" {
		pairs, steps = 200, 100
	}
	r := rand.New(sweepPCG(t, 2026, 1207))
	exps := []float64{0.05, 0.1, 0.5, 1, 1.5, 1.9, 1.95}
	shape := func() geom.Superovoid {
		var s geom.Superovoid
		for i := range s.A {
			s.A[i] = 0.3 + 1.7*r.Float64()
		}
		s.Eps = [2]float64{exps[r.IntN(len(exps))], exps[r.IntN(len(exps))]}
		s.Taper = [2]float64{r.Float64() - 0.5, r.Float64() - 0.5}
		return s
	}
	unit := func() geom.Vec3 { return geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize() }
	cold := NewSolver(DefaultOptions())
	var differ, deep, checked int
	for p := 0; p < pairs; p++ {
		a := geom.Body{Shape: shape(), Pose: geom.Pose{Orientation: UniformQuat(r)}}
		b := geom.Body{Shape: shape(), Pose: geom.Pose{Orientation: UniformQuat(r)}}
		d, axis, side := unit(), unit(), unit().Mul(0.2)
		turn := geom.Quat{W: math.Cos(math.Pi / 180), V: axis.Mul(math.Sin(math.Pi / 180))} // 2° a step
		reach := max(a.Shape.A[0], a.Shape.A[1], a.Shape.A[2]) + max(b.Shape.A[0], b.Shape.A[1], b.Shape.A[2])
		L := min(minAxis(&a.Shape), minAxis(&b.Shape))
		warm := NewSolver(DefaultOptions())
		var prev Result
		for s := 0; s < steps; s++ {
			f := float64(s) / float64(steps-1)
			dist := reach * (1.3 - 1.6*f)
			if f >= 0.5 {
				dist = reach * (-0.3 + 1.6*f)
			}
			b.Pose.Position = d.Mul(dist).Add(side.Mul(math.Sin(6 * f)))
			b.Pose.Orientation = turn.Mul(b.Pose.Orientation)
			var w Result
			if s == 0 {
				w = warm.Query(&a, &b)
			} else {
				w = warm.QueryWarm(&a, &b, &prev)
			}
			prev = w
			c := cold.Query(&a, &b)
			if w.Status == Failed || c.Status == Failed || math.Abs(w.Distance-c.Distance) <= 1e-8 {
				if (w.Status == Failed) != (c.Status == Failed) {
					t.Errorf("pair %d step %d: warm %v, cold %v", p, s, w.Status, c.Status)
				}
				continue
			}
			differ++
			switch {
			case (w.Distance > 0) != (c.Distance > 0):
				t.Errorf("pair %d step %d: warm %v %.9g, cold %v %.9g: one is separated, the other not", p, s, w.Status, w.Distance, c.Status, c.Distance)
			case w.Distance > 0:
				t.Errorf("pair %d step %d: separated answers differ: warm %v %.9g, cold %v %.9g", p, s, w.Status, w.Distance, c.Status, c.Distance)
			case w.NonConvex != 0 && min(w.Distance, c.Distance) < -0.3*L:
				deep++
			default:
				for _, x := range []struct {
					name string
					res  *Result
				}{{"warm", &w}, {"cold", &c}} {
					checked++
					moved := b
					moved.Pose.Position = b.Pose.Position.Add(x.res.Normal.Mul(-1.0001 * x.res.Distance))
					if deepest := refinedDeepest(&a, &moved, 200, 100); !(deepest > 0) {
						t.Errorf("pair %d step %d: %s %v %.9g (warm %.9g, cold %.9g): b moved out by 1.0001 times it still overlaps (residual %.3g)",
							p, s, x.name, x.res.Status, x.res.Distance, w.Distance, c.Distance, deepest)
					}
				}
			}
		}
	}
	t.Logf("%d animations of %d steps: warm and cold differ on %d steps (%d beyond the issue's depths), %d overlaps moved out", pairs, steps, differ, deep, checked)
}
