package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// probeN is the number of directions probeBasins ranks: a Fibonacci
// sphere, about 19° between neighbours.
const probeN = 120

// probeDirs is the probe's fixed set of unit directions (read-only).
var probeDirs = fibonacciSphere()

func fibonacciSphere() (d [probeN]v3) {
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := range d {
		z := 1 - (2*float64(i)+1)/probeN
		r := math.Sqrt(1 - z*z)
		s, c := math.Sincos(golden * float64(i))
		d[i] = v3{r * c, r * s, z}
	}
	return d
}

// multiBasin reports whether a shape's support function has the
// sharp features that make several local maxima of an overlapping pair's
// gap: a pointy profile (an exponent from 1.3 on, where the surface's
// curvature concentrates at tips and creases). A heuristic: the reviews'
// misses were pointy pairs. (Nearly square shapes were probed too until a
// review measured no answer changed on 796 box-only overlaps, for 2.4
// times the cold and 15 times the warm time.)
func multiBasin(s *geom.Superovoid) bool {
	return s.Eps[0] >= 1.3 || s.Eps[1] >= 1.3
}

// probes reports whether a pair has a pointy shape (multiBasin), whose
// overlaps the polytope checks (checkMTD) and probeBasins searches where
// the polytope cannot close its bounds.
func probes(pr *pair) bool { return multiBasin(pr.a) || multiBasin(pr.b) }

