package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRotationOfNonUnitQuaternion: Rotation is the rotation of q/|q| for any
// non-zero q, orthogonal to rounding, and the same (to rounding) as the
// normalised pose's; Validate accepts |q| up to 0.001 from 1, and the
// unnormalised formula's matrix was off orthogonality by 2·(|q|² − 1).
func TestRotationOfNonUnitQuaternion(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 20000; i++ {
		q := Quat{W: r.NormFloat64(), V: Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}
		scale := math.Pow(10, -3+6*r.Float64()) // far off unit length too
		if i%2 == 0 {
			scale = 1 + 0.002*(r.Float64()-0.5) // within Validate's tolerance
		}
		n := quatNorm(q)
		q = Quat{W: q.W / n * scale, V: q.V.Mul(scale / n)}
		p := Pose{Orientation: q}
		R := p.Rotation()
		U := p.Normalized().Rotation()
		for c := 0; c < 3; c++ {
			for d := 0; d < 3; d++ {
				dot := 0.0
				for k := 0; k < 3; k++ {
					dot += R[c*3+k] * R[d*3+k]
				}
				want := 0.0
				if c == d {
					want = 1
				}
				if math.Abs(dot-want) > 1e-14 {
					t.Fatalf("q %v (|q| %.6g): columns %d·%d = %.17g, want %g", q, quatNorm(q), c, d, dot, want)
				}
			}
		}
		for k := range R {
			if math.Abs(R[k]-U[k]) > 1e-15 {
				t.Fatalf("q %v: R[%d] = %.17g, normalised pose's %.17g", q, k, R[k], U[k])
			}
		}
	}
	// Norms whose squares under- or overflow (the editor rotates raw
	// quaternions): the same rotation as at unit length.
	q := Quat{W: 0.5, V: Vec3{-0.5, 0.5, 0.5}}
	U := Pose{Orientation: q}.Rotation()
	for _, f := range []float64{1e-320, 1e-170, 1e-160, 1e155, 1e300} {
		R := Pose{Orientation: Quat{W: q.W * f, V: q.V.Mul(f)}}.Rotation()
		for k := range R {
			if math.Abs(R[k]-U[k]) > 1e-15 {
				t.Fatalf("|q| %g: R[%d] = %v, at unit length %v", f, k, R[k], U[k])
			}
		}
	}
	if R := (Pose{Orientation: Quat{W: math.NaN()}}).Rotation(); R != (Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}) {
		t.Fatalf("q = NaN: %v, want the identity", R)
	}
	if R := (Pose{}).Rotation(); R != (Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}) {
		t.Fatalf("q = 0: %v, want the identity", R)
	}
}
