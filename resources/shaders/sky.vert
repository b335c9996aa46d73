#version 450
// Sky vertex shader: one triangle covering the whole viewport (no vertex buffer) at the far
// plane; passes on the homogeneous world point under each corner (frame.matrix is the inverse
// view-projection here), which is linear across the screen, so the fragment shader only divides.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) out vec4 out_far_point;

void main() {
  // (-1,-1), (3,-1), (-1,3): the triangle contains the [-1,1]^2 square
  vec2 ndc = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2)) * 2.0 - 1.0;
  out_far_point = frame.matrix * vec4(ndc, 1.0, 1.0);
  gl_Position = vec4(ndc, 1.0, 1.0);
}
