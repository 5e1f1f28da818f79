package geom

import (
	"fmt"
	"math"
)

// Pose places a shape in the world: position of its local origin and a unit
// quaternion (scalar first) rotating local axes into world axes.
type Pose struct {
	Position    Vec3
	Orientation Quat
}

// Identity is the pose at the origin with no rotation.
func Identity() Pose { return Pose{Orientation: Quat{W: 1}} }

// quatTolerance is how far |q| may be from 1 before a pose is rejected rather
// than normalised: a larger error means the input was not meant as a rotation.
const quatTolerance = 1e-3

// Validate checks that the position is finite and the orientation is a unit
// quaternion (within 1e-3; use Normalized to remove rounding).
func (p Pose) Validate() error {
	for i, c := range p.Position {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return &ParamError{Field: "position[" + string(rune('0'+i)) + "]", Value: c, Reason: "must be a finite number"}
		}
		if math.Abs(c) > MaxLength {
			return &ParamError{Field: "position[" + string(rune('0'+i)) + "]", Value: c, Reason: fmt.Sprintf("must be within ±%g", MaxLength)}
		}
	}
	q := [4]float64{p.Orientation.W, p.Orientation.V[0], p.Orientation.V[1], p.Orientation.V[2]}
	for i, c := range q {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return &ParamError{Field: "orientation[" + string(rune('0'+i)) + "]", Value: c, Reason: "must be a finite number"}
		}
	}
	if n := quatNorm(p.Orientation); math.Abs(n-1) > quatTolerance {
		return &ParamError{Field: "|orientation|", Value: n, Reason: "quaternion [w,x,y,z] must have unit length (within 0.001)"}
	}
	return nil
}

// Normalized returns the pose with its quaternion scaled to unit length.
func (p Pose) Normalized() Pose {
	q := p.Orientation
	n := math.Sqrt(q.W*q.W + q.V.Dot(q.V))
	if n == 0 {
		return Pose{Position: p.Position, Orientation: Quat{W: 1}}
	}
	return Pose{Position: p.Position, Orientation: Quat{W: q.W / n, V: q.V.Mul(1 / n)}}
}

// Rotation returns the rotation matrix of the orientation (local to world):
// that of the unit quaternion q/|q|, so that it is orthogonal for any
// non-zero finite q (the identity for q = 0 or a NaN or infinite one). Validate accepts |q| within 0.001 of 1,
// and the unnormalised formula's matrix is then no rotation: transforms
// inverted by its transpose moved points 1e-4 off their surfaces, and a
// pair of bodies at |q| = 1.0004 was answered 1.65e-4 off, certified
// (review of 2026-12-04).
func (p Pose) Rotation() Mat3 {
	q := p.Orientation
	w, x, y, z := q.W, q.V[0], q.V[1], q.V[2]
	s := 2.0
	if n2 := w*w + x*x + y*y + z*z; n2 != 1 {
		if !(n2 >= 1e-200 && n2 <= 1e200) {
			// The squares under- or overflow: scale by the largest
			// component first (a zero, NaN or infinite q: the identity).
			m := max(math.Abs(w), math.Abs(x), math.Abs(y), math.Abs(z))
			if !(m > 0 && m <= math.MaxFloat64) {
				return Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}
			}
			w, x, y, z = w/m, x/m, y/m, z/m
			n2 = w*w + x*x + y*y + z*z
		}
		s = 2 / n2
	}
	// Column-major.
	return Mat3{
		1 - s*(y*y+z*z), s * (x*y + w*z), s * (x*z - w*y),
		s * (x*y - w*z), 1 - s*(x*x+z*z), s * (y*z + w*x),
		s * (x*z + w*y), s * (y*z - w*x), 1 - s*(x*x+y*y),
	}
}

// Transform returns the rigid transform of the pose, with the rotation
// matrix precomputed for hot loops.
func (p Pose) Transform() Transform { return Transform{R: p.Rotation(), T: p.Position} }

// ToWorld maps a local point to world coordinates.
func (p Pose) ToWorld(x Vec3) Vec3 { t := p.Transform(); return t.Point(x) }

// ToLocal maps a world point to local coordinates.
func (p Pose) ToLocal(x Vec3) Vec3 { t := p.Transform(); return t.InvPoint(x) }

// Transform is a rigid transform x_world = R·x_local + T.
type Transform struct {
	R Mat3
	T Vec3
}

// Point maps a local point to world.
func (t *Transform) Point(x Vec3) Vec3 { return MulMV(&t.R, x).Add(t.T) }

// Dir maps a local direction to world.
func (t *Transform) Dir(x Vec3) Vec3 { return MulMV(&t.R, x) }

// InvPoint maps a world point to local.
func (t *Transform) InvPoint(x Vec3) Vec3 { return MulMtV(&t.R, x.Sub(t.T)) }

// InvDir maps a world direction to local.
func (t *Transform) InvDir(x Vec3) Vec3 { return MulMtV(&t.R, x) }

// MulMV returns m·v without copying the matrix.
func MulMV(m *Mat3, v Vec3) Vec3 {
	return Vec3{
		m[0]*v[0] + m[3]*v[1] + m[6]*v[2],
		m[1]*v[0] + m[4]*v[1] + m[7]*v[2],
		m[2]*v[0] + m[5]*v[1] + m[8]*v[2],
	}
}

// MulMtV returns mᵀ·v.
func MulMtV(m *Mat3, v Vec3) Vec3 {
	return Vec3{
		m[0]*v[0] + m[1]*v[1] + m[2]*v[2],
		m[3]*v[0] + m[4]*v[1] + m[5]*v[2],
		m[6]*v[0] + m[7]*v[1] + m[8]*v[2],
	}
}

// Body is a shape placed in the world.
type Body struct {
	Shape Superovoid
	Pose  Pose
}

// Valid reports whether Validate would return nil, without building an
// error: the contact query checks its inputs on every call, where the
// error's message is not needed (a NaN or Inf fails every comparison).
func (b *Body) Valid() bool {
	s := &b.Shape
	for _, a := range s.A {
		if !(a >= MinLength && a <= MaxLength) {
			return false
		}
	}
	for _, e := range s.Eps {
		if !(e >= MinEps && e <= MaxEps) {
			return false
		}
	}
	for _, t := range s.Taper {
		if !(t >= -MaxTaper && t <= MaxTaper) {
			return false
		}
	}
	return b.Pose.Valid()
}

// Valid reports whether the pose's Validate would return nil, without
// building an error (a warm contact query whose shapes it has already
// checked checks only the poses).
func (p *Pose) Valid() bool {
	for _, c := range p.Position {
		if !(math.Abs(c) <= MaxLength) {
			return false
		}
	}
	return math.Abs(quatNorm(p.Orientation)-1) <= quatTolerance
}

// quatNorm is |q| for Validate and Valid alike. The conversions round each
// square, so that no build fuses a multiply-add (GOAMD64=v3, arm64) in one
// of them and not the other: at the tolerance's edge the two would then
// disagree (review of 2026-11-24).
func quatNorm(q Quat) float64 {
	return math.Sqrt(float64(q.W*q.W) + float64(q.V[0]*q.V[0]) + float64(q.V[1]*q.V[1]) + float64(q.V[2]*q.V[2]))
}

// Validate checks the shape and the pose.
func (b Body) Validate() error {
	if err := b.Shape.Validate(); err != nil {
		return err
	}
	return b.Pose.Validate()
}
