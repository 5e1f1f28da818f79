package tessellate

import (
	"errors"
	"fmt"
	"math"

	"github.com/sovviz/sovviz/geom"
)

// MarchOptions controls marching triangles.
type MarchOptions struct {
	// Edge is the target edge length in the shape's units (required, > 0).
	Edge float64
	// Adaptive shortens edges where the surface curves tightly, down to
	// MinEdge: the local length is about 0.35 radians of turning, so every
	// edge bends the normal by roughly the same angle.
	Adaptive bool
	// MinEdge bounds the adaptive edge length from below; 0 means Edge/8.
	MinEdge float64
}

// ProjectTol is the largest well-scaled residual |G^(e2/2) − 1| of a vertex
// placed by marching triangles.
const ProjectTol = 1e-12

// Marcher polygonises the implicit surface G = 1 of a superovoid by marching
// triangles, the advancing-front method of math.md §5 (Hilton et al. 1996;
// Akkouche & Galin 2001; the front rules of Hartmann 1998):
//
//   - a seed hexagon is laid in the tangent plane of a flat spot and projected;
//   - its boundary is the front, a set of closed loops of vertices with the
//     uncovered surface on their right;
//   - the front vertex with the smallest uncovered angle is processed next:
//     small angles are closed with one triangle, larger ones are fanned with
//     new vertices about one edge length away in the tangent plane, each
//     projected onto G = 1 by Newton steps along the gradient of the
//     well-scaled residual;
//   - before a fan is added, the proximity test looks for a vertex of the same
//     loop (through a spatial hash) that lies within the angle and closer
//     than the new vertices would be; if there is one the front closes onto
//     it, splitting the loop in two, instead of growing over it;
//   - a loop of three vertices becomes the last triangle of its region.
//
// On a closed genus-0 surface every loop closes, so the result is a closed
// 2-manifold with Euler characteristic 2. A Marcher owns its buffers and
// reuses them; it is not safe for concurrent use.
type Marcher struct {
	mesh Mesh
	s    geom.Superovoid
	opt  MarchOptions
	h    float64 // target edge
	// expect overestimates the vertex count (bounding-box area over the
	// area of a triangle); a front that grows far beyond it is running
	// away (folding over itself) and is stopped early.
	expect int
	size   []float64 // per-vertex target edge (adaptive)

	// Front nodes. A mesh vertex may have several nodes after splits.
	vert       []int32
	prev, next []int32
	loop       []int32
	alive      []bool
	stamp      []uint32
	loopLen    []int32

	heap []heapItem

	// Spatial hash of front nodes: bucket heads and chains.
	head  []int32
	chain []int32
	mask  uint64
	cell  float64

	// Stats of the last build.
	Stats MarchStats
}

// MarchStats describes the last build.
type MarchStats struct {
	Steps, Splits, Fallbacks int
}

type heapItem struct {
	ang   float64
	node  int32
	stamp uint32
}

// ErrNoClose is returned when the front fails to close within the step
// budget (it never did in the tested parameter range).
var ErrNoClose = errors.New("marching triangles: front did not close")

// Build polygonises s. The returned mesh is owned by the Marcher and
// overwritten by its next build.
func (mt *Marcher) Build(s geom.Superovoid, opt MarchOptions) (*Mesh, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if !(opt.Edge > 0) || math.IsInf(opt.Edge, 0) {
		return nil, fmt.Errorf("edge = %v: must be a positive finite length", opt.Edge)
	}
	amax := math.Max(s.A[0], math.Max(s.A[1], s.A[2]))
	amin := math.Min(s.A[0], math.Min(s.A[1], s.A[2]))
	if opt.Edge > amin {
		return nil, fmt.Errorf("edge = %g: must be at most the smallest semi-axis %g", opt.Edge, amin)
	}
	if opt.Edge < 1e-4*amax {
		return nil, fmt.Errorf("edge = %g: must be at least 1e-4 of the largest semi-axis (%g)", opt.Edge, 1e-4*amax)
	}
	if opt.Adaptive {
		if opt.MinEdge == 0 {
			opt.MinEdge = opt.Edge / 8
		}
		if !(opt.MinEdge > 0) || opt.MinEdge > opt.Edge || opt.MinEdge < 1e-4*amax {
			return nil, fmt.Errorf("min edge = %v: must be in [%g, edge = %g]", opt.MinEdge, 1e-4*amax, opt.Edge)
		}
	}
	mt.s, mt.opt, mt.h = s, opt, opt.Edge
	mt.reset()
	if err := mt.seed(); err != nil {
		return nil, err
	}
	if err := mt.march(); err != nil {
		return nil, err
	}
	return &mt.mesh, nil
}

