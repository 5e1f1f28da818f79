package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// shapeInfo is what the solver caches per shape.
type shapeInfo struct {
	shape   geom.Superovoid // the shape analysed (the cache's key is only its hash)
	convex  bool
	hullGap float64
	reason  string // geom's ConvexityReport.Reason (a constant: no allocation)
	// sup is the support table of a non-convex shape, for the support-plane
	// certificate (nil for convex shapes, which need none).
	sup *geom.SupportTable
}

// shapeCache memoises per-shape analysis. It is bounded, so that a stream
// of distinct shapes (a benchmark battery) cannot grow it without limit, and
// keeps two generations: when the current one fills, it becomes the old one
// and a hit there moves the shape back. So the last shapeCacheGen distinct
// shapes met are always held, and a working set of that size is never
// analysed twice (clearing one map when it filled evicted shapes that
// had just been analysed, and re-analysing them dominated the p99 latency).
type shapeCache struct {
	// Keyed by shapeKey: a map keyed by the shape itself hashes seven
	// floats through the runtime's float hashing, about 100 ns a lookup.
	cur, old map[uint64]*shapeInfo
	// untapered is the analysis of every untapered shape (math.md §1:
	// always convex), returned without a lookup.
	untapered shapeInfo
	analysed  int // analyses run (tests)
}

const shapeCacheGen = 4096

func newShapeCache() shapeCache {
	return shapeCache{
		cur:       make(map[uint64]*shapeInfo),
		untapered: analyse(&geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1}}),
	}
}

func (c *shapeCache) info(s *geom.Superovoid) *shapeInfo {
	if s.IsSuperellipsoid() {
		return &c.untapered
	}
	if c.cur == nil {
		*c = newShapeCache()
	}
	k := shapeKey(s)
	if in, ok := c.cur[k]; ok && in.shape == *s {
		return in
	}
	in, ok := c.old[k]
	if !ok || in.shape != *s {
		// A miss, or another shape with the same hash (it then replaces
		// that one: a second analysis, never a wrong answer).
		a := analyse(s)
		in = &a
		c.analysed++
	}
	if len(c.cur) >= shapeCacheGen {
		c.old, c.cur = c.cur, make(map[uint64]*shapeInfo, shapeCacheGen)
	}
	c.cur[k] = in
	return in
}

// shapeKey mixes the bits of a shape's seven numbers into 64 bits (a
// splitmix64-style multiply-xorshift after each). −0 and +0 hash
// differently, which costs at most one more analysis.
func shapeKey(s *geom.Superovoid) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, v := range [7]float64{s.A[0], s.A[1], s.A[2], s.Eps[0], s.Eps[1], s.Taper[0], s.Taper[1]} {
		h = (h ^ math.Float64bits(v)) * 0xbf58476d1ce4e5b9
		h = (h ^ h>>27) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return h
}

// analyse decides convexity and measures the hull gap with geom (math.md
// §1). It costs up to ~150 µs for a tapered shape, hence the cache.
func analyse(s *geom.Superovoid) shapeInfo {
	r := s.Convexity()
	in := shapeInfo{shape: *s, convex: r.Convex, hullGap: r.HullGap, reason: r.Reason}
	if !r.Convex {
		t := s.SupportTable()
		in.sup = &t
	}
	return in
}
