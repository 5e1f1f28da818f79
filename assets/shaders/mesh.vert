#version 410 core
// Lit meshes: positions and exact normals in the object's local frame.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
uniform mat4 uModel;
uniform mat4 uViewProj;
out vec3 vNormal;
out vec3 vWorld;
void main() {
    vec4 w = uModel * vec4(aPos, 1.0);
    vWorld = w.xyz;
    // Rigid transforms only: the rotation part maps normals too.
    vNormal = mat3(uModel) * aNormal;
    gl_Position = uViewProj * w;
}
