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
	if !finite6(&x) {
		return x, math.Inf(1), false
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
	if !finite6(&x) {
		return x, math.Inf(1), false
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
//
// w weighs rows 2 and 3 (the distances along b's tangents, lengths, where
// the other rows are dimensionless, so that their entries are of order 1
// against the others' 1/L): about 1/L (rowWeight, a power of two), so
// that the pivots' choice and the threshold relative to the largest entry
// do not depend on the bodies' size. (Unweighted, the rows differed by a
// factor L², and far from L = 1 pivots fell below the threshold: at 1e12
// and below 1e-10 Newton steps failed where they succeed at L = 1, and
// Levenberg–Marquardt crawled instead; TestQueryScaleInvariance.) w = 1
// changes no bit.
func solveImplicit(J *[6][6]float64, r *[6]float64, w float64) (x [6]float64, cond float64, ok bool) {
	var lu implicitLU
	return solveImplicitLU(J, r, w, &lu)
}

// implicitLU is solveImplicit's factorisation of one Jacobian, as it
// eliminated: the pivot columns of the gradient rows and their
// reciprocals, the reduction factors of rows 0-3, the row exchanges and
// multipliers of the 4×4 elimination, and its upper triangle. solve
// replays that elimination on another right-hand side, operation for
// operation, so it gives solveImplicit's x for J (a warm start's chord
// step takes it from the previous answer's Jacobian: newton).
type implicitLU struct {
	ok            bool
	ja, jb        uint8 // (bytes: a warm state copies it with every answer)
	c             [4]uint8
	p1, p2, p3    uint8
	ia, ib        float64
	g             [4]float64 // g4[c0], g4[c1], g5[c2], g5[c3]
	fa, fb        [4]float64 // each row's reduction factors
	f10, f20, f30 float64    // the first elimination's multipliers
	f21, f31, f32 float64    // the second's and the third's
	u01, u02, u03 float64    // the upper triangle
	u12, u13, u23 float64
	inv           [4]float64 // its diagonal's reciprocals
	cond          float64
	w             float64 // the weight of rows 2 and 3
}

// solve returns J⁻¹r for the J that lu factorised; ok is false for a
// result that is not finite.
func (lu *implicitLU) solve(r *[6]float64) (x [6]float64, ok bool) {
	var b [4]float64
	for i := range b {
		b[i] = r[i] - lu.fa[i]*r[4] - lu.fb[i]*r[5]
	}
	if lu.w != 1 {
		b[2] *= lu.w
		b[3] *= lu.w
	}
	b[0], b[lu.p1] = b[lu.p1], b[0]
	b[1] -= lu.f10 * b[0]
	b[2] -= lu.f20 * b[0]
	b[3] -= lu.f30 * b[0]
	b[1], b[lu.p2] = b[lu.p2], b[1]
	b[2] -= lu.f21 * b[1]
	b[3] -= lu.f31 * b[1]
	b[2], b[lu.p3] = b[lu.p3], b[2]
	b[3] -= lu.f32 * b[2]
	y3 := b[3] * lu.inv[3]
	y2 := (b[2] - lu.u23*y3) * lu.inv[2]
	y1 := (b[1] - lu.u12*y2 - lu.u13*y3) * lu.inv[1]
	y0 := (b[0] - lu.u01*y1 - lu.u02*y2 - lu.u03*y3) * lu.inv[0]
	x[lu.c[0]], x[lu.c[1]], x[lu.c[2]], x[lu.c[3]] = y0, y1, y2, y3
	x[lu.ja] = (r[4] - lu.g[0]*y0 - lu.g[1]*y1) * lu.ia
	x[lu.jb] = (r[5] - lu.g[2]*y2 - lu.g[3]*y3) * lu.ib
	return x, finite6(&x)
}

// solveImplicitLU is solveImplicit, recording its factorisation in lu
// (lu.ok only when it succeeds).
func solveImplicitLU(J *[6][6]float64, r *[6]float64, w float64, lu *implicitLU) (x [6]float64, cond float64, ok bool) {
	lu.ok = false
	// The largest magnitude, on the bit patterns: for non-negative floats
	// they order like the values (a NaN above +Inf), and the integer maximum
	// compiles to a conditional move, not a branch to mispredict.
	// Written out, not looped: the loop was half the solve's instructions
	// (valgrind --tool=callgrind). Rows 4 and 5 are zero outside their
	// gradients. (With finite6: BenchmarkSolveImplicitVaried 108 → 74 ns.)
	bits := max(absBits6(&J[0]), absBits6(&J[1]), absBits6(&J[2]), absBits6(&J[3]),
		absBits(J[4][0]), absBits(J[4][1]), absBits(J[4][2]),
		absBits(J[5][3]), absBits(J[5][4]), absBits(J[5][5]))
	scale := math.Float64frombits(bits)
	if w != 1 {
		// (Rows 2 and 3 weighed, the others as they are.)
		b := max(absBits6(&J[0]), absBits6(&J[1]),
			absBits(J[4][0]), absBits(J[4][1]), absBits(J[4][2]),
			absBits(J[5][3]), absBits(J[5][4]), absBits(J[5][5]))
		scale = max(math.Float64frombits(b), w*math.Float64frombits(max(absBits6(&J[2]), absBits6(&J[3]))))
	}
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
	c0, c1, c2, c3 := ca[0], ca[1], cb[0]+3, cb[1]+3
	// Reduced rows: row i minus (J[i][ja]/pa)·row 4 minus (J[i][jb]/pb)·row
	// 5, held in row4 variables (registers) rather than an array (memory).
	ia, ib := 1/pa, 1/pb
	g4, g5 := &J[4], &J[5]
	reduce := func(i int) (row4, float64) {
		ri := &J[i]
		fa, fb := ri[ja]*ia, ri[jb]*ib
		return row4{ri[c0] - fa*g4[c0], ri[c1] - fa*g4[c1], ri[c2] - fb*g5[c2], ri[c3] - fb*g5[c3]}, r[i] - fa*r[4] - fb*r[5]
	}
	m0, b0 := reduce(0)
	m1, b1 := reduce(1)
	m2, b2 := reduce(2)
	m3, b3 := reduce(3)
	if w != 1 {
		m2, b2 = row4{m2.a * w, m2.b * w, m2.c * w, m2.d * w}, b2*w
		m3, b3 = row4{m3.a * w, m3.b * w, m3.c * w, m3.d * w}, b3*w
	}
	for k := range 4 {
		lu.fa[k], lu.fb[k] = J[k][ja]*ia, J[k][jb]*ib
	}
	lu.w = w
	lu.ja, lu.jb, lu.c = uint8(ja), uint8(jb), [4]uint8{uint8(c0), uint8(c1), uint8(c2), uint8(c3)}
	lu.ia, lu.ib, lu.g = ia, ib, [4]float64{g4[c0], g4[c1], g5[c2], g5[c3]}
	lu.p1, lu.p2, lu.p3 = 0, 1, 2
	// LU with partial pivoting, unrolled (the first largest pivot wins).
	pmax, pmin := max(apa, apb), min(apa, apb)
	p, piv := 0, math.Abs(m0.a)
	if v := math.Abs(m1.a); v > piv {
		p, piv = 1, v
	}
	if v := math.Abs(m2.a); v > piv {
		p, piv = 2, v
	}
	if v := math.Abs(m3.a); v > piv {
		p, piv = 3, v
	}
	if pmax, pmin, ok = pivotStep(piv, tiny, pmax, pmin); !ok {
		return x, math.Inf(1), false
	}
	lu.p1 = uint8(p)
	switch p {
	case 1:
		m0, m1, b0, b1 = m1, m0, b1, b0
	case 2:
		m0, m2, b0, b2 = m2, m0, b2, b0
	case 3:
		m0, m3, b0, b3 = m3, m0, b3, b0
	}
	inv0 := 1 / m0.a
	lu.f10, lu.f20, lu.f30 = m1.a*inv0, m2.a*inv0, m3.a*inv0
	m1, b1 = m1.eliminate1(m0, b1, b0, inv0)
	m2, b2 = m2.eliminate1(m0, b2, b0, inv0)
	m3, b3 = m3.eliminate1(m0, b3, b0, inv0)
	p, piv = 1, math.Abs(m1.b)
	if v := math.Abs(m2.b); v > piv {
		p, piv = 2, v
	}
	if v := math.Abs(m3.b); v > piv {
		p, piv = 3, v
	}
	if pmax, pmin, ok = pivotStep(piv, tiny, pmax, pmin); !ok {
		return x, math.Inf(1), false
	}
	lu.p2 = uint8(p)
	switch p {
	case 2:
		m1, m2, b1, b2 = m2, m1, b2, b1
	case 3:
		m1, m3, b1, b3 = m3, m1, b3, b1
	}
	inv1 := 1 / m1.b
	lu.f21, lu.f31 = m2.b*inv1, m3.b*inv1
	m2, b2 = m2.eliminate2(m1, b2, b1, inv1)
	m3, b3 = m3.eliminate2(m1, b3, b1, inv1)
	p, piv = 2, math.Abs(m2.c)
	if v := math.Abs(m3.c); v > piv {
		p, piv = 3, v
	}
	if pmax, pmin, ok = pivotStep(piv, tiny, pmax, pmin); !ok {
		return x, math.Inf(1), false
	}
	if p == 3 {
		m2, m3, b2, b3 = m3, m2, b3, b2
	}
	lu.p3 = uint8(p)
	inv2 := 1 / m2.c
	f := m3.c * inv2
	lu.f32 = f
	m3.d -= f * m2.d
	b3 -= f * b2
	piv = math.Abs(m3.d)
	if pmax, pmin, ok = pivotStep(piv, tiny, pmax, pmin); !ok {
		return x, math.Inf(1), false
	}
	inv3 := 1 / m3.d
	lu.u01, lu.u02, lu.u03, lu.u12, lu.u13, lu.u23 = m0.b, m0.c, m0.d, m1.c, m1.d, m2.d
	lu.inv = [4]float64{inv0, inv1, inv2, inv3}
	y3 := b3 * inv3
	y2 := (b2 - m2.d*y3) * inv2
	y1 := (b1 - m1.c*y2 - m1.d*y3) * inv1
	y0 := (b0 - m0.b*y1 - m0.c*y2 - m0.d*y3) * inv0
	x[c0], x[c1], x[c2], x[c3] = y0, y1, y2, y3
	x[ja] = (r[4] - g4[c0]*y0 - g4[c1]*y1) * ia
	x[jb] = (r[5] - g5[c2]*y2 - g5[c3]*y3) * ib
	if !finite6(&x) {
		return x, math.Inf(1), false
	}
	lu.ok, lu.cond = true, pmax/pmin
	return x, pmax / pmin, true
}

// absBits is the bit pattern of |v|: for non-negative floats the patterns
// order like the values (a NaN above +Inf).
func absBits(v float64) uint64 { return math.Float64bits(v) &^ (1 << 63) }

// absBits6 is the largest absBits of a row.
func absBits6(r *[6]float64) uint64 {
	return max(absBits(r[0]), absBits(r[1]), absBits(r[2]), absBits(r[3]), absBits(r[4]), absBits(r[5]))
}

// finite6 reports whether every entry of x is finite: x − x is 0 for a
// finite x and NaN for ±Inf and NaN, so one comparison tests all six
// instead of a loop of twelve branches.
func finite6(x *[6]float64) bool {
	return (x[0]-x[0])+(x[1]-x[1])+(x[2]-x[2])+(x[3]-x[3])+(x[4]-x[4])+(x[5]-x[5]) == 0
}

// pivotStep takes a pivot's magnitude into the running extremes of
// solveImplicit's condition estimate; ok is false when it is too small to
// divide by (or NaN).
func pivotStep(piv, tiny, pmax, pmin float64) (float64, float64, bool) {
	return max(pmax, piv), min(pmin, piv), piv > tiny
}

// row4 is a row of solveImplicit's reduced 4×4 system.
type row4 struct{ a, b, c, d float64 }

// eliminate1 subtracts f = m.a/k.a times row k from m (columns b..d) and
// from its right-hand side: the first elimination step.
func (m row4) eliminate1(k row4, bm, bk, inv float64) (row4, float64) {
	f := m.a * inv
	m.b -= f * k.b
	m.c -= f * k.c
	m.d -= f * k.d
	return m, bm - f*bk
}

// eliminate2 is the second step (columns c, d).
func (m row4) eliminate2(k row4, bm, bk, inv float64) (row4, float64) {
	f := m.b * inv
	m.c -= f * k.c
	m.d -= f * k.d
	return m, bm - f*bk
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
