package geom

import (
	"math"
	"os"
	"testing"
)

// profileF is the section-stack profile F(w) = r(w)·N(w) + a3·nz·w of
// the shape in the local direction n (support.go), written from math.md
// with math.Pow: independent of the searches' scaled, logarithmic form.
func profileF(s *Superovoid, n Vec3, w float64) float64 {
	k := 2 / (2 - s.Eps[0])
	A := math.Abs(s.A[0] * (1 + s.Taper[0]*w) * n[0])
	B := math.Abs(s.A[1] * (1 + s.Taper[1]*w) * n[1])
	m, N := max(A, B), 0.0
	if m > 0 {
		N = m * math.Pow(math.Pow(A/m, k)+math.Pow(B/m, k), 1/k)
	}
	r := math.Pow(max(0, 1-math.Pow(math.Abs(w), 2/s.Eps[1])), s.Eps[1]/2)
	return r*N + s.A[2]*n[2]*w
}

// profileMax is a local maximum of profileF: its height and value.
type profileMax struct{ w, f float64 }

// profileMaxima returns the local maxima of profileF between the heights
// −0.97 and 0.97 (away from the tips, where the flat profiles of these
// tests have none): 6000 samples, each sample above both neighbours
// refined by golden sections.
func profileMaxima(s *Superovoid, n Vec3) []profileMax {
	const m = 6000
	var fs [m + 1]float64
	w := func(i int) float64 { return -0.97 + 1.94*float64(i)/m }
	for i := range fs {
		fs[i] = profileF(s, n, w(i))
	}
	var out []profileMax
	for i := 1; i < m; i++ {
		if !(fs[i] >= fs[i-1] && fs[i] > fs[i+1]) {
			continue
		}
		a, b := w(i-1), w(i+1)
		g := (math.Sqrt(5) - 1) / 2
		for it := 0; it < 80; it++ {
			c, d := b-g*(b-a), a+g*(b-a)
			if profileF(s, n, c) > profileF(s, n, d) {
				b = d
			} else {
				a = c
			}
		}
		x := 0.5 * (a + b)
		out = append(out, profileMax{x, profileF(s, n, x)})
	}
	return out
}

// TestSupportFlatProfiles: tapered shapes with a nearly conical profile
// (e2 near 1.71), along directions near a generator, where F is flat to
// 1e-6 over two of the scan's intervals and has two local maxima about
// 0.07 apart in height (flatNearTies). The searches, the shape's and the
// table's, must find the higher, and the support check must refuse the
// lower. Before the searches and the check looked inside every flat
// interval (flatCells), the searches were 1e-7 and 1e-6 short here (the
// higher maximum and a minimum in the interval beside the one of the
// maximum found, so that ψ's signs at its ends showed neither) and the
// check accepted the lower maximum, in 7 of these 16 directions: the
// worst of TestSupportFlatSweep's 56.
func TestSupportFlatProfiles(t *testing.T) {
	tested := 0
	for _, c := range []struct{ de2, phi float64 }{{-0.006, 0.004}, {0, 0}, {0.006, -0.004}, {0.009, -0.004}} {
		tested += flatNearTies(t, c.de2, c.phi, true)
	}
	if tested != 16 {
		t.Errorf("%d of 16 directions tested", tested)
	}
}

// TestSupportFlatSweep is flatNearTies over a grid of shapes (e2 from
// 1.6958 to 1.7198) and directions (turned about the axis by up to
// ±0.12 rad), opt-in (about 30 s):
//
//	SOVVIZ_FLAT_SWEEP=1 go test -count 1 -run TestSupportFlatSweep -v ./geom
//
// Of its 56 near-ties, the searches were short in 4 and the check
// accepted the lower maximum in 5 before flatCells; none since.
func TestSupportFlatSweep(t *testing.T) {
	if os.Getenv("SOVVIZ_FLAT_SWEEP") == "" {
		t.Skip("opt-in: SOVVIZ_FLAT_SWEEP=1")
	}
	tested := 0
	for ie := -4; ie <= 4; ie++ {
		for ip := -30; ip <= 30; ip++ {
			tested += flatNearTies(t, float64(ie)*0.003, float64(ip)*0.004, false)
		}
	}
	t.Logf("%d near-ties tested", tested)
	if tested == 0 {
		t.Error("no near-ties")
	}
}

