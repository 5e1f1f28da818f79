package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// v3 is a 3-vector for the hot loops. Go keeps a struct of up to four
// fields in registers, but an array ([3]float64, as geom.Vec3 is) in
// memory, so every step of Vec3 arithmetic is a store and a load: the
// Newton system's assembly in v3 takes about half the time
// (BenchmarkEvalImplicitJac). The arithmetic is the same, operation for
// operation, so the results are bit for bit those of the Vec3 forms where
// the compiler fuses no multiply-add (amd64 as built by default,
// GOAMD64=v1). Where it may fuse x*y+z (arm64, GOAMD64=v3), it can fuse
// these register forms where it did not fuse the memory ones: the last
// bits differ, within the tolerances (docs/contact.md).
type v3 struct{ x, y, z float64 }

func v3of(v vec) v3 { return v3{v[0], v[1], v[2]} }

func (a v3) vec() vec { return vec{a.x, a.y, a.z} }

func (a v3) add(b v3) v3 { return v3{a.x + b.x, a.y + b.y, a.z + b.z} }

func (a v3) sub(b v3) v3 { return v3{a.x - b.x, a.y - b.y, a.z - b.z} }

func (a v3) scale(c float64) v3 { return v3{a.x * c, a.y * c, a.z * c} }

func (a v3) dot(b v3) float64 { return a.x*b.x + a.y*b.y + a.z*b.z }

// mulMV is geom.MulMV: m·v for a column-major m.
func mulMV(m *geom.Mat3, v v3) v3 {
	return v3{
		m[0]*v.x + m[3]*v.y + m[6]*v.z,
		m[1]*v.x + m[4]*v.y + m[7]*v.z,
		m[2]*v.x + m[5]*v.y + m[8]*v.z,
	}
}

// mulMtV is geom.MulMtV: mᵀ·v.
func mulMtV(m *geom.Mat3, v v3) v3 {
	return v3{
		m[0]*v.x + m[1]*v.y + m[2]*v.z,
		m[3]*v.x + m[4]*v.y + m[5]*v.z,
		m[6]*v.x + m[7]*v.y + m[8]*v.z,
	}
}

// toWorld maps a point by t: R·x + T (geom.Transform.Point).
func toWorld(t *geom.Transform, x v3) v3 { return mulMV(&t.R, x).add(v3of(t.T)) }

// frameGrad2 returns the Householder frame (t, b) of n, bit for bit
// geom.Householder's (TestFrameGrad2), and the gradients with respect to n
// of t·v, b·v, t·u and b·u: the products of geom.HouseholderJac's
// transposed Jacobians with v and u at a fraction of their cost, for the
// contact equations' rows n_P·t_Q and d·t_Q. Without grads only the frame
// is computed. n must be nonzero and finite.
//
// t·v = v_y − 2·h_y·(h·v)/β, so ∇_h(t·v) = −2/β·((h·v)·e_y + h_y·v) +
// 4·h_y·(h·v)/β²·h, b likewise with z; then ∇_n = ∇_h + σ·(∇_h)_x·n/|n|
// because h = n + σ·|n|·e_x.
func frameGrad2(n, v, u v3, grads bool) (t, b, gtv, gbv, gtu, gbu v3) {
	nn := math.Sqrt(n.x*n.x + n.y*n.y + n.z*n.z)
	s := 1 / nn
	h0 := n.x + nn
	if n.x < 0 {
		h0 = n.x - nn
		s = -s
	}
	beta := h0*h0 + n.y*n.y + n.z*n.z
	kf := -2 / beta // Householder's factor
	ky, kz := kf*n.y, kf*n.z
	t = v3{ky * h0, 1 + ky*n.y, ky * n.z}
	b = v3{kz * h0, kz * n.y, 1 + kz*n.z}
	if !grads {
		return
	}
	ib := 1 / beta
	k := -2 * ib // kept apart from kf: −2·(1/β) and −2/β round differently
	grad := func(v v3) (gt, gb v3) {
		hv := h0*v.x + n.y*v.y + n.z*v.z
		ct, cb := 4*n.y*hv*ib*ib, 4*n.z*hv*ib*ib
		t0, t1, t2 := k*n.y*v.x+ct*h0, k*(hv+n.y*v.y)+ct*n.y, k*n.y*v.z+ct*n.z
		b0, b1, b2 := k*n.z*v.x+cb*h0, k*n.z*v.y+cb*n.y, k*(hv+n.z*v.z)+cb*n.z
		st, sb := s*t0, s*b0
		return v3{t0 + st*n.x, t1 + st*n.y, t2 + st*n.z}, v3{b0 + sb*n.x, b1 + sb*n.y, b2 + sb*n.z}
	}
	gtv, gbv = grad(v)
	gtu, gbu = grad(u)
	return
}

// tangentFrame is geom.TangentFrame (the Householder frame of n with the
// binormal flipped where n's first component is negative), bit for bit,
// from frameGrad2's frame (TestFrameGrad2).
func tangentFrame(n vec) (t, b vec) {
	if n == (vec{}) {
		return geom.TangentFrame(n)
	}
	tv, bv, _, _, _, _ := frameGrad2(v3of(n), v3{}, v3{}, false)
	if n[0] < 0 {
		bv = bv.scale(-1)
	}
	return tv.vec(), bv.vec()
}
