package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// denseSupport is the maximum of n·x over a dense parametric sample of the
// surface, refined coordinate-wise around the best sample: an independent
// computation of the support function, global on non-convex shapes too.
func denseSupport(s *Superovoid, pts []Vec3, na, nz int, n Vec3) float64 {
	best, bi := math.Inf(-1), 0
	for i, x := range pts {
		if v := x.Dot(n); v > best {
			best, bi = v, i
		}
	}
	b1 := -math.Pi + 2*math.Pi*float64(bi/(nz+1))/float64(na)
	b2 := -math.Pi/2 + math.Pi*float64(bi%(nz+1))/float64(nz)
	st1, st2 := 2*math.Pi/float64(na), math.Pi/float64(nz)
	for it := 0; it < 60; it++ {
		for _, d := range [][2]float64{{st1, 0}, {-st1, 0}, {0, st2}, {0, -st2}} {
			q2 := math.Max(-math.Pi/2, math.Min(math.Pi/2, b2+d[1]))
			if v := s.Point(b1+d[0], q2).Dot(n); v > best {
				best, b1, b2 = v, b1+d[0], q2
			}
		}
		st1, st2 = st1*0.7, st2*0.7
	}
	return best
}

// TestIsSupportPointAgainstDenseSampling checks the support-point test on
// random surface points of shapes across the whole parameter range, most of
// them non-convex: a point it accepts is never beaten by the dense sample
// (soundness, the certificate's promise), and the support points themselves
// (PointWithNormal) are accepted, as are points of convex shapes.
func TestIsSupportPointAgainstDenseSampling(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	const na, nz, tol = 200, 100, 1e-9
	pts := make([]Vec3, 0, na*(nz+1))
	accepted, refused, dents, missed, supports, pwnWrong := 0, 0, 0, 0, 0, 0
	for i := 0; i < 600; i++ {
		s := randomShape(r)
		if i%4 == 0 {
			s.Taper[1] = s.Taper[0]
		}
		if i%8 == 1 {
			s.Eps[1] = 1.5 + 0.4*r.Float64() // pointy and tapered: caved in
		}
		if i%8 == 3 {
			s.Eps = [2]float64{extremeEps(r), extremeEps(r)}
		}
		tab := s.SupportTable()
		convex := s.Convexity().Convex
		pts = pts[:0]
		for a := 0; a < na; a++ {
			for z := 0; z <= nz; z++ {
				pts = append(pts, s.Point(-math.Pi+2*math.Pi*float64(a)/na, -math.Pi/2+math.Pi*float64(z)/nz))
			}
		}
		for j := 0; j < 30; j++ {
			x := s.Point(-math.Pi+2*math.Pi*r.Float64(), -1.5+3*r.Float64())
			n, ok := s.Normal(x)
			if !ok {
				continue
			}
			h := denseSupport(&s, pts, na, nz, n)
			got := tab.IsSupportPoint(n, x, tol)
			var e Implicit
			if s.LogResidualHessianInto(x, true, &e) && tab.IsSupportPointHess(n, x, tol, &e) != got {
				t.Fatalf("%+v at %v: the log residual's curvature decides differently", s, x)
			}
			if got {
				accepted++
				if h > n.Dot(x)+tol+1e-12 {
					t.Fatalf("%+v: accepted %v with normal %v, but the body reaches %.12g > %.12g along it",
						s, x, n, h, n.Dot(x))
				}
			} else {
				refused++
			}
			if h > n.Dot(x)+1e-6 {
				dents++
			} else if convex && !got {
				missed++
			}
			// The support point of the same normal must be accepted.
			y, _, _, _ := s.PointWithNormal(n)
			supports++
			if !tab.IsSupportPoint(n, y, tol) {
				if h > n.Dot(y)+1e-7 {
					pwnWrong++
					t.Logf("%+v n=%v: PointWithNormal %v is not the support (%.12g < %.12g)", s, n, y, n.Dot(y), h)
				} else {
					missed++
				}
			}
		}
	}
	t.Logf("PointWithNormal wrong: %d", pwnWrong)
	t.Logf("accepted %d, refused %d (points in dents %d), support points or convex points refused %d of %d",
		accepted, refused, dents, missed, supports)
	if pwnWrong > 0 {
		t.Fatalf("PointWithNormal missed the support point %d times", pwnWrong)
	}
	if dents == 0 {
		t.Fatal("the sweep found no point in a dent: it does not test refusal")
	}
	if missed > supports/200 {
		t.Fatalf("%d true support points refused (more than 0.5%%)", missed)
	}
}

