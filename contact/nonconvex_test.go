package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// refMinDistance is the independent check for bodies that may be non-convex:
// dense sampling of both surfaces (a parametric grid and rays from the
// centre), then from the best sampled pairs a compass search over the four
// parameters and BFGS in two charts. Every value it takes is the distance
// of two surface points, so it is an upper bound of the true minimum
// distance between the surfaces (tight when the search succeeds).
func refMinDistance(a, b *geom.Body) float64 {
	ra, rb := newRefBody(a), newRefBody(b)
	// The parametric grid crowds box-like shapes' samples at their
	// corners and leaves their faces bare (a face of e = 0.3 lies within a
	// few hundredths of a radian of each axis); samples along evenly spread
	// rays from the centre cover the faces too (a wide-battery pair was
	// 0.06 off without them).
	ra.addRadial(1500)
	rb.addRadial(1500)
	wa := make([]geom.Vec3, len(ra.grid))
	wb := make([]geom.Vec3, len(rb.grid))
	for i, p := range ra.grid {
		wa[i] = ra.t.Point(p)
	}
	for i, p := range rb.grid {
		wb[i] = rb.t.Point(p)
	}
	type pr struct {
		d    float64
		i, j int
	}
	var top [6]pr
	for k := range top {
		top[k].d = math.Inf(1)
	}
	for i, p := range wa {
		for j, q := range wb {
			d := p.Sub(q).Len()
			if d < top[len(top)-1].d {
				k := len(top) - 1
				for k > 0 && top[k-1].d > d {
					top[k] = top[k-1]
					k--
				}
				top[k] = pr{d, i, j}
			}
		}
	}
	best := math.Inf(1)
	for _, c := range top {
		x := [4]float64{ra.prm[c.i][0], ra.prm[c.i][1], rb.prm[c.j][0], rb.prm[c.j][1]}
		// (No clamp on the polar parameters: Point(p1, p2) is the surface
		// point Point(p1 + π, π − p2) beyond the pole, so the search may
		// cross it.)
		f := func(x [4]float64) float64 {
			p := ra.t.Point(ra.s.Point(x[0], x[1]))
			q := rb.t.Point(rb.s.Point(x[2], x[3]))
			return p.Sub(q).Len()
		}
		// The step grows after a success: at a fixed step the search can
		// crawl by an ulp a step along a flat or pointy patch (a wide
		// battery pair ran for minutes). The cap only ends a crawl early;
		// every value taken is still a true distance of two surface points.
		x, v := compassSearch(f, x, 0.1, 1e-13, 20000)
		best = math.Min(best, v)
		// Axis moves crawl along the narrow diagonal valley of nearly
		// touching surfaces (p and q must move together): quasi-Newton on
		// the squared distance follows it. Its value, too, is the distance
		// of two surface points.
		best = math.Min(best, bfgsPolish(f, x))
		// The parameters have a cusp at a box-like face's centre (spow of
		// a small exponent), where BFGS stalls; in the chart tan σ =
		// spow(tan p, e) the surface is smooth there.
		ea, eb := ra.s.Eps, rb.s.Eps
		g := func(y [4]float64) float64 {
			return f([4]float64{chart(y[0], 1/ea[0]), chart(y[1], 1/ea[1]), chart(y[2], 1/eb[0]), chart(y[3], 1/eb[1])})
		}
		best = math.Min(best, bfgsPolish(g, [4]float64{chart(x[0], ea[0]), chart(x[1], ea[1]), chart(x[2], eb[0]), chart(x[3], eb[1])}))
	}
	return best
}

// compassSearch minimises f from x by axis moves of step h, doubled after
// a move that lowers f and quartered after none, until h falls to hMin or
// maxIt rounds have run; it returns the best point and its value.
func compassSearch(f func([4]float64) float64, x [4]float64, h, hMin float64, maxIt int) ([4]float64, float64) {
	v := f(x)
	for it := 0; h > hMin && it < maxIt; it++ {
		improved := false
		for k := 0; k < 4; k++ {
			for _, sg := range [2]float64{1, -1} {
				y := x
				y[k] += sg * h
				if w := f(y); w < v {
					x, v, improved = y, w, true
				}
			}
		}
		if improved {
			h *= 2
		} else {
			h /= 4
		}
	}
	return x, v
}

// chart maps an angle p to σ with tan σ = spow(tan p, e), in the same
// quadrant; chart(chart(p, e), 1/e) = p.
func chart(p, e float64) float64 {
	return math.Atan2(geom.Spow(math.Sin(p), e), geom.Spow(math.Cos(p), e))
}

// bfgsPolish minimises f² from x0 by BFGS (central-difference gradient,
// backtracking line search) and returns f at the best point it reached.
func bfgsPolish(f func([4]float64) float64, x0 [4]float64) float64 {
	sq := func(x [4]float64) float64 { v := f(x); return v * v }
	grad := func(x [4]float64) (g [4]float64) {
		for k := range 4 {
			h := 1e-7 * math.Max(1, math.Abs(x[k]))
			y, z := x, x
			y[k] += h
			z[k] -= h
			g[k] = (sq(y) - sq(z)) / (2 * h)
		}
		return
	}
	x, fx, g := x0, sq(x0), grad(x0)
	var H [4][4]float64 // inverse Hessian estimate
	for k := range 4 {
		H[k][k] = 1
	}
	for it := 0; it < 300; it++ {
		var d [4]float64
		for r := range 4 {
			for c := range 4 {
				d[r] -= H[r][c] * g[c]
			}
		}
		slope := 0.0
		for k := range 4 {
			slope += d[k] * g[k]
		}
		if !(slope < 0) { // not a descent direction: restart from steepest descent
			for r := range 4 {
				H[r] = [4]float64{}
				H[r][r] = 1
				d[r] = -g[r]
			}
			slope = 0
			for k := range 4 {
				slope += d[k] * g[k]
			}
			if !(slope < 0) {
				break
			}
		}
		t, xn, fn := 1.0, x, fx
		for ; t > 1e-20; t /= 2 {
			for k := range 4 {
				xn[k] = x[k] + t*d[k]
			}
			if fn = sq(xn); fn <= fx+1e-4*t*slope {
				break
			}
		}
		if !(fn < fx) {
			break
		}
		gn := grad(xn)
		var sv, yv [4]float64
		sy := 0.0
		for k := range 4 {
			sv[k], yv[k] = xn[k]-x[k], gn[k]-g[k]
			sy += sv[k] * yv[k]
		}
		x, fx, g = xn, fn, gn
		if !(sy > 0) { // no curvature information (or NaN): keep H
			continue
		}
		// H ← (I − ρ s yᵀ) H (I − ρ y sᵀ) + ρ s sᵀ
		rho := 1 / sy
		var Hy [4]float64
		yHy := 0.0
		for r := range 4 {
			for c := range 4 {
				Hy[r] += H[r][c] * yv[c]
			}
			yHy += yv[r] * Hy[r]
		}
		for r := range 4 {
			for c := range 4 {
				H[r][c] += -rho*(sv[r]*Hy[c]+Hy[r]*sv[c]) + (rho*rho*yHy+rho)*sv[r]*sv[c]
			}
		}
	}
	return math.Sqrt(fx)
}

// addRadial adds n surface samples along rays from the centre spread
// evenly over the sphere (fibonacciDir), each found by bisection of the
// residual along its ray (rayBracket), with the parameters of the point.
func (r *refBody) addRadial(n int) {
	R := 2 * r.s.BoundingRadius()
	for k := 0; k < n; k++ {
		u := fibonacciDir(k, n)
		lo, hi := rayBracket(&r.s, u, R, 80)
		x := u.Mul(0.5 * (lo + hi))
		p1, p2 := r.s.Params(x)
		r.grid = append(r.grid, r.s.Point(p1, p2))
		r.prm = append(r.prm, [2]float64{p1, p2})
	}
}

// fibonacciDir is direction k of n spread evenly over the unit sphere (a
// Fibonacci lattice).
func fibonacciDir(k, n int) geom.Vec3 {
	golden := math.Pi * (3 - math.Sqrt(5))
	z := 1 - 2*(float64(k)+0.5)/float64(n)
	rho := math.Sqrt(1 - z*z)
	return geom.Vec3{rho * math.Cos(golden*float64(k)), rho * math.Sin(golden*float64(k)), z}
}

// rayBracket bisects the residual of s along the ray from its centre in
// direction u, from [0, R] (R beyond the surface), for steps halvings: the
// surface point lies between u·lo (inside) and u·hi. Superovoids are
// star-shaped about the centre, so the ray crosses the surface once.
func rayBracket(s *geom.Superovoid, u geom.Vec3, R float64, steps int) (lo, hi float64) {
	lo, hi = 0, R
	for it := 0; it < steps; it++ {
		mid := 0.5 * (lo + hi)
		if f, ok := s.Residual(u.Mul(mid)); ok && f < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, hi
}

// refPointSurfaceDistance is the independent distance of a point outside
// the shape (local frame) from its surface: a dense parametric sample, then
// a compass search over the two parameters from the best few samples,
// with a pole chart where p1 degenerates.
func refPointSurfaceDistance(s *geom.Superovoid, c geom.Vec3) float64 {
	const n1, n2 = 400, 200
	type cand struct{ d, p1, p2 float64 }
	var top [4]cand
	for k := range top {
		top[k].d = math.Inf(1)
	}
	for i := 0; i < n1; i++ {
		p1 := -math.Pi + 2*math.Pi*(float64(i)+0.5)/n1
		for j := 0; j <= n2; j++ {
			p2 := -math.Pi/2 + math.Pi*float64(j)/n2
			d := s.Point(p1, p2).Sub(c).Len()
			if d < top[len(top)-1].d {
				k := len(top) - 1
				for k > 0 && top[k-1].d > d {
					top[k] = top[k-1]
					k--
				}
				top[k] = cand{d, p1, p2}
			}
		}
	}
	f := func(p1, p2 float64) float64 {
		return s.Point(p1, math.Max(-math.Pi/2, math.Min(math.Pi/2, p2))).Sub(c).Len()
	}
	best := math.Inf(1)
	for _, t := range top {
		p1, p2, v := t.p1, t.p2, t.d
		for h, it := 2*math.Pi/n1, 0; h > 1e-14 && it < 20000; it++ {
			improved := false
			for _, d := range [8][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
				if w := f(p1+d[0]*h, p2+d[1]*h); w < v {
					p1, p2, v, improved = p1+d[0]*h, p2+d[1]*h, w, true
					h *= 2
					break
				}
			}
			if !improved {
				h /= 2
			}
		}
		best = math.Min(best, v)
	}
	return best
}

// Non-convex shapes (tx != ty with e2 < 1: math.md §1): separated pairs must
// return the true closest pair of the bodies, not of their hulls, and must
// not claim a certificate.
func TestNonConvexSeparatedPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	n := 25
	if testing.Short() {
		n = 6
	}
	certified := 0
	for i := 0; i < n; i++ {
		u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
		mk := func() geom.Superovoid {
			return geom.Superovoid{A: [3]float64{u(0.5, 1.5), u(0.5, 1.5), u(0.5, 1.5)}, Eps: [2]float64{u(0.3, 1), u(0.3, 0.9)},
				Taper: [2]float64{u(0.2, 0.5), -u(0.2, 0.5)}}
		}
		a := geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: randQuat(r)}}
		b := geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: randQuat(r)}}
		dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		b.Pose.Position = dir.Mul(a.Shape.BoundingRadius() + b.Shape.BoundingRadius() + u(0.05, 0.5))
		ref := refMinDistance(&a, &b)
		for _, m := range allMethods {
			opt := DefaultOptions()
			opt.Method = m
			res := Query(&a, &b, &opt)
			// The flags follow geom's analysis (a dip can be below its
			// tolerance as e2 nears 1); a certificate is allowed — it is
			// checked against the reference below.
			want := uint8(0)
			if !a.Shape.Convexity().Convex {
				want |= 1
			}
			if !b.Shape.Convexity().Convex {
				want |= 2
			}
			if res.NonConvex != want {
				t.Errorf("pair %d %v: non-convex flags %b, geom says %b", i, m, res.NonConvex, want)
			}
			if res.Certified {
				certified++
			}
			checkSeparatedAnswer(t, &a, &b, &res, ref, fmt.Sprintf("pair %d %v", i, m))
		}
	}
	t.Logf("%d of %d answers certified by the support planes", certified, 3*n)
}

