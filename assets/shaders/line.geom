#version 410 core
// Core profiles only promise 1-pixel lines: expand every segment into a quad
// of the requested width in pixels.
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 gColor[];
in float gWidth[];
uniform vec2 uViewport;
out vec4 fColor;
void main() {
    vec4 a = gl_in[0].gl_Position;
    vec4 b = gl_in[1].gl_Position;
    // Clip against the near plane so that w stays positive.
    float eps = 1e-5;
    if (a.w < eps && b.w < eps) return;
    if (a.w < eps) a = mix(a, b, (eps - a.w) / (b.w - a.w));
    if (b.w < eps) b = mix(b, a, (eps - b.w) / (a.w - b.w));
    vec2 sa = a.xy / a.w * uViewport * 0.5;
    vec2 sb = b.xy / b.w * uViewport * 0.5;
    vec2 d = sb - sa;
    float len = length(d);
    vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
    vec2 nrm = vec2(-dir.y, dir.x);
    vec2 offA = nrm * gWidth[0] * 0.5 / (uViewport * 0.5) * a.w;
    vec2 offB = nrm * gWidth[1] * 0.5 / (uViewport * 0.5) * b.w;
    fColor = gColor[0]; gl_Position = vec4(a.xy + offA, a.zw); EmitVertex();
    fColor = gColor[0]; gl_Position = vec4(a.xy - offA, a.zw); EmitVertex();
    fColor = gColor[1]; gl_Position = vec4(b.xy + offB, b.zw); EmitVertex();
    fColor = gColor[1]; gl_Position = vec4(b.xy - offB, b.zw); EmitVertex();
    EndPrimitive();
}
