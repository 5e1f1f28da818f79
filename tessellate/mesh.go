// Package tessellate turns superovoids into triangle meshes: an evenly
// sampled parametric grid (Grid) and a surface-following marching-triangles
// polygoniser of the implicit form (Marcher). Both write into buffers they
// own, so re-tessellating while a slider is dragged allocates nothing. The
// package also checks meshes (closed 2-manifold, Euler characteristic,
// triangle quality, deviation from the surface, volume), writes OBJ, binary
// STL and PLY, and turns the octree and the parameter quadtree of package
// geom into drawable lines.
//
// All geometry is float64 in the shape's local frame. The package is pure Go,
// keeps no global state and needs no display.
package tessellate

import (
	"fmt"
	"math"
	"sort"

	"github.com/sovviz/sovviz/geom"
)

// Mesh is an indexed triangle mesh in the shape's local frame. Triangles are
// counter-clockwise seen from outside; Normals are unit outward normals of
// the exact surface at each vertex (from the implicit gradient), not averages
// of face normals.
type Mesh struct {
	Positions []geom.Vec3
	Normals   []geom.Vec3
	Indices   []uint32 // three per triangle
}

// NumVertices returns the number of vertices.
func (m *Mesh) NumVertices() int { return len(m.Positions) }

// NumTriangles returns the number of triangles.
func (m *Mesh) NumTriangles() int { return len(m.Indices) / 3 }

// Reset empties the mesh and keeps its capacity for the next build.
func (m *Mesh) Reset() {
	m.Positions = m.Positions[:0]
	m.Normals = m.Normals[:0]
	m.Indices = m.Indices[:0]
}

// Clone returns a deep copy that shares no memory with m (a Grid or Marcher
// overwrites the mesh it returned on its next build).
func (m *Mesh) Clone() *Mesh {
	return &Mesh{
		Positions: append([]geom.Vec3(nil), m.Positions...),
		Normals:   append([]geom.Vec3(nil), m.Normals...),
		Indices:   append([]uint32(nil), m.Indices...),
	}
}

// Triangle returns the corners of triangle t.
func (m *Mesh) Triangle(t int) (a, b, c geom.Vec3) {
	i := m.Indices[3*t : 3*t+3]
	return m.Positions[i[0]], m.Positions[i[1]], m.Positions[i[2]]
}

// Topology is the result of Mesh.Topology.
type Topology struct {
	Vertices, Edges, Triangles int
	// BoundaryEdges are used by one triangle, NonManifoldEdges by more than
	// two, and FlippedEdges by two triangles that traverse them in the same
	// direction (inconsistent orientation).
	BoundaryEdges, NonManifoldEdges, FlippedEdges int
	// NonManifoldVertices have incident triangles that do not form one
	// closed fan (two cones touching at a vertex, for instance).
	NonManifoldVertices int
	// Degenerate triangles repeat a vertex index or index out of range;
	// Unused vertices belong to no triangle.
	Degenerate, Unused int
	// Components counts the edge-connected pieces.
	Components int
	// Euler is V − E + F (2 for a closed surface of genus 0).
	Euler int
}

// Closed reports a closed, consistently oriented, edge- and vertex-manifold
// mesh in one piece without degenerate triangles or unused vertices.
func (t Topology) Closed() bool {
	return t.BoundaryEdges == 0 && t.NonManifoldEdges == 0 && t.FlippedEdges == 0 &&
		t.NonManifoldVertices == 0 && t.Degenerate == 0 && t.Unused == 0 && t.Components == 1
}

// Sphere reports a closed mesh of genus 0 (Euler characteristic 2).
func (t Topology) Sphere() bool { return t.Closed() && t.Euler == 2 }

func (t Topology) String() string {
	return fmt.Sprintf("V=%d E=%d F=%d χ=%d boundary=%d non-manifold edges=%d flipped=%d non-manifold vertices=%d degenerate=%d unused=%d components=%d",
		t.Vertices, t.Edges, t.Triangles, t.Euler, t.BoundaryEdges, t.NonManifoldEdges, t.FlippedEdges,
		t.NonManifoldVertices, t.Degenerate, t.Unused, t.Components)
}

