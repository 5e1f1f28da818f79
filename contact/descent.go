package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// gridVals holds the other body's residual at each point of gridWitness's
// grids (witnessAzimuths × the witnessZeniths−1 rows off the poles), per
// side, for descentWitness to start from.
type gridVals [2]sideVals

// sideVals holds one side's values of gridWitness's grid.
type sideVals [witnessAzimuths * (witnessZeniths - 1)]float64

// descentWitness looks for a point of either surface inside the other body
// where the grid found none: from the grid's lowest local minima of the
// other body's residual it descends that residual over the surface
// (quasi-Newton in the surface parameters). A shallow overlap hides
// between grid points: a tapered pointy shape 5.7e-5 into a box-like one
// left 24 of 500,000 samples of its surface inside, none of the grid's,
// and the query answered the bodies 5.8e-6 apart (TestShallowOverlapRefuted);
// from the grid's lowest point the descent reaches the overlap in a few
// dozen steps. It reports true only for a point the residual itself puts
// beyond rounding inside (inside, −overlapInside), as gridWitness does.
// Otherwise low, when not nil, receives the lowest point a descent reached
// (lowSeed starts Newton there).
//
// With dist, when none of these descents found a point inside, each side
// descends again from the descentStarts lowest local minima of the
// first-order distance f/|∇f| (gridDistances) among the grid points it
// has not descended from. The residual is a poor proxy for the distance
// to a thin or long body (it measures the way out radially, relative to
// the body's extent in that direction): a box-like plate's rim (e 0.1,
// 0.05; semi-axes 1.94, 0.88, 0.17) crossed a caved shape's vertical edge
// within 1.5e-9, and the residual's only grid minimum on that shape lay
// by its far tip (0.075), where the plate's long axis points, while the
// grid point beside the crossing read 0.086; the query answered 0.019
// apart, converged (TestDistanceStarts).
func descentWitness(pr *pair, g *gridVals, low *lowPoint, dist bool) bool {
	var start [2][descentStarts]int
	var n [2]int
	var k [2]geom.ImplicitConsts
	for side := 0; side < 2; side++ {
		s, o, ts, to := pr.side(side)
		k[side] = o.ImplicitConsts()
		start[side], n[side] = gridMinima(&g[side])
		if descendFrom(s, &k[side], ts, to, o, side, start[side][:n[side]], low) {
			return true
		}
	}
	for side := 0; dist && side < 2; side++ {
		s, o, ts, to := pr.side(side)
		var d sideVals
		gridDistances(s, &k[side], ts, to, &g[side], &d)
		for _, c := range start[side][:n[side]] {
			d[c] = math.Inf(1) // (descended from already)
		}
		ds, dn := gridMinima(&d)
		if descendFrom(s, &k[side], ts, to, o, side, ds[:dn], low) {
			return true
		}
	}
	return false
}

// gridDistances fills d with the first-order distance f/|∇f| from each
// point of a side's grid to the other body (k its constants), from the
// log residual f and its gradient; +Inf where the grid's residual v is
// undefined or above distFar. (Near the plane where a tapered body's
// section shrinks to nothing, the gradient grows without bound and the
// ratio falls towards 0 far from the body: on TestDistanceStarts' pair two
// grid points there, residuals 22 and 248, read 0.0065 and 0.0089 while
// lying 0.27 and 0.17 from the plate, and ranked before the one beside
// the crossing, 0.018.)
func gridDistances(s *geom.Superovoid, k *geom.ImplicitConsts, ts, to *geom.Transform, v, d *sideVals) {
	for c := range d {
		d[c] = math.Inf(1)
		if !(v[c] <= distFar) {
			continue
		}
		p1, p2 := witnessAngles(c)
		var e geom.Implicit
		if k.LogResidualHessianInto(to.InvPoint(ts.Point(s.Point(p1, p2))), false, &e) {
			if r := e.G / e.Grad.Len(); r-r == 0 { // (finite)
				d[c] = r
			}
		}
	}
}

// witnessAngles returns the surface parameters of point c of a side's
// grid (gridWitness's witness grid, the poles left out).
func witnessAngles(c int) (p1, p2 float64) {
	const nz = witnessZeniths - 1
	i, j := c/nz, c%nz
	return -math.Pi + 2*math.Pi*float64(i)/witnessAzimuths, -math.Pi/2 + math.Pi*float64(j+1)/witnessZeniths
}

