// Command pairs writes paper 000 §5.1's battery as triangle meshes, for
// fclbench.cpp to time FCL on the pairs that `sovviz bench` times sovviz on
// (the same -n and -seed give the same pairs). Each shape becomes the
// paper's 290-vertex, 576-triangle mesh: 24 azimuth slices by 12 zenith rings
// and two poles, every vertex on the exact surface (tessellate.Grid). Each
// pair also carries sovviz's exact signed distance, so that the harness can
// report how far the mesh distance is from it.
//
// The stream is binary, little-endian (a text form would be ~400 MB for
// 10,000 pairs):
//
//	header: "SOVFCL01", uint32 pairs, uint32 vertices, uint32 triangles,
//	        then 3·triangles uint32 vertex indices (the same for every mesh)
//	pair:   float64 exact signed distance, uint8 flags (1: both shapes
//	        convex), then for a and for b: 9 float64 rotation (row-major),
//	        3 float64 position, 3·vertices float64 local vertex coordinates
//
// With -scene it writes a scene's broad-phase pairs instead (those the
// visualizer queries every frame), with the scene's solver options; -jsonl
// also writes the pairs as `sovviz query` input lines, for
// `sovviz query -timing R` to time sovviz on them.
//
// Usage: go run ./scripts/fclbench/pairs [-n 10000] [-seed 1 | -scene FILE] [-jsonl FILE] > pairs.bin
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
	"github.com/sovviz/sovviz/scene"
	"github.com/sovviz/sovviz/tessellate"
)

// The paper's mesh: 24 azimuth slices and 13 zenith slices (12 rings of
// vertices between the poles) give 24·12 + 2 = 290 vertices and 576
// triangles.
const (
	slicesAz = 24
	slicesZe = 13
)

// magic names the format and its version.
const magic = "SOVFCL01"

func main() {
	fs := flag.NewFlagSet("pairs", flag.ContinueOnError)
	n := fs.Int("n", 10000, "number of pairs of the battery")
	seed := fs.Uint64("seed", 1, "seed of the battery (as sovviz bench -seed)")
	scenePath := fs.String("scene", "", "write the broad-phase pairs of this scene `FILE` instead of the battery")
	jsonl := fs.String("jsonl", "", "also write the pairs as sovviz query input lines to `FILE`")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	err := run(*n, *seed, *scenePath, *jsonl)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pairs:", err)
		os.Exit(1)
	}
}

