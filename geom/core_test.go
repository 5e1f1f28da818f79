package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomShape draws a shape over the whole documented test range.
func randomShape(r *rand.Rand) Superovoid {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	return Superovoid{
		A:     [3]float64{u(0.3, 2), u(0.3, 2), u(0.3, 2)},
		Eps:   [2]float64{u(0.1, 1.9), u(0.1, 1.9)},
		Taper: [2]float64{u(-0.5, 0.5), u(-0.5, 0.5)},
	}
}

func TestParametricPointsOnSurface(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for i := 0; i < 20000; i++ {
		s := randomShape(r)
		p1 := -math.Pi + 2*math.Pi*r.Float64()
		p2 := -math.Pi/2 + math.Pi*r.Float64()
		x := s.Point(p1, p2)
		f, ok := s.Residual(x)
		if !ok {
			t.Fatalf("shape %+v point %v: residual undefined", s, x)
		}
		worst = math.Max(worst, math.Abs(f))
		d := s.Derivs(p1, p2)
		if d.X.Sub(x).Len() > 1e-14 {
			t.Fatalf("Derivs point %v differs from Point %v", d.X, x)
		}
	}
	if worst > 1e-12 {
		t.Errorf("parametric points miss G = 1 by up to %g in G^(e2/2)-1", worst)
	}
}

func TestGradientHessianMatchFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for i := 0; i < 5000; i++ {
		s := randomShape(r)
		// Points near the surface, away from the coordinate planes where the
		// Hessian is genuinely unbounded for e > 1.
		p1 := -math.Pi + 2*math.Pi*r.Float64()
		p2 := -1.4 + 2.8*r.Float64()
		x := s.Point(p1, p2).Mul(0.8 + 0.4*r.Float64())
		if math.Abs(x[0]) < 0.05 || math.Abs(x[1]) < 0.05 || math.Abs(x[2]) < 0.05 {
			continue
		}
		for _, resid := range []bool{false, true} {
			var ev Implicit
			var ok bool
			val := func(p Vec3) float64 {
				if resid {
					f, _ := s.Residual(p)
					return f
				}
				g, _ := s.G(p)
				return g
			}
			grad := func(p Vec3) Vec3 {
				if resid {
					e, _ := s.ResidualHessian(p, false)
					return e.Grad
				}
				e, _ := s.Gradient(p)
				return e.Grad
			}
			if resid {
				ev, ok = s.ResidualHessian(x, true)
			} else {
				ev, ok = s.Hessian(x)
			}
			if !ok {
				t.Fatalf("eval failed at %v for %+v", x, s)
			}
			if math.Abs(ev.G-val(x)) > 1e-12*math.Max(1, math.Abs(ev.G)) {
				t.Fatalf("value mismatch %v vs %v", ev.G, val(x))
			}
			h := 1e-6
			for j := 0; j < 3; j++ {
				xp, xm := x, x
				xp[j] += h
				xm[j] -= h
				fd := (val(xp) - val(xm)) / (2 * h)
				scale := math.Max(1, ev.Grad.Len())
				if math.Abs(fd-ev.Grad[j]) > 1e-5*scale {
					t.Fatalf("resid=%v shape %+v x %v: dG/dx%d = %v, FD %v", resid, s, x, j, ev.Grad[j], fd)
				}
				gp, gm := grad(xp), grad(xm)
				hs := 0.0
				for k := 0; k < 9; k++ {
					hs = math.Max(hs, math.Abs(ev.Hess[k]))
				}
				for i := 0; i < 3; i++ {
					fdh := (gp[i] - gm[i]) / (2 * h)
					if math.Abs(fdh-ev.Hess[j*3+i]) > 1e-4*math.Max(1, hs) {
						t.Fatalf("resid=%v shape %+v x %v: H[%d][%d] = %v, FD %v", resid, s, x, i, j, ev.Hess[j*3+i], fdh)
					}
				}
			}
			checked++
		}
	}
	if checked < 2000 {
		t.Fatalf("only %d points checked", checked)
	}
}

func TestParamDerivsMatchFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 5000; i++ {
		s := randomShape(r)
		p1 := -math.Pi + 2*math.Pi*r.Float64()
		p2 := -1.4 + 2.8*r.Float64()
		// stay away from the angles where |sin| or |cos| vanish for e < 1
		if math.Abs(math.Sin(p1)) < 0.1 || math.Abs(math.Cos(p1)) < 0.1 || math.Abs(math.Sin(p2)) < 0.1 {
			continue
		}
		d := s.Derivs(p1, p2)
		h := 1e-6
		a := s.Derivs(p1+h, p2)
		b := s.Derivs(p1-h, p2)
		c := s.Derivs(p1, p2+h)
		e := s.Derivs(p1, p2-h)
		check := func(name string, got, want Vec3, scale float64) {
			if got.Sub(want).Len() > 1e-5*math.Max(1, scale) {
				t.Fatalf("%s: %+v at (%v,%v): got %v want %v", name, s, p1, p2, got, want)
			}
		}
		check("X1", d.X1, a.X.Sub(b.X).Mul(1/(2*h)), d.X1.Len())
		check("X2", d.X2, c.X.Sub(e.X).Mul(1/(2*h)), d.X2.Len())
		check("X11", d.X11, a.X1.Sub(b.X1).Mul(1/(2*h)), d.X11.Len())
		check("X12", d.X12, c.X1.Sub(e.X1).Mul(1/(2*h)), d.X12.Len())
		check("X22", d.X22, c.X2.Sub(e.X2).Mul(1/(2*h)), d.X22.Len())
		// Parametric normal is parallel to, and oriented like, the gradient.
		n := d.ParamNormal()
		g, _ := s.Normal(d.X)
		if n.Normalize().Dot(g) < 1-1e-8 {
			t.Fatalf("param normal %v vs gradient normal %v", n.Normalize(), g)
		}
	}
}

func TestParamsInvertsPoint(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 20000; i++ {
		s := randomShape(r)
		p1 := -math.Pi + 2*math.Pi*r.Float64()
		p2 := -math.Pi/2 + math.Pi*r.Float64()
		x := s.Point(p1, p2)
		q1, q2 := s.Params(x)
		y := s.Point(q1, q2)
		if y.Sub(x).Len() > 1e-9*math.Max(1, x.Len()) {
			t.Fatalf("%+v (%v,%v) -> %v -> (%v,%v) -> %v", s, p1, p2, x, q1, q2, y)
		}
	}
}

func TestHouseholderFrameAndJacobian(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 10000; i++ {
		n := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Mul(0.1 + 3*r.Float64())
		tt, b, dt, db := HouseholderJac(n)
		nh := n.Normalize()
		if !Orthonormal(nh, tt, b, 1e-12) {
			t.Fatalf("frame of %v not orthonormal: %v %v", n, tt, b)
		}
		t2, b2 := TangentFrame(n)
		if nh.Cross(t2).Sub(b2).Len() > 1e-12 {
			t.Fatalf("TangentFrame not right-handed for %v", n)
		}
		if math.Abs(n[0]) < 1e-3 {
			continue // the σ branch switches there; FD across it is meaningless
		}
		h := 1e-7
		for k := 0; k < 3; k++ {
			np, nm := n, n
			np[k] += h
			nm[k] -= h
			tp, bp := Householder(np)
			tm, bm := Householder(nm)
			for j := 0; j < 3; j++ {
				if math.Abs((tp[j]-tm[j])/(2*h)-dt[k*3+j]) > 1e-5/n.Len() {
					t.Fatalf("dt/dn mismatch at %v", n)
				}
				if math.Abs((bp[j]-bm[j])/(2*h)-db[k*3+j]) > 1e-5/n.Len() {
					t.Fatalf("db/dn mismatch at %v", n)
				}
			}
		}
	}
}