// probeBasins looks for a better basin than an overlapping answer's on a
// pair with a pointy shape whose answer the polytope did not certify
// (for convex shapes it checks them all since 2026-12-05, and the probe is
// the fallback where its bounds do not close; Solver.probeOnly leaves the
// shallow overlaps of pointy shapes to the probe alone, as before, for
// tests and benchmarks; a non-convex shape's overlap it never certifies,
// and the probe searches them all since 2026-12-06: a tapered pointy
// shape's overlap 0.28 of the smaller semi-axis deep, converged in the
// implicit and ntb schemes 47% deeper than the parametric scheme's pair,
// along whose normal the bodies come apart: TestProbeNonConvex). A
// pair it takes from a non-convex shape is classified as every other
// (math.md §3's support pairs, or a witness inside the other body). The
// multi-start
// seeds from the centres' line and the principal axes only, and with
// pointy shapes the best basin can lie between them, narrow: a
// review found overlaps of such shapes at 0.2 of the smaller semi-axis
// answered 25–70% too deep, converged (TestProbeFindsBasin). The probe
// ranks a fixed sphere of directions by their support gap, climbs the gap
// from the best few (closed-form supports: exact untapered, where a climb
// above the answer proves a better basin; an estimate with taper), and
// solves from the supports where a climb ends above the answer, taking
// the exact gap's ascent pair (ascentPair) where Newton finds no better
// pair from there.
func (sv *Solver) probeBasins(m Method, pr *pair, best *candidate, res *Result) {
	if sv.noProbe || !best.valid || best.separated || best.mtdCertified || !probes(pr) {
		return
	}
	if !best.converged && (pr.convex || best.slack > 0) {
		// (A non-convex pair's unconverged overlap is searched too, such
		// as the polytope's hull pair whose support points bridge a dent
		// and do not converge: TestProbeHullPair.)
		return
	}
	c := v3of(pr.tb.T).sub(v3of(pr.ta.T))
	L := charLength(pr)
	ma := max(minAxis(pr.a), minAxis(pr.b))
	top, nt, rest := probeRank(pr, c, best.sd-0.25*ma, sv.probeClimbs(pr))
	bn := v3of(best.nP)
	// A climb ending above the answer finds a better basin. With taper the
	// closed-form supports are estimates, and a climb can stall near a
	// better basin's top below the answer: such climbs within a tenth of
	// the smaller semi-axis are tried too.
	above := 1e-7 * L
	if !pr.a.IsSuperellipsoid() || !pr.b.IsSuperellipsoid() {
		above = -0.1 * min(minAxis(pr.a), minAxis(pr.b))
	}
	var ends [probeStartsNonConvex]v3 // (the exact ascents' ends)
	ne := 0
	var climbed [probeStartsNonConvex]v3 // (the climbs' ends, for hullGapCheck)
	for j := 0; j < nt; j++ {
		n, lp, lq, g := supportAscendTo(pr, top[j].vec(), 0, probeClimb, probeStall)
		climbed[j] = v3of(n)
		if !(g > best.sd+above) || v3of(n).dot(bn) > 0.9999 {
			continue
		}
		// (The other schemes when the configured one stalls: the implicit
		// scheme crawls from seeds near a pointy tip, where the
		// parametric ones converge.)
		cand := sv.fromSeed(m, pr, lp, lq, res, nil)
		if !pr.convex && cand.converged && !(cand.sd > best.sd+pairTol(pr)) {
			// From one seed the schemes can converge to different pairs:
			// on a non-convex pair each scheme's competes, as in the dent
			// search (TestProbeAllSchemes).
			rest, nr := schemesAfter(m, cand.method)
			for _, m2 := range rest[:nr] {
				// (Overlaps only: better ranks a separated pair above
				// any overlap, and the probe keeps no separated pair, so
				// one would only hide a later scheme's overlap.)
				if c2 := sv.solveFromPoints(m2, pr, lp, lq, res); c2.converged && !c2.separated && better(&c2, &cand) {
					cand = c2
				}
			}
		}
		// Where every scheme crawled, as they do on a pointy tip, the
		// chart's polish converges (polishedCrawl), as a warm start's
		// crawl is polished. Its pair competes after the exact ascent,
		// which still runs from the stall as before (TestApproachSweep at
		// SOVVIZ_SWEEP_SEED=21: every scheme's cold answer 7% too deep,
		// the pair against a tip 38° away, that a warm start had tracked;
		// TestProbeCuspPolish).
		var polished candidate
		if !sv.noProbeCusp {
			if cp, ok := sv.polishedCrawl(pr, &cand, res); ok && cp.sd > best.sd+pairTol(pr) {
				polished = cp
				sv.probeCusps++
			}
		}
		sv.noteRival(&cand)
		// Where every scheme stalls (seeds at a pointy tip, or part way up
		// a climb that stopped short) or converges back to the answer's
		// basin (from a tapered shape's estimated climb), the exact gap's
		// own maximum is the pair: ascentPair accepts it where its bounds
		// meet (ascendsFrom says when).
		if sv.ascendsFrom(pr, &cand, best, n, bn, &ends, ne) {
			e := sv.exactAscent(pr, n, res)
			if ne < len(ends) {
				ends[ne] = v3of(e.n)
				ne++
			}
			if ac := sv.ascentPair(pr, &e); ac.valid && ac.converged && better(&ac, &cand) {
				sv.noteRival(&ac)
				cand = ac
			} else if !pr.convex && !sv.noSameNormal {
				// No better pair at the ascent's end: the bodies' pair
				// can lie in a dent there, which the support points
				// bridge. Newton from the points whose normal is the
				// ascent's, dents' own included (sameNormalSeeds).
				if sc := sv.sameNormalSeeds(m, pr, &e, res); sc.valid && sc.converged && better(&sc, &cand) {
					sv.noteRival(&sc)
					cand = sc
				}
			}
		}
		if polished.valid {
			sv.noteRival(&polished)
			if better(&polished, &cand) {
				cand = polished
			}
		}
		// (Never a separated pair: best proves the bodies overlap, and a
		// separated pair of a non-convex shape proves nothing.)
		if !cand.separated && better(&cand, best) && cand.sd > best.sd+pairTol(pr) {
			*best = cand
			bn = v3of(best.nP)
			res.Fallback = res.Fallback || cand.method != m
		}
	}
	if !pr.convex && !sv.noSameNormal {
		// The points sharing the answer's normal: where the answer is
		// the hulls' translation, a dent can let the bodies part
		// sooner, near it (sameNormalSeeds).
		e := ascentEnd{n: best.nP, lp: best.lp, lq: best.lq}
		if sc := sv.sameNormalSeeds(m, pr, &e, res); better(&sc, best) && sc.sd > best.sd+pairTol(pr) {
			sv.noteRival(&sc)
			*best = sc
			res.Fallback = res.Fallback || sc.method != m
		}
	}
	if !pr.convex && !sv.noDeepSeeds {
		sv.deepSeeds(m, pr, best, res)
	}
	if !pr.convex && !sv.noHullGap && !sv.checkMTD(pr, best) {
		// (Once a pass proves the answer too deep, the polytope has run
		// and the answer is the bodies' pair from the hulls' shallowest
		// translation, or the best it could do: no later pass can prove
		// more, and the climb would cost 0.6 ms for nothing.)
		var hi hullGapBest
		proved := sv.hullGapCheck(m, pr, best, res, top[:nt], &hi)
		if !proved && !sv.checkMTD(pr, best) {
			// (Where a climb ended, too: TestHullGapClimbed.)
			proved = sv.hullGapCheck(m, pr, best, res, climbed[:nt], &hi)
		}
		if !proved && !sv.checkMTD(pr, best) && !sv.noHullGapRest {
			// And along every other direction the ranking kept above its
			// floor: with taper the closed-form gaps that ranked them
			// are estimates, and a hull basin's direction can rank below
			// the climbs' (TestHullGapRest).
			var dirs [probeN]v3
			k := 0
			for i := range probeDirs {
				if rest.has(i) {
					dirs[k] = probeDirs[i]
					k++
				}
			}
			proved = sv.hullGapCheck(m, pr, best, res, dirs[:k], &hi)
		}
		if !proved && !sv.checkMTD(pr, best) && !sv.noHullNear && hi.ok && hi.g > best.sd-hullNearBelow*min(minAxis(pr.a), minAxis(pr.b)) {
			// No direction looked at proves the answer too deep, but the
			// best of those away from its normal comes close: the hulls'
			// gap may rise above the answer near it, so the polytope,
			// which finds the hulls' shallowest translation wherever it
			// is, runs as on the deepest overlaps (TestHullGapAscentWarm,
			// TestHullGapPolytope).
			sv.hullNear++
			sv.epaPolished(m, pr, best, res, best.lp, best.lq)
		}
	}
}

