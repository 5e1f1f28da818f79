package tessellate

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// lbeta returns ln B(x, y).
func lbeta(x, y float64) float64 {
	a, _ := math.Lgamma(x)
	b, _ := math.Lgamma(y)
	c, _ := math.Lgamma(x + y)
	return a + b - c
}

// Volume returns the closed-form volume of a superovoid.
//
// Untapered, this is the superellipsoid volume of Jaklič, Leonardis and
// Solina (2000), V = 2·a1·a2·a3·ε1·ε2·B(ε1/2+1, ε1)·B(ε2/2, ε2/2), where their
// ε1 is the z-profile exponent (our e2) and ε2 the section exponent (our e1).
// Derivation, which also gives the taper term: the section at w = z/a3 is a
// superellipse of area a1·a2·(1+tx·w)(1+ty·w)·r(w)²·e1·B(e1/2, e1/2) with
// r(w) = (1−|w|^(2/e2))^(e2/2); integrating over w, the odd term vanishes and
//
//	∫ r² dw    = e2·B(e2/2, e2+1)   (= 2·B(e2/2+1, e2), Jaklič's form)
//	∫ w²·r² dw = e2·B(3e2/2, e2+1)
func Volume(s *geom.Superovoid) float64 {
	e1, e2 := s.Eps[0], s.Eps[1]
	sec := e1 * math.Exp(lbeta(e1/2, e1/2))
	i0 := e2 * math.Exp(lbeta(e2/2, e2+1))
	i2 := e2 * math.Exp(lbeta(1.5*e2, e2+1))
	return s.A[0] * s.A[1] * s.A[2] * sec * (i0 + s.Taper[0]*s.Taper[1]*i2)
}