// A small sphere held in the dent of a caved-in shape: the closest pair lies
// where the convex hull bridges over the body, so the hull certificate must
// refuse, and the answer must still be the true distance (not the hull's).
func TestNonConvexDentNotCertified(t *testing.T) {
	for _, tc := range []struct {
		s geom.Superovoid
	}{
		{geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1.9}, Taper: [2]float64{0.4, 0.4}}},
		{geom.Superovoid{A: [3]float64{1, 0.8, 1.2}, Eps: [2]float64{0.6, 1.8}, Taper: [2]float64{-0.5, -0.5}}},
		{geom.Superovoid{A: [3]float64{1.5, 1.6, 1.7}, Eps: [2]float64{1.5, 0.26}, Taper: [2]float64{0.48, -0.39}}},
	} {
		rep := tc.s.Convexity()
		if rep.Convex {
			t.Fatalf("%+v: expected a non-convex shape", tc.s)
		}
		nrm, ok := tc.s.Normal(rep.Where)
		if !ok {
			t.Fatalf("no normal at %v", rep.Where)
		}
		// A sphere smaller than the dent, a little outside the deepest point.
		r := 0.3 * rep.HullGap
		sep := 0.2 * rep.HullGap
		a := geom.Body{Shape: tc.s, Pose: geom.Identity()}
		b := geom.Body{Shape: geom.Sphere(r), Pose: geom.Identity()}
		b.Pose.Position = rep.Where.Add(nrm.Mul(r + sep))
		// Sphere: the distance is that of its centre from the body, minus r.
		ref := refPointSurfaceDistance(&tc.s, b.Pose.Position) - r
		for _, m := range allMethods {
			opt := DefaultOptions()
			opt.Method = m
			res := Query(&a, &b, &opt)
			if res.Certified {
				t.Errorf("%+v %v: certified although the closest pair is in a dent (hull gap %g)", tc.s, m, rep.HullGap)
			}
			if res.Status != Converged || math.Abs(res.Distance-ref) > 1e-9 {
				t.Errorf("%+v %v: distance %.12g (%v), reference %.12g", tc.s, m, res.Distance, res.Status, ref)
			}
		}
	}
}

// Two boxy-profiled (e2 ≈ 0.3), tapered, non-convex bodies with nearly
// parallel flat faces: every common-normal start stalls on the flat faces
// (a warm-start step of the paper battery, pair 7013). The last resort —
// the support-function ascent, then Newton from its support points — must
// still converge to a pair no sampled pair of the surfaces beats.
func TestNearlyParallelFlatFaces(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1.0072775591509437, 0.3032287101889861}, Taper: [2]float64{0.2626124537134805, -0.21905307230450097}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.1553837445391199, V: geom.Vec3{0.20905727636629393, 0.6807974594278885, 0.6845916785704024}}}.Normalized()}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1.024521995065857, 0.3117983914622255}, Taper: [2]float64{0.10062366057985472, 0.2173673516005028}},
		Pose: geom.Pose{Position: geom.Vec3{-0.0008289472368623837, 2.209728810303626, -0.0004891856775079165},
			Orientation: geom.Quat{W: 0.8988091052873506, V: geom.Vec3{-0.12860185388124237, -0.08296499046670078, 0.4107560903842087}}}.Normalized()}
	// Dense samples of both surfaces near the gap between them.
	sample := func(x *geom.Body, near geom.Vec3) []geom.Vec3 {
		var pts []geom.Vec3
		tr := x.Pose.Transform()
		for i := 0; i < 400; i++ {
			for j := 0; j <= 200; j++ {
				p := tr.Point(x.Shape.Point(-math.Pi+2*math.Pi*float64(i)/400, -math.Pi/2+math.Pi*float64(j)/200))
				if p.Sub(near).Len() < 0.9 {
					pts = append(pts, p)
				}
			}
		}
		return pts
	}
	mid := b.Pose.Position.Mul(0.5)
	pa, pb := sample(&a, mid), sample(&b, mid)
	sampled := math.Inf(1)
	for _, p := range pa {
		for _, q := range pb {
			sampled = math.Min(sampled, p.Sub(q).Len())
		}
	}
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		res := Query(&a, &b, &opt)
		if res.Status != Converged {
			t.Errorf("%v: status %v (distance %v)", m, res.Status, res.Distance)
			continue
		}
		if res.Distance > sampled+1e-9 {
			t.Errorf("%v: distance %.12g, but sampled surface points are %.12g apart", m, res.Distance, sampled)
		}
		// Lower bound: the gap between the exact support planes along the
		// answer's normal (≤ the true distance).
		n := res.Normal
		ha, _ := a.Support(n)
		hb, _ := b.Support(n.Mul(-1))
		if g := -ha - hb; res.Distance < g-1e-9 {
			t.Errorf("%v: distance %.12g below the support-plane gap %.12g", m, res.Distance, g)
		}
		t.Logf("%v: %.12g (sampled %.12g), %d iterations", m, res.Distance, sampled, res.Iterations)
	}
}

// Far from the origin the rounding of world coordinates exceeds the
// certificate's absolute 1e-9: a pair certified at the origin must stay
// certified when both bodies are moved far away together.
func TestCertificateFarFromOrigin(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	checked := 0
	for i := 0; i < 40 && checked < 8; i++ {
		mk := func() geom.Superovoid {
			return geom.Superovoid{A: [3]float64{0.5 + r.Float64(), 0.5 + r.Float64(), 0.5 + r.Float64()},
				Eps: [2]float64{0.3 + 0.7*r.Float64(), 0.3 + 0.6*r.Float64()}, Taper: [2]float64{0.3, -0.3}}
		}
		a := geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: randQuat(r)}}
		b := geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: randQuat(r)}}
		dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		b.Pose.Position = dir.Mul(a.Shape.BoundingRadius() + b.Shape.BoundingRadius() + 0.2)
		opt := DefaultOptions()
		near := Query(&a, &b, &opt)
		if !near.Certified || near.NonConvex == 0 {
			continue
		}
		checked++
		off := geom.Vec3{3e9, -2e9, 1e9}
		a.Pose.Position = a.Pose.Position.Add(off)
		b.Pose.Position = b.Pose.Position.Add(off)
		far := Query(&a, &b, &opt)
		if !far.Certified {
			t.Errorf("pair %d: certified at the origin (d = %.12g), not at %v (d = %.12g)", i, near.Distance, off, far.Distance)
		}
		if math.Abs(far.Distance-near.Distance) > 1e-5 {
			t.Errorf("pair %d: distance %.12g at the origin, %.12g far away", i, near.Distance, far.Distance)
		}
	}
	if checked < 4 {
		t.Fatalf("only %d certified non-convex pairs to check", checked)
	}
}

// Deep overlaps of convex (untapered) pairs, against the reference search.
// The first two have minimum translations whose witness points lie outside
// the other body (an elongated body's extreme point reaches beyond the
// other's side): classify used to demand a witness inside and threw the
// right pair away (0.72 and 0.73 too deep); a point inside both bodies now
// proves the overlap. The other four lie in basins that none of the
// multi-start's directions reaches (they were 0.009, 0.32, 0.34 and 0.16
// too deep): the expanding polytope (epaCheck) finds them and certifies
// every answer.
func TestDeepOverlaps(t *testing.T) {
	body := func(a [3]float64, e [2]float64, pos geom.Vec3, q geom.Quat) geom.Body {
		return geom.Body{Shape: geom.Superovoid{A: a, Eps: e}, Pose: geom.Pose{Position: pos, Orientation: q}}
	}
	pairs := [][2]geom.Body{
		{body([3]float64{1.8227365123424821, 1.282052967875769, 0.4205358636584692}, [2]float64{1.2736212935286522, 1.131588082429587},
			geom.Vec3{}, geom.Quat{W: -0.8889291888494093, V: geom.Vec3{0.011745146248916165, -0.3597641086641812, 0.28326089540949706}}),
			body([3]float64{1.548069529196, 1.9730693615174397, 0.9293948946441337}, [2]float64{0.7516702227850304, 1.3632497134698753},
				geom.Vec3{-0.14031842179761342, 0.31809372408087716, 0.3345323456482204}, geom.Quat{W: 0.8138295721593445, V: geom.Vec3{0.545604513071305, 0.05941215465911497, -0.19096423401758753}})},
		{body([3]float64{1.9983766938664382, 0.7096652598512494, 1.984353651619245}, [2]float64{0.28010988659694713, 0.33889154373002367},
			geom.Vec3{}, geom.Quat{W: 0.1415777034197776, V: geom.Vec3{0.7769695615691032, -0.057967442172207194, 0.6106667093738686}}),
			body([3]float64{0.8748457981099145, 1.716921115349241, 0.3191918581673249}, [2]float64{0.21218332584576688, 0.20189248887131428},
				geom.Vec3{-0.01991810432335993, -0.15229880759186185, 0.0822635040752522}, geom.Quat{W: -0.3786387829904903, V: geom.Vec3{-0.5579637024357009, -0.7377236916709213, 0.032755664046882925}})},
		{body([3]float64{1.949230542424979, 1.4822032027248881, 1.103685251017703}, [2]float64{0.3636944982279765, 0.6919082395191766},
			geom.Vec3{}, geom.Quat{W: 0.7940710210762412, V: geom.Vec3{0.04531371303547839, 0.011511278021752249, 0.6060242333241964}}),
			body([3]float64{1.1618109530596417, 0.6297484227537204, 1.7589683729781447}, [2]float64{1.549610037556403, 1.4416489831108967},
				geom.Vec3{-0.49596227330854586, 0.39916908320241995, -0.43992033185519813}, geom.Quat{W: -0.8472385145118705, V: geom.Vec3{-0.20349032996496313, -0.32250472266717983, -0.36982332132497403}})},
		{body([3]float64{1.373781094369082, 0.9807136657097024, 1.6802094087426058}, [2]float64{1.6871087077036138, 1.3597907413099761},
			geom.Vec3{}, geom.Quat{W: -0.36846220657265866, V: geom.Vec3{0.2463219574328394, -0.8918725571511467, -0.09013566117101741}}),
			body([3]float64{0.6461058083966683, 1.543772364092643, 0.6565501724351147}, [2]float64{0.3218236149002709, 1.069658343486428},
				geom.Vec3{-0.3776441052733721, -0.011094822100389047, 0.22071856136420007}, geom.Quat{W: 0.7664165111166694, V: geom.Vec3{0.2340405597897236, -0.37212066218141693, 0.4683555920865349}})},
		{body([3]float64{1.228574006867293, 0.6227023665444374, 1.4648899403339855}, [2]float64{0.9467550397949713, 1.7378299972366846},
			geom.Vec3{}, geom.Quat{W: 0.2804404266187492, V: geom.Vec3{-0.6107298505761289, 0.4824582058589499, 0.5617795798465056}}),
			body([3]float64{1.7971486631957114, 0.7739747402185368, 1.7100728959375497}, [2]float64{1.3283505584668651, 0.7008393327630336},
				geom.Vec3{0.055954705950980885, -0.74897200683119, -0.3390228943328127}, geom.Quat{W: -0.1052072668491075, V: geom.Vec3{0.5124120981019321, -0.8510429915024189, 0.04572853961729301}})},
		// The review's axis-aligned example: −1.49995 before the
		// expanding polytope, −1.34321 now.
		{body([3]float64{0.5, 0.5, 1.5}, [2]float64{0.5, 1.5}, geom.Vec3{}, geom.Quat{W: 0.5, V: geom.Vec3{0.5, 0.5, 0.5}}),
			body([3]float64{0.5, 1.5, 1}, [2]float64{0.3, 1}, geom.Vec3{0.5, 0, 0.5}, geom.Quat{W: math.Sqrt(0.5), V: geom.Vec3{math.Sqrt(0.5), 0, 0}})},
	}
	const witnessesOutside = 2 // the first pairs
	for i, p := range pairs {
		opt := DefaultOptions()
		res := Query(&p[0], &p[1], &opt)
		if !checkAgainstReference(t, &p[0], &p[1], res, fmt.Sprintf("deep pair %d", i)) {
			t.Errorf("deep pair %d: %v is not the minimum translation", i, res.Distance)
			continue
		}
		if !res.Certified || res.Polytope == 0 {
			t.Errorf("deep pair %d: not certified by the expanding polytope (%d support points)", i, res.Polytope)
		}
		pr := newPair(&p[0], &p[1])
		if i < witnessesOutside && (inside(pr.a, &pr.ta, res.Q, 1e-9) || inside(pr.b, &pr.tb, res.P, 1e-9)) {
			t.Errorf("deep pair %d: a witness point lies inside the other body; the test no longer covers its case", i)
		}
	}
}

