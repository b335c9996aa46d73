#version 450
// Shape fragment shader: lit, hazed colour of closed primitive shapes.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// true when the colour attachment is UNORM and the shader must write sRGB-encoded values
layout(constant_id = 0) const bool kEncodeSrgb = false;

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_color;

layout(location = 0) out vec4 out_color;

void main() {
  vec3 color = Shade(in_color.rgb, normalize(in_normal), in_world);
  color = ApplyHaze(color, in_world);
  out_color = vec4(kEncodeSrgb ? EncodeSrgb(color) : color, 1.0);
}
