package main

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

// TestAppendAnswerGolden pins the exact bytes of the output format: key
// order, separators, shortest round-trip floats, optional keys.
func TestAppendAnswerGolden(t *testing.T) {
	third := 0.1
	third += 0.2 // 0.30000000000000004 at run time (constants would fold to 0.3)
	res := contact.Result{
		Distance:   -0.1,
		P:          geom.Vec3{1, 2.5, -3e-20},
		Q:          geom.Vec3{third, 2, 1e21},
		Normal:     geom.Vec3{0, -1, math.Copysign(0, -1)},
		Status:     contact.MaxIterations,
		Iterations: 40,
	}
	for _, c := range []struct {
		a    queryAnswer
		want string
	}{
		{queryAnswer{id: "x", hasID: true, res: &res},
			`{"id": "x", "distance": -0.1, "p": [1, 2.5, -3e-20], "q": [0.30000000000000004, 2, 1e+21], "normal": [0, -1, -0], "status": "max_iterations", "iterations": 40}` + "\n"},
		{queryAnswer{res: &res, timed: true, timeNS: 1234, warning: "a \"w\""},
			`{"distance": -0.1, "p": [1, 2.5, -3e-20], "q": [0.30000000000000004, 2, 1e+21], "normal": [0, -1, -0], "status": "max_iterations", "iterations": 40, "time_ns": 1234, "warning": "a \"w\""}` + "\n"},
		{queryAnswer{id: "e\n", hasID: true, err: "line 3: bad"},
			`{"id": "e\n", "status": "error", "error": "line 3: bad"}` + "\n"},
		{queryAnswer{err: "line 1: invalid JSON at column 1"},
			`{"status": "error", "error": "line 1: invalid JSON at column 1"}` + "\n"},
	} {
		if got := string(appendAnswer(nil, &c.a)); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
		if !json.Valid([]byte(c.want)) {
			t.Errorf("golden line is not JSON: %s", c.want)
		}
	}
}

