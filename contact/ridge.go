package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// A pointy shape (e ≥ 1.6) is nearly a polyhedron: flat-ish faces joined by
// sharp ridges along its coordinate planes (x = 0 and y = 0 for a pointy e1,
// the equator z = 0 for a pointy e2) that meet in tips, and a closest pair
// lies on a ridge or a tip more often than not. Where the shape is also
// tapered into a non-convex one, that ridge or tip can lie where the convex
// hull bridges over the body, and no support seed (they are all on the
// hulls) starts near it: the query answered a pair 0.17 apart where a tip
// and a ridge were 6.4e-3 apart, or failed (TestRidgeSearch). ridgeSearch
// seeds Newton on the ridges themselves.

// ridgeSamples is the number of steps along each half-profile of a ridge
// (the equator gets four times as many: it is the four halves' length).
const ridgeSamples = 24

// ridgeStarts is the number of ridge samples polished: the nearest to the
// other surface of each shape's ridgeRanked nearest by the radial estimate
// and the tips.
const ridgeStarts = 6

// ridgeRanked is the number of each shape's ridge samples, nearest by the
// radial estimate, whose exact feet on the other surface are computed (the
// tips' feet are computed besides, whatever their rank). The radial
// estimate is poor for tapered and elongated shapes: the samples that led
// to the closest pairs of a sweep's misses (a section's corner against a
// face) ranked 16th and 30th by it and first by their feet
// (TestRidgeSearchRanking).
const ridgeRanked = 32

// tipGridAzimuths and tipGridZeniths are the surface grid in which no point
// may lie inside the other body before a tip's pair answers (tipPair):
// four times overlapWitness's.
const (
	tipGridAzimuths = 48
	tipGridZeniths  = 24
)

// ridgeIter caps each polish of a ridge sample (the chart's own cap: a
// tip 6.4e-3 from a ridge took 30 to 60 iterations from its sample, the
// chart's exponents 5.7 and 17; TestRidgeSearch's pair moved closer).
const ridgeIter = cuspIter

// pointy reports whether a shape has a pointy exponent, one cuspPolish
// charts (2/e below cuspMaxP).
func pointy(s *geom.Superovoid) bool {
	return 2/s.Eps[0] < cuspMaxP || 2/s.Eps[1] < cuspMaxP
}

// needsRidgeSearch reports whether the query's best pair so far leaves
// room for a closer pair on a pointy shape's ridges: none was found, it did
// not converge, or it is a separated pair that the support-plane certificate
// does not prove global. (A separated pair of convex shapes is proven
// already; an overlap is left to the stages before.)
func needsRidgeSearch(pr *pair, best *candidate) bool {
	if !pointy(pr.a) && !pointy(pr.b) {
		return false
	}
	if !best.valid || !best.converged {
		return true
	}
	return best.separated && !pr.convex && !hullCertified(pr, best)
}

// ridgeSeed is a sample on one body's ridge (side 0: a, 1: b) with its
// local point, the same point in the other body's frame, and its distance
// from the other surface: first the radial estimate (negative inside),
// then, for the best ranked, the distance to its foot there.
type ridgeSeed struct {
	d       float64
	side    int
	own, in vec
	foot    vec
	// exact: foot passed projectPoint's test (a stationary point of the
	// distance from own, not one on the ray from the centre); tip: own
	// is one of its shape's poles or section's corners (a corner is a tip
	// where e2 is pointy too, else a point of the ridge on x = 0 or y = 0).
	exact, tip bool
}

