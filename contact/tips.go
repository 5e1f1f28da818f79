package contact

import "github.com/sovviz/sovviz/geom"

// A pointy shape's axis points (±a1, ±a2, ±a3 along its axes; taper
// leaves them where they are) are tips: for an exponent near 2 the normal
// turns through tens of degrees within 1e-12 of one, so no Newton run
// converges to a common-normal pair there, and a tip pressed into a face
// makes an overlap that no common-normal answer describes. A tip of b
// inside a must move at least its distance to a's surface for the bodies
// to part (and a tip of a inside b likewise), so that distance bounds
// every separating translation from below; where b moved by it along the
// tip's foot normal is apart, it is the minimum translation distance.
// Newton crawls towards such a tip and stops short of it: on 1,000 pointy
// non-convex overlaps (a scratch draw) 6 answers were 2e-9 to 8e-8 too
// deep, converged (TestTipContact).

// tipNear is how close to a tip, relative to its shape's smallest
// semi-axis, an answer's witness must lie for tipCheck to try the tip.
const tipNear = 1e-3

// tipCheck replaces an overlapping answer of a pair with a pointy
// non-convex shape by a tip's translation where one is shallower (by more
// than pairTol) and, moved along it, the bodies are apart (a query of the
// moved bodies). It reports whether it replaced the answer: that moved
// query is then the move-out check's. Where a tip's translation leaves
// the bodies overlapping, Newton's pair from beside the tip can replace
// the answer instead (reported false: the move-out check still tests it).
func (sv *Solver) tipCheck(m Method, pr *pair, a, b *geom.Body, best *candidate, res *Result) bool {
	if sv.parent != nil || sv.noTips || pr.convex || !probes(pr) || !best.valid || best.separated || !(best.sd < 0) {
		return false
	}
	tol := pairTol(pr)
	// (At most one tip of each body lies within tipNear of a witness.)
	var cands [2]candidate
	var wits [2]vec  // (each candidate's witness beside its tip)
	var sides [2]int // (and the tip's body)
	n := 0
	for side := 0; side < 2; side++ {
		s, o, ts, to := pr.side(side)
		if !multiBasin(s) {
			continue
		}
		for k := 0; k < 6 && n < len(cands); k++ {
			var tl vec
			tl[k/2] = s.A[k/2]
			if k%2 == 1 {
				tl[k/2] = -s.A[k/2]
			}
			// Only a tip at the answer's own witness on that body (Newton
			// crawls towards a tip, and stops short of it 1e-8 or so
			// deep): a tip elsewhere costs a moved query that rarely
			// clears the bodies (2.4 times the cold time of such pairs
			// when every tip inside was tried).
			wl := best.lp
			if side == 1 {
				wl = best.lq
			}
			if wl.Sub(tl).Len() > tipNear*minAxis(s) {
				continue
			}
			xl := to.InvPoint(ts.Point(tl))
			if f, ok := o.Residual(xl); !ok || !(f < 0) {
				continue
			}
			pd := PointDistance(sv.ownFrame(o), xl)
			if pd.Status == Failed || !(-pd.Distance < -best.sd-tol) {
				continue
			}
			c := &cands[n]
			*c = candidate{valid: true, converged: true, method: Implicit}
			if side == 0 {
				c.lp, c.lq = tl, pd.Closest
			} else {
				c.lp, c.lq = pd.Closest, tl
			}
			c.P, c.Q = pr.ta.Point(c.lp), pr.tb.Point(c.lq)
			d := c.P.Sub(c.Q) // b moves by d to put the tip on the surface
			if !(d.Len() > 0) {
				continue
			}
			c.sd = -d.Len()
			c.nP = d.Mul(1 / d.Len())
			c.nQ = c.nP.Mul(-1)
			c.x = [6]float64{c.lp[0], c.lp[1], c.lp[2], c.lq[0], c.lq[1], c.lq[2]}
			wits[n], sides[n] = wl, side
			n++
		}
	}
	if n == 0 {
		return false
	}
	if n == 2 && cands[1].sd > cands[0].sd {
		cands[0], cands[1] = cands[1], cands[0] // the shallower first
		wits[0], wits[1] = wits[1], wits[0]
		sides[0], sides[1] = sides[1], sides[0]
	}
	var near candidate // (the best pair of Newton's runs from the tips)
	for i := 0; i < n; i++ {
		c := &cands[i]
		r := sv.movedQuery(pr, a, b, c, res)
		if r == nil {
			continue
		}
		sv.tipChecks++
		if r.Status == Failed {
			continue
		}
		if r.Distance < -tol {
			// The tip alone is not the deepest point: the bodies' pair
			// lies beside it, where the other body can hold a basin
			// shallower than the answer's, which Newton from the answer's
			// witness beside the tip (from the tip itself, whose normal
			// is undefined, no run starts) and the tip's foot finds, in
			// some scheme. (TestQuerySymmetries with SOVVIZ_SWEEP_SEED=2,
			// pair 3218: a tip 0.0039 deep in a tapered body, with two
			// basins of near-equal depth either side of the tip's foot;
			// the answer was the one 2.6e-7 deeper, unless the pair
			// stood elsewhere in the world: TestTipSeeds.)
			if !sv.noTipSeeds {
				lp, lq := wits[i], c.lq // (a's tip)
				if sides[i] == 1 {
					lp, lq = c.lp, wits[i]
				}
				for _, m2 := range schemesFrom(m) {
					if s := sv.solveFromPoints(m2, pr, lp, lq, res); s.valid && s.converged && !s.separated && better(&s, &near) {
						near = s
					}
				}
			}
			continue
		}
		*best = *c
		sv.tipReplaced++
		// (Another stage's answer, as a move-out check's; its points are
		// local Cartesian ones, Method Implicit's.)
		res.Fallback = true
		return true
	}
	if tipSeedTakes(&near, best, cands[:n], tol) {
		// (Not returned as replaced: the move-out check is still to
		// prove the new pair clears the bodies.)
		sv.noteRival(&near)
		*best = near
		sv.tipSeeded++
		res.Fallback = true
	}
	return false
}

// tipSeedTakes reports whether tipCheck's Newton pair near replaces best:
// valid, better, shallower by more than tol, and no shallower than the
// deepest tip's own translation (tips) by more than tol, since every tip
// inside the other body bounds each separating translation from below by
// its depth.
func tipSeedTakes(near, best *candidate, tips []candidate, tol float64) bool {
	deepest := 0.0
	for i := range tips {
		deepest = min(deepest, tips[i].sd)
	}
	return near.valid && better(near, best) && near.sd > best.sd+tol && near.sd <= deepest+tol
}
