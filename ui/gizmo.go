package ui

import (
	"math"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
)

// GizmoOp is what the transform gizmo does.
type GizmoOp int

// Gizmo operations (T and R keys).
const (
	GizmoTranslate GizmoOp = iota
	GizmoRotate
)

// GizmoSettings are the transform gizmo's mode and snapping.
type GizmoSettings struct {
	Op GizmoOp
	// Local aligns the gizmo with the object's axes instead of the world's.
	Local bool
	// Snap snaps moves to MoveStep and rotations to AngleStep degrees,
	// counted from where the drag started; holding Ctrl snaps too.
	Snap bool
	// MoveStep in scene units; 0 means a tenth of a typical object size,
	// rounded to a power of ten.
	MoveStep  float64
	AngleStep float64 // degrees
	// Hidden hides the gizmo (the selection stays).
	Hidden bool
}

// DefaultGizmoSettings returns translate, world axes, no snapping, 15°
// angle steps and an automatic move step.
func DefaultGizmoSettings() GizmoSettings {
	return GizmoSettings{Op: GizmoTranslate, AngleStep: 15}
}

// moveStep is the translation snap step in use.
func (a *App) moveStep() float64 {
	if a.Gizmo.MoveStep > 0 {
		return a.Gizmo.MoveStep
	}
	s := typicalSize(a.Scene.Objects) / 10
	return math.Pow(10, math.Floor(math.Log10(s)))
}

// gizmoDrag remembers the pose at the start of a gizmo drag: translations
// are applied as float64 offsets from it, so that the float32 gizmo
// leaves the coordinates it does not move bit for bit unchanged.
type gizmoDrag struct {
	active bool
	index  int
	start  geom.Pose
	m0     [16]float32
}

// mat32 converts a column-major float64 matrix to ImGuizmo's column-major
// float32 layout (OpenGL's, the same as mgl64's).
func mat32(m mgl64.Mat4) (out [16]float32) {
	for i := range m {
		out[i] = float32(m[i])
	}
	return
}

// poseMatrix returns the model matrix of a pose, column-major.
func poseMatrix(p geom.Pose) mgl64.Mat4 {
	R := p.Rotation()
	var m mgl64.Mat4
	for c := 0; c < 3; c++ {
		for r := 0; r < 3; r++ {
			m[c*4+r] = R[c*3+r]
		}
	}
	m[12], m[13], m[14], m[15] = p.Position[0], p.Position[1], p.Position[2], 1
	return m
}

// rotationOf returns the unit quaternion of the rotation part of a
// float32 model matrix (re-orthonormalised: the gizmo's float32 products
// drift a little from a rotation), or old when it is degenerate.
func rotationOf(m *[16]float32, old geom.Quat) geom.Quat {
	var c [3]geom.Vec3
	for k := 0; k < 3; k++ {
		c[k] = geom.Vec3{float64(m[k*4]), float64(m[k*4+1]), float64(m[k*4+2])}
	}
	// Gram-Schmidt, then the third column from the cross product so that
	// the frame stays right-handed.
	x := c[0].Normalize()
	y := c[1].Sub(x.Mul(x.Dot(c[1]))).Normalize()
	z := x.Cross(y)
	if !finiteVec(x) || !finiteVec(y) || z.Len() < 0.5 {
		return old
	}
	m4 := mgl64.Mat4{x[0], x[1], x[2], 0, y[0], y[1], y[2], 0, z[0], z[1], z[2], 0, 0, 0, 0, 1}
	q := mgl64.Mat4ToQuat(m4)
	// Keep the sign of the old quaternion (same rotation, no jump in the
	// numbers the inspector shows).
	if q.W*old.W+q.V.Dot(old.V) < 0 {
		q = geom.Quat{W: -q.W, V: q.V.Mul(-1)}
	}
	return NormalizeQuat(q, old)
}

func finiteVec(v geom.Vec3) bool {
	for _, c := range v {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return false
		}
	}
	return true
}

