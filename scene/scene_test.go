package scene

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

// randomScene returns a valid scene exercising every field over its whole
// range (shapes over a in [0.3, 2], e in [0.1, 1.9], taper in [-0.5, 0.5]).
func randomScene(seed int64) *Scene {
	r := rand.New(rand.NewSource(seed))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	s := New()
	if r.Intn(2) == 0 {
		s.Description = fmt.Sprintf("random scene %d, \"quoted\" \\ ünïcode\ttab", seed)
	}
	n := 1 + r.Intn(8)
	for i := 0; i < n; i++ {
		sh := geom.Superovoid{
			A:     [3]float64{u(0.3, 2), u(0.3, 2), u(0.3, 2)},
			Eps:   [2]float64{u(0.1, 1.9), u(0.1, 1.9)},
			Taper: [2]float64{u(-0.5, 0.5), u(-0.5, 0.5)},
		}
		q := geom.Quat{W: r.NormFloat64(), V: geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}
		q = normalizeQuat(q)
		o := Object{
			Name:    fmt.Sprintf("obj %d/%c", i, 'α'+rune(i)),
			Shape:   sh,
			Pose:    geom.Pose{Position: geom.Vec3{u(-10, 10), u(-10, 10), u(-1e-3, 1e-3)}, Orientation: q},
			Color:   Color{r.Float64(), r.Float64(), r.Float64(), r.Float64()},
			Visible: r.Intn(3) > 0,
		}
		o.Mesh.Method = MeshMethod(r.Intn(2))
		o.Mesh.Wireframe = r.Intn(2) == 0
		if o.Mesh.Method == MarchingTriangles && r.Intn(2) == 0 {
			o.Mesh.Edge = u(MinEdgeFraction, 1) * maxAxis(sh)
		}
		if o.Mesh.Method == Grid && r.Intn(2) == 0 {
			o.Mesh.Slices = [2]int{MinSlicesAz + r.Intn(MaxSlicesAz-MinSlicesAz+1), MinSlicesZe + r.Intn(MaxSlicesZe-MinSlicesZe+1)}
		}
		s.Objects = append(s.Objects, o)
	}
	if r.Intn(2) == 0 {
		s.Camera = &Camera{Target: geom.Vec3{u(-5, 5), u(-5, 5), u(-5, 5)}, Distance: u(0.01, 100),
			Yaw: u(-360, 360), Pitch: u(-90, 90), Ortho: r.Intn(2) == 0, Fov: u(5, 150)}
	}
	for _, f := range overlayFields(&s.Overlays) {
		*f = r.Intn(2) == 0
	}
	s.Solver = Solver{Method: contact.Method(r.Intn(3)), Guess: contact.Guess(r.Intn(3)),
		Tol: math.Pow(10, u(-15, -2)), MaxIter: 1 + r.Intn(1000), QuadLevels: 1 + r.Intn(contact.MaxQuadLevels),
		OctreeDepth: 1 + r.Intn(MaxOctreeDepth), WarmStart: r.Intn(2) == 0, CertifyOverlap: r.Intn(2) == 0}
	if r.Intn(2) == 0 {
		s.Solver.Margin = u(0, 3)
	}
	if n >= 2 && r.Intn(2) == 0 {
		// Two bodies splitting the objects, joined by a joint.
		k := 1 + r.Intn(n-1)
		b0, b1 := Body{Name: "base"}, Body{Name: "link"}
		for i, o := range s.Objects {
			if i < k {
				b0.Objects = append(b0.Objects, o.Name)
			} else {
				b1.Objects = append(b1.Objects, o.Name)
			}
		}
		s.Bodies = []Body{b0, b1}
		ax := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		ax = ax.Mul(1 / ax.Len())
		if math.Abs(ax.Dot(ax)-1) > 1e-15 {
			ax = geom.Vec3{0, 0, 1}
		}
		lo := u(-3, 0)
		s.Joints = []Joint{{Name: "j", Type: JointType(r.Intn(3)), Parent: "base", Child: "link",
			Position: geom.Vec3{u(-1, 1), u(-1, 1), u(-1, 1)}, Axis: ax, Min: lo, Max: lo + u(0, 3)}}
	}
	return s
}

