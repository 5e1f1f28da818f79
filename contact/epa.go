package contact

import "math"

// The expanding polytope (EPA) bounds the minimum translation distance of
// two overlapping convex bodies from both sides. Their difference body
// C = A − B (support s_A(n) − s_B(−n)) holds the origin, and the MTD is the
// origin's distance to C's boundary, min over unit n of h_C(n) (math.md §3).
// A polytope spanned by support points of C lies inside C, so the origin's
// distance to the polytope's boundary, the smallest of its faces' plane
// distances, is a lower bound; h_C along any face normal is an upper bound.
// Expanding the closest face by the support point along its normal drives
// the two together wherever the minimum lies: unlike the multi-start's
// local searches it cannot stay in a worse basin. Newton then polishes the
// pair from the best direction's support points, and the lower bound
// certifies the answer.

const (
	// Polytope vertices: about 50 certify a typical overlap, 170 two
	// symmetric copies of a body at the same pose (four equal minima); a
	// sphere in a sphere (a minimum everywhere) is never certified.
	epaMaxV = 400
	epaMaxF = 2*epaMaxV - 4 // faces of a closed triangulated polytope
	epaMaxE = 3 * epaMaxF   // directed edges of the faces that a new vertex sees
)

// epaFace is a triangle of the polytope, its vertices counter-clockwise
// seen from outside, with its outward unit normal and plane distance.
type epaFace struct {
	v [3]int16
	n vec
	d float64
}

// epa is the expanding polytope's scratch space, kept in the Solver so that
// a query allocates nothing.
type epa struct {
	w      [epaMaxV]vec // support points of C = A − B (world)
	lp, lq [epaMaxV]vec // the bodies' local support points
	nv     int
	f      [epaMaxF]epaFace
	nf     int
	edges  [epaMaxE][2]int16
	iters  int // support points added after the initial polytope (tests)
	// noFlatLook (tests): no look off a flat start.
	noFlatLook bool
}

// epaBounds is what the expanding polytope proved.
type epaBounds struct {
	lower, upper float64 // lower ≤ MTD ≤ upper (lower = −Inf: nothing proven)
	n            vec     // the direction of upper
	lp, lq       vec     // the bodies' local support points along n and −n
	// face is the closest face when the search stopped (its plane
	// distance is lower when lower is finite).
	face epaFace
}

// support adds the support point of C along the world direction n as a
// new vertex (not yet in any face) and returns its index.
func (e *epa) support(pr *pair, n vec) int {
	i := e.nv
	e.w[i], e.lp[i], e.lq[i] = diffSupport(pr, n)
	e.nv++
	return i
}

// diffSupport returns the support point w of C = A − B along the world
// direction n, with the local support points lp of a along n and lq of b
// along −n that make it: w = R_a·lp − R_b·lq + (T_a − T_b) (far from the
// origin, the difference of the two world points would lose the bodies'
// own digits). The supports are exact (exactSupportOf, with the shapes'
// analyses when the pair carries them).
func diffSupport(pr *pair, n vec) (w, lp, lq vec) {
	lp = exactSupportOf(pr.a, pr.ta.InvDir(n), pr.ia)
	lq = exactSupportOf(pr.b, pr.tb.InvDir(n.Mul(-1)), pr.ib)
	return pr.ta.Dir(lp).Sub(pr.tb.Dir(lq)).Add(pr.ta.T.Sub(pr.tb.T)), lp, lq
}

// scaledCross is the direction of u × v as a cross product of u and v
// each divided by its largest component: the same direction, but with
// entries of order one, so that its length neither underflows nor
// overflows for bodies far from unit size (at 1e-80 the plain product's
// squared length underflowed, and a convex overlap was certified 7% too
// shallow). Zero when either vector is.
func scaledCross(u, v vec) vec {
	su, sv := maxAbs(u), maxAbs(v)
	if !(su > 0 && sv > 0) {
		return vec{}
	}
	return u.Mul(1 / su).Cross(v.Mul(1 / sv))
}

