package contact

import "github.com/sovviz/sovviz/geom"

// moveOutTries caps the moved queries of one move-out check: at most two
// deeper pairs replace an answer, each checked in turn.
const moveOutTries = 3

// moveOutMargin is how far beyond an overlap's depth the move-out checks
// move b, relative to the depth: the moved bodies are then that far apart
// where the answer's pair was, and a remaining overlap shallower than that
// (or than pairTol) is accepted: an answer too shallow by at most 1e-6 of
// its depth or pairTol.
const moveOutMargin = 1e-6

// movesOut reports whether an overlapping answer needs a move-out check:
// a pair with a non-convex shape that is pointy or caved in (two places of
// overlap need a profile that curves back: the sweeps found too shallow
// answers only there within the depths, and the check costs a
// query), or any non-convex pair's overlap deeper than the smaller
// smallest semi-axis (moveOutDeep), which the polytope did not certify.
// (Two box-like shapes with taper dips, e 0.26, 0.37 and 1.02, 0.48, were
// answered 1.032864 deep, 1.32 times that semi-axis, converged, and moved
// out by 1.01 times that still overlapped: pair 3250 of TestWidePlacedPairs
// with SOVVIZ_SWEEP_SEED=18; the check finds 1.052172, which parts them:
// TestMoveOutDeepDips. At 0.3 of the semi-axis, the depths, the
// paper battery's dump, SOVVIZ_DUMP=FILE go test -run BatteryDump
// ./contact, changed the iteration counts of 403 of its 10,000 support
// guess lines, overlaps 0.30 to 0.67 deep, and no answer: each paid a
// moved query for nothing. At 1 the dump is byte-identical.)
func (sv *Solver) movesOut(pr *pair, c *candidate) bool {
	return !pr.convex && c.valid && !c.separated && !c.mtdCertified && c.sd < 0 &&
		(probes(pr) || caved(pr, pr.ia, pr.ib) || !sv.noMoveOutDeep && c.sd < -moveOutDeep*pr.L)
}

// moveOutDeep is the depth, relative to the smaller smallest semi-axis
// (pair.L), beyond which every non-convex pair's overlap is checked.
const moveOutDeep = 1

// moveOutCheck checks an overlapping answer of a non-convex pair (movesOut)
// by moving b out along the answer's normal by its depth (and
// moveOutMargin more) and querying the moved bodies: they must be apart.
// Two such shapes can overlap in two places, and the shallowest
// common-normal pair of one place leaves the other overlapping
// (TestMoveOutDeeperPair: answered 0.0818 deep where the bodies separate
// only after 0.1063). The moved answer's pair, moved back, seeds Newton in
// the first configuration; its pair there, deeper, replaces the answer and
// is checked the same way. (Its local points need no moving back: b's
// frame moves with b.) A moved query that cannot tell leaves the answer
// as it is; one that still finds an overlap, where no deeper pair
// replaces the answer or the tries run out, marks it StillOverlapping.
// An overlap left within pairTol is no evidence (the moved query's own
// tolerance: near-touching answers were flagged for 1e-13, review of
// 2026-12-06).
func (sv *Solver) moveOutCheck(m Method, pr *pair, a, b *geom.Body, best *candidate, res *Result) {
	if sv.parent != nil || sv.noMoveOut || !sv.movesOut(pr, best) {
		return
	}
	tol := pairTol(pr)
	for k := 0; ; k++ {
		r := sv.movedQuery(pr, a, b, best, res)
		if r == nil {
			return
		}
		sv.moveChecks++
		if r.Status == Failed || !(r.Distance < min(moveOutMargin*best.sd, -tol)) {
			return
		}
		sv.moveRefuted++
		res.moveRefused = true
		var d candidate
		if k+1 < moveOutTries {
			d = sv.fromSeed(m, pr, r.LocalP, r.LocalQ, res, nil)
			if !sv.noMoveOutCusp {
				// (Every scheme crawled, as on a pointy tip:
				// TestMoveOutCuspPolish.)
				if cp, ok := sv.polishedCrawl(pr, &d, res); ok {
					d = cp
					sv.moveCusps++
				}
			}
		}
		if !(d.valid && d.converged && !d.separated && d.sd < best.sd-tol) {
			res.StillOverlapping = -r.Distance
			return
		}
		*best = d
		sv.moveReplaced++
		res.Fallback = true
	}
}

