package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// approxSupport (the gradient of the support function, with taper) gives
// the point that the thesis's closed-form parameters give through Point.
func TestApproxSupportMatchesAngles(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for i := 0; i < 100000; i++ {
		s := geom.Superovoid{A: [3]float64{0.3 + 1.7*r.Float64(), 0.3 + 1.7*r.Float64(), 0.3 + 1.7*r.Float64()},
			Eps: [2]float64{0.05 + 1.9*r.Float64(), 0.05 + 1.9*r.Float64()}, Taper: [2]float64{r.Float64() - 0.5, r.Float64() - 0.5}}
		n := vec{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		if i%7 == 0 {
			// A zero component takes the angle route itself.
			n[i%3] = 0
			p1, p2 := seNormalParams(&s, n)
			if x := approxSupport(&s, n); x != s.Point(p1, p2) {
				t.Fatalf("n=%v: %v", n, x)
			}
			continue
		}
		p1, p2 := seNormalParams(&s, n)
		want := s.Point(p1, p2)
		got := approxSupport(&s, n)
		d := got.Sub(want).Len()
		worst = math.Max(worst, d)
		if d > 1e-6 {
			t.Fatalf("%+v n=%v: %v want %v", s, n, got, want)
		}
	}
	t.Logf("worst %g", worst)
}
