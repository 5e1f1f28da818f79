package ui

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"
	"unsafe"

	imgui "github.com/AllenDang/cimgui-go/imgui"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/render/drawlist"
	"github.com/sovviz/sovviz/scene"
	"github.com/sovviz/sovviz/tessellate"
)

// The "Shape pads" window (thesis §4.3, the superellipsoid parameter
// widget): two square pads, squareness (e1 across, e2 up) and taper (tx
// across, ty up), each with a lattice of small shaded previews of the
// selected object at the lattice's parameter values, turned as the object
// appears on screen, and a red cursor — itself a live preview — at the
// object's current values. Pressing anywhere on a pad moves the cursor
// there and dragging edits the object live: App.Update re-meshes it and
// recomputes its contacts every frame. A drag is one undo step.
//
// The previews are drawn by the CPU into ImGui's draw list: a coarse
// tessellate.Grid per icon, orthographic projection, back faces culled and
// the rest sorted back to front (the shapes may be non-convex), Gouraud
// shading of the exact vertex normals with the viewport's lighting. They
// are cached and rebuilt only when what they show changes.

// Layout and lattice constants.
const (
	padCells   = 5   // icons per row and per column of a pad
	iconAz     = 20  // azimuth cells of an icon's grid
	iconZe     = 10  // zenith cells of an icon's grid
	iconFill   = 0.9 // share of a lattice cell the largest icon spans
	padsWidth  = 300 // window width at first use
	padMarginL = 30  // room for the y tick labels
	padMarginB = 18  // room for the x tick labels
	padMinSide = 110
	padMaxSide = 420
	// snapSteps per unit: Ctrl snaps to 0.05.
	snapSteps = 20
	// cmapN is the side of the taper pad's convexity map; cmapBudget the
	// CPU time per frame spent filling it (one Convexity call is ~0.5 ms).
	cmapN      = 11
	cmapBudget = 2 * time.Millisecond
)

// padKind names a pad.
type padKind int

const (
	epsPad padKind = iota
	taperPad
	cursorIcon // the single preview of the current shape (the cursor)
	noPad      = -1
)

// padMap maps a square pad of pixels onto a square of parameter values,
// the first value growing to the right and the second upwards.
type padMap struct {
	X0, Y0, Size float64 // top-left corner and side of the pad in pixels
	Lo, Hi       float64 // parameter range of both axes across the pad
	Min, Max     float64 // valid range the cursor is clamped to
}

// padMapFor returns the mapping of a pad of kind k at (x0, y0) with side size.
func padMapFor(k padKind, x0, y0, size float64) padMap {
	if k == taperPad {
		return padMap{X0: x0, Y0: y0, Size: size, Lo: -geom.MaxTaper, Hi: geom.MaxTaper, Min: -geom.MaxTaper, Max: geom.MaxTaper}
	}
	// The thesis maps the open interval (0, 2); valid squareness stops
	// at [MinEps, MaxEps].
	return padMap{X0: x0, Y0: y0, Size: size, Lo: 0, Hi: 2, Min: geom.MinEps, Max: geom.MaxEps}
}

// Value returns the parameter values under pixel (px, py), not clamped.
func (m padMap) Value(px, py float64) [2]float64 {
	f := (m.Hi - m.Lo) / m.Size
	return [2]float64{m.Lo + (px-m.X0)*f, m.Lo + (m.Y0+m.Size-py)*f}
}

// Pixel returns the pixel of parameter values v.
func (m padMap) Pixel(v [2]float64) (x, y float64) {
	f := m.Size / (m.Hi - m.Lo)
	return m.X0 + (v[0]-m.Lo)*f, m.Y0 + m.Size - (v[1]-m.Lo)*f
}

// Clamp restricts v to the valid range, first rounding to multiples of
// 1/snapSteps when snap is set. NaN (a degenerate pad) becomes Min, so a
// written shape is never NaN.
func (m padMap) Clamp(v [2]float64, snap bool) [2]float64 {
	for i, x := range v {
		if snap {
			x = math.Round(x*snapSteps) / snapSteps
		}
		if math.IsNaN(x) {
			x = m.Min
		}
		v[i] = math.Max(m.Min, math.Min(m.Max, x))
	}
	return v
}

// lattice returns the parameter value of the centre of lattice cell i of a
// pad with range [lo, hi]: e1, e2 ∈ {0.2, 0.6, 1, 1.4, 1.8}, tapers ∈
// {−0.4, −0.2, 0, 0.2, 0.4}.
func lattice(lo, hi float64, i int) float64 {
	return lo + (hi-lo)*(float64(i)+0.5)/padCells
}

