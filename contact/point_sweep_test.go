package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/sovviz/sovviz/geom"
)

// TestPointDistanceSweep checks PointDistance over the whole parameter
// range against an independent reference (pointSweepRef, which calls
// nothing of point.go): shapes with semi-axes 0.3–2, tapers ±0.5 and each
// exponent box-like (0.05–0.25), ordinary (0.25–1.75) or pointy
// (1.75–1.95), one third each, at random poses; ten points a body:
// outside (1.05 to 2 times a surface point), just off the surface along
// its normal (1e-6 to 0.1 of the smallest semi-axis, out and in), inside
// (0.1 to 0.95 times a surface point), near the centre or on and near an
// axis, and near the local coordinate planes, where the pointy ridges and
// tips lie. For every point the answer must not have failed, be finite,
// its closest point on the surface at the distance and its sign that of
// the residual; a converged answer must be no farther than the
// reference's surface point (beyond 1e-9·max(1, largest semi-axis)). An
// answer nearer than the reference by as much is allowed (its point lies
// on the surface: the reference missed) and counted, and so are
// max_iterations answers and those of them farther than the reference.
//
// 20,000 points by default (SOVVIZ_POINT_SWEEP_N sets the number, and
// SOVVIZ_POINT_SWEEP_SEED the battery's seed, 2026 by default), about 2
// minutes on one core (6 ms a point, nearly all of it the reference's), so
// it runs only when SOVVIZ_POINT_SWEEP is set:
//
//	SOVVIZ_POINT_SWEEP=1 go test -count 1 -run PointDistanceSweep -v ./contact
//	SOVVIZ_POINT_SWEEP=1 SOVVIZ_POINT_SWEEP_N=2000 SOVVIZ_POINT_SWEEP_SEED=7 go test -count 1 -run PointDistanceSweep -v ./contact
//
// With PointDistance as of ea0f2da it found one wrong answer among the
// 20,000: point 19180, outside a shape pointy in both exponents (e 1.88,
// 1.89) near its equator, answered 0.440 from the x-axis tip, converged,
// where the equatorial ridge's foot is 0.175 away; a review's run with
// rand.NewPCG(2027, 8) in place of (2026, 7) found an inside point on z = 0
// of a tapered box-like shape answered from the bottom face, the top face's
// foot 7.96e-6 nearer; and SOVVIZ_POINT_SWEEP_SEED=99 an inside point below
// a nearly flat face answered 2.96e-7 too far; SOVVIZ_POINT_SWEEP_SEED=21
// (2026-12-06) an inside point 0.94 below a broad face answered 0.00111
// too far (nearestRayPoints' seeds all around the farther of two feet),
// seed 22 a centre point 7.7e-6 too far (a nearer foot 0.0106 away,
// between the rings around the foot), and seed 25 one 0.00127 too far (a
// nearer foot 0.064 away, beyond them). All six are in
// TestPointDistanceMissedFeet and answered right since. Seed 31 found
// three inside points answered from the x side of a pole where a y side
// (of that pole, or of the other) is nearer, by up to 0.0019 (TestPointDistanceSwappedFeet), and seed 35
// a point on the axis answered from the top pole's foot where one beside
// the bottom pole is 7.8e-4 nearer (TestPointDistanceMissedFeet): both
// answered right since (2026-12-06). 1 % of
// the points were max_iterations, mostly outside and near the planes of
// pointy shapes (81 of 196 up to 0.052 beyond the reference), until the
// ridge search and the ring walk (TestPointDistanceTipsAndRidges): none
// since at seeds 2026, 99 and 5, the worst converged answer 1.03e-11
// beyond the reference (seed 5). With
// e81aab4's code it finds 17 wrong among the first 4,000 points, inside
// ones.
func TestPointDistanceSweep(t *testing.T) {
	if os.Getenv("SOVVIZ_POINT_SWEEP") == "" {
		t.Skip("set SOVVIZ_POINT_SWEEP=1 to run the 20,000-point sweep of PointDistance against the reference (about 2 minutes; SOVVIZ_POINT_SWEEP_N=n for n points)")
	}
	n := 20000
	if v := os.Getenv("SOVVIZ_POINT_SWEEP_N"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			t.Fatalf("SOVVIZ_POINT_SWEEP_N=%q: want a positive number of points", v)
		}
		n = k
	}
	seed := uint64(2026)
	if v := os.Getenv("SOVVIZ_POINT_SWEEP_SEED"); v != "" {
		k, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("SOVVIZ_POINT_SWEEP_SEED=%q: want a non-negative integer", v)
		}
		seed = k
	}
	start := time.Now()
	r := rand.New(rand.NewPCG(seed, 7))
	kinds := [...]string{"outside", "outside near", "inside", "inside near", "centre/axis", "planes"}
	plan := [...]int{0, 0, 1, 1, 2, 2, 3, 4, 5, 5} // the kinds of a body's points
	var per [len(kinds)]struct{ n, maxIt, beat int }
	in, out, failed, bad, shown, beatShown := 0, 0, 0, 0, 0, 0
	conv, maxIt, maxItAbove, beat := 0, 0, 0, 0
	worst, worstMaxIt, worstBeat := math.Inf(-1), 0.0, 0.0
	var b geom.Body
	var tr geom.Transform
	var ref *pointSweepRef
	for k := 0; k < n; k++ {
		if k%len(plan) == 0 {
			b = geom.Body{Shape: pointSweepShape(r), Pose: geom.Pose{
				Position:    geom.Vec3{-3 + 6*r.Float64(), -3 + 6*r.Float64(), -3 + 6*r.Float64()},
				Orientation: randQuat(r)}}
			tr = b.Pose.Transform()
			ref = newPointSweepRef(&b.Shape)
		}
		kind := plan[k%len(plan)]
		yl, xlGen := ref.point(r, kind)
		per[kind].n++
		x := tr.Point(xlGen)
		xl := tr.InvPoint(x)
		s := &b.Shape
		fx, okF := s.Residual(xl)
		inside := okF && fx < 0
		if inside {
			in++
		} else {
			out++
		}
		got := PointDistance(&b, x)
		tag := func() string {
			return fmt.Sprintf("%s point %d: body %s, point %s: %v %.17g", kinds[kind], k, goBody(&b), goVec(x), got.Status, got.Distance)
		}
		fail := func(format string, args ...any) {
			bad++
			if shown < 20 {
				shown++
				t.Errorf("%s: %s", tag(), fmt.Sprintf(format, args...))
			}
		}
		if got.Status == Failed {
			failed++
			fail("failed")
			continue
		}
		if math.IsNaN(got.Distance) || math.IsInf(got.Distance, 0) || !finite3(got.Closest) {
			fail("not finite (closest %s)", goVec(got.Closest))
			continue
		}
		size := maxAxis(s)
		cl := tr.InvPoint(got.Closest)
		if f, ok := s.Residual(cl); !ok || math.Abs(f) > 1e-9 {
			fail("the closest point %s (local %s) is off the surface, residual %.3g", goVec(got.Closest), goVec(cl), f)
			continue
		}
		if d := got.Closest.Sub(x).Len(); math.Abs(d-math.Abs(got.Distance)) > 1e-12*math.Max(1, d) {
			fail("the closest point %s is %.17g away", goVec(got.Closest), d)
			continue
		}
		if (got.Distance < 0) != inside {
			fail("wrong sign: the residual at the point is %.3g", fx)
			continue
		}
		rd, rp := ref.nearest(xl, yl)
		excess := math.Abs(got.Distance) - rd
		tol := 1e-9 * math.Max(1, size)
		if excess < -tol {
			beat++
			per[kind].beat++
			worstBeat = math.Max(worstBeat, -excess)
			if beatShown < 5 {
				beatShown++
				t.Logf("the reference missed: %s, closest %s; the reference's local surface point %s is %.17g away", tag(), goVec(got.Closest), goVec(rp), rd)
			}
		}
		switch got.Status {
		case Converged:
			conv++
			worst = math.Max(worst, excess)
			if excess > tol {
				fail("converged, but the local surface point %s is %.17g away (%.3g nearer)", goVec(rp), rd, excess)
			}
		case MaxIterations:
			maxIt++
			per[kind].maxIt++
			if excess > tol {
				maxItAbove++
				worstMaxIt = math.Max(worstMaxIt, excess)
			}
		}
	}
	if bad > shown {
		t.Errorf("%d wrong answers in all, %d shown", bad, shown)
	}
	for i, name := range kinds {
		t.Logf("%-12s %6d points, %3d max_iterations, %3d nearer than the reference", name+":", per[i].n, per[i].maxIt, per[i].beat)
	}
	t.Logf("%d points (%d inside, %d outside) on %d bodies: %d wrong, %d failed; %d converged, worst excess over the reference %.3g; %d max_iterations, %d of them beyond the reference (worst %.3g); %d answers nearer than the reference (the reference missed; by up to %.3g); %v",
		n, in, out, (n+len(plan)-1)/len(plan), bad, failed, conv, worst, maxIt, maxItAbove, worstMaxIt, beat, worstBeat, time.Since(start).Round(time.Second))
	// max_iterations answers are honest but not the best: bounded, so that
	// converged answers turned into far-off unconverged ones fail too. (About
	// 1% of the points, up to 0.08 beyond the reference, at seeds 2026, 99
	// and 5 before the ridge search and the ring walk; none since.)
	if maxIt > n/1000 || worstMaxIt > 1e-3 {
		t.Errorf("%d max_iterations answers (%.2f%%; at most 0.1%% allowed), the worst %.3g beyond the reference (at most 1e-3)", maxIt, 100*float64(maxIt)/float64(n), worstMaxIt)
	}
}

