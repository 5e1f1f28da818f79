package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
	"github.com/sovviz/sovviz/tessellate"
)

const testShape = `{"a":[1,0.7,0.5],"eps":[0.3,1.4],"taper":[0.3,-0.2]}`

// readBack parses a file written by sovviz mesh: positions and triangles
// (for STL, the corners of every triangle, unshared).
func readBack(t *testing.T, path string) (pos []geom.Vec3, tris [][3]int, stlCount int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f32 := func(b []byte) geom.Vec3 {
		var v geom.Vec3
		for k := 0; k < 3; k++ {
			v[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:])))
		}
		return v
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".obj":
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 4 && f[0] == "v":
				var v geom.Vec3
				for k := range v {
					if v[k], err = strconv.ParseFloat(f[k+1], 64); err != nil {
						t.Fatalf("%s: %v", path, err)
					}
				}
				pos = append(pos, v)
			case len(f) == 4 && f[0] == "f":
				var tr [3]int
				for k := range tr {
					i, _, _ := strings.Cut(f[k+1], "//")
					if tr[k], err = strconv.Atoi(i); err != nil {
						t.Fatalf("%s: %v", path, err)
					}
					tr[k]--
				}
				tris = append(tris, tr)
			}
		}
	case ".stl":
		stlCount = int(binary.LittleEndian.Uint32(data[80:]))
		if len(data) != 84+50*stlCount {
			t.Fatalf("%s: %d bytes for %d triangles", path, len(data), stlCount)
		}
		for k := 0; k < stlCount; k++ {
			r := data[84+50*k:]
			n := len(pos)
			pos = append(pos, f32(r[12:]), f32(r[24:]), f32(r[36:]))
			tris = append(tris, [3]int{n, n + 1, n + 2})
		}
	case ".ply":
		end := bytes.Index(data, []byte("end_header\n"))
		var nv, nf int
		for _, l := range strings.Split(string(data[:end]), "\n") {
			if f := strings.Fields(l); len(f) == 3 && f[0] == "element" {
				n, _ := strconv.Atoi(f[2])
				if f[1] == "vertex" {
					nv = n
				} else {
					nf = n
				}
			}
		}
		body := data[end+len("end_header\n"):]
		if len(body) != 24*nv+13*nf {
			t.Fatalf("%s: body of %d bytes for %d vertices, %d faces", path, len(body), nv, nf)
		}
		for i := 0; i < nv; i++ {
			pos = append(pos, f32(body[24*i:]))
		}
		for k := 0; k < nf; k++ {
			r := body[24*nv+13*k:]
			tris = append(tris, [3]int{int(binary.LittleEndian.Uint32(r[1:])), int(binary.LittleEndian.Uint32(r[5:])), int(binary.LittleEndian.Uint32(r[9:]))})
		}
	}
	return pos, tris, stlCount
}

func runMeshCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = dispatch(append([]string{"mesh"}, args...), strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

// TestMeshFormats: every format parses back to the mesh the library builds,
// and the report has every statistic.
func TestMeshFormats(t *testing.T) {
	dir := t.TempDir()
	s, err := parseShapeFlag(testShape)
	if err != nil {
		t.Fatal(err)
	}
	var g tessellate.Grid
	want, _ := g.Build(s, 20, 10)
	want = want.Clone()
	var mt tessellate.Marcher
	wantMT, _ := mt.Build(s, tessellate.MarchOptions{Edge: 0.1})
	wantMT = wantMT.Clone()
	for _, ext := range []string{".obj", ".stl", ".ply", ".OBJ"} {
		for _, method := range []string{"grid", "marching-triangles"} {
			out := filepath.Join(dir, method+ext)
			args := []string{"-shape", testShape, "-method", method, "-o", out}
			ref := want
			if method == "grid" {
				args = append(args, "-slices", "20,10")
			} else {
				args = append(args, "-edge", "0.1")
				ref = wantMT
			}
			code, stdout, stderr := runMeshCmd(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			for _, w := range []string{
				"vertices:  " + strconv.Itoa(ref.NumVertices()),
				"triangles: " + strconv.Itoa(ref.NumTriangles()),
				"min angle: min ", "median", "% of triangles ≥ 30°",
				"deviation: max ", "time:      mesh ",
			} {
				if !strings.Contains(stdout, w) {
					t.Errorf("%v: report lacks %q:\n%s", args, w, stdout)
				}
			}
			pos, tris, count := readBack(t, out)
			tol := 1e-6 // float32 in STL and PLY
			if strings.EqualFold(ext, ".obj") {
				tol = 0
			}
			if strings.EqualFold(ext, ".stl") {
				if count != ref.NumTriangles() {
					t.Fatalf("%s: STL header says %d triangles, want %d", out, count, ref.NumTriangles())
				}
				for k, tr := range tris {
					a, b, c := ref.Triangle(k)
					for j, p := range []geom.Vec3{a, b, c} {
						if pos[tr[j]].Sub(p).Len() > tol {
							t.Fatalf("%s: triangle %d corner %d at %v, want %v", out, k, j, pos[tr[j]], p)
						}
					}
				}
				continue
			}
			if len(pos) != ref.NumVertices() || len(tris) != ref.NumTriangles() {
				t.Fatalf("%s: %d vertices, %d triangles; want %d, %d", out, len(pos), len(tris), ref.NumVertices(), ref.NumTriangles())
			}
			for i, p := range pos {
				if p.Sub(ref.Positions[i]).Len() > tol {
					t.Fatalf("%s: vertex %d at %v, want %v", out, i, p, ref.Positions[i])
				}
			}
			for k, tr := range tris {
				for j := 0; j < 3; j++ {
					if uint32(tr[j]) != ref.Indices[3*k+j] {
						t.Fatalf("%s: triangle %d = %v", out, k, tr)
					}
				}
			}
		}
	}
	// No temporary files are left behind.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("leftover %s", e.Name())
		}
	}
}

