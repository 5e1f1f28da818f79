package examples

import (
	"testing"

	"github.com/sovviz/sovviz/scene"
	"github.com/sovviz/sovviz/tessellate"
)

// TestMeshers: the committed scene has both meshers on every shape, and
// both build closed meshes there (the GUI would otherwise fall back to the
// grid and the picture in docs/mesh.md would show two grids).
func TestMeshers(t *testing.T) {
	s := load(t, "meshers.json")
	if len(s.Objects) != 2*len(MesherShapes) {
		t.Fatalf("%d objects", len(s.Objects))
	}
	var g tessellate.Grid
	var mt tessellate.Marcher
	methods := map[scene.MeshMethod]int{}
	for _, o := range s.Objects {
		methods[o.Mesh.Method]++
		if !o.Mesh.Wireframe {
			t.Errorf("%s: wireframe off", o.Name)
		}
		var m *tessellate.Mesh
		var err error
		if o.Mesh.Method == scene.Grid {
			n := o.Mesh.EffectiveSlices()
			m, err = g.Build(o.Shape, n[0], n[1])
		} else {
			m, err = mt.Build(o.Shape, tessellate.MarchOptions{Edge: o.Mesh.EffectiveEdge(o.Shape)})
		}
		if err != nil {
			t.Fatalf("%s: %v", o.Name, err)
		}
		if top := m.Topology(); !top.Sphere() {
			t.Errorf("%s: %v", o.Name, top)
		}
		t.Logf("%s: %s, %d triangles, %v", o.Name, o.Mesh.Method, m.NumTriangles(), m.Angles())
	}
	if methods[scene.Grid] != len(MesherShapes) || methods[scene.MarchingTriangles] != len(MesherShapes) {
		t.Errorf("methods %v", methods)
	}
}
