package tessellate

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// evaluator computes the well-scaled residual F = G^(e2/2) − 1 of one shape
// and its gradient, for the marcher's projections. It is the formula of
// geom's eval (see there) with the exponents specialised once per shape:
// integer and half-integer powers become products (and a square root),
// others one exp(p·ln x) each, and G^(e2/2) near G = 1 a short series. The
// marcher evaluates the surface twice per vertex, so this matters; far from
// the surface, or where anything overflows, ok is false and callers fall
// back to geom's log-domain evaluation.
type evaluator struct {
	ia1, ia2, ia3 float64 // 1/a
	tx, ty        float64
	tapered       bool    // tx or ty non-zero: without, 1 + t·w is 1
	p, m, q, h    float64 // 2/e1, e1/e2, 2/e2, e2/2
	pp, pm, pq    powSpec
	c2, c3, c4    float64 // series of (1+d)^h − 1 = h·d + c2·d² + c3·d³ + c4·d⁴
}

// powSpec raises x > 0 to a fixed exponent: n integer (half: plus one half),
// or general.
type powSpec struct {
	e       float64
	n       int
	half    bool
	general bool
	// A general power near a known one, y0 = x0^e, is y0·(1+r)^e with
	// r = x/x0 − 1: the binomial series c[k] = C(e, k+1) while
	// |r| ≤ rmax, where the first omitted term is below 1e-17 (|e·r| ≤
	// 0.01, and |C(e, 7)| ≤ max(1, e^7/7!) on the exponents' range).
	// Newton's second and third evaluations of a vertex move it by a
	// small fraction of its coordinates, so they need no exp or log.
	c    [6]float64
	rmax float64
}

func newPowSpec(e float64) powSpec {
	if r := math.Round(2 * e); math.Abs(2*e-r) < 1e-12 && r <= 128 {
		k := int(r)
		return powSpec{e: e, n: k / 2, half: k%2 == 1}
	}
	ps := powSpec{e: e, general: true, rmax: 0.01 / math.Max(1, e)}
	b := 1.0
	for k := range ps.c {
		b *= (e - float64(k)) / float64(k+1)
		ps.c[k] = b
	}
	return ps
}

// powNear returns x^e given y0 = x0^e for a nearby x0 with inverse ix0 =
// 1/x0: by the series where x is close enough, else as pow does.
func (ps *powSpec) powNear(x, x0, ix0, y0 float64) float64 {
	if ps.general {
		r := (x - x0) * ix0
		if math.Abs(r) <= ps.rmax {
			c := &ps.c
			return y0 + y0*r*(c[0]+r*(c[1]+r*(c[2]+r*(c[3]+r*(c[4]+r*c[5])))))
		}
		return math.Exp(ps.e * math.Log(x))
	}
	return ps.pow(x)
}

func (ps *powSpec) pow(x float64) float64 {
	if ps.general {
		return math.Exp(ps.e * math.Log(x))
	}
	r, b := 1.0, x
	for n := ps.n; n > 0; n >>= 1 {
		if n&1 != 0 {
			r *= b
		}
		b *= b
	}
	if ps.half {
		r *= math.Sqrt(x)
	}
	return r
}

func (ev *evaluator) init(s *geom.Superovoid) {
	e1, e2 := s.Eps[0], s.Eps[1]
	ev.ia1, ev.ia2, ev.ia3 = 1/s.A[0], 1/s.A[1], 1/s.A[2]
	ev.tx, ev.ty = s.Taper[0], s.Taper[1]
	ev.tapered = ev.tx != 0 || ev.ty != 0
	ev.p, ev.m, ev.q, ev.h = 2/e1, e1/e2, 2/e2, e2/2
	ev.pp, ev.pm, ev.pq = newPowSpec(ev.p), newPowSpec(ev.m), newPowSpec(ev.q)
	h := ev.h
	ev.c2 = h * (h - 1) / 2
	ev.c3 = ev.c2 * (h - 2) / 3
	ev.c4 = ev.c3 * (h - 3) / 4
}

// tiny floors |u|, |v|, |w| as geom does (ln 1e-150), so that both give the
// same gradient on coordinate planes.
const tiny = 1e-150

// powCache keeps the bases, their inverses and the powers of one
// evaluation, so that the next one nearby can start from them.
type powCache struct {
	au, av, aw, s  float64
	iu, iv, iw, is float64
	U, V, W, S     float64
}

// eval returns F and ∇F at a local point x. ok is false outside the domain
// of G, where a value is not finite, or where s = |u|^p + |v|^p underflows
// (the z axis of a box-like shape).
func (ev *evaluator) eval(x geom.Vec3) (f float64, g geom.Vec3, ok bool) {
	var c powCache
	return ev.evalc(x, &c, false)
}