// iconKey is everything an icon set depends on. The parameters the
// lattice varies are zeroed in shape, so dragging on a pad does not
// rebuild that pad's own icons.
type iconKey struct {
	kind       padKind
	shape      geom.Superovoid
	rot        geom.Quat
	color      scene.Color
	yaw, pitch float64
}

// shapeAt returns the shape of icon k (row-major from the bottom-left).
func (k *iconKey) shapeAt(i int) geom.Superovoid {
	s := k.shape
	switch k.kind {
	case epsPad:
		s.Eps = [2]float64{lattice(0, 2, i%padCells), lattice(0, 2, i/padCells)}
	case taperPad:
		s.Taper = [2]float64{lattice(-geom.MaxTaper, geom.MaxTaper, i%padCells), lattice(-geom.MaxTaper, geom.MaxTaper, i/padCells)}
	}
	return s
}

func (k *iconKey) count() int {
	if k.kind == cursorIcon {
		return 1
	}
	return padCells * padCells
}

// iconTri is one shaded triangle of an icon, in icon units: x to the
// right, y down, origin at the shape's local origin, one unit = one unit of
// length of the shape (the draw call scales it).
type iconTri struct {
	P     [3][2]float64
	C     [3]uint32 // vertex colours, packed for ImGui (ABGR)
	Depth float64   // mean eye-space depth of the corners, larger = nearer
}

// iconSet is a cached set of icons (a pad's lattice or the cursor).
type iconSet struct {
	key   iconKey
	valid bool
	tris  []iconTri
	start []int // icon i is tris[start[i]:start[i+1]]
	// extent is the largest |x| or |y| of any icon vertex: the draw call
	// scales the set by one factor so that sizes compare across the pad.
	extent float64
	builds int // rebuild count (tests)
	// scratch
	proj []geom.Vec3
	cols []uint32
}

// icon returns the triangles of icon i, back to front.
func (s *iconSet) icon(i int) []iconTri { return s.tris[s.start[i]:s.start[i+1]] }

// update rebuilds the set when key differs from the one it was built for.
// It reports whether it rebuilt.
func (s *iconSet) update(g *tessellate.Grid, key iconKey) bool {
	if s.valid && s.key == key {
		return false
	}
	s.key, s.valid = key, true
	s.builds++
	s.tris = s.tris[:0]
	s.start = append(s.start[:0], 0)
	s.extent = 0
	// The eye frame expressed in the shape's local frame: a local vector v
	// appears at (v·rl, v·ul) on screen, v·bl towards the viewer.
	// The eye basis depends on the camera's angles only (orthographic
	// icons ignore distance, target and projection).
	cam := drawlist.Camera{Yaw: key.yaw, Pitch: key.pitch}
	right, up, back := cam.Basis()
	R := geom.Pose{Orientation: key.rot}.Normalized().Rotation()
	rl, ul, bl := geom.MulMtV(&R, right), geom.MulMtV(&R, up), geom.MulMtV(&R, back)
	zl := geom.MulMtV(&R, geom.Vec3{0, 0, 1})
	for i := 0; i < key.count(); i++ {
		m, err := g.Build(key.shapeAt(i), iconAz, iconZe)
		if err == nil {
			s.add(m, rl, ul, bl, zl, key.color)
		}
		s.start = append(s.start, len(s.tris))
	}
	return true
}

// Key light of the viewport's shader (render.Draw), in eye coordinates
// (right, up, back), normalised.
var iconKeyLight = geom.Vec3{-0.4, 0.5, 0.8}.Mul(1 / math.Sqrt(0.16+0.25+0.64))

