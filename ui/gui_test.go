package ui

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/render/drawlist"
	"github.com/sovviz/sovviz/scene"
)

// GLFW and OpenGL must be driven from the main thread, but tests run on
// other goroutines: TestMain keeps the main thread and runs GL work that
// tests hand it through onMain.
var mainQueue = make(chan func())

func onMain(f func()) {
	done := make(chan struct{})
	mainQueue <- func() { f(); close(done) }
	<-done
}

// offscreen is shared by the tests (one GLFW per process); offErr says why
// it could not be opened.
var (
	offscreen *Offscreen
	offErr    error
)

func TestMain(m *testing.M) {
	result := make(chan int)
	go func() { result <- m.Run() }()
	for {
		select {
		case f := <-mainQueue:
			f()
		case code := <-result:
			if offscreen != nil {
				offscreen.Close()
			}
			os.Exit(code)
		}
	}
}

// runApp runs the interactive window of a until it exits (a.ExitAfter),
// on the main thread; the window shares the process with the offscreen
// context, so that context is made current again afterwards.
func runApp(t *testing.T, a *App) {
	t.Helper()
	var err error
	onMain(func() {
		err = Run(a)
		offscreen.win.MakeContextCurrent()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// needGL returns the shared offscreen renderer. Without a display the test
// fails (not skips): CI must run the GUI tests under Xvfb (make test does).
func needGL(t *testing.T) *Offscreen {
	t.Helper()
	onMain(func() {
		if offscreen == nil && offErr == nil {
			offscreen, offErr = NewOffscreen()
		}
	})
	if offErr != nil {
		t.Fatalf("GUI test needs an X display with OpenGL 4.1 (run it under scripts/xvfb.sh, as make test does): %v", offErr)
	}
	return offscreen
}

func renderApp(t *testing.T, a *App, w, h int) *image.NRGBA {
	t.Helper()
	o := needGL(t)
	var img *image.NRGBA
	var err error
	onMain(func() { img, err = o.Render(a, w, h) })
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	return img
}

func near(c color.NRGBA, want [3]uint8, tol int) bool {
	d := func(a, b uint8) int {
		if a > b {
			return int(a - b)
		}
		return int(b - a)
	}
	return d(c.R, want[0]) <= tol && d(c.G, want[1]) <= tol && d(c.B, want[2]) <= tol
}

// findColor reports whether a pixel within r of (x, y) has colour want.
func findColor(img *image.NRGBA, x, y float64, r int, want drawlist.Color) bool {
	cx, cy := int(math.Floor(x)), int(math.Floor(y))
	w := want.RGB8()
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			if near(img.NRGBAAt(cx+dx, cy+dy), w, 24) {
				return true
			}
		}
	}
	return false
}

// notBlank checks that a good share of the image differs from the clear
// colour and that it has many colours (shading, not flat fills).
func notBlank(t *testing.T, img *image.NRGBA, name string) {
	t.Helper()
	bg := [3]uint8{}
	for i, v := range [3]float32{0.16, 0.17, 0.19} {
		bg[i] = uint8(v*255 + 0.5)
	}
	b := img.Bounds()
	differ := 0
	colours := map[color.NRGBA]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			c := img.NRGBAAt(x, y)
			if !near(c, bg, 3) {
				differ++
			}
			if len(colours) < 1000 {
				colours[c] = true
			}
		}
	}
	frac := float64(differ) / float64((b.Dx()/2)*(b.Dy()/2))
	if frac < 0.03 || len(colours) < 50 {
		t.Errorf("%s: image looks blank: %.1f%% non-background pixels, %d colours", name, 100*frac, len(colours))
	}
}

func savePNG(t *testing.T, img *image.NRGBA, name string) {
	// Keep the images of failing tests for a look.
	if !t.Failed() {
		return
	}
	p := fmt.Sprintf("%s/%s.png", t.TempDir(), name)
	f, err := os.Create(p)
	if err == nil {
		defer f.Close()
		_ = encodePNG(f, img)
		t.Logf("image kept at %s", p)
	}
}

