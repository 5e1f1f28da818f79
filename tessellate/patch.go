package tessellate

import (
	"errors"
	"math"

	"github.com/sovviz/sovviz/geom"
)

// The marcher meshes one quarter of the surface and mirrors it. A superovoid
// is symmetric about the planes x = 0 and y = 0 (the tapers only scale x and
// y with z), and those planes, with z = 0, are exactly where its creases lie:
// |u|^(2/e1) is not twice differentiable at u = 0 for e1 > 1, and likewise
// v, and w for e2 > 1. The front therefore starts as the boundaries of the
// two octant patches x, y ≥ 0, z ≥ 0 and x, y ≥ 0, z ≤ 0, sampled along
// those plane sections, and marches inwards: no triangle straddles a crease,
// however sharp (e near 2 across a thin axis makes knife edges of under 20°).
// The quarter is then reflected in x and y; the reflections are exact, so
// mirrored vertices stay on the surface with exact normals.

// axis points of the quarter: +x and +y on the equator, top and bottom poles.
const (
	ptX = iota
	ptY
	ptTop
	ptBottom
)

// quarterCurve is a plane section of the surface between two axis points:
// the directions cos φ·e1 + sin φ·e2, φ in [0, π/2], each solved along its
// ray (the surface is star-shaped about the centre).
type quarterCurve struct {
	e1, e2   geom.Vec3
	from, to int // axis points
}

var quarterCurves = [5]quarterCurve{
	{geom.Vec3{0, 1, 0}, geom.Vec3{1, 0, 0}, ptY, ptX},       // equator, z = 0
	{geom.Vec3{1, 0, 0}, geom.Vec3{0, 0, 1}, ptX, ptTop},     // y = 0, upper
	{geom.Vec3{0, 0, 1}, geom.Vec3{0, 1, 0}, ptTop, ptY},     // x = 0, upper
	{geom.Vec3{0, 1, 0}, geom.Vec3{0, 0, -1}, ptY, ptBottom}, // x = 0, lower
	{geom.Vec3{0, 0, -1}, geom.Vec3{1, 0, 0}, ptBottom, ptX}, // y = 0, lower
}

// curveTable is the number of samples per quarter curve used to place its
// vertices at even steps of arc length (over the local edge length); the
// vertices themselves are exact surface points.
const curveTable = 256

// radialPoint returns the surface point on the ray through unit direction d
// (Newton on F(t·d), starting from t), with its unit normal, to the
// residual tol (ProjectTol for a vertex; the arc-length table needs less).
func (mt *Marcher) radialPoint(d geom.Vec3, t, tol float64) (x, n geom.Vec3, tOut float64, ok bool) {
	var c powCache
	for it := 0; it < 30; it++ {
		x = geom.Vec3{t * d[0], t * d[1], t * d[2]}
		f, g, good := mt.ev.evalc(x, &c, it > 0)
		if !good {
			break
		}
		if math.Abs(f) <= tol {
			return x, g.Normalize(), t, true
		}
		df := g.Dot(d)
		if !(df > 0) {
			break
		}
		tn := t - f/df
		if !(tn > 0.5*t) || !(tn < 2*t) {
			break
		}
		t = tn
	}
	// The bracketed solve of geom's residual along the ray.
	mt.Stats.Fallbacks++
	p, _, ok := projectRadial(&mt.s, d)
	if !ok {
		return x, n, t, false
	}
	// Keep the coordinates that are zero in d exactly zero.
	for k := 0; k < 3; k++ {
		if d[k] == 0 {
			p[k] = 0
		}
	}
	f, g, good := mt.ev.eval(p)
	if !good || math.Abs(f) > 1e-10 {
		return x, n, t, false
	}
	return p, g.Normalize(), p.Len(), true
}

