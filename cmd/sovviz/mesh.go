package main

// "sovviz mesh": tessellate one superovoid headless and write OBJ, binary STL
// or PLY (docs/mesh.md).

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
	"github.com/sovviz/sovviz/tessellate"
)

func init() {
	commands["mesh"] = command{"export a tessellated shape (OBJ, STL or PLY by the extension of -o), headless", runMesh}
}

// meshArgs are the parsed flags of "sovviz mesh".
type meshArgs struct {
	shape      geom.Superovoid
	pose       geom.Pose // identity unless the object comes from a scene
	source     string    // "-shape" or "scene FILE object NAME", for messages
	method     scene.MeshMethod
	edge       float64 // 0: not given
	slices     [2]int  // zero: not given
	adaptive   bool
	minEdge    float64
	local      bool
	out        string
	format     tessellate.Format
	sceneMesh  scene.Mesh // the object's mesh settings (defaults without a scene)
	methodFlag bool
}

func parseMeshArgs(args []string, stderr io.Writer) (meshArgs, error) {
	fs := flag.NewFlagSet("mesh", flag.ContinueOnError)
	fs.SetOutput(stderr)
	shape := fs.String("shape", "", `the shape object of "sovviz query": '{"a":[a1,a2,a3],"eps":[e1,e2],"taper":[tx,ty]}'`)
	sceneFile := fs.String("scene", "", "scene file to take the shape from (with -object)")
	object := fs.String("object", "", "name of the object in -scene")
	method := fs.String("method", "", "grid or marching-triangles (default: the object's setting in -scene, else grid)")
	edge := fs.Float64("edge", 0, "target edge length in shape units (both methods; default: the object's setting, else 2% of the largest semi-axis)")
	slices := fs.String("slices", "", "grid cells AZ,ZE (grid only; default 64,32)")
	adaptive := fs.Bool("adaptive", false, "marching triangles: shorter edges where the surface curves tightly")
	minEdge := fs.Float64("min-edge", 0, "marching triangles with -adaptive: shortest edge (default edge/8)")
	local := fs.Bool("local", false, "with -scene: write the object's own frame instead of the scene's world frame")
	out := fs.String("o", "", "output file: .obj, .stl or .ply (required)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sovviz mesh (-shape JSON | -scene FILE -object NAME) [-method grid|marching-triangles] [-edge L | -slices AZ,ZE] [-adaptive [-min-edge L]] [-local] -o FILE.{obj,stl,ply}")
		fs.PrintDefaults()
	}
	var ma meshArgs
	if err := parseFlags(fs, args); err != nil {
		return ma, err
	}
	if fs.NArg() > 0 {
		return ma, fmt.Errorf("mesh: unexpected argument %q (every input is a flag)", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	if *out == "" {
		return ma, errors.New("mesh: -o FILE is required (.obj, .stl or .ply)")
	}
	f, err := tessellate.FormatOf(*out)
	if err != nil {
		return ma, fmt.Errorf("mesh: -o %w", err)
	}
	ma.out, ma.format = *out, f

	ma.pose = geom.Identity()
	switch {
	case set["shape"] && (set["scene"] || set["object"]):
		return ma, errors.New("mesh: give either -shape or -scene with -object, not both")
	case set["shape"]:
		s, err := parseShapeFlag(*shape)
		if err != nil {
			return ma, fmt.Errorf("mesh: -shape: %w", err)
		}
		ma.shape, ma.source = s, "-shape"
	case set["scene"] != set["object"]:
		return ma, errors.New("mesh: -scene and -object go together")
	case set["scene"]:
		sc, err := scene.Load(*sceneFile)
		if err != nil {
			return ma, fmt.Errorf("mesh: -scene: %w", err)
		}
		var names []string
		found := false
		for _, o := range sc.Objects {
			names = append(names, o.Name)
			if o.Name == *object {
				ma.shape, ma.pose, ma.sceneMesh, found = o.Shape, o.Pose, o.Mesh, true
			}
		}
		if !found {
			return ma, fmt.Errorf("mesh: -object %q: no such object in %s (objects: %s)", *object, *sceneFile, strings.Join(names, ", "))
		}
		ma.source = fmt.Sprintf("object %q of %s", *object, *sceneFile)
	default:
		return ma, errors.New("mesh: no shape: give -shape JSON or -scene FILE -object NAME")
	}
	ma.local = *local
	if ma.local && !set["scene"] {
		return ma, errors.New("mesh: -local applies to -scene objects only (a -shape is always in its own frame)")
	}

	ma.method = ma.sceneMesh.Method
	if set["method"] {
		switch *method {
		case "grid":
			ma.method = scene.Grid
		case "marching-triangles":
			ma.method = scene.MarchingTriangles
		default:
			return ma, fmt.Errorf("mesh: -method %q: want grid or marching-triangles", *method)
		}
		ma.methodFlag = true
	}
	amax := math.Max(ma.shape.A[0], math.Max(ma.shape.A[1], ma.shape.A[2]))
	if set["edge"] {
		lo, hi := scene.MinEdgeFraction*amax, amax
		if !(*edge >= lo && *edge <= hi) {
			return ma, fmt.Errorf("mesh: -edge %g: must be in [%.3g, %.3g] (%g to 1 times the largest semi-axis)", *edge, lo, hi, scene.MinEdgeFraction)
		}
		ma.edge = *edge
	}
	if set["slices"] {
		if set["edge"] {
			return ma, errors.New("mesh: give -edge or -slices, not both")
		}
		if ma.method != scene.Grid {
			return ma, errors.New("mesh: -slices applies to -method grid only (use -edge for marching triangles)")
		}
		az, ze, err := parseSlices(*slices)
		if err != nil {
			return ma, err
		}
		ma.slices = [2]int{az, ze}
	}
	if set["adaptive"] || set["min-edge"] {
		if ma.method != scene.MarchingTriangles {
			return ma, errors.New("mesh: -adaptive and -min-edge apply to -method marching-triangles only")
		}
		if set["min-edge"] && !*adaptive {
			return ma, errors.New("mesh: -min-edge needs -adaptive")
		}
		ma.adaptive = *adaptive
		if set["min-edge"] {
			if !(*minEdge > 0) || math.IsInf(*minEdge, 0) {
				return ma, fmt.Errorf("mesh: -min-edge %g: must be a positive length", *minEdge)
			}
			ma.minEdge = *minEdge
		}
	}
	return ma, nil
}

// parseShapeFlag reads the shape object of "sovviz query" with the same
// strict parser, so that errors name the field ("shape.eps[1] = 3: ...").
func parseShapeFlag(s string) (geom.Superovoid, error) {
	var sh geom.Superovoid
	raw := []byte(s)
	if !json.Valid(raw) {
		return sh, syntaxError(raw)
	}
	const path = "shape"
	fields, err := objectFields(raw, path, []string{"a", "eps", "taper"})
	if err != nil {
		return sh, err
	}
	if err := numbers(fields, "a", path, sh.A[:], true); err != nil {
		return sh, err
	}
	if err := numbers(fields, "eps", path, sh.Eps[:], true); err != nil {
		return sh, err
	}
	if err := numbers(fields, "taper", path, sh.Taper[:], false); err != nil {
		return sh, err
	}
	if err := sh.Validate(); err != nil {
		return sh, prefixParamError(path, err)
	}
	return sh, nil
}

// parseSlices reads "AZ,ZE" within the grid limits.
func parseSlices(s string) (az, ze int, err error) {
	a, b, ok := strings.Cut(s, ",")
	x, err1 := strconv.Atoi(strings.TrimSpace(a))
	y, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("mesh: -slices %q: want AZ,ZE, two integers such as 64,32", s)
	}
	if x < tessellate.MinSlicesAz || x > tessellate.MaxSlicesAz || y < tessellate.MinSlicesZe || y > tessellate.MaxSlicesZe {
		return 0, 0, fmt.Errorf("mesh: -slices %q: azimuth must be in [%d, %d] and zenith in [%d, %d]", s,
			tessellate.MinSlicesAz, tessellate.MaxSlicesAz, tessellate.MinSlicesZe, tessellate.MaxSlicesZe)
	}
	return x, y, nil
}

