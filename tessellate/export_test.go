package tessellate

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// readOBJ is a minimal OBJ reader: v, vn and f a//a b//b c//c lines.
func readOBJ(data []byte) (*Mesh, error) {
	m := &Mesh{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for ln := 1; sc.Scan(); ln++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] == "#" {
			continue
		}
		switch f[0] {
		case "v", "vn":
			if len(f) != 4 {
				return nil, fmt.Errorf("line %d: %q", ln, sc.Text())
			}
			var v geom.Vec3
			for k := 0; k < 3; k++ {
				x, err := strconv.ParseFloat(f[k+1], 64)
				if err != nil {
					return nil, fmt.Errorf("line %d: %v", ln, err)
				}
				v[k] = x
			}
			if f[0] == "v" {
				m.Positions = append(m.Positions, v)
			} else {
				m.Normals = append(m.Normals, v)
			}
		case "f":
			if len(f) != 4 {
				return nil, fmt.Errorf("line %d: not a triangle: %q", ln, sc.Text())
			}
			for _, c := range f[1:] {
				vi, ni, ok := strings.Cut(c, "//")
				if !ok || vi != ni {
					return nil, fmt.Errorf("line %d: corner %q: want v//v", ln, c)
				}
				i, err := strconv.Atoi(vi)
				if err != nil || i < 1 {
					return nil, fmt.Errorf("line %d: corner %q", ln, c)
				}
				m.Indices = append(m.Indices, uint32(i-1))
			}
		default:
			return nil, fmt.Errorf("line %d: unknown tag %q", ln, f[0])
		}
	}
	return m, sc.Err()
}

// readSTL returns the header count and the triangle corners and normals.
func readSTL(data []byte) (count uint32, corners [][3]geom.Vec3, normals []geom.Vec3, err error) {
	if len(data) < 84 {
		return 0, nil, nil, fmt.Errorf("STL of %d bytes", len(data))
	}
	count = binary.LittleEndian.Uint32(data[80:])
	body := data[84:]
	if len(body) != 50*int(count) {
		return count, nil, nil, fmt.Errorf("STL body %d bytes for %d triangles", len(body), count)
	}
	f := func(b []byte) geom.Vec3 {
		var v geom.Vec3
		for k := 0; k < 3; k++ {
			v[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:])))
		}
		return v
	}
	for t := 0; t < int(count); t++ {
		r := body[50*t:]
		normals = append(normals, f(r))
		corners = append(corners, [3]geom.Vec3{f(r[12:]), f(r[24:]), f(r[36:])})
		if r[48] != 0 || r[49] != 0 {
			return count, nil, nil, fmt.Errorf("triangle %d: attribute bytes not 0", t)
		}
	}
	return count, corners, normals, nil
}

// readPLY reads the binary little-endian PLY that Write produces.
func readPLY(data []byte) (*Mesh, error) {
	end := bytes.Index(data, []byte("end_header\n"))
	if end < 0 || !bytes.HasPrefix(data, []byte("ply\nformat binary_little_endian 1.0\n")) {
		return nil, fmt.Errorf("no PLY header")
	}
	var nv, nf int
	props := 0
	for _, l := range strings.Split(string(data[:end]), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 3 && f[0] == "element" && f[1] == "vertex":
			nv, _ = strconv.Atoi(f[2])
		case len(f) == 3 && f[0] == "element" && f[1] == "face":
			nf, _ = strconv.Atoi(f[2])
		case len(f) == 3 && f[0] == "property" && f[1] == "float":
			props++
		}
	}
	body := data[end+len("end_header\n"):]
	if len(body) != nv*4*props+nf*13 {
		return nil, fmt.Errorf("PLY body %d bytes for %d vertices of %d floats and %d faces", len(body), nv, props, nf)
	}
	m := &Mesh{}
	f := func(b []byte) geom.Vec3 {
		var v geom.Vec3
		for k := 0; k < 3; k++ {
			v[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:])))
		}
		return v
	}
	for i := 0; i < nv; i++ {
		r := body[4*props*i:]
		m.Positions = append(m.Positions, f(r))
		if props == 6 {
			m.Normals = append(m.Normals, f(r[12:]))
		}
	}
	body = body[4*props*nv:]
	for t := 0; t < nf; t++ {
		r := body[13*t:]
		if r[0] != 3 {
			return nil, fmt.Errorf("face %d has %d corners", t, r[0])
		}
		for k := 0; k < 3; k++ {
			m.Indices = append(m.Indices, binary.LittleEndian.Uint32(r[1+4*k:]))
		}
	}
	return m, nil
}

