package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/sovviz/sovviz/contact"
)

func init() {
	commands["query"] = command{"answer JSON Lines contact queries (stdin or -in FILE) with JSON Lines", runQuery}
}

// maxQueryLine bounds one input line so that a runaway input cannot exhaust
// memory; a longer line is answered with an error and skipped.
const maxQueryLine = 1 << 20

// queryArgs are the parsed flags of "sovviz query".
type queryArgs struct {
	in     string
	opt    contact.Options
	timing int
	warm   bool
	jobs   int // -j: workers (0: one per processor)
}

func parseMethod(s string) (contact.Method, bool) {
	for _, m := range []contact.Method{contact.Implicit, contact.Parametric, contact.NTB} {
		if s == m.String() {
			return m, true
		}
	}
	return 0, false
}

func parseGuess(s string) (contact.Guess, bool) {
	for _, g := range []contact.Guess{contact.Quadtree, contact.Octree, contact.Support} {
		if s == g.String() {
			return g, true
		}
	}
	return 0, false
}

func parseQueryArgs(args []string, stderr io.Writer) (queryArgs, error) {
	def := contact.DefaultOptions()
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "read queries from `FILE` instead of stdin")
	method := fs.String("method", def.Method.String(), "common-normal scheme: implicit, parametric or ntb")
	guess := fs.String("guess", def.Guess.String(), "cold initial guess: quadtree, octree or support")
	tol := fs.Float64("tol", def.Tol, "Newton tolerance `T`, relative to the smaller body's smallest semi-axis L (a step of at most T·L ends a run; > 0)")
	timing := fs.Int("timing", 0, "add \"time_ns\": median of `R` repetitions of each query, cold (warm starts with -warm) (0: off)")
	warm := fs.Bool("warm", false, "warm-start each line from the last answer with the same id (temporal coherence)")
	jobs := fs.Int("j", 0, "answer with `N` workers in parallel, answers in input order (0: one per processor, or 1 with -timing)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sovviz query [-in FILE] [-method implicit|parametric|ntb] [-guess quadtree|octree|support] [-tol T] [-timing R] [-warm] [-j N]")
		fmt.Fprintln(stderr, "JSON Lines in, one JSON line out per input line, same order (docs/query.md).")
		fs.PrintDefaults()
	}
	var qa queryArgs
	if err := parseFlags(fs, args); err != nil {
		return qa, err
	}
	if fs.NArg() > 0 {
		return qa, fmt.Errorf("query: unexpected argument %q (input comes from stdin or -in FILE)", fs.Arg(0))
	}
	qa.in = *in
	qa.opt = def
	var ok bool
	if qa.opt.Method, ok = parseMethod(*method); !ok {
		return qa, fmt.Errorf("query: -method %q: want implicit, parametric or ntb", *method)
	}
	if qa.opt.Guess, ok = parseGuess(*guess); !ok {
		return qa, fmt.Errorf("query: -guess %q: want quadtree, octree or support", *guess)
	}
	if !(*tol > 0) || math.IsInf(*tol, 0) {
		return qa, fmt.Errorf("query: -tol %v: want a finite number > 0", *tol)
	}
	qa.opt.Tol = *tol
	if *timing < 0 || *timing > 1_000_000 {
		return qa, fmt.Errorf("query: -timing %d: want a repetition count in [1, 1000000] (0: off)", *timing)
	}
	qa.timing = *timing
	qa.warm = *warm
	if *jobs < 0 || *jobs > budgetTokens {
		// (More workers than lines allowed in flight would idle.)
		return qa, fmt.Errorf("query: -j %d: want a number of workers in [1, %d] (0: one per processor)", *jobs, budgetTokens)
	}
	if *jobs > 1 && qa.timing > 0 {
		return qa, fmt.Errorf("query: -j %d with -timing: a query timed while others run is timed under their load; use -j 1 (the default with -timing)", *jobs)
	}
	qa.jobs = *jobs
	return qa, nil
}

