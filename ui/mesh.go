package ui

import (
	"errors"
	"fmt"

	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/render/drawlist"
	"github.com/sovviz/sovviz/scene"
	"github.com/sovviz/sovviz/tessellate"
)

// NewMesher returns the tessellator the app uses: package tessellate's
// parametric grid or marching triangles, as the object's mesh settings say.
// Vertices lie on the surface and carry the exact (implicit-gradient)
// normals. When marching triangles fail on a shape the grid is used and the
// failure is returned alongside the mesh, so that the object still draws
// and the inspector can say why. The builders are reused between calls.
func NewMesher() MeshFunc {
	var grid tessellate.Grid
	var march tessellate.Marcher
	return func(s geom.Superovoid, set scene.Mesh) (*drawlist.Mesh, error) {
		if set.Method == scene.MarchingTriangles {
			m, err := march.Build(s, tessellate.MarchOptions{Edge: set.EffectiveEdge(s)})
			if err == nil {
				return convert(m), nil
			}
			sl := set.EffectiveSlices()
			g, gerr := grid.Build(s, sl[0], sl[1])
			if gerr != nil {
				return nil, errors.Join(err, gerr)
			}
			return convert(g), fmt.Errorf("marching triangles failed, showing the grid: %w", err)
		}
		sl := set.EffectiveSlices()
		m, err := grid.Build(s, sl[0], sl[1])
		if err != nil {
			return nil, err
		}
		return convert(m), nil
	}
}

// convert copies a tessellate mesh (owned by its builder) into a draw-list
// mesh.
func convert(m *tessellate.Mesh) *drawlist.Mesh {
	return &drawlist.Mesh{
		Positions: append([]geom.Vec3(nil), m.Positions...),
		Normals:   append([]geom.Vec3(nil), m.Normals...),
		Indices:   append([]uint32(nil), m.Indices...),
	}
}
