package geom

import "math"

// ConvexityTol is the tolerance of Convexity, relative to the largest
// semi-axis: a shape whose surface lies within ConvexityTol·max(a) of its
// convex hull everywhere counts as convex.
const ConvexityTol = 1e-9

// ConvexityReport says whether a superovoid is convex and, if not, how far
// from convex it is.
type ConvexityReport struct {
	// Convex is true when HullGap <= ConvexityTol·max(a).
	Convex bool
	// Reason is a short sentence saying why (or that) the shape is convex.
	Reason string
	// HullGap is the largest distance between the body surface and the
	// boundary of its convex hull, in length units; 0 when Convex.
	HullGap float64
	// MinCurvature is the most negative normal curvature found along the
	// meridians of the surface (1/length); 0 when none is negative.
	MinCurvature float64
	// Where is the local surface point of the largest gap (one of its
	// mirror images in x and y; the origin when Convex).
	Where Vec3
}

// Reasons given by Convexity. They are constants so that the report
// allocates nothing.
const (
	reasonUntapered = "convex: untapered superellipsoid"
	reasonConvex    = "convex: every section support is concave in z"
	reasonEqual     = "convex: equal tapers with e2 <= 1.38 (math.md §1)"
	reasonCavePlus  = "tapered profile caves in on the +z side (tx = ty, e2 > 1.38)"
	reasonCaveMinus = "tapered profile caves in on the -z side (tx = ty, e2 > 1.38)"
	reasonDip       = "tx != ty with e2 < 1: shallow dip near the equator in diagonal directions"
	reasonBendPlus  = "tapered profile bends outwards on the +z side (tx != ty)"
	reasonBendMinus = "tapered profile bends outwards on the -z side (tx != ty)"
)

// Sizes of the coarse scan: directions in the first quadrant (the body is
// symmetric in x and y) and heights w = z/a3.
const (
	cvxDirs  = 13
	cvxBase  = 81 // sine-spaced heights, denser towards the tips
	cvxNear  = 10 // extra heights near the equator, where the e2 < 1 dip is
	cvxW     = cvxBase + cvxNear
	cvxFine  = 65 // heights of the refined scan over one bridge
	cvxMaxPt = cvxW
	// cvxKinks more directions for a pointy section (e1 ≥ cvxKinkE1) of a
	// shape with tx ≠ ty: its support N_d is nearly the larger of the two
	// tips' a1·cx·|dx| and a2·cy·|dy|, with a kink where they swap,
	// tan θ = a1·cx(w)/(a2·cy(w)); the profile is not concave there, in a
	// band of directions too narrow for the 13 (e1 1.90, tapers −0.21 and
	// 0.26: reported convex, its hull 8e-4 away: TestConvexityKinks).
	cvxKinks  = 13
	cvxKinkE1 = 1.5
)

// cvxGrid holds the scan heights in increasing order.
var cvxGrid = func() (g [cvxW]float64) {
	n := 0
	for i := 0; i < cvxBase; i++ {
		s := -1 + 2*float64(i)/(cvxBase-1)
		g[n] = math.Sin(math.Pi / 2 * s)
		n++
	}
	g[0], g[cvxBase-1], g[(cvxBase-1)/2] = -1, 1, 0
	for _, e := range [cvxNear / 2]float64{1e-5, 1e-4, 1e-3, 4e-3, 1.2e-2} {
		g[n], g[n+1] = -e, e
		n += 2
	}
	// insertion sort: tiny and run once
	for i := 1; i < cvxW; i++ {
		for j := i; j > 0 && g[j] < g[j-1]; j-- {
			g[j], g[j-1] = g[j-1], g[j]
		}
	}
	return
}()

// profileScratch holds one direction's section-support profile.
type profileScratch struct {
	z, phi [cvxMaxPt]float64
	hull   [cvxMaxPt]int
}

