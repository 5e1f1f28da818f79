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
	return geom.FastExp(e * geom.FastLog(x))
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
	res.quadPath = [2]uint32{}
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
		res.quadPath[0] |= uint32(bi) << (2 * l)
		res.quadPath[1] |= uint32(bj) << (2 * l)
	}
	res.QuadLevels = levels
	pa[0], pa[1] = ca.Center()
	pb[0], pb[1] = cb.Center()
	return
}

// approxSupport returns a cheap approximation of the support point of s in
// local direction n: the closed-form point with normal n of the untapered
// superellipsoid (thesis eq 9 as corrected in math.md), evaluated on the
// tapered shape. Exact without taper; with taper Newton polishes it, it only
// has to land in the right basin.
func approxSupport(s *geom.Superovoid, n vec) vec {
	// The untapered support point is the gradient of the support function
	// h = ‖(N, a3·nz)‖_k2, N = ‖(a1·nx, a2·ny)‖_k1 (k = 2/(2 − e)); taper
	// then moves it as it moves every point of its section. In logarithms:
	// eleven transcendental functions, against about twenty-five through
	// the angles (the thesis's parameters of the point, then Point), for
	// the same point (TestApproxSupportMatchesAngles).
	k1, k2 := 2/(2-s.Eps[0]), 2/(2-s.Eps[1])
	A, B, C := math.Abs(s.A[0]*n[0]), math.Abs(s.A[1]*n[1]), math.Abs(s.A[2]*n[2])
	if !(A > 0 && B > 0 && C > 0) || math.IsInf(A+B+C, 0) {
		// A direction with a zero component (the multi-start's principal
		// axes): the angle route, whose rounding (cos(π/2) ≠ 0) moves the
		// seed off the exact face centre, where a box-like shape is flat
		// and Newton stalls (docs/query.md's "boxes" pair: 49 iterations
		// instead of 120).
		p1, p2 := seNormalParams(s, n)
		return s.Point(p1, p2)
	}
	lA, lB := geom.FastLog(A), geom.FastLog(B)
	lN := geom.LogAddExp(k1*lA, k1*lB) / k1
	var x vec
	lC := geom.FastLog(C)
	lh := geom.LogAddExp(k2*lN, k2*lC) / k2
	x[2] = math.Copysign(s.A[2]*geom.FastExp((k2-1)*(lC-lh)), n[2])
	r := geom.FastExp((k2 - 1) * (lN - lh)) // ∂h/∂N
	x[0] = math.Copysign(s.A[0]*r*geom.FastExp((k1-1)*(lA-lN)), n[0])
	x[1] = math.Copysign(s.A[1]*r*geom.FastExp((k1-1)*(lB-lN)), n[1])
	w := x[2] / s.A[2]
	x[0] *= 1 + s.Taper[0]*w
	x[1] *= 1 + s.Taper[1]*w
	return x
}

// seSupport is the support function of the untapered superellipsoid with
// the shape's semi-axes and exponents in local direction n: the nested dual
// norm ‖(‖(a1·nx, a2·ny)‖_k1, a3·nz)‖_k2, k = 2/(2 − e) (math.md §1, the
// sections are superellipses). Without the point it is a third of the cost
// of approxSupport, for ranking directions.
func seSupport(s *geom.Superovoid, n vec) float64 { return seSupportV(s, v3of(n)) }

// seSupportV is seSupport in v3 arithmetic.
func seSupportV(s *geom.Superovoid, n v3) float64 {
	k1, k2 := 2/(2-s.Eps[0]), 2/(2-s.Eps[1])
	x, y, z := math.Abs(s.A[0]*n.x), math.Abs(s.A[1]*n.y), math.Abs(s.A[2]*n.z)
	// Scaled by the largest term, so that large exponents cannot overflow.
	m := max(x, y, z)
	if m == 0 {
		return 0
	}
	x, y, z = x/m, y/m, z/m
	xy := rankPow(x, k1) + rankPow(y, k1)
	return m * rankPow(rankPow(xy, k2/k1)+rankPow(z, k2), 1/k2)
}

