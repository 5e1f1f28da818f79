package geom

import (
	"math"
	"math/bits"
)

// The body is a stack of superellipse sections (math.md §1): at height
// w = z/a3 the section has semi-axes a1·cx·r(w) and a2·cy·r(w), with
// cx = 1 + tx·w, cy = 1 + ty·w and r(w) = (1 − |w|^(2/e2))^(e2/2). The
// support of a section in the horizontal direction (mx, my) is r(w)·N(w),
// N(w) = ‖(a1·cx·mx, a2·cy·my)‖_k with the dual exponent k = 2/(2 − e1).
// So the support of the whole body in the direction m = (mx, my, mz) is the
// one-dimensional maximum
//
//	h(m) = max over w in [−1, 1] of F(w) = r(w)·N(w) + a3·mz·w.
//
// In the zenith parameter p2 (w = spow(sin p2, e2), r = cos^e2 p2) the
// stationarity condition F' = 0 reads spow(tan p2, 2 − e2) = ratio(p2),
// ratio = (a3·mz + r·N_w)/N. Without taper N_w = 0 and this is the closed
// form of math.md; with taper we solve ψ(τ) = τ − ratio(τ) = 0 for
// τ = spow(tan p2, 2 − e2), where ratio varies slowly, so a safeguarded
// secant iteration started from the untapered answer converges in a few
// steps. ψ < 0 where F increases, so a root at which ψ turns from negative
// to positive is a local maximum of F.

// sectionNorm returns N(w) = (|al·cx|^k + |be·cy|^k)^(1/k) and dN/dw for
// al, be >= 0 given by their logarithms (−Inf for zero). The support
// problem passes them relative to the larger, so that the larger term lies
// in [0.5^k, 1.5^k] (the taper factors stay in [0.5, 1.5]) whatever the
// body's size and k (40 at e1 = 1.95): formed from the absolute
// logarithms, as they once were, the terms overflowed beyond a·|m| = 5e7
// and underflowed below 2e-8 at k = 40, and the NaN that followed sent the
// search to the tip (of 20,000 random tapered shapes and directions, 90 had
// the support wrong by more than 1e-9 at 1e-9 and 99 at 1e9, by up to 100%
// and 84%: TestSupportScaleInvariant).
func sectionNorm(lal, lbe, tx, ty, k, w float64) (n, nw float64) {
	cx, cy := 1+tx*w, 1+ty*w
	ak := FastExp(k * (lal + FastLog(cx)))
	bk := FastExp(k * (lbe + FastLog(cy)))
	t := ak + bk
	n = FastExp(FastLog(t) / k)
	nw = n * (ak*tx/cx + bk*ty/cy) / t
	return
}

// supportProblem is F(w) = r(w)·N(w) + c·w for one direction, in units of
// em, the larger of a1·|mx| and a2·|my|: every quantity of the search is a
// ratio of lengths, so that its steps, and the point found, do not depend
// on the body's size (to rounding of the ratios), and neither overflows
// nor underflows at any size (MinLength to MaxLength).
type supportProblem struct {
	// ln(a1·|mx|/em), ln(a2·|my|/em), one of them 0 (pointAt reads only
	// their differences, and the closed form of superellipsoids passes it
	// the absolute logarithms)
	lal, lbe float64
	al, be   float64 // a1·|mx|/em, a2·|my|/em: one of them 1
	em, inv  float64 // em and 1/em
	tx, ty   float64
	c        float64 // a3·mz/em
	e2, k    float64
	beta     float64 // 2 − e2
}

