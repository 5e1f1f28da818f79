package contact

import (
	"cmp"
	"slices"

	"github.com/sovviz/sovviz/geom"
)

// PairKey names an unordered pair of bodies by their indices, I < J.
type PairKey struct{ I, J int }

// PairResult is the narrow-phase answer for one pair that passed the broad phase.
type PairResult struct {
	PairKey
	Result Result
}

// World runs the broad phase over a set of bodies and the narrow phase on
// the pairs that pass it, warm-starting each pair from its last result
// (temporal coherence). Buffers are reused: a steady scene allocates nothing
// per update.
type World struct {
	Solver *Solver
	// Margin: pairs whose world boxes are farther apart than this are not
	// queried. A pair within the margin is reported even when separated.
	Margin float64
	boxes  []geom.AABB
	local  []localBox
	order  []int
	cache  map[PairKey]Result
	out    []PairResult
	seen   map[PairKey]bool
}

// NewWorld returns a world with the given solver options and margin.
func NewWorld(opt Options, margin float64) *World {
	return &World{Solver: NewSolver(opt), Margin: margin, cache: map[PairKey]Result{}, seen: map[PairKey]bool{}}
}

// Candidates returns the pairs whose boxes, grown by half the margin each,
// overlap: a sweep and prune along x.
func (w *World) Candidates(bodies []geom.Body) []PairKey {
	w.prepare(bodies)
	var keys []PairKey
	w.sweep(func(i, j int) { keys = append(keys, PairKey{i, j}) })
	return keys
}

// localBox caches a body's tight local box: finding it takes a search
// (~30 µs for a tapered shape), and shapes rarely change between frames.
type localBox struct {
	shape geom.Superovoid
	box   geom.AABB
	ok    bool
}

func (w *World) prepare(bodies []geom.Body) {
	w.boxes = w.boxes[:0]
	w.order = w.order[:0]
	for len(w.local) < len(bodies) {
		w.local = append(w.local, localBox{})
	}
	for i := range bodies {
		lb := &w.local[i]
		if !lb.ok || lb.shape != bodies[i].Shape {
			lb.shape, lb.box, lb.ok = bodies[i].Shape, bodies[i].Shape.LocalAABB(), true
		}
		w.boxes = append(w.boxes, bodies[i].WorldAABBOf(lb.box).Expand(w.Margin/2))
		w.order = append(w.order, i)
	}
	slices.SortFunc(w.order, func(a, b int) int { return cmp.Compare(w.boxes[a].Min[0], w.boxes[b].Min[0]) })
}

func (w *World) sweep(f func(i, j int)) {
	for a := 0; a < len(w.order); a++ {
		i := w.order[a]
		for b := a + 1; b < len(w.order); b++ {
			j := w.order[b]
			if w.boxes[j].Min[0] > w.boxes[i].Max[0] {
				break
			}
			if w.boxes[i].Overlaps(w.boxes[j]) {
				if i < j {
					f(i, j)
				} else {
					f(j, i)
				}
			}
		}
	}
}

// Update answers every pair that passes the broad phase, warm-started from
// the previous update. Invalid bodies are skipped (their pairs report Status
// Failed). The returned slice is reused by the next call.
func (w *World) Update(bodies []geom.Body) []PairResult {
	w.prepare(bodies)
	w.out = w.out[:0]
	clear(w.seen)
	w.sweep(func(i, j int) {
		k := PairKey{i, j}
		var r Result
		if prev, ok := w.cache[k]; ok {
			r = w.Solver.QueryWarm(&bodies[i], &bodies[j], &prev)
		} else {
			r = w.Solver.Query(&bodies[i], &bodies[j])
		}
		w.cache[k] = r
		w.seen[k] = true
		w.out = append(w.out, PairResult{PairKey: k, Result: r})
	})
	// Forget pairs that left the broad phase, so a pair coming back starts cold.
	for k := range w.cache {
		if !w.seen[k] {
			delete(w.cache, k)
		}
	}
	slices.SortFunc(w.out, func(a, b PairResult) int {
		if c := cmp.Compare(a.I, b.I); c != 0 {
			return c
		}
		return cmp.Compare(a.J, b.J)
	})
	return w.out
}

// Reset forgets all cached results (after bodies are added or removed, since
// pairs are keyed by index).
func (w *World) Reset() { clear(w.cache) }