// ridgeSearch samples the ridges of each pointy shape of the pair, ranks
// each shape's samples by their radial distance from the other body,
// computes the feet on the other surface of each shape's best ridgeRanked
// and of the tips (the poles and the section's corners; projectPoint, else
// along the ray from the centre), and solves from the ridgeStarts whose
// feet are nearest (inside the other body first): the sample and its foot,
// in the chart of the pointy coordinates (cuspPolish; the sample's own
// coordinate on its ridge's plane always needs it), and, where that keeps
// nothing, from the same pair walked down by alternating projections. A
// converged pair replaces best when it improves on it, or refutes a
// separated best by a touch (ridgeTakes); it reports whether one did, and,
// when nothing is valid, the unconverged stand-in below (invalid if none).
func (sv *Solver) ridgeSearch(m Method, pr *pair, best *candidate, res *Result) (replaced bool, standIn candidate) {
	// Each shape's samples are ranked apart: the other's, more of them or
	// better placed for the estimate, can fill the places (a plate's ray
	// samples put a prism's rim, whose sample led to the closest pair,
	// out of a shared ranking: TestRidgeSearchRankedApart).
	var ranked [2][ridgeRanked]ridgeSeed
	var nr [2]int
	keep := func(s ridgeSeed) {
		t, n := &ranked[s.side], &nr[s.side]
		if *n == ridgeRanked && !(s.d < t[*n-1].d) {
			return
		}
		if *n < ridgeRanked {
			*n++
		}
		k := *n - 1
		for k > 0 && t[k-1].d > s.d {
			t[k] = t[k-1]
			k--
		}
		t[k] = s
	}
	// The tips are ranked by their feet whatever their radial estimate,
	// which can put a tip near a flat body's face behind every other
	// sample: from the centre of a plate 0.22 thick the ray through a tip
	// 0.168 from its face meets the surface far from the foot, and the tip
	// ranked below the 32 kept (TestRidgeSearchRanksPoles); a thin shape's
	// corner 0.3721 from a long prism had the estimate 0.68, against 0.40
	// for its other corner's samples, 0.3836 away (TestRidgeSearchCorners).
	// They are kept after the ranked samples rather than in their last
	// places, which can hold the sample that leads to the closest pair (a
	// section's corner once ranked 30th: TestRidgeSearchRanking's pair).
	var tips [12]ridgeSeed
	nTips := 0
	for side := 0; side < 2; side++ {
		s, o, ts, to := pr.side(side)
		p1, p2 := 2/s.Eps[0] < cuspMaxP, 2/s.Eps[1] < cuspMaxP
		sample := func(q1, q2 float64, tip bool) {
			x := s.Point(q1, q2)
			in := to.InvPoint(ts.Point(x))
			if d, ok := o.RadialDistance(in); ok && !math.IsNaN(d) {
				sd := ridgeSeed{d: d, side: side, own: x, in: in, tip: tip}
				keep(sd)
				if tip && nTips < len(tips) {
					tips[nTips] = sd
					nTips++
				}
			}
		}
		if !p1 && !p2 {
			continue
		}
		// The poles, tips where the ridges of x = 0 and y = 0 meet (e1)
		// or the profile's own (e2): once each.
		sample(0, -math.Pi/2, true)
		sample(0, math.Pi/2, true)
		if p1 {
			// The ridges on x = 0 and y = 0: four half-profiles between
			// the poles, their equator points (the section's corners,
			// ranked as the poles are) included. Evenly in the latitude,
			// and, where the profile is box-like (e2 < 1), also along
			// evenly spaced rays from the centre: the latitude's steps
			// leave the side wall between the equator and 0.8 of the
			// height unsampled at e2 = 0.1 (TestRidgeSearchRays).
			for _, az := range [4]float64{0, math.Pi / 2, math.Pi, -math.Pi / 2} {
				for k := 1; k < ridgeSamples; k++ {
					th := -math.Pi/2 + math.Pi*float64(k)/ridgeSamples
					sample(az, th, 2*k == ridgeSamples)
					if q := rayParam(th, s.Eps[1]); s.Eps[1] < 1 && math.Abs(q-th) > 1e-9 {
						sample(az, q, false) // (not the equator's nor the diagonals', the same points)
					}
				}
			}
		}
		if p2 {
			// The equator, but for the corners the half-profiles have;
			// along rays too where the section is box-like.
			for k := 0; k < 4*ridgeSamples; k++ {
				if p1 && k%ridgeSamples == 0 {
					continue
				}
				th := -math.Pi + 2*math.Pi*float64(k)/(4*ridgeSamples)
				sample(th, 0, false)
				if q := rayParam(th, s.Eps[0]); s.Eps[0] < 1 && math.Abs(q-th) > 1e-9 {
					sample(q, 0, false)
				}
			}
		}
	}
	var top [2*ridgeRanked + 12]ridgeSeed // (and up to twelve poles and corners after them)
	nt := copy(top[:], ranked[0][:nr[0]])
	nt += copy(top[nt:], ranked[1][:nr[1]])
	// Tips ranked out follow the ranked samples.
	for _, tp := range tips[:nTips] {
		found := false
		for i := 0; i < nt && !found; i++ {
			found = top[i].tip && top[i].side == tp.side && top[i].own == tp.own
		}
		if !found {
			top[nt] = tp
			nt++
		}
	}
	// Re-rank by the exact distance to the foot (a sample inside the other
	// body keeps its negative estimate: it ranks first).
	for i := 0; i < nt; i++ {
		sd := &top[i]
		o, to, ts := pr.b, &pr.tb, &pr.ta
		if sd.side == 1 {
			o, to, ts = pr.a, &pr.ta, &pr.tb
		}
		sd.foot, sd.exact = ridgeFoot(o, sd.in)
		if sd.d > 0 {
			if f, ok := o.Residual(sd.foot); ok && math.Abs(f) <= 1e-9 {
				sd.d = to.Point(sd.foot).Sub(ts.Point(sd.own)).Len()
			}
		}
	}
	for i := 1; i < nt; i++ { // (insertion sort: nt ≤ 76)
		for k := i; k > 0 && top[k-1].d > top[k].d; k-- {
			top[k-1], top[k] = top[k], top[k-1]
		}
	}
	tol := pairTol(pr)
	walkSD, walkP, walkQ := math.Inf(1), vec{}, vec{} // (the nearest pair a walk reached)
	for i := 0; i < nt && i < ridgeStarts; i++ {
		sd := &top[i]
		lp, lq := sd.own, sd.foot
		if sd.side == 1 {
			lp, lq = sd.foot, sd.own
		}
		proven := pr.overlapProven // (before this sample's runs: see ridgeTakes)
		c, ok := sv.cuspPolishIter(pr, lp, lq, res, ridgeIter, true)
		if !ok {
			// The foot near a ridge of the other shape but not on it,
			// where the chart's coordinate is far from the pair's (a tip
			// 3e-2 from a ridge, the foot 1.9e-3 off it: TestRidgeSearchFoot):
			// again from the foot moved onto that ridge.
			if sd.side == 0 {
				if q, moved := ontoRidges(pr.b, lq); moved {
					c, ok = sv.cuspPolishIter(pr, lp, q, res, ridgeIter, true)
				}
			} else if p, moved := ontoRidges(pr.a, lp); moved {
				c, ok = sv.cuspPolishIter(pr, p, lq, res, ridgeIter, true)
			}
		}
		if ok && ridgeTakes(pr, &c, best, tol, proven) {
			res.Fallback = true
			replaced = true
			continue
		}
		if !sv.noTipStationary {
			if c, ok := tipStationary(m, pr, sd); ok && ridgeTakes(pr, &c, best, tol, pr.overlapProven) {
				res.Fallback = true
				replaced = true
				continue
			}
		}
		if sd.d > 0 {
			// The polish kept nothing (it converged uphill, to a farther
			// critical pair, or stalled) from a sample outside the other
			// body: walked down by alternating projections first, then
			// polished in the chart, when the walk gets below best (or
			// nothing valid was found yet). A caved prism's equator corner
			// 0.2135 from a box-like shape, whose polish converged 0.2203
			// apart, walked down to the crossing of the two shapes' ridges,
			// 0.2081 (TestRidgeSearchWalk, whose pair a ray sample reaches
			// directly since the rays joined); a sample 0.2074 apart, farther
			// than best's unconverged 0.2072, to the crossing 0.1992 apart
			// (TestRidgeSearchRays); and a tip 3.0e-5 to 3.0e-7 from a
			// ridge, where no polish from the samples met every equation,
			// converges from the walk's pair (TestRidgeSearchTouching).
			w := surfacePair(pr, lp, lq)
			if w.sd < walkSD && onBoth(pr, w.lp, w.lq) {
				// (Only a pair on both surfaces: where a sample cannot be
				// projected, its foot and the walk keep the sample itself,
				// and the walk's pair can be one point twice, 1e-16 apart,
				// of bodies 0.2 apart: a review's draw of
				// TestSmallBesideLarge.)
				walkSD, walkP, walkQ = w.sd, w.lp, w.lq
			}
			if !best.valid || w.sd < best.cmpSD()-tol {
				proven = pr.overlapProven
				if c, ok := sv.cuspPolishIter(pr, w.lp, w.lq, res, ridgeIter, true); ok && ridgeTakes(pr, &c, best, tol, proven) {
					res.Fallback = true
					replaced = true
				}
			}
		}
	}
	if !sv.noWalkRefutes && best.valid && best.converged && best.separated && !pr.overlapProven && walkSD < best.sd-tol && !hullCertified(pr, best) {
		// A walk reached two surface points closer than the converged
		// best, which so is not the closest pair, and no polish from
		// there converged: the walk's pair answers, unconverged, a true
		// distance nearer the minimum, and the hull rescue runs from
		// there as for any unconverged best (TestWalkRefutes); its answer
		// stands unless it is a separated pair farther than the walk's (a
		// guard, which no test has needed: under better any converged pair
		// beats the walk's, the refuted one too).
		if c, ok := pairAt(m, pr, walkP, walkQ); ok {
			*best = c
			res.Fallback = true
			replaced = true
			if !pr.convex {
				sv.hullRescue(m, pr, best, res)
				if best.separated && best.cmpSD() > c.sd+tol {
					*best = c
				}
			}
		}
	}
	if !best.valid && !pr.convex && !pr.overlapProven && nt > 0 && top[0].d >= 0 && !gridWitness(pr, tipGridAzimuths, tipGridZeniths, nil) {
		// No pair converged, and nothing else was found: the stand-in, for
		// the caller to answer with when its last rescue finds nothing
		// either, is the first tip among the samples polished with its
		// foot on the other surface, else the nearest pair a walk reached,
		// unconverged. Within 1e-13 of a pointy tip the normal sweeps its
		// cone, and a chart run can stop short of every equation's 1e-10
		// there (TestRidgeSearchTouching's tip 3.0e-5 to 3.0e-7 from a
		// ridge failed, claiming an overlap 0.17 deep, before the tip's
		// stand-in, and converges since the walk above). The pair's points
		// lie on the surfaces, so its distance is a true one, at or above
		// the minimum, as an unconverged answer's is, and later stages
		// start from it (the scan's lowSeed finds TestLowSeed's pair 612
		// touching, where the six samples polished, all on a plate's rim,
		// hold no tip since the rim's rays joined them, from the walk's
		// pair). Not where the bodies may overlap, since the pair would
		// claim them separated: an overlap proven, a ridge sample inside
		// the other body, or a point of a fine grid of either surface
		// inside the other (called on its own by a review, the search
		// answered a small sphere sunk into a pointy face beside the tip
		// 0.02 away). A convex pair never gets here without an overlap:
		// GJK answers every separated one.
		for i := 0; i < nt && i < ridgeStarts; i++ {
			if c, ok := tipPair(m, pr, &top[i]); ok {
				return replaced, c
			}
		}
		if !math.IsInf(walkSD, 0) {
			if c, ok := pairAt(m, pr, walkP, walkQ); ok {
				return replaced, c
			}
		}
	}
	return replaced, candidate{}
}

