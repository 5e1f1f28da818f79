package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

type vec = geom.Vec3

// pair is one query's two bodies with their transforms precomputed. The
// common-normal system is evaluated in b's local frame (ab maps a's local
// frame into it): the equations are invariant under a rigid motion, and b's
// side then needs no rotation at all.
type pair struct {
	a, b   *geom.Superovoid
	ta, tb geom.Transform // local to world
	ab     geom.Transform // a's local frame to b's
	convex bool           // both shapes convex (set by the query)
	ia, ib *shapeInfo     // the shapes' cached analyses (set by the query)
	// overlapProven: the bodies are proven to overlap, by a valid
	// overlapping pair the query has met or by a point inside both bodies
	// (epaRescue, refuteSeparated), so classify need not prove it again
	// for later pairs (see there) and no separated pair may answer.
	overlapProven bool
	// scanned: scanRescue's scan found no point inside both bodies and
	// lowSeed started from its lowest point, so refuteSeparated need not
	// scan again (the same scan finds the same).
	scanned bool
	// samePrev: the query is warm-started from a previous result on these
	// same shapes, whose analyses it reuses (set by the query).
	samePrev bool
	// L is charLength's value and maxA, maxB the shapes' largest
	// semi-axes, computed once (Newton and the certificates ask for them
	// dozens of times a query: 600 instructions of a warm one).
	L, maxA, maxB float64
	// ka, kb are the shapes' constants for evaluations (the solver's,
	// set by the query; nil in a pair built outside one).
	ka, kb *geom.ImplicitConsts
	// unproven is the shallowest converged overlapping pair classify
	// refused for want of a proof that the bodies overlap (a non-convex
	// shape, neither witness inside the other body): when the query has
	// nothing else, localWitness searches for a point inside both bodies
	// around it.
	unproven unprovenPair
	// insideF is the residual of the deepest witness of a converged
	// overlapping pair, deeper than a touch, that classify found inside
	// the other body by more than overlapInside (0: none; pair.witness):
	// the bodies overlap, and refuteSeparated refutes a separated answer
	// without its scan.
	insideF float64
}

// side returns one body's shape and transform (s, ts) and the other's (o,
// to): a's first for side 0, b's first for side 1, for the searches that
// treat the bodies alike.
func (pr *pair) side(side int) (s, o *geom.Superovoid, ts, to *geom.Transform) {
	if side == 1 {
		return pr.b, pr.a, &pr.tb, &pr.ta
	}
	return pr.a, pr.b, &pr.ta, &pr.tb
}

// unprovenPair is a refused overlapping pair's world witness points and
// their distance; ok until it is searched.
type unprovenPair struct {
	P, Q vec
	dist float64
	ok   bool
}

func newPair(a, b *geom.Body) pair {
	pr := pair{a: &a.Shape, b: &b.Shape, ta: a.Pose.Transform(), tb: b.Pose.Transform()}
	pr.L = min(minAxis(pr.a), minAxis(pr.b))
	pr.maxA, pr.maxB = maxAxis(pr.a), maxAxis(pr.b)
	// R_ab = R_bᵀ·R_a, T_ab = R_bᵀ·(T_a − T_b).
	// (v3 arithmetic, operation for operation the Vec3 forms.)
	for j := 0; j < 3; j++ {
		R := &pr.ta.R
		c := mulMtV(&pr.tb.R, v3{R[j*3], R[j*3+1], R[j*3+2]})
		pr.ab.R[j*3], pr.ab.R[j*3+1], pr.ab.R[j*3+2] = c.x, c.y, c.z
	}
	pr.ab.T = mulMtV(&pr.tb.R, v3of(pr.ta.T).sub(v3of(pr.tb.T))).vec()
	return pr
}

// system is the common-normal system of one scheme evaluated at one iterate:
// everything the residual, the analytical Jacobian and the classification
// need, in b's local frame (a's pose there is the pair's ab), except the
// local points and the log residuals, which are each body's own.
type system struct {
	n        int // unknowns: 6 (implicit) or 4 (parametric, ntb)
	ka, kb   int // unknowns of each side
	P, Q     vec
	dP, dQ   [3]vec // ∂P/∂x_a[k], ∂Q/∂x_b[k]
	nP       vec    // unit outward normal of a at P
	dnP      [3]vec
	tQ, bQ   vec // tangent-plane basis at Q
	dtQ, dbQ [3]vec
	Fa, Fb   float64 // locus residuals (implicit only)
	gFa, gFb vec     // their local gradients
	phi      [6]float64
	jac      [6][6]float64
	localP   vec
	localQ   vec
	paramsOK bool
	ea, eb   geom.Implicit // F = (e2/2)·ln G, ∇F, ∇²F of each side (implicit and ntb)
	// deferred: an implicit evaluation (evalLate) whose Jacobian is not
	// assembled yet (completeJacobian), its Hessians computed.
	deferred bool
}