// seSupportLow is a lower bound of seSupport(s, n) for free: each k-norm
// of seSupport (k = 2/(2 − e) ≥ 1) is at least the Euclidean norm where
// k ≤ 2 (e ≤ 1) and at least its largest term always. The factor leaves
// room for rankPow's rounding. (The squares cannot overflow: Validate caps
// semi-axes at 1e100.)
func seSupportLow(s *geom.Superovoid, n vec) float64 { return seSupportLowV(s, v3of(n)) }

// seSupportLowV is seSupportLow in v3 arithmetic.
func seSupportLowV(s *geom.Superovoid, n v3) float64 {
	x, y, z := math.Abs(s.A[0]*n.x), math.Abs(s.A[1]*n.y), math.Abs(s.A[2]*n.z)
	if s.Eps[0] <= 1 && s.Eps[1] <= 1 {
		// Both norms at least Euclidean: one square root.
		return math.Sqrt(x*x+y*y+z*z) * (1 - 1e-6)
	}
	xy := max(x, y)
	if s.Eps[0] <= 1 {
		xy = max(xy, math.Sqrt(x*x+y*y))
	}
	h := max(xy, z)
	if s.Eps[1] <= 1 {
		h = max(h, math.Sqrt(xy*xy+z*z))
	}
	return h * (1 - 1e-6)
}

// rankPow returns x^e for x >= 0 to a relative error of about
// 1e-6·(1 + |e·ln x|): short series for log2 and exp2 instead of math.Log
// and math.Exp, five times faster. Good for ranking directions, never for
// an answer.
func rankPow(x, e float64) float64 {
	if !(x > 0) {
		return 0
	}
	if x == 1 {
		return 1
	}
	// x = 2^k·f with f in [1/√2, √2): ln f = 2·atanh(s), s = (f−1)/(f+1).
	b := math.Float64bits(x)
	k := int((b>>52)&0x7ff) - 1023
	if k == -1023 {
		return math.Pow(x, e) // subnormal: not worth a fast path
	}
	f := math.Float64frombits(b&(1<<52-1) | 1023<<52)
	if f > math.Sqrt2 {
		f *= 0.5
		k++
	}
	s := (f - 1) / (f + 1)
	s2 := s * s
	lnf := 2 * s * (1 + s2*(1.0/3+s2*(1.0/5+s2*(1.0/7+s2*(1.0/9)))))
	y := e * (float64(k)*math.Ln2 + lnf) // ln of the result
	if y < -700 {
		return 0
	}
	if y > 700 {
		return math.Inf(1)
	}
	// e^y = 2^j·e^r with |r| <= ln2/2: Taylor to degree 8.
	j := math.Floor(y/math.Ln2 + 0.5)
	r := y - j*math.Ln2
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720+r*(1.0/5040+r*(1.0/40320))))))))
	// |j| ≤ 1010: 2^j is a normal number, built from its exponent bits
	// (the same product as math.Ldexp, without its call and range checks).
	return p * math.Float64frombits(uint64(int64(j)+1023)<<52)
}

// supportPair returns approximate support points of a in direction n and of
// b in direction −n (world), and the gap estimate n·(Q − P).
func supportPair(pr *pair, n vec) (lp, lq, P, Q vec, gap float64) {
	// (v3 arithmetic, operation for operation the Transform methods'.)
	nv := v3of(n)
	lp = approxSupport(pr.a, mulMtV(&pr.ta.R, nv).vec())
	lq = approxSupport(pr.b, mulMtV(&pr.tb.R, nv.scale(-1)).vec())
	Pv, Qv := toWorld(&pr.ta, v3of(lp)), toWorld(&pr.tb, v3of(lq))
	return lp, lq, Pv.vec(), Qv.vec(), nv.dot(Qv.sub(Pv))
}

