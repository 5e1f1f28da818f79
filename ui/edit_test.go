package ui

import (
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/render/drawlist"
	"github.com/sovviz/sovviz/scene"
)

// These tests need no display: they drive the editing logic that the
// panels call.

func TestUniqueName(t *testing.T) {
	sc := scene.New()
	for _, n := range []string{"palm", "finger", "finger.001", "finger.003"} {
		sc.Objects = append(sc.Objects, scene.NewObject(n, geom.Sphere(1), geom.Identity(), 0))
	}
	for _, c := range []struct{ in, want string }{
		{"thumb", "thumb"},
		{"palm", "palm.001"},
		{"finger", "finger.002"},
		{"finger.001", "finger.002"}, // duplicates of a copy are named after the original
		{"v1.5", "v1.5"},
	} {
		if got := UniqueName(sc, c.in); got != c.want {
			t.Errorf("UniqueName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := strings.Repeat("x", scene.MaxNameBytes)
	sc.Objects = append(sc.Objects, scene.NewObject(long, geom.Sphere(1), geom.Identity(), 0))
	if got := UniqueName(sc, long); len(got) > scene.MaxNameBytes || sc.Object(got) != nil || CheckName(sc, -1, got) != nil {
		t.Errorf("UniqueName of a %d-byte name gave %q (%d bytes)", scene.MaxNameBytes, got, len(got))
	}
}

func TestCheckName(t *testing.T) {
	sc := scene.Default()
	first, second := sc.Objects[0].Name, sc.Objects[1].Name
	for _, c := range []struct {
		i    int
		name string
		ok   bool
	}{
		{0, first, true}, {0, "new name", true}, {0, second, false}, {0, "", false}, {0, "   ", false},
		{0, "tab\there", false}, {0, strings.Repeat("n", scene.MaxNameBytes+1), false},
	} {
		if err := CheckName(sc, c.i, c.name); (err == nil) != c.ok {
			t.Errorf("CheckName(%d, %q) = %v, want ok %v", c.i, c.name, err, c.ok)
		}
	}
}

// Whatever numbers an edit produces, the shape stays valid: NaN and
// infinities keep the old value, the rest is clamped.
func TestSanitizeShape(t *testing.T) {
	old := geom.Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{0.5, 1.2}, Taper: [2]float64{0.1, -0.2}}
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 1e-300, 5, 1e300, -0.7, 0.3}
	rng := rand.New(rand.NewSource(1))
	for k := 0; k < 2000; k++ {
		var s geom.Superovoid
		for i := range s.A {
			s.A[i] = bad[rng.Intn(len(bad))]
		}
		for i := range s.Eps {
			s.Eps[i] = bad[rng.Intn(len(bad))]
		}
		for i := range s.Taper {
			s.Taper[i] = bad[rng.Intn(len(bad))]
		}
		got := SanitizeShape(s, old)
		if err := got.Validate(); err != nil {
			t.Fatalf("SanitizeShape(%+v) = %+v: %v", s, got, err)
		}
		for i := range s.A {
			if math.IsNaN(s.A[i]) || math.IsInf(s.A[i], 0) {
				if got.A[i] != old.A[i] {
					t.Fatalf("non-finite a[%d] gave %g, want the old %g", i, got.A[i], old.A[i])
				}
			}
		}
	}
	s := SanitizeShape(geom.Superovoid{A: [3]float64{-1, 2, 3}, Eps: [2]float64{3, 0.01}, Taper: [2]float64{0.9, -0.9}}, old)
	want := geom.Superovoid{A: [3]float64{scene.MinSemiAxis, 2, 3}, Eps: [2]float64{geom.MaxEps, geom.MinEps}, Taper: [2]float64{0.5, -0.5}}
	if s != want {
		t.Errorf("clamped shape %+v, want %+v", s, want)
	}
	if p := SanitizePosition(geom.Vec3{math.NaN(), 2e6, -3}, geom.Vec3{1, 1, 1}); p != (geom.Vec3{1, scene.MaxCoord, -3}) {
		t.Errorf("SanitizePosition: %v", p)
	}
	if q := NormalizeQuat(geom.Quat{}, geom.Quat{W: 1}); q != (geom.Quat{W: 1}) {
		t.Errorf("zero quaternion: %v", q)
	}
}

// Euler angles and quaternions convert both ways; the convention is
// Blender's XYZ (x first, about world axes).
func TestEulerXYZ(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	same := func(p, q geom.Quat) bool {
		d := math.Abs(p.W*q.W + p.V.Dot(q.V)) // |cos| of half the angle between them
		return math.Abs(d-1) < 1e-12
	}
	for k := 0; k < 1000; k++ {
		q := geom.Quat{W: rng.NormFloat64(), V: geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}}.Normalize()
		e := EulerXYZ(q)
		if r := QuatFromEulerXYZ(e); !same(q, r) {
			t.Fatalf("quat %v -> euler %v -> %v", q, e, r)
		}
		if math.Abs(e[1]) > 90+1e-9 || math.Abs(e[0]) > 180+1e-9 || math.Abs(e[2]) > 180+1e-9 {
			t.Fatalf("euler %v out of range", e)
		}
	}
	// Gimbal lock: y = ±90° still round-trips.
	for _, e := range [][3]float64{{30, 90, 10}, {-45, -90, 60}} {
		q := QuatFromEulerXYZ(e)
		if r := QuatFromEulerXYZ(EulerXYZ(q)); !same(q, r) {
			t.Errorf("gimbal lock %v: %v vs %v", e, q, r)
		}
	}
	// x first, then z: (0,1,0) -> x 90° -> (0,0,1) -> z 90° -> (0,0,1);
	// (1,0,0) -> (1,0,0) -> (0,1,0).
	p := geom.Pose{Orientation: QuatFromEulerXYZ([3]float64{90, 0, 90})}
	for _, c := range []struct{ in, want geom.Vec3 }{{geom.Vec3{0, 1, 0}, geom.Vec3{0, 0, 1}}, {geom.Vec3{1, 0, 0}, geom.Vec3{0, 1, 0}}} {
		if got := p.ToWorld(c.in); got.Sub(c.want).Len() > 1e-12 {
			t.Errorf("Euler (90, 0, 90) maps %v to %v, want %v", c.in, got, c.want)
		}
	}
}