// distFar is the residual (a relative radial distance: 1 is a point as
// far outside the other body as that body reaches in its direction)
// beyond which gridDistances ranks no grid point.
const distFar = 1.0

// gridMinima returns the descentStarts lowest points of a side's grid
// values v no lower than a neighbour (azimuths wrap; the rows off the
// poles do not), lowest first.
func gridMinima(v *sideVals) (start [descentStarts]int, n int) {
	const nz = witnessZeniths - 1
	var sv [descentStarts]float64
	for i := 0; i < witnessAzimuths; i++ {
		for j := 0; j < nz; j++ {
			f := v[i*nz+j]
			if !(f < math.Inf(1)) {
				continue
			}
			l, r := (i+witnessAzimuths-1)%witnessAzimuths, (i+1)%witnessAzimuths
			if v[l*nz+j] < f || v[r*nz+j] < f || j > 0 && v[i*nz+j-1] < f || j < nz-1 && v[i*nz+j+1] < f {
				continue
			}
			// (Insertion into the sorted few.)
			k := min(n, descentStarts-1)
			if n == descentStarts && f >= sv[k] {
				continue
			}
			for k > 0 && sv[k-1] > f {
				sv[k], start[k] = sv[k-1], start[k-1]
				k--
			}
			sv[k], start[k] = f, i*nz+j
			n = min(n+1, descentStarts)
		}
	}
	return start, n
}

// descendFrom runs surfaceDescent from each grid point of side in starts
// (indices into the side's grid), reporting whether one reached a point
// inside the other body; low keeps the lowest point reached.
func descendFrom(s *geom.Superovoid, k *geom.ImplicitConsts, ts, to *geom.Transform, o *geom.Superovoid, side int, starts []int, low *lowPoint) bool {
	for _, c := range starts {
		p1, p2 := witnessAngles(c)
		// (Off the grid point by a quarter of the first step: the grid
		// holds the faces' centres and the ridges, p1 a multiple of
		// π/2 or p2 = 0, where the residual's derivative across them
		// vanishes or is floored and a descent cannot leave: a review's
		// pair answered 0.0074 apart, overlapping by 2.9e-9.)
		in, p, f := surfaceDescent(s, k, ts, to, o, p1+descentStep/4, p2+descentStep/4)
		if in {
			return true
		}
		if low != nil && f < low.f {
			*low = lowPoint{side: side, p: p, f: f, ok: true}
		}
	}
	return false
}

// descentStarts is the number of grid minima per side that descentWitness
// descends from; descentIters bounds each descent's steps (on a box-like
// pair, e 0.05 and 0.1, 60 ended short of the overlap: residual 3.9e-4
// and still falling).
const (
	descentStarts = 3
	descentIters  = 120
)

// otherResidual is the other body's log residual (k its constants) at the
// point w of surface s with parameters p, and its gradient with respect to
// p; ok is false where it is undefined (outside the other's domain).
func otherResidual(s *geom.Superovoid, k *geom.ImplicitConsts, ts, to *geom.Transform, p [2]float64) (f float64, g [2]float64, w vec, ok bool) {
	d := s.Derivs(p[0], p[1])
	w = ts.Point(d.X)
	var e geom.Implicit
	if !k.LogResidualHessianInto(to.InvPoint(w), false, &e) || !(e.G < math.Inf(1)) {
		return math.Inf(1), g, w, false
	}
	// d(local point of o)/dp = to.Rᵀ·ts.R·X_p, so ∂f/∂p = ∇f·that.
	gw := to.Dir(e.Grad)
	g = [2]float64{gw.Dot(ts.Dir(d.X1)), gw.Dot(ts.Dir(d.X2))}
	return e.G, g, w, g[0]-g[0] == 0 && g[1]-g[1] == 0 // (finite)
}

