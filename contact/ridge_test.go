package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// ridgePair is a tip against a ridge, 6.4e-3 apart, inside the issue's
// range: c's pointy +z tip (e 1.70, 1.82, tapered −0.49 and −0.45, caved
// on that side) against a's ridge x = 0 near its own +z tip (e 1.83, taper
// −0.37, non-convex there too). Both points lie where the hulls bridge
// over the bodies, so no support seed starts near them: the query
// answered a converged pair 0.1687 apart, uncertified.
func ridgePair() (a, c geom.Body) {
	a = geom.Body{Shape: geom.Superovoid{A: [3]float64{0.6797769383039588, 1.2843314709637013, 1.6771676100554647}, Eps: [2]float64{1.832055201233731, 1.8291583524597002}, Taper: [2]float64{-0.36651563388744457, -0.3669383576063423}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.23463666466531974, V: geom.Vec3{-0.7287864581665324, -0.5513132497033408, 0.3314658876707482}}}}
	c = geom.Body{Shape: geom.Superovoid{A: [3]float64{0.8031924506154531, 1.7488925475852963, 1.2278510160455947}, Eps: [2]float64{1.7047588055301812, 1.8205077374784961}, Taper: [2]float64{-0.4879891874118424, -0.44587155605485584}},
		Pose: geom.Pose{Position: geom.Vec3{-0.33093712986994284, 0.8524502469582393, -1.507083402688835}, Orientation: geom.Quat{W: -0.5461569209334555, V: geom.Vec3{-0.566293710452925, -0.10796866997277356, 0.6077555573766943}}}}
	return a, c
}

// TestRidgeSearch: on ridgePair every scheme answers the closest pair,
// checked against dense sampling of both surfaces (refMinDistance) from
// both sides (checkSeparatedAnswer), and moved along the answer's normal
// the pair keeps it: 0.5 and 2 times as far apart. (Moved closer, no other
// pair can overtake a closest pair; moved apart, a non-convex pair's could,
// and this pair's does not: a property of this pair, checked here.)
func TestRidgeSearch(t *testing.T) {
	a, c := ridgePair()
	atReference(t, &a, &c, 0.0065, "the tip against the ridge", func(tag string, opt *Options, res *Result) {
		for _, f := range []float64{0.5, 2} {
			moved := c
			moved.Pose.Position = c.Pose.Position.Add(res.Normal.Mul((f - 1) * res.Distance))
			mr := Query(&a, &moved, opt)
			if mr.Status != Converged || math.Abs(mr.Distance-f*res.Distance) > 1e-9 {
				t.Errorf("%s: moved to %v × the distance along the normal: %v %.12f, want %.12f", tag, f, mr.Status, mr.Distance, f*res.Distance)
			}
		}
	})
}

// TestPointyMovedAlongNormal: pointy shapes (e1, e2 in [1.5, 1.9], the
// issue's range; tapered, most non-convex) against pointy ones and against
// box-like ones (e 0.1–0.4), b at 0.3 to 1.2 times the bounding radii's
// sum from a. Each converged answer is moved along its own normal: an
// overlap's b by 1.001, 1.01 and 1.1 times the depth, a separated pair's b
// towards a by 0.999, 0.99 and 0.9 times the distance. Its pair then lies
// f − 1 times the old distance apart (f the factor's distance from 1), so
// the moved query must answer that or closer, and, when the first answer
// was the closest pair, not closer either. Before the ridge search, 2 of
// the 1,197 moved queries of pointy pairs answered a pair farther apart
// (by up to 0.16: pair 93 is ridgePair; with e up to 1.95 also 7 failed);
// before misaligned answers were polished, pair 184 of the box-like kind
// (TestRidgeNormalAligned) moved 3.9e-8 off, its first answer's normal
// 7.2e-4 rad from Q − P.
func TestPointyMovedAlongNormal(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	for _, kind := range []struct {
		name         string
		seed1, seed2 uint64
		lo, hi       float64 // b's exponents
	}{{"pointy", 5, 55, 1.5, 1.9}, {"box-like", 4, 99, 0.1, 0.4}} {
		r := rand.New(rand.NewPCG(kind.seed1, kind.seed2))
		opt := DefaultOptions()
		moves, nonConvex, shallow := 0, 0, 0
		for i := 0; i < n; i++ {
			a, b := placedPair(r, 1.5, 1.9, kind.lo, kind.hi)
			res := Query(&a, &b, &opt)
			tag := fmt.Sprintf("%s pair %d", kind.name, i)
			if res.Status == Failed {
				t.Errorf("%s: failed", tag)
				continue
			}
			if res.NonConvex != 0 {
				nonConvex++
			}
			if res.Status != Converged {
				continue // an unconverged overlap's translation is only an upper bound
			}
			m, _, sh := checkMovedAlongNormal(t, &a, &b, &res, &opt, tag)
			moves += m
			shallow += sh
		}
		t.Logf("%s: %d pairs (%d with a non-convex shape), %d moved queries, %d of them showing a too shallow answer", kind.name, n, nonConvex, moves, shallow)
	}
}

