package geom_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/sovviz/sovviz/geom"
)

// Validate names the first bad field and its value; a caller can take the
// fields apart with errors.As.
func ExampleSuperovoid_Validate() {
	s := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.5, 2.5}}
	err := s.Validate()
	fmt.Println(err)
	var pe *geom.ParamError
	if errors.As(err, &pe) {
		fmt.Println(pe.Field, pe.Value)
	}
	// Output:
	// eps[1] = 2.5: squareness must be in [0.05, 1.95]
	// eps[1] 2.5
}

// Not every superovoid is convex (math.md §1): the report says why and how
// far the shape is from its convex hull. Untapered shapes always are.
func ExampleSuperovoid_Convexity() {
	for _, s := range []geom.Superovoid{
		{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.3, 1.8}},
		{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1.95}, Taper: [2]float64{0.5, 0.5}},
		{A: [3]float64{1, 1, 1}, Eps: [2]float64{0.5, 0.5}, Taper: [2]float64{0.4, -0.4}},
	} {
		r := s.Convexity()
		fmt.Printf("convex %-5v hull gap %.2e: %s\n", r.Convex, r.HullGap, r.Reason)
	}
	// Output:
	// convex true  hull gap 0.00e+00: convex: untapered superellipsoid
	// convex false hull gap 7.91e-02: tapered profile caves in on the -z side (tx = ty, e2 > 1.38)
	// convex false hull gap 8.44e-04: tx != ty with e2 < 1: shallow dip near the equator in diagonal directions
}

// PointWithNormal inverts the Gauss map: the surface point whose outward
// normal is n. For a sphere of radius 2 that is 2·n̂.
func ExampleSuperovoid_PointWithNormal() {
	s := geom.Sphere(2)
	x, _, _, ok := s.PointWithNormal(geom.Vec3{1, 1, 0})
	n, _ := s.Normal(x)
	fmt.Printf("%v %.6f, normal there %.6f\n", ok, round6(x), round6(n))
	// Output:
	// true [1.414214 1.414214 0.000000], normal there [0.707107 0.707107 0.000000]
}

// Body.Support is the support function of a placed body: how far it reaches
// along a world direction, and where.
func ExampleBody_Support() {
	b := geom.Body{
		Shape: geom.Ellipsoid(2, 1, 0.5),
		Pose:  geom.Pose{Position: geom.Vec3{0, 0, 3}, Orientation: geom.Quat{W: math.Cos(math.Pi / 4), V: geom.Vec3{0, 0, math.Sin(math.Pi / 4)}}},
	}
	h, x := b.Support(geom.Vec3{0, 1, 0}) // the long axis now points along y
	fmt.Printf("h %.6f at %.6f\n", h, round6(x))
	// Output:
	// h 2.000000 at [0.000000 2.000000 3.000000]
}

// round6 rounds to the 6 decimals printed, and turns −0 into 0, so that a
// coordinate within rounding of 0 prints the same on every platform.
func round6(v geom.Vec3) geom.Vec3 {
	for i, x := range v {
		v[i] = math.Round(x*1e6)/1e6 + 0
	}
	return v
}