// unitJac returns the derivative of v/|v| given dv.
func unitJac(u vec, inv float64, dv vec) vec {
	return dv.Sub(u.Mul(u.Dot(dv))).Mul(inv)
}

// eval fills the system at unknowns x. With jac it also fills the analytical
// Jacobian. It returns false where the iterate leaves the domain or a normal
// or tangent is undefined.
func (s *system) eval(m Method, pr *pair, x *[6]float64, jac bool) bool {
	s.deferred = false
	switch m {
	case Implicit:
		s.n, s.ka, s.kb = 6, 3, 3
		return s.implicitForm(pr, vec{x[0], x[1], x[2]}, vec{x[3], x[4], x[5]}, &unitBasis, &unitBasis, jac)
	case NTB:
		s.n, s.ka, s.kb = 4, 2, 2
		da := pr.a.Derivs(x[0], x[1])
		db := pr.b.Derivs(x[2], x[3])
		dla := [3]vec{da.X1, da.X2}
		dlb := [3]vec{db.X1, db.X2}
		return s.implicitForm(pr, da.X, db.X, &dla, &dlb, jac)
	case Parametric:
		if !s.parametricSides(pr, x, jac) {
			return false
		}
	}
	d := s.Q.Sub(s.P)
	s.phi[0] = s.nP.Dot(s.tQ)
	s.phi[1] = s.nP.Dot(s.bQ)
	s.phi[2] = d.Dot(s.tQ)
	s.phi[3] = d.Dot(s.bQ)
	if !jac {
		return true
	}
	s.jac = [6][6]float64{}
	for k := 0; k < s.ka; k++ {
		s.jac[0][k] = s.dnP[k].Dot(s.tQ)
		s.jac[1][k] = s.dnP[k].Dot(s.bQ)
		s.jac[2][k] = -s.dP[k].Dot(s.tQ)
		s.jac[3][k] = -s.dP[k].Dot(s.bQ)
	}
	for k := 0; k < s.kb; k++ {
		c := s.ka + k
		s.jac[0][c] = s.nP.Dot(s.dtQ[k])
		s.jac[1][c] = s.nP.Dot(s.dbQ[k])
		s.jac[2][c] = s.dQ[k].Dot(s.tQ) + d.Dot(s.dtQ[k])
		s.jac[3][c] = s.dQ[k].Dot(s.bQ) + d.Dot(s.dbQ[k])
	}
	return true
}

// implicitForm evaluates the system where normals and frames come from the
// implicit gradients (the implicit and ntb schemes): lp, lq are the local
// points and dla, dlb their derivatives with respect to each side's
// unknowns (the unit basis for the implicit scheme). Each Jacobian row is
// a gradient with respect to a local point, dotted with those derivatives;
// the gradients are formed as adjoint products (∇²F times one vector)
// rather than by differentiating the frame vectors themselves:
//
//	∂(n_P·v)/∂p = ∇²F_a·(I − n̂n̂ᵀ)·R_abᵀv/|∇F_a|
//	∂(v·t_Q)/∂q = ∇²F_b·∇_g(t·v)          (g = ∇F_b, frameGrad2)
//
// It returns false where the iterate leaves the domain or a gradient
// vanishes. (The transforms are written out as MulMV: Transform's methods
// are just over the inlining budget.)
func (s *system) implicitForm(pr *pair, lp, lq vec, dla, dlb *[3]vec, jac bool) bool {
	if okA, okB := logResiduals(pr, lp, lq, jac, &s.ea, &s.eb); !okA || !okB {
		return false
	}
	return s.assemble(pr, lp, lq, dla, dlb, jac)
}

// logResiduals evaluates both sides' log residuals at lp and lq, from the
// shapes' constants where the query keeps them.
func logResiduals(pr *pair, lp, lq vec, hess bool, ea, eb *geom.Implicit) (okA, okB bool) {
	if pr.ka != nil && pr.kb != nil {
		return geom.LogResidualHessianPairConsts(pr.ka, lp, pr.kb, lq, hess, ea, eb)
	}
	return geom.LogResidualHessianPair(pr.a, lp, pr.b, lq, hess, ea, eb)
}

