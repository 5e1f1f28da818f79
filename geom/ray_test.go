package geom

import (
	"math"
	"math/rand"
	"testing"
)

func randUnitQuat(rng *rand.Rand) Quat {
	q := Quat{W: rng.NormFloat64(), V: Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}}
	return q.Normalize()
}

func randDir(rng *rand.Rand) Vec3 {
	return Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Normalize()
}

// randShape draws a shape across the whole parameter range, extremes
// included a fair share of the time.
func randShape(rng *rand.Rand) Superovoid {
	pick := func(lo, hi float64) float64 {
		switch rng.Intn(6) {
		case 0:
			return lo
		case 1:
			return hi
		}
		return lo + (hi-lo)*rng.Float64()
	}
	var s Superovoid
	for i := range s.A {
		s.A[i] = 0.2 + 2.8*rng.Float64()
	}
	s.Eps = [2]float64{pick(MinEps, MaxEps), pick(MinEps, MaxEps)}
	s.Taper = [2]float64{pick(-MaxTaper, MaxTaper), pick(-MaxTaper, MaxTaper)}
	return s
}

// refRaycast is the independent computation: the ray is clipped to the
// bounding sphere, G (not the residual) is sampled densely along it, and
// the first change of inside/outside is bisected. It also returns the
// smallest G − 1 seen, to tell grazing rays.
func refRaycast(b *Body, o, d Vec3, n int) (t float64, hit bool, minG float64) {
	c, r := b.Pose.Position, b.Shape.BoundingRadius()*1.01
	// |o + t d − c|² = r²
	oc := o.Sub(c)
	A, B, C := d.Dot(d), 2*oc.Dot(d), oc.Dot(oc)-r*r
	disc := B*B - 4*A*C
	minG = math.Inf(1)
	if disc < 0 {
		return 0, false, minG
	}
	ta, tb := (-B-math.Sqrt(disc))/(2*A), (-B+math.Sqrt(disc))/(2*A)
	if tb < 0 {
		return 0, false, minG
	}
	ta = math.Max(ta, 0)
	tr := b.Pose.Transform()
	g := func(t float64) float64 {
		v, ok := b.Shape.G(tr.InvPoint(o.Add(d.Mul(t))))
		if !ok {
			return math.Inf(1)
		}
		return v - 1
	}
	g0 := g(ta)
	in0 := g0 < 0
	prev := ta
	for i := 1; i <= n; i++ {
		ti := ta + (tb-ta)*float64(i)/float64(n)
		gi := g(ti)
		minG = math.Min(minG, gi)
		if (gi < 0) != in0 {
			lo, hi := prev, ti
			for k := 0; k < 200 && hi-lo > 1e-15*(1+math.Abs(hi)); k++ {
				m := 0.5 * (lo + hi)
				if (g(m) < 0) == in0 {
					lo = m
				} else {
					hi = m
				}
			}
			return 0.5 * (lo + hi), true, minG
		}
		prev = ti
	}
	return 0, false, minG
}

