package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
)

// stream is a parsed pairs stream.
type stream struct {
	verts, tris int
	idx         []uint32
	pairs       []streamPair
}

type streamPair struct {
	exact  float64
	convex bool
	r      [2][9]float64
	t      [2][3]float64
	v      [2][]geom.Vec3
}

// parse reads a stream back (an independent reader of the format in the
// package comment).
func parse(t *testing.T, b []byte) stream {
	t.Helper()
	if len(b) < 20 || string(b[:8]) != magic {
		t.Fatalf("no %s header", magic)
	}
	u32 := func() uint32 { v := binary.LittleEndian.Uint32(b); b = b[4:]; return v }
	f64 := func() float64 { v := math.Float64frombits(binary.LittleEndian.Uint64(b)); b = b[8:]; return v }
	b = b[8:]
	var s stream
	n := int(u32())
	s.verts, s.tris = int(u32()), int(u32())
	for i := 0; i < 3*s.tris; i++ {
		s.idx = append(s.idx, u32())
	}
	per := 8 + 1 + 2*8*(12+3*s.verts)
	if len(b) != n*per {
		t.Fatalf("%d bytes of pairs, want %d pairs of %d", len(b), n, per)
	}
	for i := 0; i < n; i++ {
		var p streamPair
		p.exact = f64()
		p.convex = b[0] == 1
		b = b[1:]
		for side := 0; side < 2; side++ {
			for k := range p.r[side] {
				p.r[side][k] = f64()
			}
			for k := range p.t[side] {
				p.t[side][k] = f64()
			}
			for v := 0; v < s.verts; v++ {
				p.v[side] = append(p.v[side], geom.Vec3{f64(), f64(), f64()})
			}
		}
		s.pairs = append(s.pairs, p)
	}
	return s
}

// TestWritePairs checks the stream against the battery it comes from: the
// paper's mesh size, vertices on the shapes' surfaces, the poses' rotation
// (row-major) and position, and sovviz's distance.
func TestWritePairs(t *testing.T) {
	const n = 6
	var buf bytes.Buffer
	if err := writePairs(&buf, n, 3); err != nil {
		t.Fatal(err)
	}
	s := parse(t, buf.Bytes())
	if s.verts != 290 || s.tris != 576 || len(s.pairs) != n {
		t.Fatalf("%d vertices, %d triangles, %d pairs; want 290, 576, %d", s.verts, s.tris, len(s.pairs), n)
	}
	for _, v := range s.idx {
		if int(v) >= s.verts {
			t.Fatalf("index %d out of range", v)
		}
	}
	battery := contact.PaperBattery(n, 3)
	seps := 0
	for i, p := range s.pairs {
		bodies := [2]geom.Body{battery[i][0], battery[i][1]}
		r := contact.Query(&bodies[0], &bodies[1], ptr(contact.DefaultOptions()))
		if p.exact != r.Distance || p.convex != (r.NonConvex == 0) {
			t.Errorf("pair %d: distance %v convex %v, want %v %v", i, p.exact, p.convex, r.Distance, r.NonConvex == 0)
		}
		if p.exact > 0 {
			seps++
		}
		for side, body := range bodies {
			rot := body.Pose.Rotation()
			for row := 0; row < 3; row++ {
				// A world point is R·local + T: row k of R dotted with a unit
				// axis must give that axis's image.
				for col := 0; col < 3; col++ {
					axis := geom.Vec3{}
					axis[col] = 1
					if got, want := p.r[side][row*3+col], geom.MulMV(&rot, axis)[row]; got != want {
						t.Fatalf("pair %d side %d: R[%d][%d] = %v, want %v", i, side, row, col, got, want)
					}
				}
			}
			if p.t[side] != [3]float64(body.Pose.Position) {
				t.Errorf("pair %d side %d: position %v, want %v", i, side, p.t[side], body.Pose.Position)
			}
			for _, v := range p.v[side] {
				if f, ok := body.Shape.Residual(v); !ok || math.Abs(f) > 1e-9 {
					t.Fatalf("pair %d side %d: vertex %v off the surface (residual %v)", i, side, v, f)
				}
			}
		}
	}
	if seps == 0 || seps == n {
		t.Fatalf("%d of %d pairs separated: the test needs both kinds", seps, n)
	}
}

