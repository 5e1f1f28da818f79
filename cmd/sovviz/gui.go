package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"strconv"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/scene"
	"github.com/sovviz/sovviz/ui"
)

// runGUI opens the visualizer on the scene named by args[0], or on the
// built-in scene without arguments.
func runGUI(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintln(stderr, "usage: sovviz [scene.json]")
		return 2
	}
	path := ""
	if len(args) == 1 {
		path = args[0]
	}
	app, err := loadApp(path)
	if err != nil {
		fmt.Fprintf(stderr, "sovviz: %v\n", err)
		return 1
	}
	// SOVVIZ_SCREENSHOT=out.png: run a few frames, save the window's
	// last frame (ImGui windows included) and exit. Used for docs/img.
	if shot := os.Getenv("SOVVIZ_SCREENSHOT"); shot != "" {
		app.ExitAfter = 8
		if n, err := strconv.Atoi(os.Getenv("SOVVIZ_FRAMES")); err == nil && n > 0 {
			app.ExitAfter = n
		}
		if os.Getenv("SOVVIZ_PARAMSPACE") != "" {
			app.Scene.Overlays.ParamPanel = true
			app.Scene.Solver.Guess = contact.Quadtree
			app.Scene.Overlays.Tangents = true
		}
		// SOVVIZ_SELECT=name selects that object (the shape pads edit it).
		for i, o := range app.Scene.Objects {
			if o.Name == os.Getenv("SOVVIZ_SELECT") {
				app.Selected = i
			}
		}
		app.Screenshot = func(img *image.NRGBA) {
			var buf bytes.Buffer
			err := png.Encode(&buf, img)
			if err == nil {
				err = writeFileAtomic(shot, buf.Bytes())
			}
			if err != nil {
				fmt.Fprintf(stderr, "sovviz: screenshot: %v\n", err)
			}
		}
	}
	if err := ui.Run(app); err != nil {
		fmt.Fprintf(stderr, "sovviz: %v\n", err)
		return 1
	}
	return 0
}

// loadApp builds the visualizer state from a scene file ("" for the
// built-in scene). Errors name the file, the field and the reason.
func loadApp(path string) (*ui.App, error) {
	if path == "" {
		return ui.NewApp(scene.Default(), ""), nil
	}
	sc, err := scene.Load(path)
	if err != nil {
		return nil, err
	}
	return ui.NewApp(sc, path), nil
}