// Raycast agrees with dense sampling of G along the ray over random shapes
// (whole parameter range), poses and rays: rays from outside that hit or
// miss, and rays starting inside (which report the exit).
func TestRaycastAgainstDenseSampling(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	hits, misses, insides, grazing := 0, 0, 0, 0
	const cases = 1000
	for c := 0; c < cases; c++ {
		b := Body{Shape: randShape(rng), Pose: Pose{Position: Vec3{4*rng.Float64() - 2, 4*rng.Float64() - 2, 4*rng.Float64() - 2}, Orientation: randUnitQuat(rng)}}
		R := b.Shape.BoundingRadius()
		var o, d Vec3
		startInside := c%4 == 0
		if startInside {
			p := b.Shape.Point(2*math.Pi*rng.Float64()-math.Pi, math.Pi*rng.Float64()-math.Pi/2).Mul(0.1 + 0.8*rng.Float64())
			if g, ok := b.Shape.G(p); !ok || g >= 1 {
				continue
			}
			o = b.Pose.ToWorld(p)
			d = randDir(rng).Mul(0.5 + rng.Float64()) // not unit: t is in units of d
		} else {
			o = b.Pose.Position.Add(randDir(rng).Mul(R * (2 + 4*rng.Float64())))
			aim := b.Pose.Position.Add(Vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}.Mul(1.5 * R))
			d = aim.Sub(o).Normalize()
		}
		got, ok := b.Raycast(o, d)
		want, wok, _ := refRaycast(&b, o, d, 10000)
		tol := 1e-9 * R / d.Len()
		switch {
		case ok && wok:
			if math.Abs(got-want) > tol {
				// Only a grazing entry thinner than the reference's
				// spacing may be found earlier by Raycast, and only on
				// the surface.
				f, _ := b.Shape.Residual(b.Pose.ToLocal(o.Add(d.Mul(got))))
				if got < want && math.Abs(f) < 1e-9 {
					grazing++
					continue
				}
				t.Errorf("case %d %+v pose %+v: t = %.15g, dense sampling %.15g (diff %.3g)", c, b.Shape, b.Pose, got, want, got-want)
			}
			if startInside {
				insides++
			} else {
				hits++
			}
		case ok != wok:
			f, _ := b.Shape.Residual(b.Pose.ToLocal(o.Add(d.Mul(got))))
			if ok && math.Abs(f) < 1e-9 {
				grazing++ // a touch between the reference's samples
				continue
			}
			t.Errorf("case %d %+v pose %+v origin %v dir %v: hit %v (t %g), dense sampling hit %v (t %g)", c, b.Shape, b.Pose, o, d, ok, got, wok, want)
		default:
			misses++
		}
		if ok {
			// The hit lies on the surface to the stated accuracy.
			p := b.Pose.ToLocal(o.Add(d.Mul(got)))
			f, fok := b.Shape.Residual(p)
			if !fok || math.Abs(f) > 1e-9 {
				t.Errorf("case %d: residual %g at the hit", c, f)
			}
		}
	}
	t.Logf("%d hits from outside, %d from inside, %d misses, %d grazing", hits, insides, misses, grazing)
	if hits < cases/4 || misses < cases/10 || insides < cases/10 {
		t.Errorf("poor coverage: %d hits, %d inside, %d misses", hits, insides, misses)
	}
	if grazing > cases/50 {
		t.Errorf("%d grazing disagreements: too many to be grazing", grazing)
	}
}

// Spheres and ellipsoids: the closed form of the quadratic.
func TestRaycastEllipsoidClosedForm(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for c := 0; c < 2000; c++ {
		a := [3]float64{0.01 + 5*rng.Float64(), 0.01 + 5*rng.Float64(), 0.01 + 5*rng.Float64()}
		if c%3 == 0 {
			a[1], a[2] = a[0], a[0]
		}
		b := Body{Shape: Ellipsoid(a[0], a[1], a[2]), Pose: Pose{Position: Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}, Orientation: randUnitQuat(rng)}}
		R := math.Max(a[0], math.Max(a[1], a[2]))
		o := b.Pose.Position.Add(randDir(rng).Mul(R * 3 * rng.Float64()))
		d := randDir(rng)
		// Local quadratic Σ ((o_i + t d_i)/a_i)² = 1.
		lo, ld := b.Pose.ToLocal(o), b.Pose.Transform()
		dl := ld.InvDir(d)
		var A, B, C float64
		for i := 0; i < 3; i++ {
			A += dl[i] * dl[i] / (a[i] * a[i])
			B += 2 * lo[i] * dl[i] / (a[i] * a[i])
			C += lo[i] * lo[i] / (a[i] * a[i])
		}
		C--
		disc := B*B - 4*A*C
		want, wok := 0.0, false
		if disc >= 0 {
			t1, t2 := (-B-math.Sqrt(disc))/(2*A), (-B+math.Sqrt(disc))/(2*A)
			switch {
			case t1 >= 0:
				want, wok = t1, true
			case t2 >= 0:
				want, wok = t2, true
			}
		}
		got, ok := b.Raycast(o, d)
		if disc >= 0 && math.Abs(disc) < 1e-9*B*B {
			continue // tangent ray: either answer is right
		}
		if ok != wok || (ok && math.Abs(got-want) > 1e-10*R) {
			t.Errorf("case %d a=%v origin %v dir %v: got (%.15g, %v), closed form (%.15g, %v)", c, a, o, d, got, ok, want, wok)
		}
	}
}

