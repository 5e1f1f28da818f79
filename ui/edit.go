package ui

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
)

// editState is the part of the app state that the scene-editing windows
// (outliner, inspector, gizmo, file dialog, menus) use.
type editState struct {
	// ShowOutliner and ShowInspector show those windows (View menu).
	ShowOutliner, ShowInspector bool
	// ShowToolbar shows the gizmo toolbar.
	ShowToolbar bool
	// Gizmo is the transform gizmo's mode and snapping.
	Gizmo GizmoSettings

	// structure counts structural changes (objects added, deleted,
	// reordered): the contact cache is keyed by pair index and must start
	// cold after one. worldStructure and worldScene are what the cache
	// was built for.
	structure      uint64
	worldStructure uint64
	worldScene     *scene.Scene

	// openEdit is the key of the widget whose edit has an undo step
	// already (a drag records one step, not one per frame); "" when none.
	openEdit string

	cvx []cvxEntry // convexity per object, keyed on the shape

	// Mouse: where the left button went down and whether the press
	// belongs to the viewport (camera or picking) or to the gizmo.
	pressX, pressY float64
	pressOwner     pressOwner
	gizmoOver      bool // the gizmo was under the mouse (or in use) last frame
	gizmoDrag      gizmoDrag

	// The scene, overlay switches and solver settings at the start of the
	// frame (recordSettingsEdits).
	frameScene    *scene.Scene
	frameOverlays scene.Overlays
	frameSolver   scene.Solver

	files  fileState
	rename renameState
	// scrollToSel scrolls the outliner to the selection (after a pick).
	scrollToSel bool
	// The inspector's name field: its text while being edited, for which
	// object.
	nameBuf     string
	nameFor     int
	nameEditing bool

	// recordRects makes the panels remember where their widgets are, so
	// that tests can click them (see itemRect).
	recordRects bool
	rects       map[string][4]float32
}

type pressOwner uint8

const (
	pressNone pressOwner = iota
	pressViewport
	pressGizmo
)

type cvxEntry struct {
	shape geom.Superovoid
	valid bool
	rep   geom.ConvexityReport
}

// Convexity returns the convexity report of object i, computed when its
// shape changed and cached otherwise (the inspector shows it live while a
// shape is dragged).
func (a *App) Convexity(i int) geom.ConvexityReport {
	n := len(a.Scene.Objects)
	if i < 0 || i >= n {
		return geom.ConvexityReport{}
	}
	if len(a.cvx) < n {
		a.cvx = append(a.cvx, make([]cvxEntry, n-len(a.cvx))...)
	}
	e := &a.cvx[i]
	s := a.Scene.Objects[i].Shape
	if !e.valid || e.shape != s {
		e.shape, e.valid, e.rep = s, true, s.Convexity()
	}
	return e.rep
}

// StructureChanged records that objects were added, deleted or reordered:
// the next Update starts every pair's contact query cold, since the
// warm-start cache is keyed by pair index.
func (a *App) StructureChanged() { a.structure++ }

// beginEditOnce records an undo step for the edit made by the widget
// identified by key, unless that widget's current drag already has one.
// Call it when a widget reports a change, before writing to a.Scene.
func (a *App) beginEditOnce(key, label string) {
	if a.openEdit == key {
		return
	}
	a.BeginEdit(label)
	a.openEdit = key
}

// endEdits closes the open edit once no widget is active any more (end of
// a drag, focus left a text field). Called once per frame.
func (a *App) endEdits(anyActive bool) {
	if !anyActive && a.openEdit != "gizmo" {
		a.openEdit = ""
	}
}

// baseName strips a numeric ".NNN" suffix: duplicates of "finger.002" are
// named after "finger".
func baseName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 && i < len(name)-1 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}

// UniqueName returns name if no object of sc has it, and otherwise the
// first free "base.001", "base.002", ... (Blender's convention), where base
// is name without a numeric suffix.
func UniqueName(sc *scene.Scene, name string) string {
	if sc.Object(name) == nil {
		return name
	}
	base := baseName(name)
	for k := 1; ; k++ {
		c := fmt.Sprintf("%s.%03d", base, k)
		if len(c) > scene.MaxNameBytes {
			base = base[:len(base)-(len(c)-scene.MaxNameBytes)]
			continue
		}
		if sc.Object(c) == nil {
			return c
		}
	}
}

// CheckName says why name cannot be the name of object i of sc (nil when
// it can): names must be non-empty, at most scene.MaxNameBytes long, free
// of control characters and unique, as scene files require.
func CheckName(sc *scene.Scene, i int, name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("name must not be empty")
	}
	if len(name) > scene.MaxNameBytes {
		return fmt.Errorf("name longer than %d bytes", scene.MaxNameBytes)
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f {
			return errors.New("name must not contain control characters")
		}
	}
	for k := range sc.Objects {
		if k != i && sc.Objects[k].Name == name {
			return fmt.Errorf("another object is named %q", name)
		}
	}
	return nil
}

