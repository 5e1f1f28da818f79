package drawlist

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/sovviz/sovviz/geom"
)

// View names a camera preset of the view-cube (thesis §4.2): the six
// orthographic views along the axes and the free perspective view.
type View int

// The camera presets. The world is right-handed with z up; "front" looks
// along +y, "right" along -x, "top" along -z.
const (
	Persp View = iota
	Front
	Back
	Left
	Right
	Top
	Bottom
)

var viewNames = [...]string{"persp", "front", "back", "left", "right", "top", "bottom"}

func (v View) String() string {
	if v >= 0 && int(v) < len(viewNames) {
		return viewNames[v]
	}
	return "unknown"
}

// ParseView returns the view named s (persp, front, back, left, right, top, bottom).
func ParseView(s string) (View, bool) {
	for i, n := range viewNames {
		if n == s {
			return View(i), true
		}
	}
	return Persp, false
}

// Camera is an orbit camera around Target: the eye sits Distance away in the
// direction given by Yaw (about z, 0 = in front, on -y) and Pitch (elevation,
// ±π/2 = straight above/below). It is plain data: the window and the headless
// renderer both build their matrices from it, and tests project points with it.
type Camera struct {
	Target   geom.Vec3
	Distance float64
	Yaw      float64 // radians
	Pitch    float64 // radians, clamped to [-π/2, π/2]
	FovY     float64 // vertical field of view of the perspective projection, radians
	Ortho    bool    // orthographic projection (the six axis views)
	// Radius of the scene around Target, used for the clip planes.
	SceneRadius float64
	// Viewport size in pixels (framebuffer pixels, HiDPI included).
	Width, Height int
}

// DefaultCamera returns a perspective camera looking at the origin from the
// front-right, a little above.
func DefaultCamera() Camera {
	return Camera{Distance: 6, Yaw: math.Pi / 6, Pitch: math.Pi / 7, FovY: math.Pi / 4, SceneRadius: 2, Width: 1280, Height: 800}
}

// Basis returns the unit vectors of the eye frame: right, up, and back (from
// the target towards the eye). Unlike a look-at with a fixed up vector it
// never degenerates, even in the top and bottom views.
func (c *Camera) Basis() (right, up, back geom.Vec3) {
	sy, cy := math.Sincos(c.Yaw)
	sp, cp := math.Sincos(c.Pitch)
	back = geom.Vec3{sy * cp, -cy * cp, sp}
	up = geom.Vec3{-sy * sp, cy * sp, cp}
	right = up.Cross(back)
	return
}

// Eye returns the camera position.
func (c *Camera) Eye() geom.Vec3 {
	_, _, back := c.Basis()
	return c.Target.Add(back.Mul(c.Distance))
}

// View returns the world-to-eye matrix.
func (c *Camera) View() mgl64.Mat4 {
	r, u, b := c.Basis()
	e := c.Eye()
	return mgl64.Mat4{
		r[0], u[0], b[0], 0,
		r[1], u[1], b[1], 0,
		r[2], u[2], b[2], 0,
		-r.Dot(e), -u.Dot(e), -b.Dot(e), 1,
	}
}

// Aspect returns width/height of the viewport (1 when unset).
func (c *Camera) Aspect() float64 {
	if c.Width <= 0 || c.Height <= 0 {
		return 1
	}
	return float64(c.Width) / float64(c.Height)
}

// HalfHeight returns half the height of the view at the target distance, in
// world units: the orthographic scale, chosen so that switching projection
// keeps the target's apparent size.
func (c *Camera) HalfHeight() float64 { return c.Distance * math.Tan(c.FovY/2) }

// clip returns the near and far plane distances.
func (c *Camera) clip() (near, far float64) {
	r := math.Max(c.SceneRadius, 1e-3)
	if c.Ortho {
		// The eye may sit inside the scene: look both ways.
		return -(c.Distance + 4*r), c.Distance + 4*r
	}
	near = math.Max(c.Distance-4*r, c.Distance*1e-3)
	far = c.Distance + 4*r
	return near, far
}

// Proj returns the projection matrix (OpenGL clip space, depth in [-1, 1]).
func (c *Camera) Proj() mgl64.Mat4 {
	near, far := c.clip()
	if c.Ortho {
		h := c.HalfHeight()
		w := h * c.Aspect()
		return mgl64.Ortho(-w, w, -h, h, near, far)
	}
	return mgl64.Perspective(c.FovY, c.Aspect(), near, far)
}

// ViewProj returns Proj·View.
func (c *Camera) ViewProj() mgl64.Mat4 {
	return c.Proj().Mul4(c.View())
}