// evalImplicitAt is eval for the implicit scheme at a
// point where both sides' log residuals are already known (a warm start
// from the previous answer's last evaluation: they depend on the shapes
// and the local points only, not on the poses).
func (s *system) evalImplicitAt(pr *pair, x *[6]float64, ea, eb *geom.Implicit, jac bool) bool {
	s.n, s.ka, s.kb = 6, 3, 3
	s.deferred = false
	s.ea, s.eb = *ea, *eb
	return s.assemble(pr, vec{x[0], x[1], x[2]}, vec{x[3], x[4], x[5]}, &unitBasis, &unitBasis, jac)
}

// evalLate is eval for the implicit scheme with the Hessians computed but
// the Jacobian not assembled (deferred): completeJacobian assembles it.
func (s *system) evalLate(pr *pair, x *[6]float64) bool {
	s.n, s.ka, s.kb = 6, 3, 3
	lp, lq := vec{x[0], x[1], x[2]}, vec{x[3], x[4], x[5]}
	if okA, okB := logResiduals(pr, lp, lq, true, &s.ea, &s.eb); !okA || !okB {
		s.deferred = false
		return false
	}
	s.deferred = true
	return s.assemble(pr, lp, lq, &unitBasis, &unitBasis, false)
}

// completeJacobian assembles the Jacobian that evalLate deferred, as eval
// would have, bit for bit.
func (s *system) completeJacobian(pr *pair) bool {
	s.deferred = false
	return s.assemble(pr, s.localP, s.localQ, &unitBasis, &unitBasis, true)
}

// assemble is implicitForm once s.ea and s.eb hold both sides' log
// residuals at lp and lq, in v3 arithmetic. The Jacobian's rows are
// vectors with respect to each side's local point: the implicit scheme's
// unknowns are the points themselves, so they are its rows; ntb's are
// their products with the points' parametric tangents dla, dlb.
func (s *system) assemble(pr *pair, lp, lq vec, dla, dlb *[3]vec, jac bool) bool {
	ea, eb := &s.ea, &s.eb
	ga, gb := v3of(ea.Grad), v3of(eb.Grad)
	gla, glb := math.Sqrt(ga.dot(ga)), math.Sqrt(gb.dot(gb))
	if !(gla > 0) || math.IsInf(gla, 0) || !(glb > 0) || math.IsInf(glb, 0) {
		return false
	}
	inv := 1 / gla
	nl := ga.scale(inv)
	R := &pr.ab.R
	nP := mulMV(R, nl)
	P := toWorld(&pr.ab, v3of(lp))
	Q := v3of(lq)
	s.nP, s.P, s.Q = nP.vec(), P.vec(), lq
	s.Fa, s.gFa, s.Fb, s.gFb = ea.G, ea.Grad, eb.G, eb.Grad
	s.localP, s.localQ = lp, lq
	d := Q.sub(P)
	t, b, gtn, gbn, gtd, gbd := frameGrad2(gb, nP, d, jac)
	s.tQ, s.bQ = t.vec(), b.vec()
	s.phi[0] = nP.dot(t)
	s.phi[1] = nP.dot(b)
	s.phi[2] = d.dot(t)
	s.phi[3] = d.dot(b)
	if s.n == 6 {
		s.phi[4], s.phi[5] = ea.G, eb.G
	}
	if !jac {
		return true
	}
	ta, ba := mulMtV(R, t), mulMtV(R, b)
	wt := mulMV(&ea.Hess, ta.sub(nl.scale(nl.dot(ta))).scale(inv))
	wb := mulMV(&ea.Hess, ba.sub(nl.scale(nl.dot(ba))).scale(inv))
	ut, ub := mulMV(&eb.Hess, gtn), mulMV(&eb.Hess, gbn)
	vt, vb := t.add(mulMV(&eb.Hess, gtd)), b.add(mulMV(&eb.Hess, gbd))
	J := &s.jac
	if s.n == 6 {
		J[0] = [6]float64{wt.x, wt.y, wt.z, ut.x, ut.y, ut.z}
		J[1] = [6]float64{wb.x, wb.y, wb.z, ub.x, ub.y, ub.z}
		J[2] = [6]float64{-ta.x, -ta.y, -ta.z, vt.x, vt.y, vt.z}
		J[3] = [6]float64{-ba.x, -ba.y, -ba.z, vb.x, vb.y, vb.z}
		J[4] = [6]float64{ga.x, ga.y, ga.z, 0, 0, 0}
		J[5] = [6]float64{0, 0, 0, gb.x, gb.y, gb.z}
		return true
	}
	*J = [6][6]float64{}
	for k := 0; k < s.ka; k++ {
		dl := v3of(dla[k])
		J[0][k] = wt.dot(dl)
		J[1][k] = wb.dot(dl)
		J[2][k] = -ta.dot(dl)
		J[3][k] = -ba.dot(dl)
	}
	for k := 0; k < s.kb; k++ {
		dl, c := v3of(dlb[k]), s.ka+k
		J[0][c] = ut.dot(dl)
		J[1][c] = ub.dot(dl)
		J[2][c] = vt.dot(dl)
		J[3][c] = vb.dot(dl)
	}
	return true
}