// checkSeparatedAnswer checks a separated answer from both sides against
// ref, an upper bound of the true distance from sampled surface points:
// the solver's local witness points lie on the surfaces and map to P and Q
// (then |Q − P|, which must be the distance, is at least the true
// minimum), the distance is at most ref, and both normals are opposite and
// along Q − P: to 1e-6 rad, or, nearly touching, to 1e-9 of the smaller
// body's smallest semi-axis as the offset of Q from P's normal line (the
// equations' length rows; a parametric answer 6.6e-5 apart was 3e-10 off,
// 4.5e-6 rad: TestWideTaperedSeparatedPairs' pair 123 under
// SOVVIZ_SWEEP_SEED=21). The normals are the surfaces'
// at the points, except on an answer GJK proved (dual), whose normal is the
// separating direction, in the normal cones at its points (a point 0.017
// from a box-like shape's pointy equatorial ridge, e 1.87 and 0.23, had
// its gradient 6e-3 rad from it, its distance right to 4e-12: the same
// test's pair 103): there each point's distance to the other
// body (PointDistance) must be the answer's, as at any closest pair. It
// reports whether the answer converged with a positive distance (the
// other checks need one).
func checkSeparatedAnswer(t *testing.T, a, b *geom.Body, res *Result, ref float64, tag string) bool {
	t.Helper()
	if !(ref >= 0) || math.IsInf(ref, 0) {
		t.Fatalf("%s: the reference found no distance (%v)", tag, ref)
	}
	if res.Status != Converged || !(res.Distance > 0) {
		t.Errorf("%s: %v, distance %.12g", tag, res.Status, res.Distance)
		return false
	}
	ta, tb := a.Pose.Transform(), b.Pose.Transform()
	// (The solver's own local points: near a pointy tip the normal turns so
	// fast that the rounding of a world-to-local round trip moves it by
	// 1e-5.)
	if ta.Point(res.LocalP).Sub(res.P).Len() > 1e-12 || tb.Point(res.LocalQ).Sub(res.Q).Len() > 1e-12 {
		t.Errorf("%s: local points %v, %v are not P, Q", tag, res.LocalP, res.LocalQ)
	}
	fa, okA := a.Shape.Residual(res.LocalP)
	fb, okB := b.Shape.Residual(res.LocalQ)
	if !okA || !okB || math.Abs(fa) > 1e-9 || math.Abs(fb) > 1e-9 {
		t.Errorf("%s: witness points off the surfaces (residuals %.3g, %.3g)", tag, fa, fb)
	}
	d := res.Q.Sub(res.P)
	if math.Abs(d.Len()-res.Distance) > 1e-12 {
		t.Errorf("%s: |Q − P| %.15g, distance %.15g", tag, d.Len(), res.Distance)
	}
	if res.Distance > ref+1e-9 {
		t.Errorf("%s: distance %.12f, a sampled pair is at %.12f", tag, res.Distance, ref)
	}
	u := d.Mul(1 / d.Len())
	L := min(minAxis(&a.Shape), minAxis(&b.Shape))
	off := d.Sub(res.Normal.Mul(d.Dot(res.Normal))).Len()
	na, okN := a.Shape.Normal(res.LocalP)
	nb, okM := b.Shape.Normal(res.LocalQ)
	surfaces := okN && okM && ta.Dir(na).Sub(res.Normal).Len() <= 1e-9 && tb.Dir(nb).Sub(res.NormalQ).Len() <= 1e-9
	if res.dual {
		// (To 1e-9 of the size, the solver's pairTol.)
		tol := 1e-9 * max(maxAxis(&a.Shape), maxAxis(&b.Shape))
		pb, pa := PointDistance(b, res.P), PointDistance(a, res.Q)
		surfaces = math.Abs(pb.Distance-res.Distance) <= tol && math.Abs(pa.Distance-res.Distance) <= tol
	}
	if !surfaces || !(u.Sub(res.Normal).Len() <= 1e-6 || off <= 1e-9*L) || res.NormalQ.Add(res.Normal).Len() > 1e-6 {
		t.Errorf("%s: normals %v, %v (dual %v); surface normals %v, %v; direction of Q − P %v", tag, res.Normal, res.NormalQ, res.dual, ta.Dir(na), tb.Dir(nb), u)
	}
	return true
}

// Separated and nearly touching pairs over the whole range (a in
// [0.3, 2], e1, e2 in [0.1, 1.9], tx, ty in [-0.5, 0.5]: most shapes
// non-convex, some pointy or box-like), every scheme. Dense sampling gives
// an upper bound of the true distance only, so the answer is checked from
// both sides: its witness points lie on the surfaces (then |Q − P|, which
// must be the distance, is at least the true minimum), and the distance is
// at most the sampled one (no sampled pair does better). The normal is the
// surface's at P, and Q − P runs along it, as at any closest pair of smooth
// surfaces (checkSeparatedAnswer). The test logs how often an answer beats
// the sampled distance (none here, none in its 400-pair sweep:
// SOVVIZ_WIDE_SEPARATED_SWEEP=1, 3.5 minutes, which passes; its pair 376
// is TestSaddleEscape's), and how many the solver certified itself.
func TestWideTaperedSeparatedPairs(t *testing.T) {
	r := rand.New(sweepPCG(t, 41, 42))
	n := 24
	if testing.Short() {
		n = 6
	}
	if os.Getenv("SOVVIZ_WIDE_SEPARATED_SWEEP") == "1" {
		n = 400 // the first 24 are the default run's
	}
	beat, nonConvex, certified, maxBeat := 0, 0, 0, 0.0
	for i := 0; i < n; i++ {
		a := geom.Body{Shape: randShapeWide(r), Pose: geom.Pose{Orientation: randQuat(r)}}
		b := geom.Body{Shape: randShapeWide(r), Pose: geom.Pose{Orientation: randQuat(r)}}
		L := math.Min(minAxis(&a.Shape), minAxis(&b.Shape))
		target := L * 1e-4 // every third pair nearly touching
		if i%3 != 0 {
			target = L * (0.01 + r.Float64())
		}
		dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		_, hi := placeBisect(&a, &b, dir, target, L) // (a at the origin)
		b.Pose.Position = dir.Mul(hi)
		opt := DefaultOptions()
		if !a.Shape.Convexity().Convex || !b.Shape.Convexity().Convex {
			nonConvex++
		}
		ref := refMinDistance(&a, &b)
		for _, m := range allMethods {
			opt.Method = m
			res := Query(&a, &b, &opt)
			tag := fmt.Sprintf("pair %d %v (%+v, %+v)", i, m, a.Shape, b.Shape)
			if !checkSeparatedAnswer(t, &a, &b, &res, ref, tag) {
				continue
			}
			if res.Certified {
				certified++
			}
			if res.Distance < ref-1e-9 {
				beat++
				maxBeat = math.Max(maxBeat, ref-res.Distance)
			}
		}
	}
	t.Logf("%d pairs (%d with a non-convex shape); %d of %d answers certified by the solver; %d closer than the sampled pair by more than 1e-9 (by up to %.3g)", n, nonConvex, certified, 3*n, beat, maxBeat)
}

// boxes232 is a pair of box-like, non-convex shapes from a 400-pair sweep
// of the whole range, both bodies shifted by off: every Newton start
// stalls on it (a's flat faces, e1 = 0.137, against b's taper dips).
func boxes232(off geom.Vec3) (a, b geom.Body) {
	a = geom.Body{Shape: geom.Superovoid{A: [3]float64{1.018749084414747, 0.9082445021974619, 0.39404671110351447}, Eps: [2]float64{0.13734469777685915, 1.7824530466883075}, Taper: [2]float64{0.3134115023220312, -0.11249937123720877}},
		Pose: geom.Pose{Position: off, Orientation: geom.Quat{W: -0.08217454693484579, V: geom.Vec3{0.9586343384668585, 0.17784675703644126, -0.20648990280370227}}}}
	b = geom.Body{Shape: geom.Superovoid{A: [3]float64{1.71838612724092, 1.3863310524302328, 0.5714881020939009}, Eps: [2]float64{0.8636054673540208, 0.2792860835168879}, Taper: [2]float64{0.26384979930118146, -0.24634096222914503}},
		Pose: geom.Pose{Position: geom.Vec3{0.280123437068341, 1.9655554098881416, 0.24815146511099093}.Add(off), Orientation: geom.Quat{W: 0.5608058123896376, V: geom.Vec3{0.7645934674933467, 0.05455611909216395, 0.31291740144341756}}}}
	return a, b
}

