package drawlist

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

// Object is what the draw list needs to know about one scene object.
type Object struct {
	Name      string
	Body      geom.Body
	Mesh      *Mesh // nil: not drawn (the overlays still are)
	Color     Color
	Hidden    bool
	Wireframe bool
	Selected  bool
	// NonConvex marks the object in the viewport; HullGap is the measure of
	// how far it is from its convex hull (0 when unknown).
	NonConvex bool
	HullGap   float64
}

// Overlays switches the decorations (MuJoCo's visualisation flags): each
// family can be turned on and off independently.
type Overlays struct {
	Witness  bool // witness points P (on a) and Q (on b)
	Segment  bool // the distance segment P–Q
	Labels   bool // the distance value (and "not certified") at the segment
	Normals  bool // outward normals at P and Q
	Tangents bool // tangent and binormal at P and Q
	Seeds    bool // quadtree cells chosen per level, as points on both surfaces
	Octree   bool // octree leaf boxes when the octree guess was used
	Grid     bool // ground grid
	Axes     bool // world axis triad at the origin
	// XRay draws every object transparent, to see one through another.
	XRay bool
}

// DefaultOverlays returns the switches a new window starts with.
func DefaultOverlays() Overlays {
	return Overlays{Witness: true, Segment: true, Labels: true, Normals: true, Seeds: true, Octree: true, Grid: true, Axes: true}
}

// Frame is the input of Build.
type Frame struct {
	Objects  []Object
	Pairs    []contact.PairResult // indices refer to Objects
	Overlays Overlays
	Camera   *Camera
	// SeedPair is the index into Pairs of the pair whose quadtree cells are
	// also outlined on the surfaces (the parameter-space panel's pair);
	// -1 for none. Outlines cost ~40 surface points per cell, so they are
	// drawn for one pair, not all.
	SeedPair int
}

// Overlay colours, exported so that tests look for them in rendered images.
// They are saturated and far from the object palette on purpose.
var (
	WitnessPColor  = Color{1, 0, 1, 1}       // magenta: the point on a
	WitnessQColor  = Color{0, 1, 1, 1}       // cyan: the point on b
	SeparatedColor = Color{0.1, 0.9, 0.2, 1} // segment of a separated pair
	OverlapColor   = Color{1, 0.15, 0.1, 1}  // segment of an overlapping pair
	NormalColor    = Color{0.2, 0.4, 1, 1}   // normals
	TangentColor   = Color{1, 0.55, 0, 1}    // tangents
	BinormalColor  = Color{0.6, 0.2, 1, 1}   // binormals
	OctreeColor    = Color{0.3, 0.9, 0.9, 1} // octree leaf boxes
	NonConvexColor = Color{1, 0.6, 0.1, 1}   // non-convex marker and "not certified"
	LabelColor     = Color{1, 1, 1, 1}       // distance labels
	FailedColor    = Color{1, 0.2, 0.2, 1}   // labels of failed queries
	GridColor      = Color{0.5, 0.5, 0.55, 0.35}
	AxisColors     = [3]Color{{0.9, 0.2, 0.2, 1}, {0.3, 0.8, 0.3, 1}, {0.25, 0.45, 1, 1}}
)

// SeedColor returns the colour of quadtree level k of n: yellow at the
// coarsest level, red at the finest (thesis Fig. 3.6).
func SeedColor(k, n int) Color {
	t := float32(0)
	if n > 1 {
		t = float32(k) / float32(n-1)
	}
	return Color{1, 1 - 0.9*t, 0.1 * (1 - t), 1}
}

// Line widths and point sizes in pixels.
const (
	SegmentWidth = 3
	VectorWidth  = 2.5
	// NormalWidth is wider than the segment, which is drawn over it: at a
	// solution both normals are collinear with the segment, so they show as
	// a casing around it and beyond its ends.
	NormalWidth = 7
	WitnessSize = 11
	GridWidth   = 1
)

