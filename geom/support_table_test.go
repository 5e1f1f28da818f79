package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTablePointWithNormal checks the support table's search against the
// shape's own (which solves every local maximum of the profile) and, on a
// share of the cases, against a dense sample of the surface: the same
// support value to rounding, on shapes across the whole parameter range
// (most of them non-convex: pointy and tapered, box-like, the taper's and
// squareness's limits) and directions of every kind (random, near the
// axes, in the coordinate planes). The table's search without its
// pruning must agree too, so a pruned interval that held the support
// point would show as a difference between the two, and without the
// pruning each local maximum solved must lie within its bracket's bound;
// the search must never fall back to the shape's scan (a safety net that
// would hide a wrong bound); and the pruning must skip brackets, or the
// table's search would be no faster where shapes have several local
// maxima.
func TestTablePointWithNormal(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	const na, nz = 160, 80
	pts := make([]Vec3, 0, na*(nz+1))
	same, cases, dense := 0, 0, 0
	multi, pruned := 0, 0 // searches with several brackets; brackets pruned
	fallbacks, solves := 0, 0
	worst, worstDense := 0.0, 0.0
	for i := 0; i < 3000; i++ {
		s := randomShape(r)
		switch i % 6 {
		case 1:
			s.Eps[1] = 1.5 + 0.45*r.Float64() // pointy and tapered: caved in
		case 2:
			s.Eps = [2]float64{extremeEps(r), extremeEps(r)}
		case 3:
			s.Taper = [2]float64{MaxTaper, -MaxTaper}
			if r.IntN(2) == 0 {
				s.Taper[0] = -MaxTaper
			}
		case 4:
			s.Taper[1] = s.Taper[0] // known convex up to e2 = 1.38: the shape's search then solves once
		}
		tab := s.SupportTable()
		tab.onSearch = func(nb, solved int, fellBack bool) {
			multi += min(nb-1, 1)
			pruned += nb - solved
			if fellBack {
				fallbacks++
			}
		}
		// Unpruned, every bracket is solved: each local maximum must lie
		// within its bracket's bound (a bound of the wrong cell would not).
		full := tab
		full.noGroups = true
		full.onSearch = func(_, _ int, fellBack bool) {
			if fellBack {
				fallbacks++
			}
		}
		full.onSolve = func(f, ub float64) {
			solves++
			if !(f <= ub+1e-12*math.Abs(ub)) {
				t.Fatalf("%+v: a local maximum %.15g above its bracket's bound %.15g", s, f, ub)
			}
		}
		withDense := i%25 == 0
		if withDense {
			pts = pts[:0]
			for a := 0; a < na; a++ {
				for z := 0; z <= nz; z++ {
					pts = append(pts, s.Point(-math.Pi+2*math.Pi*float64(a)/na, -math.Pi/2+math.Pi*float64(z)/nz))
				}
			}
		}
		for j := 0; j < 40; j++ {
			n := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			switch j % 8 {
			case 1:
				n[0], n[1] = n[0]*1e-9, n[1]*1e-9 // near the axis: the tips
			case 2:
				n[2] = 0 // horizontal
			case 3:
				n[r.IntN(2)] = 0 // a coordinate plane through the axis
			case 4:
				n[2] *= 1e-7
			case 5, 6:
				// A surface point's normal: on a non-convex shape, a point
				// in a dent gives a profile with several local maxima.
				x := s.Point(-math.Pi+2*math.Pi*r.Float64(), -1.5+3*r.Float64())
				if m, ok := s.Normal(x); ok {
					n = m
				}
			}
			n = n.Normalize()
			want, _, _, ok1 := s.PointWithNormal(n)
			got, _, _, ok2 := tab.PointWithNormal(n)
			unp, _, _, ok3 := full.PointWithNormal(n)
			if !ok1 || !ok2 || !ok3 {
				t.Fatalf("%+v n=%v: ok %v %v %v", s, n, ok1, ok2, ok3)
			}
			cases++
			if got == want {
				same++
			}
			size := s.BoundingRadiusFast()
			for _, x := range []Vec3{got, unp} {
				if res, ok := s.Residual(x); !ok || math.Abs(res) > 1e-12 {
					t.Fatalf("%+v n=%v: the table's point %v is off the surface (%g)", s, n, x, res)
				}
				d := math.Abs(n.Dot(x)-n.Dot(want)) / size
				worst = max(worst, d)
				if d > 1e-12 {
					t.Fatalf("%+v n=%v: the table's support %.15g, the shape's %.15g (points %v, %v)", s, n, n.Dot(x), n.Dot(want), x, want)
				}
			}
			if withDense && j%4 == 0 {
				dense++
				h := denseSupport(&s, pts, na, nz, n)
				worstDense = max(worstDense, (h-n.Dot(got))/size)
				if h > n.Dot(got)+1e-9*size {
					t.Fatalf("%+v n=%v: the dense sample reaches %.12g, beyond the table's support %.12g", s, n, h, n.Dot(got))
				}
			}
		}
	}
	t.Logf("%d directions: %d the same point bit for bit, worst support difference %.2g of the size; %d dense checks, the sample at most %.2g beyond",
		cases, same, worst, dense, worstDense)
	t.Logf("%d searches with several local maxima, %d brackets pruned; %d brackets solved unpruned, each within its bound", multi, pruned, solves)
	if fallbacks > 0 {
		t.Errorf("%d searches fell back to the shape's scan: a bound or the scan failed", fallbacks)
	}
	if pruned < multi/2 {
		t.Errorf("the pruning skipped only %d brackets in %d searches with several", pruned, multi)
	}
	if same < cases*99/100 {
		t.Errorf("only %d of %d points equal to the shape's bit for bit", same, cases)
	}
}
