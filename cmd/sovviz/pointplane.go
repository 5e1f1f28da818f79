package main

// "sovviz point" and "sovviz plane": the exact point–body and body–plane
// distances of the contact package (contact.PointDistance,
// contact.PlaneDistance) as JSON Lines, in the style of "sovviz query"
// (docs/query.md): the same body objects, errors naming the field, answers
// in input order with full-precision floats, a non-zero exit when a line
// failed.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

func init() {
	commands["point"] = command{"answer JSON Lines point–body distances (stdin or -in FILE) with JSON Lines", runPoint}
	commands["plane"] = command{"answer JSON Lines body–plane distances (stdin or -in FILE) with JSON Lines", runPlane}
}

// bodyLine is what the lines of "sovviz point" and "sovviz plane" share:
// the optional id and one body.
type bodyLine struct {
	id    string
	hasID bool
	body  geom.Body
}

// pointInput is one parsed line of "sovviz point".
type pointInput struct {
	bodyLine
	x geom.Vec3
}

// planeInput is one parsed line of "sovviz plane".
type planeInput struct {
	bodyLine
	plane contact.Plane
}

// lineID reads the optional "id" member of a line whose members are
// fields.
func lineID(fields map[string]json.RawMessage) (id string, has bool, err error) {
	raw, ok := fields["id"]
	if !ok {
		return "", false, nil
	}
	if firstByte(raw) != '"' {
		return "", false, errAt("id", "want a string, got %s", kindOf(raw))
	}
	if err := json.Unmarshal(raw, &id); err != nil {
		return "", false, errAt("id", "%v", err)
	}
	return id, true, nil
}

// probeID reads the id of a line that failed to parse, when there is a
// readable one, so that its error line can echo it.
func probeID(line []byte) (string, bool) {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	var id string
	// The first JSON value of the line, so that a line with trailing
	// garbage after a readable object still echoes its id.
	if json.NewDecoder(bytes.NewReader(line)).Decode(&probe) == nil && firstByte(probe.ID) == '"' && json.Unmarshal(probe.ID, &id) == nil {
		return id, true
	}
	return "", false
}

// lineFields checks that line is JSON and splits its top-level members.
func lineFields(line []byte, known []string) (map[string]json.RawMessage, error) {
	if !json.Valid(line) {
		return nil, syntaxError(line)
	}
	return objectFields(line, "", known)
}

// parseBodyLine checks that line is a JSON object of the members "id"
// (optional), "body" and extra, reads the id and the body, and returns the
// members for the caller to read extra from. On error it still echoes the
// id when there is a readable one.
func parseBodyLine(line []byte, extra string) (bl bodyLine, fields map[string]json.RawMessage, err error) {
	defer func() {
		if err != nil && !bl.hasID {
			bl.id, bl.hasID = probeID(line)
		}
	}()
	if fields, err = lineFields(line, []string{"id", "body", extra}); err != nil {
		return bl, nil, err
	}
	if bl.id, bl.hasID, err = lineID(fields); err != nil {
		return bl, nil, err
	}
	raw, ok := fields["body"]
	if !ok {
		return bl, nil, errAt("body", "missing (required: an object with \"shape\" and optional \"pose\")")
	}
	if bl.body, err = parseObject(raw, "body"); err != nil {
		return bl, nil, err
	}
	return bl, fields, nil
}

// parsePointLine parses {"id": ..., "body": OBJECT, "point": [x, y, z]}.
func parsePointLine(line []byte) (in pointInput, err error) {
	var fields map[string]json.RawMessage
	if in.bodyLine, fields, err = parseBodyLine(line, "point"); err != nil {
		return in, err
	}
	if err := numbers(fields, "point", "", in.x[:], true); err != nil {
		return in, err
	}
	for i, c := range in.x {
		// (The bodies' own limit: squared distances stay finite.)
		if math.Abs(c) > geom.MaxLength {
			return in, errAt(fmt.Sprintf("point[%d]", i), "%s: must be within ±%g", formatFloat(c), geom.MaxLength)
		}
	}
	return in, nil
}

