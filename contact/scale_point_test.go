package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// bodyTimes returns b with every length multiplied by k: the semi-axes
// and the position (exponents, tapers and orientation are dimensionless).
func bodyTimes(b geom.Body, k float64) geom.Body {
	for i := range b.Shape.A {
		b.Shape.A[i] *= k
	}
	b.Pose.Position = b.Pose.Position.Mul(k)
	return b
}

// pointScales are the factors TestPointDistanceScaleInvariant scales
// bodies and points by.
var pointScales = [...]float64{1e-14, 1e-10, 1e-6, 1e6, 1e10}

// TestPointDistanceScaleInvariant checks that PointDistance answers a body
// and a point scaled by k with k times the unscaled answer and the same
// status, for k from 1e-14 to 1e10: 40 shapes over the whole range
// (rangedShape: semi-axes 0.3–2, exponents 0.1–1.9, tapers ±0.5) at random
// poses, ten points each of TestPointDistanceSweep's kinds (outside, just
// off the surface out and in, inside, near the centre or an axis, near
// the coordinate planes, where pointy ridges and tips lie). The distance
// must agree to 1e-9 relative, plus 1e-15 of the largest semi-axis: scaling
// the inputs rounds them by about 1e-16 of the size, which moves a point
// 1e-6 of the size from the surface (the nearest drawn) by 1e-10 of its
// distance (measured: at most 2.9e-10 relative).
//
// With the floors relative to 1 instead of the body's size (nearer's and
// the ring walk's rounding margins max(1, d), isFoot's 1e-9·max(1, d),
// projectPoint's step limit 1e-13·max(1, L) and its tangent rows in length
// units, nearestParametric's damping 1e-12) 381 of the 2,000 scaled
// answers were wrong, all at 1e-14 and 1e-10 (up to 2.8e5 and 2.7e-2
// relative, converged), and at 1e-6 the worst was 1.5e-9: on a body below
// 1e-9 in size isFoot passed any surface point for a foot, and
// projectPoint's pivots fell below solve's relative threshold once its
// dimensionless row (the residual's gradient, 1/size) outgrew the length
// rows by 1e14, so that every projection failed.
func TestPointDistanceScaleInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(1e4, 14))
	plan := [...]int{0, 0, 1, 1, 2, 2, 3, 4, 5, 5} // TestPointDistanceSweep's kinds
	bad := 0
	worst := make([]float64, len(pointScales))
	for i := 0; i < 40; i++ {
		s := rangedShape(r, 0.1, 1.9)
		ref := newPointSweepRef(&s)
		b := geom.Body{Shape: s, Pose: geom.Pose{
			Position:    geom.Vec3{-1 + 2*r.Float64(), -1 + 2*r.Float64(), -1 + 2*r.Float64()},
			Orientation: randQuat(r)}}
		tr := b.Pose.Transform()
		size := maxAxis(&s)
		for _, kind := range plan {
			_, xl := ref.point(r, kind)
			x := tr.Point(xl)
			want := PointDistance(&b, x)
			if want.Status == Failed {
				t.Fatalf("body %s, point %s: failed unscaled", goBody(&b), goVec(x))
			}
			for k, sc := range pointScales {
				bs := bodyTimes(b, sc)
				got := PointDistance(&bs, x.Mul(sc))
				e := math.Abs(got.Distance/sc - want.Distance)
				worst[k] = max(worst[k], e/math.Abs(want.Distance))
				if got.Status != want.Status || !(e <= 1e-9*math.Abs(want.Distance)+1e-15*size) {
					bad++
					if bad <= 10 {
						t.Errorf("scale %g, body %s, point %s: %v %.17g, want %v %.17g (relative error %.3g)",
							sc, goBody(&b), goVec(x), got.Status, got.Distance/sc, want.Status, want.Distance, e/math.Abs(want.Distance))
					}
				}
			}
		}
	}
	for k, sc := range pointScales {
		t.Logf("scale %g: worst relative error %.3g", sc, worst[k])
	}
	if bad > 0 {
		t.Errorf("%d of %d scaled answers wrong", bad, 400*len(pointScales))
	}
}