func TestValidateNamesFieldAndValue(t *testing.T) {
	good := Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1}}
	cases := []struct {
		mod   func(*Superovoid)
		field string
	}{
		{func(s *Superovoid) { s.A[1] = 0 }, "a[1]"},
		{func(s *Superovoid) { s.A[2] = math.NaN() }, "a[2]"},
		{func(s *Superovoid) { s.Eps[0] = 0.01 }, "eps[0]"},
		{func(s *Superovoid) { s.Eps[1] = 2 }, "eps[1]"},
		{func(s *Superovoid) { s.Taper[0] = 0.6 }, "taper[0]"},
		{func(s *Superovoid) { s.Taper[1] = math.Inf(-1) }, "taper[1]"},
	}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		s := good
		c.mod(&s)
		err := s.Validate()
		pe, ok := err.(*ParamError)
		if !ok || pe.Field != c.field {
			t.Errorf("want error on %s, got %v", c.field, err)
		}
	}
}

// validCases are bodies at and beyond every limit Validate checks.
func validCases() []Body {
	good := Body{Shape: Superovoid{A: [3]float64{1, 1, 1}, Eps: [2]float64{1, 1}}, Pose: Identity()}
	vals := []float64{0, -1, MinLength, MinLength / 2, MaxLength, MaxLength * 2, MinEps, MinEps - 1e-12, MaxEps, MaxEps + 1e-12,
		MaxTaper, -MaxTaper, MaxTaper + 1e-12, -MaxTaper - 1e-12, 1 + quatTolerance, 1 + 2*quatTolerance, 0.5,
		math.NaN(), math.Inf(1), math.Inf(-1), 1e200}
	out := []Body{good}
	// At the quaternion tolerance's edge, where a fused multiply-add in one
	// norm and not the other made them disagree (GOAMD64=v3; review of
	// 2026-11-24).
	for _, q := range []Quat{{W: 0.9985013320323496, V: Vec3{0.07068302433840533, 0, 0}}, {W: 0.7429093752806305, V: Vec3{0.6708849827803148, 0, 0}}} {
		b := good
		b.Pose.Orientation = q
		out = append(out, b)
	}
	for field := 0; field < 14; field++ {
		for _, v := range vals {
			b := good
			switch {
			case field < 3:
				b.Shape.A[field] = v
			case field < 5:
				b.Shape.Eps[field-3] = v
			case field < 7:
				b.Shape.Taper[field-5] = v
			case field < 10:
				b.Pose.Position[field-7] = v
			case field == 10:
				b.Pose.Orientation.W = v
			default:
				b.Pose.Orientation.V[field-11] = v
			}
			out = append(out, b)
		}
	}
	return out
}

func TestValidMatchesValidate(t *testing.T) {
	for _, b := range validCases() {
		if got, want := b.Valid(), b.Validate() == nil; got != want {
			t.Errorf("%+v: Valid %v, Validate %v", b, got, b.Validate())
		}
		if got, want := b.Pose.Valid(), b.Pose.Validate() == nil; got != want {
			t.Errorf("%+v: Pose.Valid %v, Pose.Validate %v", b.Pose, got, b.Pose.Validate())
		}
	}
}

func FuzzValidMatchesValidate(f *testing.F) {
	for _, b := range validCases()[:42] {
		s, p := b.Shape, b.Pose
		f.Add(s.A[0], s.A[1], s.A[2], s.Eps[0], s.Eps[1], s.Taper[0], s.Taper[1], p.Position[0], p.Orientation.W, p.Orientation.V[0])
	}
	f.Fuzz(func(t *testing.T, a0, a1, a2, e0, e1, t0, t1, x, w, qx float64) {
		b := Body{Shape: Superovoid{A: [3]float64{a0, a1, a2}, Eps: [2]float64{e0, e1}, Taper: [2]float64{t0, t1}},
			Pose: Pose{Position: Vec3{x, 0, 1}, Orientation: Quat{W: w, V: Vec3{qx, 0, 0}}}}
		if got, want := b.Valid(), b.Validate() == nil; got != want {
			t.Errorf("%+v: Valid %v, Validate %v", b, got, b.Validate())
		}
	})
}

