#version 410 core
// Round dots of a size in pixels.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec4 aColor;
layout(location = 2) in float aSize;
uniform mat4 uViewProj;
out vec4 vColor;
void main() {
    vColor = aColor;
    gl_PointSize = aSize;
    gl_Position = uViewProj * vec4(aPos, 1.0);
}
