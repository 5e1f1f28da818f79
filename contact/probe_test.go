package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestProbeFindsBasin: overlaps of convex pointy or box-like shapes, 0.1 to
// 0.2 of the smaller semi-axis deep, whose best basin lies between the
// multi-start's seeds (review of 2026-12-04). Cold and warm (from the
// previous frame's answer), in every scheme, the answer is the polytope's
// certified translation distance (an independent computation: support
// points of the Minkowski difference, no common-normal equations). Before
// probeBasins they were answered 0.0248, 0.0241, 6.1e-4 and 0.0452 too
// deep, converged: the first and last cold, the first three warm.
func TestProbeFindsBasin(t *testing.T) {
	cases := []struct {
		name         string
		a, b, pa, pb geom.Body
	}{
		{"warm-pointy-jitter",
			refuteBody([3]float64{1.3609584497472897, 0.5038486182414892, 0.8019610140893211}, [2]float64{1.8781203579739896, 1.863158952639057}, [2]float64{}, [3]float64{0, 0, 0}, [4]float64{0.37639407594961088, 0.55621536668859173, -0.068061594721900778, 0.73778017374650695}),
			refuteBody([3]float64{0.5853460443585747, 1.1142366457021853, 0.9392108171999975}, [2]float64{1.6149840725258455, 1.9360219295483925}, [2]float64{}, [3]float64{0.57247738215105215, -1.3621180207611492, -1.0332494937350565}, [4]float64{0.19479061838907336, 0.089088907111205387, -0.61257157189807876, -0.76083891259559577}),
			refuteBody([3]float64{1.3609584497472897, 0.5038486182414892, 0.8019610140893211}, [2]float64{1.8781203579739896, 1.863158952639057}, [2]float64{}, [3]float64{0, 0, 0}, [4]float64{0.36669404577868142, 0.5546693189930717, -0.063115665701648282, 0.74424044239833009}),
			refuteBody([3]float64{0.5853460443585747, 1.1142366457021853, 0.9392108171999975}, [2]float64{1.6149840725258455, 1.9360219295483925}, [2]float64{}, [3]float64{0.58258588253256849, -1.3653212549685001, -1.0395364267609186}, [4]float64{0.19553516314422531, 0.10560729042164448, -0.61050708876314308, -0.76019352454089573})},
		{"warm-box",
			refuteBody([3]float64{0.7872431420041708, 1.256197067094007, 1.281233817799484}, [2]float64{0.08492655872336449, 0.1007538263396065}, [2]float64{}, [3]float64{0, 0, 0}, [4]float64{0.67293590288810801, -0.21816021851796977, -0.4595758774349894, -0.53698547702915023}),
			refuteBody([3]float64{1.2449260821099026, 1.4775519904814982, 1.1935612394486346}, [2]float64{1.327586529578612, 1.38}, [2]float64{0.07395138787667954, 0.07395138787667954}, [3]float64{2.5941650825874509, -0.20472999277258153, -1.327993337866072}, [4]float64{0.30835376026365452, -0.5668938072994304, -0.74763609838728096, -0.1568108228569087}),
			refuteBody([3]float64{0.7872431420041708, 1.256197067094007, 1.281233817799484}, [2]float64{0.08492655872336449, 0.1007538263396065}, [2]float64{}, [3]float64{0, 0, 0}, [4]float64{0.67432619600669286, -0.22660973394710296, -0.46067984614938701, -0.53076010514294436}),
			refuteBody([3]float64{1.2449260821099026, 1.4775519904814982, 1.1935612394486346}, [2]float64{1.327586529578612, 1.38}, [2]float64{0.07395138787667954, 0.07395138787667954}, [3]float64{2.5886230192957842, -0.2157624408412406, -1.314109174583745}, [4]float64{0.30703448152145568, -0.56177198251666116, -0.75201359360595943, -0.15690003775652195})},
		{"cold-mid-range",
			refuteBody([3]float64{0.5620071307813054, 1.4317513965485125, 0.9378605687281691}, [2]float64{1.6, 1.38}, [2]float64{0.3034530633201328, 0.3034530633201328}, [3]float64{0, 0, 0}, [4]float64{0.31014151530420025, 0.30398981105880368, 0.6668914781549411, -0.60552307274089201}),
			refuteBody([3]float64{1.359550127710637, 0.9120253724271915, 0.6595684540991458}, [2]float64{1.6, 1.6}, [2]float64{}, [3]float64{1.0633558355677835, -1.0893277918490618, -1.0909816396042893}, [4]float64{-0.10767362806344813, 0.93051804004555794, -0.026725453787070284, -0.34903913403699477}),
			refuteBody([3]float64{0.5620071307813054, 1.4317513965485125, 0.9378605687281691}, [2]float64{1.6, 1.38}, [2]float64{0.3034530633201328, 0.3034530633201328}, [3]float64{0, 0, 0}, [4]float64{0.30952907678558783, 0.29494426901947429, 0.66598556718766, -0.61127968483711848}),
			refuteBody([3]float64{1.359550127710637, 0.9120253724271915, 0.6595684540991458}, [2]float64{1.6, 1.6}, [2]float64{}, [3]float64{1.0479062459109845, -1.0873409564588354, -1.0889421004562152}, [4]float64{-0.11861825839267816, 0.92744112536336332, -0.02640591262636903, -0.35367413750370147})},
	}
	// The review's pointy pair (cold only): the implicit scheme crawls
	// from the probe's seeds, the parametric one converges.
	cases = append(cases, struct {
		name         string
		a, b, pa, pb geom.Body
	}{name: "cold-pointy",
		a: refuteBody([3]float64{1.1222445529607596, 1.3973728378971775, 1.4588658723787336}, [2]float64{1.9, 1.8180437818822832}, [2]float64{}, [3]float64{0, 0, 0}, [4]float64{0.27498741446041047, -0.67077561867920399, 0.21932849852597994, 0.65294486827622022}),
		b: refuteBody([3]float64{0.8661085447613197, 1.3715970728720341, 0.8317884177936995}, [2]float64{1.87728961326521, 1.9}, [2]float64{}, [3]float64{-1.0975789775606439, -0.34417602220890142, 1.7758181931931507}, [4]float64{-0.70182602830912899, 0.12347248338175429, -0.32357387093167911, 0.62249074040154706}),
	})
	cases[len(cases)-1].pa, cases[len(cases)-1].pb = cases[len(cases)-1].a, cases[len(cases)-1].b
	for _, c := range cases {
		want := certifiedOverlapRef(t, c.name, &c.a, &c.b)
		for _, mode := range checkModes {
			for _, m := range allMethods {
				sv := pointySolver(m, mode)
				cold := sv.Query(&c.a, &c.b)
				prev := sv.Query(&c.pa, &c.pb)
				warm := sv.QueryWarm(&c.a, &c.b, &prev)
				for _, r := range []struct {
					kind string
					res  Result
				}{{"cold", cold}, {"warm", warm}} {
					if math.Abs(r.res.Distance-want) > 1e-9 {
						t.Errorf("%s, %v, %v, %s: %.15g %v, the polytope's %.15g", c.name, m, mode, r.kind, r.res.Distance, r.res.Status, want)
					}
					if mode == withPolytope && !r.res.Certified {
						t.Errorf("%s, %v, %s: %.15g not certified", c.name, m, r.kind, r.res.Distance)
					}
				}
			}
		}
	}
}

// checkModes are the two ways the tests check a pointy convex pair's
// shallow overlaps: the default and the fallback.
var checkModes = []pointyMode{withPolytope, withProbe}

// TestProbeMissedBasins: five pointy convex overlaps of animations (a
// review's sweeps and TestProbeAnimation's, 2026-12-04) that every scheme
// answered too deep cold, converged, each for another reason of the
// probe's: a climb stopping part way up, where Newton stalls (the long
// climbs and ascentPair each mend it: it fails only without both), Newton
// stalling at a climb's exact top (the exact ascent's pair is the answer
// there: ascentPair), a tapered shape's estimated gap stopping below the
// answer (the tapered threshold), the basin's direction suppressed next to
// the best one (probeRank's fill), and a climb of 30 steps stopping short
// of a shallow basin (probeClimb). Each of the last four fails without
// its own part. Each answer must equal the polytope's certified
// translation distance.
func TestProbeMissedBasins(t *testing.T) {
	cases := []struct {
		name string
		a, b geom.Body
	}{
		{"a climb stopping part way up, where Newton stalls (was 0.0123 too deep)",
			refuteBody([3]float64{1.2486749426433992, 1.4550833476153606, 0.520116882608541}, [2]float64{1.924547444031827, 1.8234828399418037}, [2]float64{}, [3]float64{0, 0, 0}, [4]float64{0.64782474012186309, -0.17837560459345683, -0.64449514765596172, 0.36487155879828675}),
			refuteBody([3]float64{1.3008165833091168, 1.4231325819189142, 1.4434816335023584}, [2]float64{1.8228851402040351, 1.9441318992284944}, [2]float64{}, [3]float64{0.91504474083567411, 0.8501021392300192, -1.3142493234056052}, [4]float64{-0.88490977854093633, 0.21092946878217111, -0.33105329853903426, -0.25069335166360174})},
		{"tapered: the estimated climb stops below the answer (was 0.00113 too deep)",
			refuteBody([3]float64{1.2801079632439758, 1.1133746901747565, 1.377066901032844}, [2]float64{1.9432480173960518, 1.38}, [2]float64{-0.3104862281091507, -0.3104862281091507}, [3]float64{0, 0, 0}, [4]float64{-0.59799150254181976, -0.5032369159423854, 0.14493623098539932, -0.60675551770736014}),
			refuteBody([3]float64{0.6296722321311902, 1.4956444442285823, 1.4482260508598865}, [2]float64{1.8512649958041412, 1.9442390350598915}, [2]float64{}, [3]float64{0.037921734771252491, -1.3486319629717487, 0.93709004591856038}, [4]float64{0.10168235193744904, 0.57320681182902233, -0.72943262706765788, 0.35919728944752782})},
		{"Newton stalls at the climb's exact top (was 0.00405 too deep)",
			refuteBody([3]float64{1.4492307003791276, 1.373813209775486, 0.9379463434130976}, [2]float64{1.8443443357997802, 1.8910656801751937}, [2]float64{}, [3]float64{0, 0, 0}, [4]float64{0.29428473373400404, 0.4945892995522248, 0.79331793372900672, -0.19855622952572666}),
			refuteBody([3]float64{0.8850809833202378, 1.1645414564256695, 1.2204001280717804}, [2]float64{1.9121606304278331, 1.92222367559533}, [2]float64{}, [3]float64{1.9563104377879179, -0.38342954306957761, -0.45090058359597418}, [4]float64{-0.053596400525073903, -0.52741559215542511, 0.36397983606489837, 0.76581910262167452})},
		{"the basin's direction lies within 25° of the best (was 1.8e-4 too deep)",
			refuteBody([3]float64{0.9550696948602712, 1.3089223544596638, 0.8560433200932}, [2]float64{1.8293016624532141, 1.8077274425707905}, [2]float64{}, [3]float64{0, 0, 0}, [4]float64{-0.15644346972811629, -0.32776046332285558, -0.5095300101986463, 0.78004979851851375}),
			refuteBody([3]float64{0.46222177512020135, 1.4634656813692972, 1.3610874634043202}, [2]float64{1.8061144067257335, 1.900764076322466}, [2]float64{}, [3]float64{0.91667092133770345, -0.054671319667920958, 0.97568367730795613}, [4]float64{-0.042503821995781309, 0.2075077349786521, 0.54311762737416036, -0.81250058946147818})},
		{"a climb of 30 steps stops short of a shallow basin (was 2.8e-5 too deep)",
			refuteBody([3]float64{1.162941248205232, 1.4217053397498722, 1.195016031754358}, [2]float64{1.7928896642771524, 1.933507519763189}, [2]float64{}, [3]float64{0, 0, 0}, [4]float64{0.8795353862263707, -0.10841204753930062, -0.44007532123931753, -0.14490701832582056}),
			refuteBody([3]float64{1.155540259259639, 0.6272836541774034, 1.189128364416118}, [2]float64{1.6069926453602708, 1.6056361130442804}, [2]float64{}, [3]float64{0.11491007283155827, 0.18333441567435477, 1.4497443575113624}, [4]float64{-0.456855826661159, -0.28232302507035084, 0.6306690929413048, 0.5602079599304807})},
	}
	for _, c := range cases {
		want := certifiedOverlapRef(t, c.name, &c.a, &c.b)
		for _, mode := range checkModes {
			for _, m := range allMethods {
				got := pointySolver(m, mode).Query(&c.a, &c.b)
				if math.Abs(got.Distance-want) > 1e-9 || got.Status != Converged || mode == withPolytope && !got.Certified {
					t.Errorf("%s, %v, %v: %.15g %v certified %v, the polytope's %.15g", c.name, m, mode, got.Distance, got.Status, got.Certified, want)
				}
			}
		}
	}
}