// usageError marks a setting that cannot be meshed as given, found only
// once the shape is known (a scene object's edge): exit status 2.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// meshResult is what runMesh reports.
type meshResult struct {
	mesh             *tessellate.Mesh
	angles           tessellate.AngleStats
	dev              tessellate.Deviation
	build, check, wr time.Duration
	desc             string // method and resolution
}

// buildMesh tessellates ma.shape in its own frame.
func buildMesh(ma *meshArgs) (*tessellate.Mesh, string, error) {
	s := ma.shape
	amax := math.Max(s.A[0], math.Max(s.A[1], s.A[2]))
	switch ma.method {
	case scene.MarchingTriangles:
		edge := ma.edge
		if edge == 0 {
			edge = ma.sceneMesh.EffectiveEdge(s)
		}
		// Settings the marcher refuses are usage errors (exit 2), like
		// the other bad flags, not failures to mesh.
		if amin := math.Min(s.A[0], math.Min(s.A[1], s.A[2])); edge > amin {
			if lo := scene.MinEdgeFraction * amax; amin < lo {
				// No edge both fits the thinnest semi-axis and is one the
				// flags accept (about amax²/lo² triangles at the
				// shortest): say so instead of advising one.
				return nil, "", usageError{fmt.Errorf("marching triangles need an edge of at most the smallest semi-axis %g, below the shortest edge allowed (%g of the largest semi-axis, %g): this shape is too thin for them; use -method grid", amin, scene.MinEdgeFraction, lo)}
			}
			if ma.edge == 0 {
				return nil, "", usageError{fmt.Errorf("the default edge %g (the object's mesh.edge, else 2%% of the largest semi-axis) exceeds the smallest semi-axis %g: give -edge at most %g, or use -method grid", edge, amin, amin)}
			}
			return nil, "", usageError{fmt.Errorf("-edge %g: marching triangles need an edge of at most the smallest semi-axis %g", edge, amin)}
		}
		if ma.adaptive && ma.minEdge > edge {
			return nil, "", usageError{fmt.Errorf("-min-edge %g: must not exceed the edge %g", ma.minEdge, edge)}
		}
		opt := tessellate.MarchOptions{Edge: edge, Adaptive: ma.adaptive, MinEdge: ma.minEdge}
		var mt tessellate.Marcher
		m, err := mt.Build(s, opt)
		if errors.Is(err, tessellate.ErrNoClose) {
			// Creases no longer stop the front (they are patch
			// boundaries); a runaway front is a bug to report.
			return nil, "", fmt.Errorf("%w at edge %.4g (no shape of the tested parameter range does this; please report the shape; -method grid meshes every shape)", err, edge)
		}
		if err != nil {
			return nil, "", err
		}
		desc := fmt.Sprintf("marching triangles, edge %.4g (%.2g%% of the largest semi-axis)", edge, 100*edge/amax)
		if ma.adaptive {
			desc += ", curvature-adaptive"
		}
		return m, desc, nil
	default:
		var g tessellate.Grid
		n := ma.slices
		if n == [2]int{} && ma.edge > 0 {
			var err error
			if n[0], n[1], err = g.SlicesForEdge(s, ma.edge); err != nil {
				return nil, "", err
			}
		} else if n == [2]int{} {
			n = ma.sceneMesh.EffectiveSlices()
		}
		m, err := g.Build(s, n[0], n[1])
		if err != nil {
			return nil, "", err
		}
		return m, fmt.Sprintf("grid %dx%d", n[0], n[1]), nil
	}
}