func TestParseDefaults(t *testing.T) {
	in, err := parseQueryLine([]byte(`{"a": {"shape": {"a": [1, 2, 3], "eps": [0.5, 1.5]}}, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1], "taper": [0.1, -0.2]}, "pose": {"position": [1, 2, 3], "orientation": [0.6, 0, 0.8, 0]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if in.hasID {
		t.Errorf("no id given, but hasID")
	}
	wantA := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{0.5, 1.5}}, Pose: geom.Identity()}
	if in.a != wantA {
		t.Errorf("a = %+v, want %+v (taper and pose default)", in.a, wantA)
	}
	if in.b.Shape.Taper != [2]float64{0.1, -0.2} || in.b.Pose.Position != (geom.Vec3{1, 2, 3}) {
		t.Errorf("b = %+v", in.b)
	}
	if q := in.b.Pose.Orientation; math.Abs(q.W-0.6) > 1e-15 || math.Abs(q.V[1]-0.8) > 1e-15 {
		t.Errorf("orientation %v, want [0.6, 0, 0.8, 0]", q)
	}
	// A pose with only a position keeps the identity rotation, and vice versa.
	in, err = parseQueryLine([]byte(`{"a": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [0, 0, 5]}}, "b": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"orientation": [0, 1, 0, 0]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if in.a.Pose.Orientation != (geom.Quat{W: 1}) || in.b.Pose.Position != (geom.Vec3{}) || in.b.Pose.Orientation != (geom.Quat{V: geom.Vec3{1, 0, 0}}) {
		t.Errorf("partial poses: a %+v, b %+v", in.a.Pose, in.b.Pose)
	}
}

func TestConvexityWarningWording(t *testing.T) {
	for _, c := range []struct {
		s    geom.Superovoid
		want []string
	}{
		{geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.5, 0.5}, Taper: [2]float64{0.4, -0.4}},
			[]string{"is not convex", "tx = 0.4, ty = -0.4, e2 = 0.5", "dip near the equator", "from its convex hull"}},
		{geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1.5}, Taper: [2]float64{0.5, 0.5}},
			[]string{"is not convex", "caves in", "tx = 0.5, ty = 0.5, e2 = 1.5", "from its convex hull"}},
		{geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1.3, 1.5}, Taper: [2]float64{0.47, 0.16}},
			[]string{"is not convex", "bends outwards", "tx = 0.47, ty = 0.16, e2 = 1.5"}},
	} {
		// The words come from the solver's result, which carries geom's report.
		a := geom.Body{Shape: c.s, Pose: geom.Identity()}
		b := geom.Body{Shape: geom.Sphere(1), Pose: geom.Identity()}
		b.Pose.Position = geom.Vec3{0, 0, 4}
		opt := contact.DefaultOptions()
		r := contact.Query(&a, &b, &opt)
		if r.NonConvex&1 == 0 {
			t.Fatalf("%+v: not flagged non-convex", c.s)
		}
		got := convexityReason(&c.s, r.ReasonA, r.HullGapA)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("reason %q lacks %q", got, w)
			}
		}
		if rep := c.s.Convexity(); !strings.Contains(got, rep.Reason) {
			t.Errorf("reason %q differs from geom's %q", got, rep.Reason)
		}
	}
	sa := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.5, 0.5}, Taper: [2]float64{0.4, -0.4}}
	sb := geom.Sphere(1)
	for nc, want := range map[uint8][]string{0: nil, 1: {"a is"}, 2: {"b is"}, 3: {"a is", "; b is"}} {
		for _, r := range []contact.Result{
			{NonConvex: nc, Distance: 0.1, Certified: true},
			{NonConvex: nc, Distance: 0.1},
			{NonConvex: nc, Distance: -0.1},
			{NonConvex: nc, Distance: -0.1, StillOverlapping: 0.02},
			{NonConvex: nc, Distance: 0, Status: contact.Converged},
			{NonConvex: nc, Distance: 0, Status: contact.MaxIterations},
		} {
			w := nonConvexWarning(&r, &sa, &sb)
			if (w == "") != (want == nil) {
				t.Errorf("NonConvex %d: warning %q", nc, w)
			}
			if want == nil {
				continue
			}
			verdict := "not certified"
			if r.Certified {
				verdict = "still certified"
			}
			words := append(append([]string{}, want...), verdict, "certif")
			if r.Distance == 0 && r.Status == contact.Converged && !r.Certified {
				// (A touch pinned by the supports: its sign is not proven.)
				words = append(words, "touching")
			}
			if r.StillOverlapping > 0 {
				words = append(words, "too shallow", "still overlaps a by 0.02")
			} else if strings.Contains(w, "too shallow") {
				t.Errorf("NonConvex %d, %+v: warning %q calls the answer too shallow", nc, r.Distance, w)
			}
			if r.Distance == 0 && r.Status != contact.Converged && strings.Contains(w, "touching") {
				t.Errorf("NonConvex %d, %v at 0: warning %q claims a touch", nc, r.Status, w)
			}
			for _, s := range words {
				if !strings.Contains(w, s) {
					t.Errorf("NonConvex %d certified %v: warning %q lacks %q", nc, r.Certified, w, s)
				}
			}
		}
	}
}

