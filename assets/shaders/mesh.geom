#version 410 core
// Single-pass wireframe (used only for meshes with their edges on): each
// fragment learns its distance in pixels to the three edges of its
// triangle, so the fragment shader draws the edges without a second,
// line-mode pass (slow on software rasterisers).
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in Surface {
    vec3 normal;
    vec3 world;
} gin[];
out Surface {
    vec3 normal;
    vec3 world;
} gout;
uniform vec2 uViewport;
noperspective out vec3 vDist;
flat out float vMinH;
void main() {
    vec2 p[3];
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        vec4 c = gl_in[i].gl_Position;
        if (c.w <= 1e-6) ok = false;
        p[i] = c.xy / max(c.w, 1e-6) * uViewport * 0.5;
    }
    float area = abs((p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x));
    float h0 = area / max(length(p[2] - p[1]), 1e-6);
    float h1 = area / max(length(p[2] - p[0]), 1e-6);
    float h2 = area / max(length(p[1] - p[0]), 1e-6);
    float minH = ok ? min(h0, min(h1, h2)) : 0.0;
    vec3 d[3] = vec3[3](vec3(h0, 0.0, 0.0), vec3(0.0, h1, 0.0), vec3(0.0, 0.0, h2));
    for (int i = 0; i < 3; i++) {
        gout.normal = gin[i].normal;
        gout.world = gin[i].world;
        vDist = ok ? d[i] : vec3(1e4);
        vMinH = minH;
        gl_Position = gl_in[i].gl_Position;
        EmitVertex();
    }
    EndPrimitive();
}
