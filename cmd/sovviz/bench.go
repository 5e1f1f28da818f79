package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
)

func init() {
	commands["bench"] = command{"reproduce paper 000 §5.1's 10,000-pair benchmark (Tables 1 and 2, warm starts)", runBench}
}

// benchArgs are the parsed flags of "sovviz bench".
type benchArgs struct {
	n         int
	seed      uint64
	methods   []contact.Method
	guess     contact.Guess
	levels    int
	warmSteps int
	warmMove  float64 // b's step along a random direction per warm step
	warmTurn  float64 // each body's turn per warm step, degrees
	tol       float64
	repeat    int
	certify   bool   // Options.CertifyOverlap
	cpuprof   string // -cpuprofile: where to write the run's CPU profile
}

// Default per-step motion of the warm-start run (-warm-move, -warm-turn): b
// moves by warmMove along a random direction and both bodies turn by
// warmTurnDeg degrees about random axes, as between two frames of an
// animation.
const (
	warmMove    = 1e-3
	warmTurnDeg = 0.5
	// agreeTol is the distance agreement demanded between schemes and
	// between warm and cold answers (the project's accuracy target).
	agreeTol = 1e-9
	// benchChunk pairs have their shapes analysed (Solver.Prepare, untimed)
	// before they are timed: shape analysis is a property of a shape, not
	// part of a query, and the solver's analysis cache is bounded (it holds
	// at least the last 4096 shapes, so a chunk's 2000 stay). With the
	// octree guess the chunk is octreeChunk pairs, whose octrees the
	// solver's octree cache (the last 64 shapes) holds.
	benchChunk  = 1000
	octreeChunk = 30
)

