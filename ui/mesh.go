package ui

import (
	"fmt"
	"math"

	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/render/drawlist"
	"github.com/sovviz/sovviz/scene"
)

// DefaultMesher tessellates with a parametric grid: vertices from the
// angle-centre parametrisation, normals from the implicit gradient (exact;
// the parametric cross product vanishes at the poles). Marching triangles
// fall back to the grid until package tessellate lands.
func DefaultMesher(s geom.Superovoid, set scene.Mesh) (*drawlist.Mesh, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sl := set.EffectiveSlices()
	if set.Method != scene.Grid {
		sl = [2]int{96, 48}
	}
	n1, n2 := sl[0], sl[1]
	if n1 < 3 || n2 < 2 || n1 > 4096 || n2 > 4096 {
		return nil, fmt.Errorf("grid %dx%d out of range", n1, n2)
	}
	m := &drawlist.Mesh{}
	for j := 0; j <= n2; j++ {
		p2 := -math.Pi/2 + math.Pi*float64(j)/float64(n2)
		for i := 0; i <= n1; i++ {
			p1 := -math.Pi + 2*math.Pi*float64(i)/float64(n1)
			p := s.Point(p1, p2)
			nrm, ok := s.Normal(p)
			if !ok || nrm.Len() == 0 {
				d := s.Derivs(p1, p2)
				nrm = d.ParamNormal()
				if nrm.Len() == 0 {
					nrm = geom.Vec3{0, 0, math.Copysign(1, p2)}
				}
			}
			m.Positions = append(m.Positions, p)
			m.Normals = append(m.Normals, nrm.Normalize())
		}
	}
	w := uint32(n1 + 1)
	for j := uint32(0); j < uint32(n2); j++ {
		for i := uint32(0); i < uint32(n1); i++ {
			a, b := j*w+i, j*w+i+1
			c, d := a+w, b+w
			m.Indices = append(m.Indices, a, b, d, a, d, c)
		}
	}
	return m, nil
}