func ptr[T any](v T) *T { return &v }

func TestWritePairsRejectsBadCount(t *testing.T) {
	for _, n := range []int{0, -1, 1_000_001} {
		if err := writePairs(&bytes.Buffer{}, n, 1); err == nil {
			t.Errorf("n = %d accepted", n)
		}
	}
}

// TestFCLHarness builds fclbench.cpp against FCL (make test installs both:
// scripts/deps.sh fcl) and runs it on a few pairs in small chunks: its
// report must count every pair, and its checks of the inputs must fail when
// an exact distance is made too large for the inscribed meshes or a mesh is
// moved away, and on broken streams.
func TestFCLHarness(t *testing.T) {
	bin := buildHarness(t, t.TempDir())
	const n = 40
	var buf bytes.Buffer
	if err := writePairs(&buf, n, 1); err != nil {
		t.Fatal(err)
	}
	run := func(in []byte) (string, error) {
		cmd := exec.Command(bin, "-repeat", "2", "-chunk", "16")
		cmd.Stdin = bytes.NewReader(in)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return out.String() + errb.String(), err
	}
	out, err := run(buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	count := func(row string) int {
		m := regexp.MustCompile(`\| ` + regexp.QuoteMeta(row) + ` \| (\d+) \|`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no row %q in\n%s", row, out)
		}
		k, _ := strconv.Atoi(m[1])
		return k
	}
	for _, q := range []string{"mesh distance", "collision test (yes/no)"} {
		sep, ovl := count(q+", separated pairs"), count(q+", overlapping pairs")
		if sep+ovl != n || sep == 0 || ovl == 0 {
			t.Errorf("%s: %d separated + %d overlapping pairs, want both kinds and %d in all", q, sep, ovl, n)
		}
	}
	if !regexp.MustCompile(`off by \d`).MatchString(out) {
		t.Errorf("no accuracy line in\n%s", out)
	}

	// The first separated pair of convex shapes, its exact distance raised
	// above anything an inscribed mesh allows.
	s := parse(t, buf.Bytes())
	off := 8 + 12 + 4*3*s.tris
	per := 8 + 1 + 2*8*(12+3*s.verts)
	first := func(what string, ok func(streamPair) bool) int {
		for i, p := range s.pairs {
			if ok(p) {
				return i
			}
		}
		t.Fatalf("no %s among the first pairs", what)
		return -1
	}
	mustFail := func(in []byte, what, why string) {
		if out, err := run(in); err == nil {
			t.Errorf("%s passed the harness's checks:\n%s", what, out)
		} else if !strings.Contains(out, why) {
			t.Errorf("%s failed without saying why:\n%s", what, out)
		}
	}
	bad := bytes.Clone(buf.Bytes())
	i := first("separated pair of convex shapes", func(p streamPair) bool { return p.convex && p.exact > 0 })
	binary.LittleEndian.PutUint64(bad[off+i*per:], math.Float64bits(s.pairs[i].exact+0.5))
	mustFail(bad, "a distance the meshes contradict", "mesh distance below the exact one")

	// A pair with a non-convex shape, b moved a quarter farther out in the
	// stream only: the check of every pair against the loose bound catches it.
	moved := bytes.Clone(buf.Bytes())
	i = first("pair with a non-convex shape", func(p streamPair) bool { return !p.convex })
	at := off + i*per + 8 + 1 + 8*(12+3*s.verts) + 9*8 // b's position
	for k := 0; k < 3; k++ {
		x := math.Float64frombits(binary.LittleEndian.Uint64(moved[at+8*k:])) * 1.25
		binary.LittleEndian.PutUint64(moved[at+8*k:], math.Float64bits(x))
	}
	mustFail(moved, "a mesh moved away", "more than 0.1 from the exact one")

	// Broken streams end with exit status 1 and a message, never a crash.
	good := buf.Bytes()
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, c := range []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"bad magic", edit(func(b []byte) []byte { b[0] = 'X'; return b })},
		{"no pairs", edit(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 0); return b })},
		{"huge vertex count", edit(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[12:], 1<<31); return b })},
		{"huge pair count", edit(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 1<<31); return b })},
		{"triangle index out of range", edit(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[20:], 290); return b })},
		{"header cut", good[:30]},
		{"cut in the first pair", good[:off+100]},
		{"cut in the last pair", good[:len(good)-100]},
		{"a pair too many announced", edit(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], n+1); return b })},
		{"trailing bytes", append(bytes.Clone(good), 0)},
		{"a NaN vertex", edit(func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[off+8+1+8*12:], math.Float64bits(math.NaN()))
			return b
		})},
	} {
		out, err := run(c.in)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(out, "fclbench: ") {
			t.Errorf("%s: %v (want exit status 1 and a message)\n%s", c.name, err, out)
		}
	}
	_ = os.Remove(bin)
}

