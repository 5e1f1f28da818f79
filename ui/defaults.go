package ui

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/render/drawlist"
)

// Palette is the default object colour cycle.
var Palette = []drawlist.Color{
	{0.62, 0.64, 0.82, 1}, {0.82, 0.62, 0.56, 1}, {0.6, 0.78, 0.62, 1},
	{0.8, 0.78, 0.62, 1}, {0.74, 0.6, 0.78, 1}, {0.58, 0.76, 0.8, 1},
}

// DemoObjects returns two superovoids close to each other: a tapered,
// rounded box and a pointy superellipsoid.
func DemoObjects() []Object {
	q := mgl64.QuatRotate(0.6, geom.Vec3{0.3, 1, 0.2}.Normalize())
	return []Object{
		{Name: "tapered", Color: Palette[0], Body: geom.Body{
			Shape: geom.Superovoid{A: [3]float64{1, 0.8, 1.2}, Eps: [2]float64{0.5, 0.8}, Taper: [2]float64{0.3, 0.2}},
			Pose:  geom.Pose{Position: geom.Vec3{-1.2, 0, 0}, Orientation: geom.Quat{W: 1}}}},
		{Name: "pointy", Color: Palette[1], Body: geom.Body{
			Shape: geom.Superovoid{A: [3]float64{0.7, 0.9, 0.8}, Eps: [2]float64{1.6, 1.3}},
			Pose:  geom.Pose{Position: geom.Vec3{1.4, 0.3, 0.4}, Orientation: q}}},
	}
}
