package geom

import (
	"math"
	"math/bits"
)

// checkNodes are the heights w at which the support search and the support
// check scan the profile F for its local maxima, clustered at the equator
// (the shallow dip of e2 < 1) and towards the tips (pointy profiles). 13
// heights missed maxima 0.2 apart that differ by 2e-5
// (TestIsSupportPointAgainstDenseSampling found them); 37 find them all.
var checkNodes = [...]float64{-0.975, -0.94, -0.89, -0.82, -0.74, -0.65, -0.56, -0.47, -0.38, -0.3, -0.23, -0.17, -0.12, -0.08, -0.05, -0.025, -0.01, -0.002,
	0, 0.002, 0.01, 0.025, 0.05, 0.08, 0.12, 0.17, 0.23, 0.3, 0.38, 0.47, 0.56, 0.65, 0.74, 0.82, 0.89, 0.94, 0.975}

const supportNodes = len(checkNodes)

// groupNodes is the number of consecutive heights in one group of the
// support check's coarse pass (supportGroup).
const groupNodes = 4

const supportGroups = (supportNodes + groupNodes - 1) / groupNodes

// supportGroup bounds the section-stack profile F over the heights from
// one group's lower neighbour to its upper one (the poles at the ends),
// continuously, not only at the nodes: at height w the section is r(w)
// times the superellipse of half-axes a1·cx(w), a2·cy(w), whose support
// along (mx, my) is the k-norm N = ‖(a1·|mx|·cx, a2·|my|·cy)‖_k, growing
// with cx and cy; r falls with |w| and cx, cy, c·w are linear in w. So
// F ≤ rmax·‖(a1·|mx|·cxmax, a2·|my|·cymax)‖_k + max(c·wlo, c·whi) there, and
// where that is below the limit neither a node nor a local maximum of F
// there can lie beyond the point checked: the check skips the group's
// heights (those far from the point's own, for most directions).
type supportGroup struct {
	wlo, whi, rmax, cxmax, cymax float64
	cxk, cyk                     float64 // cxmax^k, cymax^k
	// tauLo, tauHi are the zenith parameters at wlo and whi (∓Inf at the
	// poles), for tests of the intervals the scan suppresses.
	tauLo, tauHi float64
}

// SupportTable holds the direction-independent part of the support search of
// one shape (see PointWithNormal): the scan heights with their zenith
// parameters, section radii and taper factors. With it, deciding whether a
// given surface point is the support point in its own normal direction costs
// a few exponentials per height instead of a root search per local maximum,
// which is what the contact solver's support-plane certificate needs on every
// query with a non-convex shape. Build it once per shape; it is read-only
// afterwards.
type SupportTable struct {
	s                           Superovoid
	n                           int
	w, tau, r, cx, cy, cxk, cyk [supportNodes]float64
	tcx, tcy                    [supportNodes]float64 // tx/cx, ty/cy
	// dw2 is the square of the wider of the intervals beside each height
	// (the poles beyond the ends), for the check's test of flat intervals.
	dw2    [supportNodes]float64
	groups [supportGroups]supportGroup
	// poleCxk, poleCyk are cx^k and cy^k at the poles w = −1 and 1
	// (cellBound).
	poleCxk, poleCyk [2]float64
	tipW             float64 // 0.9^e2: |sin p2| > 0.9 above it (tauOfPoint)
	// For tests: noGroups turns the group skip (and PointWithNormal's
	// pruning) off; onSkip, when set, is told each interval (prevTau, tau)
	// whose root check a skip of groups g0..g1 suppressed, with the scan's
	// bound on τ.
	noGroups bool
	onSkip   func(prevTau, tau, bound float64, g0, g1 int)
	// onSearch, when set, is told how many intervals PointWithNormal's
	// search found bracketing a local maximum, how many it solved, and
	// whether it fell back to the shape's scan; onSolve each solved
	// bracket's local maximum of F and the bracket's bound on it.
	onSearch func(brackets, solved int, fellBack bool)
	onSolve  func(f, ub float64)
}

