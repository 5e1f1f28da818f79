// Package render draws a drawlist.DrawList with OpenGL 4.1 core: lit meshes
// with exact normals, optional wireframe, transparency sorted back to front,
// wide lines and round points for the grid and the contact overlays. It
// converts float64 to float32 here, at the GPU boundary, and nowhere else.
// Labels are text and are drawn by the UI layer (Dear ImGui) on top.
//
// A Renderer needs a current OpenGL context; it is not safe for concurrent
// use. Target renders offscreen into a multisampled framebuffer and reads
// the image back (used by "sovviz render" and the GUI tests).
package render

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/sovviz/sovviz/assets"
	"github.com/sovviz/sovviz/render/drawlist"
)

// Background is the clear colour.
var Background = drawlist.Color{0.16, 0.17, 0.19, 1}

// gpuMesh is an uploaded mesh.
type gpuMesh struct {
	vao, vbo, ebo uint32
	count         int32
	version       uint64
	lastUsed      uint64
}

// program is a linked shader program and its uniform locations.
type program struct {
	id       uint32
	uniforms map[string]int32
}

func (p *program) loc(name string) int32 { return p.uniforms[name] }

// Renderer draws draw lists. Create it with New once the GL context is
// current.
type Renderer struct {
	mesh, wire, line, point program
	meshes                  map[*drawlist.Mesh]*gpuMesh
	frame                   uint64
	lineVAO, lineVBO        uint32
	ptVAO, ptVBO            uint32
	lineBuf, ptBuf          []float32
	// Stats of the last Draw.
	Triangles int
}

// vertex layout of lines and points: position (3), colour (4), width or size (1).
const overlayStride = 8

// New compiles the shaders and creates the buffers. The OpenGL context must
// be current on the calling goroutine; gl.Init is called here.
func New() (*Renderer, error) {
	if err := gl.Init(); err != nil {
		return nil, fmt.Errorf("render: OpenGL init: %w", err)
	}
	r := &Renderer{meshes: map[*drawlist.Mesh]*gpuMesh{}}
	var err error
	meshUniforms := []string{"uModel", "uViewProj", "uColor", "uEye", "uKeyDir", "uViewport", "uWireColor"}
	if r.mesh, err = link([]string{"mesh.vert", "mesh.frag"}, "", meshUniforms...); err != nil {
		return nil, err
	}
	if r.wire, err = link([]string{"mesh.vert", "mesh.geom", "mesh.frag"}, "#define WIRE 1\n", meshUniforms...); err != nil {
		return nil, err
	}
	if r.line, err = link([]string{"line.vert", "line.geom", "line.frag"}, "", "uViewProj", "uViewport"); err != nil {
		return nil, err
	}
	if r.point, err = link([]string{"point.vert", "point.frag"}, "", "uViewProj"); err != nil {
		return nil, err
	}
	r.lineVAO, r.lineVBO = overlayVAO()
	r.ptVAO, r.ptVBO = overlayVAO()
	return r, nil
}

// Version returns the OpenGL version and renderer strings of the context.
func Version() string {
	return gl.GoStr(gl.GetString(gl.VERSION)) + " / " + gl.GoStr(gl.GetString(gl.RENDERER))
}

func overlayVAO() (vao, vbo uint32) {
	gl.GenVertexArrays(1, &vao)
	gl.GenBuffers(1, &vbo)
	gl.BindVertexArray(vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, vbo)
	const s = overlayStride * 4
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, s, 0)
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 4, gl.FLOAT, false, s, 3*4)
	gl.EnableVertexAttribArray(2)
	gl.VertexAttribPointerWithOffset(2, 1, gl.FLOAT, false, s, 7*4)
	gl.BindVertexArray(0)
	return vao, vbo
}

