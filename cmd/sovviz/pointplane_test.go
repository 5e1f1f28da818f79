package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

// pointOut is an output line of "sovviz point", decoded strictly.
type pointOut struct {
	ID       *string    `json:"id"`
	Distance *float64   `json:"distance"`
	Closest  *geom.Vec3 `json:"closest"`
	Normal   *geom.Vec3 `json:"normal"`
	Radial   *float64   `json:"radial"`
	Status   string     `json:"status"`
	TimeNS   *int64     `json:"time_ns"`
	Error    string     `json:"error"`
}

func decodeLines[T any](t *testing.T, out string) []T {
	t.Helper()
	var res []T
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		var v T
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("output line %q: %v", l, err)
		}
		res = append(res, v)
	}
	return res
}

// TestPointCommand checks "sovviz point" against closed forms (a sphere
// anywhere: distance |x − c| − r, the closest point and normal along
// x − c, and the radial estimate equal to the distance; an ellipsoid's
// axis point: x − a), against contact.PointDistance bit for bit on a
// tapered pointy shape (the printed floats round-trip), and with -timing.
func TestPointCommand(t *testing.T) {
	sphere := `{"shape": {"a": [1.5, 1.5, 1.5], "eps": [1, 1]}, "pose": {"position": [1, -2, 0.5]}}`
	c, r := geom.Vec3{1, -2, 0.5}, 1.5
	xs := []geom.Vec3{{4, 1, 2}, {1.2, -2.1, 0.4}, {1, -2, 3}, {-3, -2, 0.5}}
	tapered := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.8, 1.3, 1.1}, Eps: [2]float64{1.7, 0.4}, Taper: [2]float64{0.3, -0.2}},
		Pose: geom.Pose{Position: geom.Vec3{0.5, 0, -1}, Orientation: geom.Quat{W: math.Cos(0.4), V: geom.Vec3{0, math.Sin(0.4), 0}}}}
	tapered.Pose = tapered.Pose.Normalized() // (as the parser leaves it)
	tx := geom.Vec3{2.1, 0.3, -0.2}
	var in strings.Builder
	for i, x := range xs {
		fmt.Fprintf(&in, `{"id": "s%d", "body": %s, "point": [%v, %v, %v]}`+"\n", i, sphere, x[0], x[1], x[2])
	}
	fmt.Fprintf(&in, `{"id": "e", "body": {"shape": {"a": [2, 1, 0.5], "eps": [1, 1]}}, "point": [3.25, 0, 0]}`+"\n")
	fmt.Fprintf(&in, `{"id": "centre", "body": %s, "point": [1, -2, 0.5]}`+"\n", sphere)
	fmt.Fprintf(&in, `{"id": "near", "body": {"shape": {"a": [1.5, 1.5, 1.5], "eps": [1, 1]}}, "point": [1e-160, 0, 0]}`+"\n")
	b, _ := json.Marshal(map[string]any{"id": "t", "body": jsonBody(&tapered), "point": tx})
	in.Write(append(b, '\n'))
	out, errOut, code := runCmd(t, in.String(), "point", "-timing", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := decodeLines[pointOut](t, out)
	if len(lines) != len(xs)+4 {
		t.Fatalf("%d answers to %d lines", len(lines), len(xs)+4)
	}
	// At the centre the ray has no direction: no radial estimate; next to
	// it, the radius (the estimate's floored logarithms once read −3.9e-11).
	if c := lines[len(xs)+1]; c.Status != "converged" || math.Abs(*c.Distance+1.5) > 1e-12 || c.Radial != nil {
		t.Errorf("the centre: %+v", c)
	}
	if c := lines[len(xs)+2]; c.Status != "converged" || math.Abs(*c.Distance+1.5) > 1e-12 || c.Radial == nil || math.Abs(*c.Radial+1.5) > 1e-12 {
		t.Errorf("1e-160 from the centre: %+v", c)
	}
	for i, x := range xs {
		l := lines[i]
		d := x.Sub(c)
		want := d.Len() - r
		u := d.Mul(1 / d.Len())
		if *l.ID != fmt.Sprintf("s%d", i) || l.Status != "converged" || math.Abs(*l.Distance-want) > 1e-12 ||
			l.Closest.Sub(c.Add(u.Mul(r))).Len() > 1e-12 || l.Normal.Sub(u).Len() > 1e-12 || l.Radial == nil || math.Abs(*l.Radial-want) > 1e-12 ||
			l.TimeNS == nil || *l.TimeNS <= 0 {
			t.Errorf("sphere point %v: %+v (want distance %.17g)", x, l, want)
		}
	}
	if e := lines[len(xs)]; e.Status != "converged" || math.Abs(*e.Distance-1.25) > 1e-12 || e.Closest.Sub(geom.Vec3{2, 0, 0}).Len() > 1e-12 {
		t.Errorf("ellipsoid axis point: %+v", e)
	}
	want := contact.PointDistance(&tapered, tx)
	if g := lines[len(xs)+3]; g.Status != want.Status.String() || *g.Distance != want.Distance || *g.Closest != want.Closest || *g.Normal != want.Normal {
		t.Errorf("tapered: %+v, contact.PointDistance %+v", g, want)
	}
}

