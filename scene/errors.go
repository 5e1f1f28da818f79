package scene

import (
	"strconv"
	"strings"
)

// Error is a problem with a scene file. Its message names the file, the
// JSON path of the field, the offending value as written and the reason:
//
//	scenes/hand.json: objects[3].shape.eps[1] = 2.5: squareness must be in [0.05, 1.95]
//
// Syntax errors carry the line and column instead of a path:
//
//	scenes/hand.json:12:7: invalid character '}' looking for beginning of value
type Error struct {
	File      string // file name as given to Load or Parse
	Line, Col int    // 1-based position of a syntax error, 0 otherwise
	Path      string // JSON path such as "objects[3].shape.eps[1]"; "" for the whole file
	Value     string // the offending value, compact JSON; "" when there is none
	Reason    string
	Err       error // underlying cause (*geom.ParamError, *os.PathError, ...), may be nil
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Line))
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Col))
		}
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		if e.Value != "" {
			b.WriteString(" = ")
			b.WriteString(e.Value)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// lineCol converts a byte offset into a 1-based line and column (columns
// count bytes, as compilers do).
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	line, col = 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