// pointyOverlaps are n overlapping pairs of convex pointy shapes (exponents
// 1.6 to 1.9, semi-axes 0.5 to 1.5, untapered), b placed along a random
// direction at 0.8 to 1.1 of the sum of the bodies' smallest semi-axes
// from a: the shapes where the probe runs, at 0 to 0.3 of the smaller
// semi-axis deep mostly.
func pointyOverlaps(n int, seed uint64) [][2]geom.Body {
	r := rand.New(rand.NewPCG(seed, 77))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	var out [][2]geom.Body
	for len(out) < n {
		mk := func() geom.Superovoid {
			return geom.Superovoid{A: [3]float64{u(0.5, 1.5), u(0.5, 1.5), u(0.5, 1.5)}, Eps: [2]float64{u(1.6, 1.9), u(1.6, 1.9)}}
		}
		a := geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: UniformQuat(r)}}
		b := geom.Body{Shape: mk(), Pose: geom.Pose{Orientation: UniformQuat(r)}}
		out = append(out, placeOverlap(r, u, a, b))
	}
	return out
}

// placeOverlap places b along a random direction from a at 0.8 to 1.1 of
// the sum of the bodies' smallest semi-axes (u draws from r).
func placeOverlap(r *rand.Rand, u func(lo, hi float64) float64, a, b geom.Body) [2]geom.Body {
	dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	b.Pose.Position = dir.Mul(u(0.8, 1.1) * (minAxis(&a.Shape) + minAxis(&b.Shape)))
	return [2]geom.Body{a, b}
}

// TestProbeSweep: on 1,000 pointy convex pairs every overlapping answer is
// certified by the polytope, which checks them all (checkMTD); with the
// probe only (Solver.probeOnly: the fallback where the polytope cannot
// close its bounds), every answer shallower than the polytope's depth
// threshold is the polytope's certified translation distance to 1e-9,
// cold. Without the probe 4 of those are answered 0.0025–0.032 too deep.
func TestProbeSweep(t *testing.T) {
	cert := DefaultOptions()
	cert.CertifyOverlap = true
	ref := NewSolver(cert)
	pairs := pointyOverlaps(1000, 1)
	for _, mode := range checkModes {
		sv := pointySolver(Implicit, mode)
		checked, certified := 0, 0
		for i, p := range pairs {
			got := sv.Query(&p[0], &p[1])
			if !(got.Distance < 0) {
				continue
			}
			if got.Certified {
				certified++
				// (A sample against the independent reference: the
				// polytope's proof is the solver's own.)
				if certified%10 == 0 && !checkAgainstReference(t, &p[0], &p[1], got, fmt.Sprintf("pair %d", i)) {
					t.Errorf("%s, pair %d: certified %.12g disagrees with the reference search", mode, i, got.Distance)
				}
				continue
			}
			if mode == withPolytope {
				t.Errorf("pair %d: %.12g %v not certified", i, got.Distance, got.Status)
			}
			want := ref.Query(&p[0], &p[1])
			if !want.Certified {
				continue
			}
			checked++
			if math.Abs(got.Distance-want.Distance) > 1e-9 {
				t.Errorf("%s, pair %d: %.12g %v, the polytope's %.12g", mode, i, got.Distance, got.Status, want.Distance)
			}
		}
		if mode == withProbe && checked < 200 || mode == withPolytope && certified < 500 {
			t.Fatalf("%s: only %d overlaps checked, %d certified", mode, checked, certified)
		}
		t.Logf("%s: %d overlaps certified, %d checked against the polytope", mode, certified, checked)
	}
}

// TestProbeRankApart: the probe keeps the best directions above the floor
// more than 25° apart (each climb starts in a region of its own), all of
// them above it, the best among them; only when every direction above the
// floor lies within 25° of those kept does it fill the rest of its climbs
// with their best neighbours; and the directions are those, in that
// order, that a greedy pass over the directions sorted by gap keeps. At
// floors from every direction qualifying to few, on 300 pointy pairs,
// for the climbs of convex and of non-convex pairs. The rest of the
// directions above the floor are returned apart, for hullGapCheck.
// (The streaming ranking before 2026-12-04, where a
// direction replacing a worse kept one near it could land within 25° of
// another while directions far from both were left out, fails it, and so
// does suppression without the fill.)
func TestProbeRankApart(t *testing.T) {
	for i, p := range pointyOverlaps(300, 5) {
		pr := newPair(&p[0], &p[1])
		c := v3of(pr.tb.T).sub(v3of(pr.ta.T))
		gaps := make([]float64, len(probeDirs))
		hi := math.Inf(-1)
		for j := range probeDirs {
			gaps[j] = seGapV(&pr, probeDirs[j], c)
			hi = max(hi, gaps[j])
		}
		for _, below := range []float64{math.Inf(1), 1, 0.25, 0.05} {
			for _, climbs := range []int{probeStarts, probeStartsNonConvex} {
				floor := hi - below
				above := 0
				for j := range gaps {
					if gaps[j] > floor {
						above++
					}
				}
				top, nt, rest := probeRank(&pr, c, floor, climbs)
				// rest: every other direction above the floor, no other.
				for j := range probeDirs {
					kept := slices.Contains(top[:nt], probeDirs[j])
					if want := gaps[j] > floor && !kept; rest.has(j) != want {
						t.Errorf("pair %d floor hi-%g, %d climbs: direction %d (gap %g, kept %v) in rest %v, want %v", i, below, climbs, j, gaps[j], kept, rest.has(j), want)
					}
				}
				// The same choice by another route: every direction above the
				// floor by gap (ties to the lower index), each kept unless
				// within 25° of one kept before, then the rest in that order.
				var order []int
				for j := range gaps {
					if gaps[j] > floor {
						order = append(order, j)
					}
				}
				sort.SliceStable(order, func(x, y int) bool { return gaps[order[x]] > gaps[order[y]] })
				var want []int
				for _, j := range order {
					apart := true
					for _, k := range want {
						apart = apart && probeDirs[j].dot(probeDirs[k]) <= skipCos
					}
					if apart && len(want) < climbs {
						want = append(want, j)
					}
				}
				for _, j := range order {
					if len(want) < climbs && !slices.Contains(want, j) {
						want = append(want, j)
					}
				}
				for k := 0; k < nt && k < len(want); k++ {
					if top[k] != probeDirs[want[k]] {
						t.Errorf("pair %d floor hi-%g, %d climbs: kept direction %d is %v, want direction %d %v", i, below, climbs, k, top[k], want[k], probeDirs[want[k]])
					}
				}
				if nt != min(climbs, above) {
					t.Errorf("pair %d floor hi-%g, %d climbs: %d directions kept of %d above the floor", i, below, climbs, nt, above)
					continue
				}
				bestKept, twoNear := false, false
				for j := 0; j < nt; j++ {
					g := seGapV(&pr, top[j], c)
					if !(g > floor) {
						t.Errorf("pair %d: kept a direction at gap %g, floor %g", i, g, floor)
					}
					bestKept = bestKept || g == hi
					for k := j + 1; k < nt; k++ {
						twoNear = twoNear || top[j].dot(top[k]) > skipCos
					}
				}
				if !bestKept {
					t.Errorf("pair %d floor hi-%g, %d climbs: the best direction (gap %g) is not kept", i, below, climbs, hi)
				}
				if !twoNear {
					continue
				}
				// Filled: no direction above the floor is 25° from all kept.
				for j := range probeDirs {
					if !(gaps[j] > floor) {
						continue
					}
					nearKept := false
					for k := 0; k < nt; k++ {
						nearKept = nearKept || probeDirs[j].dot(top[k]) > skipCos
					}
					if !nearKept {
						t.Errorf("pair %d floor hi-%g, %d climbs: two kept directions within 25° while direction %d (gap %g) lies 25° from all", i, below, climbs, j, gaps[j])
						break
					}
				}
			}
		}
	}
}

// pointyMode is how the pointy benchmarks check a convex pair's shallow
// overlaps: with the polytope (the default), with probeBasins alone (as
// before 2026-12-05, and the fallback where the polytope cannot close its
// bounds), or with neither (the cost of the rest).
type pointyMode int

const (
	withPolytope pointyMode = iota
	withProbe
	withNeither
)

func (p pointyMode) String() string {
	return [...]string{"polytope", "probe only", "neither"}[p]
}

// pointySolver is the default solver in scheme m, checking pointy
// overlaps as mode says.
func pointySolver(m Method, mode pointyMode) *Solver {
	opt := DefaultOptions()
	opt.Method = m
	sv := NewSolver(opt)
	sv.probeOnly = mode != withPolytope
	sv.noProbe = mode == withNeither
	return sv
}

// BenchmarkQueryPointyOverlap, ...Probe and ...NoProbe: cold queries of
// the pointy overlaps, checked by the polytope (the default), by the probe
// alone, and by neither.
func BenchmarkQueryPointyOverlap(b *testing.B)        { benchPointy(b, withPolytope) }
func BenchmarkQueryPointyOverlapProbe(b *testing.B)   { benchPointy(b, withProbe) }
func BenchmarkQueryPointyOverlapNoProbe(b *testing.B) { benchPointy(b, withNeither) }

// BenchmarkQueryPointyOverlapWarm, ...WarmProbe and ...WarmNoProbe: warm
// queries of the pointy overlaps, b moving 1e-3 and both bodies turning
// 0.5° per query as in sovviz bench's warm run; the polytope or the probe
// runs at every warm step of such pairs.
func BenchmarkQueryPointyOverlapWarm(b *testing.B)        { benchPointyWarm(b, withPolytope) }
func BenchmarkQueryPointyOverlapWarmProbe(b *testing.B)   { benchPointyWarm(b, withProbe) }
func BenchmarkQueryPointyOverlapWarmNoProbe(b *testing.B) { benchPointyWarm(b, withNeither) }

func benchPointyWarm(b *testing.B, mode pointyMode) {
	benchWarmLoop(b, pointySolver(Implicit, mode), pointyOverlaps(200, 2), benchMotion)
}

// taperedPointyOverlaps are pointyOverlaps with convex tapered shapes
// (e2 1 to 1.38, equal tapers up to 0.35), whose supports are numeric.
func taperedPointyOverlaps(n int, seed uint64) [][2]geom.Body {
	r := rand.New(rand.NewPCG(seed, 78))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	var out [][2]geom.Body
	for len(out) < n {
		mk := func() geom.Superovoid {
			t := u(-0.35, 0.35)
			return geom.Superovoid{A: [3]float64{u(0.5, 1.5), u(0.5, 1.5), u(0.5, 1.5)}, Eps: [2]float64{u(1.6, 1.9), u(1.0, 1.38)}, Taper: [2]float64{t, t}}
		}
		sa, sb := mk(), mk()
		if !sa.Convexity().Convex || !sb.Convexity().Convex {
			continue
		}
		a := geom.Body{Shape: sa, Pose: geom.Pose{Orientation: UniformQuat(r)}}
		b := geom.Body{Shape: sb, Pose: geom.Pose{Orientation: UniformQuat(r)}}
		out = append(out, placeOverlap(r, u, a, b))
	}
	return out
}

