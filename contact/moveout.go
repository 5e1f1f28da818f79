package contact

import "github.com/sovviz/sovviz/geom"

// moveOutTries caps the deeper pairs one move-out check tries.
const moveOutTries = 3

// moveOutMargin is how far beyond an overlap's depth the move-out checks
// move b, relative to the depth: the moved bodies are then that far apart
// where the answer's pair was, and a remaining overlap shallower than that
// is accepted (an answer too shallow by at most 1e-6 of its depth).
const moveOutMargin = 1e-6

// shallowRegion holds the local points of an overlapping pair that a
// move-out check refused (its translation left the bodies overlapping
// elsewhere): the answer's translation must clear that region too, which a
// warm start checks cheaply (moveOutWarm).
type shallowRegion struct {
	ok     bool
	lp, lq vec
}

// movesOut reports whether an overlapping answer needs a move-out check:
// a pair with a non-convex shape that is pointy or caved in (two places of
// overlap need a profile that curves back: the sweeps found too shallow
// answers only there, and the check costs a query), which the polytope did
// not certify.
func movesOut(pr *pair, c *candidate) bool {
	return !pr.convex && c.valid && !c.separated && !c.mtdCertified && c.sd < 0 &&
		(probes(pr) || caved(pr, pr.ia, pr.ib))
}

// moveOutCheck checks an overlapping answer of a non-convex pair (movesOut)
// by moving b out along the answer's normal by its depth (and
// moveOutMargin more) and querying the moved bodies: they must be apart.
// Two such shapes can overlap in two places, and the shallowest
// common-normal pair of one place leaves the other overlapping
// (TestMoveOutDeeperPair: answered 0.0818 deep where the bodies separate
// only after 0.1063). The moved answer's pair, moved back, seeds Newton in
// the first configuration; its pair there, deeper, replaces the answer and
// is checked the same way. (Its local points need no moving back: b's
// frame moves with b.) A moved query that cannot tell, or a replacement
// that does not converge deeper, leaves the answer as it is.
func (sv *Solver) moveOutCheck(m Method, pr *pair, a, b *geom.Body, best *candidate, res *Result) {
	if sv.moving || sv.noMoveOut || !movesOut(pr, best) {
		return
	}
	mv := sv.moveSolver()
	for k := 0; k < moveOutTries; k++ {
		if !sv.moveOut(mv, pr, a, b, best) {
			return
		}
		// (Into the mover's own result, cleared as a query's result starts:
		// a local escapes, 1.8 kB a check.)
		mv.res = Result{}
		mv.answer(a, &mv.moved, nil, &mv.res)
		r := &mv.res
		sv.moveChecks++
		res.Iterations += r.Iterations
		res.Starts += r.Starts
		if r.Status == Failed || !(r.Distance < moveOutMargin*best.sd) {
			return
		}
		sv.moveRefuted++
		d := sv.fromSeed(m, pr, r.LocalP, r.LocalQ, res, nil)
		if !(d.valid && d.converged && !d.separated && d.sd < best.sd) {
			res.StillOverlapping = -r.Distance
			return
		}
		res.shallow = shallowRegion{ok: true, lp: best.lp, lq: best.lq}
		*best = d
		sv.moveReplaced++
		res.Fallback = true
	}
}

// trackedPlace is the overlapping pair a warm start tracked from its
// previous answer, before its search could replace it.
type trackedPlace struct {
	ok     bool
	sd     float64
	lp, lq vec
}

// moveOutWarm is moveOutCheck for a warm start, at the cost of a Newton
// run or two instead of a query: the answer's translation must clear the
// pair the start tracked from prev (when the search since replaced it by
// a shallower one) and the region prev's own check refused (prev.shallow).
// Newton from each, on the moved bodies, finding an overlap refutes the
// answer, and the pair it seeds in the first configuration replaces it;
// when that pair is no deeper, or prev was known too shallow
// (StillOverlapping), the full check decides.
func (sv *Solver) moveOutWarm(m Method, pr *pair, a, b *geom.Body, c *candidate, tracked *trackedPlace, prev, res *Result) {
	if sv.moving || sv.noMoveOut || !movesOut(pr, c) {
		return
	}
	if prev.StillOverlapping > 0 {
		// prev was known too shallow: the full check again, so that the
		// answer still says so (or finds the deeper pair the motion has
		// made reachable), as a cold query's would.
		sv.moveOutCheck(m, pr, a, b, c, res)
		return
	}
	if prev.shallow.ok {
		res.shallow = prev.shallow
	}
	var others [2]shallowRegion
	if tracked.ok && tracked.sd < c.sd-pairTol(pr) {
		others[0] = shallowRegion{ok: true, lp: tracked.lp, lq: tracked.lq}
	}
	others[1] = res.shallow
	mv := sv.moveSolver()
	for k := 0; k < moveOutTries; k++ {
		if !sv.moveOut(mv, pr, a, b, c) {
			return
		}
		var hit *candidate
		for i := range others {
			if !others[i].ok {
				continue
			}
			mpr := newPair(a, &mv.moved)
			mpr.ka, mpr.kb, mpr.ia, mpr.ib, mpr.convex = pr.ka, pr.kb, pr.ia, pr.ib, pr.convex
			mv.scratch = mv.fromSeed(m, &mpr, others[i].lp, others[i].lq, res, nil)
			sv.moveChecks++
			if d := &mv.scratch; d.valid && d.converged && !d.separated && d.sd < moveOutMargin*c.sd {
				hit = d
				break
			}
		}
		if hit == nil {
			return
		}
		sv.moveRefuted++
		d := sv.fromSeed(m, pr, hit.lp, hit.lq, res, nil)
		if !(d.valid && d.converged && !d.separated && d.sd < c.sd) {
			sv.moveOutCheck(m, pr, a, b, c, res)
			return
		}
		refused := shallowRegion{ok: true, lp: c.lp, lq: c.lq}
		res.shallow = refused
		others = [2]shallowRegion{refused, {}}
		*c = d
		sv.moveReplaced++
		res.Fallback = true
	}
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

// moveSolver returns the solver of the move-out checks' moved queries and
// Newton runs (its own scratch state, so the query's warm state and
// factorisation stay the query's; the shape analyses are sv's).
func (sv *Solver) moveSolver() *Solver {
	if sv.mover == nil {
		opt := sv.opt
		opt.Trace = nil
		sv.mover = &Solver{opt: opt, parent: sv, moving: true}
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
