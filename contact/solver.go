package contact

import (
	"math"
	"time"

	"github.com/sovviz/sovviz/geom"
)

// Solver answers contact queries. It owns scratch space and per-shape caches
// (convexity, octrees), so that repeated queries allocate nothing. A Solver
// is not safe for concurrent use; give each goroutine its own.
type Solver struct {
	opt   Options
	sys   system
	trial system
	// outcome is solveFrom's Newton outcome (scratch, read by classify).
	outcome newtonOutcome
	// lu is the factorisation of the implicit scheme's last undamped Newton
	// solve, at the iterate luX of query number luQuery (queryN counts the
	// queries): finish keeps it in the answer's warm state when that
	// iterate is at or next to the answer's last evaluation (luNear).
	lu implicitLU
	// consts holds the constants of the shapes of the last query's a
	// (entry 0) and b (entry 1), for the pair's evaluations: a warm start
	// of the same pair finds them, instead of dividing them out again.
	consts [2]shapeConsts
	// jtj, jtr are newton's normal equations (scratch).
	jtj             [6][6]float64
	jtr             [6]float64
	luX             [6]float64
	luQuery, queryN uint64
	shapes          shapeCache
	// octs caches the octrees of the octree guess; octStack is its
	// branch-and-bound stack.
	octs, octsOld map[octKey]*geom.Octree
	octStack      [octStackMax][2]int32
	// explore is a copy of the multi-start's best candidate while it runs
	// its exploratory starts (exploring set): Newton abandons a start that
	// is converging to that pair or a worse one (Solver.losing). A copy, not
	// a pointer, so that the query's candidates stay on the stack.
	explore   candidate
	exploring bool
	// ranked is set while a ranked start of the multi-start runs; joined
	// says that Newton ended it in the best pair's basin (joining), and
	// joins counts those (tests). noJoin turns joining off (tests compare).
	ranked, joined, noJoin bool
	joins                  int
	noFarStall             bool // tests: judge stalls over stallWindow only
	noCrawlTest            bool // tests: re-seed every start that ran out of iterations
	crawls                 int  // starts re-seeded by a climb (startAt; tests)
	reused                 int  // warm starts that reused the previous evaluation (tests)
	chords                 int  // warm starts whose chord step was taken (tests)
	finals                 int  // runs ended by a final chord step (tests)
	noChords               bool // tests: neither chord step (chordStep, chordFinal)
	noDampedDone           bool // tests: a damped step below tol ends a run as a Newton step does
	noRidgesPolish         bool // tests: no ridgesPolish
	noStalledWalk          bool // tests: no walk of an unconverged answer's points onto the surfaces (stalledOnSurfaces)
	noProbe                bool // tests and benchmarks: no probeBasins
	noLowSeed              bool // tests: no lowSeed
	noLowSeedNewton        bool // tests: no Newton in the schemes from lowSeed's walk
	noGapScan              bool // tests: no scan of answers far above their support gap (scanGap)
	noWitnessRefute        bool // tests: refuteSeparated scans whatever classify's witnesses proved (pair.insideF)
	noWarmFirstMoveOut     bool // tests: moveOutWarm skips a warm start's first overlap after a separated prev
	// noWarmTrackedCheck makes moveOutWarm skip an overlap tracked from
	// prev's, as before TestMoveOutWarmTracked; warmTrackedChecks counts
	// the tracked overlaps it checked in full (tests).
	noWarmTrackedCheck  bool
	warmTrackedChecks   int
	noWarmSeparatedCold bool // tests: a warm search's uncertified separated pair stands
	noDistStarts        bool // tests: the scan's descents start from the residual's grid minima only
	noProvenDepth       bool // tests: touchRescue may take a pair deeper than a proven translation
	noHullStalled       bool // tests: hullRescue ignores a stalled GJK's pair
	noTipStationary     bool // tests: the ridge search takes no tip's pair as converged (tipStationary)
	noMoveOutDeep       bool // tests: only pointy or caved pairs' overlaps are moved out, however deep (movesOut)
	noWalkRefutes       bool // tests: a ridge walk's closer pair does not replace a converged best (ridgeSearch)
	// probeOnly leaves a pointy convex pair's shallow overlaps to
	// probeBasins, as before the polytope checked them (tests: the probe
	// is the fallback where the polytope cannot close its bounds).
	probeOnly bool
	// shallowPolytopeFails makes epaCheck fail on overlaps shallower than
	// epaDeep (tests: the probe's fallback, which the sweeps never need).
	shallowPolytopeFails bool
	// researched counts the warm starts that searched again (warmSearch;
	// tests).
	researched int
	// refuted counts the separated answers refuteSeparated proved wrong,
	// and overlapScans its scans of the surfaces for a point in both
	// bodies (tests).
	refuted, overlapScans int
	// lowSeeds counts the pairs lowSeed found that replaced an answer.
	lowSeeds int
	// tries counts the multi-start's ranked starts against a valid,
	// converged overlapping answer, and improved those that replaced it
	// with one better by more than pairTol (TestLatencyDistribution
	// reports them).
	tries, improved int
	// poly is the expanding polytope's scratch space (epaCheck), made on
	// first use: 80 kB that most solvers never need.
	poly *epa
	// normals are sameNormalSeeds' grids of outward normals of the last
	// two non-convex shapes it scanned (made on first use, 14 kB; a
	// mover uses its parent's): a query scans a shape's grid once, not at
	// every seed search, and a solver answering one pair's warm starts
	// not at all (one answering more, such as World's, evicts them).
	normals    *[2]normalGrid
	normalNext int
	// eagerRank makes multiStart compute every ranking gap up front, as
	// before its lazy ranking (tests compare the two).
	eagerRank bool
	// rivals are the overlapping pairs the query's search met (noteRival),
	// for the answer's lead over the runner-up (searchState).
	rivals  [maxRivals]rival
	nrivals int
	// mover answers the moved pairs of the move-out checks (made on first
	// use). In a mover, parent is the solver it serves, whose shape cache
	// and octrees it uses (cache, octree; a mover's own answers are not
	// checked so), and moved and res are the moved body and the moved
	// query's result (fields, not locals: their addresses would escape, an
	// allocation per check).
	mover  *Solver
	parent *Solver
	moved  geom.Body
	res    Result
	// noMoveOut turns moveOutCheck off (tests and benchmarks compare);
	// moveChecks counts its moved queries, moveRefuted those that still
	// overlapped and moveReplaced the deeper pairs it took (tests).
	noMoveOut                             bool
	moveChecks, moveRefuted, moveReplaced int
	// hullGapped counts the overlaps hullGapCheck proved too deep and
	// hullNear those where, unproven, its best gap came near the answer
	// and the polytope ran; noHullGap turns both off (tests);
	// noHullGapRest turns off its look along the probe's unranked
	// directions only, noHullNear the polytope after it only.
	hullGapped, hullNear int
	noHullGap            bool
	noHullGapRest        bool
	noHullNear           bool
	// noSameNormal turns sameNormalSeeds off (tests).
	noSameNormal bool
	// noProbeCusp turns off the chart's polish of a probe climb's
	// crawling start, and probeCusps counts the pairs it polished (tests;
	// as the other switches here, in the solver's own query only, not in
	// a move-out check's moved queries).
	noProbeCusp bool
	probeCusps  int
	// noMoveOutCusp turns off the chart's polish of a move-out check's
	// crawling run, and moveCusps counts the pairs it gave (tests).
	noMoveOutCusp bool
	moveCusps     int
	// noWarmPolytope turns warmPolytope off (tests).
	noWarmPolytope bool
	// tipBody is ownFrame's scratch body (tipCheck's and ridgeFaces'
	// other body in its own frame); noTips turns tipCheck off, tipChecks
	// counts its moved queries and tipReplaced the answers it replaced
	// (tests).
	tipBody                geom.Body
	noTips                 bool
	tipChecks, tipReplaced int
	// noTipSeeds turns off tipCheck's Newton runs from a tip whose
	// translation leaves the bodies overlapping, and tipSeeded counts the
	// answers they replaced (tests).
	noTipSeeds bool
	tipSeeded  int
	// noRidgeFaces turns ridgeFaces off, and ridgeFaceEvals counts its
	// distance evaluations (tests).
	noRidgeFaces   bool
	ridgeFaceEvals int
	noDeepSeeds    bool // tests: no deepSeeds
	// noDeepAllSchemes runs deepSeeds' seeds in fromSeed's schemes only,
	// as before TestDeepSeedsAllSchemes (tests).
	noDeepAllSchemes bool
	// iterateWitness lets classify take an unconverged implicit
	// iterate's point inside the other body as an overlap proof, as
	// before TestIterateWitness (tests).
	iterateWitness bool
	// noHullsApart turns off epaCheck's refutation of an overlap whose
	// hulls its polytope finds apart, and hullsApart counts them (tests).
	noHullsApart bool
	hullsApart   int
	noCuspTouch  bool // tests: polishCusp keeps a separated crawl against a touch
	fewClimbs    bool // tests: probeStarts climbs on every pair
}

// NewSolver returns a solver with the given options (zero fields take the
// defaults of DefaultOptions, and so does a Tol that is not a positive
// finite number: the CLI refuses those, and +Inf would end every run at
// the 1e-8 residual alone).
func NewSolver(opt Options) *Solver {
	d := DefaultOptions()
	if !(opt.Tol > 0) || math.IsInf(opt.Tol, 1) {
		opt.Tol = d.Tol
	}
	if opt.MaxIter <= 0 {
		opt.MaxIter = d.MaxIter
	}
	if opt.QuadLevels <= 0 {
		opt.QuadLevels = d.QuadLevels
	}
	if opt.QuadLevels > MaxQuadLevels {
		opt.QuadLevels = MaxQuadLevels
	}
	if opt.OctreeDepth <= 0 {
		opt.OctreeDepth = d.OctreeDepth
	}
	return &Solver{opt: opt, shapes: newShapeCache()}
}

// Prepare analyses a shape (convexity, support table, and its octree when
// the octree guess is configured or the shape is caved in, for the dent
// search) ahead of its first query, so that the query's time is the
// query's alone. Queries analyse unknown shapes themselves; the solver
// keeps the analyses of at least the last 4096 distinct tapered shapes it
// looked up, and the octrees of the last 64. (A warm start on the shapes of
// its previous answer takes their analyses from that answer, without a
// lookup.)
func (sv *Solver) Prepare(s *geom.Superovoid) {
	if in := sv.shapes.info(s); sv.opt.Guess == Octree || in.hullGap > caveGap*maxAxis(s) {
		sv.octree(s)
	}
}

// Options returns the solver's options.
func (sv *Solver) Options() Options { return sv.opt }

// SetOptions changes the options for later queries. The per-shape caches
// are kept (octrees are keyed by their depth too).
func (sv *Solver) SetOptions(opt Options) {
	*sv = Solver{opt: NewSolver(opt).opt, shapes: sv.shapes, octs: sv.octs, octsOld: sv.octsOld, poly: sv.poly, normals: sv.normals}
}

// Query computes the contact between a and b from a fresh initial guess.
// Both bodies must be valid (see geom.Body.Validate); an invalid body gives
// Status Failed with a zero Distance (no estimate: read the status before
// the distance), never a panic or a NaN. A nil opt means DefaultOptions.
func Query(a, b *geom.Body, opt *Options) Result {
	if opt == nil {
		d := DefaultOptions()
		opt = &d
	}
	sv := NewSolver(*opt)
	return sv.Query(a, b)
}

// Query computes the contact between a and b from a fresh initial guess.
func (sv *Solver) Query(a, b *geom.Body) (r Result) {
	sv.answer(a, b, nil, &r)
	return
}

// QueryWarm computes the contact starting from prev, a previous result of
// the same pair (temporal coherence). When Newton fails from there, or prev
// is nil, it falls back to a fresh guess. An overlapping answer is searched
// again, as a cold query searches, once the motion since prev's search
// could have let another common-normal pair overtake it (see rivals.go). When neither body nor the
// options changed since prev was computed (a still scene, frame after
// frame), prev is the answer: it is returned with Iterations, Starts and
// Polytope 0, as nothing was computed (not when tracing, whose steps are
// the query's own).
func (sv *Solver) QueryWarm(a, b *geom.Body, prev *Result) (r Result) {
	if prev != nil && sv.opt.Trace == nil && prev.in.same(a, b, &sv.opt) {
		r = *prev
		r.Iterations, r.Starts, r.Polytope, r.GuessNS, r.Warm = 0, 0, 0, 0, true
		return r
	}
	// (Into the named result: a local copied out cost 600 instructions.)
	sv.answer(a, b, prev, &r)
	return
}

// answer runs the query and records what it answered (for QueryWarm).
func (sv *Solver) answer(a, b *geom.Body, prev *Result, r *Result) {
	sv.query(a, b, prev, r)
	// A pair whose answer a move-out check refused stays marked while it
	// overlaps (its warm starts check in full: moveOutWarm), a warm start
	// that went cold included.
	r.moveRefused = r.moveRefused || prev != nil && prev.moveRefused && r.Distance < 0 && prev.sameShapes(&a.Shape, &b.Shape)
	gapCertify(a, b, r)
	r.in.set, r.in.a, r.in.b, r.in.opt = true, *a, *b, sv.opt
}

// gapCertify turns a separated answer that ended MaxIterations into a
// Converged and Certified one when the support planes prove it: its points
// lie on the surfaces, each faces the other (Q − P on the outer side of the
// tangent plane at P, P − Q at Q), and the gap between the bodies' exact
// support planes normal to Q − P is within pairTol of |Q − P|. The gap
// bounds the distance from below (for non-convex bodies too: it is their
// hulls' separation along that normal) and |Q − P| from above, so the
// answer is the minimum to within pairTol. (Rings of surface points
// around each point, the first version of this check, passed pairs 9e-8
// too far between nearly touching spheres and 7.7e-6 too far along a
// pointy crease: review of 2026-11-25.) Newton stalls where no scheme
// meets its tolerance, at pointy tips and on box-like faces, on points
// that are often right.
func gapCertify(a, b *geom.Body, r *Result) {
	if r.Status != MaxIterations || !(r.Distance > 0) {
		return
	}
	pr := newPair(a, b)
	lp, lq := pr.ta.InvPoint(r.P), pr.tb.InvPoint(r.Q)
	xa, xb := pr.ta.InvPoint(r.Q), pr.tb.InvPoint(r.P) // each point in the other body's frame
	// (gapCertified checks that the points lie on the surfaces.)
	for _, c := range [2]struct {
		s    *geom.Superovoid
		p, x vec
	}{{&a.Shape, lp, xa}, {&b.Shape, lq, xb}} {
		if e, ok := c.s.Gradient(c.p); !ok || !(e.Grad.Dot(c.x.Sub(c.p)) > 0) {
			return
		}
	}
	d := r.Q.Sub(r.P)
	c := candidate{valid: true, separated: true, sd: d.Len(), nP: d, lp: lp, lq: lq}
	if gapCertified(&pr, &c) {
		r.Status, r.Certified = Converged, true
	}
}

