package ui

import (
	"fmt"
	"math"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/render/drawlist"
	"github.com/sovviz/sovviz/scene"
)

// uiState is the part of the app state that only the built-in windows use.
type uiState struct {
	glVersion string
	win       *glfw.Window // the interactive window while Run runs
	quit      bool
	frames    int
	placed    [][4]float64 // label rectangles of this frame
	// wiggleBase is the benchmarks' rest position of the moving object.
	wiggleBase *geom.Vec3
}

func col(c drawlist.Color) uint32 { return imgui.ColorU32Vec4(imgui.NewVec4(c[0], c[1], c[2], c[3])) }

func vec2(x, y float64) imgui.Vec2 { return imgui.NewVec2(float32(x), float32(y)) }

// handleInput turns mouse and keys into camera moves (Blender/Polyscope
// style): left drag orbits, right drag, middle drag or shift+left drag pans,
// the wheel zooms, a left click picks; F frames the selection, keypad 1/3/7
// (ctrl: opposite) pick the axis views, 5 toggles perspective, X toggles
// x-ray; the editing keys are editShortcuts'.
// scale is framebuffer pixels per window unit (HiDPI).
func (a *App) handleInput(scale float64) {
	a.frameScene, a.frameOverlays, a.frameSolver = a.Scene, a.Scene.Overlays, a.Scene.Solver
	io := imgui.CurrentIO()
	m := imgui.MousePos()
	mx, my := float64(m.X), float64(m.Y)
	// A left press belongs to the gizmo when it is under the mouse, to the
	// viewport (orbit, or pick on release) when no window is, and to ImGui
	// otherwise; the owner keeps the whole drag.
	if imgui.IsMouseClickedBool(imgui.MouseButtonLeft) {
		switch {
		case io.WantCaptureMouse():
			a.pressOwner = pressNone
		case a.gizmoOver:
			a.pressOwner = pressGizmo
		default:
			a.pressOwner = pressViewport
		}
		a.pressX, a.pressY = mx, my
	}
	if !io.WantCaptureMouse() {
		d := io.MouseDelta()
		dx, dy := float64(d.X)*scale, float64(d.Y)*scale
		if math.IsNaN(dx) || math.Abs(dx) > 1e5 {
			dx, dy = 0, 0 // no previous position yet
		}
		left := imgui.IsMouseDragging(imgui.MouseButtonLeft) && a.pressOwner == pressViewport
		switch {
		case imgui.IsMouseDragging(imgui.MouseButtonRight) || imgui.IsMouseDragging(imgui.MouseButtonMiddle) ||
			(left && io.KeyShift()):
			a.Camera.Pan(dx, dy)
		case left:
			a.Camera.Orbit(dx, dy)
		}
		if w := io.MouseWheel(); w != 0 {
			a.Camera.Zoom(float64(w))
		}
	}
	if imgui.IsMouseReleased(imgui.MouseButtonLeft) {
		// A click without a drag picks the object under the mouse (the
		// exact surface, not the mesh); empty space deselects.
		if a.pressOwner == pressViewport && math.Hypot(mx-a.pressX, my-a.pressY) < float64(io.MouseDragThreshold()) {
			a.Selected = a.Pick(mx*scale, my*scale)
			a.scrollToSel = a.Selected >= 0
		}
		a.pressOwner = pressNone
	}
	if io.WantCaptureKeyboard() {
		return
	}
	ctrl, shift := io.KeyCtrl(), io.KeyShift()
	pressed := func(keys ...imgui.Key) bool {
		for _, k := range keys {
			if imgui.IsKeyPressedBool(k) {
				return true
			}
		}
		return false
	}
	if a.editShortcuts(ctrl, shift, pressed) {
		return
	}
	switch {
	case pressed(imgui.KeyF):
		a.FrameSelection()
	case pressed(imgui.KeyHome):
		a.FrameAll()
	case pressed(imgui.KeyKeypad1, imgui.Key1):
		a.Camera.SetView(pick(ctrl, drawlist.Back, drawlist.Front))
	case pressed(imgui.KeyKeypad3, imgui.Key3):
		a.Camera.SetView(pick(ctrl, drawlist.Left, drawlist.Right))
	case pressed(imgui.KeyKeypad7, imgui.Key7):
		a.Camera.SetView(pick(ctrl, drawlist.Bottom, drawlist.Top))
	case pressed(imgui.KeyKeypad5, imgui.Key5):
		a.Camera.Ortho = !a.Camera.Ortho
	case pressed(imgui.KeyX):
		a.Scene.Overlays.XRay = !a.Scene.Overlays.XRay
	}
}

