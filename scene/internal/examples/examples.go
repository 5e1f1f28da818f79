// Package examples builds the example scenes committed in scenes/. They are
// generated, not hand-written, so that they can be re-made and checked:
// "go run ./scene/internal/gen" writes them, and the tests of this package
// check that the committed files are exactly what the generator makes.
package examples

import (
	"fmt"
	"math"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
)

// Example is one generated scene and its file name in scenes/.
type Example struct {
	File  string
	Scene *scene.Scene
}

// All returns every example scene.
func All() []Example {
	return []Example{
		{"two-superovoids.json", TwoSuperovoids()},
		{"battery-sample.json", BatterySample(BatterySeed, BatteryPairs)},
		{"icub-hand.json", Hand()},
		{"molars.json", Molars()},
		{"meshers.json", Meshers()},
	}
}

// round keeps d decimals, so that the files stay readable; the tests check
// the scenes as loaded from the rounded files.
func round(v float64, d int) float64 {
	p := math.Pow(10, float64(d))
	r := math.Round(v*p) / p
	if r == 0 {
		return 0 // no "-0" in the files
	}
	return r
}

func roundVec(v geom.Vec3, d int) geom.Vec3 {
	return geom.Vec3{round(v[0], d), round(v[1], d), round(v[2], d)}
}

// roundQuat rounds a unit quaternion to d decimals; the loader normalises it
// again (the rounding error, below 1e-6, is far inside its tolerance).
// The sign is chosen with w >= 0 so that files are canonical.
func roundQuat(q geom.Quat, d int) geom.Quat {
	if q.W < 0 {
		q = geom.Quat{W: -q.W, V: q.V.Mul(-1)}
	}
	return geom.Quat{W: round(q.W, d), V: roundVec(q.V, d)}
}

// frameQuat returns the unit quaternion of the rotation whose columns are
// the local axes x, y, z expressed in world coordinates (Shepperd's method,
// branching on the largest diagonal term for accuracy).
func frameQuat(x, y, z geom.Vec3) geom.Quat {
	m00, m11, m22 := x[0], y[1], z[2]
	tr := m00 + m11 + m22
	var w, qx, qy, qz float64
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(1+tr)
		w = s / 4
		qx = (y[2] - z[1]) / s
		qy = (z[0] - x[2]) / s
		qz = (x[1] - y[0]) / s
	case m00 > m11 && m00 > m22:
		s := 2 * math.Sqrt(1+m00-m11-m22)
		w = (y[2] - z[1]) / s
		qx = s / 4
		qy = (y[0] + x[1]) / s
		qz = (z[0] + x[2]) / s
	case m11 > m22:
		s := 2 * math.Sqrt(1+m11-m00-m22)
		w = (z[0] - x[2]) / s
		qx = (y[0] + x[1]) / s
		qy = s / 4
		qz = (z[1] + y[2]) / s
	default:
		s := 2 * math.Sqrt(1+m22-m00-m11)
		w = (x[1] - y[0]) / s
		qx = (z[0] + x[2]) / s
		qy = (z[1] + y[2]) / s
		qz = s / 4
	}
	return geom.Quat{W: w, V: geom.Vec3{qx, qy, qz}}
}

// rotate turns v about the unit axis k by angle t (Rodrigues).
func rotate(v, k geom.Vec3, t float64) geom.Vec3 {
	s, c := math.Sincos(t)
	return v.Mul(c).Add(k.Cross(v).Mul(s)).Add(k.Mul(k.Dot(v) * (1 - c)))
}

func deg(d float64) float64 { return d * math.Pi / 180 }

func object(name string, shape geom.Superovoid, pos geom.Vec3, q geom.Quat, color scene.Color) scene.Object {
	return scene.Object{Name: name, Shape: shape, Color: color, Visible: true,
		Pose: geom.Pose{Position: pos, Orientation: q}}
}

