package ui

import (
	"fmt"
	"image"
	"image/png"
	"io"

	"github.com/go-gl/glfw/v3.3/glfw"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	implgl3 "github.com/AllenDang/cimgui-go/impl/opengl3"
	"github.com/sovviz/sovviz/render"
)

// Offscreen renders frames of an App into images without showing a window
// (a hidden window supplies the OpenGL context, so an X display is still
// needed: Xvfb will do). It is what "sovviz render" and the GUI tests use.
// Create one per process and Close it when done; it must be used from the
// main goroutine (the package locks it to the main thread).
type Offscreen struct {
	win    *glfw.Window
	r      *render.Renderer
	ctx    *imgui.Context
	target *render.Target
}

// NewOffscreen opens the hidden window and the renderer.
func NewOffscreen() (*Offscreen, error) {
	win, err := openWindow("sovviz offscreen", 64, 64, false)
	if err != nil {
		return nil, err
	}
	r, err := render.New()
	if err != nil {
		closeWindow(win)
		return nil, err
	}
	o := &Offscreen{win: win, r: r, ctx: imguiContext()}
	implgl3.InitV("#version 410")
	return o, nil
}

// GLVersion returns the OpenGL version and renderer strings.
func (o *Offscreen) GLVersion() string { return render.Version() }

// Render draws one w×h frame of a — contact queries, meshes, overlays and
// labels — and returns it. The app's camera takes the new viewport size.
func (o *Offscreen) Render(a *App, w, h int) (*image.NRGBA, error) {
	if o.target == nil || o.target.Width != w || o.target.Height != h {
		if o.target != nil {
			o.target.Delete()
			o.target = nil
		}
		t, err := render.NewTarget(w, h, 8)
		if err != nil {
			return nil, err
		}
		o.target = t
	}
	o.win.MakeContextCurrent()
	imgui.SetCurrentContext(o.ctx)
	a.Camera.Width, a.Camera.Height = w, h
	a.Update()
	o.target.Bind()
	o.r.Draw(&a.List, &a.Camera)
	a.Stats.Triangles = o.r.Triangles

	io := imgui.CurrentIO()
	io.SetDisplaySize(imgui.NewVec2(float32(w), float32(h)))
	io.SetDisplayFramebufferScale(imgui.NewVec2(1, 1))
	io.SetDeltaTime(1.0 / 60)
	implgl3.NewFrame()
	imgui.NewFrame()
	a.drawUI(1, false)
	imgui.Render()
	o.target.Bind()
	implgl3.RenderDrawData(imgui.CurrentDrawData())
	img := o.target.Image()
	if img == nil {
		return nil, fmt.Errorf("render: no image read back")
	}
	return img, nil
}

// Draw renders one w×h frame of a offscreen without reading it back, and
// waits for the GPU to finish (for timing).
func (o *Offscreen) Draw(a *App, w, h int) error {
	if o.target == nil || o.target.Width != w || o.target.Height != h {
		if _, err := o.Render(a, w, h); err != nil {
			return err
		}
	}
	o.win.MakeContextCurrent()
	a.Camera.Width, a.Camera.Height = w, h
	a.Update()
	o.target.Bind()
	o.r.Draw(&a.List, &a.Camera)
	a.Stats.Triangles = o.r.Triangles
	render.Finish()
	return nil
}

// encodePNG writes img as PNG.
func encodePNG(w io.Writer, img image.Image) error { return png.Encode(w, img) }

// Close frees everything and terminates GLFW.
func (o *Offscreen) Close() {
	if o.target != nil {
		o.target.Delete()
	}
	implgl3.Shutdown()
	imgui.DestroyContextV(o.ctx)
	o.r.Delete()
	closeWindow(o.win)
}
