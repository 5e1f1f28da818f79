package ui

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/render/drawlist"
	"github.com/sovviz/sovviz/scene"
)

// Pixel and parameter values round-trip on both pads, the corners map to
// the ends of the ranges, and Clamp keeps the cursor valid (snapping with
// Ctrl, never NaN).
func TestPadMapRoundTripAndClamp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []padKind{epsPad, taperPad} {
		m := padMapFor(k, 971.5, 203, 187)
		for range 1000 {
			px, py := m.X0+rng.Float64()*m.Size, m.Y0+rng.Float64()*m.Size
			v := m.Value(px, py)
			x, y := m.Pixel(v)
			if math.Abs(x-px) > 1e-9 || math.Abs(y-py) > 1e-9 {
				t.Fatalf("kind %d: pixel (%g, %g) -> %v -> (%g, %g)", k, px, py, v, x, y)
			}
			w := [2]float64{m.Lo + rng.Float64()*(m.Hi-m.Lo), m.Lo + rng.Float64()*(m.Hi-m.Lo)}
			if u := m.Value(m.Pixel(w)); math.Abs(u[0]-w[0]) > 1e-12 || math.Abs(u[1]-w[1]) > 1e-12 {
				t.Fatalf("kind %d: value %v -> pixel -> %v", k, w, u)
			}
		}
		// Bottom-left is (Lo, Lo), top-right (Hi, Hi): the second value grows upwards.
		if v := m.Value(m.X0, m.Y0+m.Size); v != [2]float64{m.Lo, m.Lo} {
			t.Errorf("kind %d: bottom-left maps to %v, want (%g, %g)", k, v, m.Lo, m.Lo)
		}
		if v := m.Value(m.X0+m.Size, m.Y0); math.Abs(v[0]-m.Hi) > 1e-12 || math.Abs(v[1]-m.Hi) > 1e-12 {
			t.Errorf("kind %d: top-right maps to %v, want (%g, %g)", k, v, m.Hi, m.Hi)
		}
		// Far outside the pad, and NaN, clamp into the valid range.
		for _, tc := range []struct{ px, py, w0, w1 float64 }{
			{m.X0 - 500, m.Y0 + m.Size + 500, m.Min, m.Min},
			{m.X0 + m.Size + 500, m.Y0 - 500, m.Max, m.Max},
			{math.NaN(), m.Y0 - 1, m.Min, m.Max},
		} {
			v := m.Clamp(m.Value(tc.px, tc.py), false)
			if v != [2]float64{tc.w0, tc.w1} {
				t.Errorf("kind %d: pixel (%g, %g) clamps to %v, want (%g, %g)", k, tc.px, tc.py, v, tc.w0, tc.w1)
			}
		}
	}
	e := padMapFor(epsPad, 0, 0, 200)
	if e.Min != geom.MinEps || e.Max != geom.MaxEps || e.Lo != 0 || e.Hi != 2 {
		t.Errorf("eps pad range %+v", e)
	}
	// The edge pixels of the eps pad are the invalid 0 and 2: clamped.
	if v := e.Clamp(e.Value(0, 200), false); v != [2]float64{geom.MinEps, geom.MinEps} {
		t.Errorf("eps pad corner clamps to %v", v)
	}
	if v := e.Clamp([2]float64{0.537, 1.0124}, true); v != [2]float64{0.55, 1} {
		t.Errorf("snap: %v, want [0.55 1]", v)
	}
	tp := padMapFor(taperPad, 0, 0, 200)
	if v := tp.Clamp([2]float64{-0.126, 0.49}, true); v != [2]float64{-0.15, 0.5} {
		t.Errorf("taper snap: %v, want [-0.15 0.5]", v)
	}
	if v := tp.Value(100, 100); v != [2]float64{0, 0} {
		t.Errorf("taper pad centre maps to %v, want 0, 0", v)
	}
}

// padsApp returns the built-in scene's app with object i selected.
func padsApp(i int) *App {
	a := NewApp(scene.Default(), "")
	a.Selected = i
	return a
}