func pick(ctrl bool, yes, no drawlist.View) drawlist.View {
	if ctrl {
		return yes
	}
	return no
}

// drawUI draws the ImGui part of the frame: the labels of the draw list,
// and in the interactive window the view-cube, the status line, the
// overlay switches, the parameter-space panel, the error dialog and the
// extra panels.
func (a *App) drawUI(scale float64, interactive bool) {
	a.drawLabels(scale)
	if !interactive {
		return
	}
	imguizmo.BeginFrame()
	a.drawMenuBar()
	a.drawViewCube()
	if a.ShowStatus {
		a.drawStatus()
	}
	if a.ShowOutliner {
		a.drawOutliner()
	}
	if a.ShowInspector {
		a.drawInspector()
	}
	if a.ShowOverlays {
		a.drawOverlayWindow()
	}
	if a.ShowToolbar {
		a.drawToolbar()
	}
	if a.Scene.Overlays.ParamPanel {
		a.drawParamSpace()
	}
	a.drawGizmo()
	for _, p := range a.Panels {
		p.Draw(a)
	}
	a.drawFileDialog()
	a.drawUnsavedPrompt()
	a.drawError()
	a.recordSettingsEdits()
	a.endEdits(imgui.IsAnyItemActive())
	a.updateTitle()
}

// recordSettingsEdits makes the overlay switches and solver settings,
// which the overlays window, the View menu and the X key change in place
// and which are saved with the scene, undo steps like any other edit: the
// values of the frame's start are put back for the snapshot, then the new
// ones again.
func (a *App) recordSettingsEdits() {
	if a.frameScene != a.Scene {
		return // a scene was loaded or an undo swapped it this frame
	}
	if ov := a.Scene.Overlays; ov != a.frameOverlays {
		a.Scene.Overlays = a.frameOverlays
		a.beginEditOnce("overlays", "overlay switches")
		a.Scene.Overlays = ov
	}
	if sv := a.Scene.Solver; sv != a.frameSolver {
		a.Scene.Solver = a.frameSolver
		a.beginEditOnce("solver", "solver settings")
		a.Scene.Solver = sv
	}
}

// drawLabels writes the draw list's labels at their projected positions,
// with a shadow so they read on any background. A label that would overlap
// one already written is dropped (the list puts the important ones first);
// hovering its anchor shows it anyway.
func (a *App) drawLabels(scale float64) {
	dl := imgui.BackgroundDrawList()
	vp := a.Camera.ViewProj()
	a.placed = a.placed[:0]
	m := imgui.MousePos()
	for i := range a.List.Labels {
		l := &a.List.Labels[i]
		x, y, _, ok := drawlist.ProjectWith(&vp, a.Camera.Width, a.Camera.Height, l.P)
		if !ok {
			continue
		}
		ax, ay := x/scale, y/scale
		x, y = ax+10, ay-20
		txt := a.List.Text(i)
		ts := imgui.CalcTextSize(txt)
		r := [4]float64{x, y, x + float64(ts.X), y + float64(ts.Y)}
		hovered := math.Abs(float64(m.X)-ax) < 8 && math.Abs(float64(m.Y)-ay) < 8
		if !hovered && overlapsAny(a.placed, r) {
			continue
		}
		a.placed = append(a.placed, r)
		dl.AddTextVec2(vec2(x+1, y+1), col(drawlist.Color{0, 0, 0, 0.85}), txt)
		dl.AddTextVec2(vec2(x, y), col(l.Color), txt)
	}
}

func overlapsAny(rs [][4]float64, r [4]float64) bool {
	for _, q := range rs {
		if r[0] < q[2] && q[0] < r[2] && r[1] < q[3] && q[1] < r[3] {
			return true
		}
	}
	return false
}

// viewCubeCentre is where the view-cube's centre is drawn (window units).
func (a *App) viewCubeCentre() (x, y float64) {
	ds := imgui.CurrentIO().DisplaySize()
	return float64(ds.X) - viewCubeW - 8 + 8 + (viewCubeW-16)/2, a.menuHeight() + viewCubeTop + 8 + viewCubeSize/2
}