// pointSweepShape draws a shape for TestPointDistanceSweep: rangedShape's
// semi-axes and tapers, each exponent box-like, ordinary or pointy.
func pointSweepShape(r *rand.Rand) geom.Superovoid {
	s := rangedShape(r, geom.MinEps, geom.MaxEps)
	for i := range s.Eps {
		switch r.IntN(3) {
		case 0:
			s.Eps[i] = geom.MinEps + (0.25-geom.MinEps)*r.Float64()
		case 1:
			s.Eps[i] = 0.25 + 1.5*r.Float64()
		default:
			s.Eps[i] = 1.75 + (geom.MaxEps-1.75)*r.Float64()
		}
	}
	return s
}

// pointSweepRef is TestPointDistanceSweep's reference for one shape, in
// its local frame: the nearest of dense samples of the surface (a grid of
// the parameters and the points on rays from the centre, which the
// parameters crowd into slivers on box-like sides), refined by a compass
// search over the parameters and over the ray's direction, and the
// nearest points of the sections by the coordinate planes (pointy ridges)
// by golden sections. Every point it returns is a surface point, so its
// distance bounds the true one from above.
type pointSweepRef struct {
	s       *geom.Superovoid
	far     float64 // beyond the surface on every ray from the centre
	samples []pointSweepSample
	// sectionP are the samples on the sections by the planes x = 0, y = 0
	// and z = 0, at the angles 2πi/sweepSection of sectionDir.
	sectionP [3][]geom.Vec3
}

