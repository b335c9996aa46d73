#version 450
// Soft-body surface vertex shader: world-space vertices with their own normals and colours
// (material colour, or the strain map's), rewritten every frame. Also the vertex stage of the
// shadow pass.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_color;

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec4 out_color;
layout(location = 3) out vec2 out_uv;
layout(location = 4) out vec4 out_params;

void main() {
  out_world = in_position;
  out_normal = in_normal;
  out_color = in_color;
  out_uv = vec2(0.0);
  out_params = vec4(0.0);  // own colours, no highlight, no desaturation
  gl_Position = frame.matrix * vec4(in_position, 1.0);
}
