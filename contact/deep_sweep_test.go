package contact

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// nextDeepPair draws a random deep overlap of two convex shapes: semi-axes
// in [0.3, 2], exponents in [0.1, 1.9], every other pair tapered equally in
// x and y (tx = ty in [-0.5, 0.5], e2 <= 1.38: the tapered shapes proven
// convex), random orientations, b's centre within frac × (the sum of the
// bounding radii) of a's.
func nextDeepPair(r *rand.Rand, frac float64, tapered bool) (a, b geom.Body) {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	mk := func() geom.Superovoid {
		s := geom.Superovoid{A: [3]float64{u(0.3, 2), u(0.3, 2), u(0.3, 2)}, Eps: [2]float64{u(0.1, 1.9), u(0.1, 1.9)}}
		if tapered {
			s.Eps[1] = u(0.1, 1.38)
			t := u(-0.5, 0.5)
			s.Taper = [2]float64{t, t}
		}
		return s
	}
	a = geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: randQuat(r)}}
	b = geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: randQuat(r)}}
	rad := frac * (a.Shape.BoundingRadius() + b.Shape.BoundingRadius())
	dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	b.Pose.Position = dir.Mul(rad * math.Cbrt(r.Float64()))
	return a, b
}

// nextTaperedDeepPair draws a random deep overlap of shapes of the whole
// range with independent tapers (most of them not convex): semi-axes in
// [0.3, 2], e1 in [0.1, 1.9], e2 in [0.1, 1.95], tapers in [-0.5, 0.5],
// random orientations, b's centre within frac × (the sum of the bounding
// radii) of a's.
func nextTaperedDeepPair(r *rand.Rand, frac float64) (a, b geom.Body) {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	mk := func() geom.Superovoid {
		return geom.Superovoid{A: [3]float64{u(0.3, 2), u(0.3, 2), u(0.3, 2)}, Eps: [2]float64{u(0.1, 1.9), u(0.1, 1.95)},
			Taper: [2]float64{u(-0.5, 0.5), u(-0.5, 0.5)}}
	}
	a = geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: randQuat(r)}}
	b = geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: randQuat(r)}}
	dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	b.Pose.Position = dir.Mul(frac * (a.Shape.BoundingRadius() + b.Shape.BoundingRadius()) * math.Cbrt(r.Float64()))
	return a, b
}

// TestDeepOverlapSweep checks deep overlaps against the wide reference
// search and prints the counts that docs/contact.md ("Known limits")
// quotes; any wrong, too deep or failed answer fails it.
// Several minutes, so it runs only when SOVVIZ_DEEP_SWEEP=1 is set:
//
//	SOVVIZ_DEEP_SWEEP=1 go test -run DeepOverlapSweep -timeout 60m -v ./contact
//
// The reference here is the wider search (1000 directions, 24 ascents).
// An answer is wrong when it is more than 1e-6 deeper than the reference's
// maximum of the gap, or when the independent gap along its own normal
// differs from it. "Reference missed" counts answers above the reference's
// maximum that the independent gap confirms: the reference itself fell
// short there (for convex pairs every answer's gap is a lower bound of the
// true signed distance).
func TestDeepOverlapSweep(t *testing.T) {
	if os.Getenv("SOVVIZ_DEEP_SWEEP") != "1" {
		t.Skip("set SOVVIZ_DEEP_SWEEP=1 to run the deep-overlap sweep (several minutes)")
	}
	for _, c := range []struct {
		frac    float64
		n       int
		tapered bool
	}{{0.3, 150, false}, {0.6, 150, false}, {1.0, 150, false}, {0.3, 100, true}, {0.6, 100, true}} {
		r := rand.New(sweepPCG(t, uint64(1000*c.frac), 7))
		wrong, overl, missed, cert, worst := 0, 0, 0, 0, 0.0
		for k := 0; k < c.n; k++ {
			a, b := nextDeepPair(r, c.frac, c.tapered)
			opt := DefaultOptions()
			res := Query(&a, &b, &opt)
			if res.Distance >= 0 && res.Status == Converged {
				continue
			}
			overl++
			if res.Certified {
				cert++
			}
			ref, _ := refSignedDistanceN(&a, &b, 1000, 24)
			at := refGapAt(&a, &b, res.Normal)
			switch {
			case res.Status == Failed || math.Abs(at-res.Distance) > 1e-6 || res.Distance < ref-1e-6:
				wrong++
				worst = max(worst, ref-res.Distance)
				t.Errorf("frac %.1f tapered %v pair %d: got %.9f (%v), gap at its normal %.9f, reference %.9f",
					c.frac, c.tapered, k, res.Distance, res.Status, at, ref)
			case res.Distance > ref+1e-6:
				missed++
			}
		}
		t.Logf("centres within %.1f x radii sum, tapered %v: %d of %d overlapping answers wrong (worst %.3g too deep), %d certified; reference missed %d",
			c.frac, c.tapered, wrong, overl, worst, cert, missed)
	}
	// Shapes of the whole range, tapers independent (most of them not
	// convex): no answer may be deeper than the reference's best
	// translation of the hulls, which separates the bodies too.
	for _, frac := range []float64{0.1, 0.3, 0.6} {
		r := rand.New(sweepPCG(t, uint64(1000*frac), 8))
		deeper, failed, nc, worst := 0, 0, 0, 0.0
		for k := 0; k < 100; k++ {
			a, b := nextTaperedDeepPair(r, frac)
			opt := DefaultOptions()
			res := Query(&a, &b, &opt)
			if res.NonConvex == 0 {
				continue
			}
			nc++
			if res.Status == Failed {
				failed++
				t.Errorf("non-convex frac %.1f pair %d: failed", frac, k)
				continue
			}
			if res.Distance >= 0 {
				continue
			}
			ref, nref := refSignedDistanceN(&a, &b, 1000, 24)
			// On non-convex shapes the reference's hinted support search
			// can stop at a lower local maximum; its supports along its
			// best direction, searched afresh, are never further off.
			ref = min(ref, refGapAt(&a, &b, nref))
			if res.Distance < ref-1e-6 {
				// The support search can still miss a body's farthest
				// point (with SOVVIZ_SWEEP_SEED=11 by 4.3e-4, making the
				// hulls seem apart 2.8e-5 above an answer the polytope
				// had proven): before blaming the answer, the gap along
				// that direction from a dense grid of each surface: its
				// supports never exceed the true ones, so its gap can
				// only excuse a false alarm, never hide a deeper answer.
				ref = min(ref, denseGapAt(&a, &b, nref, 1500))
			}
			if res.Distance < ref-1e-6 {
				deeper++
				worst = max(worst, ref-res.Distance)
				t.Errorf("non-convex frac %.1f pair %d: got %.9f (%v), the hulls separate after %.9f", frac, k, res.Distance, res.Status, -ref)
			}
		}
		t.Logf("centres within %.1f x radii sum, non-convex: %d of %d answers deeper than the hulls' translation (worst by %.3g), %d failed",
			frac, deeper, nc, worst, failed)
	}
}

