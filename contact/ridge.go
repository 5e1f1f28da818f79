package contact

import (
	"math"

	"github.com/sovviz/sovviz/geom"
)

// A pointy shape (e ≥ 1.6) is nearly a polyhedron: flat-ish faces joined by
// sharp ridges along its coordinate planes (x = 0 and y = 0 for a pointy e1,
// the equator z = 0 for a pointy e2) that meet in tips, and a closest pair
// lies on a ridge or a tip more often than not. Where the shape is also
// tapered into a non-convex one, that ridge or tip can lie where the convex
// hull bridges over the body, and no support seed (they are all on the
// hulls) starts near it: the query answered a pair 0.16 apart where a tip
// and a ridge were 6e-4 apart, or failed (TestRidgeSearch). ridgeSearch
// seeds Newton on the ridges themselves.

// ridgeSamples is the number of steps along each half-profile of a ridge
// (the equator gets four times as many: it is the four halves' length).
const ridgeSamples = 24

// ridgeStarts is the number of best-ranked ridge samples polished.
const ridgeStarts = 6

// pointy reports whether a shape has a pointy exponent, one cuspPolish
// charts (2/e below cuspMaxP).
func pointy(s *geom.Superovoid) bool {
	return 2/s.Eps[0] < cuspMaxP || 2/s.Eps[1] < cuspMaxP
}

// needsRidgeSearch reports whether the query's best pair so far leaves
// room for a closer pair on a pointy shape's ridges: none was found, it did
// not converge, or it is a separated pair that the support-plane certificate
// does not prove global. (A separated pair of convex shapes is proven
// already; an overlap is left to the stages before.)
func needsRidgeSearch(pr *pair, best *candidate) bool {
	if !pointy(pr.a) && !pointy(pr.b) {
		return false
	}
	if !best.valid || !best.converged {
		return true
	}
	return best.separated && !pr.convex && !hullCertified(pr, best)
}

// ridgeSeed is a sample on one body's ridge (side 0: a, 1: b) with its
// local point, the same point in the other body's frame, and its radial
// distance estimate from the other surface (negative inside).
type ridgeSeed struct {
	d       float64
	side    int
	own, in vec
}

// ridgeSearch samples the ridges of each pointy shape of the pair, ranks
// the samples by their radial distance from the other body, and solves
// from the best ridgeStarts: the sample and its foot on the other surface
// (projectPoint), in the chart of the pointy coordinates (cuspPolish), or
// by the schemes where no coordinate needs one. A converged pair replaces
// best when it is clearly better (better by more than the certificate's
// tolerance against a converged best).
func (sv *Solver) ridgeSearch(m Method, pr *pair, best *candidate, res *Result) {
	var top [ridgeStarts]ridgeSeed
	nt := 0
	keep := func(s ridgeSeed) {
		if nt == len(top) && !(s.d < top[nt-1].d) {
			return
		}
		if nt < len(top) {
			nt++
		}
		k := nt - 1
		for k > 0 && top[k-1].d > s.d {
			top[k] = top[k-1]
			k--
		}
		top[k] = s
	}
	for side := 0; side < 2; side++ {
		s, o, ts, to := pr.a, pr.b, &pr.ta, &pr.tb
		if side == 1 {
			s, o, ts, to = pr.b, pr.a, &pr.tb, &pr.ta
		}
		sample := func(p1, p2 float64) {
			x := s.Point(p1, p2)
			in := to.InvPoint(ts.Point(x))
			if d, ok := o.RadialDistance(in); ok && !math.IsNaN(d) {
				keep(ridgeSeed{d: d, side: side, own: x, in: in})
			}
		}
		if 2/s.Eps[0] < cuspMaxP {
			// The ridges on x = 0 and y = 0: four half-profiles from pole
			// to pole (the poles, tips, sampled on each).
			for _, p1 := range [4]float64{0, math.Pi / 2, math.Pi, -math.Pi / 2} {
				for k := 0; k <= ridgeSamples; k++ {
					sample(p1, -math.Pi/2+math.Pi*float64(k)/ridgeSamples)
				}
			}
		}
		if 2/s.Eps[1] < cuspMaxP {
			for k := 0; k < 4*ridgeSamples; k++ {
				sample(-math.Pi+2*math.Pi*float64(k)/(4*ridgeSamples), 0)
			}
		}
	}
	tol := pairTol(pr)
	for i := 0; i < nt; i++ {
		sd := &top[i]
		var lp, lq vec
		if sd.side == 0 {
			lp, lq = sd.own, sd.in
			if q, ok := projectPoint(pr.b, sd.in, sd.in); ok {
				lq = q
			}
		} else {
			lp, lq = sd.in, sd.own
			if p, ok := projectPoint(pr.a, sd.in, sd.in); ok {
				lp = p
			}
		}
		c, ok := sv.cuspPolish(pr, lp, lq, res)
		if !ok {
			c = sv.fromSeed(m, pr, lp, lq, res, nil)
		}
		if c.valid && c.converged && clearlyBetter(&c, best, tol) {
			*best = c
			res.Fallback = true
		}
	}
}