// dirSet is a set of probeDirs' indices, a bit each.
type dirSet [(probeN + 63) / 64]uint64

func (s *dirSet) add(i int)      { s[i>>6] |= 1 << (i & 63) }
func (s *dirSet) del(i int)      { s[i>>6] &^= 1 << (i & 63) }
func (s *dirSet) has(i int) bool { return s[i>>6]&(1<<(i&63)) != 0 }

// hullGapCheck proves a non-convex pair's overlapping answer too deep where
// the exact hulls' support gap along one of the directions dirs (the
// probe's ranked directions, where its climbs ended, then the rest of those
// it ranked above its floor) is shallower: b
// moved along that direction by the gap separates the
// hulls, hence the bodies. The polytope, which checkMTD runs only on the
// deepest overlaps of such pairs, then finds the hulls' shallowest
// translation, and Newton from its support points the bodies' pair there.
// (Pair 4 of the moved sweep's kind 18 with SOVVIZ_SWEEP_SEED=54: answered
// 0.136754, 0.27 of the smaller semi-axis deep, where the hulls' gap along
// the first ranked direction is 0.1287 and the bodies separate after
// 0.114205, 35° from the answer's normal: TestHullGapCheck. Eight climbs
// of the probe instead of three found it too.) One exact support pair per
// direction, numeric for tapered shapes. It reports whether it proved the
// answer too deep (and ran the polytope).
func (sv *Solver) hullGapCheck(m Method, pr *pair, best *candidate, res *Result, dirs []v3, hi *hullGapBest) (proved bool) {
	for j := range dirs {
		n := dirs[j].vec()
		w, _, _ := diffSupport(pr, n)
		if g := -n.Dot(w); (!hi.ok || g > hi.g) && n.Dot(best.nP) < hullNearCos {
			hi.ok, hi.g = true, g
		}
		if n.Dot(w) < -best.sd-pairTol(pr) {
			sv.hullGapped++
			sv.epaPolished(m, pr, best, res, best.lp, best.lq)
			return true
		}
	}
	return false
}