// parsePlaneLine parses {"id": ..., "body": OBJECT, "plane": {"normal":
// [nx, ny, nz], "offset": d}}, the plane n·x = d with n towards the free
// side. A normal that is not unit is normalised, and the offset with it
// (the same plane).
func parsePlaneLine(line []byte) (in planeInput, err error) {
	var fields map[string]json.RawMessage
	if in.bodyLine, fields, err = parseBodyLine(line, "plane"); err != nil {
		return in, err
	}
	praw, ok := fields["plane"]
	if !ok {
		return in, errAt("plane", "missing (required: an object with \"normal\" and \"offset\")")
	}
	pf, err := objectFields(praw, "plane", []string{"normal", "offset"})
	if err != nil {
		return in, err
	}
	var n geom.Vec3
	if err := numbers(pf, "normal", "plane", n[:], true); err != nil {
		return in, err
	}
	// (Normalised through the vector scaled by its largest component:
	// n.Len() under- and overflows for components beyond 1e±154, and 1/|n|
	// overflows for subnormal ones.)
	m := math.Max(math.Abs(n[0]), math.Max(math.Abs(n[1]), math.Abs(n[2])))
	if m == 0 {
		return in, errAt("plane.normal", "want a nonzero vector, got [0, 0, 0]")
	}
	u := geom.Vec3{n[0] / m, n[1] / m, n[2] / m}
	lu := u.Len() // in [1, √3]
	oraw, ok := pf["offset"]
	if !ok {
		return in, errAt("plane.offset", "missing (required: a number, the plane being normal·x = offset)")
	}
	off, err := number(oraw, "plane.offset")
	if err != nil {
		return in, err
	}
	o := off / m / lu
	if math.IsInf(o, 0) {
		return in, errAt("plane.offset", "number %s over the normal's length %s is out of range", formatFloat(off), formatFloat(m*lu))
	}
	if math.Abs(o) > geom.MaxLength {
		return in, errAt("plane.offset", "%s over the normal's length %s is %s: the plane must pass within ±%g of the origin", formatFloat(off), formatFloat(m*lu), formatFloat(o), geom.MaxLength)
	}
	in.plane = contact.Plane{Normal: u.Mul(1 / lu), Offset: o}
	return in, nil
}

// lineArgs are the flags of "sovviz point" and "sovviz plane".
type lineArgs struct {
	in     string
	timing int
}

func parseLineArgs(name, what string, args []string, stderr io.Writer) (lineArgs, error) {
	var la lineArgs
	fs := flag.NewFlagSet("sovviz "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&la.in, "in", "", "read queries from `FILE` instead of stdin")
	fs.IntVar(&la.timing, "timing", 0, "add \"time_ns\": the median of `R` repetitions of each query (parsing and printing excluded)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: sovviz %s [-in FILE] [-timing R]\n\n%s (docs/query.md, \"Point and plane distances\").\n\nflags:\n", name, what)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return la, err
	}
	if fs.NArg() > 0 {
		return la, fmt.Errorf("%s: unexpected argument %q (the input is stdin or -in FILE)", name, fs.Arg(0))
	}
	if la.timing < 0 || la.timing > maxTiming {
		return la, fmt.Errorf("%s: -timing %d: want 0 to %d repetitions", name, la.timing, maxTiming)
	}
	return la, nil
}

// maxTiming bounds -timing of "sovviz point" and "sovviz plane".
const maxTiming = 1000000

func runPoint(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runLines("point", "Answers each line {\"id\", \"body\", \"point\"} with the exact signed distance from the point to the body's surface", args, stdin, stdout, stderr, answerPointLine)
}

func runPlane(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runLines("plane", "Answers each line {\"id\", \"body\", \"plane\"} with the signed distance between the body and the plane", args, stdin, stdout, stderr, answerPlaneLine)
}

// runLines is the shared main of "sovviz point" and "sovviz plane".
func runLines(name, what string, args []string, stdin io.Reader, stdout, stderr io.Writer, answer lineAnswerer) int {
	la, err := parseLineArgs(name, what, args, stderr)
	if code := argsExit(err, stderr); code >= 0 {
		return code
	}
	src, srcName := stdin, "stdin"
	if la.in != "" {
		f, err := os.Open(la.in)
		if err != nil {
			fmt.Fprintf(stderr, "sovviz %s: %v\n", name, err)
			return 1
		}
		defer f.Close()
		src, srcName = f, la.in
	}
	bad, err := answerLines(src, stdout, la.timing, answer)
	if err != nil {
		fmt.Fprintf(stderr, "sovviz %s: %s: %v\n", name, srcName, err)
		return 1
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "sovviz %s: %d line(s) answered with status error or failed\n", name, bad)
		return 1
	}
	return 0
}

// lineWriter appends one output line's members in order.
type lineWriter struct {
	b   []byte
	sep bool
}

func (w *lineWriter) key(k string) {
	if w.sep {
		w.b = append(w.b, ", "...)
	} else {
		w.b = append(w.b, '{')
	}
	w.sep = true
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, `": `...)
}

