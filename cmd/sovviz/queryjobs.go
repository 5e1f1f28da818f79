package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/sovviz/sovviz/contact"
)

// queueDepth bounds the lines waiting per worker, so that a long input is
// not read far ahead of the answers.
const queueDepth = 64

// Lines in flight (read, not yet written) also hold a share of a byte
// budget, one token per started budgetToken bytes of line, so that long
// lines (up to maxQueryLine each, an answer echoing its id as long or,
// escaped, up to 6 times as long) cannot pile up by the worker's
// queueDepth: at most budgetTokens tokens are held, so at most that many
// lines are in flight whatever the number of workers.
const (
	budgetToken  = 64 << 10
	budgetTokens = 256 // 16 MiB of lines
)

// queryJob is one non-empty input line handed to a worker.
type queryJob struct {
	seq     int // order among the answered lines
	lineNo  int
	text    []byte // the worker's own copy
	tooLong bool
	tokens  int // of the byte budget
	// With -warm the reader parses the line (to route it by its id), and
	// the worker answers the parsed input.
	parsed bool
	in     queryInput
	err    error
}

// queryDone is one answered line: its output, ready to write.
type queryDone struct {
	seq    int
	out    []byte
	bad    bool
	tokens int
}

// answerQueriesParallel is answerQueries with the lines answered by workers
// goroutines, each with its own solver, and the answers written in input
// order. Every answer is the one answerQueries gives: a query depends on
// its line only, or with -warm on the lines before it with the same id,
// which go to the same worker in order, under a rule on the id's own lines
// (warmAnswers). Output is flushed whenever no answer is ready to write, so
// a program that drives sovviz through a pipe one line at a time still
// gets each answer before it sends the next. When writing fails the
// command returns at once; the workers then finish the line in hand and
// stop, and the reader stops once its pending read returns (a reader
// blocked on an idle pipe holds only its buffer until then).
func answerQueriesParallel(src io.Reader, dst io.Writer, qa *queryArgs, workers int) (bad int, err error) {
	br := bufio.NewReaderSize(src, 64<<10)
	bw := bufio.NewWriterSize(dst, 64<<10)
	quit := make(chan struct{})
	defer close(quit)
	budget := make(chan struct{}, budgetTokens)
	results := make(chan queryDone, workers*queueDepth)
	jobs := make([]chan queryJob, workers)
	for w := range jobs {
		jobs[w] = make(chan queryJob, queueDepth)
		go func(in <-chan queryJob) {
			sv := contact.NewSolver(qa.opt)
			var last warmAnswers
			for j := range in {
				select {
				case <-quit:
					return // the answers cannot be written
				default:
				}
				var a queryAnswer
				if j.parsed {
					last.now = j.seq
					a = answerParsed(sv, j.in, j.err, j.lineNo, nil, &last)
				} else {
					a = answerLine(sv, j.text, j.tooLong, j.lineNo, nil, nil)
				}
				d := queryDone{seq: j.seq, out: appendAnswer(nil, &a), bad: a.res == nil || a.res.Status == contact.Failed, tokens: j.tokens}
				select {
				case results <- d:
				case <-quit:
					return
				}
			}
		}(jobs[w])
	}
	// The reader hands the lines out and then says how many there were,
	// and the error that ended the input, if any.
	type readEnd struct {
		n   int
		err error
	}
	ended := make(chan readEnd, 1)
	go func() {
		defer func() {
			for _, c := range jobs {
				close(c)
			}
		}()
		var lineBuf []byte
		seq := 0
		for lineNo := 1; ; lineNo++ {
			line, tooLong, rerr := readLine(br, lineBuf[:0], maxQueryLine)
			lineBuf = line[:0]
			if rerr != nil && rerr != io.EOF {
				ended <- readEnd{seq, fmt.Errorf("line %d: %w", lineNo, rerr)}
				return
			}
			if lineNo == 1 {
				line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
			}
			text := bytes.TrimSpace(line)
			if len(text) > 0 || tooLong {
				j := queryJob{seq: seq, lineNo: lineNo, tooLong: tooLong}
				// (A line of the longest kind takes 17 tokens, well below
				// the budget, so the reader alone never waits for itself.)
				j.tokens = min(1+len(text)/budgetToken, budgetTokens)
				for range j.tokens {
					select {
					case budget <- struct{}{}:
					case <-quit:
						return
					}
				}
				w := seq % workers
				if qa.warm && !tooLong {
					// Lines of one id go to one worker, in order, where
					// the id's last answer is.
					j.parsed = true
					j.in, j.err = parseQueryLine(text)
					if j.in.hasID {
						w = int(idHash(j.in.id) % uint64(workers))
					}
				} else {
					j.text = append([]byte(nil), text...)
				}
				select {
				case jobs[w] <- j:
				case <-quit:
					return
				}
				seq++
			}
			if rerr == io.EOF {
				ended <- readEnd{seq, nil}
				return
			}
		}
	}()
	pending := map[int]queryDone{}
	next, total := 0, -1
	var readErr error
	for total < 0 || next < total {
		for {
			d, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if d.bad {
				bad++
			}
			if _, err := bw.Write(d.out); err != nil {
				return bad, fmt.Errorf("writing answers: %w", err)
			}
			for range d.tokens {
				<-budget
			}
		}
		if total >= 0 && next >= total {
			break
		}
		var d queryDone
		select {
		case d = <-results:
		default:
			// Nothing to write: flush before waiting.
			if err := bw.Flush(); err != nil {
				return bad, fmt.Errorf("writing answers: %w", err)
			}
			select {
			case d = <-results:
			case e := <-ended:
				total, readErr = e.n, e.err
				continue
			}
		}
		pending[d.seq] = d
	}
	if err := bw.Flush(); err != nil {
		return bad, fmt.Errorf("writing answers: %w", err)
	}
	return bad, readErr
}

// idHash is FNV-1a of an id: which worker answers an id's lines under
// -warm, the same on every run.
func idHash(id string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h = (h ^ uint64(id[i])) * 1099511628211
	}
	return h
}

// queryWorkers is how many workers answer the lines: -j, or with -j 0 one
// per processor the Go runtime uses, at most budgetTokens (one when
// timing: a query timed while others run would be timed under their load).
func queryWorkers(qa *queryArgs, procs int) int {
	switch {
	case qa.jobs > 0:
		return qa.jobs
	case qa.timing > 0:
		return 1
	}
	return min(max(procs, 1), budgetTokens)
}
