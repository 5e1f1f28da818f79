package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// Plane is the set of points x with Normal·x = Offset; Normal is the unit
// normal of the free side.
type Plane struct {
	Normal geom.Vec3
	Offset float64
}

// PlaneResult is the signed distance between a body and a plane.
type PlaneResult struct {
	// Distance > 0: the body is on the free side; < 0: it penetrates by −Distance.
	Distance float64
	P        geom.Vec3 // deepest (or nearest) point of the body, world
	Q        geom.Vec3 // its projection on the plane
	Status   Status
}

// PlaneDistance returns the signed distance between body b and plane pl:
// the support point of b in direction −n against the plane (thesis §3.2,
// generalised to superovoids with the numeric point with a given normal).
// Exact for convex bodies; for a non-convex body the support point is still
// the deepest point, so the answer is exact too.
func PlaneDistance(b *geom.Body, pl Plane) PlaneResult {
	var out PlaneResult
	nl := pl.Normal.Len()
	if b.Validate() != nil || !(nl > 0) || math.IsInf(nl, 0) || math.IsNaN(pl.Offset) || math.IsInf(pl.Offset, 0) {
		out.Status = Failed
		return out
	}
	n := pl.Normal.Mul(1 / nl)
	off := pl.Offset / nl
	t := b.Pose.Transform()
	x, ok := SupportPoint(&b.Shape, t.InvDir(n.Mul(-1)))
	if !ok {
		out.Status = Failed
		return out
	}
	out.P = t.Point(x)
	out.Distance = n.Dot(out.P) - off
	out.Q = out.P.Sub(n.Mul(out.Distance))
	out.Status = Converged
	return out
}

// SupportPoint returns the local point of s that maximises m·x (m local),
// i.e. the point whose outward normal is m: the closed form for untapered
// shapes, polished by Newton on t·∇F = b·∇F = 0, F = 0 (t, b spanning the
// plane normal to m) for tapered ones.
func SupportPoint(s *geom.Superovoid, m vec) (vec, bool) {
	ml := m.Len()
	if !(ml > 0) {
		return vec{}, false
	}
	m = m.Mul(1 / ml)
	x := approxSupport(s, m)
	if s.IsSuperellipsoid() {
		return x, true
	}
	tt, bb := geom.Householder(m)
	L := minAxis(s)
	for it := 0; it < 50; it++ {
		e, ok := s.ResidualHessian(x, true)
		if !ok {
			return x, false
		}
		phi := [6]float64{tt.Dot(e.Grad), bb.Dot(e.Grad), e.G}
		var J [6][6]float64
		for k := 0; k < 3; k++ {
			hk := col(&e.Hess, k)
			J[0][k] = tt.Dot(hk)
			J[1][k] = bb.Dot(hk)
			J[2][k] = e.Grad[k]
		}
		rhs := [6]float64{-phi[0], -phi[1], -phi[2]}
		dx, _, ok := solve(&J, &rhs, 3)
		if !ok {
			return x, false
		}
		step := vec{dx[0], dx[1], dx[2]}
		if l := step.Len(); l > 0.25*L {
			step = step.Mul(0.25 * L / l)
		}
		x = x.Add(step)
		if step.Len() < 1e-14*math.Max(1, L) {
			break
		}
	}
	g, ok := s.Normal(x)
	f, _ := s.Residual(x)
	if !ok || g.Dot(m) < 1-1e-9 || math.Abs(f) > 1e-10 {
		// Pointy tips (e near 2) defeat the normal condition: maximise m·X
		// over the parameters instead.
		return supportParametric(s, m)
	}
	return x, true
}

// supportParametric maximises m·X(p1, p2) from the best sample of a coarse
// parameter grid by damped Newton steps in the parameters, kept only while
// they increase m·X; it also searches the pole charts, where p1 is degenerate.
func supportParametric(s *geom.Superovoid, m vec) (vec, bool) {
	const n1, n2 = 48, 24
	bp1, bp2, bv := 0.0, 0.0, math.Inf(-1)
	for i := 0; i < n1; i++ {
		p1 := -math.Pi + 2*math.Pi*(float64(i)+0.5)/n1
		for j := 0; j <= n2; j++ {
			p2 := -math.Pi/2 + math.Pi*float64(j)/n2
			if v := m.Dot(s.Point(p1, p2)); v > bv {
				bp1, bp2, bv = p1, p2, v
			}
		}
	}
	f := func(p1, p2 float64) float64 { return m.Dot(s.Point(p1, p2)) }
	// Pattern search in the parameters, then in the pole chart if near a
	// pole; halving steps down to 1e-14.
	moves := [8][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}
	for h := 2 * math.Pi / n1; h > 1e-14; {
		improved := false
		for _, d := range moves {
			q1, q2 := wrapParams(bp1+d[0]*h, bp2+d[1]*h)
			if v := f(q1, q2); v > bv {
				bp1, bp2, bv, improved = q1, q2, v, true
				break
			}
		}
		if !improved {
			h /= 2
		}
	}
	for _, pole := range [2]float64{1, -1} {
		if pole*bp2 < math.Pi/2-0.3 {
			continue
		}
		dd := math.Pi/2 - pole*bp2
		xi, eta := dd*math.Cos(bp1), dd*math.Sin(bp1)
		for h := 0.05; h > 1e-14; {
			improved := false
			for _, d := range moves {
				x2, e2 := xi+d[0]*h, eta+d[1]*h
				q1, q2 := math.Atan2(e2, x2), pole*(math.Pi/2-math.Hypot(x2, e2))
				if v := f(q1, q2); v > bv {
					bp1, bp2, bv, improved = q1, q2, v, true
					xi, eta = x2, e2
					break
				}
			}
			if !improved {
				h /= 2
			}
		}
	}
	return s.Point(bp1, bp2), !math.IsInf(bv, 0)
}
