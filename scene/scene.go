// Package scene reads and writes sovviz scene files: versioned JSON holding
// the superovoids of a scene (in exactly the object format of
// "sovviz query", plus name, colour, visibility and mesh settings), the
// camera, the overlay switches and the solver settings, with room for
// bodies (groups of objects) and joints.
//
// Load and Parse validate everything and report the first problem as an
// *Error naming the file, the JSON path of the field and the reason;
// missing optional fields get their defaults, so a loaded Scene is always
// complete and valid. Save writes atomically. The format is documented in
// docs/scene-format.md and described by docs/scene.schema.json.
//
// The package is pure Go with no global mutable state.
package scene

import (
	"math"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

// Format is the value of the "format" member of every scene file.
const Format = "sovviz-scene"

// Version is the version of the format this package reads and writes.
const Version = 1

// Scene is a whole scene file, with every default filled in.
type Scene struct {
	// Description is free text shown nowhere but kept on save ("" omits it).
	Description string
	// Objects are the superovoids, in file order; names are unique.
	Objects []Object
	// Camera is the saved view; nil means "frame the whole scene".
	Camera *Camera
	// Overlays are the switches of the contact decorations.
	Overlays Overlays
	// Solver is the contact solver configuration.
	Solver Solver
	// Bodies group objects (a finger link made of several superovoids, a
	// tooth). Reserved: loaded, checked and saved, not yet used for motion.
	Bodies []Body
	// Joints connect bodies. Reserved like Bodies.
	Joints []Joint
}

// Object is one superovoid of the scene. Shape and Pose are exactly the
// "shape" and "pose" objects of "sovviz query".
type Object struct {
	Name    string
	Shape   geom.Superovoid
	Pose    geom.Pose
	Color   Color
	Visible bool
	Mesh    Mesh
}

// Body returns the object's shape placed at its pose, ready for package
// contact.
func (o *Object) Body() geom.Body { return geom.Body{Shape: o.Shape, Pose: o.Pose} }

// SetBody sets the shape and pose from b.
func (o *Object) SetBody(b geom.Body) { o.Shape, o.Pose = b.Shape, b.Pose }

// Color is linear RGBA, each channel in [0, 1].
type Color [4]float64

// MeshMethod selects how an object is tessellated for drawing.
type MeshMethod int

const (
	// Grid samples the angle-centre parametrisation on a regular grid of
	// Slices[0] azimuth by Slices[1] zenith cells ("grid").
	Grid MeshMethod = iota
	// MarchingTriangles polygonises the implicit surface with triangles of
	// about Edge length ("marching-triangles").
	MarchingTriangles
)

func (m MeshMethod) String() string {
	switch m {
	case Grid:
		return "grid"
	case MarchingTriangles:
		return "marching-triangles"
	}
	return "unknown"
}

// Mesh holds the drawing settings of an object.
type Mesh struct {
	Method MeshMethod
	// Edge is the target edge length of marching triangles in scene units;
	// 0 means automatic (DefaultEdgeFraction of the largest semi-axis).
	// Only used with MarchingTriangles.
	Edge float64
	// Slices are the grid cells along azimuth and zenith; zero means
	// automatic (DefaultSlices). Only used with Grid.
	Slices [2]int
	// Wireframe draws the triangle edges on top of the shaded surface.
	Wireframe bool
}

// Mesh limits and automatic values.
const (
	// DefaultEdgeFraction of the largest semi-axis is the automatic edge
	// length of marching triangles.
	DefaultEdgeFraction = 0.02
	// MinEdgeFraction of the largest semi-axis is the shortest edge
	// accepted: shorter ones make millions of triangles per object.
	MinEdgeFraction = 0.002
	MinSlicesAz     = 3
	MaxSlicesAz     = 1024
	MinSlicesZe     = 2
	MaxSlicesZe     = 512
)

// DefaultSlices is the automatic grid resolution (azimuth, zenith).
var defaultSlices = [2]int{64, 32}

// DefaultSlices returns the automatic grid resolution (azimuth, zenith).
func DefaultSlices() [2]int { return defaultSlices }

// EffectiveEdge returns the edge length to use for shape s: Edge, or the
// automatic one when Edge is 0.
func (m Mesh) EffectiveEdge(s geom.Superovoid) float64 {
	if m.Edge > 0 {
		return m.Edge
	}
	return DefaultEdgeFraction * maxAxis(s)
}

// EffectiveSlices returns the grid resolution to use: Slices, or the
// automatic one when Slices is zero.
func (m Mesh) EffectiveSlices() [2]int {
	if m.Slices == [2]int{} {
		return defaultSlices
	}
	return m.Slices
}

func maxAxis(s geom.Superovoid) float64 {
	return math.Max(s.A[0], math.Max(s.A[1], s.A[2]))
}

// Camera is a saved orbit view. Angles are in degrees in the file and here.
type Camera struct {
	Target   geom.Vec3 // orbit centre
	Distance float64   // from the target to the eye, > 0
	Yaw      float64   // degrees about world z, 0 looks along +y
	Pitch    float64   // degrees above the horizon, in [-90, 90]
	Ortho    bool      // orthographic instead of perspective projection
	Fov      float64   // vertical field of view of the perspective projection, degrees in [5, 150]
}

// Camera defaults for fields missing from a file's camera.
const (
	DefaultYaw   = 30.0
	DefaultPitch = 180.0 / 7 // π/7, the GUI's default
	DefaultFov   = 45.0
)

// Overlays are the switches of the contact decorations and helpers.
type Overlays struct {
	Witness    bool // witness points on both objects
	Segment    bool // distance segment between the witness points
	Labels     bool // distance value at the segment
	Normals    bool // outward normals at the witness points
	Tangents   bool // tangents and binormals at the witness points
	Seeds      bool // quadtree seeds (chosen cells per level)
	Octree     bool // octree leaf boxes when the octree guess is used
	ParamPanel bool // the 2D parameter-space panel
	Grid       bool // ground grid
	Axes       bool // world axis triad
	XRay       bool // draw every object transparent
}

// DefaultOverlays returns the switches used for missing fields.
func DefaultOverlays() Overlays {
	return Overlays{Witness: true, Segment: true, Labels: true, Normals: true, Seeds: true, Octree: true, Grid: true, Axes: true}
}

// Solver is the contact solver configuration of a scene.
type Solver struct {
	Method      contact.Method
	Guess       contact.Guess
	Tol         float64 // Newton tolerance, relative to the pair's size (contact.Options.Tol), in [1e-15, 1e-2]
	MaxIter     int     // Newton iterations per start, 1..1000
	QuadLevels  int     // quadtree depth, 1..contact.MaxQuadLevels
	OctreeDepth int     // octree depth, 1..MaxOctreeDepth
	WarmStart   bool    // reuse each pair's previous result between frames
	// CertifyOverlap proves each overlapping answer of a convex pair
	// minimal (contact.Options.CertifyOverlap): tens to hundreds of
	// microseconds a pair, so that the view can mark it certified.
	CertifyOverlap bool
	// Margin of the broad phase in scene units; 0 means automatic (the GUI
	// derives it from the objects' sizes).
	Margin float64
}

// MaxOctreeDepth bounds Solver.OctreeDepth (8^depth cells at worst).
const MaxOctreeDepth = 8

// DefaultSolver returns contact.DefaultOptions with warm starts, certified
// overlaps and an automatic margin.
func DefaultSolver() Solver {
	o := contact.DefaultOptions()
	return Solver{Method: o.Method, Guess: o.Guess, Tol: o.Tol, MaxIter: o.MaxIter,
		QuadLevels: o.QuadLevels, OctreeDepth: o.OctreeDepth, WarmStart: true, CertifyOverlap: true}
}

// Options returns the contact options of the solver settings.
func (s Solver) Options() contact.Options {
	o := contact.DefaultOptions()
	o.Method, o.Guess, o.Tol, o.MaxIter = s.Method, s.Guess, s.Tol, s.MaxIter
	o.QuadLevels, o.OctreeDepth = s.QuadLevels, s.OctreeDepth
	o.CertifyOverlap = s.CertifyOverlap
	return o
}

// SetOptions copies the contact options into the solver settings (the
// scene does not keep FiniteDiff, TimeGuess or Trace).
func (s *Solver) SetOptions(o contact.Options) {
	s.Method, s.Guess, s.Tol, s.MaxIter = o.Method, o.Guess, o.Tol, o.MaxIter
	s.QuadLevels, s.OctreeDepth = o.QuadLevels, o.OctreeDepth
	s.CertifyOverlap = o.CertifyOverlap
}

// Body groups objects that move together (reserved for articulated
// scenes: a finger link, a tooth). It is a different thing from geom.Body,
// which is one shape with its pose.
type Body struct {
	Name    string
	Objects []string // names of member objects; an object is in at most one body
}

// JointType is the kind of a joint.
type JointType int

const (
	// Fixed joints keep the child body rigidly attached to the parent.
	Fixed JointType = iota
	// Revolute joints rotate the child about Axis through Position.
	Revolute
	// Prismatic joints slide the child along Axis.
	Prismatic
)

func (t JointType) String() string {
	switch t {
	case Fixed:
		return "fixed"
	case Revolute:
		return "revolute"
	case Prismatic:
		return "prismatic"
	}
	return "unknown"
}

// Joint connects two bodies (reserved: loaded, checked and saved only).
type Joint struct {
	Name     string
	Type     JointType
	Parent   string    // body name
	Child    string    // body name
	Position geom.Vec3 // a point on the axis, world frame
	Axis     geom.Vec3 // unit axis, world frame (normalised on load)
	// Range of the joint variable (radians or scene units); Min = Max = 0
	// means unlimited.
	Min, Max float64
}

// Palette is the colour cycle given to objects without a colour.
var palette = [...]Color{
	{0.62, 0.64, 0.82, 1}, {0.82, 0.62, 0.56, 1}, {0.6, 0.78, 0.62, 1},
	{0.8, 0.78, 0.62, 1}, {0.74, 0.6, 0.78, 1}, {0.58, 0.76, 0.8, 1},
}

// PaletteColor returns the default colour of the i-th object.
func PaletteColor(i int) Color {
	if i < 0 {
		i = -i
	}
	return palette[i%len(palette)]
}

// NewObject returns an object with the given name, shape and pose and the
// default colour, visibility and mesh of the i-th object.
func NewObject(name string, shape geom.Superovoid, pose geom.Pose, i int) Object {
	return Object{Name: name, Shape: shape, Pose: pose, Color: PaletteColor(i), Visible: true}
}

// New returns an empty scene with the default overlays and solver.
func New() *Scene {
	return &Scene{Overlays: DefaultOverlays(), Solver: DefaultSolver()}
}

// Object returns the object with the given name, or nil.
func (s *Scene) Object(name string) *Object {
	for i := range s.Objects {
		if s.Objects[i].Name == name {
			return &s.Objects[i]
		}
	}
	return nil
}

// Clone returns a deep copy of s.
func (s *Scene) Clone() *Scene {
	c := *s
	c.Objects = append([]Object(nil), s.Objects...)
	if s.Camera != nil {
		cam := *s.Camera
		c.Camera = &cam
	}
	if s.Bodies != nil {
		c.Bodies = make([]Body, len(s.Bodies))
		for i, b := range s.Bodies {
			c.Bodies[i] = Body{Name: b.Name, Objects: append([]string(nil), b.Objects...)}
		}
	}
	c.Joints = append([]Joint(nil), s.Joints...)
	if s.Joints == nil {
		c.Joints = nil
	}
	return &c
}
