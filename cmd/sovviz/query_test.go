package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

// runCmd runs "sovviz args..." in-process with the given stdin.
func runCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = dispatch(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func lineJSON(id string, a, b geom.Body) string { return queryLineOf(id, &a, &b) }

// outLine is an output line decoded strictly, with its key order.
type outLine struct {
	ID         *string    `json:"id"`
	Distance   *float64   `json:"distance"`
	P          *[]float64 `json:"p"`
	Q          *[]float64 `json:"q"`
	Normal     *[]float64 `json:"normal"`
	Status     string     `json:"status"`
	Iterations *int       `json:"iterations"`
	TimeNS     *int64     `json:"time_ns"`
	Warning    *string    `json:"warning"`
	Error      *string    `json:"error"`
	keys       []string
}

func decodeOut(t *testing.T, line string) outLine {
	t.Helper()
	var o outLine
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("output line is not the documented JSON: %v\n%s", err, line)
	}
	// Key order, from the token stream.
	dec = json.NewDecoder(strings.NewReader(line))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		o.keys = append(o.keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	return o
}

func outLines(t *testing.T, stdout string) []string {
	t.Helper()
	if stdout != "" && !strings.HasSuffix(stdout, "\n") {
		t.Fatalf("output does not end with a newline: %q", stdout)
	}
	return strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
}

// randomBody draws a body over the whole parameter range of the project.
func randomBody(r *rand.Rand, pos geom.Vec3) geom.Body {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	return geom.Body{
		Shape: geom.Superovoid{
			A:     [3]float64{u(0.3, 2), u(0.3, 2), u(0.3, 2)},
			Eps:   [2]float64{u(0.1, 1.9), u(0.1, 1.9)},
			Taper: [2]float64{u(-0.5, 0.5), u(-0.5, 0.5)},
		},
		Pose: geom.Pose{Position: pos, Orientation: contact.UniformQuat(r)},
	}
}

// TestQueryMatchesLibrary answers random pairs over the whole parameter
// range through the CLI and checks every output line against a direct
// contact.Query of the same bodies: same numbers to the last bit (the format
// must not lose precision), the documented key order, unit normal, |q - p| =
// |distance|, and a warning exactly when a shape is not convex.
func TestQueryMatchesLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n = 60
	var in strings.Builder
	type pair struct{ a, b geom.Body }
	pairs := make([]pair, n)
	for i := range pairs {
		a := randomBody(r, geom.Vec3{})
		dir := contact.UniformQuat(r).Rotate(geom.Vec3{1, 0, 0})
		b := randomBody(r, dir.Mul(1+3*r.Float64()))
		if i%10 == 0 { // untapered: convex, no warning expected
			a.Shape.Taper, b.Shape.Taper = [2]float64{}, [2]float64{}
		}
		pairs[i] = pair{a, b}
		in.WriteString(lineJSON(fmt.Sprintf("pair-%d", i), a, b) + "\n")
	}
	for _, method := range []string{"implicit", "parametric", "ntb"} {
		stdout, stderr, code := runCmd(t, in.String(), "query", "-method", method)
		lines := outLines(t, stdout)
		if len(lines) != n {
			t.Fatalf("%s: %d output lines for %d inputs; stderr %s", method, len(lines), n, stderr)
		}
		m, _ := parseMethod(method)
		opt := contact.DefaultOptions()
		opt.Method = m
		failed := 0
		for i, line := range lines {
			o := decodeOut(t, line)
			// The parser removes the rounding of the quaternions.
			a, b := pairs[i].a, pairs[i].b
			a.Pose, b.Pose = a.Pose.Normalized(), b.Pose.Normalized()
			want := contact.Query(&a, &b, &opt)
			if o.ID == nil || *o.ID != fmt.Sprintf("pair-%d", i) {
				t.Fatalf("%s line %d: id %v, want pair-%d (order must be kept)", method, i, o.ID, i)
			}
			wantKeys := []string{"id", "distance", "p", "q", "normal", "status", "iterations"}
			if want.NonConvex != 0 {
				wantKeys = append(wantKeys, "warning")
			}
			if strings.Join(o.keys, ",") != strings.Join(wantKeys, ",") {
				t.Fatalf("%s line %d: keys %v, want %v", method, i, o.keys, wantKeys)
			}
			if *o.Distance != want.Distance || *o.Iterations != want.Iterations || o.Status != want.Status.String() {
				t.Errorf("%s line %d: distance %v iterations %d status %s, library says %v %d %s", method, i,
					*o.Distance, *o.Iterations, o.Status, want.Distance, want.Iterations, want.Status)
			}
			p, q, nrm := *o.P, *o.Q, *o.Normal
			for k := 0; k < 3; k++ {
				if p[k] != want.P[k] || q[k] != want.Q[k] || nrm[k] != want.Normal[k] {
					t.Fatalf("%s line %d: p %v q %v normal %v, library says %v %v %v", method, i, p, q, nrm, want.P, want.Q, want.Normal)
				}
			}
			if want.Status == contact.Failed {
				failed++
				continue
			}
			if l := math.Sqrt(nrm[0]*nrm[0] + nrm[1]*nrm[1] + nrm[2]*nrm[2]); math.Abs(l-1) > 1e-12 {
				t.Errorf("%s line %d: |normal| = %v", method, i, l)
			}
			gap := math.Sqrt((q[0]-p[0])*(q[0]-p[0]) + (q[1]-p[1])*(q[1]-p[1]) + (q[2]-p[2])*(q[2]-p[2]))
			if math.Abs(gap-math.Abs(*o.Distance)) > 1e-9 {
				t.Errorf("%s line %d: |q - p| = %v but distance %v", method, i, gap, *o.Distance)
			}
			if (o.Warning != nil) != (want.NonConvex != 0) {
				t.Errorf("%s line %d: warning %v for NonConvex = %d", method, i, o.Warning, want.NonConvex)
			}
			if o.Warning != nil {
				for bit, name := range []string{"a ", "b "} {
					if want.NonConvex&(1<<bit) != 0 && !strings.Contains(*o.Warning, name) {
						t.Errorf("%s line %d: warning %q does not name shape %q", method, i, *o.Warning, name)
					}
				}
				if !strings.Contains(*o.Warning, "convex") || !strings.Contains(*o.Warning, "certif") {
					t.Errorf("%s line %d: warning %q does not say why the certificate fails", method, i, *o.Warning)
				}
			}
		}
		if (failed > 0) != (code == 1) || (failed == 0 && code != 0) {
			t.Errorf("%s: exit code %d with %d failed lines", method, code, failed)
		}
	}
}