// add projects one icon mesh, shades its vertices and appends its front
// faces sorted back to front.
func (s *iconSet) add(m *tessellate.Mesh, rl, ul, bl, zl geom.Vec3, c scene.Color) {
	s.proj, s.cols = s.proj[:0], s.cols[:0]
	for k, p := range m.Positions {
		q := geom.Vec3{p.Dot(rl), -p.Dot(ul), p.Dot(bl)}
		s.proj = append(s.proj, q)
		s.extent = math.Max(s.extent, math.Max(math.Abs(q[0]), math.Abs(q[1])))
		n := m.Normals[k]
		ne := geom.Vec3{n.Dot(rl), n.Dot(ul), n.Dot(bl)}
		s.cols = append(s.cols, shade(c, ne, n.Dot(zl)))
	}
	first := len(s.tris)
	for t := 0; t+2 < len(m.Indices); t += 3 {
		i0, i1, i2 := m.Indices[t], m.Indices[t+1], m.Indices[t+2]
		a, b, d := s.proj[i0], s.proj[i1], s.proj[i2]
		// Counter-clockwise from outside; y points down here, so a front
		// face has a negative signed area. Back faces of a closed surface
		// are always hidden behind front faces: drop them.
		if (b[0]-a[0])*(d[1]-a[1])-(b[1]-a[1])*(d[0]-a[0]) >= 0 {
			continue
		}
		s.tris = append(s.tris, iconTri{
			P:     [3][2]float64{{a[0], a[1]}, {b[0], b[1]}, {d[0], d[1]}},
			C:     [3]uint32{s.cols[i0], s.cols[i1], s.cols[i2]},
			Depth: (a[2] + b[2] + d[2]) / 3,
		})
	}
	// Non-convex shapes can overlap themselves: painter's order.
	slices.SortFunc(s.tris[first:], func(x, y iconTri) int { return cmp.Compare(x.Depth, y.Depth) })
}

// shade is the viewport's lighting (mesh.frag without the specular term):
// sky/ground ambient from the world z of the normal, a key light from the
// upper left and a headlight. ne is the unit normal in eye coordinates.
func shade(c scene.Color, ne geom.Vec3, worldZ float64) uint32 {
	hemi := 0.5 + 0.5*worldZ
	diff := math.Max(0, ne.Dot(iconKeyLight))
	head := math.Max(0, ne[2])
	var o [3]float64
	for i, lo := range [3]float64{0.18, 0.17, 0.16} {
		hi := [3]float64{0.32, 0.34, 0.38}[i]
		amb := lo + (hi-lo)*hemi
		o[i] = c[i] * (amb + 0.55*diff + 0.35*head)
	}
	return packColor(o[0], o[1], o[2], 1)
}

// packColor packs linear RGBA in [0, 1] the way ImGui's IM_COL32 does.
// Out-of-range values are clamped and NaN reads as 0.
func packColor(r, g, b, a float64) uint32 {
	ch := func(v float64) uint32 {
		if !(v > 0) {
			return 0
		}
		if v >= 1 {
			return 255
		}
		return uint32(v*255 + 0.5)
	}
	return ch(a)<<24 | ch(b)<<16 | ch(g)<<8 | ch(r)
}

// convexMap classifies the taper pad: cell (i, j) holds the convexity of
// the current shape with tapers at the cell's centre. It is recomputed when
// the semi-axes or the squareness change, a few cells per frame.
type convexMap struct {
	a     [3]float64
	eps   [2]float64
	valid bool
	next  int // cells below next are up to date
	// gap of each cell relative to the largest semi-axis; 0 convex, −1
	// not computed yet.
	gap [cmapN * cmapN]float64
}

// cmapTaper returns the taper at the centre of map cell i.
func cmapTaper(i int) float64 {
	return -geom.MaxTaper + 2*geom.MaxTaper*(float64(i)+0.5)/cmapN
}

// update restarts the map when the shape's semi-axes or squareness
// changed and classifies cells for at most budget (at least one cell).
// Stale cells stay shown until their turn. It reports whether the map is
// complete.
func (c *convexMap) update(s geom.Superovoid, budget time.Duration) bool {
	if !c.valid {
		for i := range c.gap {
			c.gap[i] = -1
		}
	}
	if !c.valid || c.a != s.A || c.eps != s.Eps {
		c.a, c.eps, c.valid, c.next = s.A, s.Eps, true, 0
	}
	if c.next >= len(c.gap) {
		return true
	}
	t0 := time.Now()
	amax := math.Max(s.A[0], math.Max(s.A[1], s.A[2]))
	for c.next < len(c.gap) {
		q := s
		q.Taper = [2]float64{cmapTaper(c.next % cmapN), cmapTaper(c.next / cmapN)}
		r := q.Convexity()
		g := 0.0
		if !r.Convex {
			g = r.HullGap / amax
		}
		c.gap[c.next] = g
		c.next++
		if time.Since(t0) >= budget {
			break
		}
	}
	return c.next >= len(c.gap)
}

// convexLine is the line under the pads: the selected shape's convexity
// report (from App.Convexity, which caches it per object) and its text,
// formatted once per shape.
type convexLine struct {
	shape  geom.Superovoid
	valid  bool
	report geom.ConvexityReport
	text   string
}