// jsonBody is a body as the JSON object of the line formats.
func jsonBody(b *geom.Body) map[string]any {
	q := b.Pose.Orientation
	return map[string]any{
		"shape": map[string]any{"a": b.Shape.A, "eps": b.Shape.Eps, "taper": b.Shape.Taper},
		"pose":  map[string]any{"position": b.Pose.Position, "orientation": [4]float64{q.W, q.V[0], q.V[1], q.V[2]}},
	}
}

// TestPlaneCommand checks "sovviz plane" against closed forms: a sphere
// against a plane, separated and penetrating (distance n·c − offset − r),
// with a normal that is not unit (normalised with the offset: the same
// plane), a box-like shape above a plane below its face, and normals of
// huge and of subnormal components (whose 1/|n| overflows).
func TestPlaneCommand(t *testing.T) {
	in := strings.Join([]string{
		`{"id": "up", "body": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [0, 0, 2]}}, "plane": {"normal": [0, 0, 1], "offset": 0.5}}`,
		`{"id": "scaled", "body": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [0, 0, 2]}}, "plane": {"normal": [0, 0, 4], "offset": 2}}`,
		`{"id": "deep", "body": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [1, 1, 1]}}, "plane": {"normal": [1, 1, 1], "offset": 1.7320508075688772}}`,
		`{"id": "box", "body": {"shape": {"a": [2, 1, 0.5], "eps": [0.3, 0.3]}}, "plane": {"normal": [0, 0, 1], "offset": -0.75}}`,
		`{"id": "huge", "body": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [0, 0, 2]}}, "plane": {"normal": [0, 0, 1e300], "offset": 5e299}}`,
		`{"id": "subnormal", "body": {"shape": {"a": [1, 1, 1], "eps": [1, 1]}, "pose": {"position": [0, 0, 2]}}, "plane": {"normal": [0, 0, 1e-310], "offset": 5e-311}}`,
	}, "\n") + "\n"
	out, errOut, code := runCmd(t, in, "plane")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	type planeOut struct {
		ID       string    `json:"id"`
		Distance float64   `json:"distance"`
		P        geom.Vec3 `json:"p"`
		Q        geom.Vec3 `json:"q"`
		Status   string    `json:"status"`
	}
	lines := decodeLines[planeOut](t, out)
	s3 := math.Sqrt(3)
	want := []struct {
		d    float64
		p, q geom.Vec3
	}{
		{0.5, geom.Vec3{0, 0, 1}, geom.Vec3{0, 0, 0.5}},
		{0.5, geom.Vec3{0, 0, 1}, geom.Vec3{0, 0, 0.5}},
		{s3 - 2, geom.Vec3{1 - 1/s3, 1 - 1/s3, 1 - 1/s3}, geom.Vec3{1, 1, 1}.Mul(1 / s3)}, // (the plane n·x = 1)
		{0.25, geom.Vec3{0, 0, -0.5}, geom.Vec3{0, 0, -0.75}},
		{0.5, geom.Vec3{0, 0, 1}, geom.Vec3{0, 0, 0.5}},
		{0.5, geom.Vec3{0, 0, 1}, geom.Vec3{0, 0, 0.5}},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d answers to %d lines", len(lines), len(want))
	}
	for i, w := range want {
		l := lines[i]
		if l.Status != "converged" || math.Abs(l.Distance-w.d) > 1e-12 || l.P.Sub(w.p).Len() > 1e-9 || l.Q.Sub(w.q).Len() > 1e-9 {
			t.Errorf("%s: %+v, want distance %v, p %v, q %v", l.ID, l, w.d, w.p, w.q)
		}
	}
}

