package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// An overlapping answer is the best of the common-normal pairs a search
// found (math.md §3); a warm start tracks it from the previous frame, and
// so stays in its basin. Another basin can overtake it as the bodies turn
// (two nearly equal depths along normals 30° apart: the warm answer lagged
// by up to 2e-3 in sovviz bench's warm run). So an overlapping answer
// keeps its lead over the other pairs its search met (searchState), and
// warm starts search again as soon as the motion since could have closed
// it. A rival once met is remembered while the search runs again (the
// multi-start does not meet every basin every time), so a pair with nearly
// equal basins is searched every frame, as a cold query would, until the
// bodies have moved by rivalMemory since it was last met.

// rival is one overlapping pair met by a search: its normal and its signed
// distance (for a start abandoned on its way, the estimate there).
type rival struct {
	n  vec
	sd float64
}

// maxRivals bounds the pairs one query records: the answer it started
// from, a multi-start's starts (and a recovery's), and a deep scan's start.
const maxRivals = 3 * (maxStarts + 2)

// searchReach is the lead, relative to the larger body's smallest
// semi-axis, that an overlapping answer is credited with over the pairs a
// search did not meet: the multi-start skips seeds whose gap is this far
// below its best answer.
const searchReach = 0.25

// searchState is what a Result keeps of the search behind an overlapping
// answer, for warm starts.
type searchState struct {
	ok bool
	ab geom.Transform // a's local frame in b's when the search ran
	sd float64        // the answer's signed distance then
	// lead is the answer's lead then over the pairs met (and those
	// remembered), at most searchReach of the larger smallest semi-axis:
	// no rival is above sd − lead (or lead is 0, and every warm start
	// searches again).
	lead float64
	// age is the motion since a remembered rival was met (0: the lead is
	// the search's own).
	age float64
}

// rivalMemory is how far, relative to the larger smallest semi-axis, the
// bodies may move before a rival that a search no longer meets is
// forgotten: remembered, its bound only rises, and the pair would be
// searched every frame for good.
const rivalMemory = 1.0

// search looks for the global answer among the common-normal pairs: the
// multi-start from support seeds, then, for a deep overlap of a pair with
// a non-convex shape, deepScan. It records the overlapping pairs it meets
// as rivals (noteRival), for keepSearch.
func (sv *Solver) search(m Method, pr *pair, best *candidate, res *Result, seen vec) {
	sv.nrivals = 0
	sv.noteRival(best)
	sv.multiStart(m, pr, best, res, seen, exploreIter)
	if !pr.convex && best.valid && best.converged && !best.separated && -best.sd > deepOverlap*charLength(pr) {
		sv.deepScan(m, pr, best, res) // a deep overlap: look for a better basin
	}
}

// noteRival records an overlapping pair that a search met: a valid one
// with its signed distance, a start abandoned on its way (nearly opposite
// normals) with its estimate along a's normal.
func (sv *Solver) noteRival(c *candidate) {
	if sv.nrivals == maxRivals || c.nP == (vec{}) || (c.valid && c.separated) {
		return
	}
	sd := c.sd
	if !c.valid {
		if c.nP.Dot(c.nQ) > -0.99 {
			return
		}
		sd = c.nP.Dot(c.Q.Sub(c.P))
		if !(sd < 0) {
			return
		}
	}
	sv.rivals[sv.nrivals] = rival{n: c.nP, sd: sd}
	sv.nrivals++
}

// keepsSearch reports whether an answer keeps a search state: an
// overlapping one that the polytope did not prove (it is always found
// valid and then finished as converged or max_iterations here).
func keepsSearch(c *candidate) bool { return c.valid && !c.separated && !c.mtdCertified }

// keepSearch makes the search state of an overlapping answer from the
// rivals recorded (one within 2.5° of the answer is the answer's own
// basin) and, when prev is a search of the same shapes that had met a
// rival, from that rival too while it is remembered: it can have risen by
// no more than the motion since (searchState.moved).
func (sv *Solver) keepSearch(pr *pair, best *candidate, prev *searchState) searchState {
	ma := max(minAxis(pr.a), minAxis(pr.b))
	lead, age := searchReach*ma, 0.0
	for i := 0; i < sv.nrivals; i++ {
		if r := &sv.rivals[i]; r.n.Dot(best.nP) <= 0.999 {
			lead = min(lead, best.sd-r.sd)
		}
	}
	if prev != nil && prev.ok && prev.lead < searchReach*ma {
		mv := prev.moved(pr)
		if a := prev.age + mv; a <= rivalMemory*ma {
			if mem := best.sd - (prev.sd - prev.lead) - mv; mem < lead {
				lead, age = mem, a
			}
		}
	}
	return searchState{ok: true, ab: pr.ab, sd: best.sd, lead: max(lead, 0), age: age}
}