// Icons are rebuilt only when what they show changes: a pad's own
// parameters do not rebuild that pad, the position does not rebuild
// anything, orientation, semi-axes, colour and camera rebuild all.
func TestPadIconsRebuildOnlyOnChange(t *testing.T) {
	a := padsApp(0)
	p := a.Pads
	builds := func() [3]int { return [3]int{p.sets[epsPad].builds, p.sets[taperPad].builds, p.cursor.builds} }
	p.prepare(a)
	if b := builds(); b != [3]int{1, 1, 1} {
		t.Fatalf("first frame: builds %v, want one each", b)
	}
	o := &a.Scene.Objects[0]
	steps := []struct {
		name string
		edit func()
		want [3]int // rebuilds of eps pad, taper pad, cursor
	}{
		{"nothing", func() {}, [3]int{0, 0, 0}},
		{"eps", func() { o.Shape.Eps = [2]float64{0.3, 1.7} }, [3]int{0, 1, 1}},
		{"taper", func() { o.Shape.Taper = [2]float64{-0.1, 0.4} }, [3]int{1, 0, 1}},
		{"position", func() { o.Pose.Position[2] += 0.5 }, [3]int{0, 0, 0}},
		{"camera distance, target, projection", func() {
			a.Camera.Distance *= 2
			a.Camera.Target[0] += 1
			a.Camera.Ortho = !a.Camera.Ortho
		}, [3]int{0, 0, 0}},
		{"orientation", func() {
			o.Pose.Orientation = geom.Quat{W: math.Cos(0.3), V: geom.Vec3{0, math.Sin(0.3), 0}}
		}, [3]int{1, 1, 1}},
		{"semi-axes", func() { o.Shape.A[2] = 0.5 }, [3]int{1, 1, 1}},
		// The cursor is drawn in red whatever the object's colour.
		{"colour", func() { o.Color = scene.Color{0.2, 0.3, 0.9, 1} }, [3]int{1, 1, 0}},
		{"camera orbit", func() { a.Camera.Orbit(30, 0) }, [3]int{1, 1, 1}},
		{"selection", func() { a.Selected = 1 }, [3]int{1, 1, 1}},
	}
	for _, s := range steps {
		b0 := builds()
		s.edit()
		// Several frames: only the first may rebuild.
		for range 3 {
			p.prepare(a)
		}
		b1 := builds()
		if d := [3]int{b1[0] - b0[0], b1[1] - b0[1], b1[2] - b0[2]}; d != s.want {
			t.Errorf("%s: rebuilds %v, want %v", s.name, d, s.want)
		}
	}
}

// The icons' triangles are front faces (negative signed area with y down)
// sorted back to front, every icon has some, and their colours are shaded.
func TestPadIconsBackToFront(t *testing.T) {
	a := padsApp(0)
	// A non-convex shape seen from an angle, so that faces overlap.
	o := &a.Scene.Objects[0]
	o.Shape = geom.Superovoid{A: [3]float64{0.6, 0.5, 1.4}, Eps: [2]float64{0.3, 1.9}, Taper: [2]float64{0.5, -0.5}}
	o.Pose.Orientation = geom.Quat{W: math.Cos(0.4), V: geom.Vec3{math.Sin(0.4), 0, 0}}
	p := a.Pads
	p.prepare(a)
	for _, set := range []*iconSet{&p.sets[epsPad], &p.sets[taperPad], &p.cursor} {
		n := set.key.count()
		if len(set.start) != n+1 {
			t.Fatalf("kind %d: %d icon ranges, want %d", set.key.kind, len(set.start)-1, n)
		}
		for i := 0; i < n; i++ {
			tris := set.icon(i)
			// Closed grid of 2·az·(ze−1) triangles: about half face the viewer.
			if all := 2 * iconAz * (iconZe - 1); len(tris) < all/4 || len(tris) > 3*all/4 {
				t.Errorf("kind %d icon %d: %d front faces of %d", set.key.kind, i, len(tris), all)
			}
			colours := map[uint32]bool{}
			for j := range tris {
				tr := &tris[j]
				if j > 0 && tr.Depth < tris[j-1].Depth {
					t.Fatalf("kind %d icon %d: triangle %d depth %g before %g: not back to front", set.key.kind, i, j, tris[j-1].Depth, tr.Depth)
				}
				a, b, c := tr.P[0], tr.P[1], tr.P[2]
				if area := (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0]); !(area < 0) {
					t.Fatalf("kind %d icon %d: triangle %d is a back face (area %g)", set.key.kind, i, j, area)
				}
				for _, cc := range tr.C {
					colours[cc] = true
				}
			}
			if len(colours) < 10 {
				t.Errorf("kind %d icon %d: %d colours: not shaded", set.key.kind, i, len(colours))
			}
		}
	}
}

