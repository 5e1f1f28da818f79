package tessellate

import (
	"math"
	"math/rand"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// sweep returns shapes over the whole parameter range: the corners
// (e in {0.1, 1.9}, taper ±0.5, aspect 1:6) and seeded random shapes with
// a in [0.3, 2], e in [0.1, 1.9], taper in [-0.5, 0.5].
func sweep(nRandom int) []geom.Superovoid {
	out := []geom.Superovoid{
		geom.Sphere(1),
		{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.1, 0.1}},
		{A: [3]float64{1, 1, 1}, Eps: [2]float64{1.9, 1.9}},
		{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.1, 1.9}, Taper: [2]float64{0.5, 0.5}},
		{A: [3]float64{1, 1, 1}, Eps: [2]float64{1.9, 0.1}, Taper: [2]float64{-0.5, 0.5}},
		{A: [3]float64{0.3, 1.8, 1}, Eps: [2]float64{0.5, 1.2}, Taper: [2]float64{-0.5, 0.5}},
		{A: [3]float64{1.8, 0.3, 0.3}, Eps: [2]float64{0.1, 0.1}, Taper: [2]float64{0.5, -0.5}},
		{A: [3]float64{0.3, 0.3, 1.8}, Eps: [2]float64{1.9, 1.9}, Taper: [2]float64{0.5, 0.5}},
		{A: [3]float64{2, 2, 0.34}, Eps: [2]float64{0.1, 1}, Taper: [2]float64{-0.5, -0.5}},
	}
	rng := rand.New(rand.NewSource(7))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }
	for len(out) < 9+nRandom {
		s := geom.Superovoid{
			A:     [3]float64{u(0.3, 2), u(0.3, 2), u(0.3, 2)},
			Eps:   [2]float64{u(0.1, 1.9), u(0.1, 1.9)},
			Taper: [2]float64{u(-0.5, 0.5), u(-0.5, 0.5)},
		}
		amax := math.Max(s.A[0], math.Max(s.A[1], s.A[2]))
		amin := math.Min(s.A[0], math.Min(s.A[1], s.A[2]))
		if amax > 6*amin {
			continue
		}
		out = append(out, s)
	}
	return out
}

func maxAxis(s geom.Superovoid) float64 { return math.Max(s.A[0], math.Max(s.A[1], s.A[2])) }

// selfIntersections counts (edge, triangle) pairs where a mesh edge crosses a
// triangle that shares no vertex with it; two triangles in general position
// intersect exactly when an edge of one crosses the other.
func selfIntersections(m *Mesh) int {
	// Bucket triangles by the cells their bounding boxes touch.
	maxEdge := 0.0
	for t := 0; t < m.NumTriangles(); t++ {
		a, b, c := m.Triangle(t)
		maxEdge = math.Max(maxEdge, math.Max(b.Sub(a).Len(), math.Max(c.Sub(b).Len(), a.Sub(c).Len())))
	}
	cell := maxEdge
	type key [3]int
	k := func(p geom.Vec3) key {
		return key{int(math.Floor(p[0] / cell)), int(math.Floor(p[1] / cell)), int(math.Floor(p[2] / cell))}
	}
	grid := map[key][]int32{}
	for t := 0; t < m.NumTriangles(); t++ {
		a, b, c := m.Triangle(t)
		lo, hi := k(a), k(a)
		for _, p := range []geom.Vec3{b, c} {
			q := k(p)
			for i := 0; i < 3; i++ {
				lo[i] = min(lo[i], q[i])
				hi[i] = max(hi[i], q[i])
			}
		}
		for x := lo[0]; x <= hi[0]; x++ {
			for y := lo[1]; y <= hi[1]; y++ {
				for z := lo[2]; z <= hi[2]; z++ {
					grid[key{x, y, z}] = append(grid[key{x, y, z}], int32(t))
				}
			}
		}
	}
	hits := 0
	for t := 0; t < m.NumTriangles(); t++ {
		idx := m.Indices[3*t : 3*t+3]
		for e := 0; e < 3; e++ {
			ia, ib := idx[e], idx[(e+1)%3]
			if ia > ib {
				continue // each undirected edge once
			}
			p, q := m.Positions[ia], m.Positions[ib]
			seen := map[int32]bool{}
			for _, c := range []key{k(p), k(q)} {
				for _, u := range grid[c] {
					if seen[u] {
						continue
					}
					seen[u] = true
					j := m.Indices[3*u : 3*u+3]
					if j[0] == ia || j[1] == ia || j[2] == ia || j[0] == ib || j[1] == ib || j[2] == ib {
						continue
					}
					if segTri(p, q, m.Positions[j[0]], m.Positions[j[1]], m.Positions[j[2]]) {
						hits++
					}
				}
			}
		}
	}
	return hits
}