// TestRidgeNormalAligned: pair 184 of TestPointyMovedAlongNormal's
// box-like kind, a's pointy ridge x = 0 (e1 1.76) against a box-like
// face (e 0.11, 0.28). The implicit scheme fails and a parametric one
// converges on the ridge, where its tangents' normal and the implicit
// normal differ: the answer reported the implicit normal, 7.2e-4 rad from
// Q − P (classify lets up to 1.4e-3 through). The pair is now polished in
// the ridge's chart (misaligned), and every scheme answers the reference's
// distance with the normal along Q − P to 1e-9.
func TestRidgeNormalAligned(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.965034002963266, 1.40919716763543, 1.3406297521266044}, Eps: [2]float64{1.76306203209441, 1.627551887042786}, Taper: [2]float64{-0.45828236216348617, -0.05045515269578171}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.05804091379731587, V: geom.Vec3{-0.44560343548818887, 0.5951663125176158, -0.6662176003760931}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.6809380660992113, 0.43624780961316867, 1.2394650579269373}, Eps: [2]float64{0.1115591208320761, 0.2750369002085467}, Taper: [2]float64{-0.34836430043344446, 0.2438274102903153}},
		Pose: geom.Pose{Position: geom.Vec3{0.7284019839970461, -1.5506365902514132, -0.9741550700170002}, Orientation: geom.Quat{W: -0.8000990240938856, V: geom.Vec3{-0.2191628781839355, 0.5222460793712506, -0.19765681635476837}}}}
	ref := refMinDistance(&a, &b)
	separatedInEveryScheme(t, &a, &b, ref, func(tag string, _ *Options, res *Result) {
		if math.Abs(res.Distance-ref) > 1e-9 {
			t.Errorf("%s: %.12f, the reference %.12f", tag, res.Distance, ref)
		}
		u := res.Q.Sub(res.P).Normalize()
		if e := u.Sub(res.Normal).Len(); e > 1e-9 {
			t.Errorf("%s: the normal is %.3g rad from Q − P", tag, e)
		}
	})
}

// TestRidgeNormalAlignedAtQ: three pairs of TestWidePlacedPairs' sweep
// under SOVVIZ_SWEEP_SEED=11 (pairs 3127, 3344, 4366) whose closest point
// on b lies on a pointy ridge (exponent 1.79 to 1.89), where the normal
// turns by 0.13 rad within 1e-8 of the ridge's plane. A parametric scheme
// converged there with Q within 1e-24 of the plane, on the right distance,
// but the normal reported at Q (the gradient there) was 0.005 to 0.012 rad
// from P − Q, so the pair was no common-normal pair. misaligned now checks
// the normal at Q as well as at P, and such a pair is polished in the
// ridge's chart (polishCusp), which moves Q onto the foot where b's normal
// is along P − Q; finish no longer snaps that foot onto the plane. Each
// answer's normals must be opposite, along the line of the points and the
// surfaces' at its local points, and its distance P's own distance to b
// (PointDistance, an independent computation) and the dense reference's.
func TestRidgeNormalAlignedAtQ(t *testing.T) {
	for i, p := range ridgeQPairs() {
		a, b := p[0], p[1]
		opt := DefaultOptions()
		res := Query(&a, &b, &opt)
		if res.Status != Converged || !(res.Distance > 0) {
			t.Errorf("pair %d: %v, %.12g", i, res.Status, res.Distance)
			continue
		}
		u := res.Q.Sub(res.P).Normalize()
		if e := res.NormalQ.Add(u).Len(); e > 1e-9 {
			t.Errorf("pair %d: the normal at Q is %.3g rad from P − Q", i, e)
		}
		if e := res.Normal.Sub(u).Len(); e > 1e-9 {
			t.Errorf("pair %d: the normal at P is %.3g rad from Q − P", i, e)
		}
		if e := res.NormalQ.Add(res.Normal).Len(); e > 1e-9 {
			t.Errorf("pair %d: the normals are %.3g rad from opposite", i, e)
		}
		// (The foot lies 1e-35 to 1e-27 of the size off the ridge's plane,
		// where b's normal is still turning: snapped onto the plane, the
		// point had the normal there, 1e-3 rad from the answer's.)
		ta, tb := a.Pose.Transform(), b.Pose.Transform()
		na, okA := a.Shape.Normal(res.LocalP)
		nb, okB := b.Shape.Normal(res.LocalQ)
		if !okA || !okB || ta.Dir(na).Sub(res.Normal).Len() > 1e-9 || tb.Dir(nb).Sub(res.NormalQ).Len() > 1e-9 {
			t.Errorf("pair %d: the surfaces' normals at the local points %v, %v are not the answer's", i, res.LocalP, res.LocalQ)
		}
		if pd := PointDistance(&b, res.P); pd.Status != Converged || math.Abs(pd.Distance-res.Distance) > 1e-12 {
			t.Errorf("pair %d: %.15g apart, P is %.15g (%v) from b", i, res.Distance, pd.Distance, pd.Status)
		}
		if ref := refMinDistance(&a, &b); math.Abs(ref-res.Distance) > 1e-9 {
			t.Errorf("pair %d: %.12f, the reference %.12f", i, res.Distance, ref)
		}
	}
}

