package geom

import (
	"fmt"
	"math"
)

// Parameter limits of a Superovoid. Squareness outside [MinEps, MaxEps] makes
// the exponents 2/e overflow or the surface lose C1 smoothness; tapers beyond
// ±MaxTaper let the scaling 1+t·w reach zero inside the body.
const (
	MinEps   = 0.05
	MaxEps   = 1.95
	MaxTaper = 0.5
)

// Magnitude limits of lengths: semi-axes in [MinLength, MaxLength] and
// coordinates within ±MaxLength, so that squared distances (up to 1e200)
// never overflow or underflow float64 (beyond ~1e154 they do, and an answer
// would become Inf or NaN).
const (
	MinLength = 1e-100
	MaxLength = 1e100
)

// Superovoid is the shape of a tapered superellipsoid in its local frame:
// semi-axes A = (a1, a2, a3), squareness Eps = (e1 for the xy sections,
// e2 for the z profile) and linear tapers Taper = (tx, ty) along z.
// Taper = (0, 0) is Barr's superellipsoid; Eps = (1, 1) with no taper an
// ellipsoid.
type Superovoid struct {
	A     [3]float64
	Eps   [2]float64
	Taper [2]float64
}

// ParamError reports one invalid shape or pose parameter.
type ParamError struct {
	Field  string  // e.g. "a[1]", "eps[0]", "taper[1]", "orientation"
	Value  float64 // the offending value
	Reason string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s = %v: %s", e.Field, e.Value, e.Reason)
}

// Validate reports the first parameter that is NaN, infinite or out of range,
// naming the field and the value.
func (s Superovoid) Validate() error {
	for i, a := range s.A {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return &ParamError{fmt.Sprintf("a[%d]", i), a, "must be a finite number"}
		}
		if a <= 0 {
			return &ParamError{fmt.Sprintf("a[%d]", i), a, "semi-axis must be > 0"}
		}
		if a < MinLength || a > MaxLength {
			return &ParamError{fmt.Sprintf("a[%d]", i), a, fmt.Sprintf("semi-axis must be in [%g, %g]", MinLength, MaxLength)}
		}
	}
	for i, e := range s.Eps {
		if math.IsNaN(e) || math.IsInf(e, 0) {
			return &ParamError{fmt.Sprintf("eps[%d]", i), e, "must be a finite number"}
		}
		if e < MinEps || e > MaxEps {
			return &ParamError{fmt.Sprintf("eps[%d]", i), e, fmt.Sprintf("squareness must be in [%g, %g]", MinEps, MaxEps)}
		}
	}
	for i, t := range s.Taper {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return &ParamError{fmt.Sprintf("taper[%d]", i), t, "must be a finite number"}
		}
		if t < -MaxTaper || t > MaxTaper {
			return &ParamError{fmt.Sprintf("taper[%d]", i), t, fmt.Sprintf("taper must be in [%g, %g]", -MaxTaper, MaxTaper)}
		}
	}
	return nil
}

// IsSuperellipsoid reports whether the shape has no taper, so that the closed
// forms of the superellipsoid apply.
func (s Superovoid) IsSuperellipsoid() bool { return s.Taper[0] == 0 && s.Taper[1] == 0 }

// Sphere returns a sphere of radius r.
func Sphere(r float64) Superovoid {
	return Superovoid{A: [3]float64{r, r, r}, Eps: [2]float64{1, 1}}
}

// Ellipsoid returns an untapered ellipsoid with semi-axes a, b, c.
func Ellipsoid(a, b, c float64) Superovoid {
	return Superovoid{A: [3]float64{a, b, c}, Eps: [2]float64{1, 1}}
}

// spow is the signed power sign(c)·|c|^e that keeps odd symmetry for real e.
func spow(c, e float64) float64 {
	// exp(e·ln|c|) is about twice as fast as math.Pow and as accurate to a
	// few ulps for the exponents of this package (0.05 to 40).
	if c == 0 {
		return 0
	}
	if c < 0 {
		return -math.Exp(e * math.Log(-c))
	}
	return math.Exp(e * math.Log(c))
}

// Spow is the signed power sign(c)·|c|^e (paper 000 eq 4).
func Spow(c, e float64) float64 { return spow(c, e) }
