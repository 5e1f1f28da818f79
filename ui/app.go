// Package ui is the sovviz visualizer: the window, the frame loop, mouse
// and keyboard input, the camera controls, the view-cube, the status line
// and the overlay switches, drawn with Dear ImGui (cimgui-go) over the
// OpenGL renderer of package render.
//
// Dear ImGui keeps no widget tree: the App struct below is the whole state
// of the visualizer and every window is a function that draws itself from it
// each frame. Editing panels are added by appending to App.Panels.
package ui

import (
	"fmt"
	"image"
	"math"
	"time"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/render/drawlist"
	"github.com/sovviz/sovviz/scene"
)

// Panel is an ImGui window drawn every frame from the app state (outliner,
// inspector, parameter pads...). Draw is called between ImGui's NewFrame
// and Render, after the built-in windows.
type Panel interface {
	Draw(a *App)
}

// PanelFunc adapts a function to Panel.
type PanelFunc func(a *App)

// Draw calls f(a).
func (f PanelFunc) Draw(a *App) { f(a) }

// Stats are the timings of the last frame.
type Stats struct {
	Frame   time.Duration // whole frame, CPU side, including the swap
	Contact time.Duration // broad + narrow phase of all pairs
	Build   time.Duration // draw-list build
	Pairs   int           // pairs that passed the broad phase
	// Triangles drawn (shaded, not counting wireframes).
	Triangles int
}

// MeshFunc tessellates a shape with an object's mesh settings.
type MeshFunc func(s geom.Superovoid, m scene.Mesh) (*drawlist.Mesh, error)

// App is the visualizer state. The scene (objects, overlay switches,
// solver settings) is the truth: panels edit a.Scene directly and the next
// Update picks the change up; nothing is mirrored inside widgets.
type App struct {
	Scene    *scene.Scene
	Selected int // index into Scene.Objects, -1 for none
	Camera   drawlist.Camera
	// Path of the scene file, "" for the built-in scene.
	Path string
	// Panels drawn after the built-in windows.
	Panels []Panel
	// Windows shown (the parameter-space panel is Scene.Overlays.ParamPanel).
	ShowOverlays, ShowStatus bool
	// ParamPair is the pair shown in the parameter-space panel.
	ParamPair int
	// CameraFromScene is true when the scene file set the camera (then
	// "sovviz render" keeps it instead of framing the scene).
	CameraFromScene bool
	// Error is shown in a modal dialog until dismissed.
	Error string
	// History holds the undo/redo steps of scene edits (see BeginEdit).
	History History
	// Pads is the ε/T "Shape pads" window (one of Panels).
	Pads *Pads

	Mesher MeshFunc
	// WindowSize is the initial window size in screen units (0: 1280x800).
	WindowSize [2]int
	// ExitAfter > 0 closes the window after that many frames, handing the
	// last one to Screenshot when set (scripted runs and tests).
	ExitAfter  int
	Screenshot func(img *image.NRGBA)
	// Script, when set, runs at the start of every frame before the input
	// is handled: tests use it to drive the app like a user would.
	Script func(a *App, frame int)
	Stats  Stats
	// Pairs are the contact results of the last Update (indices into
	// Scene.Objects); the slice is reused by the next Update.
	Pairs []contact.PairResult
	// List is the draw list of the last Update.
	List drawlist.DrawList

	world      *contact.World
	worldN     int
	bodies     []geom.Body
	meshes     []meshEntry
	frame      drawlist.Frame
	nonconv    []uint8 // per object: bit 0 known, bit 1 non-convex
	hullGap    []float64
	nextMesh   uint64
	autoMargin float64
	uiState
	editState
}

type meshEntry struct {
	shape    geom.Superovoid
	settings scene.Mesh
	valid    bool
	mesh     *drawlist.Mesh
	err      error
}

// NewApp returns an app showing sc (loaded from path, "" for the built-in
// scene), with the scene's camera or, without one, framing the scene.
func NewApp(sc *scene.Scene, path string) *App {
	a := &App{Camera: drawlist.DefaultCamera(), Selected: -1, ShowOverlays: true, ShowStatus: true, Mesher: NewMesher()}
	a.ShowOutliner, a.ShowInspector, a.ShowToolbar = true, true, true
	a.Gizmo = DefaultGizmoSettings()
	a.Pads = NewPads()
	a.Panels = append(a.Panels, a.Pads)
	a.SetScene(sc, path)
	return a
}