// TestMeshScene: -scene/-object takes the object's shape, pose and mesh
// settings; vertices land on the posed surface (world frame) or on the
// shape (-local).
func TestMeshScene(t *testing.T) {
	dir := t.TempDir()
	sc := scene.Default()
	path := filepath.Join(dir, "s.json")
	data, err := scene.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	o := sc.Objects[len(sc.Objects)-1]
	for _, local := range []bool{false, true} {
		out := filepath.Join(dir, "o.obj")
		args := []string{"-scene", path, "-object", o.Name, "-method", "grid", "-slices", "16,8", "-o", out}
		if local {
			args = append(args, "-local")
		}
		code, stdout, stderr := runMeshCmd(args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if want := map[bool]string{false: "world frame", true: "object frame"}[local]; !strings.Contains(stdout, want) {
			t.Errorf("report does not say %q:\n%s", want, stdout)
		}
		pos, _, _ := readBack(t, out)
		for i, p := range pos {
			if !local {
				p = o.Pose.ToLocal(p)
			}
			if r, ok := o.Shape.Residual(p); !ok || math.Abs(r) > 1e-9 {
				t.Fatalf("local=%v: vertex %d off the surface by %g", local, i, r)
			}
		}
	}
}

// TestMeshErrors: bad flags, shapes, scenes and objects give a message that
// names the culprit, a non-zero exit and no output file at all.
func TestMeshErrors(t *testing.T) {
	dir := t.TempDir()
	badScene := filepath.Join(dir, "bad.json")
	os.WriteFile(badScene, []byte(`{"format":"sovviz-scene","version":1,"objects":[{"name":"x","shape":{"a":[1,1,1],"eps":[1,9]}}]}`), 0o644)
	good := filepath.Join(dir, "good.json")
	data, _ := scene.Marshal(scene.Default())
	os.WriteFile(good, data, 0o644)
	out := filepath.Join(dir, "out.obj")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-shape", testShape}, "-o FILE is required"},
		{[]string{"-shape", testShape, "-o", filepath.Join(dir, "x.off")}, `unknown mesh format ".off"`},
		{[]string{"-o", out}, "no shape"},
		{[]string{"-shape", `{"a":[1,1,1],"eps":[1,3]}`, "-o", out}, "shape.eps[1] = 3"},
		{[]string{"-shape", `{"a":[1,1],"eps":[1,1]}`, "-o", out}, "shape.a"},
		{[]string{"-shape", `{"a":[1,1,1],"eps":[1,1],"tapper":[0,0]}`, "-o", out}, "shape.tapper: unknown field"},
		{[]string{"-shape", `{"a":[1,1,1],`, "-o", out}, "invalid JSON"},
		{[]string{"-shape", testShape, "-scene", good, "-object", "x", "-o", out}, "not both"},
		{[]string{"-scene", good, "-o", out}, "-scene and -object go together"},
		{[]string{"-scene", filepath.Join(dir, "missing.json"), "-object", "a", "-o", out}, "missing.json"},
		{[]string{"-scene", badScene, "-object", "x", "-o", out}, "eps[1]"},
		{[]string{"-scene", good, "-object", "nobody", "-o", out}, `-object "nobody"`},
		{[]string{"-shape", testShape, "-method", "cubes", "-o", out}, `-method "cubes"`},
		{[]string{"-shape", testShape, "-slices", "64", "-o", out}, `-slices "64"`},
		{[]string{"-shape", testShape, "-slices", "2,32", "-o", out}, `-slices "2,32"`},
		{[]string{"-shape", testShape, "-method", "marching-triangles", "-slices", "8,8", "-o", out}, "-slices applies to -method grid"},
		{[]string{"-shape", testShape, "-edge", "0", "-o", out}, "-edge 0"},
		{[]string{"-shape", testShape, "-edge", "NaN", "-o", out}, "-edge NaN"},
		{[]string{"-shape", testShape, "-edge", "0.1", "-slices", "8,8", "-o", out}, "not both"},
		{[]string{"-shape", testShape, "-method", "marching-triangles", "-edge", "0.9", "-o", out}, "smallest semi-axis"},
		{[]string{"-shape", testShape, "-adaptive", "-o", out}, "-adaptive"},
		{[]string{"-shape", testShape, "-method", "marching-triangles", "-min-edge", "0.01", "-o", out}, "-min-edge needs -adaptive"},
		{[]string{"-shape", testShape, "-local", "-o", out}, "-local"},
		{[]string{"-shape", testShape, "-bogus", "-o", out}, "flag provided but not defined"},
		{[]string{"-shape", testShape, "-o", out, "extra"}, `unexpected argument "extra"`},
		{[]string{"-shape", testShape, "-o", filepath.Join(dir, "no", "such", "dir.obj")}, "dir.obj"},
	} {
		code, _, stderr := runMeshCmd(c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want non-zero and %q", c.args, code, stderr, c.want)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if n := e.Name(); n != "bad.json" && n != "good.json" {
			t.Errorf("a failed run left %s behind", n)
		}
	}
}

