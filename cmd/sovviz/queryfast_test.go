package main

import (
	"fmt"
	"math"
	"testing"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

// sameInput reports whether two parsed lines are identical, bit for bit
// (−0 and +0 differ).
func sameInput(x, y queryInput) bool {
	nums := func(in queryInput) []float64 {
		var out []float64
		for _, b := range []geom.Body{in.a, in.b} {
			s, p, q := b.Shape, b.Pose.Position, b.Pose.Orientation
			out = append(out, s.A[0], s.A[1], s.A[2], s.Eps[0], s.Eps[1], s.Taper[0], s.Taper[1], p[0], p[1], p[2], q.W, q.V[0], q.V[1], q.V[2])
		}
		return out
	}
	nx, ny := nums(x), nums(y)
	for i := range nx {
		if math.Float64bits(nx[i]) != math.Float64bits(ny[i]) {
			return false
		}
	}
	return x.id == y.id && x.hasID == y.hasID
}

// checkFastAgrees fails when the fast path accepts a line that the strict
// parser refuses or reads differently.
func checkFastAgrees(t *testing.T, line []byte) (fast bool) {
	t.Helper()
	in, ok := fastQueryLine(line)
	if !ok {
		return false
	}
	want, err := parseQueryLineStrict(line)
	if err != nil {
		t.Fatalf("fast path accepts %q, the strict parser refuses it: %v", line, err)
	}
	if !sameInput(in, want) {
		t.Fatalf("fast path reads %q as %+v, the strict parser as %+v", line, in, want)
	}
	return true
}

// TestFastQueryLineAgrees: the fast path takes the lines a program writes
// (docs/query.md's examples, the battery's lines as the FCL harness writes
// them, odd spacing, every optional field left out) and reads them exactly
// as the strict parser does; it leaves everything unusual to the strict
// parser, whose messages those lines need.
func TestFastQueryLineAgrees(t *testing.T) {
	body := `{"shape": {"a": [1, 1, 1], "eps": [1, 1]}}`
	taken := []string{
		`{"id": "x", "a": ` + body + `, "b": ` + body + `}`,
		`{"a": ` + body + `, "b": ` + body + `}`,
		`{"b": ` + body + `, "a": ` + body + `, "id": "reversed"}`,
		`{"id":"t","a":{"shape":{"a":[0.3,2,1],"eps":[0.1,1.9],"taper":[-0.5,0.5]},"pose":{"position":[1e-300,-2,3],"orientation":[0.5,0.5,0.5,0.5]}},"b":` + body + `}`,
		"{ \"id\" :\t\"sp ace\" ,\r\n\"a\" : { \"pose\" : { \"orientation\" : [ 1 , 0 , 0 , 0 ] } , \"shape\" : { \"eps\" : [ 1E0 , 1.0e-0 ] , \"a\" : [ 1 , 2.5 , 3e+0 ] } } , \"b\" : " + body + " }",
		`{"id": "", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [-0, 0.0, -0.0]}}, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"orientation": [1.0005, 0, 0, 0]}}}`,
		`{"a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"orientation": [0, 0.6, 0, 0.8]}}, "b": {"shape": {"a": [1e-100, 1e100, 1], "eps": [0.05, 1.95], "taper": [0.5, -0.5]}}}`,
	}
	for _, s := range taken {
		if !checkFastAgrees(t, []byte(s)) {
			t.Errorf("fast path refuses a plain line: %s", s)
		}
	}
	left := []string{
		`{"id": "\u00e9", "a": ` + body + `, "b": ` + body + `}`,       // an escape
		`{"id": "é", "a": ` + body + `, "b": ` + body + `}`,            // non-ASCII
		`{"id": 1, "a": ` + body + `, "b": ` + body + `}`,              // id not a string
		`{"id": "x", "id": "y", "a": ` + body + `, "b": ` + body + `}`, // repeated key
		`{"a": ` + body + `}`,                            // b missing
		`{"a": ` + body + `, "b": ` + body + `, "c": 1}`, // unknown key
		`{"a": ` + body + `, "b": ` + body + `} x`,       // trailing bytes
		`{"a": ` + body + `, "b": ` + body + `,}`,        // trailing comma
		`{"a": {"shape": {"a": [1, 1], "eps": [1, 1]}}, "b": ` + body + `}`,
		`{"a": {"shape": {"a": [1, 1, 1, 1], "eps": [1, 1]}}, "b": ` + body + `}`,
		`{"a": {"shape": {"a": [1, 1, 01], "eps": [1, 1]}}, "b": ` + body + `}`,
		`{"a": {"shape": {"a": [1, 1, 1.], "eps": [1, 1]}}, "b": ` + body + `}`,
		`{"a": {"shape": {"a": [1, 1, +1], "eps": [1, 1]}}, "b": ` + body + `}`,
		`{"a": {"shape": {"a": [1, 1, 1e400], "eps": [1, 1]}}, "b": ` + body + `}`,
		`{"a": {"shape": {"a": [1, 1, 1e-400], "eps": [1, 1]}}, "b": ` + body + `}`,                                     // underflow
		`{"a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [0, -0.5e-330, 0]}}, "b": ` + body + `}`, // underflow
		`{"a": {"shape": {"a": [1, 1, 1], "eps": [1, 2.5]}}, "b": ` + body + `}`,                                        // invalid shape
		`{"a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"orientation": [0, 0, 0, 0]}}, "b": ` + body + `}`,   // invalid pose
		`{"a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {}}, "b": ` + body + `}`,
		`{"a": {"shape": {"a": [1, 1, 1]}}, "b": ` + body + `}`,
		`{"a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "shape": {"a": [1, 1, 1], "eps": [1, 1]}}, "b": ` + body + `}`,
		`{"a": {"shape": {"a": [1, 1, 1], "eps": [1, 1], "eps": [1, 1]}}, "b": ` + body + `}`,
		`{"a": null, "b": ` + body + `}`,
		`{}`, `[]`, `{`, ``,
	}
	for _, s := range left {
		if checkFastAgrees(t, []byte(s)) {
			t.Errorf("fast path takes a line it should leave to the strict parser: %s", s)
		}
	}
}

// TestFastQueryLineBattery: paper 000's battery written as query lines by
// sovviz's own writer (queryLineOf, full-precision numbers) takes the fast
// path on every line and reads as the strict parser reads it.
func TestFastQueryLineBattery(t *testing.T) {
	pairs := contact.PaperBattery(300, 4)
	for i := range pairs {
		line := queryLineOf(fmt.Sprint(i), &pairs[i][0], &pairs[i][1])
		if !checkFastAgrees(t, []byte(line)) {
			t.Fatalf("line %d takes the strict path: %s", i, line)
		}
	}
}

// FuzzFastQueryLine: whatever the line, the fast path accepts it only if the
// strict parser accepts it too, with the same values.
func FuzzFastQueryLine(f *testing.F) {
	body := `{"shape": {"a": [1, 1, 1], "eps": [1, 1]}}`
	f.Add([]byte(`{"id": "x", "a": ` + body + `, "b": ` + body + `}`))
	f.Add([]byte(`{"id":"t","a":{"shape":{"a":[0.3,2,1],"eps":[0.1,1.9],"taper":[-0.5,0.5]},"pose":{"position":[1e-300,-2,3],"orientation":[0.5,0.5,0.5,0.5]}},"b":` + body + `}`))
	f.Add([]byte("{ \"id\" :\t\"s\" ,\r\n\"b\" : " + body + ", \"a\": {\"pose\": {\"orientation\": [1, 0, 0, -0]}, \"shape\": {\"eps\": [1E0, 1.0e-0], \"a\": [1, 2.5, 3e+0]}}}"))
	f.Add([]byte(`{"id": "u", "a": {"shape": {"a": [1e-400, 1, 1], "eps": [1, 1]}, "pose": {"position": [0, -0.5e-330, 0.0e-999]}}, "b": ` + body + `}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		checkFastAgrees(t, line)
	})
}
