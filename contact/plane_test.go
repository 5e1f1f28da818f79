package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

func TestPlaneDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	// Sphere: closed form.
	for i := 0; i < 100; i++ {
		rad := 0.3 + r.Float64()
		b := geom.Body{Shape: geom.Sphere(rad), Pose: geom.Pose{Position: geom.Vec3{r.Float64(), r.Float64(), r.Float64()}, Orientation: randQuat(r)}}
		n := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		pl := Plane{Normal: n, Offset: r.Float64() - 0.5}
		got := PlaneDistance(&b, pl)
		want := n.Dot(b.Pose.Position) - pl.Offset - rad
		if got.Status != Converged || math.Abs(got.Distance-want) > 1e-12 {
			t.Fatalf("sphere: %v want %v", got.Distance, want)
		}
	}
	// Every shape (convex or not): the deepest point is the minimum of n·x
	// over the body, checked against dense sampling with local refinement.
	for i := 0; i < 80; i++ {
		s := geom.Superovoid{A: [3]float64{0.3 + 1.7*r.Float64(), 0.3 + 1.7*r.Float64(), 0.3 + 1.7*r.Float64()},
			Eps: [2]float64{0.1 + 1.8*r.Float64(), 0.1 + 1.8*r.Float64()}, Taper: [2]float64{r.Float64() - 0.5, r.Float64() - 0.5}}
		b := geom.Body{Shape: s, Pose: geom.Pose{Position: geom.Vec3{0.3, -0.2, 0.1}, Orientation: randQuat(r)}}
		n := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		pl := Plane{Normal: n, Offset: 0.2}
		got := PlaneDistance(&b, pl)
		ref := newRefBody(&b)
		h, _ := ref.support(n.Mul(-1))
		want := -h - pl.Offset
		if got.Status != Converged || math.Abs(got.Distance-want) > 1e-9 {
			t.Errorf("shape %+v: got %v (%v) want %v", s, got.Distance, got.Status, want)
		}
		if math.Abs(n.Dot(got.Q)-pl.Offset) > 1e-12 {
			t.Errorf("Q is not on the plane")
		}
	}
}