// BenchmarkQueryTaperedPointyOverlap, ...Warm, and the same with the
// probe alone (...Probe, ...WarmProbe): the costliest pointy pairs, whose
// supports are numeric, cold and with sovviz bench's warm motion.
func BenchmarkQueryTaperedPointyOverlap(b *testing.B) {
	benchCold(b, pointySolver(Implicit, withPolytope), taperedPointyOverlaps(200, 2))
}

func BenchmarkQueryTaperedPointyOverlapProbe(b *testing.B) {
	benchCold(b, pointySolver(Implicit, withProbe), taperedPointyOverlaps(200, 2))
}

func BenchmarkQueryTaperedPointyOverlapWarm(b *testing.B) {
	benchWarmLoop(b, pointySolver(Implicit, withPolytope), taperedPointyOverlaps(200, 2), benchMotion)
}

func BenchmarkQueryTaperedPointyOverlapWarmProbe(b *testing.B) {
	benchWarmLoop(b, pointySolver(Implicit, withProbe), taperedPointyOverlaps(200, 2), benchMotion)
}

// nonConvexPointyOverlaps are overlapping pairs of pointy shapes (e 1.3
// to 1.9), a tapered non-convex one against any of them, placed as
// pointyOverlaps are.
func nonConvexPointyOverlaps(n int, seed uint64) [][2]geom.Body {
	r := rand.New(rand.NewPCG(seed, 79))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	mk := func(taper bool) geom.Superovoid {
		s := geom.Superovoid{A: [3]float64{u(0.5, 1.5), u(0.5, 1.5), u(0.5, 1.5)}, Eps: [2]float64{u(1.3, 1.9), u(1.3, 1.9)}}
		if taper {
			s.Taper = [2]float64{u(-0.5, 0.5), u(-0.5, 0.5)}
		}
		return s
	}
	var out [][2]geom.Body
	for len(out) < n {
		sa, sb := mk(true), mk(r.IntN(2) == 0)
		if sa.Convexity().Convex {
			continue
		}
		a := geom.Body{Shape: sa, Pose: geom.Pose{Orientation: UniformQuat(r)}}
		b := geom.Body{Shape: sb, Pose: geom.Pose{Orientation: UniformQuat(r)}}
		out = append(out, placeOverlap(r, u, a, b))
	}
	return out
}

// BenchmarkQueryNonConvexPointyOverlap and ...NoProbe: cold queries of
// pointy overlaps with a non-convex shape, which the probe searches since
// 2026-12-06 (TestProbeNonConvex), and without it: the probe's cost.
func BenchmarkQueryNonConvexPointyOverlap(b *testing.B) {
	benchCold(b, pointySolver(Implicit, withPolytope), nonConvexPointyOverlaps(200, 2))
}

func BenchmarkQueryNonConvexPointyOverlapNoProbe(b *testing.B) {
	benchCold(b, pointySolver(Implicit, withNeither), nonConvexPointyOverlaps(200, 2))
}

// BenchmarkQueryNonConvexPointyOverlapNoMoveOut is
// BenchmarkQueryNonConvexPointyOverlap without the move-out check
// (moveout.go), for its cost.
func BenchmarkQueryNonConvexPointyOverlapNoMoveOut(b *testing.B) {
	sv := pointySolver(Implicit, withPolytope)
	sv.noMoveOut = true
	benchCold(b, sv, nonConvexPointyOverlaps(200, 2))
}

// TestPointyBenchAllocs: the pointy benchmarks' timed loops allocate
// nothing. They once timed their solver's first queries too, so the
// polytope's scratch space (epa, 70 kB, made once per solver on its first
// epaCheck) read as 9 to 73 B/op, depending on b.N. (The bounds leave
// room for the runtime's own allocations, a few small objects; see
// TestNoAllocations, whose precautions it takes too.)
func TestPointyBenchAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs eleven benchmarks, 1–2 s each")
	}
	for _, bench := range []struct {
		name string
		f    func(*testing.B)
	}{{"PointyOverlap", BenchmarkQueryPointyOverlap}, {"PointyOverlapProbe", BenchmarkQueryPointyOverlapProbe},
		{"PointyOverlapNoProbe", BenchmarkQueryPointyOverlapNoProbe},
		{"PointyOverlapWarm", BenchmarkQueryPointyOverlapWarm}, {"PointyOverlapWarmProbe", BenchmarkQueryPointyOverlapWarmProbe},
		{"PointyOverlapWarmNoProbe", BenchmarkQueryPointyOverlapWarmNoProbe},
		{"TaperedPointyOverlap", BenchmarkQueryTaperedPointyOverlap}, {"TaperedPointyOverlapProbe", BenchmarkQueryTaperedPointyOverlapProbe},
		{"TaperedPointyOverlapWarm", BenchmarkQueryTaperedPointyOverlapWarm}, {"TaperedPointyOverlapWarmProbe", BenchmarkQueryTaperedPointyOverlapWarmProbe},
		{"NonConvexPointyOverlap", BenchmarkQueryNonConvexPointyOverlap}, {"NonConvexPointyOverlapWarm", BenchmarkQueryNonConvexPointyOverlapWarm}} {
		// (Each run after a completed collection cycle and with collection
		// off, and failing only when three runs in a row allocate: a cycle
		// ending in the timed loop counted the runtime's own 5,320 B there,
		// 0 B/op, in 2 of 12 runs under load, 2026-12-06; an allocation of
		// the solver's recurs in every run.)
		var r testing.BenchmarkResult
		quietRuns(func() bool {
			r = testing.Benchmark(bench.f)
			return r.N > 0 && r.MemAllocs <= 4 && r.MemBytes < 4096
		})
		if r.N == 0 {
			t.Errorf("BenchmarkQuery%s did not run", bench.name)
		} else if r.MemAllocs > 4 || r.MemBytes >= 4096 {
			t.Errorf("BenchmarkQuery%s allocates %d B over %d queries (%d B/op), in three runs", bench.name, r.MemBytes, r.N, r.AllocedBytesPerOp())
		}
	}
}

// benchPointy times cold queries of the pointy overlaps after a first pass
// over them (benchCold), which makes the solver's one-time state: the
// shapes' analyses and the polytope's scratch space.
func benchPointy(b *testing.B, mode pointyMode) {
	benchCold(b, pointySolver(Implicit, mode), pointyOverlaps(200, 2))
}

// TestProbeAnimation animates pointy convex pairs (exponents 1.6–1.95,
// untapered, or tapered with e2 ≤ 1.38 so that they stay convex) through
// each other, b gliding along the centres' line from 1.2 to 0.6 of the
// sum of the smaller semi-axes with a small sideways drift and both
// bodies turning 1° a step, and queries each step cold and warm
// (QueryWarm from the previous step) twice: with the polytope checking
// every overlap (the default), where each overlapping answer must be
// certified, a sample of them agreeing with the independent reference
// (checkAgainstReference), and with the probe alone (Solver.probeOnly:
// the fallback), where each uncertified answer is checked against the
// polytope's certified translation distance (CertifyOverlap): none may
// be shallower, or deeper, by more than 1e-9 of the size. 20 sequences of
// 60 steps by default; with SOVVIZ_PROBE_SWEEP=1, 200 of 150 and every
// scheme (about 3.5 minutes), where the probe alone's answers too deep
// are counted and logged, not failed: the probe is a search, and fresh
// draws find it missing basins.
//
//	SOVVIZ_PROBE_SWEEP=1 go test -count 1 -run TestProbeAnimation -v ./contact
//
// On 2026-12-05 the polytope certified all 43,284, 45,020 and 44,892
// overlapping answers (implicit, parametric, ntb); the probe alone left
// 11,612, 12,290 and 10,811 uncertified and 0, 0 and 1 of them too deep:
// ntb's cold answer at sequence 191, step 78, 0.00143 too deep, whose
// basin the gap climbs reach only from directions ranked below the three
// climbed. With SOVVIZ_SWEEP_SEED=12 the probe alone missed 3 (ntb, up to
// 0.00926), with 13 one (parametric, 0.00265), with 11 none. With
// probeClimb at 30 the probe also misses parametric's two answers at
// sequence 94, step 96, 2.8e-5 too deep (TestProbeMissedBasins holds that
// pair); the probe of 8999378 missed 10, 12 and 2 (worst 0.0163).
func TestProbeAnimation(t *testing.T) {
	seqs, steps := 20, 60
	methods := []Method{Implicit}
	full := os.Getenv("SOVVIZ_PROBE_SWEEP") == "1"
	// Every sample-th certified answer is checked against the independent
	// reference (about 0.15 s each).
	sample := 50
	if full {
		sample = 500
		seqs, steps = 200, 150
		methods = allMethods
	}
	r := rand.New(sweepPCG(t, 2026, 124))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	shape := func() geom.Superovoid {
		for {
			s := geom.Superovoid{A: [3]float64{u(0.5, 1.5), u(0.5, 1.5), u(0.5, 1.5)}, Eps: [2]float64{u(1.6, 1.95), u(1.6, 1.95)}}
			if r.IntN(2) == 0 {
				tp := u(-0.45, 0.45)
				s.Eps[1], s.Taper = u(1.3, 1.38), [2]float64{tp, tp}
			}
			if s.Convexity().Convex {
				return s
			}
		}
	}
	turn := func(q geom.Quat, ax geom.Vec3) geom.Quat {
		h := math.Pi / 180 / 2
		return geom.Quat{W: math.Cos(h), V: ax.Mul(math.Sin(h))}.Mul(q).Normalize()
	}
	cert := DefaultOptions()
	cert.CertifyOverlap = true
	refSv := NewSolver(cert)
	for _, m := range methods {
		// The same animations with the polytope checking every overlap
		// (the default: each must be certified) and with the probe only
		// (probeOnly: the fallback, each answer against the polytope's).
		var cold, warm [2]*Solver
		for i := range cold {
			cold[i], warm[i] = pointySolver(m, checkModes[i]), pointySolver(m, checkModes[i])
		}
		var checked, certified, deep [2]int
		var worst [2]float64
		for s := 0; s < seqs; s++ {
			a := geom.Body{Shape: shape(), Pose: geom.Pose{Orientation: UniformQuat(r)}}
			b := geom.Body{Shape: shape(), Pose: geom.Pose{Orientation: UniformQuat(r)}}
			dir := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
			side := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			side = side.Sub(dir.Mul(side.Dot(dir))).Normalize()
			sum := minAxis(&a.Shape) + minAxis(&b.Shape)
			axA := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
			axB := geom.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
			var prev [2]Result
			for k := 0; k < steps; k++ {
				f := float64(k) / float64(steps-1)
				b.Pose.Position = dir.Mul((1.2 - 0.6*f) * sum).Add(side.Mul(0.1 * sum * math.Sin(3*f)))
				if k > 0 {
					a.Pose.Orientation, b.Pose.Orientation = turn(a.Pose.Orientation, axA), turn(b.Pose.Orientation, axB)
				}
				var ref Result
				haveRef := false
				for i := range cold {
					c := cold[i].Query(&a, &b)
					var w Result
					if k > 0 {
						w = warm[i].QueryWarm(&a, &b, &prev[i])
					} else {
						w = warm[i].Query(&a, &b)
					}
					prev[i] = w
					for _, got := range []struct {
						kind string
						res  Result
					}{{"cold", c}, {"warm", w}} {
						if !(got.res.Distance < 0) {
							continue
						}
						if got.res.Certified {
							certified[i]++
							if certified[i]%sample == 0 && !checkAgainstReference(t, &a, &b, got.res, "certified") {
								t.Errorf("%v, %s, sequence %d step %d %s: certified %.12g disagrees with the reference search", m, checkModes[i], s, k, got.kind, got.res.Distance)
							}
							continue
						}
						if checkModes[i] == withPolytope {
							t.Errorf("%v sequence %d step %d %s: %.12g %v not certified", m, s, k, got.kind, got.res.Distance, got.res.Status)
						}
						if !haveRef {
							ref, haveRef = refSv.Query(&a, &b), true
						}
						if !ref.Certified || !(ref.Distance < 0) {
							continue
						}
						tol := 1e-9 * max(maxAxis(&a.Shape), maxAxis(&b.Shape))
						checked[i]++
						if got.res.Distance > ref.Distance+tol {
							t.Errorf("%v, %s, sequence %d step %d %s: %.12g, shallower than the polytope's proven minimum %.12g", m, checkModes[i], s, k, got.kind, got.res.Distance, ref.Distance)
						}
						if e := ref.Distance - got.res.Distance; e > tol {
							deep[i]++
							worst[i] = max(worst[i], e)
							report := t.Errorf
							if checkModes[i] == withProbe && full {
								// The probe alone is a search, and the
								// full sweep finds it missing basins
								// (docs/contact.md): counted, not failed.
								report = t.Logf
							}
							report("%v, %s, sequence %d step %d %s: %.12g, the polytope's %.12g (%.3g too deep)\na = %+v\nb = %+v", m, checkModes[i], s, k, got.kind, got.res.Distance, ref.Distance, e, a, b)
						}
					}
				}
			}
		}
		for i := range cold {
			t.Logf("%v, %s: %d overlapping answers certified; %d uncertified checked, %d too deep (worst %.3g)", m, checkModes[i], certified[i], checked[i], deep[i], worst[i])
		}
		if checked[1] < seqs || certified[0] < seqs {
			t.Errorf("%v: only %d answers of the probe checked, %d of the polytope certified", m, checked[1], certified[0])
		}
	}
}

