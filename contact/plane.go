package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// Plane is the set of points x with Normal·x = Offset; Normal is the unit
// normal of the free side.
type Plane struct {
	Normal geom.Vec3
	Offset float64
}

// PlaneResult is the signed distance between a body and a plane.
type PlaneResult struct {
	// Distance > 0: the body is on the free side; < 0: it penetrates by −Distance.
	Distance float64
	P        geom.Vec3 // deepest (or nearest) point of the body, world
	Q        geom.Vec3 // its projection on the plane
	Status   Status
}

// PlaneDistance returns the signed distance between body b and plane pl:
// the support point of b in direction −n against the plane (thesis §3.2,
// generalised to superovoids with the numeric point with a given normal).
// Exact for convex bodies; for a non-convex body the support point is still
// the deepest point, so the answer is exact too.
func PlaneDistance(b *geom.Body, pl Plane) PlaneResult {
	var out PlaneResult
	nl := pl.Normal.Len()
	if b.Validate() != nil || !(nl > 0) || math.IsInf(nl, 0) || math.IsNaN(pl.Offset) || math.IsInf(pl.Offset, 0) {
		out.Status = Failed
		return out
	}
	n := pl.Normal.Mul(1 / nl)
	off := pl.Offset / nl
	t := b.Pose.Transform()
	x, ok := SupportPoint(&b.Shape, t.InvDir(n.Mul(-1)))
	if !ok {
		out.Status = Failed
		return out
	}
	out.P = t.Point(x)
	out.Distance = n.Dot(out.P) - off
	out.Q = out.P.Sub(n.Mul(out.Distance))
	out.Status = Converged
	return out
}

// SupportPoint returns the local point of s that maximises m·x (m local,
// any length), i.e. the point whose outward normal is m: geom's point with a
// given normal (closed form for superellipsoids, a safeguarded root search
// on the section stack for superovoids, the global maximiser on non-convex
// ones). ok is false for a zero or non-finite m.
func SupportPoint(s *geom.Superovoid, m vec) (vec, bool) {
	x, _, _, ok := s.PointWithNormal(m)
	return x, ok
}
