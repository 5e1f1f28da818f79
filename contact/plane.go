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

// PlaneDistance returns the signed distance between body b and plane pl
// (a normal that is not unit is normalised, and the offset with it; Failed
// for a zero or non-finite one, or an offset whose ratio to it overflows):
// the support point of b in direction −n against the plane (thesis §3.2,
// generalised to superovoids with the numeric point with a given normal).
// Exact for convex bodies; for a non-convex body the support point is still
// the deepest point, so the answer is exact too.
func PlaneDistance(b *geom.Body, pl Plane) PlaneResult {
	var out PlaneResult
	nl := pl.Normal.Len()
	n, off := pl.Normal.Mul(1/nl), pl.Offset/nl
	if !(nl > 1e-150 && nl < 1e150) {
		// |n|² under- or overflows (components beyond 1e±154): normalised
		// through the vector scaled by its largest component, as sovviz
		// plane does; (0, 0, 1e-200) was answered failed.
		m := math.Max(math.Abs(pl.Normal[0]), math.Max(math.Abs(pl.Normal[1]), math.Abs(pl.Normal[2])))
		if !(m > 0) || math.IsInf(m, 0) {
			out.Status = Failed
			return out
		}
		u := geom.Vec3{pl.Normal[0] / m, pl.Normal[1] / m, pl.Normal[2] / m} // (1/m overflows for a subnormal m)
		lu := u.Len()
		n, off = u.Mul(1/lu), pl.Offset/m/lu
	}
	// (An offset over a short normal can overflow: n = (0, 0, 1e-10) and
	// offset 1e300 were answered −Inf, converged, with a NaN Q.)
	if b.Validate() != nil || math.IsNaN(off) || math.IsInf(off, 0) {
		out.Status = Failed
		return out
	}
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