// pickScene is three spheres in a row along x, seen from the front.
func pickScene() *App {
	sc := scene.New()
	for i, x := range []float64{-3, 0, 3} {
		o := scene.NewObject(string(rune('a'+i)), geom.Sphere(1), geom.Pose{Position: geom.Vec3{x, 0, 0}, Orientation: geom.Quat{W: 1}}, i)
		sc.Objects = append(sc.Objects, o)
	}
	// A small ellipsoid in front of the middle sphere (front looks along +y).
	sc.Objects = append(sc.Objects, scene.NewObject("front", geom.Ellipsoid(0.3, 0.3, 0.3), geom.Pose{Position: geom.Vec3{0, -2, 0.8}, Orientation: geom.Quat{W: 1}}, 3))
	a := NewApp(sc, "")
	a.Camera.Width, a.Camera.Height = 800, 500
	a.Camera.SetView(drawlist.Front)
	a.Camera.Ortho = false
	a.FrameAll()
	return a
}

// Picking selects the object whose surface is under the pixel, the
// nearest one when several are, nothing on empty space, never a hidden
// object; in orthographic views too.
func TestPick(t *testing.T) {
	for _, ortho := range []bool{false, true} {
		a := pickScene()
		a.Camera.Ortho = ortho
		for i := 0; i < 3; i++ {
			x, y, _, ok := a.Camera.Project(a.Scene.Objects[i].Pose.Position)
			if !ok {
				t.Fatalf("object %d does not project", i)
			}
			if got := a.Pick(x, y); got != i {
				t.Errorf("ortho %v: pick at the centre of %q gave %d", ortho, a.Scene.Objects[i].Name, got)
			}
		}
		// The small ellipsoid hides the middle sphere's upper part.
		x, y, _, _ := a.Camera.Project(geom.Vec3{0, 0, 0.8})
		if got := a.Pick(x, y); got != 3 {
			t.Errorf("ortho %v: pick in front of the middle sphere gave %d, want the nearer ellipsoid (3)", ortho, got)
		}
		a.Scene.Objects[3].Visible = false
		if got := a.Pick(x, y); got != 1 {
			t.Errorf("ortho %v: hidden ellipsoid picked, or not the sphere behind it: %d", ortho, got)
		}
		// Between the spheres (x = ±1.5) and in the corner: nothing.
		x, y, _, _ = a.Camera.Project(geom.Vec3{1.5, 0, 0})
		if got := a.Pick(x, y); got != -1 {
			t.Errorf("ortho %v: pick between spheres gave %d", ortho, got)
		}
		if got := a.Pick(2, 2); got != -1 {
			t.Errorf("ortho %v: pick in the corner gave %d", ortho, got)
		}
	}
	// Orthographic with the eye inside the scene: what is drawn behind the
	// eye (the near plane is behind it) is still picked.
	a := pickScene()
	a.Camera.SetView(drawlist.Front)
	a.Camera.Target = geom.Vec3{0, 5, 0}
	a.Camera.Distance = 1 // eye at y = 4, beyond the spheres
	a.Camera.SceneRadius = 6
	x, y, _, _ := a.Camera.Project(geom.Vec3{3, 0, 0})
	if got := a.Pick(x, y); got != 2 {
		t.Errorf("ortho view with the eye past the objects: pick gave %d, want 2", got)
	}
}

