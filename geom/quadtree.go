package geom

import "math"

// ParamCell is a rectangle of the angle-centre parameter domain
// [P1Min, P1Max] × [P2Min, P2Max]; Level 0 is the whole domain. The
// parametric quadtree guess of the contact solver descends through these
// cells and the visualizer draws the ones it chose, so both use this one type.
type ParamCell struct {
	P1Min, P1Max float64
	P2Min, P2Max float64
	Level        int
}

// RootParamCell is the whole domain p1 in [−π, π], p2 in [−π/2, π/2].
func RootParamCell() ParamCell {
	return ParamCell{P1Min: -math.Pi, P1Max: math.Pi, P2Min: -math.Pi / 2, P2Max: math.Pi / 2}
}

// Center returns the parameters of the cell centre.
func (c ParamCell) Center() (p1, p2 float64) {
	return 0.5 * (c.P1Min + c.P1Max), 0.5 * (c.P2Min + c.P2Max)
}

// Child returns quadrant k (bit 0: upper half in p1, bit 1: upper half in p2).
func (c ParamCell) Child(k int) ParamCell {
	m1, m2 := c.Center()
	d := ParamCell{P1Min: c.P1Min, P1Max: m1, P2Min: c.P2Min, P2Max: m2, Level: c.Level + 1}
	if k&1 != 0 {
		d.P1Min, d.P1Max = m1, c.P1Max
	}
	if k&2 != 0 {
		d.P2Min, d.P2Max = m2, c.P2Max
	}
	return d
}

// Contains reports whether (p1, p2) lies in the closed cell.
func (c ParamCell) Contains(p1, p2 float64) bool {
	return p1 >= c.P1Min && p1 <= c.P1Max && p2 >= c.P2Min && p2 <= c.P2Max
}