// SupportTable builds the support table of the shape.
func (s *Superovoid) SupportTable() SupportTable {
	t := SupportTable{s: *s, tipW: math.Pow(0.9, s.Eps[1])}
	p := supportProblem{e2: s.Eps[1], beta: 2 - s.Eps[1]}
	k := 2 / (2 - s.Eps[0])
	for _, w := range checkNodes {
		tau, _, c := p.tauOfW(w)
		i := t.n
		t.w[i], t.tau[i] = w, tau
		t.r[i] = FastExp(s.Eps[1] * FastLog(c))
		t.cx[i], t.cy[i] = 1+s.Taper[0]*w, 1+s.Taper[1]*w
		t.cxk[i], t.cyk[i] = FastExp(k*FastLog(t.cx[i])), FastExp(k*FastLog(t.cy[i]))
		t.tcx[i], t.tcy[i] = s.Taper[0]/t.cx[i], s.Taper[1]/t.cy[i]
		t.n++
	}
	for i := range t.n {
		lo, hi := -1.0, 1.0
		if i > 0 {
			lo = t.w[i-1]
		}
		if i+1 < t.n {
			hi = t.w[i+1]
		}
		dw := max(t.w[i]-lo, hi-t.w[i])
		t.dw2[i] = dw * dw
	}
	for i, w := range [2]float64{-1, 1} {
		t.poleCxk[i] = FastExp(k * FastLog(1+s.Taper[0]*w))
		t.poleCyk[i] = FastExp(k * FastLog(1+s.Taper[1]*w))
	}
	for g := range t.groups {
		t.groups[g] = t.span(g*groupNodes-1, min((g+1)*groupNodes, t.n)) // neighbours
	}
	return t
}

// span bounds the profile between heights lo and hi (supportGroup), −1
// and n standing for the poles, from the ends' own entries: r is largest
// at the end nearer w = 0 (1 where the span holds it), and cx, cy grow
// towards one end, whose powers the table holds.
func (t *SupportTable) span(lo, hi int) supportGroup {
	l, h := t.end(lo), t.end(hi)
	gr := supportGroup{wlo: l.wlo, whi: h.wlo, tauLo: l.tauLo, tauHi: h.tauLo, rmax: max(l.rmax, h.rmax)}
	if gr.wlo <= 0 && gr.whi >= 0 {
		gr.rmax = 1 // r(0)
	}
	gr.cxmax, gr.cxk = h.cxmax, h.cxk
	if l.cxmax >= h.cxmax {
		gr.cxmax, gr.cxk = l.cxmax, l.cxk
	}
	gr.cymax, gr.cyk = h.cymax, h.cyk
	if l.cymax >= h.cymax {
		gr.cymax, gr.cyk = l.cymax, l.cyk
	}
	return gr
}

// end is height i's entries as a one-point span (wlo, tauLo its height
// and parameter, rmax its r), the poles for i < 0 and i ≥ n.
func (t *SupportTable) end(i int) supportGroup {
	s := &t.s
	switch {
	case i < 0:
		return supportGroup{wlo: -1, tauLo: math.Inf(-1), cxmax: 1 - s.Taper[0], cymax: 1 - s.Taper[1], cxk: t.poleCxk[0], cyk: t.poleCyk[0]}
	case i >= t.n:
		return supportGroup{wlo: 1, tauLo: math.Inf(1), cxmax: 1 + s.Taper[0], cymax: 1 + s.Taper[1], cxk: t.poleCxk[1], cyk: t.poleCyk[1]}
	}
	return supportGroup{wlo: t.w[i], tauLo: t.tau[i], rmax: t.r[i], cxmax: t.cx[i], cymax: t.cy[i], cxk: t.cxk[i], cyk: t.cyk[i]}
}

// below reports whether group g's bound on F (supportGroup) is below the
// limit of direction d. The k-norm is bounded above by the tangent of the
// concave (1 + q)^(1/k) at 0, 1 + q/k (no exponential), and the sum by a
// relative 1e-12 for the rounding of the table's radii and powers.
func (t *SupportTable) below(g int, d *checkDir) bool {
	return t.groupBound(g, d) <= d.limit
}