// candidate is one classified solution of the common-normal system.
type candidate struct {
	valid     bool
	separated bool
	sd        float64 // signed distance
	x         [6]float64
	method    Method
	P, Q      vec
	nP, nQ    vec
	lp, lq    vec
	converged bool
	// ea, eb are the log residuals' gradients and Hessians at (or one
	// final Newton step from) the witness points, for the certificate's
	// curvature test; haveHess says they are set (implicit and ntb).
	ea, eb   geom.Implicit
	haveHess bool
	// slack > 0 marks an unconverged pair whose scaled residual is below
	// nearStationary; its distance is trusted to within slack.
	slack float64
	// xe is the Newton iterate where ea and eb were evaluated.
	xe [6]float64
	// certChecked: classify already ran hullCertified on this candidate,
	// and certified holds its verdict (a candidate is never changed after
	// classify but in finish, which comes after the verdict is used).
	certChecked, certified bool
	// mtdCertified: the expanding polytope proved this overlapping pair's
	// translation distance minimal (epaCheck).
	mtdCertified bool
	// dual: a separated pair whose normals are the separating direction
	// (in the normal cones at its points) rather than the surfaces'
	// gradients: one found by GJK (proven where converged, gjkHulls),
	// whose points may lie inside the bodies by up to 1e-11 of their size,
	// or a tip's pair (tipStationary).
	dual bool
	// touch: touchingPair answered (dual normals too, but no GJK answer for
	// warm starts to go back to).
	touch bool
	// surfSD is an unconverged separated candidate's distance once finish
	// moves its points onto the surfaces (onSurfaces), 0 when it would not
	// move them: the distance the answer would give, which comparisons use
	// (an iterate off the surfaces can read closer than the bodies are).
	// The iterate itself is kept: a start continued from it, and its own
	// estimate, are Newton's.
	surfSD float64
}

// nearStationary is the scaled residual below which an unconverged
// common-normal pair may still win the comparison of candidates.
const nearStationary = 1e-6

// schemesFrom is scheme m followed by the schemes that recover it.
func schemesFrom(m Method) [3]Method {
	return [3]Method{m, fallbackOrder[m][0], fallbackOrder[m][1]}
}

// schemesAfter returns the schemes of schemesFrom(m) after last (those
// fromSeed did not run when it stopped at last's pair).
func schemesAfter(m, last Method) (rest [2]Method, n int) {
	ran := true
	for _, m2 := range schemesFrom(m) {
		if ran {
			ran = m2 != last
			continue
		}
		rest[n] = m2
		n++
	}
	return rest, n
}

// fallbackOrder lists the schemes that recover a failed scheme.
var fallbackOrder = [3][2]Method{
	Implicit:   {NTB, Parametric},
	Parametric: {Implicit, NTB},
	NTB:        {Implicit, Parametric},
}

func (sv *Solver) query(a, b *geom.Body, prev *Result, res *Result) {
	// prev's analyses exist only for shapes its query found valid: the same
	// shapes need only their poses checked.
	same := prev != nil && prev.ia != nil && prev.sameShapes(&a.Shape, &b.Shape)
	if same && (!a.Pose.Valid() || !b.Pose.Valid()) || !same && (!a.Valid() || !b.Valid()) {
		res.Status = Failed
		return
	}
	if sv.opt.Trace != nil {
		sv.opt.Trace.Steps = sv.opt.Trace.Steps[:0]
	}
	sv.queryN++
	pr := newPair(a, b)
	pr.ka, pr.kb = sv.consts[0].of(&a.Shape), sv.consts[1].of(&b.Shape)
	var ia, ib *shapeInfo
	pr.samePrev = same
	if same {
		// The shapes' analyses as prev found them (immutable; two cache
		// lookups saved on every warm start).
		ia, ib = prev.ia, prev.ib
	} else {
		ia, ib = sv.cache().info(&a.Shape), sv.cache().info(&b.Shape)
	}
	res.ia, res.ib = ia, ib
	convex := ia.convex && ib.convex
	pr.convex, pr.ia, pr.ib = convex, ia, ib
	res.ReasonA, res.ReasonB = ia.reason, ib.reason
	if !ia.convex {
		res.NonConvex |= 1
		res.HullGapA = ia.hullGap
	}
	if !ib.convex {
		res.NonConvex |= 2
		res.HullGapB = ib.hullGap
	}
	m := sv.opt.Method
	if same && prev.dual && convex && m == Implicit {
		// GJK answered this pair because every Newton start stalled, and
		// the implicit scheme from its points (no stored evaluation)
		// stalls again and goes cold, through every stage before GJK.
		// (The parametric schemes converge from them, in one start.)
		if c, ok := gjkSeparated(&pr); ok {
			res.warmFrom(prev)
			res.Fallback = true
			sv.finish(&pr, &c, true, res)
			return
		}
	}
	if prev != nil && (prev.Status == Converged || prev.Status == MaxIterations) {
		x0 := sv.startFromLocal(m, &pr, prev)
		var pre *warmState
		if !sv.opt.FiniteDiff && prev.warm.usable(m, &pr, prev) {
			// Newton's first evaluation is known but for the new poses.
			x0, pre = prev.warm.x, &prev.warm
			sv.reused++
		}
		var c candidate
		sv.solveFromPre(m, &pr, x0, pre, res, sv.opt.MaxIter, &c)
		polished := false
		if !c.converged && c.placed() {
			// Crawling on a pointy ridge or tip, as every warm start of
			// such a pair would (cuspPolish): polished, the answer stays
			// warm instead of going through every cold stage.
			if p, ok := sv.cuspPolish(&pr, c.lp, c.lq, res); ok {
				c, polished = p, true
			}
		} else if c.converged && misaligned(&c) {
			// A parametric scheme's pair on a ridge, converged with a
			// normal off the line of the points, as a cold query polishes
			// it (TestRidgeNormalAlignedAtQ's pairs warm: 0.0126 rad).
			sv.polishCusp(m, &pr, &c, res)
		}
		// A warm answer on a non-convex pair stands only when the hull
		// certificate proves it global; otherwise the body may have moved a
		// dent closer, so search afresh.
		if c.valid && c.converged && (convex || !c.separated || hullCertified(&pr, &c)) {
			// An overlapping answer tracked from prev's stays in prev's
			// basin: search again as a cold query would when another basin
			// may have overtaken it since prev's search (warmSearch; a
			// polytope's check finds the global one anyway).
			//
			// (trackedSD: the depth of the pair tracked from prev, for the
			// move-out check; not the whole candidate, whose 512 bytes
			// every warm query would clear.)
			moves, trackedSD := !sv.noMoveOut && sv.movesOut(&pr, &c), c.sd
			var search searchState
			if !c.separated && !(convex && sv.checkMTD(&pr, &c)) {
				search = sv.warmSearch(m, &pr, &c, res, prev)
			}
			if c.valid && !c.separated && sv.checkMTD(&pr, &c) {
				// (Polished as in a cold query: before Newton from the
				// polytope ran in every scheme, TestWarmPolytopePolished's
				// pair was answered max_iterations warm without it.)
				refuted := sv.hullsApart
				sv.epaPolished(m, &pr, &c, res, c.lp, c.lq)
				if sv.hullsApart != refuted {
					// The polytope found the hulls apart: the overlap
					// tracked was proven wrongly, and the cold path
					// answers the pair.
					c = candidate{}
				} else if convex && !c.mtdCertified && probes(&pr) {
					// The polytope could not close its bounds: search
					// as before it checked pointy pairs.
					search = sv.warmSearch(m, &pr, &c, res, prev)
				}
			}
			// The search can trade the tracked overlap for a separated
			// pair, which no stage here checks: one that no certificate
			// proves goes cold, whose stages refute or keep it as for any
			// query (an approach of two caved box-like shapes answered
			// 0.0426 apart, converged, where Newton had tracked the
			// overlap 0.0164 deep and cold queries answer that:
			// TestWarmSearchSeparatedGoesCold).
			// (The cold path keeps pr, whose marks are facts about these
			// poses, and res, which counts the warm stages' iterations.)
			certified := c.separated && (convex || hullCertified(&pr, &c))
			// (An invalid pair goes cold too: the polytope's check
			// refuted the overlap, above.)
			if c.valid && (!c.separated || certified || sv.noWarmSeparatedCold) {
				if moves && !sv.tipCheck(m, &pr, a, b, &c, res) {
					sv.moveOutWarm(m, &pr, a, b, &c, trackedSD, prev, res)
				}
				res.warmFrom(prev)
				res.Fallback = res.Fallback || polished
				sv.finish(&pr, &c, c.mtdCertified || certified, res)
				if search.ok && keepsSearch(&c) {
					res.search = search
				}
				return
			}
		}
	}
	// Cold: the configured initial guess first.
	var t0 time.Time
	if sv.opt.TimeGuess {
		t0 = time.Now()
	}
	x0, seen := sv.coldGuess(m, &pr, res)
	if sv.opt.TimeGuess {
		res.GuessNS = time.Since(t0).Nanoseconds()
	}
	c := sv.solveFrom(m, &pr, x0, res, sv.opt.MaxIter)
	if c.valid && c.converged && c.separated && (convex || hullCertified(&pr, &c)) {
		sv.finish(&pr, &c, true, res)
		return
	}
	best := c
	// Overlapping, non-convex or failed: the answer must be the global one,
	// so search the common-normal pairs from support seeds over a set of
	// directions and keep the best (math.md §3).
	sv.search(m, &pr, &best, res, seen)
	// (Not in a move-out check's moved query, which asks only whether the
	// bodies still overlap: the dent search refines a separated pair, and
	// its octrees, built per shape, would be rebuilt in every check once
	// more caved shapes take turns than the octree cache holds.)
	if caved(&pr, ia, ib) && sv.parent == nil && (!best.valid || best.separated) && !hullCertified(&pr, &best) {
		// The multi-start's seeds are support points, on the convex hulls:
		// a closest pair inside a deep dent (a tapered tip's caved-in side)
		// is found from the closest boundary cells of the octrees instead.
		// The leaves' centres are only a cell apart from the surfaces:
		// a few alternating projections (each point onto the other body's
		// surface, from the previous foot point) walk down the dent before
		// Newton polishes.
		var scratch Result
		if lp, lq, ok := sv.octreeGuess(&pr, &scratch); ok {
			for k := 0; k < dentProjections; k++ {
				if p, ok := projectPoint(pr.a, pr.ta.InvPoint(pr.tb.Point(lq)), lp); ok {
					lp = p
				}
				if q, ok := projectPoint(pr.b, pr.tb.InvPoint(pr.ta.Point(lp)), lq); ok {
					lq = q
				}
			}
			// The other schemes from the same seed when the configured one
			// fails from it (a box-like face, e 0.09, against a pointy caved
			// tip: the parametric schemes stalled where the implicit one
			// converged, and the query failed: TestExtremeRangeHonest).
			c := sv.fromSeed(m, &pr, lp, lq, res, nil)
			// (Another scheme's pair must beat a converged best by more than
			// rounding, as below: review of 5f717f6 found the same pair
			// taken from another scheme 3.9e-16 closer. An invalid best,
			// which classify can leave marked converged, is no pair at
			// all: review of 273c12f.)
			if c.method == m && better(&c, &best) || clearlyBetter(&c, &best, pairTol(&pr)) {
				best = c
				if c.method != m {
					res.Fallback = true
				}
			}
			if c.converged && best.valid && best.separated && !hullCertified(&pr, &best) {
				// From one seed in a dent the schemes can converge to
				// different pairs (a pointy caved tip: the implicit scheme
				// to one 2.8831 apart, the parametric ones to the closest,
				// 2.8398; TestDentSeedAllSchemes): each scheme's pair
				// competes while none is proven. (fromSeed ran the schemes
				// up to c's, and all of them when none converged; a pair
				// must beat the best by more than rounding: the same pair
				// found by another scheme is no reason to answer from it.)
				rest, nr := schemesAfter(m, c.method)
				for _, m2 := range rest[:nr] {
					c2 := sv.solveFromPoints(m2, &pr, lp, lq, res)
					if clearlyBetter(&c2, &best, pairTol(&pr)) {
						best = c2
						res.Fallback = true
						if hullCertified(&pr, &best) {
							break
						}
					}
				}
			}
		}
	}
	if !c.converged && best.valid && best.converged && best.separated && !hullCertified(&pr, &best) {
		// The configured scheme failed from the guess and the multi-start's
		// separated pair is not proven: the other schemes from the guess's
		// seed compete, as in the dent search (a small box-like shape's
		// pointy equator, e 0.1 and 1.95, near the flat face of a pointy
		// box-like one, e 1.95 and 0.05: the implicit scheme failed from
		// the guess and the multi-start converged 0.254187 apart where the
		// parametric scheme converges from the guess to 0.253590;
		// TestGuessSeedAllSchemes). On paper 000's battery it changes no
		// answer: the dump (SOVVIZ_DUMP=FILE go test -run BatteryDump
		// ./contact, before and after) differs in the iteration and start
		// counts of 31 of its 30,000 quadtree lines, none of the support
		// guess's.
		lp, lq := sv.localsOf(m, &pr, x0)
		for _, m2 := range fallbackOrder[m] {
			c2 := sv.solveFromPoints(m2, &pr, lp, lq, res)
			if c2.converged && c2.separated && clearlyBetter(&c2, &best, pairTol(&pr)) {
				best = c2
				res.Fallback = true
			}
		}
	}
	if !c.converged && best.valid && best.converged && !best.separated && sv.seedOnCusp(m, &pr, x0) {
		sv.stalledGuessAscent(&pr, seen, &best, res)
	}
	if !best.valid || (!best.converged && best.slack == 0) {
		// Recover with the other schemes from the same seeds: the implicit
		// scheme is robust on box-like shapes where the parametrisation is
		// singular, the parametric ones on pointy tips where the implicit
		// normal turns abruptly.
		lp, lq := sv.localsOf(m, &pr, x0)
		for _, m2 := range fallbackOrder[m] {
			// The cold guess's seed first: the multi-start's support seeds
			// sit on the convex hull and can miss a closest pair in a dent.
			sv.trySeed(m2, &pr, lp, lq, &best, res)
			if best.valid && best.converged && best.separated {
				res.Fallback = true
				break
			}
			sv.multiStart(m2, &pr, &best, res, vec{}, sv.opt.MaxIter)
			if best.valid && best.converged {
				res.Fallback = true
				break
			}
		}
	}
	if best.valid && !best.converged {
		// A pair that the scheme could not finish (a parametric scheme
		// crawling where its parametrisation is nearly singular): the other
		// schemes polish it from its points, so the answer converges where
		// one of them can. (Any pair a start left unconverged, not only
		// nearly stationary ones, since 2026-12-06: an approach's
		// pointy pair, whose implicit and ntb multi-starts found nothing
		// and the parametric one a pair 1e-7 short of its converged
		// neighbour, was answered max_iterations where the ntb scheme
		// converges from its points: TestUnconvergedPolished.)
		for _, m2 := range fallbackOrder[m] {
			if sv.trySeed(m2, &pr, best.lp, best.lq, &best, res) && best.converged {
				res.Fallback = true
				break
			}
		}
	}
	if !best.valid || (!best.converged && best.slack == 0) {
		// Last resort (pointy tips, nearly parallel flat faces): climb the
		// gap over directions with exact supports.
		n := pr.tb.T.Sub(pr.ta.T)
		if best.valid {
			n = best.nP
		}
		if n.Len() > 0 {
			c, ok := sv.supportRefine(&pr, n.Normalize(), res)
			if ok && better(&c, &best) {
				best = c
				res.Fallback = true
			}
			// Newton from the ascent's support points: they are close to
			// the closest pair even where the ascent itself stalls.
			for _, m2 := range schemesFrom(m) {
				if best.valid && best.converged {
					break
				}
				if sv.trySeed(m2, &pr, c.lp, c.lq, &best, res) {
					res.Fallback = res.Fallback || m2 != m // (never cleared: an earlier stage may have recovered)
				}
			}
		}
	}
	if (!best.valid || (!best.converged && best.slack == 0)) && !convex {
		// Every start stalled on a pair with a non-convex shape (box-like
		// faces against a taper's dip): the hulls' closest pair, which GJK
		// finds from the supports alone, bounds the distance from below and
		// is often the bodies' closest pair itself.
		sv.hullRescue(m, &pr, &best, res)
	}
	if (!best.valid || (!best.converged && best.slack == 0)) && convex {
		// Every start stalled (a box-like face against a pointy tip or
		// edge): for a separated pair of convex shapes GJK finds and
		// proves the distance from support points alone.
		if c, ok := gjkSeparated(&pr); ok {
			best = c
			res.Fallback = true
		}
	}
	if !best.valid || (!best.converged && best.slack == 0) {
		// Nothing valid (or nothing converged) from every start: the
		// polytope can still prove an overlap and find its translation.
		sv.epaRescue(m, &pr, &best, res)
	}
	sv.polishCusp(m, &pr, &best, res)
	ridged := false // (its seeds do not depend on best: once is enough)
	var standIn candidate
	if !best.valid && needsRidgeSearch(&pr, &best) {
		// A pointy shape's closest ridge or tip where no seed reached
		// (ridge.go).
		_, standIn = sv.ridgeSearch(m, &pr, &best, res)
		ridged = true
	}
	if !best.valid {
		sv.touchRescue(m, &pr, seen, &best, res)
	}
	if !best.valid && standIn.valid && !pr.overlapProven {
		// The ridge search's unconverged stand-in, after the climbs: a
		// walk's pair 0.0118 apart, taken at once, kept them from the
		// converged pair 0.0103 apart (TestRidgeStandInLast). Not once
		// the climbs' runs have marked an overlap, as the search itself
		// offers none then: the pair would claim the bodies separated.
		best = standIn
		res.Fallback = true
	}
	if !best.valid && pr.unproven.ok && !pr.overlapProven {
		// A converged overlapping pair was refused, after the polytope's
		// check, because no point proved the bodies overlap: one near it
		// may (localWitness), and the polytope then runs again.
		pr.unproven.ok = false
		if localWitness(&pr, pr.unproven.P, pr.unproven.Q) {
			pr.overlapProven = true
			sv.epaRescue(m, &pr, &best, res)
			sv.polishCusp(m, &pr, &best, res)
		}
	}
	if !best.valid && !pr.overlapProven && !convex {
		sv.scanRescue(m, &pr, &best, res)
	}
	triedP, triedQ := best.lp, best.lq // (the same points are not polished twice)
	if !best.valid {
		sv.fail(&pr, res)
		return
	}
	// (A move-out check's moved query asks only whether the bodies still
	// overlap: the saddle escape and the ridge search bring a separated
	// pair closer, and cost most of such a query.)
	refine := sv.parent == nil || !best.separated
	if refine {
		sv.escapeUncertified(m, &pr, &best, res)
	}
	if refine && !ridged && needsRidgeSearch(&pr, &best) {
		// After the saddle escape, which walks down from the best pair: a
		// ridge pair found before it, closer than the best then, led it to
		// a farther pair than the escape reached from the best alone.
		if replaced, _ := sv.ridgeSearch(m, &pr, &best, res); replaced {
			sv.escapeUncertified(m, &pr, &best, res)
		}
	}
	if !sv.refuteSeparated(m, &pr, &best, res) {
		sv.fail(&pr, res)
		return
	}
	if (best.converged || best.slack > 0) && !best.separated && sv.checkMTD(&pr, &best) {
		// (Nearly stationary unconverged pairs too: review of 2026-11-23,
		// pointy pairs answered up to 1.7 too deep.)
		sv.epaPolished(m, &pr, &best, res, triedP, triedQ)
	}
	// A pointy pair's overlap that the polytope did not certify (it could
	// not close its bounds, or did not run: probeOnly) is searched for a
	// better basin. (After every stage: the multi-start's seeds can all
	// stall, and a later stage find the pair the probe improves on. The
	// probe only ever makes an answer shallower, which cannot make
	// checkMTD hold where it did not.)
	sv.probeBasins(m, &pr, &best, res)
	if best.valid && !best.separated && !best.converged && pointy(pr.a) && pointy(pr.b) && sv.ridgeCrossings(&pr, &best, res) {
		// An overlap of two pointy shapes that no start finished, such as
		// the polytope's hull pair: two ridges can cross inside the bodies
		// where no seed above starts (ridgeCrossings).
		res.Fallback = true
	}
	if !best.converged {
		// (Last: a valid unconverged pair is still the stages' above to
		// finish, the polytope's check among them; a converged pair from
		// here pre-empted it and left a deep overlap max_iterations.)
		sv.touchRescue(m, &pr, seen, &best, res)
		if sv.parent == nil && !pr.overlapProven && best.valid && !best.converged && best.separated && !onBoth(&pr, best.lp, best.lq) && !sv.noStalledWalk {
			// (A stalled GJK run's hull pair, or a stalled Newton run's
			// iterate from its points, after the rescue stages have run
			// from it.)
			if w, ok := stalledOnSurfaces(m, &pr, &best); ok {
				best = w
				res.Fallback = true
			}
		}
		sv.ridgesPolish(m, &pr, &best, res)
		sv.ridgeFaces(m, &pr, &best, res)
		if !sv.refuteSeparated(m, &pr, &best, res) { // (its pair too)
			sv.fail(&pr, res)
			return
		}
		if best.converged && !best.separated && !best.touch && sv.checkMTD(&pr, &best) {
			// (A deep overlap it found converged is checked, and a pair
			// the polytope found polished, as above.)
			sv.epaPolished(m, &pr, &best, res, best.lp, best.lq)
		}
	}
	if !best.valid {
		// (The polytope's check refuted an overlap, and the hulls'
		// rescue found no pair: epaCheck.)
		sv.fail(&pr, res)
		return
	}
	// An overlap of a pointy or caved non-convex pair must clear every
	// place the bodies overlap (moveout.go).
	// A tip pressed into a face (tips.go) is no common-normal pair.
	if !sv.tipCheck(m, &pr, a, b, &best, res) {
		sv.moveOutCheck(m, &pr, a, b, &best, res)
	}
	// (Converged first: finish certifies no other pair, and the hull
	// certificate of an unconverged one costs two exact supports.)
	sv.finish(&pr, &best, best.mtdCertified || best.converged && best.separated && (convex || hullCertified(&pr, &best)), res)
	if keepsSearch(&best) {
		res.search = sv.keepSearch(&pr, &best, nil)
	}
	return
}