// boundary samples the quarter curves, adds their vertices and lays out the
// two patch loops as the initial front.
func (mt *Marcher) boundary() error {
	a := mt.s.A
	var axis [4]int32
	for k, p := range [4]geom.Vec3{{a[0], 0, 0}, {0, a[1], 0}, {0, 0, a[2]}, {0, 0, -a[2]}} {
		// geom's log-domain evaluation: on the z axis |u|^p + |v|^p
		// underflows for box-like shapes.
		r, ok := mt.s.ResidualHessian(p, false)
		if !ok || math.Abs(r.G) > ProjectTol {
			return errors.New("marching triangles: axis point off the surface")
		}
		axis[k] = mt.addVertex(p, r.Grad.Normalize())
	}
	// Each curve: its axis points and interior vertices in order.
	var curve [5][]int32
	for c := range quarterCurves {
		start := len(mt.bverts)
		if err := mt.sampleCurve(&quarterCurves[c], axis); err != nil {
			return err
		}
		curve[c] = mt.bverts[start:len(mt.bverts):len(mt.bverts)]
	}
	// Upper patch, clockwise seen from outside (the patch on the right):
	// +x up to the top, down to +y, along the equator back to +x.
	// Lower patch: +x along the equator to +y, down to the bottom, up to +x.
	loops := [2][3]struct {
		c   int
		rev bool
	}{
		{{1, false}, {2, false}, {0, false}},
		{{0, true}, {3, false}, {4, false}},
	}
	for side, lp := range loops {
		l := int32(len(mt.loopLen))
		mt.loopLen = append(mt.loopLen, 0)
		mt.loopSide = append(mt.loopSide, int8(1-2*side))
		first, last := int32(-1), int32(-1)
		for _, seg := range lp {
			vs := curve[seg.c]
			for k := 0; k < len(vs)-1; k++ { // each curve's last vertex starts the next one
				v := vs[k]
				if seg.rev {
					v = vs[len(vs)-1-k]
				}
				i := mt.addNode(v, l)
				mt.nodes[i].n = mt.sideNormal(v, int8(1-2*side))
				if first < 0 {
					first = i
				} else {
					mt.link(last, i)
				}
				last = i
				mt.loopLen[l]++
			}
		}
		mt.link(last, first)
		for k, i := 0, first; k < int(mt.loopLen[l]); k, i = k+1, mt.nodes[i].next {
			mt.update(i)
		}
	}
	return nil
}

// sideNormal returns the normal a boundary vertex shows towards its patch
// (x, y > 0 and z on the patch's side): the gradient a quarter edge inside.
// On a crease the vertex normal itself lies in the mirror plane, between
// the two faces, and would misplace the front's tangent planes.
func (mt *Marcher) sideNormal(v int32, side int8) geom.Vec3 {
	p := mt.mesh.Positions[v]
	d := 0.25 * mt.size[v]
	q := p
	if p[0] == 0 {
		q[0] = d
	}
	if p[1] == 0 {
		q[1] = d
	}
	if p[2] == 0 {
		q[2] = float64(side) * d
	}
	if q == p {
		return mt.mesh.Normals[v]
	}
	if _, g, ok := mt.ev.eval(q); ok {
		return g.Normalize()
	}
	return mt.mesh.Normals[v]
}

// sampleCurve appends the vertices of one quarter curve to mt.bverts, from
// its first axis point to its last, about one local edge length apart.
func (mt *Marcher) sampleCurve(c *quarterCurve, axis [4]int32) error {
	if cap(mt.table) < curveTable+1 {
		mt.table = make([]curveSample3, curveTable+1)
	}
	tb := mt.table[:curveTable+1]
	t := mt.mesh.Positions[axis[c.from]].Len()
	tPrev := t // the radius one sample back, for a linear prediction
	cum := 0.0
	var prev, prevN geom.Vec3
	for k := 0; k <= curveTable; k++ {
		phi := float64(k) * (math.Pi / 2) / curveTable
		var x, n geom.Vec3
		switch k {
		case 0:
			x, n = mt.mesh.Positions[axis[c.from]], mt.mesh.Normals[axis[c.from]]
		case curveTable:
			x, n = mt.mesh.Positions[axis[c.to]], mt.mesh.Normals[axis[c.to]]
			t = x.Len()
		default:
			sn, cs := math.Sincos(phi)
			d := geom.Vec3{cs*c.e1[0] + sn*c.e2[0], cs*c.e1[1] + sn*c.e2[1], cs*c.e1[2] + sn*c.e2[2]}
			// The table only spaces the vertices: 1e-9 is ample, and
			// from a radius extrapolated from the last two samples
			// Newton mostly needs one step.
			tp := t
			if k > 1 {
				tp = 2*t - tPrev
			}
			tPrev = t
			var ok bool
			x, n, t, ok = mt.radialPoint(d, tp, 1e-9)
			if !ok {
				return errors.New("marching triangles: boundary curve off the surface")
			}
		}
		if k > 0 {
			// Arc length over the local edge length at the midpoint.
			h := 0.5 * (mt.localSize(prev, prevN) + mt.localSize(x, n))
			cum += x.Sub(prev).Len() / h
		}
		tb[k] = curveSample3{phi: phi, cum: cum, t: t}
		prev, prevN = x, n
	}
	nseg := int(math.Round(cum))
	if nseg < 2 {
		nseg = 2
	}
	mt.bverts = append(mt.bverts, axis[c.from])
	j := 0
	for s := 1; s < nseg; s++ {
		target := cum * float64(s) / float64(nseg)
		for tb[j+1].cum < target {
			j++
		}
		f := (target - tb[j].cum) / (tb[j+1].cum - tb[j].cum)
		phi := tb[j].phi + f*(tb[j+1].phi-tb[j].phi)
		sn, cs := math.Sincos(phi)
		d := geom.Vec3{cs*c.e1[0] + sn*c.e2[0], cs*c.e1[1] + sn*c.e2[1], cs*c.e1[2] + sn*c.e2[2]}
		// Newton starts from the table's radius, interpolated.
		x, n, _, ok := mt.radialPoint(d, tb[j].t+f*(tb[j+1].t-tb[j].t), ProjectTol)
		if !ok {
			return errors.New("marching triangles: boundary curve off the surface")
		}
		mt.bverts = append(mt.bverts, mt.addVertex(x, n))
	}
	mt.bverts = append(mt.bverts, axis[c.to])
	return nil
}