// drawViewCube draws the view-cube in the top-right corner (thesis §4.2):
// clicking a face picks that orthographic view; the buttons below pick the
// hidden faces' views and the free perspective. An axis triad sits in the
// bottom-left corner of the viewport.
func (a *App) drawViewCube() {
	io := imgui.CurrentIO()
	ds := io.DisplaySize()
	const w, h = viewCubeW, viewCubeH
	imgui.SetNextWindowPosV(vec2(float64(ds.X)-w-8, a.menuHeight()+viewCubeTop), imgui.CondAlways, vec2(0, 0))
	imgui.SetNextWindowSize(vec2(w, h))
	imgui.SetNextWindowBgAlpha(0.25)
	if imgui.BeginV("##viewcube", nil, imgui.WindowFlagsNoDecoration|imgui.WindowFlagsNoMove|imgui.WindowFlagsNoSavedSettings|imgui.WindowFlagsNoFocusOnAppearing|imgui.WindowFlagsNoNav) {
		a.recWindow("win.viewcube")
		p := imgui.CursorScreenPos()
		size := float64(w - 16)
		cx, cy := float64(p.X)+size/2, float64(p.Y)+viewCubeSize/2
		imgui.InvisibleButton("cube", vec2(size, viewCubeSize))
		// Half-size: seen along a diagonal the cube spans √3 times it.
		faces := drawlist.ViewCube(&a.Camera, cx, cy, viewCubeSize/(2*math.Sqrt(3)))
		if imgui.IsItemClicked() {
			m := imgui.MousePos()
			if v, ok := drawlist.PickCube(&faces, float64(m.X), float64(m.Y)); ok {
				a.Camera.SetView(v)
			}
		}
		dl := imgui.WindowDrawList()
		cur := a.Camera.CurrentView()
		m := imgui.MousePos()
		hover, hok := drawlist.PickCube(&faces, float64(m.X), float64(m.Y))
		for _, f := range faces {
			if f.Facing <= 1e-6 {
				continue
			}
			shade := float32(0.35 + 0.45*f.Facing)
			c := drawlist.Color{shade * 0.55, shade * 0.6, shade * 0.7, 0.95}
			if f.View == cur {
				c = drawlist.Color{0.95, 0.65, 0.2, 0.95}
			} else if hok && f.View == hover && imgui.IsItemHovered() {
				c = drawlist.Color{0.45, 0.65, 0.95, 0.95}
			}
			q := f.Corners
			dl.AddQuadFilled(vec2(q[0][0], q[0][1]), vec2(q[1][0], q[1][1]), vec2(q[2][0], q[2][1]), vec2(q[3][0], q[3][1]), col(c))
			for k := range 4 {
				b := q[(k+1)%4]
				dl.AddLineV(vec2(q[k][0], q[k][1]), vec2(b[0], b[1]), col(drawlist.Color{0.1, 0.1, 0.1, 1}), 1)
			}
		}
		// Face names after all faces, so that a nearer face never paints
		// over the name of a narrow one; kept inside the cube's area, with a
		// shadow where a name runs over the next face.
		for _, f := range faces {
			if f.Facing <= 0.35 {
				continue
			}
			name := f.View.String()
			ts := imgui.CalcTextSize(name)
			mx, my := f.Centre()
			x := math.Max(float64(p.X), math.Min(mx-float64(ts.X)/2, float64(p.X)+size-float64(ts.X)))
			y := math.Max(float64(p.Y), math.Min(my-float64(ts.Y)/2, float64(p.Y)+viewCubeSize-float64(ts.Y)))
			dl.AddTextVec2(vec2(x+1, y+1), col(drawlist.Color{0, 0, 0, 0.8}), name)
			dl.AddTextVec2(vec2(x, y), col(drawlist.Color{1, 1, 1, 1}), name)
			if a.recordRects {
				a.rects["viewcube.label."+name] = [4]float32{float32(x), float32(y), float32(x) + ts.X, float32(y) + ts.Y}
			}
		}
		// Buttons for every view (the cube shows at most three faces).
		for i, v := range []drawlist.View{drawlist.Front, drawlist.Back, drawlist.Left, drawlist.Right, drawlist.Top, drawlist.Bottom, drawlist.Persp} {
			if i%4 != 0 {
				imgui.SameLine()
			}
			label := [...]string{"P", "F", "Bk", "L", "R", "T", "Bt"}[v]
			if imgui.Button(label) {
				a.Camera.SetView(v)
			}
		}
	}
	imgui.End()

	// Axis triad, bottom left of the free viewport.
	bg := imgui.BackgroundDrawList()
	right, up, _ := a.Camera.Basis()
	// Right of the left column (outliner, inspector), above the status line.
	ox, oy := leftX+leftW+panelMargin+40.0, float64(ds.Y)-70
	for k, name := range []string{"x", "y", "z"} {
		var e geom.Vec3
		e[k] = 1
		x, y := ox+32*e.Dot(right), oy-32*e.Dot(up)
		bg.AddLineV(vec2(ox, oy), vec2(x, y), col(drawlist.AxisColors[k]), 2.5)
		bg.AddTextVec2(vec2(x+2, y-7), col(drawlist.AxisColors[k]), name)
	}
}