// flatNearTies builds near-ties of two maxima of a flat profile and checks
// the searches and the support check on them, returning how many it
// tested. The shape is TestSupportTwoMaximaOneInterval's with e2 changed
// by de2; the direction, near a generator, is turned by phi about the
// axis and then tilted (its height component changed) first to where the
// highest maximum jumps from one height to the other, then until the
// upper maximum exceeds the lower by 1e-6, 1e-7, −1e-7 and −1e-6 (of F).
// Strict, a direction where that fails is an error; otherwise it is
// skipped (on much of the grid the profile has one maximum).
func flatNearTies(t *testing.T, de2, phi float64, strict bool) int {
	t.Helper()
	s := Superovoid{A: [3]float64{1.2109666437967401, 1.4686729479571343, 0.6201709109921285},
		Eps: [2]float64{1.851992526934765, 1.7077509030773887 + de2}, Taper: [2]float64{-0.17681757274165866, 0.4530962409848366}}
	// The direction near a generator (world (0.950, −0.258, 0.173) of
	// the turned body of TestSupportTwoMaximaOneInterval).
	n00 := Vec3{-0.47026184957795436, -0.2728299213385133, 0.8392959113768768}
	tab := s.SupportTable()
	co, sn := math.Cos(phi), math.Sin(phi)
	n0 := Vec3{co*n00[0] - sn*n00[1], sn*n00[0] + co*n00[1], n00[2]}
	dir := func(d float64) Vec3 { return n0.Add(Vec3{0, 0, d / s.A[2]}) }
	// The tilt d at which the highest maximum jumps, by bisection.
	argw := func(d float64) float64 {
		bw, bf := 0.0, math.Inf(-1)
		for _, q := range profileMaxima(&s, dir(d)) {
			if q.f > bf {
				bw, bf = q.w, q.f
			}
		}
		return bw
	}
	dl, dh := -0.006, 0.006
	wl, wh := argw(dl), argw(dh)
	for it := 0; it < 40; it++ {
		dm := 0.5 * (dl + dh)
		if wm := argw(dm); wm-wl > wh-wm {
			dh, wh = dm, wm
		} else {
			dl, wl = dm, wm
		}
	}
	if wh-wl < 0.01 {
		if strict {
			t.Errorf("e2 %.4f φ %.3f: the highest maximum does not jump (%.4f to %.4f)", s.Eps[1], phi, wl, wh)
		}
		return 0
	}
	tested := 0
	for _, target := range []float64{1e-6, 1e-7, -1e-7, -1e-6} {
		// Newton's method on the maxima's difference, whose derivative in
		// d is their difference in height.
		d := 0.5 * (dl + dh)
		var ms []profileMax
		ok := false
		for it := 0; it < 50; it++ {
			ms = profileMaxima(&s, dir(d))
			if len(ms) != 2 {
				break
			}
			diff := ms[1].f - ms[0].f - target
			if math.Abs(diff) < 1e-11 {
				ok = true
				break
			}
			d -= diff / (ms[1].w - ms[0].w)
		}
		if !ok {
			if strict {
				t.Errorf("e2 %.4f φ %.3f target %g: no direction with two maxima that far apart (%v)", s.Eps[1], phi, target, ms)
			}
			continue
		}
		tested++
		n := dir(d)
		hi, lo := ms[1], ms[0]
		if lo.f > hi.f {
			hi, lo = lo, hi
		}
		xs, _, _, _ := s.PointWithNormal(n)
		xt, _, _, _ := tab.PointWithNormal(n)
		for _, r := range []struct {
			name string
			x    Vec3
		}{{"shape", xs}, {"table", xt}} {
			if h := n.Dot(r.x); !(h >= hi.f-1e-11) || math.Abs(r.x[2]/s.A[2]-hi.w) > 1e-4 {
				t.Errorf("e2 %.4f φ %.3f target %g: %s's support %.13f at height %.4f; the maxima %.13f at %.4f and %.13f at %.4f",
					s.Eps[1], phi, target, r.name, h, r.x[2]/s.A[2], hi.f, hi.w, lo.f, lo.w)
			}
		}
		if !tab.IsSupportPoint(n, xs, 1e-9) {
			t.Errorf("e2 %.4f φ %.3f target %g: the support point refused", s.Eps[1], phi, target)
		}
		// The lower maximum's point: its normal is n too.
		var p supportProblem
		sc := max(math.Abs(n[0]), max(math.Abs(n[1]), math.Abs(n[2])))
		ns := n.Mul(1 / sc)
		p.init(&s, ns)
		sl := spow(lo.w, 1/s.Eps[1])
		xl, _, _ := s.pointAt(&p, ns, sl/math.Sqrt((1-sl)*(1+sl)))
		if got := n.Dot(xl); math.Abs(got-lo.f) > 1e-9 {
			t.Fatalf("the lower maximum's point: n·x %.13f for F %.13f", got, lo.f)
		}
		if tab.IsSupportPoint(n, xl, 1e-9) {
			t.Errorf("e2 %.4f φ %.3f target %g: the check accepts the lower maximum (height %.4f), %.3g short",
				s.Eps[1], phi, target, lo.w, hi.f-lo.f)
		}
	}
	return tested
}

