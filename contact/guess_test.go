package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// approxSupport (the gradient of the support function, with taper) gives
// the point that the thesis's closed-form parameters give through Point,
// and exact zeros where the direction has them.
func TestApproxSupportMatchesAngles(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for i := 0; i < 100000; i++ {
		s := geom.Superovoid{A: [3]float64{0.3 + 1.7*r.Float64(), 0.3 + 1.7*r.Float64(), 0.3 + 1.7*r.Float64()},
			Eps: [2]float64{0.05 + 1.9*r.Float64(), 0.05 + 1.9*r.Float64()}, Taper: [2]float64{r.Float64() - 0.5, r.Float64() - 0.5}}
		n := vec{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		if i%7 == 0 {
			n[i%3] = 0
			if x := approxSupport(&s, n); x[i%3] != 0 {
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

// seNormalParams returns the parameters of the point of the untapered shape
// whose normal is n (math.md §1, "point with a given local normal").
func seNormalParams(s *geom.Superovoid, n vec) (p1, p2 float64) {
	e1, e2 := s.Eps[0], s.Eps[1]
	d1, d2 := 1/(2-e1), 1/(2-e2)
	ax, ay, az := s.A[0]*n[0], s.A[1]*n[1], s.A[2]*n[2]
	p1 = math.Atan2(fspow(ay, d1), fspow(ax, d1))
	if math.Abs(ax) >= math.Abs(ay) {
		p2 = math.Atan2(fspow(az*fpow(math.Abs(math.Cos(p1)), 2-e1), d2), fpow(math.Abs(ax), d2))
	} else {
		p2 = math.Atan2(fspow(az*fpow(math.Abs(math.Sin(p1)), 2-e1), d2), fpow(math.Abs(ay), d2))
	}
	return
}
