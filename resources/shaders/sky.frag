#version 450
// Sky fragment shader: vertical gradient from the horizon colour to the zenith colour along the
// world up axis.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(constant_id = 0) const bool kEncodeSrgb = false;

layout(location = 0) in vec4 in_far_point;

layout(location = 0) out vec4 out_color;

void main() {
  // world point on the far plane under this pixel, then the unit ray from the eye to it
  vec3 dir = normalize(in_far_point.xyz / in_far_point.w - frame.eye.xyz);
  vec3 color = SkyColor(dir);
  out_color = vec4(kEncodeSrgb ? EncodeSrgb(color) : color, 1.0);
}