// TestHullRescue: on boxes232 every start stalls, and the answer came from
// whichever stall was last: at the origin an unconverged pair 1.1e-7 above
// the minimum, shifted by (1, 1, 1) a failure claiming an overlap 0.80
// deep. The hulls' closest pair (GJK) lies on both surfaces there, so the
// answer is now converged and certified wherever the pair is put, and it
// equals the independent reference (refMinDistance: sampling and a
// quasi-Newton polish of the surface points).
func TestHullRescue(t *testing.T) {
	a, b := boxes232(geom.Vec3{})
	ref := refMinDistance(&a, &b)
	for _, off := range []geom.Vec3{{}, {1, 1, 1}, {10, 10, 10}, {100, 100, 100}, {1e4, 1e4, 1e4}, {-3.7, 0.2, 5}} {
		a, b := boxes232(off)
		for _, m := range allMethods {
			opt := DefaultOptions()
			opt.Method = m
			res := Query(&a, &b, &opt)
			tag := fmt.Sprintf("shift %v, %v", off, m)
			if res.Status != Converged || !res.Certified {
				t.Errorf("%s: %v, certified %v, distance %.12f", tag, res.Status, res.Certified, res.Distance)
			}
			checkSeparatedAnswer(t, &a, &b, &res, ref, tag)
			if math.Abs(res.Distance-ref) > 1e-9 {
				t.Errorf("%s: distance %.12f, reference %.12f", tag, res.Distance, ref)
			}
		}
	}
}

// TestCertificateShiftInvariant: moving both bodies by the same vector
// changes nothing but rounding, so the answer's status, certificate and
// distance must not change either. Pairs over the whole range (most
// non-convex), half of them moved to within 1e-3 of touching, every
// scheme, shifted by 1, 100 and 1e4. Before the support test allowed for
// the rounding of its curvature (geom's tangentCurvature: a witness on a
// pointy shape's coordinate plane, where the Hessian is 1e27) 9 of the
// 1,800 shifted answers gained or lost the certificate at the same
// distance, and before the hull rescue boxes232 shifted by 1 failed
// (TestHullRescue). Certified separated answers are also checked against
// the hulls' distance, which they must equal.
func TestCertificateShiftInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 78))
	n := 200
	if testing.Short() {
		n = 40
	}
	certified := 0
	sv := NewSolver(DefaultOptions()) // (for the shapes' analyses)
	for i := 0; i < n; i++ {
		a := geom.Body{Shape: randShapeWide(r), Pose: geom.Pose{Orientation: randQuat(r)}}
		b := geom.Body{Shape: randShapeWide(r), Pose: geom.Pose{Orientation: randQuat(r)}}
		dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		s := 0.4 + 0.8*r.Float64()
		b.Pose.Position = dir.Mul(s * (a.Shape.BoundingRadius() + b.Shape.BoundingRadius()))
		L := math.Max(maxAxis(&a.Shape), maxAxis(&b.Shape))
		opt := DefaultOptions()
		if d0 := Query(&a, &b, &opt).Distance; i%2 == 0 {
			b.Pose.Position = b.Pose.Position.Add(dir.Mul(-d0 + L*1e-3*r.Float64()))
		}
		for _, m := range allMethods {
			opt.Method = m
			r0 := Query(&a, &b, &opt)
			if r0.Status == Failed {
				t.Errorf("pair %d %v: failed (%+v, %+v at %v)", i, m, a.Shape, b.Shape, b.Pose)
			}
			if r0.Certified {
				certified++
				// A certified separated answer is the global minimum, so
				// the hulls' closest pair (GJK on the exact supports,
				// which owes nothing to the common-normal equations or
				// the support-point test) lies on the bodies and meets it.
				if r0.Distance > 0 {
					pr := analysedPair(sv, &a, &b)
					if h, ok := gjkSeparated(&pr); !ok || math.Abs(h.sd-r0.Distance) > 1e-9*L {
						t.Errorf("pair %d %v: certified at %.12f, the hulls %.12f apart (GJK ok %v)", i, m, r0.Distance, h.sd, ok)
					}
				}
			}
			for _, off := range []float64{1, 100, 1e4} {
				a2, b2 := a, b
				o := geom.Vec3{off, -off, off}
				a2.Pose.Position = a.Pose.Position.Add(o)
				b2.Pose.Position = b.Pose.Position.Add(o)
				r1 := Query(&a2, &b2, &opt)
				if r1.Status != r0.Status || r1.Certified != r0.Certified || math.Abs(r1.Distance-r0.Distance) > 1e-9*L {
					t.Errorf("pair %d %v shifted by %g: %v, certified %v, %.12f; at the origin %v, %v, %.12f",
						i, m, off, r1.Status, r1.Certified, r1.Distance, r0.Status, r0.Certified, r0.Distance)
				}
			}
		}
	}
	t.Logf("%d pairs, %d of %d answers certified, the same at every shift", n, certified, 3*n)
}

// randShapeExtreme draws from the whole validated range, half the
// exponents at its ends (0.05–0.12, 1.85–1.95), semi-axes 0.1–3.
func randShapeExtreme(r *rand.Rand) geom.Superovoid {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	ex := func() float64 {
		switch r.IntN(4) {
		case 0:
			return u(0.05, 0.12)
		case 1:
			return u(1.85, 1.95)
		}
		return u(0.05, 1.95)
	}
	return geom.Superovoid{A: [3]float64{u(0.1, 3), u(0.1, 3), u(0.1, 3)}, Eps: [2]float64{ex(), ex()},
		Taper: [2]float64{u(-0.5, 0.5), u(-0.5, 0.5)}}
}

// extremePair draws two randShapeExtreme bodies turned at random, b along a
// random direction at 0.3 to 1.2 times the sum of their bounding radii
// (TestExtremeRangeHonest's pairs).
func extremePair(r *rand.Rand) (a, b geom.Body) {
	a = geom.Body{Shape: randShapeExtreme(r), Pose: geom.Pose{Orientation: randQuat(r)}}
	b = geom.Body{Shape: randShapeExtreme(r), Pose: geom.Pose{Orientation: randQuat(r)}}
	placeApart(r, &a, &b)
	return a, b
}

// placeApart puts b's centre at 0.3 to 1.2 times the sum of both bounding
// radii from a's, along a random direction: without asking the solver,
// pairs separated by up to about a body's size, touching, and overlapping,
// some deeply.
func placeApart(r *rand.Rand, a, b *geom.Body) {
	dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	b.Pose.Position = a.Pose.Position.Add(dir.Mul((0.3 + 0.9*r.Float64()) * (a.Shape.BoundingRadius() + b.Shape.BoundingRadius())))
}

// TestExtremeRangeHonest: pairs of randShapeExtreme at any distance,
// overlapping hulls included (where the hull rescue cannot help). Every
// answer must be finite; every separated one that did not fail a true
// distance between surface points (on the surfaces, |Q − P| its distance);
// every overlapping one a real overlap (a surface sample of one body inside
// the other: overlapSampled). None may fail (3 did before the dent
// search's seed went to the other schemes too); it logs how many ran out
// of iterations (docs/contact.md, "Known limits": 30 of 1,200).
func TestExtremeRangeHonest(t *testing.T) {
	r := rand.New(rand.NewPCG(91, 92))
	n := 400
	if testing.Short() {
		n = 60
	}
	failed, unconverged := 0, 0
	for i := 0; i < n; i++ {
		a, b := extremePair(r)
		L := math.Max(maxAxis(&a.Shape), maxAxis(&b.Shape))
		ta, tb := a.Pose.Transform(), b.Pose.Transform()
		for _, m := range allMethods {
			opt := DefaultOptions()
			opt.Method = m
			res := Query(&a, &b, &opt)
			tag := fmt.Sprintf("pair %d %v (%+v, %+v, b at %v)", i, m, a.Shape, b.Shape, b.Pose)
			// (x − x is 0 for every finite x, NaN otherwise.)
			if z := res.P.Sub(res.P).Add(res.Q.Sub(res.Q)).Add(res.Normal.Sub(res.Normal)).Add(geom.Vec3{res.Distance - res.Distance}); z != (geom.Vec3{}) {
				t.Errorf("%s: not finite: %v, distance %v, P %v, Q %v, normal %v", tag, res.Status, res.Distance, res.P, res.Q, res.Normal)
				continue
			}
			switch res.Status {
			case Failed:
				failed++
				t.Logf("%s: failed (estimate %.6g)", tag, res.Distance)
				continue
			case MaxIterations:
				unconverged++
			}
			if res.Distance <= 0 {
				if !overlapSampled(&a, &b) {
					t.Errorf("%s: %v, overlap %.6g claimed, but no surface sample of either body lies in the other", tag, res.Status, res.Distance)
				}
				continue
			}
			fa, okA := a.Shape.Residual(res.LocalP)
			fb, okB := b.Shape.Residual(res.LocalQ)
			if !okA || !okB || math.Abs(fa) > 1e-9 || math.Abs(fb) > 1e-9 ||
				ta.Point(res.LocalP).Sub(res.P).Len() > 1e-12*L || tb.Point(res.LocalQ).Sub(res.Q).Len() > 1e-12*L ||
				math.Abs(res.Q.Sub(res.P).Len()-res.Distance) > 1e-12*L {
				t.Errorf("%s: %v %.12g, residuals %.3g, %.3g, |Q − P| %.15g", tag, res.Status, res.Distance, fa, fb, res.Q.Sub(res.P).Len())
			}
		}
	}
	if failed > 0 || n == 400 && unconverged > 13 {
		// (The counts of docs/contact.md, "Known limits": more is a
		// regression.)
		t.Errorf("%d failed, %d max_iterations; were 0 and 13", failed, unconverged)
	}
	t.Logf("%d pairs: %d of %d answers failed, %d max_iterations", n, failed, 3*n, unconverged)
}

// TestExtremeRangeAgainstReference: TestExtremeRangeHonest's 400 pairs,
// every separated answer of the default solver against the independent
// reference (dense sampling of both surfaces, then local refinement). An
// answer above the reference by more than 1e-9 missed the minimum; one below
// it is a pair of surface points closer than the sampling found (the
// sampling misses sharp features at these exponents; TestExtremeRangeHonest
// checks such points lie on the surfaces). None misses it: pair 271 did
// (max_iterations, 1.3e-5 above) until the pointy ridges' chart
// (TestCuspPolish), pair 270 until the dent search's seed went to every
// scheme (TestDentSeedAllSchemes). About two minutes,
// so it runs only when SOVVIZ_EXTREME_REF=1 is set:
//
//	SOVVIZ_EXTREME_REF=1 go test -run ExtremeRangeAgainstReference -v ./contact
func TestExtremeRangeAgainstReference(t *testing.T) {
	if os.Getenv("SOVVIZ_EXTREME_REF") != "1" {
		t.Skip("set SOVVIZ_EXTREME_REF=1 to check the extreme range against the reference (about two minutes)")
	}
	r := rand.New(sweepPCG(t, 91, 92))
	sep, above, below := 0, 0, 0
	for i := 0; i < 400; i++ {
		a, b := extremePair(r)
		opt := DefaultOptions()
		res := Query(&a, &b, &opt)
		if !(res.Distance > 0) {
			continue
		}
		sep++
		ref := refMinDistance(&a, &b)
		switch d := res.Distance - ref; {
		case d > 1e-9:
			above++
			if res.Certified {
				t.Errorf("pair %d: certified %.12f, %.3g above the reference %.12f", i, res.Distance, d, ref)
			}
			t.Logf("pair %d: %v %.12f, %.3g above the reference %.12f", i, res.Status, res.Distance, d, ref)
		case d < -1e-9:
			below++
		}
	}
	if above > 0 {
		t.Errorf("%d separated answers above the reference; were 0", above)
	}
	t.Logf("%d separated answers: %d above the reference, %d below it (the sampling's misses)", sep, above, below)
}

