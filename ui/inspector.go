package ui

import (
	"fmt"
	"math"
	"strconv"
	"unsafe"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
)

// dragF64 is a drag field of len(v) float64 components clamped to
// [lo, hi] (Ctrl+click or double-click types a value).
func dragF64(label string, v []float64, speed, lo, hi float64, format string) bool {
	// ImGui only reads and writes through these pointers during the call.
	return imgui.DragScalarNV(label, imgui.DataTypeDouble, uintptr(unsafe.Pointer(&v[0])), int32(len(v)), float32(speed),
		uintptr(unsafe.Pointer(&lo)), uintptr(unsafe.Pointer(&hi)), format, imgui.SliderFlagsAlwaysClamp)
}

// dragI32 is dragF64 for int32 components.
func dragI32(label string, v []int32, speed float64, lo, hi int32) bool {
	return imgui.DragScalarNV(label, imgui.DataTypeS32, uintptr(unsafe.Pointer(&v[0])), int32(len(v)), float32(speed),
		uintptr(unsafe.Pointer(&lo)), uintptr(unsafe.Pointer(&hi)), "%d", imgui.SliderFlagsAlwaysClamp)
}

// editKey names the widget of field for object i in beginEditOnce.
func editKey(field string, i int) string { return field + "#" + strconv.Itoa(i) }

// SetShape gives object i the shape s after SanitizeShape (NaN fields keep
// their value, the others are clamped to the valid ranges), as the undo
// step key/label (see beginEditOnce), keeping an explicit marching-triangles
// edge length within what the new size allows. It reports whether the
// shape changed.
func (a *App) SetShape(i int, s geom.Superovoid, key, label string) bool {
	if i < 0 || i >= len(a.Scene.Objects) {
		return false
	}
	old := a.Scene.Objects[i].Shape
	s = SanitizeShape(s, old)
	if s == old {
		return false
	}
	a.beginEditOnce(key, label)
	o := &a.Scene.Objects[i]
	o.Shape = s
	o.Mesh = fitMesh(o.Mesh, s)
	return true
}

// fitMesh keeps mesh settings valid for shape s (scene files reject an
// edge length outside [MinEdgeFraction, 1] × the largest semi-axis).
func fitMesh(m scene.Mesh, s geom.Superovoid) scene.Mesh {
	if m.Method == scene.MarchingTriangles && m.Edge != 0 {
		amax := math.Max(s.A[0], math.Max(s.A[1], s.A[2]))
		m.Edge = clamp(m.Edge, scene.MinEdgeFraction*amax, amax)
	}
	if m.Method == scene.Grid {
		m.Edge = 0
	}
	return m
}

// SetPose gives object i the pose p (non-finite position components keep
// their value, the quaternion is normalised) as an undo step.
func (a *App) SetPose(i int, p geom.Pose, key, label string) bool {
	if i < 0 || i >= len(a.Scene.Objects) {
		return false
	}
	old := a.Scene.Objects[i].Pose
	p.Position = SanitizePosition(p.Position, old.Position)
	p.Orientation = NormalizeQuat(p.Orientation, old.Orientation)
	if p == old {
		return false
	}
	a.beginEditOnce(key, label)
	a.Scene.Objects[i].Pose = p
	return true
}

// drawInspector shows and edits the selected object: name, shape,
// convexity, pose, colour, visibility and mesh settings. Every change is
// an undo step (one per drag).
func (a *App) drawInspector() {
	ds := imgui.CurrentIO().DisplaySize()
	top := a.menuHeight() + panelMargin + outlinerH + panelMargin
	imgui.SetNextWindowPosV(vec2(leftX, top), imgui.CondFirstUseEver, vec2(0, 0))
	imgui.SetNextWindowSizeV(vec2(leftW, math.Max(200, float64(ds.Y)-top-26-panelMargin)), imgui.CondFirstUseEver)
	if !imgui.BeginV("Inspector", &a.ShowInspector, 0) {
		imgui.End()
		return
	}
	i := a.Selected
	if i < 0 || i >= len(a.Scene.Objects) {
		imgui.TextDisabled("nothing selected")
		imgui.TextDisabled("click an object or a name in the outliner")
		imgui.End()
		return
	}
	imgui.PushItemWidth(-100)
	a.inspectName(i)
	o := &a.Scene.Objects[i]
	vis := o.Visible
	if imgui.Checkbox("visible", &vis) {
		a.BeginEdit("visibility of " + o.Name)
		a.Scene.Objects[i].Visible = vis
	}
	imgui.SameLine()
	if imgui.Button("frame (F)") {
		a.FrameSelection()
	}
	imgui.SameLine()
	if imgui.Button("delete") {
		a.DeleteObject(i)
		imgui.PopItemWidth()
		imgui.End()
		return
	}
	c := [4]float32{float32(o.Color[0]), float32(o.Color[1]), float32(o.Color[2]), float32(o.Color[3])}
	if imgui.ColorEdit4V("colour", &c, imgui.ColorEditFlagsAlphaBar|imgui.ColorEditFlagsAlphaPreviewHalf) {
		var nc scene.Color
		for k := range c {
			nc[k] = clamp(finiteOr(float64(c[k]), o.Color[k]), 0, 1)
		}
		if nc != o.Color {
			a.beginEditOnce(editKey("colour", i), "colour of "+o.Name)
			a.Scene.Objects[i].Color = nc
		}
	}
	a.inspectShape(i)
	a.inspectPose(i)
	a.inspectMesh(i)
	imgui.PopItemWidth()
	imgui.End()
}

