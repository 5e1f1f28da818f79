package contact

import (
	"math/rand/v2"
	"testing"

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