func (l *convexLine) update(s geom.Superovoid, rep geom.ConvexityReport) {
	if l.valid && l.shape == s {
		return
	}
	l.shape, l.valid, l.report = s, true, rep
	if rep.Convex {
		l.text = rep.Reason
	} else {
		l.text = fmt.Sprintf("non-convex: hull gap %.2g (%s)", rep.HullGap, rep.Reason)
	}
}

// valueText caches a formatted pair of values.
type valueText struct {
	v     [2]float64
	names [2]string
	s     string
}

func (t *valueText) get(n0, n1 string, v [2]float64) string {
	if t.s == "" || t.v != v || t.names != [2]string{n0, n1} {
		t.v, t.names = v, [2]string{n0, n1}
		t.s = fmt.Sprintf("%s %.2f  %s %.2f", n0, v[0], n1, v[1])
	}
	return t.s
}

// Pads is the "Shape pads" window. Add it to App.Panels; NewApp does.
type Pads struct {
	// Open shows the window (its close button clears it).
	Open bool

	grid   tessellate.Grid
	sets   [2]iconSet // epsPad, taperPad
	cursor iconSet
	cmap   convexMap
	cvx    convexLine
	label  [2]valueText
	// drag is the pad being dragged (noPad when none), dragObj the object
	// it edits and dragScene the scene its undo step was recorded in.
	drag      padKind
	dragObj   int
	dragScene *scene.Scene
	// maps are the pads' mappings of the last frame (tests read them to
	// aim the mouse).
	maps [2]padMap
	// Cached strings: the window title and the "select NAME" button.
	titleFor, titleText string
	pickFor, pickText   string
	// typed holds what the exact-entry fields hold while they are edited.
	typed [2][2]float64
	// cmapDone reports the convexity map complete (tests).
	cmapDone bool
	// winW is the window's width and fullH its height with an object
	// selected, in the last frame; wasEmpty says nothing was selected then
	// (the window shrinks to its message and grows back).
	winW, fullH float64
	wasEmpty    bool
}

// NewPads returns the pads window, open.
func NewPads() *Pads { return &Pads{Open: true, drag: noPad, dragObj: -1} }

// selected returns the selected object, or nil.
func selected(a *App) *scene.Object {
	if a.Selected < 0 || a.Selected >= len(a.Scene.Objects) {
		return nil
	}
	return &a.Scene.Objects[a.Selected]
}

// prepare is the per-frame CPU work of the window, separate from the ImGui
// calls: it brings the icon sets, the convexity line and (within its time
// budget) the convexity map up to date with the selected object and the
// camera. When nothing changed it does nothing and allocates nothing.
func (p *Pads) prepare(a *App) {
	o := selected(a)
	if o == nil {
		return
	}
	key := iconKey{shape: o.Shape, rot: o.Pose.Orientation, color: o.Color, yaw: a.Camera.Yaw, pitch: a.Camera.Pitch}
	k := key
	k.kind, k.shape.Eps = epsPad, [2]float64{}
	p.sets[epsPad].update(&p.grid, k)
	k = key
	k.kind, k.shape.Taper = taperPad, [2]float64{}
	p.sets[taperPad].update(&p.grid, k)
	k = key
	k.kind, k.color = cursorIcon, cursorColor
	p.cursor.update(&p.grid, k)
	p.cvx.update(o.Shape, a.Convexity(a.Selected))
	p.cmapDone = p.cmap.update(o.Shape, cmapBudget)
}

// Colours of the pads (linear RGBA).
var (
	cursorColor  = scene.Color{0.95, 0.22, 0.16, 1}
	padBg        = packColor(0.10, 0.10, 0.12, 1)
	padGrid      = packColor(0.30, 0.31, 0.34, 1)
	padBorder    = packColor(0.55, 0.56, 0.60, 1)
	padTick      = packColor(0.70, 0.71, 0.74, 1)
	padDiag      = packColor(0.45, 0.75, 0.95, 0.8)
	padCursor    = packColor(0.95, 0.22, 0.16, 1)
	convexText   = imgui.NewVec4(0.55, 0.85, 0.55, 1)
	nonconvText  = imgui.NewVec4(0.98, 0.62, 0.25, 1)
	padTickNames = [2][padCells]string{{"0.2", "0.6", "1", "1.4", "1.8"}, {"-.4", "-.2", "0", ".2", ".4"}}
	padDiagName  = "tx = ty"
	padAxisNames = [2][2]string{{"e1", "e2"}, {"tx", "ty"}}
	padFieldIDs  = [2][2]string{{"e1##pad", "e2##pad"}, {"tx##pad", "ty##pad"}}
	padHair      = packColor(0.95, 0.22, 0.16, 0.45)
)

