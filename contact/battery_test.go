package contact

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// ksUniform returns the Kolmogorov–Smirnov statistic of xs (sorted in place)
// against the uniform distribution on [lo, hi].
func ksUniform(xs []float64, lo, hi float64) float64 {
	return ksCDF(xs, func(x float64) float64 { return (x - lo) / (hi - lo) })
}

func ksCDF(xs []float64, cdf func(float64) float64) float64 {
	sort.Float64s(xs)
	n := float64(len(xs))
	d := 0.0
	for i, x := range xs {
		f := cdf(x)
		d = math.Max(d, math.Max(math.Abs(float64(i+1)/n-f), math.Abs(f-float64(i)/n)))
	}
	return d
}

// ksCritical is the KS threshold at significance ~1e-4 (c = 2.2): a correct
// generator fails it with negligible probability for a fixed seed anyway.
func ksCritical(n int) float64 { return 2.2 / math.Sqrt(float64(n)) }

func TestPaperBatteryRangesAndDistributions(t *testing.T) {
	const n = 20000
	pairs := PaperBattery(n, 42)
	if len(pairs) != n {
		t.Fatalf("got %d pairs, want %d", len(pairs), n)
	}
	var eps, taper []float64
	for i, p := range pairs {
		for k, b := range p {
			if err := b.Validate(); err != nil {
				t.Fatalf("pair %d body %d invalid: %v", i, k, err)
			}
			if b.Shape.A != [3]float64{1, 1, 1} {
				t.Fatalf("pair %d body %d: a = %v, want unit semi-axes", i, k, b.Shape.A)
			}
			want := geom.Vec3{}
			if k == 1 {
				want = geom.Vec3{0, 2.21, 0}
			}
			if b.Pose.Position != want {
				t.Fatalf("pair %d body %d at %v, want %v", i, k, b.Pose.Position, want)
			}
			for _, e := range b.Shape.Eps {
				if e < 0.3 || e > 1.1 {
					t.Fatalf("pair %d body %d: eps %v outside [0.3, 1.1]", i, k, b.Shape.Eps)
				}
				eps = append(eps, e)
			}
			for _, tp := range b.Shape.Taper {
				if tp < -0.4 || tp > 0.4 {
					t.Fatalf("pair %d body %d: taper %v outside [-0.4, 0.4]", i, k, b.Shape.Taper)
				}
				taper = append(taper, tp)
			}
		}
	}
	if d := ksUniform(eps, 0.3, 1.1); d > ksCritical(len(eps)) {
		t.Errorf("eps not uniform on [0.3, 1.1]: KS %.4f > %.4f", d, ksCritical(len(eps)))
	}
	if d := ksUniform(taper, -0.4, 0.4); d > ksCritical(len(taper)) {
		t.Errorf("taper not uniform on [-0.4, 0.4]: KS %.4f > %.4f", d, ksCritical(len(taper)))
	}
}

func TestPaperBatterySeeded(t *testing.T) {
	a, b, c := PaperBattery(50, 7), PaperBattery(50, 7), PaperBattery(50, 8)
	same := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("pair %d differs between two runs with the same seed", i)
		}
		if a[i] == c[i] {
			same++
		}
	}
	if same > 0 {
		t.Errorf("%d pairs identical for seeds 7 and 8", same)
	}
	// A prefix of a longer battery is the shorter battery: -n only truncates.
	long := PaperBattery(80, 7)
	for i := range a {
		if long[i] != a[i] {
			t.Fatalf("pair %d of the 80-pair battery differs from the 50-pair one", i)
		}
	}
}

// TestUniformQuat checks that rotations are Haar-uniform: unit norm, each
// component with E[q_i²] = 1/4, a rotated axis uniform on the sphere
// (Archimedes: each coordinate uniform in [-1, 1]), E[R] = 0, and the
// rotation angle θ distributed with CDF (θ - sin θ)/π.
func TestUniformQuat(t *testing.T) {
	const n = 40000
	r := rand.New(rand.NewPCG(1, 2))
	var sq [4]float64
	var meanR [9]float64
	zs := make([][]float64, 3)
	angles := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		q := UniformQuat(r)
		c := [4]float64{q.W, q.V[0], q.V[1], q.V[2]}
		norm := 0.0
		for k, x := range c {
			sq[k] += x * x
			norm += x * x
		}
		if math.Abs(norm-1) > 1e-12 {
			t.Fatalf("quaternion %v has norm² %v", q, norm)
		}
		R := geom.Pose{Orientation: q}.Rotation()
		for k := range meanR {
			meanR[k] += R[k] / n
		}
		for axis := 0; axis < 3; axis++ {
			var e geom.Vec3
			e[axis] = 1
			v := q.Rotate(e)
			zs[axis] = append(zs[axis], v[(axis+1)%3])
		}
		angles = append(angles, 2*math.Acos(math.Min(1, math.Abs(q.W))))
	}
	for k := range sq {
		if m := sq[k] / n; math.Abs(m-0.25) > 0.01 {
			t.Errorf("E[q%d²] = %.4f, want 0.25", k, m)
		}
	}
	for k, m := range meanR {
		if math.Abs(m) > 0.02 {
			t.Errorf("E[R[%d]] = %.4f, want 0", k, m)
		}
	}
	for axis, z := range zs {
		if d := ksUniform(z, -1, 1); d > ksCritical(n) {
			t.Errorf("rotated axis %d: coordinate not uniform on [-1, 1]: KS %.4f", axis, d)
		}
	}
	if d := ksCDF(angles, func(th float64) float64 { return (th - math.Sin(th)) / math.Pi }); d > ksCritical(n) {
		t.Errorf("rotation angle not Haar-distributed: KS %.4f", d)
	}
}

// TestUniformQuatDetectsBias guards the test above: the classic mistake of
// normalising a vector drawn from the cube must fail the same statistics.
func TestUniformQuatDetectsBias(t *testing.T) {
	const n = 40000
	r := rand.New(rand.NewPCG(3, 4))
	angles := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		c := [4]float64{2*r.Float64() - 1, 2*r.Float64() - 1, 2*r.Float64() - 1, 2*r.Float64() - 1}
		l := math.Sqrt(c[0]*c[0] + c[1]*c[1] + c[2]*c[2] + c[3]*c[3])
		angles = append(angles, 2*math.Acos(math.Min(1, math.Abs(c[0]/l))))
	}
	if d := ksCDF(angles, func(th float64) float64 { return (th - math.Sin(th)) / math.Pi }); d <= ksCritical(n) {
		t.Errorf("cube-normalised quaternions passed the Haar angle test (KS %.4f): the test is too weak", d)
	}
}