func runQuery(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	qa, err := parseQueryArgs(args, stderr)
	if code := argsExit(err, stderr); code >= 0 {
		return code
	}
	src, name := stdin, "stdin"
	if qa.in != "" {
		f, err := os.Open(qa.in)
		if err != nil {
			fmt.Fprintf(stderr, "sovviz query: %v\n", err)
			return 1
		}
		defer f.Close()
		src, name = f, qa.in
	}
	var bad int
	if w := queryWorkers(&qa, runtime.GOMAXPROCS(0)); w > 1 {
		bad, err = answerQueriesParallel(src, stdout, &qa, w)
	} else {
		bad, err = answerQueries(src, stdout, &qa)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sovviz query: %s: %v\n", name, err)
		return 1
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "sovviz query: %d line(s) answered with status error or failed\n", bad)
		return 1
	}
	return 0
}

// lineAnswerer answers one non-empty input line into out and reports
// whether the line failed (status error or failed).
type lineAnswerer func(out []byte, text []byte, tooLong bool, lineNo int, times []int64) ([]byte, bool)

// answerLines is the loop of every JSON Lines command: it streams src to
// dst line by line, answering each non-blank line (or over-long one) with
// answer, and returns how many lines failed. Output is buffered but flushed
// whenever the input has no whole line buffered, so that a program driving
// sovviz through a pipe, one line at a time, gets each answer without
// waiting for the end of its input (nor for the rest of a line it has begun
// to write).
func answerLines(src io.Reader, dst io.Writer, timing int, answer lineAnswerer) (bad int, err error) {
	br := bufio.NewReaderSize(src, 64<<10)
	bw := bufio.NewWriterSize(dst, 64<<10)
	var times []int64
	if timing > 0 {
		times = make([]int64, timing)
	}
	var lineBuf, out []byte
	for lineNo := 1; ; lineNo++ {
		if !lineBuffered(br) {
			if err := bw.Flush(); err != nil {
				return bad, fmt.Errorf("writing answers: %w", err)
			}
		}
		line, tooLong, rerr := readLine(br, lineBuf[:0], maxQueryLine)
		lineBuf = line[:0]
		if rerr != nil && rerr != io.EOF {
			bw.Flush()
			return bad, fmt.Errorf("line %d: %w", lineNo, rerr)
		}
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if text := bytes.TrimSpace(line); len(text) > 0 || tooLong {
			var failed bool
			out, failed = answer(out[:0], text, tooLong, lineNo, times)
			if failed {
				bad++
			}
			if _, err := bw.Write(out); err != nil {
				return bad, fmt.Errorf("writing answers: %w", err)
			}
		}
		if rerr == io.EOF {
			break
		}
	}
	if err := bw.Flush(); err != nil {
		return bad, fmt.Errorf("writing answers: %w", err)
	}
	return bad, nil
}

// answerQueries answers src's queries into dst on one solver (answerLines)
// and returns how many lines got status "error" or "failed".
func answerQueries(src io.Reader, dst io.Writer, qa *queryArgs) (bad int, err error) {
	sv := contact.NewSolver(qa.opt)
	var last warmAnswers
	seq := 0 // answered lines so far (the line numbers of -warm's window)
	return answerLines(src, dst, qa.timing, func(out, text []byte, tooLong bool, lineNo int, times []int64) ([]byte, bool) {
		var lw *warmAnswers
		if qa.warm {
			last.now, lw = seq, &last
		}
		seq++
		a := answerLine(sv, text, tooLong, lineNo, times, lw)
		return appendAnswer(out, &a), a.res == nil || a.res.Status == contact.Failed
	})
}

// warmAnswers holds, for -warm, the last answer of each id, with the
// number of the answered line that gave it. A line starts from its id's
// last answer only when that answer is at most warmWindow answered lines
// old: a rule on the id's own lines, so that it picks the same warm starts
// whether one worker holds every id or each of several workers some
// (answerQueriesParallel). Older answers are swept out as the map grows,
// which bounds the memory to about twice the ids of the last warmWindow
// lines, and changes no answer. An id longer than maxWarmKey bytes is kept
// by its SHA-256 digest, so an entry's size does not grow with its id.
type warmAnswers struct {
	byID  map[string]warmEntry
	now   int // the number of the line being answered (set by the caller)
	sweep int // sweep when the map reaches this size
}

type warmEntry struct {
	line int
	r    *contact.Result
}

// warmWindow is how many answered lines an answer stays usable for. (A
// variable only so that TestQueryWarmWindow can shrink it.)
var warmWindow = 1 << 15

// maxWarmKey is the longest id kept as itself in warmAnswers.
const maxWarmKey = 32