// init sets p to the support problem of s in the direction n, scaled so
// that its largest component has magnitude 1, with mx and my not both 0.
// (In place: a function returning it is not inlined, and the copy of its
// result showed in the closed form's time.)
func (p *supportProblem) init(s *Superovoid, n Vec3) {
	A, B := s.A[0]*math.Abs(n[0]), s.A[1]*math.Abs(n[1])
	p.em = max(A, B)
	p.inv = 1 / p.em
	p.al, p.be, p.lal, p.lbe = 1, 1, 0, 0
	// The ratio by division, not by inv: for a direction within about
	// 1e-308 of the axis em is subnormal and inv infinite, and B·inv
	// would be Inf (or NaN for B = 0) where B/em is at most 1 (a review
	// found NaN support points at n = (1e-310, 1e-310, 1)).
	if A >= B {
		p.be = B / p.em
		p.lbe = FastLog(p.be)
	} else {
		p.al = A / p.em
		p.lal = FastLog(p.al)
	}
	p.tx, p.ty = s.Taper[0], s.Taper[1]
	p.c = s.A[2] * n[2] * p.inv
	p.e2, p.k, p.beta = s.Eps[1], 2/(2-s.Eps[0]), 2-s.Eps[1]
}

// evalTau returns ψ(τ) and F at the point with parameter τ.
func (p *supportProblem) evalTau(tau float64) (psi, f float64) {
	t := spow(tau, 1/p.beta)  // tan p2
	c := 1 / math.Hypot(1, t) // not Sqrt(1+t²): t² overflows for directions within 1e-154 of the axis
	sn := t * c
	if math.IsInf(t, 0) {
		c, sn = 0, sgn(t)
	}
	return p.evalSC(tau, sn, c)
}

// evalSC evaluates ψ and F at sin p2 = sn, cos p2 = c (c >= 0).
func (p *supportProblem) evalSC(tau, sn, c float64) (psi, f float64) {
	w := spow(sn, p.e2)
	r := FastExp(p.e2 * FastLog(c)) // cos^e2 p2 (0 at the poles)
	n, nw := sectionNorm(p.lal, p.lbe, p.tx, p.ty, p.k, w)
	psi = tau - (p.c+r*nw)/n
	f = r*n + p.c*w
	return
}

// tauOfW returns τ = spow(tan p2, 2 − e2) and sin, cos p2 at height w.
func (p *supportProblem) tauOfW(w float64) (tau, sn, c float64) {
	sn = spow(w, 1/p.e2)
	c = math.Sqrt((1 - sn) * (1 + sn))
	if c == 0 {
		return math.Copysign(math.Inf(1), sn), sn, 0
	}
	return spow(sn/c, p.beta), sn, c
}

// solve finds a root of ψ in the bracket lo < τ < hi, with ψ(lo) < 0 < ψ(hi),
// from the start x0 (inside the bracket): secant steps, the first one a
// fixed-point step τ ← ratio(τ) (exact without taper), and a bisection
// whenever a step leaves the bracket or fails to shrink to half of the step
// before the last (Brent's safeguard), so the worst case is bisection.
func (p *supportProblem) solve(lo, hi, x0 float64) float64 {
	// at evaluates ψ at x and narrows the bracket to the side of the root.
	at := func(x float64) float64 {
		f, _ := p.evalTau(x)
		if f < 0 {
			lo = x
		} else {
			hi = x
		}
		return f
	}
	x := x0
	fx := at(x)
	if fx == 0 {
		return x
	}
	xp, fp := x, fx
	step := -fx // fixed-point step: ψ' taken as 1
	prevStep, prev2 := math.Inf(1), math.Inf(1)
	for it := 0; it < 200; it++ {
		xn := x + step
		if !(xn > lo && xn < hi) || math.Abs(step) > 0.5*prev2 {
			xn = 0.5 * (lo + hi)
			step = xn - x
		}
		prev2, prevStep = prevStep, math.Abs(step)
		xp, fp = x, fx
		x = xn
		if fx = at(x); fx == 0 {
			return x
		}
		tol := 1e-16 * max(1, math.Abs(x))
		if prevStep <= tol || hi-lo <= 2*tol {
			return x
		}
		if fx != fp {
			step = -fx * (x - xp) / (fx - fp)
		} else {
			step = math.Inf(1)
		}
		if math.Abs(step) <= tol {
			return x + step
		}
	}
	return x
}

