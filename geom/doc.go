// Package geom describes superovoids (tapered superellipsoids) and everything
// the contact solver and the mesher need to know about one shape: the implicit
// inside-outside function with its gradient and Hessian, the angle-centre
// parametrisation with its derivatives, tangent frames, points with a given
// normal, support functions, bounds, convexity, and the octree and quadtree
// cells that seed the contact solver.
//
// All geometry is float64. The package is pure Go, keeps no global state and
// needs no display. Formulas follow ../shared/docs/math.md (paper 000 of the
// project's sources, with its misprints corrected).
package geom

import "github.com/go-gl/mathgl/mgl64"

// Vec3 is a point or direction in 3D.
type Vec3 = mgl64.Vec3

// Mat3 is a column-major 3x3 matrix.
type Mat3 = mgl64.Mat3

// Quat is a quaternion, scalar part W first.
type Quat = mgl64.Quat
