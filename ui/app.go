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
)

// MeshKind selects how an object is tessellated.
type MeshKind int

const (
	// ParamGrid samples the angle-centre parametrisation on a regular grid.
	ParamGrid MeshKind = iota
	// Marching polygonises the implicit surface with marching triangles.
	Marching
)

// Object is one superovoid of the scene as the visualizer holds it.
type Object struct {
	Name       string
	Body       geom.Body
	Color      drawlist.Color
	Hidden     bool
	Wireframe  bool
	Mesh       MeshKind
	Resolution int // grid cells along p1 (ParamGrid) or cells per axis (Marching); 0: default
}

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

// MeshFunc tessellates a shape. The default uses package tessellate.
type MeshFunc func(s geom.Superovoid, kind MeshKind, res int) (*drawlist.Mesh, error)

// App is the visualizer state.
type App struct {
	Objects  []Object
	Selected int // index into Objects, -1 for none
	Camera   drawlist.Camera
	Overlays drawlist.Overlays
	Solver   contact.Options
	// WarmStart reuses each pair's previous result; off, every frame is a
	// cold query (the seeds then follow the objects).
	WarmStart bool
	// Margin of the broad phase: pairs whose boxes are farther apart are
	// not queried (world units).
	Margin float64
	// Path of the scene file, "" for the built-in scene.
	Path string
	// Panels drawn after the built-in windows.
	Panels []Panel
	// Windows shown.
	ShowOverlays, ShowParamSpace, ShowStatus bool
	// ParamPair is the pair shown in the parameter-space panel.
	ParamPair int
	// CameraFromScene is true when the scene file set the camera (then
	// "sovviz render" keeps it instead of framing the scene).
	CameraFromScene bool
	// Error is shown in a modal dialog until dismissed.
	Error string

	Mesher MeshFunc
	// ExitAfter > 0 closes the window after that many frames, handing the
	// last one to Screenshot when set (scripted runs and tests).
	ExitAfter  int
	Screenshot func(img *image.NRGBA)
	// Script, when set, runs at the start of every frame before the input
	// is handled: tests use it to drive the app like a user would.
	Script func(a *App, frame int)
	Stats  Stats
	// Pairs are the contact results of the last Update (indices into
	// Objects); the slice is reused by the next Update.
	Pairs []contact.PairResult
	// List is the draw list of the last Update.
	List drawlist.DrawList

	world    *contact.World
	worldN   int
	bodies   []geom.Body
	meshes   []meshEntry
	frame    drawlist.Frame
	nonconv  []uint8 // per object: bit 0 known, bit 1 non-convex
	hullGap  []float64
	nextMesh uint64
	uiState
}

type meshEntry struct {
	shape geom.Superovoid
	kind  MeshKind
	res   int
	mesh  *drawlist.Mesh
	err   error
}

// NewApp returns an app showing objs, framed by the camera.
func NewApp(objs []Object) *App {
	a := &App{
		Objects: objs, Selected: -1, Camera: drawlist.DefaultCamera(), Overlays: drawlist.DefaultOverlays(),
		Solver: contact.DefaultOptions(), WarmStart: true,
		ShowOverlays: true, ShowStatus: true, ShowParamSpace: false, Mesher: DefaultMesher,
	}
	a.Margin = DefaultMargin(objs)
	a.FrameAll()
	return a
}

// DefaultMargin returns the broad-phase margin a scene starts with: half
// the mean bounding radius of its objects, so that neighbours that are close
// for their size show their distance and far ones cost nothing.
func DefaultMargin(objs []Object) float64 {
	if len(objs) == 0 {
		return 0
	}
	sum := 0.0
	for i := range objs {
		sum += objs[i].Body.Shape.BoundingRadiusFast()
	}
	m := 0.5 * sum / float64(len(objs))
	if math.IsNaN(m) || math.IsInf(m, 0) {
		return 0
	}
	return m
}