// TestMaxCellW: flatCells' quick test needs every interval between
// neighbouring scan heights at most maxCellW wide.
func TestMaxCellW(t *testing.T) {
	widest := 0.0
	for i := 1; i < len(checkNodes); i++ {
		widest = max(widest, checkNodes[i]-checkNodes[i-1])
	}
	if widest > maxCellW {
		t.Errorf("an interval %.17g wide, maxCellW %.17g", widest, maxCellW)
	}
}

// TestFlatCellsEndInterval: where the scan's first or last height lies
// above every maximum solved (one was missed beside it, in the interval
// that reaches the bound), flatCells looks there. The record is a real
// scan's, of a direction whose support point lies above the last height
// (w = 0.975), with the maximum in that interval left unsolved.
func TestFlatCellsEndInterval(t *testing.T) {
	s := Superovoid{A: [3]float64{1, 1.2, 0.8}, Eps: [2]float64{0.6, 1.2}, Taper: [2]float64{0.3, -0.2}}
	n := Vec3{0.05, 0.02, 1}
	h, x := s.Support(n)
	if w := x[2] / s.A[2]; !(w > checkNodes[len(checkNodes)-1]) {
		t.Fatalf("the support point's height %.4f is not above the last scan height", w)
	}
	var p supportProblem
	p.init(&s, n) // (n's largest component is 1 already)
	n0 := FastExp(LogAddExp(p.k*p.lal, p.k*p.lbe) / p.k)
	sc := scanRecord{bound: 2*math.Abs(p.c)/n0 + 2}
	top := math.Inf(-1)
	for i, w := range checkNodes {
		tau, sn, c := p.tauOfW(w)
		if !(tau > -sc.bound && tau < sc.bound) {
			continue
		}
		_, sc.f[i] = p.evalSC(tau, sn, c)
		sc.scanned |= 1 << i
		top = max(top, sc.f[i])
	}
	// A maximum solved below every height's F: the true one was missed.
	tau, f := sc.flatCells(&p, math.NaN(), top-0.1*math.Abs(top), nil)
	if !(f >= top) || math.IsNaN(tau) {
		t.Fatalf("flatCells returned F %.12f (τ %g); the highest height's F is %.12f", f, tau, top)
	}
	if got := f * p.em; math.Abs(got-h) > 1e-12*max(1, math.Abs(h)) {
		t.Errorf("flatCells' maximum %.15f, Support %.15f", got, h)
	}
}
