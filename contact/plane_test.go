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

// A pointy body standing on its tip over a plane tilted by a hair: the
// support point is the tip, so the distance is the tip's height (it was the
// centre's once, when tan p2 overflowed).
func TestPlaneDistanceNearlyAxial(t *testing.T) {
	for _, e2 := range []float64{1.8, 1.9, 1.95} {
		for _, tilt := range []float64{1e-3, 1e-8, 1e-12, 1e-20, 1e-100} {
			b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, e2}, Taper: [2]float64{0.2, 0.1}},
				Pose: geom.Pose{Position: geom.Vec3{0, 0, 2}, Orientation: geom.Quat{W: 1}}}
			n := geom.Vec3{math.Sin(tilt), 0, math.Cos(tilt)}
			got := PlaneDistance(&b, Plane{Normal: n})
			// The tip (0, 0, 1) lies at n·tip; no point of the body is lower
			// than the tip by more than the tilt allows (|x| <= 1.5).
			tip := n.Dot(geom.Vec3{0, 0, 1})
			if got.Status != Converged || got.Distance > tip+1e-12 || got.Distance < tip-1.5*tilt-1e-12 {
				t.Fatalf("e2 %g tilt %g: distance %v (%v), tip at %v", e2, tilt, got.Distance, got.Status, tip)
			}
		}
	}
}

// TestPlaneDistanceAgainstSampling checks PlaneDistance over the whole
// parameter range (box-like, ordinary and pointy exponents, tapers up to
// ±0.5, most shapes non-convex) against dense sampling of the surface
// (20,000 rays from the centre and a 200 × 100 parameter grid): the
// answer's point lies on the surface with the distance its own (so the
// answer is at or above the true minimum), and no sampled point is closer
// to the plane, or deeper in it, by more than 1e-9.
func TestPlaneDistanceAgainstSampling(t *testing.T) {
	r := rand.New(rand.NewPCG(99, 1125))
	n := 80
	if testing.Short() {
		n = 10
	}
	worst := 0.0
	for i := 0; i < n; i++ {
		b := geom.Body{Shape: pointSweepShape(r), Pose: geom.Pose{Position: geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}, Orientation: randQuat(r)}}
		nrm := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		pl := Plane{Normal: nrm, Offset: r.NormFloat64()}
		res := PlaneDistance(&b, pl)
		tr := b.Pose.Transform()
		if f, ok := b.Shape.Residual(tr.InvPoint(res.P)); res.Status != Converged || !ok || math.Abs(f) > 1e-12 {
			t.Errorf("shape %d (%+v): %v, P's residual %.3g", i, b.Shape, res.Status, f)
			continue
		}
		if d := nrm.Dot(res.P) - pl.Offset; math.Abs(d-res.Distance) > 1e-12 || res.Q.Sub(res.P.Sub(nrm.Mul(d))).Len() > 1e-12 {
			t.Errorf("shape %d: distance %.17g, P's own %.17g; Q %v", i, res.Distance, d, res.Q)
		}
		best := math.Inf(1)
		const rays = 20000
		ga := math.Pi * (3 - math.Sqrt(5))
		for k := 0; k < rays; k++ {
			z := 1 - (2*float64(k)+1)/rays
			rr := math.Sqrt(1 - z*z)
			u := geom.Vec3{rr * math.Cos(ga*float64(k)), rr * math.Sin(ga*float64(k)), z}.Mul(minAxis(&b.Shape))
			if p, ok := rayToSurface(&b.Shape, u); ok {
				best = math.Min(best, nrm.Dot(tr.Point(p))-pl.Offset)
			}
		}
		for a := 0; a < 200; a++ {
			for c := 0; c <= 100; c++ {
				p := b.Shape.Point(-math.Pi+2*math.Pi*float64(a)/200, -math.Pi/2+math.Pi*float64(c)/100)
				best = math.Min(best, nrm.Dot(tr.Point(p))-pl.Offset)
			}
		}
		if res.Distance > best+1e-9 {
			t.Errorf("shape %d (%+v): distance %.12g, a sampled point %.12g", i, b.Shape, res.Distance, best)
		}
		worst = math.Max(worst, best-res.Distance)
	}
	t.Logf("%d shapes: the answer below the best sample by up to %.3g (the samples' spacing)", n, worst)
}

// TestPlaneDistanceOddNormals: a normal is any nonzero finite vector, the
// offset scaled with it (the same plane), also where |n|² under- or
// overflows; an offset whose ratio to the normal's length overflows is
// answered Failed, never a non-finite distance (n = (0, 0, 1e-10) with
// offset 1e300 was answered −Inf, converged, with a NaN Q; (0, 0, 1e-200)
// and (1e160, 1e160, 0) were answered failed).
func TestPlaneDistanceOddNormals(t *testing.T) {
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{0.5, 1.5}, Taper: [2]float64{0.3, -0.2}},
		Pose: geom.Pose{Position: geom.Vec3{0.1, -0.2, 0.3}, Orientation: geom.Quat{W: 0.8, V: geom.Vec3{0.6, 0, 0}}}}
	for _, c := range []struct {
		unit Plane   // the plane with a unit normal
		k    float64 // the normal and offset scaled by k
	}{
		{Plane{geom.Vec3{0, 0, 1}, 0.5}, 1e-200},
		{Plane{geom.Vec3{0, 0, 1}, 0.5}, 1e200},
		{Plane{geom.Vec3{0, 0, -1}, 0.5}, 5e-324},
		{Plane{geom.Vec3{math.Sqrt2 / 2, math.Sqrt2 / 2, 0}, -1}, 1e-170},
		{Plane{geom.Vec3{math.Sqrt2 / 2, -math.Sqrt2 / 2, 0}, -1}, 1e160},
		{Plane{geom.Vec3{0.6, 0, 0.8}, 2}, 1e-3},
	} {
		want := PlaneDistance(&b, c.unit)
		pl := Plane{c.unit.Normal.Mul(c.k), c.unit.Offset * c.k}
		if c.k == 5e-324 {
			pl.Offset = 0 // (the offset underflows: the plane through the origin)
			want = PlaneDistance(&b, Plane{c.unit.Normal, 0})
		}
		got := PlaneDistance(&b, pl)
		if got.Status != Converged || want.Status != Converged || math.Abs(got.Distance-want.Distance) > 1e-12 || got.Q.Sub(want.Q).Len() > 1e-12 {
			t.Errorf("normal %v, offset %g: %v %v %v, want %v %v %v", pl.Normal, pl.Offset, got.Status, got.Distance, got.Q, want.Status, want.Distance, want.Q)
		}
	}
	inf, nan := math.Inf(1), math.NaN()
	for _, pl := range []Plane{{geom.Vec3{0, 0, 1e-10}, 1e300}, {geom.Vec3{0, 0, 5e-324}, 1}, {geom.Vec3{}, 0}, {geom.Vec3{nan, 0, 1}, 0},
		{geom.Vec3{inf, 0, 1}, 0}, {geom.Vec3{0, 0, 1}, inf}, {geom.Vec3{0, 0, 1}, nan}} {
		if got := PlaneDistance(&b, pl); got.Status != Failed || math.IsNaN(got.Distance) || !finite3(got.P) || !finite3(got.Q) {
			t.Errorf("normal %v, offset %g: %v %v %v %v, want failed", pl.Normal, pl.Offset, got.Status, got.Distance, got.P, got.Q)
		}
	}
}