// SetObjects replaces the scene's objects (loading a file): caches are
// dropped and the camera frames the new scene.
func (a *App) SetObjects(objs []Object) {
	a.Objects = objs
	a.Selected = -1
	a.meshes = nil
	a.worldN = -1
	a.Margin = DefaultMargin(objs)
	a.FrameAll()
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
	if a.Selected < 0 || a.Selected >= len(a.Objects) {
		a.FrameAll()
		return
	}
	b := &a.Objects[a.Selected].Body
	a.Camera.Frame(b.Pose.Position, b.Shape.BoundingRadiusFast())
}

// Update runs the contact queries of every pair that passes the broad
// phase, re-tessellates changed shapes and rebuilds the draw list. It is
// the per-frame work that does not touch OpenGL.
func (a *App) Update() {
	if a.world == nil || a.world.Solver.Options() != a.Solver || a.worldN != len(a.Objects) {
		// Pairs are keyed by index: a new object set starts cold.
		a.world = contact.NewWorld(a.Solver, a.Margin)
		a.Solver = a.world.Solver.Options()
		a.worldN = len(a.Objects)
	}
	a.world.Margin = a.Margin
	if !a.WarmStart {
		a.world.Reset()
	}
	a.bodies = a.bodies[:0]
	for i := range a.Objects {
		a.bodies = append(a.bodies, a.Objects[i].Body)
	}
	t0 := time.Now()
	a.Pairs = a.world.Update(a.bodies)
	t1 := time.Now()
	a.Stats.Contact = t1.Sub(t0)
	a.Stats.Pairs = len(a.Pairs)

	a.ensureMeshes()
	a.syncFrameObjects()
	a.frame.Pairs = a.Pairs
	a.frame.Overlays = a.Overlays
	a.frame.Camera = &a.Camera
	drawlist.Build(&a.List, &a.frame)
	a.Stats.Build = time.Since(t1)
}

// syncFrameObjects copies the objects into the draw-list input, with their
// meshes and what the contact results say about convexity.
func (a *App) syncFrameObjects() {
	n := len(a.Objects)
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
	for i := range a.Objects {
		o := &a.Objects[i]
		var m *drawlist.Mesh
		if i < len(a.meshes) {
			m = a.meshes[i].mesh
		}
		a.frame.Objects = append(a.frame.Objects, drawlist.Object{
			Name: o.Name, Body: o.Body, Mesh: m, Color: o.Color, Hidden: o.Hidden, Wireframe: o.Wireframe,
			Selected: i == a.Selected, NonConvex: a.nonconv[i]&2 != 0, HullGap: a.hullGap[i],
		})
	}
}

// ensureMeshes re-tessellates the objects whose shape or mesh settings
// changed since the last frame.
func (a *App) ensureMeshes() {
	for len(a.meshes) < len(a.Objects) {
		a.meshes = append(a.meshes, meshEntry{res: -1})
	}
	a.meshes = a.meshes[:len(a.Objects)]
	for i := range a.Objects {
		o := &a.Objects[i]
		e := &a.meshes[i]
		if e.res == o.Resolution && e.kind == o.Mesh && e.shape == o.Body.Shape && (e.mesh != nil || e.err != nil) {
			continue
		}
		e.shape, e.kind, e.res = o.Body.Shape, o.Mesh, o.Resolution
		m, err := a.Mesher(o.Body.Shape, o.Mesh, o.Resolution)
		if err != nil {
			e.mesh, e.err = nil, fmt.Errorf("object %q: %w", o.Name, err)
			continue
		}
		a.nextMesh++
		m.Version = a.nextMesh
		e.mesh, e.err = m, nil
	}
}

// MeshError returns the tessellation error of object i, if any.
func (a *App) MeshError(i int) error {
	if i < 0 || i >= len(a.meshes) {
		return nil
	}
	return a.meshes[i].err
}
