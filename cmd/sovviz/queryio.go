package main

// The JSON Lines format of "sovviz query" (docs/query.md): a strict parser
// that names the offending field of every error, and a printer that writes
// the answer in a fixed key order with full-precision floats.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

// queryInput is one parsed, validated input line.
type queryInput struct {
	id    string
	hasID bool
	a, b  geom.Body
}

// fieldError is a parse or validation error at a JSON path ("a.shape.eps[1]").
type fieldError struct {
	path string
	msg  string
}

func (e *fieldError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

func errAt(path, format string, args ...any) error {
	return &fieldError{path: path, msg: fmt.Sprintf(format, args...)}
}

// parseQueryLine parses one non-empty input line. On error the returned input
// still carries the id when it could be read, so that the error line can echo
// it. A well-formed line takes the fast path (fastQueryLine), which returns
// what the strict parser would.
func parseQueryLine(line []byte) (queryInput, error) {
	if in, ok := fastQueryLine(line); ok {
		return in, nil
	}
	return parseQueryLineStrict(line)
}

// parseQueryLineStrict is parseQueryLine without the fast path: every line
// through encoding/json, every error named.
func parseQueryLineStrict(line []byte) (queryInput, error) {
	var in queryInput
	if !json.Valid(line) {
		// Still echo the id when the line begins with a readable object
		// (trailing garbage after it).
		in.id, in.hasID = probeID(line)
		return in, syntaxError(line)
	}
	fields, err := objectFields(line, "", []string{"id", "a", "b"})
	if err != nil {
		// Still echo the id when there is a readable one.
		in.id, in.hasID = probeID(line)
		return in, err
	}
	if raw, ok := fields["id"]; ok {
		if firstByte(raw) != '"' {
			return in, errAt("id", "want a string, got %s", kindOf(raw))
		}
		if err := json.Unmarshal(raw, &in.id); err != nil {
			return in, errAt("id", "%v", err)
		}
		in.hasID = true
	}
	for _, side := range []string{"a", "b"} {
		raw, ok := fields[side]
		if !ok {
			return in, errAt(side, "missing (required: an object with \"shape\" and optional \"pose\")")
		}
		body, err := parseObject(raw, side)
		if err != nil {
			return in, err
		}
		if side == "a" {
			in.a = body
		} else {
			in.b = body
		}
	}
	return in, nil
}

// syntaxError reports where line stops being JSON (columns count bytes from 1).
func syntaxError(line []byte) error {
	var v any
	err := json.Unmarshal(line, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &fieldError{msg: fmt.Sprintf("invalid JSON at column %d: %s", se.Offset, se.Error())}
	}
	if err != nil {
		return &fieldError{msg: "invalid JSON: " + err.Error()}
	}
	return &fieldError{msg: "invalid JSON"}
}

// parseObject reads {"shape": ..., "pose": ...} at path and validates it.
func parseObject(raw json.RawMessage, path string) (geom.Body, error) {
	var b geom.Body
	b.Pose = geom.Identity()
	fields, err := objectFields(raw, path, []string{"shape", "pose"})
	if err != nil {
		return b, err
	}
	sraw, ok := fields["shape"]
	if !ok {
		return b, errAt(path+".shape", "missing (required)")
	}
	sf, err := objectFields(sraw, path+".shape", []string{"a", "eps", "taper"})
	if err != nil {
		return b, err
	}
	sp := path + ".shape"
	if err := numbers(sf, "a", sp, b.Shape.A[:], true); err != nil {
		return b, err
	}
	if err := numbers(sf, "eps", sp, b.Shape.Eps[:], true); err != nil {
		return b, err
	}
	if err := numbers(sf, "taper", sp, b.Shape.Taper[:], false); err != nil {
		return b, err
	}
	if err := b.Shape.Validate(); err != nil {
		return b, prefixParamError(sp, err)
	}
	if praw, ok := fields["pose"]; ok {
		pp := path + ".pose"
		pf, err := objectFields(praw, pp, []string{"position", "orientation"})
		if err != nil {
			return b, err
		}
		if err := numbers(pf, "position", pp, b.Pose.Position[:], false); err != nil {
			return b, err
		}
		var q [4]float64
		q[0] = 1
		if err := numbers(pf, "orientation", pp, q[:], false); err != nil {
			return b, err
		}
		b.Pose.Orientation = geom.Quat{W: q[0], V: geom.Vec3{q[1], q[2], q[3]}}
		if err := b.Pose.Validate(); err != nil {
			return b, prefixParamError(pp, err)
		}
		// Validate allowed |q| within 1e-3 of 1: remove the rounding.
		b.Pose = b.Pose.Normalized()
	}
	return b, nil
}

// prefixParamError puts the JSON path in front of a geom validation error.
func prefixParamError(path string, err error) error {
	var pe *geom.ParamError
	if errors.As(err, &pe) {
		return &fieldError{msg: fmt.Sprintf("%s.%s = %s: %s", path, pe.Field, formatFloat(pe.Value), pe.Reason)}
	}
	return errAt(path, "%v", err)
}

// objectFields splits a JSON object (already known to be valid JSON) into
// its members, rejecting non-objects, unknown keys and repeated keys.
func objectFields(raw []byte, path string, known []string) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errAt(pathOr(path), "want an object, got %s", kindOf(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // '{'
		return nil, errAt(pathOr(path), "%v", err)
	}
	out := make(map[string]json.RawMessage, len(known))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errAt(pathOr(path), "%v", err)
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, errAt(join(path, key), "%v", err)
		}
		isKnown := false
		for _, k := range known {
			isKnown = isKnown || k == key
		}
		if !isKnown {
			return nil, errAt(join(path, key), "unknown field (want %s)", quotedList(known))
		}
		if _, dup := out[key]; dup {
			return nil, errAt(join(path, key), "field given twice")
		}
		out[key] = val
	}
	return out, nil
}