// escapeUncertified tests a converged separated best pair with a
// non-convex shape that the support-plane certificate does not prove
// global for a saddle of the distance (saddleEscape), keeping the
// certificate's verdict on it.
func (sv *Solver) escapeUncertified(m Method, pr *pair, best *candidate, res *Result) {
	if !pr.convex && best.valid && best.separated && best.converged {
		// (The verdict kept: finish asks for it again.)
		best.certified, best.certChecked = hullCertified(pr, best), true
		if !best.certified {
			sv.saddleEscape(m, pr, best, res)
		}
	}
}

// polishCusp replaces an unconverged best pair, crawling on a pointy
// shape's ridge or tip, by the pair cuspPolish converges to from it in the
// chart where the equations are smooth, when that pair is no worse: no
// farther apart, or no deeper, than the crawl's by more than the
// certificate's tolerance. An invalid best (a start that stopped on a tip
// with the normals 20° from opposite) is replaced by any valid pair the
// polish converges to from its points. So is a converged pair whose normal
// at P, or at Q, is not along the line of the points (misaligned): a
// parametric scheme's pair on a pointy ridge, its tangents' normal 7.2e-4
// rad from the implicit normal the answer reports (TestRidgeNormalAligned,
// TestRidgeNormalAlignedAtQ).
func (sv *Solver) polishCusp(m Method, pr *pair, best *candidate, res *Result) {
	if !best.placed() || best.converged && !misaligned(best) {
		return
	}
	c, ok := sv.cuspPolish(pr, best.lp, best.lq, res)
	if ok && best.valid && best.separated && !best.converged && c.converged && !c.separated && -c.sd <= pairTol(pr) && -c.sd < best.sd && !sv.noCuspTouch {
		// A converged touch from an unconverged separated pair: its
		// points lie on their surfaces |c.sd| apart, so the bodies are no
		// farther apart than that, and the crawl's distance is refuted.
		// (Pair 142 of TestNearTouchEndsMinimal's sweep at
		// SOVVIZ_NEAR_ENDS_SEED=59: a stalled run 2.5e-9 apart, its
		// witness off its surface, against the polish's touch 6.6e-10
		// deep; TestCuspTouch.)
		*best = c
		res.Fallback = true
		return
	}
	if !ok || best.valid && c.separated != best.separated {
		return
	}
	if tol := pairTol(pr); !best.valid || (c.separated && c.sd <= best.cmpSD()+tol) || (!c.separated && c.sd >= best.cmpSD()-tol) {
		*best = c
		res.Fallback = true // (a stage after the configured scheme's crawl)
	}
}

// misaligned reports whether a valid pair's normal at P, or at Q, leaves
// the line of Q − P by more than alignTol rad. classify accepts up to about
// 1.4e-3 (|n·d| within 1e-6 of |d|), which keeps every scheme's converged
// pairs (their own normals agree to rounding) and lets a parametric pair on
// a pointy ridge through, whose parametric normal is not its implicit one
// (at Q too: 0.005 to 0.012 rad off, TestRidgeNormalAlignedAtQ).
func misaligned(c *candidate) bool {
	if !c.valid || c.dual {
		return false
	}
	// (Squared and written out: the warm path asks it of every converged
	// pair.)
	dx, dy, dz := c.Q[0]-c.P[0], c.Q[1]-c.P[1], c.Q[2]-c.P[2]
	d2 := dx*dx + dy*dy + dz*dz
	lim := alignTol * alignTol * d2
	return d2 > 0 && (crossSq(&c.nP, dx, dy, dz) > lim || crossSq(&c.nQ, dx, dy, dz) > lim)
}

// crossSq is |n × d|², d = (dx, dy, dz).
func crossSq(n *vec, dx, dy, dz float64) float64 {
	x, y, z := n[1]*dz-n[2]*dy, n[2]*dx-n[0]*dz, n[0]*dy-n[1]*dx
	return x*x + y*y + z*z
}

// alignTol is the angle between the normal at P and Q − P, or at Q and
// P − Q, above which a converged pair is polished again (misaligned).
const alignTol = 1e-8

