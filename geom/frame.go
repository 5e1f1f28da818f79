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