// TestRoundTrip: Parse(Marshal(s)) == s bit for bit, and Marshal is
// stable, for random scenes over every field and for every example.
func TestRoundTrip(t *testing.T) {
	check := func(name string, s *Scene) {
		t.Helper()
		data, err := Marshal(s)
		if err != nil {
			t.Fatalf("%s: Marshal: %v", name, err)
		}
		s2, err := Parse(data, name)
		if err != nil {
			t.Fatalf("%s: Parse(Marshal): %v\n%s", name, err, data)
		}
		if !reflect.DeepEqual(s, s2) {
			t.Fatalf("%s: round trip differs:\n got %+v\nwant %+v", name, s2, s)
		}
		data2, err := Marshal(s2)
		if err != nil || !bytes.Equal(data, data2) {
			t.Fatalf("%s: Marshal not stable (%v)", name, err)
		}
	}
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := 0; i < n; i++ {
		check(fmt.Sprintf("random %d", i), randomScene(int64(i)))
	}
	check("default", Default())
	for _, f := range exampleFiles(t) {
		s, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		check(f, s)
	}
	empty := New()
	empty.Objects = []Object{}
	check("empty", empty)
}

// TestSaveLoad: Save then Load gives the same scene; the file mode of an
// existing file is kept; no temporary file is left behind.
func TestSaveLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	s := randomScene(7)
	if err := Save(path, s); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Fatal("Load(Save(s)) != s")
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", st.Mode().Perm())
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Save(path, Default()); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode after save %v, want 0600 kept", st.Mode().Perm())
	}
	if got, err := Load(path); err != nil || !reflect.DeepEqual(got, Default()) {
		t.Errorf("reload after overwrite: %v", err)
	}
	// Through a symbolic link: the target is replaced, the link stays.
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("s.json", link); err != nil {
		t.Fatal(err)
	}
	if err := Save(link, s); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced by a file: %v", err)
	}
	if got, err := Load(path); err != nil || !reflect.DeepEqual(got, s) {
		t.Errorf("target not updated through the link: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("directory holds %d entries, want 2 (temporary file left?)", len(entries))
	}
}

// TestSaveInvalidKeepsFile: an invalid scene is refused before anything is
// written, naming the field; the previous file is intact and no temporary
// file is left.
func TestSaveInvalidKeepsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	if err := Save(path, Default()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	cases := []struct {
		edit func(s *Scene)
		want string
	}{
		{func(s *Scene) { s.Objects[1].Shape.Eps[0] = 2.5 }, "objects[1].shape.eps[0] = 2.5: squareness must be in [0.05, 1.95]"},
		{func(s *Scene) { s.Objects[0].Pose.Position[2] = math.NaN() }, "NaN is not a finite number"},
		{func(s *Scene) { s.Objects[2].Name = s.Objects[0].Name }, "objects[2].name = \"tapered\": duplicate object name"},
		{func(s *Scene) { s.Objects[0].Pose.Orientation.W = 3 }, "objects[0].pose.orientation"},
		{func(s *Scene) { s.Solver.Method = 9 }, "solver.method = \"invalid(9)\""},
	}
	for _, c := range cases {
		s := Default()
		c.edit(s)
		err := Save(path, s)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("Save: got %v, want an error naming %s and containing %q", err, path, c.want)
		}
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("a failed save changed the file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries in the directory, want 1", len(entries))
	}
	if err := Save(filepath.Join(dir, "missing", "s.json"), Default()); err == nil {
		t.Error("save into a missing directory succeeded")
	}
	if err := Save(dir, Default()); err == nil {
		t.Error("save over a directory succeeded")
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load("does/not/exist.json")
	var se *Error
	if !errors.As(err, &se) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("got %v, want *Error wrapping os.ErrNotExist", err)
	}
	if want := "does/not/exist.json: cannot read: no such file or directory"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}