// Add, duplicate and delete are one undo step each, keep names unique,
// update bodies, and undo/redo restore the scene exactly.
func TestAddDuplicateDeleteUndo(t *testing.T) {
	a := NewApp(scene.Default(), "")
	a.Update()
	orig := a.Scene.Clone()
	n := len(orig.Objects)

	i := a.AddObject()
	if i != n || len(a.Scene.Objects) != n+1 || a.Selected != i {
		t.Fatalf("add: index %d, %d objects, selected %d", i, len(a.Scene.Objects), a.Selected)
	}
	added := a.Scene.Objects[i]
	if err := added.Body().Validate(); err != nil || CheckName(a.Scene, i, added.Name) != nil {
		t.Fatalf("added object invalid: %+v (%v)", added, err)
	}
	// Placed where it does not meet anything.
	for k := 0; k < n; k++ {
		o := &a.Scene.Objects[k]
		if d := o.Pose.Position.Sub(added.Pose.Position).Len(); d < o.Shape.BoundingRadiusFast()+added.Shape.BoundingRadiusFast() {
			t.Errorf("new object overlaps %q's bounding sphere", o.Name)
		}
	}
	if a.History.UndoLabel() != "add "+added.Name {
		t.Errorf("undo label %q", a.History.UndoLabel())
	}
	afterAdd := a.Scene.Clone()

	j := a.DuplicateSelected()
	if j != n+1 || a.Scene.Objects[j].Name != added.Name+".001" || a.Scene.Objects[j].Shape != added.Shape {
		t.Fatalf("duplicate: index %d name %q", j, a.Scene.Objects[j].Name)
	}
	if a.Scene.Objects[j].Pose.Position == added.Pose.Position {
		t.Errorf("duplicate sits on the original")
	}

	// Delete an object that is in a body: the body forgets it.
	a.Scene.Bodies = []scene.Body{{Name: "b", Objects: []string{orig.Objects[0].Name, orig.Objects[1].Name}}}
	a.Selected = 1
	if !a.DeleteObject(0) || len(a.Scene.Objects) != n+1 || a.Selected != 0 {
		t.Fatalf("delete: %d objects, selection %d (want it to follow to 0)", len(a.Scene.Objects), a.Selected)
	}
	if b := a.Scene.Bodies[0].Objects; len(b) != 1 || b[0] != orig.Objects[1].Name {
		t.Errorf("body after delete: %v", b)
	}
	if _, err := scene.Marshal(a.Scene); err != nil {
		t.Errorf("scene after delete does not save: %v", err)
	}

	for k := 0; k < 3; k++ {
		if !a.Undo() {
			t.Fatalf("undo %d failed", k)
		}
	}
	a.Scene.Bodies = nil // set outside the history above
	if !reflect.DeepEqual(a.Scene, orig) {
		t.Errorf("three undos do not restore the original scene")
	}
	a.Redo()
	if !reflect.DeepEqual(a.Scene, afterAdd) {
		t.Errorf("redo of add does not restore the scene after add")
	}
	if a.DeleteObject(99) || a.DeleteObject(-1) {
		t.Errorf("deleting a missing object succeeded")
	}
	a.Selected = -1
	if a.DuplicateSelected() != -1 {
		t.Errorf("duplicate with nothing selected")
	}
}

