package contact

import "math"

// solve solves the n×n system J·x = r by Gaussian elimination with partial
// pivoting on a copy (fixed-size arrays: no allocation). It returns ok = false
// when a pivot is negligible, and a cheap condition estimate: the ratio of the
// largest to the smallest pivot magnitude.
func solve(J *[6][6]float64, r *[6]float64, n int) (x [6]float64, cond float64, ok bool) {
	a := *J
	return solveInPlace(&a, r, n)
}

// solveInPlace is solve that destroys J.
func solveInPlace(J *[6][6]float64, r *[6]float64, n int) (x [6]float64, cond float64, ok bool) {
	if n == 6 {
		return solve6InPlace(J, r)
	}
	a := J
	b := *r
	scale := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if v := a[i][j]; v > scale {
				scale = v
			} else if -v > scale {
				scale = -v
			}
		}
	}
	if !(scale > 0) || math.IsInf(scale, 0) {
		return x, math.Inf(1), false
	}
	pmax, pmin := 0.0, math.Inf(1)
	for k := 0; k < n; k++ {
		p := k
		for i := k + 1; i < n; i++ {
			if math.Abs(a[i][k]) > math.Abs(a[p][k]) {
				p = i
			}
		}
		piv := math.Abs(a[p][k])
		if piv <= 1e-14*scale {
			return x, math.Inf(1), false
		}
		pmax, pmin = max(pmax, piv), min(pmin, piv)
		if p != k {
			a[p], a[k] = a[k], a[p]
			b[p], b[k] = b[k], b[p]
		}
		inv := 1 / a[k][k]
		a[k][k] = inv // kept for the back substitution
		rk := &a[k]
		for i := k + 1; i < n; i++ {
			ri := &a[i]
			f := ri[k] * inv
			if f == 0 {
				continue
			}
			for j := k + 1; j < n; j++ {
				ri[j] -= f * rk[j]
			}
			b[i] -= f * b[k]
		}
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		ri := &a[i]
		for j := i + 1; j < n; j++ {
			s -= ri[j] * x[j]
		}
		x[i] = s * ri[i]
	}
	for i := 0; i < n; i++ {
		if math.IsNaN(x[i]) || math.IsInf(x[i], 0) {
			return x, math.Inf(1), false
		}
	}
	return x, pmax / pmin, true
}

// solve6InPlace is solveInPlace for n = 6 with the size a constant, so that
// the compiler drops the bounds checks of the elimination's inner loops
// (BenchmarkSolve6: 136 ns against 172 ns for the general loop; it repeats that loop with the size fixed on purpose: a shared helper for the scale cost 15 ns).
func solve6InPlace(a *[6][6]float64, r *[6]float64) (x [6]float64, cond float64, ok bool) {
	b := *r
	scale := 0.0
	for i := range a {
		for _, v := range &a[i] {
			if v > scale {
				scale = v
			} else if -v > scale {
				scale = -v
			}
		}
	}
	if !(scale > 0) || math.IsInf(scale, 0) {
		return x, math.Inf(1), false
	}
	pmax, pmin := 0.0, math.Inf(1)
	for k := 0; k < 6; k++ {
		p, piv := k, math.Abs(a[k][k])
		for i := k + 1; i < 6; i++ {
			if v := math.Abs(a[i][k]); v > piv {
				p, piv = i, v
			}
		}
		if piv <= 1e-14*scale {
			return x, math.Inf(1), false
		}
		if piv > pmax {
			pmax = piv
		}
		if piv < pmin {
			pmin = piv
		}
		if p != k {
			a[p], a[k] = a[k], a[p]
			b[p], b[k] = b[k], b[p]
		}
		inv := 1 / a[k][k]
		a[k][k] = inv // kept for the back substitution
		rk := &a[k]
		for i := k + 1; i < 6; i++ {
			ri := &a[i]
			f := ri[k] * inv
			if f == 0 {
				continue
			}
			for j := k + 1; j < 6; j++ {
				ri[j] -= f * rk[j]
			}
			b[i] -= f * b[k]
		}
	}
	for i := 5; i >= 0; i-- {
		s := b[i]
		ri := &a[i]
		for j := i + 1; j < 6; j++ {
			s -= ri[j] * x[j]
		}
		x[i] = s * ri[i]
	}
	for i := range x {
		if math.IsNaN(x[i]) || math.IsInf(x[i], 0) {
			return x, math.Inf(1), false
		}
	}
	return x, pmax / pmin, true
}