func (a *App) inspectName(i int) {
	o := &a.Scene.Objects[i]
	if a.nameFor != i || !a.nameEditing {
		a.nameBuf, a.nameFor = o.Name, i
	}
	enter := imgui.InputTextWithHint("name", "unique name", &a.nameBuf, imgui.InputTextFlagsEnterReturnsTrue, nil)
	a.rec("inspector.name")
	a.nameEditing = imgui.IsItemActive()
	if enter || imgui.IsItemDeactivatedAfterEdit() {
		if err := a.RenameObject(i, a.nameBuf); err != nil {
			a.Error = err.Error()
		}
		a.nameEditing = false
	} else if a.nameEditing {
		if err := CheckName(a.Scene, i, a.nameBuf); err != nil {
			imgui.TextColored(imgui.NewVec4(1, 0.45, 0.35, 1), escapeFmt(err.Error()))
		}
	}
}

func (a *App) inspectShape(i int) {
	imgui.SeparatorText("shape")
	o := &a.Scene.Objects[i]
	s := o.Shape
	amax := math.Max(s.A[0], math.Max(s.A[1], s.A[2]))
	av := s.A
	if dragF64("a1 a2 a3", av[:], 0.004*amax, scene.MinSemiAxis, scene.MaxSemiAxis, "%.4g") {
		n := s
		n.A = av
		a.SetShape(i, n, editKey("a", i), "semi-axes of "+o.Name)
	}
	a.rec("inspector.a")
	ev := s.Eps
	if dragF64("eps1 eps2", ev[:], 0.004, geom.MinEps, geom.MaxEps, "%.3f") {
		n := s
		n.Eps = ev
		a.SetShape(i, n, editKey("eps", i), "squareness of "+o.Name)
	}
	a.rec("inspector.eps")
	a.setTooltip("squareness: e1 of the xy sections, e2 of the z profile, in [0.05, 1.95]")
	tv := s.Taper
	if dragF64("tx ty", tv[:], 0.002, -geom.MaxTaper, geom.MaxTaper, "%.3f") {
		n := s
		n.Taper = tv
		a.SetShape(i, n, editKey("taper", i), "taper of "+o.Name)
	}
	a.rec("inspector.taper")
	a.setTooltip("linear tapers along z, in [-0.5, 0.5]")

	rep := a.Convexity(i)
	green, orange := imgui.NewVec4(0.45, 0.85, 0.45, 1), imgui.NewVec4(nonConvexColor[0], nonConvexColor[1], nonConvexColor[2], 1)
	if rep.Convex {
		imgui.TextColored(green, "convex: yes")
	} else {
		imgui.TextColored(orange, "convex: no")
	}
	imgui.TextWrapped(escapeFmt(rep.Reason))
	if !rep.Convex {
		amax := math.Max(o.Shape.A[0], math.Max(o.Shape.A[1], o.Shape.A[2]))
		imgui.TextWrapped(escapeFmt(fmt.Sprintf("hull gap %.4g = %.3g%% of the largest semi-axis", rep.HullGap, 100*rep.HullGap/amax)))
		imgui.TextWrapped(escapeFmt(fmt.Sprintf("min. curvature %.4g, deepest at local (%.3g, %.3g, %.3g)", rep.MinCurvature, rep.Where[0], rep.Where[1], rep.Where[2])))
		// A separated pair is still certified when the support planes along
		// its normal prove it (docs/contact.md); the pair labels say which.
		imgui.PushTextWrapPos()
		imgui.TextDisabled("its distances are certified only where the support planes prove them; pair labels say \"not certified\" otherwise")
		imgui.PopTextWrapPos()
	}
}