// Structural changes start the contact cache cold: deleting one object and
// adding another keeps the count but must not reuse warm starts.
func TestStructureResetsContactCache(t *testing.T) {
	a := NewApp(scene.Default(), "")
	a.Update()
	w0 := a.world
	a.Update()
	if a.world != w0 {
		t.Fatalf("contact cache rebuilt without a change")
	}
	a.DeleteObject(0)
	a.AddObject()
	a.Update()
	if a.world == w0 {
		t.Errorf("contact cache kept after delete + add (same object count)")
	}
	w1 := a.world
	a.Undo()
	a.Update()
	if a.world == w1 {
		t.Errorf("contact cache kept after undo")
	}
}

func TestRename(t *testing.T) {
	a := NewApp(scene.Default(), "")
	a.Scene.Bodies = []scene.Body{{Name: "b", Objects: []string{a.Scene.Objects[0].Name}}}
	old := a.Scene.Objects[0].Name
	if err := a.RenameObject(0, a.Scene.Objects[1].Name); err == nil {
		t.Errorf("rename to an existing name accepted")
	}
	if err := a.RenameObject(0, ""); err == nil {
		t.Errorf("empty name accepted")
	}
	if a.History.CanUndo() {
		t.Errorf("refused renames recorded undo steps")
	}
	if err := a.RenameObject(0, "thumb"); err != nil {
		t.Fatal(err)
	}
	if a.Scene.Objects[0].Name != "thumb" || a.Scene.Bodies[0].Objects[0] != "thumb" {
		t.Errorf("rename: object %q, body %v", a.Scene.Objects[0].Name, a.Scene.Bodies[0].Objects)
	}
	a.Undo()
	if a.Scene.Objects[0].Name != old || a.Scene.Bodies[0].Objects[0] != old {
		t.Errorf("undo rename: object %q, body %v", a.Scene.Objects[0].Name, a.Scene.Bodies[0].Objects)
	}
}