// ellipsoidSupport is the support point of the ellipsoid with the shape's
// semi-axes in local direction n: a very cheap proxy used to rank directions
// and climb the gap; the closed form replaces it for the final seeds.
func ellipsoidSupport(s *geom.Superovoid, n v3) v3 {
	a := &s.A
	x := v3{a[0] * a[0] * n.x, a[1] * a[1] * n.y, a[2] * a[2] * n.z}
	l := math.Sqrt(x.x*n.x + x.y*n.y + x.z*n.z)
	if !(l > 0) {
		return v3{0, 0, a[2]}
	}
	return x.scale(1 / l)
}

// fastGap returns the gap estimate n·(Q − P) and Q − P with ellipsoid
// supports (in v3 arithmetic: it runs eleven times per cold guess).
func fastGap(pr *pair, n v3) (float64, v3) {
	P := toWorld(&pr.ta, ellipsoidSupport(pr.a, mulMtV(&pr.ta.R, n)))
	Q := toWorld(&pr.tb, ellipsoidSupport(pr.b, mulMtV(&pr.tb.R, n.scale(-1))))
	d := Q.sub(P)
	return n.dot(d), d
}

// ascend climbs gap(n) = −h_a(n) − h_b(−n) on the sphere from n (its
// gradient is Q − P, math.md §3) with cheap ellipsoid supports and step
// control, then returns the closed-form support seeds at the final
// direction, and their gap estimate.
func ascend(pr *pair, n0 vec, steps int) (vec, vec, vec, float64) {
	n := v3of(n0)
	g, d := fastGap(pr, n)
	// Step scale: the gap's curvature on the sphere is about the bodies' size
	// (computed once a step is taken: between shapes whose ellipsoid proxies
	// are spheres, as in paper 000's battery, the centres' direction is
	// already the top).
	alpha := 0.0
	for i := 0; i < steps; i++ {
		t := d.sub(n.scale(n.dot(d)))
		// (The gradient is a length: relative to L, or bodies below 1e-9
		// are never climbed; TestQueryScaleInvariance.)
		if math.Sqrt(t.dot(t)) < 1e-9*pr.L {
			break
		}
		if alpha == 0 {
			alpha = ascentStep(pr)
		}
		m := n.add(t.scale(alpha))
		m = m.scale(1.0 / math.Sqrt(m.dot(m)))
		g2, d2 := fastGap(pr, m)
		if g2 > g {
			n, g, d = m, g2, d2
			alpha *= 1.5
		} else {
			alpha *= 0.25
		}
	}
	// A few steps with the closed-form supports refine the direction where
	// the ellipsoid proxy is poor (box-like and pointy shapes); alpha is
	// still 0 if the climb took no step.
	return supportAscend(pr, n.vec(), alpha, refineSteps)
}

// ascentStep is the initial step of a climb of the gap on the sphere: its
// curvature there is about the bodies' size.
func ascentStep(pr *pair) float64 {
	return 1 / (pr.a.BoundingRadiusFast() + pr.b.BoundingRadiusFast())
}

// supportAscend climbs the gap from n with the closed-form supports
// (approxSupport: exact without taper), from step scale alpha (0:
// ascentStep, computed once a step is taken), and returns the final
// direction, its support seeds and their gap estimate.
func supportAscend(pr *pair, n vec, alpha float64, steps int) (vec, vec, vec, float64) {
	return supportAscendTo(pr, n, alpha, steps, 0)
}

// supportAscendTo is supportAscend ending also once a step would turn n by
// less than minTurn (radians): a climb stalled on a ridge of the gap
// (pointy shapes) only shrinks its step from there.
func supportAscendTo(pr *pair, n vec, alpha float64, steps int, minTurn float64) (vec, vec, vec, float64) {
	lp, lq, P, Q, gs := supportPair(pr, n)
	for i := 0; i < steps; i++ {
		d := Q.Sub(P)
		t := d.Sub(n.Mul(n.Dot(d)))
		tl := t.Len()
		if tl < 1e-9*pr.L {
			break
		}
		if alpha == 0 {
			alpha = ascentStep(pr)
		}
		if alpha*tl < minTurn {
			break
		}
		m := n.Add(t.Mul(alpha)).Normalize()
		lp2, lq2, P2, Q2, g2 := supportPair(pr, m)
		if g2 > gs {
			n, lp, lq, P, Q, gs = m, lp2, lq2, P2, Q2, g2
			alpha *= 1.5
		} else {
			alpha *= 0.25
		}
	}
	return n, lp, lq, gs
}