// TestQuerySpheresClosedForm checks the CLI end to end against the closed
// form for two spheres: d = |c2 - c1| - r1 - r2, p = c1 + r1·u.
func TestQuerySpheresClosedForm(t *testing.T) {
	in := `{"id": "s", "a": {"shape": {"a": [1.5, 1.5, 1.5], "eps": [1, 1]}, "pose": {"position": [1, 2, 3]}}, "b": {"shape": {"a": [0.5, 0.5, 0.5], "eps": [1, 1]}, "pose": {"position": [4, 6, 3], "orientation": [0, 0, 1, 0]}}}` + "\n"
	stdout, stderr, code := runCmd(t, in, "query")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	o := decodeOut(t, outLines(t, stdout)[0])
	// centres 5 apart along (0.6, 0.8, 0)
	if math.Abs(*o.Distance-3) > 1e-9 {
		t.Errorf("distance %v, want 3", *o.Distance)
	}
	want := [3][3]float64{{1.9, 3.2, 3}, {3.7, 5.6, 3}, {0.6, 0.8, 0}}
	for k, got := range [3][]float64{*o.P, *o.Q, *o.Normal} {
		for c := 0; c < 3; c++ {
			if math.Abs(got[c]-want[k][c]) > 1e-9 {
				t.Errorf("%s = %v, want %v", []string{"p", "q", "normal"}[k], got, want[k])
				break
			}
		}
	}
	if o.Status != "converged" || o.Warning != nil {
		t.Errorf("status %q warning %v", o.Status, o.Warning)
	}
}

