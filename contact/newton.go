package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// charLength is the length scale of a pair: it makes the residual rows in
// length units comparable with the dimensionless ones and bounds steps.
func charLength(pr *pair) float64 { return pr.L }

// stepTol is Options.Tol for the pair, in length units: Tol relative to
// the characteristic length, so that a query's accuracy does not depend on
// the bodies' size (an absolute 1e-10 ended runs converged 1e-10 apart on
// bodies of size 1e-10; TestQueryScaleInvariance). At L = 1 it is Tol.
func stepTol(opt *Options, pr *pair) float64 { return opt.Tol * charLength(pr) }

// rowWeight is the weight of the length rows (2 and 3) in the Newton
// solves (solveImplicit): 1/L rounded to a power of two (in the
// logarithm), so that the weighting, exact, changes no rounding, and for L
// in [1/√2, √2) nothing. From L's bits (L is a normal number, within
// geom's 1e-100 to 1e100): math.Frexp and math.Ldexp cost 1.7 M of the
// 456 M instructions of docs/bench.md's 20,000 warm queries.
func rowWeight(L float64) float64 {
	b := math.Float64bits(L)
	e := int64(b>>52&0x7ff) - 1023      // L = 1.f·2^e
	if b&(1<<52-1) >= 0x6a09e667f3bcd { // 1.f ≥ √2
		e++
	}
	return math.Float64frombits(uint64(1023-e) << 52)
}

func minAxis(s *geom.Superovoid) float64 { return min(s.A[0], min(s.A[1], s.A[2])) }

func maxAxis(s *geom.Superovoid) float64 { return max(s.A[0], max(s.A[1], s.A[2])) }

