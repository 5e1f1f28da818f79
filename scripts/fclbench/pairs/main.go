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
// Usage: go run ./scripts/fclbench/pairs [-n 10000] [-seed 1] > pairs.bin
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/sovviz/sovviz/contact"
	"github.com/sovviz/sovviz/geom"
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
	n := fs.Int("n", 10000, "number of pairs")
	seed := fs.Uint64("seed", 1, "seed of the battery (as sovviz bench -seed)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	err := writePairs(w, *n, *seed)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pairs:", err)
		os.Exit(1)
	}
}

// writePairs writes the header and n pairs of the battery for seed.
func writePairs(w io.Writer, n int, seed uint64) error {
	if n < 1 || n > 1_000_000 {
		return fmt.Errorf("-n = %d: must be in [1, 1000000]", n)
	}
	var g tessellate.Grid
	pairs := contact.PaperBattery(n, seed)
	sv := contact.NewSolver(contact.DefaultOptions())
	var topo []uint32
	for i := range pairs {
		a, b := &pairs[i][0], &pairs[i][1]
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
				if err := writeHeader(w, n, m.NumVertices(), topo); err != nil {
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
