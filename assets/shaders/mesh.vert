#version 410 core
// Lit meshes: positions and exact normals in the object's local frame.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
uniform mat4 uModel;
uniform mat4 uViewProj;
out Surface {
    vec3 normal;
    vec3 world;
} vs;
void main() {
    vec4 w = uModel * vec4(aPos, 1.0);
    vs.world = w.xyz;
    // Rigid transforms only: the rotation part maps normals too.
    vs.normal = mat3(uModel) * aNormal;
    gl_Position = uViewProj * w;
}
