package tessellate

import (
	"math"
	"testing"
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