// knownConvex reports the tapered shapes whose profile is proven (math.md
// §1, and TestConvexitySweeps) concave for every direction, so that F
// has a single maximum: tx = ty with e2 <= 1.38.
func (s *Superovoid) knownConvex() bool {
	return s.Taper[0] == s.Taper[1] && s.Eps[1] <= 1.38
}

// PointWithNormal returns the local surface point whose outward normal is n
// (any length), with its angle-centre parameters: the closed form of
// math.md §1 for superellipsoids, a safeguarded one-dimensional root search
// on the section stack for superovoids. For a non-convex shape several
// points can share a normal; the one returned is the support point, the
// maximiser of n·x over the body (its normal is n too). ok is false only
// for a zero or non-finite n.
func (s *Superovoid) PointWithNormal(n Vec3) (x Vec3, p1, p2 float64, ok bool) {
	return s.pointWithNormal(n, s.knownConvex(), nil)
}

// SupportOfConvex is PointWithNormal's point for a shape the caller knows
// to be convex (Convexity says so): the profile then has a single maximum,
// and one safeguarded root search finds it where PointWithNormal scans
// the whole section stack for a shape it cannot prove convex itself (tx ≠
// ty; about ten times faster there). On a shape that is not convex it can
// return a local maximum, not the support point.
func (s *Superovoid) SupportOfConvex(n Vec3) Vec3 {
	x, _, _, _ := s.pointWithNormal(n, true, nil)
	return x
}

// pointWithNormal is PointWithNormal; on a shape not known convex the scan
// reads the support table tab when it is not nil (SupportTable.PointWithNormal).
func (s *Superovoid) pointWithNormal(n Vec3, convex bool, tab *SupportTable) (x Vec3, p1, p2 float64, ok bool) {
	if !finite3(n) || (n[0] == 0 && n[1] == 0 && n[2] == 0) {
		return Vec3{}, 0, 0, false
	}
	// Scale so that the largest component is 1: the logarithms below then
	// never see subnormal or huge numbers.
	sc := max(math.Abs(n[0]), max(math.Abs(n[1]), math.Abs(n[2])))
	n = n.Mul(1 / sc)
	if n[0] == 0 && n[1] == 0 {
		// The pole itself: Point(0, ±π/2) would leave it by cos(π/2) ≈ 6e-17
		// raised to e2, where a pointy tip's normal is already tilted.
		p2 = math.Copysign(math.Pi/2, n[2])
		return Vec3{0, 0, math.Copysign(s.A[2], n[2])}, 0, p2, true
	}
	if s.IsSuperellipsoid() {
		// math.md §1 (the corrected thesis eq 9): spow(tan p2, 2−e2) = c/N.
		// The closed form and pointAt need only differences of the
		// logarithms, which no size overflows: from the absolute ones, as
		// they always were (the scale-free problem's division and branch
		// cost the closed form about 3% of its time).
		p := supportProblem{
			lal: FastLog(s.A[0] * math.Abs(n[0])), lbe: FastLog(s.A[1] * math.Abs(n[1])),
			e2: s.Eps[1], k: 2 / (2 - s.Eps[0]), beta: 2 - s.Eps[1],
		}
		ln0 := LogAddExp(p.k*p.lal, p.k*p.lbe) / p.k // ln N(0)
		var t float64                                // tan p2 at the support point
		if c := s.A[2] * n[2]; c != 0 {
			t = math.Copysign(FastExp((FastLog(math.Abs(c))-ln0)/p.beta), c)
		}
		x, p1, p2 = s.pointAt(&p, n, t)
		return x, p1, p2, true
	}
	var p supportProblem
	p.init(s, n)
	var t float64 // tan p2 at the support point
	if math.IsInf(p.c, 0) {
		// A direction within 1e-300 or so of the axis (a3·|mz|/em
		// overflows): the tip, which no search could resolve from it.
		t = p.c
	} else {
		// ln N(0), N the section norm of the untapered section.
		ln0 := LogAddExp(p.k*p.lal, p.k*p.lbe) / p.k
		// |ratio| <= |c|/min N + max|N_w/N| <= |c|/(N(0)/2) + 1 because
		// the taper factors stay in [0.5, 1.5] on the body.
		n0 := FastExp(ln0)
		bound := 2*math.Abs(p.c)/n0 + 2
		var tau float64
		switch {
		case convex:
			tau = p.solve(-bound, bound, p.c/n0)
		case tab != nil:
			tau = tab.globalTau(&p, bound)
		default:
			tau = s.globalTau(&p, bound)
		}
		// The tip towards n is a surface point too: it wins where the
		// root search cannot resolve the profile (directions within a hair
		// of the axis, where τ overflows) and returns a clearly lower point.
		// (Rounding ties go to the point found, whose normal is n.)
		tip := math.Copysign(math.Inf(1), p.c)
		if _, f := p.evalTau(tau); math.IsNaN(f) || f < math.Abs(p.c)*(1-1e-12) {
			tau = tip
		}
		t = spow(tau, 1/p.beta)
	}
	x, p1, p2 = s.pointAt(&p, n, t)
	return x, p1, p2, true
}