// checkWitnesses asserts that every witness point of the draw list shows
// its overlay colour at the pixel where the camera projects it, unless a
// dot drawn later covers it (dense scenes), and that every pair's witness
// points are in the list.
func checkWitnesses(t *testing.T, a *App, img *image.NRGBA, name string) {
	t.Helper()
	if len(a.Pairs) == 0 {
		t.Fatalf("%s: no pair passed the broad phase", name)
	}
	nw := 0
	for _, pr := range a.Pairs {
		if pr.Result.Status != contact.Failed {
			nw += 2
		}
	}
	pts := a.List.Points
	checked, found := 0, 0
	for k, p := range pts {
		if p.Color != drawlist.WitnessPColor && p.Color != drawlist.WitnessQColor {
			continue
		}
		found++
		x, y, _, ok := a.Camera.Project(p.P)
		if !ok || x < 2 || y < 2 || x >= float64(img.Bounds().Dx()-2) || y >= float64(img.Bounds().Dy()-2) {
			continue
		}
		covered := false
		for _, q := range pts[k+1:] {
			if !q.OnTop {
				continue
			}
			qx, qy, _, _ := a.Camera.Project(q.P)
			if math.Hypot(qx-x, qy-y) < float64(q.Size)/2+2 {
				covered = true
				break
			}
		}
		if covered {
			continue
		}
		checked++
		if !findColor(img, x, y, 1, p.Color) {
			t.Errorf("%s: witness colour %v missing at pixel (%.1f, %.1f)", name, p.Color.RGB8(), x, y)
		}
	}
	if found != nw {
		t.Errorf("%s: %d witness points in the draw list, want %d", name, found, nw)
	}
	if checked == 0 {
		t.Errorf("%s: no witness point could be checked", name)
	}
}

// Every example scene loads, renders, is not blank, and shows its witness
// points where they project.
func TestRenderExampleScenes(t *testing.T) {
	files, err := filepath.Glob("../scenes/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example scenes found in ../scenes (%v)", err)
	}
	for _, f := range files {
		sc, err := scene.Load(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		a := NewApp(sc, f)
		// Labels are text drawn over everything; they would hide dots.
		// Witnesses on even where a scene hides them (scenes/meshers.json
		// shows only its meshes).
		a.Scene.Overlays.Labels = false
		a.Scene.Overlays.Witness = true
		img := renderApp(t, a, 800, 500)
		name := filepath.Base(f)
		notBlank(t, img, name)
		checkWitnesses(t, a, img, name)
		savePNG(t, img, name)
	}
}

func TestRenderDemoAllViews(t *testing.T) {
	for v := drawlist.Persp; v <= drawlist.Bottom; v++ {
		a := NewApp(scene.Default(), "")
		a.Camera.Width, a.Camera.Height = 640, 400
		a.Camera.SetView(v)
		a.FrameAll()
		img := renderApp(t, a, 640, 400)
		name := "demo-" + v.String()
		notBlank(t, img, name)
		checkWitnesses(t, a, img, name)
		savePNG(t, img, name)
	}
}

// Switching the witness overlay off removes its colour from the image, so
// the colour found above is the overlay's and nothing else's.
func TestOverlaySwitch(t *testing.T) {
	a := NewApp(scene.Default(), "")
	a.Scene.Overlays = scene.Overlays{Grid: true}
	img := renderApp(t, a, 640, 400)
	if len(a.Pairs) == 0 {
		t.Fatalf("no pairs")
	}
	for _, pr := range a.Pairs {
		r := pr.Result
		for _, w := range []struct {
			p geom.Vec3
			c drawlist.Color
		}{{r.P, drawlist.WitnessPColor}, {r.Q, drawlist.WitnessQColor}} {
			x, y, _, _ := a.Camera.Project(w.p)
			if findColor(img, x, y, 2, w.c) {
				t.Errorf("witness overlay off, but colour %v found at (%.1f, %.1f)", w.c.RGB8(), x, y)
			}
		}
	}
	savePNG(t, img, "overlays-off")
}

// The segment colour tells separated from overlapping pairs, in the image.
func TestSegmentColour(t *testing.T) {
	for _, tc := range []struct {
		dx   float64
		want drawlist.Color
	}{{3, drawlist.SeparatedColor}, {1.3, drawlist.OverlapColor}} {
		sc := scene.New()
		sc.Objects = []scene.Object{
			scene.NewObject("a", geom.Sphere(1), geom.Identity(), 0),
			scene.NewObject("b", geom.Ellipsoid(0.6, 0.8, 0.7), geom.Pose{Position: geom.Vec3{tc.dx, 0.2, 0.1}, Orientation: geom.Quat{W: 1}}, 1),
		}
		a := NewApp(sc, "")
		a.Scene.Solver.Margin = 10
		a.Scene.Overlays = scene.Overlays{Segment: true}
		a.Camera.SetView(drawlist.Top)
		a.FrameAll()
		img := renderApp(t, a, 640, 400)
		if len(a.Pairs) != 1 {
			t.Fatalf("dx %g: %d pairs, want 1", tc.dx, len(a.Pairs))
		}
		r := a.Pairs[0].Result
		m := r.P.Add(r.Q).Mul(0.5)
		x, y, _, _ := a.Camera.Project(m)
		if !findColor(img, x, y, 1, tc.want) {
			t.Errorf("dx %g (distance %g): segment colour %v missing at its midpoint (%.1f, %.1f)", tc.dx, r.Distance, tc.want.RGB8(), x, y)
		}
		savePNG(t, img, fmt.Sprintf("segment-%g", tc.dx))
	}
}