// TestDefaults: a minimal file gets every documented default.
func TestDefaults(t *testing.T) {
	s, err := Parse([]byte(`{"format": "sovviz-scene", "version": 1, "objects": [
		{"name": "a", "shape": {"a": [1, 2, 3], "eps": [0.5, 1.5]}},
		{"name": "b", "shape": {"a": [1, 1, 1], "eps": [1, 1]}, "color": [0.1, 0.2, 0.3],
		 "pose": {"orientation": [1.0005, 0, 0, 0]}, "mesh": {"method": "marching-triangles"}}],
		"camera": {"distance": 4}}`), "min.json")
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.Objects[0], s.Objects[1]
	if a.Shape.Taper != [2]float64{} || a.Pose != geom.Identity() || !a.Visible || a.Color != PaletteColor(0) ||
		a.Mesh != (Mesh{}) || a.Mesh.EffectiveSlices() != [2]int{64, 32} {
		t.Errorf("object defaults: %+v", a)
	}
	if b.Color != (Color{0.1, 0.2, 0.3, 1}) || b.Pose.Orientation != (geom.Quat{W: 1}) || b.Mesh.Method != MarchingTriangles ||
		b.Mesh.EffectiveEdge(b.Shape) != 0.02 {
		t.Errorf("object b: %+v", b)
	}
	if *s.Camera != (Camera{Distance: 4, Yaw: DefaultYaw, Pitch: DefaultPitch, Fov: DefaultFov}) {
		t.Errorf("camera defaults: %+v", *s.Camera)
	}
	if s.Overlays != DefaultOverlays() || s.Solver != DefaultSolver() || s.Bodies != nil || s.Joints != nil {
		t.Errorf("scene defaults: %+v %+v", s.Overlays, s.Solver)
	}
	// The scene asks for certified overlaps (the view labels them), the
	// rest is contact's defaults.
	o := s.Solver.Options()
	want := contact.DefaultOptions()
	want.CertifyOverlap = true
	if o != want {
		t.Errorf("Options() = %+v, want contact.DefaultOptions() with CertifyOverlap", o)
	}
	if got := a.Body(); got.Shape != a.Shape || got.Pose != a.Pose {
		t.Error("Body() does not carry shape and pose")
	}
}