// pointAt returns the support point of the section at tan p2 = t for the
// scaled direction n, computed from the dual-norm maximiser rather than
// through the angles: near a sharp corner of a section (e1 near 2) or a tip
// (e2 near 2) the angle rounds to its limit long before the point does.
func (s *Superovoid) pointAt(p *supportProblem, n Vec3, t float64) (x Vec3, p1, p2 float64) {
	c := 1 / math.Hypot(1, t) // not Sqrt(1+t²): t² overflows for directions within 1e-154 of the axis
	sn := t * c
	if math.IsInf(t, 0) {
		c, sn = 0, sgn(t)
	}
	p2 = math.Atan(t)
	w := spow(sn, p.e2)
	r := FastExp(p.e2 * FastLog(c))
	cx, cy := 1+p.tx*w, 1+p.ty*w
	lu, lv := p.lal+FastLog(cx), p.lbe+FastLog(cy) // ln|cu|, ln|cv|
	lnN := LogAddExp(p.k*lu, p.k*lv) / p.k
	u := math.Copysign(FastExp((p.k-1)*(lu-lnN)), n[0])
	v := math.Copysign(FastExp((p.k-1)*(lv-lnN)), n[1])
	d1 := 1 / (2 - s.Eps[0])
	p1 = math.Atan2(math.Copysign(FastExp(d1*(lv-lnN)), n[1]), math.Copysign(FastExp(d1*(lu-lnN)), n[0]))
	x = Vec3{s.A[0] * cx * r * u, s.A[1] * cy * r * v, s.A[2] * w}
	return
}

// globalTau finds every local maximum of F bracketed by a scan of ψ at
// fixed heights and returns the best one (see flatCells for the maxima
// the heights cannot separate).
func (s *Superovoid) globalTau(p *supportProblem, bound float64) float64 {
	nodes := checkNodes[:]
	bestTau, bestF := 0.0, math.Inf(-1)
	sc := scanRecord{bound: bound}
	prevTau, prevPsi := -bound, -1.0
	for i := 0; i <= len(nodes); i++ {
		var tau, psi, f float64
		if i == len(nodes) {
			tau, psi = bound, 1
		} else {
			var sn, c float64
			tau, sn, c = p.tauOfW(nodes[i])
			if !(tau > -bound && tau < bound) {
				continue // ψ's sign is known there: no root beyond the bound
			}
			psi, f = p.evalSC(tau, sn, c)
			sc.f[i], sc.scanned = f, sc.scanned|1<<i
		}
		if prevPsi < 0 && psi >= 0 {
			x0 := 0.5 * (prevTau + tau)
			if psi == 0 {
				x0 = tau
			}
			r := p.solve(prevTau, tau, x0)
			sc.root[i], sc.rooted = r, sc.rooted|1<<i
			if _, fr := p.evalTau(r); fr > bestF {
				bestTau, bestF = r, fr
			}
		}
		prevTau, prevPsi = tau, psi
	}
	if bestF > math.Inf(-1) {
		bestTau, _ = sc.flatCells(p, bestTau, bestF, nil)
	}
	return bestTau
}

