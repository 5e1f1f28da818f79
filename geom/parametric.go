package geom

import "math"

// Angle-centre parametrisation (math.md §1): azimuth p1 in [−π, π) wraps,
// zenith p2 in [−π/2, π/2] with the poles at ±π/2.
//
//	z = a3·spow(sin p2, e2)
//	x = a1·(1 + tx·z/a3)·spow(cos p1, e1)·spow(cos p2, e2)
//	y = a2·(1 + ty·z/a3)·spow(sin p1, e1)·spow(cos p2, e2)

// trigFloor keeps |sin| and |cos| away from zero in derivatives, where
// |sin p|^(e−1) is infinite for e < 1 although the surface is smooth.
const trigFloor = 1e-12

// spowTrig returns g = spow(c, e) and its first two derivatives with respect
// to the angle, given c and dc/dθ = d (c = sin θ → d = cos θ; c = cos θ →
// d = −sin θ), using d² c/dθ² = −c.
func spowTrig(c, d, e float64) (g, g1, g2 float64) {
	ac := math.Abs(c)
	g = spow(c, e)
	if ac < trigFloor {
		ac = trigFloor
	}
	pe1 := math.Pow(ac, e-1)
	g1 = e * pe1 * d
	// g'' = e(e−1)|c|^(e−2)·d² − e·|c|^(e−1)·c·sign… = e(e−1)|c|^(e−2)d² − e·spow(c,e)·… :
	// d/dθ[e|c|^(e−1)d] = e(e−1)|c|^(e−2)·sign(c)·d·d + e|c|^(e−1)·(−c)
	g2 = e*(e-1)*pe1/ac*sgn(c)*d*d - e*pe1*c
	return
}

// Point returns the local surface point at parameters (p1, p2).
func (s *Superovoid) Point(p1, p2 float64) Vec3 {
	s1, c1 := math.Sincos(p1)
	s2, c2 := math.Sincos(p2)
	e1, e2 := s.Eps[0], s.Eps[1]
	S2 := spow(s2, e2)
	C2 := spow(c2, e2)
	return Vec3{
		s.A[0] * (1 + s.Taper[0]*S2) * spow(c1, e1) * C2,
		s.A[1] * (1 + s.Taper[1]*S2) * spow(s1, e1) * C2,
		s.A[2] * S2,
	}
}

// ParamDerivs holds a parametric point and its partial derivatives.
type ParamDerivs struct {
	X             Vec3 // point
	X1, X2        Vec3 // ∂X/∂p1, ∂X/∂p2
	X11, X12, X22 Vec3 // second derivatives
}

// Derivs returns the point at (p1, p2) with first and second derivatives.
// Near the poles and, for e < 1, near the planes where sin or cos vanishes,
// the derivatives are large (floored, never infinite).
func (s *Superovoid) Derivs(p1, p2 float64) ParamDerivs {
	s1, c1 := math.Sincos(p1)
	s2, c2 := math.Sincos(p2)
	e1, e2 := s.Eps[0], s.Eps[1]
	a1, a2, a3 := s.A[0], s.A[1], s.A[2]
	tx, ty := s.Taper[0], s.Taper[1]
	C1, C1d, C1dd := spowTrig(c1, -s1, e1)
	S1, S1d, S1dd := spowTrig(s1, c1, e1)
	C2, C2d, C2dd := spowTrig(c2, -s2, e2)
	S2, S2d, S2dd := spowTrig(s2, c2, e2)
	// x = a1·Tx·C1·C2 with Tx = 1 + tx·S2 (depends on p2 only).
	Tx, Txd, Txdd := 1+tx*S2, tx*S2d, tx*S2dd
	Ty, Tyd, Tydd := 1+ty*S2, ty*S2d, ty*S2dd
	// f(p2) = T·C2 and its derivatives.
	fx, fxd, fxdd := Tx*C2, Txd*C2+Tx*C2d, Txdd*C2+2*Txd*C2d+Tx*C2dd
	fy, fyd, fydd := Ty*C2, Tyd*C2+Ty*C2d, Tydd*C2+2*Tyd*C2d+Ty*C2dd
	var d ParamDerivs
	d.X = Vec3{a1 * C1 * fx, a2 * S1 * fy, a3 * S2}
	d.X1 = Vec3{a1 * C1d * fx, a2 * S1d * fy, 0}
	d.X2 = Vec3{a1 * C1 * fxd, a2 * S1 * fyd, a3 * S2d}
	d.X11 = Vec3{a1 * C1dd * fx, a2 * S1dd * fy, 0}
	d.X12 = Vec3{a1 * C1d * fxd, a2 * S1d * fyd, 0}
	d.X22 = Vec3{a1 * C1 * fxdd, a2 * S1 * fydd, a3 * S2dd}
	return d
}

// Params returns angle-centre parameters (p1, p2) of a local surface point:
// the inverse of Point for points on the surface.
func (s *Superovoid) Params(p Vec3) (p1, p2 float64) {
	e1, e2 := s.Eps[0], s.Eps[1]
	w := p[2] / s.A[2]
	if w > 1 {
		w = 1
	} else if w < -1 {
		w = -1
	}
	S2 := w // spow(sin p2, e2)
	sinp2 := spow(S2, 1/e2)
	p2 = math.Asin(math.Max(-1, math.Min(1, sinp2)))
	cx, cy := 1+s.Taper[0]*w, 1+s.Taper[1]*w
	u := p[0] / (s.A[0] * cx)
	v := p[1] / (s.A[1] * cy)
	// u = spow(cos p1, e1)·C2, v = spow(sin p1, e1)·C2: the ratio fixes p1.
	p1 = math.Atan2(spow(v, 1/e1), spow(u, 1/e1))
	return p1, p2
}

// ParamNormal returns the outward normal X1 × X2 of the parametrisation
// (not normalised). It vanishes at the poles.
func (d *ParamDerivs) ParamNormal() Vec3 { return d.X1.Cross(d.X2) }
