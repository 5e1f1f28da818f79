package tessellate

import (
	"fmt"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// benchShapes are the shapes of the benchmark table in docs/mesh.md: a
// sphere, a rounded box, a tapered pillow and a long near-box bar.
var benchShapes = []struct {
	name string
	s    geom.Superovoid
}{
	{"sphere", geom.Sphere(1)},
	{"roundbox", geom.Superovoid{A: [3]float64{1, 0.8, 0.6}, Eps: [2]float64{0.3, 0.3}}},
	{"tapered", geom.Superovoid{A: [3]float64{1, 0.8, 0.6}, Eps: [2]float64{0.5, 0.8}, Taper: [2]float64{0.2, -0.1}}},
	{"bar", geom.Superovoid{A: [3]float64{1.8, 0.3, 0.45}, Eps: [2]float64{0.1, 0.1}, Taper: [2]float64{0.3, 0}}},
}

// BenchmarkGrid: a 64×32 grid re-tessellated into the same buffers.
func BenchmarkGrid(b *testing.B) {
	for _, c := range benchShapes {
		b.Run(c.name, func(b *testing.B) {
			var g Grid
			g.Build(c.s, 64, 32) // grow the buffers: the loop measures re-tessellation
			b.ReportAllocs()
			for b.Loop() {
				if _, err := g.Build(c.s, 64, 32); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(g.mesh.NumTriangles()), "tris")
		})
	}
}

// BenchmarkMarch: marching triangles at an edge of 2% of the largest
// semi-axis, re-tessellated into the same buffers.
func BenchmarkMarch(b *testing.B) {
	for _, c := range benchShapes {
		b.Run(c.name, func(b *testing.B) {
			var mt Marcher
			opt := MarchOptions{Edge: 0.02 * maxAxis(c.s)}
			mt.Build(c.s, opt)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := mt.Build(c.s, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(mt.mesh.NumTriangles()), "tris")
		})
	}
}

// BenchmarkMarchEdge: marching triangles on the rounded box at several edge
// lengths (fraction of the largest semi-axis), for the cost curve.
func BenchmarkMarchEdge(b *testing.B) {
	s := benchShapes[1].s
	for _, f := range []float64{0.08, 0.04, 0.02} {
		b.Run(fmt.Sprintf("edge=%g", f), func(b *testing.B) {
			var mt Marcher
			mt.Build(s, MarchOptions{Edge: f * maxAxis(s)})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := mt.Build(s, MarchOptions{Edge: f * maxAxis(s)}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(mt.mesh.NumTriangles()), "tris")
		})
	}
}
