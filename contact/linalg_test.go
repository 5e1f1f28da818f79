package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The fixed-size solver agrees with gonum's LU solve on random 4x4 and 6x6
// systems over a wide range of conditioning, and refuses singular ones.
func TestSolveAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	for i := 0; i < 5000; i++ {
		n := 4 + 2*(i%2)
		var J [6][6]float64
		var rhs [6]float64
		// Random orthogonal-ish mixing of a diagonal with a chosen spread of
		// singular values (condition up to 1e10).
		spread := math.Pow(10, 10*r.Float64())
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				J[a][b] = r.NormFloat64()
			}
			J[a][a] += float64(n) * math.Pow(spread, -float64(a)/float64(n-1))
			rhs[a] = r.NormFloat64()
		}
		x, cond, ok := solve(&J, &rhs, n)
		A := mat.NewDense(n, n, nil)
		B := mat.NewVecDense(n, nil)
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				A.Set(a, b, J[a][b])
			}
			B.SetVec(a, rhs[a])
		}
		var X mat.VecDense
		if err := X.SolveVec(A, B); err != nil {
			continue // gonum calls it singular: nothing to compare
		}
		if !ok {
			if c := mat.Cond(A, 1); c < 1e12 {
				t.Fatalf("case %d: refused a system of condition %.3g", i, c)
			}
			continue
		}
		c := mat.Cond(A, 1)
		for a := 0; a < n; a++ {
			if d := math.Abs(x[a] - X.AtVec(a)); d > 1e-13*c*math.Max(1, math.Abs(X.AtVec(a))) {
				t.Fatalf("case %d (n=%d, cond %.3g): x[%d] = %v, gonum %v", i, n, c, a, x[a], X.AtVec(a))
			}
		}
		if !(cond >= 1) {
			t.Fatalf("case %d: condition estimate %v", i, cond)
		}
	}
	var S [6][6]float64 // singular: two equal rows
	for a := 0; a < 6; a++ {
		for b := 0; b < 6; b++ {
			S[a][b] = float64(a*b%5) + 1
		}
	}
	S[5] = S[4]
	if _, _, ok := solve(&S, &[6]float64{1, 2, 3, 4, 5, 6}, 6); ok {
		t.Fatal("a singular system was solved")
	}
}
