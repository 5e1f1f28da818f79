package render

import (
	"fmt"
	"image"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Target is an offscreen framebuffer: a multisampled colour+depth buffer
// that is resolved into a single-sample one and read back as an image.
type Target struct {
	Width, Height  int
	Samples        int32
	msFBO, fbo     uint32
	msColor, depth uint32
	color          uint32
}

// NewTarget creates a w×h offscreen target with the given MSAA sample count
// (clamped to what the driver supports; 0 or 1 disables multisampling).
func NewTarget(w, h int, samples int32) (*Target, error) {
	if w <= 0 || h <= 0 || w > 16384 || h > 16384 {
		return nil, fmt.Errorf("render: offscreen size %dx%d out of range [1, 16384]", w, h)
	}
	var maxSamples int32
	gl.GetIntegerv(gl.MAX_SAMPLES, &maxSamples)
	samples = max(1, min(samples, maxSamples))
	t := &Target{Width: w, Height: h, Samples: samples}
	gl.GenFramebuffers(1, &t.msFBO)
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.msFBO)
	gl.GenRenderbuffers(1, &t.msColor)
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.msColor)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, samples, gl.RGBA8, int32(w), int32(h))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, t.msColor)
	gl.GenRenderbuffers(1, &t.depth)
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.depth)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, samples, gl.DEPTH24_STENCIL8, int32(w), int32(h))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_STENCIL_ATTACHMENT, gl.RENDERBUFFER, t.depth)
	if st := gl.CheckFramebufferStatus(gl.FRAMEBUFFER); st != gl.FRAMEBUFFER_COMPLETE {
		t.Delete()
		return nil, fmt.Errorf("render: multisampled framebuffer incomplete (status 0x%x)", st)
	}
	gl.GenFramebuffers(1, &t.fbo)
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fbo)
	gl.GenRenderbuffers(1, &t.color)
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.color)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, int32(w), int32(h))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, t.color)
	if st := gl.CheckFramebufferStatus(gl.FRAMEBUFFER); st != gl.FRAMEBUFFER_COMPLETE {
		t.Delete()
		return nil, fmt.Errorf("render: resolve framebuffer incomplete (status 0x%x)", st)
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return t, nil
}

// Bind makes the target the draw framebuffer.
func (t *Target) Bind() {
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.msFBO)
	gl.Viewport(0, 0, int32(t.Width), int32(t.Height))
}

// Image resolves the samples and reads the pixels back, top row first.
func (t *Target) Image() *image.NRGBA {
	w, h := int32(t.Width), int32(t.Height)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, t.msFBO)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, t.fbo)
	gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, t.fbo)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	img := image.NewNRGBA(image.Rect(0, 0, t.Width, t.Height))
	gl.ReadPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(img.Pix))
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	flipOpaque(img)
	return img
}

// Present resolves the samples into the window's framebuffer (0) and
// leaves it bound, for the UI to draw over. Rendering the scene into a
// Target and presenting it is much faster on software rasterisers than a
// multisampled window, and gives the window and the offscreen renderer the
// same pipeline.
func (t *Target) Present() {
	w, h := int32(t.Width), int32(t.Height)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, t.msFBO)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, 0)
	gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
}

// Delete frees the framebuffers.
func (t *Target) Delete() {
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	for _, f := range []*uint32{&t.msFBO, &t.fbo} {
		if *f != 0 {
			gl.DeleteFramebuffers(1, f)
			*f = 0
		}
	}
	for _, r := range []*uint32{&t.msColor, &t.depth, &t.color} {
		if *r != 0 {
			gl.DeleteRenderbuffers(1, r)
			*r = 0
		}
	}
}

// ReadFramebuffer reads the w×h colour buffer of the bound framebuffer (the
// window's back buffer before the swap), top row first.
func ReadFramebuffer(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadBuffer(gl.BACK)
	gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(img.Pix))
	flipOpaque(img)
	return img
}

// flipOpaque turns OpenGL's bottom-up rows into an image's top-down ones
// and makes every pixel opaque (the framebuffer's alpha is whatever
// blending left).
func flipOpaque(img *image.NRGBA) {
	h := img.Rect.Dy()
	stride := img.Stride
	row := make([]byte, stride)
	for y := 0; y < h/2; y++ {
		a := img.Pix[y*stride : (y+1)*stride]
		b := img.Pix[(h-1-y)*stride : (h-y)*stride]
		copy(row, a)
		copy(a, b)
		copy(b, row)
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
}

// Finish blocks until the GPU has executed every command (for timing).
func Finish() { gl.Finish() }
