package drawlist

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

func randomCamera(rng *rand.Rand) Camera {
	c := DefaultCamera()
	c.Target = geom.Vec3{rng.Float64()*4 - 2, rng.Float64()*4 - 2, rng.Float64()*4 - 2}
	c.Distance = 0.5 + rng.Float64()*20
	c.Yaw = rng.Float64()*2*math.Pi - math.Pi
	c.Pitch = rng.Float64()*math.Pi - math.Pi/2
	c.FovY = 0.3 + rng.Float64()*1.2
	c.Ortho = rng.IntN(2) == 0
	c.SceneRadius = 0.5 + rng.Float64()*5
	c.Width, c.Height = 200+rng.IntN(1800), 200+rng.IntN(1000)
	return c
}

// The eye frame is orthonormal and right-handed for every orientation,
// including the poles where a fixed-up look-at degenerates.
func TestBasisOrthonormal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1000; i++ {
		c := randomCamera(rng)
		if i < 2 {
			c.Pitch = []float64{math.Pi / 2, -math.Pi / 2}[i]
		}
		r, u, b := c.Basis()
		if !geom.Orthonormal(r, u, b, 1e-12) {
			t.Fatalf("camera %+v: basis %v %v %v not orthonormal", c, r, u, b)
		}
		if d := r.Cross(u).Sub(b).Len(); d > 1e-12 {
			t.Fatalf("camera %+v: basis is left-handed", c)
		}
	}
}

// Project and Ray are independent formulations (matrix pipeline vs. eye
// basis): the ray through a point's pixel must pass through the point.
func TestProjectRayRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		c := randomCamera(rng)
		r, u, _ := c.Basis()
		// A point inside the view frustum, around the target.
		p := c.Target.Add(r.Mul((rng.Float64() - 0.5) * c.HalfHeight())).Add(u.Mul((rng.Float64() - 0.5) * c.HalfHeight()))
		x, y, _, ok := c.Project(p)
		if !ok {
			t.Fatalf("camera %+v: point %v near the target not visible", c, p)
		}
		o, d := c.Ray(x, y)
		// Distance of p from the ray.
		w := p.Sub(o)
		dist := w.Sub(d.Mul(w.Dot(d))).Len()
		if dist > 1e-9*(1+c.Distance) {
			t.Fatalf("camera %+v: ray through (%g,%g) misses %v by %g", c, x, y, p, dist)
		}
	}
}

func TestProjectTargetAtCentre(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 500; i++ {
		c := randomCamera(rng)
		x, y, z, ok := c.Project(c.Target)
		if !ok || math.Abs(x-float64(c.Width)/2) > 1e-6 || math.Abs(y-float64(c.Height)/2) > 1e-6 || z <= -1 || z >= 1 {
			t.Fatalf("camera %+v: target projects to (%g,%g,%g,%v)", c, x, y, z, ok)
		}
	}
}

// Each axis view shows the expected world axes to the right and up.
func TestAxisViews(t *testing.T) {
	tests := []struct {
		v         View
		right, up geom.Vec3
	}{
		{Front, geom.Vec3{1, 0, 0}, geom.Vec3{0, 0, 1}},
		{Back, geom.Vec3{-1, 0, 0}, geom.Vec3{0, 0, 1}},
		{Right, geom.Vec3{0, 1, 0}, geom.Vec3{0, 0, 1}},
		{Left, geom.Vec3{0, -1, 0}, geom.Vec3{0, 0, 1}},
		{Top, geom.Vec3{1, 0, 0}, geom.Vec3{0, 1, 0}},
		{Bottom, geom.Vec3{1, 0, 0}, geom.Vec3{0, -1, 0}},
	}
	for _, tc := range tests {
		c := DefaultCamera()
		c.SetView(tc.v)
		if !c.Ortho || c.CurrentView() != tc.v {
			t.Errorf("%v: ortho %v, current view %v", tc.v, c.Ortho, c.CurrentView())
		}
		cx, cy, _, _ := c.Project(geom.Vec3{})
		x, y, _, _ := c.Project(tc.right)
		if !(x > cx+10) || math.Abs(y-cy) > 1e-6 {
			t.Errorf("%v: %v projects to (%g,%g), want right of centre (%g,%g)", tc.v, tc.right, x, y, cx, cy)
		}
		x, y, _, _ = c.Project(tc.up)
		if !(y < cy-10) || math.Abs(x-cx) > 1e-6 {
			t.Errorf("%v: %v projects to (%g,%g), want above centre (%g,%g)", tc.v, tc.up, x, y, cx, cy)
		}
		name := tc.v.String()
		if v, ok := ParseView(name); !ok || v != tc.v {
			t.Errorf("ParseView(%q) = %v, %v", name, v, ok)
		}
	}
	c := DefaultCamera()
	c.SetView(Front)
	c.Orbit(10, 0)
	if c.Ortho || c.CurrentView() != Persp {
		t.Errorf("orbiting from an axis view should return to perspective")
	}
	if _, ok := ParseView("sideways"); ok {
		t.Errorf("ParseView accepted a bad name")
	}
}

// Framing a sphere keeps all of it inside the viewport, in both projections
// and for wide and tall windows.
func TestFrameKeepsSphereVisible(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 300; i++ {
		c := randomCamera(rng)
		centre := geom.Vec3{rng.Float64()*10 - 5, rng.Float64()*10 - 5, rng.Float64()*10 - 5}
		rad := 0.01 + rng.Float64()*10
		c.Frame(centre, rad)
		for k := 0; k < 200; k++ {
			d := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Normalize()
			p := centre.Add(d.Mul(rad))
			x, y, _, ok := c.Project(p)
			if !ok || x < 0 || y < 0 || x > float64(c.Width) || y > float64(c.Height) {
				t.Fatalf("camera %+v: framed sphere point %v projects to (%g,%g,%v)", c, p, x, y, ok)
			}
		}
	}
}

// Panning by some pixels moves a point on the target plane by the same
// pixels on screen.
func TestPanFollowsMouse(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 300; i++ {
		c := randomCamera(rng)
		p := c.Target
		x0, y0, _, _ := c.Project(p)
		dx, dy := rng.Float64()*100-50, rng.Float64()*100-50
		c.Pan(dx, dy)
		x1, y1, _, _ := c.Project(p)
		if math.Abs(x1-x0-dx) > 1e-6 || math.Abs(y1-y0-dy) > 1e-6 {
			t.Fatalf("camera %+v: pan (%g,%g) moved the point by (%g,%g)", c, dx, dy, x1-x0, y1-y0)
		}
	}
}