func (mt *Marcher) reset() {
	mt.mesh.Reset()
	mt.size = mt.size[:0]
	mt.vert, mt.prev, mt.next, mt.loop = mt.vert[:0], mt.prev[:0], mt.next[:0], mt.loop[:0]
	mt.alive, mt.stamp, mt.loopLen = mt.alive[:0], mt.stamp[:0], mt.loopLen[:0]
	mt.heap = mt.heap[:0]
	mt.chain = mt.chain[:0]
	mt.Stats = MarchStats{}
	// Expected vertex count from the bounding box area: sizes the hash.
	b := mt.s.LocalAABB()
	d := b.Max.Sub(b.Min)
	area := 2 * (d[0]*d[1] + d[1]*d[2] + d[0]*d[2])
	hmin := mt.h
	if mt.opt.Adaptive {
		hmin = mt.opt.MinEdge
	}
	nv := int(area/(0.5*mt.h*mt.h)) + 64
	if mt.opt.Adaptive {
		nv = int(area/(0.5*mt.h*hmin)) + 64
	}
	mt.expect = nv
	n := 1024
	for n < 2*nv && n < 1<<24 {
		n *= 2
	}
	if cap(mt.head) < n {
		mt.head = make([]int32, n)
	}
	mt.head = mt.head[:n]
	for i := range mt.head {
		mt.head[i] = -1
	}
	mt.mask = uint64(n - 1)
	mt.cell = 1.6 * mt.h
}

// project moves x onto G = 1 (see projectPoint).
func (mt *Marcher) project(x geom.Vec3) (p, n geom.Vec3, ok bool) {
	p, n, ok, fell := projectPoint(&mt.s, x, 2*mt.h)
	if fell {
		mt.Stats.Fallbacks++
	}
	return p, n, ok
}

func (mt *Marcher) radial(x geom.Vec3) (p, n geom.Vec3, ok bool) { return projectRadial(&mt.s, x) }

// localSize returns the target edge at a surface point with unit normal n.
func (mt *Marcher) localSize(p, n geom.Vec3) float64 {
	if !mt.opt.Adaptive {
		return mt.h
	}
	r, ok := mt.s.ResidualHessian(p, true)
	if !ok {
		return mt.opt.MinEdge
	}
	// Largest normal curvature ≈ largest |eigenvalue| of the Hessian of F
	// restricted to the tangent plane, over |∇F|.
	t, b := geom.Householder(n)
	H := r.Hess
	ht := H.Mul3x1(t)
	hb := H.Mul3x1(b)
	a, c, d := t.Dot(ht), t.Dot(hb), b.Dot(hb)
	mean := 0.5 * (a + d)
	rad := math.Sqrt(0.25*(a-d)*(a-d) + c*c)
	k := (math.Abs(mean) + rad) / r.Grad.Len()
	h := mt.h
	if k > 0 {
		h = math.Min(h, 0.35/k)
	}
	return math.Max(h, mt.opt.MinEdge)
}

func (mt *Marcher) addVertex(p, n geom.Vec3) int32 {
	mt.mesh.Positions = append(mt.mesh.Positions, p)
	mt.mesh.Normals = append(mt.mesh.Normals, n)
	mt.size = append(mt.size, mt.localSize(p, n))
	return int32(len(mt.mesh.Positions) - 1)
}

func (mt *Marcher) addTri(a, b, c int32) {
	mt.mesh.Indices = append(mt.mesh.Indices, uint32(a), uint32(b), uint32(c))
}

func (mt *Marcher) bucket(p geom.Vec3) uint64 {
	ix := int64(math.Floor(p[0] / mt.cell))
	iy := int64(math.Floor(p[1] / mt.cell))
	iz := int64(math.Floor(p[2] / mt.cell))
	return mt.hashCell(ix, iy, iz)
}

func (mt *Marcher) hashCell(ix, iy, iz int64) uint64 {
	h := uint64(ix)*0x9E3779B185EBCA87 ^ uint64(iy)*0xC2B2AE3D27D4EB4F ^ uint64(iz)*0x165667B19E3779F9
	h ^= h >> 29
	return h & mt.mask
}