func parseBenchArgs(args []string, stderr io.Writer) (benchArgs, error) {
	def := contact.DefaultOptions()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 10000, "number of pairs in the battery")
	seed := fs.Uint64("seed", 1, "seed of the battery and of the warm-start motion")
	method := fs.String("method", "all", "scheme: all, implicit, parametric or ntb")
	guess := fs.String("guess", "quadtree", "cold initial guess: quadtree (the paper's), octree or support")
	levels := fs.Int("levels", 6, fmt.Sprintf("quadtree levels, 1..%d", contact.MaxQuadLevels))
	warm := fs.Int("warm-steps", 50, "steps of the warm-start run per pair (0: skip it)")
	move := fs.Float64("warm-move", warmMove, "distance b moves per warm step, along a random direction (0..1; the bodies' semi-axes are 1)")
	turnDeg := fs.Float64("warm-turn", warmTurnDeg, "angle in degrees each body turns per warm step, about a random axis (0..45)")
	tol := fs.Float64("tol", def.Tol, "Newton tolerance, relative to the smaller body's smallest semi-axis (> 0)")
	certify := fs.Bool("certify", false, "prove every overlapping answer of two convex shapes minimal (expanding polytope; docs/contact.md)")
	repeat := fs.Int("repeat", 3, "timed passes over the cold battery: each pair's time is the median of its passes (1..15)")
	cpuprof := fs.String("cpuprofile", "", "write the run's CPU profile to this file, for go tool pprof (it includes the untimed shape analysis: see docs/bench.md)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sovviz bench [-n 10000] [-seed S] [-method all|implicit|parametric|ntb] [-guess quadtree|octree|support] [-levels 6] [-warm-steps K] [-warm-move D] [-warm-turn DEG] [-tol T] [-repeat R] [-certify] [-cpuprofile FILE]")
		fmt.Fprintln(stderr, "Reproduces paper 000 §5.1 (docs/bench.md): Tables 1 and 2 and a warm-start run.")
		fs.PrintDefaults()
	}
	var ba benchArgs
	if err := parseFlags(fs, args); err != nil {
		return ba, err
	}
	if fs.NArg() > 0 {
		return ba, fmt.Errorf("bench: unexpected argument %q", fs.Arg(0))
	}
	if *n < 1 || *n > 10_000_000 {
		return ba, fmt.Errorf("bench: -n %d: want a pair count in [1, 10000000]", *n)
	}
	ba.n, ba.seed = *n, *seed
	if *method == "all" {
		ba.methods = []contact.Method{contact.Implicit, contact.Parametric, contact.NTB}
	} else if m, ok := parseMethod(*method); ok {
		ba.methods = []contact.Method{m}
	} else {
		return ba, fmt.Errorf("bench: -method %q: want all, implicit, parametric or ntb", *method)
	}
	var ok bool
	if ba.guess, ok = parseGuess(*guess); !ok {
		return ba, fmt.Errorf("bench: -guess %q: want quadtree, octree or support", *guess)
	}
	if *levels < 1 || *levels > contact.MaxQuadLevels {
		return ba, fmt.Errorf("bench: -levels %d: want 1..%d", *levels, contact.MaxQuadLevels)
	}
	ba.levels = *levels
	if *warm < 0 || *warm > 100_000 {
		return ba, fmt.Errorf("bench: -warm-steps %d: want 0..100000", *warm)
	}
	ba.warmSteps = *warm
	// (Negated comparisons: a NaN fails them.)
	if !(*move >= 0 && *move <= 1) {
		return ba, fmt.Errorf("bench: -warm-move %v: want a distance in [0, 1]", *move)
	}
	if !(*turnDeg >= 0 && *turnDeg <= 45) {
		return ba, fmt.Errorf("bench: -warm-turn %v: want an angle in [0, 45] degrees", *turnDeg)
	}
	ba.warmMove, ba.warmTurn = *move, *turnDeg
	if !(*tol > 0) || math.IsInf(*tol, 0) {
		return ba, fmt.Errorf("bench: -tol %v: want a finite number > 0", *tol)
	}
	ba.tol = *tol
	if *repeat < 1 || *repeat > 15 {
		return ba, fmt.Errorf("bench: -repeat %d: want 1..15 passes", *repeat)
	}
	ba.repeat = *repeat
	ba.certify = *certify
	if *cpuprof != "" {
		// Checked now, not after a run of a minute: the directory takes a
		// file (a temporary one is made and removed), and the path is not
		// something else already.
		dir := filepath.Dir(*cpuprof)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return ba, fmt.Errorf("bench: -cpuprofile %q: no directory %q to write it in", *cpuprof, dir)
		}
		if st, err := os.Stat(*cpuprof); err == nil && !st.Mode().IsRegular() {
			return ba, fmt.Errorf("bench: -cpuprofile %q: not a regular file", *cpuprof)
		}
		f, err := os.CreateTemp(dir, ".sovviz-bench-*")
		if err != nil {
			return ba, fmt.Errorf("bench: -cpuprofile %q: cannot write in %q: %v", *cpuprof, dir, err)
		}
		f.Close()
		os.Remove(f.Name())
	}
	ba.cpuprof = *cpuprof
	return ba, nil
}

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ba, err := parseBenchArgs(args, stderr)
	if code := argsExit(err, stderr); code >= 0 {
		return code
	}
	var prof bytes.Buffer
	if ba.cpuprof != "" {
		if err := pprof.StartCPUProfile(&prof); err != nil {
			fmt.Fprintf(stderr, "sovviz: bench: -cpuprofile: %v\n", err)
			return 1
		}
	}
	rep := runBattery(&ba, newProgress(stderr))
	if ba.cpuprof != "" {
		pprof.StopCPUProfile()
	}
	// The report first: a profile that cannot be written loses no run.
	writeBenchReport(stdout, &ba, rep)
	if ba.cpuprof != "" {
		if err := writeFileAtomic(ba.cpuprof, prof.Bytes()); err != nil {
			fmt.Fprintf(stderr, "sovviz: bench: -cpuprofile: %v\n", err)
			return 1
		}
	}
	return 0
}

// coldRun holds one scheme's cold queries, pair by pair.
type coldRun struct {
	method                contact.Method
	guessNS, totalNS      []float64
	iters                 []float64
	dist                  []float64
	converged, certified  []bool
	nonConvex, fallback   []bool
	warmNS, warmIters     []float64
	warmKind              []pairKind // each warm query's kind of pair, by its answer
	warmCold              []bool     // each warm query fell back to a cold guess
	warmMaxDiff           float64
	warmMismatch          int
	warmFailed, warmCount int
	warmExamples          []string
	warmFailedExamples    []string // failed warm queries, as query lines (with the previous answer's distance)
	// firstNS is each pair's time in the first pass alone; passNS and
	// passGuessNS hold every pass's (totalNS, guessNS: their medians).
	firstNS             []float64
	passNS, passGuessNS [][]float64
}

