#version 410 core
// Wide lines: each segment becomes a screen-space quad in line.geom.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec4 aColor;
layout(location = 2) in float aWidth;
uniform mat4 uViewProj;
out vec4 gColor;
out float gWidth;
void main() {
    gColor = aColor;
    gWidth = aWidth;
    gl_Position = uViewProj * vec4(aPos, 1.0);
}
