#version 450
// Shape vertex shader: places instances of a mesh, either a unit mesh (box, sphere, capsule,
// cylinder, arrow) scaled per instance, with capsule hemispheres and arrow heads pushed along z by
// scale.w, or an uploaded VisualMesh (scale 1). Also the vertex stage of the shadow pass, where
// frame.matrix is the key light's view-projection.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// mesh vertex (binding 0)
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in float in_cap_sign;
layout(location = 8) in vec2 in_uv;
// instance (binding 1): rows of the 3x4 shape-to-world transform, scale, colour, parameters
layout(location = 3) in vec4 in_row0;
layout(location = 4) in vec4 in_row1;
layout(location = 5) in vec4 in_row2;
layout(location = 6) in vec4 in_scale;
layout(location = 7) in vec4 in_color;
layout(location = 9) in vec4 in_params;

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec4 out_color;
layout(location = 3) out vec2 out_uv;
layout(location = 4) out vec4 out_params;

void main() {
  // local position: non-uniform scale, then the capsule's cylinder or arrow's shaft along z
  vec3 local = in_scale.xyz * in_position + vec3(0.0, 0.0, in_cap_sign * in_scale.w);
  out_world = vec3(dot(in_row0, vec4(local, 1.0)), dot(in_row1, vec4(local, 1.0)),
                   dot(in_row2, vec4(local, 1.0)));
  // normals transform with the inverse transpose of the scale (guarded against zero sizes)
  vec3 local_normal = in_normal / max(abs(in_scale.xyz), vec3(1e-8));
  out_normal = vec3(dot(in_row0.xyz, local_normal), dot(in_row1.xyz, local_normal),
                    dot(in_row2.xyz, local_normal));
  out_color = in_color;
  out_uv = in_uv;
  out_params = in_params;
  gl_Position = frame.matrix * vec4(out_world, 1.0);
}