// link compiles and links the named shader files (the stage follows the
// extension); defines is inserted after each file's #version line.
func link(files []string, defines string, uniforms ...string) (program, error) {
	p := program{id: gl.CreateProgram(), uniforms: map[string]int32{}}
	var shaders []uint32
	kinds := map[string]uint32{"vert": gl.VERTEX_SHADER, "geom": gl.GEOMETRY_SHADER, "frag": gl.FRAGMENT_SHADER}
	for _, f := range files {
		src, err := assets.Shader(f)
		if err != nil {
			return p, err
		}
		if defines != "" {
			if i := strings.IndexByte(src, '\n'); i >= 0 {
				src = src[:i+1] + defines + src[i+1:]
			}
		}
		sh, err := compile(src, kinds[f[strings.LastIndexByte(f, '.')+1:]])
		if err != nil {
			return p, fmt.Errorf("render: shader %s: %w", f, err)
		}
		gl.AttachShader(p.id, sh)
		shaders = append(shaders, sh)
	}
	gl.LinkProgram(p.id)
	var ok int32
	gl.GetProgramiv(p.id, gl.LINK_STATUS, &ok)
	for _, sh := range shaders {
		gl.DeleteShader(sh)
	}
	if ok == gl.FALSE {
		return p, fmt.Errorf("render: link %s: %s", strings.Join(files, " "), programLog(p.id))
	}
	for _, u := range uniforms {
		p.uniforms[u] = gl.GetUniformLocation(p.id, gl.Str(u+"\x00"))
	}
	return p, nil
}

func compile(src string, kind uint32) (uint32, error) {
	sh := gl.CreateShader(kind)
	csrc, free := gl.Strs(src + "\x00")
	gl.ShaderSource(sh, 1, csrc, nil)
	free()
	gl.CompileShader(sh)
	var ok int32
	gl.GetShaderiv(sh, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		var n int32
		gl.GetShaderiv(sh, gl.INFO_LOG_LENGTH, &n)
		log := strings.Repeat("\x00", int(n+1))
		gl.GetShaderInfoLog(sh, n, nil, gl.Str(log))
		gl.DeleteShader(sh)
		return 0, fmt.Errorf("%s", strings.TrimRight(log, "\x00"))
	}
	return sh, nil
}

func programLog(id uint32) string {
	var n int32
	gl.GetProgramiv(id, gl.INFO_LOG_LENGTH, &n)
	log := strings.Repeat("\x00", int(n+1))
	gl.GetProgramInfoLog(id, n, nil, gl.Str(log))
	return strings.TrimRight(log, "\x00")
}

// mat32 converts a matrix to float32 for the GPU.
func mat32(m *mgl64.Mat4) [16]float32 {
	var o [16]float32
	for i := range 16 {
		o[i] = float32(m[i])
	}
	return o
}

// upload returns the GPU copy of m, uploading it when new or changed.
func (r *Renderer) upload(m *drawlist.Mesh) *gpuMesh {
	g := r.meshes[m]
	if g != nil && g.version == m.Version {
		g.lastUsed = r.frame
		return g
	}
	if g == nil {
		g = &gpuMesh{}
		gl.GenVertexArrays(1, &g.vao)
		gl.GenBuffers(1, &g.vbo)
		gl.GenBuffers(1, &g.ebo)
		r.meshes[m] = g
	}
	n := min(len(m.Positions), len(m.Normals))
	buf := make([]float32, 0, 6*n)
	for i := 0; i < n; i++ {
		p, q := m.Positions[i], m.Normals[i]
		buf = append(buf, float32(p[0]), float32(p[1]), float32(p[2]), float32(q[0]), float32(q[1]), float32(q[2]))
	}
	gl.BindVertexArray(g.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, g.vbo)
	if len(buf) > 0 {
		gl.BufferData(gl.ARRAY_BUFFER, len(buf)*4, gl.Ptr(buf), gl.STATIC_DRAW)
	}
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, 24, 0)
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 3, gl.FLOAT, false, 24, 12)
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, g.ebo)
	// Drop indices that point past the vertices rather than read garbage.
	idx := make([]uint32, 0, len(m.Indices))
	for t := 0; t+2 < len(m.Indices); t += 3 {
		a, b, c := m.Indices[t], m.Indices[t+1], m.Indices[t+2]
		if int(a) < n && int(b) < n && int(c) < n {
			idx = append(idx, a, b, c)
		}
	}
	if len(idx) > 0 {
		gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, len(idx)*4, gl.Ptr(idx), gl.STATIC_DRAW)
	}
	gl.BindVertexArray(0)
	g.count = int32(len(idx))
	g.version = m.Version
	g.lastUsed = r.frame
	return g
}

