package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// Closed forms for ellipsoids: along a shared principal axis the distance of
// two aligned ellipsoids is the gap between their tips; against a plane the
// support is h(n) = sqrt(nᵀ·diag(a)²·n) in the local frame.
func TestEllipsoidClosedForms(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for i := 0; i < 100; i++ {
		ea := geom.Ellipsoid(0.3+r.Float64(), 0.3+r.Float64(), 0.3+r.Float64())
		eb := geom.Ellipsoid(0.3+r.Float64(), 0.3+r.Float64(), 0.3+r.Float64())
		axis := r.IntN(3)
		gap := 2*r.Float64() - 0.2*math.Min(ea.A[axis], eb.A[axis])
		var off geom.Vec3
		off[axis] = ea.A[axis] + eb.A[axis] + gap
		q := randQuat(r)
		R := geom.Pose{Orientation: q}
		a := geom.Body{Shape: ea, Pose: geom.Pose{Position: geom.Vec3{0.5, 0.2, -0.3}, Orientation: q}}
		b := geom.Body{Shape: eb, Pose: geom.Pose{Position: a.Pose.Position.Add(R.ToWorld(off)), Orientation: q}}
		// Separated aligned ellipsoids: the two tips facing each other are
		// mutual support points with opposite normals, hence the closest pair.
		if gap <= 0 {
			continue
		}
		for _, m := range allMethods {
			opt := DefaultOptions()
			opt.Method = m
			res := Query(&a, &b, &opt)
			if res.Status != Converged || math.Abs(res.Distance-gap) > 1e-9 {
				t.Fatalf("%v: aligned ellipsoids along axis %d: %v (%v), want %v", m, axis, res.Distance, res.Status, gap)
			}
		}
	}
	for i := 0; i < 100; i++ {
		e := geom.Ellipsoid(0.3+r.Float64(), 0.3+r.Float64(), 0.3+r.Float64())
		b := geom.Body{Shape: e, Pose: geom.Pose{Position: geom.Vec3{r.Float64(), r.Float64(), r.Float64()}, Orientation: randQuat(r)}}
		n := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		pl := Plane{Normal: n, Offset: r.Float64() - 0.5}
		tr := b.Pose.Transform()
		m := tr.InvDir(n)
		h := math.Sqrt(e.A[0]*e.A[0]*m[0]*m[0] + e.A[1]*e.A[1]*m[1]*m[1] + e.A[2]*e.A[2]*m[2]*m[2])
		want := n.Dot(b.Pose.Position) - h - pl.Offset
		got := PlaneDistance(&b, pl)
		if got.Status != Converged || math.Abs(got.Distance-want) > 1e-12 {
			t.Fatalf("ellipsoid-plane: %v want %v", got.Distance, want)
		}
	}
}