// finiteOr returns v, or old when v is NaN or infinite.
func finiteOr(v, old float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return old
	}
	return v
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// SanitizeShape turns an edited shape into a valid one: NaN or infinite
// fields keep their old value, the others are clamped to the parameter
// ranges (semi-axes to [scene.MinSemiAxis, scene.MaxSemiAxis], exponents
// to [geom.MinEps, geom.MaxEps], tapers to ±geom.MaxTaper). The result
// always passes Validate when old does.
func SanitizeShape(s, old geom.Superovoid) geom.Superovoid {
	for i := range s.A {
		s.A[i] = clamp(finiteOr(s.A[i], old.A[i]), scene.MinSemiAxis, scene.MaxSemiAxis)
	}
	for i := range s.Eps {
		s.Eps[i] = clamp(finiteOr(s.Eps[i], old.Eps[i]), geom.MinEps, geom.MaxEps)
	}
	for i := range s.Taper {
		s.Taper[i] = clamp(finiteOr(s.Taper[i], old.Taper[i]), -geom.MaxTaper, geom.MaxTaper)
	}
	if s.Validate() != nil {
		return old
	}
	return s
}

// SanitizePosition keeps old for non-finite components and clamps the
// others to ±scene.MaxCoord.
func SanitizePosition(p, old geom.Vec3) geom.Vec3 {
	for i := range p {
		p[i] = clamp(finiteOr(p[i], old[i]), -scene.MaxCoord, scene.MaxCoord)
	}
	return p
}

// NormalizeQuat returns q scaled to unit length, or old when q is zero,
// not finite or too small to carry a direction.
func NormalizeQuat(q, old geom.Quat) geom.Quat {
	n := math.Sqrt(q.W*q.W + q.V.Dot(q.V))
	if !(n > 1e-9) || math.IsInf(n, 0) {
		return old
	}
	return geom.Quat{W: q.W / n, V: q.V.Mul(1 / n)}
}

// EulerXYZ returns the XYZ Euler angles in degrees of a rotation, in
// Blender's convention: rotate about x, then y, then z (all world axes),
// R = Rz·Ry·Rx. At gimbal lock (y = ±90°) x is 0.
func EulerXYZ(q geom.Quat) [3]float64 {
	R := geom.Pose{Orientation: q}.Rotation() // column-major: R[col*3+row]
	r := func(row, col int) float64 { return R[col*3+row] }
	sy := clamp(-r(2, 0), -1, 1)
	var x, y, z float64
	y = math.Asin(sy)
	if math.Abs(sy) < 1-1e-12 {
		x = math.Atan2(r(2, 1), r(2, 2))
		z = math.Atan2(r(1, 0), r(0, 0))
	} else {
		z = math.Atan2(-r(0, 1), r(1, 1))
	}
	const deg = 180 / math.Pi
	e := [3]float64{x * deg, y * deg, z * deg}
	for k := range e {
		if e[k] == 0 {
			e[k] = 0 // no "-0.00" in the inspector
		}
	}
	return e
}

// QuatFromEulerXYZ is the inverse of EulerXYZ: the unit quaternion of
// R = Rz(z)·Ry(y)·Rx(x), angles in degrees.
func QuatFromEulerXYZ(e [3]float64) geom.Quat {
	const rad = math.Pi / 180
	half := func(d float64) (s, c float64) { return math.Sincos(d * rad / 2) }
	sx, cx := half(e[0])
	sy, cy := half(e[1])
	sz, cz := half(e[2])
	qx := geom.Quat{W: cx, V: geom.Vec3{sx, 0, 0}}
	qy := geom.Quat{W: cy, V: geom.Vec3{0, sy, 0}}
	qz := geom.Quat{W: cz, V: geom.Vec3{0, 0, sz}}
	q := qz.Mul(qy).Mul(qx)
	return NormalizeQuat(q, geom.Quat{W: 1})
}

// typicalSize is the median largest semi-axis of the objects (1 for an
// empty scene): new objects get a size that fits the scene, millimetre
// finger links and metre boxes alike.
func typicalSize(objs []scene.Object) float64 {
	if len(objs) == 0 {
		return 1
	}
	s := make([]float64, len(objs))
	for i := range objs {
		a := objs[i].Shape.A
		s[i] = math.Max(a[0], math.Max(a[1], a[2]))
	}
	sort.Float64s(s)
	return s[len(s)/2]
}

// freeSpot returns the position nearest to c, stepping along dir by r/2
// either way, where a sphere of radius r does not meet the bounding sphere
// of any object (c itself when it is free; the last candidate when nothing
// within 100 r is).
func freeSpot(objs []scene.Object, c, dir geom.Vec3, r float64) geom.Vec3 {
	step := 0.5 * r
	p := c
	for k := 0; k < 401; k++ {
		// 0, +1, -1, +2, -2, ... steps along dir
		off := float64((k + 1) / 2)
		if k%2 == 0 {
			off = -off
		}
		p = c.Add(dir.Mul(off * step))
		free := true
		for i := range objs {
			o := &objs[i]
			if o.Pose.Position.Sub(p).Len() < r+o.Shape.BoundingRadiusFast() {
				free = false
				break
			}
		}
		if free {
			return p
		}
	}
	return p
}

