package geom

import "math"

// FastExp and FastLog are e^x and ln x to within 3 and 2 ulp of math.Exp and
// math.Log (TestFastExpLog checks them densely), at a third of their
// latency on amd64: the implicit function chains five of them per point
// (ln → exp → ln → exp → ln), so their latency, not their throughput, is
// what a Newton iteration of the contact solver waits for
// (go test -run '^$' -bench FastMath ./geom). Both use a 128-entry table
// and a short polynomial; arguments outside the fast range (overflow,
// underflow, subnormals, zero, negatives, Inf, NaN) go to the math package.

const (
	fmBits = 7
	fmN    = 1 << fmBits
	// ln 2 split so that k·ln2Hi is exact for |k| < 2^21 (fdlibm's split),
	// over fmN.
	fmLn2HiN = 6.93147180369123816490e-01 / fmN
	fmLn2LoN = 1.90821492927058770002e-10 / fmN
	fmShift  = 0x1.8p52 // adding it rounds to an integer held in the low bits
	// ln 2 split for the exponent term of FastLog (k up to 1074 exact).
	fmLn2Hi = 0x1.62e42fefa3800p-1
	fmLn2Lo = 0x1.ef35793c76730p-45
	fmOff   = 0x3fe6000000000000 // the bits of 0.6875
)

// fmTables are the read-only tables of FastExp and FastLog.
type fmTables struct {
	// exp2[i] holds the bits of 2^(i/fmN) less i<<(52−fmBits), so that
	// adding the rounded k<<(52−fmBits) yields 2^(k/fmN) directly.
	exp2 [fmN]uint64
	// invC[i] ≈ 1/c and logC[i] = −ln(invC[i]) for c the centre of the
	// i-th of fmN intervals of the reduced argument z in [0.6875, 1.375)
	// (c = 1 for the two intervals beside 1).
	invC, logC [fmN]float64
}

var fm = func() fmTables {
	var t fmTables
	for i := 0; i < fmN; i++ {
		t.exp2[i] = math.Float64bits(math.Exp2(float64(i)/fmN)) - uint64(i)<<(52-fmBits)
		lo := math.Float64frombits(fmOff + uint64(i)<<(52-fmBits))
		hi := math.Float64frombits(fmOff + uint64(i+1)<<(52-fmBits))
		c := 0.5 * (lo + hi)
		if lo == 1 || hi == 1 {
			c = 1 // the intervals beside 1: ln x exact to the last place near x = 1
		}
		t.invC[i] = 1 / c
		t.logC[i] = -math.Log(t.invC[i])
	}
	return t
}()

// FastExp returns e^x (see the block comment above for its accuracy).
func FastExp(x float64) float64 {
	if !(math.Abs(x) <= 700) {
		return math.Exp(x)
	}
	kd := x*(fmN/math.Ln2) + fmShift
	ki := math.Float64bits(kd)
	kd -= fmShift
	r := x - kd*fmLn2HiN - kd*fmLn2LoN // |r| ≤ ln2/256
	s := math.Float64frombits(fm.exp2[ki&(fmN-1)] + ki<<(52-fmBits))
	r2 := r * r
	p := r + r2*(0.5+r*(1.0/6)) + r2*r2*(1.0/24+r*(1.0/120)) // e^r − 1, error r⁶/720
	return s + s*p
}

// FastLog returns ln x (see the block comment above for its accuracy).
func FastLog(x float64) float64 {
	if !(x >= 0x1p-1022 && x <= math.MaxFloat64) {
		return math.Log(x)
	}
	// x = 2^k·z with z in [0.6875, 1.375), so that ln x near 1 is not the
	// difference of two large terms.
	b := math.Float64bits(x)
	tmp := b - fmOff
	i := (tmp >> (52 - fmBits)) & (fmN - 1)
	k := float64(int64(tmp) >> 52)
	z := math.Float64frombits(b - tmp&(0xfff<<52))
	r := math.FMA(z, fm.invC[i], -1) // |r| ≤ 1/128, one rounding
	r2 := r * r
	// ln(1 + r) − r to r⁸ (relative error r⁸/9 < 2e-18).
	p := r2 * (-0.5 + r*(1.0/3) + r2*(-0.25+r*(1.0/5)) + r2*r2*(-1.0/6+r*(1.0/7)+r2*(-1.0/8)))
	return k*fmLn2Hi + fm.logC[i] + r + (k*fmLn2Lo + p)
}

// LogAddExp returns ln(e^a + e^b) without overflow, to an absolute error of
// about 1e-16 (ln(1 + e^(b−a)) is FastLog(1 + ·), not log1p: a result near 0
// is not accurate relatively).
func LogAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	return a + FastLog(1+FastExp(b-a))
}
