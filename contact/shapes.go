package contact

import "github.com/sovviz/sovviz/geom"

// shapeInfo is what the solver caches per shape.
type shapeInfo struct {
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
	cur, old map[geom.Superovoid]*shapeInfo
	// untapered is the analysis of every untapered shape (math.md §1:
	// always convex), returned without a lookup.
	untapered shapeInfo
	analysed  int // analyses run (tests)
}

const shapeCacheGen = 4096

func newShapeCache() shapeCache {
	return shapeCache{
		cur:       make(map[geom.Superovoid]*shapeInfo),
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
	if in, ok := c.cur[*s]; ok {
		return in
	}
	in, ok := c.old[*s]
	if !ok {
		a := analyse(s)
		in = &a
		c.analysed++
	}
	if len(c.cur) >= shapeCacheGen {
		c.old, c.cur = c.cur, make(map[geom.Superovoid]*shapeInfo, shapeCacheGen)
	}
	c.cur[*s] = in
	return in
}

// analyse decides convexity and measures the hull gap with geom (math.md
// §1). It costs up to ~150 µs for a tapered shape, hence the cache.
func analyse(s *geom.Superovoid) shapeInfo {
	r := s.Convexity()
	in := shapeInfo{convex: r.Convex, hullGap: r.HullGap, reason: r.Reason}
	if !r.Convex {
		t := s.SupportTable()
		in.sup = &t
	}
	return in
}
