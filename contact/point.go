package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// PointResult is the distance from a point to a body's surface.
type PointResult struct {
	// Distance is signed: > 0 outside, < 0 inside.
	Distance float64
	Closest  geom.Vec3 // closest surface point, world
	Normal   geom.Vec3 // outward unit normal there
	Status   Status
}

// farPoint is the distance, in the body's largest semi-axes, beyond which
// PointDistance answers from the support point (farPointDistance).
const farPoint = 1e100

// farPointDistance answers PointDistance for a local point xl whose largest
// component m is above farPoint sizes: there the nearest surface point's
// normal points at xl to within an angle of size/distance (1e-100 or less),
// so it is the support point along xl's direction, to rounding; lengths
// are formed scaled by their largest component (squares overflow from
// about 1e154, where the general path answered +Inf, failed).
func farPointDistance(t *geom.Transform, s *geom.Superovoid, xl vec, m float64) PointResult {
	if math.IsInf(m, 0) || math.IsNaN(m) {
		return PointResult{Status: Failed}
	}
	u := xl.Mul(1 / m).Normalize()
	p := exactSupport(s, u)
	d := xl.Sub(p)
	dm := maxAbs(d)
	return PointResult{Distance: dm * d.Mul(1/dm).Len(), Closest: t.Point(p), Normal: t.Dir(u), Status: Converged}
}

// maxAbs is the largest absolute component of v.
func maxAbs(v vec) float64 { return max(math.Abs(v[0]), math.Abs(v[1]), math.Abs(v[2])) }

