// Command gen writes the example scenes of package examples into scenes/
// (or the directory given as the only argument):
//
//	go run ./scene/internal/gen
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sovviz/sovviz/scene"
	"github.com/sovviz/sovviz/scene/internal/examples"
)

func main() {
	dir := "scenes"
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scene/internal/gen [dir]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		dir = os.Args[1]
	}
	for _, e := range examples.All() {
		path := filepath.Join(dir, e.File)
		if err := scene.Save(path, e.Scene); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d objects, %d bodies\n", path, len(e.Scene.Objects), len(e.Scene.Bodies))
	}
}