// bbox returns the 2D extent of an icon.
func iconBox(tris []iconTri) (w, h float64) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range tris {
		for _, p := range tris[i].P {
			x0, x1 = math.Min(x0, p[0]), math.Max(x1, p[0])
			y0, y1 = math.Min(y0, p[1]), math.Max(y1, p[1])
		}
	}
	return x1 - x0, y1 - y0
}

// Icons are turned like the object on screen: a tall object seen from the
// front is a tall icon; lying on its side (object rotated) or seen from
// above (camera moved) it is not.
func TestPadIconsFollowOrientationAndCamera(t *testing.T) {
	a := padsApp(0)
	o := &a.Scene.Objects[0]
	o.Shape = geom.Superovoid{A: [3]float64{0.3, 0.3, 1.2}, Eps: [2]float64{1, 1}}
	o.Pose.Orientation = geom.Quat{W: 1}
	a.Camera.SetView(drawlist.Front)
	p := a.Pads
	aspect := func() float64 {
		p.prepare(a)
		w, h := iconBox(p.cursor.icon(0))
		return h / w
	}
	if r := aspect(); math.Abs(r-4) > 0.2 {
		t.Errorf("front view, upright: height/width %.2f, want 4", r)
	}
	// 90° about y: the long axis lies along x, across the screen.
	o.Pose.Orientation = geom.Quat{W: math.Sqrt2 / 2, V: geom.Vec3{0, math.Sqrt2 / 2, 0}}
	if r := aspect(); math.Abs(r-0.25) > 0.02 {
		t.Errorf("front view, lying along x: height/width %.2f, want 0.25", r)
	}
	// From the top the lying object still runs across the screen; upright it is a circle.
	a.Camera.SetView(drawlist.Top)
	if r := aspect(); math.Abs(r-0.25) > 0.02 {
		t.Errorf("top view, lying along x: height/width %.2f, want 0.25", r)
	}
	o.Pose.Orientation = geom.Quat{W: 1}
	if r := aspect(); math.Abs(r-1) > 0.05 {
		t.Errorf("top view, upright: height/width %.2f, want 1", r)
	}
	// Lattice icons share the cursor's pose: the eps pad's middle icon
	// (e1 = e2 = 1, an ellipsoid) is round from the top.
	w, h := iconBox(p.sets[epsPad].icon(2*padCells + 2))
	if math.Abs(h/w-1) > 0.05 {
		t.Errorf("eps pad middle icon from the top: height/width %.2f, want 1", h/w)
	}
}

// When nothing changes the pads' per-frame CPU work allocates nothing.
func TestPadPrepareAllocatesNothing(t *testing.T) {
	a := padsApp(0)
	p := a.Pads
	for i := 0; i < 2000 && !p.cmapDone; i++ {
		p.prepare(a)
	}
	if !p.cmapDone {
		t.Fatal("convexity map never completed")
	}
	if n := testing.AllocsPerRun(100, func() { p.prepare(a) }); n != 0 {
		t.Errorf("idle frame: %g allocations, want 0", n)
	}
	// The value label is cached too.
	p.label[epsPad].get("e1", "e2", [2]float64{0.5, 0.8})
	if n := testing.AllocsPerRun(100, func() { p.label[epsPad].get("e1", "e2", [2]float64{0.5, 0.8}) }); n != 0 {
		t.Errorf("unchanged label: %g allocations, want 0", n)
	}
}

