package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
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

// The structured solve of the implicit scheme agrees with gonum's LU solve
// on random systems of its pattern (rows 4 and 5 are (g, 0) and (0, h)),
// with gradients pointing every way and conditioning up to 1e10, and refuses
// singular ones: a zero gradient, or dependent rows.
func TestSolveImplicitAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(73, 74))
	for i := 0; i < 5000; i++ {
		var J [6][6]float64
		var rhs [6]float64
		spread := math.Pow(10, 10*r.Float64())
		for a := 0; a < 4; a++ {
			for b := 0; b < 6; b++ {
				J[a][b] = r.NormFloat64() * math.Pow(spread, -float64(b)/5)
			}
		}
		for k := 0; k < 3; k++ {
			J[4][k] = r.NormFloat64() * math.Pow(10, 3*r.Float64()-1.5)
			J[5][3+k] = r.NormFloat64() * math.Pow(10, 3*r.Float64()-1.5)
		}
		if i%7 == 0 { // a gradient along an axis
			J[4][0], J[4][1] = 0, 0
		}
		for a := range rhs {
			rhs[a] = r.NormFloat64()
		}
		x, cond, ok := solveImplicit(&J, &rhs, 1)
		// The recorded factorisation replays the same elimination: on the
		// same right-hand side bit for bit, on another as gonum does.
		var lu implicitLU
		x2, cond2, ok2 := solveImplicitLU(&J, &rhs, 1, &lu)
		if ok2 != ok || lu.ok != ok || x2 != x || ok && (cond2 != cond || lu.cond != cond) {
			t.Fatalf("case %d: solveImplicitLU differs from solveImplicit", i)
		}
		var other [6]float64
		for a := range other {
			other[a] = r.NormFloat64()
		}
		if ok {
			if xr, okR := lu.solve(&rhs); !okR || xr != x {
				t.Fatalf("case %d: replay %v, solve %v", i, xr, x)
			}
			checkLUReplay(t, i, &J, &lu, &other)
		}
		A := mat.NewDense(6, 6, nil)
		B := mat.NewVecDense(6, rhs[:])
		for a := 0; a < 6; a++ {
			for b := 0; b < 6; b++ {
				A.Set(a, b, J[a][b])
			}
		}
		var X mat.VecDense
		if err := X.SolveVec(A, B); err != nil {
			continue
		}
		c := mat.Cond(A, 1)
		if !ok {
			if c < 1e12 {
				t.Fatalf("case %d: refused a system of condition %.3g", i, c)
			}
			continue
		}
		for a := 0; a < 6; a++ {
			if d := math.Abs(x[a] - X.AtVec(a)); d > 1e-13*c*math.Max(1, math.Abs(X.AtVec(a))) {
				t.Fatalf("case %d (cond %.3g): x[%d] = %v, gonum %v", i, c, a, x[a], X.AtVec(a))
			}
		}
		if !(cond >= 1) {
			t.Fatalf("case %d: condition estimate %v", i, cond)
		}
	}
	var S [6][6]float64
	S[0] = [6]float64{1, 2, 3, 4, 5, 6}
	S[1] = [6]float64{0, 1, 0, 2, 0, 1}
	S[2] = S[0] // dependent rows
	S[3] = [6]float64{1, 0, 0, 0, 0, 1}
	S[4] = [6]float64{0.3, 0.5, 0.1}
	S[5] = [6]float64{0, 0, 0, 0.2, 0.1, 0.7}
	if _, _, ok := solveImplicit(&S, &[6]float64{1, 2, 3, 4, 5, 6}, 1); ok {
		t.Fatal("a singular system was solved")
	}
	S[2] = [6]float64{0, 0, 1, 0, 1, 0}
	S[4] = [6]float64{}
	if _, _, ok := solveImplicit(&S, &[6]float64{1, 2, 3, 4, 5, 6}, 1); ok {
		t.Fatal("a system with a zero gradient row was solved")
	}
}

