package main

import (
	"math"
	"slices"
	"strconv"

	"github.com/sovviz/sovviz/geom"
)

// fastQueryLine parses the common case of an input line, a well-formed
// query in plain ASCII, without encoding/json: on sovviz query's input,
// reflection-based decoding took about 90 µs a line, over ten times the
// query itself. It accepts only a subset of what parseQueryLineStrict
// accepts, and then returns what that returns (TestFastQueryLineAgrees,
// FuzzFastQueryLine); on anything else (an escape or a non-ASCII byte in a
// string, an unknown or repeated key, a missing field, a bad number, an
// invalid shape or pose, trailing bytes) ok is false and the strict parser
// decides, with its error messages.
func fastQueryLine(line []byte) (in queryInput, ok bool) {
	p := fastParser{s: line}
	seen, ok := p.object(lineKeys, func(k int) bool {
		switch k {
		case 0:
			in.id, in.hasID = p.str()
			return in.hasID
		case 1:
			return p.body(&in.a)
		}
		return p.body(&in.b)
	})
	p.space()
	if !ok || p.i != len(p.s) || seen&0b110 != 0b110 { // a and b required
		return queryInput{}, false
	}
	return in, true
}

// The keys of each object of the format, in the bit order of object's seen.
var (
	lineKeys  = []string{"id", "a", "b"}
	bodyKeys  = []string{"shape", "pose"}
	shapeKeys = []string{"a", "eps", "taper"}
	poseKeys  = []string{"position", "orientation"}
)

// fastParser reads JSON from s at i.
type fastParser struct {
	s []byte
	i int
}

func (p *fastParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// eat skips space and then c, reporting whether c was there.
func (p *fastParser) eat(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes.
func (p *fastParser) str() (string, bool) {
	if !p.eat('"') {
		return "", false
	}
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(p.s[start : p.i-1]), true
		case c == '\\' || c < 0x20 || c >= 0x7f:
			return "", false
		}
		p.i++
	}
	return "", false
}

// object reads {"key": value, ...} whose keys are among keys, each at most
// once, handing each key's index to member, which must read its value. seen
// has bit k set for each keys[k] met. An empty object is refused (every
// object of the format has a required member).
func (p *fastParser) object(keys []string, member func(k int) bool) (seen uint8, ok bool) {
	if !p.eat('{') {
		return 0, false
	}
	for {
		key, ok := p.str()
		if !ok || !p.eat(':') {
			return 0, false
		}
		k := slices.Index(keys, key)
		if k < 0 || seen&(1<<k) != 0 || !member(k) {
			return 0, false
		}
		seen |= 1 << k
		if p.eat('}') {
			return seen, true
		}
		if !p.eat(',') {
			return 0, false
		}
	}
}

// body reads {"shape": {...}, "pose": {...}} into b, and validates it as
// parseObject does.
func (p *fastParser) body(b *geom.Body) bool {
	b.Pose = geom.Identity()
	seen, ok := p.object(bodyKeys, func(k int) bool {
		if k == 0 {
			return p.shape(&b.Shape)
		}
		return p.pose(&b.Pose)
	})
	if !ok || seen&1 == 0 || b.Shape.Validate() != nil { // shape required
		return false
	}
	if seen&2 != 0 {
		if b.Pose.Validate() != nil {
			return false
		}
		b.Pose = b.Pose.Normalized() // as parseObject does
	}
	return true
}

func (p *fastParser) shape(s *geom.Superovoid) bool {
	seen, ok := p.object(shapeKeys, func(k int) bool {
		return p.numbers([][]float64{s.A[:], s.Eps[:], s.Taper[:]}[k])
	})
	return ok && seen&0b011 == 0b011 // a and eps required
}

func (p *fastParser) pose(ps *geom.Pose) bool {
	_, ok := p.object(poseKeys, func(k int) bool {
		if k == 0 {
			return p.numbers(ps.Position[:])
		}
		var q [4]float64
		if !p.numbers(q[:]) {
			return false
		}
		ps.Orientation = geom.Quat{W: q[0], V: geom.Vec3{q[1], q[2], q[3]}}
		return true
	})
	return ok
}

// numbers reads an array of exactly len(dst) finite numbers.
func (p *fastParser) numbers(dst []float64) bool {
	if !p.eat('[') {
		return false
	}
	for k := range dst {
		if k > 0 && !p.eat(',') {
			return false
		}
		v, ok := p.number()
		if !ok {
			return false
		}
		dst[k] = v
	}
	return p.eat(']')
}

// number reads one JSON number (its exact grammar) with strconv.ParseFloat,
// as the strict parser does; infinities and nonzero literals that round to
// 0 (out of range) are refused.
func (p *fastParser) number() (float64, bool) {
	p.space()
	s, i := p.s, p.i
	start := i
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return 0, false
	}
	if i < len(s) && s[i] == '.' {
		if i = digits(s, i+1); s[i-1] == '.' {
			return 0, false // no digit after the point
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		if i = digits(s, i); i == d {
			return 0, false // no digit in the exponent
		}
	}
	v, err := strconv.ParseFloat(string(s[start:i]), 64)
	if err != nil || math.IsInf(v, 0) || (v == 0 && nonzeroMantissa(s[start:i])) {
		return 0, false // (the strict parser words the error)
	}
	p.i = i
	return v, true
}

// digits returns the index after the run of decimal digits at s[i:].
func digits(s []byte, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