// drawStatus draws the status line at the bottom: frame and contact time.
func (a *App) drawStatus() {
	io := imgui.CurrentIO()
	ds := io.DisplaySize()
	imgui.SetNextWindowPosV(vec2(0, float64(ds.Y)-26), imgui.CondAlways, vec2(0, 0))
	imgui.SetNextWindowSize(vec2(float64(ds.X), 26))
	imgui.SetNextWindowBgAlpha(0.6)
	if imgui.BeginV("##status", nil, imgui.WindowFlagsNoDecoration|imgui.WindowFlagsNoMove|imgui.WindowFlagsNoSavedSettings|imgui.WindowFlagsNoFocusOnAppearing|imgui.WindowFlagsNoNav) {
		name := a.Path
		if name == "" {
			name = "built-in scene"
		}
		imgui.TextUnformatted(fmt.Sprintf("frame %.2f ms (%.0f fps) | contact %.3f ms for %d pairs (%s, %s guess, tol %.0e) | draw list %.3f ms | %d triangles | %s | %s",
			ms(a.Stats.Frame), float64(io.Framerate()), ms(a.Stats.Contact), a.Stats.Pairs, a.Scene.Solver.Method, a.Scene.Solver.Guess, a.Scene.Solver.Tol,
			ms(a.Stats.Build), a.Stats.Triangles, a.Camera.CurrentView(), name))
	}
	imgui.End()
}

// drawOverlayWindow holds the overlay switches and the solver settings.
func (a *App) drawOverlayWindow() {
	// Right of the outliner, collapsed at first: the left column holds the
	// outliner and the inspector, the right one the view-cube and pads.
	imgui.SetNextWindowPosV(vec2(leftX+leftW+panelMargin, a.menuHeight()+panelMargin), imgui.CondFirstUseEver, vec2(0, 0))
	imgui.SetNextWindowCollapsedV(true, imgui.CondFirstUseEver)
	open := imgui.BeginV("Overlays and solver", &a.ShowOverlays, imgui.WindowFlagsAlwaysAutoResize)
	a.recWindow("win.overlays") // collapsed: its title bar
	if open {
		// Narrow fields keep the window (and its collapsed title bar, as
		// wide as the window) clear of the gizmo toolbar at 1280 wide.
		imgui.PushItemWidth(8 * imgui.FontSize())
		o := &a.Scene.Overlays
		imgui.Checkbox("witness points", &o.Witness)
		imgui.Checkbox("distance segment", &o.Segment)
		imgui.Checkbox("distance labels", &o.Labels)
		imgui.Checkbox("normals", &o.Normals)
		imgui.Checkbox("tangents + binormals", &o.Tangents)
		imgui.Checkbox("quadtree seeds", &o.Seeds)
		imgui.Checkbox("octree cells", &o.Octree)
		imgui.Checkbox("ground grid", &o.Grid)
		imgui.Checkbox("axes", &o.Axes)
		imgui.Checkbox("x-ray (X)", &o.XRay)
		imgui.Checkbox("parameter-space panel", &o.ParamPanel)
		imgui.Separator()
		imgui.TextUnformatted("solver")
		sv := &a.Scene.Solver
		method := int32(sv.Method)
		if imgui.ComboStrarr("scheme", &method, []string{"implicit 6x6", "parametric 4x4", "ntb parametric"}, 3) {
			sv.Method = contact.Method(method)
		}
		guess := int32(sv.Guess)
		if imgui.ComboStrarr("initial guess", &guess, []string{"quadtree", "octree", "support"}, 3) {
			sv.Guess = contact.Guess(guess)
		}
		tol := sv.Tol
		if imgui.InputDoubleV("tolerance", &tol, 0, 0, "%.1e", 0) && tol >= 1e-15 && tol <= 1e-2 {
			sv.Tol = tol
		}
		levels := int32(sv.QuadLevels)
		if imgui.SliderInt("quadtree levels", &levels, 1, contact.MaxQuadLevels) {
			sv.QuadLevels = int(levels)
		}
		imgui.Checkbox("warm start", &sv.WarmStart)
		imgui.Checkbox("certify overlaps", &sv.CertifyOverlap)
		if imgui.IsItemHovered() {
			imgui.SetTooltip("prove each overlap of two convex shapes minimal (expanding polytope, ~0.1 ms a pair)")
		}
		margin := a.Margin()
		if imgui.InputDoubleV("broad-phase margin", &margin, 0, 0, "%.3g", 0) && margin > 0 && margin <= scene.MaxCoord {
			sv.Margin = margin
		}
		if imgui.Button("frame all (Home)") {
			a.FrameAll()
		}
		imgui.PopItemWidth()
	}
	imgui.End()
}