// profileGap returns the largest distance, in the (ρ, z) plane of one
// horizontal direction, between the profile points (phi[i], z[i]) and the
// boundary of their upper concave hull (the hull's right side), and the
// index of the point where it occurs (−1 when the profile is concave).
// For a point inside a convex polygon the distance to its boundary is the
// smallest distance to the lines of its edges.
func profileGap(z, phi []float64, hull []int) (gap float64, at int) {
	h := upperHull(z, phi, hull)
	at = -1
	for e := 0; e+1 < h; e++ {
		i0, i1 := hull[e], hull[e+1]
		bz, bp := z[i1]-z[i0], phi[i1]-phi[i0]
		bl := math.Hypot(bz, bp)
		for k := i0 + 1; k < i1; k++ {
			// The bridge's own line bounds the distance: skip points that
			// cannot beat the best one.
			if ((phi[i0]-phi[k])*bz+bp*(z[k]-z[i0]))/bl <= gap {
				continue
			}
			// distance of point k to the nearest hull edge line
			d := math.Inf(1)
			for f := 0; f+1 < h; f++ {
				j0, j1 := hull[f], hull[f+1]
				dz, dp := z[j1]-z[j0], phi[j1]-phi[j0]
				l := math.Hypot(dz, dp)
				if l == 0 {
					continue
				}
				// positive on the inner (left of increasing z) side
				v := ((phi[j0]-phi[k])*dz + dp*(z[k]-z[j0])) / l
				if v < d {
					d = v
				}
			}
			if d > gap {
				gap, at = d, k
			}
		}
	}
	return gap, at
}

// upperHull writes into hull the indices of the upper concave hull of the
// profile points (phi[i], z[i]), z increasing (a monotone chain), and
// returns its length.
func upperHull(z, phi []float64, hull []int) int {
	h := 0
	for i := range z {
		for h >= 2 {
			o, a := hull[h-2], hull[h-1]
			// remove a unless it lies strictly right of the chord o→i
			if (phi[i]-phi[o])*(z[a]-z[o])-(phi[a]-phi[o])*(z[i]-z[o]) >= 0 {
				h--
				continue
			}
			break
		}
		hull[h] = i
		h++
	}
	return h
}

// cvxShape caches the direction-independent parts of the profile.
type cvxShape struct {
	s        *Superovoid
	k        float64
	la1, la2 float64
	// lm and am: ln a and a of the larger of a1 and a2, by which phiAt
	// scales the section norm's terms (sectionNorm).
	lm, am float64
}

// profile fills phi with r(w)·N_d(w), d = (cos θ, sin θ), and z with a3·w,
// given ln cx and ln cy at the heights.
func (c *cvxShape) profile(theta float64, g *cvxHeights, z, phi []float64) {
	sn, cs := math.Sincos(theta)
	kx := c.k * (c.la1 + FastLog(cs))
	ky := c.k * (c.la2 + FastLog(sn))
	for i := 0; i < g.n; i++ {
		phi[i] = g.r[i] * FastExp(LogAddExp(kx+c.k*g.lcx[i], ky+c.k*g.lcy[i])/c.k)
		z[i] = c.s.A[2] * g.w[i]
	}
}

// cvxHeights holds the direction-independent values at a set of heights.
type cvxHeights struct {
	n              int
	w, r, lcx, lcy [cvxMaxPt]float64
}

func (g *cvxHeights) fill(s *Superovoid) {
	for i := 0; i < g.n; i++ {
		w := g.w[i]
		g.r[i] = profileR(w, s.Eps[1])
		g.lcx[i] = math.Log1p(s.Taper[0] * w)
		g.lcy[i] = math.Log1p(s.Taper[1] * w)
	}
}

// Convexity decides whether the shape is convex and measures how far it is
// from convex (math.md §1). The body is a stack of convex sections, so it
// is convex exactly when, for every horizontal direction d, the section
// support φ_d(w) = r(w)·N_d(w) is concave in the height w. Convexity scans
// 13 directions × 91 heights (and 13 more directions at a pointy section's
// kinks: cvxKinks), takes the upper concave hull of each profile
// in the (ρ, z) plane and the largest distance of a profile point from the
// hull boundary, then refines the worst bridge with 65 heights and a
// golden-section search over the direction. HullGap is that distance at
// the worst point, which equals the 3D distance from the surface to the
// hull when the hull normal nearest to it lies in the plane of d and z (as
// it does at the deepest point of a dent; TestConvexityHullGapIndependent
// checks it against dense sampling). It allocates nothing.
func (s *Superovoid) Convexity() ConvexityReport {
	if s.IsSuperellipsoid() {
		return ConvexityReport{Convex: true, Reason: reasonUntapered}
	}
	if s.knownConvex() {
		// TestConvexitySweeps checks this family with the full scan.
		return ConvexityReport{Convex: true, Reason: reasonEqual}
	}
	return s.convexityScan()
}