// SetScene replaces the scene (loading a file): caches are dropped and the
// camera takes the scene's view or frames the new scene.
func (a *App) SetScene(sc *scene.Scene, path string) {
	a.Scene = sc
	a.Path = path
	a.Selected = -1
	a.History.Clear()
	a.meshes = nil
	a.world = nil
	a.cvx = nil
	a.openEdit = ""
	a.StructureChanged()
	a.Pairs = nil
	a.autoMargin = DefaultMargin(sc.Objects)
	a.CameraFromScene = sc.Camera != nil
	if c := sc.Camera; c != nil {
		a.Camera.Target = c.Target
		a.Camera.Distance = c.Distance
		a.Camera.Yaw = c.Yaw * math.Pi / 180
		a.Camera.Pitch = c.Pitch * math.Pi / 180
		a.Camera.FovY = c.Fov * math.Pi / 180
		a.Camera.Ortho = c.Ortho
		a.syncFrameObjects()
		_, r := drawlist.SceneSphere(a.frame.Objects)
		a.Camera.SceneRadius = r + a.Camera.Target.Sub(a.sceneCentre()).Len()
		return
	}
	a.FrameAll()
}

func (a *App) sceneCentre() geom.Vec3 {
	c, _ := drawlist.SceneSphere(a.frame.Objects)
	return c
}

// StoreCamera writes the current view into the scene (before saving).
func (a *App) StoreCamera() {
	a.Scene.Camera = &scene.Camera{
		Target: a.Camera.Target, Distance: a.Camera.Distance,
		Yaw: a.Camera.Yaw * 180 / math.Pi, Pitch: a.Camera.Pitch * 180 / math.Pi,
		Ortho: a.Camera.Ortho, Fov: a.Camera.FovY * 180 / math.Pi,
	}
}

// Margin returns the broad-phase margin in use: the scene's, or the
// automatic one when the scene says 0.
func (a *App) Margin() float64 {
	if m := a.Scene.Solver.Margin; m > 0 {
		return m
	}
	return a.autoMargin
}

// DefaultMargin returns the automatic broad-phase margin: half the mean
// bounding radius of the objects, so that neighbours that are close for
// their size show their distance and far ones cost nothing.
func DefaultMargin(objs []scene.Object) float64 {
	if len(objs) == 0 {
		return 0
	}
	sum := 0.0
	for i := range objs {
		sum += objs[i].Shape.BoundingRadiusFast()
	}
	m := 0.5 * sum / float64(len(objs))
	if math.IsNaN(m) || math.IsInf(m, 0) {
		return 0
	}
	return m
}

// FrameAll points the camera at the whole scene.
func (a *App) FrameAll() {
	a.syncFrameObjects()
	c, r := drawlist.SceneSphere(a.frame.Objects)
	a.Camera.SceneRadius = r
	a.Camera.Frame(c, r)
}

// FrameSelection points the camera at the selected object, or at the whole
// scene when nothing is selected (the F key).
func (a *App) FrameSelection() {
	if a.Selected < 0 || a.Selected >= len(a.Scene.Objects) {
		a.FrameAll()
		return
	}
	o := &a.Scene.Objects[a.Selected]
	a.Camera.Frame(o.Pose.Position, o.Shape.BoundingRadiusFast())
}

// Update runs the contact queries of every pair that passes the broad
// phase, re-tessellates changed shapes and rebuilds the draw list. It is
// the per-frame work that does not touch OpenGL.
func (a *App) Update() {
	objs := a.Scene.Objects
	opt := a.Scene.Solver.Options()
	if a.world == nil || a.world.Solver.Options() != opt || a.worldN != len(objs) ||
		a.worldStructure != a.structure || a.worldScene != a.Scene {
		// Pairs are keyed by index: a new object set (added, deleted,
		// reordered objects, an undo that swapped the scene) starts cold.
		a.world = contact.NewWorld(opt, a.Margin())
		a.worldN = len(objs)
		a.worldStructure, a.worldScene = a.structure, a.Scene
	}
	a.world.Margin = a.Margin()
	if !a.Scene.Solver.WarmStart {
		a.world.Reset()
	}
	a.bodies = a.bodies[:0]
	for i := range objs {
		a.bodies = append(a.bodies, objs[i].Body())
	}
	t0 := time.Now()
	a.Pairs = a.world.Update(a.bodies)
	t1 := time.Now()
	a.Stats.Contact = t1.Sub(t0)
	a.Stats.Pairs = len(a.Pairs)

	a.ensureMeshes()
	a.syncFrameObjects()
	a.frame.Pairs = a.Pairs
	a.frame.Overlays = overlays(&a.Scene.Overlays)
	// The parameter-space panel's pair gets its quadtree cells outlined.
	a.frame.SeedPair = -1
	if a.Scene.Overlays.ParamPanel {
		a.frame.SeedPair = min(a.ParamPair, len(a.Pairs)-1)
	}
	a.frame.Camera = &a.Camera
	drawlist.Build(&a.List, &a.frame)
	a.Stats.Build = time.Since(t1)
}

