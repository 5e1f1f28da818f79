package scene

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// node is one JSON value with its object keys kept in file order, so that
// the loader can name every field by its path, report unknown and
// duplicate keys, and quote values as they were written. encoding/json's
// struct decoding can do none of that.
type node struct {
	kind  byte   // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	str   string // string value, or the number literal
	b     bool
	keys  []string // object keys, file order
	vals  []*node  // object values (parallel to keys) or array elements
	dupAt int      // index of the first duplicate key, -1 if none
}

// maxDepth bounds nesting: scene files are at most ~5 deep, and the
// recursive walk must not be driven into a stack overflow by hostile input.
const maxDepth = 64

var errTooDeep = errors.New("nesting deeper than 64 levels")

// parseTree parses data, which must hold exactly one JSON value. Syntax
// errors are returned as *Error with line and column.
func parseTree(data []byte, file string) (*node, error) {
	// A first pass with the standard decoder gives precise syntax errors
	// (offset of the bad byte) and rejects trailing garbage.
	if err := checkSyntax(data); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := se.Offset - 1
			if off < 0 {
				off = 0
			}
			l, c := lineCol(data, off)
			return nil, &Error{File: file, Line: l, Col: c, Reason: "JSON syntax error: " + strings.TrimPrefix(se.Error(), "json: "), Err: err}
		}
		var te *trailingError
		if errors.As(err, &te) {
			l, c := lineCol(data, te.off)
			return nil, &Error{File: file, Line: l, Col: c, Reason: "JSON syntax error: " + te.Error()}
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			l, c := lineCol(data, int64(len(data)))
			return nil, &Error{File: file, Line: l, Col: c, Reason: "JSON syntax error: unexpected end of file", Err: err}
		}
		return nil, &Error{File: file, Reason: "JSON syntax error: " + err.Error(), Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readNode(dec, 0)
	if err != nil {
		if errors.Is(err, errTooDeep) {
			return nil, &Error{File: file, Reason: err.Error()}
		}
		return nil, &Error{File: file, Reason: "JSON syntax error: " + err.Error(), Err: err}
	}
	return n, nil
}

// trailingError is data after the top-level value, at byte offset off.
type trailingError struct{ off int64 }

func (e *trailingError) Error() string { return "unexpected data after the top-level value" }

func checkSyntax(data []byte) error {
	if !utf8.Valid(data) {
		return errors.New("file is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return err
	}
	// Anything but whitespace after the value is an error.
	var extra json.RawMessage
	if err := dec.Decode(&extra); err != io.EOF {
		if err == nil {
			return &trailingError{dec.InputOffset() - int64(len(extra))}
		}
		return err
	}
	return nil
}

func readNode(dec *json.Decoder, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, errTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{kind: 'o', dupAt: -1}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				v, err := readNode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				if n.dupAt < 0 {
					for _, old := range n.keys {
						if old == k {
							n.dupAt = len(n.keys)
							break
						}
					}
				}
				n.keys = append(n.keys, k)
				n.vals = append(n.vals, v)
			}
			if _, err := dec.Token(); err != nil { // '}'
				return nil, err
			}
			return n, nil
		case '[':
			n := &node{kind: 'a', dupAt: -1}
			for dec.More() {
				v, err := readNode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.vals = append(n.vals, v)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return nil, err
			}
			return n, nil
		}
		return nil, errors.New("unexpected " + t.String())
	case string:
		return &node{kind: 's', str: t}, nil
	case json.Number:
		return &node{kind: 'n', str: string(t)}, nil
	case bool:
		return &node{kind: 'b', b: t}, nil
	case nil:
		return &node{kind: 'z'}, nil
	}
	return nil, errors.New("unexpected token")
}

// compact renders n as compact JSON for error messages, shortened to about
// 60 bytes.
func (n *node) compact() string {
	var b strings.Builder
	n.write(&b)
	s := b.String()
	if len(s) > 60 {
		cut := 57
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

func (n *node) write(b *strings.Builder) {
	if b.Len() > 80 {
		return
	}
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(k))
			b.WriteString(": ")
			n.vals[i].write(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, v := range n.vals {
			if i > 0 {
				b.WriteString(", ")
			}
			v.write(b)
		}
		b.WriteByte(']')
	case 's':
		b.WriteString(strconv.Quote(n.str))
	case 'n':
		b.WriteString(n.str)
	case 'b':
		b.WriteString(strconv.FormatBool(n.b))
	case 'z':
		b.WriteString("null")
	}
}

func (n *node) kindName() string {
	switch n.kind {
	case 'o':
		return "an object"
	case 'a':
		return "an array"
	case 's':
		return "a string"
	case 'n':
		return "a number"
	case 'b':
		return "a boolean"
	}
	return "null"
}

func utf8Start(c byte) bool { return c&0xC0 != 0x80 }