// certifiedOverlapRef is the polytope's certified translation distance of
// a pair (CertifyOverlap), the reference of the probe's tests; the test
// stops if the polytope does not certify an overlap.
func certifiedOverlapRef(t *testing.T, name string, a, b *geom.Body) float64 {
	t.Helper()
	ref := DefaultOptions()
	ref.CertifyOverlap = true
	want := Query(a, b, &ref)
	if !want.Certified || !(want.Distance < 0) {
		t.Fatalf("%s: the polytope's reference %v is not a certified overlap", name, want.Distance)
	}
	// The default solver checks pointy overlaps with the same polytope:
	// the reference is checked against an independent computation too.
	if !checkAgainstReference(t, a, b, want, name) {
		t.Errorf("%s: the polytope's %.12g disagrees with the reference search", name, want.Distance)
	}
	return want.Distance
}

// TestWarmPolytopePolished: a warm step of TestProbeAnimation's sweep
// (SOVVIZ_SWEEP_SEED=11, parametric, sequence 142, step 107) where the
// polytope finds that the tracked basin is no longer the deepest one and
// Newton's pair from its direction crawls at b's pointy tip. A cold query
// polishes that pair (polishCusp) and certifies it; the warm one answered
// the polytope's pair max_iterations, uncertified, until the warm path
// polished it too.
func TestWarmPolytopePolished(t *testing.T) {
	sa := [3]float64{0.6743734334494865, 0.6975449247654077, 1.4416290223047636}
	ea, ta := [2]float64{1.7029794560659202, 1.318744259088901}, [2]float64{-0.260752967313418, -0.260752967313418}
	sb := [3]float64{1.2960102009900385, 0.6687611413590803, 1.2992057349971913}
	eb := [2]float64{1.6288291875858936, 1.9477563093313637}
	a0 := refuteBody(sa, ea, ta, [3]float64{}, [4]float64{-0.11709454361029868, -0.35584196425932185, -0.6480228855116784, -0.6631226916505616})
	b0 := refuteBody(sb, eb, [2]float64{}, [3]float64{0.5626376629486883, 0.3945627030177623, 0.7867861130571652}, [4]float64{0.4597715177124859, -0.3240246788939534, -0.5179492342697183, 0.6444740100946228})
	a1 := refuteBody(sa, ea, ta, [3]float64{}, [4]float64{-0.11131942998225493, -0.35751833518851445, -0.6435315129051287, -0.667574577414763})
	b1 := refuteBody(sb, eb, [2]float64{}, [3]float64{0.5593956666817584, 0.3918187033443852, 0.7831302028573182}, [4]float64{0.4590266173934659, -0.31673536915400513, -0.517261883162472, 0.6491636270451432})
	want := certifiedOverlapRef(t, "step 107", &a1, &b1)
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		sv := NewSolver(opt)
		prev := sv.Query(&a0, &b0)
		got := sv.QueryWarm(&a1, &b1, &prev)
		if !got.Warm || got.Status != Converged || !got.Certified || math.Abs(got.Distance-want) > 1e-9 {
			t.Errorf("%v: warm %v, %.12g %v certified %v; the polytope's %.12g", m, got.Warm, got.Distance, got.Status, got.Certified, want)
		}
	}
}

// TestPolytopeTightens: a cold parametric answer of TestProbeAnimation's
// sweep (SOVVIZ_SWEEP_SEED=12, sequence 137, step 103), Newton's pair
// crawled to at a pointy tip, converged 1.1e-9 deeper than the polytope's
// proven upper bound: within tol of it, so it was kept, but 1.8e-9 from
// the lower bound, so it was not certified. Newton from the polytope's
// direction now converges to a pair between the bounds, certified, in
// every scheme, and the independent reference agrees.
func TestPolytopeTightens(t *testing.T) {
	a := refuteBody([3]float64{1.4612057299901011, 1.2859052697100513, 0.8586990112403924}, [2]float64{1.752741347003654, 1.3715529910366921}, [2]float64{0.3315883599852761, 0.3315883599852761}, [3]float64{}, [4]float64{0.618807474776489, 0.13010749437497449, 0.25235534476606036, -0.7324384814004641})
	b := refuteBody([3]float64{0.5243371343609002, 0.701842189327501, 0.6704089358054197}, [2]float64{1.6095536138982156, 1.8789671450774519}, [2]float64{}, [3]float64{-0.03409657452416956, -0.23055074220678923, 1.0676048943109009}, [4]float64{0.5843013216043722, -0.7720765342310821, 0.001234143325632383, 0.24997653440145295})
	pr := newPair(&a, &b)
	var sv Solver
	e := sv.polytope()
	bd, ok := e.run(&pr, pairTol(&pr), math.Inf(1))
	if !ok {
		t.Fatal("the polytope did not run")
	}
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		got := Query(&a, &b, &opt)
		d := -got.Distance
		if got.Status != Converged || !got.Certified || d < bd.lower-pairTol(&pr) || d > bd.upper+pairTol(&pr) {
			t.Errorf("%v: %.12g %v certified %v; the polytope's bounds %.12g to %.12g", m, got.Distance, got.Status, got.Certified, -bd.upper, -bd.lower)
		}
		if !checkAgainstReference(t, &a, &b, got, m.String()) {
			t.Errorf("%v: %.12g disagrees with the reference search", m, got.Distance)
		}
	}
}

// TestPolytopePairNormal: a deep overlap of TestProbeAnimation's sweep
// (SOVVIZ_SWEEP_SEED=11, implicit, sequence 21, step 106) that the
// implicit and ntb schemes answered with the polytope's own pair, Newton
// from its direction converging in no scheme. The depth was right, but
// the normal was the closest face's, whose support gap was 1.7e-9 deeper:
// translating b by the depth along it left the bodies overlapping. The
// normal is now the direction whose gap is the depth, and the pair, no
// longer along it, is polished to the exact one (polishCusp): every
// scheme answers the exact pair, certified.
func TestPolytopePairNormal(t *testing.T) {
	a := refuteBody([3]float64{0.7369412507450525, 1.4797640493099153, 1.2642212065799667}, [2]float64{1.6369634512666245, 1.3511018847692278}, [2]float64{0.23349537858885933, 0.23349537858885933}, [3]float64{}, [4]float64{-0.675513641710435, 0.07337971414414972, -0.6475175867292406, 0.3449894379420516})
	b := refuteBody([3]float64{1.3554670453715296, 1.2188661819586688, 0.6591005113225682}, [2]float64{1.8469779588082278, 1.3292357579980514}, [2]float64{-0.23589166715722806, -0.23589166715722806}, [3]float64{-0.6404044658135151, 0.6189762819589911, 0.6210389023300227}, [4]float64{-0.4587731750314547, 0.8328935540616577, 0.0504656057073599, 0.3053992863689969})
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		got := Query(&a, &b, &opt)
		if !got.Certified || !checkAgainstReference(t, &a, &b, got, m.String()) {
			t.Errorf("%v: %.12g %v certified %v, not the reference's", m, got.Distance, got.Status, got.Certified)
		}
	}
}

// TestPolytopeFallback: where the polytope cannot close its bounds on a
// pointy pair's shallow overlap (forced here: Solver.shallowPolytopeFails;
// the sweeps never meet it), the answer is the probe's, cold and warm:
// bit for bit what the probe alone (Solver.probeOnly) answers.
func TestPolytopeFallback(t *testing.T) {
	pairs := pointyOverlaps(120, 3)
	fb, probe := NewSolver(DefaultOptions()), pointySolver(Implicit, withProbe)
	fb.shallowPolytopeFails = true
	turn := geom.Quat{W: math.Cos(0.005), V: geom.Vec3{0, math.Sin(0.005), 0}}
	compared, uncertified := 0, 0
	for i := range pairs {
		a, b := pairs[i][0], pairs[i][1]
		var pf, pp Result
		for k := 0; k < 4; k++ {
			var rf, rp Result
			if k == 0 {
				rf, rp = fb.Query(&a, &b), probe.Query(&a, &b)
			} else {
				rf, rp = fb.QueryWarm(&a, &b, &pf), probe.QueryWarm(&a, &b, &pp)
			}
			if rf.Distance != rp.Distance || rf.Status != rp.Status || rf.Certified != rp.Certified || rf.Normal != rp.Normal {
				t.Errorf("pair %d step %d: %.15g %v certified %v with the polytope failing, %.15g %v certified %v with the probe alone", i, k, rf.Distance, rf.Status, rf.Certified, rp.Distance, rp.Status, rp.Certified)
			}
			compared++
			if rf.Distance < 0 && !rf.Certified {
				uncertified++
			}
			pf, pp = rf, rp
			b.Pose.Position = b.Pose.Position.Add(geom.Vec3{0.004, -0.003, 0.002})
			b.Pose.Orientation = turn.Mul(b.Pose.Orientation).Normalize()
		}
	}
	if uncertified < 50 {
		t.Fatalf("only %d of %d answers were overlaps left to the probe", uncertified, compared)
	}
	t.Logf("%d answers compared, %d overlaps left to the probe", compared, uncertified)
	// Cold pairs where the probe changes the answer (pointyOverlaps(1000,
	// 1): without it 4 are too deep), so that the cold fallback is seen
	// to run, witnesses included.
	neither := pointySolver(Implicit, withNeither)
	changed := 0
	all := pointyOverlaps(1000, 1)
	for _, i := range []int{55, 584, 795, 918} {
		a, b := &all[i][0], &all[i][1]
		rf, rp, rn := fb.Query(a, b), probe.Query(a, b), neither.Query(a, b)
		if rf.Distance != rp.Distance || rf.P != rp.P || rf.Q != rp.Q || rf.Normal != rp.Normal || rf.Certified != rp.Certified {
			t.Errorf("cold pair %d: %.15g with the polytope failing, %.15g with the probe alone", i, rf.Distance, rp.Distance)
		}
		if rp.Distance != rn.Distance {
			changed++
		}
	}
	if changed == 0 {
		t.Errorf("the probe changed none of the cold answers: the fallback is not seen to run")
	}
}

