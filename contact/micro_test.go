package contact

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

func BenchmarkEvalImplicitJac(b *testing.B) { benchEvalImplicit(b, true) }

// BenchmarkEvalImplicitResidual is BenchmarkEvalImplicitJac without the
// Jacobian (no Hessians, no frame derivatives): what an iteration that
// reuses an earlier Jacobian, such as a chord or two-step method, would
// still pay per evaluation.
func BenchmarkEvalImplicitResidual(b *testing.B) { benchEvalImplicit(b, false) }

// benchEvalImplicit evaluates the implicit system of a battery pair at a
// fixed iterate, with or without the Jacobian.
func benchEvalImplicit(b *testing.B, jac bool) {
	pairs := paperPairs(1, 1)
	p := pairs[0]
	pr := newPair(&p[0], &p[1])
	x := [6]float64{0.3, 0.5, 0.4, 0.2, -0.6, 0.3}
	var s system
	for i := 0; i < b.N; i++ {
		s.eval(Implicit, &pr, &x, jac)
	}
}

func BenchmarkResidualHessian(b *testing.B) {
	s := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.5, 0.7}, Taper: [2]float64{0.1, 0.2}}
	x := geom.Vec3{0.3, 0.5, 0.4}
	for i := 0; i < b.N; i++ {
		s.ResidualHessian(x, true)
	}
}

func BenchmarkQuadtree(b *testing.B) {
	pairs := paperPairs(1, 1)
	p := pairs[0]
	pr := newPair(&p[0], &p[1])
	var res Result
	for i := 0; i < b.N; i++ {
		quadtreeGuess(&pr, 6, &res)
	}
}

func BenchmarkSolve6(b *testing.B) {
	var J [6][6]float64
	for i := range J {
		for j := range J {
			J[i][j] = float64((i*7+j*3)%11) + 0.1
		}
		J[i][i] += 10
	}
	r := [6]float64{1, 2, 3, 4, 5, 6}
	for i := 0; i < b.N; i++ {
		solve(&J, &r, 6)
	}
}

func BenchmarkResidualHessianInto(b *testing.B) {
	s := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.5, 0.7}, Taper: [2]float64{0.1, 0.2}}
	x := geom.Vec3{0.3, 0.5, 0.4}
	var e geom.Implicit
	for i := 0; i < b.N; i++ {
		s.ResidualHessianInto(x, true, &e)
	}
}

func BenchmarkLogResidualHessianInto(b *testing.B) {
	s := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.5, 0.7}, Taper: [2]float64{0.1, 0.2}}
	x := geom.Vec3{0.3, 0.5, 0.4}
	var e geom.Implicit
	for i := 0; i < b.N; i++ {
		s.LogResidualHessianInto(x, true, &e)
	}
}

// rankPow stays within its documented error of math.Pow over the range
// seSupport uses it on (bases in [0, 2], exponents 1/40 to 40).
func TestRankPow(t *testing.T) {
	worst := 0.0
	for i := 0; i < 200000; i++ {
		x := math.Pow(10, -12+12.3*float64(i%1000)/1000)
		e := math.Pow(40, -1+2*float64(i/1000)/200)
		got, want := rankPow(x, e), math.Pow(x, e)
		if want < 1e-290 || want > 1e290 {
			continue
		}
		rel := math.Abs(got-want) / want
		if lim := 1e-6 * (1 + math.Abs(e*math.Log(x))); rel > lim {
			t.Fatalf("rankPow(%g, %g) = %g, want %g (rel %.3g > %.3g)", x, e, got, want, rel, lim)
		}
		worst = math.Max(worst, rel)
	}
	if rankPow(0, 2) != 0 || rankPow(1, 7) != 1 || rankPow(-1, 2) != 0 {
		t.Fatal("rankPow special cases")
	}
	t.Logf("worst relative error %.3g", worst)
}

func BenchmarkRankPow(b *testing.B) {
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += rankPow(0.3+float64(i&255)*0.001, 1.7)
	}
	_ = s
}

func BenchmarkSolveImplicit(b *testing.B) {
	var J [6][6]float64
	for i := 0; i < 4; i++ {
		for j := range J {
			J[i][j] = float64((i*7+j*3)%11) + 0.1
		}
		J[i][i] += 10
	}
	J[4] = [6]float64{0.3, -0.9, 0.2}
	J[5] = [6]float64{0, 0, 0, 0.1, 0.4, -0.8}
	r := [6]float64{1, 2, 3, 4, 5, 6}
	for i := 0; i < b.N; i++ {
		solveImplicit(&J, &r, 1)
	}
}

// BenchmarkShapeCacheHit: two cache lookups per query (the tapered shapes
// of a battery cycling through 3,000 shapes, all held).
func BenchmarkShapeCacheHit(b *testing.B) {
	pairs := PaperBattery(1500, 1)
	c := newShapeCache()
	for i := range pairs {
		c.info(&pairs[i][0].Shape)
		c.info(&pairs[i][1].Shape)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &pairs[i%len(pairs)]
		c.info(&p[0].Shape)
		c.info(&p[1].Shape)
	}
}

// BenchmarkSolveImplicitVaried: solveImplicit on the Jacobians at 1,000
// answers of the paper battery in turn, whose pivots vary as in the solver
// (BenchmarkSolveImplicit repeats one matrix, which the branch predictor
// learns).
func BenchmarkSolveImplicitVaried(b *testing.B) {
	all := PaperBattery(1000, 1)
	sv := NewSolver(DefaultOptions())
	var js [][6][6]float64
	for i := range all {
		r := sv.Query(&all[i][0], &all[i][1])
		pr := newPair(&all[i][0], &all[i][1])
		x := [6]float64{r.LocalP[0], r.LocalP[1], r.LocalP[2], r.LocalQ[0], r.LocalQ[1], r.LocalQ[2]}
		var s system
		if s.eval(Implicit, &pr, &x, true) {
			js = append(js, s.jac)
		}
	}
	rhs := [6]float64{1e-3, -2e-3, 1e-4, 3e-4, 1e-5, -1e-5}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		solveImplicit(&js[i%len(js)], &rhs, 1)
	}
}
