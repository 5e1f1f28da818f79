package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ResidualHessianInto agrees with F = G^(e2/2) − 1 composed from Hessian's
// G, ∇G and ∇²G by the chain rule, across the parameter range and at points
// inside, on and outside the surface, including the coordinate planes. Both
// derive from LogResidualHessianInto, so this checks the two maps from the
// log form; TestGradientHessianMatchFiniteDifferences checks the
// derivatives themselves against G and F computed from logG alone.
func TestResidualHessianIntoMatchesChainRule(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	for i := 0; i < 20000; i++ {
		s := randomShape(r)
		if i%5 == 0 { // the ends of the exponents' range
			s.Eps = [2]float64{extremeEps(r), extremeEps(r)}
		}
		x := s.Point(-math.Pi+2*math.Pi*r.Float64(), -1.5+3*r.Float64()).Mul(0.7 + 0.6*r.Float64())
		if i%10 == 0 {
			x[i/10%3] = 0
		}
		var got Implicit
		ok1 := s.ResidualHessianInto(x, true, &got)
		e, ok2 := s.Hessian(x)
		if ok1 != ok2 {
			t.Fatalf("%+v at %v: ok %v, Hessian ok %v", s, x, ok1, ok2)
		}
		if !ok1 {
			continue
		}
		h := s.Eps[1] / 2
		gh := math.Pow(e.G, h)
		k := h * gh / e.G
		grad := e.Grad.Mul(k)
		if math.Abs(got.G-(gh-1)) > 1e-13*gh {
			t.Fatalf("%+v at %v: F %v, want %v", s, x, got.G, gh-1)
		}
		gs := grad.Len()
		if got.Grad.Sub(grad).Len() > 1e-12*gs {
			t.Fatalf("%+v at %v: ∇F %v, want %v", s, x, got.Grad, grad)
		}
		hs := 0.0
		want := Mat3{}
		for j := 0; j < 9; j++ {
			a, b := k*e.Hess[j], (1-1/h)/gh*grad[j%3]*grad[j/3]
			want[j] = a + b
			// the two terms cancel near a flat face: compare with their size
			hs = math.Max(hs, math.Abs(a)+math.Abs(b))
		}
		for j := 0; j < 9; j++ {
			if math.Abs(got.Hess[j]-want[j]) > 1e-11*hs {
				t.Fatalf("%+v at %v: ∇²F[%d] %v, want %v", s, x, j, got.Hess[j], want[j])
			}
		}
	}
}

// Householder's fast path gives the frame of HouseholderJac.
func TestHouseholderMatchesJacobianFrame(t *testing.T) {
	r := rand.New(rand.NewPCG(55, 56))
	for i := 0; i < 10000; i++ {
		n := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Mul(math.Exp(4 * r.NormFloat64()))
		t1, b1 := Householder(n)
		t2, b2, _, _ := HouseholderJac(n)
		if t1.Sub(t2).Len() > 1e-15 || b1.Sub(b2).Len() > 1e-15 {
			t.Fatalf("n=%v: Householder %v %v, HouseholderJac %v %v", n, t1, b1, t2, b2)
		}
	}
}

// LogResidualHessianInto is (e2/2)·ln G with the chain rule applied to
// Hessian's G, ∇G and ∇²G, and agrees with G^(e2/2) − 1 to first order at
// the surface.
func TestLogResidualHessianIntoMatchesChainRule(t *testing.T) {
	r := rand.New(rand.NewPCG(57, 58))
	for i := 0; i < 20000; i++ {
		s := randomShape(r)
		if i%5 == 0 { // the ends of the exponents' range
			s.Eps = [2]float64{extremeEps(r), extremeEps(r)}
		}
		x := s.Point(-math.Pi+2*math.Pi*r.Float64(), -1.5+3*r.Float64()).Mul(0.7 + 0.6*r.Float64())
		if i%10 == 0 {
			x[i/10%3] = 0
		}
		var got Implicit
		ok1 := s.LogResidualHessianInto(x, true, &got)
		e, ok2 := s.Hessian(x)
		if ok1 != ok2 {
			t.Fatalf("%+v at %v: ok %v, Hessian ok %v", s, x, ok1, ok2)
		}
		if !ok1 {
			continue
		}
		h := s.Eps[1] / 2
		if want := h * math.Log(e.G); math.Abs(got.G-want) > 1e-13*math.Max(1, math.Abs(want)) {
			t.Fatalf("%+v at %v: F %v, want %v", s, x, got.G, want)
		}
		grad := e.Grad.Mul(h / e.G)
		if got.Grad.Sub(grad).Len() > 1e-12*grad.Len() {
			t.Fatalf("%+v at %v: ∇F %v, want %v", s, x, got.Grad, grad)
		}
		hs := 0.0
		var want Mat3
		for j := 0; j < 9; j++ {
			a, b := h*e.Hess[j]/e.G, -grad[j%3]*grad[j/3]/h
			want[j] = a + b
			hs = math.Max(hs, math.Abs(a)+math.Abs(b))
		}
		for j := 0; j < 9; j++ {
			if math.Abs(got.Hess[j]-want[j]) > 1e-11*hs {
				t.Fatalf("%+v at %v: ∇²F[%d] %v, want %v", s, x, j, got.Hess[j], want[j])
			}
		}
	}
	// On the surface both residuals vanish and their gradients agree.
	for i := 0; i < 2000; i++ {
		s := randomShape(r)
		x := s.Point(-math.Pi+2*math.Pi*r.Float64(), -1.5+3*r.Float64())
		var a, b Implicit
		if !s.LogResidualHessianInto(x, false, &a) || !s.ResidualHessianInto(x, false, &b) {
			continue
		}
		if math.Abs(a.G) > 1e-12 || a.Grad.Sub(b.Grad).Len() > 1e-9*b.Grad.Len() {
			t.Fatalf("%+v at %v: log form %v %v, power form %v %v", s, x, a.G, a.Grad, b.G, b.Grad)
		}
	}
}

// extremeEps draws an exponent from the ends of the valid range, [0.05, 0.1]
// or [1.9, 1.95], which randomShape leaves out.
func extremeEps(r *rand.Rand) float64 {
	if r.IntN(2) == 0 {
		return 0.05 + 0.05*r.Float64()
	}
	return 1.9 + 0.05*r.Float64()
}
