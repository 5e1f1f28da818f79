package scene

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

// Limits that keep every loaded scene usable by the solver and the renderer
// (far beyond any sensible scene, well inside float64's comfortable range).
const (
	MinSemiAxis  = 1e-6
	MaxSemiAxis  = 1e6
	MaxCoord     = 1e6 // |position|, |camera target| components
	MaxObjects   = 10000
	MaxNameBytes = 200
	// quatTol is how far |q| may be from 1 before a quaternion is rejected
	// rather than normalised (the same tolerance as geom.Pose.Validate).
	quatTol = 1e-3
)

// Load reads and validates the scene file at path. Errors are *Error (also
// when the file cannot be read, with the *os.PathError as cause).
func Load(path string) (*Scene, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		reason := err.Error()
		var pe *os.PathError
		if errors.As(err, &pe) {
			reason = pe.Err.Error() // the path is already in the message
		}
		return nil, &Error{File: path, Reason: "cannot read: " + reason, Err: err}
	}
	return Parse(data, path)
}

// Parse decodes and validates a scene; name is the file name used in error
// messages. Missing optional fields get their defaults and quaternions are
// normalised, so the returned scene is complete and valid.
func Parse(data []byte, name string) (*Scene, error) {
	root, err := parseTree(data, name)
	if err != nil {
		return nil, err
	}
	d := &decoder{file: name}
	s, err := d.scene(root)
	if err != nil {
		return nil, err
	}
	return s, nil
}

type decoder struct{ file string }

func (d *decoder) fail(path string, n *node, reason string) *Error {
	e := &Error{File: d.file, Path: path, Reason: reason}
	if n != nil {
		e.Value = n.compact()
	}
	return e
}

// join appends an object key to a path.
func join(path, key string) string {
	ident := key != ""
	for i, c := range key {
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			ident = false
			break
		}
	}
	if !ident {
		key = "[" + strconv.Quote(key) + "]"
		return path + key
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// fields checks that n is an object with only known keys, no key twice,
// and returns its members by key.
func (d *decoder) fields(n *node, path string, known ...string) (map[string]*node, error) {
	if n.kind != 'o' {
		return nil, d.fail(path, n, "must be an object, not "+n.kindName())
	}
	if n.dupAt >= 0 {
		return nil, d.fail(join(path, n.keys[n.dupAt]), nil, "duplicate key")
	}
	m := make(map[string]*node, len(n.keys))
	for i, k := range n.keys {
		ok := false
		for _, kk := range known {
			if k == kk {
				ok = true
				break
			}
		}
		if !ok {
			return nil, d.fail(join(path, k), nil, "unknown field (expected one of: "+strings.Join(known, ", ")+")")
		}
		m[k] = n.vals[i]
	}
	return m, nil
}

func (d *decoder) required(m map[string]*node, path, key, what string) (*node, error) {
	n, ok := m[key]
	if !ok {
		return nil, d.fail(join(path, key), nil, "missing ("+what+")")
	}
	return n, nil
}

func (d *decoder) num(n *node, path string) (float64, error) {
	if n.kind != 'n' {
		return 0, d.fail(path, n, "must be a number, not "+n.kindName())
	}
	v, err := strconv.ParseFloat(n.str, 64)
	// (ParseFloat rounds a nonzero literal below the smallest float64 to 0
	// without an error: it would then read "1e-400: must be > 0".)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || (v == 0 && nonzeroMantissa(n.str)) {
		return 0, d.fail(path, n, "number out of range")
	}
	return v, nil
}