// pointSweepSample is a surface point and its normal, with its
// parameters (param) or its ray's direction u.
type pointSweepSample struct {
	p, n   geom.Vec3 // point, unit normal (zero where undefined)
	param  bool
	p1, p2 float64
	u      geom.Vec3
}

// Sample counts: the parameter grid, the rays (a Fibonacci lattice) and
// the rays of each coordinate plane's section.
const (
	sweepN1, sweepN2 = 64, 32
	sweepRays        = 2000
	sweepSection     = 256
)

func newPointSweepRef(s *geom.Superovoid) *pointSweepRef {
	r := &pointSweepRef{s: s}
	r.far = 1.01 * math.Sqrt(sq(s.A[0]*(1+math.Abs(s.Taper[0])))+sq(s.A[1]*(1+math.Abs(s.Taper[1])))+sq(s.A[2]))
	for i := 0; i < sweepN1; i++ {
		p1 := -math.Pi + 2*math.Pi*(float64(i)+0.5)/sweepN1
		for j := 0; j <= sweepN2; j++ {
			p2 := -math.Pi/2 + math.Pi*float64(j)/sweepN2
			r.samples = append(r.samples, pointSweepSample{p: s.Point(p1, p2), param: true, p1: p1, p2: p2})
		}
	}
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := 0; i < sweepRays; i++ {
		z := 1 - (2*float64(i)+1)/sweepRays
		c := math.Sqrt(1 - z*z)
		u := geom.Vec3{c * math.Cos(golden*float64(i)), c * math.Sin(golden*float64(i)), z}
		r.samples = append(r.samples, pointSweepSample{p: r.ray(u), u: u})
	}
	for k := 0; k < 3; k++ {
		for i := 0; i < sweepSection; i++ {
			th := 2 * math.Pi * float64(i) / sweepSection // (the axes' tips among them)
			u := r.sectionDir(k, th)
			p := r.ray(u)
			r.sectionP[k] = append(r.sectionP[k], p)
			r.samples = append(r.samples, pointSweepSample{p: p, u: u})
		}
	}
	for i := range r.samples {
		r.samples[i].n, _ = s.Normal(r.samples[i].p)
	}
	return r
}

