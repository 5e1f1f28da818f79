package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

func randQuat(r *rand.Rand) geom.Quat {
	// Uniform random rotation (Shoemake).
	u1, u2, u3 := r.Float64(), r.Float64(), r.Float64()
	a, b := math.Sqrt(1-u1), math.Sqrt(u1)
	return geom.Quat{W: a * math.Sin(2*math.Pi*u2), V: geom.Vec3{a * math.Cos(2*math.Pi*u2), b * math.Sin(2*math.Pi*u3), b * math.Cos(2*math.Pi*u3)}}
}

var allMethods = []Method{Implicit, Parametric, NTB}

func TestSpheresClosedForm(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, m := range allMethods {
		for i := 0; i < 200; i++ {
			ra, rb := 0.3+r.Float64(), 0.3+r.Float64()
			dist := (ra + rb) * (0.7 + 0.6*r.Float64())
			dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
			a := geom.Body{Shape: geom.Sphere(ra), Pose: geom.Pose{Position: geom.Vec3{0.1, -0.2, 0.3}, Orientation: randQuat(r)}}
			b := geom.Body{Shape: geom.Sphere(rb), Pose: geom.Pose{Position: a.Pose.Position.Add(dir.Mul(dist)), Orientation: randQuat(r)}}
			opt := DefaultOptions()
			opt.Method = m
			res := Query(&a, &b, &opt)
			want := dist - ra - rb
			if res.Status != Converged || math.Abs(res.Distance-want) > 1e-9 {
				t.Fatalf("%v #%d: distance %v status %v, want %v", m, i, res.Distance, res.Status, want)
			}
			if res.Normal.Sub(dir).Len() > 1e-6 {
				t.Fatalf("%v: normal %v want %v", m, res.Normal, dir)
			}
		}
	}
}

// battery draws pairs of convex shapes: kind 0 is paper 000's battery, kind 1
// the wide battery (a in [0.3,2], e in [0.1,1.9], untapered so convex, gaps
// from −30% of the smallest semi-axis to well apart).
func battery(r *rand.Rand, kind int) (a, b geom.Body) {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	if kind == 0 {
		mk := func() geom.Superovoid {
			return geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{u(0.3, 1.1), u(0.3, 1.1)}}
		}
		a = geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: randQuat(r)}}
		b = geom.Body{Shape: mk(), Pose: geom.Pose{Position: geom.Vec3{0, 2.21, 0}, Orientation: randQuat(r)}}
		return
	}
	mk := func() geom.Superovoid {
		return geom.Superovoid{A: [3]float64{u(0.3, 2), u(0.3, 2), u(0.3, 2)}, Eps: [2]float64{u(0.1, 1.9), u(0.1, 1.9)}}
	}
	a = geom.Body{Shape: mk(), Pose: geom.Pose{Position: geom.Vec3{u(-1, 1), u(-1, 1), u(-1, 1)}, Orientation: randQuat(r)}}
	b = geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: randQuat(r)}}
	// Target signed distance: a third overlapping (depth up to 30% of the
	// smallest semi-axis), a sixth nearly touching, the rest separated.
	L := math.Min(minAxis(&a.Shape), minAxis(&b.Shape))
	var target float64
	switch k := r.IntN(6); {
	case k < 2:
		target = -0.3 * L * r.Float64()
	case k == 2:
		target = L * 1e-4 * (2*r.Float64() - 1)
	default:
		target = L * u(0, 1.5)
	}
	// Slide b along a random direction until the signed distance hits the
	// target (bisection; the placement only picks a configuration, the check
	// below is independent of the solver).
	dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	lo, hi := placeBisect(&a, &b, dir, target, L)
	b.Pose.Position = a.Pose.Position.Add(dir.Mul(0.5 * (lo + hi)))
	return
}