// segTri reports whether segment pq crosses triangle abc (Möller–Trumbore).
// A segment parallel to the triangle's plane to rounding crosses it only if
// it lies in that plane and passes through the triangle's interior (a
// strict test in the plane); for such segments the determinant is rounding
// noise and the general test would answer at random. Reflected quarters
// make exactly coplanar neighbours on flat faces.
func segTri(p, q, a, b, c geom.Vec3) bool {
	d := q.Sub(p)
	e1, e2 := b.Sub(a), c.Sub(a)
	h := d.Cross(e2)
	det := e1.Dot(h)
	if math.Abs(det) <= 1e-12*d.Len()*e1.Len()*e2.Len() {
		return coplanarSegTri(p, q, a, b, c)
	}
	f := 1 / det
	s := p.Sub(a)
	u := f * s.Dot(h)
	if u < 0 || u > 1 {
		return false
	}
	qq := s.Cross(e1)
	v := f * d.Dot(qq)
	if v < 0 || u+v > 1 {
		return false
	}
	t := f * e2.Dot(qq)
	return t >= 0 && t <= 1
}

// coplanarSegTri handles segTri's parallel case: false unless p and q lie
// in the plane of abc and the segment meets the open triangle.
func coplanarSegTri(p, q, a, b, c geom.Vec3) bool {
	n := b.Sub(a).Cross(c.Sub(a))
	nl := n.Len()
	if nl == 0 {
		return false
	}
	n = n.Mul(1 / nl)
	scale := math.Max(b.Sub(a).Len(), c.Sub(a).Len())
	if math.Abs(p.Sub(a).Dot(n)) > 1e-9*scale || math.Abs(q.Sub(a).Dot(n)) > 1e-9*scale {
		return false
	}
	// 2D coordinates in the plane.
	u := b.Sub(a).Normalize()
	v := n.Cross(u)
	to2 := func(x geom.Vec3) [2]float64 { r := x.Sub(a); return [2]float64{r.Dot(u), r.Dot(v)} }
	P, Q, A, B, C := to2(p), to2(q), to2(a), to2(b), to2(c)
	orient := func(o, s, t [2]float64) float64 { return (s[0]-o[0])*(t[1]-o[1]) - (s[1]-o[1])*(t[0]-o[0]) }
	eps := 1e-12 * scale * scale
	inside := func(x [2]float64) bool {
		return orient(A, B, x) > eps && orient(B, C, x) > eps && orient(C, A, x) > eps
	}
	if inside(P) || inside(Q) {
		return true
	}
	// Proper crossings of the triangle's edges.
	cross := func(s1, s2 [2]float64) bool {
		d1, d2 := orient(P, Q, s1), orient(P, Q, s2)
		d3, d4 := orient(s1, s2, P), orient(s1, s2, Q)
		return ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps)) && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
	}
	return cross(A, B) || cross(B, C) || cross(C, A)
}

// TestSegTri: crossings, misses, and the coplanar cases.
func TestSegTri(t *testing.T) {
	a, b, c := geom.Vec3{0, 0, 0}, geom.Vec3{1, 0, 0}, geom.Vec3{0, 1, 0}
	for _, k := range []struct {
		p, q geom.Vec3
		want bool
	}{
		{geom.Vec3{0.2, 0.2, -1}, geom.Vec3{0.2, 0.2, 1}, true},
		{geom.Vec3{0.8, 0.8, -1}, geom.Vec3{0.8, 0.8, 1}, false},
		{geom.Vec3{0.2, 0.2, 0.1}, geom.Vec3{0.2, 0.2, 1}, false},
		{geom.Vec3{-1, 0.2, 0}, geom.Vec3{1, 0.2, 0}, true},    // in the plane, across
		{geom.Vec3{0.1, 0.1, 0}, geom.Vec3{2, 2, 0}, true},     // in the plane, from inside
		{geom.Vec3{-1, -0.5, 0}, geom.Vec3{2, -0.5, 0}, false}, // in the plane, outside
		{geom.Vec3{0, -1, 0}, geom.Vec3{0, -0.1, 0}, false},    // on an edge's line, outside
		{geom.Vec3{-1, 0.2, 0.01}, geom.Vec3{1, 0.2, 0.01}, false},
	} {
		if got := segTri(k.p, k.q, a, b, c); got != k.want {
			t.Errorf("%v–%v: %v, want %v", k.p, k.q, got, k.want)
		}
	}
}