// surfaceDescent minimises the other body's log residual over surface s
// from the parameters (p1, p2) by BFGS with a backtracking line search,
// and reports whether it reached a point of s inside o (k: o's constants),
// with the parameters and residual where it stopped.
func surfaceDescent(s *geom.Superovoid, k *geom.ImplicitConsts, ts, to *geom.Transform, o *geom.Superovoid, p1, p2 float64) (bool, [2]float64, float64) {
	p := [2]float64{p1, p2}
	f, g, w, ok := otherResidual(s, k, ts, to, p)
	if !ok {
		return false, p, math.Inf(1)
	}
	// H approximates the inverse Hessian; its first guess caps the first
	// step at descentStep radians.
	H := descentH(g)
	for it := 0; it < descentIters; it++ {
		if f < descentInside && inside(o, to, w, -overlapInside) {
			return true, p, f
		}
		d := [2]float64{-(H[0][0]*g[0] + H[0][1]*g[1]), -(H[1][0]*g[0] + H[1][1]*g[1])}
		slope := d[0]*g[0] + d[1]*g[1]
		if !(slope < 0) {
			H = descentH(g)
			d = [2]float64{-H[0][0] * g[0], -H[1][1] * g[1]}
			slope = d[0]*g[0] + d[1]*g[1]
			if !(slope < 0) {
				return false, p, f // a stationary point
			}
		}
		t := 1.0
		var q [2]float64
		var fq float64
		var gq [2]float64
		var wq vec
		accepted := false
		for ls := 0; ls < 40; ls++ {
			q = [2]float64{p[0] + t*d[0], math.Max(-math.Pi/2, math.Min(math.Pi/2, p[1]+t*d[1]))}
			var okq bool
			fq, gq, wq, okq = otherResidual(s, k, ts, to, q)
			if okq && fq <= f+1e-4*t*slope {
				accepted = true
				break
			}
			t *= 0.5
		}
		if !accepted {
			return false, p, f
		}
		sx := [2]float64{q[0] - p[0], q[1] - p[1]}
		y := [2]float64{gq[0] - g[0], gq[1] - g[1]}
		p, f, g, w = q, fq, gq, wq
		if sy := sx[0]*y[0] + sx[1]*y[1]; sy > 0 {
			// BFGS update of the inverse Hessian:
			// H ← (I − ρ s yᵀ) H (I − ρ y sᵀ) + ρ s sᵀ.
			rho := 1 / sy
			hy := [2]float64{H[0][0]*y[0] + H[0][1]*y[1], H[1][0]*y[0] + H[1][1]*y[1]}
			yhy := y[0]*hy[0] + y[1]*hy[1]
			for r := 0; r < 2; r++ {
				for c := 0; c < 2; c++ {
					H[r][c] += -rho*(hy[r]*sx[c]+sx[r]*hy[c]) + (rho*rho*yhy+rho)*sx[r]*sx[c]
				}
			}
		}
		if math.Abs(sx[0])+math.Abs(sx[1]) < 1e-13 {
			break
		}
	}
	return f < descentInside && inside(o, to, w, -overlapInside), p, f
}

// lowPoint is the lowest point descentWitness's descents reached: the
// other body's log residual f at surface parameters p of body a (side 0)
// or b (side 1).
type lowPoint struct {
	side int
	p    [2]float64
	f    float64
	ok   bool
}

// seeds returns the local points Newton starts from (lowSeed): the
// surface point in its own body's frame, and the same point in the other
// body's, where it lies within its residual of that surface.
func (l *lowPoint) seeds(pr *pair) (lp, lq vec) {
	if l.side == 0 {
		x := pr.a.Point(l.p[0], l.p[1])
		return x, pr.tb.InvPoint(pr.ta.Point(x))
	}
	x := pr.b.Point(l.p[0], l.p[1])
	return pr.ta.InvPoint(pr.tb.Point(x)), x
}

// descentH is a descent's first inverse Hessian: the identity scaled so
// that the step along −g is descentStep long.
func descentH(g [2]float64) [2][2]float64 {
	h := descentStep / max(math.Hypot(g[0], g[1]), 1e-300)
	return [2][2]float64{{h, 0}, {0, h}}
}

// descentStep is the longest first step of a descent (radians of the
// surface parameters): a twentieth of the grid's spacing.
const descentStep = 2 * math.Pi / witnessAzimuths / 20

// descentInside is the log residual below which a descent's point is
// checked with the residual itself (ln(1 − overlapInside) to 5e-19).
const descentInside = -overlapInside