// ridgeQPairs are TestRidgeNormalAlignedAtQ's pairs.
func ridgeQPairs() [][2]geom.Body {
	return [][2]geom.Body{
		{geom.Body{Shape: geom.Superovoid{A: [3]float64{1.177694399937383, 1.8992112057983477, 0.3210105585629245}, Eps: [2]float64{0.3091215222706418, 0.33584262532701004}, Taper: [2]float64{-0.28744501411778944, 0.09143210216129283}},
			Pose: geom.Pose{Position: geom.Vec3{0, 0, 0}, Orientation: geom.Quat{W: -0.0571017199585182, V: geom.Vec3{-0.6068223174776778, 0.2910726470520816, -0.7374162886232536}}}},
			geom.Body{Shape: geom.Superovoid{A: [3]float64{1.8314697697487015, 0.6768230173321945, 1.7005519402751585}, Eps: [2]float64{1.480387147582752, 1.8893199278632766}, Taper: [2]float64{-0.03855605198602752, 0.03539134835490987}},
				Pose: geom.Pose{Position: geom.Vec3{5.198366021573335, -0.6929760070916867, 2.1014933131304336}, Orientation: geom.Quat{W: -0.3036017271761738, V: geom.Vec3{-0.7700022623093319, -0.4709085533920645, 0.30523374917650914}}}}},
		{geom.Body{Shape: geom.Superovoid{A: [3]float64{1.2959716400150467, 0.356090086681143, 1.8439202169043187}, Eps: [2]float64{1.44902996247573, 0.1852450407077215}, Taper: [2]float64{-0.15860267620357338, -0.39179178702596695}},
			Pose: geom.Pose{Position: geom.Vec3{0, 0, 0}, Orientation: geom.Quat{W: 0.41414782005947953, V: geom.Vec3{0.24745990183179972, -0.42621745465133454, -0.7652345140386145}}}},
			geom.Body{Shape: geom.Superovoid{A: [3]float64{1.489295398417525, 1.81679496803281, 1.6064800694842172}, Eps: [2]float64{0.42704682716155185, 1.853639489617301}, Taper: [2]float64{-0.06961542469414383, 0.3444628060433621}},
				Pose: geom.Pose{Position: geom.Vec3{-0.0351980092670287, 0.008562767344488327, 4.977213936499899}, Orientation: geom.Quat{W: -0.34339236385690075, V: geom.Vec3{-0.47707626279554627, -0.495261706356793, -0.6396841143395406}}}}},
		{geom.Body{Shape: geom.Superovoid{A: [3]float64{1.2950615960656013, 0.8947116463266498, 0.5562531216522215}, Eps: [2]float64{0.5350825565735288, 0.20113325227561385}, Taper: [2]float64{-0.24130034476151652, -0.35916739570309475}},
			Pose: geom.Pose{Position: geom.Vec3{0, 0, 0}, Orientation: geom.Quat{W: -0.5664605023421123, V: geom.Vec3{0.7623019246457109, 0.19338661875831628, 0.24621106931450573}}}},
			geom.Body{Shape: geom.Superovoid{A: [3]float64{1.469163952189324, 0.7770082383404349, 1.0121975545051802}, Eps: [2]float64{1.864966118181931, 1.789960027331447}, Taper: [2]float64{0.40501863850989805, 0.026981786639997285}},
				Pose: geom.Pose{Position: geom.Vec3{3.622429117986468, 0.19543257051615728, -1.4421162627049084}, Orientation: geom.Quat{W: 0.16182997659593398, V: geom.Vec3{-0.44931838829296017, 0.24605230198832917, 0.8434348281302001}}}}},
	}
}

// TestRidgeNormalAlignedAtQWarm: TestRidgeNormalAlignedAtQ's pairs
// animated as sovviz bench animates them (benchMotion, 50 steps), warm
// started in every scheme. The parametric scheme's warm starts converged
// on the ridge as its cold query had, b's normal at Q up to 0.0126 rad
// from P − Q, in 12 of 50 steps; a converged warm pair is now polished as
// a cold one is. Every answer's normals must lie along the line of its
// points to within alignTol (classify's own scheme-to-scheme rounding
// reaches 6e-9 here), the surfaces' normals at its local points must be
// its normals, its distance a cold query's, and nearly every step must
// stay warm (one of the 150 steps of a scheme goes cold, as before the
// polish).
func TestRidgeNormalAlignedAtQWarm(t *testing.T) {
	for _, m := range []Method{Implicit, Parametric, NTB} {
		cold := 0
		for i, p := range ridgeQPairs() {
			a, b := p[0], p[1]
			opt := DefaultOptions()
			opt.Method = m
			sv, fresh := NewSolver(opt), NewSolver(opt)
			prev := sv.Query(&a, &b)
			r := rand.New(rand.NewPCG(1, uint64(i)))
			for k := 0; k < 50; k++ {
				benchMotion(&a, &b, r)
				res := sv.QueryWarm(&a, &b, &prev)
				prev = res
				u := res.Q.Sub(res.P).Normalize()
				if res.Status != Converged || !(res.Distance > 0) {
					t.Errorf("%v pair %d step %d: %v, %.12g", m, i, k, res.Status, res.Distance)
					continue
				}
				if e := max(res.NormalQ.Add(u).Len(), res.Normal.Sub(u).Len()); e > 2*alignTol {
					t.Errorf("%v pair %d step %d: a normal is %.3g rad from the line of the points", m, i, k, e)
				}
				ta, tb := a.Pose.Transform(), b.Pose.Transform()
				na, okA := a.Shape.Normal(res.LocalP)
				nb, okB := b.Shape.Normal(res.LocalQ)
				if !okA || !okB || ta.Dir(na).Sub(res.Normal).Len() > 2*alignTol || tb.Dir(nb).Sub(res.NormalQ).Len() > 2*alignTol {
					t.Errorf("%v pair %d step %d: the surfaces' normals at the local points are not the answer's", m, i, k)
				}
				if c := fresh.Query(&a, &b); math.Abs(c.Distance-res.Distance) > 1e-9 {
					t.Errorf("%v pair %d step %d: warm %.12f, cold %.12f", m, i, k, res.Distance, c.Distance)
				}
				if !res.Warm {
					cold++
				}
			}
		}
		if cold > 1 {
			t.Errorf("%v: %d of %d warm steps went cold", m, cold, 50*len(ridgeQPairs()))
		}
	}
}

// footPair is TestRidgeSearchFoot's pair: a's pointy tip (e 1.62, 1.88,
// tapered 0.42 and −0.41) 3.02 from b's ridge y = 0 (e 1.89, 1.72), both
// shapes non-convex.
func footPair() (a, b geom.Body) {
	a = geom.Body{Shape: geom.Superovoid{A: [3]float64{0.3995179234829052, 1.9000781408913134, 1.6488269456243916}, Eps: [2]float64{1.6233597807488416, 1.8842485942724694}, Taper: [2]float64{0.4192447646734756, -0.4104721312536749}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.48210737207093574, V: geom.Vec3{0.7034993555725443, -0.5201437814603224, -0.04595198703024512}}}}
	b = geom.Body{Shape: geom.Superovoid{A: [3]float64{1.4923133098736483, 0.5512190186486814, 1.9980749377899005}, Eps: [2]float64{1.8889298578516325, 1.7240707183376849}, Taper: [2]float64{-0.4441623058107237, 0.40043467484770845}},
		Pose: geom.Pose{Position: geom.Vec3{3.3243315070634045, 4.307494088880527, 1.8843527770367772}, Orientation: geom.Quat{W: -0.6326758470983572, V: geom.Vec3{0.17177165895714416, 0.5273298128919977, -0.5404988789190753}}}}
	return a, b
}