// evalc is eval that leaves its powers in c; with near it starts from the
// powers c holds, of a point close to x (see powSpec.powNear).
func (ev *evaluator) evalc(x geom.Vec3, c *powCache, near bool) (f float64, g geom.Vec3, ok bool) {
	w := x[2] * ev.ia3
	icx, icy := 1.0, 1.0
	if ev.tapered {
		cx, cy := 1+ev.tx*w, 1+ev.ty*w
		if !(cx > 0 && cy > 0) {
			return 0, g, false
		}
		icx, icy = 1/cx, 1/cy
	}
	ux, vy := ev.ia1*icx, ev.ia2*icy
	u, v := x[0]*ux, x[1]*vy
	au, av, aw := floorAbs(u), floorAbs(v), floorAbs(w)
	var U, V, W, S float64
	if near {
		U = ev.pp.powNear(au, c.au, c.iu, c.U)
		V = ev.pp.powNear(av, c.av, c.iv, c.V)
		W = ev.pq.powNear(aw, c.aw, c.iw, c.W)
	} else {
		U, V, W = ev.pp.pow(au), ev.pp.pow(av), ev.pq.pow(aw)
	}
	s := U + V
	if !(s > 0) || s > 1e100 || W > 1e100 {
		return 0, g, false
	}
	is := 1 / s
	if near {
		S = ev.pm.powNear(s, c.s, c.is, c.S)
	} else {
		S = ev.pm.pow(s)
	}
	G := S + W
	d := G - 1
	if math.Abs(d) < 1e-3 {
		f = d * (ev.h + d*(ev.c2+d*(ev.c3+d*ev.c4)))
	} else {
		f = math.Expm1(ev.h * math.Log(G))
	}
	// ∇G = q·(S/s·U/u·ux, S/s·V/v·vy, (W/w − S/s·(U·tx/cx + V·ty/cy))/a3)
	// (m·p = q), and ∇F = h·(F+1)/G·∇G.
	iu, iv, iw := 1/au, 1/av, 1/aw
	*c = powCache{au, av, aw, s, iu, iv, iw, is, U, V, W, S}
	Ss := S * is
	Uu, Vv, Ww := U*iu, V*iv, W*iw
	// Odd terms take the sign of the coordinate and vanish on its plane,
	// as geom's do (the floored |u|^(p−1) is not 0 for p near 1).
	switch {
	case u < 0:
		Uu = -Uu
	case u == 0:
		Uu = 0
	}
	switch {
	case v < 0:
		Vv = -Vv
	case v == 0:
		Vv = 0
	}
	switch {
	case w < 0:
		Ww = -Ww
	case w == 0:
		Ww = 0
	}
	k := ev.h * ev.q * (f + 1) / G
	g = geom.Vec3{
		k * Ss * Uu * ux,
		k * Ss * Vv * vy,
		k * ev.ia3 * (Ww - Ss*(U*ev.tx*icx+V*ev.ty*icy)),
	}
	// One test for NaN or ±Inf anywhere: x − x is 0 for every finite x.
	if t := f + g[0] + g[1] + g[2]; t-t != 0 {
		return 0, g, false
	}
	return f, g, true
}

// floorAbs returns max(|x|, tiny) (math.Max also orders NaNs and signed
// zeros, which costs a call here).
func floorAbs(x float64) float64 {
	x = math.Abs(x)
	if x < tiny {
		return tiny
	}
	return x
}

// project moves x onto F = 0 by Newton steps along the gradient, each at
// most maxStep long, until |F| ≤ ProjectTol; it returns the point and its
// unit normal. ok is false when the evaluation fails, a step is too long or
// the iteration does not converge: the caller falls back to projectPoint.
func (ev *evaluator) project(x geom.Vec3, maxStep float64) (p, n geom.Vec3, ok bool) {
	var c powCache
	for it := 0; it < 8; it++ {
		f, g, good := ev.evalc(x, &c, it > 0)
		if !good {
			return p, n, false
		}
		g2 := g[0]*g[0] + g[1]*g[1] + g[2]*g[2]
		if !(g2 > 0) {
			return p, n, false
		}
		if math.Abs(f) <= ProjectTol {
			r := 1 / math.Sqrt(g2)
			return x, geom.Vec3{g[0] * r, g[1] * r, g[2] * r}, true
		}
		k := f / g2
		if k*k*g2 > maxStep*maxStep {
			return p, n, false
		}
		x = geom.Vec3{x[0] - k*g[0], x[1] - k*g[1], x[2] - k*g[2]}
	}
	return p, n, false
}
