package contact

import (
	"math"
	"math/rand/v2"

	"github.com/sovviz/sovviz/geom"
)

// BatterySpec describes a randomized battery of body pairs in the manner of
// paper 000 §5.1: both shapes share the semi-axes A, draw e1 and e2 uniformly
// from [EpsMin, EpsMax] and tx, ty uniformly from [-TaperMax, TaperMax], and
// take uniformly random orientations; a sits at the origin and b at Offset.
type BatterySpec struct {
	A              [3]float64
	EpsMin, EpsMax float64
	TaperMax       float64
	Offset         geom.Vec3
}

// PaperBatterySpec returns the battery of paper 000 §5.1: unit semi-axes,
// e1, e2 in [0.3, 1.1], tx, ty in [-0.4, 0.4], b at (0, 2.21, 0). Some of
// its pairs are separated, the others slightly overlapping.
func PaperBatterySpec() BatterySpec {
	return BatterySpec{
		A:        [3]float64{1, 1, 1},
		EpsMin:   0.3,
		EpsMax:   1.1,
		TaperMax: 0.4,
		Offset:   geom.Vec3{0, 2.21, 0},
	}
}

// Battery generates the pairs of a BatterySpec from a seed; the same spec and
// seed give the same pairs on every platform (math/rand/v2's PCG).
type Battery struct {
	spec BatterySpec
	r    *rand.Rand
}

// NewBattery returns a generator of spec's pairs seeded with seed.
func NewBattery(spec BatterySpec, seed uint64) *Battery {
	// The second PCG word is fixed so that a single seed names a battery.
	return &Battery{spec: spec, r: rand.New(rand.NewPCG(seed, 0x5eed_50f1))}
}

// Next returns the next pair (a, b).
func (g *Battery) Next() (a, b geom.Body) {
	return g.body(geom.Vec3{}), g.body(g.spec.Offset)
}

func (g *Battery) body(pos geom.Vec3) geom.Body {
	s := &g.spec
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*g.r.Float64() }
	var sh geom.Superovoid
	sh.A = s.A
	sh.Eps = [2]float64{u(s.EpsMin, s.EpsMax), u(s.EpsMin, s.EpsMax)}
	sh.Taper = [2]float64{u(-s.TaperMax, s.TaperMax), u(-s.TaperMax, s.TaperMax)}
	return geom.Body{Shape: sh, Pose: geom.Pose{Position: pos, Orientation: UniformQuat(g.r)}}
}

// PaperBattery returns n pairs of paper 000 §5.1's battery for seed.
func PaperBattery(n int, seed uint64) [][2]geom.Body {
	g := NewBattery(PaperBatterySpec(), seed)
	out := make([][2]geom.Body, n)
	for i := range out {
		out[i][0], out[i][1] = g.Next()
	}
	return out
}

// UniformQuat returns a unit quaternion drawn uniformly from the 3-sphere,
// i.e. a rotation drawn uniformly (Haar measure) from SO(3). Shoemake's
// method: two independent uniform points on circles, weighted by sqrt(1-u)
// and sqrt(u), make a uniform point on S³ (normalising a random 4-vector from
// a cube, or drawing Euler angles uniformly, would not).
func UniformQuat(r *rand.Rand) geom.Quat {
	u1, u2, u3 := r.Float64(), r.Float64(), r.Float64()
	s1, s2 := math.Sqrt(1-u1), math.Sqrt(u1)
	t2, t3 := 2*math.Pi*u2, 2*math.Pi*u3
	return geom.Quat{
		W: s2 * math.Cos(t3),
		V: geom.Vec3{s1 * math.Sin(t2), s1 * math.Cos(t2), s2 * math.Sin(t3)},
	}
}
