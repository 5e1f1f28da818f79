#version 410 core
// Headlight Blinn-Phong with a sky/ground ambient term; two-sided so that
// the inside of a clipped or transparent body still reads as a surface.
// Compiled a second time with WIRE defined (after mesh.geom): the triangle
// edges are blended in uWireColor, and the edges of triangles only a few
// pixels tall fade out, so a fine mesh far away reads as a surface rather
// than a dark blot.
in Surface {
    vec3 normal;
    vec3 world;
} fs;
#ifdef WIRE
noperspective in vec3 vDist;
flat in float vMinH;
uniform vec4 uWireColor;
#endif
uniform vec4 uColor;
uniform vec3 uEye;
uniform vec3 uKeyDir;   // direction towards the key light (world)
out vec4 fragColor;
void main() {
    vec3 n = normalize(fs.normal);
    vec3 v = normalize(uEye - fs.world);
    if (!gl_FrontFacing) n = -n;
    vec3 l = normalize(uKeyDir);
    float hemi = 0.5 + 0.5 * n.z;
    vec3 ambient = mix(vec3(0.18, 0.17, 0.16), vec3(0.32, 0.34, 0.38), hemi);
    float diff = max(dot(n, l), 0.0);
    float head = max(dot(n, v), 0.0);
    vec3 h = normalize(l + v);
    float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.35;
    vec3 c = uColor.rgb * (ambient + 0.55 * diff + 0.35 * head) + vec3(spec);
    float a = uColor.a;
#ifdef WIRE
    float d = min(vDist.x, min(vDist.y, vDist.z));
    float f = exp2(-2.0 * d * d) * smoothstep(2.0, 6.0, vMinH) * uWireColor.a;
    c = mix(c, uWireColor.rgb, f);
    a = max(a, f);
#endif
    fragColor = vec4(c, a);
}
