package contact_test

import (
	"fmt"
	"math"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

// Two unit spheres whose centres are 3 apart are 1 apart: the closed form
// the query must reproduce, with its witness points and normal.
func Example() {
	a := geom.Body{Shape: geom.Sphere(1), Pose: geom.Identity()}
	b := geom.Body{Shape: geom.Sphere(1), Pose: geom.Pose{Position: geom.Vec3{3, 0, 0}, Orientation: geom.Quat{W: 1}}}
	opt := contact.DefaultOptions()
	r := contact.Query(&a, &b, &opt)
	fmt.Printf("distance %.9f, %v, certified %v\n", r.Distance, r.Status, r.Certified)
	fmt.Printf("p %.6f  q %.6f  normal %.6f\n", round6(r.P), round6(r.Q), round6(r.Normal))
	// Output:
	// distance 1.000000000, converged, certified true
	// p [1.000000 0.000000 0.000000]  q [2.000000 0.000000 0.000000]  normal [1.000000 0.000000 0.000000]
}

// An overlapping pair answers minus the minimum translation distance: two
// unit spheres 1.5 apart overlap by 0.5.
func Example_overlap() {
	a := geom.Body{Shape: geom.Sphere(1), Pose: geom.Identity()}
	b := geom.Body{Shape: geom.Sphere(1), Pose: geom.Pose{Position: geom.Vec3{0, 0, 1.5}, Orientation: geom.Quat{W: 1}}}
	opt := contact.DefaultOptions()
	r := contact.Query(&a, &b, &opt)
	fmt.Printf("distance %.9f, normal %.6f\n", r.Distance, round6(r.Normal))
	// Output:
	// distance -0.500000000, normal [0.000000 0.000000 1.000000]
}

// A Solver keeps scratch space and per-shape analysis between queries (no
// allocation in steady state). QueryWarm starts Newton from the previous
// answer of the same pair, as an animation does frame after frame; its
// answers are the cold query's.
func ExampleSolver_QueryWarm() {
	box := geom.Superovoid{A: [3]float64{1, 0.6, 0.4}, Eps: [2]float64{0.3, 0.3}}
	a := geom.Body{Shape: box, Pose: geom.Identity()}
	b := geom.Body{Shape: geom.Ellipsoid(0.5, 0.5, 0.8), Pose: geom.Pose{Position: geom.Vec3{0, 0, 1.5}, Orientation: geom.Quat{W: 1}}}
	sv := contact.NewSolver(contact.DefaultOptions())
	prev := sv.Query(&a, &b)
	worst := 0.0
	for frame := 1; frame <= 60; frame++ {
		// b slides sideways and sinks a little every frame.
		b.Pose.Position = b.Pose.Position.Add(geom.Vec3{0.01, 0.005, -0.004})
		prev = sv.QueryWarm(&a, &b, &prev)
		cold := sv.Query(&a, &b)
		worst = math.Max(worst, math.Abs(prev.Distance-cold.Distance))
	}
	fmt.Printf("last frame: distance %.6f, warm %v, %v\n", prev.Distance, prev.Warm, prev.Status)
	fmt.Println("warm and cold agree to 1e-9:", worst <= 1e-9)
	// Output:
	// last frame: distance 0.062507, warm true, converged
	// warm and cold agree to 1e-9: true
}

// A tapered shape can be non-convex (docs/contact.md): the answer says so,
// with how far the shape is from its convex hull, and is certified only when
// the support planes prove it global.
func ExampleResult_nonConvex() {
	pear := geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1.95}, Taper: [2]float64{0.5, 0.5}}
	a := geom.Body{Shape: pear, Pose: geom.Identity()}
	b := geom.Body{Shape: geom.Sphere(0.5), Pose: geom.Pose{Position: geom.Vec3{0, 0, 2}, Orientation: geom.Quat{W: 1}}}
	opt := contact.DefaultOptions()
	r := contact.Query(&a, &b, &opt)
	fmt.Printf("distance %.6f, non-convex shapes %02b, hull gap of a %.3f\n", r.Distance, r.NonConvex, r.HullGapA)
	fmt.Println("certified:", r.Certified)
	// Output:
	// distance 0.500000, non-convex shapes 01, hull gap of a 0.079
	// certified: true
}