// drawGizmo draws the translate/rotate gizmo (ImGuizmo) on the selected
// object and applies its drags to the scene; a whole drag is one undo
// step. Geometry stays float64: float32 appears only in the matrices
// handed to ImGuizmo.
func (a *App) drawGizmo() {
	a.gizmoOver = false
	i := a.Selected
	if i < 0 || i >= len(a.Scene.Objects) || a.Gizmo.Hidden || !a.Scene.Objects[i].Visible {
		a.endGizmoDrag()
		return
	}
	o := &a.Scene.Objects[i]
	if !a.Camera.Ortho {
		// ImGuizmo returns early for a centre behind the eye without
		// restoring its clip rectangle: do not ask it.
		_, _, back := a.Camera.Basis()
		if o.Pose.Position.Sub(a.Camera.Eye()).Dot(back) >= 0 {
			a.endGizmoDrag()
			return
		}
	}
	ds := imgui.CurrentIO().DisplaySize()
	imguizmo.SetOrthographic(a.Camera.Ortho)
	imguizmo.SetRect(0, 0, ds.X, ds.Y)
	imguizmo.SetID(int32(i))
	view, proj := mat32(a.Camera.View()), mat32(a.Camera.Proj())
	model := mat32(poseMatrix(o.Pose))
	op, mode := imguizmo.TRANSLATE, imguizmo.WORLD
	if a.Gizmo.Op == GizmoRotate {
		op = imguizmo.ROTATE
	}
	if a.Gizmo.Local {
		mode = imguizmo.LOCAL
	}
	var snap *float32
	var snapv [3]float32
	if a.Gizmo.Snap || imgui.CurrentIO().KeyCtrl() {
		s := float32(a.moveStep())
		if a.Gizmo.Op == GizmoRotate {
			s = float32(a.Gizmo.AngleStep)
		}
		snapv = [3]float32{s, s, s}
		snap = &snapv[0]
	}
	changed := imguizmo.ManipulateV(&view[0], &proj[0], op, mode, &model[0], nil, snap, nil, nil)
	using := imguizmo.IsUsing()
	a.gizmoOver = using || imguizmo.IsOver()
	if using && !(a.gizmoDrag.active && a.gizmoDrag.index == i) {
		a.gizmoDrag = gizmoDrag{active: true, index: i, start: o.Pose, m0: mat32(poseMatrix(o.Pose))}
	}
	if changed && a.gizmoDrag.active {
		pose := o.Pose
		if a.Gizmo.Op == GizmoRotate {
			pose.Orientation = rotationOf(&model, o.Pose.Orientation)
		} else {
			d := &a.gizmoDrag
			var p geom.Vec3
			for k := 0; k < 3; k++ {
				p[k] = d.start.Position[k] + (float64(model[12+k]) - float64(d.m0[12+k]))
			}
			pose.Position = SanitizePosition(p, o.Pose.Position)
		}
		if pose != o.Pose {
			verb := "move "
			if a.Gizmo.Op == GizmoRotate {
				verb = "rotate "
			}
			a.beginEditOnce("gizmo", verb+o.Name)
			a.Scene.Objects[i].Pose = pose
		}
	}
	if !using {
		a.endGizmoDrag()
	}
}

func (a *App) endGizmoDrag() {
	a.gizmoDrag.active = false
	if a.openEdit == "gizmo" {
		a.openEdit = ""
	}
}

// drawToolbar is the gizmo's toolbar, left of the view-cube: operation,
// axes, snapping.
func (a *App) drawToolbar() {
	ds := imgui.CurrentIO().DisplaySize()
	// Its right edge a margin left of the view-cube, whatever its width.
	imgui.SetNextWindowPosV(vec2(float64(ds.X)-viewCubeW-8-panelMargin, a.menuHeight()+viewCubeTop), imgui.CondFirstUseEver, vec2(1, 0))
	imgui.SetNextWindowBgAlpha(0.7)
	if imgui.BeginV("Gizmo##toolbar", &a.ShowToolbar, imgui.WindowFlagsNoTitleBar|imgui.WindowFlagsAlwaysAutoResize|imgui.WindowFlagsNoSavedSettings|imgui.WindowFlagsNoFocusOnAppearing) {
		a.recWindow("win.toolbar")
		g := &a.Gizmo
		if imgui.RadioButtonBool("move (T)", g.Op == GizmoTranslate) {
			g.Op = GizmoTranslate
		}
		imgui.SameLine()
		if imgui.RadioButtonBool("rotate (R)", g.Op == GizmoRotate) {
			g.Op = GizmoRotate
		}
		imgui.SameLine()
		axes := "world"
		if g.Local {
			axes = "local"
		}
		if imgui.Button(axes + " axes") {
			g.Local = !g.Local
		}
		a.setTooltip("gizmo axes: world or the object's own")
		imgui.SameLine()
		imgui.Checkbox("snap", &g.Snap)
		a.setTooltip("snap to steps (or hold Ctrl while dragging)")
		imgui.SameLine()
		imgui.SetNextItemWidth(70)
		if g.Op == GizmoRotate {
			v := g.AngleStep
			if imgui.InputDoubleV("deg##astep", &v, 0, 0, "%.3g", 0) && v > 0 && v <= 180 {
				g.AngleStep = v
			}
		} else {
			v := a.moveStep()
			if imgui.InputDoubleV("step##mstep", &v, 0, 0, "%.3g", 0) && v > 0 && v <= scene.MaxCoord {
				g.MoveStep = v
			}
		}
		imgui.SameLine()
		imgui.Checkbox("hide", &g.Hidden)
	}
	imgui.End()
}

// setTooltip shows text when the last item is hovered.
func (a *App) setTooltip(text string) {
	if imgui.IsItemHovered() {
		imgui.SetTooltip(text)
	}
}