func TestIsSupportPointBadInput(t *testing.T) {
	s := Superovoid{A: [3]float64{1, 2, 3}, Eps: [2]float64{0.5, 1.5}, Taper: [2]float64{0.2, -0.3}}
	tab := s.SupportTable()
	x, _, _, _ := s.PointWithNormal(Vec3{0, 0, 1})
	for _, n := range []Vec3{{}, {math.NaN(), 0, 1}, {math.Inf(1), 0, 0}} {
		if tab.IsSupportPoint(n, x, 1e-9) {
			t.Errorf("IsSupportPoint(%v) accepted", n)
		}
	}
	if !tab.IsSupportPoint(Vec3{0, 0, 2}, x, 1e-9) {
		t.Errorf("the pole is the support point of +z")
	}
	if tab.IsSupportPoint(Vec3{0, 0, 1}, x.Mul(0.5), 1e-9) {
		t.Errorf("an inner point accepted as the support point of +z")
	}
	// Premises: a point off the surface, or a direction that is not its
	// normal, is refused rather than trusted.
	m := Vec3{0.3, -0.4, 0.5}
	y, _, _, _ := s.PointWithNormal(m)
	if !tab.IsSupportPoint(m, y, 1e-9) {
		t.Errorf("the support point of %v refused", m)
	}
	if tab.IsSupportPoint(m, y.Mul(0.999), 1e-9) {
		t.Errorf("a point inside, 0.1%% below the support point, accepted")
	}
	if tab.IsSupportPoint(m.Add(Vec3{0.02, 0, 0}), y, 1e-9) {
		t.Errorf("a direction 0.03 rad off the point's normal accepted")
	}
}

func BenchmarkIsSupportPoint(b *testing.B) {
	r := rand.New(rand.NewPCG(11, 12))
	tabs := make([]SupportTable, 64)
	ns := make([]Vec3, 64)
	xs := make([]Vec3, 64)
	for i := range tabs {
		s := randomShape(r)
		tabs[i] = s.SupportTable()
		ns[i] = Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		xs[i], _, _, _ = s.PointWithNormal(ns[i])
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tabs[i&63].IsSupportPoint(ns[i&63], xs[i&63], 1e-9)
	}
}

// onePlusPow keeps the error bound that the support check's node bounds
// rely on, over its whole domain.
func TestOnePlusPowBound(t *testing.T) {
	worst := 0.0
	for i := 0; i <= 2000; i++ {
		q := float64(i) / 2000
		for j := 1; j <= 400; j++ {
			e := float64(j) / 400
			want := math.Pow(1+q, e)
			rel := math.Abs(onePlusPow(q, e)-want) / want
			worst = math.Max(worst, rel)
			if rel > powErr/2 {
				t.Fatalf("onePlusPow(%g, %g): relative error %.3g", q, e, rel)
			}
		}
	}
	t.Logf("worst relative error %.3g (bound %g)", worst, powErr)
}

// The support check's free bounds of (1 + q)^(1/k) (freeBounds: chord below,
// tangent above, with their margins) hold over the exponents a shape can have
// (k = 2/(2 − e1), e1 in [0.05, 1.95]) and q in [0, 1].
func TestChordTangentBounds(t *testing.T) {
	for j := 0; j <= 400; j++ {
		e1 := 0.05 + 1.9*float64(j)/400
		k := 2 / (2 - e1)
		chord, invk := FastExp(math.Ln2/k)-1, 1/k // as IsSupportPointHess computes them
		for i := 0; i <= 2000; i++ {
			q := float64(i) / 2000
			want := math.Pow(1+q, 1/k)
			lo, hi := freeBounds(q, chord, invk)
			if !(lo <= want && want <= hi) {
				t.Fatalf("e1 %g, q %g: (1+q)^(1/k) = %.17g outside [%.17g, %.17g]", e1, q, want, lo, hi)
			}
		}
	}
}