// refineSteps is the number of closed-form support steps that end an ascent.
const refineSteps = 0 // measured: closed-form steps here cost more than the iterations they save

// crawlSteps is the number of closed-form support steps that re-seed a start
// that ran out of iterations.
const crawlSteps = 10

// promising reports whether an unfinished start's current signed-distance
// estimate (along a's normal) clearly beats the best answer so far.
func promising(c, best *candidate, L float64) bool {
	if !best.valid {
		return true
	}
	est := c.nP.Dot(c.Q.Sub(c.P))
	if best.separated {
		// (Against the distance best would answer: an unconverged best's
		// iterate can read closer than its surface points are.)
		return est >= 0 && est < best.cmpSD()-1e-6*L
	}
	return est > best.sd+1e-6*L
}

// skipCos is the cosine of the skip rule's cone (25°): the multi-start
// skips a direction that close to a pair already found, and ends a ranked
// start whose iterate comes that close to the best pair (joining).
const skipCos = 0.9

// maxStarts bounds the ranked starts of a multi-start, the cold guess's
// included; an overlapping box-like pair may take one edge start more.
const maxStarts = 4

// multiStart searches the common-normal pairs from support seeds: the
// centres' direction, the current best normal and the six principal
// directions of each body are ranked by their estimated gap, and Newton
// solves from the support pairs of the best few distinct ones (math.md §3:
// the answer is the stationary point with the largest gap). Overlapping
// box-like pairs then get one more start from an edge-against-edge direction.
func (sv *Solver) multiStart(m Method, pr *pair, best *candidate, res *Result, seen vec, maxIter int) {
	// (v3 arithmetic throughout, operation for operation the Vec3 forms:
	// this ranking runs on every cold overlapping query.)
	var dirs [14]v3
	// axis[i] is 1+k when dirs[i] is ±(a's axis k), 4+k for b's, else 0:
	// along its own axis a body's support is its semi-axis, exactly.
	var axis [14]int
	var gap [14]float64
	var exact [14]bool
	nd := 0
	c := v3of(pr.tb.T).sub(v3of(pr.ta.T))
	if l := math.Sqrt(c.dot(c)); l > 0 {
		dirs[0] = c.scale(1 / l)
		nd++
	}
	if best.valid {
		bn := v3of(best.nP)
		if l := math.Sqrt(bn.dot(bn)); l > 0 {
			dirs[nd] = bn.scale(1 / l)
			nd++
		}
	}
	// Each body's principal axes, the sign towards the other body only:
	// a direction pointing away from b pushes b through a, its gap far
	// below the answer. (Both signs when the axis is square to the
	// centres' line. u·c and (−u)·c are exact negatives.)
	for k := 0; k < 3; k++ {
		for side := 0; side < 2; side++ {
			R, ax := &pr.ta.R, 1+k
			if side == 1 {
				R, ax = &pr.tb.R, 4+k
			}
			v := v3{R[k*3], R[k*3+1], R[k*3+2]}
			l := math.Sqrt(v.dot(v))
			if !(l > 0) {
				continue
			}
			u := v.scale(1 / l)
			d := u.dot(c)
			if d >= 0 {
				dirs[nd], axis[nd] = u, ax
				nd++
			}
			if d <= 0 {
				dirs[nd], axis[nd] = u.scale(-1), ax
				nd++
			}
		}
	}
	// Rank by the gap of the untapered superellipsoids' support functions:
	// the ellipsoid proxy is blind to squareness, which is what makes
	// several basins, and the support points are only needed for the
	// directions actually started.
	//
	// The gaps are computed lazily: gap[i] starts as a free upper bound
	// (lower bounds of the supports, seSupportLow) and is replaced by the
	// ranking gap only when it is the largest key. Every direction that
	// could rank above the one taken is then exact, so the starts are the
	// same as with every gap computed; most low-ranked directions never are.
	for i := 0; i < nd; i++ {
		n := dirs[i]
		switch k := axis[i]; {
		case k >= 4:
			gap[i] = n.dot(c) - seSupportLowV(pr.a, mulMtV(&pr.ta.R, n)) - pr.b.A[k-4]
		case k >= 1:
			gap[i] = n.dot(c) - pr.a.A[k-1] - seSupportLowV(pr.b, mulMtV(&pr.tb.R, n))
		default:
			gap[i] = seGapBoundV(pr, n, c)
		}
	}
	rankGap := func(i int) float64 {
		n := dirs[i]
		switch k := axis[i]; {
		case k >= 4:
			return n.dot(c) - seSupportV(pr.a, mulMtV(&pr.ta.R, n)) - pr.b.A[k-4]
		case k >= 1:
			return n.dot(c) - pr.a.A[k-1] - seSupportV(pr.b, mulMtV(&pr.tb.R, n.scale(-1)))
		}
		return seGapV(pr, n, c)
	}
	if sv.eagerRank {
		for i := 0; i < nd; i++ {
			if !exact[i] {
				gap[i], exact[i] = rankGap(i), true
			}
		}
	}
	// started holds the seed directions already solved from (the same seed
	// again gives the same answer), found the normals of the pairs they
	// converged to and their signed distances: a direction near a found
	// normal most likely lies in its basin. A direction near a start's seed
	// but far from where that start ended is not skipped: on thin plates
	// Newton leaves a seed's neighbourhood, and the basins are narrow
	// (TestMTDThinPlates).
	var started, found [maxStarts + 2]v3
	var foundSD [maxStarts + 2]float64
	ns, nf := 0, 0
	if sn := v3of(seen); sn.dot(sn) > 0 {
		started[0] = sn
		ns = 1
	}
	if best.valid && best.converged {
		found[0], foundSD[0] = v3of(best.nP), best.sd
		nf = 1
	}
	// Without taper seSupport is the support function (to rankPow's
	// rounding, below 1e-8 of the bodies' size), so a ranking gap is a lower
	// bound of the answer (math.md §3); with taper it is only an estimate,
	// and the exact support (a root search, ~10 µs) costs more than the
	// start it would decide.
	exactRank := pr.a.IsSuperellipsoid() && pr.b.IsSuperellipsoid()
	L := charLength(pr)
	ma := max(minAxis(pr.a), minAxis(pr.b))
	skip := func(n v3, g float64) bool {
		for j := 0; j < ns; j++ {
			if started[j].dot(n) > 0.999 { // within 2.5°: the same seed
				return true
			}
		}
		// Within 25° of a pair found: the same basin, most likely, unless
		// the (untapered: exact) support gap along n already beats that
		// pair's by more than rankPow's rounding, which
		// proves n is not in its basin below its top (on thin plates a
		// narrow, better basin lies within 25° of a worse pair: the plate's
		// own normal next to a corner's). Not wider: a 35° cone answered
		// deep overlaps of tapered shapes in a worse basin
		// (TestSkipConeKeepsTaperedBasins).
		for j := 0; j < nf; j++ {
			if found[j].dot(n) > skipCos && !(exactRank && g > foundSD[j]+1e-7*L) {
				return true
			}
		}
		return false
	}
	// try solves from n's seeds and keeps the better answer; it reports
	// whether the search is over (a separated pair of convex bodies).
	try := func(n v3) bool {
		started[ns] = n
		ns++
		cand := sv.startAt(m, pr, best, res, n.vec(), maxIter)
		against := best.valid && best.converged && !best.separated
		if against {
			sv.tries++
		}
		if sv.joined {
			// Back in the best pair's basin: nothing new (and no rival:
			// the estimate there is only the way back to the answer).
			return false
		}
		sv.noteRival(&cand)
		if cand.valid && cand.converged && nf < len(found) {
			found[nf], foundSD[nf] = v3of(cand.nP), cand.sd
			nf++
		}
		if better(&cand, best) {
			if against && cand.sd > best.sd+pairTol(pr) {
				sv.improved++
			}
			*best = cand
		}
		return best.valid && best.converged && best.separated && pr.convex
	}
	for ns < maxStarts {
		bi := -1
		for i := 0; i < nd; i++ {
			if !math.IsInf(gap[i], -1) && (bi < 0 || gap[i] > gap[bi]) {
				bi = i
			}
		}
		if bi < 0 {
			break
		}
		g := gap[bi]
		// A start whose support gap is well below the best answer so far
		// would have to climb a long way to beat it: not worth a Newton
		// run. (An upper bound below that mark rules out every direction.)
		if best.valid && best.converged && g < best.sd-0.25*ma {
			break
		}
		if !exactRank && skip(dirs[bi], g) {
			// With taper, skip ignores the gap, and what it skips now it
			// skips later too (the seeds and pairs found only grow): drop
			// the direction before paying for its ranking gap. The starts
			// are the same: a direction whose exact gap would end the
			// search is left with every other one below the mark.
			gap[bi] = math.Inf(-1)
			continue
		}
		if !exact[bi] {
			gap[bi], exact[bi] = rankGap(bi), true
			continue
		}
		gap[bi] = math.Inf(-1)
		if skip(dirs[bi], g) {
			continue
		}
		if try(dirs[bi]) {
			return
		}
	}
	if !boxLike(pr.a) || !boxLike(pr.b) || (best.valid && best.separated) {
		return
	}
	// Edge against edge: as in the separating-axis test of boxes, the
	// minimum translation can be along the cross product of an edge of
	// each body (thin plates turned across a block: no principal direction
	// lies in that basin). One start at most, from the best such direction
	// within 0.1 of the larger minor semi-axis below the best answer: on
	// thin plates the basin is narrow but starts that high, while on the
	// paper battery's box-like pairs these starts never won, and each
	// costs a Newton run. Both bodies contain the ellipsoids of their
	// semi-axes (exponents below 1), whose supports bound the gap from
	// above for free: most directions need no seSupport.
	low := math.Inf(-1)
	if best.valid && best.converged {
		low = best.sd - 0.1*ma
	}
	var bn v3
	haveBn := false
	bg := low
	cv := c
	// Each box-like body contains the sphere of its smallest semi-axis
	// (inside the ellipsoid of its semi-axes): the first bound is free.
	ins := minAxis(pr.a) + minAxis(pr.b)
	for i := 0; i < 3; i++ {
		ea := v3{pr.ta.R[i*3], pr.ta.R[i*3+1], pr.ta.R[i*3+2]}
		for j := 0; j < 3; j++ {
			// (v3 arithmetic, operation for operation Vec3's Cross, Len,
			// Mul and Dot.)
			eb := v3{pr.tb.R[j*3], pr.tb.R[j*3+1], pr.tb.R[j*3+2]}
			xv := v3{ea.y*eb.z - ea.z*eb.y, ea.z*eb.x - ea.x*eb.z, ea.x*eb.y - ea.y*eb.x}
			l := math.Sqrt(xv.dot(xv))
			if l < 1e-3 {
				continue // parallel edges: a face direction, ranked above
			}
			xv = xv.scale(1 / l)
			if xv.dot(cv) < 0 {
				xv = xv.scale(-1)
			}
			if xv.dot(cv)-ins <= bg {
				continue
			}
			if !exactRank && skip(xv, 0) {
				continue // (with taper skip ignores the gap: not worth computing)
			}
			if xv.dot(cv)-ellipsoidH(pr.a, mulMtV(&pr.ta.R, xv))-ellipsoidH(pr.b, mulMtV(&pr.tb.R, xv)) <= bg {
				continue
			}
			if g := seGapV(pr, xv, c); g > bg && !skip(xv, g) {
				bn, bg, haveBn = xv, g, true
			}
		}
	}
	if haveBn {
		try(bn)
	}
}

