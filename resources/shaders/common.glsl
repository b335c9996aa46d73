// Shared by the scene renderer's shaders: the per-frame push constants, the key light's shadow
// map, the sky and light colours, the lighting model (shadowed key light + hemisphere ambient +
// camera fill + Blinn-Phong specular), the distance haze and the linear -> sRGB encoding used when
// the colour attachment is UNORM.
// All colours are linear RGB. Keep the colours in sync with render/scene_renderer.cpp.
// No branch may test uniforms (push constants, uniform blocks) alone: Mesa 22.3's lavapipe then
// compiles a copy of the shader with those values inlined at every pipeline bind and never frees it
// (about 1.3 MB per frame). Specialization constants and per-vertex/pixel values are fine.

// per-frame constants (128 bytes, the most every device offers)
layout(push_constant) uniform FrameConstants {
  mat4 matrix;     // world -> clip for geometry; clip -> world for the sky
  vec4 eye;        // xyz: eye position [m]
  vec4 up;         // xyz: world up (unit)
  vec4 light_dir;  // xyz: unit direction towards the key light; w: haze start distance [m]
  vec4 draw;       // per draw: rgb the mesh part's colour, a an opacity factor of the pass
} frame;

// key light shadow map (set 0): light view-projection and its depth map; a frame without a map
// gets a matrix that puts every point outside it. params.y: normal offset [m] against acne;
// params.z: penumbra radius in map coordinates
layout(set = 0, binding = 0) uniform ShadowData {
  mat4 light_matrix;
  vec4 params;
} shadow;
layout(set = 0, binding = 1) uniform sampler2DShadow shadow_map;

// neutral grey-blue sky: horizon (also ClearColor()) and zenith
const vec3 kSkyHorizon = vec3(0.515, 0.577, 0.658);
const vec3 kSkyZenith = vec3(0.107, 0.162, 0.262);

// light rig: warm key, cool sky ambient, darker warm bounce from the ground, faint camera fill
const vec3 kKeyColor = vec3(1.00, 0.96, 0.90) * 0.95;
const vec3 kAmbientSky = vec3(0.34, 0.38, 0.45);
const vec3 kAmbientGround = vec3(0.12, 0.11, 0.10);
const float kFillStrength = 0.12;
const float kSpecularStrength = 0.22;
const float kShininess = 48.0;

// sky colour seen along the unit direction `dir`: horizon below the horizon, zenith above (the
// square root of the elevation's sine: a gradient that stays pale near the horizon)
vec3 SkyColor(vec3 dir) {
  float elevation = clamp(dot(dir, frame.up.xyz), 0.0, 1.0);
  return mix(kSkyHorizon, kSkyZenith, sqrt(elevation));
}

// fraction of the key light reaching world point `p` with unit normal `n`: the centre tap and
// kShadowTaps comparison taps on a Poisson disk of radius params.z (each tap bilinear where the
// device filters depth), for a soft penumbra without banding; 1 outside the map. Specialization
// constant 1 (DeviceContext::quality): 12, or 0 on software rasterizers (lavapipe) in the studio,
// where each tap costs about a millisecond per frame over the ground alone, so shadows get the
// bilinear tap's hard edge.
const vec2 kPoissonDisk[12] = vec2[](
    vec2(-0.326, -0.406), vec2(-0.840, -0.074), vec2(-0.696, 0.457), vec2(-0.203, 0.621),
    vec2(0.962, -0.195), vec2(0.473, -0.480), vec2(0.519, 0.767), vec2(0.185, -0.893),
    vec2(0.507, 0.064), vec2(0.896, 0.412), vec2(-0.322, -0.933), vec2(-0.792, -0.598));

layout(constant_id = 1) const int kShadowTaps = 12;

float KeyLightVisibility(vec3 p, vec3 n) {
  vec4 clip = shadow.light_matrix * vec4(p + n * shadow.params.y, 1.0);
  vec2 uv = clip.xy * 0.5 + 0.5;
  if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)))) return 1.0;
  // receivers beyond the casters' far side compare at the far plane
  float depth = min(clip.z, 1.0);
  float lit = texture(shadow_map, vec3(uv, depth));
  for (int i = 0; i < kShadowTaps; ++i) {
    lit += texture(shadow_map, vec3(uv + kPoissonDisk[i] * shadow.params.z, depth));
  }
  return lit / float(kShadowTaps + 1);
}

// lit colour of a surface point with albedo `albedo`, unit normal `n` at world position `p`
vec3 Shade(vec3 albedo, vec3 n, vec3 p) {
  vec3 to_eye = normalize(frame.eye.xyz - p);
  vec3 to_light = frame.light_dir.xyz;
  float hemisphere = 0.5 + 0.5 * dot(n, frame.up.xyz);
  vec3 ambient = mix(kAmbientGround, kAmbientSky, hemisphere);
  float key = max(dot(n, to_light), 0.0);
  if (key > 0.0) key *= KeyLightVisibility(p, n);
  float fill = max(dot(n, to_eye), 0.0) * kFillStrength;
  // Blinn-Phong highlight of the key light, faded in with the lambert term to avoid a seam
  vec3 half_vector = normalize(to_light + to_eye);
  float specular = pow(max(dot(n, half_vector), 0.0), kShininess) * kSpecularStrength *
                   smoothstep(0.0, 0.15, key);
  return albedo * (ambient + kKeyColor * key + vec3(fill)) + kKeyColor * specular;
}

// Shade without the camera-dependent terms (fill light, specular): the ground
vec3 ShadeMatte(vec3 albedo, vec3 n, vec3 p) {
  float hemisphere = 0.5 + 0.5 * dot(n, frame.up.xyz);
  vec3 ambient = mix(kAmbientGround, kAmbientSky, hemisphere);
  float key = max(dot(n, frame.light_dir.xyz), 0.0);
  if (key > 0.0) key *= KeyLightVisibility(p, n);
  return albedo * (ambient + kKeyColor * key);
}

// aerial perspective: blends far surfaces into the horizon colour (hides the ground's edge)
// (on squared distances, which saves a square root per pixel)
vec3 ApplyHaze(vec3 color, vec3 p) {
  float start = frame.light_dir.w;
  vec3 d = p - frame.eye.xyz;
  float haze = smoothstep(start * start, 16.0 * start * start, dot(d, d));
  return mix(color, kSkyHorizon, haze);
}

// exact sRGB transfer function (IEC 61966-2-1) for UNORM attachments
vec3 EncodeSrgb(vec3 linear) {
  linear = clamp(linear, 0.0, 1.0);
  vec3 low = linear * 12.92;
  vec3 high = 1.055 * pow(linear, vec3(1.0 / 2.4)) - 0.055;
  return mix(high, low, lessThanEqual(linear, vec3(0.0031308)));
}