// maxExamples bounds the disagreeing pairs listed in the report.
const maxExamples = 5

type benchReport struct {
	runs    []*coldRun
	elapsed time.Duration
}

// runBattery times every scheme on the same battery.
func runBattery(ba *benchArgs, prog *progress) *benchReport {
	start := time.Now()
	pairs := contact.PaperBattery(ba.n, ba.seed)
	rep := &benchReport{}
	results := make([]contact.Result, ba.n)
	for _, m := range ba.methods {
		opt := contact.DefaultOptions()
		opt.Method, opt.Guess, opt.QuadLevels, opt.Tol = m, ba.guess, ba.levels, ba.tol
		opt.CertifyOverlap = ba.certify
		// The guess is timed in passes of its own: its two clock reads
		// (about 90 ns here) would otherwise be part of every total.
		optGuess := opt
		optGuess.TimeGuess = true
		sv := contact.NewSolver(opt)
		run := newColdRun(m, ba.n)
		name := schemeName(m, ba.guess)
		prog.phase(name+" cold", ba.n)
		chunk := benchChunk
		if ba.guess == contact.Octree {
			chunk = octreeChunk
		}
		for lo := 0; lo < ba.n; lo += chunk {
			hi := min(lo+chunk, ba.n)
			for i := lo; i < hi; i++ {
				sv.Prepare(&pairs[i][0].Shape)
				sv.Prepare(&pairs[i][1].Shape)
			}
			// The passes go through the whole chunk in turn, so that a
			// pair's caches are as cold in every pass as in the first; the
			// median of its passes drops what the machine did meanwhile
			// (an interrupt, another process), not what the query costs.
			for pass := 0; pass < ba.repeat; pass++ {
				for i := lo; i < hi; i++ {
					t0 := time.Now()
					r := sv.Query(&pairs[i][0], &pairs[i][1])
					dt := time.Since(t0)
					if pass == 0 {
						run.record(i, &r, dt)
						results[i] = r
					}
					run.passNS[i] = append(run.passNS[i], float64(dt.Nanoseconds()))
				}
			}
			sv.SetOptions(optGuess)
			for pass := 0; pass < ba.repeat; pass++ {
				for i := lo; i < hi; i++ {
					r := sv.Query(&pairs[i][0], &pairs[i][1])
					run.passGuessNS[i] = append(run.passGuessNS[i], float64(r.GuessNS))
				}
			}
			sv.SetOptions(opt)
			prog.step(hi)
		}
		for i := range run.passNS {
			run.totalNS[i] = median(run.passNS[i])
			run.guessNS[i] = median(run.passGuessNS[i])
		}
		prog.done()
		if ba.warmSteps > 0 {
			prog.phase(name+" warm", ba.n)
			warmRun(sv, ba, pairs, results, run, prog)
			prog.done()
		}
		rep.runs = append(rep.runs, run)
	}
	rep.elapsed = time.Since(start)
	return rep
}

func newColdRun(m contact.Method, n int) *coldRun {
	return &coldRun{
		method:  m,
		guessNS: make([]float64, n), totalNS: make([]float64, n), iters: make([]float64, n),
		dist:    make([]float64, n),
		firstNS: make([]float64, n),
		passNS:  make([][]float64, n), passGuessNS: make([][]float64, n),
		converged: make([]bool, n), certified: make([]bool, n),
		nonConvex: make([]bool, n), fallback: make([]bool, n),
	}
}

func (c *coldRun) record(i int, r *contact.Result, dt time.Duration) {
	c.totalNS[i] = float64(dt.Nanoseconds())
	c.firstNS[i] = c.totalNS[i]
	c.iters[i] = float64(r.Iterations)
	c.dist[i] = r.Distance
	c.converged[i] = r.Status == contact.Converged
	c.certified[i] = r.Certified
	c.nonConvex[i] = r.NonConvex != 0
	c.fallback[i] = r.Fallback
}

