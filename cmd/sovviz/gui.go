package main

import (
	"fmt"
	"io"

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
	if err := ui.Run(app); err != nil {
		fmt.Fprintf(stderr, "sovviz: %v\n", err)
		return 1
	}
	return 0
}

// loadApp builds the visualizer state from a scene file ("" for the
// built-in scene).
func loadApp(path string) (*ui.App, error) {
	if path != "" {
		return nil, fmt.Errorf("%s: scene files cannot be loaded yet (package scene has not landed)", path)
	}
	return ui.NewApp(ui.DemoObjects()), nil
}