// TestQueryErrorLines feeds one bad line between two good ones and checks
// the error message, the echoed id, that the good lines are still answered,
// and exit code 1.
func TestQueryErrorLines(t *testing.T) {
	good := `{"id": "ok", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}}, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [3, 0, 0]}}}`
	body := `{"shape": {"a": [1, 1, 1], "eps": [1, 1]}}`
	cases := []struct {
		name, line string
		id         string // "" when the id cannot be read
		want       string // substring of the error message
	}{
		{"eps range", `{"id": "e", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 2.5]}}, "b": ` + body + `}`, "e", "line 2: a.shape.eps[1] = 2.5: squareness must be in [0.05, 1.95]"},
		{"semi-axis", `{"id": "s", "a": ` + body + `, "b": {"shape": {"a": [1, -1, 1], "eps": [1, 1]}}}`, "s", "b.shape.a[1] = -1: semi-axis must be > 0"},
		{"taper", `{"id": "t", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 1], "taper": [0, 0.7]}}, "b": ` + body + `}`, "t", "a.shape.taper[1] = 0.7"},
		{"orientation", `{"id": "o", "a": ` + body + `, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"orientation": [1, 1, 0, 0]}}}`, "o", "b.pose.|orientation| = 1.4142135623730951: quaternion [w,x,y,z] must have unit length"},
		{"zero quaternion", `{"id": "z", "a": ` + body + `, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"orientation": [0, 0, 0, 0]}}}`, "z", "b.pose.|orientation| = 0"},
		{"invalid JSON", `{"id": "j", "a": nope}`, "", "line 2: invalid JSON at column 19"},
		{"truncated", `{"id": "j", "a": {`, "", "invalid JSON at column"},
		{"unknown top field", `{"id": "u", "a": ` + body + `, "b": ` + body + `, "c": 1}`, "u", `c: unknown field (want "id", "a", "b")`},
		{"unknown shape field", `{"id": "u", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 1], "e": [1, 1]}}, "b": ` + body + `}`, "u", "a.shape.e: unknown field"},
		{"unknown pose field", `{"id": "u", "a": ` + body + `, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"pos": [0, 0, 0]}}}`, "u", "b.pose.pos: unknown field"},
		{"missing b", `{"id": "m", "a": ` + body + `}`, "m", "b: missing"},
		{"missing shape", `{"id": "m", "a": {"pose": {}}, "b": ` + body + `}`, "m", "a.shape: missing"},
		{"missing eps", `{"id": "m", "a": {"shape": {"a": [1, 1, 1]}}, "b": ` + body + `}`, "m", "a.shape.eps: missing"},
		{"short array", `{"id": "m", "a": {"shape": {"a": [1, 1], "eps": [1, 1]}}, "b": ` + body + `}`, "m", "a.shape.a: want 3 numbers, got 2"},
		{"string number", `{"id": "m", "a": {"shape": {"a": [1, "1", 1], "eps": [1, 1]}}, "b": ` + body + `}`, "m", `a.shape.a[1]: want a number, got string "1"`},
		{"null", `{"id": "m", "a": {"shape": {"a": [1, 1, 1], "eps": null}}, "b": ` + body + `}`, "m", "a.shape.eps: want an array of 2 numbers, got null"},
		{"overflow", `{"id": "m", "a": {"shape": {"a": [1e400, 1, 1], "eps": [1, 1]}}, "b": ` + body + `}`, "m", "a.shape.a[0]: number 1e400 is out of range"},
		{"underflow", `{"id": "m", "a": {"shape": {"a": [1e-400, 1, 1], "eps": [1, 1]}}, "b": ` + body + `}`, "m", "a.shape.a[0]: number 1e-400 is out of range"},
		{"underflow in a position", `{"id": "m", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [0, -0.5e-330, 0]}}, "b": ` + body + `}`, "m", "a.pose.position[1]: number -0.5e-330 is out of range"},
		{"object not array", `{"id": "m", "a": {"shape": {"a": {"x": 1}, "eps": [1, 1]}}, "b": ` + body + `}`, "m", "a.shape.a: want an array of 3 numbers, got an object"},
		{"a not object", `{"id": "m", "a": [1], "b": ` + body + `}`, "m", "a: want an object, got an array"},
		{"duplicate", `{"id": "d", "a": ` + body + `, "a": ` + body + `, "b": ` + body + `}`, "d", "a: field given twice"},
		{"id not string", `{"id": 7, "a": ` + body + `, "b": ` + body + `}`, "", "id: want a string, got number 7"},
		{"not an object", `[1, 2]`, "", "line 2: line: want an object, got an array"},
		{"position NaN-like", `{"id": "p", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [0, true, 0]}}, "b": ` + body + `}`, "p", "a.pose.position[1]: want a number, got boolean true"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runCmd(t, good+"\n"+c.line+"\n"+good+"\n", "query")
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if !strings.Contains(stderr, "1 line(s)") {
				t.Errorf("stderr %q does not count the failed line", stderr)
			}
			lines := outLines(t, stdout)
			if len(lines) != 3 {
				t.Fatalf("%d output lines, want 3:\n%s", len(lines), stdout)
			}
			for _, k := range []int{0, 2} {
				if o := decodeOut(t, lines[k]); o.Status != "converged" || *o.Distance != 1 {
					t.Errorf("good line %d not answered: %s", k+1, lines[k])
				}
			}
			o := decodeOut(t, lines[1])
			if o.Status != "error" || o.Error == nil || !strings.Contains(*o.Error, c.want) {
				t.Fatalf("error line %s, want error containing %q", lines[1], c.want)
			}
			if !strings.HasPrefix(*o.Error, "line 2: ") {
				t.Errorf("error %q does not start with the line number", *o.Error)
			}
			wantKeys := "status,error"
			if c.id != "" {
				wantKeys = "id,status,error"
				if o.ID == nil || *o.ID != c.id {
					t.Errorf("id %v, want %q echoed", o.ID, c.id)
				}
			}
			if strings.Join(o.keys, ",") != wantKeys {
				t.Errorf("keys %v, want %s", o.keys, wantKeys)
			}
		})
	}
}