// PointDistance returns the exact signed Euclidean distance from world point
// x to the surface of b. It solves x_s on the surface with (x − x_s) along
// the normal (Newton on 3 unknowns, Householder tangents; in the chart of a
// pointy ridge where that fails) from several seeds and keeps the nearest
// solution, so points inside near the medial axis are answered correctly
// too. Where no solution is found, or none is as near as a surface point
// among the seeds or on the ray through x, or x lies inside, or the nearest
// solution is no local minimum of the distance or lies at a pointy tip, it
// also starts from the minimum over the parameters, from the nearest
// surface points on rays from the centre, from the nearest points of a
// pointy shape's ridges (for a point outside), from the surface points
// on the six axis-parallel rays from x (for a point inside), from the best
// foot's mirror images (and theirs under the swap of x and y, scaled by the
// semi-axes) and from rings of surface points around it and around its
// mirror in z = 0. No
// answer is a foot with x on its wrong side (outside x along the inward
// normal, or the reverse): the segment to x crosses the surface nearer,
// and seeds from there. Where the nearest surface point found is no foot
// (at a pointy tip or ridge, whose foot lies within a vanishing distance
// of it), a walk over rings of surface points around it (1e-10 to 1e-2 of
// the size) goes down until no ring point is nearer, and the answer's
// normal is x − closest (one of the tip's normals; the gradient there is
// one side's). The status is Converged when the answer's point passes the
// foot test or ends that walk, else MaxIterations (a true distance to a
// surface point, at or above the minimum). A point farther than 1e100 of
// the body's largest semi-axes is answered from the support point along
// its direction, exact to rounding there (farPointDistance).
func PointDistance(b *geom.Body, x geom.Vec3) PointResult {
	var out PointResult
	if b.Validate() != nil || math.IsNaN(x[0]+x[1]+x[2]) || math.IsInf(x[0]+x[1]+x[2], 0) {
		out.Status = Failed
		return out
	}
	t := b.Pose.Transform()
	s := &b.Shape
	xl := t.InvPoint(x)
	if m := maxAbs(xl); m > farPoint*maxAxis(s) {
		return farPointDistance(&t, s, xl, m)
	}
	best := math.Inf(1)
	var bestP vec
	conv := false
	// Surface points among the seeds bound the distance from above: an
	// answer farther than one of them missed the foot. (A point 1.2e-4
	// above a pointy tip, whose projection fails at the tip, was answered
	// 1.6 away, converged, from a foot on the far side:
	// TestPointDistancePointy.)
	// (footD, footP: the nearest seed that is itself a foot, such as a
	// tip's pole on the axis above it.)
	ub, ubP, footD, footP := math.Inf(1), vec{}, math.Inf(1), vec{}
	fx, okF := s.Residual(xl)
	keep := func(p vec) {
		if d := p.Sub(xl).Len(); d < best && footSide(s, xl, p, fx) {
			best, bestP, conv = d, p, true
		}
	}
	// A charted projection that fails costs about 25 µs. From the six axis
	// seeds of a point outside (pointy tips, where plain Newton stalls) most
	// fail, and on 200 whole-range shapes none that succeeded was nearer
	// than a plain foot: for a point outside those seeds' charted
	// projections wait, and run only where the global search below does.
	var deferred [6]vec
	nDeferred, deferChart := 0, false
	try := func(seed vec) {
		if f, ok := s.Residual(seed); ok && math.Abs(f) <= 1e-12 {
			d := seed.Sub(xl).Len()
			if d < ub {
				ub, ubP = d, seed
			}
			if d < footD && isFoot(s, xl, seed) && footSide(s, xl, seed, fx) {
				footD, footP = d, seed
			}
		}
		p, ok := projectPoint(s, xl, seed)
		if !ok && deferChart && nDeferred < len(deferred) {
			deferred[nDeferred] = seed
			nDeferred++
			return
		}
		if !ok {
			// Off a pointy ridge Newton overshoots in the local
			// coordinates; in the ridge's chart it converges
			// (TestPointDistancePointy: 245 of 300 such points were
			// answered up to 3.8e-3 too far, as converged).
			if p, ok = projectPointCharted(s, xl, seed); !ok {
				return
			}
		}
		keep(p)
	}
	// Seeds: the radial projection, and the support points of the direction
	// of x and of the six axes (for points deep inside).
	if r := xl.Len(); r > 0 {
		if okF {
			try(xl.Mul(1 / (1 + fx)))
		}
		try(approxSupport(s, xl.Mul(1/r)))
		// The surface point on the ray through x bounds the distance too
		// (a safeguard: x/(1+F) is that point only without taper, and off
		// the surface it bounds nothing; no case is known where this
		// bound alone starts the global search that finds the answer).
		if p, ok := rayToSurface(s, xl); ok {
			if d := p.Sub(xl).Len(); d < ub {
				ub, ubP = d, p
			}
		}
	}
	deferChart = okF && fx > 0
	for k := 0; k < 3; k++ {
		try(approxSupport(s, unitBasis[k]))
		try(approxSupport(s, unitBasis[k].Mul(-1)))
	}
	deferChart = false
	exact := conv
	// nearer reports whether distance a is below b beyond rounding, which
	// is relative to the body's size (size) where b is smaller: every
	// length here scales with the body (TestPointDistanceScaleInvariant).
	size := maxAxis(s)
	nearer := func(a, b float64) bool { return a < b-1e-12*math.Max(size, b) }
	if !conv || nearer(ub, best) || fx < 0 || !minimumFoot(s, bestP, best) {
		// No foot, or none as near as a seed, or a foot that is no local
		// minimum of the distance (x beyond a centre of curvature) or lies
		// at a pointy tip (outside a pointy shape a point was answered
		// 0.440 away from a tip, converged, with a ridge foot 0.175 away;
		// TestPointDistanceMissedFeet), or x inside, where feet are
		// many (a pole on the axis inside passes the foot test as a local
		// maximum of the distance where e2 is a little above 1), and at a
		// pointy ridge almost any direction passes it: search globally.
		// (Only inside pointy or box-like shapes, a probe of 20,000 points
		// found 77 inside points of the other shapes answered up to 0.45
		// too far, as converged.) Seeds: the minimum of the distance
		// over the parameters, and the surface points on the rays from
		// the centre nearest to x (the parameters crowd a box-like
		// profile's side into a sliver that their grid misses: a point
		// inside on the axis of e 1.9 and 0.1 was answered 0.7, its pole,
		// with the side 0.556 away). The answer is converged only where
		// it passes the foot test; failing all, the nearest seed on the
		// surface, max_iterations.
		for _, seed := range deferred[:nDeferred] {
			if p, ok := projectPointCharted(s, xl, seed); ok {
				keep(p)
			}
		}
		if p, ok := nearestParametric(s, xl); ok {
			try(p)
		}
		for _, p := range nearestRayPoints(s, xl) {
			if p != (vec{}) {
				try(p)
			}
		}
		if fx < 0 {
			// The surface points on the six axis-parallel rays from x:
			// inside a needle or a plate (semi-axes 1e-3 to 1e3 of each
			// other) the rays from the centre meet the long sides a
			// sample's spacing apart, which can exceed the section, and
			// every seed above can miss the nearest side (a point inside
			// a box-like needle 1,450 long and 0.4 by 0.95 across was
			// answered 0.83 from a face with another 0.43 away:
			// TestPointDistanceThinParts), while the nearest side of a
			// box-like section lies nearly along an axis from x.
			h := s.LocalAABBFast().Max
			for k := 0; k < 3; k++ {
				for _, sg := range [...]float64{-1, 1} {
					far := xl
					far[k] = sg * 1.01 * h[k] // (outside the box, so outside the body)
					if c, ok := bisectSurface(s, xl, far); ok {
						try(c)
					}
				}
			}
		}
		if fx > 0 {
			// (From inside, a pointy ridge is the farthest of the surface
			// points beside it: no foot of an inside point lies there.)
			for _, p := range ridgeNearest(s, xl) {
				if p != (vec{}) && nearer(p.Sub(xl).Len(), math.Min(best, ub)) {
					try(p)
				}
			}
		}
		if conv {
			// The best foot's mirror images in the planes x = 0 and y = 0
			// (the shape's symmetries): a point 5.8e-4 off y = 0 inside
			// a pointy box-like shape was answered from the mirror of its
			// foot, 1.06e-3 farther.
			// And in z = 0, which a taper makes no symmetry but leaves
			// nearly one: a point inside on z = 0 of a tapered box-like
			// shape was answered from its bottom face, with the top
			// face's foot 7.96e-6 nearer (TestPointDistanceMissedFeet).
			// And those of its image under the swap of x and y, scaled
			// by the semi-axes (it maps the surface onto itself where
			// tx = ty, and feet onto feet where a1 = a2 as well; a foot
			// beside a pole it takes beside the pole on the other side,
			// whatever the shape): inside shapes box-like in e1 and
			// pointy in e2, points on or near the axis were answered from
			// a foot on the x side of a pole where one on the y side (of
			// that pole, or across the centre of the other) was 1.9e-5,
			// 2.9e-9 and 0.0019 nearer (TestPointDistanceSwappedFeet).
			var mirrored vec
			mirrors := func(m vec) {
				mirrored = m
				sw := vec{m[1] * s.A[0] / s.A[1], m[0] * s.A[1] / s.A[0], m[2]}
				try(sw)
				for _, f := range [...]vec{{-1, 1, 1}, {1, -1, 1}, {-1, -1, 1}, {1, 1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, -1}} {
					try(vec{f[0] * m[0], f[1] * m[1], f[2] * m[2]})
					try(vec{f[0] * sw[0], f[1] * sw[1], f[2] * sw[2]})
				}
			}
			mirrors(bestP)
			// Rings of surface points around the best foot (16 on each of
			// five radii, 1e-4 to 3e-2 of the size, in its tangent plane,
			// onto the surface along rays from the centre), projected from
			// where nearer: on a nearly flat face feet 3e-4 apart differ
			// by 1e-7 in distance, and every seed above can land on the
			// farther one (a point inside below a face box-like in e1 and
			// pointy in e2 was answered 2.96e-7 too far; the centre of a
			// tapered box-like shape, from a foot 0.0042 off its axis
			// where one 0.0097 off it, 0.0106 away, is 7.7e-6 nearer,
			// until the ring at 3e-3, and a point near the centre of a
			// flat tapered shape from a foot 0.064 (0.05 of the size)
			// from one 0.00127 nearer, until the ring at 3e-2:
			// TestPointDistanceMissedFeet).
			rings := func(m vec) {
				e, ok := s.Gradient(m)
				if !ok || !(e.Grad.Len() > 0) {
					return
				}
				t1, t2 := geom.Householder(e.Grad)
				for _, rad := range [...]float64{1e-4, 1e-3, 3e-3, 1e-2, 3e-2} {
					rr := rad * maxAxis(s)
					for k := 0; k < 16; k++ {
						sn, cs := math.Sincos(2 * math.Pi * float64(k) / 16)
						u := m.Add(t1.Mul(rr * cs)).Add(t2.Mul(rr * sn))
						if p, ok := rayToSurface(s, u); ok && nearer(p.Sub(xl).Len(), best) {
							try(p)
						}
					}
				}
			}
			rings(bestP)
			// And around the best foot's mirror image in z = 0, moved onto
			// the surface: a taper makes the two sides' feet differ, so
			// the mirror seeds the other side's basin but Newton from it
			// can stall beside a pole of a pointy profile, short of a foot
			// (the point on the axis of a tapered shape box-like in e1
			// and pointy in e2 was answered from the top pole's foot,
			// 6.6e-4 off the axis, where one on the bottom side, 0.067
			// off it, is 7.8e-4 nearer: TestPointDistanceMissedFeet).
			if bestP[2] != 0 {
				if m, ok := rayToSurface(s, vec{bestP[0], bestP[1], -bestP[2]}); ok {
					rings(m)
				}
			}
			// And the mirrors of a foot the rings found: inside a slab
			// 0.012 thick, a point 9e-9 off its plane y = 0 was answered
			// from the face the rings around the pole reached, the other
			// 1.8e-8 nearer (TestPointDistanceThinParts).
			if bestP != mirrored {
				mirrors(bestP)
			}
		}
		// Every projection try keeps is a foot, and so is footP: the
		// nearest of them, unless a surface point is nearer.
		if footD < best {
			best, bestP, conv = footD, footP, true
		}
		exact = conv
		if !math.IsInf(ub, 0) && (!conv || nearer(ub, best)) {
			// (Not a foot: a seed that is one set footD ≤ ub.)
			best, bestP, conv, exact = ub, ubP, true, false
		}
		// A nearest surface point with x on its wrong side (outside x
		// along its inward normal, or the reverse) is a local minimum of
		// the distance across a thin part of the body, never the global
		// one: the segment to x crosses the surface nearer to x. Seeds
		// from that crossing, until the answer is on x's side (points
		// outside plates and needles, ratios 1e-3 to 1e3, were answered
		// from the far face, converged, up to 27 times too far:
		// TestPointDistanceThinParts).
		for k := 0; k < 4 && conv && !exact && !footSide(s, xl, bestP, fx); k++ {
			c, ok := segmentCrossing(s, xl, bestP, fx)
			if !ok {
				break
			}
			prev := best
			try(c) // (keep lowers best only to a foot)
			foot := best < prev
			if footD < best {
				best, bestP, foot = footD, footP, true
			}
			if nearer(ub, best) {
				best, bestP, foot = ub, ubP, false
			}
			exact = foot
		}
	}
	walked := false // the answer ends the walk below: no foot
	if conv && !exact {
		// No foot passes the test here: the nearest surface point is at a
		// pointy tip or ridge, where the normal turns within a vanishing
		// distance and the foot, if any, lies next to it (a point
		// 0.023 rad off the axis of a tip of e2 1.93 has its foot about
		// 1e-46 from it: the profile's slope |w|^(2/e2 − 1) is 0.023 at
		// |w| = 0.023^(e2/(2 − e2)); docs/contact.md), or Newton stalled
		// beside a foot. Walk down over
		// rings of surface points around it until none is nearer: that
		// point is a local minimum of the distance to within ringTol,
		// answered Converged (points beside pointy tips and ridges were
		// answered right but MaxIterations, and near a tip of e2 1.86 a
		// point was answered at the tip, 1.9e-3 too far:
		// TestPointDistanceTipsAndRidges).
		for it := 0; it < ringWalk; it++ {
			q, dq, down := ringNearer(s, xl, bestP, best)
			if !down {
				exact, walked = true, true
				break
			}
			bestP, best = q, dq
			if f, ok := projectPoint(s, xl, q); ok && footSide(s, xl, f, fx) {
				if d := f.Sub(xl).Len(); d <= dq {
					bestP, best, exact = f, d, true
					break
				}
			}
		}
	}
	if !conv {
		out.Status = Failed
		out.Distance = math.Inf(1)
		if rd, ok := s.RadialDistance(xl); ok {
			out.Distance = rd
		}
		return out
	}
	n, okN := s.Normal(bestP)
	if (walked || !okN) && best > 1e-9*size {
		// At the end of the walk (a pointy tip or crease) the gradient
		// is one side's and tells nothing: outside a shape of e 1.89
		// and 1.85 a point was answered at its y tip, converged, with
		// the normal 80° from x − closest
		// (TestPointDistanceNormalAtTips). x − closest lies in the
		// tip's cone of normals and is the answer's normal.
		n = xl.Sub(bestP).Mul(1 / best)
		if fx < 0 {
			n = n.Mul(-1)
		}
	}
	if fx < 0 {
		best = -best
	}
	out.Distance = best
	out.Closest = t.Point(bestP)
	out.Normal = t.Dir(n)
	out.Status = Converged
	if !exact {
		out.Status = MaxIterations
	}
	return out
}

