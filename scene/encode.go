package scene

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// Marshal encodes s in the canonical layout Save writes: every field
// explicit (defaults included), objects one field per line, number arrays
// on one line, numbers in the shortest form that reads back bit for bit.
// Mesh.Edge is written only for marching triangles and Mesh.Slices only for
// grids, and only when not automatic. It fails if s is not a valid scene:
// what Marshal returns always loads.
func Marshal(s *Scene) ([]byte, error) {
	var w writer
	w.raw("{\n")
	w.field(1, "format", strconv.Quote(Format), false)
	w.field(1, "version", strconv.Itoa(Version), false)
	if s.Description != "" {
		w.field(1, "description", strconv.Quote(s.Description), false)
	}
	if c := s.Camera; c != nil {
		proj := "persp"
		if c.Ortho {
			proj = "ortho"
		}
		w.field(1, "camera", "{"+
			`"target": `+w.nums(c.Target[:])+
			`, "distance": `+w.num(c.Distance)+
			`, "yaw": `+w.num(c.Yaw)+
			`, "pitch": `+w.num(c.Pitch)+
			`, "projection": `+strconv.Quote(proj)+
			`, "fov": `+w.num(c.Fov)+"}", false)
	}
	w.raw("  \"overlays\": {")
	o := s.Overlays
	f := overlayFields(&o)
	for i, k := range overlayKeys {
		if i > 0 {
			w.raw(", ")
		}
		w.raw(strconv.Quote(k) + ": " + strconv.FormatBool(*f[i]))
	}
	w.raw("},\n")
	sv := s.Solver
	w.field(1, "solver", "{"+
		`"method": `+strconv.Quote(enumName(methodNames, int(sv.Method)))+
		`, "guess": `+strconv.Quote(enumName(guessNames, int(sv.Guess)))+
		`, "tol": `+w.num(sv.Tol)+
		`, "max_iter": `+strconv.Itoa(sv.MaxIter)+
		`, "quad_levels": `+strconv.Itoa(sv.QuadLevels)+
		`, "octree_depth": `+strconv.Itoa(sv.OctreeDepth)+
		`, "warm_start": `+strconv.FormatBool(sv.WarmStart)+
		certifyField(sv.CertifyOverlap)+
		`, "margin": `+w.num(sv.Margin)+"}", false)
	w.raw("  \"objects\": [")
	for i := range s.Objects {
		ob := &s.Objects[i]
		if i > 0 {
			w.raw(",")
		}
		w.raw("\n    {\n")
		w.field(3, "name", strconv.Quote(ob.Name), false)
		w.field(3, "shape", "{"+
			`"a": `+w.nums(ob.Shape.A[:])+
			`, "eps": `+w.nums(ob.Shape.Eps[:])+
			`, "taper": `+w.nums(ob.Shape.Taper[:])+"}", false)
		q := ob.Pose.Orientation
		w.field(3, "pose", "{"+
			`"position": `+w.nums(ob.Pose.Position[:])+
			`, "orientation": `+w.nums([]float64{q.W, q.V[0], q.V[1], q.V[2]})+"}", false)
		w.field(3, "color", w.nums(ob.Color[:]), false)
		w.field(3, "visible", strconv.FormatBool(ob.Visible), false)
		me := `{"method": ` + strconv.Quote(ob.Mesh.Method.String())
		switch {
		case ob.Mesh.Method == MarchingTriangles && ob.Mesh.Edge != 0:
			me += `, "edge": ` + w.num(ob.Mesh.Edge)
		case ob.Mesh.Method == Grid && ob.Mesh.Slices != [2]int{}:
			me += `, "slices": [` + strconv.Itoa(ob.Mesh.Slices[0]) + ", " + strconv.Itoa(ob.Mesh.Slices[1]) + "]"
		}
		me += `, "wireframe": ` + strconv.FormatBool(ob.Mesh.Wireframe) + "}"
		w.field(3, "mesh", me, true)
		w.raw("    }")
	}
	if len(s.Objects) > 0 {
		w.raw("\n  ")
	}
	w.raw("]")
	if len(s.Bodies) > 0 {
		w.raw(",\n  \"bodies\": [")
		for i, b := range s.Bodies {
			if i > 0 {
				w.raw(",")
			}
			names := make([]byte, 0, 64)
			for k, n := range b.Objects {
				if k > 0 {
					names = append(names, ", "...)
				}
				names = strconv.AppendQuote(names, n)
			}
			w.raw("\n    {\"name\": " + strconv.Quote(b.Name) + ", \"objects\": [" + string(names) + "]}")
		}
		w.raw("\n  ]")
	}
	if len(s.Joints) > 0 {
		w.raw(",\n  \"joints\": [")
		for i, j := range s.Joints {
			if i > 0 {
				w.raw(",")
			}
			w.raw("\n    {\"name\": " + strconv.Quote(j.Name) +
				", \"type\": " + strconv.Quote(enumName(jointNames, int(j.Type))) +
				", \"parent\": " + strconv.Quote(j.Parent) +
				", \"child\": " + strconv.Quote(j.Child) +
				", \"position\": " + w.nums(j.Position[:]) +
				", \"axis\": " + w.nums(j.Axis[:]) +
				", \"min\": " + w.num(j.Min) +
				", \"max\": " + w.num(j.Max) + "}")
		}
		w.raw("\n  ]")
	}
	w.raw("\n}\n")
	if w.err != nil {
		return nil, w.err
	}
	// Check by reading back: Save must never write a file Load rejects
	// (a NaN from an edit, a duplicate name...).
	if _, err := Parse(w.buf.Bytes(), "scene"); err != nil {
		var se *Error
		if errors.As(err, &se) {
			se.File = ""
			return nil, fmt.Errorf("invalid scene: %w", se)
		}
		return nil, fmt.Errorf("invalid scene: %w", err)
	}
	return w.buf.Bytes(), nil
}

