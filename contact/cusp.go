package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// A pointy exponent (e near 2) makes the surface a near-sharp ridge along
// the coordinate plane where its term vanishes: with p = 2/e, the implicit
// gradient's component across the plane grows like |u|^(p−1), so a normal
// tilted by θ from the plane's own needs |u| ≈ θ^(1/(p−1)), 1e-12 for
// θ = 0.3 at e = 1.9. Newton in the local coordinates cannot get there: the
// Jacobian's column is |u|^(p−2), and every linearisation overshoots by
// a factor 1/(p−1). The runs crawl to max_iterations a few 1e-5 from the
// closest pair (pair 271 of TestExtremeRangeHonest: 1.25e-5 above the
// reference, its witness on a tapered pointy tip). In the chart
// x = A·sgn(σ)·|σ/A|^κ, κ = 1/(p−1), that component is linear in σ and
// the same equations are smooth: cuspPolish solves them there.

// cuspMaxP is the largest exponent 2/e of a coordinate that gets the chart
// (e ≥ 1.6): below it the crawl is not seen (TestCuspPolish).
const cuspMaxP = 1.25

// cuspZone is how near its plane a witness coordinate must lie, relative
// to the semi-axis, to be charted.
const cuspZone = 0.05

// cuspIter caps the polish's iterations.
const cuspIter = 60

// cuspFinishMerit is the scaled residual (squared) below which a chart run
// that did not reach cuspSolvedMerit is finished by Newton in the local
// coordinates, in at most cuspFinishIter iterations.
//
// cuspSolvedMerit is the scaled residual (squared) a chart run's answer
// must reach: every equation within 1e-10 (the points within 1e-10 of the
// surfaces, relatively; the normals within 1e-10 rad). Newton's own test,
// a short step, is no proof here, where the chart is not smooth: on
// TestRidgeSearchTouching's pair 3.0e-5 apart a damped step passed it with
// the tip 1.35e-8 off its surface, and the finishing Newton's final step
// with the tip 4.5e-9 off (the distances 1.6e-8 and 2.4e-9 too long).
const (
	cuspSolvedMerit = 1e-20
	cuspFinishMerit = 1e-12
	cuspFinishIter  = 8
)

// cuspChart is the chart of the implicit scheme's six unknowns: kappa[j]
// is 1 for a coordinate kept as it is.
type cuspChart struct {
	kappa, scale [6]float64
}

// newCuspChart charts the coordinates of x (the implicit unknowns) that
// lie near the plane of a pointy exponent; ok is false when none does.
// (Near a pole both x and y are small and the profile goes like |r|^q,
// q = 2/e2; charting them with q's exponent there lost pair 291 of
// TestExtremeRangeHonest, which the ridges' exponent polishes.)
func newCuspChart(pr *pair, x *[6]float64) (ch cuspChart, ok bool) {
	okA := ch.chartSide(0, pr.a, x)
	okB := ch.chartSide(1, pr.b, x)
	return ch, okA || okB
}

// chartSide charts the coordinates of side's point in x (slots 3·side to
// 3·side+2) that lie near the plane of one of s's pointy exponents, and
// reports whether any does.
func (ch *cuspChart) chartSide(side int, s *geom.Superovoid, x *[6]float64) (ok bool) {
	for j := 0; j < 3; j++ {
		i := 3*side + j
		ch.kappa[i], ch.scale[i] = 1, s.A[j]
		if p := coordP(s, j); p < cuspMaxP && p > 1 && math.Abs(x[i]) < cuspZone*s.A[j] {
			ch.kappa[i] = 1 / (p - 1)
			ok = true
		}
	}
	return ok
}

// seedOffPlanes moves each charted coordinate of sg closer to its plane
// than cuspSeed·A out to ±cuspSeed·A (keeping its sign; + for 0), and
// reports whether any moved.
func (ch *cuspChart) seedOffPlanes(sg *[6]float64) (seeded bool) {
	for i := range sg {
		if m := cuspSeed * ch.scale[i]; ch.kappa[i] != 1 && !(math.Abs(sg[i]) >= m) {
			sg[i] = math.Copysign(m, sg[i])
			seeded = true
		}
	}
	return seeded
}

// coordP is the exponent 2/e of local coordinate j's term in G: e1's for
// x and y, e2's for z.
func coordP(s *geom.Superovoid, j int) float64 {
	if j == 2 {
		return 2 / s.Eps[1]
	}
	return 2 / s.Eps[0]
}