// drawParamSpace shows the quadtree cells chosen per level in the
// parameter domain of both shapes of one pair (thesis Fig. 3.6), with the
// witness points' parameters.
func (a *App) drawParamSpace() {
	ds := imgui.CurrentIO().DisplaySize()
	// Bottom left of the viewport, right of the inspector: the right-hand
	// column belongs to the shape pads.
	imgui.SetNextWindowPosV(vec2(leftX+leftW+panelMargin, float64(ds.Y)-26-panelMargin), imgui.CondFirstUseEver, vec2(0, 1))
	if imgui.BeginV("Parameter space", &a.Scene.Overlays.ParamPanel, imgui.WindowFlagsAlwaysAutoResize) {
		if len(a.Pairs) == 0 {
			imgui.TextUnformatted("no pair passes the broad phase")
			imgui.End()
			return
		}
		a.ParamPair = max(0, min(a.ParamPair, len(a.Pairs)-1))
		names := make([]string, len(a.Pairs))
		for i, p := range a.Pairs {
			names[i] = a.Scene.Objects[p.I].Name + " / " + a.Scene.Objects[p.J].Name
		}
		k := int32(a.ParamPair)
		if imgui.ComboStrarr("pair", &k, names, int32(len(names))) {
			a.ParamPair = int(k)
		}
		imgui.TextUnformatted("p1 across [-pi, pi], p2 up [-pi/2, pi/2]")
		pr := &a.Pairs[a.ParamPair]
		r := &pr.Result
		if r.UsedGuess != contact.Quadtree || r.QuadLevels == 0 {
			imgui.TextUnformatted("no quadtree seeds: choose the quadtree initial guess")
		}
		for side := 0; side < 2; side++ {
			obj := &a.Scene.Objects[pr.I]
			all, nc := r.QuadCells(side)
			cells := all[:nc]
			local, wc := r.LocalP, drawlist.WitnessPColor
			if side == 1 {
				obj = &a.Scene.Objects[pr.J]
				local, wc = r.LocalQ, drawlist.WitnessQColor
			}
			imgui.TextUnformatted(obj.Name)
			const pw, ph = 300, 150
			p0 := imgui.CursorScreenPos()
			imgui.Dummy(vec2(pw, ph))
			dl := imgui.WindowDrawList()
			x0, y0 := float64(p0.X), float64(p0.Y)
			mapP := func(p1, p2 float64) imgui.Vec2 {
				return vec2(x0+(p1+math.Pi)/(2*math.Pi)*pw, y0+(math.Pi/2-p2)/math.Pi*ph)
			}
			dl.AddRectFilled(vec2(x0, y0), vec2(x0+pw, y0+ph), col(drawlist.Color{0.1, 0.1, 0.12, 1}))
			n := len(cells)
			for l, c := range cells {
				cc := drawlist.SeedColor(l, n)
				dl.AddRectV(mapP(c.P1Min, c.P2Max), mapP(c.P1Max, c.P2Min), col(cc), 0, 0, 1.5)
				m1, m2 := c.Center()
				dl.AddCircleFilled(mapP(m1, m2), 3, col(cc))
			}
			p1, p2 := obj.Shape.Params(local)
			if r.Method != contact.Implicit && (r.ParamsP != [2]float64{} || r.ParamsQ != [2]float64{}) {
				if side == 0 {
					p1, p2 = r.ParamsP[0], r.ParamsP[1]
				} else {
					p1, p2 = r.ParamsQ[0], r.ParamsQ[1]
				}
			}
			dl.AddCircleFilled(mapP(p1, p2), 5, col(wc))
			dl.AddRectV(vec2(x0, y0), vec2(x0+pw, y0+ph), col(drawlist.Color{0.6, 0.6, 0.6, 1}), 0, 0, 1)
		}
	}
	imgui.End()
}

// drawError shows a.Error in a modal dialog until dismissed.
func (a *App) drawError() {
	if a.Error == "" {
		return
	}
	imgui.OpenPopupStr("Error")
	if imgui.BeginPopupModalV("Error", nil, imgui.WindowFlagsAlwaysAutoResize) {
		imgui.TextUnformatted(a.Error)
		if imgui.Button("OK") {
			a.Error = ""
			imgui.CloseCurrentPopup()
		}
		imgui.EndPopup()
	}
}

func ms(d interface{ Seconds() float64 }) float64 { return d.Seconds() * 1e3 }
