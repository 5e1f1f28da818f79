package tessellate

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// projectPoint moves x onto G = 1 and returns the point with its unit
// normal: Newton steps along the gradient of the well-scaled residual
// F = G^(e2/2) − 1 until |F| ≤ ProjectTol, each step at most maxStep long;
// should they leave the domain, stall or jump, a bracketed solve along the
// ray from the centre takes over (fell reports it). G increases strictly
// along every ray of a superovoid (|u|, |v|, |w| all grow with the ray
// parameter while 1 + t·w stays positive), so that root is unique.
func projectPoint(s *geom.Superovoid, x geom.Vec3, maxStep float64) (p, n geom.Vec3, ok, fell bool) {
	x0 := x
	for it := 0; it < 12; it++ {
		r, good := s.ResidualHessian(x, false)
		if !good {
			break
		}
		g2 := r.Grad.Dot(r.Grad)
		if !(g2 > 0) || math.IsInf(g2, 0) {
			break
		}
		if math.Abs(r.G) <= ProjectTol {
			return x, r.Grad.Mul(1 / math.Sqrt(g2)), true, false
		}
		step := r.Grad.Mul(r.G / g2)
		if step.Len() > maxStep {
			break
		}
		x = x.Sub(step)
	}
	p, n, ok = projectRadial(s, x0)
	return p, n, ok, true
}

// projectRadial solves G(t·x) = 1 for t by bisection on the ray through x.
func projectRadial(s *geom.Superovoid, x geom.Vec3) (p, n geom.Vec3, ok bool) {
	if !(x.Len() > 0) {
		return p, n, false
	}
	f := func(t float64) float64 {
		r, good := s.Residual(x.Mul(t))
		if !good {
			return math.Inf(1)
		}
		return r
	}
	lo, hi := 0.0, 1.0
	for f(hi) < 0 {
		lo, hi = hi, 2*hi
		if hi > 1e12 {
			return p, n, false
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-16*hi; i++ {
		mid := 0.5 * (lo + hi)
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	t := lo
	if math.Abs(f(hi)) < math.Abs(f(lo)) {
		t = hi
	}
	p = x.Mul(t)
	r, good := s.ResidualHessian(p, false)
	if !good || !(r.Grad.Len() > 0) {
		return p, n, false
	}
	return p, r.Grad.Normalize(), true
}
