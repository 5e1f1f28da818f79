package main

import (
	"os"
	"strings"
	"testing"
)

// codeBlockAfter returns the lines of the first ``` block that follows the
// line containing marker in doc.
func codeBlockAfter(t *testing.T, doc, marker string) []string {
	t.Helper()
	i := strings.Index(doc, marker)
	if i < 0 {
		t.Fatalf("docs/query.md: %q not found", marker)
	}
	rest := doc[i:]
	start := strings.Index(rest, "```\n")
	if start < 0 {
		t.Fatalf("docs/query.md: no code block after %q", marker)
	}
	rest = rest[start+4:]
	end := strings.Index(rest, "```")
	if end < 0 {
		t.Fatalf("docs/query.md: unterminated code block after %q", marker)
	}
	return strings.Split(strings.TrimRight(rest[:end], "\n"), "\n")
}

// checkDocExample runs cmd on the code block after inMarker in doc and
// checks its output against the block after outMarker, byte for byte, and
// its exit status against code.
func checkDocExample(t *testing.T, doc, cmd, inMarker, outMarker string, code int) {
	t.Helper()
	in := codeBlockAfter(t, doc, inMarker)
	want := codeBlockAfter(t, doc, outMarker)
	out, _, got := runCmd(t, strings.Join(in, "\n")+"\n", cmd)
	if got != code {
		t.Errorf("%s: exit %d, docs say %d", inMarker, got, code)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%s: %d answers, docs show %d", inMarker, len(lines), len(want))
	}
	for i := range lines {
		if lines[i] != want[i] {
			t.Errorf("%s line %d:\n got  %s\n docs %s", inMarker, i+1, lines[i], want[i])
		}
	}
}

// The examples of docs/query.md are what sovviz query prints: the answers
// to ex.jsonl and errors.jsonl, byte for byte, with the documented exit
// statuses.
func TestQueryDocExamples(t *testing.T) {
	raw, err := os.ReadFile("../../docs/query.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	checkDocExample(t, doc, "query", "`ex.jsonl`:", "`sovviz query -in ex.jsonl` answers", 0)
	checkDocExample(t, doc, "query", "`errors.jsonl`:", "`sovviz query -in errors.jsonl` answers", 1)
}

// The examples of docs/query.md's "sovviz point" and "sovviz plane" are
// what the commands print, byte for byte, with exit status 1 (each ends
// with an error line).
func TestPointPlaneDocExamples(t *testing.T) {
	raw, err := os.ReadFile("../../docs/query.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	checkDocExample(t, doc, "point", "`points.jsonl`:", "`sovviz point -in points.jsonl` answers", 1)
	checkDocExample(t, doc, "plane", "`planes.jsonl`:", "`sovviz plane -in planes.jsonl` answers", 1)
}