// face appends the triangle (i, j, k) and reports false when it is too thin
// to have a normal.
func (e *epa) face(i, j, k int) bool {
	a, b, c := e.w[i], e.w[j], e.w[k]
	n := scaledCross(b.Sub(a), c.Sub(a))
	l := n.Len()
	if !(l > 0) || e.nf == epaMaxF {
		return false
	}
	n = n.Mul(1 / l)
	e.f[e.nf] = epaFace{v: [3]int16{int16(i), int16(j), int16(k)}, n: n, d: n.Dot(a)}
	e.nf++
	return true
}

// add makes vertex p part of the polytope: the faces that p sees are
// replaced by a fan from p to their horizon. It reports whether p saw a
// face (a point inside sees none), and broken when a new face was too thin
// to have a normal: the polytope is then unusable.
func (e *epa) add(p int, eps float64) (added, broken bool) {
	ne := 0
	w := e.w[p]
	for k := 0; k < e.nf; {
		f := &e.f[k]
		if f.n.Dot(w)-f.d <= eps {
			k++
			continue
		}
		for j := 0; j < 3; j++ {
			e.edges[ne] = [2]int16{f.v[j], f.v[(j+1)%3]}
			ne++
		}
		// Remove it: the last face takes its place (the order of the
		// faces does not matter).
		e.nf--
		e.f[k] = e.f[e.nf]
	}
	if ne == 0 {
		return false, false
	}
	// A horizon edge belongs to one visible face only: its reverse is not
	// among the visible faces' edges.
	for i := 0; i < ne; i++ {
		ed := e.edges[i]
		shared := false
		for j := 0; j < ne; j++ {
			if e.edges[j][0] == ed[1] && e.edges[j][1] == ed[0] {
				shared = true
				break
			}
		}
		if !shared && !e.face(int(ed[0]), int(ed[1]), p) {
			return true, true
		}
	}
	return true, false
}

// epaDirs are the initial polytope's directions: the axes and the
// diagonals (unnormalised; supports scale).
var epaDirs = [14]vec{
	{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1},
	{1, 1, 1}, {-1, -1, -1}, {1, -1, 1}, {-1, 1, -1}, {1, 1, -1}, {-1, -1, 1}, {1, -1, -1}, {-1, 1, 1},
}

