#version 450
// Shadow pass vertex shader: the shape vertex transform of shape.vert, projected by the key
// light's view-projection (frame.matrix in this pass). Depth only, no fragment shader.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 2) in float in_cap_sign;
layout(location = 3) in vec4 in_row0;
layout(location = 4) in vec4 in_row1;
layout(location = 5) in vec4 in_row2;
layout(location = 6) in vec4 in_scale;

void main() {
  vec3 local = in_scale.xyz * in_position + vec3(0.0, 0.0, in_cap_sign * in_scale.w);
  vec4 world = vec4(dot(in_row0, vec4(local, 1.0)), dot(in_row1, vec4(local, 1.0)),
                    dot(in_row2, vec4(local, 1.0)), 1.0);
  gl_Position = frame.matrix * world;
}