// refuteSeparated checks a separated answer of a pair with a non-convex
// shape that the hull certificate did not prove: the multi-start's seeds
// lie on the convex hulls, and where a pointy or caved shape pokes into
// the other body through a dent of its hull no seed need reach the
// overlap, so every pair found can be separated while the bodies overlap
// (a review of 2026-12-04 found 2 of 5,600 such pairs over the whole
// range, answered 0.046 and 0.059 apart with points of one body 0.027 and
// 0.058 inside the other: TestSeparatedAnswerRefuted). The hulls' support
// planes along the answer's normal decide most pairs at once: when they
// leave a gap, no point of a is beyond the plane that b lies behind, and
// the bodies are apart. Otherwise a point inside both bodies (the centres,
// the segment between them, a parametric grid of each surface) proves an
// overlap: the separated answer is then wrong, and the polytope's rescue
// (epaRescue) answers the overlap, or, when it cannot, the query fails
// rather than claim a distance between overlapping bodies. Without such a
// point the answer stands, uncertified, as the best pair found. It
// reports false when it leaves no valid pair (the query must fail).
func (sv *Solver) refuteSeparated(m Method, pr *pair, best *candidate, res *Result) bool {
	if !best.valid || !best.separated || pr.convex || hullCertified(pr, best) {
		return true
	}
	// A support plane's gap: n·w < 0 for w the support point of a − b
	// along n (diffSupport) separates the hulls, beyond rounding.
	apart := false
	if n := best.nP; n.Len() > 0 {
		n = n.Normalize() // (unit already; the gap must be a length)
		if w, lp, lq := diffSupport(pr, n); n.Dot(w) < -pairTol(pr) {
			sv.supportSeed(m, pr, best, -n.Dot(w), lp, lq, res)
			// The gap is a lower bound of the distance: an answer at most
			// scanGap·L above it is left as it is (the scan costs more than
			// the query), one farther is scanned, below, as if no gap proved
			// the bodies apart (no point then lies inside both, and lowSeed
			// takes no overlapping pair). (supportSeed keeps best valid and
			// separated; the gap along the first answer's normal bounds a
			// pair it found too.)
			if sv.noGapScan || !(best.cmpSD()+n.Dot(w) > scanGap*pr.L) {
				return true
			}
			apart = true
		}
	}
	// A witness classify found inside the other body refutes the answer
	// as the scan's points do (pair 755 of TestNearTouchEndsMinimal's
	// sweep at seed 46: the ridge search's pair 0.0029 deep, refused for
	// a separated pair 5.9e-10 apart, where the scan found no point of
	// the crossing ridge inside the plate; TestWitnessRefutes). Not
	// against the planes' gap, which proves the bodies apart.
	witnessed := pr.insideF < 0 && !apart && !sv.noWitnessRefute
	if pr.scanned && !witnessed {
		sv.hullDescent(m, pr, best, res) // (the rest of the branch below)
		return true
	}
	if !witnessed {
		sv.overlapScans++
		if low := (lowPoint{f: math.Inf(1)}); !overlapInsideBoth(pr, &low, !sv.noDistStarts) {
			sv.lowSeed(m, pr, best, &low, res, apart)
			// And from the hulls' closest pair, walked down onto the bodies, as
			// after a saddle (hullDescent): a converged pair 0.147378 apart of a
			// box-like plate's bottom face against a pointy shape's equator,
			// 0.136·L above the planes' gap, where the plate's rim and the
			// shape's sloping side are 0.134724 apart and no start nor the
			// scan's lowest point led there (TestScanHullDescent; since
			// 2026-12-07 Newton from lowSeed's walk finds it too, and the test
			// turns that off).
			sv.hullDescent(m, pr, best, res)
			return true
		}
	}
	sv.refuted++
	*best = candidate{}
	pr.overlapProven = true
	sv.epaRescue(m, pr, best, res)
	if best.valid && !best.converged && needsRidgeSearch(pr, best) {
		// (A pointy tip or ridge in the other body: the polytope's pair
		// of the hulls was 0.028 and 0.018 deep, unconverged, for
		// overlaps of 1.9e-4 and 5.6e-5: TestShallowOverlapRefuted.)
		sv.ridgeSearch(m, pr, best, res)
	}
	if best.valid && best.separated {
		*best = candidate{} // (never: epaRescue keeps no separated pair once an overlap is proven)
	}
	return best.valid
}

// scanRescue is the last stage before a query of a pair with a non-convex
// shape fails: nothing valid was found and no overlap proven, typically
// where the hulls overlap while the bodies' dips leave them apart, so that
// GJK finds no distance for the hull rescue. The scan of refuteSeparated decides: a point inside
// both bodies proves the overlap, which the polytope then answers;
// otherwise Newton starts from the lowest point of its descents (lowSeed)
// as for an unproven separated answer (TestScanRescue: a plate 0.0024
// from a needle, failed in every scheme with an estimate 3.0 deep).
func (sv *Solver) scanRescue(m Method, pr *pair, best *candidate, res *Result) {
	sv.overlapScans++
	low := lowPoint{f: math.Inf(1)}
	if overlapInsideBoth(pr, &low, !sv.noDistStarts) {
		pr.overlapProven = true
		sv.epaRescue(m, pr, best, res)
		sv.polishCusp(m, pr, best, res)
		return
	}
	pr.scanned = true
	sv.lowSeed(m, pr, best, &low, res, false)
}

// supportSeed runs Newton from the support points lp, lq of the hulls
// along a separated answer's normal, whose planes leave a gap g > 0: the
// bodies are apart, but when g is short of the answer's distance the
// answer is not proven minimal, and the support points, which are points
// of the bodies, are where the hulls come closest along that normal. A
// converged separated pair clearly closer replaces best (and, against an
// unconverged best, no farther than best's points on the surfaces): two
// surface points of bodies proven apart, so their distance bounds the
// minimum from above and the closer pair is the better answer. (Pair 87 of
// TestWidePlacedPairs under SOVVIZ_SWEEP_SEED=14: a box-like tapered
// shape's dip held the implicit scheme's pair 0.567170 apart, uncertified,
// where the parametric schemes converge to 0.566339, certified. The
// support points themselves were no closer than the answer: a start in
// the closest pair's basin, not a closer pair.) On paper 000's battery
// it runs for 239 of the 10,000 cold answers and changes none of them.
func (sv *Solver) supportSeed(m Method, pr *pair, best *candidate, g float64, lp, lq vec, res *Result) {
	tol := pairTol(pr)
	if !(g < best.sd-tol) {
		return
	}
	// (The bodies are proven apart: a run's classify marking an overlap
	// proven is rounding, and must not outlive the run, as in lowSeed.)
	proven := pr.overlapProven
	c := sv.fromSeed(m, pr, lp, lq, res, nil)
	pr.overlapProven = proven
	if c.valid && c.converged && c.separated && ridgeImproves(pr, &c, best, tol) {
		*best = c
		res.Fallback = true // (a stage after the configured scheme's starts)
	}
}

// lowSeed runs Newton from the lowest point low the scan's descents
// reached, and that point moved into the other body's frame, after a scan
// found no point inside both bodies (refuteSeparated): the point of one
// surface deepest into, or nearest to, the other body is where the bodies
// come closest. Newton runs in each scheme (fromSeed), then, where none
// converges, in the chart where ridges and tips are smooth (cuspPolish).
// Near-touching pairs with box-like and pointy shapes at the range's ends
// had every start stall or converge elsewhere: answered 0.19 apart
// (max_iterations) for bodies touching to 4e-10, and 0.096 apart
// (converged, uncertified) for bodies 7e-10 apart (TestLowSeed).
//
// A converged separated pair replaces best when it is clearly better and,
// against an unconverged best, no farther apart than best's points moved
// onto the surfaces (ridgeImproves). A converged overlapping pair, its
// witnesses on the surfaces and within the other body to Newton's
// tolerance, shows the bodies within about 1e-8 of their size of each
// other, not that they overlap: a separated best 7.5e-9 apart, right, was
// replaced by a touch (review of 0298e69). Such a pair replaces only a
// separated best farther apart than lowTouch of the bodies' size, which
// it proves is not the closest pair. The overlap the runs' candidates
// mark proven (classify) stands only if such a pair replaces best: a
// candidate refused here, unconverged across a touch, left later stages
// refusing every separated pair (the same review).
//
// With apart (the support planes proved the bodies apart) no overlapping
// pair replaces best: it would be a touch within Newton's tolerance, whose
// sign the proof contradicts. (A guard from a review's reading: no sweep
// has met that case; TestLowSeedApart holds the guard.)
func (sv *Solver) lowSeed(m Method, pr *pair, best *candidate, low *lowPoint, res *Result, apart bool) {
	if !low.ok || sv.noLowSeed {
		return
	}
	proven := pr.overlapProven
	lp, lq := low.seeds(pr)
	c := sv.fromSeed(m, pr, lp, lq, res, nil)
	if !c.valid || !c.converged {
		if p, ok := sv.cuspPolish(pr, lp, lq, res); ok {
			c = p
		}
	}
	if !c.valid || !c.converged {
		// From the low point and its foot on the other surface, walked
		// down by alternating projections, in the chart: a pointy
		// box-like plate's face 1.3e-9 from a pointy shape's box-like
		// ridge, where Newton from the low point itself failed in every
		// scheme and in the chart, was answered 0.89 apart, max_iterations
		// (TestLowSeedWalk). (The chart first, whose runs must meet every
		// equation: the schemes' Newton from the walk's pair converged
		// within 1e-13 of a pointy tip with the normals 2.5e-9 rad off
		// Q − P, TestRidgeSearchTouching.)
		p, q := lp, lq
		if low.side == 0 {
			q, _ = ridgeFoot(pr.b, lq)
		} else {
			p, _ = ridgeFoot(pr.a, lp)
		}
		w := surfacePair(pr, p, q)
		if cp, ok := sv.cuspPolish(pr, w.lp, w.lq, res); ok {
			c = cp
		} else if !sv.noLowSeedNewton {
			if c2 := sv.fromSeed(m, pr, w.lp, w.lq, res, nil); c2.valid && c2.converged && !misaligned(&c2) {
				// Then Newton in the schemes from the walk's pair, where the
				// chart keeps nothing: a box-like plate's rim (e 0.05) 0.0567
				// from the caved flank of a pointy shape's ridge (e 1.9, 0.05)
				// was answered 0.1316 apart, max_iterations; the walk ended
				// 1.6e-5 above the pair every scheme converges to from it
				// (TestLowSeedWalkNewton). Last, after the chart, whose runs
				// meet every equation: near a tip the schemes' pairs from the
				// walk have their normals up to 7e-9 rad off Q − P (within
				// misaligned's 1e-8; TestRidgeSearchTouching's, where the
				// answer is already that pair and keeps its own normals).
				c = c2
			}
		}
	}
	pr.overlapProven = proven
	if !c.valid || !c.converged {
		return
	}
	tol := pairTol(pr)
	if c.separated && ridgeImproves(pr, &c, best, tol) || !c.separated && !apart && best.cmpSD() > touchLim(pr) {
		*best = c
		pr.overlapProven = pr.overlapProven || !c.separated
		sv.lowSeeds++
		res.Fallback = true // (a stage after the configured scheme's starts)
	}
}

// lowTouch is the separation, relative to the bodies' size, beyond which a
// converged overlapping pair from lowSeed proves a separated answer wrong:
// well above the gap, about 1e-8, that Newton's tolerance leaves between
// such a pair's witnesses and the other surface.
const lowTouch = 1e-7

// touchLim is lowTouch of the pair's size: how deep a touch may be, and how
// far apart a separated answer it refutes must be.
func touchLim(pr *pair) float64 { return lowTouch * max(pr.maxA, pr.maxB) }

// scanGap is how far, in characteristic lengths L, a separated answer
// with a non-convex shape may lie above the gap between the hulls' support
// planes along its normal before refuteSeparated scans for a closer pair
// although the gap proves the bodies apart: the gap is a lower bound of the
// distance, so an answer left unscanned is at most 0.05·L too far. On paper
// 000's battery (seed 1) the 239 such answers lie at most 0.034·L above
// their gaps, all of them right; in TestNearTouchEndsMinimal's sweep with
// gaps up to 0.3 and seed 7, pair 1096 (exponents 0.05, 0.1 and 0.05, 1.9;
// tapers ±0.5) was answered 0.267021 apart, converged, 0.17·L above its
// gap, where the reference finds 0.259552, and the scan's lowSeed finds it
// (TestGapScan). The scan makes that query 1.7 to 2.2 times slower (go
// test -run '^$' -bench QueryGapScan ./contact: 2.6 against 1.5 ms, and a
// review's 1.72 against 0.79 ms, on 2026-12-06), and 2.4 to 2.5 times
// since hullDescent joined it (a review's 1.96–2.02 against 0.80 ms, the
// host loaded).
const scanGap = 0.05

// hullRescue answers a pair with a non-convex shape that no start solved,
// from the convex hulls' closest pair (GJK with exact supports, which are
// the hulls' supports too): its distance is a lower bound of the bodies'
// (math.md §3). Newton polishes from its points, and a converged separated
// answer is certified when its witnesses are support points along its
// normal (hullCertified) or its distance is the hulls' to within the
// certificate's tolerance (the same proof: no pair of the bodies is closer
// than the hulls). Failing that, when the hulls' witness points lie
// in the bodies, they are the bodies' closest pair, proven: points of the
// bodies as far apart as the lower bound. Otherwise (the hulls' pair
// bridges a dent) their points moved onto the surfaces along the rays from
// the centres seed Newton once more. An overlap of the hulls proves
// nothing about the bodies: then nothing changes. On a box-like pair of the
// whole-range sweep every start stalled and a shift of both bodies by 1
// ended failed, claiming an overlap 0.80 deep; the hulls' pair lay on both
// surfaces and the parametric scheme converged from it in one step
// (TestHullRescue).
//
// Where GJK stalled (gjkHulls, proven false), its pair h is no proof, but
// Newton from its points can converge, and where it does not and both points
// lie in their bodies (to certTol, as for a proven pair), they are two
// points of the bodies, their distance an upper bound of the bodies' where
// the bodies are apart: an unconverged separated pair, taken where nothing
// valid is better and the best is not an overlap. Two nearly parallel faces
// beside pointy ridges (e 1.9), a body of semi-axes 0.002 to 0.013 moved to
// within 2e-9 of one of 0.11 to 1.23, were answered 1.9e-7 apart,
// max_iterations, where GJK's pair is 1.2e-9 apart and the reference's
// 5.5e-10 (TestGJKStalled). GJK can stall so on bodies that overlap by up to
// 1e-8 too (a review's run), its pair then claiming them apart:
// refuteSeparated checks the answer as any other, and proves those overlaps
// (TestGJKStalledOverlap). (The test of the best is a guard no test has
// needed: hullRescue runs where no valid best converged, and there the best
// was invalid. Newton's runs from h can still replace an unconverged overlap
// by a converged separated pair, as any trySeed can.)
func (sv *Solver) hullRescue(m Method, pr *pair, best *candidate, res *Result) {
	h, proven := gjkHulls(pr)
	if !h.valid || !proven && sv.noHullStalled {
		return
	}
	// Newton from lp, lq in each scheme until one converges.
	schemes := func(lp, lq vec) {
		for _, m2 := range schemesFrom(m) {
			if sv.trySeed(m2, pr, lp, lq, best, res) {
				res.Fallback = true
			}
			if best.valid && best.converged {
				break
			}
		}
	}
	// (A witness up to certTol outside its body, as a relative radial
	// distance, moves the upper bound by as little.)
	inBodies := func(lp, lq vec) bool {
		fa, okA := pr.a.Residual(lp)
		fb, okB := pr.b.Residual(lq)
		return okA && okB && fa <= certTol && fb <= certTol
	}
	if !proven {
		// GJK stalled (gjkHulls).
		schemes(h.lp, h.lq)
		if !(best.valid && best.converged) && inBodies(h.lp, h.lq) && (!best.valid || best.separated) && better(&h, best) {
			*best = h
			res.Fallback = true
		}
		return
	}
	polish := func(lp, lq vec) bool {
		schemes(lp, lq)
		if !best.valid || !best.converged || !best.separated {
			return false
		}
		// Surface points as far apart as the hulls' distance, to within
		// the certificate's tolerance, are the global minimum too (a flat
		// face's support point is too ill-determined for the support-plane
		// test). (Below the hulls' distance would be a contradiction: a
		// guard, never seen.)
		best.certified = hullCertified(pr, best) || math.Abs(best.sd-h.sd) <= pairTol(pr)
		best.certChecked = true
		return best.certified
	}
	if polish(h.lp, h.lq) {
		return
	}
	if inBodies(h.lp, h.lq) {
		*best = h
		res.Fallback = true
		return
	}
	lp, okA := radialToSurface(pr.a, h.lp)
	lq, okB := radialToSurface(pr.b, h.lq)
	if !okA || !okB || polish(lp, lq) || best.valid {
		return
	}
	// Still nothing valid (pointy tips, e near 1.95, against box-like
	// faces): the hulls are apart, so are the bodies, and any two surface
	// points bound the distance from above. The radial points, walked down
	// by alternating projections while the distance falls, are answered
	// as an unconverged separated pair (max_iterations, not certified)
	// rather than a failure.
	c := surfacePair(pr, lp, lq)
	if polish(c.lp, c.lq) || best.valid {
		return
	}
	*best = c
	res.Fallback = true
}

