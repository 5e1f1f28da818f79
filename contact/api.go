// Package contact computes the exact distance between two superovoids: the
// signed distance (minimum distance when separated, minus the minimum
// translation distance when overlapping), the witness points, and the normal,
// tangent and binormal at both points. It solves the common-normal conditions
// of paper 000 (implicit 6x6, parametric 4x4, or ntb) by Newton–Raphson from a
// quadtree or octree initial guess or from a previous result, classifies every
// solution, and certifies it where convexity allows.
//
// The package is pure Go with no global state. A Solver owns scratch space
// and per-shape caches, so steady-state queries allocate nothing.
package contact

import (
	"github.com/sovviz/sovviz/geom"
)

// Method selects the common-normal formulation.
type Method int

const (
	// Implicit solves the 6x6 system in the local Cartesian coordinates of
	// both points (paper 000 eq 15).
	Implicit Method = iota
	// Parametric solves the 4x4 system in angle-centre parameters with
	// parametric normals and tangents (eq 18).
	Parametric
	// NTB solves the 4x4 parametric system with normals and tangents taken
	// from the implicit gradient (paper 000 §5.1, "ntbParametric").
	NTB
)

// Guess selects how a cold query finds its initial iterate.
type Guess int

const (
	// Quadtree descends the parametric quadtrees of both shapes (paper 000 §4.4).
	Quadtree Guess = iota
	// Octree finds the closest pair of boundary cells of the implicit octrees.
	Octree
	// Support climbs the gap function −h_a(n) − h_b(−n) over directions n
	// from the centres' direction with cheap support points, then seeds
	// Newton with the closed-form support points of that direction. Not in
	// the papers; sovviz's default because it is several times cheaper than
	// the 6-level quadtree and lands in the right basin more often.
	Support
)

// Status tells how a query ended.
type Status int

const (
	// Converged: Newton met the tolerance and the solution was classified.
	Converged Status = iota
	// MaxIterations: the best iterate is returned but did not meet the tolerance.
	MaxIterations
	// Failed: no usable solution (singular Jacobian, divergence or domain
	// exits from every start); Distance holds the best estimate found,
	// or 0 for an invalid body, which has none.
	Failed
)

func (s Status) String() string {
	switch s {
	case Converged:
		return "converged"
	case MaxIterations:
		return "max_iterations"
	case Failed:
		return "failed"
	}
	return "unknown"
}

func (m Method) String() string {
	switch m {
	case Implicit:
		return "implicit"
	case Parametric:
		return "parametric"
	case NTB:
		return "ntb"
	}
	return "unknown"
}

func (g Guess) String() string {
	switch g {
	case Quadtree:
		return "quadtree"
	case Octree:
		return "octree"
	case Support:
		return "support"
	}
	return "unknown"
}

// MaxQuadLevels bounds Options.QuadLevels so seeds fit in fixed arrays.
const MaxQuadLevels = 12

// Options configures a query. The zero value is not valid; use DefaultOptions.
type Options struct {
	Method Method
	Guess  Guess
	// Tol ends a Newton run converged when a full step is at most Tol·L
	// (Tol rad for the parametric schemes) and the scaled residual below
	// 1e-8, L the pair's characteristic length, the smaller body's
	// smallest semi-axis. It is relative, so that the answers scale with
	// the bodies: a pair scaled by k is answered k times the distance, to
	// rounding (TestQueryScaleInvariance, 1e-12 to 1e12); for bodies of
	// unit size Tol is the length it was. (Until it was relative, 1e-10
	// length units ended runs 1e-10 apart on bodies of that size.)
	// Whatever Tol, a run also ends converged when that residual falls
	// below 1e-12, or when it is below 1e-6 and the next full step at
	// most 1e-6 of L (2e-6 rad for the parametric schemes),
	// which is then taken without another evaluation: quadratic
	// convergence leaves an error of order 1e-12·L. (The implicit scheme
	// also ends a run with a chord step, after a short full step, when
	// that step's length times the chord step's is at most 1e-12·L² and
	// the Hessians' change leaves at most 3e-12: docs/contact.md, "Warm
	// starts".) So a larger Tol ends
	// runs earlier, and one below the default changes answers by rounding
	// only (docs/query.md, -tol).
	Tol         float64
	MaxIter     int  // Newton iterations per start
	QuadLevels  int  // quadtree depth, 1..MaxQuadLevels
	OctreeDepth int  // octree depth for the Octree guess
	FiniteDiff  bool // use a central-difference Jacobian instead of the analytical one
	// TimeGuess makes the solver measure its cold initial guess into
	// Result.GuessNS (two clock reads per query; off by default).
	TimeGuess bool
	// CertifyOverlap makes the solver prove the overlapping answers of
	// convex pairs minimal with the expanding polytope (docs/contact.md):
	// tens to hundreds of microseconds a query. Deep overlaps (beyond 0.3
	// of the smaller body's smallest semi-axis) and those of pointy shapes
	// (an exponent from 1.3 on) are always checked so.
	CertifyOverlap bool
	// Trace, when non-nil, receives every Newton iterate of the query
	// (its slice is reused). Nil costs nothing.
	Trace *Trace
}

