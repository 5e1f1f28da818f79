package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// exactSupport is the support point of s in local direction n: the closed
// form for superellipsoids, geom's global point with a given normal for
// tapered shapes.
func exactSupport(s *geom.Superovoid, n vec) vec {
	return exactSupportOf(s, n, nil)
}

// exactSupportOf is exactSupport with the solver's analysis of the shape
// (nil: none): the support point of a convex superovoid is found by one
// root search instead of a scan, and a non-convex one's scan reads the
// shape's support table (geom.SupportTable.PointWithNormal: the same
// point, about three times faster).
func exactSupportOf(s *geom.Superovoid, n vec, in *shapeInfo) vec {
	if s.IsSuperellipsoid() && n[0] != 0 && n[1] != 0 && n[2] != 0 {
		return approxSupport(s, n) // exact without taper
	}
	if in != nil && in.convex {
		return s.SupportOfConvex(n)
	}
	if in != nil && in.sup != nil {
		x, _, _, _ := in.sup.PointWithNormal(n)
		return x
	}
	x, _, _, _ := s.PointWithNormal(n)
	return x
}

// nonConvexInfo is the analysis in, for exactSupportOf, when it holds a
// non-convex shape's support table, else nil: gapEnd's supports take the
// table's faster scan but keep the full scan of a convex tapered shape
// (its single root search would move them by rounding).
func nonConvexInfo(in *shapeInfo) *shapeInfo {
	if in != nil && !in.convex && in.sup != nil {
		return in
	}
	return nil
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
	e := sv.exactAscent(pr, n, res)
	c := sv.ascentPair(pr, &e)
	return c, c.valid
}

// ascentEnd is where exactAscent stopped: the direction n, the gap g along
// it, the support points P and Q (relative to a's position) and their
// local points.
type ascentEnd struct {
	n, P, Q, lp, lq vec
	g               float64
}