// The taper pad's map says what Convexity says, and what math.md §1
// predicts: with e2 < 1 equal tapers are convex and opposite ones dip.
// The report line follows the shape.
func TestPadConvexityMapAndLine(t *testing.T) {
	a := padsApp(0)
	o := &a.Scene.Objects[0]
	o.Shape = geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.5, 0.5}}
	p := a.Pads
	for i := 0; i < 5000 && !p.cmapDone; i++ {
		p.prepare(a)
	}
	if !p.cmapDone {
		t.Fatal("convexity map never completed")
	}
	for i := 0; i < cmapN; i++ {
		if g := p.cmap.gap[i*cmapN+i]; g != 0 {
			t.Errorf("tx = ty = %.3f: relative hull gap %g, want convex", cmapTaper(i), g)
		}
	}
	corner := p.cmap.gap[(cmapN-1)*cmapN] // tx = −0.45, ty = +0.45
	if !(corner > 1e-6) {
		t.Errorf("tx = -ty = -0.45 with e2 = 0.5: relative hull gap %g, want a dip", corner)
	}
	s := o.Shape
	s.Taper = [2]float64{cmapTaper(0), cmapTaper(cmapN - 1)}
	if r := s.Convexity(); r.Convex || math.Abs(r.HullGap-corner) > 1e-12 {
		t.Errorf("map corner %g disagrees with Convexity %+v", corner, r)
	}
	if p.cvx.text != "convex: untapered superellipsoid" {
		t.Errorf("untapered line %q", p.cvx.text)
	}
	o.Shape.Taper = [2]float64{0.4, -0.4}
	p.prepare(a)
	if want := "non-convex: hull gap "; len(p.cvx.text) < len(want) || p.cvx.text[:len(want)] != want || p.cvx.report.Convex {
		t.Errorf("opposite tapers, e2 0.5: line %q", p.cvx.text)
	}
	// A changed e2 restarts the map.
	o.Shape.Eps[1] = 1.5
	p.prepare(a)
	if p.cmapDone || p.cmap.eps != o.Shape.Eps {
		t.Errorf("map not restarted after an eps change (done %v, eps %v)", p.cmapDone, p.cmap.eps)
	}
}

// findPair returns the contact distance of objects i and j.
func findPair(t *testing.T, a *App, i, j int) float64 {
	t.Helper()
	for _, pr := range a.Pairs {
		if pr.I == i && pr.J == j || pr.I == j && pr.J == i {
			return pr.Result.Distance
		}
	}
	t.Fatalf("no contact pair %d-%d", i, j)
	return 0
}