// groupBound is group g's bound on F in direction d (below).
func (t *SupportTable) groupBound(g int, d *checkDir) float64 {
	return spanBound(&t.groups[g], d)
}

// cellBound is supportGroup's bound on F in direction d over the heights
// between scan heights j − 1 and j (the poles for −1 and n), formed when
// asked: PointWithNormal's pruning needs it for a few cells per
// direction, and a table of them would double the table's size.
func (t *SupportTable) cellBound(j int, d *checkDir) float64 {
	gr := t.span(j-1, j)
	return spanBound(&gr, d)
}

// spanBound is the bound of supportGroup on F over the heights of gr in
// direction d.
func spanBound(gr *supportGroup, d *checkDir) float64 {
	X, Y := d.ak0*gr.cxk, d.bk0*gr.cyk // (a1·|mx|·cxmax)^k, (a2·|my|·cymax)^k over em^k
	big, q := d.terms(X, Y, gr.cxmax, gr.cymax)
	sec := gr.rmax * big * (1 + q*d.invk)
	c := d.p.c
	return sec + max(c*gr.wlo, c*gr.whi) + 1e-12*(sec+math.Abs(c))
}

// The premises IsSupportPoint demands of its point: on the surface to this
// well-scaled residual, and a normal within about 4e-3 rad
// (1 − cos = 1e-5) of the gradient it is given.
const (
	supportOnSurface = 1e-9
	supportAlign     = 1e-5
)

// Shape returns the shape the table was built for.
func (t *SupportTable) Shape() Superovoid { return t.s }

// IsSupportPoint reports whether x, a local surface point whose outward
// normal is n, is the support point in the direction n to within tol: no
// point of the body lies more than tol beyond x along the unit vector of n,
// h(n̂) ≤ n̂·x + tol. On a non-convex shape a point with normal n can be a
// local maximum of n·x in a dent, or a local minimum at its bottom; both are
// refused. Like PointWithNormal it relies on the scan heights to separate
// the local maxima of the section-stack profile F (no two in one interval
// between neighbouring heights): the local maximum in x's own interval is
// x itself, checked by the sign change of ψ across it, and every other
// interval holding a maximum is solved and compared. Where the profile is
// flat about x's height over an interval (flat), the heights may not
// separate its maxima, and the check looks inside, as the searches do
// (flatCells).
func (t *SupportTable) IsSupportPoint(n, x Vec3, tol float64) bool {
	e, ok := t.s.Hessian(x)
	return ok && t.IsSupportPointHess(n, x, tol, &e)
}

// IsSupportPointHess is IsSupportPoint with the local curvature at x given:
// e holds the gradient and Hessian at x (or within rounding of it) of any
// function whose level set through x is the surface and which grows
// outwards (G, G^(e2/2) − 1, ln G), as a Newton solver has them at hand.
func (t *SupportTable) IsSupportPointHess(n, x Vec3, tol float64, e *Implicit) bool {
	ok, _ := t.SupportVerdict(n, x, tol, e)
	return ok
}

