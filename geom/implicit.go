package geom

import "math"

// logTiny floors |u|, |v|, |w| before taking logarithms, so that points on a
// coordinate plane or axis give finite derivatives instead of 0·Inf.
const logTiny = -345.0 // ≈ ln(1e-150)

func flog(a float64) float64 {
	a = math.Abs(a)
	if a < 1e-150 {
		return logTiny
	}
	return FastLog(a)
}

func sgn(a float64) float64 {
	if a < 0 {
		return -1
	}
	return 1
}

// sgn0 is the sign with sgn0(0) = 0, for the odd terms of the gradient and
// Hessian: on a coordinate plane they vanish by symmetry, while the floored
// |u|^(p−1) of an exponent near 2 is far from 0 ((1e-150)^0.026 ≈ 1.8e-4).
func sgn0(a float64) float64 {
	// Branch-free (the signs of a solver's iterates are as good as random):
	// 1 with a's sign bit, kept where |a| > 0 (not for 0 or NaN).
	var keep uint64
	if math.Abs(a) > 0 {
		keep = ^uint64(0)
	}
	return math.Float64frombits((math.Float64bits(1) | math.Float64bits(a)&(1<<63)) & keep)
}

// logSum returns ln(e^a + e^b) and the shares e^a/(e^a + e^b) and
// e^b/(e^a + e^b), from one exponential of the smaller over the larger (no
// overflow, no underflow of the larger term).
func logSum(a, b float64) (l, fa, fb float64) {
	if a >= b {
		e := FastExp(b - a)
		fa = 1 / (1 + e)
		return a + FastLog(1+e), fa, e * fa
	}
	e := FastExp(a - b)
	fb = 1 / (1 + e)
	return b + FastLog(1+e), e * fb, fb
}

// Implicit holds the inside-outside function G and its derivatives at one
// local point. Hess is filled only by the Hessian methods.
type Implicit struct {
	G    float64
	Grad Vec3
	Hess Mat3
}

// InDomain reports whether the local point lies where G is defined: the taper
// scalings 1+tx·z/a3 and 1+ty·z/a3 must stay positive.
func (s *Superovoid) InDomain(p Vec3) bool {
	w := p[2] / s.A[2]
	return 1+s.Taper[0]*w > 0 && 1+s.Taper[1]*w > 0
}

// G returns the inside-outside function at a local point: < 1 inside, 1 on
// the surface, > 1 outside. ok is false outside the domain of G or when the
// value overflows.
func (s *Superovoid) G(p Vec3) (g float64, ok bool) {
	lg, ok := s.logG(p)
	if !ok {
		return math.Inf(1), false
	}
	g = FastExp(lg)
	return g, !math.IsInf(g, 0)
}

// logG returns ln G, computed in the log domain so that large exponents
// (small e) neither overflow nor underflow.
func (s *Superovoid) logG(p Vec3) (float64, bool) {
	e1, e2 := s.Eps[0], s.Eps[1]
	w := p[2] / s.A[2]
	cx, cy := 1+s.Taper[0]*w, 1+s.Taper[1]*w
	if !(cx > 0 && cy > 0) {
		return math.Inf(1), false
	}
	pe := 2 / e1
	lu := flog(p[0] / (s.A[0] * cx))
	lv := flog(p[1] / (s.A[1] * cy))
	lw := flog(w)
	ls := LogAddExp(pe*lu, pe*lv)
	lg := LogAddExp(e1/e2*ls, 2/e2*lw)
	if math.IsNaN(lg) {
		return math.Inf(1), false
	}
	return lg, true
}

// Residual returns F = G^(e2/2) − 1, the well-scaled locus residual: for a
// superellipsoid G^(e2/2) is homogeneous of degree 1, so F behaves like a
// relative radial distance for every e2.
func (s *Superovoid) Residual(p Vec3) (f float64, ok bool) {
	lg, ok := s.logG(p)
	if !ok {
		return math.Inf(1), false
	}
	return math.Expm1(s.Eps[1] / 2 * lg), true
}