func (a *App) inspectPose(i int) {
	imgui.SeparatorText("pose")
	o := &a.Scene.Objects[i]
	p := o.Pose
	size := o.Shape.BoundingRadiusFast()
	pos := p.Position
	if dragF64("position", pos[:], 0.004*size, -scene.MaxCoord, scene.MaxCoord, "%.5g") {
		n := p
		n.Position = pos
		a.SetPose(i, n, editKey("position", i), "move "+o.Name)
	}
	a.rec("inspector.position")
	e := EulerXYZ(p.Orientation)
	if dragF64("rotation XYZ°", e[:], 0.5, -360, 360, "%.2f") {
		n := p
		n.Orientation = QuatFromEulerXYZ(e)
		a.SetPose(i, n, editKey("euler", i), "rotate "+o.Name)
	}
	a.rec("inspector.euler")
	a.setTooltip("Euler angles in degrees: about x, then y, then z (world axes), as in Blender")
	q := [4]float64{p.Orientation.W, p.Orientation.V[0], p.Orientation.V[1], p.Orientation.V[2]}
	imgui.TextUnformatted("quaternion w x y z")
	imgui.SetNextItemWidth(-1)
	if dragF64("##quat", q[:], 0.002, -1, 1, "%.5f") {
		n := p
		n.Orientation = geom.Quat{W: q[0], V: geom.Vec3{q[1], q[2], q[3]}}
		a.SetPose(i, n, editKey("quat", i), "rotate "+o.Name)
	}
	a.setTooltip("unit quaternion [w, x, y, z], normalised after every edit")
	if imgui.Button("reset rotation") {
		n := p
		n.Orientation = geom.Quat{W: 1}
		a.SetPose(i, n, editKey("resetrot", i), "reset rotation of "+o.Name)
		a.openEdit = ""
	}
}

func (a *App) inspectMesh(i int) {
	imgui.SeparatorText("mesh")
	o := &a.Scene.Objects[i]
	m := o.Mesh
	method := int32(m.Method)
	set := func(n scene.Mesh, key, label string) {
		n = fitMesh(n, o.Shape)
		if n != a.Scene.Objects[i].Mesh {
			a.beginEditOnce(editKey(key, i), label+" of "+o.Name)
			a.Scene.Objects[i].Mesh = n
		}
	}
	if imgui.ComboStrarr("method", &method, []string{"grid", "marching triangles"}, 2) {
		n := m
		n.Method = scene.MeshMethod(method)
		n.Edge, n.Slices = 0, [2]int{}
		set(n, "method", "mesh method")
		a.openEdit = ""
	}
	switch m.Method {
	case scene.Grid:
		auto := m.Slices == [2]int{}
		if imgui.Checkbox("automatic slices", &auto) {
			n := m
			n.Slices = [2]int{}
			if !auto {
				n.Slices = scene.DefaultSlices()
			}
			set(n, "autoslices", "mesh slices")
			a.openEdit = ""
		}
		if !auto {
			v := [2]int32{int32(m.Slices[0]), int32(m.Slices[1])}
			if dragI32("slices az ze", v[:], 0.5, scene.MinSlicesZe, scene.MaxSlicesAz) {
				n := m
				n.Slices = [2]int{max(scene.MinSlicesAz, min(scene.MaxSlicesAz, int(v[0]))), max(scene.MinSlicesZe, min(scene.MaxSlicesZe, int(v[1])))}
				set(n, "slices", "mesh slices")
			}
			a.setTooltip(fmt.Sprintf("azimuth in [%d, %d], zenith in [%d, %d]", scene.MinSlicesAz, scene.MaxSlicesAz, scene.MinSlicesZe, scene.MaxSlicesZe))
		} else {
			d := scene.DefaultSlices()
			imgui.TextDisabled(fmt.Sprintf("%d x %d cells", d[0], d[1]))
		}
	case scene.MarchingTriangles:
		auto := m.Edge == 0
		if imgui.Checkbox("automatic edge length", &auto) {
			n := m
			n.Edge = 0
			if !auto {
				n.Edge = m.EffectiveEdge(o.Shape)
			}
			set(n, "autoedge", "mesh edge length")
			a.openEdit = ""
		}
		amax := math.Max(o.Shape.A[0], math.Max(o.Shape.A[1], o.Shape.A[2]))
		if !auto {
			v := []float64{m.Edge}
			if dragF64("edge length", v, 0.001*amax, scene.MinEdgeFraction*amax, amax, "%.4g") {
				n := m
				n.Edge = v[0]
				set(n, "edge", "mesh edge length")
			}
		} else {
			imgui.TextDisabled(fmt.Sprintf("edge %.4g (%g of the largest semi-axis)", m.EffectiveEdge(o.Shape), scene.DefaultEdgeFraction))
		}
	}
	wf := m.Wireframe
	if imgui.Checkbox("wireframe", &wf) {
		n := m
		n.Wireframe = wf
		set(n, "wireframe", "wireframe")
		a.openEdit = ""
	}
	if err := a.MeshError(i); err != nil {
		imgui.TextColored(imgui.NewVec4(1, 0.45, 0.35, 1), "mesh problem:")
		imgui.TextWrapped(escapeFmt(err.Error()))
	}
}