// placeBisect slides b from a's centre along dir, 60 bisection steps on
// the default solver's signed distance towards target, and returns the
// final bracket of offsets (b is left at the last one tried; the caller
// places it). The placement only picks a configuration: the checks that
// follow are independent of the solver.
func placeBisect(a, b *geom.Body, dir geom.Vec3, target, L float64) (lo, hi float64) {
	lo, hi = 0.0, a.Shape.BoundingRadius()+b.Shape.BoundingRadius()+2*L
	opt := DefaultOptions()
	for it := 0; it < 60; it++ {
		mid := 0.5 * (lo + hi)
		b.Pose.Position = a.Pose.Position.Add(dir.Mul(mid))
		if Query(a, b, &opt).Distance < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, hi
}

// checkAgainstReference is the two-sided independent check: the solver's
// value must be attained by the independent supports at the solver's normal
// (so it is a true gap value), and no direction found by the independent
// global search may do better.
func checkAgainstReference(t *testing.T, a, b *geom.Body, res Result, tag string) bool {
	t.Helper()
	if res.Status != Converged {
		t.Logf("%s: status %v", tag, res.Status)
		return false
	}
	at := refGapAt(a, b, res.Normal)
	ref, _ := refSignedDistance(a, b)
	if math.Abs(at-res.Distance) > 1e-9 || res.Distance < ref-1e-9 {
		t.Logf("%s: got %.12f, independent gap at its normal %.12f, independent max %.12f", tag, res.Distance, at, ref)
		return false
	}
	return true
}

func TestConvexBatteriesAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	n := 30
	if testing.Short() {
		n = 8
	}
	for kind := 0; kind < 2; kind++ {
		bad, sep, ovl := 0, 0, 0
		for i := 0; i < n; i++ {
			a, b := battery(r, kind)
			for _, m := range allMethods {
				opt := DefaultOptions()
				opt.Method = m
				res := Query(&a, &b, &opt)
				if !checkAgainstReference(t, &a, &b, res, "") {
					bad++
					t.Logf("battery %d pair %d %v: starts %d iters %d shapes %+v %+v", kind, i, m, res.Starts, res.Iterations, a.Shape, b.Shape)
				}
				if m == Implicit {
					if res.Distance > 0 {
						sep++
					} else {
						ovl++
					}
					if res.Distance > 0 && !res.Certified {
						t.Errorf("battery %d pair %d: separated convex pair not certified", kind, i)
					}
				}
			}
		}
		t.Logf("battery %d: %d separated, %d overlapping", kind, sep, ovl)
		if bad > 0 {
			t.Errorf("battery %d: %d of %d answers fail the independent check", kind, bad, 3*n)
		}
	}
}

// TestUnconvergedPolished: step 19 of an approach of TestApproachSweep
// with SOVVIZ_SWEEP_SEED=8 (draw 2, pair 210), two pointy shapes, one
// tapered. The implicit and ntb multi-starts found no pair, the
// parametric one (recovering the implicit query) a pair 1.1e-7 short of
// the converged pair the other two schemes answer, and the query was
// answered max_iterations: the other schemes polished only nearly
// stationary unconverged pairs from their points. Every scheme must now
// converge, no deeper than the dense samples' apart translation.
func TestUnconvergedPolished(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.0085839671678958, 0.9570496871860661, 1.2105404913456024}, Eps: [2]float64{1.5842640866286701, 1.6875664771096646}, Taper: [2]float64{0.45502532355710623, -0.17154128971663762}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.3783999324800064, V: geom.Vec3{-0.03495284641294879, 0.13970893160383596, 0.9143703866906856}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.5051490058918526, 1.388237170152238, 0.5806780665440218}, Eps: [2]float64{1.803112357697659, 1.7397068165198815}},
		Pose: geom.Pose{Position: geom.Vec3{1.2236900820691077, -1.136433755349374, -1.04473182692623}, Orientation: geom.Quat{W: -0.5668286471366283, V: geom.Vec3{0.011885034061281113, -0.6966829175248803, -0.4395417422494053}}}}
	apart := geom.Vec3{0.7811155237382945, -0.30637459243058734, -0.544052522913038}.Mul(0.10182)
	checkNoDeeperThanApart(t, &a, &b, apart, "the polish of an unconverged pair", false, nil)
}