func sq(a float64) float64 { return a * a }

// sectionDir is the direction at angle th in the coordinate plane
// normal to axis k.
func (r *pointSweepRef) sectionDir(k int, th float64) geom.Vec3 {
	var u geom.Vec3
	c, s := math.Cos(th), math.Sin(th)
	u[(k+1)%3], u[(k+2)%3] = c, s
	return u
}

// ray returns the surface point on the ray from the centre along u (not
// necessarily of unit length).
func (r *pointSweepRef) ray(u geom.Vec3) geom.Vec3 {
	p, _ := r.rayFrom(u, 0)
	return p
}

// rayFrom returns the surface point t·u on the ray from the centre along
// unit u (u is normalised), and t. The residual rises along every ray (the
// shapes are star-shaped about their centres, the tapered ones too), so
// the crossing is bracketed, about t0 when t0 > 0 (a guess: the ray's
// neighbour's), else in [0, far], and found by regula falsi (Illinois)
// with bisection to rounding.
func (r *pointSweepRef) rayFrom(u geom.Vec3, t0 float64) (geom.Vec3, float64) {
	u = u.Normalize()
	f := func(t float64) float64 {
		v, ok := r.s.Residual(u.Mul(t))
		if !ok || math.IsNaN(v) {
			return math.Inf(1)
		}
		return v
	}
	lo, hi := 0.0, r.far
	flo, fhi := -1.0, math.Inf(1)
	if t0 > 0 && t0 < r.far {
		// (F + 1 is homogeneous of degree 1 along a ray without taper:
		// t0/(1 + F) is the crossing there, and near it with taper.)
		if f0 := f(t0); f0 > -1 && f0 < 1 {
			t1 := t0 / (1 + f0)
			for w := 0.5*math.Abs(t1-t0) + 1e-15*t1; ; w *= 16 {
				a, b := math.Max(lo, t1-w), math.Min(hi, t1+w)
				fa, fb := f(a), f(b)
				if fa >= 0 {
					hi, fhi = a, fa
					continue
				}
				lo, flo = a, fa
				if fb >= 0 {
					hi, fhi = b, fb
					break
				}
				lo, flo = b, fb
				if b >= hi {
					break
				}
			}
		}
	}
	if math.IsInf(fhi, 1) {
		fhi = f(hi)
	}
	wlo, whi := flo, fhi // (Illinois' weights)
	last, width := 0, hi-lo
	for it := 0; it < 200 && hi-lo > 1e-15*hi; it++ {
		m, bisect := 0.5*(lo+hi), math.IsInf(whi, 1)
		if it%3 == 2 {
			// (Bisection where regula falsi did not halve the bracket
			// in three steps.)
			bisect = bisect || hi-lo > 0.5*width
			width = hi - lo
		}
		if !bisect {
			if c := (lo*whi - hi*wlo) / (whi - wlo); c > lo && c < hi {
				m = c
			}
		}
		fm := f(m)
		switch {
		case fm == 0:
			return u.Mul(m), m
		case fm < 0:
			lo, flo, wlo = m, fm, fm
			if last < 0 {
				whi *= 0.5
			}
			last = -1
		default:
			hi, fhi, whi = m, fm, fm
			if last > 0 {
				wlo *= 0.5
			}
			last = 1
		}
	}
	if -flo < fhi {
		return u.Mul(lo), lo
	}
	return u.Mul(hi), hi
}