// rayDirs is the number of rays nearestRayPoints casts, and rayKeep the
// number of their surface points it returns.
const (
	rayDirs = 256
	rayKeep = 4
)

// nearestRayPoints returns rayKeep points of s's surface near the local
// point x among those on rayDirs rays from the centre, their directions
// spread evenly over the sphere (a Fibonacci lattice) and scaled by the
// semi-axes: samples whose density depends neither on the exponents,
// unlike the parameters', nor on the semi-axes' ratios (rays evenly spread
// in angle met the long sides of a needle 1,450 long, 0.4 by 0.95 across,
// 10 apart: TestPointDistanceThinParts). The nearest first, then each next
// nearest whose lattice direction is farther than rayApart from those of
// the points already taken: on a broad, nearly flat face the nearest
// samples crowd around one foot, and a point inside, 0.94 below a tapered
// face box-like in e1 and pointy in e2, was answered from a foot 0.00111
// farther than another 0.62 away, whose samples were no nearer than the
// four taken (TestPointDistanceMissedFeet). Rays whose point does not
// settle are skipped (a zero vector marks an unused slot: the origin is
// never on the surface).
func nearestRayPoints(s *geom.Superovoid, x vec) (pts [rayKeep]vec) {
	var (
		dist [rayDirs]float64
		surf [rayDirs]vec
		dirs [rayDirs]vec
	)
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := 0; i < rayDirs; i++ {
		z := 1 - (2*float64(i)+1)/rayDirs
		r := math.Sqrt(1 - z*z)
		th := golden * float64(i)
		dirs[i] = vec{r * math.Cos(th), r * math.Sin(th), z}
		dist[i] = math.Inf(1)
		p, ok := rayToSurface(s, vec{s.A[0] * dirs[i][0], s.A[1] * dirs[i][1], s.A[2] * dirs[i][2]})
		if ok {
			dist[i], surf[i] = p.Sub(x).Len(), p
		}
	}
	var taken [rayKeep]int
	for k := 0; k < rayKeep; k++ {
		pick := -1
		for i := 0; i < rayDirs; i++ {
			if math.IsInf(dist[i], 1) || pick >= 0 && !(dist[i] < dist[pick]) {
				continue
			}
			apart := true
			for j := 0; j < k && apart; j++ {
				apart = dirs[i].Dot(dirs[taken[j]]) < rayApart
			}
			if apart {
				pick = i
			}
		}
		if pick < 0 {
			break
		}
		taken[k], pts[k] = pick, surf[pick]
	}
	return pts
}