// TwoSuperovoids is the smallest example: a tapered superovoid and a
// rounded box 0.3 apart, with a saved camera and the tangent overlay on.
func TwoSuperovoids() *scene.Scene {
	s := scene.New()
	s.Description = "Two superovoids: a tapered egg and a rounded box, separated; camera, overlays and solver set explicitly."
	s.Objects = []scene.Object{
		object("egg",
			geom.Superovoid{A: [3]float64{0.8, 0.8, 1.1}, Eps: [2]float64{1, 0.9}, Taper: [2]float64{-0.3, -0.3}},
			geom.Vec3{-1, 0, 0}, geom.Quat{W: 1}, scene.PaletteColor(0)),
		object("box",
			geom.Superovoid{A: [3]float64{0.6, 0.9, 0.7}, Eps: [2]float64{0.3, 0.4}},
			geom.Vec3{0.9, 0.2, 0.1}, roundQuat(frameQuat(
				rotate(geom.Vec3{1, 0, 0}, geom.Vec3{0, 0, 1}, deg(25)),
				rotate(geom.Vec3{0, 1, 0}, geom.Vec3{0, 0, 1}, deg(25)),
				geom.Vec3{0, 0, 1}), 6), scene.PaletteColor(1)),
	}
	s.Objects[1].Mesh = scene.Mesh{Method: scene.MarchingTriangles, Edge: 0.02, Wireframe: true}
	s.Objects[0].Mesh = scene.Mesh{Method: scene.Grid, Slices: [2]int{96, 48}}
	s.Camera = &scene.Camera{Target: geom.Vec3{0, 0, 0}, Distance: 5, Yaw: 20, Pitch: 25, Fov: 45}
	s.Overlays.Tangents = true
	return s
}

// Battery example parameters.
const (
	BatterySeed  = 2017 // the year of paper 000
	BatteryPairs = 12
	// BatteryColumns of pairs on the grid; pairs are BatterySpacing apart
	// in x and BatteryRowSpacing in y, enough for the bounding spheres of
	// different pairs never to meet.
	BatteryColumns    = 4
	BatterySpacing    = 4.0
	BatteryRowSpacing = 6.0
)

// BatterySample returns n pairs of paper 000 §5.1's battery
// (contact.PaperBattery with the given seed: a = (1,1,1), e1, e2 in
// [0.3, 1.1], tx, ty in [-0.4, 0.4], uniformly random orientations, b at
// 2.21 from a along y), laid out on a grid of BatteryColumns columns.
// Each pair is a body.
func BatterySample(seed uint64, n int) *scene.Scene {
	s := scene.New()
	s.Description = fmt.Sprintf("A sample of paper 000 §5.1's battery: %d pairs from contact.PaperBattery(%d, %d), a = (1,1,1), e in [0.3, 1.1], taper in [-0.4, 0.4], random orientations, b at 2.21 from a along y; pairs on a %d-column grid (x step %g, y step %g). Made by go run ./scene/internal/gen.",
		n, n, seed, BatteryColumns, BatterySpacing, BatteryRowSpacing)
	pairs := contact.PaperBattery(n, seed)
	for i, p := range pairs {
		off := geom.Vec3{float64(i%BatteryColumns) * BatterySpacing, float64(i/BatteryColumns) * BatteryRowSpacing, 0}
		names := []string{fmt.Sprintf("pair%02d.a", i), fmt.Sprintf("pair%02d.b", i)}
		for k, b := range p {
			sh := b.Shape
			for j := range sh.Eps {
				sh.Eps[j] = round(sh.Eps[j], 4)
				sh.Taper[j] = round(sh.Taper[j], 4)
			}
			s.Objects = append(s.Objects, object(names[k], sh,
				roundVec(b.Pose.Position.Add(off), 6), roundQuat(b.Pose.Orientation, 6), scene.PaletteColor(k)))
		}
		s.Bodies = append(s.Bodies, scene.Body{Name: fmt.Sprintf("pair%02d", i), Objects: names})
	}
	s.Overlays.Labels = true
	return s
}