// AddObject adds a new superovoid (a rounded box the size of a typical
// object of the scene) at a free spot near the camera's target, with a
// unique name, selects it and returns its index. It is one undo step.
func (a *App) AddObject() int {
	r := typicalSize(a.Scene.Objects)
	shape := geom.Superovoid{A: [3]float64{r, 0.8 * r, 0.9 * r}, Eps: [2]float64{0.6, 0.8}}
	right, _, _ := a.Camera.Basis()
	pos := freeSpot(a.Scene.Objects, a.Camera.Target, right, shape.BoundingRadiusFast())
	pos = SanitizePosition(pos, geom.Vec3{})
	i := len(a.Scene.Objects)
	o := scene.NewObject(UniqueName(a.Scene, "superovoid"), shape, geom.Pose{Position: pos, Orientation: geom.Quat{W: 1}}, i)
	a.Edit("add "+o.Name, func(sc *scene.Scene) { sc.Objects = append(sc.Objects, o) })
	a.Selected = i
	a.StructureChanged()
	return i
}

// DuplicateSelected copies the selected object beside the original (along
// the camera's right), names the copy uniquely and selects it. It returns
// the copy's index, or -1 when nothing is selected.
func (a *App) DuplicateSelected() int {
	if a.Selected < 0 || a.Selected >= len(a.Scene.Objects) {
		return -1
	}
	o := a.Scene.Objects[a.Selected]
	o.Name = UniqueName(a.Scene, o.Name)
	right, _, _ := a.Camera.Basis()
	o.Pose.Position = SanitizePosition(o.Pose.Position.Add(right.Mul(2.2*o.Shape.BoundingRadiusFast())), o.Pose.Position)
	i := len(a.Scene.Objects)
	a.Edit("duplicate "+a.Scene.Objects[a.Selected].Name, func(sc *scene.Scene) { sc.Objects = append(sc.Objects, o) })
	a.Selected = i
	a.StructureChanged()
	return i
}

// DeleteObject removes object i (and its name from the bodies that list
// it); the selection follows. It reports false when i is out of range.
func (a *App) DeleteObject(i int) bool {
	if i < 0 || i >= len(a.Scene.Objects) {
		return false
	}
	name := a.Scene.Objects[i].Name
	a.Edit("delete "+name, func(sc *scene.Scene) {
		sc.Objects = append(sc.Objects[:i:i], sc.Objects[i+1:]...)
		for b := range sc.Bodies {
			names := sc.Bodies[b].Objects[:0:0]
			for _, n := range sc.Bodies[b].Objects {
				if n != name {
					names = append(names, n)
				}
			}
			sc.Bodies[b].Objects = names
		}
	})
	switch {
	case a.Selected == i:
		a.Selected = -1
	case a.Selected > i:
		a.Selected--
	}
	a.StructureChanged()
	return true
}

// RenameObject renames object i (and its entry in the bodies), refusing
// names CheckName rejects.
func (a *App) RenameObject(i int, name string) error {
	if i < 0 || i >= len(a.Scene.Objects) {
		return fmt.Errorf("rename: no object %d", i)
	}
	old := a.Scene.Objects[i].Name
	if name == old {
		return nil
	}
	if err := CheckName(a.Scene, i, name); err != nil {
		return fmt.Errorf("rename %q: %w", old, err)
	}
	a.Edit("rename "+old, func(sc *scene.Scene) {
		sc.Objects[i].Name = name
		for b := range sc.Bodies {
			// Clone shares nothing, so writing in place is safe.
			for k, n := range sc.Bodies[b].Objects {
				if n == old {
					sc.Bodies[b].Objects[k] = name
				}
			}
		}
	})
	return nil
}

// Pick returns the index of the visible object whose exact surface the
// ray through pixel (x, y) (framebuffer pixels) meets first, or -1.
func (a *App) Pick(x, y float64) int {
	o, d := a.Camera.Ray(x, y)
	if a.Camera.Ortho {
		// The orthographic view also shows what lies behind the eye
		// (its near plane is behind it): start the ray there.
		o = o.Sub(d.Mul(a.Camera.Distance + 4*math.Max(a.Camera.SceneRadius, 1e-3)))
	}
	best, bt := -1, math.Inf(1)
	for i := range a.Scene.Objects {
		ob := &a.Scene.Objects[i]
		if !ob.Visible {
			continue
		}
		b := ob.Body()
		if t, ok := b.Raycast(o, d); ok && t < bt {
			best, bt = i, t
		}
	}
	return best
}
