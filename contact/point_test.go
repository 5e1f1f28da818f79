package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestPointDistancePointy checks PointDistance where the surface has
// pointy ridges and tips (e near 2), against closed forms:
//   - points off a pointy ridge (e1 1.6–1.9) along the ridge point's own
//     normal, by 1e-4 to 0.03 of the smallest semi-axis: the distance is
//     the offset. 245 of these 300 were answered up to 3.8e-3 too far, as
//     converged: projectPoint fails off every ridge, and another seed's
//     foot won (projectPointCharted now finds the ridge point);
//   - points on the axis above a pointy tip (e2 1.6–1.9): the pole is the
//     foot, the distance the height;
//   - points along the normal of random surface points over the whole
//     range (e 0.1–1.9), 1e-4 to 0.1 of the smallest semi-axis out: the
//     surface point bounds the distance from above, so an answer beyond
//     the offset missed the foot and must not say converged.
func TestPointDistancePointy(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 16))
	check := func(tag string, s geom.Superovoid, x geom.Vec3, want float64) {
		t.Helper()
		b := geom.Body{Shape: s, Pose: geom.Identity()}
		got := PointDistance(&b, x)
		if got.Status != Converged || math.Abs(got.Distance-want) > 1e-9*max(1, want) {
			t.Errorf("%s %+v, point %v: %v %.15g, want %.15g", tag, s, x, got.Status, got.Distance, want)
		}
	}
	for i := 0; i < 300; i++ {
		s := rangedShape(r, 1.6, 1.9)
		s.Eps[1] = 0.3 + 1.2*r.Float64() // (a profile that is not pointy: the ridge point's normal is defined)
		az := []float64{0, math.Pi / 2, math.Pi, -math.Pi / 2}[r.IntN(4)]
		y0 := s.Point(az, -1.2+2.4*r.Float64())
		n, ok := s.Normal(y0)
		if !ok {
			t.Fatalf("no normal at the ridge point %v of %+v", y0, s)
		}
		d := minAxis(&s) * math.Pow(10, -4+2.5*r.Float64())
		check(fmt.Sprintf("ridge point %v, offset %.3g:", y0, d), s, y0.Add(n.Mul(d)), d)
	}
	for i := 0; i < 300; i++ {
		s := rangedShape(r, 1.6, 1.9)
		sign := []float64{-1, 1}[r.IntN(2)]
		d := minAxis(&s) * math.Pow(10, -4+2.5*r.Float64())
		check(fmt.Sprintf("tip, height %.3g:", d), s, geom.Vec3{0, 0, sign * (s.A[2] + d)}, d)
	}
	beyond, unconverged := 0, 0
	for i := 0; i < 3000; i++ {
		s := rangedShape(r, 0.1, 1.9)
		y0 := s.Point(-math.Pi+2*math.Pi*r.Float64(), -math.Pi/2+math.Pi*r.Float64())
		n, ok := s.Normal(y0)
		if !ok {
			continue
		}
		d := minAxis(&s) * math.Pow(10, -4+3*r.Float64())
		b := geom.Body{Shape: s, Pose: geom.Identity()}
		got := PointDistance(&b, y0.Add(n.Mul(d)))
		if got.Status != Converged {
			unconverged++
		}
		if got.Status == Failed || math.IsNaN(got.Distance) {
			t.Errorf("%+v, %.3g along the normal at %v: %v %v", s, d, y0, got.Status, got.Distance)
			continue
		}
		if got.Distance > d*(1+1e-12)+1e-15 {
			beyond++
			if got.Status == Converged {
				t.Errorf("%+v, %.3g along the normal at %v: converged %.15g, beyond the offset", s, d, y0, got.Distance)
			}
		}
	}
	t.Logf("whole range: 3000 points, %d answered beyond the offset (not converged), %d not converged", beyond, unconverged)
}