// DefaultOptions returns the implicit scheme from the support guess with a
// tolerance of 1e-10 of the characteristic length on the step (Tol);
// Newton converges quadratically, so the final error is far below the
// 1e-9 of the bodies' size the project promises, at any size: scaled by
// 1e-12 to 1e12, 60 pairs of TestQueryScaleInvariance (convex and not,
// separated and overlapping) are answered within 1e-13 of their unscaled
// distance, relatively.
func DefaultOptions() Options {
	return Options{Method: Implicit, Guess: Support, Tol: 1e-10, MaxIter: 40, QuadLevels: 6, OctreeDepth: 5}
}

// Trace records the iterates of one query for the convergence debugger:
// for each Newton run in turn, its starting iterate (Iter 0) and the
// iterate after each step it took (Iter 1, 2, …), the last one where the
// run ended (its answer, when it converged). A start is one run, or two or
// three when the multi-start continues or re-seeds it (docs/contact.md);
// a continued run's iterate 0 is where the run before it ended.
type Trace struct {
	Steps []TraceStep
}

// TraceStep is one Newton iterate.
type TraceStep struct {
	Start int // index of the start (0: first guess; later: restarts)
	// Iter numbers the iterates of one run: 0 is where it began (Step and
	// Condition are 0 there), k the iterate after its k-th step.
	Iter     int
	Q        [6]float64 // the unknowns (4 used by the parametric schemes)
	P, Qw    geom.Vec3  // witness candidates in world coordinates
	Residual float64    // |Φ|
	Step     float64    // |Δq|
	// Condition estimates the condition number of the Jacobian the step
	// solved with: the iterate's own, or for a chord step (a warm start's
	// first step, and most warm starts' last) the one kept from before.
	Condition float64
	// Final marks a start's last step when Newton took it without paying
	// for another evaluation (its length already put the error below
	// 1e-12 of the bodies' size: for a Newton step its square, quadratic
	// convergence; for a chord step its product with the step before):
	// the solver did not need the residual there, and the trace evaluates
	// it for the record only.
	Final bool
}