// seGap is the ranking gap of direction n (unit, world): n·c minus the
// untapered superellipsoids' supports, c the centres' difference.
func seGap(pr *pair, n, c vec) float64 { return seGapV(pr, v3of(n), v3of(c)) }

// seGapV is seGap in v3 arithmetic.
func seGapV(pr *pair, n, c v3) float64 {
	return n.dot(c) - seSupportV(pr.a, mulMtV(&pr.ta.R, n)) - seSupportV(pr.b, mulMtV(&pr.tb.R, n.scale(-1)))
}

// seGapBound is an upper bound of seGap(pr, n, c) for free (seSupportLow
// on both sides; their k-norms are symmetric in the sign of n).
func seGapBound(pr *pair, n, c vec) float64 { return seGapBoundV(pr, v3of(n), v3of(c)) }

// seGapBoundV is seGapBound in v3 arithmetic.
func seGapBoundV(pr *pair, n, c v3) float64 {
	return n.dot(c) - seSupportLowV(pr.a, mulMtV(&pr.ta.R, n)) - seSupportLowV(pr.b, mulMtV(&pr.tb.R, n))
}

// ellipsoidH is the support function of the ellipsoid with the shape's
// semi-axes in local direction n (symmetric: the sign of n is immaterial).
func ellipsoidH(s *geom.Superovoid, n v3) float64 {
	x, y, z := s.A[0]*n.x, s.A[1]*n.y, s.A[2]*n.z
	return math.Sqrt(x*x + y*y + z*z)
}