// Gradient returns G and ∇G at a local point.
func (s *Superovoid) Gradient(p Vec3) (Implicit, bool) { return s.eval(p, false) }

// Hessian returns G, ∇G and the Hessian of G at a local point.
func (s *Superovoid) Hessian(p Vec3) (Implicit, bool) { return s.eval(p, true) }

// ResidualHessian returns F = G^(e2/2) − 1 with its gradient and Hessian.
// The implicit contact scheme uses F as its locus constraint.
func (s *Superovoid) ResidualHessian(p Vec3, withHess bool) (Implicit, bool) {
	var out Implicit
	ok := s.ResidualHessianInto(p, withHess, &out)
	return out, ok
}

// ResidualHessianInto is ResidualHessian writing into out. It is the log
// form (LogResidualHessianInto) mapped through F = e^L − 1: ∇F = e^L·∇L and
// ∇²F = e^L·(∇²L + ∇L∇Lᵀ).
func (s *Superovoid) ResidualHessianInto(pt Vec3, withHess bool, out *Implicit) bool {
	if !s.LogResidualHessianInto(pt, withHess, out) {
		return false
	}
	g := FastExp(out.G) // G^(e2/2)
	out.G = math.Expm1(out.G)
	l := out.Grad
	out.Grad = l.Mul(g)
	if withHess {
		for j := 0; j < 3; j++ {
			for i := 0; i < 3; i++ {
				out.Hess[j*3+i] = g * (out.Hess[j*3+i] + l[i]*l[j])
			}
		}
	}
	if math.IsInf(g, 0) || !finite3(out.Grad) {
		out.G = math.Inf(1)
		return false
	}
	return true
}

// LogResidualHessianInto writes F = (e2/2)·ln G, its gradient and
// (withHess) its Hessian into out: the one implementation of the implicit
// derivatives, from which eval (G) and ResidualHessianInto (G^(e2/2) − 1)
// follow. F vanishes on the surface like
// ResidualHessian's G^(e2/2) − 1 and agrees with it to first order there
// (ln(1+f) = f + O(f²)), so it is an equally well-scaled locus constraint;
// it is what the contact solver's inner loop uses because it needs no
// exponential of ln G: everything follows from logarithms and the ratios
// S/G and W/G of the two terms of G, three logarithms, two log1p and two
// exponentials in all, with five of them in sequence instead of seven.
// Every product of powers is formed as one exponential of a sum of
// logarithms, so that no 0·Inf arises on the axes and planes where |u|, |v|
// or s vanish.
//
// With w = z/a3, cx = 1+tx·w, u = x/(a1·cx), U = |u|^p, s = U+V, p = 2/e1,
// m = e1/e2, q = 2/e2, c = 2/e2, f = s^(m−1), K = U·tx/cx + V·ty/cy:
//
//	G_x = c·f·Ud/(a1·cx)                 Ud = spow(u, p−1)
//	G_z = c/a3·(spow(w, q−1) − f·K)
//	G_xx = c·ux²·f·|u|^(p−2)·((m−1)·p·Û + p−1)    Û = U/s, ux = 1/(a1·cx)
//	G_xy = c·ux·vy·(m−1)·p·f·Ud·Vd/s
//	G_xz = −c·ux·p/a3·f·Ud·((m−1)·K/s + tx/cx)
//	G_zz = c/a3²·((q−1)·|w|^(q−2) + s^m·((m−1)·p·(K/s)² + (p+1)·L/s))
//	L = U·tx²/cx² + V·ty²/cy²
//
// Divided by G and multiplied by h (h·c = 1), these are ∇L and the first
// part of ∇²L, with S, W replaced by S/G, W/G; ∇²L = h·∇²G/G − ∇L∇Lᵀ/h.
//
// It forms the shape's constants (ImplicitConsts) on every call; a caller
// evaluating one shape many times keeps them and calls
// ImplicitConsts.LogResidualHessianInto, which gives the same result bit
// for bit.
func (s *Superovoid) LogResidualHessianInto(pt Vec3, withHess bool, out *Implicit) bool {
	var k ImplicitConsts
	s.ImplicitConstsInto(&k)
	return k.LogResidualHessianInto(pt, withHess, out)
}

