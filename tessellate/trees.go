package tessellate

import (
	"github.com/sovviz/sovviz/geom"
)

// Drawable geometry of the two trees of package geom, which are the one
// source of truth shared with the contact solver: the octree of a body
// (geom.Octree: boxes classified inside, outside or on the boundary) and the
// cells of the parameter quadtree (geom.ParamCell) mapped onto the surface.
// Nothing here builds or classifies a tree; it only turns them into lines.

// Segment is a line segment in the shape's local frame.
type Segment [2]geom.Vec3

// BoxEdges returns the 12 edges of an axis-aligned box, each once: corner i
// has bit k set where it takes the maximum along axis k, and the edges join
// corners that differ in one bit.
func BoxEdges(b geom.AABB) [12]Segment {
	var corner [8]geom.Vec3
	for i := range corner {
		p := b.Min
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				p[k] = b.Max[k]
			}
		}
		corner[i] = p
	}
	var e [12]Segment
	n := 0
	for i := range corner {
		for k := 0; k < 3; k++ {
			if j := i | 1<<k; j != i {
				e[n] = Segment{corner[i], corner[j]}
				n++
			}
		}
	}
	return e
}

// AppendBoxEdges appends the 12 edges of b to dst.
func AppendBoxEdges(dst []Segment, b geom.AABB) []Segment {
	e := BoxEdges(b)
	return append(dst, e[:]...)
}

// OctreeLines holds the leaf boxes of an octree as line segments, one list
// per cell class (indexed by geom.CellClass: Outside, Boundary, Inside), in
// the shape's local frame. Build reuses the storage: rebuilding for a tree
// of the same size allocates nothing.
type OctreeLines struct {
	Segments [3][]Segment
	leaves   []int32
}

// Build fills the lists from the leaves of o. Boxes of the classes not in
// classes are skipped (an empty classes means all three).
func (ol *OctreeLines) Build(o *geom.Octree, classes ...geom.CellClass) {
	for c := range ol.Segments {
		ol.Segments[c] = ol.Segments[c][:0]
	}
	for c := geom.Outside; c <= geom.Inside; c++ {
		want := len(classes) == 0
		for _, k := range classes {
			want = want || k == c
		}
		if !want {
			continue
		}
		ol.leaves = o.AppendLeaves(ol.leaves[:0], c)
		for _, i := range ol.leaves {
			ol.Segments[c] = AppendBoxEdges(ol.Segments[c], o.Nodes[i].Box)
		}
	}
}

// AppendCellCurve appends the boundary of parameter cell c mapped onto the
// surface of s: n samples along each of the four cell edges (p1 rising at
// P2Min, p2 rising at P1Max, p1 falling at P2Max, p2 falling at P1Min),
// 4·n points of a closed curve whose last point joins the first. n < 1 is
// taken as 1 (the four corners). A cell edge on a pole (p2 = ±π/2)
// degenerates to one repeated point, as the parametrisation does.
func AppendCellCurve(dst []geom.Vec3, s *geom.Superovoid, c geom.ParamCell, n int) []geom.Vec3 {
	n = max(n, 1)
	inv := 1 / float64(n)
	lerp := func(a, b float64, k int) float64 { return a + (b-a)*float64(k)*inv }
	for k := 0; k < n; k++ {
		dst = append(dst, s.Point(lerp(c.P1Min, c.P1Max, k), c.P2Min))
	}
	for k := 0; k < n; k++ {
		dst = append(dst, s.Point(c.P1Max, lerp(c.P2Min, c.P2Max, k)))
	}
	for k := 0; k < n; k++ {
		dst = append(dst, s.Point(lerp(c.P1Max, c.P1Min, k), c.P2Max))
	}
	for k := 0; k < n; k++ {
		dst = append(dst, s.Point(c.P1Min, lerp(c.P2Max, c.P2Min, k)))
	}
	return dst
}

// CellCurves holds parameter cells mapped onto a surface as closed curves
// in the shape's local frame: curve i is Points[Starts[i]:Starts[i+1]], and
// its last point joins its first. Build reuses the storage.
type CellCurves struct {
	Points []geom.Vec3
	Starts []int32
}

// Len returns the number of curves.
func (cc *CellCurves) Len() int { return max(len(cc.Starts)-1, 0) }

// Curve returns the points of curve i.
func (cc *CellCurves) Curve(i int) []geom.Vec3 { return cc.Points[cc.Starts[i]:cc.Starts[i+1]] }

// Build maps cells onto s with n samples per cell edge (see
// AppendCellCurve).
func (cc *CellCurves) Build(s *geom.Superovoid, cells []geom.ParamCell, n int) {
	cc.Points = cc.Points[:0]
	cc.Starts = append(cc.Starts[:0], 0)
	for _, c := range cells {
		cc.Points = AppendCellCurve(cc.Points, s, c, n)
		cc.Starts = append(cc.Starts, int32(len(cc.Points)))
	}
}

// AppendSegments appends the curves as line segments (each closed) to dst,
// for line renderers.
func (cc *CellCurves) AppendSegments(dst []Segment) []Segment {
	for i := 0; i < cc.Len(); i++ {
		c := cc.Curve(i)
		for k := range c {
			dst = append(dst, Segment{c[k], c[(k+1)%len(c)]})
		}
	}
	return dst
}