// The Levenberg–Marquardt step (normalEquations, then lmSolve's Cholesky)
// agrees with gonum's solve of (JᵀW²J + μI)·dx = −JᵀW²Φ, for 4 and 6
// unknowns, Jacobians up to rank-deficient and damping from 1e-10 to 1e2
// of JᵀW²J's scale.
func TestLMStepAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	worst := 0.0
	for i := 0; i < 5000; i++ {
		n := 4 + 2*(i%2)
		var J [6][6]float64
		var phi, w [6]float64
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				J[a][b] = r.NormFloat64()
			}
			phi[a] = r.NormFloat64()
			w[a] = 1
		}
		w[2], w[3] = 1/(0.1+r.Float64()), 1/(0.1+r.Float64())
		if i%5 == 0 {
			J[n-1] = J[0] // a repeated row: JᵀJ singular, only μ makes it definite
		}
		mu := math.Pow(10, -10+12*r.Float64())
		var A [6][6]float64
		var g [6]float64
		normalEquations(&J, &phi, &w, n, &A, &g)
		dx, ok := lmSolve(&A, &g, n, mu)
		if !ok {
			t.Fatalf("case %d: lmSolve refused μ=%g", i, mu)
		}
		M := mat.NewDense(n, n, nil)
		B := mat.NewVecDense(n, nil)
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				s := 0.0
				for k := 0; k < n; k++ {
					s += w[k] * w[k] * J[k][a] * J[k][b]
				}
				if a == b {
					s += mu
				}
				M.Set(a, b, s)
			}
			s := 0.0
			for k := 0; k < n; k++ {
				s -= w[k] * w[k] * J[k][a] * phi[k]
			}
			B.SetVec(a, s)
		}
		var X mat.VecDense
		if err := X.SolveVec(M, B); err != nil {
			t.Fatalf("case %d: gonum: %v", i, err)
		}
		cond := mat.Cond(M, 2)
		xn := mat.Norm(&X, 2)
		for a := 0; a < n; a++ {
			e := math.Abs(dx[a]-X.AtVec(a)) / (xn * cond * 1e-15)
			worst = math.Max(worst, e)
			if e > 100 {
				t.Fatalf("case %d (n=%d, μ=%g, cond %.2g): dx[%d] = %v, gonum %v", i, n, mu, cond, a, dx[a], X.AtVec(a))
			}
		}
	}
	t.Logf("worst error %.3g × cond·1e-15·|dx|", worst)
	// A NaN or a non-positive damping is refused, not returned.
	var A [6][6]float64
	var g [6]float64
	if _, ok := lmSolve(&A, &g, 6, 0); ok {
		t.Errorf("lmSolve accepted a zero matrix without damping")
	}
	A[0][0] = math.NaN()
	if _, ok := lmSolve(&A, &g, 6, 1); ok {
		t.Errorf("lmSolve accepted NaN")
	}
}

// frameGrad2's frame is geom.Householder's bit for bit (and tangentFrame
// geom.TangentFrame's), and its gradients are the transposed
// geom.HouseholderJac applied to v and u, over normals of every
// orientation and scale, either sign of the first component, and the
// axis-aligned ones.
func TestFrameGrad2(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	rv := func() geom.Vec3 {
		s := math.Pow(10, 8*r.Float64()-4)
		return geom.Vec3{s * r.NormFloat64(), s * r.NormFloat64(), s * r.NormFloat64()}
	}
	ns := []geom.Vec3{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, 0, -2}, {-0.5, 0, 1e-300}, {-0.0, 0, 1}}
	for i := 0; i < 20000; i++ {
		ns = append(ns, rv())
	}
	for _, n := range ns {
		v, u := rv(), rv()
		t0, b0 := geom.Householder(n)
		t1, b1, gtv, gbv, gtu, gbu := frameGrad2(v3of(n), v3of(v), v3of(u), true)
		if t1.vec() != t0 || b1.vec() != b0 {
			t.Fatalf("n %v: frame %v %v, geom.Householder %v %v", n, t1, b1, t0, b0)
		}
		if t2, b2, _, _, _, _ := frameGrad2(v3of(n), v3of(v), v3of(u), false); t2 != t1 || b2 != b1 {
			t.Fatalf("n %v: the frame alone differs", n)
		}
		t3, b3 := tangentFrame(n)
		if t4, b4 := geom.TangentFrame(n); t3 != t4 || b3 != b4 {
			t.Fatalf("n %v: tangentFrame differs from geom.TangentFrame", n)
		}
		_, _, dt, db := geom.HouseholderJac(n)
		for _, c := range []struct {
			x      geom.Vec3
			gt, gb v3
		}{{v, gtv, gbv}, {u, gtu, gbu}} {
			got := [2]geom.Vec3{c.gt.vec(), c.gb.vec()}
			for j := 0; j < 3; j++ {
				wt := c.x[0]*dt[j*3] + c.x[1]*dt[j*3+1] + c.x[2]*dt[j*3+2]
				wb := c.x[0]*db[j*3] + c.x[1]*db[j*3+1] + c.x[2]*db[j*3+2]
				sc := c.x.Len() / n.Len()
				if math.Abs(got[0][j]-wt) > 1e-12*sc || math.Abs(got[1][j]-wb) > 1e-12*sc {
					t.Fatalf("n=%v x=%v: gradients %v, the Jacobian gives %v %v at %d", n, c.x, got, wt, wb, j)
				}
			}
		}
	}
}