// Topology counts edges by use and checks every vertex fan. It allocates;
// it is a check, not a per-frame operation.
func (m *Mesh) Topology() Topology {
	nv := uint64(len(m.Positions))
	nt := m.NumTriangles()
	top := Topology{Vertices: int(nv), Triangles: nt}
	// Directed edges (a<<32 | b); an undirected edge is used once in each
	// direction on a closed, oriented manifold.
	dir := make([]uint64, 0, 3*nt)
	used := make([]bool, nv)
	parent := make([]int, nv)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	good := make([]bool, nt)
	for t := 0; t < nt; t++ {
		i := m.Indices[3*t : 3*t+3]
		if uint64(i[0]) >= nv || uint64(i[1]) >= nv || uint64(i[2]) >= nv || i[0] == i[1] || i[1] == i[2] || i[0] == i[2] {
			top.Degenerate++
			continue
		}
		good[t] = true
		for k := 0; k < 3; k++ {
			a, b := i[k], i[(k+1)%3]
			dir = append(dir, uint64(a)<<32|uint64(b))
			used[a] = true
			if ra, rb := find(int(a)), find(int(b)); ra != rb {
				parent[ra] = rb
			}
		}
	}
	sort.Slice(dir, func(i, j int) bool { return dir[i] < dir[j] })
	// Undirected counts: canonical key min<<32|max with per-direction counts.
	type cnt struct{ fwd, bwd int }
	und := make(map[uint64]cnt, len(dir)/2)
	for _, d := range dir {
		a, b := d>>32, d&0xffffffff
		if a < b {
			c := und[a<<32|b]
			c.fwd++
			und[a<<32|b] = c
		} else {
			c := und[b<<32|a]
			c.bwd++
			und[b<<32|a] = c
		}
	}
	top.Edges = len(und)
	for _, c := range und {
		switch n := c.fwd + c.bwd; {
		case n == 1:
			top.BoundaryEdges++
		case n > 2:
			top.NonManifoldEdges++
		case c.fwd != 1:
			top.FlippedEdges++
		}
	}
	for v := range used {
		if !used[v] {
			top.Unused++
		} else if find(v) == v {
			top.Components++
		}
	}
	top.Euler = top.Vertices - top.Edges + top.Triangles
	// Vertex fans: for triangle (v, b, c) the link edge b→c; the links of a
	// manifold vertex form one cycle.
	start := make([]int, nv+1)
	for t := 0; t < nt; t++ {
		if good[t] {
			for _, v := range m.Indices[3*t : 3*t+3] {
				start[v+1]++
			}
		}
	}
	for v := uint64(0); v < nv; v++ {
		start[v+1] += start[v]
	}
	fill := append([]int(nil), start[:nv]...)
	link := make([][2]uint32, start[nv])
	for t := 0; t < nt; t++ {
		if !good[t] {
			continue
		}
		i := m.Indices[3*t : 3*t+3]
		for k := 0; k < 3; k++ {
			v := i[k]
			link[fill[v]] = [2]uint32{i[(k+1)%3], i[(k+2)%3]}
			fill[v]++
		}
	}
	for v := uint64(0); v < nv; v++ {
		l := link[start[v]:start[v+1]]
		if len(l) == 0 {
			continue
		}
		// Follow b→c from the first link edge; a single cycle visits all.
		steps, cur := 0, l[0][1]
		for steps < len(l) {
			found := -1
			for j, e := range l {
				if e[0] == cur {
					if found >= 0 {
						found = -2 // two outgoing: a pinched fan
						break
					}
					found = j
				}
			}
			if found < 0 {
				break
			}
			cur = l[found][1]
			steps++
			if cur == l[0][1] {
				break
			}
		}
		if steps != len(l) || cur != l[0][1] {
			top.NonManifoldVertices++
		}
	}
	return top
}

// AngleStats summarises the smallest interior angle of every triangle.
type AngleStats struct {
	Min, Mean, Median float64 // degrees
	// Above30 is the fraction of triangles whose smallest angle is ≥ 30°.
	Above30 float64
	// Histogram counts triangles by smallest angle in 10° bins [0,10), …,
	// [50,60]; an equilateral triangle falls in the last.
	Histogram [6]int
}

func (a AngleStats) String() string {
	return fmt.Sprintf("min angle %.2f°, mean %.2f°, median %.2f°, %.1f%% ≥ 30°; histogram (10° bins) %v",
		a.Min, a.Mean, a.Median, 100*a.Above30, a.Histogram)
}

// MinAngle returns the smallest interior angle of triangle t in radians.
func (m *Mesh) MinAngle(t int) float64 {
	a, b, c := m.Triangle(t)
	return minAngle(a, b, c)
}