// convexityScan is Convexity without the shortcuts for the families known
// to be convex.
func (s *Superovoid) convexityScan() ConvexityReport {
	c := cvxShape{s: s, k: 2 / (2 - s.Eps[0]), la1: FastLog(s.A[0]), la2: FastLog(s.A[1])}
	c.lm, c.am = max(c.la1, c.la2), max(s.A[0], s.A[1])
	var cg, fg cvxHeights
	cg.n = cvxW
	copy(cg.w[:], cvxGrid[:])
	cg.fill(s)
	var sc profileScratch
	// The directions, in increasing order: the 13 even ones, and a pointy
	// section's kinks.
	var dirs [cvxDirs + cvxKinks]float64
	nd := 0
	for di := 0; di < cvxDirs; di++ {
		dirs[nd] = math.Pi / 2 * float64(di) / (cvxDirs - 1)
		nd++
	}
	if s.Eps[0] >= cvxKinkE1 && s.Taper[0] != s.Taper[1] {
		for j := 0; j < cvxKinks; j++ {
			w := -1 + 2*float64(j)/(cvxKinks-1)
			dirs[nd] = math.Atan2(s.A[0]*(1+s.Taper[0]*w), s.A[1]*(1+s.Taper[1]*w))
			nd++
		}
		for i := 1; i < nd; i++ {
			for k := i; k > 0 && dirs[k-1] > dirs[k]; k-- {
				dirs[k-1], dirs[k] = dirs[k], dirs[k-1]
			}
		}
	}
	bestGap, bestDir, bestAt := 0.0, 0, -1
	for di := 0; di < nd; di++ {
		c.profile(dirs[di], &cg, sc.z[:], sc.phi[:])
		g, at := profileGap(sc.z[:cvxW], sc.phi[:cvxW], sc.hull[:cvxW])
		if g > bestGap {
			bestGap, bestDir, bestAt = g, di, at
		}
	}
	amax := math.Max(s.A[0], math.Max(s.A[1], s.A[2]))
	tol := ConvexityTol * amax
	if bestAt < 0 || bestGap <= 1e-3*tol {
		return ConvexityReport{Convex: true, Reason: reasonConvex}
	}
	// The bridge over the worst point: the hull vertices around it.
	th0 := dirs[bestDir]
	c.profile(th0, &cg, sc.z[:], sc.phi[:])
	i0, i1 := bridge(sc.z[:cvxW], sc.phi[:cvxW], sc.hull[:cvxW], bestAt)
	lo, hi := cvxGrid[max(i0-1, 0)], cvxGrid[min(i1+1, cvxW-1)]
	fg.n = cvxFine
	for i := 0; i < cvxFine; i++ {
		fg.w[i] = lo + (hi-lo)*float64(i)/(cvxFine-1)
	}
	fg.fill(s)
	fw := fg.w[:cvxFine]
	gapAt := func(th float64) (float64, int) {
		c.profile(th, &fg, sc.z[:], sc.phi[:])
		return profileGap(sc.z[:cvxFine], sc.phi[:cvxFine], sc.hull[:cvxFine])
	}
	// Golden-section search over the direction between the neighbours of
	// the best coarse direction (the gap is smooth and unimodal there).
	a, b := 0.0, math.Pi/2
	if bestDir > 0 {
		a = dirs[bestDir-1]
	}
	if bestDir < nd-1 {
		b = dirs[bestDir+1]
	}
	const gr = 0.6180339887498949
	x1, x2 := b-gr*(b-a), a+gr*(b-a)
	f1, _ := gapAt(x1)
	f2, _ := gapAt(x2)
	for it := 0; it < 18; it++ {
		if f1 < f2 {
			a, x1, f1 = x1, x2, f2
			x2 = a + gr*(b-a)
			f2, _ = gapAt(x2)
		} else {
			b, x2, f2 = x2, x1, f1
			x1 = b - gr*(b-a)
			f1, _ = gapAt(x1)
		}
	}
	bestTh, bestF := 0.5*(a+b), math.Max(f1, f2)
	for _, th := range [...]float64{0, math.Pi / 2, th0} {
		if g, _ := gapAt(th); g > bestF && g > bestGap {
			bestTh, bestF = th, g
		}
	}
	gap, at := gapAt(bestTh)
	wAt := 0.0
	if at >= 0 {
		wAt = fw[at]
		// The polygon of profile samples lies inside the true hull (its
		// edges are chords); replace the bridge by the exact bitangent.
		i0, i1 := bridge(sc.z[:cvxFine], sc.phi[:cvxFine], sc.hull[:cvxFine], at)
		h := fw[1] - fw[0]
		g2, w2 := c.exactBridgeGap(bestTh, math.Max(fw[i0]-h, fw[0]), fw[i0], wAt, fw[i1], math.Min(fw[i1]+h, fw[cvxFine-1]), h)
		if g2 >= gap {
			gap, wAt = g2, w2
		}
	}
	if at < 0 || gap < bestGap {
		// the refinement should only ever increase the coarse gap
		gap, bestTh, wAt = bestGap, th0, cvxGrid[bestAt]
	}
	rep := ConvexityReport{HullGap: gap}
	rep.Where = s.sectionSupport(bestTh, wAt)
	rep.MinCurvature = math.Min(0, c.minCurvature(bestTh, fw[:]))
	if gap <= tol {
		return ConvexityReport{Convex: true, Reason: reasonConvex}
	}
	up := rep.Where[2] >= 0
	switch {
	case s.Taper[0] == s.Taper[1] && up:
		rep.Reason = reasonCavePlus
	case s.Taper[0] == s.Taper[1]:
		rep.Reason = reasonCaveMinus
	case s.Eps[1] < 1 && math.Abs(wAt) < 0.5:
		rep.Reason = reasonDip
	case up:
		rep.Reason = reasonBendPlus
	default:
		rep.Reason = reasonBendMinus
	}
	return rep
}

