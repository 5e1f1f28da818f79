package examples

import (
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
)

// MesherShapes are the shapes of the meshers example, left to right: a
// tapered egg, a rounded box, a pinched diamond and a near-box bar.
var MesherShapes = []geom.Superovoid{
	{A: [3]float64{0.7, 0.7, 0.9}, Eps: [2]float64{1, 0.8}, Taper: [2]float64{-0.4, -0.4}},
	{A: [3]float64{0.8, 0.8, 0.7}, Eps: [2]float64{0.2, 0.2}},
	{A: [3]float64{0.8, 0.8, 0.9}, Eps: [2]float64{1.6, 1.2}},
	{A: [3]float64{0.3, 0.45, 0.9}, Eps: [2]float64{0.1, 0.1}, Taper: [2]float64{0.3, 0.3}},
}

// Meshers shows the two meshers of package tessellate side by side with
// the wireframe on: the evenly sampled parametric grid in the top row and
// marching triangles in the bottom row, on the same shapes. Contact
// overlays are off; the picture is about the meshes (docs/mesh.md).
func Meshers() *scene.Scene {
	s := scene.New()
	s.Description = "The two meshers side by side, wireframe on: evenly sampled parametric grid (top row, 32x16) and marching triangles (bottom row, edge 0.1) on a tapered egg, a rounded box, a pinched diamond and a near-box bar. Made by go run ./scene/internal/gen."
	names := []string{"egg", "box", "diamond", "bar"}
	for i, sh := range MesherShapes {
		x := -3 + 2*float64(i)
		g := object("grid."+names[i], sh, geom.Vec3{x, 0, 1.1}, geom.Quat{W: 1}, scene.PaletteColor(i))
		g.Mesh = scene.Mesh{Method: scene.Grid, Slices: [2]int{32, 16}, Wireframe: true}
		m := object("marching."+names[i], sh, geom.Vec3{x, 0, -1.1}, geom.Quat{W: 1}, scene.PaletteColor(i))
		m.Mesh = scene.Mesh{Method: scene.MarchingTriangles, Edge: 0.1, Wireframe: true}
		s.Objects = append(s.Objects, g, m)
	}
	s.Overlays = scene.Overlays{}
	s.Camera = &scene.Camera{Target: geom.Vec3{0, 0, 0}, Distance: 7, Yaw: 0, Pitch: 12, Fov: 45}
	return s
}