// run expands the polytope of C for pr, from the supports along 14 fixed
// directions (and, where those lie in one plane, along its normal both
// ways), until the bounds are within tol, the lower bound reaches stop,
// or it runs out of room. ok is false when no polytope could be built
// (supports flat even after that look); lower is −Inf until the
// polytope holds the origin. The bodies should overlap: for separated
// ones the polytope never holds the origin and the search runs until it
// is full, its upper bound then below zero (which epaCheck takes as proof
// that they do not).
func (e *epa) run(pr *pair, tol, stop float64) (b epaBounds, ok bool) {
	e.nv, e.nf, e.iters = 0, 0, 0
	b.lower, b.upper = math.Inf(-1), math.Inf(1)
	look := func(n vec) {
		i := e.support(pr, n)
		if h := n.Dot(e.w[i]); h < b.upper {
			b.upper, b.n, b.lp, b.lq = h, n, e.lp[i], e.lq[i]
		}
	}
	for _, d := range epaDirs {
		// (Not the answer's normal too: support points then cluster
		// about it, the new faces are slivers, and the polytope needed
		// 92 points on the paper battery's convex overlaps instead of 50.)
		look(d.Normalize())
	}
	// A first tetrahedron as large as the quickhull choice makes it: the
	// farthest point from the first, then from their line, then from
	// their plane.
	scale := 0.0
	for i := 1; i < e.nv; i++ {
		scale = max(scale, e.w[i].Sub(e.w[0]).Len())
	}
	eps := 1e-12 * scale
	far := func(f func(v vec) float64) (int, float64) {
		bi, bv := 0, -1.0
		for i := 0; i < e.nv; i++ {
			if v := f(e.w[i]); v > bv {
				bi, bv = i, v
			}
		}
		return bi, bv
	}
	i1, _ := far(func(v vec) float64 { return v.Sub(e.w[0]).Len() })
	u := e.w[i1].Sub(e.w[0]).Normalize()
	i2, l2 := far(func(v vec) float64 { d := v.Sub(e.w[0]); return d.Sub(u.Mul(u.Dot(d))).Len() })
	pn := scaledCross(e.w[i1].Sub(e.w[0]), e.w[i2].Sub(e.w[0])).Normalize()
	offPlane := func(v vec) float64 { return math.Abs(pn.Dot(v.Sub(e.w[0]))) }
	i3, l3 := far(offPlane)
	if l2 > 1e-9*scale && !(l3 > 1e-9*scale) && !e.noFlatLook {
		// Every support in one plane: a thin pointy shape (e 1.95,
		// smallest semi-axis 0.13) put those of the 14 directions on the
		// tips of its middle plane, and the polytope could not start; an
		// overlap of two such shapes, 1.9 times that semi-axis deep, was
		// answered 1.1e-3 too deep, uncertified (TestEPAFlatStart). Its
		// normal both ways finds the tips off the plane.
		look(pn)
		look(pn.Mul(-1))
		i3, l3 = far(offPlane)
	}
	if !(l2 > 1e-9*scale && l3 > 1e-9*scale) {
		return b, false
	}
	if pn.Dot(e.w[i3].Sub(e.w[0])) > 0 {
		i1, i2 = i2, i1 // so that (0, i1, i2) faces away from i3
	}
	if !e.face(0, i1, i2) || !e.face(0, i3, i1) || !e.face(i1, i3, i2) || !e.face(0, i2, i3) {
		return b, false
	}
	for i := 1; i < e.nv; i++ {
		if i != i1 && i != i2 && i != i3 {
			if _, broken := e.add(i, eps); broken {
				return b, false
			}
		}
	}
	for e.nf > 0 {
		// The closest face: its plane distance is the lower bound once
		// every face has the origin behind it.
		c := 0
		for k := 1; k < e.nf; k++ {
			if e.f[k].d < e.f[c].d {
				c = k
			}
		}
		f := e.f[c]
		b.face = f
		if f.d > 0 {
			b.lower = f.d
		}
		if b.upper-b.lower <= tol || b.lower >= stop || e.nv == epaMaxV {
			return b, true
		}
		p := e.support(pr, f.n)
		if h := f.n.Dot(e.w[p]); h < b.upper {
			b.upper, b.n, b.lp, b.lq = h, f.n, e.lp[p], e.lq[p]
		}
		if f.n.Dot(e.w[p])-f.d <= eps {
			return b, true // no point beyond the face: C is flat there
		}
		if added, broken := e.add(p, eps); !added || broken {
			// (A point beyond the closest face always sees it; not
			// added means rounding.) The bounds proven so far stand.
			return b, !broken || b.lower > math.Inf(-1)
		}
		e.iters++
	}
	return b, false
}

// epaDeep is the depth, relative to the smaller body's smallest semi-axis,
// from which the overlapping answer of a convex pair is always checked by
// the expanding polytope: deeper, the gap's local maxima multiply and the
// multi-start's few directions can all miss the best basin.
const epaDeep = 0.3

