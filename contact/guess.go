package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// fpow is |x|^e for x > 0 through exp/log, cheaper than math.Pow's general
// path in the guess loops.
func fpow(x, e float64) float64 {
	if x <= 0 {
		return 0
	}
	return math.Exp(e * math.Log(x))
}

func fspow(x, e float64) float64 {
	if x < 0 {
		return -fpow(-x, e)
	}
	return fpow(x, e)
}

// childPoints returns the world points at the centres of the four children
// of cell c (index bit 0: upper half in p1, bit 1: upper half in p2). The four
// centres share two azimuths and two zeniths, so only four sincos and eight
// powers are needed.
func childPoints(s *geom.Superovoid, t *geom.Transform, c geom.ParamCell, out *[4]vec) {
	w1 := c.P1Max - c.P1Min
	w2 := c.P2Max - c.P2Min
	var C1, S1, C2, S2 [2]float64
	for i := 0; i < 2; i++ {
		p1 := c.P1Min + w1*(0.25+0.5*float64(i))
		p2 := c.P2Min + w2*(0.25+0.5*float64(i))
		s1, c1 := math.Sincos(p1)
		s2, c2 := math.Sincos(p2)
		C1[i], S1[i] = fspow(c1, s.Eps[0]), fspow(s1, s.Eps[0])
		C2[i], S2[i] = fspow(c2, s.Eps[1]), fspow(s2, s.Eps[1])
	}
	for k := 0; k < 4; k++ {
		i, j := k&1, k>>1
		l := vec{
			s.A[0] * (1 + s.Taper[0]*S2[j]) * C1[i] * C2[j],
			s.A[1] * (1 + s.Taper[1]*S2[j]) * S1[i] * C2[j],
			s.A[2] * S2[j],
		}
		out[k] = t.Point(l)
	}
}

// quadtreeGuess is the parametric quadtree of paper 000 §4.4: at each level
// the 4×4 pairs of child-cell centres are compared and the closest pair of
// cells is refined. The chosen cells are recorded for drawing.
func quadtreeGuess(pr *pair, levels int, res *Result) (pa, pb [2]float64) {
	ca, cb := geom.RootParamCell(), geom.RootParamCell()
	var wa, wb [4]vec
	for l := 0; l < levels; l++ {
		childPoints(pr.a, &pr.ta, ca, &wa)
		childPoints(pr.b, &pr.tb, cb, &wb)
		bi, bj, bd := 0, 0, math.Inf(1)
		for i := 0; i < 4; i++ {
			for j := 0; j < 4; j++ {
				d := wa[i].Sub(wb[j])
				if dd := d.Dot(d); dd < bd {
					bi, bj, bd = i, j, dd
				}
			}
		}
		ca, cb = ca.Child(bi), cb.Child(bj)
		res.QuadCellsA[l], res.QuadCellsB[l] = ca, cb
	}
	res.QuadLevels = levels
	pa[0], pa[1] = ca.Center()
	pb[0], pb[1] = cb.Center()
	return
}

// approxSupport returns a cheap approximation of the support point of s in
// local direction n: the ellipsoid's support point pulled radially onto the
// surface. Newton polishes it; it only has to land in the right basin.
func approxSupport(s *geom.Superovoid, n vec) vec {
	a := s.A
	x := vec{a[0] * a[0] * n[0], a[1] * a[1] * n[1], a[2] * a[2] * n[2]}
	l := math.Sqrt(a[0]*a[0]*n[0]*n[0] + a[1]*a[1]*n[1]*n[1] + a[2]*a[2]*n[2]*n[2])
	if !(l > 0) {
		return vec{0, 0, a[2]}
	}
	x = x.Mul(1 / l)
	// Radial projection: for a superellipsoid G^(e2/2) is 1-homogeneous, so
	// dividing by G^(e2/2) = F+1 lands on the surface; with taper it lands close.
	for i := 0; i < 3; i++ {
		f, ok := s.Residual(x)
		if !ok || math.Abs(f) < 1e-12 {
			break
		}
		x = x.Mul(1 / (1 + f))
	}
	return x
}

// multiStart searches common-normal pairs from support seeds over a set of
// directions: the centres' direction, the current best normal and the six
// principal directions of each body, tried in order of their estimated gap.
func (sv *Solver) multiStart(m Method, pr *pair, best *candidate, res *Result) {
	var dirs [16]vec
	nd := 0
	add := func(n vec) {
		l := n.Len()
		if !(l > 0) {
			return
		}
		dirs[nd] = n.Mul(1 / l)
		nd++
	}
	add(pr.tb.T.Sub(pr.ta.T))
	if best.valid {
		add(best.nP)
	}
	for k := 0; k < 3; k++ {
		ca := col(&pr.ta.R, k)
		cb := col(&pr.tb.R, k)
		add(ca)
		add(ca.Mul(-1))
		add(cb)
		add(cb.Mul(-1))
	}
	var gap [16]float64
	var lps, lqs [16]vec
	for i := 0; i < nd; i++ {
		n := dirs[i]
		lps[i] = approxSupport(pr.a, pr.ta.InvDir(n))
		lqs[i] = approxSupport(pr.b, pr.tb.InvDir(n.Mul(-1)))
		gap[i] = n.Dot(pr.tb.Point(lqs[i]).Sub(pr.ta.Point(lps[i])))
	}
	var tried [16]vec
	nt := 0
	const maxStarts = 4
	for s := 0; s < nd && nt < maxStarts; s++ {
		// Next-best untried direction.
		bi := -1
		for i := 0; i < nd; i++ {
			if !math.IsInf(gap[i], -1) && (bi < 0 || gap[i] > gap[bi]) {
				bi = i
			}
		}
		if bi < 0 {
			break
		}
		n := dirs[bi]
		gap[bi] = math.Inf(-1)
		dup := false
		for j := 0; j < nt; j++ {
			if tried[j].Dot(n) > 0.97 {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		tried[nt] = n
		nt++
		x0 := sv.startFromPoints(m, pr, lps[bi], lqs[bi])
		c := sv.solveFrom(m, pr, x0, res)
		if better(&c, best) {
			*best = c
		}
		if best.valid && best.converged && best.separated && sv.shapes.pairConvex(pr) {
			return
		}
	}
}
