package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// charLength is the length scale of a pair: it makes the residual rows in
// length units comparable with the dimensionless ones and bounds steps.
func charLength(pr *pair) float64 {
	return math.Min(minAxis(pr.a), minAxis(pr.b))
}

func minAxis(s *geom.Superovoid) float64 { return math.Min(s.A[0], math.Min(s.A[1], s.A[2])) }

func merit(phi *[6]float64, n int, invL float64) float64 {
	m := phi[0]*phi[0] + phi[1]*phi[1] + (phi[2]*phi[2]+phi[3]*phi[3])*invL*invL
	for i := 4; i < n; i++ {
		m += phi[i] * phi[i]
	}
	return m
}

// wrapParams keeps angle-centre parameters in their domain: p2 in
// [−π/2, π/2] (reflecting through a pole moves p1 by π) and p1 in [−π, π).
func wrapParams(p1, p2 float64) (float64, float64) {
	if p2 > math.Pi/2 || p2 < -math.Pi/2 {
		p2 = math.Remainder(p2, 2*math.Pi)
		if p2 > math.Pi/2 {
			p2 = math.Pi - p2
			p1 += math.Pi
		} else if p2 < -math.Pi/2 {
			p2 = -math.Pi - p2
			p1 += math.Pi
		}
	}
	p1 = math.Remainder(p1, 2*math.Pi)
	return p1, p2
}

// newtonOutcome is what one Newton run from one start produced.
type newtonOutcome struct {
	x         [6]float64
	iters     int
	converged bool
	sys       system // evaluated at x (no Jacobian)
}

// newton runs damped Newton–Raphson from x0. Steps are capped (a quarter of
// the smallest semi-axis, or 0.5 rad) and halved while they leave the domain
// or increase the scaled residual by a lot, so a poor start cannot throw the
// iterate far away; a singular Jacobian ends the run.
func (sv *Solver) newton(m Method, pr *pair, x0 [6]float64, start int) newtonOutcome {
	opt := &sv.opt
	L := charLength(pr)
	invL := 1 / L
	x := x0
	var out newtonOutcome
	sys := &sv.sys
	if !sys.eval(m, pr, &x, true) {
		out.x = x
		return out
	}
	n := sys.n
	cur := merit(&sys.phi, n, invL)
	maxStep := 0.25 * L
	tol := opt.Tol
	if m != Implicit {
		maxStep = 0.5
		tol = opt.Tol * invL // angles: Tol is in length units
	}
	for it := 1; it <= opt.MaxIter; it++ {
		if opt.FiniteDiff && !sys.fdJacobian(m, pr, &x) {
			break
		}
		var rhs [6]float64
		for i := 0; i < n; i++ {
			rhs[i] = -sys.phi[i]
		}
		dx, cond, ok := solve(&sys.jac, &rhs, n)
		if !ok {
			out.iters = it
			break
		}
		norm := 0.0
		for i := 0; i < n; i++ {
			norm = math.Max(norm, math.Abs(dx[i]))
		}
		alpha := 1.0
		if norm > maxStep {
			alpha = maxStep / norm
		}
		var xn [6]float64
		accepted := false
		var trial system
		for h := 0; h < 12; h++ {
			xn = x
			for i := 0; i < n; i++ {
				xn[i] += alpha * dx[i]
			}
			if m != Implicit {
				xn[0], xn[1] = wrapParams(xn[0], xn[1])
				xn[2], xn[3] = wrapParams(xn[2], xn[3])
			}
			if trial.eval(m, pr, &xn, false) {
				mn := merit(&trial.phi, n, invL)
				// Accept growth in the merit only on a full Newton step close
				// to the solution, where the merit is dominated by rounding.
				if mn <= cur*(1-1e-4*alpha) || mn < 1e-24 || (h == 0 && mn < 4*cur) {
					accepted = true
					break
				}
			}
			alpha *= 0.5
		}
		out.iters = it
		if !accepted {
			break
		}
		x = xn
		step := alpha * norm
		if !sys.eval(m, pr, &x, true) {
			break
		}
		cur = merit(&sys.phi, n, invL)
		if opt.Trace != nil {
			st := TraceStep{Start: start, Q: x, P: sys.P, Qw: sys.Q, Residual: math.Sqrt(cur), Step: step, Condition: cond}
			opt.Trace.Steps = append(opt.Trace.Steps, st)
		}
		if step <= tol && cur < 1e-16 {
			out.converged = true
			break
		}
		if cur < 1e-30 {
			out.converged = true
			break
		}
	}
	out.x = x
	sys.eval(m, pr, &x, false)
	out.sys = *sys
	return out
}
