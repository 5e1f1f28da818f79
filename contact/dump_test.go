package contact

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// TestBatteryDump writes every answer of the paper battery (10,000 pairs:
// cold queries with each scheme from the quadtree guess, and with the
// support guess, then 20 warm steps of sovviz bench's motion for the first
// 1,500 pairs; and the first 1,000 pairs with the octree guess and with
// finite-difference Jacobians, each scheme) to the file named by
// SOVVIZ_DUMP, to full precision: distance, witness points, normal,
// iterations, starts, status, certified. Dumps made at two commits compare
// equal (cmp) when a change leaves every answer bit for bit as it was
// (about a minute; -count 1, or go test replays a cached pass and
// writes nothing):
//
//	SOVVIZ_DUMP=/tmp/before.txt go test -count 1 -run BatteryDump ./contact
func TestBatteryDump(t *testing.T) {
	path := os.Getenv("SOVVIZ_DUMP")
	if path == "" {
		t.Skip("set SOVVIZ_DUMP=file to write the battery's answers")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	put := func(tag string, i int, r *Result) {
		fmt.Fprintf(w, "%s %d %.17g %.17g %.17g %.17g %d %d %d %v %d\n", tag, i, r.Distance, r.P, r.Q, r.Normal,
			r.Iterations, r.Starts, r.Status, r.Certified, r.QuadLevels)
	}
	pairs := PaperBattery(10000, 1)
	for _, m := range allMethods {
		o := DefaultOptions()
		o.Method = m
		o.Guess = Quadtree // (the default guess is Support, dumped below)
		sv := NewSolver(o)
		for i := range pairs {
			r := sv.Query(&pairs[i][0], &pairs[i][1])
			put(fmt.Sprint("q", m), i, &r)
		}
		o.Guess = Octree
		sv = NewSolver(o)
		for i := range pairs[:1000] {
			r := sv.Query(&pairs[i][0], &pairs[i][1])
			put(fmt.Sprint("o", m), i, &r)
		}
		o.Guess = Support
		o.FiniteDiff = true
		sv = NewSolver(o)
		for i := range pairs[:1000] {
			r := sv.Query(&pairs[i][0], &pairs[i][1])
			put(fmt.Sprint("f", m), i, &r)
		}
	}
	o := DefaultOptions()
	o.Guess = Support
	sv := NewSolver(o)
	rnd := rand.New(rand.NewPCG(1, 0xa11a))
	for i := range pairs {
		a, b := pairs[i][0], pairs[i][1]
		r := sv.Query(&a, &b)
		put("s", i, &r)
		for k := 0; i < 1500 && k < 20; k++ {
			benchMotion(&a, &b, rnd)
			r = sv.QueryWarm(&a, &b, &r)
			put("w", i, &r)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