// The support check's group bounds, and the bounds over single cells
// between neighbouring heights, hold over their whole height ranges, not
// only at the nodes: no point of a densely sampled surface at a height in
// a group's or cell's range reaches beyond its bound on F, for shapes
// across the parameter range and directions of every kind.
func TestSupportGroupBound(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	const na, nz = 240, 160
	skippable, cells, tightCells := 0, 0, 0
	for i := 0; i < 120; i++ {
		s := randomShape(r)
		if i%4 == 1 {
			s.Eps = [2]float64{extremeEps(r), extremeEps(r)}
		}
		if i%4 == 2 {
			s.Taper = [2]float64{r.Float64() - 0.5, r.Float64() - 0.5}
		}
		tab := s.SupportTable()
		var pts []Vec3
		for a := 0; a < na; a++ {
			for z := 0; z <= nz; z++ {
				pts = append(pts, s.Point(-math.Pi+2*math.Pi*float64(a)/na, -math.Pi/2+math.Pi*float64(z)/nz))
			}
		}
		for j := 0; j < 12; j++ {
			n := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			if j == 0 {
				n[2] = 0 // horizontal
			}
			if j == 1 {
				n[0], n[1] = 1e-3*n[0], 0 // nearly vertical
			}
			n = n.Mul(1 / max(math.Abs(n[0]), max(math.Abs(n[1]), math.Abs(n[2]))))
			var p supportProblem
			d := tab.scanDir(n, 0, &p)
			for g := range tab.groups {
				gr := &tab.groups[g]
				gb := tab.groupBound(g, &d) * p.em // (in units of em)
				top := math.Inf(-1)
				for _, x := range pts {
					if w := x[2] / s.A[2]; w >= gr.wlo && w <= gr.whi {
						top = max(top, n.Dot(x))
					}
				}
				if top > gb {
					t.Fatalf("%+v n=%v group %d (w in [%g, %g]): the surface reaches %.15g beyond the bound %.15g", s, n, g, gr.wlo, gr.whi, top, gb)
				}
				if gb < n.Dot(pts[0])+0.5*s.A[2] { // a loose bound would skip nothing
					skippable++
				}
			}
			// The cells between neighbouring heights (PointWithNormal's
			// pruning), the poles at the ends.
			for c := 0; c <= tab.n; c++ {
				wlo, whi := -1.0, 1.0
				if c > 0 {
					wlo = tab.w[c-1]
				}
				if c < tab.n {
					whi = tab.w[c]
				}
				cb := tab.cellBound(c, &d) * p.em
				top := math.Inf(-1)
				for _, x := range pts {
					if w := x[2] / s.A[2]; w >= wlo && w <= whi {
						top = max(top, n.Dot(x))
					}
				}
				if top > cb {
					t.Fatalf("%+v n=%v cell %d (w in [%g, %g]): the surface reaches %.15g beyond the bound %.15g", s, n, c, wlo, whi, top, cb)
				}
				if gb := tab.groupBound(min(c, tab.n-1)/groupNodes, &d) * p.em; cb > gb+1e-15*math.Abs(gb) {
					t.Fatalf("%+v n=%v cell %d: bound %.15g above its group's %.15g", s, n, c, cb, gb)
				}
				cells++
				if cb-top < 0.01*s.BoundingRadiusFast() {
					tightCells++
				}
			}
		}
	}
	if skippable == 0 {
		t.Fatal("no bound was ever tight enough to skip a group")
	}
	t.Logf("%d cells, %d bounds within 1%% of the bounding radius of the sample's top", cells, tightCells)
}

// The group skip changes no verdict of the support check, and every
// interval whose root check it suppresses lies within the skipped groups'
// height range (TestSupportGroupBound holds the bound there) or beyond the
// scan's bound on τ, where F has no maximum: over random shapes, points and
// normals, and over the support points themselves, whose competitors are
// as close as the shape allows.
func TestSupportGroupSkip(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 46))
	checks, skips, differ := 0, 0, 0
	for i := 0; i < 400; i++ {
		s := randomShape(r)
		if i%4 == 1 {
			s.Eps = [2]float64{extremeEps(r), extremeEps(r)}
		}
		if i%4 == 2 {
			s.Eps[1] = 1.5 + 0.4*r.Float64() // pointy and tapered: caved in
		}
		on := s.SupportTable()
		off := on
		off.noGroups = true
		on.onSkip = func(prevTau, tau, bound float64, g0, g1 int) {
			skips++
			lo, hi := on.groups[g0].tauLo, on.groups[g1].tauHi
			if max(prevTau, -bound) < lo || min(tau, bound) > hi {
				t.Fatalf("%+v: suppressed (%g, %g) (bound %g) outside groups %d..%d, τ in [%g, %g]", s, prevTau, tau, bound, g0, g1, lo, hi)
			}
		}
		for j := 0; j < 40; j++ {
			var x, n Vec3
			if j%2 == 0 {
				x = s.Point(-math.Pi+2*math.Pi*r.Float64(), -1.5+3*r.Float64())
				var ok bool
				if n, ok = s.Normal(x); !ok {
					continue
				}
			} else {
				n = Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
				x, _, _, _ = s.PointWithNormal(n)
			}
			var e Implicit
			if !s.LogResidualHessianInto(x, true, &e) {
				continue
			}
			checks++
			if on.IsSupportPointHess(n, x, 1e-9, &e) != off.IsSupportPointHess(n, x, 1e-9, &e) {
				differ++
				t.Errorf("%+v at %v, n %v: the group skip changed the verdict", s, x, n)
			}
		}
	}
	if skips == 0 || checks == 0 {
		t.Fatalf("%d checks, %d skips: nothing tested", checks, skips)
	}
	t.Logf("%d checks, %d suppressed intervals, %d verdicts changed", checks, skips, differ)
}
