#version 410 core
// A disc with a dark rim, so that a dot reads on any background; the centre
// keeps the exact overlay colour (the GUI tests look for it).
in vec4 vColor;
out vec4 fragColor;
void main() {
    vec2 c = gl_PointCoord * 2.0 - 1.0;
    float r = dot(c, c);
    if (r > 1.0) discard;
    fragColor = r > 0.62 ? vec4(0.05, 0.05, 0.05, vColor.a) : vColor;
}