// TestMinEigen4 checks the Jacobi eigen-solver of the saddle test against
// gonum's symmetric eigendecomposition on random symmetric matrices,
// definite and indefinite, with clustered eigenvalues among them.
func TestMinEigen4(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for k := 0; k < 2000; k++ {
		var A [4][4]float64
		sym := mat.NewSymDense(4, nil)
		for i := 0; i < 4; i++ {
			for j := i; j < 4; j++ {
				v := r.NormFloat64()
				if k%3 == 0 && i != j {
					v *= 1e-6 // nearly diagonal: clustered rotations
				}
				A[i][j], A[j][i] = v, v
				sym.SetSym(i, j, v)
			}
		}
		var es mat.EigenSym
		if !es.Factorize(sym, true) {
			t.Fatal("gonum failed")
		}
		want := es.Values(nil)[0] // ascending
		got, w := minEigen4(A)
		if math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
			t.Fatalf("matrix %v: smallest eigenvalue %.15g, gonum %.15g", A, got, want)
		}
		// A·w = λ·w with |w| = 1.
		norm, res := 0.0, 0.0
		for i := 0; i < 4; i++ {
			s := 0.0
			for j := 0; j < 4; j++ {
				s += A[i][j] * w[j]
			}
			res = math.Max(res, math.Abs(s-got*w[i]))
			norm += w[i] * w[i]
		}
		if math.Abs(norm-1) > 1e-12 || res > 1e-10 {
			t.Fatalf("matrix %v: eigenvector %v, |w|² %.15g, residual %.3g", A, w, norm, res)
		}
	}
}

// checkLUReplay checks lu.solve on a right-hand side other than the one J
// was factorised with, against gonum's solve.
func checkLUReplay(t *testing.T, i int, J *[6][6]float64, lu *implicitLU, rhs *[6]float64) {
	t.Helper()
	x, ok := lu.solve(rhs)
	A := mat.NewDense(6, 6, nil)
	for a := 0; a < 6; a++ {
		for b := 0; b < 6; b++ {
			A.Set(a, b, J[a][b])
		}
	}
	var X mat.VecDense
	if err := X.SolveVec(A, mat.NewVecDense(6, rhs[:])); err != nil {
		return
	}
	c := mat.Cond(A, 1)
	if !ok {
		t.Fatalf("case %d: the replay refused a system its factorisation solved (cond %.3g)", i, c)
	}
	for a := 0; a < 6; a++ {
		if d := math.Abs(x[a] - X.AtVec(a)); d > 1e-13*c*math.Max(1, math.Abs(X.AtVec(a))) {
			t.Fatalf("case %d (cond %.3g): replayed x[%d] = %v, gonum %v", i, c, a, x[a], X.AtVec(a))
		}
	}
}

