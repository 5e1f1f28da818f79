package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// exactSupport is the support point of s in local direction n: the closed
// form for superellipsoids, geom's global point with a given normal for
// tapered shapes.
func exactSupport(s *geom.Superovoid, n vec) vec {
	return exactSupportOf(s, n, false)
}

// exactSupportOf is exactSupport with the shape's convexity known (the
// solver's analysis): the support point of a convex superovoid is found
// by one root search instead of a scan.
func exactSupportOf(s *geom.Superovoid, n vec, convex bool) vec {
	if s.IsSuperellipsoid() && n[0] != 0 && n[1] != 0 && n[2] != 0 {
		return approxSupport(s, n) // exact without taper
	}
	if convex {
		return s.SupportOfConvex(n)
	}
	x, _, _, _ := s.PointWithNormal(n)
	return x
}

// supportRefine maximises gap(n) = −h_a(n) − h_b(−n) over unit n directly,
// with exact supports: Newton on the sphere with the exact gradient Q − P
// and a finite-difference Hessian. It is the last resort where the
// common-normal Newton schemes stall: pointy shapes (e near 2), whose
// surface normal turns abruptly, and nearly parallel flat faces (e near 0),
// where the common normal is nearly undetermined; the support map, the
// inverse of the normal map, stays well behaved. Its answer is the hull
// distance, which classify and the certificate then check on the bodies.
// Returns false when the ascent fails.
func (sv *Solver) supportRefine(pr *pair, n vec, res *Result) (candidate, bool) {
	// P and Q are kept relative to a's position (Q from the difference of
	// the positions): far from the origin, world points would round the
	// gap to the positions' digits (1e-8 at 1e8) and stall the ascent there
	// (TestDistanceFarFromOrigin: 4.4e-9 off at 1.3e8).
	dT := pr.tb.T.Sub(pr.ta.T)
	gapAt := func(n vec) (float64, vec, vec, vec, vec) {
		lp := exactSupport(pr.a, pr.ta.InvDir(n))
		lq := exactSupport(pr.b, pr.tb.InvDir(n.Mul(-1)))
		P, Q := pr.ta.Dir(lp), pr.tb.Dir(lq).Add(dT)
		return n.Dot(Q.Sub(P)), P, Q, lp, lq
	}
	g, P, Q, lp, lq := gapAt(n)
	step := 0.1
	// Projected gradient ascent to get close, then Newton.
	for it := 0; it < 200 && step > 1e-7; it++ {
		d := Q.Sub(P)
		t := d.Sub(n.Mul(n.Dot(d)))
		if t.Len() < 1e-14 {
			break
		}
		m := n.Add(t.Normalize().Mul(step)).Normalize()
		g2, P2, Q2, lp2, lq2 := gapAt(m)
		if g2 > g {
			n, g, P, Q, lp, lq = m, g2, P2, Q2, lp2, lq2
			step *= 1.5
		} else {
			step *= 0.3
		}
	}
	for it := 0; it < 20; it++ {
		res.Iterations++
		e1, e2 := geom.TangentFrame(n)
		at := func(x, y float64) float64 {
			v, _, _, _, _ := gapAt(n.Add(e1.Mul(x)).Add(e2.Mul(y)).Normalize())
			return v
		}
		const h = 1e-5
		h11 := (at(h, 0) - 2*g + at(-h, 0)) / (h * h)
		h22 := (at(0, h) - 2*g + at(0, -h)) / (h * h)
		h12 := (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
		d := Q.Sub(P)
		g1, g2 := d.Dot(e1), d.Dot(e2)
		if math.Hypot(g1, g2) < 1e-13 {
			break
		}
		det := h11*h22 - h12*h12
		var s1, s2 float64
		if h11 < 0 && det > 0 {
			s1 = -(h22*g1 - h12*g2) / det
			s2 = -(-h12*g1 + h11*g2) / det
		} else {
			s1, s2 = 1e-3*g1, 1e-3*g2
		}
		m := n.Add(e1.Mul(s1)).Add(e2.Mul(s2)).Normalize()
		gm, Pm, Qm, lpm, lqm := gapAt(m)
		if !(gm >= g) {
			break
		}
		n, g, P, Q, lp, lq = m, gm, Pm, Qm, lpm, lqm
	}
	var o newtonOutcome
	// Converged only where the bounds meet: the gap along n is at most the
	// hulls' distance and |Q − P| at least it, so their difference bounds
	// the error (for an overlap, of the depth along n). The ascent can stop
	// short, on a pointy ridge, with the two 1.7e-7 apart, and the pair was
	// answered converged and certified that far from GJK's distance (review
	// of 273c12f; TestSupportRefineHonest).
	o.converged = Q.Sub(P).Len()-math.Abs(g) <= pairTol(pr)
	o.localP, o.localQ = lp, lq
	c := sv.classify(Implicit, pr, &o)
	// The witness points are support points of n, so the common normal holds
	// up to the remaining gradient; classify checks it to 1e-6 relative.
	// When it fails (the ascent stalled on a kink of gap, where a non-convex
	// shape's support jumps across a dent), the points are still the seeds
	// the caller polishes with Newton.
	c.lp, c.lq = lp, lq
	if !c.valid {
		if t, ok := touchingPair(pr, n, g, P, Q, lp, lq); ok {
			return t, true
		}
	}
	return c, c.valid
}

// touchingPair answers a pair from the supports along n alone, when they
// pin it: for any unit n the signed distance lies between the gap g along
// n and the support points' distance |Q − P| (separated, the bodies are at
// least as far apart as their hulls, at least g, and P and Q are |Q − P|
// apart; overlapping, translating b by −g along n separates the hulls,
// hence the bodies, and a signed distance ≤ 0 ≤ |Q − P|), so when the two
// are within pairTol the answer is proven: |Q − P| for a separated pair
// (g > 0), the pair's own distance, and g for an overlap. classify refuses
// such a pair when a witness is a pointy tip, whose normal turns through
// tens of degrees within 1e-10 of it: two pointy bodies resting tip to tip
// ended failed or max_iterations (TestTouchingPointyPairs). Its normals
// are ±n, a normal of each hull at its point (dual, as GJK's).
func touchingPair(pr *pair, n vec, g float64, P, Q, lp, lq vec) (candidate, bool) {
	d := Q.Sub(P).Len()
	if !(d-g <= pairTol(pr)) {
		return candidate{}, false
	}
	c := candidate{valid: true, converged: true, separated: g > 0, sd: g, method: Implicit, dual: true}
	if c.separated {
		c.sd = d
	}
	c.lp, c.lq = lp, lq
	c.x = [6]float64{lp[0], lp[1], lp[2], lq[0], lq[1], lq[2]}
	// (P and Q are relative to a's position; the candidate's are world
	// points.)
	c.P, c.Q = pr.ta.Point(lp), pr.tb.Point(lq)
	c.nP, c.nQ = n, n.Mul(-1)
	c.certChecked, c.certified = true, true
	c.mtdCertified = !c.separated
	return c, true
}
