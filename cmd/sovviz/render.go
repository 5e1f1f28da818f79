package main

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"io"
	"strconv"
	"strings"

	"github.com/sovviz/sovviz/render/drawlist"
	"github.com/sovviz/sovviz/scene"
	"github.com/sovviz/sovviz/ui"
)

func init() {
	commands["render"] = command{"render a scene to PNG offscreen, with overlays (needs an X display)", runRender}
}

// renderArgs are the parsed flags of "sovviz render".
type renderArgs struct {
	scene         string
	out           string
	width, height int
	view          drawlist.View
	viewSet       bool
}

func parseRenderArgs(args []string, stderr io.Writer) (renderArgs, error) {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output PNG file (required)")
	size := fs.String("size", "1280x800", "image size WxH in pixels")
	view := fs.String("view", "", "camera view: front, back, left, right, top, bottom or persp (default: the scene's camera)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sovviz render [scene.json] -o out.png [-size WxH] [-view front|back|left|right|top|bottom|persp]")
		fs.PrintDefaults()
	}
	// Accept the scene before or after the flags.
	var pos []string
	for len(args) > 0 {
		if err := parseFlags(fs, args); err != nil {
			return renderArgs{}, err
		}
		args = fs.Args()
		if len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	var ra renderArgs
	if len(pos) > 1 {
		return ra, fmt.Errorf("render: one scene file expected, got %d: %s", len(pos), strings.Join(pos, " "))
	}
	if len(pos) == 1 {
		ra.scene = pos[0]
	}
	if *out == "" {
		return ra, fmt.Errorf("render: -o out.png is required")
	}
	ra.out = *out
	w, h, err := parseSize(*size)
	if err != nil {
		return ra, err
	}
	ra.width, ra.height = w, h
	if *view != "" {
		v, ok := drawlist.ParseView(*view)
		if !ok {
			return ra, fmt.Errorf("render: -view %q: want front, back, left, right, top, bottom or persp", *view)
		}
		ra.view, ra.viewSet = v, true
	}
	return ra, nil
}

// parseSize reads "WxH".
func parseSize(s string) (int, int, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil || w < 16 || h < 16 || w > 8192 || h > 8192 {
		return 0, 0, fmt.Errorf("render: -size %q: want WxH with both sides in [16, 8192], e.g. 1280x800", s)
	}
	return w, h, nil
}

func runRender(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ra, err := parseRenderArgs(args, stderr)
	if code := argsExit(err, stderr); code >= 0 {
		return code
	}
	app, err := loadApp(ra.scene)
	if err != nil {
		fmt.Fprintf(stderr, "sovviz render: %v\n", err)
		return 1
	}
	app.Camera.Width, app.Camera.Height = ra.width, ra.height
	if ra.viewSet {
		app.Camera.SetView(ra.view)
	}
	// Frame for the output's aspect ratio unless the scene fixed the camera.
	if !app.CameraFromScene {
		app.FrameAll()
	}
	off, err := ui.NewOffscreen()
	if err != nil {
		fmt.Fprintf(stderr, "sovviz render: %v\n", err)
		return 1
	}
	defer off.Close()
	img, err := off.Render(app, ra.width, ra.height)
	if err != nil {
		fmt.Fprintf(stderr, "sovviz render: %v\n", err)
		return 1
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		fmt.Fprintf(stderr, "sovviz render: encode PNG: %v\n", err)
		return 1
	}
	if err := writeFileAtomic(ra.out, buf.Bytes()); err != nil {
		fmt.Fprintf(stderr, "sovviz render: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%dx%d, %d pairs, contact %.3f ms)\n", ra.out, ra.width, ra.height, app.Stats.Pairs, app.Stats.Contact.Seconds()*1e3)
	return 0
}

// writeFileAtomic writes data atomically (see scene.WriteFileAtomic), so
// that a reader never sees a half-written image or mesh.
func writeFileAtomic(path string, data []byte) error { return scene.WriteFileAtomic(path, data) }