// The inspector's setters refuse invalid values and keep dependent
// settings valid; consecutive changes of one widget are one undo step.
func TestSetShapeAndPose(t *testing.T) {
	a := NewApp(scene.Default(), "")
	o := &a.Scene.Objects[0]
	s0, p0 := o.Shape, o.Pose
	bad := s0
	bad.Eps[0] = math.NaN()
	if a.SetShape(0, bad, "k", "l") || a.History.CanUndo() {
		t.Errorf("NaN squareness changed the shape or recorded a step")
	}
	big := s0
	big.Eps[1] = 7
	if !a.SetShape(0, big, "eps", "squareness") || a.Scene.Objects[0].Shape.Eps[1] != geom.MaxEps {
		t.Errorf("eps 7 not clamped to %g: %v", geom.MaxEps, a.Scene.Objects[0].Shape.Eps)
	}
	// A drag: many changes, one key, one step.
	for k := 1; k <= 5; k++ {
		s := a.Scene.Objects[0].Shape
		s.A[0] *= 1.1
		a.SetShape(0, s, "a", "semi-axes")
	}
	a.endEdits(false)
	if n := len(a.History.undo); n != 2 {
		t.Errorf("%d undo steps, want 2 (eps, then one for the drag of a)", n)
	}
	// An explicit edge length follows the shape's size.
	a.Scene.Objects[0].Mesh = scene.Mesh{Method: scene.MarchingTriangles, Edge: 0.5}
	s := a.Scene.Objects[0].Shape
	s.A = [3]float64{0.1, 0.1, 0.1}
	a.SetShape(0, s, "a2", "shrink")
	if _, err := scene.Marshal(a.Scene); err != nil {
		t.Errorf("scene after shrinking does not save: %v", err)
	}
	p := p0
	p.Position[0] = math.Inf(1)
	p.Orientation = geom.Quat{W: 2}
	a.SetPose(0, p, "pose", "move")
	if got := a.Scene.Objects[0].Pose; got.Position != p0.Position || got.Orientation != (geom.Quat{W: 1}) {
		t.Errorf("pose after an infinite x and quaternion (2,0,0,0): %+v", got)
	}
	for a.Undo() {
	}
	if a.Scene.Objects[0].Shape != s0 || a.Scene.Objects[0].Pose != p0 {
		t.Errorf("undo all: shape %+v pose %+v", a.Scene.Objects[0].Shape, a.Scene.Objects[0].Pose)
	}
}

// The convexity report is the shape's own and is recomputed when the shape
// changes.
func TestConvexityCache(t *testing.T) {
	a := NewApp(scene.Default(), "")
	for i := range a.Scene.Objects {
		if got, want := a.Convexity(i), a.Scene.Objects[i].Shape.Convexity(); got != want {
			t.Errorf("object %d: cached %+v, direct %+v", i, got, want)
		}
	}
	s := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.6, 1.9}, Taper: [2]float64{0.5, 0.5}}
	a.Scene.Objects[0].Shape = s
	if got := a.Convexity(0); got != s.Convexity() || got.Convex {
		t.Errorf("after the shape changed: %+v, want the non-convex %+v", got, s.Convexity())
	}
	if (a.Convexity(-1) != geom.ConvexityReport{}) || (a.Convexity(99) != geom.ConvexityReport{}) {
		t.Errorf("out-of-range index gave a report")
	}
}

// Save then open round-trips the scene (camera included) and marks it
// saved; a broken file leaves the scene as it was and sets App.Error.
func TestSaveOpenRoundTrip(t *testing.T) {
	dir := t.TempDir()
	a := NewApp(scene.Default(), "")
	a.AddObject()
	a.Camera.Orbit(30, 10)
	if !a.History.Dirty() {
		t.Fatal("not dirty after an edit")
	}
	path := filepath.Join(dir, "s.json")
	if err := a.SaveScene(path); err != nil {
		t.Fatal(err)
	}
	if a.History.Dirty() || a.Path != path || a.Error != "" {
		t.Errorf("after save: dirty %v, path %q, error %q", a.History.Dirty(), a.Path, a.Error)
	}
	if !strings.Contains(a.WindowTitle(), "s.json") || strings.HasSuffix(a.WindowTitle(), "*") {
		t.Errorf("title %q", a.WindowTitle())
	}
	saved := a.Scene.Clone()
	cam := a.Camera

	b := NewApp(scene.Default(), "")
	if err := b.OpenScene(path); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.Scene, saved) {
		t.Errorf("opened scene differs from the saved one")
	}
	if math.Abs(b.Camera.Yaw-cam.Yaw) > 1e-12 || math.Abs(b.Camera.Pitch-cam.Pitch) > 1e-12 || b.Camera.Target != cam.Target {
		t.Errorf("camera not restored: %+v vs %+v", b.Camera, cam)
	}

	// A broken file: the scene, its path and its history stay.
	broken := filepath.Join(dir, "broken.json")
	data, _ := os.ReadFile(path)
	data = []byte(strings.Replace(string(data), `"eps": [`, `"eps": [7, `, 1))
	if err := os.WriteFile(broken, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b.AddObject()
	before, beforePath, undo := b.Scene, b.Path, b.History.UndoLabel()
	if err := b.OpenScene(broken); err == nil {
		t.Fatal("broken file opened")
	}
	if b.Scene != before || b.Path != beforePath || b.History.UndoLabel() != undo {
		t.Errorf("a failed open changed the scene, path or history")
	}
	if !strings.Contains(b.Error, "broken.json") || !strings.Contains(b.Error, "eps") {
		t.Errorf("error %q does not name the file and the field", b.Error)
	}
	b.Error = ""
	if err := b.OpenScene(filepath.Join(dir, "missing.json")); err == nil || b.Error == "" {
		t.Errorf("missing file: err %v, App.Error %q", err, b.Error)
	}
	// Saving into a missing directory fails without marking anything saved.
	b.Error = ""
	if err := b.SaveScene(filepath.Join(dir, "no", "such", "dir.json")); err == nil || b.Error == "" || !b.History.Dirty() || b.Path != beforePath {
		t.Errorf("failed save: err %v, error %q, dirty %v, path %q", err, b.Error, b.History.Dirty(), b.Path)
	}
}