// SupportVerdict is IsSupportPointHess saying also why it refuses: premise
// is true when x was refused before the scan (not on the surface, n not its
// normal, the surface curving into the body by no more than rounding of
// flat, or x at a tip), false when the surface clearly curves into the body
// at x (a dent's bottom) or the scan found the body reaching farther along
// n: a definite no. A caller may settle a premise refusal another way (the
// solver computes the gap along n from exact supports).
func (t *SupportTable) SupportVerdict(n, x Vec3, tol float64, e *Implicit) (ok, premise bool) {
	s := &t.s
	if !finite3(n) || !finite3(x) || !(tol >= 0) {
		return false, true
	}
	// The premises: x on the surface, n its normal (to within a Newton
	// step's change of the gradient). Anything else is refused, not
	// checked: the scan skips x's own interval on their strength.
	if f, ok := s.Residual(x); !ok || !(math.Abs(f) <= supportOnSurface) {
		return false, true
	}
	if g := e.Grad; !(g.Dot(n) >= (1-supportAlign)*g.Len()*n.Len()) {
		return false, true
	}
	sc := max(math.Abs(n[0]), max(math.Abs(n[1]), math.Abs(n[2])))
	if sc == 0 {
		return false, true
	}
	n = n.Mul(1 / sc)
	// h(n) for this n is |n|·h(n̂), so the tolerance scales the same way.
	limit := n.Dot(x) + tol*n.Len()
	a3 := s.A[2]
	if n[0] == 0 && n[1] == 0 {
		return a3*math.Abs(n[2]) <= limit, false // the pole is the support point
	}
	var p supportProblem
	d := t.scanDir(n, limit, &p)
	// N(0), from below (a smaller N only widens the bracket), for the
	// bound of PointWithNormal.
	n0 := onePlusPow(min(d.ak0, d.bk0), 1/p.k) * (1 - powErr)
	bound := 2*math.Abs(p.c)/n0 + 2
	// x must be a local maximum of n·x over the surface, where the surface
	// is locally convex: the Hessian of G restricted to the tangent plane is
	// positive (semi)definite. A point at the bottom of a dent is refused
	// here, except on a pointy shape's coordinate plane, where the
	// curvature's rounding allowance can pass it and the scan refuses it (a
	// review's sampling of such dent points found them passing on the
	// allowance alone and every one refused by the scan;
	// TestIsSupportPointAgainstDenseSampling checks that nothing accepted
	// is beaten); a tip (τ infinite) or a point beyond the bound is not a
	// stationary point of F and is refused below.
	if k := t.tangentCurvature(e); !(k >= -1e-9) {
		// Curving into the body: at the bottom of a dent a definite no;
		// within rounding of flat (box-like faces, e near 0.1, where the
		// curvature is 1e-8 of the body's size or less) a premise the
		// caller may settle another way.
		return false, k >= -flatCurvature
	}
	tx := t.tauOfPoint(x)
	if !(tx > -bound && tx < bound) {
		return false, true
	}
	prevTau, prevPsi := -bound, -1.0
	flatLim := flatCurv * math.Abs(d.limit) // F within flatLim·dw² of the limit is flat about it
	var near uint64                         // the heights where F is that close (node)
	// skipped: the heights since the last node scanned were skipped as a
	// group below the limit, so no maximum between them needs solving.
	skipped := false
	g0, g1 := 0, 0 // the first and last groups of the skip in progress
	for i := 0; i <= t.n; i++ {
		tau, psi := bound, 1.0
		if i < t.n {
			tau = t.tau[i]
			if !(tau > -bound && tau < bound) {
				continue // ψ's sign is known there: no root beyond the bound
			}
			// A group is skipped from a first height within the bound only:
			// the interval suppressed then starts at the group's lower
			// neighbour, or at −bound with every height before it beyond,
			// and ends at its upper neighbour or at a height beyond the
			// bound (TestSupportGroupSkip). (Skipped from a height beyond
			// the bound, it would suppress the interval between the last
			// height scanned and its own range.)
			if i%groupNodes == 0 && !t.noGroups && t.below(i/groupNodes, &d) {
				if !skipped {
					g0 = i / groupNodes
				}
				g1 = i / groupNodes
				i = min(i+groupNodes, t.n) - 1
				skipped = true
				continue
			}
			var beyond, nearLimit bool
			if psi, beyond, nearLimit = t.node(i, &d, flatLim*t.dw2[i]); beyond {
				return false, false // a point at this height already lies beyond x
			} else if nearLimit {
				near |= 1 << i
			}
		}
		if skipped && t.onSkip != nil {
			t.onSkip(prevTau, tau, bound, g0, g1)
		}
		if !skipped && prevPsi < 0 && psi >= 0 && !(prevTau <= tx && tx <= tau) {
			x0 := 0.5 * (prevTau + tau)
			if psi == 0 {
				x0 = tau
			}
			if _, f := p.evalTau(p.solve(prevTau, tau, x0)); !(f <= d.limit) {
				return false, false
			}
		}
		prevTau, prevPsi, skipped = tau, psi, false
	}
	// Where the profile is flat about the limit between two heights, the
	// interval can hold maxima that ψ's signs at its ends do not show
	// (flatCells): beside x another, elsewhere two, or one and a minimum.
	// Both ends are then close to the limit, and both were scanned (a
	// skipped group's heights are never near).
	for m := near & (near >> 1); m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m) + 1 // the interval between heights i − 1 and i
		lo, hi := t.tau[i-1], t.tau[i]
		psiLo, flo := p.evalTau(lo)
		psiHi, fhi := p.evalTau(hi)
		if !flat(flo, fhi, d.limit, t.w[i]-t.w[i-1]) {
			continue
		}
		own := math.NaN()
		if lo <= tx && tx <= hi {
			own = tx
		}
		if _, fb, fs := p.interiorBest(lo, hi, psiLo, psiHi, own, d.limit); fb > d.limit || !(fs <= d.limit) {
			return false, false
		}
	}
	return true, false
}