// TestRidgeSearchFoot: a's pointy −z tip (e2 1.88) 3.0e-2 from b's pointy
// ridge y = 0 (e1 1.89), b moved there along the normal of the pair's
// answer 3.02 apart (pair 183 of a sweep of pointy pairs, e 1.6–1.9: seed
// 4). The tip's foot on b, 1.9e-3 off the ridge, is far from the pair in
// the ridge's chart (its exponent 17) and the polish from it fails; from
// the foot moved onto the ridge it converges (ontoRidges). Every query
// failed before. The answer must be the moved pair's distance, checked
// against dense sampling too.
func TestRidgeSearchFoot(t *testing.T) {
	a, b := footPair()
	opt := DefaultOptions()
	far := Query(&a, &b, &opt)
	if far.Status != Converged || math.Abs(far.Distance-3.024209286) > 1e-8 {
		t.Fatalf("the pair 3.02 apart: %v %.9f", far.Status, far.Distance)
	}
	if e := far.Q.Sub(far.P).Normalize().Sub(far.Normal).Len(); e > 1e-9 {
		t.Fatalf("its normal is %.3g rad from Q − P: the moved pair is not known", e)
	}
	c := b
	c.Pose.Position = b.Pose.Position.Sub(far.Normal.Mul(0.99 * far.Distance))
	want := 0.01 * far.Distance
	ref := refMinDistance(&a, &c)
	separatedInEveryScheme(t, &a, &c, ref, func(tag string, _ *Options, res *Result) {
		if math.Abs(res.Distance-want) > 1e-9 {
			t.Errorf("%s: %.12f, the moved pair is %.12f apart", tag, res.Distance, want)
		}
	})
}

// TestRidgeSearchTouching: TestRidgeSearchFoot's pair moved closer along
// the same normal, 3.0e-3 down to 3.0e-7 apart. Every query failed,
// claiming an overlap 0.17 deep (the hulls' translation): the tip's foot
// on the ridge was found only along the ray from b's centre, 8e-4 off the
// ridge and 1e-3 from the pair (projectPointCharted finds it exactly), and
// from the tip itself the chart's fixed seeds (x = 1e-9 of the semi-axis,
// the pair's is within 1.6e-13) never reached the pair (matchedSeed): now
// 3.0e-3 and 3.0e-4 apart converge. At 3.0e-5 apart the chart run's last
// steps were damped ones, and it passed for converged with the tip 1.35e-8
// off its surface, 1.6e-8 too far: a converged chart answer must now meet
// every equation to 1e-10 (cuspSolvedMerit), which no run from the ridge
// samples does that near the tip; those pairs were answered from the tip
// and its exact foot, max_iterations (tipPair; gapCertify cannot prove
// them: both shapes are caved, and the support planes miss the tip). Since
// the ridge search walks down from the samples whose polish kept nothing,
// the chart run from the walk's pair meets every equation, and all of them
// converge, within 1e-15 of the distance. The moved pair is the closest: any other pair
// is at least 0.0302 apart at 0.99 of the distance (TestRidgeSearchFoot),
// and a move of b by δ brings none closer than by δ.
func TestRidgeSearchTouching(t *testing.T) {
	a, b := footPair()
	opt := DefaultOptions()
	far := Query(&a, &b, &opt)
	if far.Status != Converged {
		t.Fatalf("the pair 3.02 apart: %v", far.Status)
	}
	for _, f := range []float64{0.999, 0.9999, 0.99999, 0.999999, 0.9999999} {
		c := b
		c.Pose.Position = b.Pose.Position.Sub(far.Normal.Mul(f * far.Distance))
		want := (1 - f) * far.Distance
		for _, m := range allMethods {
			o := DefaultOptions()
			o.Method = m
			res := Query(&a, &c, &o)
			tag := fmt.Sprintf("%v, moved to %.3g apart", m, want)
			if !finiteResult(&res) {
				t.Errorf("%s: not finite: %+v", tag, res)
				continue
			}
			// (Absolute: the moved pair's own distance carries the
			// positions' rounding, 1e-15.)
			if res.Status != Converged || math.Abs(res.Distance-want) > 1e-11 {
				t.Errorf("%s: %v %.15f, want converged %.15f", tag, res.Status, res.Distance, want)
			}
			if u := res.Q.Sub(res.P).Normalize(); u.Sub(res.Normal).Len() > 1e-9 || u.Add(res.NormalQ).Len() > 1e-9 {
				t.Errorf("%s: the normals %v, %v are not along Q − P, %v", tag, res.Normal, res.NormalQ, u)
			}
		}
	}
}

