package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// containingLeaves calls f for every leaf whose closed box contains x.
func containingLeaves(o *Octree, i int, x Vec3, f func(*OctNode)) {
	nd := &o.Nodes[i]
	b := nd.Box
	for ax := 0; ax < 3; ax++ {
		if x[ax] < b.Min[ax] || x[ax] > b.Max[ax] {
			return
		}
	}
	if nd.IsLeaf() {
		f(nd)
		return
	}
	for k := 0; k < 8; k++ {
		containingLeaves(o, int(nd.Child)+k, x, f)
	}
}

func randomInBox(r *rand.Rand, b AABB) Vec3 {
	var x Vec3
	for ax := 0; ax < 3; ax++ {
		x[ax] = b.Min[ax] + (b.Max[ax]-b.Min[ax])*r.Float64()
	}
	return x
}

func TestOctreeConservative(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	var o Octree
	nShapes := 60
	if testing.Short() {
		nShapes = 20
	}
	for i := 0; i < nShapes; i++ {
		s := randomShape(r)
		depth := 3 + i%4
		o.Build(&s, depth)
		// Structure: children consecutive, one level down, tiling the parent.
		for j := range o.Nodes {
			nd := &o.Nodes[j]
			if nd.IsLeaf() {
				if nd.Class == Boundary && int(nd.Level) != depth {
					t.Fatalf("boundary leaf at level %d < depth %d", nd.Level, depth)
				}
				continue
			}
			if nd.Class != Boundary || int(nd.Child) <= j {
				t.Fatalf("node %d (%v) has children at %d", j, nd.Class, nd.Child)
			}
			vol := 0.0
			for k := 0; k < 8; k++ {
				c := &o.Nodes[int(nd.Child)+k]
				if c.Level != nd.Level+1 {
					t.Fatalf("child level %d under level %d", c.Level, nd.Level)
				}
				d := c.Box.Max.Sub(c.Box.Min)
				vol += d[0] * d[1] * d[2]
				for ax := 0; ax < 3; ax++ {
					if c.Box.Min[ax] < nd.Box.Min[ax] || c.Box.Max[ax] > nd.Box.Max[ax] {
						t.Fatalf("child box %v outside parent %v", c.Box, nd.Box)
					}
				}
			}
			d := nd.Box.Max.Sub(nd.Box.Min)
			if math.Abs(vol-d[0]*d[1]*d[2]) > 1e-12*vol {
				t.Fatalf("children do not tile the parent")
			}
		}
		// Every surface sample lies only in Boundary leaves (a grid, plus
		// random parameters, poles and equator included).
		check := func(x Vec3) {
			found := 0
			containingLeaves(&o, 0, x, func(nd *OctNode) {
				found++
				if nd.Class != Boundary {
					t.Fatalf("%+v depth %d: surface point %v in a %v leaf %v", s, depth, x, nd.Class, nd.Box)
				}
			})
			if found == 0 {
				t.Fatalf("%+v: surface point %v outside the root box %v", s, x, o.Nodes[0].Box)
			}
		}
		for a := 0; a < 128; a++ {
			for b := 0; b <= 64; b++ {
				check(s.Point(-math.Pi+2*math.Pi*float64(a)/128, -math.Pi/2+math.Pi*float64(b)/64))
			}
		}
		for k := 0; k < 4000; k++ {
			check(s.Point(-math.Pi+2*math.Pi*r.Float64(), -math.Pi/2+math.Pi*r.Float64()))
		}
		// Inside leaves are inside (corners and random points), Outside
		// leaves outside.
		inside, outside := 0, 0
		for j := range o.Nodes {
			nd := &o.Nodes[j]
			if !nd.IsLeaf() || nd.Class == Boundary {
				continue
			}
			var pts [12]Vec3
			for k := 0; k < 8; k++ {
				for ax := 0; ax < 3; ax++ {
					if k&(1<<ax) != 0 {
						pts[k][ax] = nd.Box.Max[ax]
					} else {
						pts[k][ax] = nd.Box.Min[ax]
					}
				}
			}
			for k := 8; k < 12; k++ {
				pts[k] = randomInBox(r, nd.Box)
			}
			for _, x := range pts {
				f, ok := s.Residual(x)
				if nd.Class == Inside && !(ok && f < 0) {
					t.Fatalf("%+v: point %v of an Inside leaf has F = %v", s, x, f)
				}
				if nd.Class == Outside && ok && f <= 0 {
					t.Fatalf("%+v: point %v of an Outside leaf has F = %v", s, x, f)
				}
			}
			if nd.Class == Inside {
				inside++
			} else {
				outside++
			}
		}
		if depth >= 4 && (inside == 0 || outside == 0) {
			t.Errorf("%+v depth %d: %d inside and %d outside leaves: classification too weak", s, depth, inside, outside)
		}
	}
}

// ClassifyBox on random boxes of every size: never Inside or Outside when a
// random surface point of the box exists (found by sampling the surface
// densely near the box).
func TestClassifyBoxRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	for i := 0; i < 300; i++ {
		s := randomShape(r)
		box := s.LocalAABB()
		for j := 0; j < 20; j++ {
			c := randomInBox(r, box.Expand(0.2))
			h := Vec3{r.Float64(), r.Float64(), r.Float64()}.Mul(0.3 * r.Float64())
			b := AABB{c.Sub(h), c.Add(h)}
			cl := s.ClassifyBox(b)
			if cl == Boundary {
				continue
			}
			for k := 0; k < 200; k++ {
				x := randomInBox(r, b)
				f, ok := s.Residual(x)
				if cl == Inside && !(ok && f < 0) || cl == Outside && ok && f <= 0 {
					t.Fatalf("%+v box %v is %v but F(%v) = %v", s, b, cl, x, f)
				}
			}
		}
	}
}

func TestOctreeRebuildAllocatesNothing(t *testing.T) {
	s := Superovoid{A: [3]float64{1, 0.7, 1.2}, Eps: [2]float64{0.6, 1.2}, Taper: [2]float64{0.3, -0.2}}
	var o Octree
	o.Build(&s, 5)
	n := len(o.Nodes)
	if a := testing.AllocsPerRun(5, func() { o.Build(&s, 5) }); a != 0 {
		t.Errorf("rebuild allocates %v times", a)
	}
	if len(o.Nodes) != n {
		t.Errorf("rebuild changed the tree: %d nodes, then %d", n, len(o.Nodes))
	}
	leaves := 0
	for range o.Leaves(Boundary) {
		leaves++
	}
	if got := len(o.AppendLeaves(nil, Boundary)); got != leaves || leaves == 0 {
		t.Errorf("Leaves gives %d boundary leaves, AppendLeaves %d", leaves, got)
	}
	if Outside.String() != "outside" || Boundary.String() != "boundary" || Inside.String() != "inside" {
		t.Error("CellClass names")
	}
}

func BenchmarkOctreeBuildDepth5(b *testing.B) {
	s := Superovoid{A: [3]float64{1, 0.7, 1.2}, Eps: [2]float64{0.6, 1.2}, Taper: [2]float64{0.3, -0.2}}
	var o Octree
	o.Build(&s, 5)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o.Build(&s, 5)
	}
	b.ReportMetric(float64(len(o.Nodes)), "nodes")
}