// warmRun animates every pair for ba.warmSteps steps from its cold answer,
// timing each warm-started query, and checks the last answer of each pair
// against a cold query of the same poses.
func warmRun(sv *contact.Solver, ba *benchArgs, pairs [][2]geom.Body, cold []contact.Result, run *coldRun, prog *progress) {
	rng := rand.New(rand.NewPCG(ba.seed, 0xa11a))
	run.warmNS = make([]float64, 0, ba.n*ba.warmSteps)
	run.warmIters = make([]float64, 0, ba.n*ba.warmSteps)
	run.warmKind = make([]pairKind, 0, ba.n*ba.warmSteps)
	run.warmCold = make([]bool, 0, ba.n*ba.warmSteps)
	for i := range pairs {
		a, b := pairs[i][0], pairs[i][1]
		prev := cold[i]
		sv.Prepare(&a.Shape) // analysed long ago in the cold run: maybe evicted
		sv.Prepare(&b.Shape)
		for k := 0; k < ba.warmSteps; k++ {
			b.Pose.Position = b.Pose.Position.Add(randomUnit(rng).Mul(ba.warmMove))
			a.Pose.Orientation = turn(a.Pose.Orientation, ba.warmTurn*(math.Pi/180), rng)
			b.Pose.Orientation = turn(b.Pose.Orientation, ba.warmTurn*(math.Pi/180), rng)
			t0 := time.Now()
			r := sv.QueryWarm(&a, &b, &prev)
			dt := time.Since(t0)
			run.warmNS = append(run.warmNS, float64(dt.Nanoseconds()))
			run.warmIters = append(run.warmIters, float64(r.Iterations))
			run.warmKind = append(run.warmKind, pairKindOf(&r))
			run.warmCold = append(run.warmCold, !r.Warm)
			if r.Status == contact.Failed {
				run.warmFailed++
				if len(run.warmFailedExamples) < maxExamples {
					run.warmFailedExamples = append(run.warmFailedExamples, fmt.Sprintf("pair %d step %d: previous %s (%s): %s",
						i, k, formatFloat(prev.Distance), prev.Status, queryLineOf(fmt.Sprintf("warm-failed-%d-%d", i, k), &a, &b)))
				}
			}
			prev = r
		}
		c := sv.Query(&a, &b)
		if d := math.Abs(c.Distance - prev.Distance); d > run.warmMaxDiff || math.IsNaN(d) {
			run.warmMaxDiff = d
		}
		if !(math.Abs(c.Distance-prev.Distance) <= agreeTol) {
			run.warmMismatch++
			if len(run.warmExamples) < maxExamples {
				// The final poses as a "sovviz query" line: the cold answer
				// can be replayed and checked from it.
				run.warmExamples = append(run.warmExamples, fmt.Sprintf("pair %d: warm %s, cold %s: %s",
					i, formatFloat(prev.Distance), formatFloat(c.Distance), queryLineOf(fmt.Sprintf("warm-%d", i), &a, &b)))
			}
		}
		run.warmCount++
		prog.step(i + 1)
	}
}

// queryLineOf writes a pair as one input line of "sovviz query".
func queryLineOf(id string, a, b *geom.Body) string {
	obj := func(x *geom.Body) string {
		f, s, p, q := formatFloat, x.Shape, x.Pose.Position, x.Pose.Orientation
		return fmt.Sprintf(`{"shape": {"a": [%s, %s, %s], "eps": [%s, %s], "taper": [%s, %s]}, "pose": {"position": [%s, %s, %s], "orientation": [%s, %s, %s, %s]}}`,
			f(s.A[0]), f(s.A[1]), f(s.A[2]), f(s.Eps[0]), f(s.Eps[1]), f(s.Taper[0]), f(s.Taper[1]),
			f(p[0]), f(p[1]), f(p[2]), f(q.W), f(q.V[0]), f(q.V[1]), f(q.V[2]))
	}
	return fmt.Sprintf(`{"id": %s, "a": %s, "b": %s}`, appendJSONString(nil, id), obj(a), obj(b))
}

// randomUnit returns a direction drawn uniformly from the unit sphere.
func randomUnit(r *rand.Rand) geom.Vec3 {
	z := 2*r.Float64() - 1
	phi := 2 * math.Pi * r.Float64()
	s := math.Sqrt(1 - z*z)
	return geom.Vec3{s * math.Cos(phi), s * math.Sin(phi), z}
}

