package geom

import "math"

// AABB is an axis-aligned box.
type AABB struct{ Min, Max Vec3 }

// Overlaps reports whether two boxes intersect (touching counts).
func (a AABB) Overlaps(b AABB) bool {
	return a.Min[0] <= b.Max[0] && b.Min[0] <= a.Max[0] &&
		a.Min[1] <= b.Max[1] && b.Min[1] <= a.Max[1] &&
		a.Min[2] <= b.Max[2] && b.Min[2] <= a.Max[2]
}

// Expand returns the box grown by m on every side.
func (a AABB) Expand(m float64) AABB {
	d := Vec3{m, m, m}
	return AABB{a.Min.Sub(d), a.Max.Add(d)}
}

// Center returns the centre of the box.
func (a AABB) Center() Vec3 { return a.Min.Add(a.Max).Mul(0.5) }

// LocalAABB returns the tight box of the shape in its own frame. The widest
// xy section is not at z = 0 when tapered, so the extent along x is the
// maximum over z of a1·(1+tx·w)·r(w), r(w) = (1−|w|^(2/e2))^(e2/2), found by
// a golden-section search on the concave-in-practice profile and verified on
// a grid.
func (s *Superovoid) LocalAABB() AABB {
	ex := s.maxExtent(s.A[0], s.Taper[0])
	ey := s.maxExtent(s.A[1], s.Taper[1])
	return AABB{Min: Vec3{-ex, -ey, -s.A[2]}, Max: Vec3{ex, ey, s.A[2]}}
}

// maxExtent returns max over w in [−1, 1] of a·(1+t·w)·r(w).
func (s *Superovoid) maxExtent(a, t float64) float64 {
	e2 := s.Eps[1]
	f := func(w float64) float64 {
		return a * (1 + t*w) * math.Pow(math.Max(0, 1-math.Pow(math.Abs(w), 2/e2)), e2/2)
	}
	// Coarse grid, then golden-section refinement around the best sample:
	// robust for the non-concave profiles of non-convex shapes too.
	const n = 64
	best, bw := f(0), 0.0
	for i := 0; i <= n; i++ {
		w := -1 + 2*float64(i)/n
		if v := f(w); v > best {
			best, bw = v, w
		}
	}
	_, fg := goldenMax(f, math.Max(-1, bw-2.0/n), math.Min(1, bw+2.0/n), 60)
	return math.Max(best, fg)
}

// BoundingRadius returns the radius of a sphere about the local origin that
// contains the shape.
func (s *Superovoid) BoundingRadius() float64 {
	b := s.LocalAABB()
	// The corner of the tight box bounds every point; for e ≥ 1 shapes a
	// tighter bound exists but the box corner is always safe.
	r := 0.0
	for i := 0; i < 3; i++ {
		r += b.Max[i] * b.Max[i]
	}
	return math.Sqrt(r)
}

// WorldAABB returns an axis-aligned box containing the body in world
// coordinates (the rotated local box, so not tight for rotated bodies).
func (b *Body) WorldAABB() AABB {
	return b.WorldAABBOf(b.Shape.LocalAABB())
}

// WorldAABBOf is WorldAABB given the shape's local box lb (centred on the
// origin, as LocalAABB returns it), for callers that cache local boxes.
func (b *Body) WorldAABBOf(lb AABB) AABB {
	R := b.Pose.Rotation()
	c := b.Pose.Position
	h := lb.Max
	var ext Vec3
	for i := 0; i < 3; i++ {
		ext[i] = math.Abs(R[i])*h[0] + math.Abs(R[3+i])*h[1] + math.Abs(R[6+i])*h[2]
	}
	return AABB{Min: c.Sub(ext), Max: c.Add(ext)}
}

// BoundingSphere returns centre and radius of a sphere containing the body.
func (b *Body) BoundingSphere() (Vec3, float64) {
	return b.Pose.Position, b.Shape.BoundingRadius()
}

// BoundingRadiusFast returns a cheap upper bound of the distance of any
// point of the shape from its local origin: the taper can widen a section by
// at most 1+|t|, so the box (a1·(1+|tx|), a2·(1+|ty|), a3) bounds the body.
func (s *Superovoid) BoundingRadiusFast() float64 {
	return s.LocalAABBFast().Max.Len()
}

// LocalAABBFast returns a cheap local box containing the shape, centred on
// the origin: (a1·(1+|tx|), a2·(1+|ty|), a3) on each side, since a taper
// widens a section by at most 1+|t|. LocalAABB is tight but needs a search.
func (s *Superovoid) LocalAABBFast() AABB {
	h := Vec3{s.A[0] * (1 + math.Abs(s.Taper[0])), s.A[1] * (1 + math.Abs(s.Taper[1])), s.A[2]}
	return AABB{Min: h.Mul(-1), Max: h}
}
