package tessellate

import (
	"fmt"
	"math"

	"github.com/sovviz/sovviz/geom"
)

// Grid limits.
const (
	MinSlicesAz = 3
	MaxSlicesAz = 4096
	MinSlicesZe = 2
	MaxSlicesZe = 2048
)

// tableN is the number of table intervals per quarter curve used to find
// evenly spaced samples; the samples themselves are exact curve points, the
// table only decides where they go.
const tableN = 128

// turnWeight is the share of the samples placed by turning angle rather than
// by arc length: pure arc length (Pilu & Fisher's equal-distance sampling)
// leaves the tightly curved edges of box-like shapes faceted, pure turning
// angle leaves their flats bare; half and half looks smooth at modest sizes
// and is exactly uniform for circles.
const turnWeight = 0.5

// curveSample is one point of a unit superellipse |c|^p + |s|^p = 1 with
// the powers the normals need.
type curveSample struct {
	c, s   float64 // the point
	cd, sd float64 // spow(c, p−1), spow(s, p−1)
	cp     float64 // |c|^p
}

// Grid tessellates superovoids on a parametric grid whose samples are evenly
// spaced along the surface (see Build). It owns every buffer it uses: reuse
// one Grid for repeated builds and they allocate nothing once grown. Not safe
// for concurrent use.
type Grid struct {
	mesh   Mesh
	az, ze []curveSample
	cum    []float64 // cumulative weights of a table
	ds     []float64 // arc length per table interval (scratch)
	dm     []float64 // longest arc length per table interval (scratch)
	dt     []float64 // turning per table interval (scratch)
}

// Build tessellates s with n1 azimuth by n2 zenith cells: n1·(n2−1)+2
// vertices (one per pole, none repeated at the seam) and 2·n1·(n2−1)
// triangles. The samples are not at equal angle-centre parameters, which crowd
// at the corners of box-like shapes: along the equator section and along the
// meridian profile they are placed at equal steps of a blend of arc length
// and turning angle (the equal-distance sampling of Pilu & Fisher 1995,
// with the tight edges kept round). Every vertex lies exactly on the surface
// and carries the normalised implicit gradient as its normal.
//
// The returned mesh is owned by g and overwritten by the next build.
func (g *Grid) Build(s geom.Superovoid, n1, n2 int) (*Mesh, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if n1 < MinSlicesAz || n1 > MaxSlicesAz {
		return nil, fmt.Errorf("azimuth slices = %d: must be in [%d, %d]", n1, MinSlicesAz, MaxSlicesAz)
	}
	if n2 < MinSlicesZe || n2 > MaxSlicesZe {
		return nil, fmt.Errorf("zenith slices = %d: must be in [%d, %d]", n2, MinSlicesZe, MaxSlicesZe)
	}
	g.section(&s, n1)
	g.profile(&s, n2)
	g.assemble(&s, n1, n2)
	return &g.mesh, nil
}

// SlicesForEdge returns the grid resolution whose longest edge along the
// equator and the meridians is about edge (at most edge, up to the table's
// resolution), clamped to the grid limits.
func (g *Grid) SlicesForEdge(s geom.Superovoid, edge float64) (n1, n2 int, err error) {
	if err := s.Validate(); err != nil {
		return 0, 0, err
	}
	if !(edge > 0) || math.IsInf(edge, 0) {
		return 0, 0, fmt.Errorf("edge = %v: must be a positive finite length", edge)
	}
	sp1 := g.sectionTable(&s)
	sp2 := g.profileTable(&s)
	n1 = clampInt(int(math.Ceil(4*sp1/edge)), MinSlicesAz, MaxSlicesAz)
	n2 = clampInt(int(math.Ceil(sp2/edge)), MinSlicesZe, MaxSlicesZe)
	return n1, n2, nil
}