// onBoth reports whether the local points lp and lq lie on a's and b's
// surfaces, to gapOnSurface.
func onBoth(pr *pair, lp, lq vec) bool {
	fa, okA := pr.a.Residual(lp)
	fb, okB := pr.b.Residual(lq)
	return okA && okB && math.Abs(fa) <= gapOnSurface && math.Abs(fb) <= gapOnSurface
}

// tipPair is the unconverged separated candidate of a ridge sample at a
// tip (a pole or a section's corner) and its exact foot on the other
// surface, with the normals along the line between them (at a true tip the
// own normal is the limit of a cone; at a corner that is only a ridge's
// point the pair is still two surface points, a true distance); ok is
// false for any other sample, or when the points coincide or lie inside
// the other body.
func tipPair(m Method, pr *pair, sd *ridgeSeed) (c candidate, ok bool) {
	if !sd.tip || !sd.exact {
		return c, false
	}
	lp, lq := sd.own, sd.foot
	if sd.side == 1 {
		lp, lq = sd.foot, sd.own
	}
	return pairAt(m, pr, lp, lq)
}

// tipStationary is the pair of a tip sample and its exact foot on the
// other surface, converged, where the tip is its own body's support point
// along the line to the foot (to pairTol): the foot's
// normal lies along that line (projectPoint's test) and the line lies in
// the tip's normal cone, so the pair is a stationary pair of the distance,
// which no Newton run reaches (within 1e-13 of a pointy tip the normal
// sweeps its cone). Its normals are the line's (dual, as GJK's: the
// tip's own is the limit of its cone). ok is false for any other sample,
// a sample inside the other body, or a tip its body's support point along
// the line is beyond. A small tapered prism's pointy pole (e 0.05 and 1.9,
// semi-axes 0.006 to 0.058), 0.2055379 from a box-like shape's face, was
// answered 0.2062008 apart, converged, at a corner of its equator, every
// chart run from the pole failing (TestTipStationary).
func tipStationary(m Method, pr *pair, sd *ridgeSeed) (c candidate, ok bool) {
	if !sd.tip || !sd.exact || !(sd.d > 0) {
		return c, false
	}
	if c, ok = tipPair(m, pr, sd); !ok {
		return c, false
	}
	s, _, ts, _ := pr.side(sd.side)
	in := pr.ia
	u := c.Q.Sub(c.P) // from the tip to the foot, in the world
	if sd.side == 1 {
		in, u = pr.ib, u.Mul(-1)
	}
	ul := ts.InvDir(u).Normalize()
	if !(ul.Dot(exactSupportOf(s, ul, in).Sub(sd.own)) <= pairTol(pr)) {
		return candidate{}, false
	}
	c.converged, c.dual = true, true
	return c, true
}