// LogResidualHessianPair interleaves two evaluations: each must be bit for
// bit LogResidualHessianInto's, inside and outside the domain of G, on the
// coordinate planes and with either side failing, and so must
// LogResidualHessianPairConsts's from constants formed once. (The two share
// only logRes.finish, whose formulas
// TestGradientHessianMatchFiniteDifferences checks; the stages before it
// are written twice.)
func TestLogResidualHessianPairMatchesSingle(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	point := func(s *Superovoid) Vec3 {
		p := Vec3{(2*r.Float64() - 1) * 1.5 * s.A[0], (2*r.Float64() - 1) * 1.5 * s.A[1], (2*r.Float64() - 1) * 3 * s.A[2]}
		switch r.IntN(7) {
		case 0:
			p[0] = 0 // on a coordinate plane
		case 1:
			p[1], p[2] = 0, 0
		case 2:
			p[r.IntN(2)] = 1e308 // in the domain, but G overflows
		}
		return p
	}
	same := func(a, b *Implicit) bool {
		if math.Float64bits(a.G) != math.Float64bits(b.G) {
			return false
		}
		for i := range a.Grad {
			if math.Float64bits(a.Grad[i]) != math.Float64bits(b.Grad[i]) {
				return false
			}
		}
		for i := range a.Hess {
			if math.Float64bits(a.Hess[i]) != math.Float64bits(b.Hess[i]) {
				return false
			}
		}
		return true
	}
	overflowed := 0
	failedA, failedB := 0, 0
	for k := 0; k < 20000; k++ {
		sa, sb := randomShape(r), randomShape(r)
		pa, pb := point(&sa), point(&sb)
		withHess := k%3 != 0
		var wa, wb, ga, gb Implicit
		okA := sa.LogResidualHessianInto(pa, withHess, &wa)
		okB := sb.LogResidualHessianInto(pb, withHess, &wb)
		gotA, gotB := LogResidualHessianPair(&sa, pa, &sb, pb, withHess, &ga, &gb)
		if gotA != okA || gotB != okB {
			t.Fatalf("case %d: ok %v %v, want %v %v", k, gotA, gotB, okA, okB)
		}
		ka, kb := sa.ImplicitConsts(), sb.ImplicitConsts()
		var ca, cb Implicit
		if cA, cB := LogResidualHessianPairConsts(&ka, pa, &kb, pb, withHess, &ca, &cb); cA != okA || cB != okB || !same(&ca, &wa) || !same(&cb, &wb) {
			t.Fatalf("case %d: pair from constants %v %v %+v %+v, single %v %v %+v %+v", k, cA, cB, ca, cb, okA, okB, wa, wb)
		}
		if !okA {
			failedA++
			if sa.InDomain(pa) {
				overflowed++
			}
		}
		if !okB {
			failedB++
		}
		// Bit for bit, NaNs included (an overflowed evaluation's).
		if !same(&ga, &wa) || !same(&gb, &wb) {
			t.Fatalf("case %d: pair %+v %+v, single %+v %+v", k, ga, gb, wa, wb)
		}
	}
	if failedA == 0 || failedB == 0 || overflowed == 0 {
		t.Fatalf("failing paths not all tried: %d and %d failed, %d of a's in the domain", failedA, failedB, overflowed)
	}
}

// BenchmarkLogResidualHessian: two shapes' evaluations one after the
// other and interleaved (LogResidualHessianPair), and interleaved from
// constants formed once (LogResidualHessianPairConsts, as the contact
// solver calls it).
func BenchmarkLogResidualHessian(b *testing.B) {
	s := Superovoid{A: [3]float64{1, 0.8, 1.2}, Eps: [2]float64{0.7, 0.5}, Taper: [2]float64{0.2, -0.3}}
	u := Superovoid{A: [3]float64{0.9, 1.1, 0.7}, Eps: [2]float64{0.4, 0.9}, Taper: [2]float64{-0.1, 0.3}}
	p, q := Vec3{0.3, 0.4, 0.5}, Vec3{0.2, -0.4, 0.3}
	var e, f Implicit
	b.Run("two", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			s.LogResidualHessianInto(p, true, &e)
			u.LogResidualHessianInto(q, true, &f)
		}
	})
	b.Run("pair", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			LogResidualHessianPair(&s, p, &u, q, true, &e, &f)
		}
	})
	ks, ku := s.ImplicitConsts(), u.ImplicitConsts()
	b.Run("pairConsts", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			LogResidualHessianPairConsts(&ks, p, &ku, q, true, &e, &f)
		}
	})
}