// probeRank returns the best climbs (at most probeStartsNonConvex) of the
// probe directions by their support gap (c is b's centre less a's) above
// floor, more than 25° apart (non-maximum suppression: the best, then the
// best not within 25° of those kept, and so on), so that each climb starts
// in a region of its own; where fewer are that far apart, the best of
// their neighbours fill the rest. rest holds the other directions above
// the floor.
func probeRank(pr *pair, c v3, floor float64, climbs int) (top [probeStartsNonConvex]v3, nt int, rest dirSet) {
	var gaps [len(probeDirs)]float64
	for i := range probeDirs {
		gaps[i] = math.Inf(-1)
		if seGapBoundV(pr, probeDirs[i], c) <= floor {
			continue // the free upper bound: most directions end here
		}
		if g := seGapV(pr, probeDirs[i], c); g > floor {
			gaps[i] = g
			rest.add(i)
		}
	}
	// Directions suppressed by a kept neighbour keep their gap in near,
	// for the fill below.
	var near [len(probeDirs)]float64
	for i := range near {
		near[i] = math.Inf(-1)
	}
	for nt < climbs {
		k := bestAbove(&gaps, floor)
		if k < 0 {
			break
		}
		top[nt] = probeDirs[k]
		nt++
		rest.del(k)
		gaps[k] = math.Inf(-1)
		for i := range probeDirs {
			if gaps[i] > floor && probeDirs[i].dot(top[nt-1]) > skipCos {
				near[i], gaps[i] = gaps[i], math.Inf(-1)
			}
		}
	}
	// When every direction above the floor lies near those kept, the
	// best of the rest fill the climbs: a neighbour of the best direction
	// can climb into another narrow basin (TestProbeMissedBasins).
	for nt < climbs {
		k := bestAbove(&near, floor)
		if k < 0 {
			break
		}
		top[nt] = probeDirs[k]
		nt++
		rest.del(k)
		near[k] = math.Inf(-1)
	}
	return top, nt, rest
}

// bestAbove returns the index of the largest gap above floor (the first
// of equals), or −1 where none is.
func bestAbove(gaps *[len(probeDirs)]float64, floor float64) int {
	k := -1
	for i, g := range gaps {
		if g > floor && (k < 0 || g > gaps[k]) {
			k = i
		}
	}
	return k
}

// ascendsFrom reports whether probeBasins climbs the exact gap from a
// climb's end n (bn is the answer's normal, ends the ends of the exact
// ascents taken so far): on a convex pair where Newton from the climb's
// supports stalled or found no better pair; on a non-convex one only where
// it stalled, and not from within 3° of an earlier ascent's end, which it
// would only climb to again. A non-convex shape's exact gap is its hull's
// from numeric supports, but its maximum is still a common-normal pair of
// the bodies whose translation parts the hulls: on 400 random non-convex
// pointy pairs (nonConvexPointyOverlaps) the ascent after every climb
// doubled the query's cost and changed no answer, yet in
// TestApproachSweep's approaches (SOVVIZ_SWEEP_SEED=7) a tapered pair's
// climbs ended near the shallowest basin, with estimated supports from
// which every scheme stalled: at step 53 every scheme answered 0.089359
// where the bodies part after 0.074877 (TestProbeExactAscentNonConvex).
func (sv *Solver) ascendsFrom(pr *pair, cand, best *candidate, n vec, bn v3, ends *[probeStartsNonConvex]v3, ne int) bool {
	if !(v3of(n).dot(bn) < sameBasinCos) {
		return false
	}
	if pr.convex {
		return !cand.converged || !(cand.sd > best.sd+pairTol(pr))
	}
	if cand.converged {
		return false
	}
	for _, e := range ends[:ne] {
		if e.dot(v3of(n)) > sameBasinCos {
			return false
		}
	}
	return true
}

