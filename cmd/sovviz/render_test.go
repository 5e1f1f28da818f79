package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sovviz/sovviz/render/drawlist"
)

func TestParseRenderArgs(t *testing.T) {
	tests := []struct {
		args    []string
		want    renderArgs
		wantErr string
	}{
		{[]string{"-o", "x.png"}, renderArgs{out: "x.png", width: 1280, height: 800}, ""},
		{[]string{"s.json", "-o", "x.png", "-size", "640x480", "-view", "top"}, renderArgs{scene: "s.json", out: "x.png", width: 640, height: 480, view: drawlist.Top, viewSet: true}, ""},
		{[]string{"-o", "x.png", "s.json"}, renderArgs{scene: "s.json", out: "x.png", width: 1280, height: 800}, ""},
		{[]string{"-view", "persp", "-o", "x.png"}, renderArgs{out: "x.png", width: 1280, height: 800, view: drawlist.Persp, viewSet: true}, ""},
		{[]string{"s.json"}, renderArgs{}, "-o out.png is required"},
		{[]string{"-o", "x.png", "-size", "0x10"}, renderArgs{}, `-size "0x10"`},
		{[]string{"-o", "x.png", "-size", "big"}, renderArgs{}, `-size "big"`},
		{[]string{"-o", "x.png", "-view", "sideways"}, renderArgs{}, `-view "sideways"`},
		{[]string{"a.json", "b.json", "-o", "x.png"}, renderArgs{}, "one scene file expected"},
		{[]string{"-bogus"}, renderArgs{}, "flag provided but not defined"},
	}
	for _, tc := range tests {
		got, err := parseRenderArgs(tc.args, &bytes.Buffer{})
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: error %v, want it to mention %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.args, got, err, tc.want)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"1280x800", "16x16", "8192X8192", "x", "-1x5", "10x", "1e3x2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, h, err := parseSize(s)
		if err != nil {
			if w != 0 || h != 0 || !strings.Contains(err.Error(), "-size") {
				t.Fatalf("%q: bad error result %d %d %v", s, w, h, err)
			}
			return
		}
		if w < 16 || h < 16 || w > 8192 || h > 8192 {
			t.Fatalf("%q: accepted out-of-range size %dx%d", s, w, h)
		}
	})
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.png")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("content %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("temporary files left: %v", ents)
	}
	if err := writeFileAtomic(filepath.Join(dir, "missing", "x.png"), nil); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("writing into a missing directory: %v", err)
	}
}

func TestRenderErrors(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runRender([]string{"-view", "up"}, nil, &out, &errb); code != 2 {
		t.Errorf("bad flags: exit %d", code)
	}
	errb.Reset()
	if code := runRender([]string{"-o", filepath.Join(t.TempDir(), "x.png"), "missing.json"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "missing.json") {
		t.Errorf("missing scene: exit %d, stderr %q", code, errb.String())
	}
}

// Without a display, render fails with a message that says what to do.
func TestRenderNoDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	var out, errb bytes.Buffer
	p := filepath.Join(t.TempDir(), "x.png")
	if code := runRender([]string{"-o", p}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "no display") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	if _, err := os.Stat(p); err == nil {
		t.Errorf("an image was written without a display")
	}
}

// A real render under Xvfb: the PNG exists, decodes, has the asked size.
func TestRenderPNG(t *testing.T) {
	runtime.LockOSThread() // GLFW wants one thread throughout
	defer runtime.UnlockOSThread()
	p := filepath.Join(t.TempDir(), "x.png")
	var out, errb bytes.Buffer
	if code := runRender([]string{"-o", p, "-size", "320x200", "-view", "front"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s (the GUI tests need an X display: run them under scripts/xvfb.sh)", code, errb.String())
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 320 || b.Dy() != 200 {
		t.Fatalf("size %v", b)
	}
}

// A bad scene file is reported with the file, the field and the reason,
// and nothing is written.
func TestRenderBadScene(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	data := `{"format": "sovviz-scene", "version": 1, "objects": [{"name": "a", "shape": {"a": [1, 1, 1], "eps": [2.5, 1]}, "pose": {"position": [0, 0, 0]}}]}`
	if err := os.WriteFile(bad, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "x.png")
	var o, e bytes.Buffer
	code := runRender([]string{bad, "-o", out}, nil, &o, &e)
	if code != 1 || !strings.Contains(e.String(), "bad.json") || !strings.Contains(e.String(), "objects[0].shape.eps") {
		t.Errorf("exit %d, stderr %q: want exit 1 naming the file and objects[0].shape.eps", code, e.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("an image was written for a bad scene")
	}
	e.Reset()
	if code := runGUI([]string{bad}, &o, &e); code != 1 || !strings.Contains(e.String(), "objects[0].shape.eps") {
		t.Errorf("sovviz bad.json: exit %d, stderr %q", code, e.String())
	}
}
