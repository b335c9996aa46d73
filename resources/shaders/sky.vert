#version 450
// Sky vertex shader: one triangle covering the whole viewport (no vertex buffer); passes the
// normalized device coordinates on so the fragment shader can rebuild the view ray.

layout(location = 0) out vec2 out_ndc;

void main() {
  // (-1,-1), (3,-1), (-1,3): the triangle contains the [-1,1]^2 square
  out_ndc = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2)) * 2.0 - 1.0;
  gl_Position = vec4(out_ndc, 1.0, 1.0);
}