// probeClimb bounds the closed-form support steps of a probe's climb, and
// probeStall ends it once a step would turn the direction by less. On
// pointy pairs a climb can need 100 steps to reach a narrow basin's top,
// and Newton from a point part way up may converge elsewhere: at 30 steps
// TestProbeAnimation's full sweep finds two more answers too deep, and
// TestProbeMissedBasins's shallow-basin pair fails.
const (
	probeClimb = 200
	probeStall = 1e-9
)

// sameBasinCos is the cosine of 3°: a climb ending that close to the
// answer's normal is in the answer's basin, where the exact ascent (with
// numeric supports, for tapered shapes) would only climb to the answer
// again. Skipping it there made warm tapered pointy overlaps 21% faster
// (BenchmarkQueryTaperedPointyOverlapWarmProbe) with TestProbeAnimation's full
// sweep unchanged; at 10° that sweep finds two answers too deep.
const sameBasinCos = 0.9986295347545738

// probeStarts bounds probeBasins' climbs and Newton runs on a convex
// pair, whose answer the polytope then checks, and probeStartsNonConvex on
// a pair with a non-convex shape, whose answer no proof checks for a
// shallower basin (only searches: deepSeeds, hullGapCheck, tipCheck):
// TestApproachSweep's first draw had 30 of its 19,668 in-range answers
// too deep with three climbs (before deepSeeds and tipCheck), 6 with
// eight (TestProbeNonConvexClimbs is from another approach). Cost:
// docs/contact.md, step 6.
const (
	probeStarts          = 3
	probeStartsNonConvex = 8
)

// probeClimbs is the number of climbs probeBasins takes on pr.
func (sv *Solver) probeClimbs(pr *pair) int {
	if pr.convex || sv.fewClimbs {
		return probeStarts
	}
	return probeStartsNonConvex
}

// deepKeep is how many of each body's deepest surface samples inside the
// other deepSeeds starts Newton from; deepGrid1 × (deepGrid2 + 1) is the
// parameter grid it samples.
const (
	deepKeep  = 2
	deepGrid1 = 16
	deepGrid2 = 8
)

// deepSample is a surface point of one body inside the other: its
// parameters, its local point, the point in the other's frame, and its
// depth estimate along the other's centre's ray.
type deepSample struct {
	p1, p2, d float64
	ls, xl    vec
}

// deepAt is the deepSample of s's point at (p1, p2) inside o (d = 0 where
// it is not inside). The depth is the plain radial step's, |x|·(−F)/(1+F)
// for F = G^(e2/2) − 1, homogeneous of degree 1 without taper (exact
// there, an estimate with it): one residual per sample, and none outside
// o's box, where most samples lie.
func deepAt(s, o *geom.Superovoid, ts, to *geom.Transform, box *geom.AABB, p1, p2 float64) deepSample {
	c := deepSample{p1: p1, p2: p2}
	c.ls = s.Point(p1, p2)
	c.xl = to.InvPoint(ts.Point(c.ls))
	for k := 0; k < 3; k++ {
		if c.xl[k] < box.Min[k] || c.xl[k] > box.Max[k] {
			return c
		}
	}
	if f, ok := o.Residual(c.xl); ok && f < 0 && f > -1 {
		c.d = c.xl.Len() * -f / (1 + f)
	}
	return c
}