// overlapSampled reports whether a surface sample of either body (a
// 200 × 101 parameter grid) lies inside the other: an independent witness
// that the bodies overlap.
func overlapSampled(a, b *geom.Body) bool {
	ta, tb := a.Pose.Transform(), b.Pose.Transform()
	for i := 0; i < 200; i++ {
		for j := 0; j <= 100; j++ {
			p1, p2 := -math.Pi+2*math.Pi*float64(i)/200, -math.Pi/2+math.Pi*float64(j)/100
			if f, ok := b.Shape.Residual(tb.InvPoint(ta.Point(a.Shape.Point(p1, p2)))); ok && f < 0 {
				return true
			}
			if f, ok := a.Shape.Residual(ta.InvPoint(tb.Point(b.Shape.Point(p1, p2)))); ok && f < 0 {
				return true
			}
		}
	}
	return false
}

// hullsApartPair draws two randShapeExtreme bodies, b placed along a
// random direction at 0.6 to 1.2 times the sum of their bounding radii,
// and when near, moves b along the hulls' normal to within 1e-3 of the
// larger semi-axis of touching (translating b along it by δ lowers the
// hulls' distance by exactly δ). It returns the hulls' closest pair (GJK),
// and ok false when the hulls overlap, or, with nonConvex, when both
// shapes are convex (then before drawing anything more).
func hullsApartPair(r *rand.Rand, sv *Solver, near, nonConvex bool) (a, b geom.Body, h candidate, ok bool) {
	a = geom.Body{Shape: randShapeExtreme(r), Pose: geom.Pose{Orientation: randQuat(r)}}
	b = geom.Body{Shape: randShapeExtreme(r), Pose: geom.Pose{Orientation: randQuat(r)}}
	dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	b.Pose.Position = dir.Mul((0.6 + 0.6*r.Float64()) * (a.Shape.BoundingRadius() + b.Shape.BoundingRadius()))
	pr := analysedPair(sv, &a, &b)
	if nonConvex && pr.convex {
		return a, b, h, false
	}
	if h, ok = gjkSeparated(&pr); !ok || !near {
		return a, b, h, ok
	}
	L := math.Max(maxAxis(&a.Shape), maxAxis(&b.Shape))
	b.Pose.Position = b.Pose.Position.Sub(h.nP.Mul(h.sd - 1e-3*L*r.Float64()))
	pr = analysedPair(sv, &a, &b)
	h, ok = gjkSeparated(&pr)
	return a, b, h, ok
}

// TestExtremeRangeSeparatedHulls: shapes from the whole validated range,
// half the exponents at its ends (e down to 0.05 and up to 1.95: box-like
// faces, pointy tips, caved-in sides), semi-axes from 0.1 to 3, placed so
// that their hulls are apart, half of them to within 1e-3 of the larger
// semi-axis. The hulls' distance (GJK on the exact supports) is a lower
// bound of the bodies' that owes nothing to the common-normal equations:
// every answer must be separated, at or above it, with its witness points
// on the surfaces and |Q − P| its distance, and a certified one must meet
// it (certified means no pair is closer, and the hulls' closest pair
// then lies on the bodies). Before the hull rescue, 30 of these 432
// answers ended failed; with it but before surfacePair, 3.
func TestExtremeRangeSeparatedHulls(t *testing.T) {
	r := rand.New(rand.NewPCG(93, 94))
	n := 150
	if testing.Short() {
		n = 30
	}
	sv := NewSolver(DefaultOptions())
	unconverged, certified, answers := 0, 0, 0
	for i := 0; i < n; i++ {
		a, b, h, ok := hullsApartPair(r, sv, i%2 == 0, false)
		if !ok {
			continue
		}
		hd := h.sd
		L := math.Max(maxAxis(&a.Shape), maxAxis(&b.Shape))
		ta, tb := a.Pose.Transform(), b.Pose.Transform()
		for _, m := range allMethods {
			opt := DefaultOptions()
			opt.Method = m
			res := Query(&a, &b, &opt)
			answers++
			tag := fmt.Sprintf("pair %d %v (%+v, %+v, b at %v; hulls %.9g apart)", i, m, a.Shape, b.Shape, b.Pose, hd)
			if res.Status == Failed || !(res.Distance >= hd-1e-9*L) {
				t.Errorf("%s: %v, distance %.12g", tag, res.Status, res.Distance)
				continue
			}
			fa, okA := a.Shape.Residual(res.LocalP)
			fb, okB := b.Shape.Residual(res.LocalQ)
			if !okA || !okB || math.Abs(fa) > 1e-9 || math.Abs(fb) > 1e-9 ||
				ta.Point(res.LocalP).Sub(res.P).Len() > 1e-12*L || tb.Point(res.LocalQ).Sub(res.Q).Len() > 1e-12*L {
				t.Errorf("%s: witness points off the surfaces (residuals %.3g, %.3g)", tag, fa, fb)
			}
			if math.Abs(res.Q.Sub(res.P).Len()-res.Distance) > 1e-12*L {
				t.Errorf("%s: |Q − P| %.15g, distance %.15g", tag, res.Q.Sub(res.P).Len(), res.Distance)
			}
			if res.Certified {
				certified++
				if res.Distance > hd+1e-9*L {
					t.Errorf("%s: certified at %.12g, above the hulls' distance", tag, res.Distance)
				}
			}
			if res.Status != Converged {
				unconverged++
			}
		}
	}
	t.Logf("%d answers: %d certified, %d not converged (upper bounds from surface points)", answers, certified, unconverged)
}

// TestSaddleEscape: pair 376 of TestWideTaperedSeparatedPairs' 400-pair
// sweep (SOVVIZ_WIDE_SEPARATED_SWEEP=1; b pointy, e 1.90 and 1.84, tapered
// by 0.47, with a dip). Every start converged to a common-normal pair
// 0.2148806 apart that is a saddle of the distance between surface
// points; walking off it leads to a local minimum 0.2139135 apart, and
// the global one, 0.2121699, lies in another basin, reached from the
// hulls' closest pair (hullDescent). The answer must be a local minimum,
// which dense sampling of surface pairs around its witnesses checks (the
// parameters of each point ±0.1 rad, 21 × 21 each: none closer), and the
// independent reference's distance.
func TestSaddleEscape(t *testing.T) {
	a, b := pair376()
	ta, tb := a.Pose.Transform(), b.Pose.Transform()
	ref := refMinDistance(&a, &b)
	const saddle = 0.2148806
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		res := Query(&a, &b, &opt)
		if res.Status != Converged || !(res.Distance < saddle-1e-4) {
			t.Errorf("%v: %v, distance %.12f (the saddle is at %.7f)", m, res.Status, res.Distance, saddle)
			continue
		}
		// Surface samples around each witness, in world coordinates.
		around := func(s *geom.Superovoid, tr *geom.Transform, lp geom.Vec3) []geom.Vec3 {
			p1, p2 := s.Params(lp)
			var pts []geom.Vec3
			for i := -10; i <= 10; i++ {
				for j := -10; j <= 10; j++ {
					pts = append(pts, tr.Point(s.Point(p1+0.01*float64(i), p2+0.01*float64(j))))
				}
			}
			return pts
		}
		pa, pb := around(&a.Shape, &ta, res.LocalP), around(&b.Shape, &tb, res.LocalQ)
		closest := math.Inf(1)
		for _, p := range pa {
			for _, q := range pb {
				closest = math.Min(closest, q.Sub(p).Len())
			}
		}
		if closest < res.Distance-1e-9 {
			t.Errorf("%v: distance %.12f, but a sampled pair nearby is %.12f apart: not a local minimum", m, res.Distance, closest)
		}
		if checkSeparatedAnswer(t, &a, &b, &res, ref, m.String()) && math.Abs(res.Distance-ref) > 1e-9 {
			t.Errorf("%v: distance %.12f, the reference's %.12f", m, res.Distance, ref)
		}
		t.Logf("%v: %.12f, sampled around it %.12f, reference %.12f", m, res.Distance, closest, ref)
	}
}

// TestHullDescentStandIn: a needle with a diamond section (semi-axes
// 0.018, 0.0079, 0.79; e 0.22, 1.90) 3.69 from a thin box-like plate (0.30
// by 12.3 by 10.8; e 0.62, 0.12), both tapered, far outside the tested
// range of semi-axes (a scratch run of 10,000 such pairs through sovviz
// query, 2026-12-07). Every start stalled and every scheme answered
// 3.690196, max_iterations, 1.7e-3 farther than the reference's search;
// the walk from the hulls' closest pair (hullDescent) ends 3.688485, but
// no Newton run from it converges. The walk's pair is now the answer.
// Every scheme's answer must be a true distance of two surface points,
// each outside the other body, no farther than the reference's search
// (refMinDistance, an upper bound) and no closer than the hulls
// (refSignedDistanceN, a lower bound).
func TestHullDescentStandIn(t *testing.T) {
	a := refuteBody([3]float64{0.2984797401182085, 12.257051623629934, 10.819112398680039}, [2]float64{0.6194496636367776, 0.12194392490628737}, [2]float64{-0.2820745741834547, 0.33951927869929244}, [3]float64{0.010739108942939658, -0.06580054148391785, 78.53073260226266}, [4]float64{0.3363007140627869, -0.7399497788638174, 0.5823760264977309, -0.014639612049559247})
	b := refuteBody([3]float64{0.018028765272276644, 0.007933496232571372, 0.7926679449453334}, [2]float64{0.2247007502393935, 1.9021033378000443}, [2]float64{-0.29260486632018246, -0.47562536097464114}, [3]float64{10.493162859225071, 6.996275015989282, 83.50774618849428}, [4]float64{0.40566762151051144, 0.3886605876977245, 0.797261253579287, -0.2207967888571929})
	ref := refMinDistance(&a, &b)
	hull, _ := refSignedDistanceN(&a, &b, 600, 12)
	if !(hull > 0) || !(ref >= hull) {
		t.Fatalf("the references: hulls %.12f apart, surface points %.12f", hull, ref)
	}
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		r := Query(&a, &b, &opt)
		if r.Status == Failed || !(r.Distance <= ref+1e-9) || r.Distance < hull-1e-9 {
			t.Errorf("%v: %v %.12f, want at most the reference's %.12f and at least the hulls' %.12f", m, r.Status, r.Distance, ref, hull)
			continue
		}
		checkSurfacePoints(t, m.String(), &a, &b, &r)
	}
}

