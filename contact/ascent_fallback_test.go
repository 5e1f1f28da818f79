package contact

import (
	"math"
	"testing"

	"github.com/sovviz/sovviz/geom"
)

// TestExactAscentFallback reaches exactAscent's fallback step, taken where
// the finite-difference Hessian is not negative definite. Two pointy
// bodies (e 1.6 to 1.95) placed touching tip to tip along a random
// direction: there the gap's curvature on the sphere, the tips' radii of
// curvature minus the gap, is about 0, and the Hessian's signs are those
// of its rounding. The climbs start 0.6 to 3.2 below the touch; each
// reaches the fallback (temporary instrumentation of the branch: 1 to 11
// gradient steps at scale 1, 1 to 6 at 1e-6 and 1e6, all but one or two
// kept), and each ends within pairTol of the touch, 0 (the pair is placed
// touching: the supports along the placing direction meet, so that the
// hulls' signed distance and the gap's maximum are 0), at every scale.
// With the fallback step 0 (k = 0) the climbs stop where the Hessian
// first fails, 3.5e-9 to 5.3e-8 of the size below; without rowWeight
// (k = 1e-3 at every size: 1e6 times too long at 1e6, rejected, 1e6 times
// too short at 1e-6, and off by rowWeight's 2 or 1/2 at scale 1) they end
// up to 5.3e-8 of the size below, at one scale or more for every pair.
func TestExactAscentFallback(t *testing.T) {
	cases := []struct {
		name string
		a, b geom.Body
		n    geom.Vec3
	}{
		{"29", geom.Body{Shape: geom.Superovoid{A: [3]float64{1.1818300930272194, 1.1167604593367055, 0.41466128173487388}, Eps: [2]float64{1.8198591506565844, 1.817633410359071}, Taper: [2]float64{-0.060745559994102583, -0.41363728156437995}}, Pose: geom.Pose{Position: geom.Vec3{0, 0, 0}, Orientation: geom.Quat{W: 0.75411361137594191, V: geom.Vec3{0.0049852905197330594, -0.15056777906177313, 0.63923168876736214}}}},
			geom.Body{Shape: geom.Superovoid{A: [3]float64{0.68345839828389254, 1.0336488600130509, 0.64879939699127132}, Eps: [2]float64{1.8278743326608275, 1.9130588738315724}, Taper: [2]float64{0.26917125879068637, 0.09216165171601276}}, Pose: geom.Pose{Position: geom.Vec3{0.0086611850876407159, -1.7224374358220023, 0.034725542157794831}, Orientation: geom.Quat{W: -0.33243444997212362, V: geom.Vec3{0.51795836542258689, 0.38848454976528862, -0.68577417766649296}}}},
			geom.Vec3{0.77908456337089116, 0.16662948955165335, 0.60436897366504794}},
		{"63", geom.Body{Shape: geom.Superovoid{A: [3]float64{1.1330406054350015, 0.67273636285762994, 0.75301407189063752}, Eps: [2]float64{1.9040457997060136, 1.8628129307640005}, Taper: [2]float64{-0.47009138460826294, -0.2941483708049647}}, Pose: geom.Pose{Position: geom.Vec3{0, 0, 0}, Orientation: geom.Quat{W: 0.1143197952167392, V: geom.Vec3{-0.35563505687073971, 0.2213273171031116, -0.90081569116556082}}}},
			geom.Body{Shape: geom.Superovoid{A: [3]float64{1.2588103859434565, 0.94686900840812882, 1.2457928177108493}, Eps: [2]float64{1.8234105429064813, 1.8158037470936679}, Taper: [2]float64{-0.46907602057986486, 0.13490768857149615}}, Pose: geom.Pose{Position: geom.Vec3{-1.391741087214224, -1.1673987178516843, 1.4947805794186642}, Orientation: geom.Quat{W: 0.50103790594792919, V: geom.Vec3{-0.14395998580856229, -0.44621860729489016, -0.72741012763991741}}}},
			geom.Vec3{-0.91989044100712358, -0.17915373007522961, -0.34886317883068629}},
		{"74", geom.Body{Shape: geom.Superovoid{A: [3]float64{1.0790414428050183, 0.54230904443701322, 0.77852266867814013}, Eps: [2]float64{1.9192668100693338, 1.8760666346519694}, Taper: [2]float64{0.49544252452105553, 0.09790814031035544}}, Pose: geom.Pose{Position: geom.Vec3{0, 0, 0}, Orientation: geom.Quat{W: -0.063114944777169668, V: geom.Vec3{-0.13579733216832507, 0.93550296138524924, 0.32001530832316305}}}},
			geom.Body{Shape: geom.Superovoid{A: [3]float64{1.7771637438613084, 1.9388533875283871, 0.44002950281335362}, Eps: [2]float64{1.6873805227423651, 1.8107548923092736}, Taper: [2]float64{-0.1944205491211638, 0.10263433737275729}}, Pose: geom.Pose{Position: geom.Vec3{1.913846281909221, -1.4084883044651173, -0.51848371895143008}, Orientation: geom.Quat{W: 0.40072441244706763, V: geom.Vec3{0.027738597789642189, 0.096191509567768951, -0.91071274776885103}}}},
			geom.Vec3{0.015208382094506621, 0.98008208736875591, -0.1980096137387517}},
		{"249", geom.Body{Shape: geom.Superovoid{A: [3]float64{1.4911656052512445, 1.5229419441315108, 1.7674496082268791}, Eps: [2]float64{1.9203844998784148, 1.7147939294210892}, Taper: [2]float64{0.38501785887644946, -0.15004074943830858}}, Pose: geom.Pose{Position: geom.Vec3{0, 0, 0}, Orientation: geom.Quat{W: -0.129822905548828, V: geom.Vec3{-0.84312865509201163, 0.15713363639612649, -0.49758326385694052}}}},
			geom.Body{Shape: geom.Superovoid{A: [3]float64{0.92450117654841057, 0.8882533909667174, 1.7651613724313422}, Eps: [2]float64{1.6135922451331657, 1.8063347094415738}, Taper: [2]float64{0.1037414165512629, 0.017788834277590926}}, Pose: geom.Pose{Position: geom.Vec3{-1.7108432555972191, 1.8259311032903636, 1.9418904071819336}, Orientation: geom.Quat{W: -0.80954427513778815, V: geom.Vec3{0.093073010346767834, 0.3401929732058655, 0.4693018456366615}}}},
			geom.Vec3{0.78890485951554823, 0.20189798323687583, 0.58040186681094952}},
	}
	sv := NewSolver(DefaultOptions())
	for _, tc := range cases {
		for _, f := range []float64{1, 1e-6, 1e6} {
			a, b := scaledBody(tc.a, f), scaledBody(tc.b, f)
			pr := newPair(&a, &b)
			var res Result
			e := sv.exactAscent(&pr, tc.n, &res)
			g0 := gapEnd(&pr, tc.n).g
			if !(e.g > g0) || !(math.Abs(e.g) <= pairTol(&pr)) {
				t.Errorf("pair %s at scale %g: the climb from %.6g ended at %.3g, want 0 within %.2g", tc.name, f, g0/f, e.g/f, pairTol(&pr)/f)
			}
		}
		// The reference's support-gap maximisation (one local ascent, to
		// keep the test short; its own accuracy here is about 1e-8) finds
		// the touch too.
		if ref, _ := refSignedDistanceN(&tc.a, &tc.b, 300, 1); !(math.Abs(ref) <= 1e-7) {
			t.Errorf("pair %s: reference %.3g", tc.name, ref)
		}
	}
}