// Quitting (or opening another scene) with unsaved edits waits for an
// answer; with none it happens at once.
func TestConfirmUnsaved(t *testing.T) {
	a := NewApp(scene.Default(), "")
	a.RequestQuit()
	if !a.quit {
		t.Errorf("clean scene: quit did not happen at once")
	}
	a.quit = false
	a.AddObject()
	a.RequestQuit()
	if a.quit || !a.files.askUnsaved || a.files.pending == nil {
		t.Errorf("dirty scene: quit %v, asking %v", a.quit, a.files.askUnsaved)
	}
}

func TestListDir(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b.json", "a.JSON", "notes.txt", ".hidden.json"} {
		os.WriteFile(filepath.Join(dir, f), []byte("{}"), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	es, err := listDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []dirEntry{{"sub", true}, {"a.JSON", false}, {"b.json", false}}
	if !reflect.DeepEqual(es, want) {
		t.Errorf("listDir: %v, want %v", es, want)
	}
	if _, err := listDir(filepath.Join(dir, "missing")); err == nil {
		t.Errorf("missing directory listed")
	}
}

// Overlay switches and solver settings are saved with the scene, so their
// changes are undo steps too (and mark the scene unsaved).
func TestSettingsEditsAreUndoable(t *testing.T) {
	a := NewApp(scene.Default(), "")
	start := func() { a.frameScene, a.frameOverlays, a.frameSolver = a.Scene, a.Scene.Overlays, a.Scene.Solver }
	x0, tol0 := a.Scene.Overlays.XRay, a.Scene.Solver.Tol
	start()
	a.Scene.Overlays.XRay = !x0
	a.recordSettingsEdits()
	a.endEdits(false)
	start()
	a.Scene.Solver.Tol = 1e-6
	a.recordSettingsEdits()
	a.endEdits(false)
	if len(a.History.undo) != 2 || a.History.UndoLabel() != "solver settings" || !a.History.Dirty() {
		t.Fatalf("%d steps, last %q, dirty %v", len(a.History.undo), a.History.UndoLabel(), a.History.Dirty())
	}
	a.Undo()
	a.Undo()
	if a.Scene.Overlays.XRay != x0 || a.Scene.Solver.Tol != tol0 || a.History.Dirty() {
		t.Errorf("undo: x-ray %v tol %g dirty %v", a.Scene.Overlays.XRay, a.Scene.Solver.Tol, a.History.Dirty())
	}
	// A swapped scene (an undo during the frame) is not an edit.
	start()
	a.Undo()
	a.Redo()
	n := len(a.History.undo)
	a.recordSettingsEdits()
	if len(a.History.undo) != n {
		t.Errorf("scene swap recorded as a settings edit")
	}
}