// numbers reads fields[key] as an array of exactly len(dst) finite numbers
// into dst. A missing optional key leaves dst unchanged.
func numbers(fields map[string]json.RawMessage, key, path string, dst []float64, required bool) error {
	p := join(path, key)
	raw, ok := fields[key]
	if !ok {
		if required {
			return errAt(p, "missing (required: %d numbers)", len(dst))
		}
		return nil
	}
	if firstByte(raw) != '[' {
		return errAt(p, "want an array of %d numbers, got %s", len(dst), kindOf(raw))
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return errAt(p, "%v", err)
	}
	if len(elems) != len(dst) {
		return errAt(p, "want %d numbers, got %d", len(dst), len(elems))
	}
	for i, e := range elems {
		v, err := number(e, fmt.Sprintf("%s[%d]", p, i))
		if err != nil {
			return err
		}
		dst[i] = v
	}
	return nil
}

// number reads one JSON value at path as a finite number.
func number(e json.RawMessage, path string) (float64, error) {
	e = bytes.TrimSpace(e)
	if c := firstByte(e); c != '-' && (c < '0' || c > '9') {
		return 0, errAt(path, "want a number, got %s", kindOf(e))
	}
	v, err := strconv.ParseFloat(string(e), 64)
	if err != nil || math.IsInf(v, 0) || (v == 0 && nonzeroMantissa(e)) {
		// (ParseFloat rounds a literal below the smallest float64 to 0
		// without an error: reported as the 0 the user never wrote, it
		// read "semi-axis must be > 0".)
		return 0, errAt(path, "number %s is out of range", e)
	}
	return v, nil
}

// nonzeroMantissa reports whether a JSON number literal has a nonzero digit
// before its exponent, so that it is not 0 however ParseFloat rounds it.
func nonzeroMantissa(lit []byte) bool {
	for _, c := range lit {
		if c == 'e' || c == 'E' {
			return false
		}
		if c >= '1' && c <= '9' {
			return true
		}
	}
	return false
}

// firstByte is the first non-space byte of raw, or 0.
func firstByte(raw []byte) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// kindOf names the JSON type of a raw value for error messages.
func kindOf(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch c := raw[0]; {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		s := string(raw)
		if len(s) > 40 {
			s = s[:37] + `..."`
		}
		return "string " + s
	case c == 't' || c == 'f':
		return "boolean " + string(raw)
	case c == 'n':
		return "null"
	default:
		return "number " + string(raw)
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func pathOr(path string) string {
	if path == "" {
		return "line"
	}
	return path
}

func quotedList(ks []string) string {
	var b []byte
	for i, k := range ks {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendQuote(b, k)
	}
	return string(b)
}

// formatFloat prints x with the shortest representation that reads back
// exactly (strconv 'g', precision -1).
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// appendJSONString appends s as a JSON string literal: quotes, backslashes
// and control characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

func appendFloat(b []byte, x float64) []byte { return strconv.AppendFloat(b, x, 'g', -1, 64) }

func appendVec(b []byte, v geom.Vec3) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendFloat(b, x)
	}
	return append(b, ']')
}

