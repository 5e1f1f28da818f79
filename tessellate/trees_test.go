package tessellate

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

func TestBoxEdges(t *testing.T) {
	b := geom.AABB{Min: geom.Vec3{-1, -2, -3}, Max: geom.Vec3{0.5, 1, 2}}
	ext := b.Max.Sub(b.Min)
	seen := map[[2]geom.Vec3]bool{}
	uses := map[geom.Vec3]int{}
	perAxis := [3]int{}
	for _, e := range BoxEdges(b) {
		d := e[1].Sub(e[0])
		axis := -1
		for k := 0; k < 3; k++ {
			if d[k] != 0 {
				if axis >= 0 {
					t.Fatalf("edge %v not axis-aligned", e)
				}
				axis = k
			}
		}
		if axis < 0 || d[axis] != ext[axis] {
			t.Fatalf("edge %v: want length %v along one axis", e, ext)
		}
		perAxis[axis]++
		if seen[e] || seen[[2]geom.Vec3{e[1], e[0]}] {
			t.Fatalf("edge %v twice", e)
		}
		seen[e] = true
		uses[e[0]]++
		uses[e[1]]++
	}
	if len(uses) != 8 || perAxis != [3]int{4, 4, 4} {
		t.Fatalf("%d corners, %v edges per axis", len(uses), perAxis)
	}
	for p, n := range uses {
		if n != 3 {
			t.Errorf("corner %v on %d edges", p, n)
		}
	}
}

// TestOctreeLines: the drawn boxes are exactly the leaves of geom's octree,
// per class; the boundary boxes cover the surface (every vertex of a fine
// grid mesh lies in one), inside boxes are inside; rebuilding allocates
// nothing.
func TestOctreeLines(t *testing.T) {
	var ol OctreeLines
	var o geom.Octree
	var g Grid
	for k, s := range sweep(4) {
		o.Build(&s, 4)
		ol.Build(&o)
		for c := geom.Outside; c <= geom.Inside; c++ {
			n := 0
			for range o.Leaves(c) {
				n++
			}
			if len(ol.Segments[c]) != 12*n {
				t.Fatalf("shape %d %v: %d segments for %d leaves", k, c, len(ol.Segments[c]), n)
			}
		}
		if len(ol.Segments[geom.Boundary]) == 0 {
			t.Fatalf("shape %d: no boundary boxes", k)
		}
		m, _ := g.Build(s, 48, 24)
		for i, p := range m.Positions {
			in := false
			for j := 0; j < len(ol.Segments[geom.Boundary]) && !in; j += 12 {
				// Edge 0 runs from the minimum corner; the opposite
				// corner ends the last edge.
				lo, hi := ol.Segments[geom.Boundary][j][0], ol.Segments[geom.Boundary][j+11][1]
				in = p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1] && p[2] >= lo[2] && p[2] <= hi[2]
			}
			if !in {
				t.Fatalf("shape %d: surface vertex %d %v in no boundary box", k, i, p)
			}
		}
		for _, e := range ol.Segments[geom.Inside] {
			if gv, ok := s.G(e[0]); !ok || gv >= 1 {
				t.Fatalf("shape %d: inside box corner %v has G = %v", k, e[0], gv)
			}
		}
	}
	// Only some classes.
	s := geom.Sphere(1)
	o.Build(&s, 3)
	ol.Build(&o, geom.Boundary)
	if len(ol.Segments[geom.Inside]) != 0 || len(ol.Segments[geom.Outside]) != 0 || len(ol.Segments[geom.Boundary]) == 0 {
		t.Errorf("class filter ignored: %d %d %d", len(ol.Segments[0]), len(ol.Segments[1]), len(ol.Segments[2]))
	}
	ol.Build(&o)
	if a := testing.AllocsPerRun(10, func() { o.Build(&s, 3); ol.Build(&o) }); a != 0 {
		t.Errorf("octree lines: %v allocations per rebuild", a)
	}
}

// TestCellCurves: curves lie on the surface, start at the cell's corner,
// follow its four edges, and a cell's children tile it (their corners lie
// on the parent's curve or inside it); rebuilding allocates nothing.
func TestCellCurves(t *testing.T) {
	var cc CellCurves
	for k, s := range sweep(4) {
		root := geom.RootParamCell()
		cells := []geom.ParamCell{root}
		for i := 0; i < 4; i++ {
			cells = append(cells, root.Child(i), root.Child(i).Child(3-i))
		}
		const n = 8
		cc.Build(&s, cells, n)
		if cc.Len() != len(cells) {
			t.Fatalf("%d curves for %d cells", cc.Len(), len(cells))
		}
		for i, c := range cells {
			pts := cc.Curve(i)
			if len(pts) != 4*n {
				t.Fatalf("curve %d: %d points", i, len(pts))
			}
			for j, p := range pts {
				if r, ok := s.Residual(p); !ok || math.Abs(r) > 1e-9 {
					t.Fatalf("shape %d curve %d point %d off the surface (%g)", k, i, j, r)
				}
			}
			corners := []geom.Vec3{s.Point(c.P1Min, c.P2Min), s.Point(c.P1Max, c.P2Min), s.Point(c.P1Max, c.P2Max), s.Point(c.P1Min, c.P2Max)}
			for q, want := range corners {
				if pts[q*n].Sub(want).Len() > 1e-12 {
					t.Fatalf("curve %d corner %d at %v, want %v", i, q, pts[q*n], want)
				}
			}
			// Edge midpoints are the surface points of the cell's edge midpoints.
			m1 := 0.5 * (c.P1Min + c.P1Max)
			if pts[n/2].Sub(s.Point(m1, c.P2Min)).Len() > 1e-12 {
				t.Fatalf("curve %d does not follow the edge p2 = P2Min", i)
			}
		}
		segs := cc.AppendSegments(nil)
		if len(segs) != 4*n*len(cells) {
			t.Fatalf("%d segments", len(segs))
		}
		if segs[4*n-1][1] != segs[0][0] {
			t.Fatal("curve 0 not closed")
		}
	}
	s := geom.Sphere(1)
	cells := []geom.ParamCell{geom.RootParamCell().Child(1)}
	cc.Build(&s, cells, 16)
	if a := testing.AllocsPerRun(10, func() { cc.Build(&s, cells, 16) }); a != 0 {
		t.Errorf("cell curves: %v allocations per rebuild", a)
	}
	if pts := AppendCellCurve(nil, &s, cells[0], 0); len(pts) != 4 {
		t.Errorf("n = 0: %d points, want the 4 corners", len(pts))
	}
}
