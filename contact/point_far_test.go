package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestPointDistanceFar: points 1e101 to 1e300 away (beyond farPoint),
// where |x|² overflows from about 1e154 and PointDistance answered +Inf,
// failed, on 100 whole-range shapes and directions. The answer must be
// converged and finite, its closest point on the surface, its distance
// that point's distance from x (formed scaled) and within a size of the
// centre's distance, and its normal and its closest point's height along
// the direction (the support value: the point itself slides along a
// nearly flat face) those of the same direction at 1e6, where the general
// path (Newton on the foot equations, no support points) answers: the
// normals agree to the angle size/distance, a few 1e-6, the heights to
// its square. (At 1e12 the general path's heights are off by up to 5e-4,
// the rounding of lengths of 1e12.)
func TestPointDistanceFar(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 1012))
	scaledLen := func(v geom.Vec3) float64 {
		m := max(math.Abs(v[0]), math.Abs(v[1]), math.Abs(v[2]))
		if m == 0 {
			return 0
		}
		return m * v.Mul(1/m).Len()
	}
	for i := 0; i < 100; i++ {
		b := geom.Body{Shape: rangedShape(r, 0.1, 1.9), Pose: geom.Pose{Position: geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}, Orientation: randQuat(r)}}
		dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		near := PointDistance(&b, b.Pose.Position.Add(dir.Mul(1e6)))
		if near.Status != Converged {
			t.Fatalf("shape %d: at 1e6 %v", i, near.Status)
		}
		tf := b.Pose.Transform()
		size := maxAxis(&b.Shape)
		for _, D := range []float64{1e101 * size, 1e154, 1e155, 1e200, 1e300} {
			x := b.Pose.Position.Add(dir.Mul(D))
			got := PointDistance(&b, x)
			g, okG := b.Shape.G(tf.InvPoint(got.Closest))
			dx := scaledLen(x.Sub(got.Closest))
			if got.Status != Converged || math.IsInf(got.Distance, 0) || math.IsNaN(got.Distance) ||
				!okG || math.Abs(g-1) > 1e-9 ||
				math.Abs(got.Distance-dx) > 1e-15*D ||
				math.Abs(got.Distance-scaledLen(x.Sub(b.Pose.Position))) > 2*size+1e-15*D ||
				math.Abs(dir.Dot(got.Closest.Sub(near.Closest))) > 1e-9*size ||
				got.Normal.Sub(near.Normal).Len() > 1e-5 {
				t.Errorf("shape %d at %g: %v %v, closest %v (G %.12g; at 1e6 %v), normal %v (at 1e6 %v), |x − closest| %v", i, D, got.Distance, got.Status, got.Closest, g, near.Closest, got.Normal, near.Normal, dx)
			}
		}
	}
}