// toX maps chart coordinates to the unknowns.
func (ch *cuspChart) toX(sg *[6]float64) (x [6]float64) {
	for i := range x {
		x[i] = sg[i]
		if k := ch.kappa[i]; k != 1 {
			a := ch.scale[i]
			x[i] = math.Copysign(a*math.Pow(math.Abs(sg[i])/a, k), sg[i])
		}
	}
	return x
}

// toSigma maps the unknowns to chart coordinates.
func (ch *cuspChart) toSigma(x *[6]float64) (sg [6]float64) {
	for i := range sg {
		sg[i] = x[i]
		if k := ch.kappa[i]; k != 1 {
			a := ch.scale[i]
			sg[i] = math.Copysign(a*math.Pow(math.Abs(x[i])/a, 1/k), x[i])
		}
	}
	return sg
}

// deriv returns dx/dσ of each coordinate.
func (ch *cuspChart) deriv(sg *[6]float64) (d [6]float64) {
	for i := range d {
		d[i] = 1
		if k := ch.kappa[i]; k != 1 {
			d[i] = k * math.Pow(math.Abs(sg[i])/ch.scale[i], k-1)
		}
	}
	return d
}

// cuspSeed is the smallest start of a charted coordinate, relative to the
// semi-axis: at σ = 0 exactly (a GJK witness, a point snapped onto the
// plane) the Jacobian's column is 0, since geom's derivatives vanish on
// the plane, and Newton could never leave it. σ = 0.01·A is x ≈ 1e-38·A
// at e = 1.9, the same point for the distance (review of 273c12f: a
// box-like pointy shape's ridge stalled from σ = 0, converged in three
// iterations from the seed).
const cuspSeed = 0.01

// cuspPolish solves the implicit scheme's equations in the chart of the
// coordinates of the local points lp, lq that lie near a pointy exponent's
// plane, from those points, by damped Newton (Levenberg–Marquardt where
// the step fails), and returns the classified outcome. A coordinate on the
// plane starts at ±cuspSeed·A, on its own side first, then on the other.
// ok is false when no coordinate needs the chart or no run converged. (The
// Jacobians are analytical even with Options.FiniteDiff: the chart is a
// rescue, not one of the schemes compared.)
func (sv *Solver) cuspPolish(pr *pair, lp, lq vec, res *Result) (c candidate, ok bool) {
	return sv.cuspPolishIter(pr, lp, lq, res, cuspIter, false)
}

// polishedCrawl is the converged overlapping pair that the chart's polish
// (cuspPolish) reaches from the end of a run that crawled, c: not
// converged, but placed (as every scheme's run does on a pointy tip, where
// the chart's equations are smooth); ok is false when c converged or the
// polish reaches no such pair.
func (sv *Solver) polishedCrawl(pr *pair, c *candidate, res *Result) (p candidate, ok bool) {
	if c.converged || !c.placed() {
		return p, false
	}
	p, ok = sv.cuspPolish(pr, c.lp, c.lq, res)
	return p, ok && p.valid && p.converged && !p.separated
}

// cuspPolishIter is cuspPolish with each run capped at maxIter iterations;
// with matched, it starts from matchedSeed's chart point first.
func (sv *Solver) cuspPolishIter(pr *pair, lp, lq vec, res *Result, maxIter int, matched bool) (c candidate, ok bool) {
	x := [6]float64{lp[0], lp[1], lp[2], lq[0], lq[1], lq[2]}
	ch, any := newCuspChart(pr, &x)
	if !any {
		return c, false
	}
	if matched {
		if sg, ok := matchedSeed(pr, &ch, &x); ok {
			if c, ok = sv.cuspRun(pr, &ch, sg, res, maxIter); ok {
				return c, true
			}
		}
	}
	sg := ch.toSigma(&x)
	seeded := ch.seedOffPlanes(&sg)
	if c, ok = sv.cuspRun(pr, &ch, sg, res, maxIter); ok || !seeded {
		return c, ok
	}
	for i := range sg {
		if m := cuspSeed * ch.scale[i]; ch.kappa[i] != 1 && math.Abs(sg[i]) == m {
			sg[i] = -sg[i]
		}
	}
	return sv.cuspRun(pr, &ch, sg, res, maxIter)
}