// overlays converts the scene's switches to the draw list's.
func overlays(o *scene.Overlays) drawlist.Overlays {
	return drawlist.Overlays{Witness: o.Witness, Segment: o.Segment, Labels: o.Labels, Normals: o.Normals,
		Tangents: o.Tangents, Seeds: o.Seeds, Octree: o.Octree, Grid: o.Grid, Axes: o.Axes, XRay: o.XRay}
}

func color32(c scene.Color) drawlist.Color {
	return drawlist.Color{float32(c[0]), float32(c[1]), float32(c[2]), float32(c[3])}
}

// syncFrameObjects copies the objects into the draw-list input, with their
// meshes and what the contact results say about convexity.
func (a *App) syncFrameObjects() {
	n := len(a.Scene.Objects)
	if cap(a.nonconv) < n {
		a.nonconv = make([]uint8, n)
		a.hullGap = make([]float64, n)
	}
	a.nonconv, a.hullGap = a.nonconv[:n], a.hullGap[:n]
	clear(a.nonconv)
	clear(a.hullGap)
	for k := range a.Pairs {
		p := &a.Pairs[k]
		if p.I >= n || p.J >= n {
			continue
		}
		a.nonconv[p.I] |= 1
		a.nonconv[p.J] |= 1
		if p.Result.NonConvex&1 != 0 {
			a.nonconv[p.I] |= 2
			a.hullGap[p.I] = p.Result.HullGapA
		}
		if p.Result.NonConvex&2 != 0 {
			a.nonconv[p.J] |= 2
			a.hullGap[p.J] = p.Result.HullGapB
		}
	}
	a.frame.Objects = a.frame.Objects[:0]
	for i := range a.Scene.Objects {
		o := &a.Scene.Objects[i]
		var m *drawlist.Mesh
		if i < len(a.meshes) {
			m = a.meshes[i].mesh
		}
		a.frame.Objects = append(a.frame.Objects, drawlist.Object{
			Name: o.Name, Body: o.Body(), Mesh: m, Color: color32(o.Color), Hidden: !o.Visible, Wireframe: o.Mesh.Wireframe,
			Selected: i == a.Selected, NonConvex: a.nonconv[i]&2 != 0, HullGap: a.hullGap[i],
		})
	}
}

// ensureMeshes re-tessellates the objects whose shape or mesh settings
// changed since the last frame.
func (a *App) ensureMeshes() {
	objs := a.Scene.Objects
	for len(a.meshes) < len(objs) {
		a.meshes = append(a.meshes, meshEntry{})
	}
	a.meshes = a.meshes[:len(objs)]
	for i := range objs {
		o := &objs[i]
		e := &a.meshes[i]
		// Wireframe is drawn from the same triangles: no re-mesh for it.
		set := o.Mesh
		set.Wireframe = false
		if e.valid && e.settings == set && e.shape == o.Shape {
			continue
		}
		e.shape, e.settings, e.valid = o.Shape, set, true
		m, err := a.Mesher(o.Shape, set)
		if err != nil {
			err = fmt.Errorf("object %q: %w", o.Name, err)
		}
		e.err = err
		e.mesh = m
		if m == nil {
			continue
		}
		a.nextMesh++
		m.Version = a.nextMesh
	}
}

// MeshError returns the tessellation problem of object i, if any (the
// object may still be drawn with a fallback mesh).
func (a *App) MeshError(i int) error {
	if i < 0 || i >= len(a.meshes) {
		return nil
	}
	return a.meshes[i].err
}