// Options.Trace records every Newton iterate (world points, residual, step,
// condition estimate) for a convergence plot, from the initial guess to the
// answer; without it nothing is recorded and nothing allocated.
func ExampleOptions_trace() {
	box := geom.Superovoid{A: [3]float64{1, 0.6, 0.4}, Eps: [2]float64{0.3, 0.5}, Taper: [2]float64{0.2, -0.1}}
	turned := geom.Quat{W: math.Cos(0.4), V: geom.Vec3{0, math.Sin(0.4), 0}}
	a := geom.Body{Shape: box, Pose: geom.Identity()}
	b := geom.Body{Shape: geom.Ellipsoid(0.8, 0.5, 0.3), Pose: geom.Pose{Position: geom.Vec3{1.6, 0.7, 0.9}, Orientation: turned}}
	opt := contact.DefaultOptions()
	opt.Guess = contact.Quadtree
	opt.Trace = &contact.Trace{}
	r := contact.Query(&a, &b, &opt)
	steps := opt.Trace.Steps
	first, last := steps[0], steps[len(steps)-1]
	fmt.Println("starts at the guess:", first.Iter == 0, "steps traced:", last.Iter == r.Iterations)
	fmt.Println("residual at the guess above 1e-2:", first.Residual > 1e-2)
	fmt.Println("last residual below 1e-12:", last.Residual < 1e-12)
	fmt.Println("the trace ends at the answer:", last.P.Sub(r.P).Len() < 1e-12 && last.Qw.Sub(r.Q).Len() < 1e-12)
	// Output:
	// starts at the guess: true steps traced: true
	// residual at the guess above 1e-2: true
	// last residual below 1e-12: true
	// the trace ends at the answer: true
}

// The distance from a superovoid to a plane is its support point's: a unit
// sphere 2.5 above the plane z = 0 is 1.5 from it.
func ExamplePlaneDistance() {
	b := geom.Body{Shape: geom.Sphere(1), Pose: geom.Pose{Position: geom.Vec3{0, 0, 2.5}, Orientation: geom.Quat{W: 1}}}
	r := contact.PlaneDistance(&b, contact.Plane{Normal: geom.Vec3{0, 0, 1}, Offset: 0})
	fmt.Printf("distance %.9f, deepest point %.6f, on the plane %.6f\n", r.Distance, round6(r.P), round6(r.Q))
	// Output:
	// distance 1.500000000, deepest point [0.000000 0.000000 1.500000], on the plane [0.000000 0.000000 0.000000]
}

// PointDistance is exact and signed: outside an ellipsoid along its long
// axis, and inside it, where the nearest surface point is on a short axis.
func ExamplePointDistance() {
	b := geom.Body{Shape: geom.Ellipsoid(2, 1, 1), Pose: geom.Identity()}
	out := contact.PointDistance(&b, geom.Vec3{3, 0, 0})
	in := contact.PointDistance(&b, geom.Vec3{0, 0, 0.25})
	fmt.Printf("outside %.9f at %.6f\n", out.Distance, round6(out.Closest))
	fmt.Printf("inside %.9f at %.6f\n", in.Distance, round6(in.Closest))
	// Output:
	// outside 1.000000000 at [2.000000 0.000000 0.000000]
	// inside -0.750000000 at [0.000000 0.000000 1.000000]
}

// A World runs the broad phase over a scene and queries only the pairs whose
// world boxes come within its margin (here 1: the far sphere is left out),
// warm-starting each from its last result.
func ExampleWorld() {
	at := func(x float64) geom.Pose {
		return geom.Pose{Position: geom.Vec3{x, 0, 0}, Orientation: geom.Quat{W: 1}}
	}
	bodies := []geom.Body{
		{Shape: geom.Sphere(1), Pose: at(0)},
		{Shape: geom.Sphere(1), Pose: at(2.5)},
		{Shape: geom.Sphere(1), Pose: at(10)},
	}
	w := contact.NewWorld(contact.DefaultOptions(), 1)
	for _, p := range w.Update(bodies) {
		fmt.Printf("bodies %d and %d: distance %.6f\n", p.I, p.J, p.Result.Distance)
	}
	// Output:
	// bodies 0 and 1: distance 0.500000
}

// round6 rounds to the 6 decimals printed, and turns −0 into 0, so that a
// coordinate within rounding of 0 prints the same on every platform.
func round6(v geom.Vec3) geom.Vec3 {
	for i, x := range v {
		v[i] = math.Round(x*1e6)/1e6 + 0
	}
	return v
}
