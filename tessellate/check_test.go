package tessellate

import (
	"math"
	"math/rand"

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
func segTri(p, q, a, b, c geom.Vec3) bool {
	d := q.Sub(p)
	e1, e2 := b.Sub(a), c.Sub(a)
	h := d.Cross(e2)
	det := e1.Dot(h)
	if math.Abs(det) < 1e-300 {
		return false
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