// ImplicitConsts holds the constants of one shape's log residual
// (LogResidualHessianInto): the reciprocals of its semi-axes, the exponents
// and their combinations, formed once so that an evaluation divides only
// by what depends on the point (the contact solver keeps one per side of a
// query). The zero value is not valid: build it with
// Superovoid.ImplicitConsts or ImplicitConstsInto. With the constants the
// results differ from the arithmetic of the semi-axes and exponents
// themselves (z·(1/a3) for z/a3, …) by rounding only.
type ImplicitConsts struct {
	ia1, ia2, ia3 float64 // 1/a1, 1/a2, 1/a3
	tx, ty        float64 // the tapers
	txa, tya      float64 // tx/a3, ty/a3: cx = 1 + txa·z
	p, m, q, h    float64 // 2/e1, e1/e2, 2/e2, e2/2 (1/h = q)
	m1, mp        float64 // m−1, (m−1)·p
	pm1, pp1, qm1 float64 // p−1, p+1, q−1
	npa3          float64 // −p/a3
}

// ImplicitConsts returns the shape's constants for repeated evaluations of
// its log residual (ImplicitConsts.LogResidualHessianInto,
// LogResidualHessianPairConsts).
func (s *Superovoid) ImplicitConsts() ImplicitConsts {
	var k ImplicitConsts
	s.ImplicitConstsInto(&k)
	return k
}

// ImplicitConstsInto is ImplicitConsts writing into k.
func (s *Superovoid) ImplicitConstsInto(k *ImplicitConsts) {
	e1, e2 := s.Eps[0], s.Eps[1]
	ia3 := 1 / s.A[2]
	p, m, q := 2/e1, e1/e2, 2/e2
	k.ia1, k.ia2, k.ia3 = 1/s.A[0], 1/s.A[1], ia3
	k.tx, k.ty = s.Taper[0], s.Taper[1]
	k.txa, k.tya = s.Taper[0]*ia3, s.Taper[1]*ia3
	k.p, k.m, k.q, k.h = p, m, q, e2/2
	k.m1, k.mp = m-1, (m-1)*p
	k.pm1, k.pp1, k.qm1 = p-1, p+1, q-1
	k.npa3 = -p * ia3
}

// LogResidualHessianInto is Superovoid.LogResidualHessianInto for the shape
// whose constants k holds. (logRes.start's steps and the sums are written
// out here rather than called: through the stages two calls took 212
// instead of 190 ns, go test -run '^$' -bench LogResidualHessian/two ./geom.)
func (k *ImplicitConsts) LogResidualHessianInto(pt Vec3, withHess bool, out *Implicit) bool {
	var r logRes
	cx, cy := 1+k.txa*pt[2], 1+k.tya*pt[2]
	r.ok = cx > 0 && cy > 0
	if !r.ok {
		out.G = math.Inf(1)
		return false
	}
	r.w = pt[2] * k.ia3
	r.icx, r.icy = 1/cx, 1/cy
	r.ux, r.vy = k.ia1*r.icx, k.ia2*r.icy
	r.u, r.v = pt[0]*k.ia1*r.icx, pt[1]*k.ia2*r.icy
	au, av, aw := math.Abs(r.u), math.Abs(r.v), math.Abs(r.w)
	if au < 1e-150 {
		au = 1e-150
	}
	if av < 1e-150 {
		av = 1e-150
	}
	if aw < 1e-150 {
		aw = 1e-150
	}
	r.iau, r.iav, r.iaw = 1/au, 1/av, 1/aw
	lu, lv, lw := FastLog(au), FastLog(av), FastLog(aw)
	ls, Uh, Vh := logSum(k.p*lu, k.p*lv)
	r.Uh, r.Vh = Uh, Vh
	r.lg, r.Sg, r.Wg = logSum(k.m*ls, k.q*lw)
	return r.finish(k, withHess, out)
}

