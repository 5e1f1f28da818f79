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
}

func newPair(a, b *geom.Body) pair {
	pr := pair{a: &a.Shape, b: &b.Shape, ta: a.Pose.Transform(), tb: b.Pose.Transform()}
	// R_ab = R_bᵀ·R_a, T_ab = R_bᵀ·(T_a − T_b).
	for j := 0; j < 3; j++ {
		c := geom.MulMtV(&pr.tb.R, col(&pr.ta.R, j))
		pr.ab.R[j*3], pr.ab.R[j*3+1], pr.ab.R[j*3+2] = c[0], c[1], c[2]
	}
	pr.ab.T = pr.tb.InvDir(pr.ta.T.Sub(pr.tb.T))
	return pr
}

// system is the common-normal system of one scheme evaluated at one iterate:
// everything the residual, the analytical Jacobian and the classification
// need, in world coordinates.
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
}

// unitJac returns the derivative of v/|v| given dv.
func unitJac(u vec, inv float64, dv vec) vec {
	return dv.Sub(u.Mul(u.Dot(dv))).Mul(inv)
}

// eval fills the system at unknowns x. With jac it also fills the analytical
// Jacobian. It returns false where the iterate leaves the domain or a normal
// or tangent is undefined.
func (s *system) eval(m Method, pr *pair, x *[6]float64, jac bool) bool {
	switch m {
	case Implicit:
		if !s.implicitSides(pr, x, jac) {
			return false
		}
	case Parametric:
		if !s.parametricSides(pr, x, jac) {
			return false
		}
	case NTB:
		if !s.ntbSides(pr, x, jac) {
			return false
		}
	}
	d := s.Q.Sub(s.P)
	s.phi[0] = s.nP.Dot(s.tQ)
	s.phi[1] = s.nP.Dot(s.bQ)
	s.phi[2] = d.Dot(s.tQ)
	s.phi[3] = d.Dot(s.bQ)
	if m == Implicit {
		s.phi[4] = s.Fa
		s.phi[5] = s.Fb
	}
	if !jac {
		return true
	}
	for i := range s.jac {
		s.jac[i] = [6]float64{}
	}
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
	if m == Implicit {
		for k := 0; k < 3; k++ {
			s.jac[4][k] = s.gFa[k]
			s.jac[5][3+k] = s.gFb[k]
		}
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

// normalSide fills P-side quantities from the implicit residual at a local point
// of a, given the local derivatives of the point with respect to the unknowns.
func (s *system) normalSide(pr *pair, lp vec, dl *[3]vec, k int, jac bool) bool {
	e, ok := pr.a.ResidualHessian(lp, jac)
	if !ok {
		return false
	}
	g := e.Grad
	gl := g.Len()
	if !(gl > 0) || math.IsInf(gl, 0) {
		return false
	}
	inv := 1 / gl
	nl := g.Mul(inv)
	s.nP = pr.ab.Dir(nl)
	s.P = pr.ab.Point(lp)
	s.Fa, s.gFa = e.G, g
	s.localP = lp
	if jac {
		for i := 0; i < k; i++ {
			dg := geom.MulMV(&e.Hess, dl[i])
			s.dnP[i] = pr.ab.Dir(unitJac(nl, inv, dg))
			s.dP[i] = pr.ab.Dir(dl[i])
		}
	}
	return true
}

// frameSide fills Q-side quantities: the Householder frame of the implicit
// normal of b at a local point, with derivatives along dl.
func (s *system) frameSide(pr *pair, lq vec, dl *[3]vec, k int, jac bool) bool {
	e, ok := pr.b.ResidualHessian(lq, jac)
	if !ok {
		return false
	}
	g := e.Grad
	gl := g.Len()
	if !(gl > 0) || math.IsInf(gl, 0) {
		return false
	}
	s.Q = lq
	s.Fb, s.gFb = e.G, g
	s.localQ = lq
	if !jac {
		t, b := geom.Householder(g)
		s.tQ, s.bQ = t, b
		return true
	}
	t, b, dT, dB := geom.HouseholderJac(g)
	s.tQ, s.bQ = t, b
	TH := mulMat3(&dT, &e.Hess)
	BH := mulMat3(&dB, &e.Hess)
	for i := 0; i < k; i++ {
		s.dtQ[i] = geom.MulMV(&TH, dl[i])
		s.dbQ[i] = geom.MulMV(&BH, dl[i])
		s.dQ[i] = dl[i]
	}
	return true
}

var unitBasis = [3]vec{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

func (s *system) implicitSides(pr *pair, x *[6]float64, jac bool) bool {
	s.n, s.ka, s.kb = 6, 3, 3
	lp := vec{x[0], x[1], x[2]}
	lq := vec{x[3], x[4], x[5]}
	return s.normalSide(pr, lp, &unitBasis, 3, jac) && s.frameSide(pr, lq, &unitBasis, 3, jac)
}

func (s *system) ntbSides(pr *pair, x *[6]float64, jac bool) bool {
	s.n, s.ka, s.kb = 4, 2, 2
	da := pr.a.Derivs(x[0], x[1])
	db := pr.b.Derivs(x[2], x[3])
	dla := [3]vec{da.X1, da.X2}
	dlb := [3]vec{db.X1, db.X2}
	return s.normalSide(pr, da.X, &dla, 2, jac) && s.frameSide(pr, db.X, &dlb, 2, jac)
}

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
// residual, as paper 000 did; kept so the two can be compared.
func (s *system) fdJacobian(m Method, pr *pair, x *[6]float64) bool {
	var tmp system
	n := s.n
	for j := 0; j < n; j++ {
		h := 1e-7 * math.Max(1, math.Abs(x[j]))
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