func runMesh(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ma, err := parseMeshArgs(args, stderr)
	if code := argsExit(err, stderr); code >= 0 {
		return code
	}
	var r meshResult
	t0 := time.Now()
	m, desc, err := buildMesh(&ma)
	r.build = time.Since(t0)
	if err != nil {
		fmt.Fprintf(stderr, "sovviz mesh: %s: %v\n", ma.source, err)
		if errors.As(err, new(usageError)) {
			return 2
		}
		return 1
	}
	r.mesh, r.desc = m, desc
	t1 := time.Now()
	r.angles = m.Angles()
	r.dev = m.Deviation(&ma.shape)
	r.check = time.Since(t1)
	world := !ma.local && ma.pose != geom.Identity()
	if world {
		tr := ma.pose.Transform()
		m.Transform(&tr)
	}
	t2 := time.Now()
	var buf bytes.Buffer
	if err := m.Write(&buf, ma.format); err != nil {
		fmt.Fprintf(stderr, "sovviz mesh: %s: %v\n", ma.out, err)
		return 1
	}
	if err := writeFileAtomic(ma.out, buf.Bytes()); err != nil {
		fmt.Fprintf(stderr, "sovviz mesh: %v\n", err)
		return 1
	}
	r.wr = time.Since(t2)
	frame := "object frame"
	if world {
		frame = "world frame of the scene"
	}
	a := r.angles
	fmt.Fprintf(stdout, "wrote %s (%s, %d bytes, %s)\n", ma.out, strings.ToUpper(ma.format.String()), buf.Len(), frame)
	fmt.Fprintf(stdout, "mesh:      %s\n", r.desc)
	fmt.Fprintf(stdout, "vertices:  %d\n", m.NumVertices())
	fmt.Fprintf(stdout, "triangles: %d\n", m.NumTriangles())
	fmt.Fprintf(stdout, "min angle: min %.2f°, median %.2f°, mean %.2f°, %s of triangles ≥ 30°\n", a.Min, a.Median, a.Mean, percentDown(a.Above30))
	fmt.Fprintf(stdout, "deviation: max %.3g from the surface (centroids and edge midpoints), vertex residual %.2g, normals %.2g rad off the gradient\n",
		r.dev.Distance, r.dev.VertexResidual, r.dev.NormalAngle)
	fmt.Fprintf(stdout, "time:      mesh %.3f ms, checks %.3f ms, write %.3f ms\n", ms(r.build), ms(r.check), ms(r.wr))
	return 0
}

func ms(d time.Duration) float64 { return d.Seconds() * 1e3 }

// percentDown formats a fraction as a percentage with one decimal, rounded
// down, so that a mesh with any triangle below the mark never reads 100.0%.
func percentDown(f float64) string {
	return fmt.Sprintf("%.1f%%", math.Floor(1000*f)/10)
}