// TestQuaternionNormalised: quaternions within 1e-3 of unit length are
// normalised; the loaded pose rotates like the normalised input.
func TestQuaternionNormalised(t *testing.T) {
	for _, q := range [][4]float64{{0.7075, 0.7075, 0, 0}, {0.5, 0.5, 0.5, 0.5005}, {-0.9995, 0, 0, 0}, {0, 0, 0, 1}} {
		file := fmt.Sprintf(`{"format": "sovviz-scene", "version": 1, "objects": [{"name": "a", "shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"orientation": [%v, %v, %v, %v]}}]}`, q[0], q[1], q[2], q[3])
		s, err := Parse([]byte(file), "q.json")
		if err != nil {
			t.Fatal(err)
		}
		got := s.Objects[0].Pose.Orientation
		n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		want := [4]float64{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
		if math.Abs(got.W*got.W+got.V.Dot(got.V)-1) > 1e-15 {
			t.Errorf("%v: not unit: %v", q, got)
		}
		for i, g := range [4]float64{got.W, got.V[0], got.V[1], got.V[2]} {
			if math.Abs(g-want[i]) > 1e-15 {
				t.Errorf("%v: got %v, want %v", q, got, want)
			}
		}
	}
}

// Base of the error cases: one valid object; %s is replaced.
const okShape = `"shape": {"a": [1, 1, 1], "eps": [1, 1]}`

func sceneWith(objects string, extra string) string {
	return `{"format": "sovviz-scene", "version": 1, "objects": [` + objects + `]` + extra + `}`
}

func obj(name, fields string) string {
	return `{"name": "` + name + `", ` + fields + `}`
}

type errorCase struct {
	name   string
	file   string
	want   string // the whole message, file name "x.json"
	schema bool   // the schema alone can tell it is wrong
}

var errorCases = []errorCase{
	{"eps out of range", sceneWith(obj("a", `"shape": {"a": [1, 1, 1], "eps": [1, 2.5]}`), ""),
		"x.json: objects[0].shape.eps[1] = 2.5: squareness must be in [0.05, 1.95]", true},
	{"eps in the 4th object", sceneWith(obj("a", okShape)+","+obj("b", okShape)+","+obj("c", okShape)+","+obj("d", `"shape": {"a": [1, 1, 1], "eps": [0.04, 1]}`), ""),
		"x.json: objects[3].shape.eps[0] = 0.04: squareness must be in [0.05, 1.95]", true},
	{"negative semi-axis", sceneWith(obj("a", `"shape": {"a": [-1, 1, 1], "eps": [1, 1]}`), ""),
		"x.json: objects[0].shape.a[0] = -1: semi-axis must be > 0", true},
	{"huge semi-axis", sceneWith(obj("a", `"shape": {"a": [1, 1, 1e7], "eps": [1, 1]}`), ""),
		"x.json: objects[0].shape.a[2] = 1e7: semi-axis must be in [1e-06, 1e+06]", true},
	{"taper out of range", sceneWith(obj("a", `"shape": {"a": [1, 1, 1], "eps": [1, 1], "taper": [0, -0.6]}`), ""),
		"x.json: objects[0].shape.taper[1] = -0.6: taper must be in [-0.5, 0.5]", true},
	{"three eps", sceneWith(obj("a", `"shape": {"a": [1, 1, 1], "eps": [1, 1, 1]}`), ""),
		"x.json: objects[0].shape.eps = [1, 1, 1]: must be an array of 2 numbers [e1,e2]", true},
	{"string in a", sceneWith(obj("a", `"shape": {"a": [1, "2", 1], "eps": [1, 1]}`), ""),
		`x.json: objects[0].shape.a[1] = "2": must be a number, not a string`, true},
	{"number too large", sceneWith(obj("a", `"shape": {"a": [1, 1e999, 1], "eps": [1, 1]}`), ""),
		"x.json: objects[0].shape.a[1] = 1e999: number out of range", false},
	{"number too small", sceneWith(obj("a", `"shape": {"a": [1, 1e-999, 1], "eps": [1, 1]}`), ""),
		"x.json: objects[0].shape.a[1] = 1e-999: number out of range", false},
	{"missing shape", sceneWith(obj("a", `"visible": true`), ""),
		`x.json: objects[0].shape: missing ({"a": [a1,a2,a3], "eps": [e1,e2], "taper": [tx,ty]})`, true},
	{"missing eps", sceneWith(obj("a", `"shape": {"a": [1, 1, 1]}`), ""),
		"x.json: objects[0].shape.eps: missing (squareness [e1,e2])", true},
	{"missing name", sceneWith(`{`+okShape+`}`, ""),
		"x.json: objects[0].name: missing (a unique non-empty string)", true},
	{"empty name", sceneWith(obj("", okShape), ""),
		`x.json: objects[0].name = "": name must not be empty`, true},
	{"unknown object field", sceneWith(obj("a", okShape+`, "colour": [1, 0, 0]`), ""),
		"x.json: objects[0].colour: unknown field (expected one of: name, shape, pose, color, visible, mesh)", true},
	{"unknown shape field", sceneWith(obj("a", `"shape": {"a": [1, 1, 1], "eps": [1, 1], "tapper": [0, 0]}`), ""),
		"x.json: objects[0].shape.tapper: unknown field (expected one of: a, eps, taper)", true},
	{"unknown top field", sceneWith(obj("a", okShape), `, "objekts": []`),
		"x.json: objekts: unknown field (expected one of: format, version, description, objects, camera, overlays, solver, bodies, joints)", true},
	{"odd key", sceneWith(obj("a", okShape), `, "two words": 1`),
		`x.json: ["two words"]: unknown field (expected one of: format, version, description, objects, camera, overlays, solver, bodies, joints)`, true},
	{"duplicate names", sceneWith(obj("thumb", okShape)+","+obj("index", okShape)+","+obj("thumb", okShape), ""),
		`x.json: objects[2].name = "thumb": duplicate object name (objects[0] has it too)`, false},
	{"duplicate key", sceneWith(obj("a", `"shape": {"a": [1, 1, 1], "eps": [1, 1], "a": [2, 2, 2]}`), ""),
		"x.json: objects[0].shape.a: duplicate key", false},
	{"quaternion not unit", sceneWith(obj("a", okShape+`, "pose": {"orientation": [1, 0.5, 0, 0]}`), ""),
		"x.json: objects[0].pose.orientation = [1, 0.5, 0, 0]: quaternion [w,x,y,z] must have unit length within 0.001 (|q| = 1.11803)", false},
	{"quaternion zero", sceneWith(obj("a", okShape+`, "pose": {"orientation": [0, 0, 0, 0]}`), ""),
		"x.json: objects[0].pose.orientation = [0, 0, 0, 0]: quaternion [w,x,y,z] must have unit length within 0.001 (|q| = 0)", false},
	{"position huge", sceneWith(obj("a", okShape+`, "pose": {"position": [0, 2e6, 0]}`), ""),
		"x.json: objects[0].pose.position[1] = 2e6: coordinate must be in [-1e+06, 1e+06]", true},
	{"pose unknown", sceneWith(obj("a", okShape+`, "pose": {"rotation": [1, 0, 0, 0]}`), ""),
		"x.json: objects[0].pose.rotation: unknown field (expected one of: position, orientation)", true},
	{"colour channel", sceneWith(obj("a", okShape+`, "color": [0.5, 1.5, 0]`), ""),
		"x.json: objects[0].color[1] = 1.5: colour channels must be in [0, 1]", true},
	{"colour length", sceneWith(obj("a", okShape+`, "color": [0.5, 1]`), ""),
		"x.json: objects[0].color = [0.5, 1]: must be an array of 3 or 4 numbers [r,g,b] or [r,g,b,a]", true},
	{"visible string", sceneWith(obj("a", okShape+`, "visible": "yes"`), ""),
		`x.json: objects[0].visible = "yes": must be true or false, not a string`, true},
	{"mesh method", sceneWith(obj("a", okShape+`, "mesh": {"method": "voxels"}`), ""),
		`x.json: objects[0].mesh.method = "voxels": must be one of "grid", "marching-triangles"`, true},
	{"edge with grid", sceneWith(obj("a", okShape+`, "mesh": {"edge": 0.05}`), ""),
		`x.json: objects[0].mesh.edge = 0.05: edge applies to "method": "marching-triangles" only (use "slices" for "grid")`, false},
	{"slices with marching", sceneWith(obj("a", okShape+`, "mesh": {"method": "marching-triangles", "slices": [8, 8]}`), ""),
		`x.json: objects[0].mesh.slices = [8, 8]: slices apply to "method": "grid" only (use "edge" for "marching-triangles")`, false},
	{"edge too short", sceneWith(obj("a", `"shape": {"a": [0.5, 2, 1], "eps": [1, 1]}, "mesh": {"method": "marching-triangles", "edge": 0.001}`), ""),
		"x.json: objects[0].mesh.edge = 0.001: edge length must be in [0.004, 2] (0.002 to 1 times the largest semi-axis)", false},
	{"slices fraction", sceneWith(obj("a", okShape+`, "mesh": {"slices": [64.5, 32]}`), ""),
		"x.json: objects[0].mesh.slices[0] = 64.5: must be an integer", true},
	{"slices too few", sceneWith(obj("a", okShape+`, "mesh": {"slices": [2, 32]}`), ""),
		"x.json: objects[0].mesh.slices[0] = 2: must be in [3, 1024]", false},
	{"camera distance missing", sceneWith(obj("a", okShape), `, "camera": {"yaw": 10}`),
		"x.json: camera.distance: missing (from the target to the eye, > 0)", true},
	{"camera distance zero", sceneWith(obj("a", okShape), `, "camera": {"distance": 0}`),
		"x.json: camera.distance = 0: distance must be in (0, 1e9]", true},
	{"camera pitch", sceneWith(obj("a", okShape), `, "camera": {"distance": 3, "pitch": 100}`),
		"x.json: camera.pitch = 100: pitch must be in [-90, 90] degrees", true},
	{"projection", sceneWith(obj("a", okShape), `, "camera": {"distance": 3, "projection": "fisheye"}`),
		`x.json: camera.projection = "fisheye": must be one of "persp", "ortho"`, true},
	{"overlay not bool", sceneWith(obj("a", okShape), `, "overlays": {"normals": 1}`),
		"x.json: overlays.normals = 1: must be true or false, not a number", true},
	{"overlay unknown", sceneWith(obj("a", okShape), `, "overlays": {"contacts": true}`),
		"x.json: overlays.contacts: unknown field (expected one of: witness, segment, labels, normals, tangents, seeds, octree, param_panel, grid, axes, xray)", true},
	{"solver method", sceneWith(obj("a", okShape), `, "solver": {"method": "newton"}`),
		`x.json: solver.method = "newton": must be one of "implicit", "parametric", "ntb"`, true},
	{"solver tol", sceneWith(obj("a", okShape), `, "solver": {"tol": 0}`),
		"x.json: solver.tol = 0: tolerance must be in [1e-15, 0.01]", true},
	{"solver max_iter", sceneWith(obj("a", okShape), `, "solver": {"max_iter": 0}`),
		"x.json: solver.max_iter = 0: must be in [1, 1000]", true},
	{"solver quad_levels", sceneWith(obj("a", okShape), `, "solver": {"quad_levels": 13}`),
		"x.json: solver.quad_levels = 13: must be in [1, 12]", true},
	{"solver certify_overlap", sceneWith(obj("a", okShape), `, "solver": {"certify_overlap": "yes"}`),
		`x.json: solver.certify_overlap = "yes": must be true or false, not a string`, true},
	{"body unknown object", sceneWith(obj("a", okShape), `, "bodies": [{"name": "f", "objects": ["a", "b"]}]`),
		`x.json: bodies[0].objects[1] = "b": no object has this name`, false},
	{"object in two bodies", sceneWith(obj("a", okShape), `, "bodies": [{"name": "f", "objects": ["a"]}, {"name": "g", "objects": ["a"]}]`),
		`x.json: bodies[1].objects[0] = "a": object already belongs to bodies[0]`, false},
	{"joint unknown parent", sceneWith(obj("a", okShape), `, "bodies": [{"name": "f", "objects": ["a"]}], "joints": [{"name": "j", "type": "revolute", "parent": "palm", "child": "f"}]`),
		`x.json: joints[0].parent = "palm": no body has this name`, false},
	{"joint to itself", sceneWith(obj("a", okShape), `, "bodies": [{"name": "f", "objects": ["a"]}], "joints": [{"name": "j", "type": "fixed", "parent": "f", "child": "f"}]`),
		`x.json: joints[0].child = "f": a joint must connect two different bodies`, false},
	{"joint type", sceneWith(obj("a", okShape), `, "bodies": [{"name": "f", "objects": ["a"]}], "joints": [{"name": "j", "type": "ball", "parent": "f", "child": "f"}]`),
		`x.json: joints[0].type = "ball": must be one of "fixed", "revolute", "prismatic"`, true},
	{"wrong format", `{"format": "gltf", "version": 1, "objects": []}`,
		`x.json: format = "gltf": not a sovviz scene (expected "sovviz-scene")`, true},
	{"no format", `{"objects": []}`,
		`x.json: format: missing: not a sovviz scene (a scene starts with "format": "sovviz-scene", "version": 1)`, true},
	{"newer version", `{"format": "sovviz-scene", "version": 2, "objects": [], "lights": []}`,
		"x.json: version = 2: unsupported version: this sovviz reads version 1", true},
	{"objects not array", `{"format": "sovviz-scene", "version": 1, "objects": {}}`,
		"x.json: objects = {}: must be an array of objects, not an object", true},
	{"objects missing", `{"format": "sovviz-scene", "version": 1}`,
		"x.json: objects: missing (an array of objects, may be empty)", true},
	{"top-level array", `[1, 2]`,
		"x.json: the top-level value must be an object, not an array", true},
	{"syntax: missing comma", "{\n  \"format\": \"sovviz-scene\"\n  \"version\": 1\n}",
		"x.json:3:3: JSON syntax error: invalid character '\"' after object key:value pair", false},
	{"syntax: trailing comma", "{\"format\": \"sovviz-scene\", \"version\": 1, \"objects\": [],\n}",
		"x.json:2:1: JSON syntax error: invalid character '}' looking for beginning of object key string", false},
	{"syntax: truncated", "{\"format\": \"sovviz-scene\",\n \"version\": 1, \"obj",
		"x.json:2:20: JSON syntax error: unexpected end of file", false},
	{"syntax: trailing data", sceneWith("", "") + "\n{}",
		"x.json:2:1: JSON syntax error: unexpected data after the top-level value", false},
	{"empty file", "",
		"x.json:1:1: JSON syntax error: unexpected end of file", false},
	{"not UTF-8", "{\"format\": \"sovviz-scene\xff\"}",
		"x.json: JSON syntax error: file is not valid UTF-8", false},
}

// TestErrorMessages: every bad file is rejected with exactly the message
// naming the file, the path, the value and the reason.
func TestErrorMessages(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse([]byte(tc.file), "x.json")
			if err == nil {
				t.Fatalf("accepted: %+v", s)
			}
			if err.Error() != tc.want {
				t.Errorf("got  %s\nwant %s", err, tc.want)
			}
			var se *Error
			if !errors.As(err, &se) || se.File != "x.json" {
				t.Errorf("not a *scene.Error naming the file: %#v", err)
			}
		})
	}
}