// pairAt is the unconverged separated candidate of the local surface points
// lp, lq, with the normals along the line between them; ok is false when
// the points coincide or lie inside the other body.
func pairAt(m Method, pr *pair, lp, lq vec) (c candidate, ok bool) {
	c = candidate{method: m, valid: true, separated: true}
	if !separatedAt(pr, &c, lp, lq) || math.IsInf(c.sd, 0) {
		return candidate{}, false
	}
	c.surfSD = c.sd
	setUnknowns(m, pr, &c)
	return c, true
}

// setUnknowns sets c's Newton unknowns for scheme m from its local points.
func setUnknowns(m Method, pr *pair, c *candidate) {
	if m == Implicit {
		c.x = [6]float64{c.lp[0], c.lp[1], c.lp[2], c.lq[0], c.lq[1], c.lq[2]}
	} else {
		c.x[0], c.x[1] = pr.a.Params(c.lp)
		c.x[2], c.x[3] = pr.b.Params(c.lq)
	}
}

// ridgeTakes makes the converged pair c best when it improves on it
// (ridgeImproves), or when it is a touch that refutes a separated best
// (touchRefutes), and reports whether it did. (A taken overlapping pair
// leaves the overlap marked proven, as classify marked it, so that no
// farther separated pair replaces it.) A refused touch is no proof of an
// overlap: its run's mark is undone, to proven, the mark before the run
// (pair.witness accepts points 1e-9 inside, and a mark left by a refused
// touch would keep later stages from every separated pair). Unlike
// lowSeed, which undoes every refused run's mark, a refused deeper pair
// keeps its mark: its witness inside the other body proves the overlap
// (TestRidgeTakesMarks).
func ridgeTakes(pr *pair, c, best *candidate, tol float64, proven bool) bool {
	if c.converged && (touchRefutes(pr, c, best) || ridgeImproves(pr, c, best, tol)) {
		*best = *c
		return true
	}
	if c.valid && !c.separated && -c.sd <= touchLim(pr) {
		pr.overlapProven = proven
	}
	return false
}

// touchRefutes reports whether c, a converged overlapping pair no deeper
// than lowTouch of the bodies' size, shows a separated best farther apart
// than that not to be the closest pair: its points, on the surfaces, are
// that close (lowSeed's rule, with the depth bounded: a deeper overlapping
// pair of a non-convex shape need not prove an overlap). A pointy prism's
// corner touching a plate's equator ridge (5e-10 apart by dense sampling),
// polished from the corner's ridge sample to a pair 1.2e-9 deep, was
// refused for a separated pair 0.0337 apart (TestRidgeSearchTouch).
func touchRefutes(pr *pair, c, best *candidate) bool {
	lim := touchLim(pr)
	return c.valid && c.converged && !c.separated && -c.sd <= lim && best.valid && best.separated && best.cmpSD() > lim
}

// ridgeImproves reports whether a converged ridge pair c should replace
// best: clearly better, but never a separated pair where an overlap is
// proven (unless best is separated too, and so no better: bodies touching
// to 7.6e-10 were answered 0.0096 apart, converged, where Newton from the
// scan's lowest point converged 5e-16 apart, refused; TestLowSeedTouching),
// and never one past what an unconverged best already bounds (as
// polishCusp keeps it): a separated best moved onto the surfaces (surfSD)
// is at most that far apart, and an overlap's translation from the
// polytope (an upper bound of the depth) is at most that deep (review of
// the first version).
func ridgeImproves(pr *pair, c, best *candidate, tol float64) bool {
	if c.separated && pr.overlapProven && !(best.valid && best.separated) || !clearlyBetter(c, best, tol) {
		return false
	}
	if best.valid && !best.converged {
		if best.separated && best.surfSD > 0 && c.separated && c.sd > best.surfSD+tol {
			return false
		}
		if !best.separated && !c.separated && c.sd < best.sd-tol {
			return false
		}
	}
	return true
}

// rayParam is the parameter of a superellipse with exponent e, (spow(cos
// p, e), spow(sin p, e)), whose point lies on the ray at angle th from the
// centre: tan p = spow(tan th, 1/e). Evenly spaced rays spread the points
// along a box-like curve's flat sides, where evenly spaced parameters
// bunch them at the corners.
func rayParam(th, e float64) float64 {
	sn, cs := math.Sincos(th)
	return math.Atan2(geom.Spow(sn, 1/e), geom.Spow(cs, 1/e))
}

// ridgeFoot is the foot on surface s of the local point x: the nearest
// point (projectPoint), else the same in the chart of a pointy ridge's
// coordinates (projectPointCharted: a tip 3e-3 from a ridge, off which
// projectPoint's Newton overshoots, TestRidgeSearchTouching), from the
// point on the ray from the centre, else that point itself, else x.
// exact says the foot passed projectPoint's test.
func ridgeFoot(s *geom.Superovoid, x vec) (foot vec, exact bool) {
	if q, ok := projectPoint(s, x, x); ok {
		return q, true
	}
	if r, ok := radialToSurface(s, x); ok {
		if q, ok := projectPointCharted(s, x, r); ok {
			return q, true
		}
		return r, false
	}
	return x, false
}

// ontoRidges moves a surface point of s near the planes of its pointy
// exponents (within cuspZone of the semi-axis, as the chart takes them)
// onto them, and back onto the surface along the ray from the centre; moved
// is false when no coordinate is that near or the ray finds no surface.
func ontoRidges(s *geom.Superovoid, x vec) (y vec, moved bool) {
	y = x
	for j := 0; j < 3; j++ {
		if coordP(s, j) < cuspMaxP && y[j] != 0 && math.Abs(y[j]) < cuspZone*s.A[j] {
			y[j], moved = 0, true
		}
	}
	if !moved {
		return x, false
	}
	y, moved = radialToSurface(s, y)
	return y, moved
}