// nonzeroMantissa reports whether a JSON number literal has a nonzero digit
// before its exponent, so that it is not 0 however ParseFloat rounds it.
func nonzeroMantissa(lit string) bool {
	for i := 0; i < len(lit); i++ {
		switch c := lit[i]; {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}

func (d *decoder) numIn(n *node, path string, lo, hi float64, reason string) (float64, error) {
	v, err := d.num(n, path)
	if err != nil {
		return 0, err
	}
	if v < lo || v > hi {
		return 0, d.fail(path, n, reason)
	}
	return v, nil
}

func (d *decoder) intIn(n *node, path string, lo, hi int) (int, error) {
	v, err := d.num(n, path)
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) {
		return 0, d.fail(path, n, "must be an integer")
	}
	if v < float64(lo) || v > float64(hi) {
		return 0, d.fail(path, n, fmt.Sprintf("must be in [%d, %d]", lo, hi))
	}
	return int(v), nil
}

func (d *decoder) boolean(n *node, path string) (bool, error) {
	if n.kind != 'b' {
		return false, d.fail(path, n, "must be true or false, not "+n.kindName())
	}
	return n.b, nil
}

func (d *decoder) str(n *node, path string) (string, error) {
	if n.kind != 's' {
		return "", d.fail(path, n, "must be a string, not "+n.kindName())
	}
	return n.str, nil
}

func (d *decoder) name(n *node, path string) (string, error) {
	s, err := d.str(n, path)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		return "", d.fail(path, n, "name must not be empty")
	}
	if len(s) > MaxNameBytes {
		return "", d.fail(path, n, fmt.Sprintf("name longer than %d bytes", MaxNameBytes))
	}
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			return "", d.fail(path, n, "name must not contain control characters")
		}
	}
	return s, nil
}

func (d *decoder) enum(n *node, path string, names ...string) (int, error) {
	if n.kind == 's' {
		for i, s := range names {
			if n.str == s {
				return i, nil
			}
		}
	}
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = strconv.Quote(s)
	}
	return 0, d.fail(path, n, "must be one of "+strings.Join(q, ", "))
}