// turn rotates q by angle (radians) about a random axis and renormalises it.
func turn(q geom.Quat, angle float64, r *rand.Rand) geom.Quat {
	ax := randomUnit(r)
	h := angle / 2
	d := geom.Quat{W: math.Cos(h), V: ax.Mul(math.Sin(h))}
	return d.Mul(q).Normalize()
}

// schemeName names a scheme as paper 000 does (quadImplicit, ntbParametric…).
func schemeName(m contact.Method, g contact.Guess) string {
	prefix := map[contact.Guess]string{contact.Quadtree: "quad", contact.Octree: "oct", contact.Support: "support"}[g]
	switch m {
	case contact.Implicit:
		return prefix + "Implicit"
	case contact.Parametric:
		return prefix + "Parametric"
	default:
		if g == contact.Quadtree {
			return "ntbParametric"
		}
		return prefix + "NTB"
	}
}

// stats summarises a sample.
type stats struct {
	n                     int
	mean, sd, median, p99 float64
}

func summarize(xs []float64) stats {
	s := stats{n: len(xs)}
	if s.n == 0 {
		return s
	}
	for _, x := range xs {
		s.mean += x
	}
	s.mean /= float64(s.n)
	if s.n > 1 {
		for _, x := range xs {
			s.sd += (x - s.mean) * (x - s.mean)
		}
		s.sd = math.Sqrt(s.sd / float64(s.n-1))
	}
	ys := slices.Clone(xs)
	slices.Sort(ys)
	if s.n%2 == 1 {
		s.median = ys[s.n/2]
	} else {
		s.median = (ys[s.n/2-1] + ys[s.n/2]) / 2
	}
	// Nearest rank: the smallest value with at least 99% of the sample at or below it.
	s.p99 = ys[int(math.Ceil(0.99*float64(s.n)))-1]
	return s
}

// median returns the median of xs (the mean of the middle two for an even
// count) without reordering xs.
func median(xs []float64) float64 {
	return summarize(xs).median
}