// keepNormals gives c, a pair of surface points found from a candidate
// whose normals were nP and nQ, those normals when c's points are within
// pairTol of each other: the line between them is then rounding's (a walk
// that ended 6.9e-17 apart, where the surfaces meet, took the normal 76°
// off the plate's), and the old normals are the best estimate at hand.
func keepNormals(pr *pair, c *candidate, nP, nQ vec) {
	if c.sd <= pairTol(pr) && nP.Len() > 0 && nQ.Len() > 0 {
		c.nP, c.nQ = nP, nQ
	}
}

// stalledOnSurfaces walks the points of an unconverged separated answer
// that lie off their surfaces (a stalled GJK run's hull pair, in the
// bodies, one 1.4e-8 inside a box-like plate (radially), or a stalled
// Newton run's iterate from it) onto the surfaces: from the radial points
// by alternating projections (surfacePair). The query answers the walked
// pair in its place, after the rescue stages have run from the old one,
// when it lies on both surfaces and no farther than the old one by more
// than pairTol, so that the witnesses are surface points and the distance a
// true one (a box-like plate, e 0.1, and a box with a pointy section,
// e 0.05 and 1.95, touching to 2e-9, were answered 5.1e-9 apart,
// max_iterations, with a witness inside the plate, where the surfaces
// meet: TestStalledOnSurfaces). Within pairTol one point may lie inside
// the other body by a witness's tolerance (touchAt), and the pair keeps
// h's normals (keepNormals).
func stalledOnSurfaces(m Method, pr *pair, h *candidate) (c candidate, ok bool) {
	lp, okA := radialToSurface(pr.a, h.lp)
	lq, okB := radialToSurface(pr.b, h.lq)
	if !okA || !okB {
		return c, false
	}
	w := surfacePair(pr, lp, lq)
	if !onBoth(pr, w.lp, w.lq) {
		return c, false
	}
	if c, ok = pairAt(m, pr, w.lp, w.lq); !ok {
		c, ok = touchAt(m, pr, w.lp, w.lq)
	}
	if !ok || !(c.sd <= h.cmpSD()+pairTol(pr)) {
		return candidate{}, false
	}
	keepNormals(pr, &c, h.nP, h.nQ)
	return c, true
}

// saddleEscape checks that a separated answer no certificate proves
// global is at least a local minimum of the distance between surface
// points, and walks off it when it is a saddle. The common-normal equations
// hold at saddles too, and on a non-convex shape (a dip: negative
// curvature) every start can converge to one. To second order, moving P
// by u and Q by v in the common tangent plane changes the squared distance
// by uᵀ(I + d·K_a)u + vᵀ(I + d·K_b)v − 2uᵀv (K the second fundamental forms
// with respect to each body's outward normal, d the distance): a negative
// eigenvalue of that 4x4 form is a way down. From the answer displaced
// along it (and its opposite), moved onto the surfaces, alternating
// projections walk down and Newton polishes; a closer converged pair
// wins. On pair 376 of TestWideTaperedSeparatedPairs' 400-pair sweep every
// start converged to such a saddle (eigenvalue −0.015), 0.2148806 apart;
// the reference's pair is 0.2121699 (TestSaddleEscape). A local minimum,
// the usual uncertified answer (a taper dip that the hulls bridge), costs
// two Hessians and a 4x4 eigenvalue problem.
func (sv *Solver) saddleEscape(m Method, pr *pair, best *candidate, res *Result) {
	// (A few rounds: the way down from one saddle can lead to another.)
	saddle := false
	for round := 0; round < saddleRounds; round++ {
		moved, s := sv.escapeOnce(m, pr, best, res)
		saddle = saddle || s
		if !moved {
			break
		}
	}
	if saddle || pr.ia != nil && pr.ib != nil && caved(pr, pr.ia, pr.ib) { // (pairs outside a query carry no analyses)
		// Every start converged to a saddle: the distance has more than
		// one basin here, and the multi-start's seeds all lie in the one
		// it found. The hulls' closest pair is a seed from elsewhere.
		// Likewise on a caved-in shape, whose dent can hold the starts in a
		// local minimum (TestCavedLocalMinimum: 4.93080 against 4.88999);
		// such pairs already pay milliseconds for the dent search
		// (BenchmarkQueryCavedDent), and the paper battery has none.
		sv.hullDescent(m, pr, best, res)
	}
}

// hullDescent tries once more from the hulls' closest pair (GJK), moved
// onto the surfaces along the rays from the centres and walked downhill by
// alternating projections, with Newton polishing where they stop; a closer
// converged pair wins. GJK on numeric supports costs up to a millisecond,
// so only pairs whose every start converged to a saddle, or with a caved-in
// shape, or whose answer refuteSeparated scanned, pay for it (none of paper
// 000's battery). On pair 376 of
// TestWideTaperedSeparatedPairs' 400-pair sweep the saddle escape reached a
// local minimum 0.2139135 apart and this the global one, 0.2121699
// (TestSaddleEscape).
//
// Where no Newton run from the walk's pair replaced the answer and the
// answer is unconverged, the walk's pair replaces it when closer by more
// than the certificate's tolerance: two surface points of bodies whose hulls
// GJK proved apart, so their distance is a true one, at or above the
// minimum, as an unconverged answer's is, and nearer it. (A needle with a
// diamond section, semi-axes 100 to 1, beside a thin plate, 41 to 1, both
// outside the tested range, was answered 3.690196 apart, max_iterations,
// where the walk ends 3.688485, within 1e-9 of the reference's search:
// TestHullDescentStandIn.)
func (sv *Solver) hullDescent(m Method, pr *pair, best *candidate, res *Result) {
	h, ok := gjkSeparated(pr)
	if !ok || !(h.sd < best.cmpSD()-pairTol(pr)) {
		return // (the hulls as far apart as the answer: nothing beats it)
	}
	replaced, walked := sv.walkDown(m, pr, h.lp, h.lq, best, res)
	if !replaced && walked.valid && best.valid && !best.converged && best.separated && walked.sd < best.cmpSD()-pairTol(pr) {
		*best = walked
		res.Fallback = true // (a stage after the configured scheme's starts)
	}
}

// walkDown moves the local points lp, lq onto the surfaces along the rays
// from the centres, walks them downhill by alternating projections
// (surfacePair) and, when that gets below best, polishes with Newton in
// each scheme until one beats best by more than the certificate's
// tolerance. It reports whether one did (then best is that pair), and the
// walk's own pair when it got below best (invalid otherwise).
func (sv *Solver) walkDown(m Method, pr *pair, lp, lq vec, best *candidate, res *Result) (replaced bool, walked candidate) {
	lp, okA := radialToSurface(pr.a, lp)
	lq, okB := radialToSurface(pr.b, lq)
	if !okA || !okB {
		return false, candidate{}
	}
	c := surfacePair(pr, lp, lq)
	if !(c.sd < best.cmpSD()) {
		return false, candidate{}
	}
	// Only a separated pair closer by more than the tolerance: not the same
	// pair found again by another scheme, nor a converged pair farther than
	// an unconverged best's points on the surfaces (refuteSeparated calls
	// this with such a best; review of e508610).
	goal := best.cmpSD() - pairTol(pr)
	for _, m2 := range schemesFrom(m) {
		c2 := sv.solveFromPoints(m2, pr, c.lp, c.lq, res)
		if c2.separated && c2.cmpSD() < goal && better(&c2, best) { // (a nearly stationary pair too)
			*best = c2
			res.Fallback = res.Fallback || m2 != m // (never cleared: an earlier stage may have recovered)
			return true, c
		}
	}
	return false, c
}

// escapeOnce is one round of saddleEscape; it reports whether best moved
// and whether it was a saddle.
func (sv *Solver) escapeOnce(m Method, pr *pair, best *candidate, res *Result) (moved, saddle bool) {
	d := best.sd
	n := best.nP.Normalize()
	t1, t2 := geom.TangentFrame(n)
	ka, okA := secondForm(pr.a, &pr.ta, best.lp, t1, t2)
	kb, okB := secondForm(pr.b, &pr.tb, best.lq, t1, t2)
	if !okA || !okB {
		return false, false
	}
	var H [4][4]float64
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			H[i][j] = d * ka[i][j]
			H[2+i][2+j] = d * kb[i][j]
		}
		H[i][i]++
		H[2+i][2+i]++
		H[i][2+i], H[2+i][i] = -1, -1
	}
	lmin, w := minEigen4(H)
	// (Less its rounding: on a pointy shape's coordinate plane the second
	// form reaches 3e16 and the eigenvalue is noise, −0.58 on a true
	// minimum: TestSaddleRidgeRounding.)
	sum := 0.0
	for i := range H {
		for j := range H[i] {
			sum += math.Abs(H[i][j])
		}
	}
	if !(lmin+1e-12*sum < -saddleCurvature) {
		return false, false // a local minimum (or flat within the tolerance)
	}
	u := t1.Mul(w[0]).Add(t2.Mul(w[1]))
	v := t1.Mul(w[2]).Add(t2.Mul(w[3]))
	L := charLength(pr)
	lp0, lq0 := best.lp, best.lq
	for _, step := range [...]float64{saddleStep, -saddleStep} {
		if ok, _ := sv.walkDown(m, pr, lp0.Add(pr.ta.InvDir(u.Mul(step*L))), lq0.Add(pr.tb.InvDir(v.Mul(step*L))), best, res); ok {
			return true, true
		}
	}
	return false, true
}

// saddleRounds caps saddleEscape's rounds.
const saddleRounds = 4

// saddleCurvature is the eigenvalue (of the dimensionless form of
// saddleEscape) below which an answer counts as a saddle: well below
// rounding, well above the zero of two parallel flat faces.
const saddleCurvature = 1e-6

// saddleStep is the displacement off a saddle, relative to the pair's
// characteristic length, before the descent.
const saddleStep = 0.02

// secondForm returns the second fundamental form of shape s (pose t) at
// the local surface point lp in the world tangent basis t1, t2, with
// respect to its outward normal (positive where it curves away from the
// tangent plane, as on a convex body). Any residual that grows outwards
// gives it: restricted to the tangent plane its Hessian over its gradient's
// length is the same.
func secondForm(s *geom.Superovoid, t *geom.Transform, lp, t1, t2 vec) (k [2][2]float64, ok bool) {
	e, ok := s.ResidualHessian(lp, true)
	if !ok {
		return k, false
	}
	return formOf(&e, [2]vec{t.InvDir(t1), t.InvDir(t2)})
}

// formOf is secondForm from the residual's gradient and Hessian at the
// point, e, in the local tangent basis ts.
func formOf(e *geom.Implicit, ts [2]vec) (k [2][2]float64, ok bool) {
	g := e.Grad.Len()
	if !(g > 0) {
		return k, false
	}
	for i := 0; i < 2; i++ {
		hi := geom.MulMV(&e.Hess, ts[i])
		for j := 0; j < 2; j++ {
			k[i][j] = ts[j].Dot(hi) / g
		}
	}
	finite := !math.IsNaN(k[0][0]+k[0][1]+k[1][0]+k[1][1]) && !math.IsInf(k[0][0]+k[1][1], 0)
	return k, finite
}

