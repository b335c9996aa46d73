#version 450
// Shape fragment shader (instanced shapes, VisualMeshes, soft-body surfaces): lit, hazed colour.
// The albedo is the instance colour, or for a mesh part drawn with its own material the part's
// colour (frame.draw.rgb) times its diffuse texture. params: x 1 = part material; y selection
// highlight strength; z desaturation of the strain and contacts views (context recedes).
// Alpha = instance opacity × frame.draw.a (see-through passes blend it).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// true when the colour attachment is UNORM and the shader must write sRGB-encoded values
layout(constant_id = 0) const bool kEncodeSrgb = false;

// the part's diffuse texture (white 1x1 when it has none), sRGB-decoded by the sampler
layout(set = 1, binding = 0) uniform sampler2D albedo_map;

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_color;
layout(location = 3) in vec2 in_uv;
layout(location = 4) in vec4 in_params;

layout(location = 0) out vec4 out_color;

// selection highlight (linear warm orange)
const vec3 kHighlight = vec3(1.0, 0.42, 0.05);

void main() {
  vec3 albedo = in_color.rgb;
  // mesh uvs follow the OpenGL/assimp convention (v up from the image's bottom row)
  if (in_params.x > 0.5) albedo = frame.draw.rgb * texture(albedo_map, vec2(in_uv.x, 1.0 - in_uv.y)).rgb;
  // receding context: towards a light grey of the same luminance
  float luminance = dot(albedo, vec3(0.2126, 0.7152, 0.0722));
  albedo = mix(albedo, vec3(0.15 + 0.7 * luminance), in_params.z);

  // two-sided: faces seen from behind (open meshes drawn without culling) light like the front
  vec3 n = normalize(in_normal);
  if (!gl_FrontFacing) n = -n;
  vec3 color = Shade(albedo, n, in_world);

  // selection: tint and a rim that outlines the silhouette
  if (in_params.y > 0.0) {
    float facing = max(dot(n, normalize(frame.eye.xyz - in_world)), 0.0);
    float rim = pow(1.0 - facing, 2.0);
    color = mix(color, kHighlight, 0.3 * in_params.y) + kHighlight * (0.9 * rim * in_params.y);
  }
  color = ApplyHaze(color, in_world);
  out_color = vec4(kEncodeSrgb ? EncodeSrgb(color) : color, in_color.a * frame.draw.a);
}