// TestMeshExitStatus: a setting the marcher refuses for this shape is a
// usage error like any bad flag (exit 2, docs/mesh.md), and nothing is
// written; a failed write exits 1.
func TestMeshExitStatus(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "c.obj")
	knife := `{"a":[0.3,1.8,1],"eps":[1.9,1],"taper":[0.5,-0.5]}`
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-shape", knife, "-method", "marching-triangles", "-edge", "0.5", "-o", out}, 2,
			"-edge 0.5: marching triangles need an edge of at most the smallest semi-axis 0.3"},
		{[]string{"-shape", knife, "-method", "marching-triangles", "-edge", "0.1", "-adaptive", "-min-edge", "0.2", "-o", out}, 2,
			"-min-edge 0.2: must not exceed the edge 0.1"},
		{[]string{"-shape", "{\"a\":[1,1,1],\"eps\":[1,3]}", "-o", out}, 2, "shape.eps[1] = 3"},
		{[]string{"-shape", `{"a":[0.01,1,1],"eps":[1,1]}`, "-method", "marching-triangles", "-o", out}, 2,
			"the default edge 0.02 (the object's mesh.edge, else 2% of the largest semi-axis) exceeds the smallest semi-axis 0.01: give -edge at most 0.01"},
		// Thinner than any edge -edge accepts (0.002 of the largest
		// semi-axis): no edge to advise (a review found "give -edge at
		// most 1e-06", which -edge then refused).
		{[]string{"-shape", `{"a":[0.001,1,1],"eps":[1,1]}`, "-method", "marching-triangles", "-o", out}, 2,
			"below the shortest edge allowed (0.002 of the largest semi-axis, 0.002): this shape is too thin for them; use -method grid"},
		{[]string{"-shape", `{"a":[0.001,1,1],"eps":[1,1]}`, "-method", "marching-triangles", "-edge", "0.002", "-o", out}, 2,
			"this shape is too thin for them"},
		{[]string{"-shape", testShape, "-o", filepath.Join(dir, "no", "such", "dir.obj")}, 1, "dir.obj"},
	} {
		code, _, stderr := runMeshCmd(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q: wrote %s", c.args, out)
		}
	}
}

// TestMeshKeepsOldFileOnError: a failed write leaves an existing output
// untouched (the rename never happens).
func TestMeshKeepsOldFileOnError(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.stl")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runMeshCmd("-shape", `{"a":[1,1,1],"eps":[1,7]}`, "-o", out); code == 0 {
		t.Fatal("bad shape accepted")
	}
	if b, _ := os.ReadFile(out); string(b) != "old" {
		t.Errorf("output replaced after an error: %q", b)
	}
}

func FuzzParseSlices(f *testing.F) {
	for _, s := range []string{"64,32", "3,2", "4096,2048", "64", ",", "64,32,1", " 8 , 8 ", "-1,5", "1e3,2", "0x10,4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		az, ze, err := parseSlices(s)
		if err != nil {
			if az != 0 || ze != 0 || !strings.Contains(err.Error(), "-slices") {
				t.Fatalf("%q: bad error result %d %d %v", s, az, ze, err)
			}
			return
		}
		if az < tessellate.MinSlicesAz || az > tessellate.MaxSlicesAz || ze < tessellate.MinSlicesZe || ze > tessellate.MaxSlicesZe {
			t.Fatalf("%q: accepted out-of-range %d,%d", s, az, ze)
		}
		// Whatever is accepted builds a valid grid.
		var g tessellate.Grid
		if az*ze <= 1<<16 {
			if _, err := g.Build(geom.Sphere(1), az, ze); err != nil {
				t.Fatalf("%q: accepted but Build fails: %v", s, err)
			}
		}
	})
}

// A mesh with any triangle below 30° never reads 100.0% (a review saw
// "100.0% of triangles ≥ 30°" beside a minimum angle of 21.91°).
func TestPercentDown(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{{1, "100.0%"}, {0.9996, "99.9%"}, {0.99999, "99.9%"}, {0.5, "50.0%"}, {0.12345, "12.3%"}, {0, "0.0%"}} {
		if got := percentDown(c.f); got != c.want {
			t.Errorf("percentDown(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

// A scene file that cannot be read is a failure (exit 1), as in render and
// the GUI, not a usage error (a review found mesh exiting 2 there).
func TestMeshUnreadableScene(t *testing.T) {
	code, _, stderr := runMeshCmd("-scene", filepath.Join(t.TempDir(), "none.json"), "-object", "a", "-o", filepath.Join(t.TempDir(), "a.obj"))
	if code != 1 || !strings.Contains(stderr, "sovviz mesh: -scene: ") || !strings.Contains(stderr, "cannot read") {
		t.Errorf("exit %d, stderr %q; want exit 1 and \"sovviz mesh: -scene: … cannot read …\"", code, stderr)
	}
}