// A tapered pointy shape (e 1.85, tapers −0.30 and −0.36: non-convex)
// overlapping a convex pointy one 0.28 of the smaller semi-axis deep was
// answered 0.113528, converged, in the implicit and ntb schemes, where the
// parametric scheme converged to 0.077284 along another normal: the
// multi-start's starts met only the deeper basin in those schemes, and the
// probe did not run on non-convex shapes. (Found by moving overlapping
// answers along their normals by half their depth and 0.9 of it, where the
// moved query must answer the rest of the depth: seed 18, pair 1496 of
// TestMovedAlongNormalSweep's draw, moved 0.9, answered 0.0095 for 0.0114.)
// The check is independent of the solver: b moved 0.078057 along a fixed
// direction is apart from a by dense samples (refinedDeepest), so no
// answer may be deeper, and each answer moved along its own normal by
// 0.99 times its depth must still overlap, by 1.01 times be apart.
func TestProbeNonConvex(t *testing.T) {
	a := refuteBody([3]float64{0.6336718137658226, 0.7574237537450991, 1.7559771947092753}, [2]float64{1.8546566831713507, 1.852390652750304}, [2]float64{-0.29762351834817335, -0.36342710511282483}, [3]float64{0, 0, 0}, [4]float64{0.6435374104848388, -0.05158069655657019, -0.14408941906847317, 0.7499581804085592})
	b := refuteBody([3]float64{0.559009164296532, 0.4106578693508705, 0.9292986992252026}, [2]float64{1.7920665858356806, 1.6346206416813052}, [2]float64{0.20683522313004754, -0.143735330577778}, [3]float64{-1.1767697888535114, -0.5866012163327187, 0.3348941706004547}, [4]float64{0.2099011966676423, -0.8323163497183093, -0.27859824734043764, -0.43078300594141034})
	apart := geom.Vec3{-0.9345024055736151, 0.2981976670608709, 0.19437953939800454}.Mul(0.0780572)
	checkNoDeeperThanApart(t, &a, &b, apart, "the probe", false, nil)
}

// BenchmarkQueryNonConvexPointyOverlapWarm: the same pairs warm-started
// through sovviz bench's motion (benchWarmLoop).
func BenchmarkQueryNonConvexPointyOverlapWarm(b *testing.B) {
	sv := pointySolver(Implicit, withPolytope)
	benchWarmLoop(b, sv, nonConvexPointyOverlaps(200, 2), benchMotion)
	// (The tracked overlaps moveOutWarm checks in full: TestMoveOutWarmTracked.)
	b.ReportMetric(float64(sv.warmTrackedChecks)/float64(b.N), "tracked-checks/op")
}

// TestProbeNonConvexClimbs: pair 121 of twoPlacePairs with b placed at
// step 6 of an approach from a random direction (a scratch sweep of
// approaches): the implicit and ntb schemes answered 0.054460, where the
// parametric scheme (and the warm start through the approach) found
// 0.053223 along a normal 34° away. The basin's directions ranked fourth
// or lower by the hulls' closed-form gap, below the three climbs that
// convex pairs take (the polytope checks those). A scratch scan of 600
// directions, bisecting the moved queries' sign, found the same depth
// along the same direction. The check is independent of the solver: b
// moved 0.0532240 along that direction is apart from a by dense samples.
func TestProbeNonConvexClimbs(t *testing.T) {
	a, b := twoPlacePairs[0].a, twoPlacePairs[0].b
	b.Pose.Position = geom.Vec3{0.774653176379997, 1.5488321848550808, -0.5352521915476633}
	apart := geom.Vec3{0.4975466353387911, 0.45309830766013603, -0.7396953895074435}.Mul(0.053224)
	// (The climbs alone: deepSeeds finds this pair too.)
	checkNoDeeperThanApart(t, &a, &b, apart, "the climbs", true, func(sv *Solver) { sv.noDeepSeeds, sv.noTips = true, true })
}

// TestProbeNonConvexWarm: warm starts through an approach of pair 121 of
// twoPlacePairs from a random direction (100 steps from a separated
// start) answer what cold queries answer. The warm search skipped the
// probe on non-convex pairs while its lead held, and at steps 19 and 20
// tracked a pair 0.0885 and 0.1070 deep where the cold queries' 0.0739
// and 0.0763 separate the bodies (dense samples, checked here too).
func TestProbeNonConvexWarm(t *testing.T) {
	a, b := twoPlacePairs[0].a, twoPlacePairs[0].b
	end := b.Pose.Position
	start := geom.Vec3{1.2575260992471622, 2.114949666554643, 0.1953088333985985}
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		sv, cold := NewSolver(opt), NewSolver(opt)
		var prev Result
		for k := 0; k <= 24; k++ {
			b.Pose.Position = start.Add(end.Sub(start).Mul(float64(k) / 100))
			if k == 0 {
				prev = sv.Query(&a, &b)
				continue
			}
			w := sv.QueryWarm(&a, &b, &prev)
			c := cold.Query(&a, &b)
			tag := fmt.Sprintf("%v step %d", m, k)
			if w.Status != Converged || math.Abs(w.Distance-c.Distance) > 1e-9 {
				t.Errorf("%s: warm %v %.9f, cold %v %.9f", tag, w.Status, w.Distance, c.Status, c.Distance)
			}
			if k == 19 || k == 20 {
				checkDepthBySamples(t, &a, &b, &w, 0.01, tag)
				checkNoShorterNearby(t, &a, &b, &w, tag)
			}
			prev = w
		}
	}
}

// TestDeepSeeds: a ridge of a pointy tapered shape (x = 0, exponents 1.83
// and 1.78) pressed into the face of another, 0.0929 deep (pair 75 of
// TestApproachSweep's second draw, step 10), was answered 0.175150 in every scheme: the
// probe's climbs of the hulls' gap never lead to the ridge, and Newton
// from the multi-start's seeds converges elsewhere. deepSeeds starts from
// the deepest point of a's surface inside b, on the ridge. A scratch scan
// of 300 directions, bisecting the moved queries' sign, found 0.092880
// along the answer's normal; the check here is independent of the solver:
// b moved 0.0928797 along that direction is apart from a by dense samples,
// so no answer may be deeper.
func TestDeepSeeds(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.6539365689389738, 1.871683540106307, 1.3031647264282753}, Eps: [2]float64{1.8317251790033635, 1.7811384712092928}, Taper: [2]float64{0.15732908611590823, 0.2744469261215128}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.29329471504972976, V: geom.Vec3{0.7506842816901096, -0.13530286989759777, 0.5763197487027282}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.8610746061677128, 0.5950426795961764, 0.7455594999027281}, Eps: [2]float64{1.7976827002718567, 1.6944884270429716}, Taper: [2]float64{-0.45198847173916146, -0.3800552939294026}},
		Pose: geom.Pose{Position: geom.Vec3{-1.3869019908184161, -1.7127619517443347, 0.8389434584980622}, Orientation: geom.Quat{W: -0.25636506154899374, V: geom.Vec3{0.6510351045813674, 0.21785948368210614, 0.6804171464546398}}}}
	apart := geom.Vec3{-0.9556722604379319, 0.02463669487429161, 0.293400006637909}.Mul(0.0928797)
	checkNoDeeperThanApart(t, &a, &b, apart, "deepSeeds", true, nil)
}

// TestDeepSeedsAllSchemes: step 24 of an approach of TestApproachSweep
// with SOVVIZ_SWEEP_SEED=41 (draw 0, pair 7): two pointy tapered shapes
// (exponents 1.81 to 1.89). From the deepest point of b inside a the
// implicit scheme converges to 0.0364965, along whose normal the bodies
// part, while the parametric and ntb schemes converge to 0.0365794 (the
// answer they gave, 8° away); fromSeed stops at the configured scheme's
// converged pair. Where that pair does not beat the answer, each later
// scheme's overlap from deepSeeds' seeds now competes, as from the probe's
// climbs: every scheme must answer no deeper than b
// moved 1.0001 times the depth along the implicit answer's normal, apart
// by dense samples; without it the parametric answer is the deeper one.
func TestDeepSeedsAllSchemes(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.7095776289727169, 0.4437260995543056, 0.9388917506421919}, Eps: [2]float64{1.8110503156410436, 1.8496342271057806}, Taper: [2]float64{0.3268292142621092, -0.3545742464169226}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.2416543334179493, V: geom.Vec3{0.2867516008973558, -0.6595978719451392, 0.651388785479589}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.5260357738117103, 1.5045662509853248, 1.2765029682851048}, Eps: [2]float64{1.8795375333658448, 1.8893032768685514}, Taper: [2]float64{-0.32033562651543046, 0.1347573741751743}},
		Pose: geom.Pose{Position: geom.Vec3{0.2808381591531514, -0.9784255492913762, -1.0751449973936864}, Orientation: geom.Quat{W: 0.3784348569723921, V: geom.Vec3{0.9018165422598382, 0.13141334217053213, 0.1620015945426629}}}}
	apart := geom.Vec3{-0.5063059017620698, -0.4709866781971444, -0.7223751676253249}.Mul(0.0365002)
	checkNoDeeperThanApart(t, &a, &b, apart, "deepSeeds' schemes", false, nil)
	opt := DefaultOptions()
	opt.Method = Parametric
	sv := NewSolver(opt)
	sv.noDeepAllSchemes = true
	if r := sv.Query(&a, &b); !(-r.Distance > apart.Len()) {
		t.Errorf("without every scheme from deepSeeds' seeds, parametric: %v %.9f: the pair no longer tests it", r.Status, r.Distance)
	}
}

// checkNoDeeperThanApart checks the answers of a pair whose bodies come
// apart when b moves by apart, which dense samples confirm first (else
// the pair no longer tests what it was kept for): every scheme's answer,
// on a solver that setup adjusts where it is not nil, must be a converged
// overlap no deeper than |apart| whose depth dense samples confirm
// (checkDepthBySamples), and with nearby, no shorter translation lies
// around its normal (checkNoShorterNearby).
func checkNoDeeperThanApart(t *testing.T, a, b *geom.Body, apart geom.Vec3, what string, nearby bool, setup func(*Solver)) {
	t.Helper()
	c := *b
	c.Pose.Position = b.Pose.Position.Add(apart)
	if deep := refinedDeepest(a, &c, 200, 100); !(deep > 0) {
		t.Fatalf("b moved by %v: the deepest sample's residual is %g; the pair no longer tests %s", apart, deep, what)
	}
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		sv := NewSolver(opt)
		if setup != nil {
			setup(sv)
		}
		res := sv.Query(a, b)
		if res.Status != Converged || !(res.Distance < 0) || -res.Distance > apart.Len() {
			t.Errorf("%v: %v %.9f; b moved %.7f apart from a: want a converged overlap no deeper", m, res.Status, res.Distance, apart.Len())
			continue
		}
		checkDepthBySamples(t, a, b, &res, 0.01, m.String())
		if nearby {
			checkNoShorterNearby(t, a, b, &res, m.String())
		}
	}
}

// TestProbeExactAscentNonConvex: step 53 of an approach of
// TestApproachSweep with SOVVIZ_SWEEP_SEED=7 (draw 0, pair 67): a pointy
// tapered shape's tip pressed into another's side. The probe's climbs
// (estimated supports, both shapes tapered) end near the shallowest
// basin, from where every scheme stalls; every scheme answered 0.089359
// where b moved 0.074877 along the normal a scan of 300 directions found
// (bisecting the moved queries' sign, then a pattern search) is apart by
// dense samples. The exact ascent from those climbs' ends (ascendsFrom)
// reaches that pair.
func TestProbeExactAscentNonConvex(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.1472350030793361, 0.3792837007158059, 0.47688527534593045}, Eps: [2]float64{1.828327775563496, 1.7526816401401801}, Taper: [2]float64{0.44487227765790727, -0.27085478302651544}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.1013097083807296, V: geom.Vec3{-0.630552000340026, -0.7018104616361391, 0.3155987861083636}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.7611897159692865, 1.639094628783421, 1.7562579316285738}, Eps: [2]float64{1.818985457279467, 1.760767842962575}, Taper: [2]float64{-0.11047690223949169, -0.44618586331469634}},
		Pose: geom.Pose{Position: geom.Vec3{-0.6256855798731609, -1.6939836072702754, 1.3841038356407773}, Orientation: geom.Quat{W: -0.49468853330340085, V: geom.Vec3{-0.6746337521405978, 0.26205170305022685, 0.48112520243623114}}}}
	apart := geom.Vec3{0.0004871916023667735, -0.9995832144514384, 0.028864511623655578}.Mul(0.074877)
	// (Without hullGapCheck, which since cf9628b finds this pair along a
	// climb's end too.)
	checkNoDeeperThanApart(t, &a, &b, apart, "the exact ascent", true, func(sv *Solver) { sv.noHullGap = true })
}

