package ui

import (
	"errors"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
)

// handObjects builds an iCub-like hand (paper 000 §5.2): a palm and five
// fingers of four phalanges each, 21 superovoids with links about 16 mm
// long, curled so that neighbouring phalanges nearly touch. Units are mm.
func handScene() *scene.Scene {
	sc := scene.New()
	add := func(name string, s geom.Superovoid, p geom.Vec3, q geom.Quat) {
		o := scene.NewObject(fmt.Sprintf("%s%d", name, len(sc.Objects)), s, geom.Pose{Position: p, Orientation: q}, len(sc.Objects))
		o.Mesh.Slices = [2]int{48, 24}
		sc.Objects = append(sc.Objects, o)
	}
	add("palm", geom.Superovoid{A: [3]float64{30, 9, 36}, Eps: [2]float64{0.3, 0.3}, Taper: [2]float64{0.1, 0}}, geom.Vec3{}, geom.Quat{W: 1})
	for f := 0; f < 5; f++ {
		// Four fingers side by side on top of the palm, the thumb to the side.
		base := geom.Vec3{-22.5 + 15*float64(f), 0, 37}
		dir := geom.Vec3{0, 0, 1}
		if f == 4 {
			base = geom.Vec3{32, 0, -8}
			dir = geom.Vec3{0.7, 0, 0.7}.Normalize()
		}
		curl := 0.25 + 0.05*float64(f)
		p := base
		for k := 0; k < 4; k++ {
			// Each phalanx bends a little more towards -y.
			ang := curl * float64(k+1)
			d := mgl64.QuatRotate(-ang, geom.Vec3{1, 0, 0}).Rotate(dir)
			q := mgl64.QuatBetweenVectors(geom.Vec3{0, 0, 1}, d)
			a3 := 8.0 - 0.6*float64(k)
			c := p.Add(d.Mul(a3 + 0.6))
			add("finger", geom.Superovoid{A: [3]float64{6.5, 6.5, a3}, Eps: [2]float64{0.9, 0.7}, Taper: [2]float64{-0.1, -0.1}}, c, q)
			p = c.Add(d.Mul(a3 + 0.6))
		}
	}
	return sc
}

// benchScene is the hand scene of the benchmarks: scenes/icub-hand.json
// when it exists, else the generated one.
func benchScene(tb testing.TB) *scene.Scene {
	if sc, err := scene.Load("../scenes/icub-hand.json"); err == nil {
		return sc
	} else if !os.IsNotExist(errors.Unwrap(err)) {
		tb.Fatalf("hand scene: %v", err)
	}
	return handScene()
}

func TestHandScene(t *testing.T) {
	sc := handScene()
	objs := sc.Objects
	if len(objs) != 21 {
		t.Fatalf("%d objects", len(objs))
	}
	for i := range objs {
		if err := objs[i].Body().Validate(); err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
	}
	a := NewApp(sc, "")
	a.Update()
	if a.Stats.Pairs < 20 {
		t.Errorf("only %d pairs pass the broad phase; the hand should have its neighbours close", a.Stats.Pairs)
	}
}

// The per-frame work outside OpenGL — broad phase, warm-started contact of
// every pair, draw-list build — allocates nothing in a steady scene.
func TestUpdateAllocatesNothing(t *testing.T) {
	a := NewApp(benchScene(t), "")
	for i := 0; i < 3; i++ {
		a.Update()
	}
	if n := testing.AllocsPerRun(20, a.Update); n != 0 {
		t.Errorf("App.Update allocates %v times per frame", n)
	}
}

// wiggle moves the last object (a finger tip) back and forth by a tenth of
// its size, as a user dragging it would, so that its pairs are re-solved
// from their warm starts every frame.
func wiggle(a *App, i int) {
	o := &a.Scene.Objects[len(a.Scene.Objects)-1]
	if a.wiggleBase == nil {
		p := o.Pose.Position
		a.wiggleBase = &p
	}
	o.Pose.Position[2] = a.wiggleBase[2] + 0.1*o.Shape.BoundingRadiusFast()*math.Sin(0.2*float64(i))
}

// BenchmarkHandUpdate is the per-frame CPU work of the hand scene: contact
// for every pair passing the broad phase (warm-started) and the draw list.
func BenchmarkHandUpdate(b *testing.B) {
	a := NewApp(benchScene(b), "")
	a.Camera.Width, a.Camera.Height = 1280, 800
	a.Update()
	var contactT time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		wiggle(a, i)
		a.Update()
		contactT += a.Stats.Contact
	}
	b.ReportMetric(float64(contactT.Microseconds())/1e3/float64(b.N), "contact-ms/frame")
	b.ReportMetric(float64(a.Stats.Pairs), "pairs")
}

// BenchmarkHandFrameGL is a whole frame of the hand scene at 1280x800:
// Update plus the OpenGL draw, waiting for the GPU (Mesa llvmpipe under
// Xvfb in CI: a software rasteriser, so this measures the CPU).
func BenchmarkHandFrameGL(b *testing.B) {
	var o *Offscreen
	onMain(func() {
		if offscreen == nil && offErr == nil {
			offscreen, offErr = NewOffscreen()
		}
		o = offscreen
	})
	if offErr != nil {
		b.Fatalf("needs an X display: %v", offErr)
	}
	a := NewApp(benchScene(b), "")
	var err error
	onMain(func() { err = o.Draw(a, 1280, 800) })
	if err != nil {
		b.Fatal(err)
	}
	var contactT time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		wiggle(a, i)
		onMain(func() { err = o.Draw(a, 1280, 800) })
		contactT += a.Stats.Contact
	}
	b.ReportMetric(float64(contactT.Microseconds())/1e3/float64(b.N), "contact-ms/frame")
	b.ReportMetric(float64(a.Stats.Triangles), "triangles")
}
