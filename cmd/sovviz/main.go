// Command sovviz visualizes superovoids and the exact contact between them.
//
//	sovviz [scene.json]        open the visualizer (the built-in scene without an argument)
//	sovviz query [flags]       JSON Lines contact queries, headless
//	sovviz point [flags]       JSON Lines point–body distances, headless
//	sovviz plane [flags]       JSON Lines body–plane distances, headless
//	sovviz bench [flags]       paper 000 §5.1 benchmark battery, headless
//	sovviz mesh [flags]        export a tessellated shape (OBJ, STL, PLY), headless
//	sovviz render [flags]      render a scene to PNG offscreen (needs an X display)
//
// Run "sovviz help" or "sovviz CMD -h" for the flags of each command.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// command is one headless subcommand. run returns the process exit code.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands is filled by the init functions of the subcommand files.
var commands = map[string]command{}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		name := args[0]
		if c, ok := commands[name]; ok {
			return c.run(args[1:], stdin, stdout, stderr)
		}
		switch name {
		case "help", "-h", "-help", "--help":
			usage(stdout)
			return 0
		}
		if strings.HasPrefix(name, "-") {
			fmt.Fprintf(stderr, "sovviz: unknown flag %s\n\n", name)
			usage(stderr)
			return 2
		}
		if !strings.HasSuffix(name, ".json") {
			fmt.Fprintf(stderr, "sovviz: unknown command %q\n\n", name)
			usage(stderr)
			return 2
		}
	}
	return runGUI(args, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: sovviz [scene.json]      open the visualizer")
	fmt.Fprintln(w, "       sovviz COMMAND [flags]   run a headless command")
	fmt.Fprintln(w, "\ncommands:")
	for _, name := range sortedCommands() {
		fmt.Fprintf(w, "  %-8s %s\n", name, commands[name].summary)
	}
}