// Rays that clip a thin tapered tip, far thinner than one marching step,
// still hit. Along x at height w = z/a3 the section of the y = 0 plane is
// |x| = a1·(1+tx·w)·(1−w^(2/e2))^(e2/2) (closed form); tilted rays through
// the tip's axis are checked by bisecting G between the origin and the
// known interior point on the axis.
func TestRaycastThinTip(t *testing.T) {
	for _, e := range [][2]float64{{1, 1.95}, {0.05, 1.95}, {1.95, 1.9}, {0.5, 1.5}, {1, 0.3}} {
		s := Superovoid{A: [3]float64{1, 0.8, 2}, Eps: e, Taper: [2]float64{-0.5, -0.5}}
		b := Body{Shape: s, Pose: Identity()}
		for _, delta := range []float64{1e-2, 1e-3, 1e-4, 1e-5} {
			w := 1 - delta
			half := s.A[0] * (1 + s.Taper[0]*w) * math.Pow(1-math.Pow(w, 2/e[1]), e[1]/2)
			o := Vec3{-5, 0, w * s.A[2]}
			got, ok := b.Raycast(o, Vec3{1, 0, 0})
			want := 5 - half
			if !ok || math.Abs(got-want) > 1e-10 {
				t.Errorf("eps %v, tip at 1-w = %g (half width %.3g): got (%.15g, %v), want %.15g", e, delta, half, got, ok, want)
			}
			for _, d := range []Vec3{{1, 0, 0.3}, {0.7, 0.2, -0.45}, {0.1, 1, 0.05}} {
				d = d.Normalize()
				c := Vec3{0, 0, w * s.A[2]}
				o := c.Sub(d.Mul(5.123))
				lo, hi := 0.0, 5.123
				for k := 0; k < 200; k++ {
					m := 0.5 * (lo + hi)
					if g, _ := s.G(o.Add(d.Mul(m))); g < 1 {
						hi = m
					} else {
						lo = m
					}
				}
				got, ok := b.Raycast(o, d)
				if !ok || math.Abs(got-hi) > 1e-10 {
					t.Errorf("eps %v, tip at 1-w = %g, dir %v: got (%.15g, %v), bisection %.15g", e, delta, d, got, ok, hi)
				}
			}
		}
		// Straight down onto the apex.
		got, ok := b.Raycast(Vec3{0, 0, 7}, Vec3{0, 0, -1})
		if !ok || math.Abs(got-(7-s.A[2])) > 1e-10 {
			t.Errorf("eps %v: apex hit (%.15g, %v), want %g", e, got, ok, 7-s.A[2])
		}
	}
}

// Misses, degenerate input and the origin on the surface.
func TestRaycastEdgeCases(t *testing.T) {
	b := Body{Shape: Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{0.5, 1.5}, Taper: [2]float64{0.3, -0.2}}, Pose: Pose{Position: Vec3{1, 2, 3}, Orientation: Quat{W: 1}}}
	if _, ok := b.Raycast(Vec3{1, 2, 10}, Vec3{0, 0, 1}); ok {
		t.Error("ray pointing away hit")
	}
	if _, ok := b.Raycast(Vec3{10, 2, 3}, Vec3{0, 1, 0}); ok {
		t.Error("ray passing beside hit")
	}
	for _, d := range []Vec3{{}, {math.NaN(), 0, 1}, {math.Inf(1), 0, 0}} {
		if _, ok := b.Raycast(Vec3{1, 2, -10}, d); ok {
			t.Errorf("dir %v hit", d)
		}
	}
	if _, ok := b.Raycast(Vec3{math.NaN(), 0, 0}, Vec3{0, 0, 1}); ok {
		t.Error("NaN origin hit")
	}
	bad := b
	bad.Shape.Eps[0] = 3
	if _, ok := bad.Raycast(Vec3{1, 2, -10}, Vec3{0, 0, 1}); ok {
		t.Error("invalid shape hit")
	}
	// From below along z through the centre: enters at z = -a3.
	got, ok := b.Raycast(Vec3{1, 2, -10}, Vec3{0, 0, 2})
	if !ok || math.Abs(got-5) > 1e-11 {
		t.Errorf("axis ray: got (%.15g, %v), want 5 (t in units of dir)", got, ok)
	}
	// Origin on the surface (the bottom apex), pointing in: t = 0 or the
	// far side; pointing out: 0.
	if got, ok := b.Raycast(Vec3{1, 2, 0}, Vec3{0, 0, -1}); !ok || got > 1e-11 {
		t.Errorf("origin on the surface, pointing out: (%g, %v), want (0, true)", got, ok)
	}
	// From the centre (inside): the exit at the top.
	if got, ok := b.Raycast(Vec3{1, 2, 3}, Vec3{0, 0, 1}); !ok || math.Abs(got-3) > 1e-11 {
		t.Errorf("from inside: (%.15g, %v), want the exit at 3", got, ok)
	}
}

func BenchmarkRaycast(bm *testing.B) {
	b := Body{Shape: Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{0.5, 1.5}, Taper: [2]float64{0.3, -0.2}}, Pose: Identity()}
	o, d := Vec3{-10, 0.3, 0.2}, Vec3{1, 0, 0}
	for i := 0; i < bm.N; i++ {
		b.Raycast(o, d)
	}
}