// FuzzParseQueryLine: the parser never panics; an accepted line holds valid
// bodies with unit quaternions and survives a print-and-parse round trip; a
// rejected line yields an error answer that is valid JSON carrying the
// message (and the id when one was read).
func FuzzParseQueryLine(f *testing.F) {
	body := `{"shape": {"a": [1, 1, 1], "eps": [1, 1]}}`
	for _, s := range []string{
		`{"id": "x", "a": ` + body + `, "b": ` + body + `}`,
		`{"id": "t", "a": {"shape": {"a": [0.3, 2, 1], "eps": [0.1, 1.9], "taper": [-0.5, 0.5]}, "pose": {"position": [1e-300, -2, 3], "orientation": [0.5, 0.5, 0.5, 0.5]}}, "b": ` + body + `}`,
		`{"id": "e", "a": {"shape": {"a": [1, 1, 1], "eps": [1, 2.5]}}, "b": ` + body + `}`,
		`{"id": "\u00e9\ud83d\ude00", "a": [], "b": {}}`,
		`{"a": {"shape": {"a": [1e400, 1, 1], "eps": [1, 1]}}}`,
		`{"id": 1, "id": 2}`,
		`{"a": {"shape": {"a": [1,1,1], "eps": [1,1]}, "pose": {"orientation": [0,0,0,0]}}, "b": null}`,
		`[1, 2, 3]`, `"str"`, `nul`, `{`, `{"a": {"shape": {"a": [ 1 , 1 , 1 ] , "eps" : [1,1]}}}`,
		"{\"id\": \"\xff\xfe\", \"b\": 1}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		in, err := parseQueryLine(line)
		if err != nil {
			var fe *fieldError
			if !errors.As(err, &fe) || err.Error() == "" {
				t.Fatalf("error %v (%T) is not a field error with a message", err, err)
			}
			a := queryAnswer{id: in.id, hasID: in.hasID, err: "line 1: " + err.Error()}
			out := appendAnswer(nil, &a)
			var dec struct {
				ID     *string `json:"id"`
				Status string  `json:"status"`
				Error  string  `json:"error"`
			}
			if e := json.Unmarshal(out, &dec); e != nil {
				t.Fatalf("error answer is not JSON (%v): %s", e, out)
			}
			ref, _ := json.Marshal(a.err)
			var want string
			json.Unmarshal(ref, &want)
			if dec.Status != "error" || dec.Error != want {
				t.Fatalf("error answer %s does not carry %q", out, a.err)
			}
			if (dec.ID != nil) != in.hasID {
				t.Fatalf("id echoed %v with hasID %v", dec.ID, in.hasID)
			}
			return
		}
		for k, b := range []geom.Body{in.a, in.b} {
			if err := b.Validate(); err != nil {
				t.Fatalf("accepted body %d is invalid: %v", k, err)
			}
			q := b.Pose.Orientation
			if n := q.W*q.W + q.V.Dot(q.V); math.Abs(n-1) > 1e-12 {
				t.Fatalf("accepted body %d has |q|² = %v", k, n)
			}
		}
		again, err := parseQueryLine([]byte(lineJSON(in.id, in.a, in.b)))
		if err != nil {
			t.Fatalf("printed input does not parse: %v", err)
		}
		if again.id != in.id && in.hasID {
			t.Fatalf("id %q came back as %q", in.id, again.id)
		}
		for k, pair := range [][2]geom.Body{{in.a, again.a}, {in.b, again.b}} {
			x, y := pair[0], pair[1]
			dq := math.Abs(x.Pose.Orientation.W-y.Pose.Orientation.W) + x.Pose.Orientation.V.Sub(y.Pose.Orientation.V).Len()
			if x.Shape != y.Shape || x.Pose.Position != y.Pose.Position || dq > 1e-15 {
				t.Fatalf("body %d changed in a round trip: %+v -> %+v", k, x, y)
			}
		}
	})
}

// FuzzAppendJSONString: the hand-written string escaper must produce JSON
// that decodes to what encoding/json would make of the same Go string.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"b\\", "\x00\x1f\x7f", "\u2028\u2029", "é😀", "\xff", "a\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := appendJSONString(nil, s)
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q -> %s: not a JSON string: %v", s, out, err)
		}
		ref, _ := json.Marshal(s)
		var want string
		json.Unmarshal(ref, &want)
		if got != want {
			t.Fatalf("%q -> %s decodes to %q, encoding/json gives %q", s, out, got, want)
		}
	})
}

// A line whose error comes after a readable object still echoes its id
// (a review found trailing garbage losing it); an id that is not a string
// is not echoed.
func TestErrorLineEchoesID(t *testing.T) {
	obj := `{"shape": {"a": [1, 1, 1], "eps": [1, 1]}}`
	for _, c := range []struct {
		line   string
		id     string
		hasID  bool
		reason string
	}{
		{`{"id": "x", "a": ` + obj + `, "b": ` + obj + `} junk`, "x", true, "invalid JSON"},
		{`{"id": "y", "a": 1, "b": ` + obj + `}`, "y", true, "a: want an object"},
		{`{"id": 5, "a": ` + obj + `, "b": ` + obj + `} junk`, "", false, "invalid JSON"},
		{`not json`, "", false, "invalid JSON"},
	} {
		in, err := parseQueryLine([]byte(c.line))
		if err == nil || !strings.Contains(err.Error(), c.reason) || in.id != c.id || in.hasID != c.hasID {
			t.Errorf("%s: id %q (%v), error %v; want id %q (%v) and %q", c.line, in.id, in.hasID, err, c.id, c.hasID, c.reason)
		}
	}
}