func run(n int, seed uint64, scenePath, jsonl string) error {
	var pairs []namedPair
	opt := contact.DefaultOptions()
	if scenePath != "" {
		sc, err := scene.Load(scenePath)
		if err != nil {
			return err
		}
		opt = sc.Solver.Options()
		if pairs = scenePairs(sc); len(pairs) == 0 {
			return fmt.Errorf("%s: no pair of objects within the broad phase's margin", scenePath)
		}
	} else {
		var err error
		if pairs, err = batteryPairs(n, seed); err != nil {
			return err
		}
	}
	if jsonl != "" {
		var buf bytes.Buffer
		if err := writeJSONL(&buf, pairs); err != nil {
			return err
		}
		if err := scene.WriteFileAtomic(jsonl, buf.Bytes()); err != nil {
			return err
		}
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	if err := writeStream(w, pairs, opt); err != nil {
		return err
	}
	return w.Flush()
}

// namedPair is one pair of bodies and the id its query line carries.
type namedPair struct {
	id   string
	a, b geom.Body
}

// batteryPairs returns n pairs of paper 000's battery for seed, named by
// their index.
func batteryPairs(n int, seed uint64) ([]namedPair, error) {
	if n < 1 || n > 1_000_000 {
		return nil, fmt.Errorf("-n = %d: must be in [1, 1000000]", n)
	}
	var pairs []namedPair
	for i, p := range contact.PaperBattery(n, seed) {
		pairs = append(pairs, namedPair{id: strconv.Itoa(i), a: p[0], b: p[1]})
	}
	return pairs, nil
}

// writePairs writes the header and n pairs of the battery for seed.
func writePairs(w io.Writer, n int, seed uint64) error {
	pairs, err := batteryPairs(n, seed)
	if err != nil {
		return err
	}
	return writeStream(w, pairs, contact.DefaultOptions())
}

// scenePairs returns the pairs of sc's objects that its broad phase passes
// (the pairs the visualizer queries every frame), named "a|b".
func scenePairs(sc *scene.Scene) []namedPair {
	bodies := make([]geom.Body, len(sc.Objects))
	for i := range sc.Objects {
		bodies[i] = sc.Objects[i].Body()
	}
	var out []namedPair
	for _, k := range contact.NewWorld(sc.Solver.Options(), sc.Solver.Margin).Candidates(bodies) {
		out = append(out, namedPair{id: sc.Objects[k.I].Name + "|" + sc.Objects[k.J].Name, a: bodies[k.I], b: bodies[k.J]})
	}
	return out
}

// queryObject is a body in sovviz query's input format.
type queryObject struct {
	Shape struct {
		A     [3]float64 `json:"a"`
		Eps   [2]float64 `json:"eps"`
		Taper [2]float64 `json:"taper"`
	} `json:"shape"`
	Pose struct {
		Position    [3]float64 `json:"position"`
		Orientation [4]float64 `json:"orientation"`
	} `json:"pose"`
}

func toQueryObject(b *geom.Body) queryObject {
	var o queryObject
	o.Shape.A, o.Shape.Eps, o.Shape.Taper = b.Shape.A, b.Shape.Eps, b.Shape.Taper
	o.Pose.Position = b.Pose.Position
	q := b.Pose.Orientation
	o.Pose.Orientation = [4]float64{q.W, q.V[0], q.V[1], q.V[2]}
	return o
}

// writeJSONL writes the pairs as sovviz query input lines, in stream order.
func writeJSONL(w io.Writer, pairs []namedPair) error {
	enc := json.NewEncoder(w)
	for i := range pairs {
		p := &pairs[i]
		line := struct {
			ID string      `json:"id"`
			A  queryObject `json:"a"`
			B  queryObject `json:"b"`
		}{p.id, toQueryObject(&p.a), toQueryObject(&p.b)}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}

// writeStream writes the header and the pairs, each with sovviz's answer
// under opt.
func writeStream(w io.Writer, pairs []namedPair, opt contact.Options) error {
	var g tessellate.Grid
	sv := contact.NewSolver(opt)
	var topo []uint32
	for i := range pairs {
		a, b := &pairs[i].a, &pairs[i].b
		r := sv.Query(a, b)
		if r.Status != contact.Converged || math.IsNaN(r.Distance) {
			return fmt.Errorf("pair %d: sovviz's query did not converge (status %v)", i, r.Status)
		}
		var rec []byte
		rec = binary.LittleEndian.AppendUint64(rec, math.Float64bits(r.Distance))
		flags := byte(0)
		if r.NonConvex == 0 {
			flags = 1
		}
		rec = append(rec, flags)
		for _, body := range []*geom.Body{a, b} {
			m, err := g.Build(body.Shape, slicesAz, slicesZe)
			if err != nil {
				return fmt.Errorf("pair %d: mesh: %w", i, err)
			}
			if topo == nil {
				topo = slices.Clone(m.Indices)
				if err := writeHeader(w, len(pairs), m.NumVertices(), topo); err != nil {
					return err
				}
			} else if !slices.Equal(topo, m.Indices) {
				return errors.New("the grid's triangles differ between shapes")
			}
			t := body.Pose.Transform()
			for row := 0; row < 3; row++ {
				for col := 0; col < 3; col++ {
					rec = appendF(rec, t.R[col*3+row]) // Mat3 is column-major
				}
			}
			for _, c := range t.T {
				rec = appendF(rec, c)
			}
			for _, p := range m.Positions {
				rec = appendF(appendF(appendF(rec, p[0]), p[1]), p[2])
			}
		}
		if _, err := w.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

func appendF(b []byte, x float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
}

func writeHeader(w io.Writer, pairs, verts int, idx []uint32) error {
	h := []byte(magic)
	for _, v := range []int{pairs, verts, len(idx) / 3} {
		h = binary.LittleEndian.AppendUint32(h, uint32(v))
	}
	for _, v := range idx {
		h = binary.LittleEndian.AppendUint32(h, v)
	}
	_, err := w.Write(h)
	return err
}