// deepSeeds starts Newton from the radially deepest points of each body's
// surface inside the other and their radial feet: the deepest samples of
// a parameter grid, in regions of their own, each refined by a compass
// search over the parameters. Every separating translation moves each
// point of one body out of the other, so the deepest point's distance
// bounds it from below, and a ridge or tip of a pointy shape pressed into
// a face lies among the deepest points, while the hulls' gaps that the
// probe climbs miss its pair (TestApproachSweep's second draw: 0.175150
// answered for 0.092880, TestDeepSeeds). Newton crawls on such a ridge,
// and polishCusp finishes the run.
func (sv *Solver) deepSeeds(m Method, pr *pair, best *candidate, res *Result) {
	tol := pairTol(pr)
	for side := 0; side < 2; side++ {
		s, o, ts, to := pr.side(side)
		// The grid: deepGrid1 azimuths on each of deepGrid2 − 1 rings,
		// and the two poles once each.
		var samples [deepGrid1*(deepGrid2-1) + 2]deepSample
		box := o.LocalAABBFast()
		ns := 0
		for j := 0; j <= deepGrid2; j++ {
			p2 := -math.Pi/2 + math.Pi*float64(j)/deepGrid2
			n1 := deepGrid1
			if j == 0 || j == deepGrid2 {
				n1 = 1
			}
			for i := 0; i < n1; i++ {
				samples[ns] = deepAt(s, o, ts, to, &box, -math.Pi+2*math.Pi*float64(i)/deepGrid1, p2)
				ns++
			}
		}
		// The deepest, then the deepest a quarter of the body's smallest
		// semi-axis from those kept (as probeRank keeps its directions).
		apart := 0.25 * minAxis(s)
		var keep [deepKeep]int
		nk := 0
		for nk < deepKeep {
			k := -1
			for i := 0; i < ns; i++ {
				if !(samples[i].d > 0) || k >= 0 && samples[i].d <= samples[k].d {
					continue
				}
				near := false
				for _, q := range keep[:nk] {
					near = near || samples[i].ls.Sub(samples[q].ls).Len() < apart
				}
				if !near {
					k = i
				}
			}
			if k < 0 {
				break
			}
			keep[nk] = k
			nk++
		}
		var seeded [deepKeep]vec
		for k := 0; k < nk; k++ {
			c := refineDeep(s, o, ts, to, &box, samples[keep[k]])
			// (Two regions' samples can refine to one point: one run.)
			dup := false
			for _, q := range seeded[:k] {
				dup = dup || c.ls.Sub(q).Len() < 1e-3*apart
			}
			seeded[k] = c.ls
			if dup {
				continue
			}
			foot, ok := rayToSurface(o, c.xl)
			if !ok {
				continue
			}
			lp, lq := c.ls, foot
			if side == 1 {
				lp, lq = lq, lp
			}
			cand := sv.fromSeed(m, pr, lp, lq, res, nil)
			if !pr.convex && cand.converged && !(cand.sd > best.sd+tol) && !sv.noDeepAllSchemes {
				// From one seed the schemes can converge to different
				// pairs: where the first converged pair does not beat the
				// answer, each later scheme's overlap competes, as in the
				// probe's climbs (TestDeepSeedsAllSchemes).
				rest, nr := schemesAfter(m, cand.method)
				for _, m2 := range rest[:nr] {
					c2 := sv.solveFromPoints(m2, pr, lp, lq, res)
					if c2.converged && !c2.separated && better(&c2, &cand) {
						cand = c2
					}
				}
			}
			if cand.valid && !cand.converged && !cand.separated && cand.sd > best.sd+tol {
				// (Crawling on the ridge it seeded from: polished in the
				// chart where the equations are smooth.)
				sv.polishCusp(m, pr, &cand, res)
			}
			sv.noteRival(&cand)
			if !cand.separated && better(&cand, best) && cand.sd > best.sd+tol {
				*best = cand
				res.Fallback = res.Fallback || cand.method != m
			}
		}
	}
}

// refineDeep climbs a deepSample's depth by a compass search over the
// parameters, from the grid's spacing down to deepStep rad and at most
// deepEvals samples: the grid's deepest point can be a pointy tip, from
// which Newton goes nowhere, while the deepest point lies on the ridge
// beside it (TestDeepSeeds), within Newton's reach of the refined point.
func refineDeep(s, o *geom.Superovoid, ts, to *geom.Transform, box *geom.AABB, c deepSample) deepSample {
	step := 2 * math.Pi / deepGrid1
	for n := 0; step > deepStep && n < deepEvals; {
		moved := false
		for _, d := range [8][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
			n++
			if e := deepAt(s, o, ts, to, box, c.p1+d[0]*step, c.p2+d[1]*step); e.d > c.d {
				c, moved = e, true
			}
		}
		if !moved {
			step /= 2
		}
	}
	return c
}

