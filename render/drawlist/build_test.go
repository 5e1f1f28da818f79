package drawlist

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

func testMesh() *Mesh {
	return &Mesh{Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, Normals: []geom.Vec3{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}}, Indices: []uint32{0, 1, 2}}
}

func body(x, y, z float64, s geom.Superovoid) geom.Body {
	return geom.Body{Shape: s, Pose: geom.Pose{Position: geom.Vec3{x, y, z}, Orientation: geom.Quat{W: 1}}}
}

func testFrame(guess contact.Guess, objs ...geom.Body) (*Frame, *Camera) {
	cam := DefaultCamera()
	f := &Frame{Overlays: DefaultOverlays(), Camera: &cam}
	f.Overlays.Tangents = true
	for i, b := range objs {
		f.Objects = append(f.Objects, Object{Name: string(rune('a' + i)), Body: b, Mesh: testMesh(), Color: Color{0.7, 0.7, 0.7, 1}})
	}
	opt := contact.DefaultOptions()
	opt.Guess = guess
	w := contact.NewWorld(opt, 10)
	bodies := make([]geom.Body, len(objs))
	copy(bodies, objs)
	f.Pairs = append(f.Pairs, w.Update(bodies)...)
	c, r := SceneSphere(f.Objects)
	cam.Frame(c, r)
	return f, &cam
}

func countColor(d *DrawList, c Color) (lines, points int) {
	for _, l := range d.Lines {
		if l.Color == c {
			lines++
		}
	}
	for _, p := range d.Points {
		if p.Color == c {
			points++
		}
	}
	return
}