// LogResidual returns ln(1 + F) = (e2/2)·ln G at a local point, F being
// Superovoid.Residual's G^(e2/2) − 1 (to rounding): the same order as F but
// with no exponential, for a caller comparing it against ln(1 + limit)
// (the contact solver's proof that a point lies inside a body). ok is
// false outside the domain of G.
func (k *ImplicitConsts) LogResidual(pt Vec3) (f float64, ok bool) {
	cx, cy := 1+k.txa*pt[2], 1+k.tya*pt[2]
	if !(cx > 0 && cy > 0) {
		return math.Inf(1), false
	}
	lu := flog(pt[0] * k.ia1 / cx)
	lv := flog(pt[1] * k.ia2 / cy)
	lw := flog(pt[2] * k.ia3)
	lg := LogAddExp(k.m*LogAddExp(k.p*lu, k.p*lv), k.q*lw)
	if math.IsNaN(lg) {
		return math.Inf(1), false
	}
	return k.h * lg, true
}

// LogResidualHessianPair is LogResidualHessianInto at two points of two
// shapes (LogResidualHessianPairConsts with the shapes' constants formed
// on the spot).
func LogResidualHessianPair(sa *Superovoid, pa Vec3, sb *Superovoid, pb Vec3, withHess bool, outA, outB *Implicit) (okA, okB bool) {
	var ka, kb ImplicitConsts
	sa.ImplicitConstsInto(&ka)
	sb.ImplicitConstsInto(&kb)
	return LogResidualHessianPairConsts(&ka, pa, &kb, pb, withHess, outA, outB)
}

// LogResidualHessianPairConsts is ImplicitConsts.LogResidualHessianInto at
// two points of two shapes, bit for bit, with the two evaluations
// interleaved stage by stage (logRes: the same operations in the same
// order, split where the chains wait):
// each is a chain of dependent logarithms and exponentials, whose latency
// the processor overlaps when the other chain's independent work sits
// beside it (the contact solver evaluates both of a pair's sides at every
// Newton iteration; go test -run '^$' -bench LogResidualHessian ./geom).
// okA and okB are the two results.
func LogResidualHessianPairConsts(ka *ImplicitConsts, pa Vec3, kb *ImplicitConsts, pb Vec3, withHess bool, outA, outB *Implicit) (okA, okB bool) {
	var ra, rb logRes
	ra.start(ka, pa)
	rb.start(kb, pb)
	ra.sums1(ka)
	rb.sums1(kb)
	ra.sums2(ka)
	rb.sums2(kb)
	return ra.finish(ka, withHess, outA), rb.finish(kb, withHess, outB)
}

// logRes is one evaluation of LogResidualHessianInto between its stages.
type logRes struct {
	ok                  bool
	w, icx, icy, ux, vy float64 // z/a3, 1/cx, 1/cy, 1/(a1·cx), 1/(a2·cy)
	u, v                float64
	iau, iav, iaw       float64 // 1/|u|, 1/|v|, 1/|w| (each floored at 1e-150)
	lu, lv, lw          float64 // ln|u|, ln|v|, ln|w| (floored)
	ls, Uh, Vh          float64 // ln s, U/s, V/s
	lg, Sg, Wg          float64 // ln G, S/G, W/G (S = s^m, W = |w|^q)
}