// startAt runs one start of the multi-start from the support seeds along n
// and returns its classified outcome (a start that joined the best pair's
// basin comes back unclassified and invalid: the multi-start discards it).
func (sv *Solver) startAt(m Method, pr *pair, best *candidate, res *Result, n vec, maxIter int) candidate {
	lp, lq, _, _, _ := supportPair(pr, n)
	sv.explore, sv.exploring = *best, true
	sv.ranked, sv.joined = true, false
	it0, limit := res.Iterations, maxIter
	c := sv.solveFrom(m, pr, sv.startFromPoints(m, pr, lp, lq), res, maxIter)
	sv.ranked = false
	if sv.joined {
		sv.exploring = false
		return c
	}
	if !c.converged && maxIter < sv.opt.MaxIter && c.nP != (vec{}) && promising(&c, best, charLength(pr)) {
		// Still crawling (linearly, between nearly flat faces) towards a
		// clearly better pair when its iterations ran out: finish it.
		res.Starts-- // the same start, continued
		it0, limit = res.Iterations, sv.opt.MaxIter
		c = sv.solveFrom(m, pr, c.x, res, sv.opt.MaxIter)
	}
	if !c.converged && res.Iterations-it0 >= limit && (sv.outcome.crawling || sv.noCrawlTest) && best.valid && !best.separated {
		// The last run used all its iterations (it was not abandoned as
		// losing earlier; one abandoned on its last iteration counts too)
		// and was still reducing its residual: Newton crawls over a nearly
		// flat face whose basin top lies across it (a plate's face, 4° from
		// its normal: TestMTDTurnedPlates). The closed-form supports jump
		// to the face's rim as the direction tilts, so a short climb of the
		// gap with them re-seeds it. (Not a run whose residual stood still:
		// on paper 000's battery those re-seeds never found a better pair.
		// Only against an overlapping answer: elsewhere the fallback
		// schemes recover a failed start.)
		sv.crawls++
		_, lp2, lq2, g2 := supportAscend(pr, n, ascentStep(pr), crawlSteps)
		if g2 > best.sd {
			res.Starts-- // the same start, re-seeded
			c = sv.solveFromPoints(m, pr, lp2, lq2, res)
		}
	}
	sv.exploring = false
	return c
}