// TestProbeHullPair: step 48 of an approach of TestApproachSweep with
// SOVVIZ_SWEEP_SEED=8 (draw 0, pair 92). The parametric scheme's
// multi-start converged 1.197 deep; the polytope's hull pair proved that
// too deep (the hulls part after 0.039046) but, its support points
// bridging a dent, did not converge, and the probe, which searched only
// converged answers, left the answer max_iterations 0.039046 deep, where
// the bodies part after 0.028417 (the implicit and ntb schemes' answer).
// The probe now searches from such a hull pair too (the hull's depth
// bounds the bodies' from above).
func TestProbeHullPair(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.8278455386373005, 0.8572038667129982, 0.9757351292534815}, Eps: [2]float64{1.6954370241026724, 1.8494771374302192}, Taper: [2]float64{-0.4908820113182413, 0.09808399291002501}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.11530630193721696, V: geom.Vec3{-0.8453210707770884, -0.3633474768896417, 0.37431985663570044}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.9329630033990934, 1.0976791861020956, 1.7594029240445226}, Eps: [2]float64{1.6328709897990223, 1.866025555738282}, Taper: [2]float64{-0.4704502653174081, -0.14424539134623138}},
		Pose: geom.Pose{Position: geom.Vec3{-0.8456233417237735, -0.05405977113010172, -1.6760398456901828}, Orientation: geom.Quat{W: 0.2145366222170679, V: geom.Vec3{-0.5391343197028967, -0.7370108161129859, 0.3465880551586513}}}}
	apart := geom.Vec3{0.11492290042522985, 0.24375007545333024, -0.9630049987795227}.Mul(0.028417)
	checkNoDeeperThanApart(t, &a, &b, apart, "the hull pair's probe", true, nil)
}

// TestHullGapClimbed: step 55 of draw 0's pair 94 in TestApproachSweep, a
// tip of b against a's face. Every scheme answered 0.247118 (the warm
// start 0.235505), where the hulls part after 0.231406 along a direction
// 25° from that answer's normal (the sweep's hull bound; a scratch scan of
// 600 directions, bisecting the moved queries' sign, found the same
// depth). No ranked direction of the probe showed the hulls' gap
// shallower than the answer, but one of the climbs from them ended where
// it does: hullGapCheck now checks the climbs' ends too, and the
// polytope's direction then leads Newton to the pair.
func TestHullGapClimbed(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.8961720848070236, 1.8809171944676033, 1.5470260445335353}, Eps: [2]float64{1.8450744400520378, 1.7919627530322075}, Taper: [2]float64{0.011511399004258127, 0.19730698671972635}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.16536051447887304, V: geom.Vec3{0.3052299581645173, -0.8885031850437867, 0.3000877589259783}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.7848174662582459, 1.8692343109974012, 1.0817541617719726}, Eps: [2]float64{1.896196390372066, 1.6117465594671065}, Taper: [2]float64{-0.44249845686246525, 0.031207585340897515}},
		Pose: geom.Pose{Position: geom.Vec3{-1.9395876287609108, 1.899661945530382, 0.46924485733653326}, Orientation: geom.Quat{W: -0.7447766870000175, V: geom.Vec3{0.5741438767012833, -0.2561466639499927, 0.2237306011590482}}}}
	apart := geom.Vec3{-0.9972885516045813, 0.05281458910411349, 0.05124611220570735}.Mul(0.231407)
	checkNoDeeperThanApart(t, &a, &b, apart, "the climbs' hull gaps", true, nil)
}

// TestProbeAllSchemes: step 18 of an approach of TestApproachSweep with
// SOVVIZ_SWEEP_SEED=9 (draw 1, pair 111), two tapered pointy shapes. The
// implicit and parametric schemes answered 0.146747, where the ntb
// scheme's 0.135113, along a normal 43° away, parts the bodies: from the
// same climb's supports each scheme converged, to different pairs, and
// the probe took the configured scheme's alone. On a non-convex pair the
// other schemes' pairs from that seed now compete.
func TestProbeAllSchemes(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.5503589174805907, 1.489360535299491, 1.3923816505293878}, Eps: [2]float64{1.8221218351092776, 1.7030698832506643}, Taper: [2]float64{-0.32936189101460656, -0.44061346449651484}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.871531382808019, V: geom.Vec3{0.3821281631163061, -0.18811370799293728, -0.242949271658196}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.2998604958329882, 0.7710010574929691, 1.0726347812364634}, Eps: [2]float64{1.692470068185487, 1.773720248550961}, Taper: [2]float64{0.4789510689771028, 0.2833918201766681}},
		Pose: geom.Pose{Position: geom.Vec3{-0.7751309653564054, -1.3980909612708734, -0.5492524544970672}, Orientation: geom.Quat{W: -0.11155867446887434, V: geom.Vec3{0.9291380980632128, -0.1902598492706513, -0.2967460979250318}}}}
	apart := geom.Vec3{-0.7413608511980253, -0.6696260065764973, -0.04455445687416848}.Mul(0.13512)
	checkNoDeeperThanApart(t, &a, &b, apart, "each scheme's probe pair", true, nil)
}

// TestHullGapRest: the last step of draw 1's pair 33 in TestApproachSweep
// with SOVVIZ_SWEEP_SEED=10, two tapered pointy shapes (tapers up to 0.49).
// Every scheme answered 0.171657, cold and warm, where the hulls part after
// 0.170905 (the sweep's hull bound). The hulls' gap has two maxima 22°
// apart there, and every climb of the probe, each exact ascent after it
// and every climb's end lead to the deeper one, the answer's: along the
// shallower one's direction the closed-form (untapered) gap is an estimate
// of −0.233 against an exact −0.171, which ranks it ninth and within 25° of
// a better-ranked direction. hullGapCheck now also looks along the rest of
// the directions the probe ranked above its floor; the exact gap along that
// one is shallower than the answer.
func TestHullGapRest(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.544172283377816, 1.2609792453190871, 0.7578110740145826}, Eps: [2]float64{1.7715008459897346, 1.7881114360048498}, Taper: [2]float64{0.34771198341894083, 0.29388815927131495}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.42201078733327335, V: geom.Vec3{0.293529219295627, 0.09688699491322132, 0.852267800055086}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.677545922663888, 1.9828111814435352, 1.6682570233837508}, Eps: [2]float64{1.431036277453188, 1.5559205883864482}, Taper: [2]float64{-0.09784223843790807, -0.4903820656330725}},
		Pose: geom.Pose{Position: geom.Vec3{1.5337554640456204, -1.855020848780909, 0.7845814871457515}, Orientation: geom.Quat{W: -0.10910441451888259, V: geom.Vec3{-0.5372285252778364, -0.5389718720171378, -0.6395240883146114}}}}
	apart := geom.Vec3{0.1488315939126916, -0.9870572729169154, 0.05972517589116063}.Mul(0.170905)
	checkNoDeeperThanApart(t, &a, &b, apart, "the rest of the probe's directions", true, nil)
}

// TestHullGapAscentWarm: TestHullGapClimbed's approach, warm-started at
// step 55 from step 54's answer (the sweep's one known answer at its own
// seed until 2026-12-07). The warm start tracked a pair 0.235505 deep,
// shallower than the cold queries' first pair (0.247118), so the climb's
// end that proves that one too deep, the hulls' exact gap 0.239086 there,
// proves nothing here, while the hulls part after 0.231406 along a
// direction 25° away. probeBasins now runs the polytope when the best
// direction hullGapCheck measured away from the answer's normal comes
// within 0.05 of the smaller semi-axis below the answer (from 0.02 below it
// climbed the hulls' exact gap from there, until TestHullGapPolytope), and
// the polytope finds the pair. (b moved 0.231407 along the hulls' direction
// is apart from a by dense samples.)
func TestHullGapAscentWarm(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.8961720848070236, 1.8809171944676033, 1.5470260445335353}, Eps: [2]float64{1.8450744400520378, 1.7919627530322075}, Taper: [2]float64{0.011511399004258127, 0.19730698671972635}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.16536051447887304, V: geom.Vec3{0.3052299581645173, -0.8885031850437867, 0.3000877589259783}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.7848174662582459, 1.8692343109974012, 1.0817541617719726}, Eps: [2]float64{1.896196390372066, 1.6117465594671065}, Taper: [2]float64{-0.44249845686246525, 0.031207585340897515}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.7447766870000175, V: geom.Vec3{0.5741438767012833, -0.2561466639499927, 0.2237306011590482}}}}
	start := geom.Vec3{-0.9185459024158893, 2.192138376813633, 0.3588370090113491}
	end := geom.Vec3{-2.0324096038831856, 1.8730731790500865, 0.47928193445700457}
	checkWarmStep(t, &a, &b, start, end, 54, geom.Vec3{-0.9972885516045813, 0.05281458910411349, 0.05124611220570735}, 0.231407, nil)
}

// TestWarmPolytope: step 26 of draw 0's pair 44 in TestApproachSweep with
// SOVVIZ_SWEEP_SEED=11, two tapered pointy shapes, warm-started from step
// 25's answer. The warm start tracked a pair 0.161698 deep, where another
// basin, 49° away, had just become the shallower: every cold query
// answered 0.160754 there, from the polytope's pair after every start of
// its multi-start failed. The warm re-search's starts reached neither
// (the tracked answer prunes them); it now also starts from the polytope's
// pair (warmPolytope). b moved 1.0001 times 0.160754 along that normal is
// apart from a by dense samples.
func TestWarmPolytope(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.3564497065170964, 1.191698370827324, 0.5869447365519272}, Eps: [2]float64{1.883046383853967, 1.8642402482047653}, Taper: [2]float64{0.3658452569036954, 0.19501112571494805}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.4556379242682432, V: geom.Vec3{0.436457503363578, 0.5947390290746466, 0.4981811086557836}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.1409485084610398, 0.6822918772907429, 1.3200104187331114}, Eps: [2]float64{1.748658561212329, 1.8258783247244044}, Taper: [2]float64{0.47256633678466586, 0.41374868852808644}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.7397621739737034, V: geom.Vec3{0.5599172023081814, -0.10074735280836387, 0.3592974024665171}}}}
	start := geom.Vec3{0.23195717027233118, -0.8771259607803413, 1.8178030107683867}
	end := geom.Vec3{-0.013050155830095694, -1.1726295477873636, 1.2452882645878693}
	checkWarmStep(t, &a, &b, start, end, 25, geom.Vec3{0.34105282884665666, -0.814907985039103, 0.46862345636470565}, 1.0001*0.160754, nil)
}