// vec decodes an array of exactly k numbers (k2 > k: k to k2 numbers).
func (d *decoder) vec(n *node, path string, k, k2 int, what string) ([]float64, error) {
	if n.kind != 'a' || len(n.vals) < k || len(n.vals) > k2 {
		count := strconv.Itoa(k)
		if k2 > k {
			count += " or " + strconv.Itoa(k2)
		}
		return nil, d.fail(path, n, "must be an array of "+count+" numbers "+what)
	}
	out := make([]float64, len(n.vals))
	for i, e := range n.vals {
		v, err := d.num(e, index(path, i))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (d *decoder) scene(root *node) (*Scene, error) {
	if root.kind != 'o' {
		return nil, d.fail("", nil, "the top-level value must be an object, not "+root.kindName())
	}
	// Format and version first, so that a file of another kind or a newer
	// version gets that message rather than one about an unknown field.
	var fn, vn *node
	for i, k := range root.keys {
		switch k {
		case "format":
			fn = root.vals[i]
		case "version":
			vn = root.vals[i]
		}
	}
	if fn == nil {
		return nil, d.fail("format", nil, `missing: not a sovviz scene (a scene starts with "format": "sovviz-scene", "version": 1)`)
	}
	if fn.kind != 's' || fn.str != Format {
		return nil, d.fail("format", fn, `not a sovviz scene (expected "sovviz-scene")`)
	}
	if vn == nil {
		return nil, d.fail("version", nil, "missing (this sovviz reads version 1)")
	}
	if v, err := d.num(vn, "version"); err != nil {
		return nil, err
	} else if v != Version {
		return nil, d.fail("version", vn, "unsupported version: this sovviz reads version 1")
	}
	m, err := d.fields(root, "", "format", "version", "description", "objects", "camera", "overlays", "solver", "bodies", "joints")
	if err != nil {
		return nil, err
	}
	s := New()
	if n, ok := m["description"]; ok {
		if s.Description, err = d.str(n, "description"); err != nil {
			return nil, err
		}
	}
	on, err := d.required(m, "", "objects", "an array of objects, may be empty")
	if err != nil {
		return nil, err
	}
	if on.kind != 'a' {
		return nil, d.fail("objects", on, "must be an array of objects, not "+on.kindName())
	}
	if len(on.vals) > MaxObjects {
		return nil, d.fail("objects", nil, fmt.Sprintf("more than %d objects", MaxObjects))
	}
	s.Objects = make([]Object, len(on.vals))
	seen := make(map[string]int, len(on.vals))
	for i, n := range on.vals {
		p := index("objects", i)
		if err := d.object(n, p, i, &s.Objects[i]); err != nil {
			return nil, err
		}
		if j, dup := seen[s.Objects[i].Name]; dup {
			return nil, d.fail(p+".name", n.vals[keyIndex(n, "name")], fmt.Sprintf("duplicate object name (objects[%d] has it too)", j))
		}
		seen[s.Objects[i].Name] = i
	}
	if n, ok := m["camera"]; ok && n.kind != 'z' {
		c, err := d.camera(n, "camera")
		if err != nil {
			return nil, err
		}
		s.Camera = c
	}
	if n, ok := m["overlays"]; ok {
		if err := d.overlays(n, "overlays", &s.Overlays); err != nil {
			return nil, err
		}
	}
	if n, ok := m["solver"]; ok {
		if err := d.solver(n, "solver", &s.Solver); err != nil {
			return nil, err
		}
	}
	if n, ok := m["bodies"]; ok {
		if s.Bodies, err = d.bodies(n, "bodies", seen); err != nil {
			return nil, err
		}
	}
	if n, ok := m["joints"]; ok {
		if s.Joints, err = d.joints(n, "joints", s.Bodies); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func keyIndex(n *node, key string) int {
	for i, k := range n.keys {
		if k == key {
			return i
		}
	}
	return -1
}

func (d *decoder) object(n *node, path string, i int, o *Object) error {
	m, err := d.fields(n, path, "name", "shape", "pose", "color", "visible", "mesh")
	if err != nil {
		return err
	}
	nn, err := d.required(m, path, "name", "a unique non-empty string")
	if err != nil {
		return err
	}
	if o.Name, err = d.name(nn, join(path, "name")); err != nil {
		return err
	}
	sn, err := d.required(m, path, "shape", `{"a": [a1,a2,a3], "eps": [e1,e2], "taper": [tx,ty]}`)
	if err != nil {
		return err
	}
	if o.Shape, err = d.shape(sn, join(path, "shape")); err != nil {
		return err
	}
	o.Pose = geom.Identity()
	if pn, ok := m["pose"]; ok {
		if o.Pose, err = d.pose(pn, join(path, "pose")); err != nil {
			return err
		}
	}
	o.Color = PaletteColor(i)
	if cn, ok := m["color"]; ok {
		p := join(path, "color")
		c, err := d.vec(cn, p, 3, 4, "[r,g,b] or [r,g,b,a]")
		if err != nil {
			return err
		}
		o.Color[3] = 1
		for k, v := range c {
			if v < 0 || v > 1 {
				return d.fail(index(p, k), cn.vals[k], "colour channels must be in [0, 1]")
			}
			o.Color[k] = v
		}
	}
	o.Visible = true
	if vn, ok := m["visible"]; ok {
		if o.Visible, err = d.boolean(vn, join(path, "visible")); err != nil {
			return err
		}
	}
	if mn, ok := m["mesh"]; ok {
		if o.Mesh, err = d.mesh(mn, join(path, "mesh"), o.Shape); err != nil {
			return err
		}
	}
	return nil
}

// Shape decodes the "shape" object of sovviz query. Range checks are geom's
// (Superovoid.Validate), reported at the path of the offending element.
func (d *decoder) shape(n *node, path string) (geom.Superovoid, error) {
	var s geom.Superovoid
	m, err := d.fields(n, path, "a", "eps", "taper")
	if err != nil {
		return s, err
	}
	an, err := d.required(m, path, "a", "semi-axes [a1,a2,a3]")
	if err != nil {
		return s, err
	}
	a, err := d.vec(an, join(path, "a"), 3, 3, "[a1,a2,a3]")
	if err != nil {
		return s, err
	}
	copy(s.A[:], a)
	en, err := d.required(m, path, "eps", "squareness [e1,e2]")
	if err != nil {
		return s, err
	}
	e, err := d.vec(en, join(path, "eps"), 2, 2, "[e1,e2]")
	if err != nil {
		return s, err
	}
	copy(s.Eps[:], e)
	if tn, ok := m["taper"]; ok {
		t, err := d.vec(tn, join(path, "taper"), 2, 2, "[tx,ty]")
		if err != nil {
			return s, err
		}
		copy(s.Taper[:], t)
	}
	if err := s.Validate(); err != nil {
		var pe *geom.ParamError
		if errors.As(err, &pe) {
			e := d.fail(path+"."+pe.Field, elementNode(m, pe.Field), pe.Reason)
			if e.Value == "" {
				e.Value = strconv.FormatFloat(pe.Value, 'g', -1, 64)
			}
			e.Err = err
			return s, e
		}
		return s, d.fail(path, n, err.Error())
	}
	for k, a := range s.A {
		if a < MinSemiAxis || a > MaxSemiAxis {
			return s, d.fail(index(join(path, "a"), k), an.vals[k], fmt.Sprintf("semi-axis must be in [%g, %g]", MinSemiAxis, MaxSemiAxis))
		}
	}
	return s, nil
}

// elementNode finds the node of a geom field name such as "eps[1]".
func elementNode(m map[string]*node, field string) *node {
	k, rest, ok := strings.Cut(field, "[")
	if !ok {
		return m[k]
	}
	i, err := strconv.Atoi(strings.TrimSuffix(rest, "]"))
	n := m[k]
	if err != nil || n == nil || n.kind != 'a' || i < 0 || i >= len(n.vals) {
		return nil
	}
	return n.vals[i]
}

// Pose decodes the "pose" object of sovviz query; missing members are the
// origin and the identity rotation.
func (d *decoder) pose(n *node, path string) (geom.Pose, error) {
	p := geom.Identity()
	m, err := d.fields(n, path, "position", "orientation")
	if err != nil {
		return p, err
	}
	if pn, ok := m["position"]; ok {
		if p.Position, err = d.point(pn, join(path, "position"), "[x,y,z]"); err != nil {
			return p, err
		}
	}
	if qn, ok := m["orientation"]; ok {
		qp := join(path, "orientation")
		q, err := d.vec(qn, qp, 4, 4, "[w,x,y,z]")
		if err != nil {
			return p, err
		}
		norm := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		if math.Abs(norm-1) > quatTol {
			return p, d.fail(qp, qn, fmt.Sprintf("quaternion [w,x,y,z] must have unit length within %g (|q| = %.6g)", quatTol, norm))
		}
		p.Orientation = geom.Quat{W: q[0], V: geom.Vec3{q[1], q[2], q[3]}}
		p.Orientation = normalizeQuat(p.Orientation)
	}
	return p, nil
}

// normalizeQuat scales q to unit length unless it is unit to rounding
// already: leaving those alone makes normalisation idempotent, so a saved
// scene reloads bit for bit.
func normalizeQuat(q geom.Quat) geom.Quat {
	n2 := q.W*q.W + q.V.Dot(q.V)
	if math.Abs(n2-1) <= 1e-15 {
		return q
	}
	n := math.Sqrt(n2)
	return geom.Quat{W: q.W / n, V: q.V.Mul(1 / n)}
}

func (d *decoder) point(n *node, path, what string) (geom.Vec3, error) {
	var p geom.Vec3
	v, err := d.vec(n, path, 3, 3, what)
	if err != nil {
		return p, err
	}
	for k := range v {
		if math.Abs(v[k]) > MaxCoord {
			return p, d.fail(index(path, k), n.vals[k], fmt.Sprintf("coordinate must be in [%g, %g]", -MaxCoord, MaxCoord))
		}
		p[k] = v[k]
	}
	return p, nil
}

func (d *decoder) mesh(n *node, path string, s geom.Superovoid) (Mesh, error) {
	var me Mesh
	m, err := d.fields(n, path, "method", "edge", "slices", "wireframe")
	if err != nil {
		return me, err
	}
	if mn, ok := m["method"]; ok {
		k, err := d.enum(mn, join(path, "method"), "grid", "marching-triangles")
		if err != nil {
			return me, err
		}
		me.Method = MeshMethod(k)
	}
	if en, ok := m["edge"]; ok {
		p := join(path, "edge")
		if me.Method != MarchingTriangles {
			return me, d.fail(p, en, `edge applies to "method": "marching-triangles" only (use "slices" for "grid")`)
		}
		amax := maxAxis(s)
		lo, hi := MinEdgeFraction*amax, amax
		if me.Edge, err = d.numIn(en, p, lo, hi, fmt.Sprintf("edge length must be in [%.3g, %.3g] (%g to 1 times the largest semi-axis)", lo, hi, MinEdgeFraction)); err != nil {
			return me, err
		}
	}
	if sn, ok := m["slices"]; ok {
		p := join(path, "slices")
		if me.Method != Grid {
			return me, d.fail(p, sn, `slices apply to "method": "grid" only (use "edge" for "marching-triangles")`)
		}
		if sn.kind != 'a' || len(sn.vals) != 2 {
			return me, d.fail(p, sn, "must be an array of 2 integers [azimuth, zenith]")
		}
		if me.Slices[0], err = d.intIn(sn.vals[0], index(p, 0), MinSlicesAz, MaxSlicesAz); err != nil {
			return me, err
		}
		if me.Slices[1], err = d.intIn(sn.vals[1], index(p, 1), MinSlicesZe, MaxSlicesZe); err != nil {
			return me, err
		}
	}
	if wn, ok := m["wireframe"]; ok {
		if me.Wireframe, err = d.boolean(wn, join(path, "wireframe")); err != nil {
			return me, err
		}
	}
	return me, nil
}

func (d *decoder) camera(n *node, path string) (*Camera, error) {
	m, err := d.fields(n, path, "target", "distance", "yaw", "pitch", "projection", "fov")
	if err != nil {
		return nil, err
	}
	c := &Camera{Yaw: DefaultYaw, Pitch: DefaultPitch, Fov: DefaultFov}
	if tn, ok := m["target"]; ok {
		if c.Target, err = d.point(tn, join(path, "target"), "[x,y,z]"); err != nil {
			return nil, err
		}
	}
	dn, err := d.required(m, path, "distance", "from the target to the eye, > 0")
	if err != nil {
		return nil, err
	}
	if c.Distance, err = d.numIn(dn, join(path, "distance"), 0, 1e9, "distance must be in (0, 1e9]"); err != nil {
		return nil, err
	}
	if c.Distance == 0 {
		return nil, d.fail(join(path, "distance"), dn, "distance must be in (0, 1e9]")
	}
	if yn, ok := m["yaw"]; ok {
		if c.Yaw, err = d.numIn(yn, join(path, "yaw"), -360, 360, "yaw must be in [-360, 360] degrees"); err != nil {
			return nil, err
		}
	}
	if pn, ok := m["pitch"]; ok {
		if c.Pitch, err = d.numIn(pn, join(path, "pitch"), -90, 90, "pitch must be in [-90, 90] degrees"); err != nil {
			return nil, err
		}
	}
	if pn, ok := m["projection"]; ok {
		k, err := d.enum(pn, join(path, "projection"), "persp", "ortho")
		if err != nil {
			return nil, err
		}
		c.Ortho = k == 1
	}
	if fn, ok := m["fov"]; ok {
		if c.Fov, err = d.numIn(fn, join(path, "fov"), 5, 150, "field of view must be in [5, 150] degrees"); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// overlayKeys are the JSON names of the Overlays fields, in file order.
var overlayKeys = [...]string{"witness", "segment", "labels", "normals", "tangents", "seeds", "octree", "param_panel", "grid", "axes", "xray"}

func overlayFields(o *Overlays) [len(overlayKeys)]*bool {
	return [...]*bool{&o.Witness, &o.Segment, &o.Labels, &o.Normals, &o.Tangents, &o.Seeds, &o.Octree, &o.ParamPanel, &o.Grid, &o.Axes, &o.XRay}
}

func (d *decoder) overlays(n *node, path string, o *Overlays) error {
	m, err := d.fields(n, path, overlayKeys[:]...)
	if err != nil {
		return err
	}
	f := overlayFields(o)
	for i, k := range overlayKeys {
		if vn, ok := m[k]; ok {
			if *f[i], err = d.boolean(vn, join(path, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

var (
	methodNames = []string{contact.Implicit: "implicit", contact.Parametric: "parametric", contact.NTB: "ntb"}
	guessNames  = []string{contact.Quadtree: "quadtree", contact.Octree: "octree", contact.Support: "support"}
)

func (d *decoder) solver(n *node, path string, s *Solver) error {
	m, err := d.fields(n, path, "method", "guess", "tol", "max_iter", "quad_levels", "octree_depth", "warm_start", "certify_overlap", "margin")
	if err != nil {
		return err
	}
	if vn, ok := m["method"]; ok {
		k, err := d.enum(vn, join(path, "method"), methodNames...)
		if err != nil {
			return err
		}
		s.Method = contact.Method(k)
	}
	if vn, ok := m["guess"]; ok {
		k, err := d.enum(vn, join(path, "guess"), guessNames...)
		if err != nil {
			return err
		}
		s.Guess = contact.Guess(k)
	}
	if vn, ok := m["tol"]; ok {
		if s.Tol, err = d.numIn(vn, join(path, "tol"), 1e-15, 1e-2, "tolerance must be in [1e-15, 0.01]"); err != nil {
			return err
		}
	}
	if vn, ok := m["max_iter"]; ok {
		if s.MaxIter, err = d.intIn(vn, join(path, "max_iter"), 1, 1000); err != nil {
			return err
		}
	}
	if vn, ok := m["quad_levels"]; ok {
		if s.QuadLevels, err = d.intIn(vn, join(path, "quad_levels"), 1, contact.MaxQuadLevels); err != nil {
			return err
		}
	}
	if vn, ok := m["octree_depth"]; ok {
		if s.OctreeDepth, err = d.intIn(vn, join(path, "octree_depth"), 1, MaxOctreeDepth); err != nil {
			return err
		}
	}
	if vn, ok := m["warm_start"]; ok {
		if s.WarmStart, err = d.boolean(vn, join(path, "warm_start")); err != nil {
			return err
		}
	}
	if vn, ok := m["certify_overlap"]; ok {
		if s.CertifyOverlap, err = d.boolean(vn, join(path, "certify_overlap")); err != nil {
			return err
		}
	}
	if vn, ok := m["margin"]; ok {
		if s.Margin, err = d.numIn(vn, join(path, "margin"), 0, MaxCoord, fmt.Sprintf("margin must be in [0, %g] (0: automatic)", MaxCoord)); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) bodies(n *node, path string, objects map[string]int) ([]Body, error) {
	if n.kind != 'a' {
		return nil, d.fail(path, n, "must be an array of bodies, not "+n.kindName())
	}
	out := make([]Body, len(n.vals))
	names := make(map[string]int)
	owner := make(map[string]int)
	for i, bn := range n.vals {
		p := index(path, i)
		m, err := d.fields(bn, p, "name", "objects")
		if err != nil {
			return nil, err
		}
		nn, err := d.required(m, p, "name", "a unique non-empty string")
		if err != nil {
			return nil, err
		}
		if out[i].Name, err = d.name(nn, join(p, "name")); err != nil {
			return nil, err
		}
		if j, dup := names[out[i].Name]; dup {
			return nil, d.fail(join(p, "name"), nn, fmt.Sprintf("duplicate body name (bodies[%d] has it too)", j))
		}
		names[out[i].Name] = i
		on, err := d.required(m, p, "objects", "names of the objects of the body")
		if err != nil {
			return nil, err
		}
		op := join(p, "objects")
		if on.kind != 'a' {
			return nil, d.fail(op, on, "must be an array of object names, not "+on.kindName())
		}
		out[i].Objects = make([]string, len(on.vals))
		for k, e := range on.vals {
			ep := index(op, k)
			name, err := d.str(e, ep)
			if err != nil {
				return nil, err
			}
			if _, ok := objects[name]; !ok {
				return nil, d.fail(ep, e, "no object has this name")
			}
			if j, dup := owner[name]; dup {
				return nil, d.fail(ep, e, fmt.Sprintf("object already belongs to bodies[%d]", j))
			}
			owner[name] = i
			out[i].Objects[k] = name
		}
	}
	return out, nil
}

var jointNames = []string{Fixed: "fixed", Revolute: "revolute", Prismatic: "prismatic"}

func (d *decoder) joints(n *node, path string, bodies []Body) ([]Joint, error) {
	if n.kind != 'a' {
		return nil, d.fail(path, n, "must be an array of joints, not "+n.kindName())
	}
	isBody := make(map[string]bool, len(bodies))
	for _, b := range bodies {
		isBody[b.Name] = true
	}
	out := make([]Joint, len(n.vals))
	names := make(map[string]int)
	for i, jn := range n.vals {
		p := index(path, i)
		j := &out[i]
		m, err := d.fields(jn, p, "name", "type", "parent", "child", "position", "axis", "min", "max")
		if err != nil {
			return nil, err
		}
		nn, err := d.required(m, p, "name", "a unique non-empty string")
		if err != nil {
			return nil, err
		}
		if j.Name, err = d.name(nn, join(p, "name")); err != nil {
			return nil, err
		}
		if k, dup := names[j.Name]; dup {
			return nil, d.fail(join(p, "name"), nn, fmt.Sprintf("duplicate joint name (joints[%d] has it too)", k))
		}
		names[j.Name] = i
		tn, err := d.required(m, p, "type", "fixed, revolute or prismatic")
		if err != nil {
			return nil, err
		}
		k, err := d.enum(tn, join(p, "type"), jointNames...)
		if err != nil {
			return nil, err
		}
		j.Type = JointType(k)
		for _, f := range []struct {
			key string
			dst *string
		}{{"parent", &j.Parent}, {"child", &j.Child}} {
			bn, err := d.required(m, p, f.key, "a body name")
			if err != nil {
				return nil, err
			}
			if *f.dst, err = d.str(bn, join(p, f.key)); err != nil {
				return nil, err
			}
			if !isBody[*f.dst] {
				return nil, d.fail(join(p, f.key), bn, "no body has this name")
			}
		}
		if j.Parent == j.Child {
			return nil, d.fail(join(p, "child"), m["child"], "a joint must connect two different bodies")
		}
		if pn, ok := m["position"]; ok {
			if j.Position, err = d.point(pn, join(p, "position"), "[x,y,z]"); err != nil {
				return nil, err
			}
		}
		j.Axis = geom.Vec3{0, 0, 1}
		if an, ok := m["axis"]; ok {
			ap := join(p, "axis")
			if j.Axis, err = d.point(an, ap, "[x,y,z]"); err != nil {
				return nil, err
			}
			n2 := j.Axis.Dot(j.Axis)
			if !(n2 > 1e-12) {
				return nil, d.fail(ap, an, "axis must not be zero")
			}
			if math.Abs(n2-1) > 1e-15 {
				j.Axis = j.Axis.Mul(1 / math.Sqrt(n2))
			}
		}
		if vn, ok := m["min"]; ok {
			if j.Min, err = d.numIn(vn, join(p, "min"), -MaxCoord, MaxCoord, fmt.Sprintf("must be in [%g, %g]", -MaxCoord, MaxCoord)); err != nil {
				return nil, err
			}
		}
		if vn, ok := m["max"]; ok {
			if j.Max, err = d.numIn(vn, join(p, "max"), -MaxCoord, MaxCoord, fmt.Sprintf("must be in [%g, %g]", -MaxCoord, MaxCoord)); err != nil {
				return nil, err
			}
		}
		if j.Min > j.Max {
			return nil, d.fail(join(p, "min"), m["min"], "min must not exceed max")
		}
	}
	return out, nil
}
