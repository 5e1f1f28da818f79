package drawlist

import (
	"cmp"
	"slices"

	"github.com/sovviz/sovviz/geom"
)

// CubeFace is one face of the view-cube widget as it appears on screen.
type CubeFace struct {
	View    View          // the view picked by clicking the face
	Corners [4][2]float64 // screen pixels, counter-clockwise as seen
	Depth   float64       // towards the viewer: larger is nearer
	Facing  float64       // cosine between the face normal and the view direction (>0: visible)
}

// cubeFaces lists the outward normal of the face that shows each view: the
// front view looks at the face pointing to -y, and so on.
var cubeFaces = [6]struct {
	view   View
	normal geom.Vec3
}{
	{Front, geom.Vec3{0, -1, 0}}, {Back, geom.Vec3{0, 1, 0}},
	{Left, geom.Vec3{-1, 0, 0}}, {Right, geom.Vec3{1, 0, 0}},
	{Top, geom.Vec3{0, 0, 1}}, {Bottom, geom.Vec3{0, 0, -1}},
}

// ViewCube lays out the view-cube widget (thesis §4.2): a cube turned like
// the world, drawn around centre (cx, cy) with half-size h pixels. The faces
// are returned back to front, so drawing them in order paints correctly;
// only faces with Facing > 0 are visible and clickable.
func ViewCube(cam *Camera, cx, cy, h float64) [6]CubeFace {
	right, up, back := cam.Basis()
	var out [6]CubeFace
	for i, f := range cubeFaces {
		n := f.normal
		// Two in-face axes u, v with u × v = n, so corners run
		// counter-clockwise seen from outside.
		var u geom.Vec3
		if n[2] != 0 {
			u = geom.Vec3{1, 0, 0}
		} else {
			u = geom.Vec3{0, 0, 1}
		}
		v := n.Cross(u)
		var cf CubeFace
		cf.View = f.view
		cf.Facing = n.Dot(back)
		cf.Depth = n.Dot(back)
		for k, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			p := n.Add(u.Mul(s[0])).Add(v.Mul(s[1]))
			cf.Corners[k] = [2]float64{cx + h*p.Dot(right), cy - h*p.Dot(up)}
		}
		out[i] = cf
	}
	slices.SortFunc(out[:], func(a, b CubeFace) int { return cmp.Compare(a.Depth, b.Depth) })
	return out
}

// Centre is the middle of the face on screen, where its name goes.
func (f *CubeFace) Centre() (x, y float64) {
	q := &f.Corners
	return (q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4, (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4
}

// PickCube returns the view of the visible face under pixel (x, y).
func PickCube(faces *[6]CubeFace, x, y float64) (View, bool) {
	for i := len(faces) - 1; i >= 0; i-- {
		f := &faces[i]
		if f.Facing <= 1e-6 {
			continue
		}
		if inQuad(&f.Corners, x, y) {
			return f.View, true
		}
	}
	return Persp, false
}

// inQuad reports whether (x, y) is inside the convex quadrilateral q
// (either orientation).
func inQuad(q *[4][2]float64, x, y float64) bool {
	pos, neg := false, false
	for i := range 4 {
		a, b := q[i], q[(i+1)%4]
		c := (b[0]-a[0])*(y-a[1]) - (b[1]-a[1])*(x-a[0])
		if c > 0 {
			pos = true
		} else if c < 0 {
			neg = true
		}
	}
	return !(pos && neg)
}