// epaCheck proves an overlapping answer of a convex pair minimal, or finds
// a better one: the polytope runs until its lower bound reaches the answer
// (within certTol) or its bounds meet. When its best direction beats the
// answer, Newton starts from that direction's support points. It returns
// the lower bound of the translation distance it proved (−Inf if none),
// which proves a pair polished after it too (mtdProven). Where its upper
// bound shows the hulls apart by more than GJK's tolerance, the overlap
// was proven wrongly: best is then the hulls' rescue's answer (invalid
// where the rescue finds none), and it returns −Inf. (Hulls apart by less
// are a touch to GJK, and the answer stands as an overlap.)
func (sv *Solver) epaCheck(m Method, pr *pair, best *candidate, res *Result) (lower float64) {
	tol := pairTol(pr)
	if -best.sd <= tol {
		// A touching pair: 0 ≤ MTD ≤ the answer's, within tol. (The
		// polytope could not prove it: the origin sits on C's boundary.)
		best.mtdCertified = pr.convex && best.converged
		return 0
	}
	if sv.shallowPolytopeFails && -best.sd <= epaDeep*charLength(pr) {
		return math.Inf(-1)
	}
	e := sv.polytope()
	bd, ok := e.run(pr, tol, -best.sd-tol)
	res.Polytope += e.nv
	if !ok {
		return math.Inf(-1)
	}
	if bd.upper < -gjkTol*pairTol(pr) && !sv.noHullsApart {
		// A support gap beyond GJK's tolerance: the hulls are apart,
		// hence the bodies, and whatever proved the overlap was wrong (an
		// unconverged iterate taken as a witness once did:
		// TestIterateWitness). The separated pair is the hulls' rescue's.
		// (A gap beyond GJK's own tolerance, so that GJK finds the hulls
		// apart too and the rescue answers.)
		pr.overlapProven = false
		*best = candidate{}
		sv.hullRescue(m, pr, best, res)
		sv.hullsApart++
		return math.Inf(-1)
	}
	fromPolytope := false
	if pr.convex && bd.lower > -best.sd+tol {
		// Shallower than proven possible (an unconverged pair whose
		// normals are a little off): bound it properly and answer from
		// the polytope.
		bd, ok = e.run(pr, tol, math.Inf(1))
		res.Polytope += e.nv
		if !ok {
			return math.Inf(-1)
		}
		*best = e.pair(pr, &bd, tol)
		fromPolytope = true
	}
	// Newton from the polytope's direction: when the answer is deeper
	// than the proven upper bound (by more than tol, a worse basin, or by
	// less, a pair crawled to at a pointy tip, 1.1e-9 deeper than the
	// bound and so not within tol of the lower one on
	// TestPolytopeTightens' pair), and when the answer is the polytope's
	// own pair, whose witnesses are only within about √(upper − lower) of
	// the exact ones (TestWarmPolytopePolished's pair: 1e-6 off, the gap
	// along its normal 1.2e-8 from its distance). In the configured
	// scheme, then in the others until one converges within the bounds:
	// at a pointy tip or crease one scheme can stall where another
	// converges (the parametric one, on both pairs).
	if fromPolytope || bd.upper < -best.sd-tol || pr.convex && bd.upper < -best.sd && !mtdProven(pr, best, bd.lower) {
		keep := depthBounds{lower: bd.lower, upper: bd.upper, tol: tol, convex: pr.convex}
		c := sv.fromSeed(m, pr, bd.lp, bd.lq, res, &keep)
		// A separated pair is wrong here (the bodies overlap), whatever
		// classify made of it. Against the polytope's own pair, a
		// converged pair within the bounds wins even when rounding puts
		// it a little deeper: its witnesses are exact, the polytope's
		// are not.
		if !c.separated && (fromPolytope && c.valid && c.converged || better(&c, best)) {
			*best = c
			if c.method != m {
				res.Fallback = true
			}
		}
		if -best.sd > bd.upper+tol {
			// Newton's pair from there was not kept (pointy tips and
			// flat faces stall it; a non-convex shape's witness can fail
			// the support check): the polytope's own pair is still a
			// proven translation, shallower than the answer. (A
			// rescue's answer: Fallback says so.)
			*best = e.pair(pr, &bd, tol)
			res.Fallback = true
		}
	}
	best.mtdCertified = mtdProven(pr, best, bd.lower)
	return bd.lower
}

// epaPolished is epaCheck followed, when the answer's points are no longer
// p and q (the polytope found another pair), by polishCusp: Newton's pair
// from the polytope's direction can crawl at a pointy tip
// (TestCuspPolishOverlap). A polished pair keeps the polytope's
// certificate when its lower bound covers it.
func (sv *Solver) epaPolished(m Method, pr *pair, best *candidate, res *Result, p, q vec) {
	lower := sv.epaCheck(m, pr, best, res)
	if best.lp != p || best.lq != q {
		sv.polishCusp(m, pr, best, res)
		best.mtdCertified = best.mtdCertified || mtdProven(pr, best, lower)
	}
}

// mtdProven reports whether the lower bound proves c's translation distance
// minimal, within pairTol: a converged overlapping pair of a convex pair
// is a stationary point of the support function of A − B, never below its
// minimum, and this one is within tol of the bound. Only for convex pairs:
// with a dent the bodies' translation distance can be below the hulls',
// which the lower bound is about.
func mtdProven(pr *pair, c *candidate, lower float64) bool {
	return pr.convex && c.valid && c.converged && !c.separated && -c.sd <= lower+pairTol(pr)
}