// phiAt is the section support φ_d(w) for d = (cos θ, sin θ).
func (c *cvxShape) phiAt(sn, cs, w float64) float64 {
	// The terms relative to the larger semi-axis (sectionNorm), so that
	// they depend on the shape's proportions, not on its size.
	n, _ := sectionNorm(c.la1-c.lm+FastLog(cs), c.la2-c.lm+FastLog(sn), c.s.Taper[0], c.s.Taper[1], c.k, w)
	return profileR(w, c.s.Eps[1]) * c.am * n
}

// goldenMax returns the maximiser of f on [a, b] (f unimodal there).
func goldenMax(f func(float64) float64, a, b float64, iters int) (float64, float64) {
	const gr = 0.6180339887498949
	x1, x2 := b-gr*(b-a), a+gr*(b-a)
	f1, f2 := f(x1), f(x2)
	for i := 0; i < iters; i++ {
		if f1 < f2 {
			a, x1, f1 = x1, x2, f2
			x2 = a + gr*(b-a)
			f2 = f(x2)
		} else {
			b, x2, f2 = x2, x1, f1
			x1 = b - gr*(b-a)
			f1 = f(x1)
		}
	}
	// the ends are candidates too: a tangent point can be a tip
	best, fb := x1, f1
	if f2 > fb {
		best, fb = x2, f2
	}
	if fa := f(a); fa > fb {
		best, fb = a, fa
	}
	if fbb := f(b); fbb > fb {
		best, fb = b, fbb
	}
	return best, fb
}

