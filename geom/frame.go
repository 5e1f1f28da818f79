package geom

import "math"

// Householder returns the tangent t and binormal b of a normal n from the
// Householder reflection H = I − 2·h·hᵀ/(hᵀh), h = n + σ·|n|·e_x (paper 000
// eqs 13-14). σ = sign(n_x) keeps h away from zero for every n ≠ 0; the frame
// flips where n_x changes sign, which the common-normal equations tolerate
// because they only need some orthonormal basis of the tangent plane.
// (n̂, t, b) has handedness σ; use TangentFrame for a right-handed frame.
func Householder(n Vec3) (t, b Vec3) {
	n0, n1, n2 := n[0], n[1], n[2]
	nn := math.Sqrt(n0*n0 + n1*n1 + n2*n2)
	if nn == 0 {
		return Vec3{0, 1, 0}, Vec3{0, 0, 1}
	}
	h0 := n0 + nn
	if n0 < 0 {
		h0 = n0 - nn
	}
	k := -2 / (h0*h0 + n1*n1 + n2*n2)
	ky, kz := k*n1, k*n2
	return Vec3{ky * h0, 1 + ky*n1, ky * n2}, Vec3{kz * h0, kz * n1, 1 + kz*n2}
}

// HouseholderJac returns the Householder tangent and binormal of n together
// with their Jacobians with respect to n (column-major: J[j*3+i] = ∂t_i/∂n_j),
// for the analytical Jacobians of the contact equations.
func HouseholderJac(n Vec3) (t, b Vec3, dt, db Mat3) {
	return householder(n, true)
}

func householder(n Vec3, jac bool) (t, b Vec3, dt, db Mat3) {
	nn := n.Len()
	if nn == 0 {
		return Vec3{0, 1, 0}, Vec3{0, 0, 1}, dt, db
	}
	sigma := 1.0
	if n[0] < 0 {
		sigma = -1
	}
	h := Vec3{n[0] + sigma*nn, n[1], n[2]}
	beta := h.Dot(h)
	t = Vec3{-2 * h[1] * h[0] / beta, 1 - 2*h[1]*h[1]/beta, -2 * h[1] * h[2] / beta}
	b = Vec3{-2 * h[2] * h[0] / beta, -2 * h[2] * h[1] / beta, 1 - 2*h[2]*h[2]/beta}
	if !jac {
		return
	}
	// ∂t_i/∂h_j = −2/β·(h_i·δ_jy + h_y·δ_ij − 2·h_y·h_i·h_j/β); likewise b with z.
	// ∂h_j/∂n_k = δ_jk + σ·δ_jx·n_k/|n|.
	var Th, Bh [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			var dij float64
			if i == j {
				dij = 1
			}
			Th[i][j] = -2 / beta * (h[1]*dij - 2*h[1]*h[i]*h[j]/beta)
			Bh[i][j] = -2 / beta * (h[2]*dij - 2*h[2]*h[i]*h[j]/beta)
		}
		Th[i][1] += -2 / beta * h[i]
		Bh[i][2] += -2 / beta * h[i]
	}
	for i := 0; i < 3; i++ {
		for k := 0; k < 3; k++ {
			// Column k of dh/dn is e_k + σ·n_k/|n|·e_x.
			x := sigma * n[k] / nn
			dt[k*3+i] = Th[i][k] + Th[i][0]*x
			db[k*3+i] = Bh[i][k] + Bh[i][0]*x
		}
	}
	return
}

// TangentFrame returns a right-handed orthonormal frame (t, b) of the plane
// normal to n, with n̂ × t = b. It is the Householder frame with the binormal
// flipped where needed; the GUI and the query output use it.
func TangentFrame(n Vec3) (t, b Vec3) {
	t, b = Householder(n)
	if n[0] < 0 {
		b = b.Mul(-1)
	}
	return
}

// Orthonormal reports whether (a, b, c) are unit and pairwise orthogonal to tol.
func Orthonormal(a, b, c Vec3, tol float64) bool {
	return math.Abs(a.Len()-1) < tol && math.Abs(b.Len()-1) < tol && math.Abs(c.Len()-1) < tol &&
		math.Abs(a.Dot(b)) < tol && math.Abs(a.Dot(c)) < tol && math.Abs(b.Dot(c)) < tol
}

// HouseholderGrad2 returns the gradients with respect to n of t·v, b·v,
// t·u and b·u, (t, b) the Householder frame of n: the products of
// HouseholderJac's transposed Jacobians with v and u, at a fraction of the
// cost, for the contact equations' rows n_P·t_Q and d·t_Q.
func HouseholderGrad2(n, v, u Vec3) (gtv, gbv, gtu, gbu Vec3) {
	n0, n1, n2 := n[0], n[1], n[2]
	nn := math.Sqrt(n0*n0 + n1*n1 + n2*n2)
	if nn == 0 {
		return
	}
	s := 1 / nn
	h0 := n0 + nn
	if n0 < 0 {
		h0 = n0 - nn
		s = -s
	}
	ib := 1 / (h0*h0 + n1*n1 + n2*n2)
	k := -2 * ib
	// t·v = v_y − 2·h_y·(h·v)/β, so ∇_h(t·v) = −2/β·((h·v)·e_y + h_y·v) +
	// 4·h_y·(h·v)/β²·h, b likewise with z; then ∇_n = ∇_h + σ·(∇_h)_x·n/|n|
	// because h = n + σ·|n|·e_x.
	// (Written out for v and u, twice the same lines on purpose: neither a
	// closure nor a top-level function for one vector was inlined. The
	// contact solver's implicit scheme uses its own register-held copy,
	// contact.frameGrad2, tested bit for bit against this one; the ntb
	// scheme calls this.)
	{
		v0, v1, v2 := v[0], v[1], v[2]
		hv := h0*v0 + n1*v1 + n2*v2
		ct, cb := 4*n1*hv*ib*ib, 4*n2*hv*ib*ib // this order: docs/query.md replays bit for bit
		t0, t1, t2 := k*n1*v0+ct*h0, k*(hv+n1*v1)+ct*n1, k*n1*v2+ct*n2
		b0, b1, b2 := k*n2*v0+cb*h0, k*n2*v1+cb*n1, k*(hv+n2*v2)+cb*n2
		st, sb := s*t0, s*b0
		gtv, gbv = Vec3{t0 + st*n0, t1 + st*n1, t2 + st*n2}, Vec3{b0 + sb*n0, b1 + sb*n1, b2 + sb*n2}
	}
	{
		v0, v1, v2 := u[0], u[1], u[2]
		hv := h0*v0 + n1*v1 + n2*v2
		ct, cb := 4*n1*hv*ib*ib, 4*n2*hv*ib*ib // this order: docs/query.md replays bit for bit
		t0, t1, t2 := k*n1*v0+ct*h0, k*(hv+n1*v1)+ct*n1, k*n1*v2+ct*n2
		b0, b1, b2 := k*n2*v0+cb*h0, k*n2*v1+cb*n1, k*(hv+n2*v2)+cb*n2
		st, sb := s*t0, s*b0
		gtu, gbu = Vec3{t0 + st*n0, t1 + st*n1, t2 + st*n2}, Vec3{b0 + sb*n0, b1 + sb*n1, b2 + sb*n2}
	}
	return
}
