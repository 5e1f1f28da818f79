package contact

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/sovviz/sovviz/geom"
)

// The analysis cache never analyses a shape of a working set of up to
// shapeCacheGen shapes twice, however long the stream of other shapes
// before it, and stays bounded.
func TestShapeCacheKeepsWorkingSet(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	shape := func() geom.Superovoid {
		return geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.5, 0.5 + r.Float64()},
			Taper: [2]float64{0.1 + 0.3*r.Float64(), -0.2}}
	}
	c := newShapeCache()
	for i := 0; i < 3*shapeCacheGen+123; i++ { // a stream of distinct shapes
		s := shape()
		c.info(&s)
	}
	set := make([]geom.Superovoid, shapeCacheGen)
	for i := range set {
		set[i] = shape()
	}
	for pass := 0; pass < 3; pass++ {
		before := c.analysed
		for i := range set {
			c.info(&set[i])
		}
		want := 0
		if pass == 0 {
			want = len(set)
		}
		if got := c.analysed - before; got != want {
			t.Fatalf("pass %d over the working set: %d analyses, want %d", pass, got, want)
		}
	}
	if n := len(c.cur) + len(c.old); n > 2*shapeCacheGen {
		t.Fatalf("cache holds %d shapes, bound %d", n, 2*shapeCacheGen)
	}
	u := geom.Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{0.3, 1.9}}
	if in := c.info(&u); !in.convex || in.sup != nil {
		t.Fatalf("untapered shape: %+v", in)
	}
}

// The cache is keyed by a hash of the shape: an entry of another shape under
// the same key (a hash collision, forced here) is never returned for it.
func TestShapeCacheCollision(t *testing.T) {
	c := newShapeCache()
	convex := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1}, Taper: [2]float64{0.1, 0.1}}
	dented := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1.9}, Taper: [2]float64{0.5, 0.5}}
	in := c.info(&convex)
	if !in.convex || in.shape != convex {
		t.Fatalf("convex shape analysed as %+v", in)
	}
	k := shapeKey(&dented)
	c.cur[k] = in // the convex shape's analysis under the dented one's key
	c.old = map[uint64]*shapeInfo{k: in}
	got := c.info(&dented)
	if got.convex || got.shape != dented || got.sup == nil {
		t.Fatalf("collision: the dented shape got %+v", got)
	}
	if again := c.info(&dented); again != got {
		t.Fatal("the dented shape's analysis was not kept")
	}
}

// TestShapeMemory logs what a body and the solver's analysis of its shape
// occupy (README compares it with a mesh's hierarchy in FCL) and keeps the
// analysis of a non-convex shape within 4 KB: the cache's two generations of
// shapeCacheGen shapes then stay within 32 MB.
func TestShapeMemory(t *testing.T) {
	body, info, table := unsafe.Sizeof(geom.Body{}), unsafe.Sizeof(shapeInfo{}), unsafe.Sizeof(geom.SupportTable{})
	t.Logf("a body: %d bytes; the analysis of its shape: %d bytes, and a support table of %d bytes when non-convex", body, info, table)
	if info+table > 4096 {
		t.Errorf("a non-convex shape's analysis takes %d bytes, over 4 KB", info+table)
	}
}