// start takes the point into the scaled coordinates and their logarithms.
// Its one division on the way to the logarithms is 1/cx (1/cy beside it).
func (r *logRes) start(k *ImplicitConsts, pt Vec3) {
	cx, cy := 1+k.txa*pt[2], 1+k.tya*pt[2]
	r.ok = cx > 0 && cy > 0
	if !r.ok {
		return
	}
	r.w = pt[2] * k.ia3
	r.icx, r.icy = 1/cx, 1/cy
	r.ux, r.vy = k.ia1*r.icx, k.ia2*r.icy
	r.u, r.v = pt[0]*k.ia1*r.icx, pt[1]*k.ia2*r.icy
	au, av, aw := math.Abs(r.u), math.Abs(r.v), math.Abs(r.w)
	// Floored (NaN stays NaN): the branches are almost never taken.
	if au < 1e-150 {
		au = 1e-150
	}
	if av < 1e-150 {
		av = 1e-150
	}
	if aw < 1e-150 {
		aw = 1e-150
	}
	r.iau, r.iav, r.iaw = 1/au, 1/av, 1/aw
	r.lu, r.lv, r.lw = FastLog(au), FastLog(av), FastLog(aw)
}

// sums1 and sums2 form ln s and ln G, each from the one before.
func (r *logRes) sums1(k *ImplicitConsts) {
	if r.ok {
		r.ls, r.Uh, r.Vh = logSum(k.p*r.lu, k.p*r.lv)
	}
}

func (r *logRes) sums2(k *ImplicitConsts) {
	if r.ok {
		r.lg, r.Sg, r.Wg = logSum(k.m*r.ls, k.q*r.lw)
	}
}

// finish writes F, ∇F and (withHess) ∇²F from the stages' results
// (LogResidualHessianInto's formulas).
func (r *logRes) finish(k *ImplicitConsts, withHess bool, out *Implicit) bool {
	if !r.ok {
		out.G = math.Inf(1)
		return false
	}
	Sg, Uh, Vh, Wg := r.Sg, r.Uh, r.Vh, r.Wg
	out.G = k.h * r.lg
	// ∇F = h·∇G/G; h·(2/e2) = 1, so the formulas above hold with S, W
	// replaced by S/G, W/G and no factor c. su = sgn0(u)/|u| is 1/u, or 0
	// on the plane u = 0.
	su, sv := sgn0(r.u)*r.iau, sgn0(r.v)*r.iav
	SU, SV := Sg*Uh, Sg*Vh
	tcx, tcy := k.tx*r.icx, k.ty*r.icy
	Kh := Uh*tcx + Vh*tcy
	g := Vec3{SU * su * r.ux, SV * sv * r.vy, k.ia3 * (sgn0(r.w)*Wg*r.iaw - Sg*Kh)}
	out.Grad = g
	if withHess {
		Lh := Uh*tcx*tcx + Vh*tcy*tcy
		hxx := r.ux * r.ux * SU * r.iau * r.iau * (k.mp*Uh + k.pm1)
		hyy := r.vy * r.vy * SV * r.iav * r.iav * (k.mp*Vh + k.pm1)
		hxy := k.mp * g[0] * Vh * sv * r.vy
		hxz := k.npa3 * g[0] * (k.m1*Kh + tcx)
		hyz := k.npa3 * g[1] * (k.m1*Kh + tcy)
		hzz := k.ia3 * k.ia3 * (k.qm1*Wg*r.iaw*r.iaw + Sg*(k.mp*Kh*Kh+k.pp1*Lh))
		// ∇²F = h·∇²G/G − h·∇G∇Gᵀ/G² = (the above) − ∇F∇Fᵀ/h, 1/h = q.
		cc := -k.q
		out.Hess = Mat3{
			hxx + cc*g[0]*g[0], hxy + cc*g[0]*g[1], hxz + cc*g[0]*g[2],
			hxy + cc*g[1]*g[0], hyy + cc*g[1]*g[1], hyz + cc*g[1]*g[2],
			hxz + cc*g[2]*g[0], hyz + cc*g[2]*g[1], hzz + cc*g[2]*g[2],
		}
	}
	// x − x is 0 for a finite x and NaN for ±Inf and NaN.
	return out.G-out.G == 0 && finite3(g)
}