// curveSample3 is one table entry of a quarter curve: the polar angle and
// the cumulative arc length over edge length, and the radius along the ray.
type curveSample3 struct{ phi, cum, t float64 }

// inPatch reports whether a new vertex lies strictly inside the quarter
// x, y > 0 and on the loop's side of z = 0.
func (mt *Marcher) inPatch(q geom.Vec3, side int8) bool {
	return q[0] > 0 && q[1] > 0 && float64(side)*q[2] > 0
}

// mirror completes the surface from the meshed quarter: reflections in
// x, in y and in both. Vertices on a mirror plane are shared, not repeated;
// a single reflection reverses the triangles' winding. The slices are
// sized once and filled by index: per-element appends cost more than the
// copies themselves here.
func (mt *Marcher) mirror() {
	m := &mt.mesh
	nv := len(m.Positions)
	nt := len(m.Indices)
	if cap(mt.remap) < 3*nv {
		mt.remap = make([]int32, 3*nv)
	}
	mx, my, mxy := mt.remap[:nv], mt.remap[nv:2*nv], mt.remap[2*nv:3*nv]
	// Count the vertices first: those on x = 0 or y = 0 are shared.
	total := nv
	for i := range nv {
		p := m.Positions[i]
		switch onX, onY := p[0] == 0, p[1] == 0; {
		case onX && onY:
		case onX || onY:
			total++
		default:
			total += 3
		}
	}
	m.Positions = grow(m.Positions, total)
	m.Normals = grow(m.Normals, total)
	m.Indices = growIdx(m.Indices, 4*nt)
	pos, nrm := m.Positions, m.Normals
	k := int32(nv)
	for i := range int32(nv) {
		p, n := pos[i], nrm[i]
		onX, onY := p[0] == 0, p[1] == 0
		mx[i], my[i], mxy[i] = i, i, i
		if !onX {
			mx[i] = k
			pos[k], nrm[k] = geom.Vec3{-p[0], p[1], p[2]}, geom.Vec3{-n[0], n[1], n[2]}
			k++
		}
		if !onY {
			my[i] = k
			pos[k], nrm[k] = geom.Vec3{p[0], -p[1], p[2]}, geom.Vec3{n[0], -n[1], n[2]}
			k++
		}
		switch {
		case onX && onY:
		case onX:
			mxy[i] = my[i]
		case onY:
			mxy[i] = mx[i]
		default:
			mxy[i] = k
			pos[k], nrm[k] = geom.Vec3{-p[0], -p[1], p[2]}, geom.Vec3{-n[0], -n[1], n[2]}
			k++
		}
	}
	idx := m.Indices
	for j, o := 0, nt; j < nt; j, o = j+3, o+9 {
		a, b, c := idx[j], idx[j+1], idx[j+2]
		t := idx[o : o+9 : o+9]
		t[0], t[1], t[2] = uint32(mx[a]), uint32(mx[c]), uint32(mx[b])
		t[3], t[4], t[5] = uint32(my[a]), uint32(my[c]), uint32(my[b])
		t[6], t[7], t[8] = uint32(mxy[a]), uint32(mxy[b]), uint32(mxy[c])
	}
}

// grow returns s resliced to length n, reallocating (with its contents)
// only when its capacity is short.
func grow(s []geom.Vec3, n int) []geom.Vec3 {
	if cap(s) < n {
		t := make([]geom.Vec3, len(s), n)
		copy(t, s)
		s = t
	}
	return s[:n]
}

func growIdx(s []uint32, n int) []uint32 {
	if cap(s) < n {
		t := make([]uint32, len(s), n)
		copy(t, s)
		s = t
	}
	return s[:n]
}