// cuspRun is one run of cuspPolish from chart point sg, of at most maxIter
// iterations.
func (sv *Solver) cuspRun(pr *pair, ch *cuspChart, sg [6]float64, res *Result, maxIter int) (c candidate, ok bool) {
	res.Starts++
	start := res.Starts - 1
	L := charLength(pr)
	invL := 1 / L
	sys, trial := &sv.sys, &sv.trial
	// evalAt evaluates the system at chart point s, its Jacobian with
	// respect to the chart's coordinates (each column times dx/dσ).
	evalAt := func(s *system, sg *[6]float64) bool {
		x := ch.toX(sg)
		if !s.eval(Implicit, pr, &x, true) {
			return false
		}
		d := ch.deriv(sg)
		for r := 0; r < 6; r++ {
			for j := 0; j < 6; j++ {
				s.jac[r][j] *= d[j]
			}
		}
		return true
	}
	if !evalAt(sys, &sg) {
		return c, false
	}
	w := [6]float64{1, 1, invL, invL, 1, 1}
	cur := merit(&sys.phi, 6, invL)
	trace := func(it int, step, cond float64) {
		if sv.opt.Trace != nil {
			x := ch.toX(&sg)
			sv.opt.Trace.Steps = append(sv.opt.Trace.Steps, TraceStep{Start: start, Iter: it, Q: x, P: pr.tb.Point(sys.P), Qw: pr.tb.Point(sys.Q), Residual: math.Sqrt(cur), Step: step, Condition: cond})
		}
	}
	trace(0, 0, 0)
	var jtj [6][6]float64
	var jtr [6]float64
	// (newton's damping floor and row weight: the chart's coordinates are
	// lengths.)
	muMin, rw := dampMin(Implicit, invL), rowWeight(L)
	mu, muFloor := 0.0, muMin
	converged := false
	stallRef := cur
	it := 0
	for it = 1; it <= maxIter; it++ {
		rhs := [6]float64{-sys.phi[0], -sys.phi[1], -sys.phi[2], -sys.phi[3], -sys.phi[4], -sys.phi[5]}
		accepted := false
		var step, cond float64
		var sn [6]float64
		pure := false // the accepted step is an undamped Newton step
		for try := 0; try < 12; try++ {
			var dx [6]float64
			var okS bool
			if mu == 0 {
				dx, cond, okS = solveImplicit(&sys.jac, &rhs, rw)
			} else {
				normalEquations(&sys.jac, &sys.phi, &w, 6, &jtj, &jtr)
				dx, okS = lmSolve(&jtj, &jtr, 6, mu)
			}
			if !okS {
				mu = damp(mu, &sys.jac, &w, 6, &muFloor, muMin)
				continue
			}
			norm := math.Float64frombits(absBits6(&dx))
			alpha := 1.0
			if norm > 0.25*L {
				alpha = 0.25 * L / norm
			}
			for i := range sn {
				sn[i] = sg[i] + alpha*dx[i]
			}
			if evalAt(trial, &sn) {
				if mn := merit(&trial.phi, 6, invL); mn < cur || mn < 1e-28 {
					accepted, step, pure = true, alpha*norm, mu == 0
					break
				}
			}
			mu = damp(mu, &sys.jac, &w, 6, &muFloor, muMin)
		}
		if !accepted {
			break
		}
		sg = sn
		sys, trial = trial, sys
		cur = merit(&sys.phi, 6, invL)
		mu *= 0.1
		if mu < muFloor {
			mu = 0
		}
		trace(it, step, cond)
		// (A damped step is short because of its damping, not because the
		// pair is solved: with F still 8e-9 off, a 3e-12 step of
		// Levenberg–Marquardt once passed for convergence, the tip
		// 1.35e-8 off the surface and the distance 1.6e-8 too long:
		// TestRidgeSearchTouching.)
		if (pure && step <= stepTol(&sv.opt, pr) && cur < 1e-16) || cur < 1e-24 {
			converged = true
			break
		}
		if it%stallWindow == 0 {
			// Stalled at a minimum of the merit that is no root, as
			// newton judges it: the ridge search's samples far from a
			// ridge's closest pair ran all their iterations there.
			if cur > stallRatio*stallRef && cur > stallMerit {
				break
			}
			stallRef = cur
		}
	}
	res.Iterations += min(it, maxIter)
	// (sys is sv.sys or sv.trial: both are the solver's scratch, free
	// outside newton.)
	var o newtonOutcome
	if (!converged || !(cur < cuspSolvedMerit)) && cur < cuspFinishMerit {
		// Nearly solved where the chart's coordinates are no longer smooth
		// (within 1e-13 of a tip, where a second exponent's power turns
		// the normal too), or converged by Newton's test but short of
		// cuspSolvedMerit: Newton in the local coordinates finishes, in
		// one iteration on the sweeps' runs that needed it. (newton's own
		// options apply: finite differences under Options.FiniteDiff; its
		// exploratory stops are off outside the multi-start. Its trace
		// steps restart at iteration 0 under the same start.)
		sv.newton(Implicit, pr, ch.toX(&sg), nil, start, cuspFinishIter, &o)
		res.Iterations += o.iters
		if !o.converged || !sv.solvedAt(pr, &o.x) {
			return c, false
		}
		c = sv.classify(Implicit, pr, &o)
		return c, c.valid
	}
	if !converged || !(cur < cuspSolvedMerit) {
		return c, false
	}
	o.x = ch.toX(&sg)
	o.xe = o.x
	o.iters = it
	o.converged = true
	o.keep(sys)
	o.na, o.nb, o.haveNormals = unitPair(sys.ea.Grad, sys.eb.Grad)
	o.haveHess = o.haveNormals
	c = sv.classify(Implicit, pr, &o)
	return c, c.valid
}

