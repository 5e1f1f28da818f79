package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"sort"
)

func sortedCommands() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// reportedError is a flag error that the flag package has already printed,
// with the usage: the command exits 2 without printing it again.
type reportedError struct{ error }

func (e reportedError) Unwrap() error { return e.error }

// parseFlags parses args into fs, marking the errors fs printed itself.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return reportedError{err}
	}
	return err
}

// argsExit turns the error of a command's flag parsing into its exit
// status: 0 after -h, 2 for bad flags (printed once), -1 to go on.
func argsExit(err error, stderr io.Writer) int {
	if err == nil {
		return -1
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var r reportedError
	if !errors.As(err, &r) {
		// The parsers' errors begin with their command's name ("mesh:
		// -scene: …"): printed as "sovviz mesh: …", as the commands print
		// their other errors.
		fmt.Fprintf(stderr, "sovviz %v\n", err)
	}
	// A file that cannot be read is a failure (1), as in every command,
	// not a usage error (2).
	if pe := new(fs.PathError); errors.As(err, &pe) {
		return 1
	}
	return 2
}