func merit(phi *[6]float64, n int, invL float64) float64 {
	m := phi[0]*phi[0] + phi[1]*phi[1] + (phi[2]*phi[2]+phi[3]*phi[3])*invL*invL
	if n == 6 { // (n is 4 or 6)
		m += phi[4] * phi[4]
		m += phi[5] * phi[5]
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
	x [6]float64
	// xe is the last iterate evaluated, where sys holds the system (x
	// itself, or x before a last step taken without evaluation).
	xe        [6]float64
	iters     int
	converged bool
	// What classify needs of the system at xe (not all of it: a copy of
	// the whole system per start cost more than its use): the residual,
	// the local points (at x), and each side's log residual.
	phi            [6]float64
	n              int
	localP, localQ vec
	ea, eb         geom.Implicit
	// na, nb are the local unit normals at the final points when the
	// implicit gradients give them (implicit and ntb schemes), so that
	// classify need not evaluate them again.
	na, nb      vec
	haveNormals bool
	// haveHess says sys holds the Hessians of the last evaluation (not with
	// finite-difference Jacobians, whose evaluations skip them).
	haveHess bool
	// crawling: over its last farWindow iterations the run's merit fell by
	// more than 1 − stallRatio (a run that ran out of iterations was still
	// getting somewhere; see startAt).
	crawling bool
}

// newton runs a globalised Newton–Raphson from x0: the full Newton step is
// tried first (capped to a quarter of the smallest semi-axis, or 0.5 rad) and
// kept if it reduces the scaled residual; otherwise Levenberg–Marquardt steps
// with a growing damping take over until one does. Near the solution the
// damping vanishes and convergence is quadratic; far from it the iterate
// cannot cycle or jump away. A run that cannot reduce the residual ends.
//
// pre, when not nil, holds both sides' log residuals at x0 (the previous
// answer's last evaluation, on a warm start of the implicit scheme): the
// first evaluation only reassembles the system for the new poses.
func (sv *Solver) newton(m Method, pr *pair, x0 [6]float64, pre *warmState, start int, maxIter int, out *newtonOutcome) {
	opt := &sv.opt
	L := charLength(pr)
	invL := 1 / L
	x := x0
	*out = newtonOutcome{}
	// Two buffers: the trial iterate is evaluated with its Jacobian, so an
	// accepted step needs no second evaluation.
	sys, trial := &sv.sys, &sv.trial
	ok := false
	// A warm start with the previous answer's factorised Jacobian first
	// tries a chord step from it (chordStep): its evaluation needs only the
	// residual at the new poses.
	chord := pre != nil && pre.lu.ok && m == Implicit && !opt.FiniteDiff && !sv.noChords
	if chord {
		ok = sys.evalImplicitAt(pr, &x, &pre.ea, &pre.eb, false)
	} else if pre != nil && m == Implicit && !opt.FiniteDiff {
		ok = sys.evalImplicitAt(pr, &x, &pre.ea, &pre.eb, true)
	} else {
		ok = sys.eval(m, pr, &x, true)
	}
	if !ok {
		out.x = x
		return
	}
	n := sys.n
	cur := merit(&sys.phi, n, invL)
	if opt.Trace != nil {
		opt.Trace.Steps = append(opt.Trace.Steps, TraceStep{Start: start, Q: x, P: pr.tb.Point(sys.P), Qw: pr.tb.Point(sys.Q), Residual: math.Sqrt(cur)})
	}
	maxStep := 0.25 * L
	tol := stepTol(opt, pr)
	if m != Implicit {
		maxStep = 0.5
		tol = opt.Tol // angles: Tol·L over L
	}
	// Row weights of the scaled least-squares problem.
	var w [6]float64
	for i := 0; i < n; i++ {
		w[i] = 1
	}
	w[2], w[3] = invL, invL
	mu := 0.0
	// Damping below muFloor is dropped: 1e-8 of where it started, i.e.
	// 1e-12 of JᵀWJ's scale (never below dampMin). An absolute floor kept
	// box-like faces, whose Hessians make that scale huge, damped for
	// dozens of accepted steps: they crawled and ran out of iterations
	// (TestRelativeDampingFloor). (damp sets it whenever the damping is
	// switched on, before it is read.)
	muFloor := 0.0
	rw := rowWeight(L)
	lastStep := math.Inf(1)
	stallRef, farRef, farStep := cur, cur, 0.0
	var hist [farWindow]float64 // the merits of the last farWindow iterations
	// The LM tries of one iteration share JᵀWJ and JᵀWΦ; only μ changes.
	// (normalEquations writes every entry lmSolve reads, so the solver's
	// buffers serve every iteration unzeroed.)
	jtj, jtr := &sv.jtj, &sv.jtr
	// A step below tol ends the run where the merit is below curDone. A
	// finite-difference Jacobian can be far off next to a pointy tip,
	// its step then far shorter than the error: it took a step of 1e-10
	// with the residual at 8.9e-9 and answered 2.4e-9 off, certified
	// (TestFiniteDiffConvergedAtTip); such runs need the residual itself
	// (residualDone), as do damped steps (doneAt).
	curDone := 1e-16
	if opt.FiniteDiff {
		curDone = residualDone
	}
	first := 1
	if chord {
		if xn, step, ok := sv.chordStep(pr, sys, trial, &x, &pre.lu, cur, maxStep); ok {
			x = xn
			sys, trial = trial, sys
			cur = merit(&sys.phi, n, invL)
			out.iters, first = 1, 2
			sv.chords++
			hist[1%farWindow] = cur
			lastStep, farStep = step, step
			if opt.Trace != nil {
				opt.Trace.Steps = append(opt.Trace.Steps, TraceStep{Start: start, Iter: 1, Q: x, P: pr.tb.Point(sys.P), Qw: pr.tb.Point(sys.Q), Residual: math.Sqrt(cur), Step: step, Condition: pre.lu.cond})
			}
			if (step <= tol && cur < curDone) || cur < 1e-24 {
				out.converged = true
				first = maxIter + 1
			}
		} else if !sys.evalImplicitAt(pr, &x, &pre.ea, &pre.eb, true) {
			out.x = x // (never: the residual's evaluation succeeded)
			return
		}
	}
	for it := first; it <= maxIter; it++ {
		out.iters = it
		if opt.FiniteDiff && !sys.fdJacobian(m, pr, &x) {
			break
		}
		// (All six: the solvers read only the first n.)
		ph := &sys.phi
		rhs := [6]float64{-ph[0], -ph[1], -ph[2], -ph[3], -ph[4], -ph[5]}
		if sys.deferred {
			// The last step was short: end with a chord step from its
			// Jacobian when that is as accurate as a final Newton step,
			// else assemble this iterate's Jacobian after all.
			if dx, norm, ok := sv.chordFinal(pr, sys, trial, &rhs, cur, lastStep, maxStep, tol); ok {
				out.xe = x
				x = [6]float64{x[0] + dx[0], x[1] + dx[1], x[2] + dx[2], x[3] + dx[3], x[4] + dx[4], x[5] + dx[5]}
				sv.finals++
				out.finalStep(sys, &x, &dx, it, !opt.FiniteDiff)
				if opt.Trace != nil {
					traceFinal(m, pr, &x, start, it, norm, sv.lu.cond, invL, opt.Trace)
				}
				return
			}
			if !sys.completeJacobian(pr) {
				break // (never: the evaluation that deferred it succeeded)
			}
		}
		var xn [6]float64
		accepted := false
		var step, cond float64
		pure := false // the accepted step is a full, undamped Newton step
		haveNormal := false
		for try := 0; try < 10; try++ {
			var dx [6]float64
			var ok bool
			if mu == 0 {
				// The Jacobian is not needed after this solve unless it
				// fails, and then LM rebuilds from a copy made below.
				if m == Implicit && !opt.FiniteDiff {
					// (Recorded for the answer's warm state: finish.)
					dx, cond, ok = solveImplicitLU(&sys.jac, &rhs, rw, &sv.lu)
					sv.luX, sv.luQuery = x, sv.queryN
				} else if m == Implicit {
					dx, cond, ok = solveImplicit(&sys.jac, &rhs, rw)
				} else {
					// (Rows 2 and 3 over L, as solveImplicit weighs
					// them: here they are the lengths against the
					// angles' dimensionless rows.)
					jc := sys.jac
					for j := 0; j < n; j++ {
						jc[2][j] *= rw
						jc[3][j] *= rw
					}
					rr := rhs
					rr[2] *= rw
					rr[3] *= rw
					dx, cond, ok = solveInPlace(&jc, &rr, n)
				}
			} else {
				if !haveNormal {
					normalEquations(&sys.jac, &sys.phi, &w, n, jtj, jtr)
					haveNormal = true
				}
				dx, ok = lmSolve(jtj, jtr, n, mu)
			}
			if !ok {
				mu = damp(mu, &sys.jac, &w, n, &muFloor, dampMin(m, invL))
				continue
			}
			// The largest |dx[i]| (dx is finite, and zero beyond n), as
			// integer maxima of the bit patterns: branch-free, unlike the
			// floating-point max.
			norm := math.Float64frombits(absBits6(&dx))
			short := mu == 0 && norm <= finalStep*maxStep && cur < 1e-12
			if short && !smoothFinal(m, pr, sys, norm, tol) && !stepOnSurfaces(pr, trial, &x, &dx) {
				short = false // (the run goes on, and damps)
			}
			if short {
				// Quadratic convergence: after this Newton step the error is
				// of order |dx|² ≤ 1e-12·L, far below the tolerance, so take
				// it without paying for another evaluation.
				out.xe = x
				for i := 0; i < n; i++ {
					x[i] += dx[i]
				}
				if m != Implicit {
					x[0], x[1] = wrapParams(x[0], x[1])
					x[2], x[3] = wrapParams(x[2], x[3])
				}
				if m == Implicit {
					out.finalStep(sys, &x, &dx, it, !opt.FiniteDiff)
					if opt.Trace != nil {
						traceFinal(m, pr, &x, start, it, norm, cond, invL, opt.Trace)
					}
				} else {
					out.x = x
					out.converged = true
					out.iters = it
					out.keep(sys)
					if opt.Trace != nil {
						traceFinal(m, pr, &x, start, it, norm, cond, invL, opt.Trace)
					}
					out.localP = pr.a.Point(x[0], x[1])
					out.localQ = pr.b.Point(x[2], x[3])
				}
				return
			}
			alpha := 1.0
			if norm > maxStep {
				alpha = maxStep / norm
			}
			// (All six, written out: dx is zero beyond n.)
			xn = [6]float64{x[0] + alpha*dx[0], x[1] + alpha*dx[1], x[2] + alpha*dx[2], x[3] + alpha*dx[3], x[4] + alpha*dx[4], x[5] + alpha*dx[5]}
			if m != Implicit {
				xn[0], xn[1] = wrapParams(xn[0], xn[1])
				xn[2], xn[3] = wrapParams(xn[2], xn[3])
			}
			// After a short full step of the implicit scheme the next one is
			// most likely the last: its Jacobian waits until the next
			// iteration knows whether a chord step will do (chordFinal).
			// (Not when the chord step's length bound would refuse it: the
			// next step is about norm²·(norm/lastStep²) long, quadratic
			// convergence's ratio from the last two steps, and a refused
			// chord step costs the deferred assembly and its solve.)
			late := m == Implicit && !opt.FiniteDiff && mu == 0 && alpha == 1 && norm <= deferStep*L && !sv.noChords &&
				norm*norm*norm*norm <= 1e-12*L*L*lastStep*lastStep
			if late && trial.evalLate(pr, &xn) || !late && trial.eval(m, pr, &xn, !opt.FiniteDiff) {
				mn := merit(&trial.phi, n, invL)
				if mn < cur || mn < 1e-28 {
					accepted = true
					step = alpha * norm
					pure = mu == 0 && alpha == 1
					break
				}
			}
			mu = damp(mu, &sys.jac, &w, n, &muFloor, dampMin(m, invL))
		}
		if !accepted {
			break
		}
		x = xn
		sys, trial = trial, sys
		if mu > 0 {
			mu *= 0.1
			if mu < muFloor {
				mu = 0
			}
		}
		cur = merit(&sys.phi, n, invL)
		out.crawling = it > farWindow && cur < stallRatio*hist[it%farWindow]
		hist[it%farWindow] = cur
		if opt.Trace != nil {
			st := TraceStep{Start: start, Iter: it, Q: x, P: pr.tb.Point(sys.P), Qw: pr.tb.Point(sys.Q), Residual: math.Sqrt(cur), Step: step, Condition: cond}
			opt.Trace.Steps = append(opt.Trace.Steps, st)
		}
		if pure && step <= 0.5*lastStep && sv.losing(m, sys, step, L) {
			break // an exploratory start heading for a worse pair
		}
		if sv.ranked && !sv.noJoin && sv.joining(m, pr, sys, L) {
			sv.joined = true
			sv.joins++
			break // a ranked start come into the best pair's basin
		}
		lastStep = step
		if it == 1 {
			farStep = step
		}
		if it%farWindow == 0 {
			// (Not while the steps grow: Levenberg–Marquardt's damping
			// coming down after rejected steps, the merit to follow.)
			if cur > stallRatio*farRef && cur > farMerit && step <= 4*farStep && !sv.noFarStall {
				break // stalled far from any root (a shorter window)
			}
			farRef, farStep = cur, step
		}
		if it%stallWindow == 0 {
			if cur > stallRatio*stallRef && cur > stallMerit {
				// Stalled at a minimum of the merit that is no root (box-like
				// faces: damped steps wander without reducing it). More
				// iterations there only cost time; the caller moves on.
				break
			}
			stallRef = cur
		}
		// Converged when the step is below tolerance (and the merit below
		// doneAt's bound), or when the residual is so small (|Φ| < 1e-12)
		// that the quadratic next step would be below rounding anyway.
		if (step <= tol && cur < doneAt(pure, curDone, sv.noDampedDone)) || cur < 1e-24 {
			out.converged = true
			break
		}
	}
	out.x, out.xe = x, x
	out.keep(sys)
	if m != Parametric {
		out.na, out.nb, out.haveNormals = unitPair(sys.ea.Grad, sys.eb.Grad)
		out.haveHess = out.haveNormals && !opt.FiniteDiff
	}
}

// finalStep ends a run of the implicit scheme with the step dx from x
// taken without another evaluation (sys holds the system at x, Hessians
// included where hess).
func (o *newtonOutcome) finalStep(sys *system, x, dx *[6]float64, it int, hess bool) {
	o.x = *x
	o.converged = true
	o.iters = it
	o.keep(sys)
	o.localP = vec{x[0], x[1], x[2]}
	o.localQ = vec{x[3], x[4], x[5]}
	// The normals at the stepped points to first order: ∇F + ∇²F·dx, an
	// error of order |dx|² (≤ 1e-12·L²).
	ga := sys.ea.Grad.Add(geom.MulMV(&sys.ea.Hess, vec{dx[0], dx[1], dx[2]}))
	gb := sys.eb.Grad.Add(geom.MulMV(&sys.eb.Hess, vec{dx[3], dx[4], dx[5]}))
	o.na, o.nb, o.haveNormals = unitPair(ga, gb)
	o.haveHess = o.haveNormals && hess
}

// deferStep is the full Newton step, relative to the characteristic
// length, below which the next iterate's Jacobian is assembled only when
// needed: the step after it is then of order deferStep²·L, and a chord
// step's error of order deferStep³·L, as small as a final Newton step's.
const deferStep = 2e-4

// chordFinal tries to end a run whose last full step, of length lastStep,
// was short, with a chord step: sys holds the residual at the new iterate
// (evalLate), and sv.lu the factorised Jacobian of the iterate before it,
// prev's. Its error is of order lastStep·|dx|/L where the curvature varies
// slowly (the Jacobian moved by the order of lastStep/L), and the step is
// taken when that is at most 1e-12·L, as a final Newton step's |dx|²/L is
// (and with finalStep's bounds), and when the Hessians' own change between
// the two iterates leaves at most chordResidual in the normal rows: on
// pointy and box-like shapes the first bound alone left residuals of 1e-8
// (TestChordFinalResidual).
func (sv *Solver) chordFinal(pr *pair, sys, prev *system, rhs *[6]float64, cur, lastStep, maxStep, tol float64) (dx [6]float64, norm float64, ok bool) {
	if !sv.lu.ok || sv.luQuery != sv.queryN || !(cur < 1e-12) {
		return dx, 0, false
	}
	if dx, ok = sv.lu.solve(rhs); !ok {
		return dx, 0, false
	}
	norm = math.Float64frombits(absBits6(&dx))
	L := charLength(pr)
	if norm > finalStep*maxStep || lastStep*norm > 1e-12*L*L {
		return dx, 0, false
	}
	// (As smoothFinal, with the chord's error bound for the Newton step's:
	// lastStep·|dx| where that has |dx|², a length squared over tol.)
	lim := lastStep * norm / tol
	if !smoothAt(pr.a, sys.localP, lim) || !smoothAt(pr.b, sys.localQ, lim) {
		return dx, 0, false
	}
	// The Jacobian's change itself, where the curvature varies fast (pointy
	// and box-like shapes): the normal rows move with the Hessians over
	// the gradients' lengths, and the chord step leaves about that change
	// times its own length (rows 2 and 3 too, through b's frame, times the
	// distance over L as the merit scales them).
	ea, eb := chordHessErr(&sys.ea, &prev.ea, dx[0], dx[1], dx[2]), chordHessErr(&sys.eb, &prev.eb, dx[3], dx[4], dx[5])
	if !(ea+eb*(1+sys.Q.Sub(sys.P).Len()/L) <= chordResidual) {
		return dx, 0, false
	}
	return dx, norm, true
}

// chordResidual bounds the residual a final chord step may leave in the
// normal rows (radians), as estimated by chordHessErr: about what final
// Newton steps leave (TestChordFinalResidual). With the Frobenius norm of
// ΔH times |d| for the projected product, the same limit took 1,889
// chord last steps of TestWarmChordSteps' 3,000 queries instead of 2,249.
const chordResidual = 3e-12

// chordHessErr estimates the error a chord step (d0, d1, d2) on one side
// leaves in the normal rows when its Jacobian was formed from Hessian
// prev.Hess instead of cur.Hess: the normal's turn |P·ΔH·d|/|∇F|, P the
// projection onto the tangent plane.
func chordHessErr(cur, prev *geom.Implicit, d0, d1, d2 float64) float64 {
	h, p := &cur.Hess, &prev.Hess
	v0 := (h[0]-p[0])*d0 + (h[3]-p[3])*d1 + (h[6]-p[6])*d2
	v1 := (h[1]-p[1])*d0 + (h[4]-p[4])*d1 + (h[7]-p[7])*d2
	v2 := (h[2]-p[2])*d0 + (h[5]-p[5])*d1 + (h[8]-p[8])*d2
	g := cur.Grad
	gg := g[0]*g[0] + g[1]*g[1] + g[2]*g[2]
	vg := (v0*g[0] + v1*g[1] + v2*g[2]) / gg
	t0, t1, t2 := v0-vg*g[0], v1-vg*g[1], v2-vg*g[2]
	return math.Sqrt((t0*t0 + t1*t1 + t2*t2) / gg)
}

// chordStep tries a warm start's first step with the previous answer's
// factorised Jacobian lu (at the same local points, the previous poses):
// sys holds the residual at x for the new poses. Its error is of the same
// order as a Newton step's, the square of the motion since (the Jacobian
// changed with the poses by the order of the motion), and it saves the
// Jacobian's reassembly and factorisation. It is taken when it lowers the
// merit below cur, with trial evaluated (Jacobian included) at the new
// iterate, returned with the step's length. A step below the final-step
// bound is not taken: the full Newton step from x then ends the run
// without another evaluation.
func (sv *Solver) chordStep(pr *pair, sys, trial *system, x *[6]float64, lu *implicitLU, cur, maxStep float64) (xn [6]float64, step float64, ok bool) {
	ph := &sys.phi
	rhs := [6]float64{-ph[0], -ph[1], -ph[2], -ph[3], -ph[4], -ph[5]}
	dx, ok := lu.solve(&rhs)
	if !ok {
		return xn, 0, false
	}
	norm := math.Float64frombits(absBits6(&dx))
	if norm > maxStep || norm <= finalStep*maxStep && cur < 1e-12 {
		return xn, 0, false
	}
	xn = [6]float64{x[0] + dx[0], x[1] + dx[1], x[2] + dx[2], x[3] + dx[3], x[4] + dx[4], x[5] + dx[5]}
	if !trial.eval(Implicit, pr, &xn, true) || !(merit(&trial.phi, 6, 1/charLength(pr)) < cur) {
		return xn, 0, false
	}
	return xn, norm, true
}

// traceFinal records the last Newton step, the one taken without an
// evaluation, so that a trace ends at the answer: it evaluates the system
// there for the trace alone (the answer itself does not use it), and so
// shows the residual the step reached, not the one before it. A point
// outside the domain (never met: the step is below 1e-6 of the bodies'
// size) is left out rather than recorded with an invented residual.
//
//go:noinline
func traceFinal(m Method, pr *pair, x *[6]float64, start, it int, step, cond, invL float64, tr *Trace) {
	var s system
	if !s.eval(m, pr, x, false) {
		return
	}
	res := math.Sqrt(merit(&s.phi, s.n, invL))
	tr.Steps = append(tr.Steps, TraceStep{Start: start, Iter: it, Q: *x, P: pr.tb.Point(s.P), Qw: pr.tb.Point(s.Q), Residual: res, Step: step, Condition: cond, Final: true})
}

// keep records what classify needs of the system evaluated last.
func (o *newtonOutcome) keep(s *system) {
	o.phi, o.n = s.phi, s.n
	o.localP, o.localQ = s.localP, s.localQ
	o.ea, o.eb = s.ea, s.eb
}

// unitPair normalises two gradients; ok is false if either cannot be.
func unitPair(ga, gb vec) (na, nb vec, ok bool) {
	la, lb := ga.Len(), gb.Len()
	if !(la > 0 && lb > 0) || math.IsInf(la+lb, 0) {
		return na, nb, false
	}
	return ga.Mul(1 / la), gb.Mul(1 / lb), true
}

// losing reports whether an exploratory start of the multi-start
// (sv.exploring) is converging to the best pair found so far or to a
// common-normal pair that cannot beat it, so that its last iterations can be
// saved. Only in the quadratic regime of the implicit scheme (the caller
// asks for a full, undamped Newton step that halved the one before; here,
// at most L/100): there the points move by at most about twice the last
// step from here on, so the signed distance along a's normal changes by
// less than 4 steps.
func (sv *Solver) losing(m Method, sys *system, step, L float64) bool {
	b := &sv.explore
	if !sv.exploring || !b.valid || !b.converged || m != Implicit || step > 0.01*L {
		return false
	}
	slack := 4*step + 1e-9*L
	if sys.localP.Sub(b.lp).Len()+sys.localQ.Sub(b.lq).Len() <= slack {
		return true // converging to the best pair itself
	}
	est := sys.nP.Dot(sys.Q.Sub(sys.P))
	if b.separated {
		// A farther pair, or an overlapping one, is worse.
		return est-slack > b.sd || est+slack < 0
	}
	return est+slack < b.sd // a deeper overlap is worse
}

// joining reports whether a ranked start of the multi-start (sv.ranked)
// has come into the basin of the best overlapping pair so far: its normal
// within 25° of that pair's and its signed-distance estimate along it not
// above that pair's. It is the multi-start's rule for seeds (skip: within
// 25° of a pair found, the same basin) applied to the start's iterates,
// with the same exception: between untapered shapes, a direction whose
// exact support gap beats the pair lies in another basin (thin plates).
// Nearly every ranked start on paper 000's battery walks back to the answer
// it was to check, and this ends it a few iterations before losing would.
// The depth test and the exception are guards that can only keep a start
// running; no battery of the tests exercises them (a review removed each
// and no answer changed), so they rest on the skip rule's reasons.
func (sv *Solver) joining(m Method, pr *pair, sys *system, L float64) bool {
	b := &sv.explore
	if !b.valid || !b.converged || b.separated || m != Implicit {
		return false
	}
	// sys holds a's normal and both points in b's frame.
	n := mulMV(&pr.tb.R, v3of(sys.nP)).vec()
	if n.Dot(b.nP) <= skipCos || sys.nP.Dot(sys.Q.Sub(sys.P)) > b.sd {
		return false
	}
	if pr.a.IsSuperellipsoid() && pr.b.IsSuperellipsoid() && seGap(pr, n, pr.tb.T.Sub(pr.ta.T)) > b.sd+1e-7*L {
		return false
	}
	return true
}

// A run stalls when over stallWindow iterations its merit (the squared,
// scaled residual) falls by less than 1 − stallRatio while still above
// stallMerit (a residual of 1e-4): crawling to a root reduces it faster.
const (
	stallWindow = 8
	stallRatio  = 0.9
	stallMerit  = 1e-8
)

// A run whose merit is still above farMerit (a scaled residual of 0.1:
// normals 6° apart, or points a tenth of the smaller body's size off the
// surfaces) is judged over farWindow iterations: a damped run stuck there
// at a minimum of the merit (deep overlaps of tapered shapes, from the
// cold guess), its steps not growing, is no crawl towards a root.
const (
	farWindow = 4
	farMerit  = 1e-2
)

// doneAt is the merit below which a step under tol ends a run converged:
// curDone after a full Newton step, whose length estimates the error, but
// residualDone after a damped one, whose length says nothing of it. Damped
// to μ of 1e20 to 1e50 on box-like and pointy shapes beside bodies a tenth
// to a fiftieth their size, steps of 1e-19 to 1e-36 ended runs with the
// merit under 1e-16 but the large body's point up to 1.75e-9 off its
// surface (locus residuals F of 2e-9 to 6e-9), answered converged up to
// 1.75e-9 off the distance (a scratch trace of seven such answers of
// TestSmallBesideLarge at its own seed; no command prints μ. Three of
// them are TestDampedNotConverged's). (cuspPolish's runs end only on full
// steps.) off restores the old bound (noDampedDone).
func doneAt(pure bool, curDone float64, off bool) float64 {
	if pure || off {
		return curDone
	}
	return residualDone
}

// residualDone is the merit below which a run whose step is no estimate of
// its error (damped, or from a finite-difference Jacobian) ends: residuals
// within 1e-10, the points within about 1e-10 of the size off their
// surfaces.
const residualDone = 1e-20

// finalStep is the Newton step, relative to the step cap, below which the
// step is taken as the last one.
const finalStep = 4e-6

// smoothFinal reports whether the last-step shortcut's premise holds at
// sys's points for the implicit scheme: that the step's error is of the
// order of its square, with the bodies' size as the curvature scale. Next
// to the plane of an exponent e in (1, 2) (p = 2/e between 1 and 2) the
// normal turns on the scale of the coordinate u itself (the gradient goes
// like |u|^(p−1), its derivative like |u|^(p−2)), so the error after a
// step s is of order s²/|u|: the shortcut needs |u| ≥ s²/tol there (tol
// in length units). Elsewhere the caller's step bound decides alone; where
// it refuses, the caller checks the step's points (stepOnSurfaces). The
// other schemes' points lie on their surfaces by construction, which is
// all that check asks.
func smoothFinal(m Method, pr *pair, sys *system, s, tol float64) bool {
	if m != Implicit {
		return true
	}
	lim := s * s / tol
	return smoothAt(pr.a, sys.localP, lim) && smoothAt(pr.b, sys.localQ, lim)
}

// stepOnSurfaces evaluates s (the trial buffer) at the implicit unknowns
// x + dx and reports whether both points lie on their surfaces there, their
// locus residuals F = (e2/2)·ln G within tipLocus: where smoothFinal
// refuses the last-step shortcut's premise, Newton's step is no estimate
// of the error, and the points must be checked. The normals' equations are
// not: next to a tip the normal turns through degrees within 1e-10, and
// the step from an iterate of merit 1e-18 left them at 1e-2 with both
// points on their surfaces to 1e-11, the distance right to 1e-11; the step
// off the pole of TestTouchingPointyTips left the tip 1.4e-8 off its
// surface, the distance 7.6e-9 too deep.
func stepOnSurfaces(pr *pair, s *system, x, dx *[6]float64) bool {
	xn := [6]float64{x[0] + dx[0], x[1] + dx[1], x[2] + dx[2], x[3] + dx[3], x[4] + dx[4], x[5] + dx[5]}
	return s.eval(Implicit, pr, &xn, false) && math.Abs(s.Fa) <= tipLocus && math.Abs(s.Fb) <= tipLocus
}

// tipLocus bounds the locus residuals stepOnSurfaces accepts: a point
// within about 1e-10 of its surface, relatively.
const tipLocus = 1e-10

// smoothAt reports whether the local point x is farther than lim from
// every plane and axis where an exponent in (1, 2) makes the surface
// non-smooth: the planes x = 0 and y = 0 for e1 (the meridians' ridges),
// z = 0 for e2 (the equator's), and the z axis for e2 too (the poles,
// where the section's size goes like ρ^(2/e2)).
func smoothAt(s *geom.Superovoid, x vec, lim float64) bool {
	if s.Eps[0] > 1 && (math.Abs(x[0]) < lim || math.Abs(x[1]) < lim) {
		return false
	}
	return !(s.Eps[1] > 1 && (math.Abs(x[2]) < lim || math.Abs(x[0]) < lim && math.Abs(x[1]) < lim))
}

// dampMin is the least damping floor of method m's Levenberg–Marquardt
// steps (damp): 1e-12 in JᵀWJ's units, 1/L² for the implicit scheme's
// lengths, 1 for the angles.
func dampMin(m Method, invL float64) float64 {
	if m == Implicit {
		return 1e-12 * invL * invL
	}
	return 1e-12
}

// damp switches Levenberg–Marquardt's damping on, or raises it. Switched
// on, it also sets floor, the damping below which it is dropped again:
// 1e-8 of where it started, i.e. 1e-12 of JᵀWJ's scale, and never below
// muMin (TestRelativeDampingFloor), dampMin's 1e-12 in JᵀWJ's units:
// 1/L² where the unknowns are lengths (an absolute 1e-12 dropped the damping after
// its first accepted step on bodies of size 1e6 and more, where JᵀWJ is
// below 1e-12; TestQueryScaleInvariance). Every way into damping sets it,
// a singular Newton step's too (review of 5f717f6: that one kept an
// earlier episode's floor).
func damp(mu float64, J *[6][6]float64, w *[6]float64, n int, floor *float64, muMin float64) float64 {
	if mu == 0 {
		mu = nextMu(0, J, w, n)
		*floor = max(muMin, 1e-8*mu)
		return mu
	}
	return nextMu(mu, J, w, n)
}

// nextMu grows the Levenberg–Marquardt damping, starting from a small
// fraction of the largest diagonal entry of JᵀJ.
func nextMu(mu float64, J *[6][6]float64, w *[6]float64, n int) float64 {
	if mu > 0 {
		return mu * 10
	}
	d := 0.0
	for j := 0; j < n; j++ {
		s := 0.0
		for i := 0; i < n; i++ {
			v := w[i] * J[i][j]
			s += v * v
		}
		d = max(d, s)
	}
	if !(d > 0) {
		d = 1
	}
	return 1e-4 * d
}

// normalEquations forms the Levenberg–Marquardt normal equations of row
// weights w: A = JᵀW²J (its lower triangle is all lmSolve reads) and
// g = −JᵀW²Φ.
func normalEquations(J *[6][6]float64, phi *[6]float64, w *[6]float64, n int, A *[6][6]float64, g *[6]float64) {
	var wj [6][6]float64 // rows of W·J, and W²·Φ
	var wp [6]float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			wj[i][j] = w[i] * J[i][j]
		}
		wp[i] = w[i] * w[i] * phi[i]
	}
	for j := 0; j < n; j++ {
		for k := 0; k <= j; k++ {
			s := 0.0
			for i := 0; i < n; i++ {
				s += wj[i][j] * wj[i][k]
			}
			A[j][k] = s
		}
		s := 0.0
		for i := 0; i < n; i++ {
			s += J[i][j] * wp[i]
		}
		g[j] = -s
	}
}