// boxLike reports whether both of a shape's exponents are below 1, so that
// it has edges (rounded, for exponents near 1) along its principal axes.
func boxLike(s *geom.Superovoid) bool { return s.Eps[0] < 1 && s.Eps[1] < 1 }

// seNormalParams returns the parameters of the point of the untapered shape
// whose normal is n (math.md §1, "point with a given local normal").
func seNormalParams(s *geom.Superovoid, n vec) (p1, p2 float64) {
	e1, e2 := s.Eps[0], s.Eps[1]
	d1, d2 := 1/(2-e1), 1/(2-e2)
	ax, ay, az := s.A[0]*n[0], s.A[1]*n[1], s.A[2]*n[2]
	p1 = math.Atan2(fspow(ay, d1), fspow(ax, d1))
	if math.Abs(ax) >= math.Abs(ay) {
		p2 = math.Atan2(fspow(az*fpow(math.Abs(math.Cos(p1)), 2-e1), d2), fpow(math.Abs(ax), d2))
	} else {
		p2 = math.Atan2(fspow(az*fpow(math.Abs(math.Sin(p1)), 2-e1), d2), fpow(math.Abs(ay), d2))
	}
	return
}

// deepOverlap is the depth, relative to the smaller body's smallest
// semi-axis, from which an overlapping answer of a pair with a non-convex
// shape gets deepScan's extra start and the expanding polytope's check
// (convex pairs get the polytope from epaDeep on). The paper battery's
// overlaps all stay below it.
const deepOverlap = 1.0

