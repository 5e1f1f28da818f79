package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tableRows returns the data rows (cells trimmed) of the Markdown table that
// follows the heading starting with title.
func tableRows(t *testing.T, out, title string) [][]string {
	t.Helper()
	i := strings.Index(out, "## "+title)
	if i < 0 {
		t.Fatalf("no section %q in:\n%s", title, out)
	}
	rows := firstTable(strings.Split(out[i:], "\n")[1:])
	if len(rows) < 2 {
		t.Fatalf("section %q has no data rows:\n%s", title, out[i:])
	}
	return rows[1:] // drop the header
}

// firstTable returns the rows (cells trimmed, header included) of the
// first Markdown table in lines, before any "## " heading.
func firstTable(lines []string) [][]string {
	var rows [][]string
	for _, line := range lines {
		if strings.HasPrefix(line, "## ") {
			break
		}
		if !strings.HasPrefix(line, "|") {
			if len(rows) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		rows = append(rows, cells)
	}
	return rows
}

// tableAfter returns the data rows (cells trimmed) of the first Markdown
// table after the line that starts with marker.
func tableAfter(t *testing.T, out, marker string) [][]string {
	t.Helper()
	i := strings.Index(out, "\n"+marker)
	if i < 0 {
		t.Fatalf("no %q in:\n%s", marker, out)
	}
	rows := firstTable(strings.Split(out[i+1:], "\n")[1:])
	if len(rows) < 2 {
		t.Fatalf("no table after %q", marker)
	}
	return rows[1:] // drop the header
}

// fraction parses the "(k/n)" of a cell such as "1.61% (806/50000)".
func fraction(t *testing.T, cell string) (k, n int) {
	t.Helper()
	if _, err := fmt.Sscanf(cell[strings.Index(cell, "(")+1:], "%d/%d)", &k, &n); err != nil {
		t.Fatalf("cell %q: no (k/n): %v", cell, err)
	}
	return k, n
}

// num parses a cell's leading number ("12.3 ± 1.2" -> 12.3, "100.00% (..)" -> 100).
func num(t *testing.T, cell string) float64 {
	t.Helper()
	f := strings.Fields(strings.TrimSuffix(strings.Fields(cell + " x")[0], "%"))
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		t.Fatalf("cell %q is not a finite number", cell)
	}
	return v
}