// moveOutWarm is moveOutCheck for a warm start. A pair whose answers the
// check has refused before (prev.moveRefused, kept from query to query by
// answer while the pair overlaps) is checked in full at every step, as is
// a warm answer that the search took from another place than the pair
// tracked from prev (whose depth is trackedSD), and the first overlap after
// a separated prev. An overlap tracked from an overlapping prev, on a pair
// never refused, is checked again only where the hulls' support planes
// along its normal do not prove the move parts the bodies
// (movePartsHulls): the check ran on prev's, but one step of motion can
// make a second place of overlap (TestMoveOutWarmTracked; on the pointy
// non-convex overlaps' warm benchmark, 33 of 300 steps). (A cheaper
// check, Newton from the refused place on the moved bodies, missed an
// overlap there and dropped the mark that cold queries carried: review of
// 2026-12-06.) The step from apart to overlapping can: a caved prism
// coming down on a box-like shape met it in two places at once, and the
// warm answers tracked the shallower one, 0.0021 to 0.054 deep where the
// bodies came apart only after 0.058 to 0.145, for five steps
// (TestMoveOutWarmFirstOverlap).
func (sv *Solver) moveOutWarm(m Method, pr *pair, a, b *geom.Body, c *candidate, trackedSD float64, prev, res *Result) {
	if sv.parent != nil || sv.noMoveOut || !sv.movesOut(pr, c) {
		return
	}
	tol := pairTol(pr)
	switched := c.sd > trackedSD+tol || c.sd < trackedSD-tol
	if !switched && !prev.moveRefused && (prev.Distance < 0 || sv.noWarmFirstMoveOut) {
		// Tracked from prev's checked answer: where the hulls' support
		// planes along its normal show b's move by its depth parting the
		// hulls, the bodies part too, and the check is done. Else one
		// step of motion can make a second place of overlap after all
		// (TestMoveOutWarmTracked), and the check runs in full.
		if sv.noWarmTrackedCheck || movePartsHulls(pr, c) {
			return
		}
		sv.warmTrackedChecks++
	}
	sv.moveOutCheck(m, pr, a, b, c, res)
}

// movePartsHulls reports whether moving b out along the overlapping c's
// normal by its depth (and moveOutMargin more) parts the convex hulls, and
// so the bodies: the support gap of a − b along the normal, the hulls'
// overlap along it, is below that move.
func movePartsHulls(pr *pair, c *candidate) bool {
	n := c.nP.Normalize()
	w, _, _ := diffSupport(pr, n)
	return n.Dot(w) < -c.sd*(1+moveOutMargin)
}

// moveOut sets mv.moved to b moved out along c's normal by c's depth and
// moveOutMargin more; false when c has no normal to move along.
func (sv *Solver) moveOut(mv *Solver, pr *pair, a, b *geom.Body, c *candidate) bool {
	n := c.nP
	if !(n.Len() > 0) {
		return false
	}
	// (The moved body in the mover: a local's address would escape, an
	// allocation per check.)
	mv.moved = *b
	mv.moved.Pose.Position = b.Pose.Position.Add(n.Normalize().Mul(-c.sd * (1 + moveOutMargin)))
	return true
}

// movedQuery answers a and b moved out along c's normal by c's depth
// (moveOut) with the mover, its iterations and starts counted in res's;
// nil when c has no normal to move along.
func (sv *Solver) movedQuery(pr *pair, a, b *geom.Body, c *candidate, res *Result) *Result {
	mv := sv.moveSolver()
	if !sv.moveOut(mv, pr, a, b, c) {
		return nil
	}
	// (Into the mover's own result, cleared as a query's result starts:
	// a local escapes, 1.8 kB a check.)
	mv.res = Result{}
	mv.answer(a, &mv.moved, nil, &mv.res)
	res.Iterations += mv.res.Iterations
	res.Starts += mv.res.Starts
	return &mv.res
}

// moveSolver returns the solver of the move-out checks' moved queries and
// Newton runs (its own scratch state, so the query's warm state and
// factorisation stay the query's; the shape analyses are sv's).
func (sv *Solver) moveSolver() *Solver {
	if sv.mover == nil {
		sv.mover = &Solver{parent: sv}
	}
	sv.mover.opt = sv.opt
	sv.mover.opt.Trace = nil
	return sv.mover
}

// cache is the solver's shape cache, a mover's parent's (the moved bodies
// are the parent's shapes, analysed by its query just before).
func (sv *Solver) cache() *shapeCache {
	if sv.parent != nil {
		return &sv.parent.shapes
	}
	return &sv.shapes
}