// pick returns xs[i] for the indices where keep[i].
func pick(xs []float64, keep []bool) []float64 {
	var out []float64
	for i, k := range keep {
		if k {
			out = append(out, xs[i])
		}
	}
	return out
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func pct(k, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f%% (%d/%d)", 100*float64(k)/float64(n), k, n)
}

// paperRow is one row of paper 000's Tables 1 and 2 (µs; 2013 hardware).
type paperRow struct {
	name                   string
	guess, guessSD         float64
	total, totalSD         float64
	iters, itersSD, perIt  float64
	hasGuess, hasNewtonCol bool
}

// paperTables holds paper 000's Tables 1 (overlapping) and 2 (separated),
// transcribed in /work/shared/docs/reference-numbers.md.
var paperTables = [2][]paperRow{
	{
		{"quadImplicit", 129.28, 9.26, 310.42, 39.50, 6.20, 1.23, 21.20, true, true},
		{"quadParametric", 129.28, 9.26, 424.53, 106.50, 6.93, 2.56, 31.59, true, true},
		{"ntbParametric", 129.28, 9.26, 347.72, 78.31, 6.92, 2.52, 22.99, true, true},
		{"mesh (FCL, 290 vertices)", 0, 0, 206.29, 117.63, 0, 0, 0, false, false},
	},
	{
		{"quadImplicit", 129.28, 9.26, 290.55, 36.35, 5.47, 1.10, 21.26, true, true},
		{"quadParametric", 129.28, 9.26, 396.00, 107.77, 6.20, 2.55, 31.72, true, true},
		{"ntbParametric", 129.28, 9.26, 326.41, 79.99, 6.20, 2.54, 23.05, true, true},
		{"mesh (FCL, 290 vertices)", 0, 0, 375.19, 104.74, 0, 0, 0, false, false},
	},
}

const paperHardware = "paper 000, 2013: Intel i7-4700MQ 2.4 GHz"

func us(ns float64) float64 { return ns / 1e3 }

func meanSD(s stats, scale float64) string {
	if s.n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f ± %.2f", s.mean*scale, s.sd*scale)
}

func writeBenchReport(w io.Writer, ba *benchArgs, rep *benchReport) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("# sovviz bench: paper 000 §5.1 battery\n\n")
	p("%d pairs (a = (1,1,1), e1, e2 in [0.3, 1.1], tx, ty in [-0.4, 0.4], uniformly random orientations, b at (0, 2.21, 0)), seed %d.\n",
		ba.n, ba.seed)
	guess := ba.guess.String()
	if ba.guess == contact.Quadtree {
		guess = fmt.Sprintf("parametric quadtree, %d levels", ba.levels)
	}
	p("Every scheme starts from the same cold initial guess (%s); Newton tolerance %g.\n", guess, ba.tol)
	cpu := ""
	if m := cpuModel(); m != "" {
		cpu = ", " + m
	}
	p("This machine: %s/%s%s, %d CPUs, %s; one thread; each query timed alone with time.Now/time.Since.\n",
		runtime.GOOS, runtime.GOARCH, cpu, runtime.NumCPU(), runtime.Version())
	if ba.repeat > 1 {
		chunk := benchChunk
		if ba.guess == contact.Octree {
			chunk = octreeChunk
		}
		p("A pair's cold time is the median of %d timed passes; each pass goes through %d pairs before the next,\n", ba.repeat, min(chunk, ba.n))
		p("so its caches are cold every time. The first pass alone is shown under each table.\n")
	}
	p("Times in µs. Rows marked \"%s\" are the paper's published numbers, measured on that 2013 laptop, shown for comparison.\n", paperHardware)

	titles := [2]string{"Table 1 — overlapping pairs", "Table 2 — separated pairs"}
	for t := 0; t < 2; t++ {
		p("\n## %s\n\n", titles[t])
		p("| scheme | pairs | initial guess | total | total median | total p99 | N-R iterations | per iteration |\n")
		p("|---|---|---|---|---|---|---|---|\n")
		for _, run := range rep.runs {
			keep := make([]bool, len(run.dist))
			for i, d := range run.dist {
				keep[i] = (d > 0) == (t == 1)
			}
			g := summarize(pick(run.guessNS, keep))
			tot := summarize(pick(run.totalNS, keep))
			it := summarize(pick(run.iters, keep))
			per := "–"
			// The guess and the totals come from passes of their own: where
			// the guess is nearly the whole query (octree), their difference
			// is below the noise and no per-iteration time is shown.
			if it.n > 0 && it.mean > 0 && tot.mean > g.mean {
				per = fmt.Sprintf("%.3f", us(tot.mean-g.mean)/it.mean)
			}
			guessCol := meanSD(g, 1e-3)
			if ba.guess != contact.Quadtree && ba.guess != contact.Octree {
				guessCol += " (" + ba.guess.String() + ")"
			}
			if tot.n == 0 {
				p("| %s | 0 | – | – | – | – | – | – |\n", schemeName(run.method, ba.guess))
				continue
			}
			p("| %s | %d | %s | %s | %.2f | %.2f | %s | %s |\n", schemeName(run.method, ba.guess), tot.n,
				guessCol, meanSD(tot, 1e-3), us(tot.median), us(tot.p99), meanSD(it, 1), per)
		}

		for _, row := range paperTables[t] {
			if !paperRowWanted(row.name, rep) {
				continue
			}
			gcol, icol, pcol := "–", "–", "–"
			if row.hasGuess {
				gcol = fmt.Sprintf("%.2f ± %.2f", row.guess, row.guessSD)
			}
			if row.hasNewtonCol {
				icol = fmt.Sprintf("%.2f ± %.2f", row.iters, row.itersSD)
				pcol = fmt.Sprintf("%.2f", row.perIt)
			}
			p("| %s (%s) | – | %s | %.2f ± %.2f | – | – | %s | %s |\n", row.name, paperHardware, gcol, row.total, row.totalSD, icol, pcol)
		}
		if ba.repeat > 1 {
			p("\n")
			for _, run := range rep.runs {
				keep := make([]bool, len(run.dist))
				for i, d := range run.dist {
					keep[i] = (d > 0) == (t == 1)
				}
				if f := summarize(pick(run.firstNS, keep)); f.n > 0 {
					p("%s, first pass alone: total %s, median %.2f, p99 %.2f.\n", schemeName(run.method, ba.guess), meanSD(f, 1e-3), us(f.median), us(f.p99))
				}
			}
		}
	}

	p("\n## Convergence, certification, agreement\n\n")
	ref := rep.runs[0]
	p("| scheme | converged | certified | pairs with a non-convex shape | recovered by another scheme | max abs(Δd) vs %s | pairs with abs(Δd) > %g |\n",
		schemeName(ref.method, ba.guess), agreeTol)
	p("|---|---|---|---|---|---|---|\n")
	for _, run := range rep.runs {
		maxD, bad := 0.0, 0
		for i := range run.dist {
			d := math.Abs(run.dist[i] - ref.dist[i])
			if d > maxD || math.IsNaN(d) {
				maxD = d
			}
			if !(d <= agreeTol) {
				bad++
			}
		}
		n := len(run.dist)
		p("| %s | %s | %s | %s | %s | %.3g | %d |\n", schemeName(run.method, ba.guess), pct(count(run.converged), n),
			pct(count(run.certified), n), pct(count(run.nonConvex), n), pct(count(run.fallback), n), maxD, bad)
	}
	p("\nCertified: the answer is proven global: a separated pair of convex shapes, a separated pair with a non-convex\n")
	p("shape whose distance equals the gap between the exact support planes along its normal, or an overlapping pair of\n")
	p("convex shapes whose translation distance the expanding polytope proved minimal. With -certify (on here: %v) every\n", ba.certify)
	p("such overlap is checked, without it only those deeper than 0.3 of the smaller body's smallest semi-axis and those\n")
	p("of pointy shapes (an exponent from 1.3 on); see docs/contact.md.\n")

	if ba.warmSteps > 0 {
		p("\n## Warm start — %d steps per pair\n\n", ba.warmSteps)
		p("Each step moves b by %g along a random direction and turns both bodies by %g° about random axes, then\n", ba.warmMove, ba.warmTurn)
		p("queries warm-started from the previous step's result. After the last step a cold query checks the answer.\n\n")
		p("| scheme | queries | median | p99 | mean ± sd | N-R iterations | fell back to a cold guess | failed | max abs(Δd) vs cold | pairs with abs(Δd) > %g |\n", agreeTol)
		p("|---|---|---|---|---|---|---|---|---|---|\n")
		for _, run := range rep.runs {
			s := summarize(run.warmNS)
			it := summarize(run.warmIters)
			p("| %s | %d | %.3f | %.3f | %s | %s | %s | %d | %.3g | %d |\n", schemeName(run.method, ba.guess), s.n, us(s.median), us(s.p99),
				meanSD(s, 1e-3), meanSD(it, 1), pct(count(run.warmCold), s.n), run.warmFailed, run.warmMaxDiff, run.warmMismatch)
		}
		writeWarmKinds(p, ba, rep)
		for _, run := range rep.runs {
			if len(run.warmFailedExamples) > 0 {
				p("\nWarm queries of %s that failed (as query input; a cold query of the same poses is the check):\n\n", schemeName(run.method, ba.guess))
				for _, e := range run.warmFailedExamples {
					p("    %s\n", e)
				}
			}
			if len(run.warmExamples) > 0 {
				p("\nWarm answers of %s that differ from a cold query after the last step (as query input):\n\n", schemeName(run.method, ba.guess))
				for _, e := range run.warmExamples {
					p("    %s\n", e)
				}
			}
		}
	}
	p("\nReproduce: sovviz bench %s (%.1f s)\n", benchCommandLine(ba), rep.elapsed.Seconds())
}