func sameMesh(t *testing.T, name string, got, want *Mesh, tol float64) {
	t.Helper()
	if got.NumVertices() != want.NumVertices() || got.NumTriangles() != want.NumTriangles() || len(got.Normals) != len(want.Normals) {
		t.Fatalf("%s: %d vertices, %d normals, %d triangles; want %d, %d, %d", name,
			got.NumVertices(), len(got.Normals), got.NumTriangles(), want.NumVertices(), len(want.Normals), want.NumTriangles())
	}
	for i := range want.Positions {
		if d := got.Positions[i].Sub(want.Positions[i]).Len(); d > tol {
			t.Fatalf("%s: vertex %d at %v, want %v", name, i, got.Positions[i], want.Positions[i])
		}
		if d := got.Normals[i].Sub(want.Normals[i]).Len(); d > tol {
			t.Fatalf("%s: normal %d %v, want %v", name, i, got.Normals[i], want.Normals[i])
		}
	}
	for i := range want.Indices {
		if got.Indices[i] != want.Indices[i] {
			t.Fatalf("%s: index %d = %d, want %d", name, i, got.Indices[i], want.Indices[i])
		}
	}
}

// TestExportRoundTrip writes a grid and a marching-triangles mesh in every
// format and reads them back.
func TestExportRoundTrip(t *testing.T) {
	s := geom.Superovoid{A: [3]float64{1, 0.7, 0.5}, Eps: [2]float64{0.3, 1.4}, Taper: [2]float64{0.3, -0.2}}
	var g Grid
	gm, err := g.Build(s, 12, 6)
	if err != nil {
		t.Fatal(err)
	}
	var mt Marcher
	mm, err := mt.Build(s, MarchOptions{Edge: 0.15})
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]*Mesh{"grid": gm.Clone(), "marching": mm.Clone()} {
		var buf bytes.Buffer
		if err := m.Write(&buf, OBJ); err != nil {
			t.Fatal(err)
		}
		back, err := readOBJ(buf.Bytes())
		if err != nil {
			t.Fatalf("%s OBJ: %v", name, err)
		}
		sameMesh(t, name+" OBJ", back, m, 0) // shortest round-trip decimals: exact

		buf.Reset()
		if err := m.Write(&buf, PLY); err != nil {
			t.Fatal(err)
		}
		back, err = readPLY(buf.Bytes())
		if err != nil {
			t.Fatalf("%s PLY: %v", name, err)
		}
		sameMesh(t, name+" PLY", back, m, 1e-6) // float32

		buf.Reset()
		if err := m.Write(&buf, STL); err != nil {
			t.Fatal(err)
		}
		n, corners, normals, err := readSTL(buf.Bytes())
		if err != nil {
			t.Fatalf("%s STL: %v", name, err)
		}
		if int(n) != m.NumTriangles() {
			t.Fatalf("%s STL: header count %d, want %d", name, n, m.NumTriangles())
		}
		for k := range corners {
			a, b, c := m.Triangle(k)
			for j, want := range []geom.Vec3{a, b, c} {
				if corners[k][j].Sub(want).Len() > 1e-6 {
					t.Fatalf("%s STL: triangle %d corner %d %v, want %v", name, k, j, corners[k][j], want)
				}
			}
			// Facet normals point outwards: along the vertex normals.
			if normals[k].Dot(m.Normals[m.Indices[3*k]]) <= 0 {
				t.Errorf("%s STL: triangle %d facet normal %v against the surface", name, k, normals[k])
			}
		}
	}
}