// TestPointPlaneErrors: each bad line is answered with status error and a
// message naming the field (and the id when it is readable), the good
// lines around it are answered, and the exit status is 1.
func TestPointPlaneErrors(t *testing.T) {
	body := `{"shape": {"a": [1, 1, 1], "eps": [1, 1]}}`
	for _, c := range []struct {
		cmd, line, id, msg string
	}{
		{"point", `{"id": "a", "point": [1, 2, 3]}`, "a", "body: missing"},
		{"point", `{"id": "b", "body": {"shape": {"a": [1, 1, 1], "eps": [1, 2.5]}}, "point": [1, 2, 3]}`, "b", "body.shape.eps[1] = 2.5"},
		{"point", `{"id": "c", "body": ` + body + `}`, "c", "point: missing (required: 3 numbers)"},
		{"point", `{"id": "d", "body": ` + body + `, "point": [1, "2", 3]}`, "d", "point[1]: want a number"},
		{"point", `{"id": "e", "body": ` + body + `, "point": [1, 2, 1e999]}`, "e", "point[2]: number 1e999 is out of range"},
		{"point", `{"id": "f", "body": ` + body + `, "point": [1, 2, 3], "extra": 1}`, "f", `extra: unknown field`},
		{"point", `{"id": 7, "body": ` + body + `, "point": [1, 2, 3]}`, "", "id: want a string"},
		{"point", `{"id": "g", "body": ` + body + `, "point": [1, 2, 3]`, "", "invalid JSON at column 82"},
		{"plane", `{"id": "h", "body": ` + body + `}`, "h", "plane: missing"},
		{"plane", `{"id": "i", "body": ` + body + `, "plane": {"normal": [0, 0, 0], "offset": 1}}`, "i", "plane.normal: want a nonzero vector"},
		{"plane", `{"id": "j", "body": ` + body + `, "plane": {"normal": [0, 0, 1]}}`, "j", "plane.offset: missing"},
		{"plane", `{"id": "k", "body": ` + body + `, "plane": {"normal": [0, 0, 1], "offset": null}}`, "k", "plane.offset: want a number, got null"},
		{"plane", `{"id": "m", "body": ` + body + `, "plane": {"normal": [0, 0, 1e-300], "offset": 1e300}}`, "m", "plane.offset: number 1e+300 over the normal's length 1e-300 is out of range"},
		{"plane", `{"id": "n", "body": ` + body + `, "plane": [0, 0, 1]}`, "n", "plane: want an object"},
		{"plane", `{"id": "o", "body": ` + body + `, "plane": {"normal": [0, 0, 2], "offset": 4e100}}`, "o", "plane.offset: 4e+100 over the normal's length 2 is 2e+100: the plane must pass within ±1e+100 of the origin"},
		{"point", `{"id": "p", "body": ` + body + `, "point": [0, -2e100, 0]}`, "p", "point[1]: -2e+100: must be within ±1e+100"},
	} {
		good := `{"id": "ok", "body": ` + body + `, "point": [0, 0, 2]}`
		if c.cmd == "plane" {
			good = `{"id": "ok", "body": ` + body + `, "plane": {"normal": [0, 0, 1], "offset": -2}}`
		}
		out, errOut, code := runCmd(t, good+"\n"+c.line+"\n"+good+"\n", c.cmd)
		if code != 1 || !strings.Contains(errOut, "1 line(s)") {
			t.Errorf("%s %s: exit %d, stderr %q", c.cmd, c.line, code, errOut)
		}
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(lines) != 3 || !strings.Contains(lines[0], `"converged"`) || !strings.Contains(lines[2], `"converged"`) {
			t.Errorf("%s %s: the good lines around it were not answered: %q", c.cmd, c.line, out)
			continue
		}
		var e struct {
			ID     *string `json:"id"`
			Status string  `json:"status"`
			Error  string  `json:"error"`
		}
		if err := json.Unmarshal([]byte(lines[1]), &e); err != nil {
			t.Errorf("%s: error line %q: %v", c.line, lines[1], err)
			continue
		}
		gotID := ""
		if e.ID != nil {
			gotID = *e.ID
		}
		if e.Status != "error" || gotID != c.id || !strings.HasPrefix(e.Error, "line 2: ") || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%s %s:\n got  %s\n want id %q and an error containing %q", c.cmd, c.line, lines[1], c.id, c.msg)
		}
	}
	for _, args := range [][]string{{"point", "-timing", "-1"}, {"plane", "extra"}, {"point", "-nope"}} {
		if _, _, code := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if _, errOut, code := runCmd(t, "", "plane", "-in", "/nonexistent/x.jsonl"); code != 1 || !strings.Contains(errOut, "/nonexistent/x.jsonl") {
		t.Errorf("-in of a missing file: exit %d, %q", code, errOut)
	}
}