// minEigen4 returns the smallest eigenvalue of the symmetric 4x4 matrix A
// and a unit eigenvector, by cyclic Jacobi rotations.
func minEigen4(A [4][4]float64) (float64, [4]float64) {
	var V [4][4]float64
	for i := range V {
		V[i][i] = 1
	}
	for sweep := 0; sweep < 30; sweep++ {
		off := 0.0
		for p := 0; p < 4; p++ {
			for q := p + 1; q < 4; q++ {
				off += A[p][q] * A[p][q]
			}
		}
		if off < 1e-30 {
			break
		}
		for p := 0; p < 4; p++ {
			for q := p + 1; q < 4; q++ {
				if A[p][q] == 0 {
					continue
				}
				th := 0.5 * math.Atan2(2*A[p][q], A[q][q]-A[p][p])
				c, s := math.Cos(th), math.Sin(th)
				for k := 0; k < 4; k++ {
					akp, akq := A[k][p], A[k][q]
					A[k][p], A[k][q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := 0; k < 4; k++ {
					apk, aqk := A[p][k], A[q][k]
					A[p][k], A[q][k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := 0; k < 4; k++ {
					vkp, vkq := V[k][p], V[k][q]
					V[k][p], V[k][q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	j := 0
	for i := 1; i < 4; i++ {
		if A[i][i] < A[j][j] {
			j = i
		}
	}
	return A[j][j], [4]float64{V[0][j], V[1][j], V[2][j], V[3][j]}
}

// surfacePair makes a separated, unconverged candidate from two surface
// points of bodies whose hulls are apart (so neither point is inside the
// other body), after up to boundProjections alternating projections
// (each point onto its surface, nearest the other point) that each lower
// the distance. Its normal runs along Q − P. (lowSeed walks with it where
// the hulls overlap, and takes only its points, as seeds.)
func surfacePair(pr *pair, lp, lq vec) candidate {
	dist := func(lp, lq vec) float64 {
		dv := worldDiff(pr, lp, lq)
		return math.Sqrt(dv.dot(dv))
	}
	d := dist(lp, lq)
	// Each foot point by Newton (projectPoint) where it settles, else in
	// the chart of a pointy ridge's coordinates (projectPointCharted: feet
	// on ridges, where the grid's search ended the walk 2.4e-4 and 9.4e-4
	// short, TestHullRescueChartedFeet), else by the parametric grid
	// search, which stalls neither at tips nor on flat faces; a step is
	// kept only when it lowers the distance.
	foot := func(s *geom.Superovoid, x, seed vec) (vec, bool) {
		if p, ok := projectPoint(s, x, seed); ok {
			return p, true
		}
		if p, ok := projectPointCharted(s, x, seed); ok {
			return p, true
		}
		return nearestParametric(s, x)
	}
	for k := 0; k < boundProjections; k++ {
		p, okP := foot(pr.a, pr.ta.InvPoint(pr.tb.Point(lq)), lp)
		if !okP {
			break
		}
		q, okQ := foot(pr.b, pr.tb.InvPoint(pr.ta.Point(p)), lq)
		if !okQ {
			break
		}
		fa, okA := pr.a.Residual(p)
		fb, okB := pr.b.Residual(q)
		d2 := dist(p, q)
		if !okA || !okB || math.Abs(fa) > 1e-12 || math.Abs(fb) > 1e-12 || !(d2 < d) {
			break
		}
		settled := d-d2 <= 1e-12*d
		lp, lq, d = p, q, d2
		if settled {
			break
		}
	}
	c := candidate{valid: true, separated: true, sd: d, method: Implicit, lp: lp, lq: lq,
		x: [6]float64{lp[0], lp[1], lp[2], lq[0], lq[1], lq[2]}}
	c.P, c.Q = pr.ta.Point(lp), pr.tb.Point(lq)
	c.nP = worldDiff(pr, lp, lq).scale(1 / d).vec()
	c.nQ = c.nP.Mul(-1)
	return c
}

// worldDiff is Q − P in world coordinates for the local points lp, lq, as
// classify forms it: from the bodies' own offsets and the difference of
// their positions, exact far from the origin.
func worldDiff(pr *pair, lp, lq vec) v3 {
	rp, rq := mulMV(&pr.ta.R, v3of(lp)), mulMV(&pr.tb.R, v3of(lq))
	return rq.sub(rp).add(v3of(pr.tb.T).sub(v3of(pr.ta.T)))
}

// boundProjections caps surfacePair's alternating projections.
const boundProjections = 100

// checkMTD reports whether the expanding polytope checks an overlapping
// answer: for a convex pair when asked (Options.CertifyOverlap), always
// when deep, and always when a shape is pointy (probes: there the gap
// has narrow basins between the multi-start's seeds, and the polytope's
// proof costs no more than probeBasins' search did, cold or warm:
// docs/contact.md, step 6); for a pair with a non-convex shape, where it
// can only show an answer too deep, when deeper than deepOverlap.
func (sv *Solver) checkMTD(pr *pair, c *candidate) bool {
	if !pr.convex {
		return -c.sd > deepOverlap*charLength(pr)
	}
	return sv.opt.CertifyOverlap || -c.sd > epaDeep*charLength(pr) || probes(pr) && !sv.probeOnly
}

// certTol is the slack of the hull certificate, relative to the larger
// body's largest semi-axis: the project's accuracy promise for distances
// (unit-sized bodies in its batteries). The check works in each body's
// local frame, so it holds far from the origin too
// (TestCertificateFarFromOrigin: 3e9 away).
const certTol = 1e-9

// hullCertified proves that a separated pair of bodies that are not both
// convex is the true closest pair. For any unit n, gap(n) = −h_a(n) −
// h_b(−n) (exact support functions) is at most the distance between the
// convex hulls, which is at most the distance between the bodies, which is
// at most the distance of any pair found. So when the witness points are
// the support points along the pair's own normal (to certTol in all), the
// gap equals the distance and the pair is the global minimum. It fails,
// honestly, when a closest point lies in a dent that the hull bridges over.
// It reads the shapes' cached analyses from the pair (pr.ia, pr.ib); on a
// convex shape the witness point, whose normal is ±n, is already its
// support point.
func hullCertified(pr *pair, c *candidate) bool {
	if !c.valid || !c.separated {
		return false
	}
	if c.certChecked {
		return c.certified
	}
	if !c.converged {
		// The support-point test presumes a common-normal pair: that a
		// convex shape's witness is its support point along the normal,
		// and that the normals at P and Q are opposite. An unconverged
		// pair meets neither for sure: one with its point on a pointy tip
		// (e 1.95, 0.05) passed for b's support pair, 0.07 short of it, and
		// the scan of refuteSeparated was skipped for an answer 0.0102
		// apart of bodies 7e-10 apart (TestUnconvergedNotCertified); two
		// true support points with normals 1.4e-3 rad from opposite passed
		// at a gap of 0.04349 for a distance of 0.044095 (a review's
		// reading of TestFarStallKeepsDistances). The gap's own bounds hold
		// for any pair of surface points.
		return gapCertified(pr, c)
	}
	ok, premise := supportWitnessesWhy(pr, c)
	return ok || premise && gapCertified(pr, c)
}

// gapCertified is the certificate's other form, for the pairs whose
// witnesses the support-point test refuses on a premise (a point on a
// nearly flat face, where the test's curvature and alignment checks sit
// at rounding level; geom.SupportTable.SupportVerdict): the gap along the
// pair's normal, from the exact supports, is a lower bound of the
// distance; the witness points, on the surfaces to gapOnSurface, are as
// far apart as the pair's distance, an upper bound. When the bounds meet
// to pairTol the pair is the global minimum. It certifies 2 more of
// TestExtremeRangeSeparatedHulls' 432 answers (342), each checked there
// against the hulls' distance. (Refusals by the scan itself are final: a
// pair in a dip that the hulls bridge, common in paper 000's battery,
// would pay for two numeric supports and fail anyway.)
func gapCertified(pr *pair, c *candidate) bool {
	if !c.valid || !c.separated || !(c.nP.Len() > 0) {
		return false
	}
	fa, okA := pr.a.Residual(c.lp)
	fb, okB := pr.b.Residual(c.lq)
	if !okA || !okB || !(math.Abs(fa) <= gapOnSurface) || !(math.Abs(fb) <= gapOnSurface) {
		return false
	}
	n := c.nP.Normalize()
	w, _, _ := diffSupport(pr, n) // the support of A − B along n: gap(n) = −n·w
	return -n.Dot(w) >= c.sd-pairTol(pr)
}

// gapOnSurface bounds the witnesses' residuals (relative radial distances)
// for gapCertified: a point that far outside its surface moves the upper
// bound by as little, well within pairTol for unit-sized bodies.
const gapOnSurface = 1e-12

// pairTol is certTol for the pair: relative to the bodies' size, since an
// absolute 1e-9 would certify nothing about bodies a nanometre across.
func pairTol(pr *pair) float64 { return certTol * max(pr.maxA, pr.maxB) }

// supportWitnesses reports whether each witness point of c is its body's
// support point along its own normal (to certTol in all), so that the
// pair's signed distance is gap(n), the signed distance of the convex
// hulls along n. A convex shape's witness is one already.
func supportWitnesses(pr *pair, c *candidate) bool {
	ok, _ := supportWitnessesWhy(pr, c)
	return ok
}

// supportWitnessesWhy is supportWitnesses saying also whether a refusal
// came from a premise of the test (geom.SupportTable.SupportVerdict) rather
// than from the body reaching farther along the normal.
func supportWitnessesWhy(pr *pair, c *candidate) (ok, premise bool) {
	ia, ib := pr.ia, pr.ib
	tol := pairTol(pr)
	if !ia.convex && !ib.convex {
		tol /= 2
	}
	okA, okB := true, true
	if !ia.convex {
		if okA, premise = supportPoint(ia.sup, pr.ta.InvDir(c.nP), c.lp, tol, &c.ea, c.haveHess); !okA && !premise {
			return false, false
		}
	}
	if !ib.convex {
		var pb bool
		if okB, pb = supportPoint(ib.sup, pr.tb.InvDir(c.nQ), c.lq, tol, &c.eb, c.haveHess); !okB && !pb {
			return false, false
		}
		premise = premise || pb
	}
	return okA && okB, !(okA && okB)
}

// supportPoint is the support-point test with Newton's curvature when it
// has it.
func supportPoint(t *geom.SupportTable, n, x vec, tol float64, e *geom.Implicit, haveHess bool) (ok, premise bool) {
	if haveHess {
		return t.SupportVerdict(n, x, tol, e)
	}
	s := t.Shape()
	h, okH := s.Hessian(x)
	if !okH {
		return false, true
	}
	return t.SupportVerdict(n, x, tol, &h)
}

// better reports whether candidate c is a better answer than cur: any
// separated pair beats an overlapping one (it proves separation for convex
// bodies), the smaller distance among separated ones (the true closest pair
// of non-convex bodies too), the larger signed distance (smaller MTD) among
// overlapping ones. Converged beats unconverged, unless the unconverged
// pair is nearly stationary (slack > 0) and better by more than its slack.
func better(c, cur *candidate) bool {
	if !c.valid {
		return false
	}
	if !cur.valid {
		return true
	}
	csd, cursd := c.cmpSD(), cur.cmpSD()
	if c.converged != cur.converged {
		// Newton crawls between the nearly flat faces of box-like shapes
		// (e ≈ 0.1), stopping short of its tolerance at a pair that is
		// stationary but for a residual near 1e-8: such a pair still beats
		// a converged one that is clearly worse (TestMTDThinPlates).
		u, k, usd, ksd := c, cur, csd, cursd
		if c.converged {
			u, k, usd, ksd = cur, c, cursd, csd
		}
		if u.slack > 0 && u.separated == k.separated &&
			((u.separated && usd < ksd-u.slack) || (!u.separated && usd > ksd+u.slack)) {
			return !c.converged
		}
		return c.converged
	}
	if c.separated != cur.separated {
		return c.separated
	}
	if c.separated {
		return csd < cursd
	}
	return csd > cursd
}

// clearlyBetter is better, but against a converged best pair c must be
// closer by more than tol, or, both overlapping, shallower by more than tol
// (another scheme's pair beats the best only by more than rounding: the
// same pair found again is no reason to answer from it).
func clearlyBetter(c, best *candidate, tol float64) bool {
	if !better(c, best) {
		return false
	}
	if !best.valid || !best.converged {
		return true
	}
	if !c.separated && !best.separated {
		// (Before the review of 4bf087d this case asked for a deeper
		// pair, which better refuses: no overlap could replace another.)
		return c.cmpSD() > best.cmpSD()+tol
	}
	return c.cmpSD() < best.cmpSD()-tol
}

// placed reports whether c has witness points to start from: a valid
// pair, or an invalid one a start stopped at.
func (c *candidate) placed() bool {
	return c.valid || c.lp != (vec{}) || c.lq != (vec{})
}

// cmpSD is the signed distance candidates are compared on: surfSD where
// set (an unconverged separated pair as finish will answer it), else sd.
func (c *candidate) cmpSD() float64 {
	if c.surfSD > 0 {
		return c.surfSD
	}
	return c.sd
}

// caved reports whether a shape of the pair is caved in, its hull gap above
// caveGap of its size: only there is a closest pair inside a dent far from
// every support seed. (The dips of tx ≠ ty, e2 < 1 — hull gaps up to 2% in
// paper 000's battery — are found from the hull seeds, as the dense-sampling
// tests check, and the octree search costs milliseconds per query.)
func caved(pr *pair, ia, ib *shapeInfo) bool {
	return ia.hullGap > caveGap*pr.maxA || ib.hullGap > caveGap*pr.maxB
}

// caveGap is the hull gap, relative to the largest semi-axis, from which a
// shape counts as caved in (a pointy profile tapered by 0.5: about 9%).
const caveGap = 0.05

// dentProjections is the number of alternating projections that refine the
// octree seed of a non-convex pair's dent search.
const dentProjections = 4

// exploreIter caps the iterations of the extra starts of a multi-start: a
// start that has not converged by then is abandoned (Newton from a good seed
// converges in 3 to 6 iterations).
const exploreIter = 12

// solveFrom runs Newton from x0 and classifies the outcome (not a ranked
// start that joined the best pair's basin: see there).
func (sv *Solver) solveFrom(m Method, pr *pair, x0 [6]float64, res *Result, maxIter int) (c candidate) {
	sv.solveFromPre(m, pr, x0, nil, res, maxIter, &c)
	return
}

// solveFromPre is solveFrom with Newton's first evaluation at x0 known but
// for the poses (pre, when not nil: a warm start; see newton), into c (a
// candidate is 512 bytes: returned by value through two calls, its copies
// were 3% of a warm query's instructions).
func (sv *Solver) solveFromPre(m Method, pr *pair, x0 [6]float64, pre *warmState, res *Result, maxIter int, c *candidate) {
	res.Starts++
	o := &sv.outcome
	sv.newton(m, pr, x0, pre, res.Starts-1, maxIter, o)
	res.Iterations += o.iters
	if sv.ranked && sv.joined {
		// A ranked start come back to the best pair's basin: the
		// multi-start discards it unclassified.
		*c = candidate{x: o.x, method: m}
		return
	}
	sv.classifyInto(m, pr, o, c)
}

// inside reports whether the world point w lies in the body of shape s
// and pose t to within lim: its residual is at most lim (lim < 0: deep
// inside). Callers test one body, then the other only when needed.
func inside(s *geom.Superovoid, t *geom.Transform, w vec, lim float64) bool {
	f, ok := s.Residual(t.InvPoint(w))
	return ok && f <= lim
}

// witnessResidual is the residual pair.witness tests: ln(1 + F) with the
// constants k, F without them (nil: the two agree to 1e-18 where it
// matters, at ±1e-9).
func witnessResidual(k *geom.ImplicitConsts, s *geom.Superovoid, t *geom.Transform, w vec) (float64, bool) {
	if k == nil {
		return s.Residual(t.InvPoint(w))
	}
	return k.LogResidual(t.InvPoint(w))
}

// witness reports whether the world point w, a witness of one of pr's
// bodies in classify, lies in the body (s, t) to within 1e-9: it is
// inside(s, t, w, 1e-9) for a query's side, whose evaluation constants k
// it keeps (nil outside a query), ln(1 + F) against ln(1 + 1e-9) without
// F's exponential, on the path of every overlapping answer. When keep is
// set it also keeps the deepest such witness inside by more than
// overlapInside (pr.insideF): a point of one surface that far inside the
// other body proves the bodies overlap as the scan's points do, whatever
// becomes of its pair. (classify keeps only a converged pair's witnesses,
// which lie on their own surfaces, of a pair deeper than a touch: a
// refused touch proves nothing, as ridgeTakes and lowSeed undo its mark.)
func (pr *pair) witness(k *geom.ImplicitConsts, s *geom.Superovoid, t *geom.Transform, w vec, keep bool) bool {
	f, ok := witnessResidual(k, s, t, w)
	if keep && ok && f < -overlapInside && f < pr.insideF {
		pr.insideF = f
	}
	return ok && f <= logWitnessLim
}

// logWitnessLim is ln(1 + 1e-9) (its series, exact as a constant).
const logWitnessLim = 1e-9 - 1e-18/2 + 1e-27/3

// insideBoth reports whether the world point w lies in both bodies.
func insideBoth(pr *pair, w vec) bool {
	return inside(pr.a, &pr.ta, w, 0) && inside(pr.b, &pr.tb, w, 0)
}

// classify decides what kind of common-normal pair an outcome is.
func (sv *Solver) classify(m Method, pr *pair, o *newtonOutcome) (c candidate) {
	sv.classifyInto(m, pr, o, &c)
	return
}

// classifyInto is classify into *c.
func (sv *Solver) classifyInto(m Method, pr *pair, o *newtonOutcome, c *candidate) {
	*c = candidate{x: o.x, method: m, converged: o.converged}
	if !o.converged {
		L := charLength(pr)
		if r := math.Sqrt(merit(&o.phi, o.n, 1/L)); r <= nearStationary {
			c.slack = (1e-6 + 1e3*r) * L
		}
	}
	if o.haveHess {
		c.ea, c.eb, c.haveHess, c.xe = o.ea, o.eb, true, o.xe
	}
	// Final witness points and exact normals, whatever the scheme.
	lp, lq := o.localP, o.localQ
	na, nb := o.na, o.nb
	if !o.haveNormals {
		var oka, okb bool
		na, oka = pr.a.Normal(lp)
		nb, okb = pr.b.Normal(lq)
		if !oka || !okb {
			return
		}
	}
	c.lp, c.lq = lp, lq
	// (In v3 arithmetic, the same operations as the Transform methods.)
	rp, rq := mulMV(&pr.ta.R, v3of(lp)), mulMV(&pr.tb.R, v3of(lq))
	Ta, Tb := v3of(pr.ta.T), v3of(pr.tb.T)
	c.P, c.Q = rp.add(Ta).vec(), rq.add(Tb).vec()
	c.nP, c.nQ = mulMV(&pr.ta.R, v3of(na)).vec(), mulMV(&pr.tb.R, v3of(nb)).vec()
	// Q − P from the bodies' own offsets and the difference of their
	// positions: far from the origin the difference of the world points
	// would keep only the positions' digits (1e-8 at 1e8).
	dv := rq.sub(rp).add(Tb.sub(Ta))
	d := dv.vec()
	dist := math.Sqrt(dv.dot(dv))
	// A support pair (a stationary point of the gap function) has opposite
	// normals; pairs with parallel normals are other common-normal pairs.
	if c.nP.Dot(c.nQ) > -0.99 {
		return
	}
	L := charLength(pr)
	if dist > 1e-9*L {
		// d must lie along the common normal. (Rounding relative to L:
		// an absolute 1e-12 passed every pair of bodies below 1e-12;
		// TestQueryScaleInvariance.)
		if math.Abs(math.Abs(c.nP.Dot(d))-dist) > 1e-6*dist+1e-12*L {
			return
		}
	}
	if c.nP.Dot(d) >= 0 && pr.convex {
		// Separated candidate of convex bodies: each lies in its tangent
		// half-space, so each point is outside the other body.
		c.separated = true
		c.sd = dist
	} else if c.nP.Dot(d) >= 0 {
		// Separated candidate: each point must lie outside the other body.
		// The hull certificate, which the query needs for a converged
		// answer anyway, proves that when the points are farther apart than
		// its tolerance: each body then lies on its own side of a's tangent
		// plane. (Not for the multi-start's exploratory starts: most of
		// their pairs are discarded, and the residuals cost less.)
		if c.converged && !sv.exploring && pr.ia != nil { // (pairs outside a query carry no analyses)
			c.valid, c.separated, c.sd = true, true, dist // as the certificate takes it
			c.certified, c.certChecked = hullCertified(pr, c), true
			if c.certified && dist > 4*pairTol(pr) {
				return
			}
			c.valid, c.separated, c.sd = false, false, 0
		}
		if inside(pr.a, &pr.ta, c.Q, -1e-9) || inside(pr.b, &pr.tb, c.P, -1e-9) {
			return
		}
		c.separated = true
		c.sd = dist
	} else {
		// Overlapping candidate: the bodies must really overlap (else a
		// common-normal pair across a separated non-convex pair, P on the
		// far side of a, would pass for a deep overlap). Proofs, in turn:
		//  - a witness point inside the other body (a shallow overlap);
		//  - two convex shapes: a point inside both (the witnesses'
		//    midpoint or a centre), or an overlap already proven in this
		//    query. The pair's signed distance is then the gap along its
		//    normal, never above the answer; in a deep overlap the minimum
		//    translation's witnesses and midpoint can all lie outside both
		//    bodies (TestDeepOverlaps, TestDeepOverlapSweepPairs);
		//  - a non-convex shape, overlap already proven: only when both
		//    witnesses are support points, so that the translation
		//    separates the hulls, hence the bodies, and is never shallower
		//    than the answer (TestNonConvexDeepOverlaps). A dent pair would
		//    read too shallow (review of 2026-11-23), and a valid worse
		//    pair would stop the later recovery stages.
		// (The proven overlap of a convex pair first: it needs no residual.)
		keep := o.converged && dist > touchLim(pr)
		// An unconverged iterate of the implicit scheme need not lie on
		// its surfaces: its point inside the other body proves an overlap
		// only when inside its own too. (P 2.7e-6 off a and 2.3e-6 into
		// b "proved" the overlap of a pair 6.8e-10 apart, and its answer
		// was the polytope's pair of hulls that do not overlap:
		// TestIterateWitness.) The other schemes' points lie on their
		// surfaces by construction.
		own := o.converged || m != Implicit || sv.iterateWitness
		if !(pr.convex && pr.overlapProven) &&
			!(pr.witness(pr.ka, pr.a, &pr.ta, c.Q, keep) && (own || pr.witness(pr.kb, pr.b, &pr.tb, c.Q, false))) &&
			!(pr.witness(pr.kb, pr.b, &pr.tb, c.P, keep) && (own || pr.witness(pr.ka, pr.a, &pr.ta, c.P, false))) &&
			!(pr.convex && (insideBoth(pr, c.P.Add(c.Q).Mul(0.5)) || insideBoth(pr, pr.ta.T) || insideBoth(pr, pr.tb.T))) &&
			!(!pr.convex && pr.overlapProven && pr.ia != nil && supportWitnesses(pr, c)) {
			if o.converged && !pr.convex && !pr.overlapProven && (pr.unproven.dist == 0 || dist < pr.unproven.dist) {
				pr.unproven = unprovenPair{P: c.P, Q: c.Q, dist: dist, ok: true}
			}
			return
		}
		c.sd = -dist
		pr.overlapProven = true
	}
	c.valid = true
	if c.separated && !c.converged {
		// Compared on its own distance, an iterate closer than the bodies
		// are could beat a better pair and then, moved onto the surfaces
		// by finish, answer worse than that pair (review finding).
		if t := *c; onSurfaces(pr, &t) {
			c.surfSD = t.sd
		}
	}
	return
}

// snapTiny zeroes the components of v below tiny in magnitude. geom
// floors |u| at 1e-150 to keep logarithms finite on the coordinate planes,
// which leaves ±1e-150-sized residues in points and normals that are
// exactly zero; nothing below 1e-30 of the body's size is meaningful.
func snapTiny(v vec, tiny float64) vec {
	return vec{snap(v[0], tiny), snap(v[1], tiny), snap(v[2], tiny)}
}

// snap is 0 where |x| < tiny and x elsewhere, selected on the bit pattern
// (a conditional move, not a branch: which components are tiny is as good
// as random from query to query).
func snap(x, tiny float64) float64 {
	var keep uint64
	if !(math.Abs(x) < tiny) {
		keep = ^uint64(0)
	}
	return math.Float64frombits(math.Float64bits(x) & keep)
}

// onSurfaces moves an unconverged separated candidate's witness points
// onto their surfaces along the rays from the centres, and takes the
// distance there, with the normal along Q − P (as for every answer, Q − P
// = distance · normal; within pairTol the candidate's own normals stay,
// the line being rounding's, and Q − P is within 2·pairTol of it either
// way: keepNormals): an iterate stopped short can lie off the surfaces
// and so closer than the bodies are (a box-like pair stopped with q
// 3.7e-5 off b's surface, 2.8e-5 below the true distance), while two
// surface points are never closer than the bodies. The candidate is left
// as it was when a point does not settle, moves by more than half the
// distance, or the moved points do not lie outside each other's body.
// It reports whether it moved the points.
func onSurfaces(pr *pair, c *candidate) bool {
	lp, okA := radialToSurface(pr.a, c.lp)
	lq, okB := radialToSurface(pr.b, c.lq)
	if !okA || !okB {
		return false
	}
	mp, mq := lp.Sub(c.lp).Len(), lq.Sub(c.lq).Len()
	if !(mp <= 0.5*c.sd && mq <= 0.5*c.sd) {
		return false
	}
	nP, nQ := c.nP, c.nQ
	if !separatedAt(pr, c, lp, lq) {
		return false
	}
	keepNormals(pr, c, nP, nQ)
	return true
}

// separatedAt sets c's points to the local surface points lp, lq, its
// distance to theirs and its normals along Q − P, when they are apart and
// neither lies inside the other body; it reports whether it did.
func separatedAt(pr *pair, c *candidate, lp, lq vec) bool {
	dv := worldDiff(pr, lp, lq)
	d := math.Sqrt(dv.dot(dv))
	if !(d > 0) {
		return false
	}
	P, Q := pr.ta.Point(lp), pr.tb.Point(lq)
	if inside(pr.b, &pr.tb, P, 0) || inside(pr.a, &pr.ta, Q, 0) {
		return false
	}
	n := dv.scale(1 / d).vec()
	c.lp, c.lq, c.P, c.Q, c.sd = lp, lq, P, Q, d
	c.nP, c.nQ = n, n.Mul(-1)
	return true
}

// radialToSurface returns the point of s's surface on the ray through the
// local point x (x near the surface), and whether it settled: Newton's
// method on F along the ray (the bodies are star-shaped about their
// centres, so ∇F·x > 0 there; the plain step x/(1+F), exact without taper,
// stalls on tapered box-like shapes).
func radialToSurface(s *geom.Superovoid, x vec) (vec, bool) {
	var e geom.Implicit
	for k := 0; k < 30; k++ {
		if !s.ResidualHessianInto(x, false, &e) {
			return x, false
		}
		f := e.G
		if !(math.Abs(f) < 0.5) {
			return x, false
		}
		if math.Abs(f) <= 1e-14 { // (F's own rounding is near 1e-16)
			return x, true
		}
		gx := e.Grad.Dot(x)
		if !(gx > 0) {
			return x, false
		}
		x = x.Mul(1 - f/gx)
	}
	return x, false
}

// snapTurn is the largest turn of the normal that finish accepts from
// snapping a witness point onto a coordinate plane (radians, to first
// order): the 1e-8 of an exponent near 2, not the turn at a pointy tip.
const snapTurn = 1e-6

// finish writes a chosen candidate into the result. It changes the
// candidate's points and normals (snapping), so its certificate verdict must
// be decided before (certChecked is not cleared).
func (sv *Solver) finish(pr *pair, c *candidate, certified bool, res *Result) {
	moved := !c.converged && c.separated && !c.dual && onSurfaces(pr, c)
	lp, lq := c.lp, c.lq
	c.lp = snapTiny(c.lp, 1e-30*pr.maxA)
	c.lq = snapTiny(c.lq, 1e-30*pr.maxB)
	// A point snapped onto a coordinate plane takes the normal there: with
	// an exponent near 2 the normal still turns by 1e-8 within 1e-30 of it.
	// Not at a pointy tip or ridge, where it turns by far more (0.45° on a
	// pair answered by the last resort's climb, whose normal was right;
	// 1e-3 rad on ridges polished in their chart, whose feet lie 1e-28 of
	// the size off the plane): the point then stays where its normal is
	// the answer's.
	if c.lp != lp && !c.dual {
		if n, ok := pr.a.Normal(c.lp); ok && pr.ta.Dir(n).Sub(c.nP).Len() < snapTurn {
			c.nP = pr.ta.Dir(n)
		} else {
			c.lp = lp
		}
	}
	if c.lq != lq && !c.dual {
		if n, ok := pr.b.Normal(c.lq); ok && pr.tb.Dir(n).Sub(c.nQ).Len() < snapTurn {
			c.nQ = pr.tb.Dir(n)
		} else {
			c.lq = lq
		}
	}
	c.P, c.Q = toWorld(&pr.ta, v3of(c.lp)).vec(), toWorld(&pr.tb, v3of(c.lq)).vec()
	c.nP, c.nQ = snapTiny(c.nP, 1e-30), snapTiny(c.nQ, 1e-30)
	res.Distance = c.sd
	res.P, res.Q = c.P, c.Q
	res.Normal, res.NormalQ = c.nP, c.nQ
	res.TangentP, res.BinormalP = tangentFrame(c.nP)
	res.TangentQ, res.BinormalQ = tangentFrame(c.nQ)
	res.LocalP, res.LocalQ = c.lp, c.lq
	if c.method != Implicit && moved {
		res.ParamsP[0], res.ParamsP[1] = pr.a.Params(c.lp)
		res.ParamsQ[0], res.ParamsQ[1] = pr.b.Params(c.lq)
	} else if c.method != Implicit {
		res.ParamsP = [2]float64{c.x[0], c.x[1]}
		res.ParamsQ = [2]float64{c.x[2], c.x[3]}
	} else {
		// Only the parametric schemes need them (to warm-start); the
		// visualizer asks geom.Params when it draws them.
		res.ParamsP, res.ParamsQ = [2]float64{}, [2]float64{}
	}
	if c.converged {
		res.Status = Converged
	} else {
		res.Status = MaxIterations
	}
	res.Certified = certified && c.converged
	res.Method = c.method
	res.dual = c.dual && !c.touch
	if c.method == Implicit && c.haveHess {
		// (Field by field: the literal was built aside and copied, 220
		// instructions a query.)
		w := &res.warm
		w.ok, w.x, w.ea, w.eb = true, c.xe, c.ea, c.eb
		if sv.lu.ok && sv.luQuery == sv.queryN && near6(&sv.luX, &c.xe, luNear*charLength(pr)) {
			w.lu = sv.lu
		} else {
			w.lu.ok = false
		}
	} else {
		res.warm = warmState{}
	}
}

// shapeConsts is one shape with its evaluation constants.
type shapeConsts struct {
	ok   bool
	s    geom.Superovoid
	k    geom.ImplicitConsts
	made int // times computed (tests)
}

// of returns the constants of shape s, computing them when they are not
// the ones held.
func (c *shapeConsts) of(s *geom.Superovoid) *geom.ImplicitConsts {
	if !c.ok || c.s != *s {
		c.ok, c.s = true, *s
		s.ImplicitConstsInto(&c.k)
		c.made++
	}
	return &c.k
}

// luNear bounds, relative to the characteristic length, how far from the
// answer's last evaluation the Jacobian kept for the next warm start's
// chord step may have been factorised: a final chord step's Jacobian is
// one short step (deferStep) behind, and the chord step's error grows
// with the distance.
const luNear = 1e-3

// near6 reports whether x and y differ by at most tol in every entry.
func near6(x, y *[6]float64, tol float64) bool {
	for i := range x {
		if !(math.Abs(x[i]-y[i]) <= tol) {
			return false
		}
	}
	return true
}

// warmFrom marks res as a warm answer and keeps prev's record of the cold
// guess's seeds (for drawing: the warm start used none).
func (res *Result) warmFrom(prev *Result) {
	res.Warm = true
	res.QuadLevels = prev.QuadLevels
	res.quadPath = prev.quadPath
	res.OctCellA, res.OctCellB = prev.OctCellA, prev.OctCellB
	res.UsedGuess = prev.UsedGuess
}

// sameShapes reports whether r answered a query on shapes a and b
// (whatever the poses).
func (r *Result) sameShapes(a, b *geom.Superovoid) bool {
	return r.in.set && r.in.a.Shape == *a && r.in.b.Shape == *b
}

// warmState is what a Result keeps for a warm start beyond its public
// fields: the implicit scheme's last evaluation, on the shapes of the
// Result's query (Result.in).
type warmState struct {
	ok     bool
	x      [6]float64 // the local points evaluated
	ea, eb geom.Implicit
	// lu, when lu.ok, is a factorised Jacobian for the Result's poses at x
	// or, after a chord last step, at the iterate one short step before
	// (within luNear of x): the next warm start's chord step (newton).
	lu implicitLU
}

// usable reports whether w can start the implicit scheme on pr: the same
// shapes, and prev's witness points still where w was evaluated (within a
// last Newton step), not moved by the caller.
func (w *warmState) usable(m Method, pr *pair, prev *Result) bool {
	if !w.ok || m != Implicit || prev.Method != Implicit || !pr.samePrev {
		return false
	}
	tol := 1e-5 * max(pr.maxA, pr.maxB)
	return prev.LocalP.Sub(vec{w.x[0], w.x[1], w.x[2]}).Len() <= tol &&
		prev.LocalQ.Sub(vec{w.x[3], w.x[4], w.x[5]}).Len() <= tol
}

// fail reports the best cheap estimate when no start produced a valid pair:
// the centres' direction with approximate support points. Never NaN.
func (sv *Solver) fail(pr *pair, res *Result) {
	n := pr.tb.T.Sub(pr.ta.T)
	if n.Len() == 0 {
		n = vec{0, 0, 1}
	}
	n = n.Normalize()
	lp := approxSupport(pr.a, pr.ta.InvDir(n))
	lq := approxSupport(pr.b, pr.tb.InvDir(n.Mul(-1)))
	res.P, res.Q = pr.ta.Point(lp), pr.tb.Point(lq)
	res.Distance = n.Dot(res.Q.Sub(res.P))
	res.Normal = n
	res.NormalQ = n.Mul(-1)
	res.TangentP, res.BinormalP = geom.TangentFrame(res.Normal)
	res.TangentQ, res.BinormalQ = geom.TangentFrame(res.NormalQ)
	res.LocalP, res.LocalQ = lp, lq
	res.Status = Failed
	res.Certified = false
}

// startFromLocal converts local witness points (and their parameters) to
// the unknowns of a scheme.
func (sv *Solver) startFromLocal(m Method, pr *pair, prev *Result) [6]float64 {
	if m == Implicit {
		lp, lq := prev.LocalP, prev.LocalQ
		return [6]float64{lp[0], lp[1], lp[2], lq[0], lq[1], lq[2]}
	}
	if prev.Method == Implicit {
		return sv.startFromPoints(m, pr, prev.LocalP, prev.LocalQ)
	}
	pp, pq := prev.ParamsP, prev.ParamsQ
	return [6]float64{pp[0], pp[1], pq[0], pq[1]}
}

// fromSeed runs Newton from the local points lp, lq in scheme m, then in
// the schemes that recover it until one converges, and returns the best
// outcome that keep admits (scheme m's whatever it is when keep is nil).
func (sv *Solver) fromSeed(m Method, pr *pair, lp, lq vec, res *Result, keep *depthBounds) candidate {
	var best candidate
	for _, m2 := range schemesFrom(m) {
		c := sv.solveFromPoints(m2, pr, lp, lq, res)
		if keep.admits(&c) && (m2 == m || better(&c, &best)) {
			best = c
		}
		if best.valid && best.converged {
			break
		}
	}
	return best
}

// solveFromPoints runs scheme m from the local points lp, lq with the
// configured iteration cap.
func (sv *Solver) solveFromPoints(m Method, pr *pair, lp, lq vec, res *Result) candidate {
	return sv.solveFrom(m, pr, sv.startFromPoints(m, pr, lp, lq), res, sv.opt.MaxIter)
}

// trySeed runs scheme m from the local points lp, lq and keeps the outcome
// in best when it is better; it reports whether it was.
func (sv *Solver) trySeed(m Method, pr *pair, lp, lq vec, best *candidate, res *Result) bool {
	c := sv.solveFromPoints(m, pr, lp, lq, res)
	if !better(&c, best) {
		return false
	}
	*best = c
	return true
}

// localsOf returns the local points that the unknowns x of scheme m stand for.
func (sv *Solver) localsOf(m Method, pr *pair, x [6]float64) (lp, lq vec) {
	if m == Implicit {
		return vec{x[0], x[1], x[2]}, vec{x[3], x[4], x[5]}
	}
	return pr.a.Point(x[0], x[1]), pr.b.Point(x[2], x[3])
}

// startFromPoints builds unknowns from local points near the surfaces.
func (sv *Solver) startFromPoints(m Method, pr *pair, lp, lq vec) [6]float64 {
	if m == Implicit {
		return [6]float64{lp[0], lp[1], lp[2], lq[0], lq[1], lq[2]}
	}
	a1, a2 := pr.a.Params(lp)
	b1, b2 := pr.b.Params(lq)
	return [6]float64{a1, a2, b1, b2}
}

// coldGuess runs the configured initial guess and records its seeds. For
// the support guess it also returns the direction it climbed to.
func (sv *Solver) coldGuess(m Method, pr *pair, res *Result) ([6]float64, vec) {
	res.UsedGuess = sv.opt.Guess
	if sv.opt.Guess == Support {
		c := pr.tb.T.Sub(pr.ta.T)
		if c.Len() == 0 {
			c = vec{0, 0, 1}
		}
		n, lp, lq, _ := ascend(pr, c.Normalize(), 10)
		return sv.startFromPoints(m, pr, lp, lq), n
	}
	if sv.opt.Guess == Octree {
		if lp, lq, ok := sv.octreeGuess(pr, res); ok {
			return sv.startFromPoints(m, pr, lp, lq), vec{}
		}
	}
	res.UsedGuess = Quadtree
	pa, pb := quadtreeGuess(pr, sv.opt.QuadLevels, res)
	if m == Implicit {
		lp := pr.a.Point(pa[0], pa[1])
		lq := pr.b.Point(pb[0], pb[1])
		return [6]float64{lp[0], lp[1], lp[2], lq[0], lq[1], lq[2]}, vec{}
	}
	return [6]float64{pa[0], pa[1], pb[0], pb[1]}, vec{}
}

// seedOnCusp reports whether the local points of the unknowns x lie near
// the plane of a pointy exponent (e ≥ 1.6, cuspPolish's zone), where the
// implicit normal turns abruptly.
func (sv *Solver) seedOnCusp(m Method, pr *pair, x [6]float64) bool {
	lp, lq := sv.localsOf(m, pr, x)
	xl := [6]float64{lp[0], lp[1], lp[2], lq[0], lq[1], lq[2]}
	_, near := newCuspChart(pr, &xl)
	return near
}

// stalledGuessAscent checks an overlapping answer that another start found
// after the cold guess's own start stalled: the guess direction climbs the
// exact gap over directions (supportRefine), and the pair it reaches
// replaces the answer when clearly shallower. The guess's ascent, on
// ellipsoid proxies, ends in the best basin of the hulls' gap more often
// than any of the multi-start's directions, but its support points sit on
// a pointy tip or ridge, where the implicit normal turns through tens of
// degrees within 1e-10 and Newton stalls; the multi-start's pairs are
// other local maxima of the gap. Two bodies resting on each other, a
// pointy tip 1e-10 deep in a box-like side, were answered 0.147 deep from
// such a pair (TestTouchingPointyPairs). The ascent uses exact supports,
// a root search each: on the 21 pairs of the paper battery whose cold start
// stalled under an overlapping answer it took 1.3 ms a pair and changed
// none, so it runs only where the guess's seed lies on a pointy tip or
// ridge (seedOnCusp; none of those 21).
func (sv *Solver) stalledGuessAscent(pr *pair, seen vec, best *candidate, res *Result) {
	n := seen
	if !(n.Len() > 0) {
		c := pr.tb.T.Sub(pr.ta.T)
		if !(c.Len() > 0) {
			return
		}
		n, _, _, _ = ascend(pr, c.Normalize(), 10)
	}
	if !(n.Len() > 0) {
		return
	}
	c, ok := sv.supportRefine(pr, n.Normalize(), res)
	if ok && c.valid && !c.separated && clearlyBetter(&c, best, pairTol(pr)) {
		*best = c
		res.Fallback = true
	}
}

// deeperThanProven reports whether c overlaps deeper, by more than
// pairTol, than an overlapping best whose translation the hulls' support
// planes prove separating (b moved by best's depth along its normal parts
// the hulls, hence the bodies), such as the polytope's own pair: c then
// is no minimum translation, whatever its convergence. (Pair 104 of
// TestApproachSweep's first draw at SOVVIZ_SWEEP_SEED=38: touchRescue's
// converged pair 0.0607117 deep replaced the polytope's unconverged
// 0.0599459 in every scheme; TestTouchRescueKeepsProvenDepth.)
func (sv *Solver) deeperThanProven(pr *pair, c, best *candidate) bool {
	tol := pairTol(pr)
	if sv.noProvenDepth || !c.valid || c.separated || !best.valid || best.separated || !(c.sd < best.sd-tol) || !(best.nP.Len() > 0) {
		return false
	}
	n := best.nP.Normalize()
	w, _, _ := diffSupport(pr, n)
	return n.Dot(w) <= -best.sd+tol
}

// touchRescue climbs the exact gap (exactAscent) from the best pair's
// normal, the cold guess's direction and the centres' line, for a query
// that no stage has answered converged, and keeps what it finds when
// better: the pair where the climb ends when classify accepts it, else
// Newton's pair from its points (each scheme), else the supports' own
// proof of a touching pair (touchingPair); never an overlap deeper than a
// best whose translation the support planes prove (deeperThanProven).
// Most such queries are two pointy bodies resting tip to tip or tip to
// ridge, where the common-normal starts stall on the tips. It runs on no
// pair of the paper battery, every one of which converges before it.
func (sv *Solver) touchRescue(m Method, pr *pair, seen vec, best *candidate, res *Result) {
	var dirs [3]vec
	nd := 0
	if best.placed() && best.nP.Len() > 0 {
		dirs[nd] = best.nP
		nd++
	}
	if seen.Len() > 0 {
		dirs[nd] = seen
		nd++
	}
	if c := pr.tb.T.Sub(pr.ta.T); c.Len() > 0 {
		dirs[nd] = c
		nd++
	}
	// keep takes c when better (a converged pair, or the supports' proof:
	// only such pairs replace the best) and reports whether it did.
	keep := func(c *candidate, ok bool) bool {
		// (Not a separated pair once the bodies are proven to overlap: a
		// pointy tip in a box-like body's dip, answered 0.059 apart over
		// a valid overlap 0.21 deep that had not converged;
		// TestSeparatedAnswerRefuted.)
		if !ok || c.separated && pr.overlapProven || !better(c, best) || sv.deeperThanProven(pr, c, best) {
			return false
		}
		*best = *c
		res.Fallback = true
		return true
	}
	var ends [3]ascentEnd
	for i := 0; i < nd; i++ {
		ends[i] = sv.exactAscent(pr, dirs[i].Normalize(), res)
		if c := sv.ascentPair(pr, &ends[i]); keep(&c, c.valid && c.converged) {
			return
		}
		for _, m2 := range schemesFrom(m) {
			c := sv.solveFromPoints(m2, pr, ends[i].lp, ends[i].lq, res)
			if keep(&c, c.valid && c.converged) {
				return
			}
		}
	}
	// No pair converged: the supports' proof, from the first climb whose
	// bounds met.
	for i := 0; i < nd; i++ {
		if c, ok := touchingPair(pr, &ends[i]); keep(&c, ok) {
			return
		}
	}
	// No climb's bounds met: each stalled on a ridge of the gap and goes
	// on along it (ridgeClimb), its end answered as the ends above.
	// (Only here: a query answered above keeps its answer.)
	for i := 0; i < nd; i++ {
		e := ridgeClimb(pr, ends[i], res)
		if c := sv.ascentPair(pr, &e); keep(&c, c.valid && c.converged) {
			return
		}
		if c, ok := touchingPair(pr, &e); keep(&c, ok) {
			return
		}
	}
}