// TestWarmPolytopeCusp: step 60 of draw 0's pair 49 in
// TestApproachSweep with SOVVIZ_SWEEP_SEED=9, warm-started from step 59's
// answer. The warm start tracked a pair 0.191332 deep where every cold
// query answered 0.189507, 25° away: Newton from the polytope's pair does
// not converge there, and polishCusp, which a cold query runs after its
// polytope's rescue, polishes it to that pair. warmPolytope polishes too.
// b moved 1.0001 times 0.189507 along that normal is apart from a by
// dense samples.
func TestWarmPolytopeCusp(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.1864039401799105, 1.123780824139306, 1.8206683616985668}, Eps: [2]float64{1.837208209403496, 1.7560419795490674}, Taper: [2]float64{0.49137982368051847, 0.35097548269794554}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.6896005553500488, V: geom.Vec3{0.17125959346730674, 0.70295344388769, 0.03126789779875258}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.2172867564543493, 0.9743126774293551, 1.3331734572095326}, Eps: [2]float64{1.8394308763917266, 1.8984028277271272}, Taper: [2]float64{0.12388382515782259, -0.41757487474221266}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.21764961496975094, V: geom.Vec3{-0.030031102323625474, 0.5080916423941975, 0.832808297824844}}}}
	start := geom.Vec3{2.155148827939021, -1.418182180987694, -0.6476581212564321}
	end := geom.Vec3{1.4713514273524688, -1.422730626170103, -0.734402117991175}
	checkWarmStep(t, &a, &b, start, end, 59, geom.Vec3{0.23496918203621814, -0.7943189182832289, -0.5602204383549316}, 1.0001*0.189507, nil)
}

// checkWarmStep warm-starts step k+1 of b's approach from start to end (60
// steps) from a cold answer at step k and requires a converged overlap no
// deeper than apart, where b moved by apart along n is apart from a by
// dense samples, and no shallower than dense samples allow.
func checkWarmStep(t *testing.T, a, b *geom.Body, start, end geom.Vec3, k int, n geom.Vec3, apart float64, setup func(*Solver)) {
	t.Helper()
	sv := NewSolver(DefaultOptions())
	if setup != nil {
		setup(sv)
	}
	at := func(k int) geom.Body {
		c := *b
		c.Pose.Position = start.Add(end.Sub(start).Mul(float64(k) / 60))
		return c
	}
	b0, b1 := at(k), at(k+1)
	prev := sv.Query(a, &b0)
	res := sv.QueryWarm(a, &b1, &prev)
	c := b1
	c.Pose.Position = b1.Pose.Position.Add(n.Mul(apart))
	if deep := refinedDeepest(a, &c, 200, 100); !(deep > 0) {
		t.Fatalf("b moved %g along %v: the deepest sample's residual is %g; the pair no longer tests the warm step", apart, n, deep)
	}
	if res.Status != Converged || !(res.Distance < 0) || -res.Distance > apart {
		t.Fatalf("warm step %d from %.9f: %v %.9f; b moved %g apart from a: want a converged overlap no deeper", k+1, prev.Distance, res.Status, res.Distance, apart)
	}
	checkDepthBySamples(t, a, &b1, &res, 0.01, "warm")
}

// TestWarmPolytopeFallbackHonest: warmPolytope's stages mark
// Result.Fallback when they find a pair another way than the configured
// scheme; a warm answer must say so only when the pair it reports came
// that way. On 60 pointy non-convex overlaps animated through 6 warm steps
// of sovviz bench's motion, with and without warmPolytope, every step whose
// answers agree must agree on Fallback too. (Before the fix, which resets
// the flag when warmPolytope takes no pair, one of those steps said
// Fallback with it and not without.)
func TestWarmPolytopeFallbackHonest(t *testing.T) {
	pairs := nonConvexPointyOverlaps(60, 2)
	run := func(off bool) []Result {
		ps := slices.Clone(pairs)
		sv := NewSolver(DefaultOptions())
		sv.noWarmPolytope = off
		r := rand.New(rand.NewPCG(3, 3))
		var out []Result
		for i := range ps {
			prev := sv.Query(&ps[i][0], &ps[i][1])
			for k := 0; k < 6; k++ {
				benchMotion(&ps[i][0], &ps[i][1], r)
				prev = sv.QueryWarm(&ps[i][0], &ps[i][1], &prev)
				out = append(out, prev)
			}
		}
		return out
	}
	with, without := run(false), run(true)
	same := 0
	for i := range with {
		if with[i].Distance != without[i].Distance || with[i].Status != without[i].Status {
			continue
		}
		same++
		if with[i].Fallback != without[i].Fallback {
			t.Errorf("step %d: %.9f %v both ways, Fallback %v with warmPolytope and %v without", i, with[i].Distance, with[i].Status, with[i].Fallback, without[i].Fallback)
		}
	}
	if same < len(with)/2 {
		t.Fatalf("only %d of %d warm answers agree with and without warmPolytope: the test compares too few", same, len(with))
	}
}

// TestHullGapCone: step 26 of draw 2's pair 147 in TestApproachSweep with
// SOVVIZ_SWEEP_SEED=13, two pointy tapered shapes whose every start failed.
// The parametric scheme's query rescued a pair 0.208248 deep, where the
// hulls part after 0.205689 along a direction 18° from its normal and the
// implicit scheme's query answered 0.205287. With the climb of the
// hulls' gap leaving out directions within 20° of the answer's normal, as
// it first did, the answer stood; within 10°, the climb proved it too deep
// and the polytope found the pair. (Since TestHullGapPolytope the polytope
// runs there without the climb.)
func TestHullGapCone(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.457975667921445, 1.1765178450346567, 0.7865908675627458}, Eps: [2]float64{1.7944600350820807, 1.7716291880611839}, Taper: [2]float64{0.44643310585143936, -0.4273677790455158}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.8286567088457174, V: geom.Vec3{0.15375662386040545, 0.38410559906415875, -0.37702764921368487}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.27237050122057, 1.1014254853493597, 0.7646016964382782}, Eps: [2]float64{1.8643551365860713, 1.870381591728505}, Taper: [2]float64{0.1313523527608048, -0.15699360353140834}},
		Pose: geom.Pose{Position: geom.Vec3{-0.948883264457484, 1.1587948592206274, 0.24462763553163933}, Orientation: geom.Quat{W: -0.9244969932245984, V: geom.Vec3{-0.01918101660776222, 0.1568469449118255, 0.34689542227074194}}}}
	apart := geom.Vec3{-0.734311482702466, 0.5691180787781036, 0.36998818735092925}.Mul(0.205689)
	checkNoDeeperThanApart(t, &a, &b, apart, "the hulls' gap's 10° cone", true, nil)
}

// TestHullGapPolytope: step 51 of draw 0's pair 106 in TestApproachSweep
// with SOVVIZ_SWEEP_SEED=13, two pointy tapered shapes. Every scheme
// answered 0.093809, a basin where the bodies part with their hulls, while
// the hulls part after 0.093173 along a direction 20° away and the warm
// start found the bodies apart after 0.091941, 28° away. The hulls' gap has
// several maxima there, 0.0932 to 0.0986 deep, and the best direction
// hullGapCheck measured away from the answer's normal was 0.111 deep (0.04
// of the smaller semi-axis below the answer); the exact climb from it ended
// at another maximum, 0.0978 deep. The polytope, now run instead of the
// climb (from 0.05 below), finds the hulls' shallowest translation and
// Newton from its support points the bodies' pair. b moved 1.0001 times
// 0.091941 along that pair's normal is apart from a by dense samples.
func TestHullGapPolytope(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.0700067766592651, 0.5666831992545749, 1.1993841906115206}, Eps: [2]float64{1.6858442248776278, 1.6816231515822746}, Taper: [2]float64{0.4951386353117295, 0.47963339727711984}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.660175877992404, V: geom.Vec3{0.5074179893719747, 0.28256248199768613, -0.47629112730132656}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.8382835949919027, 0.45670164773080546, 0.6678234881124363}, Eps: [2]float64{1.6665345357368193, 1.8398152800000847}, Taper: [2]float64{-0.39234451023426475, 0.12822947466898127}},
		Pose: geom.Pose{Position: geom.Vec3{1.2281140002277713, -0.22367413037249664, -0.5923775456227175}, Orientation: geom.Quat{W: 0.4387159065663661, V: geom.Vec3{-0.5770435292459228, -0.6668835517058974, 0.1726715006745148}}}}
	apart := geom.Vec3{0.5453560886252482, 0.42636285520278, -0.721665748323075}.Mul(1.0001 * 0.091941)
	// (Without the same-normal seeds and the chart's polish of the probe's
	// starts, which find this pair too since.)
	checkNoDeeperThanApart(t, &a, &b, apart, "the polytope after the hulls' gap", true, func(sv *Solver) { sv.noSameNormal, sv.noProbeCusp = true, true })
	sv := NewSolver(DefaultOptions())
	sv.noSameNormal, sv.noHullNear, sv.noProbeCusp = true, true, true
	if res := sv.Query(&a, &b); !(-res.Distance > apart.Len()) {
		t.Errorf("without the polytope the answer is %.9f: the pair no longer tests it", res.Distance)
	}
}

// TestHullGapPolytopeWarm: step 17 of draw 0's pair 103 in
// TestApproachSweep with SOVVIZ_SWEEP_SEED=15, two pointy tapered shapes,
// warm-started through steps 1 to 17. The warm start tracked a pair
// 0.047180 deep, where every cold query answers 0.046740, 40° away, a
// little shallower than the hulls' bound there (0.046829). The best
// direction hullGapCheck measured away from the tracked pair's normal came
// within 0.007 of the smaller semi-axis below it, so the climb of the
// hulls' gap that ran there until 2026-12-07 started from it, and ended
// below the answer; the polytope, which runs there instead since, finds
// the pair. b moved 1.0001 times 0.046740 along that pair's normal is
// apart from a by dense samples. (The same-normal seeds and the chart's
// polish of the probe's starts, off here, find it too.)
func TestHullGapPolytopeWarm(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.1559996620431174, 1.0204124231364058, 1.2204257176458142}, Eps: [2]float64{1.8962900495581152, 1.8539446536947584}, Taper: [2]float64{0.3224160449031971, 0.44591997951536444}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.3084777589871727, V: geom.Vec3{0.32570280780074845, -0.3509653791823277, -0.8219382311441447}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.7896859137301915, 1.455442024852288, 1.5264681834402345}, Eps: [2]float64{1.8887747457339856, 1.8623083429654526}, Taper: [2]float64{0.17058469581364277, 0.3108904141071501}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.6234852717987771, V: geom.Vec3{0.3875403549309713, 0.35676349054505063, -0.577752889187145}}}}
	start := geom.Vec3{-1.254129229838647, 0.5335821941995896, -2.089493330193026}
	end := geom.Vec3{-1.4568446167413653, 0.40343347989628675, -1.4436668221817035}
	// (Warm-started from step 0 on, as the sweep does: from a cold answer
	// at step 16 the warm start tracks the right pair.)
	n := geom.Vec3{-0.7704628609534978, 0.5713588331276486, -0.2827296654020652}
	run := func(near bool) Result {
		sv := NewSolver(DefaultOptions())
		sv.noSameNormal, sv.noHullNear, sv.noProbeCusp = true, !near, true
		var res Result
		for k := 0; k <= 17; k++ {
			b.Pose.Position = start.Add(end.Sub(start).Mul(float64(k) / 60))
			if k == 0 {
				res = sv.Query(&a, &b)
			} else {
				res = sv.QueryWarm(&a, &b, &res)
			}
		}
		return res
	}
	const apart = 1.0001 * 0.046740
	if res := run(false); !(-res.Distance > apart) {
		t.Errorf("without the polytope warm step 17 answers %.9f: the pair no longer tests it", res.Distance)
	}
	res := run(true)
	c := b
	c.Pose.Position = b.Pose.Position.Add(n.Mul(apart))
	if deep := refinedDeepest(&a, &c, 200, 100); !(deep > 0) {
		t.Fatalf("b moved %g along %v: the deepest sample's residual is %g; the pair no longer tests the warm step", apart, n, deep)
	}
	if res.Status != Converged || !(res.Distance < 0) || -res.Distance > apart {
		t.Fatalf("warm step 17: %v %.9f; b moved %g apart from a: want a converged overlap no deeper", res.Status, res.Distance, apart)
	}
	checkDepthBySamples(t, &a, &b, &res, 0.01, "warm")
}