// X-ray makes an object hidden behind another visible through it.
func TestXRayShowsHiddenObject(t *testing.T) {
	sc := scene.New()
	sc.Objects = []scene.Object{
		scene.NewObject("front", geom.Sphere(1), geom.Pose{Position: geom.Vec3{0, -2, 0}, Orientation: geom.Quat{W: 1}}, 0),
		scene.NewObject("behind", geom.Sphere(0.5), geom.Pose{Position: geom.Vec3{0, 2, 0}, Orientation: geom.Quat{W: 1}}, 0),
	}
	sc.Objects[0].Color = scene.Color{0.8, 0.8, 0.8, 1}
	sc.Objects[1].Color = scene.Color{0.9, 0.1, 0.1, 1}
	a := NewApp(sc, "")
	a.Scene.Overlays = scene.Overlays{}
	a.Camera.SetView(drawlist.Front)
	a.FrameAll()
	redness := func(img *image.NRGBA) int {
		c := img.NRGBAAt(320, 200)
		return int(c.R) - int(c.G)
	}
	opaque := renderApp(t, a, 640, 400)
	a.Scene.Overlays.XRay = true
	xray := renderApp(t, a, 640, 400)
	if ro, rx := redness(opaque), redness(xray); !(ro < 10 && rx > 40) {
		t.Errorf("centre redness opaque %d, x-ray %d: want the red sphere hidden, then seen through", ro, rx)
	}
}

// The interactive window opens, runs frames with scripted mouse-free camera
// moves, and shows the scene (the screenshot is its back buffer).
func TestWindowRuns(t *testing.T) {
	needGL(t)
	a := NewApp(scene.Default(), "")
	a.ExitAfter = 6
	a.WindowSize = [2]int{800, 500}
	var shot *image.NRGBA
	a.Screenshot = func(img *image.NRGBA) { shot = img }
	a.Script = func(a *App, frame int) {
		if frame == 2 {
			a.Camera.Orbit(40, 10)
		}
	}
	runApp(t, a)
	if shot == nil {
		t.Fatal("no frame captured")
	}
	notBlank(t, shot, "window")
	if a.frames != 6 || a.Stats.Pairs != len(a.Pairs) || a.Stats.Pairs == 0 {
		t.Errorf("frames %d, pairs %d", a.frames, a.Stats.Pairs)
	}
}

// Scripted user input through ImGui's event queue, as the GLFW backend
// would feed it: a left drag orbits, the wheel zooms, F frames, a click on
// the view-cube's centre picks the view of the face under it.
func TestWindowInput(t *testing.T) {
	needGL(t)
	a := NewApp(scene.Default(), "")
	yaw0, dist0 := a.Camera.Yaw, a.Camera.Distance
	var yaw1, dist1 float64
	var viewAfterClick drawlist.View
	a.ExitAfter = 26
	a.WindowSize = [2]int{1280, 800}
	a.Script = func(a *App, frame int) {
		io := imgui.CurrentIO()
		ds := io.DisplaySize()
		// Move the real pointer too: the GLFW backend polls it when the
		// pointer is outside the window and would undo a queued position.
		move := func(x, y float32) {
			a.win.SetCursorPos(float64(x), float64(y))
			io.AddMousePosEvent(x, y)
		}
		switch {
		case frame == 1:
			move(float32(ds.X)/2, float32(ds.Y)/2)
		case frame == 2:
			io.AddMouseButtonEvent(0, true)
		case frame >= 3 && frame < 10:
			move(float32(ds.X)/2+float32(frame-2)*15, float32(ds.Y)/2)
		case frame == 10:
			io.AddMouseButtonEvent(0, false)
		case frame == 12:
			yaw1 = a.Camera.Yaw
			io.AddMouseWheelEvent(0, 2)
		case frame == 14:
			dist1 = a.Camera.Distance
			// Look from the right in perspective, so that the right face
			// covers the view-cube's centre.
			a.Camera.SetView(drawlist.Right)
			a.Camera.Orbit(0, 0) // back to perspective, same angles
		case frame == 16:
			cx, cy := a.viewCubeCentre()
			move(float32(cx), float32(cy))
		case frame == 18:
			io.AddMouseButtonEvent(0, true)
		case frame == 20:
			io.AddMouseButtonEvent(0, false)
		case frame == 24:
			viewAfterClick = a.Camera.CurrentView()
		}
	}
	runApp(t, a)
	if !(yaw1 < yaw0-0.1) {
		t.Errorf("dragging right should orbit: yaw %g -> %g", yaw0, yaw1)
	}
	if !(dist1 < dist0*0.9) {
		t.Errorf("wheel up should zoom in: distance %g -> %g", dist0, dist1)
	}
	if viewAfterClick != drawlist.Right {
		t.Errorf("clicking the cube's centre in a right-side perspective picked %v, want right", viewAfterClick)
	}
}