// warmKey is the map key of an id: the id itself, or for a longer one its
// digest plus a marker byte (33 bytes: no short id has that length).
func warmKey(id string) string {
	if len(id) <= maxWarmKey {
		return id
	}
	d := sha256.Sum256([]byte(id))
	return string(append(d[:], 0))
}

// get returns the answer kept under key (warmKey of an id), if it is
// still within the window.
func (w *warmAnswers) get(key string) *contact.Result {
	e, ok := w.byID[key]
	if !ok || w.now-e.line > warmWindow {
		return nil
	}
	return e.r
}

// put keeps r under key (warmKey of an id), sweeping out old answers as
// the map grows.
func (w *warmAnswers) put(key string, r *contact.Result) {
	if w.byID == nil {
		w.byID, w.sweep = make(map[string]warmEntry), 1024
	}
	w.byID[key] = warmEntry{w.now, r}
	if len(w.byID) >= w.sweep {
		for k, e := range w.byID {
			if w.now-e.line > warmWindow {
				delete(w.byID, k)
			}
		}
		// Amortised: the next sweep waits for as many new ids as are kept.
		w.sweep = max(2*len(w.byID), 1024)
	}
}

// lineBuffered reports whether br holds a whole line already read, which
// the next read returns without waiting for the input.
func lineBuffered(br *bufio.Reader) bool {
	buf, _ := br.Peek(br.Buffered())
	return bytes.IndexByte(buf, '\n') >= 0
}

// answerLine parses and answers one non-empty line. With warm (-warm), a
// line with an id starts from the last answer of that id, and leaves its
// own answer there for the next.
func answerLine(sv *contact.Solver, text []byte, tooLong bool, lineNo int, times []int64, warm *warmAnswers) queryAnswer {
	if tooLong {
		return queryAnswer{err: fmt.Sprintf("line %d: longer than %d bytes", lineNo, maxQueryLine)}
	}
	in, err := parseQueryLine(text)
	return answerParsed(sv, in, err, lineNo, times, warm)
}

// answerParsed is answerLine once the line is parsed (err: how it failed).
func answerParsed(sv *contact.Solver, in queryInput, err error, lineNo int, times []int64, warm *warmAnswers) queryAnswer {
	a := queryAnswer{id: in.id, hasID: in.hasID}
	if err != nil {
		a.err = fmt.Sprintf("line %d: %v", lineNo, err)
		return a
	}
	var prev *contact.Result
	var key string
	if warm != nil && in.hasID {
		key = warmKey(in.id)
		prev = warm.get(key)
	}
	// The first query is not timed: it also fills the solver's per-shape
	// cache (convexity analysis), which is a property of the shapes, not
	// part of a query. Every timed repetition is then a cold query, or with
	// -warm a warm start from the same previous answer.
	var res contact.Result
	if prev != nil {
		res = sv.QueryWarm(&in.a, &in.b, prev)
	} else {
		res = sv.Query(&in.a, &in.b)
	}
	if len(times) > 0 {
		for k := range times {
			t0 := time.Now()
			if prev != nil {
				sv.QueryWarm(&in.a, &in.b, prev)
			} else {
				sv.Query(&in.a, &in.b)
			}
			times[k] = time.Since(t0).Nanoseconds()
		}
		a.timeNS = medianInt64(times)
		a.timed = true
	}
	if !finiteResult(&res) {
		a.err = fmt.Sprintf("line %d: internal error: the solver returned a non-finite number (please report this pair)", lineNo)
		return a
	}
	a.res = &res
	a.warning = nonConvexWarning(&res, &in.a.Shape, &in.b.Shape)
	if warm != nil && in.hasID {
		warm.put(key, &res)
	}
	return a
}

// medianInt64 returns the median of xs (the mean of the middle two for an
// even count), reordering xs.
func medianInt64(xs []int64) int64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return xs[n/2-1] + (xs[n/2]-xs[n/2-1])/2
}

// readLine reads one line (without its "\n" or "\r\n") into buf. A line
// longer than max is consumed up to its end and reported with tooLong.
// err is io.EOF with the last line when the input ends.
func readLine(br *bufio.Reader, buf []byte, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > max+2 { // +2: room for the "\r\n"
				tooLong, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		if len(buf) > max { // the +2 above let through up to 2 more bytes
			tooLong, buf = true, buf[:0]
		}
		return buf, tooLong, err
	}
}
