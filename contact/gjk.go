package contact

import (
	"math"
)

// The common-normal equations need a surface normal at each witness point.
// Between a box-like face (e ≈ 0.1) and a pointy tip or edge (e near 2)
// every Newton start can stall: the normal turns abruptly at the tip, and
// the support point of a nearly flat face swings across it as the
// direction tilts, so the last resort's climb of the gap (supportRefine)
// reaches the top of gap(n) but not a pair whose points are its support
// points. The distance of two separated convex bodies is also the smallest
// norm of their Minkowski difference C = A − B, which GJK (Gilbert, Johnson
// and Keerthi) finds from support points alone: a simplex of support
// points of C shrinks onto the point of C nearest the origin. Faces and
// tips, the hard cases for Newton, are what it handles best (a polytope's
// are found exactly).

// gjkVertex is a support point of C with the support points of a and b
// (local frames) it came from.
type gjkVertex struct {
	w      vec // R_a·lp − R_b·lq − (T_b − T_a)
	lp, lq vec
}

// gjkTol is GJK's stopping gap between its bounds, relative to pairTol.
const gjkTol = 0.01

// gjkMaxIter bounds the GJK iterations (each one support point of each
// body).
const gjkMaxIter = 400

// gjkSeparated finds the distance of a separated pair of convex bodies by
// GJK with exact supports, and proves it: the witness points (convex
// combinations of support points, inside the bodies) are dist apart, and
// the gap along their direction, a lower bound of the distance, is within
// tol (1e-11 of the bodies' size) of dist. So dist is the distance to
// within tol, and neither point lies deeper than tol inside its body (a
// point δ deep could move δ towards the other one). It returns false when
// the bodies touch or overlap (the origin is in C) or the bounds do not
// meet. The pair must carry its shapes' analyses (both convex).
func gjkSeparated(pr *pair) (candidate, bool) {
	if c, proven := gjkHulls(pr); proven {
		return c, true
	}
	return candidate{}, false
}

// gjkStallWindow is the number of GJK iterations over which |v| must fall
// by more than GJK's tolerance; otherwise the run has stalled (gjkHulls).
const gjkStallWindow = 32

// gjkHulls is gjkSeparated's GJK, which also returns the pair it ends at
// where the bounds do not meet (proven false): a valid candidate, not
// converged, two points of the hulls whose distance bounds the hulls'
// from above where the hulls are apart, nothing more (a stalled run's
// pair can belong to hulls that overlap). Between two nearly parallel
// faces beside pointy ridges (e 1.9) GJK can stall: on TestGJKStalled's
// pair |v| stayed at 1.2e-9 for 360 iterations (a scratch trace), each
// new support point too far off to the side to shorten it, while the gap
// along v stayed −2.1e-8. A run whose |v| falls by no more than its
// tolerance in gjkStallWindow iterations stops there. c is invalid where
// GJK finds the origin within its tolerance of C (the hulls touch or
// overlap).
func gjkHulls(pr *pair) (c candidate, proven bool) {
	// The answer is the upper bound, so the bounds must meet well within
	// the accuracy promised (1e-9 of the bodies' size).
	tol := gjkTol * pairTol(pr)
	dT := pr.tb.T.Sub(pr.ta.T)
	support := func(n vec) gjkVertex {
		w, lp, lq := diffSupport(pr, n)
		return gjkVertex{w: w, lp: lp, lq: lq}
	}
	n := dT
	if n.Len() == 0 {
		n = vec{0, 0, 1}
	}
	var s [4]gjkVertex
	var lam [4]float64
	s[0], lam[0] = support(n.Normalize()), 1
	k := 1
	v := s[0].w
	stallRef := math.Inf(1)
	for it := 0; it < gjkMaxIter; it++ {
		vl := v.Len()
		if !(vl > tol) {
			return candidate{}, false // touching or overlapping: not for GJK
		}
		if it%gjkStallWindow == 0 {
			if !(stallRef-vl > tol) {
				break
			}
			stallRef = vl
		}
		// n points from a to b; the gap along it bounds the distance from
		// below (math.md §3), |v| from above.
		n = v.Mul(-1 / vl)
		w := support(n)
		if lower := -n.Dot(w.w); vl-lower <= tol {
			break
		}
		if k == 4 {
			// A tetrahedron needed whole for its nearest point holds the
			// origin, which the test above would have caught: only
			// rounding gets here, and giving up is safe.
			return candidate{}, false
		}
		// A support point already in the simplex makes no progress.
		// (Within rounding of the bodies' size: with 1e-15·max(1, |v|)
		// the support points of bodies below about 1e-10 passed for
		// duplicates before the bounds met, and GJK gave up on 110 of
		// 110 convex separated pairs scaled by 1e-14;
		// TestQueryScaleInvariance.)
		dup := false
		for i := 0; i < k && !dup; i++ {
			dup = s[i].w.Sub(w.w).Len() <= 1e-15*max(pr.maxA, pr.maxB, vl)
		}
		if dup {
			break
		}
		s[k] = w
		k++
		var ok bool
		k, v, ok = minNormSimplex(&s, &lam, k)
		if !ok {
			return candidate{}, false
		}
	}
	// Witness points: the same convex combination of the support points
	// (affine maps keep it, so in the local frames too).
	var lp, lq vec
	for i := 0; i < k; i++ {
		lp = lp.Add(s[i].lp.Mul(lam[i]))
		lq = lq.Add(s[i].lq.Mul(lam[i]))
	}
	d := pr.tb.Dir(lq).Sub(pr.ta.Dir(lp)).Add(dT)
	dist := d.Len()
	if !(dist > tol) {
		return candidate{}, false
	}
	n = d.Mul(1 / dist)
	lower := -n.Dot(support(n).w)
	proven = dist-lower <= tol
	c = candidate{valid: true, separated: true, converged: proven, sd: dist, method: Implicit, dual: true}
	c.lp, c.lq = lp, lq
	c.x = [6]float64{lp[0], lp[1], lp[2], lq[0], lq[1], lq[2]}
	c.P, c.Q = pr.ta.Point(lp), pr.tb.Point(lq)
	c.nP, c.nQ = n, n.Mul(-1)
	c.certChecked, c.certified = true, proven
	return c, proven
}