// tauOfPoint returns the zenith parameter τ = spow(tan p2, 2 − e2) of a
// local surface point x: sin p2 from its height, and cos p2 from it too
// away from the tips, but near a tip (|sin p2| > 0.9) from the section's
// superellipse norm r = cos^e2 p2 of x and y, which keeps its digits where
// 1 − |w| has none (from the height alone, a point 1e-16 of a3 from the tip
// of a rounded shape had τ finite or infinite as z/a3 rounded, at one
// size and not another, and the verdict followed).
func (t *SupportTable) tauOfPoint(x Vec3) float64 {
	s := &t.s
	w := max(-1, min(1, x[2]/s.A[2]))
	e2 := s.Eps[1]
	if !(math.Abs(w) > t.tipW) {
		sn := spow(w, 1/e2)
		return spow(sn/math.Sqrt((1-sn)*(1+sn)), 2-e2)
	}
	if x[0] == 0 && x[1] == 0 {
		return math.Copysign(math.Inf(1), w) // the tip
	}
	// r = ‖(x/(a1·cx), y/(a2·cy))‖_q, q = 2/e1, and |sin p2| = |w|^(1/e2),
	// cos p2 = r^(1/e2): τ = sign(w)·(|w|/r)^((2 − e2)/e2).
	q := 2 / s.Eps[0]
	lx := FastLog(math.Abs(x[0]) / (s.A[0] * (1 + s.Taper[0]*w)))
	ly := FastLog(math.Abs(x[1]) / (s.A[1] * (1 + s.Taper[1]*w)))
	lr := LogAddExp(q*lx, q*ly) / q
	return math.Copysign(FastExp((2-e2)/e2*(FastLog(math.Abs(w))-lr)), w)
}

// scanDir sets p to the support problem of the direction n (scaled so
// that its largest component has magnitude 1, mx and my not both 0) and
// returns what the scan against limit needs of it, in the problem's units
// of em (supportProblem): the section norm's terms are (a1·|mx|)^k·cx^k and
// (a2·|my|)^k·cy^k, over em^k al^k·cx^k and be^k·cy^k, and the table holds
// the powers of cx and cy; so scaled, no size and no k overflows or
// underflows them.
func (t *SupportTable) scanDir(n Vec3, limit float64, p *supportProblem) checkDir {
	p.init(&t.s, n)
	return dirOf(p, limit)
}

// dirOf is scanDir for a problem already set up.
func dirOf(p *supportProblem, limit float64) checkDir {
	ak0, bk0 := 1.0, 1.0
	if p.al < 1 {
		ak0 = FastExp(p.k * p.lal)
	} else if p.be < 1 {
		bk0 = FastExp(p.k * p.lbe)
	}
	return checkDir{p: p, limit: limit * p.inv, ak0: ak0, bk0: bk0, al: p.al, be: p.be, invk: 1 / p.k, chord: FastExp(math.Ln2/p.k) - 1}
}

