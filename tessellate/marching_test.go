package tessellate

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestMarchingSweep checks marching triangles over the parameter range: a
// closed genus-0 2-manifold without self-intersections, vertices on the
// surface, exact normals, the volume of the closed form, and triangle quality.
func TestMarchingSweep(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 4
	}
	var mt Marcher
	worst := 1.0
	for k, s := range sweep(n) {
		edge := 0.03 * maxAxis(s)
		m, err := mt.Build(s, MarchOptions{Edge: edge})
		if err != nil {
			t.Fatalf("shape %d %+v: %v", k, s, err)
		}
		top := m.Topology()
		if !top.Sphere() {
			t.Errorf("shape %d %+v: not a closed genus-0 manifold: %v", k, s, top)
		}
		if x := selfIntersections(m); x != 0 {
			t.Errorf("shape %d %+v: %d edge-triangle crossings", k, s, x)
		}
		dev := m.Deviation(&s)
		if dev.VertexResidual > 1e-9 {
			t.Errorf("shape %d: vertex residual %g > 1e-9", k, dev.VertexResidual)
		}
		if dev.NormalAngle > 1e-12 {
			t.Errorf("shape %d: normal off the gradient by %g rad", k, dev.NormalAngle)
		}
		st := m.Angles()
		worst = math.Min(worst, st.Above30)
		if st.Above30 < 0.9 {
			t.Errorf("shape %d %+v: only %.1f%% of triangles with min angle ≥ 30° (%v)", k, s, 100*st.Above30, st)
		}
		// Volume: the inscribed mesh is slightly smaller than the body;
		// the chordal error bounds the gap by about area·distance.
		v, want := m.Volume(), Volume(&s)
		if gap := want - v; gap < -1e-9*want || gap > m.Area()*dev.Distance+1e-9 {
			t.Errorf("shape %d %+v: volume %.8g, closed form %.8g (area·distance %.3g)", k, s, v, want, m.Area()*dev.Distance)
		}
		t.Logf("shape %d: V=%d F=%d %v dist %.2g", k, m.NumVertices(), m.NumTriangles(), st, dev.Distance)
	}
	t.Logf("worst share of triangles with min angle ≥ 30°: %.1f%%", 100*worst)
}

// TestMarchingCorners runs marching triangles at an edge of 2% of the
// largest semi-axis on the corners of the parameter range: e1, e2 in
// {0.1, 1, 1.9}, tapers ±0.5, aspect 1:6 along each axis (72 shapes). Every
// one must close (knife edges of e = 1.9 across a thin axis included) into
// a genus-0 manifold without self-intersections, on the surface, with exact
// normals and ≥ 90% of its triangles at ≥ 30°.
func TestMarchingCorners(t *testing.T) {
	if testing.Short() {
		t.Skip("corner sweep: 72 shapes")
	}
	var mt Marcher
	total, failed := 0, 0
	above, tris := 0.0, 0
	worst := 1.0
	for _, A := range [][3]float64{{0.3, 1.8, 1}, {1.8, 0.3, 0.3}, {0.3, 0.3, 1.8}, {1.8, 1.8, 0.3}} {
		for _, e1 := range []float64{0.1, 1, 1.9} {
			for _, e2 := range []float64{0.1, 1, 1.9} {
				for _, tp := range []float64{-0.5, 0.5} {
					s := geom.Superovoid{A: A, Eps: [2]float64{e1, e2}, Taper: [2]float64{tp, -tp}}
					total++
					m, err := mt.Build(s, MarchOptions{Edge: 0.02 * maxAxis(s)})
					if err != nil {
						failed++
						t.Errorf("%+v: %v", s, err)
						continue
					}
					if top := m.Topology(); !top.Sphere() {
						t.Errorf("%+v: %v", s, top)
					}
					if x := selfIntersections(m); x != 0 {
						t.Errorf("%+v: %d edge-triangle crossings", s, x)
					}
					if dev := m.Deviation(&s); !(dev.VertexResidual <= 1e-9) || !(dev.NormalAngle <= 1e-12) {
						t.Errorf("%+v: vertex residual %g, normals off by %g rad", s, dev.VertexResidual, dev.NormalAngle)
					}
					st := m.Angles()
					if st.Above30 < 0.9 {
						t.Errorf("%+v: %v", s, st)
					}
					worst = math.Min(worst, st.Above30)
					above += st.Above30 * float64(m.NumTriangles())
					tris += m.NumTriangles()
				}
			}
		}
	}
	t.Logf("%d of %d corner shapes meshed; %.2f%% of their %d triangles have a minimum angle ≥ 30° (worst shape %.1f%%)",
		total-failed, total, 100*above/float64(tris), tris, 100*worst)
}

