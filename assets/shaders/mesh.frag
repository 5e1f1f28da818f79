#version 410 core
// Headlight Blinn-Phong with a sky/ground ambient term; two-sided so that
// the inside of a clipped or transparent body still reads as a surface.
in vec3 vNormal;
in vec3 vWorld;
uniform vec4 uColor;
uniform vec3 uEye;
uniform bool uFlat;      // wireframe and outline passes: plain colour
uniform vec3 uKeyDir;    // direction towards the key light (world)
out vec4 fragColor;
void main() {
    if (uFlat) {
        fragColor = uColor;
        return;
    }
    vec3 n = normalize(vNormal);
    vec3 v = normalize(uEye - vWorld);
    if (!gl_FrontFacing) n = -n;
    vec3 l = normalize(uKeyDir);
    float hemi = 0.5 + 0.5 * n.z;
    vec3 ambient = mix(vec3(0.18, 0.17, 0.16), vec3(0.32, 0.34, 0.38), hemi);
    float diff = max(dot(n, l), 0.0);
    float head = max(dot(n, v), 0.0);
    vec3 h = normalize(l + v);
    float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.35;
    vec3 c = uColor.rgb * (ambient + 0.55 * diff + 0.35 * head) + vec3(spec);
    fragColor = vec4(c, uColor.a);
}