// terms splits a section's k-norm N = (ak + bk)^(1/k) (in units of em), ak
// and bk the k-th powers of its two terms al·cx and be·cy, into
// big·(1 + q)^(1/k): big the larger term, q ≤ 1 the ratio of the powers.
func (d *checkDir) terms(ak, bk, cx, cy float64) (big, q float64) {
	if ak >= bk {
		if ak > 0 {
			q = bk / ak
		}
		return d.al * cx, q
	}
	return d.be * cy, ak / bk
}

// checkDir is what IsSupportPoint's scan needs of one direction.
type checkDir struct {
	p        *supportProblem
	limit    float64 // n·x + tol, in units of em like F
	al, be   float64 // a1·|mx|, a2·|my| over em
	ak0, bk0 float64 // al^k, be^k
	invk     float64 // 1/k: a division saved at every height
	chord    float64 // 2^(1/k) − 1: (1 + q)^(1/k) ≥ 1 + chord·q on [0, 1]
}

// node returns ψ at scan height i, or just its sign (±1) when bounds on
// the section's k-norm decide it and put F below the limit less slack,
// whether F there exceeds the limit, and whether it is within slack of
// the limit.
func (t *SupportTable) node(i int, d *checkDir, slack float64) (psi float64, beyond, nearLimit bool) {
	p := d.p
	ak, bk := d.ak0*t.cxk[i], d.bk0*t.cyk[i]
	sum := ak + bk
	// ψ = τ − r·ρ − c/N with ρ = N_w/N = (ak·tx/cx + bk·ty/cy)/sum; below,
	// ψ·sum = bs − c·sum/N, so that the bounds need no division.
	bs := t.tau[i]*sum - t.r[i]*(ak*t.tcx[i]+bk*t.tcy[i])
	// N = big·(1 + q)^(1/k), big the larger of the two section terms
	// and q the ratio of their k-th powers, from a short series good to
	// powErr: most heights are decided by its bounds alone.
	big, q := d.terms(ak, bk, t.cx[i], t.cy[i])
	cw := p.c * t.w[i]
	// First the free bounds of the concave (1 + q)^(1/k): its chord below,
	// its tangent at 0 above (with room for rounding and FastExp's error in
	// the chord). Far from the support point they settle most heights.
	{
		lo, hi := freeBounds(q, d.chord, d.invk)
		nlo, nhi := big*lo, big*hi
		if t.r[i]*nhi+cw <= d.limit-slack {
			if sg := signBetween(bs, p.c*sum, nlo, nhi); sg != 0 {
				return sg, false, false
			}
		}
	}
	n0 := big * onePlusPow(q, d.invk)
	nlo, nhi := n0*(1-powErr), n0*(1+powErr)
	if !(t.r[i]*nlo+cw <= d.limit) {
		return 0, true, false // a point at this height lies beyond x (or NaN: refuse)
	}
	if t.r[i]*nhi+cw <= d.limit-slack {
		if sg := signBetween(bs, p.c*sum, nlo, nhi); sg != 0 {
			return sg, false, false
		}
	}
	nn := FastExp(FastLog(sum) * d.invk)
	f := t.r[i]*nn + cw
	if !(f <= d.limit) {
		return 0, true, false
	}
	return (bs - p.c*sum/nn) / sum, false, f >= d.limit-slack
}

// signBetween returns the sign (±1) of ψ when N lies in [nlo, nhi] and
// that decides it, else 0: c/N lies between c/nhi and c/nlo, and ψ·sum·N =
// bs·N − cs (cs = c·sum) is linear in N, so one sign at both ends decides.
func signBetween(bs, cs, nlo, nhi float64) float64 {
	e1, e2 := bs*nhi-cs, bs*nlo-cs
	if e1 > 0 && e2 > 0 {
		return 1
	}
	if e1 < 0 && e2 < 0 {
		return -1
	}
	return 0
}

// freeBounds bounds (1 + q)^(1/k) for q in [0, 1], k ≥ 1, without a power:
// the concave function lies above its chord 1 + chord·q (chord = 2^(1/k) − 1)
// and below its tangent at 0, 1 + q/k (invk = 1/k); powErr's margin covers
// the rounding of both and of chord.
func freeBounds(q, chord, invk float64) (lo, hi float64) {
	return (1 + chord*q) * (1 - powErr), (1 + q*invk) * (1 + powErr)
}

