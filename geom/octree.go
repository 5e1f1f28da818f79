package geom

import (
	"iter"
	"math"
)

// CellClass says how an octree cell relates to the body.
type CellClass uint8

// Cell classes. Classification is conservative: a cell that contains a
// surface point is always Boundary.
const (
	Outside  CellClass = iota // no point of the closed cell is in the body
	Boundary                  // may contain surface points
	Inside                    // every point of the closed cell is strictly inside
)

// String returns "outside", "boundary" or "inside".
func (c CellClass) String() string {
	switch c {
	case Outside:
		return "outside"
	case Boundary:
		return "boundary"
	case Inside:
		return "inside"
	}
	return "CellClass(?)"
}

// OctNode is one cell of an Octree, in the shape's local frame.
type OctNode struct {
	Box   AABB
	Class CellClass
	Level uint8
	Child int32 // index of the first of 8 consecutive children; −1 for a leaf
}

// IsLeaf reports whether the node has no children.
func (n *OctNode) IsLeaf() bool { return n.Child < 0 }

// Octree is the implicit octree of one shape: the root is the shape's
// local box, only Boundary cells are subdivided, down to Depth. Nodes[0] is
// the root; the children of a node are stored consecutively, children
// always after their parent (breadth-first). The contact solver's octree
// guess and the tessellate package's drawable boxes both use it.
type Octree struct {
	Nodes []OctNode
	Depth int
}

// MaxOctreeDepth bounds Build's depth: the number of boundary cells grows
// about fourfold per level.
const MaxOctreeDepth = 10

// Build rebuilds the octree of s to depth levels below the root (clamped
// to [0, MaxOctreeDepth]), reusing the storage of o.Nodes: rebuilding at
// the same size allocates nothing.
func (o *Octree) Build(s *Superovoid, depth int) {
	depth = max(0, min(depth, MaxOctreeDepth))
	o.Depth = depth
	o.Nodes = o.Nodes[:0]
	root := s.LocalAABB()
	// Pad so that rounding in the extent search can never cut the surface.
	root = root.Expand(1e-6 * math.Max(s.A[0], math.Max(s.A[1], s.A[2])))
	o.Nodes = append(o.Nodes, OctNode{Box: root, Class: s.ClassifyBox(root), Child: -1})
	for i := 0; i < len(o.Nodes); i++ {
		nd := o.Nodes[i]
		if nd.Class != Boundary || int(nd.Level) >= depth {
			continue
		}
		o.Nodes[i].Child = int32(len(o.Nodes))
		c := nd.Box.Center()
		for k := 0; k < 8; k++ {
			b := nd.Box
			for ax := 0; ax < 3; ax++ {
				if k&(1<<ax) != 0 {
					b.Min[ax] = c[ax]
				} else {
					b.Max[ax] = c[ax]
				}
			}
			o.Nodes = append(o.Nodes, OctNode{Box: b, Class: s.ClassifyBox(b), Level: nd.Level + 1, Child: -1})
		}
	}
}

// Leaves iterates over the indices of the leaves of the given class.
func (o *Octree) Leaves(class CellClass) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range o.Nodes {
			if o.Nodes[i].Child < 0 && o.Nodes[i].Class == class {
				if !yield(i) {
					return
				}
			}
		}
	}
}

// AppendLeaves appends the indices of the leaves of the given class to dst
// and returns it (no allocation when dst has room).
func (o *Octree) AppendLeaves(dst []int32, class CellClass) []int32 {
	for i := range o.Nodes {
		if o.Nodes[i].Child < 0 && o.Nodes[i].Class == class {
			dst = append(dst, int32(i))
		}
	}
	return dst
}

// ClassifyBox classifies a local box against the body, conservatively.
// The body is a stack of sections: at height w = z/a3 the section is the
// superellipse ‖(x/(a1·cx), y/(a2·cy))‖_p <= r(w), p = 2/e1, symmetric in x
// and y and shrinking towards the origin, so a box column meets a section
// exactly when its xy point nearest the axis does, and lies inside it
// exactly when its farthest corner does. Over the box's height range, cx,
// cy (linear in w) and r (increasing towards w = 0) are bounded by their
// values at the ends and at 0; using the bounds that favour the other
// answer makes both tests sufficient conditions, so a box is called Inside
// or Outside only when that holds for every point of it.
func (s *Superovoid) ClassifyBox(b AABB) CellClass {
	a3 := s.A[2]
	w0, w1 := b.Min[2]/a3, b.Max[2]/a3
	if w1 < -1 || w0 > 1 || !(w0 <= w1) {
		return Outside
	}
	wl, wh := math.Max(w0, -1), math.Min(w1, 1)
	tx, ty := s.Taper[0], s.Taper[1]
	cxl, cxh := 1+tx*wl, 1+tx*wh
	cyl, cyh := 1+ty*wl, 1+ty*wh
	cxmin, cxmax := math.Min(cxl, cxh), math.Max(cxl, cxh)
	cymin, cymax := math.Min(cyl, cyh), math.Max(cyl, cyh)
	e2 := s.Eps[1]
	rl, rh := profileR(wl, e2), profileR(wh, e2)
	rmin := math.Min(rl, rh)
	rmax := math.Max(rl, rh)
	if wl <= 0 && wh >= 0 {
		rmax = 1
	}
	p := 2 / s.Eps[0]
	// nearest and farthest |x|, |y| of the box
	xn, xf := nearFar(b.Min[0], b.Max[0])
	yn, yf := nearFar(b.Min[1], b.Max[1])
	// Rounding margin: the norms below are accurate to a few ulps.
	const margin = 1e-12
	near := pnorm(xn/(s.A[0]*cxmax), yn/(s.A[1]*cymax), p)
	if near > rmax*(1+margin)+margin*1e-3 {
		return Outside
	}
	if w0 > -1 && w1 < 1 {
		far := pnorm(xf/(s.A[0]*cxmin), yf/(s.A[1]*cymin), p)
		if far < rmin*(1-margin) {
			return Inside
		}
	}
	return Boundary
}

// nearFar returns the smallest and largest |v| over v in [lo, hi].
func nearFar(lo, hi float64) (near, far float64) {
	far = math.Max(math.Abs(lo), math.Abs(hi))
	if lo <= 0 && hi >= 0 {
		return 0, far
	}
	return math.Min(math.Abs(lo), math.Abs(hi)), far
}

// pnorm returns (|u|^p + |v|^p)^(1/p) for u, v >= 0 without overflow.
func pnorm(u, v, p float64) float64 {
	m := math.Max(u, v)
	if m == 0 || math.IsInf(m, 0) {
		return m
	}
	a, b := u/m, v/m
	return m * math.Pow(math.Pow(a, p)+math.Pow(b, p), 1/p)
}