// paperRowWanted shows a paper row when its scheme ran (mesh always).
func paperRowWanted(name string, rep *benchReport) bool {
	if strings.HasPrefix(name, "mesh") {
		return true
	}
	for _, run := range rep.runs {
		if schemeName(run.method, contact.Quadtree) == name {
			return true
		}
	}
	return false
}

func benchCommandLine(ba *benchArgs) string {
	method := "all"
	if len(ba.methods) == 1 {
		method = ba.methods[0].String()
	}
	cmd := fmt.Sprintf("-n %d -seed %d -method %s -guess %s -levels %d -warm-steps %d -tol %g -repeat %d",
		ba.n, ba.seed, method, ba.guess, ba.levels, ba.warmSteps, ba.tol, ba.repeat)
	if ba.warmMove != warmMove || ba.warmTurn != warmTurnDeg {
		cmd += fmt.Sprintf(" -warm-move %g -warm-turn %g", ba.warmMove, ba.warmTurn)
	}
	if ba.certify {
		cmd += " -certify"
	}
	return cmd
}

// progress reports a long run on stderr: a redrawn bar on a terminal, a
// plain line every few seconds otherwise (logs, CI, tests).
type progress struct {
	w          io.Writer
	tty        bool
	name       string
	total      int
	last       time.Time
	phaseStart time.Time
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

// plainEvery is how often a non-terminal gets a progress line.
const plainEvery = 5 * time.Second

func (p *progress) phase(name string, total int) {
	p.name, p.total = name, total
	p.phaseStart = time.Now()
	p.last = p.phaseStart
	if !p.tty {
		fmt.Fprintf(p.w, "bench: %s: %d pairs\n", name, total)
	} else {
		p.draw(0)
	}
}

func (p *progress) step(done int) {
	// Checking the clock every 64 pairs keeps the reporting cost negligible.
	if done&63 != 0 {
		return
	}
	now := time.Now()
	if p.tty {
		if now.Sub(p.last) >= 100*time.Millisecond {
			p.last = now
			p.draw(done)
		}
		return
	}
	if now.Sub(p.last) >= plainEvery {
		p.last = now
		fmt.Fprintf(p.w, "bench: %s: %d/%d pairs\n", p.name, done, p.total)
	}
}

func (p *progress) draw(done int) {
	const width = 30
	k := 0
	if p.total > 0 {
		k = width * done / p.total
	}
	fmt.Fprintf(p.w, "\r%-22s [%s%s] %3d%%", p.name, strings.Repeat("#", k), strings.Repeat(".", width-k), 100*done/max(p.total, 1))
}

func (p *progress) done() {
	if p.tty {
		p.draw(p.total)
		fmt.Fprintf(p.w, " %.1fs\n", time.Since(p.phaseStart).Seconds())
		return
	}
	fmt.Fprintf(p.w, "bench: %s: done in %.1fs\n", p.name, time.Since(p.phaseStart).Seconds())
}

// pairKind sorts a query by its answer: separated or overlapping, and
// whether a shape of the pair is non-convex, which decides what the query
// must prove (docs/contact.md) and so what it costs.
type pairKind uint8

const (
	sepConvex pairKind = iota
	sepNonConvex
	ovlConvex
	ovlNonConvex
	numKinds
)

var kindNames = [numKinds]string{
	sepConvex:    "separated, both convex",
	sepNonConvex: "separated, a non-convex shape",
	ovlConvex:    "overlapping, both convex",
	ovlNonConvex: "overlapping, a non-convex shape",
}

// pairKindOf is r's kind (a failed query's by its estimate).
func pairKindOf(r *contact.Result) pairKind {
	k := sepConvex
	if !r.Separated() {
		k = ovlConvex
	}
	if r.NonConvex != 0 {
		k++
	}
	return k
}

// writeWarmKinds splits each scheme's warm queries by kind of pair: the
// warm median of the whole run mixes kinds whose medians differ by up to
// half.
func writeWarmKinds(p func(string, ...any), ba *benchArgs, rep *benchReport) {
	p("\nBy kind of pair (each query sorted by its own answer; times in µs):\n\n")
	p("| scheme | kind of pair | queries | median | p99 | mean ± sd | N-R iterations | fell back to a cold guess |\n")
	p("|---|---|---|---|---|---|---|---|\n")
	for _, run := range rep.runs {
		for k := pairKind(0); k < numKinds; k++ {
			var ns, its []float64
			cold := 0
			for i, kind := range run.warmKind {
				if kind != k {
					continue
				}
				ns = append(ns, run.warmNS[i])
				its = append(its, run.warmIters[i])
				if run.warmCold[i] {
					cold++
				}
			}
			s, it := summarize(ns), summarize(its)
			med, p99 := "–", "–"
			if s.n > 0 {
				med, p99 = fmt.Sprintf("%.3f", us(s.median)), fmt.Sprintf("%.3f", us(s.p99))
			}
			p("| %s | %s | %s | %s | %s | %s | %s | %s |\n", schemeName(run.method, ba.guess), kindNames[k], pct(s.n, len(run.warmKind)),
				med, p99, meanSD(s, 1e-3), meanSD(it, 1), pct(cold, s.n))
		}
	}
}