// evict frees meshes not drawn for a while (objects deleted or re-meshed).
func (r *Renderer) evict() {
	for m, g := range r.meshes {
		if r.frame-g.lastUsed > 120 {
			gl.DeleteVertexArrays(1, &g.vao)
			gl.DeleteBuffers(1, &g.vbo)
			gl.DeleteBuffers(1, &g.ebo)
			delete(r.meshes, m)
		}
	}
}

// Draw renders d as seen by cam into the bound framebuffer, over the whole
// cam.Width × cam.Height viewport. It clears colour and depth first.
func (r *Renderer) Draw(d *drawlist.DrawList, cam *drawlist.Camera) {
	r.frame++
	gl.Viewport(0, 0, int32(cam.Width), int32(cam.Height))
	gl.ClearColor(Background[0], Background[1], Background[2], Background[3])
	gl.ClearDepth(1)
	gl.Clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT)
	gl.Enable(gl.MULTISAMPLE)
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LEQUAL)
	gl.Disable(gl.SCISSOR_TEST)
	gl.Disable(gl.CULL_FACE)
	gl.Disable(gl.STENCIL_TEST)
	gl.PolygonMode(gl.FRONT_AND_BACK, gl.FILL)

	vp := cam.ViewProj()
	vp32 := mat32(&vp)
	eye := cam.Eye()
	right, up, back := cam.Basis()
	// Key light from the upper left behind the viewer.
	key := back.Mul(0.8).Add(up.Mul(0.5)).Sub(right.Mul(0.4))

	r.Triangles = 0
	for _, p := range []*program{&r.wire, &r.mesh} {
		gl.UseProgram(p.id)
		gl.UniformMatrix4fv(p.loc("uViewProj"), 1, false, &vp32[0])
		gl.Uniform3f(p.loc("uEye"), float32(eye[0]), float32(eye[1]), float32(eye[2]))
		gl.Uniform3f(p.loc("uKeyDir"), float32(key[0]), float32(key[1]), float32(key[2]))
		gl.Uniform2f(p.loc("uViewport"), float32(cam.Width), float32(cam.Height))
	}

	// Opaque meshes (the list puts them first), pushed back a little so
	// that depth-tested lines on the surface win.
	gl.Disable(gl.BLEND)
	gl.Enable(gl.POLYGON_OFFSET_FILL)
	gl.PolygonOffset(1, 1)
	firstTransparent := len(d.Meshes)
	for i := range d.Meshes {
		it := &d.Meshes[i]
		if it.Color[3] < 1 {
			firstTransparent = i
			break
		}
		r.drawMesh(it)
	}
	gl.Disable(gl.POLYGON_OFFSET_FILL)

	r.drawOverlays(d, &vp32, cam, false)

	// Transparent meshes back to front: back faces then front faces of each,
	// without writing depth, so both sides of every body show through.
	if firstTransparent < len(d.Meshes) {
		gl.UseProgram(r.mesh.id)
		gl.Enable(gl.BLEND)
		gl.BlendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
		gl.DepthMask(false)
		gl.Enable(gl.CULL_FACE)
		for i := firstTransparent; i < len(d.Meshes); i++ {
			it := &d.Meshes[i]
			gl.CullFace(gl.FRONT)
			r.drawMesh(it)
			gl.CullFace(gl.BACK)
			r.drawMesh(it)
		}
		gl.Disable(gl.CULL_FACE)
		gl.DepthMask(true)
	}

	// Overlays on top of everything.
	gl.Disable(gl.DEPTH_TEST)
	r.drawOverlays(d, &vp32, cam, true)
	gl.Enable(gl.DEPTH_TEST)
	gl.Disable(gl.BLEND)
	gl.BindVertexArray(0)
	gl.UseProgram(0)
	r.Triangles = 0
	for i := range d.Meshes {
		if g := r.meshes[d.Meshes[i].Mesh]; g != nil {
			r.Triangles += int(g.count / 3)
		}
	}
	if r.frame%60 == 0 {
		r.evict()
	}
}

// Edge colours of the single-pass wireframe (mesh.geom, mesh.frag).
var (
	selectedColor = drawlist.Color{1, 0.85, 0.3, 0.9}
	wireAlpha     = float32(0.6)
)