// addNode creates a front node for vertex v in loop l.
func (mt *Marcher) addNode(v, l int32) int32 {
	i := int32(len(mt.vert))
	mt.vert = append(mt.vert, v)
	mt.prev = append(mt.prev, -1)
	mt.next = append(mt.next, -1)
	mt.loop = append(mt.loop, l)
	mt.alive = append(mt.alive, true)
	mt.stamp = append(mt.stamp, 0)
	b := mt.bucket(mt.mesh.Positions[v])
	mt.chain = append(mt.chain, mt.head[b])
	mt.head[b] = i
	return i
}

func (mt *Marcher) link(a, b int32) { mt.next[a], mt.prev[b] = b, a }

func (mt *Marcher) pos(node int32) geom.Vec3 { return mt.mesh.Positions[mt.vert[node]] }
func (mt *Marcher) nrm(node int32) geom.Vec3 { return mt.mesh.Normals[mt.vert[node]] }

// frame returns the normal of the plane in which a node's angle is measured
// and its fan is laid: the vertex normal blended with its front neighbours',
// so that on a ridge sharper than the edge length (e near 0 or 2) the
// neighbours on the other side do not fold over when projected.
func (mt *Marcher) frame(i int32) geom.Vec3 {
	n := mt.nrm(i).Mul(2).Add(mt.nrm(mt.prev[i])).Add(mt.nrm(mt.next[i]))
	if l := n.Len(); l > 1e-9 {
		return n.Mul(1 / l)
	}
	return mt.nrm(i)
}

// tangent returns d projected onto the plane normal to n.
func tangent(d, n geom.Vec3) geom.Vec3 { return d.Sub(n.Mul(d.Dot(n))) }

// angle returns the uncovered angle at a front node in [0, 2π): measured in
// the tangent plane, counter-clockwise about the normal from the edge to the
// previous node to the edge to the next one.
func (mt *Marcher) angle(i int32) float64 {
	n := mt.frame(i)
	v := mt.pos(i)
	d1 := tangent(mt.pos(mt.next[i]).Sub(v), n)
	d2 := tangent(mt.pos(mt.prev[i]).Sub(v), n)
	a := math.Atan2(n.Dot(d2.Cross(d1)), d2.Dot(d1))
	if a < 0 {
		a += 2 * math.Pi
	}
	return a
}

// push (re)queues a node with its current angle; older entries go stale.
func (mt *Marcher) push(i int32) {
	mt.stamp[i]++
	it := heapItem{mt.angle(i), i, mt.stamp[i]}
	h := append(mt.heap, it)
	k := len(h) - 1
	for k > 0 {
		p := (k - 1) / 2
		if h[p].ang <= h[k].ang {
			break
		}
		h[p], h[k] = h[k], h[p]
		k = p
	}
	mt.heap = h
}

func (mt *Marcher) pop() (heapItem, bool) {
	h := mt.heap
	if len(h) == 0 {
		return heapItem{}, false
	}
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	k := 0
	for {
		l, r, m := 2*k+1, 2*k+2, k
		if l < len(h) && h[l].ang < h[m].ang {
			m = l
		}
		if r < len(h) && h[r].ang < h[m].ang {
			m = r
		}
		if m == k {
			break
		}
		h[k], h[m] = h[m], h[k]
		k = m
	}
	mt.heap = h
	return top, true
}