// powErr bounds the relative error of onePlusPow.
const powErr = 4e-6

// onePlusPow returns (1 + q)^e for q in [0, 1] and e in (0, 1] to a
// relative error below 2e-6 (powErr leaves room for rounding): ln(1 + q) =
// 2·atanh(s), s = q/(2 + q) <= 1/3, by its series to s⁹ (error below
// 1.2e-6), and e^y, y <= ln 2, by Taylor to degree 9 (below 2e-8).
func onePlusPow(q, e float64) float64 {
	s := q / (2 + q)
	s2 := s * s
	y := e * 2 * s * (1 + s2*(1.0/3+s2*(1.0/5+s2*(1.0/7+s2*(1.0/9)))))
	return 1 + y*(1+y*(1.0/2+y*(1.0/6+y*(1.0/24+y*(1.0/120+y*(1.0/720+y*(1.0/5040+y*(1.0/40320+y*(1.0/362880)))))))))
}

// flatCurvature is the scaled curvature (tangentCurvature) down to which
// SupportVerdict calls a refusal a premise: nearly flat rather than a dent.
const flatCurvature = 1e-6

// tangentCurvature is the smallest curvature of the surface in its tangent
// plane, times the body's bounding radius (negative: curving into the
// body), given a residual's gradient and Hessian at the point; NaN where
// the gradient vanishes. At least −1e-9: the surface curves away from its
// tangent plane in every direction, and a point whose normal is n is a
// local maximum of n·x. Restricted to the tangent plane the Hessians of G,
// G^h − 1 and h·ln G differ by positive factors only.
func (t *SupportTable) tangentCurvature(e *Implicit) float64 {
	g := e.Grad.Len()
	if !(g > 0) {
		return math.NaN()
	}
	u, v := Householder(e.Grad)
	hu, hv := MulMV(&e.Hess, u), MulMV(&e.Hess, v)
	// The 2x2 tangent-plane Hessian as curvatures times the radius, so
	// that its entries do not depend on the body's size: on a coordinate
	// plane of a pointy section (e1 near 2) the Hessian of G is 1e142 at
	// unit size and grows as 1/size², and its squares below overflowed
	// at 1e-6 (a support point refused as a dent's bottom at 1e-6, accepted
	// at 1).
	sc := t.s.BoundingRadiusFast() / g
	huu, hvv, huv := u.Dot(hu)*sc, v.Dot(hv)*sc, u.Dot(hv)*sc
	// Smallest eigenvalue of the 2x2 tangent-plane Hessian, less its
	// rounding: on a coordinate plane of a pointy shape (e near 2) the
	// Hessian of G is 1e27 and more (the ridge's curvature is infinite,
	// and convex) and the eigenvalue keeps only its sign's noise, -4e11 at
	// one shift of a pair and 0 at another (TestCertificateShiftInvariant).
	lmin := 0.5*(huu+hvv) - math.Sqrt(0.25*(huu-hvv)*(huu-hvv)+huv*huv)
	if math.IsInf(lmin, 0) {
		// Squares beyond 1e308 (Hypot's scaling costs 30 ns of the
		// check's 850 where they do not overflow, nearly everywhere).
		lmin = 0.5*(huu+hvv) - math.Hypot(0.5*(huu-hvv), huv)
	}
	return lmin + 1e-12*(math.Abs(huu)+math.Abs(hvv)+2*math.Abs(huv))
}

// PointWithNormal is the shape's PointWithNormal (the same point, to
// rounding), found faster on a shape not known to be convex: the scan of
// the section-stack profile reads its heights' radii and taper powers from
// the table (one power per height instead of seven), and of the intervals
// where ψ brackets a local maximum of F it solves the most promising
// first, then only those whose bound on F (supportGroup, over the
// interval's two heights) reaches the highest F found: the others cannot
// hold the support point. (BenchmarkPointWithNormal: general against
// general-table.)
func (t *SupportTable) PointWithNormal(n Vec3) (x Vec3, p1, p2 float64, ok bool) {
	return t.s.pointWithNormal(n, t.s.knownConvex(), t)
}