// lmSolve solves (A + μ·I)·dx = g for the symmetric positive semidefinite A
// of normalEquations (lower triangle) and μ > 0 by Cholesky: the damped
// matrix is positive definite, so no pivoting is needed, and it is half the
// work of an LU solve. ok is false when a pivot is not positive and finite
// (μ far below the rounding of A, or NaN).
func lmSolve(A *[6][6]float64, g *[6]float64, n int, mu float64) (dx [6]float64, ok bool) {
	var L [6][6]float64
	var inv [6]float64 // 1/L[j][j]
	for j := 0; j < n; j++ {
		d := A[j][j] + mu
		for k := 0; k < j; k++ {
			d -= L[j][k] * L[j][k]
		}
		// A pivot lost to cancellation (below 1e-14 of its diagonal: μ far
		// below the rounding of a singular JᵀJ) is refused, as the pivoted
		// LU refused pivots below 1e-14 of the matrix's scale; the caller
		// then raises μ.
		if !(d > 1e-14*(A[j][j]+mu)) || math.IsInf(d, 0) {
			return dx, false
		}
		l := math.Sqrt(d)
		L[j][j], inv[j] = l, 1/l
		for i := j + 1; i < n; i++ {
			s := A[i][j]
			for k := 0; k < j; k++ {
				s -= L[i][k] * L[j][k]
			}
			L[i][j] = s * inv[j]
		}
	}
	var y [6]float64
	for i := 0; i < n; i++ {
		s := g[i]
		for k := 0; k < i; k++ {
			s -= L[i][k] * y[k]
		}
		y[i] = s * inv[i]
	}
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= L[k][i] * dx[k]
		}
		dx[i] = s * inv[i]
	}
	return dx, finite6(&dx)
}
