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
//   - the front starts as the boundaries of the two octant patches
//     x, y ≥ 0, z ≥ 0 and z ≤ 0 (see patch.go): closed loops of vertices
//     sampled on the plane sections, with the uncovered surface on their
//     right; the creases of e near 2 lie on those planes;
//   - the front vertex with the smallest uncovered angle is processed next:
//     small angles are closed with one triangle, larger ones are fanned with
//     new vertices about one edge length away in the tangent plane, each
//     projected onto G = 1 by Newton steps along the gradient of the
//     well-scaled residual;
//   - before a fan is added, the proximity test looks for a vertex of the same
//     loop (through a spatial hash) that lies within the angle and closer
//     than the new vertices would be; if there is one the front closes onto
//     it, splitting the loop in two, instead of growing over it;
//   - a loop of three vertices becomes the last triangle of its region;
//   - the meshed quarter is reflected in x = 0 and y = 0.
//
// Each patch is a disc and every loop closes, so the result is a closed
// 2-manifold with Euler characteristic 2. A Marcher owns its buffers and
// reuses them; it is not safe for concurrent use.
type Marcher struct {
	mesh Mesh
	s    geom.Superovoid
	ev   evaluator
	opt  MarchOptions
	h    float64 // target edge
	// expect overestimates the vertex count (bounding-box area over the
	// area of a triangle); a front that grows far beyond it is running
	// away (folding over itself) and is stopped early.
	expect int
	size   []float64 // per-vertex target edge (adaptive)

	// Front nodes. A mesh vertex may have several nodes after splits.
	nodes    []node
	free     []int32 // dead nodes, reused so that the live front stays in cache
	loopLen  []int32
	loopSide []int8 // +1: the upper patch (z > 0), −1: the lower

	bverts []int32        // boundary vertices, curve by curve
	table  []curveSample3 // scratch of sampleCurve
	remap  []int32        // vertex maps of the reflections

	// heap orders the live front nodes by uncovered angle; node.hp is each
	// node's position in it, so that an angle that changes moves its entry
	// instead of leaving a stale one behind.
	heap []heapEnt

	// Spatial hash of the live front nodes: bucket heads; chains run
	// through node.hnext/hprev. Cells are at least twice the proximity
	// radius, so a query looks at no more than 2×2×2 cells.
	head    []int32
	mask    uint64
	invCell float64

	// Stats of the last build.
	Stats MarchStats
}

// node is a front node: a vertex on a loop of the front.
type node struct {
	p, n         geom.Vec3 // the vertex's position and normal
	frm          geom.Vec3 // frame normal (see update), set with the heap key
	vert         int32
	prev, next   int32
	loop         int32
	hp           int32 // heap position, −1 when not queued
	hnext, hprev int32 // hash chain
	bucket       int32
	planes       uint8 // the coordinate planes its vertex lies on (boundary)
	alive        bool
}

// MarchStats describes the last build.
type MarchStats struct {
	Steps, Splits, Fallbacks int
}

type heapEnt struct {
	key  float64 // pseudoAngle of the uncovered angle
	node int32
}

// ErrNoClose is returned when the front fails to close within the step
// budget (a runaway front; none does in the tested parameter range, the 72
// corner shapes of TestMarchingCorners included).
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
	if err := mt.boundary(); err != nil {
		return nil, err
	}
	if err := mt.march(); err != nil {
		return nil, err
	}
	mt.mirror()
	return &mt.mesh, nil
}

