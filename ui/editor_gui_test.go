package ui

import (
	"math"
	"strings"
	"testing"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/render/drawlist"
	"github.com/sovviz/sovviz/scene"
)

// runWindow runs the interactive window at 1280x800 for frames frames
// with script driving it (see TestWindowInput for the event queue).
func runWindow(t *testing.T, a *App, frames int, script func(a *App, frame int)) {
	t.Helper()
	needGL(t)
	a.ExitAfter = frames
	a.WindowSize = [2]int{1280, 800}
	a.Script = script
	runApp(t, a)
}

// moveMouse moves the real pointer too: the GLFW backend polls it and would
// undo a queued position otherwise.
func moveMouse(a *App, x, y float64) {
	a.win.SetCursorPos(x, y)
	imgui.CurrentIO().AddMousePosEvent(float32(x), float32(y))
}

func mouseButton(down bool) { imgui.CurrentIO().AddMouseButtonEvent(0, down) }

// ctrlKey presses (down) or releases Ctrl together with key.
func ctrlKey(key imgui.Key, down bool) {
	io := imgui.CurrentIO()
	io.AddKeyEvent(imgui.ModCtrl, down)
	io.AddKeyEvent(imgui.KeyLeftCtrl, down)
	io.AddKeyEvent(key, down)
}

func rectCentre(r [4]float32) (float64, float64) {
	return float64(r[0]+r[2]) / 2, float64(r[1]+r[3]) / 2
}

// The scene of TestPick in the middle of a 1280x800 window, clear of the
// panels.
func framePickScene(a *App) {
	a.Camera.SetView(drawlist.Front)
	a.Camera.Ortho = false
	a.FrameAll()
	a.Camera.Distance *= 1.6
}

// A left click (no drag) on an object selects it, on empty space
// deselects; a drag orbits and leaves the selection alone.
func TestGUIClickPicks(t *testing.T) {
	a := pickScene()
	var selObj, selEmpty, selAfterDrag int
	var yaw0, yaw1 float64
	runWindow(t, a, 24, func(a *App, f int) {
		mv := func(x, y float64) { moveMouse(a, x, y) }
		px := func(p geom.Vec3) (float64, float64) {
			x, y, _, _ := a.Camera.Project(p)
			return x, y // framebuffer = window units under Xvfb
		}
		switch f {
		case 1:
			framePickScene(a)
		case 2:
			mv(px(a.Scene.Objects[2].Pose.Position))
		case 3:
			mouseButton(true)
		case 4:
			mouseButton(false)
		case 6:
			selObj = a.Selected
			mv(px(geom.Vec3{1.5, 0, 0}))
		case 7:
			mouseButton(true)
		case 8:
			mouseButton(false)
		case 10:
			selEmpty = a.Selected
			a.Selected = 0
			yaw0 = a.Camera.Yaw
			mv(px(a.Scene.Objects[1].Pose.Position))
		case 11:
			mouseButton(true)
		case 12, 13, 14, 15:
			x, y := px(a.Scene.Objects[1].Pose.Position)
			moveMouse(a, x+float64(f-11)*15, y)
		case 16:
			mouseButton(false)
		case 18:
			selAfterDrag, yaw1 = a.Selected, a.Camera.Yaw
		}
	})
	if selObj != 2 {
		t.Errorf("click on object 2 selected %d", selObj)
	}
	if selEmpty != -1 {
		t.Errorf("click on empty space left %d selected", selEmpty)
	}
	if selAfterDrag != 0 || yaw1 == yaw0 {
		t.Errorf("drag: selection %d (want 0 kept), yaw %g -> %g (want an orbit)", selAfterDrag, yaw0, yaw1)
	}
}