// globalTau is Superovoid.globalTau with the table's heights and the
// intervals' pruning (PointWithNormal). Ties go to the lower τ, as the
// shape's scan's go to the first found.
func (t *SupportTable) globalTau(p *supportProblem, bound float64) float64 {
	d := dirOf(p, 0)
	// The brackets of local maxima, as the interval ending at height i
	// (the one from the previous height, or from −bound, to i; i = n for
	// the last one, to bound) with the ends' τ and the interval's bound.
	type bracket struct {
		lo, hi, x0, ub float64
		i              int
	}
	var br [supportNodes/2 + 2]bracket
	nb := 0
	sc := scanRecord{bound: bound}
	lb := math.Inf(-1) // the highest F at the heights scanned: h(n) ≥ lb
	prevTau, prevPsi := -bound, -1.0
	for i := 0; i <= t.n; i++ {
		tau, psi := bound, 1.0
		if i < t.n {
			tau = t.tau[i]
			if !(tau > -bound && tau < bound) {
				// ψ's sign is known there: no root beyond the bound. (The
				// heights within it are a run, τ rising with i: the
				// interval ending at the first height beyond lies within
				// the cell below it.)
				if !(tau >= bound) {
					continue
				}
				tau = bound
			} else {
				// ψ = τ − r·ρ − c/N with ρ = (ak·tx/cx + bk·ty/cy)/sum
				// and N = sum^(1/k), in units of em (node).
				ak, bk := d.ak0*t.cxk[i], d.bk0*t.cyk[i]
				sum := ak + bk
				nn := FastExp(FastLog(sum) * d.invk)
				psi = tau - t.r[i]*(ak*t.tcx[i]+bk*t.tcy[i])/sum - p.c/nn
				f := t.r[i]*nn + p.c*t.w[i]
				sc.f[i], sc.scanned = f, sc.scanned|1<<i
				lb = max(lb, f)
			}
		}
		if prevPsi < 0 && psi >= 0 {
			x0 := 0.5 * (prevTau + tau)
			if psi == 0 {
				x0 = tau
			}
			br[nb] = bracket{lo: prevTau, hi: tau, x0: x0, ub: t.cellBound(i, &d), i: i}
			nb++
		}
		if tau == bound {
			break
		}
		prevTau, prevPsi = tau, psi
	}
	// The highest bound first (insertion sort: a few brackets at most).
	for i := 1; i < nb; i++ {
		for j := i; j > 0 && br[j].ub > br[j-1].ub; j-- {
			br[j], br[j-1] = br[j-1], br[j]
		}
	}
	bestTau, bestF := 0.0, math.Inf(-1)
	solved := 0
	for _, b := range br[:nb] {
		if !t.noGroups && b.ub < max(lb, bestF) {
			break // this and every later bracket: lower than a point of the body
		}
		r := p.solve(b.lo, b.hi, b.x0)
		sc.root[b.i], sc.rooted = r, sc.rooted|1<<b.i
		_, f := p.evalTau(r)
		if f > bestF || f == bestF && r < bestTau {
			bestTau, bestF = r, f
		}
		solved++
		if t.onSolve != nil {
			t.onSolve(f, b.ub)
		}
	}
	if solved > 0 {
		// An interval whose bound is below the best cannot hold a higher
		// maximum (and holds a pruned bracket's unsolved root).
		bestTau, bestF = sc.flatCells(p, bestTau, bestF, func(i int, f float64) bool {
			return !t.noGroups && t.cellBound(i, &d) < f
		})
	}
	// A safety net, never taken while the bounds hold and the heights
	// separate the local maxima (as the shape's scan assumes): every
	// bracket pruned, or a height higher than every maximum solved. The
	// shape's scan then answers, so that the point is still its point.
	fellBack := !(bestF >= lb*(1-1e-12))
	if t.onSearch != nil {
		t.onSearch(nb, solved, fellBack)
	}
	if fellBack {
		return t.s.globalTau(p, bound)
	}
	return bestTau
}