func minAngle(a, b, c geom.Vec3) float64 {
	ab, bc, ca := b.Sub(a), c.Sub(b), a.Sub(c)
	ang := func(u, v geom.Vec3) float64 { // angle between u and v
		return math.Atan2(u.Cross(v).Len(), u.Dot(v))
	}
	return math.Min(ang(ab, ca.Mul(-1)), math.Min(ang(bc, ab.Mul(-1)), ang(ca, bc.Mul(-1))))
}

// Angles returns the minimum-angle statistics of all triangles.
func (m *Mesh) Angles() AngleStats {
	nt := m.NumTriangles()
	var st AngleStats
	if nt == 0 {
		return st
	}
	mins := make([]float64, nt)
	st.Min = 180
	above := 0
	sum := 0.0
	for t := 0; t < nt; t++ {
		d := m.MinAngle(t) * 180 / math.Pi
		mins[t] = d
		sum += d
		st.Min = math.Min(st.Min, d)
		if d >= 30 {
			above++
		}
		bin := int(d / 10)
		if bin > 5 {
			bin = 5
		}
		if bin < 0 {
			bin = 0
		}
		st.Histogram[bin]++
	}
	sort.Float64s(mins)
	st.Mean = sum / float64(nt)
	st.Median = mins[nt/2]
	st.Above30 = float64(above) / float64(nt)
	return st
}

// Deviation measures how far a mesh lies from the surface of s.
type Deviation struct {
	// VertexResidual is the largest |G^(e2/2) − 1| over the vertices.
	VertexResidual float64
	// Distance is the largest distance from a triangle centroid or edge
	// midpoint to the surface point it projects onto (Newton along the
	// gradient): the chordal error, an upper bound of the true distance of
	// those samples.
	Distance float64
	// NormalAngle is the largest angle in radians between a stored normal
	// and the normalised gradient at its vertex.
	NormalAngle float64
}

// Deviation evaluates the mesh against the shape it was built from.
func (m *Mesh) Deviation(s *geom.Superovoid) Deviation {
	var d Deviation
	for i, p := range m.Positions {
		r, ok := s.ResidualHessian(p, false)
		if !ok {
			d.VertexResidual = math.Inf(1)
			continue
		}
		d.VertexResidual = math.Max(d.VertexResidual, math.Abs(r.G))
		if i < len(m.Normals) {
			g := r.Grad.Normalize()
			n := m.Normals[i]
			d.NormalAngle = math.Max(d.NormalAngle, math.Atan2(g.Cross(n).Len(), g.Dot(n)))
		}
	}
	reach := 2 * s.BoundingRadius()
	dist := func(p geom.Vec3) float64 {
		q, _, ok, _ := projectPoint(s, p, reach)
		if !ok {
			return math.Inf(1)
		}
		return q.Sub(p).Len()
	}
	for t := 0; t < m.NumTriangles(); t++ {
		a, b, c := m.Triangle(t)
		d.Distance = math.Max(d.Distance, dist(a.Add(b).Add(c).Mul(1.0/3)))
		// Each edge belongs to two triangles: its midpoint once.
		i := m.Indices[3*t : 3*t+3]
		for k := 0; k < 3; k++ {
			if i[k] < i[(k+1)%3] {
				d.Distance = math.Max(d.Distance, dist(m.Positions[i[k]].Add(m.Positions[i[(k+1)%3]]).Mul(0.5)))
			}
		}
	}
	return d
}

// Volume returns the enclosed volume (divergence theorem); positive for a
// closed mesh with outward orientation.
func (m *Mesh) Volume() float64 {
	v := 0.0
	for t := 0; t < m.NumTriangles(); t++ {
		a, b, c := m.Triangle(t)
		v += a.Dot(b.Cross(c))
	}
	return v / 6
}

// Area returns the total surface area.
func (m *Mesh) Area() float64 {
	s := 0.0
	for t := 0; t < m.NumTriangles(); t++ {
		a, b, c := m.Triangle(t)
		s += b.Sub(a).Cross(c.Sub(a)).Len()
	}
	return s / 2
}

// FacesAgreeWithNormals returns the number of triangles whose face normal
// points against the mean of their vertex normals: a folded or inverted
// triangle on a closed surface.
func (m *Mesh) FacesAgreeWithNormals() (flipped int) {
	for t := 0; t < m.NumTriangles(); t++ {
		i := m.Indices[3*t : 3*t+3]
		a, b, c := m.Positions[i[0]], m.Positions[i[1]], m.Positions[i[2]]
		f := b.Sub(a).Cross(c.Sub(a))
		n := m.Normals[i[0]].Add(m.Normals[i[1]]).Add(m.Normals[i[2]])
		if f.Dot(n) <= 0 {
			flipped++
		}
	}
	return flipped
}