func finite3(v Vec3) bool {
	// x − x is 0 for a finite x and NaN for ±Inf and NaN: three
	// subtractions instead of nine comparisons.
	return v[0]-v[0] == 0 && v[1]-v[1] == 0 && v[2]-v[2] == 0
}

// eval computes G, ∇G and optionally ∇²G from the log form L = h·ln G,
// h = e2/2 (LogResidualHessianInto, which holds the formulas): G = e^(L/h),
// ∇G = (G/h)·∇L and ∇²G = (G/h)·(∇²L + ∇L∇Lᵀ/h).
func (s *Superovoid) eval(pt Vec3, withHess bool) (Implicit, bool) {
	var r Implicit
	if !s.LogResidualHessianInto(pt, withHess, &r) {
		r.G = math.Inf(1)
		return r, false
	}
	h := s.Eps[1] / 2
	G := FastExp(r.G / h)
	k := G / h
	l := r.Grad
	r.G = G
	r.Grad = l.Mul(k)
	if withHess {
		for j := 0; j < 3; j++ {
			for i := 0; i < 3; i++ {
				r.Hess[j*3+i] = k * (r.Hess[j*3+i] + l[i]*l[j]/h)
			}
		}
	}
	if math.IsInf(G, 0) || !finite3(r.Grad) {
		return r, false
	}
	return r, true
}

// Normal returns the unit outward normal at a local point (the normalised
// gradient of G). ok is false where the gradient is undefined or zero.
func (s *Superovoid) Normal(p Vec3) (Vec3, bool) {
	r, ok := s.eval(p, false)
	if !ok {
		return Vec3{}, false
	}
	n := r.Grad.Len()
	if n == 0 || math.IsInf(n, 0) {
		return Vec3{}, false
	}
	return r.Grad.Mul(1 / n), true
}

// RadialDistance is the cheap radial estimate of the Euclidean distance of a
// local point from the surface, |x|·|1 − G^(−e2/2)| (thesis §3.3). It is
// exact for spheres, signed (negative inside), and only an estimate otherwise.
// ok is false at the centre, where the ray has no direction, and outside
// the domain of G.
func (s *Superovoid) RadialDistance(p Vec3) (float64, bool) {
	// (|x| through x/max|xᵢ|: |x|² underflows below 1e-154, and 1/|x|
	// overflows below 1e-308.)
	m := max(math.Abs(p[0]), max(math.Abs(p[1]), math.Abs(p[2])))
	if !(m > 0) {
		return 0, false
	}
	if tiny := 1e-100 * min(s.A[0], min(s.A[1], s.A[2])); m < tiny {
		// Within 1e-150 of the centre the logarithms of G are floored (a
		// unit sphere's estimate read −3.9e-11 at 1e-160 from its centre,
		// and −0 at 1e-170): the surface's distance along the ray is taken
		// from the point scaled to |x| = tiny instead, |x|·G^(−e2/2)
		// being the same for every point of a ray of a superellipsoid
		// (G^(e2/2) is homogeneous of degree 1), and as good an estimate
		// near the centre of a tapered one.
		u := Vec3{p[0] / m, p[1] / m, p[2] / m}
		lu := u.Len()
		q := u.Mul(tiny / lu)
		lg, ok := s.logG(q)
		if !ok {
			return math.Inf(1), false
		}
		return m*lu - tiny*math.Exp(-s.Eps[1]/2*lg), true
	}
	lg, ok := s.logG(p)
	if !ok {
		return math.Inf(1), false
	}
	return p.Len() * -math.Expm1(-s.Eps[1]/2*lg), true
}