// Project maps a world point to pixel coordinates (x right, y down, origin at
// the top-left corner of the viewport) and the NDC depth in [-1, 1]. ok is
// false behind the eye or outside the clip range.
func (c *Camera) Project(p geom.Vec3) (x, y, depth float64, ok bool) {
	vp := c.ViewProj()
	return ProjectWith(&vp, c.Width, c.Height, p)
}

// ProjectWith is Project with a precomputed view-projection matrix.
func ProjectWith(vp *mgl64.Mat4, width, height int, p geom.Vec3) (x, y, depth float64, ok bool) {
	h := vp.Mul4x1(mgl64.Vec4{p[0], p[1], p[2], 1})
	if h[3] <= 0 {
		return 0, 0, 0, false
	}
	nx, ny, nz := h[0]/h[3], h[1]/h[3], h[2]/h[3]
	x = (nx + 1) / 2 * float64(width)
	y = (1 - ny) / 2 * float64(height)
	return x, y, nz, nz >= -1 && nz <= 1
}

// Ray returns the world ray through pixel (x, y): origin and unit direction.
// Picking intersects it with the objects.
func (c *Camera) Ray(x, y float64) (origin, dir geom.Vec3) {
	r, u, b := c.Basis()
	nx := 2*x/float64(max(c.Width, 1)) - 1
	ny := 1 - 2*y/float64(max(c.Height, 1))
	h := c.HalfHeight()
	w := h * c.Aspect()
	if c.Ortho {
		origin = c.Eye().Add(r.Mul(nx * w)).Add(u.Mul(ny * h))
		return origin, b.Mul(-1)
	}
	d := r.Mul(nx * w).Add(u.Mul(ny * h)).Sub(b.Mul(c.Distance))
	return c.Eye(), d.Normalize()
}

// PixelSize returns the world size of one pixel at the target's depth.
func (c *Camera) PixelSize() float64 {
	return 2 * c.HalfHeight() / float64(max(c.Height, 1))
}

// Orbit turns the camera by dx, dy pixels of mouse motion (Blender
// turntable). Orbiting out of an axis view returns to perspective.
func (c *Camera) Orbit(dx, dy float64) {
	const speed = 0.008 // radians per pixel
	c.Yaw -= dx * speed
	c.Pitch += dy * speed
	c.Pitch = math.Max(-math.Pi/2, math.Min(math.Pi/2, c.Pitch))
	c.Yaw = math.Remainder(c.Yaw, 2*math.Pi)
	c.Ortho = false
}

// Pan moves the target by dx, dy pixels so that the point under the mouse
// follows it.
func (c *Camera) Pan(dx, dy float64) {
	r, u, _ := c.Basis()
	s := c.PixelSize()
	c.Target = c.Target.Sub(r.Mul(dx * s)).Add(u.Mul(dy * s))
}

// Zoom moves the eye towards the target: steps > 0 zoom in (one mouse wheel
// notch is one step).
func (c *Camera) Zoom(steps float64) {
	c.Distance *= math.Pow(0.85, steps)
	c.Distance = math.Max(1e-4, math.Min(1e6, c.Distance))
}

// Frame points the camera at a sphere (centre, radius) and backs off until
// it fills about 80% of the smaller viewport side.
func (c *Camera) Frame(center geom.Vec3, radius float64) {
	if !(radius > 0) || math.IsInf(radius, 0) {
		radius = 1
	}
	c.Target = center
	half := c.FovY / 2
	if a := c.Aspect(); a < 1 {
		half = math.Atan(math.Tan(half) * a)
	}
	c.Distance = radius / 0.8 / math.Sin(half)
	c.SceneRadius = math.Max(c.SceneRadius, radius)
}

// SetView snaps to a preset: the axis views are orthographic, Persp returns
// to the perspective projection from a three-quarter angle.
func (c *Camera) SetView(v View) {
	c.Ortho = v != Persp
	switch v {
	case Front:
		c.Yaw, c.Pitch = 0, 0
	case Back:
		c.Yaw, c.Pitch = math.Pi, 0
	case Left:
		c.Yaw, c.Pitch = -math.Pi/2, 0
	case Right:
		c.Yaw, c.Pitch = math.Pi/2, 0
	case Top:
		c.Yaw, c.Pitch = 0, math.Pi/2
	case Bottom:
		c.Yaw, c.Pitch = 0, -math.Pi/2
	case Persp:
		c.Yaw, c.Pitch = math.Pi/6, math.Pi/7
	}
}

// CurrentView returns the preset the camera is in, or Persp.
func (c *Camera) CurrentView() View {
	if !c.Ortho {
		return Persp
	}
	for v := Front; v <= Bottom; v++ {
		t := *c
		t.SetView(v)
		if math.Abs(math.Remainder(t.Yaw-c.Yaw, 2*math.Pi)) < 1e-9 && math.Abs(t.Pitch-c.Pitch) < 1e-9 {
			return v
		}
	}
	return Persp
}