// deepStep and deepEvals end refineDeep's search.
const (
	deepStep  = 1e-3
	deepEvals = 96
)

// hullGapBest is the largest exact gap g that hullGapCheck measured more
// than 10° from the answer's normal (ok once it measured one).
type hullGapBest struct {
	ok bool
	g  float64
}

// hullNearCos and hullNearBelow decide when probeBasins runs the polytope
// after hullGapCheck proved nothing: when the best direction it measured
// more than 10° from the answer's normal (nearer, it mostly measures the
// answer's own basin) has a gap within 0.05 of the smaller semi-axis below
// the answer. The hulls' gap of two pointy shapes can have several maxima
// a few degrees apart, so a direction that close may neighbour a maximum
// above the answer, which the polytope finds wherever it is. Until
// 2026-12-07 the probe climbed the hulls' exact gap from that direction
// instead (exactAscent, from 0.02 below): a local climb. At
// SOVVIZ_SWEEP_SEED=13 (TestHullGapPolytope) the best direction was 0.04
// below, so it never climbed, and a scratch climb from there ended at
// another maximum, twice as slow as the polytope (numeric supports of
// tapered shapes; with a sweep running beside it: 2.1 against 0.9 ms).
// The answers that motivated the climb, 0.004 of the smaller semi-axis
// below the answer with the hulls' direction 25° from its normal
// (TestHullGapAscentWarm) and 18° from it (TestHullGapCone: a 20° cone
// left it too deep), the polytope finds too.
// Over nonConvexPointyOverlaps(300, seed) for seeds 7, 1 and 2, cold, it
// ran for 44, 38 and 45 of the 300 queries and changed none of their
// answers (TestHullNearCount).
const (
	hullNearCos   = 0.984807753012208 // cos 10°
	hullNearBelow = 0.05
)

// sameNormalGrid1 and sameNormalGrid2 are the azimuths and latitude
// intervals of sameNormalSeeds' grid (its rings leave out the poles),
// sameNormalCos the alignment (cos 18°) from which a local maximum seeds
// Newton, and sameNormalKeep how many of the best it keeps a shape. With
// 16 and 8 the grid misses two of TestSameNormalSeeds' pairs (seed 16's in
// two schemes, seed 11's in all three).
const (
	sameNormalGrid1 = 24
	sameNormalGrid2 = 12
	sameNormalCos   = 0.95
	sameNormalKeep  = 3
)