// Build fills d with the frame: one mesh item per visible object (opaque
// first, then transparent ones back to front), the grid and axes, and the
// overlays of every pair. It reuses d's storage and allocates nothing once
// the slices have grown.
func Build(d *DrawList, f *Frame) {
	d.Reset()
	cam := f.Camera
	view := cam.View()
	ov := &f.Overlays
	for i := range f.Objects {
		o := &f.Objects[i]
		if o.Hidden || o.Mesh == nil {
			continue
		}
		c := o.Color
		if ov.XRay && c[3] > 0.45 {
			c[3] = 0.45
		}
		p := o.Body.Pose.Position
		depth := -(view[2]*p[0] + view[6]*p[1] + view[10]*p[2] + view[14])
		d.Meshes = append(d.Meshes, MeshItem{
			Mesh: o.Mesh, Model: ModelMatrix(o.Body.Pose), Color: c, Wireframe: o.Wireframe,
			Selected: o.Selected, NonConvex: o.NonConvex, Object: i, Depth: depth,
		})
	}
	slices.SortStableFunc(d.Meshes, compareMeshes)
	if ov.Grid || ov.Axes {
		buildGround(d, f)
	}
	for k := range f.Pairs {
		pr := &f.Pairs[k]
		if pr.I < 0 || pr.J < 0 || pr.I >= len(f.Objects) || pr.J >= len(f.Objects) {
			continue
		}
		a, b := &f.Objects[pr.I], &f.Objects[pr.J]
		if a.Hidden || b.Hidden {
			continue
		}
		buildPair(d, a, b, &pr.Result, ov, k == f.SeedPair)
	}
	// Non-convex objects: an orange dot on top, and a label (after the
	// pairs' labels, which matter more when the UI has to drop some).
	for i := range f.Objects {
		o := &f.Objects[i]
		if !o.NonConvex || o.Hidden {
			continue
		}
		top := NonConvexAnchor(&o.Body)
		d.AddPoint(top, NonConvexColor, 8, false)
		buf := d.BeginLabel()
		buf = append(buf, "non-convex"...)
		if o.HullGap > 0 {
			buf = append(buf, " (hull gap "...)
			buf = strconv.AppendFloat(buf, o.HullGap, 'g', 2, 64)
			buf = append(buf, ')')
		}
		d.EndLabel(buf, top, NonConvexColor)
	}
}

// nonConvexLift is how far the non-convex marker sits above the object's
// top, as a share of the height of its world box.
const nonConvexLift = 0.05

// NonConvexAnchor is where the non-convex marker and its label sit: centred
// over the body's world AABB, slightly above its top, so that they read as
// belonging to the object whatever its orientation. The top is the body's
// highest point (its support in +z), which the box of a turned body can
// overshoot by a good share of its height; the box's top when the support
// is not finite.
func NonConvexAnchor(b *geom.Body) geom.Vec3 {
	// The cheap local box, not the tight one: finding that takes a search
	// per object per frame, and only the box's centre and height are used.
	box := b.WorldAABBOf(b.Shape.LocalAABBFast())
	c := box.Min.Add(box.Max).Mul(0.5)
	top := box.Max[2]
	if h, _ := b.Support(geom.Vec3{0, 0, 1}); h > box.Min[2] && h <= top {
		top = h
	}
	return geom.Vec3{c[0], c[1], top + nonConvexLift*(box.Max[2]-box.Min[2])}
}

// compareMeshes puts opaque items first, then transparent ones from far to near.
func compareMeshes(a, b MeshItem) int {
	ta, tb := a.Color[3] < 1, b.Color[3] < 1
	switch {
	case ta != tb:
		if ta {
			return 1
		}
		return -1
	case ta:
		return cmp.Compare(b.Depth, a.Depth)
	}
	return 0
}

// sceneBounds returns a box around the visible objects, from their cheap
// bounding spheres (geom's tight boxes cost a search per object, too much
// for every frame; the grid and the framing do not need them tight).
func sceneBounds(objs []Object) (geom.AABB, bool) {
	var box geom.AABB
	found := false
	for i := range objs {
		if objs[i].Hidden {
			continue
		}
		c := objs[i].Body.Pose.Position
		r := objs[i].Body.Shape.BoundingRadiusFast()
		b := geom.AABB{Min: c.Sub(geom.Vec3{r, r, r}), Max: c.Add(geom.Vec3{r, r, r})}
		if !found {
			box, found = b, true
			continue
		}
		for k := range 3 {
			box.Min[k] = math.Min(box.Min[k], b.Min[k])
			box.Max[k] = math.Max(box.Max[k], b.Max[k])
		}
	}
	return box, found
}

// SceneSphere returns a bounding sphere of the visible objects (the origin
// and radius 1 for an empty scene): what "frame all" looks at.
func SceneSphere(objs []Object) (geom.Vec3, float64) {
	box, ok := sceneBounds(objs)
	if !ok {
		return geom.Vec3{}, 1
	}
	c := box.Center()
	r := 1e-3
	for i := range objs {
		if !objs[i].Hidden {
			b := &objs[i].Body
			r = math.Max(r, b.Pose.Position.Sub(c).Len()+b.Shape.BoundingRadiusFast())
		}
	}
	return c, r
}

// buildGround adds the grid under the scene and the axis triad.
func buildGround(d *DrawList, f *Frame) {
	box, ok := sceneBounds(f.Objects)
	if !ok {
		box = geom.AABB{Min: geom.Vec3{-1, -1, 0}, Max: geom.Vec3{1, 1, 0}}
	}
	c := box.Center()
	r := math.Max(box.Max.Sub(c).Len(), 1e-3)
	if f.Overlays.Grid {
		step := math.Pow(10, math.Floor(math.Log10(r)))
		if r/step < 3 {
			step /= 2
		}
		n := int(math.Ceil(1.6 * r / step))
		z := box.Min[2]
		cx := math.Round(c[0]/step) * step
		cy := math.Round(c[1]/step) * step
		ext := float64(n) * step
		for i := -n; i <= n; i++ {
			t := float64(i) * step
			d.AddLine(geom.Vec3{cx + t, cy - ext, z}, geom.Vec3{cx + t, cy + ext, z}, GridColor, GridWidth, false)
			d.AddLine(geom.Vec3{cx - ext, cy + t, z}, geom.Vec3{cx + ext, cy + t, z}, GridColor, GridWidth, false)
		}
	}
	if f.Overlays.Axes {
		l := 0.5 * r
		for k := range 3 {
			var e geom.Vec3
			e[k] = l
			d.AddLine(geom.Vec3{}, e, AxisColors[k], 2, false)
		}
	}
}