// TestHullRescueForced runs the hull rescue as if every start had stalled,
// on pairs with a non-convex shape whose hulls are apart (half of them
// within 1e-3 of touching): Newton from the hulls' pair and the hulls'
// pair itself are taken here (the surface-point bound is taken in
// TestExtremeRangeSeparatedHulls, where every start did stall). Whatever it
// returns must be a separated pair at or above the hulls' distance, with
// its points on (or, for the hulls' own pair, in) the bodies, and when it
// is certified, at the hulls' distance.
func TestHullRescueForced(t *testing.T) {
	r := rand.New(rand.NewPCG(95, 96))
	n := 150
	if testing.Short() {
		n = 30
	}
	sv := NewSolver(DefaultOptions())
	counts := map[string]int{}
	for i := 0; i < n; i++ {
		a, b, h, ok := hullsApartPair(r, sv, i%2 == 0, true)
		if !ok {
			continue
		}
		L := math.Max(maxAxis(&a.Shape), maxAxis(&b.Shape))
		pr := analysedPair(sv, &a, &b)
		m := allMethods[i%3]
		var best candidate
		var res Result
		sv.hullRescue(m, &pr, &best, &res)
		tag := fmt.Sprintf("pair %d %v (%+v, %+v, b at %v; hulls %.9g apart)", i, m, a.Shape, b.Shape, b.Pose, h.sd)
		if !best.valid || !best.separated || !(best.sd >= h.sd-1e-9*L) {
			t.Errorf("%s: valid %v, separated %v, distance %.12g", tag, best.valid, best.separated, best.sd)
			continue
		}
		fa, okA := a.Shape.Residual(best.lp)
		fb, okB := b.Shape.Residual(best.lq)
		lim := 1e-9
		if best.dual {
			counts["the hulls' pair"]++
			if !okA || !okB || fa > certTol || fb > certTol {
				t.Errorf("%s: the hulls' pair outside the bodies (residuals %.3g, %.3g)", tag, fa, fb)
			}
		} else {
			if best.converged {
				counts["Newton"]++
			} else {
				counts["surface bound"]++
			}
			if !okA || !okB || math.Abs(fa) > lim || math.Abs(fb) > lim {
				t.Errorf("%s: witness points off the surfaces (residuals %.3g, %.3g)", tag, fa, fb)
			}
		}
		if d := pr.tb.Point(best.lq).Sub(pr.ta.Point(best.lp)).Len(); math.Abs(d-best.sd) > 1e-12*L {
			t.Errorf("%s: |Q − P| %.15g, distance %.15g", tag, d, best.sd)
		}
		if hullCertified(&pr, &best) {
			counts["certified"]++
			if best.sd > h.sd+1e-9*L {
				t.Errorf("%s: certified at %.12g, above the hulls' distance", tag, best.sd)
			}
		}
	}
	if !testing.Short() && (counts["Newton"] == 0 || counts["the hulls' pair"] == 0) {
		t.Errorf("answers by kind %v: a way out was never taken", counts)
	}
	t.Logf("answers by kind: %v", counts)
}

// TestEscapeOnce: one round of the saddle escape alone, from the saddle
// of TestSaddleEscape (the first start's converged pair), must reach the
// local minimum 0.2139135 of its way down, and find no saddle there (a
// review found TestSaddleEscape passing with the escape broken: the hull
// descent alone reaches the global minimum).
func TestEscapeOnce(t *testing.T) {
	a, b := pair376()
	for _, m := range allMethods {
		sv := NewSolver(DefaultOptions())
		pr := analysedPair(sv, &a, &b)
		var res Result
		x0, _ := sv.coldGuess(m, &pr, &res)
		c := sv.solveFrom(m, &pr, x0, &res, sv.opt.MaxIter)
		if !c.valid || !c.converged || !c.separated || math.Abs(c.sd-0.2148806384) > 1e-9 {
			t.Fatalf("%v: the first start gave valid %v, converged %v, %.12f, not the saddle", m, c.valid, c.converged, c.sd)
		}
		moved, saddle := sv.escapeOnce(m, &pr, &c, &res)
		if !moved || !saddle || math.Abs(c.sd-0.2139134988) > 1e-9 {
			t.Errorf("%v: moved %v, saddle %v, %.12f; want the local minimum 0.2139134988", m, moved, saddle, c.sd)
		}
		if moved, saddle = sv.escapeOnce(m, &pr, &c, &res); moved || saddle {
			t.Errorf("%v: at %.12f moved %v, saddle %v; want a local minimum", m, c.sd, moved, saddle)
		}
	}
}

// TestSaddleRidgeRounding: a true minimum whose witness P lies on a
// coordinate plane of a pointy shape (e2 1.82, z ≈ −2.6e-20), where the
// second fundamental form reaches 3e16 and the saddle test's smallest
// eigenvalue is rounding noise (−0.58 before the test allowed for it: a
// review's sweep, which then paid the escape walk and GJK for nothing).
// The test must not call it a saddle, and the answer is the reference's.
func TestSaddleRidgeRounding(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.9038580781567682, 1.6947922456450442, 0.3805961181454193}, Eps: [2]float64{1.2576718738372816, 1.8223756134964457}, Taper: [2]float64{0.2284270037552819, -0.2237717579007662}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.4075939906994501, V: geom.Vec3{-0.0718580855123322, 0.18437681485590665, 0.8914643820342962}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.8661472712790601, 1.5139938288259234, 1.288038437579808}, Eps: [2]float64{0.19269186210780825, 1.5904145971478993}, Taper: [2]float64{-0.3914051071066995, 0.38678379691828535}},
		Pose: geom.Pose{Position: geom.Vec3{-2.3599547775708833, 2.121931148175226, -2.490548117484953}, Orientation: geom.Quat{W: -0.6925526010428862, V: geom.Vec3{-0.12458990379955232, -0.653647256354704, 0.2785561252600973}}}}
	ref := refMinDistance(&a, &b)
	sv := NewSolver(DefaultOptions())
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		res := Query(&a, &b, &opt)
		if checkSeparatedAnswer(t, &a, &b, &res, ref, m.String()) && math.Abs(res.Distance-ref) > 1e-9 {
			t.Errorf("%v: distance %.12f, the reference's %.12f", m, res.Distance, ref)
		}
		pr := analysedPair(sv, &a, &b)
		c := candidate{valid: true, separated: true, converged: true, method: m, sd: res.Distance,
			lp: res.LocalP, lq: res.LocalQ, nP: res.Normal, nQ: res.NormalQ}
		var r Result
		if moved, saddle := sv.escapeOnce(m, &pr, &c, &r); moved || saddle {
			t.Errorf("%v: the minimum at %.12f (P local %v) taken for a saddle (moved %v)", m, res.Distance, res.LocalP, moved)
		}
	}
}

// pair376 is pair 376 of TestWideTaperedSeparatedPairs' 400-pair sweep,
// placed as the solver before the saddle escape placed it.
func pair376() (a, b geom.Body) {
	a = geom.Body{Shape: geom.Superovoid{A: [3]float64{0.4992234150321108, 0.46560999559354155, 1.4506759198030308}, Eps: [2]float64{1.2554570824921416, 1.7096812092714246}, Taper: [2]float64{0.46012580198255104, 0.08868612945346588}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.9117384758124772, V: geom.Vec3{0.2844684767888446, 0.13172743494441444, -0.2654402386970378}}}}
	b = geom.Body{Shape: geom.Superovoid{A: [3]float64{0.4168083585694182, 0.5432111207903072, 0.7236920641335548}, Eps: [2]float64{1.8972484210730527, 1.8393127670804061}, Taper: [2]float64{0.47268383718722795, -0.29926528348915793}},
		Pose: geom.Pose{Position: geom.Vec3{-0.6402261627593494, 0.7897456605979158, 0.05618309666723099}, Orientation: geom.Quat{W: -0.16751351863783012, V: geom.Vec3{0.8606810202237202, -0.3198260075911988, -0.3589968347611216}}}}
	return a, b
}

// TestUnconvergedAnswerOnSurfaces: an unconverged separated answer's
// witness points are moved onto the surfaces, so its distance is a true
// distance between the bodies' points, never below the minimum (Newton's
// last iterate on boxes232, before TestHullRescue, had q 3.7e-5 off b's
// surface and the distance 2.8e-5 below the true one). The iterate is
// made here: the converged pair with each point pushed off its surface,
// outwards (towards the other body) and inwards, by up to 1e-4 of its
// radius, and finish must bring it back.
func TestUnconvergedAnswerOnSurfaces(t *testing.T) {
	a, b := boxes232(geom.Vec3{})
	ref := refMinDistance(&a, &b)
	sv := NewSolver(DefaultOptions())
	conv := sv.Query(&a, &b)
	ta, tb := a.Pose.Transform(), b.Pose.Transform()
	for _, sc := range [][2]float64{{1 + 1e-4, 1 + 3.7e-5}, {1 - 1e-4, 1 + 1e-5}, {1, 1 - 1e-4}, {1 + 2e-5, 1 - 2e-5}} {
		pr := analysedPair(sv, &a, &b)
		lp, lq := conv.LocalP.Mul(sc[0]), conv.LocalQ.Mul(sc[1])
		c := candidate{valid: true, separated: true, method: Implicit, lp: lp, lq: lq,
			P: ta.Point(lp), Q: tb.Point(lq), nP: conv.Normal, nQ: conv.NormalQ}
		c.sd = c.Q.Sub(c.P).Len()
		iterate := c.sd
		var res Result
		sv.finish(&pr, &c, false, &res)
		fa, okA := a.Shape.Residual(res.LocalP)
		fb, okB := b.Shape.Residual(res.LocalQ)
		d := res.Q.Sub(res.P)
		if !okA || !okB || math.Abs(fa) > 1e-12 || math.Abs(fb) > 1e-12 ||
			ta.Point(res.LocalP).Sub(res.P).Len() > 1e-12 || tb.Point(res.LocalQ).Sub(res.Q).Len() > 1e-12 {
			t.Errorf("scaled %v: witness points off the surfaces (residuals %.3g, %.3g)", sc, fa, fb)
		}
		if math.Abs(d.Len()-res.Distance) > 1e-12 || res.Distance < ref-1e-12 || res.Distance > ref+1e-4 {
			t.Errorf("scaled %v: distance %.12f (iterate's %.12f), |Q − P| %.12f, sampled %.12f", sc, res.Distance, iterate, d.Len(), ref)
		}
		// Q − P = distance · normal, as for every answer (an unconverged
		// one's surface normals are not quite along Q − P).
		if u := d.Mul(1 / d.Len()); u.Sub(res.Normal).Len() > 1e-12 || res.NormalQ.Add(res.Normal).Len() > 1e-12 {
			t.Errorf("scaled %v: normals %v, %v; direction of Q − P %v", sc, res.Normal, res.NormalQ, u)
		}
		t.Logf("scaled %v: iterate %.12f, answer %.12f (sampled %.12f)", sc, iterate, res.Distance, ref)
	}
}

// TestRadialToSurface: from points near the surface (1e-3 of the radius
// off, inside and outside), the radial projection settles on the surface,
// on the same ray, over the whole range and at its hardest end: box-like
// profiles (e2 down to 0.05) under the strongest taper, where the plain
// step x/(1+F) alternates and stalls.
func TestRadialToSurface(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 7))
	for k := 0; k < 3000; k++ {
		s := randShapeWide(r)
		if k%2 == 0 {
			s.Eps[1] = 0.05 + 0.1*r.Float64()
			s.Taper = [2]float64{0.5 * float64(1-2*r.IntN(2)), 0.5 * float64(1-2*r.IntN(2))}
		}
		on := s.Point(-math.Pi+2*math.Pi*r.Float64(), -math.Pi/2+math.Pi*r.Float64())
		x := on.Mul(1 + 1e-3*(2*r.Float64()-1))
		got, ok := radialToSurface(&s, x)
		f, okF := s.Residual(got)
		if !ok || !okF || math.Abs(f) > 1e-13 || got.Normalize().Sub(x.Normalize()).Len() > 1e-12 {
			t.Fatalf("%+v from %v: %v (settled %v), residual %.3g", s, x, got, ok, f)
		}
	}
}