// deepDirs is the number of directions of deepScan's Fibonacci sphere, and
// deepTop the number of its best directions that it climbs from.
const (
	deepDirs = 128
	deepTop  = 4
)

// deepScan looks for a better basin of a deep overlap. The gap then has
// many local maxima, and the multi-start's few directions (the centres',
// the principal axes) can all lie in worse ones. It ranks a Fibonacci
// sphere of directions by the untapered superellipsoids' support gap
// (lazily, as multiStart does), climbs the gap from the best few with the
// closed-form supports (a better basin's top is often only a little above
// the answer found, so the sampled directions themselves need not beat it),
// and starts Newton from the best climb when that beats the answer.
func (sv *Solver) deepScan(m Method, pr *pair, best *candidate, res *Result) {
	c := pr.tb.T.Sub(pr.ta.T)
	var topN [deepTop]vec
	var topG [deepTop]float64
	for k := range topG {
		topG[k] = math.Inf(-1)
	}
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := 0; i < deepDirs; i++ {
		z := 1 - 2*(float64(i)+0.5)/deepDirs
		r := math.Sqrt(1 - z*z)
		s, co := math.Sincos(golden * float64(i))
		n := vec{r * co, r * s, z}
		if seGapBound(pr, n, c) <= topG[deepTop-1] {
			continue // its gap cannot reach the best few
		}
		g := seGap(pr, n, c)
		for k := 0; k < deepTop; k++ {
			if g > topG[k] {
				copy(topN[k+1:], topN[k:deepTop-1])
				copy(topG[k+1:], topG[k:deepTop-1])
				topN[k], topG[k] = n, g
				break
			}
		}
	}
	L := charLength(pr)
	var blp, blq vec
	bar := best.sd + 1e-6*L
	bg := bar
	for k := 0; k < deepTop && !math.IsInf(topG[k], -1); k++ {
		if _, lp, lq, g := supportAscend(pr, topN[k], ascentStep(pr), deepClimb); g > bg {
			blp, blq, bg = lp, lq, g
		}
	}
	if bg <= bar {
		return
	}
	sv.explore, sv.exploring = *best, true
	cand := sv.solveFromPoints(m, pr, blp, blq, res)
	sv.exploring = false
	sv.noteRival(&cand)
	if better(&cand, best) {
		*best = cand
	}
}

// deepClimb is the number of closed-form support steps of each deepScan climb.
const deepClimb = 20