// BuildEdge builds the grid with the resolution of SlicesForEdge.
func (g *Grid) BuildEdge(s geom.Superovoid, edge float64) (*Mesh, error) {
	n1, n2, err := g.SlicesForEdge(s, edge)
	if err != nil {
		return nil, err
	}
	return g.Build(s, n1, n2)
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// unitPoint returns the point of the unit superellipse with exponent p = 2/e
// in polar direction phi, with its normal powers.
func unitPoint(phi, p float64) curveSample {
	sn, cs := math.Sincos(phi)
	ac, as := math.Abs(cs), math.Abs(sn)
	pc, ps := math.Pow(ac, p), math.Pow(as, p)
	r := math.Pow(pc+ps, -1/p)
	rp := 1 / (pc + ps) // r^p
	var o curveSample
	o.c, o.s = r*cs, r*sn
	o.cp = rp * pc
	// spow(c, p−1) = |c|^p/|c|·sign(c); p > 1 for e < 2, so it is 0 at c = 0.
	if ac > 0 {
		o.cd = math.Copysign(o.cp/(r*ac), cs)
	}
	if as > 0 {
		o.sd = math.Copysign(rp*ps/(r*as), sn)
	}
	return o
}

// table fills g.cum over n intervals from weights of arc length and turning
// (g.ds, g.dt) and returns the largest spacing per unit of normalised weight
// of the longest curve the table stands for (g.dm): the longest edge is that
// divided by the number of samples.
func (g *Grid) table(n int) float64 {
	S, T := 0.0, 0.0
	for i := 0; i < n; i++ {
		S += g.ds[i]
		T += g.dt[i]
	}
	g.cum = g.cum[:0]
	g.cum = append(g.cum, 0)
	w0 := 0.0
	spread := 0.0
	for i := 0; i < n; i++ {
		w := (1-turnWeight)*g.ds[i]/S + turnWeight*g.dt[i]/T
		w0 += w
		g.cum = append(g.cum, w0)
		if w > 0 {
			spread = math.Max(spread, g.dm[i]/w)
		}
	}
	return spread
}

// invert returns the table parameter (in interval units, 0..n) where the
// cumulative weight reaches t.
func (g *Grid) invert(t float64) float64 {
	c := g.cum
	lo, hi := 0, len(c)-1
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if c[mid] <= t {
			lo = mid
		} else {
			hi = mid
		}
	}
	d := c[hi] - c[lo]
	f := 0.0
	if d > 0 {
		f = (t - c[lo]) / d
	}
	return float64(lo) + math.Max(0, math.Min(1, f))
}

func (g *Grid) scratch(n int) {
	if cap(g.ds) < n {
		g.ds = make([]float64, n)
		g.dt = make([]float64, n)
		g.dm = make([]float64, n)
	}
	g.ds, g.dt, g.dm = g.ds[:n], g.dt[:n], g.dm[:n]
}

// sectionTable tabulates a quarter of the equator section (x ≥ 0, y ≥ 0,
// semi-axes a1, a2) over the polar angle of the unit curve, which spreads
// the table evenly for every e1, and returns the quarter's spread.
func (g *Grid) sectionTable(s *geom.Superovoid) float64 {
	p := 2 / s.Eps[0]
	a1, a2 := s.A[0], s.A[1]
	g.scratch(tableN)
	prev := unitPoint(0, p)
	pn := math.Atan2(prev.sd/a2, prev.cd/a1)
	for i := 1; i <= tableN; i++ {
		q := unitPoint(math.Pi/2*float64(i)/tableN, p)
		n := math.Atan2(q.sd/a2, q.cd/a1)
		g.ds[i-1] = math.Hypot(a1*(q.c-prev.c), a2*(q.s-prev.s))
		g.dm[i-1] = g.ds[i-1]
		g.dt[i-1] = math.Abs(n - pn)
		prev, pn = q, n
	}
	return g.table(tableN)
}

// section places n1 samples around the whole section, using its symmetry in
// both axes: quarter k/2 odd runs the table backwards.
func (g *Grid) section(s *geom.Superovoid, n1 int) {
	g.sectionTable(s)
	p := 2 / s.Eps[0]
	Q := g.cum[tableN]
	g.az = g.az[:0]
	for k := 0; k < n1; k++ {
		t := 4 * Q * float64(k) / float64(n1)
		q := int(t / Q)
		if q > 3 {
			q = 3
		}
		r := t - float64(q)*Q
		if q&1 == 1 {
			r = Q - r
		}
		phi := math.Pi / 2 * g.invert(r) / tableN
		o := unitPoint(phi, p)
		if q == 1 || q == 2 {
			o.c, o.cd = -o.c, -o.cd
		}
		if q >= 2 {
			o.s, o.sd = -o.s, -o.sd
		}
		g.az = append(g.az, o)
	}
}

