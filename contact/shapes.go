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

// shapeCache memoises per-shape analysis. It is bounded so that a stream of
// distinct shapes (a benchmark battery) cannot grow it without limit.
type shapeCache struct {
	m map[geom.Superovoid]shapeInfo
}

const shapeCacheMax = 4096

func newShapeCache() shapeCache { return shapeCache{m: make(map[geom.Superovoid]shapeInfo)} }

func (c *shapeCache) info(s *geom.Superovoid) shapeInfo {
	if s.IsSuperellipsoid() {
		// Untapered shapes are always convex (math.md §1): no lookup.
		return analyse(s)
	}
	if c.m == nil {
		c.m = make(map[geom.Superovoid]shapeInfo)
	}
	if in, ok := c.m[*s]; ok {
		return in
	}
	in := analyse(s)
	if len(c.m) >= shapeCacheMax {
		clear(c.m)
	}
	c.m[*s] = in
	return in
}

func (c *shapeCache) pairConvex(pr *pair) bool {
	return c.info(pr.a).convex && c.info(pr.b).convex
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