// pair is the polytope's answer: translating b by bd.upper along bd.n
// separates the hulls, hence the bodies, so for overlapping bodies the
// minimum translation distance is at most bd.upper, which is this pair's
// depth. For convex shapes whose bounds have met (within 1e3·tol), the
// witnesses are the bodies' points that make up the origin's projection
// onto the closest face (the usual EPA witnesses, barycentric combinations
// of support points: on flat faces the support points alone can be far
// apart), with bd.n as the normal (not the face's, which Q − P follows:
// the depth is the support gap along bd.n). Otherwise (a non-convex
// shape, whose hull face can bridge a dent, or bounds that have not met)
// they are the support points along bd.n, and the pair counts as
// converged only when they agree with the depth and the normal (|Q − P|
// and its direction, to 1e3·tol): else its status says max_iterations.
// The caller must know that the bodies overlap.
func (e *epa) pair(pr *pair, bd *epaBounds, tol float64) candidate {
	c := candidate{valid: true, method: Implicit, sd: -bd.upper}
	c.nP, c.lp, c.lq = bd.n, bd.lp, bd.lq
	c.P, c.Q = pr.ta.Point(bd.lp), pr.tb.Point(bd.lq)
	d := c.P.Sub(c.Q) // along +n for an overlap
	c.converged = math.Abs(d.Len()-bd.upper) <= 1e3*tol && d.Sub(bd.n.Mul(bd.upper)).Len() <= 1e3*tol
	if pr.convex && bd.upper-bd.lower <= 1e3*tol {
		f := &bd.face
		lam, ok := barycentric(e.w[f.v[0]], e.w[f.v[1]], e.w[f.v[2]], f.n.Mul(f.d))
		if ok {
			var P, Q vec
			for k := 0; k < 3; k++ {
				P = P.Add(pr.ta.Point(e.lp[f.v[k]]).Mul(lam[k]))
				Q = Q.Add(pr.tb.Point(e.lq[f.v[k]]).Mul(lam[k]))
			}
			// The normal stays bd.n, whose support gap is the depth:
			// translating b by it along bd.n separates the bodies. (The
			// face's normal, which P − Q follows, was answered until
			// 2026-12-05; its gap can be deeper than the depth by more
			// than tol: 1.7e-9 on a pair of TestProbeAnimation's sweep,
			// TestPolytopePairNormal.)
			c.P, c.Q = P, Q
			c.lp, c.lq = pr.ta.InvPoint(P), pr.tb.InvPoint(Q)
			c.converged = true
		}
	}
	c.nQ = c.nP.Mul(-1)
	c.x = [6]float64{c.lp[0], c.lp[1], c.lp[2], c.lq[0], c.lq[1], c.lq[2]}
	return c
}

// barycentric returns the barycentric coordinates of x (in the plane of
// the triangle a, b, c) clamped to the triangle; ok is false for a
// degenerate triangle.
func barycentric(a, b, c, x vec) (lam [3]float64, ok bool) {
	v0, v1, v2 := b.Sub(a), c.Sub(a), x.Sub(a)
	d00, d01, d11 := v0.Dot(v0), v0.Dot(v1), v1.Dot(v1)
	d20, d21 := v2.Dot(v0), v2.Dot(v1)
	den := d00*d11 - d01*d01
	if !(den > 0) {
		return lam, false
	}
	v := (d11*d20 - d01*d21) / den
	w := (d00*d21 - d01*d20) / den
	u := 1 - v - w
	u, v, w = max(u, 0), max(v, 0), max(w, 0)
	s := u + v + w
	return [3]float64{u / s, v / s, w / s}, true
}

