package ui

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"
	"unsafe"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	implglfw "github.com/AllenDang/cimgui-go/impl/glfw"
	implgl3 "github.com/AllenDang/cimgui-go/impl/opengl3"
	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/sovviz/sovviz/render"
)

func init() {
	// GLFW and OpenGL calls must come from the main thread.
	runtime.LockOSThread()
}

// ErrNoDisplay is returned when no X display can be opened.
var ErrNoDisplay = errors.New("no display: set DISPLAY to an X server (for example run under scripts/xvfb.sh or xvfb-run)")

// openWindow initialises GLFW and opens a window with an OpenGL 4.1 core
// context. visible false gives a hidden window for offscreen rendering.
func openWindow(title string, w, h int, visible bool) (*glfw.Window, error) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, ErrNoDisplay
	}
	if glfwUsers == 0 {
		if err := glfw.Init(); err != nil {
			return nil, fmt.Errorf("%w (%v)", ErrNoDisplay, err)
		}
	}
	glfwUsers++
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	// No multisampled window: the scene is drawn into a multisampled
	// render.Target and resolved into the window (much faster on Mesa's
	// software rasteriser than a multisampled default framebuffer).
	glfw.WindowHint(glfw.Samples, 0)
	glfw.WindowHint(glfw.ScaleToMonitor, glfw.True)
	if visible {
		glfw.WindowHint(glfw.Visible, glfw.True)
	} else {
		glfw.WindowHint(glfw.Visible, glfw.False)
	}
	win, err := glfw.CreateWindow(w, h, title, nil, nil)
	if err != nil {
		releaseGLFW()
		return nil, fmt.Errorf("open an OpenGL 4.1 core window: %w", err)
	}
	win.MakeContextCurrent()
	return win, nil
}

// glfwUsers counts the open windows: the offscreen renderer and the
// interactive window may share a process (the tests do), and GLFW must be
// terminated only after the last one closes.
var glfwUsers int

// closeWindow destroys win and terminates GLFW after the last window.
func closeWindow(win *glfw.Window) {
	win.Destroy()
	releaseGLFW()
}

func releaseGLFW() {
	glfwUsers--
	if glfwUsers == 0 {
		glfw.Terminate()
	}
}

// msaaSamples is the multisampling of the window's scene target.
const msaaSamples = 4

// imguiContext creates the Dear ImGui context with sovviz's style. The ini
// file is disabled: the scene file, not ImGui, holds what is worth saving.
func imguiContext() *imgui.Context {
	ctx := imgui.CreateContext()
	// CreateContext makes the new context current only when none is.
	imgui.SetCurrentContext(ctx)
	io := imgui.CurrentIO()
	io.SetIniFilename("")
	imgui.StyleColorsDark()
	st := imgui.CurrentStyle()
	st.SetWindowRounding(4)
	st.SetFrameRounding(3)
	return ctx
}

// Run opens the window and runs the visualizer until it is closed.
func Run(a *App) error {
	title := a.WindowTitle()
	a.files.title = title
	w, h := a.WindowSize[0], a.WindowSize[1]
	if w <= 0 || h <= 0 {
		w, h = 1280, 800
	}
	win, err := openWindow(title, w, h, true)
	if err != nil {
		return err
	}
	defer closeWindow(win)
	a.win = win
	defer func() { a.win = nil }()
	prevCtx := imgui.CurrentContext()
	if a.ExitAfter > 0 {
		glfw.SwapInterval(0) // scripted run: no need to wait for the display
	} else {
		glfw.SwapInterval(1)
	}
	r, err := render.New()
	if err != nil {
		return err
	}
	defer r.Delete()

	ctx := imguiContext()
	defer func() {
		imgui.DestroyContextV(ctx)
		if prevCtx != nil && prevCtx.CData != nil {
			imgui.SetCurrentContext(prevCtx)
		}
	}()
	implglfw.InitForOpenGL(implglfw.NewGLFWwindowFromC(unsafe.Pointer(win.Handle())), true)
	defer implglfw.Shutdown()
	implgl3.InitV("#version 410")
	defer implgl3.Shutdown()
	a.glVersion = render.Version()

	var target *render.Target
	defer func() {
		if target != nil {
			target.Delete()
		}
	}()
	last := time.Now()
	a.quit = false
	for !a.quit {
		glfw.PollEvents()
		if win.ShouldClose() {
			// Closing the window asks about unsaved edits like Ctrl+Q.
			win.SetShouldClose(false)
			a.RequestQuit()
			if a.quit {
				break
			}
		}
		fw, fh := win.GetFramebufferSize()
		ww, _ := win.GetSize()
		if fw == 0 || fh == 0 {
			// Minimised: nothing to draw.
			glfw.WaitEventsTimeout(0.1)
			continue
		}
		scale := 1.0
		if ww > 0 {
			scale = float64(fw) / float64(ww)
		}
		a.Camera.Width, a.Camera.Height = fw, fh
		implgl3.NewFrame()
		implglfw.NewFrame()
		imgui.NewFrame()
		if a.Script != nil {
			a.Script(a, a.frames)
		}
		a.handleInput(scale)
		a.Update()
		if target == nil || target.Width != fw || target.Height != fh {
			if target != nil {
				target.Delete()
			}
			if target, err = render.NewTarget(fw, fh, msaaSamples); err != nil {
				return err
			}
		}
		target.Bind()
		r.Draw(&a.List, &a.Camera)
		target.Present()
		a.Stats.Triangles = r.Triangles
		a.drawUI(scale, true)
		imgui.Render()
		implgl3.RenderDrawData(imgui.CurrentDrawData())
		a.frames++
		if a.Screenshot != nil && a.frames == a.ExitAfter {
			a.Screenshot(render.ReadFramebuffer(fw, fh))
		}
		win.SwapBuffers()
		if a.ExitAfter > 0 && a.frames >= a.ExitAfter {
			a.quit = true
		}
		now := time.Now()
		a.Stats.Frame = now.Sub(last)
		last = now
	}
	return nil
}