// TestRadialDistance checks the radial estimate against closed forms: a
// sphere's |x| − r at every scale down to subnormal coordinates, and a
// superellipsoid's along a ray, |x| − R with R the surface's distance
// along it (G^(e2/2) is homogeneous of degree 1, so R read at |x| = 1
// holds at every scale); the centre, where the ray has no direction, is
// not ok.
func TestRadialDistance(t *testing.T) {
	sp := Sphere(1.5)
	se := Superovoid{A: [3]float64{0.7, 1.2, 2}, Eps: [2]float64{0.3, 1.7}}
	dirs := []Vec3{{1, 0, 0}, {0.6, -0.8, 0}, {1, 2, -2}}
	for _, d := range dirs {
		d = d.Normalize()
		r1, ok := se.RadialDistance(d)
		if !ok {
			t.Fatalf("no estimate at %v", d)
		}
		R := 1 - r1
		for _, lam := range []float64{3, 0.5, 1e-90, 1e-120, 1e-160, 1e-170, 1e-300, 5e-320} {
			x := d.Mul(lam)
			if got, ok := sp.RadialDistance(x); !ok || math.Abs(got-(lam-1.5)) > 1e-12*1.5 {
				t.Errorf("sphere at %v·%v: %v %v, want %v", lam, d, got, ok, lam-1.5)
			}
			// (Along x's own direction: a subnormal x holds d to a few
			// digits only.)
			m := math.Max(math.Abs(x[0]), math.Max(math.Abs(x[1]), math.Abs(x[2])))
			u := Vec3{x[0] / m, x[1] / m, x[2] / m}
			ru, _ := se.RadialDistance(u)
			Rx := R
			if lam < 1e-300 {
				Rx = u.Len() - ru
			}
			if got, ok := se.RadialDistance(x); !ok || math.Abs(got-(lam-Rx)) > 1e-12*math.Max(lam, Rx) {
				t.Errorf("superellipsoid at %v·%v: %v %v, want %v", lam, d, got, ok, lam-Rx)
			}
		}
	}
	if _, ok := sp.RadialDistance(Vec3{}); ok {
		t.Errorf("an estimate at the centre")
	}
}

// ImplicitConsts.LogResidual is ln(1 + Residual) over the whole test range,
// inside, outside, on coordinate planes and axes and outside the domain, to
// 1e-14 of the larger of the two and of 1 (both come from the same kind of
// log-sum; LogResidual skips the final exponential).
func TestLogResidualMatchesResidual(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	worst := 0.0
	for i := 0; i < 50000; i++ {
		s := randomShape(r)
		k := s.ImplicitConsts()
		p := Vec3{(2*r.Float64() - 1) * 2 * s.A[0], (2*r.Float64() - 1) * 2 * s.A[1], (2*r.Float64() - 1) * 3 * s.A[2]}
		switch r.IntN(6) {
		case 0:
			p[0] = 0
		case 1:
			p[0], p[1] = 0, 0
		case 2:
			p = p.Mul(1e-3) // deep inside
		}
		f, ok := s.Residual(p)
		lf, lok := k.LogResidual(p)
		if ok != lok {
			t.Fatalf("shape %+v point %v: ok %v, Residual's %v", s, p, lok, ok)
		}
		if !ok {
			continue
		}
		want := math.Log1p(f)
		if math.IsInf(want, 0) {
			continue // F overflowed; ln(1 + F) did not
		}
		if w := p[2] / s.A[2]; 1+s.Taper[0]*w < 0.25 || 1+s.Taper[1]*w < 0.25 {
			// Near the domain's edge 1 + t·w cancels: both forms are as
			// exact as its rounding allows, and differ (1e-11 of F at
			// 1 + t·w = 3e-4). Bodies end where it is 0.5 or more.
			continue
		}
		// (Deep inside, F is near −1 and 1 + F keeps only the digits of
		// its last ulp: the reference's own error is about 2^-53/(1 + F).)
		tol := 1e-14*math.Max(1, math.Abs(want)) + 0x1p-52/(1+f)
		if d := math.Abs(lf-want) / tol; d > worst {
			worst = d
		}
	}
	if worst > 1 {
		t.Errorf("LogResidual differs from ln(1 + Residual) by up to %g times the tolerance", worst)
	}
}