// TestQueryLineHandling: empty lines give no output, CRLF and a byte order
// mark are accepted, optional fields take their defaults, the last line may
// lack its newline, a line over the limit is an error and the next is still
// answered, and the id may hold any string.
func TestQueryLineHandling(t *testing.T) {
	minimal := `{"id": %s, "a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}}, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1], "taper": [0, 0]}, "pose": {"position": [0, 0, 2.5]}}}`
	id := func(s string) string { return string(appendJSONString(nil, s)) }
	in := "\xef\xbb\xbf" + fmt.Sprintf(minimal, id("first")) + "\r\n\r\n   \n\t\n" +
		fmt.Sprintf(minimal, id("tab\t\"quote\" \\ ünïcödé \u2028 \x01")) + "\n" +
		strings.Repeat(" ", maxQueryLine+10) + "x\n" +
		fmt.Sprintf(minimal, id("")) // no final newline
	stdout, _, code := runCmd(t, in, "query")
	if code != 1 {
		t.Errorf("exit %d, want 1 (the over-long line)", code)
	}
	lines := outLines(t, stdout)
	if len(lines) != 4 {
		t.Fatalf("%d output lines, want 4:\n%.2000s", len(lines), stdout)
	}
	wantIDs := []string{"first", "tab\t\"quote\" \\ ünïcödé \u2028 \x01", "", ""}
	for i, line := range lines {
		o := decodeOut(t, line)
		if i == 2 {
			if o.Status != "error" || !strings.Contains(*o.Error, "line 6: longer than") {
				t.Errorf("over-long line answered %s", line)
			}
			continue
		}
		if o.ID == nil || *o.ID != wantIDs[i] {
			t.Errorf("line %d: id %v, want %q", i, o.ID, wantIDs[i])
		}
		if o.Status != "converged" || math.Abs(*o.Distance-0.5) > 1e-12 {
			t.Errorf("line %d: %s, want distance 0.5", i, line)
		}
	}
	// Only blank input: no output, success.
	if stdout, _, code := runCmd(t, "\n\n  \n", "query"); stdout != "" || code != 0 {
		t.Errorf("blank input gave %q, exit %d", stdout, code)
	}
}

// TestQueryTiming checks -timing: every answered line carries a positive
// integer "time_ns" before any warning, error lines carry none, and the
// numbers are unchanged.
func TestQueryTiming(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var in strings.Builder
	for i := 0; i < 5; i++ {
		in.WriteString(lineJSON(fmt.Sprint(i), randomBody(r, geom.Vec3{}), randomBody(r, geom.Vec3{0, 2.5, 0})) + "\n")
	}
	in.WriteString(`{"id": "bad"}` + "\n")
	plain, _, _ := runCmd(t, in.String(), "query")
	timed, _, code := runCmd(t, in.String(), "query", "-timing", "7")
	if code != 1 {
		t.Errorf("exit %d, want 1 for the bad line", code)
	}
	pl, tl := outLines(t, plain), outLines(t, timed)
	if len(tl) != 6 {
		t.Fatalf("%d lines, want 6", len(tl))
	}
	for i := range tl {
		po, to := decodeOut(t, pl[i]), decodeOut(t, tl[i])
		if i == 5 {
			if to.TimeNS != nil || to.Status != "error" {
				t.Errorf("error line carries time_ns: %s", tl[i])
			}
			continue
		}
		if to.TimeNS == nil || *to.TimeNS <= 0 {
			t.Fatalf("line %d: no positive time_ns: %s", i, tl[i])
		}
		if *to.Distance != *po.Distance || *to.Iterations != *po.Iterations {
			t.Errorf("line %d: -timing changed the answer: %s vs %s", i, tl[i], pl[i])
		}
		want := append([]string{}, po.keys[:7]...)
		want = append(want, "time_ns")
		want = append(want, po.keys[7:]...)
		if strings.Join(to.keys, ",") != strings.Join(want, ",") {
			t.Errorf("line %d: keys %v, want %v", i, to.keys, want)
		}
	}
	if got := medianInt64([]int64{5, 1, 3}); got != 3 {
		t.Errorf("median of 5,1,3 = %d", got)
	}
	if got := medianInt64([]int64{4, 1, 3, 10}); got != 3 {
		t.Errorf("median of 4,1,3,10 = %d, want 3", got)
	}
}

