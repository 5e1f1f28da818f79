package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// octKey identifies a cached octree: the shape and the depth it was built to.
type octKey struct {
	shape geom.Superovoid
	depth int
}

// octCacheGen bounds a generation of the octree cache: a depth-5 octree of
// a tapered shape has about 12,000 nodes (~0.5 MB), so two generations of
// 64 (as the shape cache, see shapeCache) hold a scene or a benchmark
// chunk's working set.
const octCacheGen = 64

// octStackMax bounds the branch-and-bound stack: each expansion of one node
// pushes at most 8 pairs and the stack never holds more than 8 per level.
const octStackMax = 8*(geom.MaxOctreeDepth+1)*2 + 16

// octVisitMax caps the node pairs visited by one guess. Deeply overlapping
// pairs have many boundary cells at distance ~0; beyond this the best pair
// found so far is as good a seed as any.
const octVisitMax = 20000

// octree returns the cached octree of s at the solver's depth, building it
// the first time (the only allocation, once per shape). Two generations,
// like the shape cache: a hit in the old one moves the octree back.
func (sv *Solver) octree(s *geom.Superovoid) *geom.Octree {
	if sv.parent != nil {
		return sv.parent.octree(s) // (a mover: its parent's octrees)
	}
	k := octKey{*s, sv.opt.OctreeDepth}
	if o, ok := sv.octs[k]; ok {
		return o
	}
	o, ok := sv.octsOld[k]
	if !ok {
		o = new(geom.Octree)
		o.Build(s, sv.opt.OctreeDepth)
	}
	if sv.octs == nil || len(sv.octs) >= octCacheGen {
		sv.octsOld, sv.octs = sv.octs, make(map[octKey]*geom.Octree, octCacheGen)
	}
	sv.octs[k] = o
	return o
}

// octBall is a node's bounding ball in world coordinates.
type octBall struct {
	c vec
	r float64
}

func nodeBall(n *geom.OctNode, t *geom.Transform) octBall {
	h := n.Box.Max.Sub(n.Box.Min).Mul(0.5)
	return octBall{c: t.Point(n.Box.Center()), r: h.Len()}
}

// octreeGuess is the implicit octree guess (math.md §4): the pair of
// boundary leaves, one from each shape's octree, whose centres are closest,
// by branch and bound over the two hierarchies with the nodes' bounding
// balls as bounds (the boxes live in different frames). The leaves and
// their ancestors are recorded for drawing. It reports false when a shape
// has no boundary leaf (never for a valid shape).
func (sv *Solver) octreeGuess(pr *pair, res *Result) (lp, lq vec, ok bool) {
	oa, ob := sv.octree(pr.a), sv.octree(pr.b)
	if len(oa.Nodes) == 0 || len(ob.Nodes) == 0 {
		return vec{}, vec{}, false
	}
	// Leaves are resolved to half their size: a finer answer would not
	// make a better Newton seed.
	slack := 0.5 * math.Min(leafRadius(oa), leafRadius(ob))
	best, bi, bj := math.Inf(1), int32(-1), int32(-1)
	stack := &sv.octStack
	stack[0] = [2]int32{0, 0}
	top, visits := 1, 0
	for top > 0 && visits < octVisitMax {
		top--
		i, j := stack[top][0], stack[top][1]
		visits++
		na, nb := &oa.Nodes[i], &ob.Nodes[j]
		if na.Class != geom.Boundary || nb.Class != geom.Boundary {
			continue
		}
		ba, bb := nodeBall(na, &pr.ta), nodeBall(nb, &pr.tb)
		d := ba.c.Sub(bb.c).Len()
		if d-ba.r-bb.r >= best-slack {
			continue
		}
		if na.IsLeaf() && nb.IsLeaf() {
			if d < best {
				best, bi, bj = d, i, j
			}
			continue
		}
		// Split the larger node (or the one that can still be split); push
		// the children farthest first so the nearest is explored first.
		splitA := !na.IsLeaf() && (nb.IsLeaf() || ba.r >= bb.r)
		var kids [8]int32
		var dist [8]float64
		n := 0
		for k := int32(0); k < 8; k++ {
			var c int32
			var cb octBall
			if splitA {
				c = na.Child + k
				cb = nodeBall(&oa.Nodes[c], &pr.ta)
				dist[n] = cb.c.Sub(bb.c).Len() - cb.r
			} else {
				c = nb.Child + k
				cb = nodeBall(&ob.Nodes[c], &pr.tb)
				dist[n] = cb.c.Sub(ba.c).Len() - cb.r
			}
			kids[n] = c
			n++
		}
		// insertion sort, nearest last
		for x := 1; x < n; x++ {
			for y := x; y > 0 && dist[y] > dist[y-1]; y-- {
				dist[y], dist[y-1] = dist[y-1], dist[y]
				kids[y], kids[y-1] = kids[y-1], kids[y]
			}
		}
		for x := 0; x < n && top < octStackMax; x++ {
			if splitA {
				stack[top] = [2]int32{kids[x], j}
			} else {
				stack[top] = [2]int32{i, kids[x]}
			}
			top++
		}
	}
	if bi < 0 {
		return vec{}, vec{}, false
	}
	res.UsedGuess = Octree
	res.OctCellA, res.OctCellB = oa.Nodes[bi].Box, ob.Nodes[bj].Box
	return oa.Nodes[bi].Box.Center(), ob.Nodes[bj].Box.Center(), true
}

// leafRadius returns the bounding radius of the deepest cells of o.
func leafRadius(o *geom.Octree) float64 {
	h := o.Nodes[0].Box.Max.Sub(o.Nodes[0].Box.Min).Mul(0.5)
	return h.Len() / float64(int(1)<<o.Depth)
}