// The overlays of a pair sit where the contact result says, with the
// documented colours, and the witness points lie on the two surfaces
// (checked with the implicit function, independent of the solver's output).
func TestBuildPairOverlays(t *testing.T) {
	sA := geom.Superovoid{A: [3]float64{1, 0.7, 0.5}, Eps: [2]float64{0.6, 0.9}, Taper: [2]float64{0.2, -0.1}}
	sB := geom.Superovoid{A: [3]float64{0.5, 0.8, 0.6}, Eps: [2]float64{1.2, 0.5}}
	for _, tc := range []struct {
		name    string
		dx      float64
		overlap bool
	}{{"separated", 3, false}, {"overlapping", 1.2, true}} {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := testFrame(contact.Quadtree, body(0, 0, 0, sA), body(tc.dx, 0.2, 0.1, sB))
			if len(f.Pairs) != 1 || f.Pairs[0].Result.Status != contact.Converged {
				t.Fatalf("pairs %+v", f.Pairs)
			}
			r := &f.Pairs[0].Result
			if (r.Distance < 0) != tc.overlap {
				t.Fatalf("distance %g, want overlap=%v", r.Distance, tc.overlap)
			}
			var d DrawList
			Build(&d, f)
			// Witness points.
			var gotP, gotQ bool
			for _, p := range d.Points {
				if p.Color == WitnessPColor && p.P == r.P && p.OnTop {
					gotP = true
				}
				if p.Color == WitnessQColor && p.P == r.Q && p.OnTop {
					gotQ = true
				}
			}
			if !gotP || !gotQ {
				t.Fatalf("witness points missing: %v %v", gotP, gotQ)
			}
			for i, w := range []geom.Vec3{r.P, r.Q} {
				b := &f.Objects[i].Body
				res, ok := b.Shape.Residual(b.Pose.ToLocal(w))
				if !ok || math.Abs(res) > 1e-6 {
					t.Errorf("witness %d at %v is off its surface: residual %g", i, w, res)
				}
			}
			seg := SeparatedColor
			if tc.overlap {
				seg = OverlapColor
			}
			if n, _ := countColor(&d, seg); n != 1 {
				t.Errorf("want one segment in the %v colour, got %d", tc.name, n)
			}
			if n, _ := countColor(&d, NormalColor); n != 2 {
				t.Errorf("want 2 normals, got %d", n)
			}
			if n, _ := countColor(&d, TangentColor); n != 2 {
				t.Errorf("want 2 tangents, got %d", n)
			}
			// Normals start at the witness points and point along the
			// surface gradient there.
			for _, l := range d.Lines {
				if l.Color != NormalColor {
					continue
				}
				i := 0
				if l.A == r.Q {
					i = 1
				} else if l.A != r.P {
					t.Fatalf("normal starts at %v, not at a witness point", l.A)
				}
				b := &f.Objects[i].Body
				n, _ := b.Shape.Normal(b.Pose.ToLocal(l.A))
				tr := b.Pose.Transform()
				if c := tr.Dir(n).Dot(l.B.Sub(l.A).Normalize()); c < 1-1e-6 {
					t.Errorf("normal %d off the gradient: cos %g", i, c)
				}
			}
			// Seeds: one point per level and shape, yellow to red.
			levels := r.QuadLevels
			if levels == 0 {
				t.Fatalf("quadtree guess gave no seeds")
			}
			for k := 0; k < levels; k++ {
				if _, n := countColor(&d, SeedColor(k, levels)); n != 2 {
					t.Errorf("level %d: %d seed points, want 2", k, n)
				}
				// Cell outlines: a closed curve of 4 edges per shape, on
				// the surface, around the cell centre's point.
				if n, _ := countColor(&d, SeedColor(k, levels)); n != 2*4*SeedCurveSamples(k) {
					t.Errorf("level %d: %d outline segments, want %d", k, n, 2*4*SeedCurveSamples(k))
				}
			}
			for _, l := range d.Lines {
				for k := 0; k < levels; k++ {
					if l.Color != SeedColor(k, levels) {
						continue
					}
					on := false
					for i := range f.Objects {
						b := &f.Objects[i].Body
						ra, oka := b.Shape.Residual(b.Pose.ToLocal(l.A))
						rb, okb := b.Shape.Residual(b.Pose.ToLocal(l.B))
						on = on || (oka && okb && math.Abs(ra) < 1e-9 && math.Abs(rb) < 1e-9)
					}
					if !on {
						t.Fatalf("seed outline segment %v-%v is not on a surface", l.A, l.B)
					}
				}
			}
			// Outlines only for the frame's SeedPair; the dots stay.
			f.SeedPair = -1
			var d2 DrawList
			Build(&d2, f)
			for k := 0; k < levels; k++ {
				if l, p := countColor(&d2, SeedColor(k, levels)); l != 0 || p != 2 {
					t.Errorf("SeedPair -1, level %d: %d outline segments, %d points; want 0, 2", k, l, p)
				}
			}
			f.SeedPair = 0
			if len(d.Labels) != 1 {
				t.Fatalf("labels: %d", len(d.Labels))
			}
			txt := d.Text(0)
			want := "d = "
			if tc.overlap {
				want = "overlap "
			}
			if !strings.HasPrefix(txt, want) {
				t.Errorf("label %q, want prefix %q", txt, want)
			}
			if !r.Certified && !strings.Contains(txt, "not certified") {
				t.Errorf("uncertified pair labelled %q", txt)
			}
			if r.Certified && strings.Contains(txt, "not certified") {
				t.Errorf("certified pair labelled %q", txt)
			}
			if strings.Contains(txt, "too shallow") {
				t.Errorf("pair labelled %q, but its answer is not known too shallow", txt)
			}
			// An answer that says it is too shallow (a move-out check's
			// verdict, contact.Result.StillOverlapping) is labelled so.
			f.Pairs[0].Result.StillOverlapping = 0.01
			var d3 DrawList
			Build(&d3, f)
			if txt := d3.Text(0); !strings.Contains(txt, "(too shallow)") {
				t.Errorf("answer known too shallow labelled %q", txt)
			}
			f.Pairs[0].Result.StillOverlapping = 0
			// Switching every overlay off leaves only the meshes.
			f.Overlays = Overlays{}
			Build(&d, f)
			if len(d.Lines)+len(d.Points)+len(d.Labels) != 0 || len(d.Meshes) != 2 {
				t.Errorf("overlays off: %d lines, %d points, %d labels, %d meshes", len(d.Lines), len(d.Points), len(d.Labels), len(d.Meshes))
			}
		})
	}
}