// rayApart is the cosine of the angle that the lattice directions (on the
// unit sphere, before the semi-axes scale them into rays) of two points
// nearestRayPoints returns must exceed: cos √(4π/rayDirs), about the
// lattice's spacing, 0.22 rad (TestRayApart checks it against rayDirs).
// Its nearest neighbours lie 0.19 to 0.22 rad apart, so a point taken
// excludes only some of them: a wider angle mended one missed foot and
// lost another (a review of 2026-12-06).
const rayApart = 0.975556542068376

// rayToSurface is the point of s's surface on the ray from the centre
// through u: the plain step u/(1+F), exact without taper, repeated until
// the point is near enough for radialToSurface's Newton (|F| < 0.5: on
// tapered box-like shapes one step left |F| up to 0.81 on 12 of 256 rays).
func rayToSurface(s *geom.Superovoid, u vec) (vec, bool) {
	for k := 0; k < 8; k++ {
		f, ok := s.Residual(u)
		if !ok || !(f > -1) || math.IsInf(f, 0) {
			return u, false
		}
		if math.Abs(f) < 0.5 {
			return radialToSurface(s, u)
		}
		u = u.Mul(1 / (1 + f))
	}
	return u, false
}

// minimumFoot reports whether the surface point p of s, the foot of a
// point outside at distance d, is a local minimum of the distance over the
// surface: with K its second fundamental form (outward normal), I + d·K is
// positive semidefinite, to within rounding (1e-9); no principal curvature
// is concave with a radius below d. Within 1e-6 of the size of a pointy
// tip (an axis point where an exponent above 1 makes the surface a cusp:
// e1 at the poles, e1 or e2 at the equator's axis points) it answers
// false: there the curvature tells nothing (it is enormous and convex at a
// tip that the distance falls away from along the spike, as in
// TestPointDistanceMissedFeet).
func minimumFoot(s *geom.Superovoid, p vec, d float64) bool {
	near := 1e-6 * maxAxis(s)
	for k := 0; k < 3; k++ {
		if pointy := s.Eps[0] > 1 || k < 2 && s.Eps[1] > 1; !pointy {
			continue
		}
		var q vec
		q[k] = s.A[k]
		if p.Sub(q).Len() <= near || p.Add(q).Len() <= near {
			return false
		}
	}
	e, ok := s.ResidualHessian(p, true)
	if !ok {
		return false
	}
	t1, t2 := geom.Householder(e.Grad)
	k, ok := formOf(&e, [2]vec{t1, t2})
	if !ok {
		return false
	}
	a, b, c := 1+d*k[0][0], d*k[0][1], 1+d*k[1][1]
	const tol = 1e-9
	return a >= -tol && c >= -tol && a*c-b*b >= -tol*(1+math.Abs(a)+math.Abs(c))
}