// point draws a local point of the given kind of TestPointDistanceSweep,
// and returns it with a surface point it was made from (zero if none).
func (r *pointSweepRef) point(g *rand.Rand, kind int) (y, x geom.Vec3) {
	s := r.s
	L := minAxis(s)
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*g.Float64() }
	surf := func() geom.Vec3 {
		if g.IntN(2) == 0 {
			return s.Point(u(-math.Pi, math.Pi), u(-math.Pi/2, math.Pi/2))
		}
		return r.ray(geom.Vec3{g.NormFloat64(), g.NormFloat64(), g.NormFloat64()})
	}
	switch kind {
	case 0: // outside
		y = surf()
		return y, y.Mul(u(1.05, 2))
	case 1, 3: // just off the surface along the normal
		for {
			y = surf()
			if n, ok := s.Normal(y); ok {
				d := L * math.Pow(10, u(-6, -1))
				if kind == 3 {
					d = -d
				}
				return y, y.Add(n.Mul(d))
			}
		}
	case 2: // inside
		y = surf()
		return y, y.Mul(u(0.1, 0.95))
	case 4: // near the centre, or on or near an axis
		if g.IntN(3) == 0 {
			if g.IntN(8) == 0 {
				return y, x
			}
			return y, geom.Vec3{g.NormFloat64(), g.NormFloat64(), g.NormFloat64()}.Normalize().Mul(L * math.Pow(10, u(-6, -1)))
		}
		k := 2
		if g.IntN(2) == 0 {
			k = g.IntN(2)
		}
		var e geom.Vec3
		e[k] = 1
		if g.IntN(2) == 0 {
			e[k] = -1
		}
		y = r.ray(e)
		x = y.Mul(u(0, 0.97))
		if g.IntN(4) != 0 {
			x[(k+1)%3] += L * math.Pow(10, u(-7, -2)) * float64(1-2*g.IntN(2))
			x[(k+2)%3] += L * math.Pow(10, u(-7, -2)) * float64(1-2*g.IntN(2))
		}
		return y, x
	default: // near a coordinate plane (a pointy ridge; its tips among them)
		k := g.IntN(3)
		v := r.sectionDir(k, u(-math.Pi, math.Pi))
		if g.IntN(4) == 0 {
			v = geom.Vec3{}
			v[(k+1+g.IntN(2))%3] = float64(1 - 2*g.IntN(2))
		}
		if g.IntN(4) != 0 {
			v[k] = math.Pow(10, u(-9, -2)) * float64(1-2*g.IntN(2))
		}
		y = r.ray(v)
		f := u(0.3, 0.97)
		if g.IntN(2) == 0 {
			f = u(1.03, 2)
		}
		return y, y.Mul(f)
	}
}