// TestDeepOverlapSweepPairs replays the pairs of TestDeepOverlapSweep's
// streams that were answered too deep after the expanding polytope came in
// (1.17, 0.22 and 0.015): the polytope had found the right direction, but
// Newton's pair from it was thrown away, since neither witness point, nor
// their midpoint, nor a centre lies inside both bodies. Once one overlapping
// pair of two convex shapes is valid, the overlap is proven and later pairs
// need not prove it again. Each answer must now match the wide reference
// search and be certified.
func TestDeepOverlapSweepPairs(t *testing.T) {
	for _, c := range []struct {
		frac    float64
		k       int
		tapered bool
	}{{0.3, 125, false}, {0.3, 70, true}, {0.6, 29, true}} {
		r := rand.New(rand.NewPCG(uint64(1000*c.frac), 7))
		for k := 0; k < c.k; k++ {
			nextDeepPair(r, c.frac, c.tapered)
		}
		a, b := nextDeepPair(r, c.frac, c.tapered)
		opt := DefaultOptions()
		res := Query(&a, &b, &opt)
		ref, _ := refSignedDistanceN(&a, &b, 1000, 24)
		at := refGapAt(&a, &b, res.Normal)
		if res.Status != Converged || !res.Certified || math.Abs(at-res.Distance) > 1e-9 || res.Distance < ref-1e-9 {
			t.Errorf("frac %.1f tapered %v pair %d: got %.12f (%v, certified %v), gap at its normal %.12f, reference %.12f",
				c.frac, c.tapered, c.k, res.Distance, res.Status, res.Certified, at, ref)
		}
	}
}

// TestNonConvexDeepOverlaps: deep overlaps of random tapered shapes (most
// of them non-convex; centres within 0.1 × the sum of the bounding radii).
// Translating b along any direction n by the hulls' h_C(n) separates the
// hulls, hence the bodies, so no overlapping answer may be deeper than the
// reference search's best such translation, and none may fail. Before the
// expanding polytope checked these answers, 33% of them were deeper (by up
// to 1.7), and 32 of 783 queries at three depths failed: Newton's starts
// failed or ended in worse basins.
func TestNonConvexDeepOverlaps(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 2))
	n := 24
	if testing.Short() {
		n = 8
	}
	sv := NewSolver(DefaultOptions())
	checked := 0
	for k := 0; k < n; k++ {
		a, b := nextTaperedDeepPair(r, 0.1)
		res := sv.Query(&a, &b)
		if res.NonConvex == 0 {
			continue
		}
		checked++
		// A separating translation of the hulls: −ref (see
		// TestDeepOverlapSweep for the second search).
		ref, nref := refSignedDistance(&a, &b)
		ref = min(ref, refGapAt(&a, &b, nref))
		if res.Distance >= 0 || res.Distance < ref-1e-6 || res.Certified {
			t.Errorf("pair %d: got %.9f (%v, certified %v), the hulls separate after a translation of %.9f",
				k, res.Distance, res.Status, res.Certified, -ref)
		}
	}
	if checked < n/2 {
		t.Fatalf("only %d of %d pairs checked", checked, n)
	}
}

// denseGapAt is the gap of a and b's hulls along the world direction n,
// −h_a(n) − h_b(−n), with each support the largest n·x over a grid of 2N
// azimuths by N+1 zeniths (for even N the tips and ridges are on it): at
// least the true gap, by the supports' sampling error.
func denseGapAt(a, b *geom.Body, n geom.Vec3, N int) float64 {
	h := func(bd *geom.Body, d geom.Vec3) float64 {
		tf := bd.Pose.Transform()
		best := math.Inf(-1)
		for j := 0; j < 2*N; j++ {
			p1 := -math.Pi + math.Pi*float64(j)/float64(N) // azimuth
			for i := 0; i <= N; i++ {
				p2 := -math.Pi/2 + math.Pi*float64(i)/float64(N) // zenith
				best = max(best, d.Dot(tf.Point(bd.Shape.Point(p1, p2))))
			}
		}
		return best
	}
	return -h(a, n) - h(b, n.Mul(-1))
}
