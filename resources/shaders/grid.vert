#version 450
// Ground plane vertex shader: expands each plane instance into a square of half size scale.x in
// its local z = 0 plane, centred at local (scale.y, scale.z) (the renderer keeps it under the
// camera's target, so an infinite plane never ends in view), as two triangles from
// gl_VertexIndex, no vertex buffer.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// instance: rows of the 3x4 plane-to-world transform, scale (half, centre x, centre y, cell), colour
layout(location = 3) in vec4 in_row0;
layout(location = 4) in vec4 in_row1;
layout(location = 5) in vec4 in_row2;
layout(location = 6) in vec4 in_scale;
layout(location = 7) in vec4 in_color;

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec2 out_local;
layout(location = 2) flat out vec3 out_normal;
layout(location = 3) flat out vec4 out_color;
layout(location = 4) flat out vec2 out_grid;
layout(location = 5) flat out vec2 out_centre;

// corners of the two counter-clockwise triangles (seen from +z)
const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1),
                                vec2(-1, 1));

void main() {
  out_centre = in_scale.yz;
  out_local = out_centre + kCorners[gl_VertexIndex] * in_scale.x;
  vec4 local = vec4(out_local, 0.0, 1.0);
  out_world = vec3(dot(in_row0, local), dot(in_row1, local), dot(in_row2, local));
  out_normal = normalize(vec3(in_row0.z, in_row1.z, in_row2.z));
  out_color = in_color;
  out_grid = vec2(in_scale.w, in_scale.x);
  gl_Position = frame.matrix * vec4(out_world, 1.0);
}
