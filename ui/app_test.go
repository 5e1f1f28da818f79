package ui

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/scene"
)

// Every object of the built-in scene (grid and marching triangles) gets a
// mesh whose vertices lie on its surface (checked with the implicit
// residual, independently of the tessellator) with unit normals.
func TestMeshesOnSurface(t *testing.T) {
	a := NewApp(scene.Default(), "")
	a.Update()
	for i, o := range a.Scene.Objects {
		if err := a.MeshError(i); err != nil {
			t.Errorf("object %d: %v", i, err)
		}
		m := a.frame.Objects[i].Mesh
		if m == nil || len(m.Indices) < 3*100 {
			t.Fatalf("object %q (%v): no usable mesh", o.Name, o.Mesh.Method)
		}
		for k, p := range m.Positions {
			r, ok := o.Shape.Residual(p)
			if !ok || math.Abs(r) > 1e-6 {
				t.Fatalf("object %q vertex %d %v: residual %g", o.Name, k, p, r)
			}
			if n := m.Normals[k].Len(); math.Abs(n-1) > 1e-9 {
				t.Fatalf("object %q vertex %d: normal length %g", o.Name, k, n)
			}
		}
	}
}

// Editing a shape in the scene (what the ε/T pad does) re-meshes that object
// only and changes its contact result on the next Update; toggling the
// wireframe does not re-mesh.
func TestEditRemeshesAndRequeries(t *testing.T) {
	a := NewApp(scene.Default(), "")
	a.Update()
	v0 := make([]uint64, len(a.Scene.Objects))
	for i := range v0 {
		v0[i] = a.frame.Objects[i].Mesh.Version
	}
	var d0 float64
	for _, p := range a.Pairs {
		if p.I == 0 || p.J == 0 {
			d0 = p.Result.Distance
		}
	}
	a.Scene.Objects[0].Shape.Eps = [2]float64{1.2, 1.4}
	a.Scene.Objects[1].Mesh.Wireframe = !a.Scene.Objects[1].Mesh.Wireframe
	a.Update()
	for i := range v0 {
		changed := a.frame.Objects[i].Mesh.Version != v0[i]
		if changed != (i == 0) {
			t.Errorf("object %d: re-meshed %v", i, changed)
		}
	}
	if a.frame.Objects[1].Wireframe != a.Scene.Objects[1].Mesh.Wireframe {
		t.Errorf("wireframe switch not passed to the draw list")
	}
	var d1 float64
	for _, p := range a.Pairs {
		if p.I == 0 || p.J == 0 {
			d1 = p.Result.Distance
		}
	}
	if d0 == d1 {
		t.Errorf("distance of object 0's pair unchanged (%g) after its shape changed", d0)
	}
}