// isFoot reports whether surface point p of s is a foot of x: on the
// surface, with x − p along the normal (projectPoint's acceptance test),
// its tangential components within 1e-9 of the larger of the distance and
// the body's size (not of 1: on a body smaller than 1e-9 any surface point
// passed; TestPointDistanceScaleInvariant).
func isFoot(s *geom.Superovoid, x, p vec) bool {
	e, ok := s.Gradient(p)
	if !ok {
		return false
	}
	f, _ := s.Residual(p)
	tt, bb := geom.Householder(e.Grad)
	d := x.Sub(p)
	res := math.Abs(tt.Dot(d)) + math.Abs(bb.Dot(d))
	return math.Abs(f) <= 1e-10 && res <= 1e-9*math.Max(maxAxis(s), d.Len())
}

// footSide reports whether x lies on the side of the surface point p that
// its residual fx says (outside: along the outward normal at p; inside:
// against it), or within 1e-9 of the size of p. The nearest surface point
// of a point outside is always such a foot: were x along the inward normal,
// the segment from p to x would enter the body and cross the surface again,
// nearer to x. isFoot's test is blind to that side: at a pointy crease the
// normal of one side's points can point away from x, and a point outside
// an elongated tapered shape (a1 26.7, e1 1.9) was answered 0.605 away,
// converged, from such a "foot" on the crease y = 0, whose true nearest
// point on the same crease is 0.262 away (TestPointDistanceWrongSide).
func footSide(s *geom.Superovoid, x, p vec, fx float64) bool {
	d := x.Sub(p)
	if fx == 0 || d.Len() <= 1e-9*maxAxis(s) {
		return true
	}
	e, ok := s.Gradient(p)
	if !ok {
		return false
	}
	return (e.Grad.Dot(d) > 0) == (fx > 0)
}

// segmentCrossing returns a surface point of s strictly between x and the
// surface point p where x lies on p's wrong side (footSide false): just
// beyond p towards x the residual has the sign opposite to fx's, and
// bisection between there and x finds where it changes, nearer to x than
// p. ok is false where no such sign is found (p within rounding of a
// right-side point).
func segmentCrossing(s *geom.Superovoid, x, p vec, fx float64) (vec, bool) {
	d := x.Sub(p)
	opposite := func(t float64) bool {
		f, ok := s.Residual(p.Add(d.Mul(t)))
		return ok && f != 0 && (f > 0) != (fx > 0)
	}
	for t := 0.5; t > 1e-12; t *= 0.125 {
		if opposite(t) {
			return bisectSurface(s, p.Add(d.Mul(t)), x)
		}
	}
	return p, false
}