// epaRescue looks for an overlapping answer when no start gave a valid
// pair: if the hulls overlap (the polytope's lower bound is positive) and
// the bodies do too (always for convex shapes, else a point inside both:
// the polytope pair's midpoint or a centre), Newton polishes the
// polytope's pair, or the pair itself is the answer.
func (sv *Solver) epaRescue(m Method, pr *pair, best *candidate, res *Result) {
	tol := pairTol(pr)
	e := sv.polytope()
	bd, ok := e.run(pr, tol, math.Inf(1))
	res.Polytope += e.nv
	if !ok || !(bd.lower > 0) {
		return
	}
	P, Q := pr.ta.Point(bd.lp), pr.tb.Point(bd.lq)
	if !pr.convex && !pr.overlapProven && !overlapWitness(pr, P, Q, e) {
		return
	}
	pr.overlapProven = true
	// Newton from the polytope's pair, in the other schemes too when the
	// configured one does not converge from it (the range ends,
	// TestExtremeRangeHonest: the implicit scheme stopped at once from a
	// pointy tip's support point, where the parametric scheme converged in
	// five iterations, 1.11751 deep against the polytope's 1.11879).
	// A pair is kept only within what the polytope proved (never separated:
	// the bodies overlap), so that a later scheme's pair cannot push out a
	// kept one and then be refused below.
	keep := depthBounds{lower: bd.lower, upper: bd.upper, tol: tol, convex: pr.convex}
	if c := sv.fromSeed(m, pr, bd.lp, bd.lq, res, &keep); better(&c, best) {
		*best = c
		if c.method != m {
			res.Fallback = true
		}
	}
	if !keep.admits(best) {
		// (A separated pair is wrong here: the bodies overlap; so is, for
		// convex shapes, a depth below the proven lower bound.)
		*best = e.pair(pr, &bd, tol)
		res.Fallback = true
	}
	best.mtdCertified = pr.convex && best.converged && !best.separated && -best.sd <= bd.lower+tol
}

// overlapWitness looks for a point inside both bodies of a pair with a
// non-convex shape whose hulls overlap, which proves the bodies overlap:
// the polytope's witnesses P and Q and their midpoint, the centres, points
// along the segment between the centres (where two bodies that overlap
// deeply mostly do), and every support point the polytope found of either
// body (a pointy shape's tips poke into the other body), then a coarse
// grid of each surface. The segment and P, Q answered 4 of the 12 pairs
// of TestExtremeRangeHonest that failed before, the support points 4 more.
func overlapWitness(pr *pair, P, Q vec, e *epa) bool {
	if insideBoth(pr, P.Add(Q).Mul(0.5)) || insideBoth(pr, P) || insideBoth(pr, Q) || centresWitness(pr) {
		return true
	}
	// (A support point is on its own body's surface, in it: only the
	// other body needs testing.)
	for i := 0; i < e.nv; i++ {
		if inside(pr.b, &pr.tb, pr.ta.Point(e.lp[i]), -overlapInside) || inside(pr.a, &pr.ta, pr.tb.Point(e.lq[i]), -overlapInside) {
			return true
		}
	}
	// Last, a coarse parametric grid of each surface (the same argument):
	// two elongated pointy bodies crossed at an angle overlapped by 0.63
	// of the hulls' translation with every point above outside one of
	// them, and 750 of 20,000 surface samples of one inside the other
	// (TestOverlapWitnessGrid).
	return gridWitness(pr, witnessAzimuths, witnessZeniths, nil)
}

// localWitness looks for a point inside both bodies near a converged
// overlapping pair P, Q whose witnesses each lie outside the other body:
// a compass search, from the pair's midpoint, for the minimum of the
// larger of the two residuals, over 26 directions (the axes, and the
// diagonals of the faces and of the cube) with steps from |Q − P| down to
// a millionth of it. Two pointy prisms' sharp edges crossed 0.0095 deep
// (e 1.95 in their sections) met with such a pair and nothing else: the
// polytope's pair, the centres and the coarse grids all lay outside one
// of the bodies, and the query failed where 92 residual pairs of this
// search find a point inside both (residuals below −0.0047) (TestLocalWitnessCrossedEdges).
func localWitness(pr *pair, P, Q vec) bool {
	h := func(x vec) float64 {
		fa, oka := pr.a.Residual(pr.ta.InvPoint(x))
		fb, okb := pr.b.Residual(pr.tb.InvPoint(x))
		if !oka || !okb {
			return math.Inf(1)
		}
		return max(fa, fb)
	}
	d := Q.Sub(P)
	step, floor := d.Len(), 1e-6*d.Len()
	x := P.Add(d.Mul(0.5))
	hx := h(x)
	for evals := 1; step > floor && evals < localWitnessEvals; {
		if hx < -overlapInside {
			return true
		}
		moved := false
		for i := -1; i <= 1 && !moved; i++ {
			for j := -1; j <= 1 && !moved; j++ {
				for k := -1; k <= 1 && !moved; k++ {
					if i == 0 && j == 0 && k == 0 {
						continue
					}
					u := vec{float64(i), float64(j), float64(k)}
					y := x.Add(u.Mul(step / u.Len()))
					evals++
					if hy := h(y); hy < hx {
						x, hx, moved = y, hy, true
					}
				}
			}
		}
		if !moved {
			step /= 2
		}
	}
	return hx < -overlapInside
}