// scanRecord is what a support search's scan keeps for flatCells: the
// bound on τ it scanned within, F at the scan heights it evaluated (bit i
// of scanned set for height i), and the root it solved in the interval
// that ends at height i and starts at the previous height scanned (bit i
// of rooted). The last interval, from the last height scanned to the
// bound, is kept at index supportNodes or at the first height beyond the
// bound, which is never scanned: flatCells reads the roots of intervals
// between two heights scanned only.
type scanRecord struct {
	bound           float64
	f               [supportNodes]float64
	root            [supportNodes + 1]float64
	scanned, rooted uint64
}

// flatCells looks inside the scan's flat intervals for the local maxima of
// F that its heights cannot separate, and returns the best maximum, tau
// with F = f unless one above it is found. The heights separate the local
// maxima where F curves clearly, but on a nearly conical profile (e2 near
// 2), tapered, along a direction near a generator, F is flat to 1e-6 over
// a tenth of the heights, and an interval can hold two maxima, or a
// maximum and a minimum, which leave ψ's signs at its ends as one maximum
// or none would: a review found the support 9.5e-7 short of the dense
// samples' (two maxima between the heights 0.38 and 0.47;
// TestSupportTwoMaximaOneInterval), and a sweep 1e-6 short (a maximum and
// a minimum there, beside the maximum found in the next interval;
// TestSupportFlatProfiles). So every interval between two scan heights
// that is flat about f (flat) is sampled inside (interiorBest), and again
// about a higher maximum found. The intervals from the bound to the first
// and last heights scanned are sampled where that height's F is above f,
// which shows a maximum missed beside it. skip, when not nil, says which
// intervals between two heights need no look: the table's bounds put
// them below f.
func (sc *scanRecord) flatCells(p *supportProblem, tau, f float64, skip func(i int, f float64) bool) (float64, float64) {
	var done uint64 // intervals sampled
	for again := true; again; {
		again = false
		// No interval is wider than maxCellW: a height whose F is below
		// cut is below every interval's flat range about f, as most are.
		// The intervals with both ends at or above cut, or one above f,
		// are those flat might pass (bit i: between heights i − 1 and i).
		cut := f - flatCurv*maxCellW*maxCellW*math.Abs(f)
		var near, above uint64
		for i := range sc.f {
			if sc.f[i] >= cut {
				near |= 1 << i
				if sc.f[i] > f {
					above |= 1 << i
				}
			}
		}
		near, above = near&sc.scanned, above&sc.scanned
		cand := (near&(near<<1) | above | above<<1) & sc.scanned & (sc.scanned << 1) &^ done
		for m := cand; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			if !flat(sc.f[i-1], sc.f[i], f, checkNodes[i]-checkNodes[i-1]) || skip != nil && skip(i, f) {
				continue
			}
			done |= 1 << i
			if t, ft, _ := p.interiorCell(i, sc.rootIn(i), f); ft > f {
				tau, f, again = t, ft, true
			}
		}
		if above == 0 {
			continue
		}
		// The end intervals (done bits supportNodes + 1 and + 2).
		first, last := bits.TrailingZeros64(sc.scanned), 63-bits.LeadingZeros64(sc.scanned)
		for k, i := range [2]int{first, last} {
			bit := uint64(1) << (supportNodes + 1 + k)
			if done&bit != 0 || above&(1<<i) == 0 {
				continue
			}
			done |= bit
			ti, _, _ := p.tauOfW(checkNodes[i])
			psi, _ := p.evalTau(ti)
			lo, hi, psiLo, psiHi := -sc.bound, ti, -1.0, psi
			if k == 1 {
				lo, hi, psiLo, psiHi = ti, sc.bound, psi, 1
			}
			if t, ft, _ := p.interiorBest(lo, hi, psiLo, psiHi, math.NaN(), f); ft > f {
				tau, f, again = t, ft, true
			}
		}
	}
	return tau, f
}