func (mt *Marcher) reset() {
	mt.mesh.Reset()
	mt.ev.init(&mt.s)
	mt.size = mt.size[:0]
	mt.nodes = mt.nodes[:0]
	mt.free = mt.free[:0]
	mt.loopLen = mt.loopLen[:0]
	mt.loopSide = mt.loopSide[:0]
	mt.bverts = mt.bverts[:0]
	mt.heap = mt.heap[:0]
	mt.Stats = MarchStats{}
	// Expected vertex count from the bounding box area.
	b := mt.s.LocalAABB()
	d := b.Max.Sub(b.Min)
	area := 2 * (d[0]*d[1] + d[1]*d[2] + d[0]*d[2])
	nv := int(area/(0.5*mt.h*mt.h)) + 64
	if mt.opt.Adaptive {
		nv = int(area/(0.5*mt.h*mt.opt.MinEdge)) + 64
	}
	mt.expect = nv
	// Only the front is hashed: a few times the square root of the
	// vertex count.
	n := 1024
	for n*n < 256*nv && n < 1<<20 {
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
	// Twice the largest proximity radius (1.3 edges), and a little more.
	mt.invCell = 1 / (2.7 * mt.h)
}

// project moves x onto G = 1: the shape's specialised evaluator first,
// geom's projectPoint where that fails.
func (mt *Marcher) project(x geom.Vec3) (p, n geom.Vec3, ok bool) {
	if p, n, ok = mt.ev.project(x, 2*mt.h); ok {
		return p, n, ok
	}
	p, n, ok, fell := projectPoint(&mt.s, x, 2*mt.h)
	if fell {
		mt.Stats.Fallbacks++
	}
	return p, n, ok
}

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

func (mt *Marcher) hashCell(ix, iy, iz int64) int32 {
	h := uint64(ix)*0x9E3779B185EBCA87 ^ uint64(iy)*0xC2B2AE3D27D4EB4F ^ uint64(iz)*0x165667B19E3779F9
	h ^= h >> 29
	return int32(h & mt.mask)
}

// addNode creates a front node for vertex v in loop l and hashes it.
func (mt *Marcher) addNode(v, l int32) int32 {
	p := mt.mesh.Positions[v]
	c := mt.invCell
	b := mt.hashCell(int64(math.Floor(p[0]*c)), int64(math.Floor(p[1]*c)), int64(math.Floor(p[2]*c)))
	h := mt.head[b]
	nd := node{p: p, n: mt.mesh.Normals[v], vert: v, prev: -1, next: -1, loop: l, hp: -1, hnext: h, hprev: -1, bucket: b, planes: planesOf(p), alive: true}
	var i int32
	if k := len(mt.free); k > 0 {
		i = mt.free[k-1]
		mt.free = mt.free[:k-1]
		mt.nodes[i] = nd
	} else {
		i = int32(len(mt.nodes))
		mt.nodes = append(mt.nodes, nd)
	}
	if h >= 0 {
		mt.nodes[h].hprev = i
	}
	mt.head[b] = i
	return i
}

// kill takes a node off the front: out of the heap and the hash.
func (mt *Marcher) kill(i int32) {
	nd := &mt.nodes[i]
	if !nd.alive {
		return
	}
	nd.alive = false
	if nd.hp >= 0 {
		mt.heapRemove(nd.hp)
	}
	if nd.hprev >= 0 {
		mt.nodes[nd.hprev].hnext = nd.hnext
	} else {
		mt.head[nd.bucket] = nd.hnext
	}
	if nd.hnext >= 0 {
		mt.nodes[nd.hnext].hprev = nd.hprev
	}
	mt.free = append(mt.free, i)
}

func (mt *Marcher) link(a, b int32) { mt.nodes[a].next, mt.nodes[b].prev = b, a }

func (mt *Marcher) pos(node int32) geom.Vec3 { return mt.nodes[node].p }

// tangent returns d projected onto the plane normal to n.
func tangent(d, n geom.Vec3) geom.Vec3 { return d.Sub(n.Mul(d.Dot(n))) }

// update recomputes a node's frame and uncovered angle after a change of
// its neighbours, and (re)queues it.
//
// The frame normal is the vertex normal blended with its front
// neighbours', so that on a ridge sharper than the edge length (e near 0
// or 2) the neighbours on the other side do not fold over when projected.
// The angle is measured in that plane, counter-clockwise about the normal
// from the edge to the previous node to the edge to the next one; the heap
// orders by a pseudo-angle, monotone in it, which needs no arctangent.
func (mt *Marcher) update(i int32) {
	nd := &mt.nodes[i]
	a, b, c := nd.n, mt.nodes[nd.prev].n, mt.nodes[nd.next].n
	n := geom.Vec3{2*a[0] + b[0] + c[0], 2*a[1] + b[1] + c[1], 2*a[2] + b[2] + c[2]}
	if l2 := n[0]*n[0] + n[1]*n[1] + n[2]*n[2]; l2 > 1e-18 {
		r := 1 / math.Sqrt(l2)
		n = geom.Vec3{n[0] * r, n[1] * r, n[2] * r}
	} else {
		n = a
	}
	nd.frm = n
	var key float64
	if nd.planes == 0 {
		key = pseudoAngle(mt.angleYX(i))
	} else {
		_, _, w := mt.basis(i)
		sn, cs := math.Sincos(w)
		key = pseudoAngle(sn, cs)
	}
	if nd.hp >= 0 {
		mt.heapFix(nd.hp, key)
	} else {
		mt.heapPush(i, key)
	}
}

// angleYX returns the sine and cosine terms (y, x) of node i's uncovered
// angle atan2(y, x), up to a common positive factor, in its frame.
func (mt *Marcher) angleYX(i int32) (y, x float64) {
	nd := &mt.nodes[i]
	n := nd.frm
	v := nd.p
	pn, pp := mt.nodes[nd.next].p, mt.nodes[nd.prev].p
	d1 := geom.Vec3{pn[0] - v[0], pn[1] - v[1], pn[2] - v[2]}
	d2 := geom.Vec3{pp[0] - v[0], pp[1] - v[1], pp[2] - v[2]}
	// n·(t2×t1) = n·(d2×d1) for the tangential parts t of d.
	cx := d2[1]*d1[2] - d2[2]*d1[1]
	cy := d2[2]*d1[0] - d2[0]*d1[2]
	cz := d2[0]*d1[1] - d2[1]*d1[0]
	y = n[0]*cx + n[1]*cy + n[2]*cz
	x = d2[0]*d1[0] + d2[1]*d1[1] + d2[2]*d1[2] - (n[0]*d2[0]+n[1]*d2[1]+n[2]*d2[2])*(n[0]*d1[0]+n[1]*d1[1]+n[2]*d1[2])
	return y, x
}

// angle returns node i's uncovered angle in [0, 2π).
func (mt *Marcher) angle(i int32) float64 {
	if mt.nodes[i].planes != 0 {
		_, _, w := mt.basis(i)
		return w
	}
	a := math.Atan2(mt.angleYX(i))
	if a < 0 {
		a += 2 * math.Pi
	}
	return a
}

// pseudoAngle maps atan2(y, x), taken in [0, 2π), monotonically onto
// [0, 4): one division instead of an arctangent.
func pseudoAngle(y, x float64) float64 {
	if y >= 0 {
		if x > 0 {
			return y / (x + y)
		}
		if y == 0 && x == 0 {
			return 0
		}
		return 1 - x/(y-x)
	}
	if x <= 0 {
		return 2 + y/(x+y)
	}
	return 3 + x/(x-y)
}

// heapArity: a 4-ary heap is half as deep as a binary one; the pop that
// starts every step sifts down fewer levels, each over one cache line.
const heapArity = 4

func (mt *Marcher) heapSet(k int, e heapEnt) {
	mt.heap[k] = e
	mt.nodes[e.node].hp = int32(k)
}

func (mt *Marcher) heapPush(i int32, key float64) {
	mt.heap = append(mt.heap, heapEnt{key, i})
	k := len(mt.heap) - 1
	mt.nodes[i].hp = int32(k)
	mt.siftUp(k)
}

// heapFix sets the key of the entry at k and restores the order.
func (mt *Marcher) heapFix(k int32, key float64) {
	old := mt.heap[k].key
	mt.heap[k].key = key
	if key < old {
		mt.siftUp(int(k))
	} else {
		mt.siftDown(int(k))
	}
}

func (mt *Marcher) heapRemove(k int32) {
	h := mt.heap
	last := len(h) - 1
	mt.nodes[h[k].node].hp = -1
	if int(k) != last {
		e := h[last]
		mt.heap = h[:last]
		mt.heapSet(int(k), e)
		if k > 0 && e.key < mt.heap[(k-1)/heapArity].key {
			mt.siftUp(int(k))
		} else {
			mt.siftDown(int(k))
		}
		return
	}
	mt.heap = h[:last]
}

func (mt *Marcher) siftUp(k int) {
	h := mt.heap
	e := h[k]
	for k > 0 {
		p := (k - 1) / heapArity
		if h[p].key <= e.key {
			break
		}
		mt.heapSet(k, h[p])
		k = p
	}
	mt.heapSet(k, e)
}

func (mt *Marcher) siftDown(k int) {
	h := mt.heap
	n := len(h)
	e := h[k]
	for {
		l := heapArity*k + 1
		if l >= n {
			break
		}
		m := l
		for r := l + 1; r < l+heapArity && r < n; r++ {
			if h[r].key < h[m].key {
				m = r
			}
		}
		if h[m].key >= e.key {
			break
		}
		mt.heapSet(k, h[m])
		k = m
	}
	mt.heapSet(k, e)
}

// march runs the front until every loop has closed.
func (mt *Marcher) march() error {
	limit := 2*mt.expect + 1000 // a quarter of the surface
	for steps := 0; ; steps++ {
		if steps > limit || len(mt.mesh.Positions) > mt.expect {
			return ErrNoClose
		}
		if len(mt.heap) == 0 {
			return nil
		}
		i := mt.heap[0].node
		mt.heapRemove(0)
		mt.Stats.Steps++
		mt.step(i)
	}
}

// step processes front node i.
func (mt *Marcher) step(i int32) {
	nd := &mt.nodes[i]
	p, n := nd.prev, nd.next
	l := nd.loop
	switch mt.loopLen[l] {
	case 0, 1, 2:
		// Two nodes: both edges already have a triangle on each side.
		for _, k := range [...]int32{i, p, n} {
			mt.kill(k)
		}
		mt.loopLen[l] = 0
		return
	case 3:
		mt.addTri(nd.vert, mt.nodes[p].vert, mt.nodes[n].vert)
		mt.kill(i)
		mt.kill(p)
		mt.kill(n)
		mt.loopLen[l] = 0
		return
	}
	e1, e2, w := mt.basis(i)
	v := mt.pos(i)
	h := mt.size[nd.vert]
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
	// A new edge between two vertices of one mirror plane would lie in
	// that plane, where the reflected quarter meets this one: it would be
	// used by more than two triangles. Fan instead.
	if nt == 1 && mt.nodes[p].planes&mt.nodes[n].planes&mirrorPlanes != 0 {
		nt = 2
		dw = w / 2
	}
	if nt == 1 {
		mt.addTri(nd.vert, mt.nodes[p].vert, mt.nodes[n].vert)
		mt.kill(i)
		mt.link(p, n)
		mt.loopLen[l]--
		mt.update(p)
		mt.update(n)
		return
	}
	// Proximity test: a node of the same loop within the angle, nearer
	// than the new vertices would come, closes the front onto itself.
	if j := mt.nearest(i, e1, e2, w, 1.3*h); j >= 0 && nd.planes&mt.nodes[j].planes&mirrorPlanes == 0 {
		mt.split(i, j)
		return
	}
	last := p
	for k := 1; k < nt; k++ {
		sn, cs := math.Sincos(float64(k) * dw)
		// Blend the target with the neighbouring edge lengths so that
		// the fan's outer edges match.
		f := float64(k) / float64(nt)
		lk := 0.5*h + 0.5*((1-f)*dp+f*dn)
		q, qn, ok := mt.project(v.Add(e1.Mul(lk * cs)).Add(e2.Mul(lk * sn)))
		if !ok || !mt.inPatch(q, mt.loopSide[l]) {
			// Cannot place a vertex: close the angle with one triangle.
			break
		}
		qv := mt.addVertex(q, qn)
		qi := mt.addNode(qv, l)
		mt.addTri(mt.nodes[i].vert, mt.nodes[last].vert, qv)
		mt.link(last, qi)
		mt.loopLen[l]++
		last = qi
	}
	mt.addTri(mt.nodes[i].vert, mt.nodes[last].vert, mt.nodes[n].vert)
	mt.link(last, n)
	mt.kill(i)
	mt.loopLen[l]--
	for k := p; ; k = mt.nodes[k].next {
		mt.update(k)
		if k == n {
			break
		}
	}
}

// nearest returns the closest node j of i's loop within radius r of i that
// is not a neighbour, lies inside i's uncovered angle w and sees i inside
// its own; -1 if none.
func (mt *Marcher) nearest(i int32, e1, e2 geom.Vec3, w, r float64) int32 {
	nd := &mt.nodes[i]
	v := mt.pos(i)
	nv := nd.frm
	p, n := nd.prev, nd.next
	l := nd.loop
	vi := nd.vert
	best, bd := int32(-1), r*r
	c := mt.invCell
	var lo, hi [3]int64
	for k := 0; k < 3; k++ {
		lo[k] = int64(math.Floor((v[k] - r) * c))
		hi[k] = int64(math.Floor((v[k] + r) * c))
	}
	for ix := lo[0]; ix <= hi[0]; ix++ {
		for iy := lo[1]; iy <= hi[1]; iy++ {
			for iz := lo[2]; iz <= hi[2]; iz++ {
				for j := mt.head[mt.hashCell(ix, iy, iz)]; j >= 0; j = mt.nodes[j].hnext {
					nj := &mt.nodes[j]
					if nj.loop != l || j == i || j == p || j == n || nj.vert == vi {
						continue
					}
					q := nj.p
					d := geom.Vec3{q[0] - v[0], q[1] - v[1], q[2] - v[2]}
					d2 := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]
					if d2 >= bd {
						continue
					}
					if nj.n.Dot(nv) <= 0 {
						continue
					}
					// Inside i's angle, with a margin so that the new
					// triangles are not slivers.
					a := math.Atan2(d.Dot(e2), d.Dot(e1))
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
	d := x.Sub(mt.pos(j))
	e1, e2, wj := mt.basis(j)
	a := math.Atan2(d.Dot(e2), d.Dot(e1))
	if a < 0 {
		a += 2 * math.Pi
	}
	return a > 0.1 && a < wj-0.1
}

// split joins node i to node j of the same loop by a new edge, cutting the
// loop into two: i → … → j' → i and j → … → i' → j, where i' and j' are new
// nodes of the same vertices.
func (mt *Marcher) split(i, j int32) {
	mt.Stats.Splits++
	l := mt.nodes[i].loop
	p, x := mt.nodes[i].prev, mt.nodes[j].prev
	jc := mt.addNode(mt.nodes[j].vert, l)
	ic := mt.addNode(mt.nodes[i].vert, l)
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
			a = mt.nodes[a].next
			doneA = a == i
		}
		if !doneB {
			nb++
			mt.nodes[b].loop = nl
			b = mt.nodes[b].next
			doneB = b == j
		}
	}
	mt.loopLen[l] = na
	mt.loopLen = append(mt.loopLen, nb)
	mt.loopSide = append(mt.loopSide, mt.loopSide[l])
	for _, k := range [...]int32{i, jc, x, j, ic, p, mt.nodes[i].next, mt.nodes[j].next} {
		mt.update(k)
	}
}

// mirrorPlanes are the bits of x = 0 and y = 0 in node.planes.
const mirrorPlanes = 3

// planesOf returns the coordinate planes x = 0 (bit 0), y = 0 (bit 1) and
// z = 0 (bit 2) that p lies on; only boundary vertices lie on any.
func planesOf(p geom.Vec3) uint8 {
	var b uint8
	for k := 0; k < 3; k++ {
		if p[k] == 0 {
			b |= 1 << k
		}
	}
	return b
}

// basis returns the frame in which node i's uncovered angle is measured and
// its fan is laid: unit e1 along the edge to the previous node, e2 = n × e1
// (the angle runs from e1 towards e2), and the angle w to the edge to the
// next node.
//
// A node on the patch boundary whose front edge runs along its mirror or
// crease plane is special: the surface on the patch's side of the plane
// makes exactly a right angle with the plane there (half of a full turn
// split by the plane), however sharply the plane section itself turns, but
// a single tangent plane cannot show that where the section turns within an
// edge (the tip of a tapered bar, a knife edge). So the angle is counted as
// a right angle from such an edge to the direction into the patch, plus the
// angle measured in the tangent plane from there; with both edges on the
// plane it is a straight angle.
func (mt *Marcher) basis(i int32) (e1, e2 geom.Vec3, w float64) {
	nd := &mt.nodes[i]
	n := nd.frm
	v := nd.p
	pv, nx := &mt.nodes[nd.prev], &mt.nodes[nd.next]
	dp, dn := pv.p.Sub(v), nx.p.Sub(v)
	sp, sn := nd.planes&pv.planes, nd.planes&nx.planes
	if sp == 0 && sn == 0 {
		t := tangent(dp, n)
		r := 1 / math.Sqrt(t[0]*t[0]+t[1]*t[1]+t[2]*t[2])
		e1 = geom.Vec3{t[0] * r, t[1] * r, t[2] * r}
		e2 = n.Cross(e1)
		w = math.Atan2(dn.Dot(e2), dn.Dot(e1))
		if w < 0 {
			w += 2 * math.Pi
		}
		return e1, e2, w
	}
	side := mt.loopSide[nd.loop]
	if sp != 0 {
		m := mt.into(sp, side, n)
		e1 = m.Cross(n)
		e2 = m
		if sp&sn != 0 {
			return e1, e2, math.Pi
		}
		w = math.Atan2(dn.Dot(e2), dn.Dot(e1))
	} else {
		e1 = tangent(dp, n).Normalize()
		e2 = n.Cross(e1)
		m := mt.into(sn, side, n)
		w = math.Atan2(m.Dot(e2), m.Dot(e1)) + math.Pi/2
	}
	// A right angle from the plane's edge: w in [−π/2, 3π/2) before the
	// clamp to the angle range.
	if w < -math.Pi/2 {
		w += 2 * math.Pi
	}
	return e1, e2, math.Max(w, 0)
}

// into returns the unit direction into the patch from a boundary plane
// (the lowest of planes), in the tangent plane of normal n.
func (mt *Marcher) into(planes uint8, side int8, n geom.Vec3) geom.Vec3 {
	var m geom.Vec3
	switch {
	case planes&1 != 0:
		m = geom.Vec3{1, 0, 0}
	case planes&2 != 0:
		m = geom.Vec3{0, 1, 0}
	default:
		m = geom.Vec3{0, 0, float64(side)}
	}
	return tangent(m, n).Normalize()
}