// Draw implements Panel.
func (p *Pads) Draw(a *App) {
	if !p.Open {
		p.drag = noPad
		return
	}
	ds := imgui.CurrentIO().DisplaySize()
	// Just below the view-cube window, stopping above the status line.
	top := a.viewCubeBottom() + panelMargin
	fullH := math.Max(200, float64(ds.Y)-top-34)
	imgui.SetNextWindowPosV(vec2(float64(ds.X)-padsWidth-8, top), imgui.CondFirstUseEver, vec2(0, 0))
	flags := imgui.WindowFlagsNoSavedSettings
	empty := selected(a) == nil
	w := p.winW
	if w <= 0 {
		w = padsWidth
	}
	switch {
	case empty:
		// Nothing to edit: only as tall as the message. A width set by the
		// API overrides the auto-resize on that axis, so only the height
		// follows the content.
		imgui.SetNextWindowSizeV(vec2(w, 0), imgui.CondAlways)
		flags |= imgui.WindowFlagsAlwaysAutoResize
	case p.wasEmpty:
		// Back to the pads: the height they had (or the first one).
		if p.fullH > 0 {
			fullH = p.fullH
		}
		imgui.SetNextWindowSizeV(vec2(w, fullH), imgui.CondAlways)
	default:
		imgui.SetNextWindowSizeV(vec2(padsWidth, fullH), imgui.CondFirstUseEver)
	}
	p.wasEmpty = empty
	if !imgui.BeginV(p.title(a), &p.Open, flags) {
		imgui.End()
		return
	}
	a.recWindow("win.pads")
	sz := imgui.WindowSize()
	p.winW = float64(sz.X)
	if !empty {
		p.fullH = float64(sz.Y)
	}
	p.drawContents(a)
	imgui.End()
}

// title is the window title with the selected object's name; the ID after
// ### stays the same so the window keeps its place.
func (p *Pads) title(a *App) string {
	name := ""
	if o := selected(a); o != nil {
		name = o.Name
	}
	if p.titleFor != name || p.titleText == "" {
		p.titleFor = name
		p.titleText = "Shape pads###Shape pads"
		if name != "" {
			p.titleText = "Shape pads: " + name + "###Shape pads"
		}
	}
	return p.titleText
}

func (p *Pads) drawContents(a *App) {
	o := selected(a)
	if o == nil {
		p.drag = noPad
		imgui.PushTextWrapPosV(0)
		imgui.TextUnformatted("No object selected: click one in the viewport or the outliner to edit its squareness and tapers.")
		imgui.PopTextWrapPos()
		if len(a.Scene.Objects) > 0 {
			if name := a.Scene.Objects[0].Name; p.pickFor != name || p.pickText == "" {
				p.pickFor, p.pickText = name, "select "+name
			}
			if imgui.Button(p.pickText) {
				a.Selected = 0
			}
		}
		return
	}
	if p.drag != noPad && p.dragObj != a.Selected {
		p.drag = noPad // the selection changed under the drag
	}
	p.prepare(a)
	// Two pads share the height left after the headings, the entry fields
	// and three lines of convexity report; the width bounds them too.
	avail := imgui.ContentRegionAvail()
	line, field := float64(imgui.TextLineHeightWithSpacing()), float64(imgui.FrameHeightWithSpacing())
	rest := 5*line + 2*field + 2*padMarginB + 8
	sideFor := func(rest float64) float64 {
		side := math.Min(float64(avail.X)-padMarginL-4, (float64(avail.Y)-rest)/2)
		return math.Max(padMinSide, math.Min(padMaxSide, math.Floor(side)))
	}
	side := sideFor(rest)
	wrap := !legendFits(taperHeading, side)
	if wrap {
		side = sideFor(rest + line) // the legend takes a line of its own
	}

	p.heading("squareness: e1 across, e2 up")
	p.pad(a, epsPad, side)
	p.fields(a, epsPad)
	p.heading(taperHeading)
	p.diagLegend(float64(imgui.CursorScreenPos().X)+padMarginL+side, wrap)
	p.pad(a, taperPad, side)
	p.fields(a, taperPad)

	col := convexText
	if !p.cvx.report.Convex {
		col = nonconvText
	}
	imgui.PushStyleColorVec4(imgui.ColText, col)
	imgui.PushTextWrapPosV(0)
	imgui.TextUnformatted(p.cvx.text)
	imgui.PopTextWrapPos()
	imgui.PopStyleColor()
}