// exactAscent is supportRefine's climb of the gap over directions.
func (sv *Solver) exactAscent(pr *pair, n vec, res *Result) ascentEnd {
	// P and Q are kept relative to a's position (Q from the difference of
	// the positions): far from the origin, world points would round the
	// gap to the positions' digits (1e-8 at 1e8) and stall the ascent there
	// (TestDistanceFarFromOrigin: 4.4e-9 off at 1.3e8).
	gapAt := func(n vec) (float64, vec, vec, vec, vec) {
		e := gapEnd(pr, n)
		return e.g, e.P, e.Q, e.lp, e.lq
	}
	g, P, Q, lp, lq := gapAt(n)
	step := 0.1
	// Projected gradient ascent to get close, then Newton.
	for it := 0; it < 200 && step > 1e-7; it++ {
		d := Q.Sub(P)
		t := d.Sub(n.Mul(n.Dot(d)))
		// (The ends here and below are relative to the pair's size: as
		// absolute lengths, 1e-14 and 1e-13, they ended the climb of
		// bodies 1e-14 in size at once, and TestQueryScaleInvariantAscent's
		// pair was answered 4.8e-4 of its size off there.)
		if t.Len() < 1e-14*charLength(pr) {
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
		if math.Hypot(g1, g2) < 1e-13*charLength(pr) {
			break
		}
		det := h11*h22 - h12*h12
		var s1, s2 float64
		if h11 < 0 && det > 0 {
			s1 = -(h22*g1 - h12*g2) / det
			s2 = -(-h12*g1 + h11*g2) / det
		} else {
			// A short gradient step. g1, g2 are lengths and s1, s2 angles:
			// rowWeight (1/L as a power of two, 1 for unit-sized bodies)
			// keeps the angle the same at any size.
			k := 1e-3 * rowWeight(charLength(pr))
			s1, s2 = k*g1, k*g2
		}
		m := n.Add(e1.Mul(s1)).Add(e2.Mul(s2)).Normalize()
		gm, Pm, Qm, lpm, lqm := gapAt(m)
		if !(gm >= g) {
			break
		}
		n, g, P, Q, lp, lq = m, gm, Pm, Qm, lpm, lqm
	}
	return ascentEnd{n: n, P: P, Q: Q, lp: lp, lq: lq, g: g}
}

// gapEnd is the gap along unit n with exact supports (exactAscent's
// evaluation), P and Q relative to a's position.
func gapEnd(pr *pair, n vec) ascentEnd {
	dT := pr.tb.T.Sub(pr.ta.T)
	lp := exactSupportOf(pr.a, pr.ta.InvDir(n), nonConvexInfo(pr.ia))
	lq := exactSupportOf(pr.b, pr.tb.InvDir(n.Mul(-1)), nonConvexInfo(pr.ib))
	P, Q := pr.ta.Dir(lp), pr.tb.Dir(lq).Add(dT)
	return ascentEnd{n: n, P: P, Q: Q, lp: lp, lq: lq, g: n.Dot(Q.Sub(P))}
}

// ridgeClimb goes on with a climb that exactAscent left with the bounds
// apart (|Q − P| − g above pairTol) on a ridge of the gap: two pointy
// bodies resting tip or crease against crease, where the gap falls
// steeply across the ridge (curvature −0.7 on pair 1133) and rises along
// it by about 1e-8 a radian, so that gradient steps zigzag and the
// finite-difference Newton step, its Hessian nearly singular, stops 0.06
// to 0.3 rad short (TestTouchingPointyTips' pairs 1133 to 1579). Each
// step is Newton's across the ridge (the Hessian's most negative
// eigenvector) and a trust length along it, then up to three Newton steps
// back onto the ridge; it is kept when the gap rises. It aims at 1e-3 of
// pairTol, closer than the bounds' test needs, since a pair classify
// accepts is answered |Q − P| apart or deep.
func ridgeClimb(pr *pair, e ascentEnd, res *Result) ascentEnd {
	// Only ends nearly touching (bounds within ridgeBand of the pair's
	// size): no other end can ever meet them, and on a deep overlap left
	// max_iterations a climb crept on for every iteration, each a dozen
	// exact supports (review: six such battery pairs took 12-64 ms cold
	// instead of 4-17 ms).
	if !(e.Q.Sub(e.P).Len()-e.g <= ridgeBand*charLength(pr)) {
		return e
	}
	aim := 1e-3 * pairTol(pr)
	tau := 1e-3
	for it := 0; it < ridgeSteps && tau > 1e-10; it++ {
		if e.Q.Sub(e.P).Len()-e.g <= aim {
			break
		}
		res.Iterations++
		t1, t2 := geom.TangentFrame(e.n)
		at := func(x, y float64) float64 {
			return gapEnd(pr, e.n.Add(t1.Mul(x)).Add(t2.Mul(y)).Normalize()).g
		}
		const h = 1e-5 // (exactAscent's)
		h11 := (at(h, 0) - 2*e.g + at(-h, 0)) / (h * h)
		h22 := (at(0, h) - 2*e.g + at(0, -h)) / (h * h)
		h12 := (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
		mid, rad := (h11+h22)/2, math.Hypot((h11-h22)/2, h12)
		l1, l2 := mid-rad, mid+rad
		if !(l1 < 0) {
			break // (no ridge: nothing across it to solve)
		}
		// u1 across the ridge (l1's eigenvector), u2 along it.
		var u1 vec
		if h11 <= h22 {
			u1 = t1.Mul(l1 - h22).Add(t2.Mul(h12))
		} else {
			u1 = t1.Mul(h12).Add(t2.Mul(l1 - h11))
		}
		if !(u1.Len() > 0) {
			u1 = t1
		}
		u1 = u1.Normalize()
		u2 := e.n.Cross(u1)
		d := e.Q.Sub(e.P) // the gradient
		along := math.Copysign(tau, d.Dot(u2))
		if l2 < 0 && math.Abs(d.Dot(u2)/l2) < tau {
			along = -d.Dot(u2) / l2
		}
		c := gapEnd(pr, e.n.Add(u1.Mul(-d.Dot(u1)/l1)).Add(u2.Mul(along)).Normalize())
		for k := 0; k < 3; k++ {
			w := u1.Sub(c.n.Mul(c.n.Dot(u1)))
			c2 := gapEnd(pr, c.n.Add(w.Mul(-c.Q.Sub(c.P).Dot(w)/l1)).Normalize())
			if !(c2.g > c.g) {
				break
			}
			c = c2
		}
		if c.g > e.g {
			e = c
			tau = min(2*tau, maxRidgeStep)
		} else {
			tau /= 4
		}
	}
	return e
}

// ridgeClimb's limits: the bounds' gap (over the pair's size) below which
// a climb's end is worth continuing (the five pairs it answers ended 2e-8
// to 7e-4 apart), its steps (they need 12 to 45 in all), and the longest
// move along the ridge, in radians (a trust length doubled on every kept
// step reached 1e57 on a creeping climb).
const (
	ridgeBand    = 1e-2
	ridgeSteps   = 60
	maxRidgeStep = 0.25
)

// ascentPair classifies the pair where exactAscent stopped.
func (sv *Solver) ascentPair(pr *pair, e *ascentEnd) candidate {
	g, P, Q, lp, lq := e.g, e.P, e.Q, e.lp, e.lq
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
	return c
}

// touchingPair answers a pair from the supports along n alone, when they
// pin it: for any unit n the signed distance lies between the gap g along
// n and the support points' distance |Q − P| (separated, the bodies are at
// least as far apart as their hulls, at least g, and P and Q are |Q − P|
// apart; overlapping, translating b by −g along n separates the hulls,
// hence the bodies, and a signed distance ≤ 0 ≤ |Q − P|). When the two are
// within pairTol: for g > 0 the bodies are separated and |Q − P| is their
// distance, proven as the hull certificate proves (the gap between the
// exact support planes); for g ≤ 0 the sign is not proven (the bodies can
// be up to |Q − P| apart or up to −g deep), and the answer is 0, touching,
// within pairTol either way, certified for a convex pair as the polytope
// certifies a touching one (epaCheck), never for a non-convex one. Its
// normals are ±n, a normal of each hull at its point (dual, as GJK's).
// Only for pairs that no Newton start could converge (touchRescue): two
// pointy bodies resting tip to tip, whose normals turn through tens of
// degrees within 1e-10 of the tips (TestTouchingPointyPairs).
func touchingPair(pr *pair, e *ascentEnd) (candidate, bool) {
	d := e.Q.Sub(e.P).Len()
	if !(d-e.g <= pairTol(pr)) {
		return candidate{}, false
	}
	c := candidate{valid: true, converged: true, separated: e.g > 0, method: Implicit, dual: true, touch: true}
	if c.separated {
		c.sd = d
		c.certChecked, c.certified = true, true
	} else {
		c.mtdCertified = pr.convex
	}
	c.lp, c.lq = e.lp, e.lq
	c.x = [6]float64{c.lp[0], c.lp[1], c.lp[2], c.lq[0], c.lq[1], c.lq[2]}
	c.P, c.Q = pr.ta.Point(c.lp), pr.tb.Point(c.lq)
	c.nP, c.nQ = e.n, e.n.Mul(-1)
	return c, true
}