// rootIn is the root solved in the interval ending at height i, NaN if
// none.
func (sc *scanRecord) rootIn(i int) float64 {
	if sc.rooted&(1<<i) == 0 {
		return math.NaN()
	}
	return sc.root[i]
}

// interiorCell is interiorBest in the interval between the scan heights
// i − 1 and i.
func (p *supportProblem) interiorCell(i int, known, f float64) (tau, fbest, fsample float64) {
	lo, _, _ := p.tauOfW(checkNodes[i-1])
	hi, _, _ := p.tauOfW(checkNodes[i])
	psiLo, _ := p.evalTau(lo)
	psiHi, _ := p.evalTau(hi)
	return p.interiorBest(lo, hi, psiLo, psiHi, known, f)
}

// flatCurv sets the curvature of F below which flat calls an interval
// flat: about 8·flatCurv·|F| (F falls by F”·dw²/8 or more at one end of
// an interval of heights dw wide about a maximum).
const flatCurv = 0.01

// flat reports whether the profile is flat about the value f over an
// interval of heights dw wide with F = flo and fhi at its ends: both ends
// within flatCurv·dw²·|f| of f, or one end above f. A maximum in an
// interval whose profile curves clearly falls by about F”·dw²/8 or more at
// one end; one the scan missed can hide only where it does not.
func flat(flo, fhi, f, dw float64) bool {
	lim := f - flatCurv*dw*dw*math.Abs(f)
	return flo >= lim && fhi >= lim || flo > f || fhi > f
}

// maxCellW is the widest interval between neighbouring scan heights
// (TestMaxCellW), for flatCells' quick test.
const maxCellW = 0.0901

// interiorSamples is the number of heights inside an interval at which
// interiorBest looks for local maxima.
const interiorSamples = 3

// interiorBest looks for the local maxima of F inside the interval (lo,
// hi) of τ, ψ = psiLo at lo and psiHi at hi: ψ at interiorSamples equally
// spaced points brackets them, and each bracket that does not hold known
// (a root already solved; NaN for none) is solved. It returns the best
// maximum above f and its F (NaN and f if none is), and the highest F at
// the samples.
func (p *supportProblem) interiorBest(lo, hi, psiLo, psiHi, known, f float64) (tau, fbest, fsample float64) {
	tau, fbest, fsample = math.NaN(), f, math.Inf(-1)
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return tau, fbest, fsample
	}
	prevT, prevPsi := lo, psiLo
	for j := 1; j <= interiorSamples+1; j++ {
		t, psi := hi, psiHi
		if j <= interiorSamples {
			t = lo + (hi-lo)*float64(j)/(interiorSamples+1)
			var ft float64
			psi, ft = p.evalTau(t)
			fsample = max(fsample, ft)
		}
		if prevPsi < 0 && psi >= 0 && !(prevT <= known && known <= t) {
			r := p.solve(prevT, t, 0.5*(prevT+t))
			if _, fr := p.evalTau(r); fr > fbest {
				tau, fbest = r, fr
			}
		}
		prevT, prevPsi = t, psi
	}
	return tau, fbest, fsample
}

// Support returns the support function h(n) = max over the body of n·x and
// the maximiser x, both in the local frame (n need not be unit; h scales
// with |n|). For a zero or non-finite n it returns h = 0 at the origin.
func (s *Superovoid) Support(n Vec3) (h float64, x Vec3) {
	x, _, _, ok := s.PointWithNormal(n)
	if !ok {
		return 0, Vec3{}
	}
	return n.Dot(x), x
}

// Support returns the support function of the body in the world direction
// n and the world support point.
func (b *Body) Support(n Vec3) (h float64, x Vec3) {
	t := b.Pose.Transform()
	_, xl := b.Shape.Support(t.InvDir(n))
	x = t.Point(xl)
	if !finite3(n) {
		return 0, b.Pose.Position
	}
	return n.Dot(x), x
}