// TestHullNearCount counts, over the cold queries of
// nonConvexPointyOverlaps(300, seed) for seeds 7, 1 and 2, how often the
// polytope ran after hullGapCheck proved nothing (Solver.hullNear) and how
// many answers it changed against the same queries without it, and how
// many the same-normal seeds and the chart's polish of the probe's starts
// (Solver.probeCusps) changed against the queries without each; an
// answer deeper with a stage fails it.
// Opt-in, as a count for docs/contact.md (about 10 s):
//
//	SOVVIZ_HULL_NEAR_COUNT=1 go test -count 1 -run TestHullNearCount -v ./contact
//
// It fails only where either made an answer deeper: each takes a pair
// only when shallower than the answer (or the answer proven too deep).
func TestHullNearCount(t *testing.T) {
	if os.Getenv("SOVVIZ_HULL_NEAR_COUNT") != "1" {
		t.Skip("a count for the docs: SOVVIZ_HULL_NEAR_COUNT=1")
	}
	for _, seed := range []uint64{7, 1, 2} {
		pairs := nonConvexPointyOverlaps(300, seed)
		with := NewSolver(DefaultOptions())
		answers := make([]Result, len(pairs))
		for i := range pairs {
			answers[i] = with.Query(&pairs[i][0], &pairs[i][1])
		}
		// changed counts the answers that differ with off applied.
		changed := func(what string, off func(*Solver)) int {
			without := NewSolver(DefaultOptions())
			off(without)
			n := 0
			for i := range pairs {
				x, y := answers[i], without.Query(&pairs[i][0], &pairs[i][1])
				if x.Distance == y.Distance {
					continue
				}
				n++
				t.Logf("seed %d pair %d: %.9f %v, without %s %.9f %v", seed, i, x.Distance, x.Status, what, y.Distance, y.Status)
				if x.Distance < y.Distance-1e-9 {
					t.Errorf("seed %d pair %d: deeper with %s", seed, i, what)
				}
			}
			return n
		}
		near := changed("the polytope", func(sv *Solver) { sv.noHullNear = true })
		t.Logf("seed %d: the polytope ran for %d of %d queries (%d proven too deep before it); %d answers changed", seed, with.hullNear, len(pairs), with.hullGapped, near)
		seeds := changed("the same-normal seeds", func(sv *Solver) { sv.noSameNormal = true })
		t.Logf("seed %d: the same-normal seeds changed %d answers", seed, seeds)
		cusp := changed("the chart's polish of the probe's starts", func(sv *Solver) { sv.noProbeCusp = true })
		t.Logf("seed %d: the chart's polish of the probe's starts polished %d pairs and changed %d answers", seed, with.probeCusps, cusp)
	}
}

// TestSameNormalSeeds: four overlaps of pointy tapered shapes from
// TestApproachSweep (draw 0; SOVVIZ_SWEEP_SEED 17, pair 118, step 11; 13,
// pair 127, step 13; 16, pair 47, step 13; 11, pair 94, step 39) where a
// dent lets the bodies part sooner than their hulls, near a maximum of the
// hulls' gap or the answer's own normal, but the support points there
// bridge the dent and Newton from them fails or returns to the hulls'
// pair. Every scheme answered 0.073350 (bodies apart after 0.069873) and
// 0.086512 (after 0.083912), the parametric and ntb schemes 0.038788
// (after 0.037889), and the implicit and ntb schemes 0.176169 where the
// parametric one ended unconverged 0.174152 deep. Newton from the points
// sharing the normal (sameNormalSeeds) reaches the dent's pair, converged.
// b moved 1.0001 times that depth along its normal is apart from a by
// dense samples; without the seeds some scheme answers deeper. (Checked
// without the chart's polish of the probe's starts, which finds seed 17's,
// 13's and 11's pairs too since TestProbeCuspPolish.)
func TestSameNormalSeeds(t *testing.T) {
	cases := []apartCase{{
		"seed 17 pair 118",
		geom.Body{Shape: geom.Superovoid{A: [3]float64{0.4892925029906422, 0.5060129059761403, 1.5154716159245598}, Eps: [2]float64{1.8964999076532487, 1.7751694461384633}, Taper: [2]float64{0.3593297480124036, -0.23507480663362723}},
			Pose: geom.Pose{Orientation: geom.Quat{W: 0.42082258938021166, V: geom.Vec3{-0.5130605560523718, -0.7233097874214754, -0.19105016490666712}}}},
		geom.Body{Shape: geom.Superovoid{A: [3]float64{1.5563633947943107, 1.5866373230614366, 0.47681294152537124}, Eps: [2]float64{1.8672653635484724, 1.8614659527527317}, Taper: [2]float64{-0.4625090280605535, 0.24827033476290794}},
			Pose: geom.Pose{Position: geom.Vec3{0.17702612605045445, -0.8029214873320146, 1.986830619150151}, Orientation: geom.Quat{W: 0.18893524655102975, V: geom.Vec3{0.24995519508868957, 0.5459445172614137, 0.7770266772325636}}}},
		geom.Vec3{0.5032502043646029, 0.4955496614335059, 0.7079334466319018}.Mul(1.0001 * 0.069873),
	}, {
		"seed 13 pair 127",
		geom.Body{Shape: geom.Superovoid{A: [3]float64{0.9591142515310946, 1.6460652362856485, 1.6576515734578647}, Eps: [2]float64{1.877163087840532, 1.6210288671475126}, Taper: [2]float64{-0.3461880419402884, -0.04829540717595293}},
			Pose: geom.Pose{Orientation: geom.Quat{W: 0.089528001953771, V: geom.Vec3{0.05603570734422809, -0.031568011271495944, -0.9939055272172302}}}},
		geom.Body{Shape: geom.Superovoid{A: [3]float64{1.5975621285052695, 1.9205989968885424, 1.2356728193055246}, Eps: [2]float64{1.6747350481562893, 1.8246693918388994}, Taper: [2]float64{0.28892143865131614, 0.4638516868375574}},
			Pose: geom.Pose{Position: geom.Vec3{0.529424329173966, 2.2746881867793465, -0.6285755727431496}, Orientation: geom.Quat{W: -0.5076205770615035, V: geom.Vec3{0.2780155669121352, -0.7894399342039322, -0.2044829689298386}}}},
		geom.Vec3{0.06276495660364959, 0.9046538261559612, -0.4214997212856987}.Mul(1.0001 * 0.083912),
	}, {
		"seed 16 pair 47",
		geom.Body{Shape: geom.Superovoid{A: [3]float64{0.4050210865921841, 1.5734136566064103, 0.8866965780127063}, Eps: [2]float64{1.6045302611598435, 1.896217844469878}, Taper: [2]float64{-0.1292260620198017, 0.483640663343904}},
			Pose: geom.Pose{Orientation: geom.Quat{W: 0.6534119972506333, V: geom.Vec3{0.5059684526362213, -0.5601991925728451, -0.056793938290796125}}}},
		geom.Body{Shape: geom.Superovoid{A: [3]float64{0.8029158836654042, 1.0625423346836276, 1.4262519454191018}, Eps: [2]float64{1.8519870130387261, 1.7384300789453693}, Taper: [2]float64{-0.16142917197176854, 0.35660339071182456}},
			Pose: geom.Pose{Position: geom.Vec3{1.750896016337436, -0.1948810984329294, -0.21901293552629053}, Orientation: geom.Quat{W: 0.7700062291450477, V: geom.Vec3{-0.4124346020757499, -0.4855906029769564, 0.03449452694150345}}}},
		geom.Vec3{0.9615935682160817, 0.06285502381683195, -0.2671835615198843}.Mul(1.0001 * 0.037889),
	}, {
		"seed 11 pair 94",
		geom.Body{Shape: geom.Superovoid{A: [3]float64{0.7252561187154533, 1.722285537717655, 1.3155644351251987}, Eps: [2]float64{1.775184148952444, 1.7090489186982276}, Taper: [2]float64{-0.4474143264670427, 0.2750683397104521}},
			Pose: geom.Pose{Orientation: geom.Quat{W: 0.36292345895059425, V: geom.Vec3{-0.8204350223630973, 0.43918114669870245, -0.047883790658352916}}}},
		geom.Body{Shape: geom.Superovoid{A: [3]float64{1.4229798785500967, 1.46585944125763, 1.082743120328239}, Eps: [2]float64{1.7948496933788716, 1.8492991790294568}, Taper: [2]float64{0.3259745539466672, 0.4745028443207093}},
			Pose: geom.Pose{Position: geom.Vec3{-1.6639525577242629, -0.4052259685723095, -1.5879879388293618}, Orientation: geom.Quat{W: 0.5253768928216723, V: geom.Vec3{-0.0021315965989353062, -0.8500856626353394, 0.03645467002759126}}}},
		geom.Vec3{-0.6368533940188156, 0.6706426365609356, -0.3803369671137847}.Mul(1.0001 * 0.174152),
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// (Without the chart's polish of the probe's starts, which
			// finds seed 17's, 13's and 11's pairs too since, and without
			// every scheme from deepSeeds' seeds, which finds seed 16's
			// since TestDeepSeedsAllSchemes.)
			checkNoDeeperThanApart(t, &tc.a, &tc.b, tc.apart, "the same-normal seeds", true, func(sv *Solver) { sv.noProbeCusp, sv.noDeepAllSchemes = true, true })
			deeper := false
			for _, m := range allMethods {
				opt := DefaultOptions()
				opt.Method = m
				sv := NewSolver(opt)
				sv.noSameNormal, sv.noProbeCusp, sv.noDeepAllSchemes = true, true, true
				if res := sv.Query(&tc.a, &tc.b); -res.Distance > tc.apart.Len() {
					deeper = true
				}
			}
			if !deeper {
				t.Errorf("without the same-normal seeds no scheme answers deeper than %.6f: the pair no longer tests them", tc.apart.Len())
			}
		})
	}
}

// apartCase is a regression pair whose bodies come apart when b moves by
// apart (checkNoDeeperThanApart).
type apartCase struct {
	name  string
	a, b  geom.Body
	apart geom.Vec3
}

// TestProbeCuspPolish: step 47 of draw 0's pair 111 in TestApproachSweep
// with SOVVIZ_SWEEP_SEED=21, b's pointy pole (e1 1.77) pressed into a
// tapered non-convex shape. Every scheme's cold answer was 0.030168 deep,
// where a warm start had tracked the tip's pair 0.028232 deep, 38° away.
// The probe's climb toward that pair ended with supports at the pole,
// from which every scheme crawls; the chart's polish (cuspPolish) of the
// crawl converges to it. b moved 1.0001 times 0.028232 along that pair's
// normal is apart from a by dense samples.
func TestProbeCuspPolish(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.7446074266903944, 1.4155799157524163, 1.3423125801293971}, Eps: [2]float64{1.8498815954074246, 1.6514649457838233}, Taper: [2]float64{-0.38012917208632724, 0.15299908856726485}},
		Pose: geom.Pose{Orientation: geom.Quat{W: -0.4657982598351259, V: geom.Vec3{0.18016874862547338, -0.8135958617319723, 0.29771291024392765}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.43935544506339563, 0.4352256880215559, 1.8801363205391137}, Eps: [2]float64{1.7689876559819686, 1.8695792312575699}, Taper: [2]float64{0.22126232489836417, -0.06489672055446272}},
		Pose: geom.Pose{Position: geom.Vec3{1.8293580116092991, 1.7090684650808503, -0.06716074938180072}, Orientation: geom.Quat{W: -0.3253213739156664, V: geom.Vec3{-0.5481109078969144, -0.43687886764616807, 0.6347261545912892}}}}
	apart := geom.Vec3{0.9239737600027931, 0.35898653561701627, -0.13191344917025588}.Mul(1.0001 * 0.028232487)
	checkNoDeeperThanApart(t, &a, &b, apart, "the chart's polish in the probe", true, nil)
	sv := NewSolver(DefaultOptions())
	sv.noProbeCusp = true
	if res := sv.Query(&a, &b); !(-res.Distance > apart.Len()) {
		t.Errorf("without the polish the answer is %.9f: the pair no longer tests it", res.Distance)
	}
}
