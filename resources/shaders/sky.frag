#version 450
// Sky fragment shader: vertical gradient from the horizon colour to the zenith colour along the
// world up axis; frame.matrix is the inverse view-projection here.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(constant_id = 0) const bool kEncodeSrgb = false;

layout(location = 0) in vec2 in_ndc;

layout(location = 0) out vec4 out_color;

void main() {
  // world point on the far plane under this pixel, then the unit ray from the eye to it
  vec4 far_point = frame.matrix * vec4(in_ndc, 1.0, 1.0);
  vec3 dir = normalize(far_point.xyz / far_point.w - frame.eye.xyz);
  vec3 color = SkyColor(dir);
  out_color = vec4(kEncodeSrgb ? EncodeSrgb(color) : color, 1.0);
}