// A scripted mouse drag across the ε pad edits the selected object live:
// its squareness follows the mouse as the pad maps it, its mesh and its
// contact distance change, the drag is one undo step and undoing it
// restores the shape exactly. A Ctrl-drag on the taper pad snaps.
func TestPadDragEditsShapeMeshAndContact(t *testing.T) {
	needGL(t)
	a := NewApp(scene.Default(), "")
	const sel, other = 1, 0 // pointy, 0.37 from tapered
	a.WindowSize = [2]int{1280, 800}
	a.ExitAfter = 40
	var shot *image.NRGBA
	a.Screenshot = func(img *image.NRGBA) { shot = img }
	var (
		shape0, shapeEnd, shapeUndone geom.Superovoid
		d0, dEnd, dUndone             float64
		ver0, verEnd                  uint64
		pos0, posEnd, posUndone       []geom.Vec3
		undo0, undoEnd                int
		want                          [2]float64
		live                          = map[[2]float64]bool{}
		taperEnd                      [2]float64
		undoMid, undoAfterTaper       int
		shapeFinal                    geom.Superovoid
	)
	mesh := func() (uint64, []geom.Vec3) {
		m := a.meshes[sel].mesh
		return m.Version, append([]geom.Vec3(nil), m.Positions...)
	}
	a.Script = func(a *App, frame int) {
		io := imgui.CurrentIO()
		// Whole pixels, moving the real pointer too (see TestWindowInput).
		move := func(x, y float64) (float64, float64) {
			x, y = math.Round(x), math.Round(y)
			a.win.SetCursorPos(x, y)
			io.AddMousePosEvent(float32(x), float32(y))
			return x, y
		}
		m := a.Pads.maps[epsPad]
		// From near (0.3, 0.3) to near (1.75, 1.6) in 8 steps.
		at := func(s float64) (float64, float64) {
			return m.Pixel([2]float64{0.3 + s*(1.75-0.3), 0.3 + s*(1.6-0.3)})
		}
		switch {
		case frame == 0:
			a.Selected = -1 // the window says so and offers a button
		case frame == 2:
			a.Selected = sel
		case frame == 3:
			shape0 = a.Scene.Objects[sel].Shape
			d0 = findPair(t, a, sel, other)
			ver0, pos0 = mesh()
			undo0 = len(a.History.undo)
			move(at(0))
		case frame == 4:
			io.AddMouseButtonEvent(0, true)
		case frame >= 5 && frame <= 12:
			x, y := move(at(float64(frame-4) / 8))
			want = m.Clamp(m.Value(x, y), false)
			live[a.Scene.Objects[sel].Shape.Eps] = true
		case frame == 13:
			live[a.Scene.Objects[sel].Shape.Eps] = true
			io.AddMouseButtonEvent(0, false)
		case frame == 16:
			shapeEnd = a.Scene.Objects[sel].Shape
			dEnd = findPair(t, a, sel, other)
			verEnd, posEnd = mesh()
			undoEnd = len(a.History.undo)
			if !a.Undo() {
				t.Error("nothing to undo after the drag")
			}
		case frame == 19:
			shapeUndone = a.Scene.Objects[sel].Shape
			dUndone = findPair(t, a, sel, other)
			_, posUndone = mesh()
			// Taper pad, Ctrl held: press near (-0.3, 0.1), drag to (0.33, -0.21).
			tm := a.Pads.maps[taperPad]
			move(tm.Pixel([2]float64{-0.3, 0.1}))
			io.AddKeyEvent(imgui.ModCtrl, true)
		case frame == 20:
			io.AddMouseButtonEvent(0, true)
		case frame >= 21 && frame <= 24:
			if frame == 22 {
				// Ctrl+Z in the middle of the drag: the rest of the
				// drag must still be undoable.
				undoMid = len(a.History.undo)
				a.Undo()
			}
			tm := a.Pads.maps[taperPad]
			s := float64(frame-20) / 4
			move(tm.Pixel([2]float64{-0.3 + s*0.63, 0.1 - s*0.31}))
		case frame == 25:
			io.AddMouseButtonEvent(0, false)
			io.AddKeyEvent(imgui.ModCtrl, false)
		case frame == 27:
			taperEnd = a.Scene.Objects[sel].Shape.Taper
			undoAfterTaper = len(a.History.undo)
			a.Undo()
		case frame == 29:
			shapeFinal = a.Scene.Objects[sel].Shape
		}
	}
	runApp(t, a)
	if shapeEnd.Eps == shape0.Eps {
		t.Fatalf("dragging on the eps pad did not change eps (%v)", shape0.Eps)
	}
	if math.Abs(shapeEnd.Eps[0]-want[0]) > 1e-12 || math.Abs(shapeEnd.Eps[1]-want[1]) > 1e-12 {
		t.Errorf("eps after the drag %v, want %v (where the pad maps the mouse)", shapeEnd.Eps, want)
	}
	if math.Abs(want[0]-1.75) > 0.02 || math.Abs(want[1]-1.6) > 0.02 {
		t.Errorf("mouse mapped to %v, aimed at (1.75, 1.6)", want)
	}
	if shapeEnd.A != shape0.A || shapeEnd.Taper != shape0.Taper {
		t.Errorf("the eps pad changed more than eps: %+v -> %+v", shape0, shapeEnd)
	}
	if len(live) < 5 {
		t.Errorf("the shape took %d values during the drag, want it to follow every frame", len(live))
	}
	if verEnd == ver0 {
		t.Errorf("mesh version unchanged (%d) after the drag", ver0)
	}
	if sameVecs(pos0, posEnd) {
		t.Error("mesh vertices unchanged after the drag")
	}
	t.Logf("eps %v -> %v, contact distance %.6f -> %.6f, undone %.6f; Ctrl-drag tapers %v", shape0.Eps, shapeEnd.Eps, d0, dEnd, dUndone, taperEnd)
	if math.Abs(dEnd-d0) < 1e-4 {
		t.Errorf("contact distance %g -> %g: unchanged by the drag", d0, dEnd)
	}
	if undoEnd != undo0+1 {
		t.Errorf("undo steps %d -> %d: a drag must be exactly one", undo0, undoEnd)
	}
	if shapeUndone != shape0 {
		t.Errorf("undo restored %+v, want %+v", shapeUndone, shape0)
	}
	if !sameVecs(posUndone, pos0) {
		t.Error("undo: the mesh is not the original one")
	}
	if math.Abs(dUndone-d0) > 1e-8 {
		t.Errorf("undo: contact distance %g, want %g", dUndone, d0)
	}
	if undoMid != undo0+1 || undoAfterTaper != undoMid {
		t.Errorf("undo steps: %d before the taper drag, %d after Ctrl+Z and the rest of it; want %d, %d", undoMid, undoAfterTaper, undo0+1, undo0+1)
	}
	if shapeFinal != shape0 {
		t.Errorf("undoing the rest of the taper drag gave %+v, want %+v", shapeFinal, shape0)
	}
	checkIconPixels(t, a, shot)
	for i, v := range taperEnd {
		if math.Abs(v*snapSteps-math.Round(v*snapSteps)) > 1e-9 {
			t.Errorf("Ctrl-drag: taper[%d] = %g, not a multiple of 0.05", i, v)
		}
	}
	if math.Abs(taperEnd[0]-0.35) > 0.051 || math.Abs(taperEnd[1]+0.2) > 0.051 {
		t.Errorf("taper after the Ctrl-drag %v, want about (0.35, -0.2)", taperEnd)
	}
}