// buildPair adds the overlays of one pair; outline draws its quadtree
// cells on the surfaces.
func buildPair(d *DrawList, a, b *Object, r *contact.Result, ov *Overlays, outline bool) {
	if r.Status == contact.Failed {
		if ov.Labels {
			mid := a.Body.Pose.Position.Add(b.Body.Pose.Position).Mul(0.5)
			d.AddLabel(mid, "contact failed", FailedColor)
		}
		return
	}
	s := 0.35 * math.Min(a.Body.Shape.BoundingRadiusFast(), b.Body.Shape.BoundingRadiusFast())
	if ov.Seeds && r.UsedGuess == contact.Quadtree && r.QuadLevels > 0 {
		ca, na := r.QuadCells(0)
		cb, nb := r.QuadCells(1)
		seeds(d, &a.Body, ca[:na], outline)
		seeds(d, &b.Body, cb[:nb], outline)
	}
	if ov.Octree && r.UsedGuess == contact.Octree {
		ta, tb := a.Body.Pose.Transform(), b.Body.Pose.Transform()
		d.AddBox(r.OctCellA, &ta, OctreeColor, 1.5, true)
		d.AddBox(r.OctCellB, &tb, OctreeColor, 1.5, true)
	}
	if ov.Tangents {
		t := 0.7 * s
		d.AddLine(r.P, r.P.Add(r.TangentP.Mul(t)), TangentColor, VectorWidth, true)
		d.AddLine(r.P, r.P.Add(r.BinormalP.Mul(t)), BinormalColor, VectorWidth, true)
		d.AddLine(r.Q, r.Q.Add(r.TangentQ.Mul(t)), TangentColor, VectorWidth, true)
		d.AddLine(r.Q, r.Q.Add(r.BinormalQ.Mul(t)), BinormalColor, VectorWidth, true)
	}
	if ov.Normals {
		d.AddLine(r.P, r.P.Add(r.Normal.Mul(s)), NormalColor, NormalWidth, true)
		d.AddLine(r.Q, r.Q.Add(r.NormalQ.Mul(s)), NormalColor, NormalWidth, true)
	}
	segColor := SeparatedColor
	if r.Distance < 0 {
		segColor = OverlapColor
	}
	if ov.Segment {
		d.AddLine(r.P, r.Q, segColor, SegmentWidth, true)
	}
	if ov.Witness {
		d.AddPoint(r.P, WitnessPColor, WitnessSize, true)
		d.AddPoint(r.Q, WitnessQColor, WitnessSize, true)
	}
	if ov.Labels {
		buf := d.BeginLabel()
		if r.Distance < 0 {
			buf = append(buf, "overlap "...)
			buf = strconv.AppendFloat(buf, -r.Distance, 'g', 5, 64)
		} else {
			buf = append(buf, "d = "...)
			buf = strconv.AppendFloat(buf, r.Distance, 'g', 5, 64)
		}
		c := LabelColor
		if !r.Certified {
			buf = append(buf, " (not certified)"...)
			c = NonConvexColor
		}
		if r.StillOverlapping > 0 {
			// (Moved out by its depth the bodies still overlap:
			// contact.Result.StillOverlapping.)
			buf = append(buf, " (too shallow)"...)
		}
		if r.Status != contact.Converged {
			buf = append(buf, " ["...)
			buf = append(buf, r.Status.String()...)
			buf = append(buf, ']')
			c = FailedColor
		}
		d.EndLabel(buf, r.P.Add(r.Q).Mul(0.5), c)
	}
}

// seeds adds the chosen quadtree cells as points at their centres and, with
// outline, their edges on the surface, coarse (large, yellow) to fine
// (small, red), as the thesis's Fig. 3.6 draws them.
func seeds(d *DrawList, b *geom.Body, cells []geom.ParamCell, outline bool) {
	t := b.Pose.Transform()
	n := len(cells)
	for k := range cells {
		p1, p2 := cells[k].Center()
		p := t.Point(b.Shape.Point(p1, p2))
		size := float32(10 - 5*float64(k)/math.Max(1, float64(n-1)))
		if outline {
			d.AddCellCurve(b, cells[k], SeedCurveSamples(k), SeedColor(k, n), 1.5, true)
		}
		d.AddPoint(p, SeedColor(k, n), size, true)
	}
}

// SeedCurveSamples is the number of samples per cell edge of the outline
// of quadtree level k: 12 for the first cells, which span a quarter of the
// surface, halving per level down to 3.
func SeedCurveSamples(k int) int { return max(3, 12>>k) }