func TestExportErrors(t *testing.T) {
	bad := &Mesh{Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}}, Indices: []uint32{0, 1, 2}}
	for _, f := range []Format{OBJ, STL, PLY} {
		var buf bytes.Buffer
		if err := bad.Write(&buf, f); err == nil || buf.Len() != 0 {
			t.Errorf("%v: out-of-range index written (err %v, %d bytes)", f, err, buf.Len())
		}
	}
	// Sizes float32 cannot hold: refused by STL and PLY, kept by OBJ.
	for _, sc := range []float64{1e50, 1e-50} {
		m := &Mesh{Positions: []geom.Vec3{{0, 0, 0}, {sc, 0, 0}, {0, sc, 0}}, Indices: []uint32{0, 1, 2}}
		for _, f := range []Format{STL, PLY} {
			var buf bytes.Buffer
			if err := m.Write(&buf, f); err == nil || !strings.Contains(err.Error(), "float32") || buf.Len() != 0 {
				t.Errorf("%v at scale %g: err %v, %d bytes written", f, sc, err, buf.Len())
			}
		}
		if err := m.Write(&bytes.Buffer{}, OBJ); err != nil {
			t.Errorf("OBJ at scale %g: %v", sc, err)
		}
	}
	// Coordinates tiny relative to the mesh (a vertex on a coordinate
	// plane) are fine.
	ok := &Mesh{Positions: []geom.Vec3{{1e-300, 0, 0}, {1, 0, 0}, {0, 1, 0}}, Indices: []uint32{0, 1, 2}}
	if err := ok.Write(&bytes.Buffer{}, STL); err != nil {
		t.Errorf("tiny relative coordinate refused: %v", err)
	}
	if err := (&Mesh{}).Write(&bytes.Buffer{}, Format(9)); err == nil {
		t.Error("unknown format accepted")
	}
	for path, want := range map[string]Format{"a.obj": OBJ, "dir/b.STL": STL, "c.Ply": PLY} {
		if f, err := FormatOf(path); err != nil || f != want {
			t.Errorf("FormatOf(%q) = %v, %v", path, f, err)
		}
	}
	for _, path := range []string{"a", "a.off", "obj", "a.obj.gz"} {
		if _, err := FormatOf(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("FormatOf(%q): error %v should name the file", path, err)
		}
	}
}

// failWriter fails after n bytes.
type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, fmt.Errorf("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

func TestExportWriteError(t *testing.T) {
	var g Grid
	m, _ := g.Build(geom.Sphere(1), 64, 32)
	for _, f := range []Format{OBJ, STL, PLY} {
		if err := m.Write(&failWriter{n: 1000}, f); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%v: write error lost: %v", f, err)
		}
	}
}

func TestTransform(t *testing.T) {
	var g Grid
	s := geom.Superovoid{A: [3]float64{1, 0.7, 0.5}, Eps: [2]float64{0.5, 1}}
	m, _ := g.Build(s, 16, 8)
	m = m.Clone()
	pose := geom.Pose{Position: geom.Vec3{1, 2, 3}, Orientation: geom.Quat{W: math.Cos(0.4), V: geom.Vec3{0, math.Sin(0.4), 0}}}
	tr := pose.Transform()
	m.Transform(&tr)
	for i, p := range m.Positions {
		q := pose.ToLocal(p)
		if r, _ := s.Residual(q); math.Abs(r) > 1e-12 {
			t.Fatalf("vertex %d off the posed surface by %g", i, r)
		}
		if n, _ := s.Normal(q); tr.Dir(n).Sub(m.Normals[i]).Len() > 1e-12 {
			t.Fatalf("normal %d not rotated with the pose", i)
		}
	}
}