// buildHarness builds fclbench.cpp into dir (make test installs g++ and
// libfcl-dev: scripts/deps.sh fcl).
func buildHarness(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "fclbench")
	if out, err := exec.Command("../build.sh", bin).CombinedOutput(); err != nil {
		t.Fatalf("building the harness: %v\n%s(make test installs g++ and libfcl-dev: scripts/deps.sh fcl)", err, out)
	}
	return bin
}

// FuzzHarnessStream feeds the harness mutated streams of two pairs: it must
// answer each with exit status 0 or 1 (an error it names), never a crash or
// a hang. go test runs the seeds; go test -fuzz FuzzHarnessStream
// ./scripts/fclbench/pairs explores.
func FuzzHarnessStream(f *testing.F) {
	bin := buildHarness(f, f.TempDir())
	var buf bytes.Buffer
	if err := writePairs(&buf, 2, 1); err != nil {
		f.Fatal(err)
	}
	good := buf.Bytes()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(append(bytes.Clone(good[:20]), make([]byte, 64)...))
	f.Fuzz(func(t *testing.T, in []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "-repeat", "1", "-chunk", "1")
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			t.Fatalf("the harness hung on %d bytes", len(in))
		}
		var ee *exec.ExitError
		if err != nil && (!errors.As(err, &ee) || ee.ExitCode() != 1) {
			t.Fatalf("%v on %d bytes (want exit status 0 or 1)\n%s", err, len(in), out)
		}
	})
}

// TestScenePairs: the hand scene's broad-phase pairs, named after their
// objects, come out as sovviz query lines holding the same bodies and as a
// stream of the same pairs.
func TestScenePairs(t *testing.T) {
	sc, err := scene.Load("../../../scenes/icub-hand.json")
	if err != nil {
		t.Fatal(err)
	}
	pairs := scenePairs(sc)
	if len(pairs) < 10 {
		t.Fatalf("%d pairs in the hand scene's broad phase", len(pairs))
	}
	var lines bytes.Buffer
	if err := writeJSONL(&lines, pairs); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&lines)
	for i := range pairs {
		var l struct {
			ID   string
			A, B queryObject
		}
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if l.ID != pairs[i].id || !strings.Contains(l.ID, "|") {
			t.Errorf("line %d: id %q, want %q", i+1, l.ID, pairs[i].id)
		}
		for side, o := range []queryObject{l.A, l.B} {
			body := [2]geom.Body{pairs[i].a, pairs[i].b}[side]
			q := body.Pose.Orientation
			if o.Shape.A != body.Shape.A || o.Shape.Eps != body.Shape.Eps || o.Shape.Taper != body.Shape.Taper ||
				o.Pose.Position != [3]float64(body.Pose.Position) || o.Pose.Orientation != [4]float64{q.W, q.V[0], q.V[1], q.V[2]} {
				t.Errorf("line %d side %d: %+v, want %+v", i+1, side, o, body)
			}
		}
	}
	var buf bytes.Buffer
	if err := writeStream(&buf, pairs, sc.Solver.Options()); err != nil {
		t.Fatal(err)
	}
	if s := parse(t, buf.Bytes()); len(s.pairs) != len(pairs) {
		t.Errorf("%d pairs in the stream, want %d", len(s.pairs), len(pairs))
	}
}
