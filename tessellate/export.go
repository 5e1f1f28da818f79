package tessellate

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sovviz/sovviz/geom"
)

// Format is a mesh file format.
type Format int

// The formats Write knows.
const (
	// OBJ is Wavefront OBJ text with vertex normals ("f a//a b//b c//c").
	OBJ Format = iota
	// STL is binary STL: an 80-byte header, a little-endian triangle count
	// and per triangle the face normal, three corners and a zero attribute.
	STL
	// PLY is binary little-endian PLY with per-vertex normals (float32)
	// and triangles as uchar-counted int lists.
	PLY
)

func (f Format) String() string {
	switch f {
	case OBJ:
		return "obj"
	case STL:
		return "stl"
	case PLY:
		return "ply"
	}
	return "unknown"
}

// FormatOf chooses the format by the extension of path (.obj, .stl, .ply,
// any case).
func FormatOf(path string) (Format, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".obj":
		return OBJ, nil
	case ".stl":
		return STL, nil
	case ".ply":
		return PLY, nil
	default:
		return 0, fmt.Errorf("%s: unknown mesh format %q (want .obj, .stl or .ply)", path, ext)
	}
}

// Write writes m to w in format f. It checks that every index is in range
// first, so that no file refers to a missing vertex.
func (m *Mesh) Write(w io.Writer, f Format) error {
	if err := m.checkIndices(); err != nil {
		return err
	}
	if f == STL || f == PLY {
		if err := m.checkFloat32(); err != nil {
			return fmt.Errorf("write %s: %w", f, err)
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	var err error
	switch f {
	case OBJ:
		err = m.writeOBJ(bw)
	case STL:
		err = m.writeSTL(bw)
	case PLY:
		err = m.writePLY(bw)
	default:
		return fmt.Errorf("write mesh: unknown format %d", int(f))
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", f, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", f, err)
	}
	return nil
}

// checkFloat32 refuses meshes that binary STL and PLY (float32) cannot
// hold: a coordinate beyond ±3.4e38 becomes infinite, and a mesh smaller
// than 1e-30 loses its precision in float32's subnormal range (coordinates
// tiny relative to the mesh round to 0 harmlessly).
func (m *Mesh) checkFloat32() error {
	scale := 0.0
	for _, p := range m.Positions {
		for _, v := range p {
			scale = math.Max(scale, math.Abs(v))
		}
	}
	if scale > math.MaxFloat32 || (scale != 0 && scale < 1e-30) {
		return fmt.Errorf("coordinates up to %g do not fit float32 (STL and PLY store float32; write OBJ, which keeps float64)", scale)
	}
	return nil
}

func (m *Mesh) checkIndices() error {
	if len(m.Indices)%3 != 0 {
		return fmt.Errorf("write mesh: %d indices is not a whole number of triangles", len(m.Indices))
	}
	if len(m.Normals) != 0 && len(m.Normals) != len(m.Positions) {
		return fmt.Errorf("write mesh: %d normals for %d vertices", len(m.Normals), len(m.Positions))
	}
	n := uint32(len(m.Positions))
	for k, i := range m.Indices {
		if i >= n {
			return fmt.Errorf("write mesh: triangle %d refers to vertex %d of %d", k/3, i, n)
		}
	}
	if uint64(m.NumTriangles()) > math.MaxUint32 {
		return fmt.Errorf("write mesh: %d triangles is too many", m.NumTriangles())
	}
	return nil
}

// writeOBJ writes shortest round-trip decimals, so that reading the file
// gives back the float64 coordinates exactly.
func (m *Mesh) writeOBJ(w *bufio.Writer) error {
	var buf []byte
	buf = append(buf, "# sovviz mesh\n"...)
	vec := func(tag string, v [3]float64) {
		buf = append(buf, tag...)
		for _, x := range v {
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
		}
		buf = append(buf, '\n')
	}
	flush := func() error {
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	for _, p := range m.Positions {
		vec("v", p)
		if len(buf) > 1<<15 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	for _, n := range m.Normals {
		vec("vn", n)
		if len(buf) > 1<<15 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	hasN := len(m.Normals) > 0
	for t := 0; t < m.NumTriangles(); t++ {
		buf = append(buf, 'f')
		for _, i := range m.Indices[3*t : 3*t+3] {
			buf = append(buf, ' ')
			buf = strconv.AppendUint(buf, uint64(i)+1, 10) // OBJ counts from 1
			if hasN {
				buf = append(buf, "//"...)
				buf = strconv.AppendUint(buf, uint64(i)+1, 10)
			}
		}
		buf = append(buf, '\n')
		if len(buf) > 1<<15 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

func (m *Mesh) writeSTL(w *bufio.Writer) error {
	var hdr [84]byte
	copy(hdr[:], "sovviz mesh (binary STL, little-endian)")
	binary.LittleEndian.PutUint32(hdr[80:], uint32(m.NumTriangles()))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	var rec [50]byte
	put := func(o int, v [3]float64) {
		for k := 0; k < 3; k++ {
			binary.LittleEndian.PutUint32(rec[o+4*k:], math.Float32bits(float32(v[k])))
		}
	}
	for t := 0; t < m.NumTriangles(); t++ {
		a, b, c := m.Triangle(t)
		n := b.Sub(a).Cross(c.Sub(a))
		if l := n.Len(); l > 0 {
			n = n.Mul(1 / l)
		}
		put(0, n)
		put(12, a)
		put(24, b)
		put(36, c)
		// rec[48:50], the attribute byte count, stays 0.
		if _, err := w.Write(rec[:]); err != nil {
			return err
		}
	}
	return nil
}

func (m *Mesh) writePLY(w *bufio.Writer) error {
	hasN := len(m.Normals) > 0
	var h strings.Builder
	h.WriteString("ply\nformat binary_little_endian 1.0\ncomment sovviz mesh\n")
	fmt.Fprintf(&h, "element vertex %d\n", len(m.Positions))
	h.WriteString("property float x\nproperty float y\nproperty float z\n")
	if hasN {
		h.WriteString("property float nx\nproperty float ny\nproperty float nz\n")
	}
	fmt.Fprintf(&h, "element face %d\n", m.NumTriangles())
	h.WriteString("property list uchar int vertex_indices\nend_header\n")
	if _, err := w.WriteString(h.String()); err != nil {
		return err
	}
	var rec [24]byte
	for i, p := range m.Positions {
		n := 12
		for k := 0; k < 3; k++ {
			binary.LittleEndian.PutUint32(rec[4*k:], math.Float32bits(float32(p[k])))
		}
		if hasN {
			for k := 0; k < 3; k++ {
				binary.LittleEndian.PutUint32(rec[12+4*k:], math.Float32bits(float32(m.Normals[i][k])))
			}
			n = 24
		}
		if _, err := w.Write(rec[:n]); err != nil {
			return err
		}
	}
	var face [13]byte
	face[0] = 3
	for t := 0; t < m.NumTriangles(); t++ {
		for k, i := range m.Indices[3*t : 3*t+3] {
			binary.LittleEndian.PutUint32(face[1+4*k:], i)
		}
		if _, err := w.Write(face[:]); err != nil {
			return err
		}
	}
	return nil
}

// Transform maps the mesh in place by the rigid transform t (positions by
// t.Point, normals by t.Dir): from the object's frame to the world frame of
// its pose, for instance.
func (m *Mesh) Transform(t *geom.Transform) {
	for i, p := range m.Positions {
		m.Positions[i] = t.Point(p)
	}
	for i, n := range m.Normals {
		m.Normals[i] = t.Dir(n)
	}
}