// drawMesh draws one mesh item shaded, with its edges when it is selected
// or has the wireframe on.
func (r *Renderer) drawMesh(it *drawlist.MeshItem) {
	if it.Mesh == nil {
		return
	}
	g := r.upload(it.Mesh)
	if g.count == 0 {
		return
	}
	m := mat32(&it.Model)
	c := it.Color
	p := &r.mesh
	if it.Selected || it.Wireframe {
		p = &r.wire
	}
	gl.UseProgram(p.id)
	gl.UniformMatrix4fv(p.loc("uModel"), 1, false, &m[0])
	gl.Uniform4f(p.loc("uColor"), c[0], c[1], c[2], c[3])
	switch {
	case it.Selected:
		w := selectedColor
		gl.Uniform4f(p.loc("uWireColor"), w[0], w[1], w[2], w[3])
	case it.Wireframe:
		// The object's own hue, darker.
		gl.Uniform4f(p.loc("uWireColor"), c[0]*0.35, c[1]*0.35, c[2]*0.35, wireAlpha)
	}
	gl.BindVertexArray(g.vao)
	gl.DrawElementsWithOffset(gl.TRIANGLES, g.count, gl.UNSIGNED_INT, 0)
}

// drawOverlays draws the lines and points with the given OnTop flag.
func (r *Renderer) drawOverlays(d *drawlist.DrawList, vp *[16]float32, cam *drawlist.Camera, onTop bool) {
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
	r.lineBuf = r.lineBuf[:0]
	for i := range d.Lines {
		l := &d.Lines[i]
		if l.OnTop != onTop {
			continue
		}
		r.lineBuf = appendVertex(r.lineBuf, l.A, l.Color, l.Width)
		r.lineBuf = appendVertex(r.lineBuf, l.B, l.Color, l.Width)
	}
	if n := len(r.lineBuf) / overlayStride; n > 0 {
		gl.UseProgram(r.line.id)
		gl.UniformMatrix4fv(r.line.loc("uViewProj"), 1, false, &vp[0])
		gl.Uniform2f(r.line.loc("uViewport"), float32(cam.Width), float32(cam.Height))
		gl.BindVertexArray(r.lineVAO)
		gl.BindBuffer(gl.ARRAY_BUFFER, r.lineVBO)
		gl.BufferData(gl.ARRAY_BUFFER, len(r.lineBuf)*4, unsafe.Pointer(&r.lineBuf[0]), gl.STREAM_DRAW)
		gl.DrawArrays(gl.LINES, 0, int32(n))
	}
	r.ptBuf = r.ptBuf[:0]
	for i := range d.Points {
		p := &d.Points[i]
		if p.OnTop != onTop {
			continue
		}
		r.ptBuf = appendVertex(r.ptBuf, p.P, p.Color, p.Size)
	}
	if n := len(r.ptBuf) / overlayStride; n > 0 {
		gl.Enable(gl.PROGRAM_POINT_SIZE)
		gl.UseProgram(r.point.id)
		gl.UniformMatrix4fv(r.point.loc("uViewProj"), 1, false, &vp[0])
		gl.BindVertexArray(r.ptVAO)
		gl.BindBuffer(gl.ARRAY_BUFFER, r.ptVBO)
		gl.BufferData(gl.ARRAY_BUFFER, len(r.ptBuf)*4, unsafe.Pointer(&r.ptBuf[0]), gl.STREAM_DRAW)
		gl.DrawArrays(gl.POINTS, 0, int32(n))
	}
	gl.Disable(gl.BLEND)
}

func appendVertex(b []float32, p [3]float64, c drawlist.Color, w float32) []float32 {
	return append(b, float32(p[0]), float32(p[1]), float32(p[2]), c[0], c[1], c[2], c[3], w)
}

// Delete frees the GPU objects.
func (r *Renderer) Delete() {
	for m, g := range r.meshes {
		gl.DeleteVertexArrays(1, &g.vao)
		gl.DeleteBuffers(1, &g.vbo)
		gl.DeleteBuffers(1, &g.ebo)
		delete(r.meshes, m)
	}
	gl.DeleteVertexArrays(1, &r.lineVAO)
	gl.DeleteBuffers(1, &r.lineVBO)
	gl.DeleteVertexArrays(1, &r.ptVAO)
	gl.DeleteBuffers(1, &r.ptVBO)
	gl.DeleteProgram(r.mesh.id)
	gl.DeleteProgram(r.wire.id)
	gl.DeleteProgram(r.line.id)
	gl.DeleteProgram(r.point.id)
}