// TestUnconvergedComparedOnSurfaces: unconverged separated iterates are
// compared on the distances finish answers for them, between points of the
// surfaces, not on their own (review finding 5 of 2026-11-24). This matters
// when every start stalls, as on boxes232 before the hull rescue: two
// stalled iterates, each off the surfaces, are made here from its converged
// pair. u: Q slid 2e-3 along b's surface, then both points pushed out of
// their bodies until the iterate reads 3e-5 below the minimum (on the
// surfaces it is 9e-5 above it). w: the converged points pushed into their
// bodies until it reads 1e-5 above the minimum (on the surfaces it is the
// minimum). Each is classified with the residuals of the implicit system at
// its points (so no slack: too far from stationary) and, so that classify
// takes it for a common-normal pair, normals along its Q − P. Compared on
// the iterates' distances u won and the query answered the worse pair.
func TestUnconvergedComparedOnSurfaces(t *testing.T) {
	a, b := boxes232(geom.Vec3{})
	ref := refMinDistance(&a, &b)
	sv := NewSolver(DefaultOptions())
	conv := sv.Query(&a, &b)
	if conv.Status != Converged || math.Abs(conv.Distance-ref) > 1e-9 {
		t.Fatalf("converged answer %v %.12f, reference %.12f", conv.Status, conv.Distance, ref)
	}
	pr := analysedPair(sv, &a, &b)
	ta, tb := a.Pose.Transform(), b.Pose.Transform()
	// push returns the first common factor 1 + k·step (k = 1..1000) by which
	// scaling both local points brings their distance to the target's side.
	push := func(lp, lq geom.Vec3, step, target float64) float64 {
		for k := 1; k <= 1000; k++ {
			s := 1 + step*float64(k)
			d := tb.Point(lq.Mul(s)).Sub(ta.Point(lp.Mul(s))).Len()
			if (step > 0 && d < target) || (step < 0 && d > target) {
				return s
			}
		}
		t.Fatalf("no push factor for %.12f", target)
		return 1
	}
	iterate := func(lp, lq geom.Vec3) (c candidate, own, answered float64) {
		x := [6]float64{lp[0], lp[1], lp[2], lq[0], lq[1], lq[2]}
		var sys system
		if !sys.eval(Implicit, &pr, &x, false) {
			t.Fatal("iterate outside the domain")
		}
		d := tb.Point(lq).Sub(ta.Point(lp))
		u := d.Normalize()
		o := newtonOutcome{x: x, n: 6, phi: sys.phi, localP: lp, localQ: lq,
			na: ta.InvDir(u), nb: tb.InvDir(u.Mul(-1)), haveNormals: true}
		c = sv.classify(Implicit, &pr, &o)
		if !c.valid || !c.separated || c.converged || c.slack != 0 {
			t.Fatalf("iterate classified valid %v separated %v converged %v slack %g", c.valid, c.separated, c.converged, c.slack)
		}
		// The distance compared is the one finish answers: between surface
		// points, never below the minimum.
		var res Result
		fc := c
		sv.finish(&pr, &fc, false, &res)
		if c.cmpSD() != res.Distance || res.Distance < ref-1e-10 {
			t.Errorf("iterate compared on %.12f, answered %.12f; minimum %.12f (iterate's own %.12f)", c.cmpSD(), res.Distance, ref, d.Len())
		}
		return c, d.Len(), res.Distance
	}
	lqs, ok := radialToSurface(&b.Shape, conv.LocalQ.Add(tb.InvDir(conv.TangentQ).Mul(2e-3)))
	if !ok {
		t.Fatal("slid point did not settle")
	}
	s := push(conv.LocalP, lqs, 1e-6, ref-3e-5)
	u, du, au := iterate(conv.LocalP.Mul(s), lqs.Mul(s))
	s = push(conv.LocalP, conv.LocalQ, -1e-6, ref+1e-5)
	w, dw, aw := iterate(conv.LocalP.Mul(s), conv.LocalQ.Mul(s))
	if !(du < dw && au > aw+1e-5) {
		t.Fatalf("the iterates do not make the case: u %.12f (answered %.12f), w %.12f (answered %.12f)", du, au, dw, aw)
	}
	if better(&u, &w) || !better(&w, &u) {
		t.Errorf("u (iterate %.12f, answered %.12f) beat w (iterate %.12f, answered %.12f)", du, au, dw, aw)
	}
	t.Logf("minimum %.12f; u: iterate %.12f, answered %.12f; w: iterate %.12f, answered %.12f", ref, du, au, dw, aw)
}

// TestPolytopePairOtherSchemes: when every start has failed on an
// overlapping pair and the polytope answers, Newton from the polytope's
// pair runs in the other schemes too. On this pair of TestExtremeRangeHonest
// (pair 283: a box-like face, e2 0.11, against a pointy shape, e 1.84 and
// 1.94) the implicit scheme stopped at once from the polytope's pair and
// answered the polytope's translation, 1.11879 deep, max_iterations; the
// parametric scheme converges from it to a pair 1.11751 deep, which the
// default solver now answers too.
func TestPolytopePairOtherSchemes(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{2.6261710996548233, 2.3157796069117813, 1.7594158502192319}, Eps: [2]float64{1.888280027603524, 0.11056625624973138}, Taper: [2]float64{0.2770956325326438, 0.22078588484886708}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.030002875857135604, V: geom.Vec3{-0.026207124389656444, 0.19315537164704533, -0.980359126277416}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{2.716184625463788, 1.7573577657548, 2.7338247281516916}, Eps: [2]float64{1.841874635310928, 1.943816234426979}, Taper: [2]float64{-0.22274211179884884, 0.08752976587250705}},
		Pose: geom.Pose{Position: geom.Vec3{-0.08415690497209496, -1.2359156779159062, -2.3935393798924625}, Orientation: geom.Quat{W: -0.005347394384158464, V: geom.Vec3{-0.2872097198125951, -0.9530767122875311, -0.09553409189216994}}}}
	sv := NewSolver(DefaultOptions())
	pr := analysedPair(sv, &a, &b)
	var e epa
	bd, ok := e.run(&pr, pairTol(&pr), math.Inf(1))
	if !ok {
		t.Fatal("polytope failed")
	}
	if !overlapSampled(&a, &b) {
		t.Fatal("no surface sample of either body lies in the other")
	}
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		res := Query(&a, &b, &opt)
		// Converged, and no deeper than the polytope's translation, which
		// separates the hulls and so the bodies.
		if res.Status != Converged || !(res.Distance < 0) || -res.Distance > bd.upper+1e-9 {
			t.Errorf("%v: %v %.12f; polytope's translation %.12f", m, res.Status, res.Distance, bd.upper)
		}
		// A true common-normal pair: points on the surfaces, Q − P along
		// a's normal.
		fa, _ := a.Shape.Residual(res.LocalP)
		fb, _ := b.Shape.Residual(res.LocalQ)
		d := res.Q.Sub(res.P)
		if math.Abs(fa) > 1e-9 || math.Abs(fb) > 1e-9 || math.Abs(math.Abs(d.Dot(res.Normal))-d.Len()) > 1e-9 || math.Abs(d.Len()+res.Distance) > 1e-9 {
			t.Errorf("%v: residuals %.3g %.3g, |Q − P| %.12f, along the normal %.12f", m, fa, fb, d.Len(), d.Dot(res.Normal))
		}
		t.Logf("%v: %v %.12f (polytope %.12f–%.12f)", m, res.Status, res.Distance, bd.lower, bd.upper)
	}
}

// TestCavedLocalMinimum: on a pair with a caved-in shape (pair 308 of
// TestExtremeRangeHonest: a pointy profile, e 1.95 and 0.16, tapered by
// −0.45, hull gap 0.17 of its 2.33 semi-axis) every start ended in a local
// minimum 4.93080 apart, answered converged and uncertified; the descent
// from the hulls' closest pair, which caved shapes now get as saddles do,
// reaches the reference's 4.88999 in every scheme.
func TestCavedLocalMinimum(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{2.3294286848871537, 1.3664170250233958, 0.18352828322800652}, Eps: [2]float64{1.9462819902510353, 0.1594607775839848}, Taper: [2]float64{-0.4534301230546779, 0.09090652757340056}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.7198613387897904, V: geom.Vec3{-0.512181460639454, -0.23625668450938972, 0.40453996504379736}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.4618831547112165, 0.5478227108326634, 1.8009906989165758}, Eps: [2]float64{1.8560729069097153, 1.2020934458497712}, Taper: [2]float64{0.00197593074364677, -0.026655174489244482}},
		Pose: geom.Pose{Position: geom.Vec3{5.163940463247086, -4.431233893649253, 1.7512741839278483}, Orientation: geom.Quat{W: 0.20417424587809702, V: geom.Vec3{-0.6109579979465702, -0.7139111540076557, -0.27454337771777776}}}}
	atReferenceInEveryScheme(t, &a, &b, refMinDistance(&a, &b), false)
}

// TestDentSeedAllSchemes: pair 270 of TestExtremeRangeHonest (a pointy
// caved shape, e 1.86 and 1.94 tapered by 0.48, hull gap 0.19, against a
// box-like one). From the dent search's seed the implicit scheme converged
// to a local minimum 2.88307 apart and answered it, uncertified, while the
// parametric schemes converge from the same seed to the reference's
// 2.83976; while no pair is proven, every scheme's pair from that seed now
// competes, and each scheme answers the closest.
func TestDentSeedAllSchemes(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{2.1645204264289504, 2.220938383734858, 1.318196793534401}, Eps: [2]float64{1.8281784276372586, 0.22457334186758388}, Taper: [2]float64{0.1874487311612032, 0.05684250676582259}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.5798946460203362, V: geom.Vec3{0.7535896357007765, 0.30807676653477795, -0.03022526100459771}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{2.6861197844186187, 2.3571172739280413, 2.52507423899825}, Eps: [2]float64{1.8648112577661697, 1.9387903928517518}, Taper: [2]float64{0.4833451952176865, -0.12212252316245586}},
		Pose: geom.Pose{Position: geom.Vec3{5.959300700004054, -2.2264778965925247, 0.26070489479387193}, Orientation: geom.Quat{W: -0.32786032472553406, V: geom.Vec3{-0.3879601534034714, -0.09979135173984097, -0.8555911482477817}}}}
	ref := refMinDistance(&a, &b)
	if math.Abs(ref-2.839759003947) > 1e-9 {
		t.Fatalf("reference %.12f: the pair is not the one this test was written for", ref)
	}
	atReferenceInEveryScheme(t, &a, &b, ref, false)
}

// TestRelativeDampingFloor: pair 107 of TestExtremeRangeHonest, inside the
// issue's range (e 0.36–1.89; b is a thin plate, e2 0.11). Levenberg–
// Marquardt's damping was dropped only below an absolute 1e-12, which
// against the plate's large Hessians took dozens of accepted steps: every
// scheme crawled to max_iterations 0.446305734338 apart. Dropped at 1e-8
// of where it started, the same pair converges and is certified in every
// scheme (and 8 of that test's 38 max_iterations answers converge).
func TestRelativeDampingFloor(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{2.629455368067698, 1.683830772120192, 1.169744760755863}, Eps: [2]float64{0.35722392853534585, 1.0592957527108544}, Taper: [2]float64{0.40397829241010286, -0.08916915803225489}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.33005270399244957, V: geom.Vec3{-0.23986918959384088, 0.23018155129005952, 0.8834842601408177}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{2.8076888858505837, 0.16288463544056925, 2.8689090620146356}, Eps: [2]float64{1.8849033729609006, 0.11013114287053342}, Taper: [2]float64{0.13222482251614465, 0.33382100731017983}},
		Pose: geom.Pose{Position: geom.Vec3{-1.6898142627618649, 2.9577167798598003, 1.8075745779243648}, Orientation: geom.Quat{W: 0.05512294552414907, V: geom.Vec3{0.3328160136113403, 0.797264343870455, 0.5005642096209145}}}}
	atReferenceInEveryScheme(t, &a, &b, refMinDistance(&a, &b), true)
}