// seed lays the first hexagon at the flattest of a few candidate spots, so
// that the seed triangles are good on every shape (box-like shapes have
// tight edges along the diagonals, pinched ones sharp tips on the axes).
func (mt *Marcher) seed() error {
	dirs := [...]geom.Vec3{{0.05, 0.03, 1}, {1, 0.04, 0.03}, {0.03, 1, 0.05}, {0.6, 0.5, 0.62}, {0.03, -0.05, -1}}
	best, bestScore := -1, math.Inf(-1)
	var ring [7]geom.Vec3
	var rnorm [7]geom.Vec3
	for k, d := range dirs {
		c, n, ok := mt.radial(geom.Vec3{d[0] * mt.s.A[0], d[1] * mt.s.A[1], d[2] * mt.s.A[2]})
		if !ok {
			continue
		}
		score := 1.0
		t, b := geom.TangentFrame(n)
		for j := 0; j < 6; j++ {
			sn, cs := math.Sincos(float64(j) * math.Pi / 3)
			_, qn, ok := mt.project(c.Add(t.Mul(mt.h * cs)).Add(b.Mul(mt.h * sn)))
			if !ok {
				score = math.Inf(-1)
				break
			}
			score = math.Min(score, qn.Dot(n))
		}
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	if best < 0 {
		return errors.New("marching triangles: no seed point on the surface")
	}
	d := dirs[best]
	c, n, _ := mt.radial(geom.Vec3{d[0] * mt.s.A[0], d[1] * mt.s.A[1], d[2] * mt.s.A[2]})
	ring[6], rnorm[6] = c, n
	h := mt.localSize(c, n)
	t, b := geom.TangentFrame(n)
	for j := 0; j < 6; j++ {
		sn, cs := math.Sincos(float64(j) * math.Pi / 3)
		p, qn, ok := mt.project(c.Add(t.Mul(h * cs)).Add(b.Mul(h * sn)))
		if !ok {
			return errors.New("marching triangles: seed projection failed")
		}
		ring[j], rnorm[j] = p, qn
	}
	ci := mt.addVertex(ring[6], rnorm[6])
	var vi [6]int32
	for j := 0; j < 6; j++ {
		vi[j] = mt.addVertex(ring[j], rnorm[j])
	}
	mt.loopLen = append(mt.loopLen, 6)
	var nodes [6]int32
	for j := 0; j < 6; j++ {
		mt.addTri(ci, vi[j], vi[(j+1)%6])
		nodes[j] = mt.addNode(vi[j], 0)
	}
	for j := 0; j < 6; j++ {
		mt.link(nodes[j], nodes[(j+1)%6])
	}
	for j := 0; j < 6; j++ {
		mt.push(nodes[j])
	}
	return nil
}

// march runs the front until every loop has closed.
func (mt *Marcher) march() error {
	limit := 8*mt.expect + 1000
	for steps := 0; ; steps++ {
		if steps > limit || len(mt.mesh.Positions) > 4*mt.expect {
			return ErrNoClose
		}
		it, ok := mt.pop()
		if !ok {
			return nil
		}
		i := it.node
		if !mt.alive[i] || mt.stamp[i] != it.stamp {
			continue
		}
		mt.Stats.Steps++
		mt.step(i, it.ang)
	}
}

func (mt *Marcher) kill(i int32) { mt.alive[i] = false }

// step processes front node i with uncovered angle w.
func (mt *Marcher) step(i int32, w float64) {
	p, n := mt.prev[i], mt.next[i]
	l := mt.loop[i]
	switch mt.loopLen[l] {
	case 0, 1, 2:
		// Two nodes: both edges already have a triangle on each side.
		for _, k := range [...]int32{i, p, n} {
			mt.kill(k)
		}
		mt.loopLen[l] = 0
		return
	case 3:
		mt.addTri(mt.vert[i], mt.vert[p], mt.vert[n])
		mt.kill(i)
		mt.kill(p)
		mt.kill(n)
		mt.loopLen[l] = 0
		return
	}
	v := mt.pos(i)
	h := mt.size[mt.vert[i]]
	dp := mt.pos(p).Sub(v).Len()
	dn := mt.pos(n).Sub(v).Len()
	pn := mt.pos(n).Sub(mt.pos(p)).Len()
	// Hartmann's rules for the number of triangles in the angle.
	nt := int(3*w/math.Pi) + 1
	dw := w / float64(nt)
	if dw < 0.8 && nt > 1 {
		nt--
		dw = w / float64(nt)
	}
	if nt == 1 && dw > 0.8 && pn > 1.25*h {
		nt = 2
		dw = w / 2
	}
	if w < 3 && (dp <= 0.5*h || dn <= 0.5*h) {
		nt = 1
	}
	if nt == 1 {
		mt.addTri(mt.vert[i], mt.vert[p], mt.vert[n])
		mt.kill(i)
		mt.link(p, n)
		mt.loopLen[l]--
		mt.push(p)
		mt.push(n)
		return
	}
	// Proximity test: a node of the same loop within the angle, nearer
	// than the new vertices would come, closes the front onto itself.
	if j := mt.nearest(i, w, 1.3*h); j >= 0 {
		mt.split(i, j)
		return
	}
	nv := mt.frame(i)
	e1 := tangent(mt.pos(p).Sub(v), nv).Normalize()
	e2 := nv.Cross(e1)
	last := p
	for k := 1; k < nt; k++ {
		sn, cs := math.Sincos(float64(k) * dw)
		// Blend the target with the neighbouring edge lengths so that
		// the fan's outer edges match.
		f := float64(k) / float64(nt)
		lk := 0.5*h + 0.5*((1-f)*dp+f*dn)
		q, qn, ok := mt.project(v.Add(e1.Mul(lk * cs)).Add(e2.Mul(lk * sn)))
		if !ok {
			// Cannot place a vertex: close the angle with one triangle.
			break
		}
		qv := mt.addVertex(q, qn)
		qi := mt.addNode(qv, l)
		mt.addTri(mt.vert[i], mt.vert[last], qv)
		mt.link(last, qi)
		mt.loopLen[l]++
		last = qi
	}
	mt.addTri(mt.vert[i], mt.vert[last], mt.vert[n])
	mt.link(last, n)
	mt.kill(i)
	mt.loopLen[l]--
	for k := p; ; k = mt.next[k] {
		mt.push(k)
		if k == n {
			break
		}
	}
}

// nearest returns the closest node j of i's loop within radius r of i that
// is not a neighbour, lies inside i's uncovered angle w and sees i inside
// its own; -1 if none.
func (mt *Marcher) nearest(i int32, w, r float64) int32 {
	v := mt.pos(i)
	nv := mt.frame(i)
	p, n := mt.prev[i], mt.next[i]
	e1 := tangent(mt.pos(p).Sub(v), nv)
	l := mt.loop[i]
	best, bd := int32(-1), r*r
	c := mt.cell
	ix := int64(math.Floor(v[0] / c))
	iy := int64(math.Floor(v[1] / c))
	iz := int64(math.Floor(v[2] / c))
	for dx := int64(-1); dx <= 1; dx++ {
		for dy := int64(-1); dy <= 1; dy++ {
			for dz := int64(-1); dz <= 1; dz++ {
				for j := mt.head[mt.hashCell(ix+dx, iy+dy, iz+dz)]; j >= 0; j = mt.chain[j] {
					if !mt.alive[j] || mt.loop[j] != l || j == i || j == p || j == n {
						continue
					}
					q := mt.pos(j)
					d := q.Sub(v)
					d2 := d.Dot(d)
					if d2 >= bd || mt.vert[j] == mt.vert[i] {
						continue
					}
					if mt.nrm(j).Dot(nv) <= 0 {
						continue
					}
					// Inside i's angle, with a margin so that the new
					// triangles are not slivers.
					dt := tangent(d, nv)
					a := math.Atan2(nv.Dot(e1.Cross(dt)), e1.Dot(dt))
					if a < 0 {
						a += 2 * math.Pi
					}
					if a < 0.2 || a > w-0.2 {
						continue
					}
					// And i inside j's angle.
					if !mt.sees(j, v) {
						continue
					}
					best, bd = j, d2
				}
			}
		}
	}
	return best
}

// sees reports whether point x lies inside node j's uncovered angle.
func (mt *Marcher) sees(j int32, x geom.Vec3) bool {
	q := mt.pos(j)
	nq := mt.frame(j)
	e1 := tangent(mt.pos(mt.prev[j]).Sub(q), nq)
	d := tangent(x.Sub(q), nq)
	a := math.Atan2(nq.Dot(e1.Cross(d)), e1.Dot(d))
	if a < 0 {
		a += 2 * math.Pi
	}
	wj := mt.angle(j)
	return a > 0.1 && a < wj-0.1
}

// split joins node i to node j of the same loop by a new edge, cutting the
// loop into two: i → … → j' → i and j → … → i' → j, where i' and j' are new
// nodes of the same vertices.
func (mt *Marcher) split(i, j int32) {
	mt.Stats.Splits++
	l := mt.loop[i]
	p, x := mt.prev[i], mt.prev[j]
	jc := mt.addNode(mt.vert[j], l)
	ic := mt.addNode(mt.vert[i], l)
	mt.link(x, jc)
	mt.link(jc, i)
	mt.link(p, ic)
	mt.link(ic, j)
	// Count both loops together; relabel the one starting at j.
	nl := int32(len(mt.loopLen))
	a, b := i, j
	na, nb := int32(0), int32(0)
	doneA, doneB := false, false
	for !doneA || !doneB {
		if !doneA {
			na++
			a = mt.next[a]
			doneA = a == i
		}
		if !doneB {
			nb++
			mt.loop[b] = nl
			b = mt.next[b]
			doneB = b == j
		}
	}
	mt.loopLen[l] = na
	mt.loopLen = append(mt.loopLen, nb)
	for _, k := range [...]int32{i, jc, x, j, ic, p, mt.next[i], mt.next[j]} {
		mt.push(k)
	}
}