// ridgeCrossPoints is the most ridge samples one shape has (ridgePoints):
// four half-profiles and the equator.
const ridgeCrossPoints = 4*(ridgeSamples-1) + 4*ridgeSamples

// ridgeCrossStarts is the number of crossing pairs ridgeCrossings polishes.
const ridgeCrossStarts = 3

// ridgePoint is a ridge sample of ridgePoints: its local point, the same
// point in world coordinates, which ridge it lies on (0 to 3 the
// half-profiles, 4 the equator, a closed ring), and whether it lies
// inside the other body.
type ridgePoint struct {
	own, world vec
	ridge      int
	in         bool
}

// ridgePoints samples s's ridges as ridgeSearch does (but for the
// section's corners, which the equator's ring holds as well as the
// half-profiles, so that its neighbours are evenly spaced), in order
// along each ridge, and returns how many it wrote to pts and the index of
// the first on the equator (n if none; the equator comes last); o is the
// other shape, for the samples' in.
func ridgePoints(s, o *geom.Superovoid, ts, to *geom.Transform, pts *[ridgeCrossPoints]ridgePoint) (n, eq int) {
	add := func(q1, q2 float64, ridge int) {
		x := s.Point(q1, q2)
		w := ts.Point(x)
		f, ok := o.Residual(to.InvPoint(w))
		pts[n] = ridgePoint{own: x, world: w, ridge: ridge, in: ok && f < 0}
		n++
	}
	if 2/s.Eps[0] < cuspMaxP {
		for r, az := range [4]float64{0, math.Pi / 2, math.Pi, -math.Pi / 2} {
			for k := 1; k < ridgeSamples; k++ {
				add(az, -math.Pi/2+math.Pi*float64(k)/ridgeSamples, r)
			}
		}
	}
	eq = n
	if 2/s.Eps[1] < cuspMaxP {
		for k := 0; k < 4*ridgeSamples; k++ {
			add(-math.Pi+2*math.Pi*float64(k)/(4*ridgeSamples), 0, 4)
		}
	}
	return n, eq
}

// ridgeCrossings looks for an overlap's pair where a ridge of each
// pointy shape crosses into the other body, as two polyhedra's edges
// cross: the chart polish from the ridge samples nearest to each other
// (one per shape, each inside the other body, their distance a local
// minimum over the neighbouring samples of both ridges), the nearest
// ridgeCrossStarts such pairs. It reports whether a converged pair
// replaced best (ridgeTakes). The query runs it on an overlap of two
// pointy shapes that is still unconverged after the probe: the ridge
// search's seeds, a sample and its foot on the other body's face, reach
// such a crossing only now and then. An approach's pointy pair (e 1.73 to
// 1.90, tapered) was answered the polytope's hull pair, 0.2600 deep,
// max_iterations, at three steps where the crossing is 0.2231 to 0.2264
// deep; the ridge search reached it at the step before
// (TestRidgeCrossings).
func (sv *Solver) ridgeCrossings(pr *pair, best *candidate, res *Result) bool {
	var pa, pb [ridgeCrossPoints]ridgePoint
	na, eqa := ridgePoints(pr.a, pr.b, &pr.ta, &pr.tb, &pa)
	nb, eqb := ridgePoints(pr.b, pr.a, &pr.tb, &pr.ta, &pb)
	// The samples beside sample i on its ridge (−1 or n for none; the
	// equator's ring, from index eq to n, closes).
	nbr := func(pts *[ridgeCrossPoints]ridgePoint, n, eq, i int) (lo, hi int) {
		if i >= eq {
			m := n - eq
			return eq + (i-eq+m-1)%m, eq + (i-eq+1)%m
		}
		lo, hi = i-1, i+1
		if lo >= 0 && pts[lo].ridge != pts[i].ridge {
			lo = -1
		}
		if hi < n && pts[hi].ridge != pts[i].ridge {
			hi = n
		}
		return lo, hi
	}
	type cross struct {
		i, j int
		d    float64
	}
	var top [ridgeCrossStarts]cross
	nt := 0
	same := 1e-9 * charLength(pr)
	for i := 0; i < na; i++ {
		if !pa[i].in {
			continue
		}
		ilo, ihi := nbr(&pa, na, eqa, i)
		for j := 0; j < nb; j++ {
			if !pb[j].in {
				continue
			}
			d := pa[i].world.Sub(pb[j].world).Len()
			if nt == ridgeCrossStarts && !(d < top[nt-1].d) {
				continue
			}
			jlo, jhi := nbr(&pb, nb, eqb, j)
			local := true
			for _, ii := range [3]int{ilo, i, ihi} {
				for _, jj := range [3]int{jlo, j, jhi} {
					if ii < 0 || ii >= na || jj < 0 || jj >= nb || ii == i && jj == j {
						continue
					}
					local = local && !(pa[ii].world.Sub(pb[jj].world).Len() < d)
				}
			}
			if !local {
				continue
			}
			// (A corner is sampled twice: the same pair once.)
			dup := false
			for _, c := range top[:nt] {
				dup = dup || pa[c.i].world.Sub(pa[i].world).Len() <= same && pb[c.j].world.Sub(pb[j].world).Len() <= same
			}
			if dup {
				continue
			}
			if nt < ridgeCrossStarts {
				nt++
			}
			k := nt - 1
			for k > 0 && top[k-1].d > d {
				top[k] = top[k-1]
				k--
			}
			top[k] = cross{i, j, d}
		}
	}
	tol := pairTol(pr)
	replaced := false
	for _, c := range top[:nt] {
		proven := pr.overlapProven
		if cand, ok := sv.cuspPolishIter(pr, pa[c.i].own, pb[c.j].own, res, ridgeIter, true); ok && ridgeTakes(pr, &cand, best, tol, proven) {
			replaced = true
		}
	}
	return replaced
}