// atReferenceInEveryScheme checks that the default solver in every scheme
// answers a and b converged within 1e-9 of the reference distance ref (and
// certified, with certified).
func atReferenceInEveryScheme(t *testing.T, a, b *geom.Body, ref float64, certified bool) {
	t.Helper()
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		res := Query(a, b, &opt)
		if res.Status != Converged || certified && !res.Certified || math.Abs(res.Distance-ref) > 1e-9 {
			t.Errorf("%v: %v certified %v %.12f, reference %.12f", m, res.Status, res.Certified, res.Distance, ref)
		}
	}
}

// TestWidePlacedPairs: pairs over the whole range (randShapeWide:
// a in [0.3, 2], e1, e2 in [0.1, 1.9], tx, ty in [-0.5, 0.5]; random
// orientations), b placed without asking the solver: its centre at 0.3 to
// 1.2 times the sum of the bounding radii, along a random direction, so
// that a third of the pairs overlap, some deeply, and the others are
// separated by anything up to about a body's size. (TestWideSweep places
// b by bisection on the solver's own distance, which finds the solver's
// jumps but only near touching.) Every answer is checked independently
// of the common-normal equations:
//   - no query fails, and every number is finite;
//   - a separated answer the solver did not certify, and every tenth
//     certified one, against dense sampling of both surfaces
//     (refMinDistance, checkSeparatedAnswer: on the surfaces, |Q − P| the
//     distance, no sampled pair closer, normals the surfaces');
//   - an overlapping answer along its own normal, as in
//     TestExtremeRangeOverlapAlongNormal: b moved by 1.01 and 1.1 times the
//     depth must be apart from a, by at most 0.01 and 0.1 times the depth
//     when the answer converged; an answer deeper than 0.3 of the smaller
//     semi-axis that says it is too shallow (Result.StillOverlapping) may
//     still overlap when dense samples confirm it, in at most 1 + n/2000
//     moved configurations (with SOVVIZ_SWEEP_SEED=13, pair 3837, 1.8
//     times a's smallest semi-axis deep, failed this until the move-out
//     check).
//
// The default run takes 60 pairs; SOVVIZ_WIDE_PLACED_SWEEP=1 takes 6,000
// (about 6 minutes), which pass (2026-11-25): 4,554 separated, 379 of them
// not certified, 797 checked against the reference; 1,446 overlapping, 2
// of them (depths 0.82 and 1.21, beyond the battery's 30% of the smallest
// semi-axis) max_iterations; none failed.
//
//	SOVVIZ_WIDE_PLACED_SWEEP=1 go test -run WidePlacedPairs -v ./contact
func TestWidePlacedPairs(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 15
	}
	if os.Getenv("SOVVIZ_WIDE_PLACED_SWEEP") == "1" {
		n = 6000 // the first 60 are the default run's
	}
	r := rand.New(sweepPCG(t, 7, 77))
	opt := DefaultOptions()
	var sep, uncertified, refChecked, ovl, unconverged, flagged int
	for i := 0; i < n; i++ {
		a, b := placedPair(r, 0.1, 1.9, 0.1, 1.9)
		res := Query(&a, &b, &opt)
		tag := fmt.Sprintf("pair %d (%+v, %+v)", i, a, b)
		if res.Status == Failed || !finiteResult(&res) {
			t.Errorf("%s: %v, distance %v", tag, res.Status, res.Distance)
			continue
		}
		if res.Status != Converged {
			unconverged++
			t.Logf("%s: %v, distance %.9f", tag, res.Status, res.Distance)
		}
		if res.Distance > 0 {
			sep++
			if !res.Certified {
				uncertified++
			}
			if !res.Certified || sep%10 == 0 {
				refChecked++
				checkSeparatedAnswer(t, &a, &b, &res, refMinDistance(&a, &b), tag)
			}
			continue
		}
		ovl++
		flagged += checkMovedOut(t, tag, &a, &b, &res, &opt, 0.3*min(minAxis(&a.Shape), minAxis(&b.Shape)))
	}
	if flagged > 1+n/2000 {
		t.Errorf("%d moved configurations of answers that say they are too shallow still overlap: more than the %d allowed", flagged, 1+n/2000)
	}
	t.Logf("%d pairs: %d separated (%d not certified; %d checked against the reference), %d overlapping; %d not converged", n, sep, uncertified, refChecked, ovl, unconverged)
	if sep == 0 || ovl == 0 {
		t.Errorf("the placement no longer gives both kinds of pair (%d separated, %d overlapping)", sep, ovl)
	}
}

// checkMovedOut moves b out along an overlapping answer's normal by 1.01
// and 1.1 times its depth: the moved pair must be apart, and, when the
// answer converged, by at most 0.01 and 0.1 times the depth. An answer
// deeper than flagDepth that says it is too shallow
// (Result.StillOverlapping) may still overlap where dense samples confirm
// it: such moved configurations are logged and counted, for the caller to
// bound.
func checkMovedOut(t *testing.T, tag string, a, b *geom.Body, res *Result, opt *Options, flagDepth float64) (flagged int) {
	t.Helper()
	depth := -res.Distance
	for _, f := range []float64{1.01, 1.1} {
		c := *b
		c.Pose.Position = b.Pose.Position.Add(res.Normal.Mul(f * depth))
		moved := Query(a, &c, opt)
		want := (f - 1) * depth
		switch {
		case moved.Status == Failed:
			t.Errorf("%s (%v, %.9f) moved by %v × the depth along its normal: failed", tag, res.Status, res.Distance, f)
		case !(moved.Distance > 0) && res.StillOverlapping > 0 && depth > flagDepth && refinedDeepest(a, &c, 240, 120) < 0:
			// An answer beyond the range of depths that says it
			// is too shallow (the move-out check's verdict), the samples
			// confirming the overlap: logged and counted, as the extreme
			// test allows them.
			flagged++
			t.Logf("%s (%v, %.9f, still overlapping by %.3g, as it says) moved by %v × the depth along its normal still overlaps: %v %.6g", tag, res.Status, res.Distance, res.StillOverlapping, f, moved.Status, moved.Distance)
		case !(moved.Distance > 0):
			t.Errorf("%s (%v, %.9f) moved by %v × the depth along its normal still overlaps: %v %.6g", tag, res.Status, res.Distance, f, moved.Status, moved.Distance)
		case res.Status == Converged && moved.Distance > want*(1+1e-6)+1e-9:
			t.Errorf("%s (%.9f) moved by %v × the depth along its normal is %.9g apart, more than %.9g", tag, res.Distance, f, moved.Distance, want)
		}
	}
	return flagged
}

// TestWideAspectPairs: pairs far outside the range of semi-axes,
// as users model needles, plates and rods: each shape's size is drawn
// log-uniformly over 0.1 to 10 and each semi-axis over 1/16 to 16 times
// that (aspect ratios up to about 250), exponents over the whole validated
// range, e 0.05 to 1.95, tapers over ±0.5, random orientations; b's centre
// at 0.05 to 1 times the sum of the largest semi-axes, along a random
// direction, so that many pairs overlap. Checked without the
// common-normal equations:
//   - no query fails, and every number is finite;
//   - a separated answer that is not certified is no farther apart than
//     the reference's search (refMinDistance, an upper bound: the distance
//     of two surface points), to 1e-9 of the distance;
//   - an overlapping answer moved out along its normal by 1.01 and 1.1
//     times its depth is apart, and for a converged answer by at most
//     0.01 and 0.1 times the depth (checkMovedOut, as TestWidePlacedPairs);
//     an answer deeper than 0.3 of the smaller semi-axis that says it is
//     too shallow may still overlap where dense samples confirm it, in at
//     most 1 + n/2000 moved configurations.
//
// The default run takes 40 pairs; SOVVIZ_ASPECT_SWEEP=1 takes 3,000
// (about two minutes), which pass: 2,189 separated, 244 of them not
// certified; 811 overlapping; 47 not converged. Scratch versions of it
// found TestHullDescentStandIn's and TestScanRescue's pairs; four of this
// draw's queries end in scanRescue (pair 433 is TestScanRescueOverlap's),
// and the sweep fails without it (2026-12-07).
//
//	SOVVIZ_ASPECT_SWEEP=1 go test -run WideAspectPairs -v ./contact
func TestWideAspectPairs(t *testing.T) {
	n := 40
	if os.Getenv("SOVVIZ_ASPECT_SWEEP") == "1" {
		n = 3000 // the first 40 are the default run's
	}
	// (A draw that reaches scanRescue: four of its queries end there.)
	r := rand.New(sweepPCG(t, 11, 0x9e3779b97f4a7c13))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	draw := func() geom.Body {
		var s geom.Superovoid
		size := math.Pow(10, u(-1, 1))
		for i := range s.A {
			s.A[i] = size * math.Pow(16, u(-1, 1))
		}
		s.Eps = [2]float64{u(0.05, 1.95), u(0.05, 1.95)}
		s.Taper = [2]float64{u(-0.5, 0.5), u(-0.5, 0.5)}
		return geom.Body{Shape: s, Pose: geom.Pose{Orientation: UniformQuat(r)}}
	}
	opt := DefaultOptions()
	var sep, refChecked, ovl, unconverged, flagged int
	for i := 0; i < n; i++ {
		a, b := draw(), draw()
		reach := max(a.Shape.A[0], a.Shape.A[1], a.Shape.A[2]) + max(b.Shape.A[0], b.Shape.A[1], b.Shape.A[2])
		b.Pose.Position = geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize().Mul(u(0.05, 1) * reach)
		res := Query(&a, &b, &opt)
		tag := fmt.Sprintf("pair %d (%+v, %+v)", i, a, b)
		if res.Status == Failed || !finiteResult(&res) {
			t.Errorf("%s: %v, distance %v", tag, res.Status, res.Distance)
			continue
		}
		if res.Status != Converged {
			unconverged++
		}
		if res.Distance > 0 {
			sep++
			if !res.Certified {
				refChecked++
				if ref := refMinDistance(&a, &b); res.Distance > ref+1e-9*max(1, res.Distance) {
					t.Errorf("%s: %v %.12g apart, the reference's search %.12g", tag, res.Status, res.Distance, ref)
				}
			}
			continue
		}
		ovl++
		flagged += checkMovedOut(t, tag, &a, &b, &res, &opt, 0.3*min(minAxis(&a.Shape), minAxis(&b.Shape)))
	}
	if flagged > 1+n/2000 {
		t.Errorf("%d moved configurations of answers that say they are too shallow still overlap: more than the %d allowed", flagged, 1+n/2000)
	}
	t.Logf("%d pairs: %d separated (%d not certified, checked against the reference), %d overlapping; %d not converged", n, sep, refChecked, ovl, unconverged)
	if sep == 0 || ovl == 0 {
		t.Errorf("the placement no longer gives both kinds of pair (%d separated, %d overlapping)", sep, ovl)
	}
}

// finiteResult reports whether every number of an answer is finite.
func finiteResult(r *Result) bool {
	for _, v := range []geom.Vec3{r.P, r.Q, r.Normal, r.NormalQ} {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
	}
	return !math.IsNaN(r.Distance) && !math.IsInf(r.Distance, 0)
}