// heading writes a pad's title with a help marker.
func (p *Pads) heading(text string) {
	imgui.TextUnformatted(text)
	imgui.SameLine()
	imgui.TextDisabled("(?)")
	if imgui.IsItemHovered() {
		imgui.SetTooltip(padsHelp)
	}
}

// taperHeading is the taper pad's heading.
const taperHeading = "taper: tx across, ty up"

// legendDash is the length of the dash before the diagonal's name.
const legendDash = 12

// legendWidth is the width of the diagonal's legend: a dash and its name.
func legendWidth() float64 { return legendDash + 4 + float64(imgui.CalcTextSize(padDiagName).X) }

// legendFits reports whether the diagonal's legend fits on the line of
// heading (and its help marker) above a pad of the given side.
func legendFits(heading string, side float64) bool {
	sp := float64(imgui.CurrentStyle().ItemSpacing().X)
	w := float64(imgui.CalcTextSize(heading).X+imgui.CalcTextSize("(?)").X) + 2*sp
	return w+legendWidth() <= padMarginL+side
}

// diagLegend names the taper pad's dashed diagonal on the heading's line,
// right-aligned over the pad's top-right corner where the diagonal ends, or
// on a line of its own (wrap) when the heading leaves no room: a dash and
// "tx = ty", over no icon.
func (p *Pads) diagLegend(right float64, wrap bool) {
	ts := imgui.CalcTextSize(padDiagName)
	const dash = legendDash
	w := legendWidth()
	if !wrap {
		imgui.SameLine()
	}
	pos := imgui.CursorScreenPos()
	x := math.Max(float64(pos.X), right-w)
	y := float64(pos.Y)
	dl := imgui.WindowDrawList()
	my := y + float64(ts.Y)/2
	dl.AddLineV(vec2(x, my+dash/2-1), vec2(x+dash, my-dash/2+1), padDiag, 1.5)
	imgui.SetCursorScreenPos(vec2(x+dash+4, y))
	imgui.PushStyleColorVec4(imgui.ColText, imgui.ColorConvertU32ToFloat4(padDiag))
	imgui.TextUnformatted(padDiagName)
	imgui.PopStyleColor()
}

// padsHelp is the help marker's tooltip (no % signs: it is a format).
const padsHelp = "Press anywhere on a pad to move the red cursor there and drag:\n" +
	"the object changes live. Ctrl snaps to steps of 0.05. One drag is one undo step.\n" +
	"Icons preview the shape at their grid position, turned like the object on screen.\n" +
	"Taper pad: orange cells are non-convex for the current e1, e2\n" +
	"(darker = larger hull gap); the dashed diagonal is tx = ty."

// value returns the pad's two parameters of s.
func padValue(k padKind, s geom.Superovoid) [2]float64 {
	if k == taperPad {
		return s.Taper
	}
	return s.Eps
}

func withPadValue(k padKind, s geom.Superovoid, v [2]float64) geom.Superovoid {
	if k == taperPad {
		s.Taper = v
	} else {
		s.Eps = v
	}
	return s
}