// ridgeCurve is a pointy ridge of s through a surface point, as a curve of
// one parameter: the surface point on the ray from the centre along
// (cos t, sin t) in the ridge's plane (coordinate j zero: x = 0 or y = 0
// for a pointy e1, the equator z = 0 for a pointy e2), r the ray's
// starting length; fixed marks a tip (two ridges' planes meet there: a
// pole or a section's corner), which stays where it is.
type ridgeCurve struct {
	s     *geom.Superovoid
	j     int
	r     float64
	t     float64
	fixed bool
	tip   vec
}

// ridgeCurves are the ridges of s that the local surface point x lies on
// or near (within cuspZone of the semi-axis, as the chart takes them),
// each with t at x, and the tip where two of them meet when x is near
// both (a pole or a section's corner); n is how many it wrote.
func ridgeCurves(s *geom.Superovoid, x vec, out *[4]ridgeCurve) (n int) {
	near := 0
	for j := 0; j < 3; j++ {
		if coordP(s, j) >= cuspMaxP || !(math.Abs(x[j]) < cuspZone*s.A[j]) {
			continue
		}
		near++
		c := ridgeCurve{s: s, j: j}
		u, v := ridgePlane(j, x)
		c.r, c.t = math.Hypot(u, v), math.Atan2(v, u)
		if _, ok := c.at(c.t); ok && c.r > 0 {
			out[n] = c
			n++
		}
	}
	if near > 1 {
		if y, moved := ontoRidges(s, x); moved {
			out[n] = ridgeCurve{s: s, fixed: true, tip: y}
			n++
		}
	}
	return n
}

// ridgePlane returns x's two coordinates in the plane of coordinate j.
func ridgePlane(j int, x vec) (u, v float64) {
	switch j {
	case 0:
		return x[1], x[2]
	case 1:
		return x[0], x[2]
	}
	return x[0], x[1]
}

// at is the curve's surface point at t.
func (c *ridgeCurve) at(t float64) (vec, bool) {
	if c.fixed {
		return c.tip, true
	}
	u, v := c.r*math.Cos(t), c.r*math.Sin(t)
	var x vec
	switch c.j {
	case 0:
		x = vec{0, u, v}
	case 1:
		x = vec{u, 0, v}
	default:
		x = vec{u, v, 0}
	}
	return radialToSurface(c.s, x)
}

// follow starts the curve's rays at the radius of its point x.
func (c *ridgeCurve) follow(x vec) {
	if c.fixed {
		return
	}
	if r := math.Hypot(ridgePlane(c.j, x)); r > 0 {
		c.r = r
	}
}

// ridgesClosestIter caps ridgesClosest's Gauss–Newton iterations.
const ridgesClosestIter = 40

// ridgesClosest minimises the distance between the pointy ridges (or tips)
// that the local surface points lp and lq lie on or near, one parameter
// each, by Gauss–Newton on P(u) − Q(v) (central-difference tangents, steps
// halved until the distance falls), for each pair of such ridges in turn.
// Where two pointy ridges cross, the common-normal equations have a root
// only within far less than 1e-10 of both ridges, where the normals sweep
// their turns, and no Newton run or chart polish converges there; along
// the ridges the distance is smooth. It passes each pair it reaches, on
// both surfaces, to take, which keeps the ones it accepts (so that a pair
// refused, a point inside the other body, leaves the others their turn);
// it does nothing when either point is near no ridge.
func ridgesClosest(pr *pair, lp, lq vec, take func(p, q vec)) {
	var ra, rb [4]ridgeCurve
	na, nb := ridgeCurves(pr.a, lp, &ra), ridgeCurves(pr.b, lq, &rb)
	for i := 0; i < na; i++ {
		for k := 0; k < nb; k++ {
			if ra[i].fixed && rb[k].fixed {
				continue
			}
			ca, cb := ra[i], rb[k] // (copies: each run moves its rays' radii)
			if p, q, ok := closestOnRidges(pr, &ca, &cb); ok {
				take(p, q)
			}
		}
	}
}

// closestOnRidges is ridgesClosest on one ridge (or tip) of each shape:
// the pair it reached, ok false when the curves' points were not found.
func closestOnRidges(pr *pair, ca, cb *ridgeCurve) (p, q vec, ok bool) {
	eval := func(u, v float64) (d vec, p, q vec, ok bool) {
		p, okP := ca.at(u)
		q, okQ := cb.at(v)
		if !okP || !okQ {
			return d, p, q, false
		}
		return pr.ta.Point(p).Sub(pr.tb.Point(q)), p, q, true
	}
	u, v := ca.t, cb.t
	r, p, q, ok := eval(u, v)
	if !ok {
		return p, q, false
	}
	const h = 1e-7
	for it := 0; it < ridgesClosestIter; it++ {
		// The tangents dP/du and −dQ/dv (a tip's is zero).
		var ju, jv vec
		if !ca.fixed {
			r1, _, _, ok1 := eval(u+h, v)
			r2, _, _, ok2 := eval(u-h, v)
			if !ok1 || !ok2 {
				break
			}
			ju = r1.Sub(r2).Mul(0.5 / h)
		}
		if !cb.fixed {
			r1, _, _, ok1 := eval(u, v+h)
			r2, _, _, ok2 := eval(u, v-h)
			if !ok1 || !ok2 {
				break
			}
			jv = r1.Sub(r2).Mul(0.5 / h)
		}
		// Normal equations of the 3×2 (or 3×1) least-squares step.
		a11, a12, a22 := ju.Dot(ju), ju.Dot(jv), jv.Dot(jv)
		b1, b2 := -ju.Dot(r), -jv.Dot(r)
		var du, dv float64
		switch {
		case ca.fixed:
			if !(a22 > 0) {
				return p, q, true
			}
			dv = b2 / a22
		case cb.fixed:
			if !(a11 > 0) {
				return p, q, true
			}
			du = b1 / a11
		default:
			det := a11*a22 - a12*a12
			if !(det > 1e-14*a11*a22) {
				return p, q, true
			}
			du, dv = (b1*a22-b2*a12)/det, (a11*b2-a12*b1)/det
		}
		d0 := r.Len()
		taken := false
		for k := 0; k < 30; k++ {
			rn, pn, qn, ok := eval(u+du, v+dv)
			if ok && rn.Len() < d0 {
				u, v, r, p, q, taken = u+du, v+dv, rn, pn, qn, true
				// (The rays start at the accepted points' radii: from a
				// fixed one, radialToSurface gives up a few per cent
				// away on a box-like section.)
				ca.follow(p)
				cb.follow(q)
				break
			}
			du, dv = du/2, dv/2
		}
		if !taken || math.Abs(du)+math.Abs(dv) < 1e-15 {
			break
		}
	}
	return p, q, true
}