// matchedSeed is the chart point of the local points lp, lq whose charted
// coordinates on or near their planes (below cuspSeed·A in the chart, where
// cuspPolish would seed them at ±cuspSeed·A) are set so that each body's
// normal there points along the line to the other point (away from it
// where Q lies inside a: an overlap): across a pointy ridge, or at a tip
// where two ridges meet, the normal sweeps its whole cone within a tiny
// distance of the plane (1e-13 of the semi-axis at a tip of e 1.62 and
// 1.88), and a pair there 3e-4 apart failed to converge from the fixed
// seeds, converging in one step from its own points
// (TestRidgeSearchTouching). Each such coordinate takes the value, among
// cuspMatchSamples magnitudes spaced evenly in log σ (down to where x
// reaches geom's floor of 1e-150 of the semi-axis) and both signs (a taper
// shifts the normal's z component), that turns the normal closest to the
// target, the other coordinates held; two passes where a side has two (a
// tip); ±cuspSeed·A where no sample evaluates. ok is false when no
// coordinate needs it or the points coincide.
func matchedSeed(pr *pair, ch *cuspChart, x *[6]float64) (sg [6]float64, ok bool) {
	sg = ch.toSigma(x)
	lp, lq := vec{x[0], x[1], x[2]}, vec{x[3], x[4], x[5]}
	db := lq.Sub(pr.ab.Point(lp)) // Q − P in b's frame
	dl := db.Len()
	if !(dl > 0) {
		return sg, false
	}
	u := db.Mul(1 / dl)
	if f, okF := pr.a.Residual(pr.ab.InvPoint(lq)); okF && f < 0 {
		u = u.Mul(-1) // overlapping: the outward normals point apart
	}
	target := [2]vec{pr.ab.InvDir(u), u.Mul(-1)}
	for side, s := range [2]*geom.Superovoid{pr.a, pr.b} {
		var idx [3]int
		n := 0
		for j := 0; j < 3; j++ {
			if i := 3*side + j; ch.kappa[i] != 1 && math.Abs(sg[i]) < cuspSeed*ch.scale[i] {
				idx[n] = i
				n++
			}
		}
		if n == 0 {
			continue
		}
		ok = true
		for pass := 0; pass < n; pass++ {
			for _, i := range idx[:n] {
				k, a := ch.kappa[i], ch.scale[i]
				lo := math.Log(1e-150) / k // x = A·(σ/A)^κ at geom's floor
				hi := math.Log(cuspSeed)
				best, bestCos := math.Copysign(cuspSeed*a, sg[i]), math.Inf(-1)
				for t := 0; t < 2*cuspMatchSamples; t++ {
					r := math.Exp(hi + (lo-hi)*float64(t/2)/(cuspMatchSamples-1))
					sgn := a * r
					if t%2 == 1 {
						sgn = -sgn
					}
					trial := sg
					trial[i] = sgn
					y := ch.toX(&trial)
					var e geom.Implicit
					if !s.ResidualHessianInto(vec{y[3*side], y[3*side+1], y[3*side+2]}, false, &e) {
						continue
					}
					gl := e.Grad.Len()
					if !(gl > 0) || math.IsInf(gl, 0) {
						continue
					}
					if c := e.Grad.Dot(target[side]) / gl; c > bestCos {
						best, bestCos = sgn, c
					}
				}
				sg[i] = best
			}
		}
	}
	return sg, ok
}

// cuspMatchSamples is the number of magnitudes matchedSeed tries for each
// coordinate (each with both signs).
const cuspMatchSamples = 48

// solvedAt reports whether the implicit system at x meets cuspSolvedMerit.
// It uses the solver's scratch system sv.trial (free outside newton).
func (sv *Solver) solvedAt(pr *pair, x *[6]float64) bool {
	s := &sv.trial
	if !s.eval(Implicit, pr, x, false) {
		return false
	}
	return merit(&s.phi, 6, 1/charLength(pr)) < cuspSolvedMerit
}