// TestMarchingAdaptive: curvature-adaptive refinement shortens the edges
// where the surface curves tightly (the rounded edges of a box-like shape)
// and keeps the target on the flats; the mesh stays closed and on the
// surface.
func TestMarchingAdaptive(t *testing.T) {
	s := geom.Superovoid{A: [3]float64{1, 0.8, 0.6}, Eps: [2]float64{0.3, 0.3}, Taper: [2]float64{0.2, 0}}
	var mt Marcher
	uni, err := mt.Build(s, MarchOptions{Edge: 0.08})
	if err != nil {
		t.Fatal(err)
	}
	uni = uni.Clone()
	ada, err := mt.Build(s, MarchOptions{Edge: 0.08, Adaptive: true})
	if err != nil {
		t.Fatal(err)
	}
	if top := ada.Topology(); !top.Sphere() {
		t.Fatalf("adaptive: %v", top)
	}
	if dev := ada.Deviation(&s); dev.VertexResidual > 1e-9 || dev.NormalAngle > 1e-12 {
		t.Fatalf("adaptive: %+v", dev)
	}
	// Per edge: its length and the turning of the normal along it.
	stats := func(m *Mesh) (flatLen, bentLen, bentShare float64) {
		var nf, nb, n int
		for k := 0; k < len(m.Indices); k++ {
			a, b := m.Indices[k], m.Indices[k-k%3+(k+1)%3]
			if a > b {
				continue
			}
			n++
			l := m.Positions[a].Sub(m.Positions[b]).Len()
			turn := math.Acos(math.Min(1, m.Normals[a].Dot(m.Normals[b])))
			// Flat: the top face, where the normal is nearly +z.
			if m.Normals[a][2] > 0.999 && m.Normals[b][2] > 0.999 {
				flatLen += l
				nf++
			}
			if turn > 0.5 {
				bentLen += l
				nb++
			}
		}
		return flatLen / float64(nf), bentLen / float64(max(nb, 1)), float64(nb) / float64(n)
	}
	uf, _, ush := stats(uni)
	af, _, ash := stats(ada)
	t.Logf("uniform: %d triangles, flat edges %.4f, %.2f%% of edges turn > 0.5 rad; adaptive: %d triangles, flat edges %.4f, %.2f%%",
		uni.NumTriangles(), uf, 100*ush, ada.NumTriangles(), af, 100*ash)
	if ada.NumTriangles() <= uni.NumTriangles() {
		t.Errorf("adaptive mesh not finer: %d vs %d triangles", ada.NumTriangles(), uni.NumTriangles())
	}
	if math.Abs(af-uf) > 0.15*uf {
		t.Errorf("flat edges %.4f (adaptive) vs %.4f (uniform): the flats should keep the target", af, uf)
	}
	if ash > ush/3 {
		t.Errorf("adaptive: %.2f%% of edges still turn the normal by > 0.5 rad (uniform %.2f%%)", 100*ash, 100*ush)
	}
	// Bad option values are errors.
	for _, o := range []MarchOptions{{Edge: 0.08, Adaptive: true, MinEdge: 0.1}, {Edge: 0.08, Adaptive: true, MinEdge: -1}} {
		if _, err := mt.Build(s, o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