// TestProjectPointCharted: points off pointy ridges (e1 1.6–1.9, tapered,
// any semi-axes) along the ridge point's own normal, by 1e-4 to 0.03 of
// the smallest semi-axis, projected from the foot on the ray from the
// centre (ridgeFoot's seed): the foot must be the ridge point itself and
// the distance the offset. Where projectPoint also converges it must
// agree; it fails on every one of these points today (the log counts
// them), which is why the chart is needed.
func TestProjectPointCharted(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 16))
	plainFails, n := 0, 0
	for i := 0; i < 300; i++ {
		s := rangedShape(r, 1.6, 1.9)
		s.Eps[1] = 0.3 + 1.2*r.Float64() // a profile that is not pointy: the ridge point's normal is defined
		az := []float64{0, math.Pi / 2, math.Pi, -math.Pi / 2}[r.IntN(4)]
		el := -1.2 + 2.4*r.Float64()
		y0 := s.Point(az, el)
		nrm, ok := s.Normal(y0)
		if !ok {
			t.Fatalf("shape %d: no normal at the ridge point %v", i, y0)
		}
		d := minAxis(&s) * math.Pow(10, -4+2.5*r.Float64())
		x := y0.Add(nrm.Mul(d))
		seed, ok := radialToSurface(&s, x)
		if !ok {
			continue
		}
		n++
		tag := fmt.Sprintf("shape %d %+v, ridge point %v, offset %.3g", i, s, y0, d)
		q, ok := projectPointCharted(&s, x, seed)
		if !ok {
			t.Errorf("%s: no foot", tag)
			continue
		}
		if e := q.Sub(y0).Len(); e > 1e-9*max(1, d/minAxis(&s)) {
			t.Errorf("%s: foot %v, %.3g from the ridge point", tag, q, e)
		}
		if e := math.Abs(x.Sub(q).Len() - d); e > 1e-12 {
			t.Errorf("%s: distance %.15g, the offset %.15g", tag, x.Sub(q).Len(), d)
		}
		if p, ok := projectPoint(&s, x, seed); !ok {
			plainFails++
		} else if e := p.Sub(q).Len(); e > 1e-9 {
			t.Errorf("%s: projectPoint's foot %v is %.3g from the charted one", tag, p, e)
		}
	}
	t.Logf("%d points: projectPoint failed on %d", n, plainFails)
	if n < 250 {
		t.Errorf("only %d points had a radial seed", n)
	}
}

// TestOverlapWitnessGrid: two elongated pointy, non-convex bodies crossed
// at an angle, overlapping deeply (pair 36 of the same sweep, seed 1).
// Every start fails, and the polytope finds the hulls 0.63 deep, but every
// point overlapWitness tried (the polytope's pair and midpoint, the
// centres and their segment, its support points) lay outside one body, so
// nothing proved the bodies overlap and the query failed in every scheme.
// The surfaces' coarse grids prove it: the answer is the hulls'
// translation, an upper bound of the depth, max_iterations. This test
// proves the overlap on its own (a point inside both, from a fine grid),
// and moves b along the answer's normal by 1.01 times the depth, which
// must separate the bodies.
func TestOverlapWitnessGrid(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.60007428425522, 1.0448013797266809, 1.844696252528588}, Eps: [2]float64{1.6871013948236098, 1.7855832415745305}, Taper: [2]float64{-0.07029260545088678, -0.21990621971126045}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.10545532845842842, V: geom.Vec3{-0.4051448467335645, 0.24090327217133795, -0.8756154637294294}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.5563713267387413, 0.4171686570682803, 1.179760541833325}, Eps: [2]float64{1.8490018399916892, 1.7929632803088262}, Taper: [2]float64{-0.32012384816438844, 0.09247582601800786}},
		Pose: geom.Pose{Position: geom.Vec3{-1.5862935615372167, 0.11700311285763496, -0.19145336767187182}, Orientation: geom.Quat{W: 0.7303122911407071, V: geom.Vec3{0.6189636506457384, 0.2840408629390947, 0.053373633649262536}}}}
	ta, tb := a.Pose.Transform(), b.Pose.Transform()
	both := 0
	for i := 0; i <= 40; i++ {
		for j := 0; j <= 40; j++ {
			for k := 0; k <= 40; k++ {
				w := geom.Vec3{-4 + 0.2*float64(i), -4 + 0.2*float64(j), -4 + 0.2*float64(k)}
				fa, okA := a.Shape.Residual(ta.InvPoint(w))
				fb, okB := b.Shape.Residual(tb.InvPoint(w))
				if okA && okB && fa < 0 && fb < 0 {
					both++
				}
			}
		}
	}
	if both == 0 {
		t.Fatal("no grid point inside both bodies: the pair no longer overlaps")
	}
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		res := Query(&a, &b, &opt)
		if res.Status == Failed || !(res.Distance < 0) || !finiteResult(&res) {
			t.Errorf("%v: %v %.9f; the bodies overlap (%d grid points inside both)", m, res.Status, res.Distance, both)
			continue
		}
		c := b
		c.Pose.Position = b.Pose.Position.Add(res.Normal.Mul(-1.01 * res.Distance))
		if moved := Query(&a, &c, &opt); !(moved.Distance > 0) {
			t.Errorf("%v: %v %.9f, moved along its normal by 1.01 times the depth: %v %.9f, still overlapping", m, res.Status, res.Distance, moved.Status, moved.Distance)
		}
	}
}

// TestMovedAlongNormalSweep is TestPointyMovedAlongNormal's check over
// more kinds of pairs: each kind draws a's and b's exponents from its own
// range (taper ±0.5, semi-axes 0.3–2), 400 pairs per kind. It runs only
// when SOVVIZ_MOVED_SWEEP=1 is set (about 25 s):
//
//	SOVVIZ_MOVED_SWEEP=1 go test -run MovedAlongNormalSweep -v ./contact
func TestMovedAlongNormalSweep(t *testing.T) {
	if os.Getenv("SOVVIZ_MOVED_SWEEP") != "1" {
		t.Skip("set SOVVIZ_MOVED_SWEEP=1 to run the sweep of moved pairs (about 25 s)")
	}
	kinds := []struct {
		seed               uint64
		aLo, aHi, bLo, bHi float64
	}{
		{11, 0.1, 1.9, 0.1, 1.9}, {12, 0.1, 1.9, 0.1, 1.9}, {13, 0.1, 0.4, 0.1, 0.4},
		{14, 0.1, 0.4, 1.5, 1.9}, {15, 1.5, 1.9, 0.1, 1.9}, {16, 0.1, 1.9, 1.5, 1.9},
		{17, 0.05, 1.95, 0.05, 1.95}, {18, 1.6, 1.9, 1.6, 1.9}, {19, 1.6, 1.9, 1.6, 1.9},
		{20, 1.6, 1.9, 1.6, 1.9}, {21, 1.6, 1.9, 1.6, 1.9},
	}
	opt := DefaultOptions()
	for _, k := range kinds {
		r := rand.New(sweepPCG(t, k.seed, 99))
		failed, unconverged, moves, shallow := 0, 0, 0, 0
		for i := 0; i < 400; i++ {
			a, b := placedPair(r, k.aLo, k.aHi, k.bLo, k.bHi)
			res := Query(&a, &b, &opt)
			tag := fmt.Sprintf("seed %d pair %d", k.seed, i)
			if res.Status == Failed {
				failed++
				t.Errorf("%s: failed", tag)
				continue
			}
			if res.Status != Converged {
				unconverged++
				continue
			}
			m, f, sh := checkMovedAlongNormal(t, &a, &b, &res, &opt, tag)
			moves += m
			failed += f
			shallow += sh
		}
		t.Logf("seed %d (a e %g–%g, b e %g–%g): 400 pairs, %d not converged, %d moved queries, %d failed, %d showing a too shallow answer", k.seed, k.aLo, k.aHi, k.bLo, k.bHi, unconverged, moves, failed, shallow)
	}
}

