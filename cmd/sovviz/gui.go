package main

import (
	"fmt"
	"io"
)

// runGUI opens the visualizer. Until the GUI lands it runs a small benchmark
// so that "make run" shows the contact core at work.
func runGUI(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "sovviz: the visualizer is not built yet; running a small benchmark instead")
	if c, ok := commands["bench"]; ok {
		return c.run([]string{"-n", "1000"}, nil, stdout, stderr)
	}
	return 1
}