// checkIconPixels checks in the window's last frame that the eps pad shows
// a shaded icon in the object's (warm) colour at every lattice position
// away from the cursor, over the pad's dark background.
func checkIconPixels(t *testing.T, a *App, img *image.NRGBA) {
	t.Helper()
	if img == nil {
		t.Fatal("no frame captured")
	}
	m := a.Pads.maps[epsPad]
	cur := a.Scene.Objects[a.Selected].Shape.Eps
	cx, cy := m.Pixel(cur)
	seen := 0
	for i := 0; i < padCells*padCells; i++ {
		x, y := m.Pixel([2]float64{lattice(0, 2, i%padCells), lattice(0, 2, i/padCells)})
		if math.Hypot(x-cx, y-cy) < m.Size/padCells {
			continue // under the cursor
		}
		c := img.NRGBAAt(int(x), int(y))
		if !(int(c.R) > int(c.B)+20 && c.R > 60) {
			t.Errorf("eps pad icon %d at (%.0f, %.0f): pixel %v, want the object's warm colour", i, x, y, c)
		}
		seen++
	}
	if seen < padCells*padCells-4 {
		t.Errorf("only %d icons checked", seen)
	}
	savePNG(t, img, "pads-drag")
}

func sameVecs(a, b []geom.Vec3) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