// nearest returns the distance from local point x to the surface and the
// surface point at that distance, as near as the reference finds; y, if
// not zero, is a surface point to start from as well.
func (r *pointSweepRef) nearest(x, y geom.Vec3) (float64, geom.Vec3) {
	s := r.s
	size := maxAxis(s)
	best, bestP := math.Inf(1), geom.Vec3{}
	keep := func(p geom.Vec3) float64 {
		d := p.Sub(x).Len()
		if d < best {
			best, bestP = d, p
		}
		return d
	}
	// Candidates: the nearest samples within 0.2·size of the nearest (the
	// basins of an inside point near the medial axis are about equally
	// deep), at most five, each at least 0.1·size from the others or
	// facing another way, and y.
	idx := make([]int, len(r.samples))
	dist := make([]float64, len(r.samples))
	for i := range r.samples {
		idx[i], dist[i] = i, keep(r.samples[i].p)
	}
	sort.Slice(idx, func(a, b int) bool { return dist[idx[a]] < dist[idx[b]] })
	var cands []pointSweepSample
	for _, i := range idx {
		if len(cands) >= 5 || dist[i] > dist[idx[0]]+0.2*size {
			break
		}
		c := r.samples[i]
		apart := true
		for _, o := range cands {
			if o.p.Sub(c.p).Len() < 0.1*size && o.n.Dot(c.n) > 0.8 {
				apart = false
				break
			}
		}
		if apart {
			cands = append(cands, c)
		}
	}
	if y != (geom.Vec3{}) {
		cands = append(cands, pointSweepSample{p: y, u: y})
	}
	// polish descends from surface point p over the parameters (cheap),
	// then over the ray's direction, and again over the parameters from
	// there, in turn until the parameters' descent no longer improves it.
	polish := func(p geom.Vec3, p1, p2 float64) {
		d, u := keep(p), p
		q := r.descendParams(x, p1, p2)
		if dq := keep(q); dq < d {
			d, u = dq, q
		}
		for round := 0; round < 6; round++ {
			q = r.descendRay(x, u)
			if dq := keep(q); dq < d {
				d, u = dq, q
			}
			p1, p2 = s.Params(u)
			q = r.descendParams(x, p1, p2)
			dq := keep(q)
			if !(dq < d-1e-15*size) {
				break
			}
			d, u = dq, q
		}
	}
	for _, c := range cands {
		p1, p2 := c.p1, c.p2
		if !c.param {
			p1, p2 = s.Params(c.p)
		}
		polish(c.p, p1, p2)
	}
	// The mirror images of the nearest point in the coordinate planes:
	// near a plane of symmetry (x = 0, y = 0; z = 0 too without taper)
	// an inside point's feet on either side are about as near, the
	// distance rising between them.
	p0 := bestP
	for m := 1; m < 8; m++ {
		v := p0
		for k := 0; k < 3; k++ {
			if m>>k&1 != 0 {
				v[k] = -v[k]
			}
		}
		if q := r.ray(v); q.Sub(x).Len() < best+0.05*size {
			p1, p2 := s.Params(q)
			polish(q, p1, p2)
		}
	}
	// The sections by the coordinate planes: golden section about the
	// nearest of their samples.
	for k := 0; k < 3; k++ {
		bi, bd := 0, math.Inf(1)
		for i, p := range r.sectionP[k] {
			if d := p.Sub(x).Len(); d < bd {
				bi, bd = i, d
			}
		}
		h := 2 * math.Pi / sweepSection
		th0 := 2 * math.Pi * float64(bi) / sweepSection
		th := golden1(func(th float64) float64 { return keep(r.ray(r.sectionDir(k, th))) }, th0-h, th0+h, 1e-13)
		keep(r.ray(r.sectionDir(k, th)))
	}
	return best, bestP
}

