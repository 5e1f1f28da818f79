// Package drawlist turns one frame of the visualizer — objects, their
// meshes, the contact results and the overlay switches — into a flat list of
// things to draw: meshes, lines, points and labels, in world coordinates and
// float64. It has no OpenGL (MuJoCo's mjv/mjr split): the GL renderer only
// uploads and draws a DrawList, and the window, "sovviz render" and the tests
// all share the same list, so tests can check what would be drawn, and where
// it lands on screen, without a GPU.
package drawlist

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/tessellate"
)

// Color is a linear RGBA colour with components in [0, 1].
type Color [4]float32

// WithAlpha returns c with alpha a.
func (c Color) WithAlpha(a float32) Color { c[3] = a; return c }

// RGB8 returns the colour as 8-bit sRGB-encoded components as they appear in
// a PNG written by the renderer (the renderer does no colour management, so
// this is a plain scaling).
func (c Color) RGB8() [3]uint8 {
	var o [3]uint8
	for i := range 3 {
		v := c[i]
		v = max(0, min(1, v))
		o[i] = uint8(v*255 + 0.5)
	}
	return o
}

// Mesh is a triangle mesh in the local frame of its object, with exact
// per-vertex unit normals. Version must change whenever the contents change:
// the GL renderer keys its uploaded buffers on (pointer, Version).
type Mesh struct {
	Positions []geom.Vec3
	Normals   []geom.Vec3
	Indices   []uint32 // three per triangle
	Version   uint64
}

// MeshItem is one object's mesh placed in the world.
type MeshItem struct {
	Mesh      *Mesh
	Model     mgl64.Mat4 // local-to-world
	Color     Color      // alpha < 1 draws it transparent, sorted back to front
	Wireframe bool       // edges on top of the shading
	Selected  bool       // drawn with a highlighted outline
	NonConvex bool       // marked in the viewport: its distances are not certified
	Object    int        // index of the object, for picking
	Depth     float64    // eye depth of the object's centre (for sorting)
}

// Line is a segment drawn with a width in pixels.
type Line struct {
	A, B  geom.Vec3
	Color Color
	Width float32
	// OnTop draws the line over the surfaces (no depth test), so that
	// overlays inside overlapping bodies stay visible.
	OnTop bool
}

// Point is a round dot with a diameter in pixels.
type Point struct {
	P     geom.Vec3
	Color Color
	Size  float32
	OnTop bool
}

// Label is a text anchored at a world point; its characters live in the
// list's text arena so that building labels allocates nothing.
type Label struct {
	P          geom.Vec3
	Color      Color
	start, end int
}

// DrawList is everything to draw in one frame. Its slices are reused from
// frame to frame (Reset keeps their capacity).
type DrawList struct {
	Meshes []MeshItem
	Lines  []Line
	Points []Point
	Labels []Label
	text   []byte
	curve  []geom.Vec3 // scratch for AddCellCurve
}

// Reset empties the list, keeping its storage.
func (d *DrawList) Reset() {
	d.Meshes = d.Meshes[:0]
	d.Lines = d.Lines[:0]
	d.Points = d.Points[:0]
	d.Labels = d.Labels[:0]
	d.text = d.text[:0]
}

// AddLine appends a segment.
func (d *DrawList) AddLine(a, b geom.Vec3, c Color, width float32, onTop bool) {
	d.Lines = append(d.Lines, Line{A: a, B: b, Color: c, Width: width, OnTop: onTop})
}

// AddPoint appends a dot.
func (d *DrawList) AddPoint(p geom.Vec3, c Color, size float32, onTop bool) {
	d.Points = append(d.Points, Point{P: p, Color: c, Size: size, OnTop: onTop})
}

// BeginLabel starts a label at p; append its text with the returned buffer
// and finish with EndLabel. This lets callers use strconv.Append* without
// allocating:
//
//	buf := d.BeginLabel()
//	buf = strconv.AppendFloat(buf, x, 'g', 4, 64)
//	d.EndLabel(buf, p, color)
func (d *DrawList) BeginLabel() []byte { return d.text }

// EndLabel records the label whose text was appended to the buffer returned
// by BeginLabel.
func (d *DrawList) EndLabel(buf []byte, p geom.Vec3, c Color) {
	start := len(d.text)
	d.text = buf
	d.Labels = append(d.Labels, Label{P: p, Color: c, start: start, end: len(buf)})
}

// AddLabel appends a label with a fixed text.
func (d *DrawList) AddLabel(p geom.Vec3, text string, c Color) {
	buf := d.BeginLabel()
	buf = append(buf, text...)
	d.EndLabel(buf, p, c)
}

// Text returns the text of label i. The string aliases the list's arena and
// is valid until the next Reset.
func (d *DrawList) Text(i int) string {
	l := d.Labels[i]
	if l.end == l.start {
		return ""
	}
	return unsafe.String(&d.text[l.start], l.end-l.start)
}

// AddBox appends the 12 edges of a box given in a local frame (the edges
// from package tessellate, which draws geom's octree cells).
func (d *DrawList) AddBox(box geom.AABB, t *geom.Transform, c Color, width float32, onTop bool) {
	for _, e := range tessellate.BoxEdges(box) {
		d.AddLine(t.Point(e[0]), t.Point(e[1]), c, width, onTop)
	}
}

// AddCellCurve appends the outline of a parameter-space cell drawn on the
// body's surface (tessellate.AppendCellCurve, n samples per cell edge) as a
// closed polyline.
func (d *DrawList) AddCellCurve(b *geom.Body, cell geom.ParamCell, n int, c Color, width float32, onTop bool) {
	d.curve = tessellate.AppendCellCurve(d.curve[:0], &b.Shape, cell, n)
	t := b.Pose.Transform()
	for i := range d.curve {
		j := (i + 1) % len(d.curve)
		d.AddLine(t.Point(d.curve[i]), t.Point(d.curve[j]), c, width, onTop)
	}
}

// ModelMatrix returns the local-to-world matrix of a pose.
func ModelMatrix(p geom.Pose) mgl64.Mat4 {
	r := p.Rotation()
	t := p.Position
	return mgl64.Mat4{
		r[0], r[1], r[2], 0,
		r[3], r[4], r[5], 0,
		r[6], r[7], r[8], 0,
		t[0], t[1], t[2], 1,
	}
}