// pad draws one pad and handles its drag.
func (p *Pads) pad(a *App, k padKind, side float64) {
	o := &a.Scene.Objects[a.Selected]
	pos := imgui.CursorScreenPos()
	m := padMapFor(k, float64(pos.X)+padMarginL, float64(pos.Y), side)
	p.maps[k] = m
	imgui.SetCursorScreenPos(vec2(m.X0, m.Y0))
	id := "##epspad"
	if k == taperPad {
		id = "##taperpad"
	}
	imgui.InvisibleButton(id, vec2(side, side))
	if imgui.IsItemActivated() {
		// One undo step per drag: the scene as it was before it.
		a.BeginEdit("shape of " + o.Name)
		p.drag, p.dragObj, p.dragScene = k, a.Selected, a.Scene
	}
	active := imgui.IsItemActive() && p.drag == k
	if active && p.dragScene != a.Scene {
		// Undo (Ctrl+Z) swapped the scene under the drag: what follows
		// is a new edit with its own step.
		a.BeginEdit("shape of " + o.Name)
		p.dragScene = a.Scene
	}
	if active {
		mp := imgui.MousePos()
		v := m.Clamp(m.Value(float64(mp.X), float64(mp.Y)), imgui.CurrentIO().KeyCtrl())
		if s := withPadValue(k, o.Shape, v); s != o.Shape && s.Validate() == nil {
			o.Shape = s
		}
	} else if p.drag == k {
		p.drag = noPad
	}
	hovered := imgui.IsItemHovered()
	imgui.SetCursorScreenPos(vec2(float64(pos.X), m.Y0+side))
	imgui.Dummy(vec2(side+padMarginL, padMarginB))

	dl := imgui.WindowDrawList()
	x0, y0, x1, y1 := m.X0, m.Y0, m.X0+side, m.Y0+side
	dl.AddRectFilled(vec2(x0, y0), vec2(x1, y1), padBg)
	cell := side / padCells
	if k == taperPad {
		p.drawConvexMap(dl, m)
	}
	for i := 1; i < padCells; i++ {
		f := float64(i) * cell
		dl.AddLine(vec2(x0+f, y0), vec2(x0+f, y1), padGrid)
		dl.AddLine(vec2(x0, y0+f), vec2(x1, y0+f), padGrid)
	}
	// Icons.
	set := &p.sets[k]
	uv := imgui.FontTexUvWhitePixel()
	scale := 0.0
	if set.extent > 0 {
		scale = iconFill * cell / 2 / set.extent
	}
	lo, hi := m.Lo, m.Hi
	for i := 0; i < padCells*padCells; i++ {
		cx, cy := m.Pixel([2]float64{lattice(lo, hi, i%padCells), lattice(lo, hi, i/padCells)})
		drawIcon(dl, set.icon(i), cx, cy, scale, uv)
	}
	if k == taperPad {
		// tx = ty, over the icons: convex for e2 below about 1.38
		// (math.md §1); off it with e2 < 1 there is a shallow dip.
		const dashes = 19
		for i := 0; i < dashes; i += 2 {
			t0, t1 := float64(i)/dashes, float64(i+1)/dashes
			dl.AddLineV(vec2(x0+t0*side, y1-t0*side), vec2(x0+t1*side, y1-t1*side), padDiag, 1.5)
		}
	}
	// Cursor: a red live preview of the current shape, on the same scale.
	cur := padValue(k, o.Shape)
	cx, cy := m.Pixel(cur)
	dl.AddLineV(vec2(cx, y0), vec2(cx, y1), padHair, 1)
	dl.AddLineV(vec2(x0, cy), vec2(x1, cy), padHair, 1)
	dl.AddCircleFilled(vec2(cx, cy), float32(0.5*cell), packColor(0.05, 0.05, 0.06, 0.55))
	if p.cursor.valid && len(p.cursor.start) > 1 {
		drawIcon(dl, p.cursor.icon(0), cx, cy, scale, uv)
	}
	dl.AddCircleV(vec2(cx, cy), float32(0.5*cell), padCursor, 0, 2)
	dl.AddRect(vec2(x0, y0), vec2(x1, y1), padBorder)
	// Ticks at the icons' values, axis names at the ends.
	names := padTickNames[0]
	if k == taperPad {
		names = padTickNames[1]
	}
	for i := 0; i < padCells; i++ {
		v := lattice(lo, hi, i)
		tx, _ := m.Pixel([2]float64{v, 0})
		_, ty := m.Pixel([2]float64{0, v})
		ts := imgui.CalcTextSize(names[i])
		dl.AddLine(vec2(tx, y1), vec2(tx, y1+2), padTick)
		dl.AddTextVec2(vec2(tx-float64(ts.X)/2, y1+3), padTick, names[i])
		dl.AddLine(vec2(x0-3, ty), vec2(x0, ty), padTick)
		dl.AddTextVec2(vec2(x0-5-float64(ts.X), ty-float64(ts.Y)/2), padTick, names[i])
	}
	axis := padAxisNames[k]
	if active || hovered {
		v := cur
		if !active {
			mp := imgui.MousePos()
			v = m.Clamp(m.Value(float64(mp.X), float64(mp.Y)), imgui.CurrentIO().KeyCtrl())
		}
		txt := p.label[k].get(axis[0], axis[1], v)
		ts := imgui.CalcTextSize(txt)
		lx := math.Min(math.Max(cx-float64(ts.X)/2, x0+2), x1-float64(ts.X)-2)
		ly := y0 + 2
		if cy < y0+0.3*side {
			ly = y1 - float64(ts.Y) - 2
		}
		if !active {
			mp := imgui.MousePos()
			lx = math.Min(math.Max(float64(mp.X)-float64(ts.X)/2, x0+2), x1-float64(ts.X)-2)
		}
		dl.AddRectFilled(vec2(lx-2, ly-1), vec2(lx+float64(ts.X)+2, ly+float64(ts.Y)+1), packColor(0, 0, 0, 0.7))
		dl.AddTextVec2(vec2(lx, ly), packColor(1, 1, 1, 1), txt)
	}
}