// TestBenchAllSchemes runs a small battery through every scheme and checks
// the report's structure and its numbers: the two tables split the battery,
// times are positive with median <= p99, the paper's rows are labelled with
// their hardware, every scheme agrees with the first to 1e-9 and every warm
// answer matches a cold query of the same poses.
func TestBenchAllSchemes(t *testing.T) {
	const n = 240
	stdout, stderr, code := runCmd(t, "", "bench", "-n", strconv.Itoa(n), "-seed", "3", "-warm-steps", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	schemes := []string{"quadImplicit", "quadParametric", "ntbParametric"}
	pairs := map[string]int{}
	for _, title := range []string{"Table 1 — overlapping pairs", "Table 2 — separated pairs"} {
		rows := tableRows(t, stdout, title)
		var ours, paper []string
		for _, r := range rows {
			if len(r) != 8 {
				t.Fatalf("%s: row %v has %d cells, want 8", title, r, len(r))
			}
			if strings.Contains(r[0], "paper 000, 2013") {
				paper = append(paper, r[0])
				continue
			}
			ours = append(ours, r[0])
			k := int(num(t, r[1]))
			pairs[r[0]] += k
			if k == 0 {
				continue
			}
			guess, total, med, p99, iters := num(t, r[2]), num(t, r[3]), num(t, r[4]), num(t, r[5]), num(t, r[6])
			if !(guess > 0 && total > guess && med > 0 && med <= p99 && iters >= 1) {
				t.Errorf("%s: implausible row %v", title, r)
			}
			if !strings.Contains(r[2], "±") || !strings.Contains(r[3], "±") || !strings.Contains(r[6], "±") {
				t.Errorf("%s: row %v lacks mean ± sd", title, r)
			}
		}
		if strings.Join(ours, ",") != strings.Join(schemes, ",") {
			t.Errorf("%s: our rows %v, want %v", title, ours, schemes)
		}
		if len(paper) != 4 || !strings.HasPrefix(paper[3], "mesh (FCL") {
			t.Errorf("%s: paper rows %v, want the three schemes and FCL", title, paper)
		}
	}
	for _, s := range schemes {
		if pairs[s] != n {
			t.Errorf("%s: tables hold %d pairs, want %d", s, pairs[s], n)
		}
	}
	for _, r := range tableRows(t, stdout, "Convergence") {
		if len(r) != 7 {
			t.Fatalf("convergence row %v has %d cells", r, len(r))
		}
		if c := num(t, r[1]); c < 99 {
			t.Errorf("%s: only %v%% converged", r[0], c)
		}
		if r[6] != "0" {
			t.Errorf("%s: %s pairs disagree with %s by more than 1e-9", r[0], r[6], schemes[0])
		}
	}
	for _, r := range tableRows(t, stdout, "Warm start") {
		if len(r) != 10 {
			t.Fatalf("warm row %v has %d cells", r, len(r))
		}
		if q := int(num(t, r[1])); q != 4*n {
			t.Errorf("%s: %d warm queries, want %d", r[0], q, 4*n)
		}
		if med, p99 := num(t, r[2]), num(t, r[3]); !(med > 0 && med <= p99) {
			t.Errorf("%s: warm median %v p99 %v", r[0], med, p99)
		}
		if r[9] != "0" || r[7] != "0" {
			t.Errorf("%s: warm answers failed (%s) or differ from cold ones (%s pairs)", r[0], r[7], r[9])
		}
	}
	// The warm queries by kind of pair: four rows per scheme, in order,
	// that hold every warm query and every fallback of the table above.
	fellBack := map[string]int{}
	for _, r := range tableRows(t, stdout, "Warm start") {
		fellBack[r[0]], _ = fraction(t, r[6])
	}
	kinds := tableAfter(t, stdout, "By kind of pair")
	if len(kinds) != 4*len(schemes) {
		t.Fatalf("%d rows by kind of pair, want %d: %v", len(kinds), 4*len(schemes), kinds)
	}
	for i, s := range schemes {
		queries, cold := 0, 0
		for k, want := range []string{"separated, both convex", "separated, a non-convex shape", "overlapping, both convex", "overlapping, a non-convex shape"} {
			r := kinds[4*i+k]
			if len(r) != 8 || r[0] != s || r[1] != want {
				t.Fatalf("row %v: want %s, %s and 8 cells", r, s, want)
			}
			q, all := fraction(t, r[2])
			if all != 4*n {
				t.Errorf("row %v: share out of %d queries, want %d", r, all, 4*n)
			}
			queries += q
			if q == 0 { // (no kind is empty with this seed; a smaller battery can leave one so)
				if r[3] != "–" || r[5] != "–" || r[7] != "–" {
					t.Errorf("row %v: no queries but numbers", r)
				}
				continue
			}
			c, cq := fraction(t, r[7])
			if cq != q {
				t.Errorf("row %v: fallbacks out of %d queries, want %d", r, cq, q)
			}
			cold += c
			if med, p99 := num(t, r[3]), num(t, r[4]); !(med > 0 && med <= p99) {
				t.Errorf("row %v: median %v p99 %v", r, med, p99)
			}
		}
		if queries != 4*n || cold != fellBack[s] {
			t.Errorf("%s: kinds hold %d queries and %d fallbacks, want %d and %d", s, queries, cold, 4*n, fellBack[s])
		}
	}
	for _, want := range []string{"Intel i7-4700MQ", "Reproduce: sovviz bench -n 240 -seed 3 -method all -guess quadtree -levels 6 -warm-steps 4 -tol 1e-10 -repeat 3",
		"median of 3 timed passes", "quadImplicit, first pass alone: total ", "ntbParametric, first pass alone: total "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Not a terminal: plain progress lines, no carriage returns.
	if !strings.Contains(stderr, "bench: quadImplicit cold: 240 pairs") || !strings.Contains(stderr, "bench: ntbParametric warm: done") || strings.Contains(stderr, "\r") {
		t.Errorf("progress on a non-terminal: %q", stderr)
	}
}

// TestBenchSeedAndMethod: the same seed gives the same battery (same split
// into overlapping and separated pairs), one -method gives one scheme and
// its paper row, and -warm-steps 0 skips the warm run.
func TestBenchSeedAndMethod(t *testing.T) {
	split := func(args ...string) (string, string) {
		out, stderr, code := runCmd(t, "", append([]string{"bench", "-n", "150", "-warm-steps", "0"}, args...)...)
		if code != 0 {
			t.Fatalf("bench %v: exit %d: %s", args, code, stderr)
		}
		return tableRows(t, out, "Table 1")[0][1], out
	}
	a, out := split("-seed", "9", "-method", "implicit", "-repeat", "1")
	if strings.Contains(out, "first pass alone") || strings.Contains(out, "timed passes") {
		t.Errorf("-repeat 1 still reports passes")
	}
	b, _ := split("-seed", "9", "-method", "ntb", "-guess", "support")
	if a != b {
		t.Errorf("seed 9: %s overlapping pairs with one scheme, %s with another", a, b)
	}
	rows := tableRows(t, out, "Table 2")
	if len(rows) != 3 || rows[0][0] != "quadImplicit" || !strings.HasPrefix(rows[1][0], "quadImplicit (paper 000") || !strings.HasPrefix(rows[2][0], "mesh") {
		t.Errorf("-method implicit rows: %v", rows)
	}
	if strings.Contains(out, "## Warm start") {
		t.Errorf("-warm-steps 0 still ran the warm start")
	}
	// The paper's battery: about half the pairs overlap (48% in 10,000).
	if k := num(t, a); k < 40 || k > 110 {
		t.Errorf("%v of 150 pairs overlapping: not the paper's battery?", k)
	}
}

func TestBenchFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-n", "0"}, 2, "-n 0"},
		{[]string{"-method", "mesh"}, 2, `-method "mesh": want all, implicit, parametric or ntb`},
		{[]string{"-guess", "grid"}, 2, `-guess "grid"`},
		{[]string{"-levels", "13"}, 2, "-levels 13: want 1..12"},
		{[]string{"-warm-steps", "-1"}, 2, "-warm-steps -1"},
		{[]string{"-warm-move", "-0.1"}, 2, "-warm-move -0.1: want a distance in [0, 1]"},
		{[]string{"-warm-move", "NaN"}, 2, "-warm-move NaN"},
		{[]string{"-warm-turn", "46"}, 2, "-warm-turn 46: want an angle in [0, 45] degrees"},
		{[]string{"-warm-turn", "NaN"}, 2, "-warm-turn NaN"},
		{[]string{"-tol", "-1"}, 2, "-tol -1"},
		{[]string{"-repeat", "0"}, 2, "-repeat 0: want 1..15"},
		{[]string{"-repeat", "16"}, 2, "-repeat 16: want 1..15"},
		{[]string{"-seed", "x"}, 2, "invalid value"},
		{[]string{"more"}, 2, `unexpected argument "more"`},
		{[]string{"-cpuprofile", "/nonexistent-dir/x.pprof"}, 2, `no directory "/nonexistent-dir"`},
		{[]string{"-cpuprofile", os.TempDir()}, 2, "not a regular file"},
		{[]string{"-h"}, 0, "usage: sovviz bench"},
	} {
		_, stderr, code := runCmd(t, "", append([]string{"bench"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("bench %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(100 - i) // 100..1, unsorted on purpose
	}
	s := summarize(xs)
	sd := math.Sqrt(100 * 101 / 12.0) // sample sd of 1..100
	if s.n != 100 || s.mean != 50.5 || math.Abs(s.sd-sd) > 1e-12 || s.median != 50.5 || s.p99 != 99 {
		t.Errorf("summarize(1..100) = %+v; want mean 50.5, sd %.4f, median 50.5, p99 99", s, sd)
	}
	if xs[0] != 100 {
		t.Errorf("summarize reordered its input")
	}
	if s := summarize([]float64{7}); s.mean != 7 || s.sd != 0 || s.median != 7 || s.p99 != 7 {
		t.Errorf("summarize(7) = %+v", s)
	}
	if s := summarize(nil); s.n != 0 || meanSD(s, 1) != "–" {
		t.Errorf("summarize(nil) = %+v", s)
	}
}

// TestProgressBar checks the terminal rendering: redrawn in place with a
// carriage return, a full bar and a newline at the end of a phase.
func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, tty: true}
	p.phase("quadImplicit cold", 128)
	p.step(64)
	p.done()
	out := buf.String()
	if !strings.HasPrefix(out, "\rquadImplicit cold") || !strings.Contains(out, "[..............................]   0%") ||
		!strings.Contains(out, "[##############################] 100%") || !strings.HasSuffix(out, "s\n") {
		t.Errorf("terminal progress: %q", out)
	}
	if newProgress(&buf).tty {
		t.Errorf("a buffer is not a terminal")
	}
}

// TestBenchCertify: -certify certifies the overlapping pairs of convex
// shapes too (more certified answers than without it, on the same
// battery), and the reproduce line says so.
func TestBenchCertify(t *testing.T) {
	certified := func(args ...string) (float64, string) {
		out, stderr, code := runCmd(t, "", append([]string{"bench", "-n", "150", "-method", "implicit", "-guess", "support", "-warm-steps", "0", "-repeat", "1"}, args...)...)
		if code != 0 {
			t.Fatalf("bench %v: exit %d: %s", args, code, stderr)
		}
		cell := tableRows(t, out, "Convergence, certification, agreement")[0][2] // "56.52% (5652/10000)"
		var pct float64
		if _, err := fmt.Sscanf(cell, "%g%%", &pct); err != nil {
			t.Fatalf("certified cell %q: %v", cell, err)
		}
		return pct, out
	}
	off, outOff := certified()
	on, outOn := certified("-certify")
	if !(on > off) {
		t.Errorf("certified: %.2f%% with -certify, %.2f%% without", on, off)
	}
	if !strings.Contains(outOn, "-repeat 1 -certify (") || !strings.Contains(outOff, "-repeat 1 (") {
		t.Errorf("reproduce lines do not tell -certify apart")
	}
}

// TestBenchWarmMotion: -warm-move and -warm-turn set the warm run's motion,
// which the report states and the reproduce line repeats; with neither the
// bodies move nor turn, every warm query is the previous answer returned
// as it is (no Newton iteration: QueryWarm's still-pair path).
func TestBenchWarmMotion(t *testing.T) {
	run := func(args ...string) string {
		out, stderr, code := runCmd(t, "", append([]string{"bench", "-n", "30", "-method", "implicit", "-guess", "support", "-warm-steps", "3", "-repeat", "1"}, args...)...)
		if code != 0 {
			t.Fatalf("bench %v: exit %d: %s", args, code, stderr)
		}
		return out
	}
	out := run("-warm-turn", "0.05", "-warm-move", "0.0002")
	for _, want := range []string{"moves b by 0.0002 along a random direction and turns both bodies by 0.05° about",
		"-repeat 1 -warm-move 0.0002 -warm-turn 0.05 ("} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if def := run(); strings.Contains(def, "-warm-turn") || !strings.Contains(def, "turns both bodies by 0.5° about") {
		t.Errorf("the default motion is not the documented one, or the reproduce line spells it out")
	}
	still := tableRows(t, run("-warm-turn", "0", "-warm-move", "0"), "Warm start")[0]
	if still[5] != "0.00 ± 0.00" {
		t.Errorf("a still warm run took Newton iterations: %q", still[5])
	}
}

// -cpuprofile writes the run's CPU profile (gzipped protocol buffers, as
// go tool pprof reads them) and nothing else changes in the report.
func TestBenchCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.pprof")
	out, stderr, code := runCmd(t, "", "bench", "-n", "40", "-warm-steps", "2", "-method", "implicit", "-cpuprofile", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("profile of %d bytes is not gzipped", len(data))
	}
	if !strings.Contains(out, "## Table 1") || !strings.Contains(out, "## Warm start") {
		t.Errorf("report missing with -cpuprofile:\n%s", out)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".bench.pprof.tmp-*")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