// queryAnswer is what one output line reports.
type queryAnswer struct {
	id      string
	hasID   bool
	res     *contact.Result // nil for an error line
	err     string
	timeNS  int64
	timed   bool
	warning string
}

// statusName is the "status" of a result line.
func statusName(r *contact.Result) string { return r.Status.String() }

// appendAnswer appends one output line (with its newline) in the fixed key
// order of docs/query.md.
func appendAnswer(b []byte, a *queryAnswer) []byte {
	b = append(b, '{')
	sep := false
	key := func(k string) {
		if sep {
			b = append(b, ", "...)
		}
		sep = true
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, `": `...)
	}
	if a.hasID {
		key("id")
		b = appendJSONString(b, a.id)
	}
	if a.res == nil {
		key("status")
		b = append(b, `"error"`...)
		key("error")
		b = appendJSONString(b, a.err)
		return append(b, "}\n"...)
	}
	r := a.res
	key("distance")
	b = appendFloat(b, r.Distance)
	key("p")
	b = appendVec(b, r.P)
	key("q")
	b = appendVec(b, r.Q)
	key("normal")
	b = appendVec(b, r.Normal)
	key("status")
	b = appendJSONString(b, statusName(r))
	key("iterations")
	b = strconv.AppendInt(b, int64(r.Iterations), 10)
	if a.timed {
		key("time_ns")
		b = strconv.AppendInt(b, a.timeNS, 10)
	}
	if a.warning != "" {
		key("warning")
		b = appendJSONString(b, a.warning)
	}
	return append(b, "}\n"...)
}

// finiteResult reports whether every number printed from r is finite (JSON
// has no NaN or Inf; the solver promises none, this guards the format).
func finiteResult(r *contact.Result) bool {
	ok := !math.IsNaN(r.Distance) && !math.IsInf(r.Distance, 0)
	for _, v := range [3]geom.Vec3{r.P, r.Q, r.Normal} {
		for _, x := range v {
			ok = ok && !math.IsNaN(x) && !math.IsInf(x, 0)
		}
	}
	return ok
}

// nonConvexWarning says which shapes of a pair are not convex, why, how far
// from convex, and whether the answer could still be proven global (the
// support-plane certificate of docs/contact.md); "" for a convex pair.
func nonConvexWarning(r *contact.Result, a, b *geom.Superovoid) string {
	if r.NonConvex == 0 {
		return ""
	}
	var parts []string
	if r.NonConvex&1 != 0 {
		parts = append(parts, "a "+convexityReason(a, r.ReasonA, r.HullGapA))
	}
	if r.NonConvex&2 != 0 {
		parts = append(parts, "b "+convexityReason(b, r.ReasonB, r.HullGapB))
	}
	msg := strings.Join(parts, "; ")
	switch {
	case r.Certified:
		return msg + "; still certified: the distance equals the gap between the exact support planes along the normal, " +
			"so no pair of the bodies is closer"
	case r.Distance == 0 && r.Status == contact.Converged:
		return msg + "; not certified: the exact support planes along the normal and the witness points pin the distance " +
			"to within 1e-9 of the bodies' size (touching), but not whether the bodies overlap or stay apart by less than that"
	case r.Distance > 0:
		return msg + "; not certified: the common-normal conditions cannot prove a pair on a non-convex body global, and " +
			"the closest pair lies where the convex hull bridges over the body; this is the best pair found from several starts"
	case r.StillOverlapping > 0:
		return msg + fmt.Sprintf("; not certified, and too shallow: moved out along the normal by the answered depth, "+
			"b still overlaps a by %.3g, and no deeper pair found from there separates the bodies; the translation "+
			"distance is larger than answered", r.StillOverlapping)
	default:
		return msg + "; not certified: on a non-convex body neither the common-normal conditions nor the expanding " +
			"polytope (which bounds the convex hulls' translation distance) can prove the translation distance minimal; " +
			"this is the best pair found from several starts"
	}
}

// convexityReason explains why s is not convex: geom's reason (as the solver
// reported it), the shape numbers it depends on, and the largest gap
// between the body and its convex hull when measured.
func convexityReason(s *geom.Superovoid, reason string, hullGap float64) string {
	why := fmt.Sprintf("is not convex: %s (tapers tx = %s, ty = %s, e2 = %s)", reason,
		formatFloat(s.Taper[0]), formatFloat(s.Taper[1]), formatFloat(s.Eps[1]))
	if hullGap > 0 {
		why += fmt.Sprintf(", up to %.3g from its convex hull", hullGap)
	}
	return why
}