// warmSearch checks an overlapping answer c tracked from prev's: it
// searches again when prev's search is unknown, was on other shapes, or is
// due, and returns the answer's search state.
func (sv *Solver) warmSearch(m Method, pr *pair, c *candidate, res *Result, prev *Result) searchState {
	st := &prev.search
	if !pr.samePrev {
		st = &searchState{}
	}
	// No rival was above st.sd − st.lead, and none can have risen by more
	// than the motion since: c, whatever basin it tracked, still beats
	// them all when it is above that. (Not "the answer can only have
	// fallen by as much": a caller may hand in a prev whose points it
	// moved to another basin; review of 2026-11-24.)
	if st.ok && c.sd-(st.sd-st.lead) > st.moved(pr) {
		if !probes(pr) {
			return *st
		}
		// The lead is credited for the basins the multi-start can meet;
		// between its seeds, on pointy shapes, one it never
		// met can overtake the answer (TestProbeFindsBasin's warm step):
		// the probe, at every step. (On pairs with a non-convex shape too,
		// since 2026-12-06: an approach of two pointy tapered shapes
		// tracked a pair 0.1070 deep where cold queries found 0.0763,
		// TestProbeNonConvexWarm.)
		sd := c.sd
		sv.nrivals = 0
		sv.noteRival(c)
		sv.probeBasins(m, pr, c, res)
		if c.sd == sd {
			return *st
		}
		return sv.keepSearch(pr, c, st)
	}
	sv.researched++
	sv.search(m, pr, c, res, vec{})
	if !pr.convex && probes(pr) && !sv.noWarmPolytope {
		sv.warmPolytope(m, pr, c, res)
	}
	sv.probeBasins(m, pr, c, res)
	return sv.keepSearch(pr, c, st)
}

// warmPolytope is a warm re-search's start from the polytope's pair (the
// hulls' shallowest translation), polished where Newton crawls, as a cold
// query of a pointy non-convex pair runs them where every start of its
// multi-start fails (epaRescue, polishCusp): the warm multi-start, whose
// starts the tracked answer prunes, rarely converges anywhere else
// either. It takes the pair where it is shallower than c by more than
// pairTol. (Approaches of TestApproachSweep tracked pairs 0.161698 deep
// where cold queries answered 0.160754 from there, TestWarmPolytope, and
// 0.191332 where they polished 0.189507, TestWarmPolytopeCusp.)
func (sv *Solver) warmPolytope(m Method, pr *pair, c *candidate, res *Result) {
	// (Both stages mark res.Fallback when they find a pair another way
	// than the configured scheme: that stands only for a pair taken.)
	fb := res.Fallback
	res.Fallback = false
	var r candidate
	sv.epaRescue(m, pr, &r, res)
	sv.polishCusp(m, pr, &r, res)
	sv.noteRival(&r) // (a pair met, as the probe notes each of its own)
	taken := r.valid && !r.separated && better(&r, c) && r.sd > c.sd+pairTol(pr)
	res.Fallback = fb || taken && res.Fallback
	if taken {
		*c = r
	}
}

// moved bounds how much the bodies' motion from s's search to pr can have
// changed any local maximum of the gap. In b's frame the gap along n is
// −n·T_ab − h_a(R_abᵀn) − h_b(−n) (math.md §3), which the motion changes
// by at most |ΔT_ab| + r_a·‖ΔR_ab‖ (r_a bounds the Lipschitz constant of
// a's support function, ‖ΔR_ab‖ the spectral norm of the rotation's change),
// and so does every local maximum.
func (s *searchState) moved(pr *pair) float64 {
	f := 0.0
	for i := range pr.ab.R {
		d := pr.ab.R[i] - s.ab.R[i]
		f += d * d
	}
	// ‖ΔR‖₂ = 2·sin(θ/2) for the angle θ between the rotations, which is
	// the Frobenius norm over √2.
	return pr.ab.T.Sub(s.ab.T).Len() + math.Sqrt(f/2)*pr.a.BoundingRadiusFast()
}