// TestQueryFlags covers the flag errors, -h, -in and the exit codes.
func TestQueryFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-method", "newton"}, 2, `-method "newton": want implicit, parametric or ntb`},
		{[]string{"-guess", "grid"}, 2, `-guess "grid"`},
		{[]string{"-tol", "0"}, 2, "-tol 0: want a finite number > 0"},
		{[]string{"-tol", "NaN"}, 2, "-tol NaN"},
		{[]string{"-timing", "-1"}, 2, "-timing -1"},
		{[]string{"-j", "-1"}, 2, "-j -1: want a number of workers"},
		{[]string{"-j", "257"}, 2, "-j 257: want a number of workers in [1, 256]"},
		{[]string{"-j", "2", "-timing", "3"}, 2, "-j 2 with -timing"},
		{[]string{"-bogus"}, 2, "flag provided but not defined"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"-h"}, 0, "usage: sovviz query"},
		{[]string{"-in", filepath.Join(t.TempDir(), "missing.jsonl")}, 1, "missing.jsonl"},
	} {
		_, stderr, code := runCmd(t, "", append([]string{"query"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("query %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	// -in reads the file, not stdin; every guess works.
	path := filepath.Join(t.TempDir(), "q.jsonl")
	line := `{"id": "f", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}}, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [0, 3, 0]}}}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"quadtree", "octree", "support"} {
		stdout, stderr, code := runCmd(t, "not json\n", "query", "-in", path, "-guess", g, "-tol", "1e-12")
		if code != 0 {
			t.Fatalf("-guess %s: exit %d: %s", g, code, stderr)
		}
		if o := decodeOut(t, outLines(t, stdout)[0]); *o.ID != "f" || math.Abs(*o.Distance-1) > 1e-12 {
			t.Errorf("-guess %s: %s", g, stdout)
		}
	}
}

// TestQueryStreams drives the command through pipes one line at a time, as
// another program would: each answer must arrive before the next question is
// written (no reading everything first, no holding answers back).
func TestQueryStreams(t *testing.T) {
	for _, j := range []string{"1", "3"} {
		t.Run("-j "+j, func(t *testing.T) { queryStreams(t, j) })
	}
}

func queryStreams(t *testing.T, workers string) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		var errb bytes.Buffer
		done <- dispatch([]string{"query", "-j", workers}, inR, outW, &errb)
		outW.Close()
	}()
	answers := bufio.NewReader(outR)
	for i := 0; i < 3; i++ {
		line := fmt.Sprintf(`{"id": "%d", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}}, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [%d, 0, 0]}}}`+"\n", i, 3+i)
		if _, err := io.WriteString(inW, line); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() { s, _ := answers.ReadString('\n'); got <- s }()
		select {
		case s := <-got:
			o := decodeOut(t, s)
			if *o.ID != fmt.Sprint(i) || math.Abs(*o.Distance-float64(1+i)) > 1e-9 {
				t.Errorf("answer %d: %s", i, s)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer to line %d while the input is still open: output is held back", i)
		}
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestQueryWarm: with -warm, lines that repeat an id after a small motion
// (an animation, a simulation's time steps) start from that id's last
// answer: every answer equals the cold one to 1e-9, with fewer Newton
// iterations over the run; an id whose shape changes, a line without an id
// and a line after an error are answered correctly too; -timing then times
// the warm query.
func TestQueryWarm(t *testing.T) {
	input := warmTestInput()
	cold, _, code := runCmd(t, input, "query")
	warm, _, wcode := runCmd(t, input, "query", "-warm")
	if code != 1 || wcode != 1 {
		t.Fatalf("exit %d (cold), %d (warm), want 1 for the bad line", code, wcode)
	}
	checkWarmRun(t, cold, warm)
	timed, _, _ := runCmd(t, input, "query", "-warm", "-timing", "3")
	wl := outLines(t, warm)
	for i, l := range outLines(t, timed) {
		o := decodeOut(t, l)
		if o.Status != "error" && (o.TimeNS == nil || *o.TimeNS <= 0) {
			t.Fatalf("line %d: no positive time_ns: %s", i, l)
		}
		if o.Status != "error" && *o.Distance != *decodeOut(t, wl[i]).Distance {
			t.Errorf("line %d: -timing changed the warm answer", i)
		}
	}
}

// warmTestInput is an animation of 6 battery pairs over 25 steps, with an
// error line, an id's shape changing and a line without an id.
func warmTestInput() string {
	r := rand.New(rand.NewPCG(8, 9))
	pairs := contact.PaperBattery(6, 3)
	var in strings.Builder
	for step := 0; step < 25; step++ {
		for k := range pairs {
			p := &pairs[k]
			p[1].Pose.Position = p[1].Pose.Position.Add(randomUnit(r).Mul(1e-3))
			p[0].Pose.Orientation = turn(p[0].Pose.Orientation, warmTurnDeg*math.Pi/180, r)
			in.WriteString(lineJSON(fmt.Sprint("pair", k), p[0], p[1]) + "\n")
		}
		if step == 10 {
			in.WriteString(`{"id": "pair0", "a": 3}` + "\n") // an error line under a warm id
			in.WriteString(queryLineOf("pair1", &pairs[2][0], &pairs[2][1]) + "\n")
		}
		if step == 12 {
			q := pairs[3]
			q[0].Shape = geom.Sphere(0.7) // the id's shape changes
			in.WriteString(queryLineOf("pair3", &q[0], &q[1]) + "\n")
			in.WriteString(strings.Replace(queryLineOf("x", &q[0], &q[1]), `"id": "x", `, "", 1) + "\n")
		}
	}
	return in.String()
}

// checkWarmRun compares a -warm run's answers with a cold run's: equal to
// 1e-9, with fewer iterations.
func checkWarmRun(t *testing.T, cold, warm string) {
	t.Helper()
	cl, wl := outLines(t, cold), outLines(t, warm)
	if len(cl) != len(wl) || len(cl) != 25*6+4 {
		t.Fatalf("%d and %d lines, want %d", len(cl), len(wl), 25*6+4)
	}
	ci, wi, worst := 0, 0, 0.0
	for i := range cl {
		co, wo := decodeOut(t, cl[i]), decodeOut(t, wl[i])
		if co.Status == "error" {
			if wo.Status != "error" {
				t.Errorf("line %d: error line answered warm: %s", i, wl[i])
			}
			continue
		}
		if wo.Status != "converged" || co.Status != "converged" {
			t.Errorf("line %d: status %s (warm), %s (cold)", i, wo.Status, co.Status)
			continue
		}
		worst = math.Max(worst, math.Abs(*wo.Distance-*co.Distance))
		ci += *co.Iterations
		wi += *wo.Iterations
	}
	if worst > 1e-9 {
		t.Errorf("warm answers differ from cold ones by up to %.3g", worst)
	}
	if wi >= ci*9/10 { // (cold answers alone would give wi == ci)
		t.Errorf("warm run took %d Newton iterations, the cold one %d: the warm starts were not used", wi, ci)
	}
	t.Logf("iterations: %d warm, %d cold; largest difference %.3g", wi, ci, worst)
}

// failingReader yields r and then err instead of EOF.
type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// TestQueryWorkers: the answers of -j N are those of -j 1, byte for byte,
// in input order, with the same exit status and message: battery lines
// with error, blank, over-long and non-convex lines among them, with and
// without -warm (lines of one id stay in order on one worker), and an input
// that fails halfway (the lines before it answered, then the error).
func TestQueryWorkers(t *testing.T) {
	pairs := contact.PaperBattery(120, 6)
	var in strings.Builder
	for i := range pairs {
		in.WriteString(queryLineOf(fmt.Sprint(i%7), &pairs[i][0], &pairs[i][1]) + "\n")
		switch i % 17 {
		case 3:
			in.WriteString(`{"id": "bad", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 9]}}}` + "\n")
		case 5:
			in.WriteString("\n   \n")
		case 11:
			in.WriteString(`{"id": "` + strings.Repeat("x", maxQueryLine) + `"}` + "\n")
		}
	}
	input := in.String()
	warmIn := warmTestInput()
	for _, c := range []struct {
		name  string
		input string
		args  []string
	}{
		{"cold", input, nil},
		{"warm", input, []string{"-warm"}},
		{"warm animation", warmIn, []string{"-warm"}},
		{"octree", input[:len(input)/3], []string{"-guess", "octree"}},
	} {
		one, errOne, codeOne := runCmd(t, c.input, append([]string{"query", "-j", "1"}, c.args...)...)
		for _, j := range []string{"2", "5"} {
			many, errMany, codeMany := runCmd(t, c.input, append([]string{"query", "-j", j}, c.args...)...)
			if many != one || errMany != errOne || codeMany != codeOne {
				t.Errorf("%s, -j %s: output differs from -j 1 (exit %d vs %d, stderr %q vs %q)", c.name, j, codeMany, codeOne, errMany, errOne)
			}
		}
		if c.name == "cold" && (codeOne != 1 || len(outLines(t, one)) != 120+7+7) {
			t.Errorf("cold: exit %d, %d lines", codeOne, len(outLines(t, one)))
		}
	}
	coldAnim, _, _ := runCmd(t, warmIn, "query", "-j", "1")
	warmAnim, _, _ := runCmd(t, warmIn, "query", "-j", "3", "-warm")
	checkWarmRun(t, coldAnim, warmAnim)
	// An input that fails after 40 lines.
	lines := strings.SplitAfter(input, "\n")
	head := strings.Join(lines[:40], "")
	broken := errors.New("disk on fire")
	for _, j := range []string{"1", "4"} {
		var out, errb bytes.Buffer
		code := dispatch([]string{"query", "-j", j}, &failingReader{strings.NewReader(head), broken}, &out, &errb)
		want, _, _ := runCmd(t, head, "query", "-j", "1")
		if code != 1 || !strings.Contains(errb.String(), "disk on fire") || out.String() != want {
			t.Errorf("-j %s, failing input: exit %d, stderr %q, %d bytes out (want %d)", j, code, errb.String(), out.Len(), len(want))
		}
	}
}

// TestQueryWarmWindow: an id's last answer serves its next line only within
// warmWindow answered lines (shrunk to 8 here), whichever worker holds it,
// so -j 1 and -j N pick the same warm starts and print the same bytes; the
// memory is swept of older answers. Cycling through 12 ids, two apart by
// more than the window: every line is cold, as a line after a gap is.
func TestQueryWarmWindow(t *testing.T) {
	saved := warmWindow
	warmWindow = 8
	defer func() { warmWindow = saved }()
	pairs := contact.PaperBattery(12, 5)
	var cyc, near strings.Builder
	for step := 0; step < 6; step++ {
		for k := range pairs {
			pairs[k][1].Pose.Position[0] += 1e-3
			cyc.WriteString(queryLineOf(fmt.Sprint(k), &pairs[k][0], &pairs[k][1]) + "\n")
			if k < 4 { // 4 ids: always within the window
				near.WriteString(queryLineOf(fmt.Sprint(k), &pairs[k][0], &pairs[k][1]) + "\n")
			}
		}
	}
	for _, c := range []struct {
		name     string
		input    string
		wantWarm bool
	}{{"12 ids", cyc.String(), false}, {"4 ids", near.String(), true}} {
		cold, _, _ := runCmd(t, c.input, "query", "-j", "1")
		one, _, _ := runCmd(t, c.input, "query", "-j", "1", "-warm")
		for _, j := range []string{"2", "3"} {
			if many, _, _ := runCmd(t, c.input, "query", "-j", j, "-warm"); many != one {
				t.Errorf("%s: -warm -j %s differs from -warm -j 1", c.name, j)
			}
		}
		if (one != cold) != c.wantWarm {
			t.Errorf("%s: warm starts used: %v, want %v", c.name, one != cold, c.wantWarm)
		}
	}
	// The sweep: after many ids, only those of the last window stay.
	var w warmAnswers
	r := &contact.Result{}
	for i := 0; i < 5000; i++ {
		w.now = i
		w.put(fmt.Sprint(i), r)
	}
	if n := len(w.byID); n > 2048+warmWindow {
		t.Errorf("%d answers kept after 5000 ids, window %d", n, warmWindow)
	}
	w.now = 5000
	if w.get("4999") != r || w.get("4991") != nil || w.get("10") != nil {
		t.Errorf("window: last id %v, one 9 lines old %v, an old one %v", w.get("4999"), w.get("4991"), w.get("10"))
	}
}

// TestWarmAnswersSweep: the window's boundary (an answer exactly
// warmWindow lines old serves, one line older does not), and a sweep keeps
// every answer still within the window, so sweeping changes no warm start.
func TestWarmAnswersSweep(t *testing.T) {
	saved := warmWindow
	warmWindow = 100
	defer func() { warmWindow = saved }()
	var w warmAnswers
	res := make([]contact.Result, 3000)
	for i := range res {
		w.now = i
		w.put(fmt.Sprint(i), &res[i])
		if i%7 == 0 { // an id asked again, 1/4 window later
			if j := i - 25; j >= 0 && j%7 != 0 {
				if got := w.get(fmt.Sprint(j)); got != &res[j] {
					t.Fatalf("line %d: id %d (25 lines old) not served", i, j)
				}
			}
		}
	}
	swept := false
	for i := 0; i < 2999-warmWindow; i++ {
		if _, ok := w.byID[fmt.Sprint(i)]; !ok {
			swept = true
		}
	}
	if !swept {
		t.Fatal("no sweep in 3,000 ids with a window of 100")
	}
	// A sweep starts when the map doubles what the last one kept (at
	// least 1,024 entries), and keeps at most the window's 101 ids.
	if n := len(w.byID); n > 1024 {
		t.Errorf("%d answers kept for 3,000 ids, window %d", n, warmWindow)
	}
	for i := 2999 - warmWindow; i < 3000; i++ {
		if w.get(fmt.Sprint(i)) != &res[i] {
			t.Errorf("id %d, %d lines old: not served after the sweeps", i, w.now-i)
		}
	}
	w.now = 3000
	if w.get("2900") != &res[2900] || w.get("2899") != nil {
		t.Errorf("boundary: %d lines old %v (want served), %d lines old %v (want none)",
			warmWindow, w.get("2900"), warmWindow+1, w.get("2899"))
	}
}

// TestWarmKey: long ids are kept by digest, distinct ids stay distinct, and
// no short id can meet a digest key.
func TestWarmKey(t *testing.T) {
	long1, long2 := strings.Repeat("x", 1<<20), strings.Repeat("x", 1<<20-1)+"y"
	for _, c := range []struct {
		id      string
		wantLen int
	}{{"", 0}, {"abc", 3}, {strings.Repeat("z", maxWarmKey), maxWarmKey}, {strings.Repeat("z", maxWarmKey+1), maxWarmKey + 1}, {long1, maxWarmKey + 1}} {
		k := warmKey(c.id)
		if len(k) != c.wantLen {
			t.Errorf("id of %d bytes: key of %d bytes, want %d", len(c.id), len(k), c.wantLen)
		}
		// A short id is its own key; a longer one's key is its digest and
		// the marker byte, a length no id kept as itself has.
		if long := len(c.id) > maxWarmKey; long != (k != c.id) || long && (len(k) <= maxWarmKey || k[len(k)-1] != 0) {
			t.Errorf("id of %d bytes: key %q", len(c.id), k)
		}
	}
	if warmKey(long1) == warmKey(long2) {
		t.Error("two long ids share a key")
	}
	var w warmAnswers
	r1, r2 := &contact.Result{}, &contact.Result{}
	w.put(warmKey(long1), r1)
	w.put(warmKey(long2), r2)
	if w.get(warmKey(long1)) != r1 || w.get(warmKey(long2)) != r2 || w.get(warmKey(long1[:100])) != nil {
		t.Error("long ids: wrong answers served")
	}
}

// stallingWriter fails its first write after a pause, long enough for the
// reader and the workers to fill every queue.
type stallingWriter struct{ pause time.Duration }

func (f *stallingWriter) Write(p []byte) (int, error) {
	time.Sleep(f.pause)
	return 0, errors.New("disk full")
}

// TestQueryWorkersStopOnWriteError: when the answers cannot be written,
// the command fails with the error, and the workers and the reader stop
// rather than wait forever to hand over their lines.
func TestQueryWorkersStopOnWriteError(t *testing.T) {
	pairs := contact.PaperBattery(400, 2)
	var in strings.Builder
	for i := range pairs {
		in.WriteString(queryLineOf(fmt.Sprint(i), &pairs[i][0], &pairs[i][1]) + "\n")
	}
	base := runtime.NumGoroutine()
	var errb bytes.Buffer
	code := dispatch([]string{"query", "-j", "2"}, strings.NewReader(in.String()), &stallingWriter{300 * time.Millisecond}, &errb)
	if code != 1 || !strings.Contains(errb.String(), "disk full") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		t.Errorf("%d goroutines left behind", n-base)
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// settledWriter fails its first write once the reader has stopped reading
// (no byte read for half a second; at most 60 s): then everything that
// will be read ahead of the answers has been, however slow the test runs.
type settledWriter struct{ src *countingReader }

func (f settledWriter) Write(p []byte) (int, error) {
	last, still := int64(-1), 0
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && still < 10; {
		time.Sleep(50 * time.Millisecond)
		if n := f.src.n.Load(); n != last {
			last, still = n, 0
		} else {
			still++
		}
	}
	return 0, errors.New("disk full")
}

// TestQueryWorkersBoundMemory: with many workers and long lines, the lines
// read ahead of the answers stay within the byte budget (16 MiB) rather
// than workers × queueDepth lines of up to 1 MiB each: while the output is
// stalled, the command reads no further.
func TestQueryWorkersBoundMemory(t *testing.T) {
	body := `{"shape": {"a": [1, 1, 1], "eps": [1, 1]}}`
	line := `{"id": "` + strings.Repeat("x", 900<<10) + `", "a": ` + body + `, "b": ` + body + "}\n"
	src := &countingReader{r: strings.NewReader(strings.Repeat(line, 80))} // 72 MB
	var errb bytes.Buffer
	code := dispatch([]string{"query", "-j", "8"}, src, settledWriter{src}, &errb)
	if code != 1 || !strings.Contains(errb.String(), "disk full") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	limit := int64(16<<20 + 2*len(line) + 64<<10) // (written out: a test of the budget, not of its constants)
	if got := src.n.Load(); got > limit {
		t.Errorf("read %d MB ahead of the answers, budget %d MB", got>>20, limit>>20)
	}
}

// TestQueryStreamsPartialLine: a client that has written one whole line and
// the start of the next gets the first answer without finishing the second
// line (the serial path waited while any input was buffered).
func TestQueryStreamsPartialLine(t *testing.T) {
	for _, j := range []string{"1", "3"} {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan int, 1)
		go func() {
			var errb bytes.Buffer
			done <- dispatch([]string{"query", "-j", j}, inR, outW, &errb)
			outW.Close()
		}()
		line := `{"id": "1", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}}, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [3, 0, 0]}}}` + "\n"
		half := len(line) / 2
		go io.WriteString(inW, line+line[:half]) // one write: both in one read
		got := make(chan string, 1)
		go func() { s, _ := bufio.NewReader(outR).ReadString('\n'); got <- s }()
		select {
		case s := <-got:
			if o := decodeOut(t, s); *o.ID != "1" {
				t.Errorf("-j %s: answer %s", j, s)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("-j %s: no answer to a whole line while the next is half written", j)
		}
		io.WriteString(inW, line[half:])
		inW.Close()
		go io.Copy(io.Discard, outR)
		if code := <-done; code != 0 {
			t.Errorf("-j %s: exit %d", j, code)
		}
	}
}

// TestReadLineLimit: a line of exactly max bytes is read, one byte more is
// too long, with or without "\r\n" or "\n", and at the end of the input.
func TestReadLineLimit(t *testing.T) {
	const max = 100
	for _, c := range []struct {
		n       int
		end     string
		tooLong bool
	}{
		{max, "\n", false}, {max, "\r\n", false}, {max, "", false},
		{max + 1, "\n", true}, {max + 1, "\r\n", true}, {max + 1, "", true},
		{max + 2, "", true}, {max + 2, "\n", true}, {3 * max, "\n", true},
	} {
		in := strings.Repeat("x", c.n) + c.end
		if c.end != "" {
			in += "next\n"
		}
		br := bufio.NewReaderSize(strings.NewReader(in), 16)
		line, tooLong, err := readLine(br, nil, max)
		if tooLong != c.tooLong || (!tooLong && len(line) != c.n) || (tooLong && len(line) != 0) {
			t.Errorf("%d bytes + %q: tooLong %v, %d bytes read", c.n, c.end, tooLong, len(line))
		}
		if c.end == "" {
			if err != io.EOF {
				t.Errorf("%d bytes at the end: err %v", c.n, err)
			}
			continue
		}
		if next, _, _ := readLine(br, nil, max); string(next) != "next" {
			t.Errorf("%d bytes + %q: next line %q", c.n, c.end, next)
		}
	}
}

// TestQueryWorkersCount: -j as given, else one per processor, at most the
// lines allowed in flight (more workers would never get a line), one when
// timing.
func TestQueryWorkersCount(t *testing.T) {
	for _, c := range []struct {
		jobs, timing, procs, want int
	}{
		{0, 0, 2, 2}, {0, 0, 0, 1}, {0, 0, 300, budgetTokens}, {0, 5, 8, 1}, {3, 0, 8, 3}, {1, 5, 8, 1},
	} {
		if got := queryWorkers(&queryArgs{jobs: c.jobs, timing: c.timing}, c.procs); got != c.want {
			t.Errorf("-j %d, timing %d, %d processors: %d workers, want %d", c.jobs, c.timing, c.procs, got, c.want)
		}
	}
}
