package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// rigidMoved returns b moved by the rigid motion x ↦ R(q)x + t.
func rigidMoved(b geom.Body, q geom.Quat, t geom.Vec3) geom.Body {
	b.Pose.Position = q.Rotate(b.Pose.Position).Add(t)
	b.Pose.Orientation = q.Mul(b.Pose.Orientation).Normalize()
	return b
}

// TestQuerySymmetries checks answers against themselves, without any
// reference: the distance between two bodies does not depend on which is
// a and which b, nor on where the pair stands in the world. For pairs over
// the whole validated range (semi-axes 0.3 to 2, exponents 0.05 to 1.95, a
// third of them at the ends, tapers ±0.5, random orientations), placed
// apart, overlapping, or moved to within 1e-2 of the size of touching
// along a first answer's normal, it queries (a, b), (b, a) and both bodies
// moved by one random rigid motion (turned, and shifted by up to 10).
// Where two answers converged they must agree to 1e-9 of the larger body's
// size (pairTol); an answer whose witnesses lie on their surfaces bounds a
// separated pair's distance from above, so a certified separated answer
// must be no farther apart than any other separated answer. No query may
// fail or answer a number that is not finite.
//
// Overlaps with a non-convex shape are the known limit (docs/contact.md,
// "Known limits"): their basins are searched, not proven, and the probe's
// directions are fixed in the world, so the same pair can be answered from
// different basins where it stands elsewhere. Those that disagree are
// logged and counted, at most 1 + n/1000 of them. The sweep found such
// pairs inside the range at SOVVIZ_SWEEP_SEED=3 (pair 3353: 0.0093
// deep, 0.0083 where the pair stood elsewhere) and 4 (pair 3149: 0.003153
// against 0.003134), and one that a tip's Newton seeds now mend at seed 2
// (pair 3218, TestTipSeeds).
//
// The default run takes 80 pairs; SOVVIZ_SYMMETRY_SWEEP=1 takes 4,000 (the
// first 80 are the default run's; about 45 s), SOVVIZ_SWEEP_SEED=N another
// draw.
//
//	SOVVIZ_SYMMETRY_SWEEP=1 go test -run QuerySymmetries -v ./contact
func TestQuerySymmetries(t *testing.T) {
	n := 80
	if testing.Short() {
		n = 20
	}
	if os.Getenv("SOVVIZ_SYMMETRY_SWEEP") == "1" {
		n = 4000
	}
	r := rand.New(sweepPCG(t, 31, 0x5eed5))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	opt := DefaultOptions()
	var sep, ovl, near, unconverged, searchDisagree int
	worst := 0.0
	for i := 0; i < n; i++ {
		a := geom.Body{Shape: endsShape(r), Pose: geom.Pose{Orientation: randQuat(r)}}
		b := geom.Body{Shape: endsShape(r), Pose: geom.Pose{Orientation: randQuat(r)}}
		placeApart(r, &a, &b)
		tol := pairTolOf(&a, &b)
		if i%3 == 2 {
			// Nearly touching: moved along a first answer's normal.
			first := Query(&a, &b, &opt)
			if first.Status == Failed || !finiteResult(&first) {
				t.Errorf("pair %d (%+v, %+v): first query %v %v", i, a, b, first.Status, first.Distance)
				continue
			}
			L := max(maxAxis(&a.Shape), maxAxis(&b.Shape))
			gap := (2*r.Float64() - 1) * math.Pow(r.Float64(), 3) * 1e-2 * L
			b.Pose.Position = b.Pose.Position.Add(first.Normal.Mul(gap - first.Distance))
			near++
		}
		q, sh := randQuat(r), geom.Vec3{u(-10, 10), u(-10, 10), u(-10, 10)}
		ma, mb := rigidMoved(a, q, sh), rigidMoved(b, q, sh)
		tag := fmt.Sprintf("pair %d (%+v, %+v)", i, a, b)
		ab := Query(&a, &b, &opt)
		ba := Query(&b, &a, &opt)
		mv := Query(&ma, &mb, &opt)
		answers := []struct {
			name string
			res  *Result
			a, b *geom.Body
		}{{"(a, b)", &ab, &a, &b}, {"(b, a)", &ba, &b, &a}, {"moved", &mv, &ma, &mb}}
		bad := false
		for _, x := range answers {
			if x.res.Status == Failed || !finiteResult(x.res) {
				t.Errorf("%s %s: %v, distance %v", tag, x.name, x.res.Status, x.res.Distance)
				bad = true
			}
			if x.res.Status != Converged {
				unconverged++
			}
		}
		if bad {
			continue
		}
		if ab.Distance > 0 {
			sep++
		} else {
			ovl++
		}
		// (An overlap with a non-convex shape is a known limit: the
		// searches for its basins are not a proof, and their directions
		// are fixed in the world; docs/contact.md, "Known limits".)
		disagree := false
		for j, x := range answers {
			for _, y := range answers[j+1:] {
				if x.res.Status != Converged || y.res.Status != Converged {
					continue
				}
				diff := math.Abs(x.res.Distance - y.res.Distance)
				if diff <= tol {
					worst = max(worst, diff/tol*certTol)
					continue
				}
				msg := fmt.Sprintf("%s: %s %v %.12g (certified %v) but %s %v %.12g (certified %v): %.3g apart",
					tag, x.name, x.res.Status, x.res.Distance, x.res.Certified, y.name, y.res.Status, y.res.Distance, y.res.Certified, diff)
				if ab.NonConvex != 0 && x.res.Distance < 0 && y.res.Distance < 0 {
					t.Log(msg + " (a non-convex overlap: a known limit)")
					disagree = true
					continue
				}
				t.Error(msg)
			}
		}
		if disagree {
			searchDisagree++
		}
		// A certified separated answer is the bodies' distance: no pair
		// of surface points found by another query is closer.
		for _, x := range answers {
			if !x.res.Certified || !(x.res.Distance > 0) {
				continue
			}
			for _, y := range answers {
				if y.res.Distance > 0 && y.res.Distance < x.res.Distance-tol && witnessesOnSurfaces(y.a, y.b, y.res, tol) {
					t.Errorf("%s: %s certified %.12g apart, but %s found surface points %.12g apart (%v)",
						tag, x.name, x.res.Distance, y.name, y.res.Distance, y.res.Status)
				}
			}
		}
	}
	t.Logf("%d pairs (%d moved to near touching): %d separated, %d overlapping; %d of the %d answers not converged; converged answers agree to %.3g of the size but in %d non-convex overlaps",
		n, near, sep, ovl, unconverged, 3*(sep+ovl), worst, searchDisagree)
	if searchDisagree > 1+n/1000 {
		t.Errorf("%d non-convex overlaps answered differently in different frames: more than the %d allowed", searchDisagree, 1+n/1000)
	}
	if sep == 0 || ovl == 0 {
		t.Errorf("the draw no longer gives both kinds of pair (%d separated, %d overlapping)", sep, ovl)
	}
}

// pairTolOf is pairTol for two bodies: 1e-9 of the larger one's largest
// semi-axis.
func pairTolOf(a, b *geom.Body) float64 {
	return certTol * max(maxAxis(&a.Shape), maxAxis(&b.Shape))
}

// witnessesOnSurfaces reports whether res's witnesses lie on their bodies'
// surfaces, each to tol radially (locus residual times its body's largest
// semi-axis), so that |Q − P| bounds the bodies' distance from above.
func witnessesOnSurfaces(a, b *geom.Body, res *Result, tol float64) bool {
	fa, okA := a.Shape.Residual(res.LocalP)
	fb, okB := b.Shape.Residual(res.LocalQ)
	return okA && okB && math.Abs(fa)*maxAxis(&a.Shape) <= tol && math.Abs(fb)*maxAxis(&b.Shape) <= tol
}