// solveImplicit solves the implicit scheme's 6×6 Newton system without
// touching J. Its last two rows are (∇Fa, 0) and (0, ∇Fb), so each of them
// gives one unknown in terms of the other two of its point; eliminating those
// first leaves a dense 4×4 system. That is Gaussian elimination with a fixed
// first pair of pivots (each gradient's largest component, a complete pivot
// within its row), and it does under half the work of the dense 6×6 solve
// (BenchmarkSolveImplicit). ok and cond are as for solve: cond is the ratio
// of the largest to the smallest pivot magnitude.
func solveImplicit(J *[6][6]float64, r *[6]float64) (x [6]float64, cond float64, ok bool) {
	// The largest magnitude, on the bit patterns: for non-negative floats
	// they order like the values (a NaN above +Inf), and the integer maximum
	// compiles to a conditional move, not a branch to mispredict.
	var bits uint64
	for i := range J {
		for _, v := range &J[i] {
			bits = max(bits, math.Float64bits(v)&^(1<<63))
		}
	}
	scale := math.Float64frombits(bits)
	if !(scale > 0) || math.IsInf(scale, 0) {
		return x, math.Inf(1), false
	}
	tiny := 1e-14 * scale
	// The pivot column of each gradient row, and the other two columns.
	ja := argmax3(J[4][0], J[4][1], J[4][2])
	jb := 3 + argmax3(J[5][3], J[5][4], J[5][5])
	pa, pb := J[4][ja], J[5][jb]
	apa, apb := math.Abs(pa), math.Abs(pb)
	if !(apa > tiny) || !(apb > tiny) {
		return x, math.Inf(1), false
	}
	ca := others[ja]
	cb := others[jb-3]
	cb[0] += 3
	cb[1] += 3
	cols := [4]int{ca[0], ca[1], cb[0], cb[1]}
	// Reduced rows: row i minus (J[i][ja]/pa)·row 4 minus (J[i][jb]/pb)·row 5.
	ia, ib := 1/pa, 1/pb
	var m [4][4]float64
	var b [4]float64
	for i := 0; i < 4; i++ {
		fa, fb := J[i][ja]*ia, J[i][jb]*ib
		ri := &J[i]
		m[i][0] = ri[cols[0]] - fa*J[4][cols[0]]
		m[i][1] = ri[cols[1]] - fa*J[4][cols[1]]
		m[i][2] = ri[cols[2]] - fb*J[5][cols[2]]
		m[i][3] = ri[cols[3]] - fb*J[5][cols[3]]
		b[i] = r[i] - fa*r[4] - fb*r[5]
	}
	pmax, pmin := max(apa, apb), min(apa, apb)
	for k := 0; k < 4; k++ {
		p, piv := k, math.Abs(m[k][k])
		for i := k + 1; i < 4; i++ {
			if v := math.Abs(m[i][k]); v > piv {
				p, piv = i, v
			}
		}
		if !(piv > tiny) {
			return x, math.Inf(1), false
		}
		pmax, pmin = max(pmax, piv), min(pmin, piv)
		if p != k {
			m[p], m[k] = m[k], m[p]
			b[p], b[k] = b[k], b[p]
		}
		inv := 1 / m[k][k]
		m[k][k] = inv
		for i := k + 1; i < 4; i++ {
			f := m[i][k] * inv
			for j := k + 1; j < 4; j++ {
				m[i][j] -= f * m[k][j]
			}
			b[i] -= f * b[k]
		}
	}
	var y [4]float64
	for i := 3; i >= 0; i-- {
		s := b[i]
		for j := i + 1; j < 4; j++ {
			s -= m[i][j] * y[j]
		}
		y[i] = s * m[i][i]
	}
	for k, c := range cols {
		x[c] = y[k]
	}
	x[ja] = (r[4] - J[4][cols[0]]*y[0] - J[4][cols[1]]*y[1]) * ia
	x[jb] = (r[5] - J[5][cols[2]]*y[2] - J[5][cols[3]]*y[3]) * ib
	for i := range x {
		if math.IsNaN(x[i]) || math.IsInf(x[i], 0) {
			return x, math.Inf(1), false
		}
	}
	return x, pmax / pmin, true
}

// others lists, for each of three columns, the other two.
var others = [3][2]int{{1, 2}, {0, 2}, {0, 1}}

// argmax3 is the index of the largest magnitude among a, b, c.
func argmax3(a, b, c float64) int {
	a, b, c = math.Abs(a), math.Abs(b), math.Abs(c)
	if a >= b && a >= c {
		return 0
	}
	if b >= c {
		return 1
	}
	return 2
}