// mulMat3 returns the product a·b of column-major 3x3 matrices.
func mulMat3(a, b *geom.Mat3) geom.Mat3 {
	var c geom.Mat3
	for j := 0; j < 3; j++ {
		for i := 0; i < 3; i++ {
			c[j*3+i] = a[i]*b[j*3] + a[3+i]*b[j*3+1] + a[6+i]*b[j*3+2]
		}
	}
	return c
}

func col(m *geom.Mat3, k int) vec { return vec{m[k*3], m[k*3+1], m[k*3+2]} }

var unitBasis = [3]vec{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

func (s *system) parametricSides(pr *pair, x *[6]float64, jac bool) bool {
	s.n, s.ka, s.kb = 4, 2, 2
	da := pr.a.Derivs(x[0], x[1])
	db := pr.b.Derivs(x[2], x[3])
	N := da.X1.Cross(da.X2)
	nl := N.Len()
	l1, l2 := db.X1.Len(), db.X2.Len()
	if !(nl > 0 && l1 > 0 && l2 > 0) || math.IsInf(nl+l1+l2, 0) || math.IsNaN(nl+l1+l2) {
		return false
	}
	n := N.Mul(1 / nl)
	t := db.X1.Mul(1 / l1)
	b := db.X2.Mul(1 / l2)
	s.P, s.Q = pr.ab.Point(da.X), db.X
	s.nP, s.tQ, s.bQ = pr.ab.Dir(n), t, b
	s.localP, s.localQ = da.X, db.X
	if jac {
		dN1 := da.X11.Cross(da.X2).Add(da.X1.Cross(da.X12))
		dN2 := da.X12.Cross(da.X2).Add(da.X1.Cross(da.X22))
		s.dnP[0] = pr.ab.Dir(unitJac(n, 1/nl, dN1))
		s.dnP[1] = pr.ab.Dir(unitJac(n, 1/nl, dN2))
		s.dP[0], s.dP[1] = pr.ab.Dir(da.X1), pr.ab.Dir(da.X2)
		s.dtQ[0] = unitJac(t, 1/l1, db.X11)
		s.dtQ[1] = unitJac(t, 1/l1, db.X12)
		s.dbQ[0] = unitJac(b, 1/l2, db.X12)
		s.dbQ[1] = unitJac(b, 1/l2, db.X22)
		s.dQ[0], s.dQ[1] = db.X1, db.X2
	}
	return true
}

// fdJacobian replaces the analytical Jacobian by central differences of the
// residual, as paper 000 did; kept so the two can be compared. The
// differences' step is 1e-7 of the unknown, or of the characteristic
// length L (of 1 rad for the angles) where the unknown is smaller: with
// 1e-7 absolute, on bodies of size 1e-7 and less the step crossed the body.
func (s *system) fdJacobian(m Method, pr *pair, x *[6]float64) bool {
	var tmp system
	n := s.n
	unit := 1.0 // (angles)
	if m == Implicit {
		unit = charLength(pr)
	}
	for j := 0; j < n; j++ {
		h := 1e-7 * max(unit, math.Abs(x[j]))
		xp, xm := *x, *x
		xp[j] += h
		xm[j] -= h
		if !tmp.eval(m, pr, &xp, false) {
			return false
		}
		fp := tmp.phi
		if !tmp.eval(m, pr, &xm, false) {
			return false
		}
		for i := 0; i < n; i++ {
			s.jac[i][j] = (fp[i] - tmp.phi[i]) / (2 * h)
		}
	}
	return true
}