// minNormSimplex replaces the k points of s by the smallest subset whose
// convex hull holds the point of their hull nearest the origin, and returns
// it with its barycentric weights (lam) and that point. Every subset is
// tried (at most 15): for a last resort, robustness beats Johnson's
// recursion. ok is false when no subset gives a finite point.
func minNormSimplex(s *[4]gjkVertex, lam *[4]float64, k int) (int, vec, bool) {
	bestN := math.Inf(1)
	var best vec
	var bestMask int
	var bestLam [4]float64
	for mask := 1; mask < 1<<k; mask++ {
		var idx [4]int
		m := 0
		for i := 0; i < k; i++ {
			if mask&(1<<i) != 0 {
				idx[m] = i
				m++
			}
		}
		// Minimise |w0 + Σ μ_j (w_j − w0)| over μ: the Gram system.
		w0 := s[idx[0]].w
		var e [3]vec
		for j := 1; j < m; j++ {
			e[j-1] = s[idx[j]].w.Sub(w0)
		}
		var G [6][6]float64
		var r [6]float64
		for a := 0; a < m-1; a++ {
			for b := 0; b < m-1; b++ {
				G[a][b] = e[a].Dot(e[b])
			}
			r[a] = -e[a].Dot(w0)
		}
		var mu [6]float64
		if m > 1 {
			var ok bool
			mu, _, ok = solve(&G, &r, m-1)
			if !ok {
				continue
			}
		}
		l0 := 1.0
		x := w0
		for j := 0; j < m-1; j++ {
			l0 -= mu[j]
			x = x.Add(e[j].Mul(mu[j]))
		}
		if l0 < -1e-12 {
			continue
		}
		inside := true
		for j := 0; j < m-1; j++ {
			if mu[j] < -1e-12 {
				inside = false
			}
		}
		if !inside {
			continue
		}
		if xn := x.Len(); xn < bestN {
			bestN, best, bestMask = xn, x, mask
			bestLam = [4]float64{}
			bestLam[0] = max(l0, 0)
			for j := 0; j < m-1; j++ {
				bestLam[j+1] = max(mu[j], 0)
			}
		}
	}
	if math.IsInf(bestN, 1) {
		return k, vec{}, false
	}
	var out [4]gjkVertex
	m := 0
	for i := 0; i < k; i++ {
		if bestMask&(1<<i) != 0 {
			out[m] = s[i]
			m++
		}
	}
	*s = out
	sum := 0.0
	for j := 0; j < m; j++ {
		sum += bestLam[j]
	}
	for j := 0; j < 4; j++ {
		lam[j] = 0
		if j < m {
			lam[j] = bestLam[j] / sum
		}
	}
	return m, best, true
}