// exactBridgeGap returns the largest distance, in the (ρ, z) plane of
// direction θ, from the profile to the exact bitangent line over a dent:
// the tangent points maximise φ(w) − s·a3·w on either side of the dent for
// the slope s of the line through them (a fixed point reached in a few
// steps), and the deepest point maximises the distance below that line.
// lo..wa0 and wb0..hi bracket the tangent points, wk is the deepest sample
// and h the sample spacing.
func (c *cvxShape) exactBridgeGap(theta, lo, wa0, wk, wb0, hi, h float64) (gap, wAt float64) {
	sn, cs := math.Sincos(theta)
	a3 := c.s.A[2]
	phi := func(w float64) float64 { return c.phiAt(sn, cs, w) }
	wa, wb := wa0, wb0
	fa, fb := phi(wa), phi(wb)
	s := 0.0
	for it := 0; it < 8; it++ {
		sNew := (fb - fa) / (a3 * (wb - wa))
		if it > 0 && math.Abs(sNew-s) <= 1e-14*math.Max(1, math.Abs(s)) {
			break
		}
		s = sNew
		lift := func(w float64) float64 { return phi(w) - s*a3*w }
		wa, _ = goldenMax(lift, lo, math.Min(wa0+h, wk), 50)
		wb, _ = goldenMax(lift, math.Max(wb0-h, wk), hi, 50)
		fa, fb = phi(wa), phi(wb)
	}
	s = (fb - fa) / (a3 * (wb - wa))
	norm := math.Sqrt(1 + s*s)
	depth := func(w float64) float64 { return (fa + s*a3*(w-wa) - phi(w)) / norm }
	wAt, gap = goldenMax(depth, math.Max(wa, wk-2*h), math.Min(wb, wk+2*h), 50)
	return gap, wAt
}

// bridge returns the hull vertices on either side of profile point k.
func bridge(z, phi []float64, hull []int, k int) (int, int) {
	// profileGap left the hull in hull[:h]; its length is not kept, so
	// recompute the chain (cheap) and search it.
	h := upperHull(z, phi, hull)
	for e := 0; e+1 < h; e++ {
		if hull[e] < k && k < hull[e+1] {
			return hull[e], hull[e+1]
		}
	}
	return max(k-1, 0), min(k+1, len(z)-1)
}

// profileR is r(w) = (1 − |w|^(2/e2))^(e2/2), the relative section size.
func profileR(w, e2 float64) float64 {
	aw := math.Abs(w)
	if aw >= 1 {
		return 0
	}
	return FastExp(e2 / 2 * math.Log1p(-FastExp(2/e2*FastLog(aw))))
}

// sectionSupport returns the support point of the section at height w in
// the horizontal direction (cos θ, sin θ).
func (s *Superovoid) sectionSupport(theta, w float64) Vec3 {
	k := 2 / (2 - s.Eps[0])
	sn, cs := math.Sincos(theta)
	cx, cy := 1+s.Taper[0]*w, 1+s.Taper[1]*w
	lu, lv := FastLog(s.A[0]*cx*cs), FastLog(s.A[1]*cy*sn)
	lnN := LogAddExp(k*lu, k*lv) / k
	r := profileR(w, s.Eps[1])
	return Vec3{
		s.A[0] * cx * r * FastExp((k-1)*(lu-lnN)),
		s.A[1] * cy * r * FastExp((k-1)*(lv-lnN)),
		s.A[2] * w,
	}
}

// minCurvature returns the most negative normal curvature, along the curve
// of section support points x(w) of direction θ, at the heights ws. With
// φ(w) = d·x(w) the surface normal there is ∝ (a3·d, −φ'), so the normal
// curvature is −a3·φ”/(L·|x'|²), L = √(a3² + φ'²); φ” by central
// differences of the exact φ, x' likewise.
func (c *cvxShape) minCurvature(theta float64, ws []float64) float64 {
	s := c.s
	a3 := s.A[2]
	best := math.Inf(1)
	for _, w := range ws {
		h := 1e-4 * math.Min(1-math.Abs(w), 1)
		if h < 1e-7 {
			continue // at a tip: no meridian curvature to speak of
		}
		xm, x0, xp := s.sectionSupport(theta, w-h), s.sectionSupport(theta, w), s.sectionSupport(theta, w+h)
		d := Vec3{math.Cos(theta), math.Sin(theta), 0}
		fm, f0, fp := d.Dot(xm), d.Dot(x0), d.Dot(xp)
		f1 := (fp - fm) / (2 * h)
		f2 := (fp - 2*f0 + fm) / (h * h)
		xw := xp.Sub(xm).Mul(1 / (2 * h))
		l := math.Hypot(a3, f1)
		k := -a3 * f2 / (l * xw.Dot(xw))
		if k < best {
			best = k
		}
	}
	return best
}