// bisectSurface returns a surface point of s on the segment from a to b,
// whose residuals have opposite signs (b's may be undefined: outside), by
// bisection to rounding and a last radial step onto the surface.
func bisectSurface(s *geom.Superovoid, a, b vec) (vec, bool) {
	fa, _ := s.Residual(a)
	d := b.Sub(a)
	lo, hi := 0.0, 1.0
	for k := 0; k < 100 && hi-lo > 1e-16; k++ {
		m := 0.5 * (lo + hi)
		if f, ok := s.Residual(a.Add(d.Mul(m))); ok && f != 0 && (f > 0) == (fa > 0) {
			lo = m
		} else {
			hi = m
		}
	}
	return radialToSurface(s, a.Add(d.Mul(0.5*(lo+hi))))
}

// projectPoint finds a surface point p (local) with x − p along the normal
// at p, by Newton from seed: F(p) = 0, t·(x − p)/L = 0, b·(x − p)/L = 0
// (L the smallest semi-axis: with the tangent rows in length units, solve's
// pivots relative to the largest entry, the gradient's 1/L, failed on
// bodies below 1e-12 in size).
func projectPoint(s *geom.Superovoid, x, seed vec) (vec, bool) {
	p := seed
	L := minAxis(s)
	for it := 0; it < 40; it++ {
		var J [6][6]float64
		phi, ok := footEquations(s, x, p, vec{1, 1, 1}, L, &J)
		if !ok {
			return p, false
		}
		rhs := [6]float64{-phi[0], -phi[1], -phi[2]}
		dx, _, ok := solve(&J, &rhs, 3)
		if !ok {
			return p, false
		}
		step := vec{dx[0], dx[1], dx[2]}
		if l := step.Len(); l > 0.25*L {
			step = step.Mul(0.25 * L / l)
		}
		p = p.Add(step)
		if step.Len() < 1e-13*L {
			break
		}
	}
	return p, isFoot(s, x, p)
}

// footEquations returns the foot conditions of x at the surface point
// candidate y of s, F(y) and t·(x − y)/rd, b·(x − y)/rd (t, b the
// Householder tangents of ∇F, rd a row divisor), and, when J is not nil,
// their Jacobian with respect to unknowns whose derivatives dy/du are dy,
// column by column (1 in the local coordinates; a chart's elsewhere).
func footEquations(s *geom.Superovoid, x, y, dy vec, rd float64, J *[6][6]float64) (phi [3]float64, ok bool) {
	e, ok := s.ResidualHessian(y, true)
	if !ok {
		return phi, false
	}
	tt, bb, dT, dB := geom.HouseholderJac(e.Grad)
	d := x.Sub(y)
	phi = [3]float64{e.G, tt.Dot(d) / rd, bb.Dot(d) / rd}
	if J != nil {
		TH := mulMat3(&dT, &e.Hess)
		BH := mulMat3(&dB, &e.Hess)
		*J = [6][6]float64{}
		for k := 0; k < 3; k++ {
			J[0][k] = e.Grad[k] * dy[k]
			J[1][k] = (-tt[k] + d.Dot(col(&TH, k))) * dy[k] / rd
			J[2][k] = (-bb[k] + d.Dot(col(&BH, k))) * dy[k] / rd
		}
	}
	return phi, true
}

// nearestParametric minimises |X(p1, p2) − x|² from the nearest sample of a
// coarse parameter grid with Levenberg–Marquardt steps; it converges also
// where the surface normal is ill-defined (tips of pointy shapes).
func nearestParametric(s *geom.Superovoid, x vec) (vec, bool) {
	const n1, n2 = 32, 16
	bp1, bp2, bd := 0.0, 0.0, math.Inf(1)
	for i := 0; i < n1; i++ {
		p1 := -math.Pi + 2*math.Pi*(float64(i)+0.5)/n1
		for j := 0; j <= n2; j++ {
			p2 := -math.Pi/2 + math.Pi*float64(j)/n2
			if d := s.Point(p1, p2).Sub(x).Len(); d < bd {
				bp1, bp2, bd = p1, p2, d
			}
		}
	}
	mu := 1e-3
	// (eps keeps the damped diagonal positive where a derivative vanishes,
	// at a pole: 1e-12 of the size squared, as JᵀJ scales.)
	eps := 1e-12 * maxAxis(s) * maxAxis(s)
	for it := 0; it < 200; it++ {
		d := s.Derivs(bp1, bp2)
		r := d.X.Sub(x)
		g1, g2 := r.Dot(d.X1), r.Dot(d.X2)
		a11, a12, a22 := d.X1.Dot(d.X1), d.X1.Dot(d.X2), d.X2.Dot(d.X2)
		improved := false
		for try := 0; try < 30; try++ {
			m11, m22 := a11+mu*(a11+eps), a22+mu*(a22+eps)
			det := m11*m22 - a12*a12
			if !(det > 0) {
				mu *= 10
				continue
			}
			s1 := -(m22*g1 - a12*g2) / det
			s2 := -(-a12*g1 + m11*g2) / det
			q1, q2 := wrapParams(bp1+s1, bp2+s2)
			if nd := s.Point(q1, q2).Sub(x).Len(); nd < bd {
				bp1, bp2, bd = q1, q2, nd
				mu = math.Max(mu*0.3, 1e-12)
				improved = true
				break
			}
			mu *= 10
		}
		if !improved {
			break
		}
	}
	return s.Point(bp1, bp2), !math.IsInf(bd, 0)
}