// TestRidgeSearchRanking: a section's corner (x = 0 and z = 0, e 1.77 and
// 1.87, tapered 0.41 and 0.49) against b's face, 0.1716 apart (pair 309 of
// TestMovedAlongNormalSweep's seed 18). The query answered a converged,
// uncertified pair 0.1739 apart: the corner ranked 30th of the ridge
// samples by the radial estimate, and only the first six were polished.
// Ranked by the exact distance to their feet it is first. Every scheme
// must answer dense sampling's distance.
func TestRidgeSearchRanking(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.4360038362340961, 0.9683698235134437, 0.5081731738192166}, Eps: [2]float64{1.7652700952002625, 1.8715021419812208}, Taper: [2]float64{0.4070228692762514, 0.49064788200897547}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.2088289713599941, V: geom.Vec3{-0.6003919085984674, -0.08450721226987484, 0.7673190652424783}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.5192576008747759, 1.6977294452638585, 0.9655590910112986}, Eps: [2]float64{1.7272148074863682, 1.8333685693900803}, Taper: [2]float64{0.3138188276149637, -0.03990523828117387}},
		Pose: geom.Pose{Position: geom.Vec3{0.6785795313552109, -0.6846028924091954, -0.4923019423430892}, Orientation: geom.Quat{W: 0.3636550177326981, V: geom.Vec3{-0.75798722266349, 0.5399883684017692, 0.0402859820224741}}}}
	atReference(t, &a, &b, 0.1717, "the corner against the face", nil)
}

// TestRidgeSearchRanksPoles: pair 1184 of TestNearTouchEndsMinimal's
// sweep with gaps up to 0.3 and seed 9. a (e 1.9, 1.95, tapers ∓0.5) has
// its top tip 0.16835 from a sloping face of b, a plate 0.22 thick (e 0.05,
// 1.9). Every scheme converged, uncertified, on a's ridge 0.18018 apart:
// from b's centre the ray through the tip meets b's surface far from the
// tip's foot, so the tip ranked below the 32 ridge samples whose feet
// ridgeSearch computes. Poles are now always among them, and the answer
// is the tip's pair. The independent check is the point distance from the
// tip (PointDistance, whose own checks are dense samples): dense sampling
// of both surfaces (refMinDistance) stops 4.2e-7 short of the tip, where
// its parameters are singular.
func TestRidgeSearchRanksPoles(t *testing.T) {
	a := refuteBody([3]float64{0.4971430108195201, 1.1531877453020973, 1.1230967960878406}, [2]float64{1.9, 1.95}, [2]float64{-0.5, 0.5}, [3]float64{0, 0, 0}, [4]float64{0.17474928124904351, -0.2591942578380311, -0.2977949963961974, 0.9019973201335599})
	b := refuteBody([3]float64{1.9385482425029725, 1.5174562135226306, 0.2175920152809045}, [2]float64{0.05, 1.9}, [2]float64{0, 0.14216476747092666}, [3]float64{-0.951741265434714, -0.24355207265073164, -0.23804024826097064}, [4]float64{0.48830208427465943, 0.32272708698979474, -0.5743407311990332, -0.572312000836838})
	ta := a.Pose.Transform()
	tip := ta.Point(geom.Vec3{0, 0, a.Shape.A[2]})
	pd := PointDistance(&b, tip)
	ref := refMinDistance(&a, &b)
	if pd.Status != Converged || !(pd.Distance < 0.1684) || !(pd.Distance <= ref) {
		t.Fatalf("the tip is %.12f (%v) from b, dense sampling %.12f: the pair no longer tests the poles' ranking", pd.Distance, pd.Status, ref)
	}
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		r := Query(&a, &b, &opt)
		if r.Status != Converged || math.Abs(r.Distance-pd.Distance) > 1e-9 || r.P.Sub(tip).Len() > 1e-9 {
			t.Errorf("%v: %v %.12f, P %.3g from the tip; the tip is %.12f from b", m, r.Status, r.Distance, r.P.Sub(tip).Len(), pd.Distance)
		}
	}
}

// atReference checks a and b, which dense sampling must find closer than
// below (else the pair is no longer the one named what), in every scheme
// against that reference from both sides (separatedInEveryScheme) and
// never below it; more, when not nil, gets each answer for the test's own
// checks.
func atReference(t *testing.T, a, b *geom.Body, below float64, what string, more func(tag string, opt *Options, res *Result)) {
	t.Helper()
	ref := refMinDistance(a, b)
	if !(ref < below) {
		t.Fatalf("the reference finds %.9f: the pair is no longer %s", ref, what)
	}
	separatedInEveryScheme(t, a, b, ref, func(tag string, opt *Options, res *Result) {
		if res.Distance < ref-1e-9 {
			t.Errorf("%s: %.12f, below the reference's %.12f", tag, res.Distance, ref)
		}
		if more != nil {
			more(tag, opt, res)
		}
	})
}

