package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestQueryNonUnitQuaternion: poses whose quaternions are up to Validate's
// 0.001 off unit length are answered as their normalised poses are (the
// rotation is q/|q|'s), with P on a's surface as that rotation places it.
// The review's pair at |q| = 1.0004 was answered −0.108296814021,
// certified, where the normalised poses give −0.108131443497.
func TestQueryNonUnitQuaternion(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	pairs := [][2]geom.Body{{
		{Shape: geom.Superovoid{A: [3]float64{1, 0.6, 0.4}, Eps: [2]float64{1, 1}}},
		{Shape: geom.Superovoid{A: [3]float64{0.8, 0.5, 1.2}, Eps: [2]float64{0.5, 0.8}}, Pose: geom.Pose{Position: geom.Vec3{1.3, 0.9, 0.4}}},
	}}
	pairs = append(pairs, PaperBattery(60, 5)...)
	for i, p := range pairs {
		for _, f := range []float64{1.0004, 0.9996, 1.000999} {
			a, b := p[0], p[1]
			if i == 0 {
				a.Pose.Orientation = geom.Quat{W: 0.5, V: geom.Vec3{0.5, 0.5, 0.5}}
				b.Pose.Orientation = a.Pose.Orientation
			}
			an, bn := a, b
			for _, x := range []*geom.Body{&a, &b} {
				if r.IntN(3) > 0 || x == &a && i == 0 {
					q := x.Pose.Orientation
					x.Pose.Orientation = geom.Quat{W: q.W * f, V: q.V.Mul(f)}
				}
			}
			if err := a.Validate(); err != nil {
				t.Fatalf("pair %d: %v", i, err)
			}
			got, want := Query(&a, &b, nil), Query(&an, &bn, nil)
			if got.Status != want.Status || got.Certified != want.Certified || math.Abs(got.Distance-want.Distance) > 1e-12 {
				t.Fatalf("pair %d, |q| scaled by %v: %.15g %v certified %v; normalised poses %.15g %v certified %v",
					i, f, got.Distance, got.Status, got.Certified, want.Distance, want.Status, want.Certified)
			}
			ta := an.Pose.Transform()
			if g, _ := a.Shape.G(ta.InvPoint(got.P)); math.Abs(g-1) > 1e-9 {
				t.Fatalf("pair %d: G_a(P) = %.12g under a's rigid pose", i, g)
			}
		}
	}
}