func TestBuildOctreeBoxes(t *testing.T) {
	a := body(0, 0, 0, geom.Sphere(1))
	a.Pose.Orientation = geom.Quat{W: 0.9, V: geom.Vec3{0.1, -0.3, 0.2}}.Normalize()
	f, _ := testFrame(contact.Support, a, body(2.5, 0.3, 0, geom.Ellipsoid(0.5, 0.7, 0.9)))
	// The leaf boxes as the octree guess reports them (local frames); set
	// here so that the test does not depend on which guess the solver used.
	r := &f.Pairs[0].Result
	r.UsedGuess = contact.Octree
	r.OctCellA = geom.AABB{Min: geom.Vec3{0.5, -0.25, 0}, Max: geom.Vec3{1, 0.25, 0.25}}
	r.OctCellB = geom.AABB{Min: geom.Vec3{-0.5, 0, 0}, Max: geom.Vec3{-0.25, 0.25, 0.25}}
	var d DrawList
	Build(&d, f)
	if n, _ := countColor(&d, OctreeColor); n != 24 {
		t.Fatalf("octree boxes: %d edges, want 24", n)
	}
	// The first 12 edges are a's leaf box: in a's frame every end point is a
	// corner of OctCellA.
	ta := f.Objects[0].Body.Pose.Transform()
	k := 0
	for _, l := range d.Lines {
		if l.Color != OctreeColor || k >= 12 {
			continue
		}
		k++
		for _, p := range []geom.Vec3{ta.InvPoint(l.A), ta.InvPoint(l.B)} {
			for c := range 3 {
				if math.Abs(p[c]-r.OctCellA.Min[c]) > 1e-12 && math.Abs(p[c]-r.OctCellA.Max[c]) > 1e-12 {
					t.Fatalf("edge end %v is not a corner of %+v", p, r.OctCellA)
				}
			}
		}
	}
}

// Non-convex objects carry a marker and a label; uncertified pairs say so.
func TestBuildNonConvexMarker(t *testing.T) {
	f, _ := testFrame(contact.Support, body(0, 0, 0, geom.Sphere(1)), body(3, 0, 0, geom.Sphere(1)))
	f.Objects[1].NonConvex = true
	f.Objects[1].HullGap = 1.5e-3
	var d DrawList
	Build(&d, f)
	found := false
	for i := range d.Labels {
		if strings.HasPrefix(d.Text(i), "non-convex (hull gap 0.0015)") && d.Labels[i].Color == NonConvexColor {
			found = true
			// Centred over the sphere (centre (3, 0, 0), radius 1), just
			// above its top.
			if p := d.Labels[i].P; math.Abs(p[0]-3) > 1e-9 || math.Abs(p[1]) > 1e-9 || p[2] < 1 || p[2] > 1.2 {
				t.Errorf("non-convex label at %v, want just above (3, 0, 1)", p)
			}
		}
	}
	if !found || !d.Meshes[1].NonConvex {
		t.Errorf("non-convex marker missing")
	}
}

// The marker sits just above a long, tilted body: centred over its world
// box and a little above its highest point (which the box of a turned body
// overshoots), not a bounding radius above the centre.
func TestNonConvexAnchorOnTop(t *testing.T) {
	s := geom.Superovoid{A: geom.Vec3{3, 0.5, 0.5}, Eps: [2]float64{0.5, 0.5}}
	b := geom.Body{Shape: s, Pose: geom.Pose{Position: geom.Vec3{1, 2, 3}, Orientation: geom.Quat{W: math.Cos(0.15), V: geom.Vec3{0, math.Sin(0.15), 0}}}}
	box := b.WorldAABB()
	p := NonConvexAnchor(&b)
	h := box.Max[2] - box.Min[2]
	// The highest point, densely sampled on the surface.
	top, tr := math.Inf(-1), b.Pose.Transform()
	for i := 0; i <= 400; i++ {
		for j := 0; j <= 200; j++ {
			x := tr.Point(s.Point(-math.Pi+2*math.Pi*float64(i)/400, -math.Pi/2+math.Pi*float64(j)/200))
			top = math.Max(top, x[2])
		}
	}
	if math.Abs(p[0]-1) > 1e-9 || math.Abs(p[1]-2) > 1e-9 || p[2] <= top || p[2] > top+0.1*h || p[2] > box.Max[2]+0.1*h {
		t.Errorf("anchor %v, highest point %g, box %v", p, top, box)
	}
	if r := s.BoundingRadiusFast(); p[2] >= 3+0.5*r {
		t.Errorf("anchor %v far above the body (bounding radius %g)", p, r)
	}
}