// localWitnessEvals bounds localWitness's residual pairs, checked after
// each round of 26 (about 110 µs at the bound).
const localWitnessEvals = 400

// centresWitness reports whether a centre, or a point of the segment
// between the centres, lies inside both bodies (the segment's points
// strictly inside, beyond rounding: a point on both surfaces proves only
// that the bodies touch).
func centresWitness(pr *pair) bool {
	if insideBoth(pr, pr.ta.T) || insideBoth(pr, pr.tb.T) {
		return true
	}
	d := pr.tb.T.Sub(pr.ta.T)
	for k := 1; k < overlapSegment; k++ {
		w := pr.ta.T.Add(d.Mul(float64(k) / overlapSegment))
		if inside(pr.a, &pr.ta, w, -overlapInside) && inside(pr.b, &pr.tb, w, -overlapInside) {
			return true
		}
	}
	return false
}

// overlapInsideBoth is overlapWitness without a polytope's points: the
// centres and their segment, then the surfaces' grids and the descents
// from their lowest points (refuteSeparated), the lowest point they
// reached left in low; dist adds descentWitness's distance-ranked starts.
func overlapInsideBoth(pr *pair, low *lowPoint, dist bool) bool {
	var g gridVals
	return centresWitness(pr) || gridWitness(pr, witnessAzimuths, witnessZeniths, &g) || descentWitness(pr, &g, low, dist)
}

// gridWitness reports whether a point of a parametric grid of either
// surface (n1 azimuths, n2 zenith steps, the poles left out) lies inside
// the other body, beyond rounding: a point in both bodies. With vals (only
// for the witness grid's size) it records each point's residual, +Inf where
// undefined.
func gridWitness(pr *pair, n1, n2 int, vals *gridVals) bool {
	if n1 != witnessAzimuths || n2 != witnessZeniths {
		vals = nil // (sized for the witness grid only)
	}
	for side := 0; side < 2; side++ {
		s, o, ts, to := pr.side(side)
		for i := 0; i < n1; i++ {
			p1 := -math.Pi + 2*math.Pi*float64(i)/float64(n1)
			for j := 1; j < n2; j++ {
				p2 := -math.Pi/2 + math.Pi*float64(j)/float64(n2)
				f, ok := o.Residual(to.InvPoint(ts.Point(s.Point(p1, p2))))
				if !ok {
					f = math.Inf(1)
				}
				if vals != nil {
					vals[side][i*(n2-1)+j-1] = f
				}
				if f <= -overlapInside {
					return true
				}
			}
		}
	}
	return false
}

// witnessAzimuths and witnessZeniths size overlapWitness's surface grids.
const (
	witnessAzimuths = 24
	witnessZeniths  = 12
)

// overlapInside is how far inside (as a residual, a relative radial
// distance) overlapWitness wants its points: well beyond the rounding of a
// world-to-local round trip.
const overlapInside = 1e-9

// overlapSegment is the number of intervals of the centres' segment that
// overlapWitness tries.
const overlapSegment = 16

// polytope returns the solver's polytope scratch space, made on first use.
func (sv *Solver) polytope() *epa {
	if sv.poly == nil {
		sv.poly = new(epa)
	}
	return sv.poly
}

// depthBounds is what the expanding polytope proved of an overlap: a pair
// is admitted only if it overlaps no deeper than upper and, for convex
// shapes, no shallower than lower (to within tol). (A type rather than a
// closure: a candidate passed to a function value escapes to the heap.)
type depthBounds struct {
	lower, upper, tol float64
	convex            bool
}

// admits reports whether c lies within the bounds; nil bounds admit every
// candidate.
func (b *depthBounds) admits(c *candidate) bool {
	return b == nil || c.valid && !c.separated && -c.sd <= b.upper+b.tol && !(b.convex && -c.sd < b.lower-b.tol)
}