// Result is the answer of a query. All points and vectors are in world
// coordinates.
type Result struct {
	// Distance > 0: separated, the minimum distance. < 0: overlapping, minus
	// the minimum translation distance. 0: touching.
	Distance float64
	P, Q     geom.Vec3 // witness points on a and on b
	// Normal is the unit outward normal of a at P; NormalQ that of b at Q.
	// (When GJK answered a separated convex pair, every Newton start
	// having stalled, they are ±(Q − P)/|Q − P|, the separating direction: a normal
	// of a at P wherever a is smooth there, to the answer's accuracy, and
	// in the cone of normals at a tip or edge.)
	Normal, NormalQ geom.Vec3
	// Right-handed tangent frames at P and Q (Normal × Tangent = Binormal).
	TangentP, BinormalP geom.Vec3
	TangentQ, BinormalQ geom.Vec3
	Status              Status
	Iterations          int // Newton iterations over all starts (a move-out check's moved query included)
	Starts              int // initial iterates tried (1 unless recovering)
	// Certified is true when the answer is proven to be the global one: a
	// separated pair of convex shapes (the KKT conditions are then
	// sufficient), or a separated pair with a non-convex shape whose
	// distance equals the gap between the exact support planes along its
	// normal (so no pair of the bodies can be closer), or an overlapping
	// pair of convex shapes whose translation distance the expanding
	// polytope proved minimal (Options.CertifyOverlap, deep overlaps and
	// those of pointy shapes),
	// or a touching pair of convex shapes (distance 0) whose exact supports
	// along the normal pin the distance to 0 within tolerance.
	Certified bool
	// Polytope counts the support points of the expanding polytope spent on
	// the answer: checking an overlapping one, or looking for an overlap
	// when every start failed (0: not run).
	Polytope int
	// StillOverlapping > 0 says that the answer is known to be too shallow:
	// b moved out along Normal by the answered depth still overlaps a, by
	// StillOverlapping as the moved bodies' own query answers it. Only an
	// overlapping answer with a pointy or caved non-convex shape is checked
	// so (a move-out check, docs/contact.md), and a deeper pair that
	// separates the bodies replaces an answer that fails it; the field is
	// set where none was found (an overlap far deeper than 30% of the
	// smaller semi-axis, in the sweeps). 0 otherwise.
	StillOverlapping float64
	// NonConvex flags a and b (bit 0: a, bit 1: b) that are not convex; their
	// measures are in HullGapA/B (largest gap between body and convex hull).
	NonConvex          uint8
	HullGapA, HullGapB float64
	// ReasonA/B say why each shape is (not) convex, in geom's words
	// (geom.ConvexityReport.Reason).
	ReasonA, ReasonB string
	// Local solution, reusable as a warm start. ParamsP/Q are the angle-centre
	// parameters, filled when a parametric scheme produced the answer (use
	// geom.Superovoid.Params on LocalP/Q otherwise).
	LocalP, LocalQ   geom.Vec3
	ParamsP, ParamsQ [2]float64
	// Seeds of the last cold guess, for drawing: the quadtree's descent on
	// both shapes (QuadLevels levels; QuadCells gives the cells), or the
	// octree leaf boxes (local frames) when Octree was used.
	QuadLevels         int
	OctCellA, OctCellB geom.AABB
	UsedGuess          Guess
	Warm               bool // true when the answer came from a warm start
	// Method is the scheme that produced the answer (Implicit for GJK's);
	// Fallback is true when the configured scheme failed and another stage
	// recovered (another scheme, or a rescue: the hulls' pair, GJK, the
	// polytope, the chart of a pointy ridge or tip, the ridge search), or
	// converged to a farther pair than another scheme found from the same
	// seed (the dent search of a caved shape), or, for a warm start from a
	// GJK answer, went to GJK directly, or a move-out check, the hulls'
	// gap or a tip's translation (docs/contact.md, steps 6 and 7) replaced
	// the answer.
	Method   Method
	Fallback bool
	// GuessNS is the time of the cold initial guess in nanoseconds, when
	// Options.TimeGuess is set (0 for warm answers).
	GuessNS int64
	// warm is the implicit scheme's last evaluation, which a warm start
	// from this result reuses when the shapes and witness points are still
	// those it was made for (QueryWarm checks).
	warm warmState
	// search is the search behind an overlapping answer (warm starts).
	search searchState
	// moveRefused: a move-out check refused an answer of this pair, at
	// this query or at an earlier one that this one was warm-started from,
	// the pair overlapping since (warm starts then check in full:
	// moveOutWarm).
	moveRefused bool
	// dual: GJK answered (warm starts of the pair go to it directly).
	dual bool
	// in is the query this result answers, so that a warm start with the
	// same bodies and options returns it as it is (a still scene).
	in queryInputs
	// quadPath holds the quadtree's choice at each level, two bits per
	// level (the child index, level 0 lowest), for a and b: each cell is a
	// child of the one before, so the path is the whole descent in 8 bytes
	// instead of 960 (a Result is copied several times per query).
	quadPath [2]uint32
	// ia, ib are the shapes' analyses (for warm starts on the same shapes).
	ia, ib *shapeInfo
}

// QuadCells returns the cells the quadtree guess chose on a (side 0) or b
// (side 1), coarsest first, for drawing: cells[:n], n = r.QuadLevels.
func (r *Result) QuadCells(side int) (cells [MaxQuadLevels]geom.ParamCell, n int) {
	c := geom.RootParamCell()
	for n < r.QuadLevels && n < MaxQuadLevels {
		c = c.Child(int(r.quadPath[side&1]>>(2*n)) & 3)
		cells[n] = c
		n++
	}
	return cells, n
}

// queryInputs identifies a query: both bodies and the solver's options.
type queryInputs struct {
	set  bool
	a, b geom.Body
	opt  Options
}

// same reports whether in holds exactly these bodies and options. The
// poses come first: between two frames of a moving scene they are what
// differs, and the comparison stops at their first component.
func (in *queryInputs) same(a, b *geom.Body, opt *Options) bool {
	return in.set && in.b.Pose == b.Pose && in.a.Pose == a.Pose &&
		in.a.Shape == a.Shape && in.b.Shape == b.Shape && in.opt == *opt
}

// Separated reports whether the bodies are apart.
func (r *Result) Separated() bool { return r.Distance > 0 }