// profileTable tabulates the meridian from the south to the north pole; its
// weights average the xz and yz meridians, whose scales (and tapers) differ.
// It returns the spread of the whole meridian.
func (g *Grid) profileTable(s *geom.Superovoid) float64 {
	p := 2 / s.Eps[1]
	a1, a2, a3 := s.A[0], s.A[1], s.A[2]
	tx, ty := s.Taper[0], s.Taper[1]
	const n = 2 * tableN
	g.scratch(n)
	mer := func(o curveSample, a, t float64) (x, z, nrm float64) {
		cx := 1 + t*o.s
		x, z = a*cx*o.c, a3*o.s
		// Normal of the meridian from the gradient (see assemble) with
		// the section direction fixed: (C^(p−1)/(a·cx), (spow(S,p−1) − C^p·t/cx)/a3).
		nrm = math.Atan2((o.sd-o.c*o.cd*t/cx)/a3, o.cd/(a*cx))
		return
	}
	prev := unitPoint(-math.Pi/2, p)
	px, pz, pnx := mer(prev, a1, tx)
	py, _, pny := mer(prev, a2, ty)
	for i := 1; i <= n; i++ {
		q := unitPoint(-math.Pi/2+math.Pi*float64(i)/n, p)
		x, z, nx := mer(q, a1, tx)
		y, _, ny := mer(q, a2, ty)
		lx, ly := math.Hypot(x-px, z-pz), math.Hypot(y-py, z-pz)
		g.ds[i-1] = 0.5 * (lx + ly)
		// The xz meridian of a shape long in x is longer than the average.
		g.dm[i-1] = math.Max(lx, ly)
		g.dt[i-1] = 0.5 * (math.Abs(nx-pnx) + math.Abs(ny-pny))
		px, pz, pnx, py, pny = x, z, nx, y, ny
	}
	return g.table(n)
}

// profile places the n2−1 rings between the poles.
func (g *Grid) profile(s *geom.Superovoid, n2 int) {
	g.profileTable(s)
	p := 2 / s.Eps[1]
	const n = 2 * tableN
	T := g.cum[n]
	g.ze = g.ze[:0]
	for j := 1; j < n2; j++ {
		phi := -math.Pi/2 + math.Pi*g.invert(T*float64(j)/float64(n2))/n
		g.ze = append(g.ze, unitPoint(phi, p))
	}
}

// assemble writes vertices, exact normals and triangles. With the section
// point (c, s) and the profile point (C, S), u = c·C, v = s·C, w = S, and
// the gradient of G (up to the positive factor 2/e2) factors into
//
//	(C^(q−1)·spow(c,p−1)/(a1·cx), C^(q−1)·spow(s,p−1)/(a2·cy),
//	 (spow(S,q−1) − C^q·(|c|^p·tx/cx + |s|^p·ty/cy))/a3)
//
// with p = 2/e1, q = 2/e2: the same gradient as geom's, from the per-curve
// powers, so no transcendental function is evaluated per vertex.
func (g *Grid) assemble(s *geom.Superovoid, n1, n2 int) {
	a1, a2, a3 := s.A[0], s.A[1], s.A[2]
	tx, ty := s.Taper[0], s.Taper[1]
	m := &g.mesh
	m.Reset()
	m.Positions = append(m.Positions, geom.Vec3{0, 0, -a3})
	m.Normals = append(m.Normals, geom.Vec3{0, 0, -1})
	for _, z := range g.ze {
		cx, cy := 1+tx*z.s, 1+ty*z.s
		X, Y, Z := a1*cx*z.c, a2*cy*z.c, a3*z.s
		// z.cd = C^(q−1) (C ≥ 0); C^q = C·C^(q−1).
		cq := z.c * z.cd
		for _, a := range g.az {
			m.Positions = append(m.Positions, geom.Vec3{X * a.c, Y * a.s, Z})
			n := geom.Vec3{
				z.cd * a.cd / (a1 * cx),
				z.cd * a.sd / (a2 * cy),
				(z.sd - cq*(a.cp*tx/cx+(1-a.cp)*ty/cy)) / a3,
			}
			m.Normals = append(m.Normals, n.Mul(1/n.Len()))
		}
	}
	m.Positions = append(m.Positions, geom.Vec3{0, 0, a3})
	m.Normals = append(m.Normals, geom.Vec3{0, 0, 1})
	N1 := uint32(n1)
	ring := func(j, k uint32) uint32 { return 1 + j*N1 + k%N1 }
	for k := uint32(0); k < N1; k++ {
		m.Indices = append(m.Indices, 0, ring(0, k+1), ring(0, k))
	}
	for j := uint32(0); j+1 < uint32(len(g.ze)); j++ {
		for k := uint32(0); k < N1; k++ {
			a, b := ring(j, k), ring(j, k+1)
			c, d := ring(j+1, k+1), ring(j+1, k)
			m.Indices = append(m.Indices, a, b, c, a, c, d)
		}
	}
	top := uint32(len(m.Positions) - 1)
	last := uint32(len(g.ze) - 1)
	for k := uint32(0); k < N1; k++ {
		m.Indices = append(m.Indices, ring(last, k), ring(last, k+1), top)
	}
}
