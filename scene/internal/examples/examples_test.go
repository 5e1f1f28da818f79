package examples

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
)

// TestCommittedFilesAreGenerated: scenes/*.json are exactly what
// "go run ./scene/internal/gen" writes, so the documented recipe is the
// real one.
func TestCommittedFilesAreGenerated(t *testing.T) {
	for _, e := range All() {
		want, err := scene.Marshal(e.Scene)
		if err != nil {
			t.Fatalf("%s: %v", e.File, err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", "..", "scenes", e.File))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("scenes/%s differs from the generator's output; run go run ./scene/internal/gen", e.File)
		}
	}
}

func load(t *testing.T, file string) *scene.Scene {
	t.Helper()
	s, err := scene.Load(filepath.Join("..", "..", "..", "scenes", file))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// surfaceSamples returns n x n/2 points of the surface in world
// coordinates with their parameters.
func surfaceSamples(b geom.Body, n int) (pts []geom.Vec3, prm [][2]float64) {
	for i := 0; i < n; i++ {
		p1 := -math.Pi + 2*math.Pi*(float64(i)+0.5)/float64(n)
		for j := 0; j <= n/2; j++ {
			p2 := -math.Pi/2 + math.Pi*float64(j)/float64(n/2)
			pts = append(pts, b.Pose.ToWorld(b.Shape.Point(p1, p2)))
			prm = append(prm, [2]float64{p1, p2})
		}
	}
	return pts, prm
}

// insideCount counts the samples of b strictly inside a (G < 1).
func insideCount(a, b geom.Body, n int) int {
	pts, _ := surfaceSamples(b, n)
	c := 0
	for _, p := range pts {
		if g, ok := a.Shape.G(a.Pose.ToLocal(p)); ok && g < 1-1e-9 {
			c++
		}
	}
	return c
}

// sampledDistance is an independent estimate of the distance between two
// separated surfaces: the closest pair of a dense parametric sampling,
// then refined by pattern search over the four parameters. Every value it
// sees is the distance of two true surface points, so it is an upper bound
// of the true distance and, refined, meets it at a local minimum.
func sampledDistance(a, b geom.Body) float64 {
	pa, ra := surfaceSamples(a, 64)
	pb, rb := surfaceSamples(b, 64)
	best, bi, bj := math.Inf(1), 0, 0
	for i, p := range pa {
		for j, q := range pb {
			if d := p.Sub(q).Len(); d < best {
				best, bi, bj = d, i, j
			}
		}
	}
	x := [4]float64{ra[bi][0], ra[bi][1], rb[bj][0], rb[bj][1]}
	dist := func(x [4]float64) float64 {
		x[1] = math.Max(-math.Pi/2, math.Min(math.Pi/2, x[1]))
		x[3] = math.Max(-math.Pi/2, math.Min(math.Pi/2, x[3]))
		p := a.Pose.ToWorld(a.Shape.Point(x[0], x[1]))
		q := b.Pose.ToWorld(b.Shape.Point(x[2], x[3]))
		return p.Sub(q).Len()
	}
	// Simultaneous search on a 5^4 grid of offsets around the current
	// point; the grid shrinks when the centre is best. It converges on
	// smooth valleys where one-coordinate-at-a-time search zig-zags.
	best = dist(x)
	steps := [5]float64{-1, -0.5, 0, 0.5, 1}
	for h, it := 0.05, 0; h > 1e-10 && it < 100; it++ {
		bx := x
		for _, s0 := range steps {
			for _, s1 := range steps {
				for _, s2 := range steps {
					for _, s3 := range steps {
						y := [4]float64{x[0] + s0*h, x[1] + s1*h, x[2] + s2*h, x[3] + s3*h}
						if d := dist(y); d < best {
							best, bx = d, y
						}
					}
				}
			}
		}
		if bx == x {
			h *= 0.5
		}
		x = bx
	}
	return best
}

type pairInfo struct {
	i, j int
	r    contact.Result
}

func allPairs(s *scene.Scene) []pairInfo {
	o := s.Solver.Options()
	var out []pairInfo
	for i := range s.Objects {
		for j := i + 1; j < len(s.Objects); j++ {
			a, b := s.Objects[i].Body(), s.Objects[j].Body()
			out = append(out, pairInfo{i, j, contact.Query(&a, &b, &o)})
		}
	}
	return out
}

// checkSeparated verifies a separated pair independently: no sample of
// either surface inside the other, and the sampled distance agrees with
// the solver's.
func checkSeparated(t *testing.T, s *scene.Scene, p pairInfo, scale float64) float64 {
	t.Helper()
	a, b := s.Objects[p.i].Body(), s.Objects[p.j].Body()
	na, nb := s.Objects[p.i].Name, s.Objects[p.j].Name
	if c := insideCount(a, b, 64) + insideCount(b, a, 64); c > 0 {
		t.Errorf("%s/%s: %d samples inside the other, but the pair should be separated", na, nb, c)
	}
	// The witness points lie on the surfaces and are the distance apart,
	// so the distance is attained by real surface points (an upper bound
	// of the true distance).
	for k, w := range []struct {
		body geom.Body
		p    geom.Vec3
	}{{a, p.r.P}, {b, p.r.Q}} {
		if g, ok := w.body.Shape.G(w.body.Pose.ToLocal(w.p)); !ok || math.Abs(g-1) > 1e-6 {
			t.Errorf("%s/%s: witness point %d not on its surface (G = %g)", na, nb, k, g)
		}
	}
	if math.Abs(p.r.P.Sub(p.r.Q).Len()-p.r.Distance) > 1e-9*scale {
		t.Errorf("%s/%s: |P-Q| = %g, distance %g", na, nb, p.r.P.Sub(p.r.Q).Len(), p.r.Distance)
	}
	// No pair of sampled surface points is closer than the solver's
	// distance: it is the global minimum as far as dense sampling can tell.
	d := sampledDistance(a, b)
	if p.r.Distance > d+1e-9*scale {
		t.Errorf("%s/%s: sampled points %.9g apart, solver %.9g (%v)", na, nb, d, p.r.Distance, p.r.Status)
	}
	return d
}

func TestTwoSuperovoids(t *testing.T) {
	s := load(t, "two-superovoids.json")
	if len(s.Objects) != 2 || s.Camera == nil {
		t.Fatalf("%d objects, camera %v", len(s.Objects), s.Camera)
	}
	p := allPairs(s)[0]
	t.Logf("egg/box distance %.4g", p.r.Distance)
	checkSeparated(t, s, p, 1)
	if p.r.Distance < 0.1 || p.r.Distance > 0.6 {
		t.Errorf("distance %g, want a clearly visible gap", p.r.Distance)
	}
}

// TestDefaultScene: the built-in scene has one separated pair within view
// of each other and one slightly overlapping pair, confirmed by sampling.
func TestDefaultScene(t *testing.T) {
	s := scene.Default()
	if len(s.Objects) != 3 {
		t.Fatalf("%d objects", len(s.Objects))
	}
	var sep, over int
	for _, p := range allPairs(s) {
		a, b := s.Objects[p.i].Body(), s.Objects[p.j].Body()
		t.Logf("%s/%s distance %.4g", s.Objects[p.i].Name, s.Objects[p.j].Name, p.r.Distance)
		switch {
		case p.r.Distance > 0:
			checkSeparated(t, s, p, 1)
			if p.r.Distance < 1 {
				sep++
			}
		default:
			if insideCount(a, b, 96)+insideCount(b, a, 96) == 0 {
				t.Errorf("%s/%s: solver says overlapping (%g), no sample is inside", s.Objects[p.i].Name, s.Objects[p.j].Name, p.r.Distance)
			}
			if p.r.Distance > -0.01 || p.r.Distance < -0.2 {
				t.Errorf("overlap %g, want slight (0.01 to 0.2)", p.r.Distance)
			}
			over++
		}
	}
	if sep < 1 || over != 1 {
		t.Errorf("%d close separated pairs and %d overlapping, want >= 1 and 1", sep, over)
	}
}

func TestBatterySample(t *testing.T) {
	s := load(t, "battery-sample.json")
	if len(s.Objects) != 2*BatteryPairs || len(s.Bodies) != BatteryPairs {
		t.Fatalf("%d objects, %d bodies", len(s.Objects), len(s.Bodies))
	}
	ref := contact.PaperBattery(BatteryPairs, BatterySeed)
	for k := 0; k < BatteryPairs; k++ {
		a, b := s.Objects[2*k], s.Objects[2*k+1]
		if d := b.Pose.Position.Sub(a.Pose.Position).Len(); math.Abs(d-2.21) > 1e-5 {
			t.Errorf("pair %d: centres %g apart, want 2.21", k, d)
		}
		for m, o := range []scene.Object{a, b} {
			sh := o.Shape
			if sh.A != [3]float64{1, 1, 1} {
				t.Errorf("%s: a = %v", o.Name, sh.A)
			}
			for i := 0; i < 2; i++ {
				if sh.Eps[i] < 0.3 || sh.Eps[i] > 1.1 || math.Abs(sh.Taper[i]) > 0.4 {
					t.Errorf("%s: eps %v taper %v outside the battery's ranges", o.Name, sh.Eps, sh.Taper)
				}
				// The file holds contact.PaperBattery's pairs, rounded.
				if math.Abs(sh.Eps[i]-ref[k][m].Shape.Eps[i]) > 5e-5 || math.Abs(sh.Taper[i]-ref[k][m].Shape.Taper[i]) > 5e-5 {
					t.Errorf("%s: not contact.PaperBattery(%d, %d)'s pair", o.Name, BatteryPairs, BatterySeed)
				}
			}
			q, rq := o.Pose.Orientation, ref[k][m].Pose.Orientation
			if dot := math.Abs(q.W*rq.W + q.V.Dot(rq.V)); dot < 1-1e-9 {
				t.Errorf("%s: orientation differs from the battery's", o.Name)
			}
		}
	}
	// Different pairs never come near each other: bounding spheres apart.
	for i := range s.Objects {
		for j := i + 1; j < len(s.Objects); j++ {
			if i/2 == j/2 {
				continue
			}
			bi, bj := s.Objects[i].Body(), s.Objects[j].Body()
			ci, ri := bi.BoundingSphere()
			cj, rj := bj.BoundingSphere()
			if ci.Sub(cj).Len() <= ri+rj {
				t.Errorf("%s and %s (different pairs) may touch", s.Objects[i].Name, s.Objects[j].Name)
			}
		}
	}
}

// TestHand: 21 superovoids, a palm and five fingers of four links, links
// about 16 mm, links aligned with their chain, nothing overlapping and
// several links nearly touching — each separated pair within 3 mm checked
// against dense sampling.
func TestHand(t *testing.T) {
	s := load(t, "icub-hand.json")
	if len(s.Objects) != 21 || len(s.Bodies) != 6 {
		t.Fatalf("%d objects, %d bodies; want 21 and 6", len(s.Objects), len(s.Bodies))
	}
	for _, b := range s.Bodies {
		if b.Name == "palm" {
			continue
		}
		if len(b.Objects) != 4 {
			t.Errorf("finger %s has %d links", b.Name, len(b.Objects))
		}
		for k, name := range b.Objects {
			o := s.Object(name)
			length := 2 * o.Shape.A[2]
			if length < 0.009 || length > 0.019 {
				t.Errorf("%s: length %.1f mm", name, 1000*length)
			}
			if k == 0 && (length < 0.014 || length > 0.019) {
				t.Errorf("%s: first link %.1f mm, want ~16", name, 1000*length)
			}
			if strings.HasSuffix(name, ".tip") != (o.Shape.Taper != [2]float64{}) {
				t.Errorf("%s: taper %v: only fingertips are tapered", name, o.Shape.Taper)
			}
			if k+1 < len(b.Objects) {
				// The link's local z points to the next link's centre
				// within the flexion of one joint (< 25°).
				next := s.Object(b.Objects[k+1])
				dir := next.Pose.Position.Sub(o.Pose.Position).Normalize()
				z := o.Pose.Orientation.Rotate(geom.Vec3{0, 0, 1})
				if z.Dot(dir) < math.Cos(25*math.Pi/180) {
					t.Errorf("%s: axis %v, next link towards %v", name, z, dir)
				}
			}
		}
	}
	near := 0
	for _, p := range allPairs(s) {
		if p.r.Distance <= 0 {
			t.Errorf("%s/%s overlap: %g", s.Objects[p.i].Name, s.Objects[p.j].Name, p.r.Distance)
			continue
		}
		// Nearly touching, judged by the sampled distance (an upper bound).
		if p.r.Distance < 0.003 && checkSeparated(t, s, p, 0.01) < 0.0015 {
			near++
		}
	}
	t.Logf("%d pairs nearer than 1.5 mm", near)
	if near < 10 {
		t.Errorf("only %d pairs within 1.5 mm; the links should nearly touch", near)
	}
}

// TestMolars: two teeth of six superovoids; the upper cusps overlap the
// lower ones by about MolarBite at several places (confirmed by samples of
// one surface inside the other); crowns do not overlap.
func TestMolars(t *testing.T) {
	s := load(t, "molars.json")
	if len(s.Objects) != 12 || len(s.Bodies) != 2 || len(s.Bodies[0].Objects) != 6 || len(s.Bodies[1].Objects) != 6 {
		t.Fatalf("%d objects, bodies %v", len(s.Objects), s.Bodies)
	}
	deepest, overlapping := 0.0, 0
	for _, p := range allPairs(s) {
		ni, nj := s.Objects[p.i].Name, s.Objects[p.j].Name
		if strings.HasPrefix(ni, "lower") == strings.HasPrefix(nj, "lower") {
			continue // same tooth
		}
		deepest = math.Min(deepest, p.r.Distance)
		if p.r.Distance < 0 {
			overlapping++
			if !strings.Contains(ni, "cusp") || !strings.Contains(nj, "cusp") {
				t.Errorf("%s/%s overlap; only cusps should", ni, nj)
			}
			a, b := s.Objects[p.i].Body(), s.Objects[p.j].Body()
			if insideCount(a, b, 128)+insideCount(b, a, 128) == 0 {
				t.Errorf("%s/%s: solver says %g, no sample inside", ni, nj, p.r.Distance)
			}
		} else if p.r.Distance < 0.001 {
			checkSeparated(t, s, p, 0.01)
		}
	}
	t.Logf("deepest cusp overlap %.4g m, %d overlapping pairs", deepest, overlapping)
	if deepest > -0.5*MolarBite || deepest < -1.5*MolarBite {
		t.Errorf("deepest overlap %g, want about %g", deepest, -MolarBite)
	}
	if overlapping < 3 {
		t.Errorf("%d overlapping cusp pairs, want several contacts", overlapping)
	}
}