// TestRowWeight: rowWeight is 1/L rounded to the nearest power of two in
// the logarithm (1 for L in [1/√2, √2)), over L from 1e-100 to 1e100.
func TestRowWeight(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100000; i++ {
		L := math.Pow(10, -100+200*r.Float64())
		w := rowWeight(L)
		if _, e := math.Frexp(w); w != math.Ldexp(0.5, e) {
			t.Fatalf("L %g: weight %g is no power of two", L, w)
		}
		if x := math.Log2(w * L); !(x >= -0.5-1e-12 && x < 0.5+1e-12) {
			t.Fatalf("L %g: weight %g, log2(w·L) = %g", L, w, x)
		}
	}
	for _, c := range []struct{ L, w float64 }{{1, 1}, {0.71, 1}, {1.41, 1}, {0.7, 2}, {1.42, 0.5}, {0.3, 4}, {2, 0.5}, {1e12, 0x1p-40}} {
		if w := rowWeight(c.L); w != c.w {
			t.Errorf("rowWeight(%g) = %g, want %g", c.L, w, c.w)
		}
	}
}

// TestSolveImplicitWeightedAgainstGonum: at the bodies' size L the length
// rows 2 and 3 are L times the others, and solveImplicit weighs them by
// rowWeight(L). The weighted solve, and the replay of its factorisation on
// another right-hand side, give gonum's solution of the same system with
// those rows unscaled (the same solution: scaling a row and its right-hand
// side changes nothing), to the unscaled system's conditioning, for L from
// 1e-12 to 1e12 (not powers of two, so the weighting is not exact).
func TestSolveImplicitWeightedAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(75, 76))
	solved := 0
	for i := 0; i < 5000; i++ {
		var J0 [6][6]float64
		var rhs0, other0 [6]float64
		spread := math.Pow(10, 6*r.Float64())
		for a := 0; a < 4; a++ {
			for b := 0; b < 6; b++ {
				J0[a][b] = r.NormFloat64() * math.Pow(spread, -float64(b)/5)
			}
		}
		for k := 0; k < 3; k++ {
			J0[4][k] = r.NormFloat64() * math.Pow(10, 2*r.Float64()-1)
			J0[5][3+k] = r.NormFloat64() * math.Pow(10, 2*r.Float64()-1)
		}
		for a := range rhs0 {
			rhs0[a], other0[a] = r.NormFloat64(), r.NormFloat64()
		}
		L := math.Pow(10, -12+24*r.Float64())
		J, rhs, other := J0, rhs0, other0
		for _, a := range [2]int{2, 3} {
			for b := 0; b < 6; b++ {
				J[a][b] *= L
			}
			rhs[a] *= L
			other[a] *= L
		}
		A := mat.NewDense(6, 6, nil)
		for a := 0; a < 6; a++ {
			for b := 0; b < 6; b++ {
				A.Set(a, b, J0[a][b])
			}
		}
		c := mat.Cond(A, 1)
		var lu implicitLU
		x, _, ok := solveImplicitLU(&J, &rhs, rowWeight(L), &lu)
		if !ok {
			if c < 1e10 {
				t.Fatalf("case %d (L %.3g): refused a system of unscaled condition %.3g", i, L, c)
			}
			continue
		}
		xo, okO := lu.solve(&other)
		if !okO {
			t.Fatalf("case %d (L %.3g): the replay refused", i, L)
		}
		for k, pair := range [2]struct{ rhs, x *[6]float64 }{{&rhs0, &x}, {&other0, &xo}} {
			var X mat.VecDense
			if err := X.SolveVec(A, mat.NewVecDense(6, pair.rhs[:])); err != nil {
				t.Fatalf("case %d: gonum: %v", i, err)
			}
			for a := 0; a < 6; a++ {
				if d := math.Abs(pair.x[a] - X.AtVec(a)); !(d <= 1e-13*c*math.Max(1, math.Abs(X.AtVec(a)))) {
					t.Fatalf("case %d (L %.3g, cond %.3g, rhs %d): x[%d] = %v, gonum %v", i, L, c, k, a, pair.x[a], X.AtVec(a))
				}
			}
		}
		solved++
	}
	if solved < 4900 {
		t.Fatalf("only %d of 5000 systems solved", solved)
	}
}