// Opaque meshes come first, then transparent ones from far to near.
func TestMeshOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	cam := DefaultCamera()
	f := &Frame{Camera: &cam}
	for i := 0; i < 40; i++ {
		a := float32(1)
		if rng.IntN(2) == 0 {
			a = 0.5
		}
		f.Objects = append(f.Objects, Object{Body: body(rng.Float64()*10-5, rng.Float64()*10-5, rng.Float64()*10-5, geom.Sphere(0.3)), Mesh: testMesh(), Color: Color{1, 1, 1, a}})
	}
	var d DrawList
	Build(&d, f)
	if len(d.Meshes) != 40 {
		t.Fatalf("%d meshes", len(d.Meshes))
	}
	eye := cam.Eye()
	_, _, back := cam.Basis()
	seenTransparent := false
	last := math.Inf(1)
	for _, m := range d.Meshes {
		p := f.Objects[m.Object].Body.Pose.Position
		depth := eye.Sub(p).Dot(back) // independent of the view matrix
		if math.Abs(depth-m.Depth) > 1e-9 {
			t.Fatalf("depth %g, want %g", m.Depth, depth)
		}
		if m.Color[3] < 1 {
			seenTransparent = true
			if depth > last {
				t.Fatalf("transparent meshes not back to front")
			}
			last = depth
		} else if seenTransparent {
			t.Fatalf("opaque mesh after a transparent one")
		}
	}
}

// Building a steady frame allocates nothing once the list has grown.
func TestBuildAllocatesNothing(t *testing.T) {
	f, _ := testFrame(contact.Quadtree, body(0, 0, 0, geom.Sphere(1)), body(2.5, 0, 0, geom.Ellipsoid(0.5, 0.7, 0.9)), body(0, 2.5, 0, geom.Sphere(0.8)))
	f.Objects[2].NonConvex = true
	var d DrawList
	Build(&d, f)
	if n := testing.AllocsPerRun(50, func() { Build(&d, f) }); n != 0 {
		t.Errorf("Build allocates %v times per frame", n)
	}
}

func TestViewCubePick(t *testing.T) {
	// In an axis view the face of that view covers the widget's centre.
	for v := Front; v <= Bottom; v++ {
		c := DefaultCamera()
		c.SetView(v)
		faces := ViewCube(&c, 100, 100, 40)
		got, ok := PickCube(&faces, 100, 100)
		if !ok || got != v {
			t.Errorf("view %v: centre picks %v (%v)", v, got, ok)
		}
		if _, ok := PickCube(&faces, 300, 300); ok {
			t.Errorf("view %v: a click far outside picked a face", v)
		}
	}
	// From any angle, the centre of each visible face picks that face.
	rng := rand.New(rand.NewPCG(13, 14))
	for i := 0; i < 500; i++ {
		c := randomCamera(rng)
		faces := ViewCube(&c, 0, 0, 50)
		for _, f := range faces {
			if f.Facing < 0.2 {
				continue
			}
			var mx, my float64
			for _, p := range f.Corners {
				mx += p[0] / 4
				my += p[1] / 4
			}
			if got, ok := PickCube(&faces, mx, my); !ok || got != f.View {
				t.Fatalf("camera %+v: centre of face %v picks %v", c, f.View, got)
			}
		}
	}
}

// BenchmarkBuildOverlays is the overlay path of one frame: a draw list for
// 12 objects (6 marked non-convex) and every pair among them with all
// overlays on.
func BenchmarkBuildOverlays(b *testing.B) {
	var objs []geom.Body
	for i := 0; i < 12; i++ {
		s := geom.Superovoid{A: [3]float64{0.5, 0.4, 0.6}, Eps: [2]float64{0.7, 0.9}, Taper: [2]float64{0.1, 0}}
		objs = append(objs, body(float64(i%4)*1.3, float64(i/4)*1.3, 0, s))
	}
	f, _ := testFrame(contact.Quadtree, objs...)
	// Half of them marked non-convex, as in the paper's battery.
	for i := 0; i < len(f.Objects); i += 2 {
		f.Objects[i].NonConvex = true
	}
	var d DrawList
	Build(&d, f)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Build(&d, f)
	}
	b.ReportMetric(float64(len(f.Pairs)), "pairs")
}
