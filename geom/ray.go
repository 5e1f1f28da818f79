package geom

import "math"

// Ray marching parameters of Raycast.
const (
	// raySteps samples the ray's chord through the bounding box. A dip of
	// the residual between samples (a grazing ray, a tip thinner than a
	// step) is caught by minimising over the bracketing samples; only two
	// separate dips between the same two samples (features thinner than
	// 1/256 of the box, side by side) can hide one another.
	raySteps = 256
	// rayTol is the accuracy of the hit, relative to the largest semi-axis.
	rayTol = 1e-12
)

// Raycast intersects the ray origin + t·dir, t ≥ 0, with the body's exact
// surface and returns the smallest t at which the ray crosses it: the
// entry point for a ray starting outside, the exit point for one starting
// inside (t = 0 when the origin lies on the surface). dir need not be of
// unit length; t is in units of dir. hit is false when the ray misses, or
// when the input is not finite or dir is zero.
//
// The ray is taken to the local frame and clipped to a box that bounds
// the shape (a1·(1+|tx|), a2·(1+|ty|), a3), the residual F = G^(e2/2) − 1
// is sampled along the chord, every local minimum of F between samples is
// refined (so that a ray clipping a tip between two samples still hits),
// and the first sign change is bisected to 1e-12 of the largest semi-axis.
func (b *Body) Raycast(origin, dir Vec3) (t float64, hit bool) {
	tr := b.Pose.Transform()
	return b.Shape.RaycastLocal(tr.InvPoint(origin), tr.InvDir(dir))
}

// RaycastLocal is Raycast with the ray given in the shape's local frame.
func (s *Superovoid) RaycastLocal(o, d Vec3) (t float64, hit bool) {
	if !finite3(o) || !finite3(d) || d.Dot(d) == 0 || s.Validate() != nil {
		return 0, false
	}
	amax := math.Max(s.A[0], math.Max(s.A[1], s.A[2]))
	// Box of the shape, grown a little so that the surface never lies on
	// a clipping plane (where rounding could drop a touching hit).
	h := s.LocalAABBFast().Max.Mul(1 + 1e-6)
	t0, t1 := 0.0, math.Inf(1)
	for k := 0; k < 3; k++ {
		if d[k] == 0 {
			if math.Abs(o[k]) > h[k] {
				return 0, false
			}
			continue
		}
		a, c := (-h[k]-o[k])/d[k], (h[k]-o[k])/d[k]
		if a > c {
			a, c = c, a
		}
		t0, t1 = math.Max(t0, a), math.Min(t1, c)
	}
	if !(t0 <= t1) {
		return 0, false
	}
	f := func(t float64) float64 {
		r, ok := s.Residual(o.Add(d.Mul(t)))
		if !ok || math.IsNaN(r) {
			return math.Inf(1)
		}
		return r
	}
	tol := rayTol * amax / d.Len()
	step := (t1 - t0) / raySteps
	fa := f(t0)
	if math.Abs(fa) <= rayTol {
		// On the surface to the accuracy of a hit (only the origin can
		// be: the box faces are well outside).
		return t0, true
	}
	inside := fa < 0
	// Walk the samples; keep the previous two to bracket minima of F.
	tp, fp := t0, fa            // previous sample
	tpp, fpp := t0, math.Inf(1) // so that a minimum at t0 is bracketed
	for i := 1; i <= raySteps; i++ {
		ti := t0 + step*float64(i)
		if i == raySteps {
			ti = t1
		}
		fi := f(ti)
		if (fi < 0) != inside || fi == 0 {
			return bisectRay(f, tp, ti, inside, tol), true
		}
		// A minimum of F between tpp and ti that stays above zero at the
		// samples: a grazing ray or a tip between samples. Find the
		// minimum; if F goes negative there, the crossing lies before it.
		if !inside && fp <= fpp && fp <= fi {
			if tm, fm := minimizeRay(f, tpp, ti); fm <= 0 {
				if fm == 0 {
					return tm, true
				}
				return bisectRay(f, tpp, tm, false, tol), true
			}
		}
		tpp, fpp = tp, fp
		tp, fp = ti, fi
	}
	// F still falling at the far end of the box (a tip touching the box
	// face): the minimum lies in the last two intervals.
	if !inside && fp < fpp {
		if tm, fm := minimizeRay(f, tpp, tp); fm <= 0 {
			if fm == 0 {
				return tm, true
			}
			return bisectRay(f, tpp, tm, false, tol), true
		}
	}
	return 0, false
}

// bisectRay finds the crossing of F in [a, b], where F(a) has the sign
// given by inside (negative when true) and F(b) the other, to tol.
func bisectRay(f func(float64) float64, a, b float64, inside bool, tol float64) float64 {
	for i := 0; i < 200 && b-a > tol; i++ {
		m := 0.5 * (a + b)
		fm := f(m)
		if fm == 0 {
			return m
		}
		if (fm < 0) == inside {
			a = m
		} else {
			b = m
		}
	}
	if inside {
		// Report the point just outside, so that the hit is never short
		// of the exit.
		return b
	}
	return a + (b-a)*0.5
}

// minimizeRay returns the minimiser of F on [a, b] by golden-section search
// (F along a chord is unimodal near a tip or a grazing contact), stopping
// early as soon as F goes negative.
func minimizeRay(f func(float64) float64, a, b float64) (float64, float64) {
	const g = 0.6180339887498949
	x1, x2 := b-g*(b-a), a+g*(b-a)
	f1, f2 := f(x1), f(x2)
	for i := 0; i < 80; i++ {
		if f1 <= 0 {
			return x1, f1
		}
		if f2 <= 0 {
			return x2, f2
		}
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
		return x1, f1
	}
	return x2, f2
}