// TestParamErrorWrapped: shape errors keep geom's *ParamError as cause.
func TestParamErrorWrapped(t *testing.T) {
	_, err := Parse([]byte(errorCases[0].file), "x.json")
	var pe *geom.ParamError
	if !errors.As(err, &pe) || pe.Field != "eps[1]" || pe.Value != 2.5 {
		t.Fatalf("got %#v, want a wrapped *geom.ParamError for eps[1]", err)
	}
}

func TestDeepNesting(t *testing.T) {
	deep := sceneWith("", `, "description": `+strings.Repeat("[", 5000)+strings.Repeat("]", 5000))
	if _, err := Parse([]byte(deep), "x.json"); err == nil || !strings.Contains(err.Error(), "nesting deeper than 64 levels") {
		t.Fatalf("got %v", err)
	}
}

// FuzzParse: Parse never panics; it either fails with a *Error naming the
// file, or returns a valid scene that survives a round trip unchanged.
func FuzzParse(f *testing.F) {
	f.Add(defaultJSON)
	for _, tc := range errorCases {
		f.Add([]byte(tc.file))
	}
	if files, err := filepath.Glob("../scenes/*.json"); err == nil {
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz.json")
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.File != "fuzz.json" || se.Reason == "" {
				t.Fatalf("error is not a *scene.Error naming the file: %#v", err)
			}
			return
		}
		for i := range s.Objects {
			b := s.Objects[i].Body()
			if err := b.Validate(); err != nil {
				t.Fatalf("accepted an invalid object %d: %v", i, err)
			}
		}
		out, err := Marshal(s)
		if err != nil {
			t.Fatalf("Marshal of a parsed scene: %v", err)
		}
		s2, err := Parse(out, "fuzz.json")
		if err != nil {
			t.Fatalf("reparse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(s, s2) {
			t.Fatalf("round trip differs")
		}
	})
}

// TestCertifyOverlapWrittenWhenOff: certify_overlap is written only when
// off, so that scenes keeping the default load in builds that predate it;
// both read back.
func TestCertifyOverlapWrittenWhenOff(t *testing.T) {
	s := Default()
	for _, on := range []bool{true, false} {
		s.Solver.CertifyOverlap = on
		data, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "certify_overlap") == on {
			t.Errorf("certify_overlap %v: written %v", on, !on)
		}
		back, err := Parse(data, "x.json")
		if err != nil || back.Solver.CertifyOverlap != on {
			t.Errorf("certify_overlap %v: read back %v (%v)", on, back.Solver.CertifyOverlap, err)
		}
	}
}