// Dragging the inspector's a1 field changes the shape as one undo step;
// Ctrl+Z restores it exactly, Ctrl+Y brings the edit back exactly.
func TestGUIInspectorDragUndoRedo(t *testing.T) {
	a := NewApp(scene.Default(), "")
	a.Selected = 0
	a.recordRects = true
	s0 := a.Scene.Objects[0].Shape
	var s1, sUndo, sRedo geom.Superovoid
	var steps int
	var label string
	var x0, y0 float64
	runWindow(t, a, 30, func(a *App, f int) {
		switch {
		case f == 2:
			r, ok := a.rects["inspector.a"]
			if !ok {
				t.Errorf("inspector's a field not drawn")
				return
			}
			// The first of the three components.
			x0, y0 = float64(r[0])+12, float64(r[1]+r[3])/2
			moveMouse(a, x0, y0)
		case f == 3:
			mouseButton(true)
		case f >= 4 && f < 10:
			moveMouse(a, x0+float64(f-3)*10, y0)
		case f == 10:
			mouseButton(false)
		case f == 11:
			moveMouse(a, 640, 700) // off the panels
		case f == 12:
			s1, steps, label = a.Scene.Objects[0].Shape, len(a.History.undo), a.History.UndoLabel()
			ctrlKey(imgui.KeyZ, true)
		case f == 13:
			ctrlKey(imgui.KeyZ, false)
		case f == 15:
			sUndo = a.Scene.Objects[0].Shape
			ctrlKey(imgui.KeyY, true)
		case f == 16:
			ctrlKey(imgui.KeyY, false)
		case f == 18:
			sRedo = a.Scene.Objects[0].Shape
		}
	})
	if !(s1.A[0] > s0.A[0]) || s1.A[1] != s0.A[1] || s1.Eps != s0.Eps {
		t.Errorf("dragging a1 right: %+v -> %+v", s0, s1)
	}
	if steps != 1 || label != "semi-axes of "+a.Scene.Objects[0].Name {
		t.Errorf("the drag made %d undo steps (%q), want 1", steps, label)
	}
	if sUndo != s0 {
		t.Errorf("Ctrl+Z: %+v, want the original %+v", sUndo, s0)
	}
	if sRedo != s1 {
		t.Errorf("Ctrl+Y: %+v, want the edited %+v", sRedo, s1)
	}
}

// Dragging the gizmo's x arrow moves the object along x only (y, z and the
// orientation stay bit for bit), does not orbit the camera, and is one
// undo step that restores the pose exactly.
func TestGUIGizmoDrag(t *testing.T) {
	a := pickScene()
	a.Selected = 1
	p0 := a.Scene.Objects[1].Pose
	var cx, cy, ux, uy, dAxis float64
	start := -1
	var p1 geom.Pose
	var steps int
	var label string
	var yaw0, yaw1 float64
	var undone geom.Pose
	runWindow(t, a, 70, func(a *App, f int) {
		switch {
		case f == 1:
			framePickScene(a)
			yaw0 = a.Camera.Yaw
		case f >= 2 && start < 0 && f < 50:
			// Sweep outwards along the projected x axis until the gizmo
			// says its x arrow is under the mouse.
			if f > 2 && imguizmo.IsOverOPERATION(imguizmo.TRANSLATEX) {
				start = f
				return
			}
			x, y, _, _ := a.Camera.Project(p0.Position)
			x1, y1, _, _ := a.Camera.Project(p0.Position.Add(geom.Vec3{0.5, 0, 0}))
			l := math.Hypot(x1-x, y1-y)
			cx, cy, ux, uy = x, y, (x1-x)/l, (y1-y)/l
			dAxis = 20 + 4*float64(f-2)
			moveMouse(a, cx+ux*dAxis, cy+uy*dAxis)
		case start > 0 && f == start+1:
			mouseButton(true)
		case start > 0 && f > start+1 && f <= start+8:
			d := dAxis + 8*float64(f-start-1)
			moveMouse(a, cx+ux*d, cy+uy*d)
		case start > 0 && f == start+9:
			mouseButton(false)
		case start > 0 && f == start+11:
			p1, steps, label, yaw1 = a.Scene.Objects[1].Pose, len(a.History.undo), a.History.UndoLabel(), a.Camera.Yaw
			a.Undo()
			undone = a.Scene.Objects[1].Pose
		}
	})
	if start < 0 {
		t.Fatalf("the gizmo's x arrow was never under the mouse (swept to %.0f px from the centre)", dAxis)
	}
	if !(p1.Position[0] > p0.Position[0]+0.05) {
		t.Errorf("gizmo drag to the right: x %g -> %g", p0.Position[0], p1.Position[0])
	}
	if p1.Position[1] != p0.Position[1] || p1.Position[2] != p0.Position[2] || p1.Orientation != p0.Orientation {
		t.Errorf("x drag changed more than x: %+v -> %+v", p0, p1)
	}
	if yaw1 != yaw0 {
		t.Errorf("the gizmo drag orbited the camera: yaw %g -> %g", yaw0, yaw1)
	}
	if steps != 1 || label != "move "+a.Scene.Objects[1].Name {
		t.Errorf("gizmo drag made %d undo steps (%q), want 1", steps, label)
	}
	if undone != p0 {
		t.Errorf("undo after the gizmo drag: %+v, want %+v", undone, p0)
	}
}