// sameNormalSeeds starts Newton, in every scheme, from the points of each
// non-convex shape whose outward normal is (to sameNormalCos, a local
// maximum of the alignment over a grid of the parameters) the end's n for a
// and −n for b, each with the other body's point of the end (an exact
// ascent's support point, or the answer's witness): the best
// sameNormalKeep maxima, less those within a tenth of the shape's smallest
// semi-axis of the end's own point.
// On a non-convex shape several points share a normal: the support point
// and those in or beside a dent, and where the bodies' translation lifts a
// point of one out of the other's dent, the hulls' gap has a maximum near
// its normal but the support points bridge the dent, and Newton from them
// fails (TestApproachSweep at SOVVIZ_SWEEP_SEED 11, 13, 16 and 17: 1–5%
// too deep, the hulls' translation or another basin, where a warm start or
// another scheme found the dent's pair; TestSameNormalSeeds). It returns
// the shallowest converged overlapping pair it found (invalid if none).
func (sv *Solver) sameNormalSeeds(m Method, pr *pair, e *ascentEnd, res *Result) candidate {
	var best candidate
	for side := 0; side < 2; side++ {
		s, _, ts, _ := pr.side(side)
		info := pr.ia
		if side == 1 {
			info = pr.ib
		}
		if info.convex {
			continue
		}
		want := e.n
		if side == 1 {
			want = want.Mul(-1)
		}
		wl := ts.InvDir(want)
		g := sv.normalGrid(s)
		var al [sameNormalGrid1][sameNormalGrid2]float64
		for i := range al {
			for j := 1; j < sameNormalGrid2; j++ {
				al[i][j] = g.n[i][j].Dot(wl)
			}
		}
		// The best local maxima above sameNormalCos (azimuths wrap).
		var keep [sameNormalKeep]struct {
			i, j int
			v    float64
		}
		nk := 0
		for i := range al {
			for j := 1; j < sameNormalGrid2; j++ {
				v := al[i][j]
				if v < sameNormalCos {
					continue
				}
				// (A tie goes to the neighbour first in the scan, so
				// that a plateau, such as a ring of a shape symmetric
				// about the direction, gives one seed, not three alike.)
				top := true
				for di := -1; di <= 1 && top; di++ {
					for dj := -1; dj <= 1; dj++ {
						ii, jj := (i+di+sameNormalGrid1)%sameNormalGrid1, j+dj
						if (di == 0 && dj == 0) || jj < 1 || jj >= sameNormalGrid2 {
							continue
						}
						if w := al[ii][jj]; w > v || w == v && (ii < i || ii == i && jj < j) {
							top = false
							break
						}
					}
				}
				if !top {
					continue
				}
				k := nk
				if nk < sameNormalKeep {
					nk++
				} else if v <= keep[nk-1].v {
					continue
				} else {
					k = nk - 1
				}
				for k > 0 && keep[k-1].v < v {
					keep[k] = keep[k-1]
					k--
				}
				keep[k].i, keep[k].j, keep[k].v = i, j, v
			}
		}
		own := e.lp
		if side == 1 {
			own = e.lq
		}
		for _, kp := range keep[:nk] {
			x := s.Point(sameNormalAngles(kp.i, kp.j))
			if x.Sub(own).Len() < 0.1*minAxis(s) {
				continue // (the end's own point: Newton from it returns there)
			}
			lp, lq := x, e.lq
			if side == 1 {
				lp, lq = e.lp, x
			}
			for _, m2 := range schemesFrom(m) {
				c := sv.solveFromPoints(m2, pr, lp, lq, res)
				if c.valid && c.converged && !c.separated && better(&c, &best) {
					best = c
				}
			}
		}
	}
	return best
}

// normalGrid is one shape's unit outward normals at sameNormalSeeds' grid
// points (n[i][j] at sameNormalAngles(i, j), j from 1; zero where the
// normal is undefined, which no alignment of sameNormalCos can then
// select or be blocked by).
type normalGrid struct {
	shape geom.Superovoid
	made  bool
	n     [sameNormalGrid1][sameNormalGrid2]vec
}

// normalGrid returns s's grid of normals, computed unless it is one of the
// two the solver keeps (a move-out check's mover uses its parent's).
func (sv *Solver) normalGrid(s *geom.Superovoid) *normalGrid {
	if sv.parent != nil {
		return sv.parent.normalGrid(s)
	}
	if sv.normals == nil {
		sv.normals = new([2]normalGrid)
	}
	for k := range sv.normals {
		if g := &sv.normals[k]; g.made && g.shape == *s {
			return g
		}
	}
	g := &sv.normals[sv.normalNext]
	sv.normalNext ^= 1
	g.shape, g.made = *s, true
	for i := range g.n {
		for j := 1; j < sameNormalGrid2; j++ {
			nn, ok := s.Normal(s.Point(sameNormalAngles(i, j)))
			if !ok {
				nn = vec{}
			}
			g.n[i][j] = nn
		}
	}
	return g
}

// sameNormalAngles are the parameters (azimuth, latitude) of the grid's
// point (i, j).
func sameNormalAngles(i, j int) (p1, p2 float64) {
	return -math.Pi + 2*math.Pi*float64(i)/sameNormalGrid1, -math.Pi/2 + math.Pi*float64(j)/sameNormalGrid2
}