func enumName(names []string, i int) string {
	if i < 0 || i >= len(names) {
		return "invalid(" + strconv.Itoa(i) + ")"
	}
	return names[i]
}

type writer struct {
	buf bytes.Buffer
	err error
}

func (w *writer) raw(s string) { w.buf.WriteString(s) }

func (w *writer) field(depth int, key, value string, last bool) {
	for i := 0; i < depth; i++ {
		w.buf.WriteString("  ")
	}
	w.buf.WriteString(strconv.Quote(key))
	w.buf.WriteString(": ")
	w.buf.WriteString(value)
	if !last {
		w.buf.WriteByte(',')
	}
	w.buf.WriteByte('\n')
}

// num formats v as encoding/json does (shortest round-trip form). NaN and
// infinities are recorded as an error and written as null.
func (w *writer) num(v float64) string {
	b, err := json.Marshal(v)
	if err != nil {
		if w.err == nil {
			w.err = fmt.Errorf("invalid scene: %v is not a finite number", v)
		}
		return "null"
	}
	return string(b)
}

func (w *writer) nums(v []float64) string {
	b := []byte{'['}
	for i, x := range v {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, w.num(x)...)
	}
	return string(append(b, ']'))
}

// Save writes s to path atomically: the scene is encoded and checked
// first, written to a temporary file in the same directory, synced and
// renamed over path, so that path holds either the old or the new scene,
// never a part. An existing file keeps its permissions; a symbolic link is
// followed and its target replaced.
func Save(path string, s *Scene) error {
	data, err := Marshal(s)
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return WriteFileAtomic(path, data)
}

// WriteFileAtomic writes data to path so that no reader ever sees a partial
// file: a temporary file in the same directory (same permissions as the
// file it replaces, 0644 for a new one), synced, then renamed over the
// target (through a symlink, its target is replaced); on any error the
// temporary is removed and the old file is left as it was.
func WriteFileAtomic(path string, data []byte) (err error) {
	target := path
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(target); err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("save %s: not a regular file", path)
		}
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	// Make the rename itself durable; failure here leaves a correct file.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// certifyField writes certify_overlap only when it is off: scenes that keep
// the default (on) stay readable by builds that predate the field.
func certifyField(on bool) string {
	if on {
		return ""
	}
	return `, "certify_overlap": false`
}
