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

// The examples of docs/query.md are what sovviz query prints: the answers
// to ex.jsonl and errors.jsonl, byte for byte, with the documented exit
// statuses.
func TestQueryDocExamples(t *testing.T) {
	raw, err := os.ReadFile("../../docs/query.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, c := range []struct {
		in, out string
		code    int
	}{
		{"`ex.jsonl`:", "`sovviz query -in ex.jsonl` answers", 0},
		{"`errors.jsonl`:", "`sovviz query -in errors.jsonl` answers", 1},
	} {
		in := codeBlockAfter(t, doc, c.in)
		want := codeBlockAfter(t, doc, c.out)
		out, _, code := runCmd(t, strings.Join(in, "\n")+"\n", "query")
		if code != c.code {
			t.Errorf("%s: exit %d, docs say %d", c.in, code, c.code)
		}
		got := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(got) != len(want) {
			t.Fatalf("%s: %d answers, docs show %d", c.in, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s line %d:\n got  %s\n docs %s", c.in, i+1, got[i], want[i])
			}
		}
	}
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
	for _, c := range []struct{ cmd, in, out string }{
		{"point", "`points.jsonl`:", "`sovviz point -in points.jsonl` answers"},
		{"plane", "`planes.jsonl`:", "`sovviz plane -in planes.jsonl` answers"},
	} {
		in := codeBlockAfter(t, doc, c.in)
		want := codeBlockAfter(t, doc, c.out)
		out, _, code := runCmd(t, strings.Join(in, "\n")+"\n", c.cmd)
		if code != 1 {
			t.Errorf("%s: exit %d, docs say 1", c.cmd, code)
		}
		got := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(got) != len(want) {
			t.Fatalf("%s: %d answers, docs show %d", c.cmd, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s line %d:\n got  %s\n docs %s", c.cmd, i+1, got[i], want[i])
			}
		}
	}
}
