package examples

import (
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
)

// finger describes one kinematic chain of the hand: the base joint, the
// initial direction and bending axis, and per link its length, cross
// section and flexion at the joint before it.
type finger struct {
	name  string
	base  geom.Vec3 // first joint, world (metres)
	dir   geom.Vec3 // direction of the first link before flexion
	bend  geom.Vec3 // flexion axis (right-hand rule curls towards the palm side)
	links []link
}

type link struct {
	name   string
	length float64    // along the chain, metres
	a1, a2 float64    // half thickness (palm direction), half width
	eps    [2]float64 // squareness
	taper  float64    // tx = ty (equal tapers keep the link convex, math.md §1)
	flex   float64    // degrees at the joint before this link
}

// Hand gap between consecutive links of a chain (metres): the links are
// separate superovoids that nearly touch at the joints, as in the paper.
const handJointGap = 0.0015

// Hand returns an iCub-like right hand after paper 000 §5.2: a palm and five
// fingers of four links each (21 superovoids), links about 16 mm long
// (units are metres), rounded-box phalanges and slightly tapered
// fingertips, fingers a little curled. The palm faces -z, the fingers point
// along +x, the thumb is on the +y side and opposes the index. Each finger
// is a body; consecutive links, and neighbouring fingers, nearly touch.
func Hand() *scene.Scene {
	s := scene.New()
	s.Description = "An iCub-like right hand after paper 000 §5.2: palm + 5 fingers x 4 links = 21 superovoids, links ~16 mm (metres), palm facing -z, fingers along +x, slightly curled. Made by go run ./scene/internal/gen."
	palm := geom.Superovoid{A: [3]float64{0.029, 0.027, 0.0085}, Eps: [2]float64{0.35, 0.45}}
	s.Objects = append(s.Objects, object("palm", palm, geom.Vec3{}, geom.Quat{W: 1}, scene.Color{0.72, 0.72, 0.76, 1}))
	s.Bodies = append(s.Bodies, scene.Body{Name: "palm", Objects: []string{"palm"}})

	phal := func(name string, length, a1, a2, flex float64) link {
		return link{name, length, a1, a2, [2]float64{0.7, 0.55}, 0, flex}
	}
	tip := func(length, a1, a2, flex float64) link {
		return link{"tip", length, a1, a2, [2]float64{0.8, 0.8}, -0.25, flex}
	}
	// Four long fingers along +x, 13 mm apart across y, spread a little.
	long := []struct {
		name   string
		y      float64
		spread float64 // degrees about z
		scale  float64
		flex   [4]float64
	}{
		{"index", 0.0195, 4, 1.0, [4]float64{8, 14, 14, 8}},
		{"middle", 0.0065, 0, 1.06, [4]float64{10, 16, 16, 10}},
		{"ring", -0.0065, -4, 1.0, [4]float64{12, 18, 18, 10}},
		{"little", -0.0195, -8, 0.86, [4]float64{14, 20, 20, 12}},
	}
	var fingers []finger
	for _, l := range long {
		k := l.scale
		dir := rotate(geom.Vec3{1, 0, 0}, geom.Vec3{0, 0, 1}, deg(l.spread))
		fingers = append(fingers, finger{
			name: l.name,
			base: geom.Vec3{palm.A[0] + handJointGap, l.y, -0.001},
			dir:  dir,
			// Flexion about +y turns +x towards -z, the palm side.
			bend: rotate(geom.Vec3{0, 1, 0}, geom.Vec3{0, 0, 1}, deg(l.spread)),
			links: []link{
				phal("proximal", 0.017*k, 0.0055, 0.006, l.flex[0]),
				phal("middle", 0.015*k, 0.0053, 0.0058, l.flex[1]),
				phal("distal", 0.013*k, 0.005, 0.0056, l.flex[2]),
				tip(0.011*k, 0.0048, 0.0054, l.flex[3]),
			},
		})
	}
	// The thumb leaves the palm on the +y side, below it, pointing forwards,
	// outwards and down, and curls towards the index.
	tdir := geom.Vec3{0.55, 0.45, -0.7}.Normalize()
	tbend := tdir.Cross(geom.Vec3{0.2, -1, 0}).Normalize()
	fingers = append(fingers, finger{
		name: "thumb",
		base: geom.Vec3{-0.004, palm.A[1] - 0.004, -palm.A[2] - 0.0015},
		dir:  tdir,
		bend: tbend,
		links: []link{
			phal("metacarpal", 0.018, 0.0065, 0.0068, 0),
			phal("proximal", 0.016, 0.006, 0.0063, 22),
			phal("distal", 0.014, 0.0056, 0.006, 20),
			tip(0.011, 0.005, 0.0056, 12),
		},
	})
	for fi, f := range fingers {
		color := scene.PaletteColor(fi)
		names := make([]string, 0, len(f.links))
		joint, dir := f.base, f.dir.Normalize()
		bend := f.bend.Normalize()
		for _, l := range f.links {
			dir = rotate(dir, bend, deg(l.flex))
			// Local z along the link, local y along the flexion axis,
			// local x = y × z towards the palm side.
			x := bend.Cross(dir)
			q := roundQuat(frameQuat(x, bend, dir), 6)
			half := l.length / 2
			centre := joint.Add(dir.Mul(half))
			name := f.name + "." + l.name
			sh := geom.Superovoid{A: [3]float64{l.a1, l.a2, half}, Eps: l.eps, Taper: [2]float64{l.taper, l.taper}}
			s.Objects = append(s.Objects, object(name, sh, roundVec(centre, 6), q, color))
			names = append(names, name)
			joint = joint.Add(dir.Mul(l.length + handJointGap))
		}
		s.Bodies = append(s.Bodies, scene.Body{Name: f.name, Objects: names})
	}
	// Camera from the front-left, above the back of the hand.
	s.Camera = &scene.Camera{Target: geom.Vec3{0.03, 0, -0.01}, Distance: 0.24, Yaw: -35, Pitch: 30, Fov: 45}
	s.Overlays.Seeds = false
	s.Overlays.Octree = false
	s.Solver.Margin = 0.004
	return s
}