// TestConvexityKinkPair: a pointy section with tx ≠ ty (e1 1.90) that the
// analysis called convex (geom's TestConvexityKinks) against a tapered
// body, overlapping 0.153 deep. Trusted convex, the polytope certified a
// depth 5.8e-4 too deep from a witness 1.1e-3 off its surface: b moved
// along the normal by that depth stayed 5.8e-4 apart (review of
// 2026-11-25). Now the pair is known non-convex and, in every scheme, b
// moved by the depth touches a and by 1.01 times it is 0.01 times it
// apart.
func TestConvexityKinkPair(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.492054244201119, 1.2216747713869638, 1.3283816057504918}, Eps: [2]float64{1.8997347788894416, 1.620315376039186}, Taper: [2]float64{-0.20787819878864422, 0.25949273129886485}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.007303526123461461, V: geom.Vec3{0.4142930205423784, -0.31472280750439774, -0.853965752283185}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.85820260480635, 0.4827617161912999, 0.3954021456845047}, Eps: [2]float64{1.3570101597701514, 1.03029757774446}, Taper: [2]float64{0.3813961858252469, 0.46544779706460804}},
		Pose: geom.Pose{Position: geom.Vec3{0.6290202748160689, -0.22402003216248617, -1.1227454981388911}, Orientation: geom.Quat{W: -0.028076757391762738, V: geom.Vec3{0.4462178998186406, 0.5431158473139659, 0.7107224901269403}}}}
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		res := Query(&a, &b, &opt)
		if res.Status != Converged || !(res.Distance < 0) || res.NonConvex&1 == 0 || res.Certified {
			t.Errorf("%v: %v %.12f, non-convex %d, certified %v; want a converged overlap, a's shape non-convex, not certified", m, res.Status, res.Distance, res.NonConvex, res.Certified)
			continue
		}
		fa, _ := a.Shape.Residual(res.LocalP)
		fb, _ := b.Shape.Residual(res.LocalQ)
		if math.Abs(fa) > 1e-9 || math.Abs(fb) > 1e-9 {
			t.Errorf("%v: witnesses off the surfaces (residuals %.3g, %.3g)", m, fa, fb)
		}
		for _, f := range []float64{1, 1.01} {
			c := b
			c.Pose.Position = b.Pose.Position.Add(res.Normal.Mul(-f * res.Distance))
			moved := Query(&a, &c, &opt)
			if want := (f - 1) * -res.Distance; moved.Status == Failed || math.Abs(moved.Distance-want) > 1e-9 {
				t.Errorf("%v (%.12f) moved by %v times the depth: %v %.12f, want %.12f", m, res.Distance, f, moved.Status, moved.Distance, want)
			}
		}
	}
}

// placedPair draws a pair of rangedShape bodies, a's exponents from [aLo,
// aHi] and b's from [bLo, bHi], randomly turned, b placed by placeApart.
func placedPair(r *rand.Rand, aLo, aHi, bLo, bHi float64) (a, b geom.Body) {
	a = geom.Body{Shape: rangedShape(r, aLo, aHi), Pose: geom.Pose{Orientation: randQuat(r)}}
	b = geom.Body{Shape: rangedShape(r, bLo, bHi), Pose: geom.Pose{Orientation: randQuat(r)}}
	placeApart(r, &a, &b)
	return a, b
}

// checkMovedAlongNormal moves b along the converged answer res's own
// normal, out of an overlap by 1.001, 1.01 and 1.1 times the depth or
// towards a by 0.999, 0.99 and 0.9 times the distance, where res's pair
// lies f − 1 times the old distance apart (f the factor's distance from
// 1): the moved query must answer that or closer, and for a separated
// answer not closer either (else res was not the closest pair). An
// overlap within the range (at most 0.3 of the smaller body's
// smallest semi-axis deep) is also moved out by half its depth and 0.9 of
// it: the rest of the depth is then the moved bodies' translation
// distance exactly (a shorter translation t would separate the first
// bodies by less than the depth, moved by t plus the move), so a
// shallower moved answer shows the first one too deep, a deeper one the
// moved one. (TestProbeNonConvex's pair was found so: 0.0095 for 0.0114
// at 0.9.) Moved out by more than its depth such an overlap should be
// apart; when the moved query still finds an overlap the first answer was
// too shallow, an error (counted in shallow) even when the answer says so
// (Result.StillOverlapping): within the range it must be right.
// (Until the move-out check, pairs 121 and 251 of kind 21, the second with
// SOVVIZ_SWEEP_SEED=44, were too shallow and logged as a known limit:
// TestMoveOutDeeperPair.)
// Deeper overlaps of pointy non-convex pairs fail the checks of the rest
// of the depth too (Known limits). It returns the moved queries made, how
// many failed and how many showed a too shallow answer.
func checkMovedAlongNormal(t *testing.T, a, b *geom.Body, res *Result, opt *Options, tag string) (moves, failed, shallow int) {
	t.Helper()
	d := res.Distance
	inRange := d < 0 && -d <= 0.3*min(minAxis(&a.Shape), minAxis(&b.Shape))
	if inRange {
		for _, f := range []float64{0.5, 0.9} {
			c := *b
			c.Pose.Position = b.Pose.Position.Add(res.Normal.Mul(f * -d))
			moved := Query(a, &c, opt)
			moves++
			want := (1 - f) * d
			switch {
			case moved.Status == Failed:
				failed++
				t.Errorf("%s (%.9f) moved out by f = %v: failed", tag, d, f)
			case math.Abs(moved.Distance-want) > 1e-6*-d+1e-9:
				t.Errorf("%s (%.9f) moved out by f = %v: %v %.9f, but the rest of the depth is %.9f", tag, d, f, moved.Status, moved.Distance, want)
			}
		}
	}
	for _, f := range []float64{1.001, 1.01, 1.1} {
		c := *b
		if d < 0 {
			c.Pose.Position = b.Pose.Position.Add(res.Normal.Mul(f * -d))
		} else {
			c.Pose.Position = b.Pose.Position.Sub(res.Normal.Mul((2 - f) * d))
		}
		moved := Query(a, &c, opt)
		moves++
		want := (f - 1) * math.Abs(d)
		switch {
		case moved.Status == Failed:
			failed++
			t.Errorf("%s (%.9f) moved by f = %v: failed", tag, d, f)
		case moved.Distance > want*(1+1e-6)+1e-9:
			t.Errorf("%s (%.9f) moved by f = %v: %v %.9f, but the moved pair is %.9f apart", tag, d, f, moved.Status, moved.Distance, want)
		case inRange && !(moved.Distance > -1e-9):
			shallow++
			t.Errorf("%s (%.9f, StillOverlapping %g) moved out by f = %v: %v %.9f, still overlapping: the first answer was too shallow", tag, d, res.StillOverlapping, f, moved.Status, moved.Distance)
		case d > 0 && moved.Distance < want-1e-9:
			t.Errorf("%s (%.9f) moved by f = %v: %.9f, closer than the moved pair's %.9f: the first answer was not the closest pair", tag, d, f, moved.Distance, want)
		}
	}
	return moves, failed, shallow
}

