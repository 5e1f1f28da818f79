package geom

import (
	"math"
	"math/rand"
	"testing"
)

// ulpDiff is |a − b| in units of the last place of b.
func ulpDiff(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / (math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b))
}

// TestFastExpLog checks FastExp and FastLog against the math package over
// their whole fast range, densely, and their fallbacks at the edges.
func TestFastExpLog(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	worstExp, worstLog, worstLogAbs := 0.0, 0.0, 0.0
	for k := 0; k < 2_000_000; k++ {
		var x float64
		switch k % 4 {
		case 0:
			x = (rng.Float64()*2 - 1) * 700
		case 1:
			x = (rng.Float64()*2 - 1) * 4
		case 2:
			x = (rng.Float64()*2 - 1) * 1e-6
		default:
			x = float64(k%1401-700) + (rng.Float64()*2-1)*1e-9 // near table and exponent boundaries
		}
		if u := ulpDiff(FastExp(x), math.Exp(x)); u > worstExp {
			worstExp = u
		}
		var y float64
		switch k % 4 {
		case 0:
			y = math.Exp((rng.Float64()*2 - 1) * 708)
		case 1:
			y = 0.5 + rng.Float64()*1.5
		case 2:
			y = 1 + (rng.Float64()*2-1)*1e-6
		default:
			y = math.Ldexp(1+float64(k%128)/128, k%2001-1000) * (1 + (rng.Float64()*2-1)*1e-15)
		}
		want := math.Log(y)
		got := FastLog(y)
		if a := math.Abs(got - want); a > worstLogAbs {
			worstLogAbs = a
		}
		if math.Abs(want) >= 0.5 {
			if u := ulpDiff(got, want); u > worstLog {
				worstLog = u
			}
		}
	}
	t.Logf("worst: exp %.1f ulp, log %.1f ulp (|ln x| ≥ 0.5), log absolute %.2g", worstExp, worstLog, worstLogAbs)
	if worstExp > 3 {
		t.Errorf("FastExp is %.1f ulp off math.Exp", worstExp)
	}
	if worstLog > 2 {
		t.Errorf("FastLog is %.1f ulp off math.Log", worstLog)
	}
	// Near 1, where ln x → 0, the two intervals beside 1 use c = 1, so the
	// error stays relative there too.
	worstNear1 := 0.0
	for k := 0; k < 200_000; k++ {
		y := 1 + (rng.Float64()*2-1)*math.Ldexp(1, -(k%40)-1)
		if u := ulpDiff(FastLog(y), math.Log1p(y-1)); u > worstNear1 && y != 1 {
			worstNear1 = u
		}
	}
	if worstNear1 > 2 {
		t.Errorf("FastLog near 1 is %.1f ulp off", worstNear1)
	}
	if worstLogAbs > 2.3e-13 { // 2 ulp of ln(MaxFloat64) ≈ 709.8
		t.Errorf("FastLog absolute error %.2g", worstLogAbs)
	}
	for _, x := range []float64{0, -0.0, 700, -700, 700.0000001, 709.78, 709.79, -708, -745, -746, math.Inf(1), math.Inf(-1), math.NaN(), 1e-300} {
		got, want := FastExp(x), math.Exp(x)
		if !(got == want || ulpDiff(got, want) <= 2 || (math.IsNaN(got) && math.IsNaN(want))) {
			t.Errorf("FastExp(%v) = %v, want %v", x, got, want)
		}
	}
	for _, y := range []float64{1, 2, 0.5, 0, -0.0, -1, 5e-324, 0x1p-1022, math.MaxFloat64, math.Inf(1), math.NaN(), math.E} {
		got, want := FastLog(y), math.Log(y)
		if !(got == want || math.Abs(got-want) <= 2.3e-16*math.Max(1, math.Abs(want)) || (math.IsNaN(got) && math.IsNaN(want))) {
			t.Errorf("FastLog(%v) = %v, want %v", y, got, want)
		}
	}
	if FastLog(1) != 0 {
		t.Errorf("FastLog(1) = %v, want 0 exactly", FastLog(1))
	}
	if got := LogAddExp(1000, 1000); math.Abs(got-(1000+math.Ln2)) > 1e-12 {
		t.Errorf("LogAddExp(1000, 1000) = %v", got)
	}
	if got := LogAddExp(-1e308, 3); got != 3 {
		t.Errorf("LogAddExp(-1e308, 3) = %v", got)
	}
}

var fmSink float64

// BenchmarkFastMath measures the latency of chained calls, which is what the
// implicit function waits for: compare with the Math rows.
func BenchmarkFastMath(b *testing.B) {
	b.Run("FastExp", func(b *testing.B) {
		x := 0.3
		for i := 0; i < b.N; i++ {
			x = FastExp(x) * 0.25
		}
		fmSink = x
	})
	b.Run("MathExp", func(b *testing.B) {
		x := 0.3
		for i := 0; i < b.N; i++ {
			x = math.Exp(x) * 0.25
		}
		fmSink = x
	})
	b.Run("FastLog", func(b *testing.B) {
		x := 0.3
		for i := 0; i < b.N; i++ {
			x = FastLog(x+2) * 0.5
		}
		fmSink = x
	})
	b.Run("MathLog", func(b *testing.B) {
		x := 0.3
		for i := 0; i < b.N; i++ {
			x = math.Log(x+2) * 0.5
		}
		fmSink = x
	})
}