// projectPointCharted is projectPoint in the chart of the seed's
// coordinates that lie near a pointy exponent's plane (cuspPolish's chart,
// one surface): across a pointy ridge the normal turns within 1e-12 of the
// plane (e near 2), where Newton in the local coordinates overshoots and
// fails, while in the chart the same equations are smooth: it fails on
// every ridge foot of TestProjectPointCharted, which the chart finds. The
// ridge search's tip 3e-3 from a ridge, seeded from the foot on the ray
// from the centre 8e-4 off the ridge, did not converge before it did
// (TestRidgeSearchTouching). ok is false when
// no coordinate needs the chart or Newton does not converge; the accepted
// foot passes projectPoint's own test.
func projectPointCharted(s *geom.Superovoid, x, seed vec) (vec, bool) {
	// (cuspPolish's chart, on slots 0–2 only: 3–5 stay uncharted.)
	var ch cuspChart
	for i := 3; i < 6; i++ {
		ch.kappa[i] = 1
	}
	xs := [6]float64{seed[0], seed[1], seed[2]}
	if !ch.chartSide(0, s, &xs) {
		return seed, false
	}
	sg := ch.toSigma(&xs)
	ch.seedOffPlanes(&sg) // (σ = 0 is a zero column of the Jacobian: cuspSeed.)
	L := minAxis(s)
	// eval returns the residuals F, t·d/L, b·d/L at chart point sg and
	// their Jacobian with respect to sg.
	eval := func(sg *[6]float64, J *[6][6]float64) (phi [3]float64, ok bool) {
		y, d := ch.toX(sg), ch.deriv(sg)
		return footEquations(s, x, vec{y[0], y[1], y[2]}, vec{d[0], d[1], d[2]}, L, J)
	}
	m2 := func(phi [3]float64) float64 { return phi[0]*phi[0] + phi[1]*phi[1] + phi[2]*phi[2] }
	var J [6][6]float64
	phi, ok := eval(&sg, &J)
	if !ok {
		return seed, false
	}
	cur := m2(phi)
	for it := 0; it < 60 && cur > 1e-30; it++ {
		rhs := [6]float64{-phi[0], -phi[1], -phi[2]}
		dx, _, ok := solve(&J, &rhs, 3)
		if !ok {
			// (A foot on the ridge's plane itself is σ = 0, a zero column:
			// the point may be solved already, which the test below tells.)
			break
		}
		step := vec{dx[0], dx[1], dx[2]}
		if l := step.Len(); l > 0.25*L {
			step = step.Mul(0.25 * L / l)
		}
		// Backtracking on the merit: far from the foot a full step can
		// cross the ridge's plane to a worse side.
		accepted := false
		for try := 0; try < 30; try++ {
			sn := [6]float64{sg[0] + step[0], sg[1] + step[1], sg[2] + step[2]}
			var Jn [6][6]float64
			if pn, okN := eval(&sn, &Jn); okN && m2(pn) < cur {
				sg, phi, J, cur, accepted = sn, pn, Jn, m2(pn), true
				break
			}
			step = step.Mul(0.5)
		}
		if !accepted || step.Len() < 1e-15*L {
			break
		}
	}
	if y := ch.toX(&sg); isFoot(s, x, vec{y[0], y[1], y[2]}) {
		return vec{y[0], y[1], y[2]}, true
	}
	return seed, false
}

// ridgeRays is the number of rays ridgeNearest casts around each ridge
// curve before refining, and ridgeGoldenSteps its golden-section steps.
const (
	ridgeRays        = 48
	ridgeGoldenSteps = 36
)