// descendParams minimises the distance from x over the parameters from
// (p1, p2), and returns the surface point.
func (r *pointSweepRef) descendParams(x geom.Vec3, p1, p2 float64) geom.Vec3 {
	a, b, _ := compass2(func(a, b float64) float64 { return r.s.Point(p1+a, p2+b).Sub(x).Len() }, 0.05, 1e-13)
	return r.s.Point(p1+a, p2+b)
}

// descendRay minimises the distance from x over the direction of the ray
// from the centre, starting along u, and returns the surface point.
func (r *pointSweepRef) descendRay(x, u geom.Vec3) geom.Vec3 {
	u = u.Normalize()
	e1, e2 := geom.Householder(u)
	dir := func(a, b float64) geom.Vec3 { return u.Add(e1.Mul(a)).Add(e2.Mul(b)) }
	best := math.Inf(1)
	_, tb := r.rayFrom(u, 0)
	a, b, _ := compass2(func(a, b float64) float64 {
		p, t := r.rayFrom(dir(a, b), tb)
		d := p.Sub(x).Len()
		if d < best {
			best, tb = d, t
		}
		return d
	}, 0.05, 1e-13)
	return r.ray(dir(a, b))
}

// compass2 minimises f over the plane from (0, 0) by a compass search:
// eight directions, turned by the golden angle at every step so that a
// kink of f (a pointy ridge) does not stall it; a move goes on along its
// direction with doubling steps while f falls; the step h doubles (up to
// its start) after a move and halves when no direction improves, until it
// is below hmin.
func compass2(f func(a, b float64) float64, h, hmin float64) (a, b, fb float64) {
	h0 := h
	fb = f(0, 0)
	turn := 0.0
	for evals := 0; h >= hmin && evals < 4000; {
		turn += math.Pi * (3 - math.Sqrt(5))
		moved := false
		for i := 0; i < 8; i++ {
			s, c := math.Sincos(turn + float64(i)*math.Pi/4)
			na, nb := a+h*c, b+h*s
			evals++
			if v := f(na, nb); v < fb {
				a, b, fb, moved = na, nb, v, true
				// (Onwards while that improves, the step doubling: a
				// narrow valley is followed.)
				for g := 2 * h; g <= h0 && evals < 4000; g *= 2 {
					na, nb = a+g*c, b+g*s
					evals++
					if v := f(na, nb); v < fb {
						a, b, fb = na, nb, v
					} else {
						break
					}
				}
				break
			}
		}
		if moved {
			h = math.Min(2*h, h0)
		} else {
			h *= 0.5
		}
	}
	return a, b, fb
}

// golden1 returns the minimiser of f on [a, b] by golden-section search,
// to tol.
func golden1(f func(float64) float64, a, b, tol float64) float64 {
	const g = 0.6180339887498949
	x1, x2 := b-g*(b-a), a+g*(b-a)
	f1, f2 := f(x1), f(x2)
	for b-a > tol {
		if f1 < f2 {
			b, x2, f2 = x2, x1, f1
			x1 = b - g*(b-a)
			f1 = f(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + g*(b-a)
			f2 = f(x2)
		}
	}
	if f1 < f2 {
		return x1
	}
	return x2
}

// goBody and goVec print a body and a vector as Go literals, exactly.
func goBody(b *geom.Body) string {
	s, p := &b.Shape, &b.Pose
	return fmt.Sprintf("geom.Body{Shape: geom.Superovoid{A: [3]float64{%.17g, %.17g, %.17g}, Eps: [2]float64{%.17g, %.17g}, Taper: [2]float64{%.17g, %.17g}}, Pose: geom.Pose{Position: %s, Orientation: geom.Quat{W: %.17g, V: %s}}}",
		s.A[0], s.A[1], s.A[2], s.Eps[0], s.Eps[1], s.Taper[0], s.Taper[1], goVec(p.Position), p.Orientation.W, goVec(p.Orientation.V))
}

func goVec(v geom.Vec3) string {
	return fmt.Sprintf("geom.Vec3{%.17g, %.17g, %.17g}", v[0], v[1], v[2])
}