// Closing the window with unsaved edits asks; Cancel keeps the window,
// Discard closes it.
func TestGUIQuitAsks(t *testing.T) {
	a := NewApp(scene.Default(), "")
	a.AddObject()
	a.recordRects = true
	var asked, quitEarly, askedAfterCancel bool
	click := func(a *App, key string, f, at int) {
		r, ok := a.rects[key]
		if !ok {
			return
		}
		mv := func(x, y float64) { moveMouse(a, x, y) }
		switch f - at {
		case 0:
			mv(rectCentre(r))
		case 1:
			mouseButton(true)
		case 2:
			mouseButton(false)
		}
	}
	runWindow(t, a, 40, func(a *App, f int) {
		switch {
		case f == 3:
			a.win.SetShouldClose(true)
		case f == 6:
			asked, quitEarly = a.files.askUnsaved, a.quit
		case f >= 7 && f <= 9:
			click(a, "unsaved.cancel", f, 7)
		case f == 11:
			askedAfterCancel = a.files.askUnsaved
			ctrlKey(imgui.KeyQ, true)
		case f == 12:
			ctrlKey(imgui.KeyQ, false)
		case f >= 15 && f <= 17:
			click(a, "unsaved.discard", f, 15)
		}
	})
	if !asked || quitEarly {
		t.Errorf("closing with unsaved edits: asked %v, quit at once %v", asked, quitEarly)
	}
	if askedAfterCancel {
		t.Errorf("Cancel did not close the prompt")
	}
	if a.frames >= 40 {
		t.Errorf("Ctrl+Q then Discard did not close the window (%d frames run)", a.frames)
	}
}

// At the default 1280x800 the windows along the top and the right-hand
// column do not overlap (the collapsed overlays window's title bar, with
// its close button, stays clear of the gizmo toolbar); the shape pads start
// below the view-cube and, with nothing selected, shrink to their message;
// the view-cube's face names stay inside its window from any direction.
func TestGUILayout(t *testing.T) {
	a := NewApp(scene.Default(), "")
	a.recordRects = true
	pebble := -1
	for i, o := range a.Scene.Objects {
		if o.Name == "pebble" {
			pebble = i
		}
	}
	if pebble < 0 {
		t.Fatal("no pebble in the built-in scene")
	}
	snap := func() map[string][4]float32 {
		m := map[string][4]float32{}
		for k, v := range a.rects {
			m[k] = v
		}
		return m
	}
	var empty, sel map[string][4]float32
	var labels []map[string][4]float32
	views := [][2]float64{{0.3, 0.6}, {-2.2, 0.62}, {0.78, 0.62}, {2.4, -0.6}, {0.2, 1.5}, {-0.9, -1.2}}
	runWindow(t, a, 14+len(views), func(a *App, f int) {
		switch {
		case f == 1:
			a.Selected = -1
		case f == 5:
			empty = snap()
			a.Selected = pebble
		case f == 10:
			sel = snap()
		case f > 12 && f-13 < len(views):
			if f > 13 {
				labels = append(labels, snap())
			}
			a.Camera.Yaw, a.Camera.Pitch = views[f-13][0], views[f-13][1]
		}
	})
	wins := []string{"win.viewcube", "win.toolbar", "win.overlays", "win.pads"}
	for _, st := range []struct {
		name  string
		rects map[string][4]float32
	}{{"nothing selected", empty}, {"pebble selected", sel}} {
		for i, ki := range wins {
			ri, ok := st.rects[ki]
			if !ok {
				t.Fatalf("%s: %s not recorded", st.name, ki)
			}
			if ri[0] < 0 || ri[1] < 0 || ri[2] > 1280 || ri[3] > 800 {
				t.Errorf("%s: %s %v off the window", st.name, ki, ri)
			}
			for _, kj := range wins[i+1:] {
				if rj := st.rects[kj]; ri[0] < rj[2] && rj[0] < ri[2] && ri[1] < rj[3] && rj[1] < ri[3] {
					t.Errorf("%s: %s %v overlaps %s %v", st.name, ki, ri, kj, rj)
				}
			}
		}
		if c, p := st.rects["win.viewcube"], st.rects["win.pads"]; p[1] < c[3] || p[1] > c[3]+2*panelMargin {
			t.Errorf("%s: pads start at y = %g, view-cube ends at %g", st.name, p[1], c[3])
		}
	}
	if p := empty["win.pads"]; p[3]-p[1] > 150 {
		t.Errorf("pads with nothing selected are %g tall, want them shrunk to the message", p[3]-p[1])
	}
	if p := sel["win.pads"]; p[3]-p[1] < 400 {
		t.Errorf("pads with pebble selected are %g tall, want the column's height back", p[3]-p[1])
	}
	for i, m := range labels {
		c := m["win.viewcube"]
		n := 0
		for k, r := range m {
			if !strings.HasPrefix(k, "viewcube.label.") {
				continue
			}
			n++
			if r[0] < c[0] || r[1] < c[1] || r[2] > c[2] || r[3] > c[3] {
				t.Errorf("view %v: %s %v outside the view-cube %v", views[i], k, r, c)
			}
		}
		if n == 0 {
			t.Errorf("view %v: no face named", views[i])
		}
	}
}