// ridgeNearest returns, for each pointy ridge of s, the point of the ridge
// curve nearest to the local point x (zero vectors for the ridges s lacks):
// the meridian in the plane y = 0 and the one in x = 0, where sections
// pointy in e1 (> 1) have their corners, and the equator, where a profile
// pointy in e2 (> 1) has its corner. Across a ridge the normal turns
// within a vanishing distance, so a point outside in a wide wedge has its
// foot on the ridge or next to it (1e-40 away and less, near e = 2),
// where Newton in three unknowns, plain or charted, crawls: points in the
// plane of a pointy
// meridian were answered up to 5e-2 too far, max_iterations, from feet
// elsewhere on the ridge (TestPointDistanceTipsAndRidges). On the curve the
// problem is one-dimensional: the nearest of ridgeRays surface points
// on rays from the centre in the ridge's plane (uniform in angle, so that
// box-like and pointy profiles alike are covered), refined by golden
// section on each side of it.
func ridgeNearest(s *geom.Superovoid, x vec) (pts [3]vec) {
	// The planes' in-plane axes: (x, z), (y, z), (x, y).
	axes := [3][2]vec{{{1, 0, 0}, {0, 0, 1}}, {{0, 1, 0}, {0, 0, 1}}, {{1, 0, 0}, {0, 1, 0}}}
	r := minAxis(s)
	for k, ax := range axes {
		if k < 2 && !(s.Eps[0] > 1) || k == 2 && !(s.Eps[1] > 1) {
			continue
		}
		at := func(phi float64) (vec, float64) {
			sn, cs := math.Sincos(phi)
			p, ok := rayToSurface(s, ax[0].Mul(r*cs).Add(ax[1].Mul(r*sn)))
			if !ok {
				return p, math.Inf(1)
			}
			return p, p.Sub(x).Len()
		}
		const h = 2 * math.Pi / ridgeRays
		bi, bd, bp := -1, math.Inf(1), vec{}
		for i := 0; i < ridgeRays; i++ {
			if p, d := at(h * float64(i)); d < bd {
				bi, bd, bp = i, d, p
			}
		}
		if bi < 0 {
			continue
		}
		// Golden section on each side of the best sample: the distance
		// along the curve is unimodal between samples but for the tips
		// (the axis points, which are samples: ridgeRays is a multiple
		// of 4), where two minima can straddle a corner within a sample's
		// spacing. For the same reason the far side of a tip beside the
		// best sample is refined too.
		best, bestD := vec{}, math.Inf(1)
		refine := func(a, b float64) {
			const g = 0.3819660112501051 // 2 − golden ratio
			c, d := a+g*(b-a), b-g*(b-a)
			pc, fc := at(c)
			pd, fd := at(d)
			for it := 0; it < ridgeGoldenSteps; it++ {
				if fc <= fd {
					b, d, pd, fd = d, c, pc, fc
					c = a + g*(b-a)
					pc, fc = at(c)
				} else {
					a, c, pc, fc = c, d, pd, fd
					d = b - g*(b-a)
					pd, fd = at(d)
				}
			}
			if fc < bestD {
				best, bestD = pc, fc
			}
			if fd < bestD {
				best, bestD = pd, fd
			}
		}
		fi := float64(bi)
		refine(h*(fi-1), h*fi)
		refine(h*fi, h*(fi+1))
		const tip = ridgeRays / 4
		if (bi+1)%tip == 0 {
			refine(h*(fi+1), h*(fi+2))
		} else if (bi-1)%tip == 0 {
			refine(h*(fi-2), h*(fi-1))
		}
		pts[k] = bp
		if bestD < bd {
			pts[k] = best
		}
	}
	return pts
}

// Rings of ringNearer: ringDirs surface points on each of ringRadii radii,
// from ringInner of the size by factors of ten; ringTol is the margin, in
// distance relative to max(size, d) (size the largest semi-axis), by which
// a ring point must be nearer to count; ringWalk bounds the steps of the
// walk down.
const (
	ringDirs  = 8
	ringRadii = 9
	ringInner = 1e-10
	ringTol   = 1e-12
	ringWalk  = 60
)

// ringNearer returns the surface point nearest to x among rings around the
// surface point p (in its tangent plane, onto the surface along rays from
// the centre), and down true when it is nearer than d, p's distance, by
// more than ringTol. The rings span radii from 1e-10 to 1e-2 of the size,
// so a walk over them takes large steps far from a minimum and small ones
// near it; where none is nearer, p is a local minimum of the distance to
// within the rounding of the ring points (|F| ≤ 1e-14) and ringTol, at
// every scale from 1e-10 of the size up.
func ringNearer(s *geom.Superovoid, x, p vec, d float64) (q vec, dq float64, down bool) {
	e, ok := s.Gradient(p)
	if !ok || !(e.Grad.Len() > 0) {
		return p, d, false
	}
	t1, t2 := geom.Householder(e.Grad)
	// On a pointy crease (p in the plane x = 0 or y = 0 of sections
	// pointy in e1, or z = 0 of a profile pointy in e2) the distance can
	// fall along the crease while it rises steeply off it, so that no ring
	// direction but the crease's own sees the descent (a point on the
	// crease x = 0 of a shape of e1 1.81 passed 7.7e-6 too far from a
	// sphere's point: review of 2026-11-25): the crease's tangent, in the
	// plane and the tangent plane, is tried both ways at every radius.
	var crease [3]vec
	nc := 0
	for k := 0; k < 3; k++ {
		if pointy := k < 2 && s.Eps[0] > 1 || k == 2 && s.Eps[1] > 1; !pointy || !(math.Abs(p[k]) <= 1e-12*maxAxis(s)) {
			continue
		}
		var ek vec
		ek[k] = 1
		if c := ek.Cross(e.Grad); c.Len() > 0 {
			crease[nc] = c.Normalize()
			nc++
		}
	}
	dq, q = d-ringTol*math.Max(maxAxis(s), d), p
	rr := ringInner * maxAxis(s)
	at := func(u vec) {
		if c, ok := rayToSurface(s, u); ok {
			if dc := c.Sub(x).Len(); dc < dq {
				q, dq, down = c, dc, true
			}
		}
	}
	for k := 0; k < ringRadii; k++ {
		for j := 0; j < ringDirs; j++ {
			sn, cs := math.Sincos(2 * math.Pi * (float64(j) + 0.5*float64(k&1)) / ringDirs)
			at(p.Add(t1.Mul(rr * cs)).Add(t2.Mul(rr * sn)))
		}
		for _, c := range crease[:nc] {
			at(p.Add(c.Mul(rr)))
			at(p.Sub(c.Mul(rr)))
		}
		rr *= 10
	}
	if !down {
		return p, d, false
	}
	return q, dq, true
}