// separatedInEveryScheme queries a and b in every scheme and checks each
// answer against ref, dense sampling's distance, from both sides
// (checkSeparatedAnswer); more gets each answer that passes, with its
// options, for the test's own checks.
func separatedInEveryScheme(t *testing.T, a, b *geom.Body, ref float64, more func(tag string, opt *Options, res *Result)) {
	t.Helper()
	for _, m := range allMethods {
		opt := DefaultOptions()
		opt.Method = m
		res := Query(a, b, &opt)
		tag := fmt.Sprintf("%v", m)
		if checkSeparatedAnswer(t, a, b, &res, ref, tag) {
			more(tag, &opt, &res)
		}
	}
}

// TestRidgeTakesMarks: a converged near-touch refused by ridgeTakes (the
// separated best is itself within lowTouch of touching, so the touch
// refutes nothing) undoes its run's overlap mark; a refused deeper
// overlapping pair keeps it, as does a touch taken against a separated best
// farther apart.
func TestRidgeTakesMarks(t *testing.T) {
	a, b := footPair()
	sv := NewSolver(DefaultOptions())
	pr := analysedPair(sv, &a, &b)
	lim := touchLim(&pr)
	tol := pairTol(&pr)
	for _, tc := range []struct {
		name          string
		bestSD, cSD   float64
		taken, proven bool
	}{
		{"refused touch", 0.5 * lim, -0.5 * lim, false, false},
		{"refused deeper pair", 0.5 * lim, -10 * lim, false, true},
		{"taken touch", 1e-3, -0.5 * lim, true, true},
	} {
		best := candidate{valid: true, converged: true, separated: true, sd: tc.bestSD}
		c := candidate{valid: true, converged: true, sd: tc.cSD}
		pr.overlapProven = true // (as classify marks every valid overlapping pair)
		if got := ridgeTakes(&pr, &c, &best, tol, false); got != tc.taken || pr.overlapProven != tc.proven {
			t.Errorf("%s: taken %v, overlap marked %v; want %v, %v", tc.name, got, pr.overlapProven, tc.taken, tc.proven)
		}
	}
}

// TestRidgeCrossings: steps 56 and 57 of draw 0's pair 34 in
// TestApproachSweep with SOVVIZ_SWEEP_SEED=10, two pointy tapered shapes
// (e 1.73 to 1.90) overlapping where a's equator ridge crosses b's ridge
// on y = 0. No start converged there, and every scheme answered the
// polytope's hull pair, max_iterations, 0.259967 and 0.259918 deep (at
// step 56 straight from the rescues, at 57 from the probe's hull check
// of a converged pair 1.026 deep); at step 55 the ridge search's seeds (a
// sample and its foot) reached the crossing, 0.221327 deep. The warm
// start tracked it, 0.223052 and 0.224730 deep: with b moved 0.22306 and
// 0.22474 along that normal, dense samples find the bodies apart.
// ridgeCrossings now polishes from the nearest pairs of ridge samples
// each inside the other body.
func TestRidgeCrossings(t *testing.T) {
	a := geom.Body{Shape: geom.Superovoid{A: [3]float64{0.982807999586226, 1.743730857988151, 1.2633414242696144}, Eps: [2]float64{1.7302112118550432, 1.866359550301144}, Taper: [2]float64{0.05338142335143525, -0.3696158355560857}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.3234305639188924, V: geom.Vec3{-0.247225730319147, 0.09639118234397233, -0.908284563645999}}}}
	b := geom.Body{Shape: geom.Superovoid{A: [3]float64{1.1487332838286377, 1.0308964258908024, 1.7877079802021494}, Eps: [2]float64{1.8353703754947222, 1.8974394898394942}, Taper: [2]float64{0.31925024472538976, 0.4867528621093008}},
		Pose: geom.Pose{Orientation: geom.Quat{W: 0.8208896115316325, V: geom.Vec3{-0.3321784969665003, 0.1319059909532156, 0.4454194667761752}}}}
	for _, c := range []struct {
		pos, normal geom.Vec3
		apart       float64
	}{
		{geom.Vec3{-1.0288266676033948, 1.5805056022625557, 1.52138106236832}, geom.Vec3{-0.7401931946126427, -0.10589727636982663, 0.664002862574088}, 0.22306},
		{geom.Vec3{-1.0177841888573926, 1.581851897419699, 1.5313457760630824}, geom.Vec3{-0.7376008743100504, -0.11143473895074577, 0.6659784149445303}, 0.22474},
	} {
		b.Pose.Position = c.pos
		checkNoDeeperThanApart(t, &a, &b, c.normal.Mul(c.apart), "the ridge crossings", true, nil)
	}
}
