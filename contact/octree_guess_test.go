package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// bruteOctreePair is the independent check of the branch and bound: every
// pair of boundary leaves, by centre distance.
func bruteOctreePair(oa, ob *geom.Octree, ta, tb *geom.Transform) float64 {
	best := math.Inf(1)
	for i := range oa.Leaves(geom.Boundary) {
		pa := ta.Point(oa.Nodes[i].Box.Center())
		for j := range ob.Leaves(geom.Boundary) {
			if d := pa.Sub(tb.Point(ob.Nodes[j].Box.Center())).Len(); d < best {
				best = d
			}
		}
	}
	return best
}

func TestOctreeGuessMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	opt := DefaultOptions()
	opt.Guess = Octree
	opt.OctreeDepth = 3
	for i := 0; i < 40; i++ {
		a := geom.Body{Shape: randShapeWide(r), Pose: geom.Pose{Orientation: randQuat(r)}}
		b := geom.Body{Shape: randShapeWide(r), Pose: geom.Pose{Orientation: randQuat(r)}}
		dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		// separated, touching-ish and overlapping
		gap := []float64{0.3, 0.01, -0.2}[i%3]
		b.Pose.Position = dir.Mul(a.Shape.BoundingRadius() + b.Shape.BoundingRadius() + gap)
		sv := NewSolver(opt)
		pr := newPair(&a, &b)
		var res Result
		lp, lq, ok := sv.octreeGuess(&pr, &res)
		if !ok || res.UsedGuess != Octree {
			t.Fatalf("pair %d: octree guess failed", i)
		}
		got := pr.ta.Point(lp).Sub(pr.tb.Point(lq)).Len()
		oa, ob := sv.octree(&a.Shape), sv.octree(&b.Shape)
		want := bruteOctreePair(oa, ob, &pr.ta, &pr.tb)
		// The search resolves to half a leaf radius.
		slack := 0.5 * math.Min(leafRadius(oa), leafRadius(ob))
		if got > want+slack+1e-12 {
			t.Errorf("pair %d: octree guess pair at %.6g, closest boundary leaves at %.6g (slack %.3g)", i, got, want, slack)
		}
		// The recorded cells are boundary leaves containing the seeds.
		for _, c := range []struct {
			box geom.AABB
			p   geom.Vec3
			s   *geom.Superovoid
		}{{res.OctCellA, lp, &a.Shape}, {res.OctCellB, lq, &b.Shape}} {
			if c.box.Center() != c.p || c.s.ClassifyBox(c.box) != geom.Boundary {
				t.Errorf("pair %d: recorded cell %+v is not the seed's boundary leaf", i, c.box)
			}
		}
	}
}

// The octree guess feeds the same solver: answers agree with the default
// guess on convex separated pairs, and a rebuilt query allocates nothing.
func TestOctreeGuessSolves(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 30; i++ {
		a := geom.Body{Shape: randShapeWide(r), Pose: geom.Pose{Orientation: randQuat(r)}}
		b := geom.Body{Shape: randShapeWide(r), Pose: geom.Pose{Orientation: randQuat(r)}}
		a.Shape.Taper, b.Shape.Taper = [2]float64{}, [2]float64{}
		dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		b.Pose.Position = dir.Mul(a.Shape.BoundingRadius() + b.Shape.BoundingRadius() + 0.1)
		for _, m := range allMethods {
			o := DefaultOptions()
			o.Method = m
			ref := Query(&a, &b, &o)
			o.Guess = Octree
			o.OctreeDepth = 4
			got := Query(&a, &b, &o)
			if got.UsedGuess != Octree || got.Status != Converged || math.Abs(got.Distance-ref.Distance) > 1e-9 {
				t.Errorf("pair %d %v: octree %v (%v, %v), support %v", i, m, got.Distance, got.Status, got.UsedGuess, ref.Distance)
			}
		}
	}
	o := DefaultOptions()
	o.Guess = Octree
	sv := NewSolver(o)
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 0.7, 0.5}, Eps: [2]float64{0.5, 0.8}, Taper: [2]float64{0.2, 0.2}}, Pose: geom.Identity()}
	b := a
	b.Pose.Position = geom.Vec3{0.3, 2.5, 0.1}
	sv.Query(&a, &b)
	if n := testing.AllocsPerRun(20, func() { sv.Query(&a, &b) }); n != 0 {
		t.Errorf("octree-guess query allocates %v times once the octrees are cached", n)
	}
}

// randShapeWide draws from the whole parameter range of the wide
// battery.
func randShapeWide(r *rand.Rand) geom.Superovoid { return rangedShape(r, 0.1, 1.9) }

// rangedShape draws semi-axes from [0.3, 2], both exponents from [lo, hi]
// and both tapers from [-0.5, 0.5].
func rangedShape(r *rand.Rand, lo, hi float64) geom.Superovoid {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	return geom.Superovoid{A: [3]float64{u(0.3, 2), u(0.3, 2), u(0.3, 2)}, Eps: [2]float64{u(lo, hi), u(lo, hi)},
		Taper: [2]float64{u(-0.5, 0.5), u(-0.5, 0.5)}}
}