func (w *lineWriter) id(id string, has bool) {
	if has {
		w.key("id")
		w.b = appendJSONString(w.b, id)
	}
}

func (w *lineWriter) end() []byte {
	if !w.sep {
		w.b = append(w.b, '{')
	}
	return append(w.b, "}\n"...)
}

// errorLine writes {"id", "status": "error", "error"}.
func errorLine(out []byte, id string, has bool, msg string) []byte {
	w := lineWriter{b: out}
	w.id(id, has)
	w.key("status")
	w.b = append(w.b, `"error"`...)
	w.key("error")
	w.b = appendJSONString(w.b, msg)
	return w.end()
}

// timed runs f len(times) times and returns the median time in ns.
func timed(times []int64, f func()) int64 {
	for k := range times {
		t0 := time.Now()
		f()
		times[k] = time.Since(t0).Nanoseconds()
	}
	return medianInt64(times)
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// answerPointLine answers {"id", "distance", "closest", "normal",
// "radial", "status"} (radial left out where it is not finite: a point
// beyond the plane where a taper's scaling vanishes).
func answerPointLine(out []byte, text []byte, tooLong bool, lineNo int, times []int64) ([]byte, bool) {
	if tooLong {
		return errorLine(out, "", false, fmt.Sprintf("line %d: longer than %d bytes", lineNo, maxQueryLine)), true
	}
	in, err := parsePointLine(text)
	if err != nil {
		return errorLine(out, in.id, in.hasID, fmt.Sprintf("line %d: %v", lineNo, err)), true
	}
	r := contact.PointDistance(&in.body, in.x)
	var ns int64
	if len(times) > 0 {
		ns = timed(times, func() { contact.PointDistance(&in.body, in.x) })
	}
	if r.Status == contact.Failed || !finite(r.Distance, r.Closest[0], r.Closest[1], r.Closest[2], r.Normal[0], r.Normal[1], r.Normal[2]) {
		return errorLine(out, in.id, in.hasID, fmt.Sprintf("line %d: no surface point found (status %v; please report this point)", lineNo, r.Status)), true
	}
	tr := in.body.Pose.Transform()
	rad, radOK := in.body.Shape.RadialDistance(tr.InvPoint(in.x))
	w := lineWriter{b: out}
	w.id(in.id, in.hasID)
	w.key("distance")
	w.b = appendFloat(w.b, r.Distance)
	w.key("closest")
	w.b = appendVec(w.b, r.Closest)
	w.key("normal")
	w.b = appendVec(w.b, r.Normal)
	if radOK && finite(rad) {
		w.key("radial")
		w.b = appendFloat(w.b, rad)
	}
	w.key("status")
	w.b = appendJSONString(w.b, r.Status.String())
	if len(times) > 0 {
		w.key("time_ns")
		w.b = strconv.AppendInt(w.b, ns, 10)
	}
	return w.end(), false
}

// answerPlaneLine answers {"id", "distance", "p", "q", "status"}.
func answerPlaneLine(out []byte, text []byte, tooLong bool, lineNo int, times []int64) ([]byte, bool) {
	if tooLong {
		return errorLine(out, "", false, fmt.Sprintf("line %d: longer than %d bytes", lineNo, maxQueryLine)), true
	}
	in, err := parsePlaneLine(text)
	if err != nil {
		return errorLine(out, in.id, in.hasID, fmt.Sprintf("line %d: %v", lineNo, err)), true
	}
	r := contact.PlaneDistance(&in.body, in.plane)
	var ns int64
	if len(times) > 0 {
		ns = timed(times, func() { contact.PlaneDistance(&in.body, in.plane) })
	}
	if r.Status == contact.Failed || !finite(r.Distance, r.P[0], r.P[1], r.P[2], r.Q[0], r.Q[1], r.Q[2]) {
		return errorLine(out, in.id, in.hasID, fmt.Sprintf("line %d: no support point found (status %v; please report this line)", lineNo, r.Status)), true
	}
	w := lineWriter{b: out}
	w.id(in.id, in.hasID)
	w.key("distance")
	w.b = appendFloat(w.b, r.Distance)
	w.key("p")
	w.b = appendVec(w.b, r.P)
	w.key("q")
	w.b = appendVec(w.b, r.Q)
	w.key("status")
	w.b = appendJSONString(w.b, r.Status.String())
	if len(times) > 0 {
		w.key("time_ns")
		w.b = strconv.AppendInt(w.b, ns, 10)
	}
	return w.end(), false
}