// ridgesPolish moves an unconverged separated best pair of two pointy
// shapes whose points lie on or near ridges to the closest pair of those
// ridges (ridgesClosest), when that is closer: an unconverged pair still,
// two surface points whose distance bounds the bodies' from above. Where
// the ridges touch, one point can lie inside the other body by rounding:
// a pair within pairTol is kept then (touchAt). Two pointy ridges crossing
// within 1e-9 were answered 4.5e-8 apart, a walk's pair, where they are
// 5.9e-11 apart; a stalled GJK run's hull pair 1.37e-8 apart, its point
// on the large body 1.2e-8 inside it (locus residual −1.06e-7), where the
// ridges are 1.04e-9 apart (TestRidgesClosest). Not in a move-out check's
// moved query, which asks only whether the bodies still overlap.
func (sv *Solver) ridgesPolish(m Method, pr *pair, best *candidate, res *Result) {
	if sv.noRidgesPolish || sv.parent != nil || !best.valid || best.converged || !best.separated || pr.overlapProven || !pointy(pr.a) || !pointy(pr.b) {
		return
	}
	ridgesClosest(pr, best.lp, best.lq, func(p, q vec) {
		c, ok := pairAt(m, pr, p, q)
		if !ok {
			c, ok = touchAt(m, pr, p, q)
		}
		if ok && c.sd < best.cmpSD() {
			keepNormals(pr, &c, best.nP, best.nQ)
			*best = c
			res.Fallback = true
		}
	})
}

// touchAt is pairAt for two surface points within pairTol of each other,
// each in the other body by at most a witness's tolerance (a locus
// residual down to −1e-9, as pair.witness allows: a touch).
func touchAt(m Method, pr *pair, lp, lq vec) (c candidate, ok bool) {
	P, Q := pr.ta.Point(lp), pr.tb.Point(lq)
	d := Q.Sub(P).Len()
	if !(d > 0) || d > pairTol(pr) || inside(pr.b, &pr.tb, P, -1e-9) || inside(pr.a, &pr.ta, Q, -1e-9) {
		return c, false
	}
	return touchFrom(m, pr, lp, lq)
}