// drawConvexMap shades the taper-pad cells whose shape is non-convex for
// the current squareness, darker orange for larger hull gaps.
func (p *Pads) drawConvexMap(dl *imgui.DrawList, m padMap) {
	c := m.Size / cmapN
	for i, g := range p.cmap.gap {
		if g <= 0 {
			continue
		}
		// Relative gaps from 1e-9 (the tolerance) to 1e-2 and more.
		f := math.Max(0, math.Min(1, (math.Log10(g)+9)/7))
		x := m.X0 + float64(i%cmapN)*c
		y := m.Y0 + m.Size - float64(i/cmapN+1)*c
		dl.AddRectFilled(vec2(x, y), vec2(x+c, y+c), packColor(0.85, 0.45, 0.12, 0.18+0.32*f))
	}
}

// drawVert is ImGui's ImDrawVert (pos, uv, packed colour: 20 bytes).
type drawVert struct {
	pos, uv [2]float32
	col     uint32
}

// drawIcon emits an icon's triangles (already back to front) into dl,
// scaled by scale pixels per unit and centred at (cx, cy). A pad holds a
// few thousand vertices; one cgo call per vertex (PrimVtx) cost several
// milliseconds a frame, so the vertices are written straight into the
// space PrimReserve made, as ImGui's own primitives do, and the write
// pointers are advanced past them.
func drawIcon(dl *imgui.DrawList, tris []iconTri, cx, cy, scale float64, uv imgui.Vec2) {
	if len(tris) == 0 || !(scale > 0) {
		return
	}
	n := 3 * len(tris)
	dl.PrimReserve(int32(n), int32(n))
	vp := unsafe.Pointer(dl.VtxWritePtr().CData)
	ip := unsafe.Pointer(dl.IdxWritePtr())
	base := dl.VtxCurrentIdx() // after PrimReserve: it may start a new vertex offset
	verts := unsafe.Slice((*drawVert)(vp), n)
	idx := unsafe.Slice((*imgui.DrawIdx)(ip), n)
	u := [2]float32{uv.X, uv.Y}
	for i := range tris {
		t := &tris[i]
		for c := 0; c < 3; c++ {
			k := 3*i + c
			verts[k] = drawVert{pos: [2]float32{float32(cx + scale*t.P[c][0]), float32(cy + scale*t.P[c][1])}, uv: u, col: t.C[c]}
			idx[k] = imgui.DrawIdx(base + uint32(k))
		}
	}
	var next imgui.DrawVert
	*(*unsafe.Pointer)(unsafe.Pointer(&next.CData)) = unsafe.Add(vp, n*int(unsafe.Sizeof(drawVert{})))
	dl.SetVtxWritePtr(&next)
	dl.SetIdxWritePtr((*imgui.DrawIdx)(unsafe.Add(ip, n*int(unsafe.Sizeof(imgui.DrawIdx(0))))))
	dl.SetVtxCurrentIdx(base + uint32(n))
}

// fields are the exact-entry fields under a pad. Typing does not touch
// the scene; the value is applied when the field is left or Enter is
// pressed, as one undo step.
func (p *Pads) fields(a *App, k padKind) {
	o := &a.Scene.Objects[a.Selected]
	m := p.maps[k]
	names := padAxisNames[k]
	v := padValue(k, o.Shape)
	w := float32(imgui.ContentRegionAvail().X/2 - 8)
	for i := 0; i < 2; i++ {
		if i == 1 {
			imgui.SameLine()
		}
		x := v[i]
		imgui.SetNextItemWidth(w - imgui.CalcTextSize(names[i]).X - 4)
		if imgui.InputDoubleV(padFieldIDs[k][i], &x, 0, 0, "%.3f", 0) {
			p.typed[k][i] = x
		}
		if imgui.IsItemActivated() {
			p.typed[k][i] = v[i]
		}
		if imgui.IsItemDeactivatedAfterEdit() {
			nv := v
			nv[i] = p.typed[k][i]
			nv = m.Clamp(nv, false)
			s := withPadValue(k, o.Shape, nv)
			if s != o.Shape && s.Validate() == nil {
				sel := a.Selected
				a.Edit("shape of "+o.Name, func(sc *scene.Scene) { sc.Objects[sel].Shape = s })
			}
		}
	}
}
