package examples

import (
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
)

// MolarBite is how far (metres) the upper molar is lowered from the
// position where its cusps would just rest on the lower molar's: the cusps
// overlap by about this much, as in a bite.
const MolarBite = 0.0001

// molarHeight is the lift of the upper molar's frame above the lower's,
// found by bisection on the cross-tooth distance so that the deepest
// overlap is MolarBite (TestMolars re-checks it).
const molarHeight = 0.008053

// molarParts returns the superovoids of one molar in its own frame, crown
// up (+z): a boxy crown body, four cusps and a tapered root.
func molarParts() []struct {
	name  string
	shape geom.Superovoid
	pos   geom.Vec3
	down  bool // local +z points down (the root narrows towards its apex)
} {
	cusp := geom.Superovoid{A: [3]float64{0.0024, 0.0023, 0.0021}, Eps: [2]float64{0.9, 0.85}, Taper: [2]float64{-0.25, -0.25}}
	return []struct {
		name  string
		shape geom.Superovoid
		pos   geom.Vec3
		down  bool
	}{
		{"crown", geom.Superovoid{A: [3]float64{0.0052, 0.005, 0.0032}, Eps: [2]float64{0.35, 0.45}, Taper: [2]float64{0.08, 0.08}}, geom.Vec3{0, 0, 0}, false},
		{"cusp.mb", cusp, geom.Vec3{0.0026, 0.0024, 0.0024}, false},
		{"cusp.ml", cusp, geom.Vec3{0.0026, -0.0024, 0.0024}, false},
		{"cusp.db", cusp, geom.Vec3{-0.0026, 0.0024, 0.0024}, false},
		{"cusp.dl", cusp, geom.Vec3{-0.0026, -0.0024, 0.0024}, false},
		{"root", geom.Superovoid{A: [3]float64{0.0042, 0.0036, 0.0065}, Eps: [2]float64{0.7, 0.8}, Taper: [2]float64{-0.45, -0.3}}, geom.Vec3{0, 0, -0.0085}, true},
	}
}

// Molars returns two molars after paper 000 §5.3, each a body of six
// superovoids (crown, four cusps, root; units are metres, crowns about
// 10 mm across). The upper molar is the lower one turned upside down and
// shifted by half a cusp along x so that its cusps fall between the lower
// cusps; it is lowered until the cusps overlap by about MolarBite.
func Molars() *scene.Scene {
	s := scene.New()
	s.Description = "Two molars after paper 000 §5.3, each crown + 4 cusps + root (6 superovoids, metres); the upper cusps sit between the lower ones and overlap them by about 0.1 mm. Made by go run ./scene/internal/gen."
	lowerColor := scene.Color{0.93, 0.9, 0.8, 1}
	upperColor := scene.Color{0.85, 0.88, 0.95, 1}
	up := geom.Quat{W: 1}
	down := geom.Quat{W: 0, V: geom.Vec3{1, 0, 0}} // 180° about x
	var lower, upper []string
	for _, p := range molarParts() {
		q := up
		if p.down {
			q = down
		}
		name := "lower." + p.name
		s.Objects = append(s.Objects, object(name, p.shape, p.pos, q, lowerColor))
		lower = append(lower, name)
	}
	shift := geom.Vec3{0.0026, 0, molarHeight}
	for _, p := range molarParts() {
		// Turning the tooth over (180° about x) maps (x, y, z) to
		// (x, -y, -z) and flips each part's own orientation.
		q := down
		if p.down {
			q = up
		}
		pos := geom.Vec3{p.pos[0], -p.pos[1], -p.pos[2]}.Add(shift)
		name := "upper." + p.name
		s.Objects = append(s.Objects, object(name, p.shape, roundVec(pos, 6), q, upperColor))
		upper = append(upper, name)
	}
	s.Bodies = []scene.Body{{Name: "lower", Objects: lower}, {Name: "upper", Objects: upper}}
	s.Camera = &scene.Camera{Target: geom.Vec3{0.0013, 0, 0.004}, Distance: 0.07, Yaw: 15, Pitch: 10, Fov: 45}
	s.Overlays.Seeds = false
	s.Overlays.Octree = false
	s.Solver.Margin = 0.001
	return s
}