// ridgeFaces moves an unconverged separated best pair of a pair with a
// non-convex shape, whose point on a pointy shape lies on or near a ridge
// (or tip), to the ridge's point nearest the other body, with its foot
// there (PointDistance, exact), when that is closer: the distance from the
// other body's surface is smooth along the ridge, though no common-normal
// run converges at the ridge itself. A ridge point outside the other body
// by at most pairTol is a touch (touchFrom: an unconverged separated pair
// that close). One inside proves the bodies overlap and the separated
// answer wrong: by more than pairTol and a witness's tolerance it is
// marked as classify marks its witnesses (pr.insideF), for
// refuteSeparated to refute the answer; otherwise the answer becomes the
// unconverged overlap of translating the point out to its foot (a lower
// bound of the depth), for the move-out check to test. Where a pointy
// equator touched a pointy prism's edge, 0.0027 beside 0.55
// (TestSmallBesideLarge at SOVVIZ_SWEEP_SEED=6, pair 44), every start
// failed and the answer was the ridge search's walk 4.0e-9 apart,
// max_iterations, where the equator dips 3.3e-10 into the prism's face
// beside its edge and the ridges' closest pair is 7.6e-9 apart
// (TestRidgeFaces). Not for convex pairs (GJK proves their distance), nor
// in a move-out check's moved query.
func (sv *Solver) ridgeFaces(m Method, pr *pair, best *candidate, res *Result) {
	if sv.noRidgeFaces || sv.parent != nil || pr.convex || !best.valid || best.converged || !best.separated || pr.overlapProven {
		return
	}
	tol := pairTol(pr)
	// (Both sides start from the answer's own witnesses, and a proof of an
	// overlap on any ridge leaves the answer as it was, for
	// refuteSeparated: a shallower overlap taken from another ridge
	// would hide it.)
	orig, fallback := *best, res.Fallback
	proved := false
	for side := 0; side < 2; side++ {
		s, o, ts, to := pr.side(side)
		if !pointy(s) {
			continue
		}
		w := orig.lp
		if side == 1 {
			w = orig.lq
		}
		var rc [4]ridgeCurve
		nc := ridgeCurves(s, w, &rc)
		ob := sv.ownFrame(o)
		for i := 0; i < nc; i++ {
			c := &rc[i]
			// The distance of the ridge's point at t from o's surface,
			// signed, and its foot: by Newton from the last kept point's
			// foot (projectPoint), which costs a fraction of PointDistance's
			// global search (2 ms a point inside a box-like body), else
			// by that search.
			var foot vec
			haveFoot := false
			dist := func(t float64) (float64, vec, vec, bool) {
				sv.ridgeFaceEvals++
				x, ok := c.at(t)
				if !ok {
					return 0, x, vec{}, false
				}
				xl := to.InvPoint(ts.Point(x))
				if haveFoot {
					p, ok := projectPoint(o, xl, foot)
					if !ok {
						// (Beside a pointy ridge of o, in its chart, as
						// PointDistance does.)
						p, ok = projectPointCharted(o, xl, foot)
					}
					if ok {
						d := p.Sub(xl).Len()
						if f, okf := o.Residual(xl); okf && f < 0 {
							d = -d
						}
						return d, x, p, true
					}
				}
				r := PointDistance(ob, xl)
				if r.Status == Failed || math.IsNaN(r.Distance) {
					return 0, x, r.Closest, false
				}
				return r.Distance, x, r.Closest, true
			}
			t := c.t
			d, x, f, ok := dist(t)
			if !ok {
				continue
			}
			foot, haveFoot = f, true
			// A compass search on the ridge's parameter (an angle): the
			// step doubles after a move and is quartered after none, down
			// to ridgeFaceMin, where the distance's error is of its
			// square (1e-20 of the ridge's curvature). It stops once the
			// point proves an overlap.
			proven := func() bool {
				fx, okx := o.Residual(to.InvPoint(ts.Point(x)))
				return d < -tol && okx && fx < -overlapInside
			}
			for h, it := ridgeFaceStep, 0; !c.fixed && h > ridgeFaceMin && it < ridgeFaceIter && !proven(); it++ {
				moved := false
				for _, tt := range [2]float64{t + h, t - h} {
					if d2, x2, f2, ok2 := dist(tt); ok2 && d2 < d {
						t, d, x, foot, moved = tt, d2, x2, f2, true
						break
					}
				}
				if moved {
					h *= 2
				} else {
					h /= 4
				}
			}
			// The point's own global search, which the answer takes:
			// the local feet can miss a nearer one.
			pd := PointDistance(ob, to.InvPoint(ts.Point(x)))
			sv.ridgeFaceEvals++
			if pd.Status == Failed || math.IsNaN(pd.Distance) {
				continue
			}
			d = pd.Distance
			if proven() {
				// (Deeper than a touch: refuteSeparated refutes the
				// answer, as for classify's witnesses.)
				if fx, _ := o.Residual(to.InvPoint(ts.Point(x))); fx < pr.insideF {
					pr.insideF = fx
				}
				proved = true
				continue
			}
			foot = pd.Closest
			// (The foot onto the surface along its ray, as finish would
			// move it: PointDistance's foot beside a pointy ridge lay
			// 1.5e-11 off it, and the pair's distance grew by as much.)
			if y, ok := radialToSurface(o, foot); ok {
				foot = y
			}
			lp, lq := x, foot
			if side == 1 {
				lp, lq = foot, x
			}
			var cand candidate
			switch {
			case d < 0:
				// Inside the other body: b moved out along the foot's
				// normal by the point's depth (a lower bound of every
				// separating translation) is the answer the move-out check
				// tests. (Deeper than pairTol too, where the point's
				// residual is within a witness's tolerance and proves
				// nothing by classify's rule: the move-out check still
				// tests the answer.)
				n := to.Dir(pd.Normal)
				if side == 0 {
					n = n.Mul(-1)
				}
				cand, ok = overlapFrom(m, pr, lp, lq, n)
			case d > tol:
				cand, ok = pairAt(m, pr, lp, lq)
			default:
				// Within pairTol outside the other surface: a touch, its
				// points d apart (touchAt, but with the distance
				// PointDistance proves: touchAt's locus residuals are
				// relative to each body's size, and a foot on the large
				// body can lie in the small one at a residual of 1e-7).
				cand, ok = touchFrom(m, pr, lp, lq)
				if ok {
					keepNormals(pr, &cand, best.nP, best.nQ)
				}
			}
			if ok && cand.sd < best.cmpSD() {
				*best = cand
				res.Fallback = true
			}
		}
	}
	if proved {
		*best, res.Fallback = orig, fallback
	}
}

// overlapFrom is the unconverged overlapping candidate of the local surface
// points lp, lq, one inside the other body, with a's normal n: translating
// b by |P − Q| along n puts the inner point on the other surface.
func overlapFrom(m Method, pr *pair, lp, lq vec, n vec) (c candidate, ok bool) {
	P, Q := pr.ta.Point(lp), pr.tb.Point(lq)
	d := P.Sub(Q).Len()
	if !(d > 0) || !(n.Len() > 0) {
		return c, false
	}
	c = candidate{method: m, valid: true}
	c.lp, c.lq, c.P, c.Q, c.sd = lp, lq, P, Q, -d
	c.nP, c.nQ = n, n.Mul(-1)
	setUnknowns(m, pr, &c)
	return c, true
}

// ownFrame returns the scratch body of shape o at the identity pose, for
// PointDistance in o's frame without an allocation (tipCheck's and
// ridgeFaces').
func (sv *Solver) ownFrame(o *geom.Superovoid) *geom.Body {
	sv.tipBody = geom.Body{Shape: *o, Pose: geom.Pose{Orientation: geom.Quat{W: 1}}}
	return &sv.tipBody
}

// touchFrom is touchAt without its checks, for two surface points that
// the caller knows within pairTol of each other's surfaces: the
// unconverged separated candidate of the two, |Q − P| apart, its normals
// along the line between them.
func touchFrom(m Method, pr *pair, lp, lq vec) (c candidate, ok bool) {
	P, Q := pr.ta.Point(lp), pr.tb.Point(lq)
	d := Q.Sub(P).Len()
	if !(d > 0) {
		return c, false
	}
	c = candidate{method: m, valid: true, separated: true}
	n := Q.Sub(P).Mul(1 / d)
	c.lp, c.lq, c.P, c.Q, c.sd, c.surfSD = lp, lq, P, Q, d, d
	c.nP, c.nQ = n, n.Mul(-1)
	setUnknowns(m, pr, &c)
	return c, true
}

// ridgeFaceStep, ridgeFaceMin and ridgeFaceIter are ridgeFaces' first and
// last steps on a ridge's parameter (an angle) and its cap on the
// search's rounds.
const (
	ridgeFaceStep = 1e-3
	ridgeFaceMin  = 1e-10
	ridgeFaceIter = 200
)