// fuzzLine checks what both parsers promise: an error is a field error
// whose error line is valid JSON; a parsed line holds a valid body and
// finite numbers.
func fuzzLine(t *testing.T, err error, id string, hasID bool, b *geom.Body, nums ...float64) {
	if err != nil {
		var fe *fieldError
		if !errors.As(err, &fe) || err.Error() == "" {
			t.Fatalf("error %v (%T) is not a field error with a message", err, err)
		}
		out := errorLine(nil, id, hasID, "line 1: "+err.Error())
		if !json.Valid(out) {
			t.Fatalf("error line %q is not JSON", out)
		}
		return
	}
	if e := b.Validate(); e != nil {
		t.Fatalf("parsed an invalid body: %v", e)
	}
	if !finite(nums...) {
		t.Fatalf("parsed non-finite numbers %v", nums)
	}
}

func FuzzParsePointLine(f *testing.F) {
	body := `{"shape": {"a": [1, 1, 1], "eps": [1, 1]}}`
	for _, s := range []string{
		`{"id": "x", "body": ` + body + `, "point": [1, 2, 3]}`,
		`{"body": {"shape": {"a": [0.3, 2, 1], "eps": [0.1, 1.9], "taper": [-0.5, 0.5]}, "pose": {"orientation": [0.5, 0.5, 0.5, 0.5]}}, "point": [1e-300, -2, 3]}`,
		`{"id": "e", "body": ` + body + `, "point": [1, 2]}`, `{"point": null}`, `[1]`, `{`, `{"id": "\ud83d\ude00"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		in, err := parsePointLine(line)
		fuzzLine(t, err, in.id, in.hasID, &in.body, in.x[0], in.x[1], in.x[2])
	})
}

func FuzzParsePlaneLine(f *testing.F) {
	body := `{"shape": {"a": [1, 1, 1], "eps": [1, 1]}}`
	for _, s := range []string{
		`{"id": "x", "body": ` + body + `, "plane": {"normal": [0, 0, 1], "offset": 0.5}}`,
		`{"body": ` + body + `, "plane": {"normal": [1e-200, 0, 0], "offset": 1e200}}`,
		`{"body": ` + body + `, "plane": {"normal": [0, 1e-310, 5e-324], "offset": 1e-311}}`,
		`{"id": "e", "body": ` + body + `, "plane": {"normal": [0, 0], "offset": 1}}`, `{"plane": {}}`, `"s"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		in, err := parsePlaneLine(line)
		n := in.plane.Normal
		fuzzLine(t, err, in.id, in.hasID, &in.body, n[0], n[1], n[2], in.plane.Offset)
		if err == nil && math.Abs(n.Len()-1) > 1e-12 {
			t.Fatalf("normal %v is not unit", n)
		}
	})
}
