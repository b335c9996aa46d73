// Field coordinates and tangents of surface points (equations in structure_surface.h).
#include "engine/model/structure_surface.h"

#include <cmath>

#include "engine/geometry/collision_mesh.h"

namespace sim {

bool UvTangents(const TriangleMesh& mesh, int triangle, Vec3* t_u, Vec3* t_v) {
  const auto& tri = mesh.triangles[triangle];
  const Vec3 e1 = mesh.vertices[tri[1]] - mesh.vertices[tri[0]];
  const Vec3 e2 = mesh.vertices[tri[2]] - mesh.vertices[tri[0]];
  const Vec2 d1 = mesh.uvs[tri[1]] - mesh.uvs[tri[0]];
  const Vec2 d2 = mesh.uvs[tri[2]] - mesh.uvs[tri[0]];
  const Real det = d1.x() * d2.y() - d2.x() * d1.y();
  if (!(std::abs(det) > 1e-14)) return false;
  const Vec3 u = (e1 * d2.y() - e2 * d1.y()) / det;
  const Vec3 v = (e2 * d1.x() - e1 * d2.x()) / det;
  if (!(u.norm() > 0)) return false;
  *t_u = u.normalized();
  const Vec3 v_perp = v - v.dot(*t_u) * *t_u;
  if (!(v_perp.norm() > 0)) return false;
  *t_v = v_perp.normalized();
  return true;
}


FieldCoordinates ShapeFieldCoordinates(const ShapeGeometry& geometry,
                                       const FieldProjectionSpec& projection, int triangle,
                                       const Vec2* uv, const Vec3& p_S, const Vec3& n_S) {
  // the mesh's own UVs where the point has them and the triangle's gradient is defined
  if (projection.kind == FieldProjection::kUv && uv != nullptr && geometry.mesh &&
      geometry.mesh->surface.has_uvs() && triangle >= 0 &&
      triangle < geometry.mesh->surface.triangle_count()) {
    FieldCoordinates coordinates;
    if (UvTangents(geometry.mesh->surface, triangle, &coordinates.tangent_u,
                   &coordinates.tangent_v)) {
      coordinates.uv = *uv;
      return coordinates;
    }
  }
  return ProjectSurfacePoint(projection, p_S, n_S);
}


Vec3 SoftFieldFrame::ToWorld(const Vec3& s_rest) const {
  // s_rest = E α (least squares in the rest triangle's plane), then s = E' α
  const Eigen::Matrix2d gram = rest_edges.transpose() * rest_edges;
  const Eigen::Vector2d alpha = gram.inverse() * (rest_edges.transpose() * s_rest);
  return current_edges * alpha;
}


SoftFieldFrame SoftSurfaceFieldFrame(const SoftBody& body, const FieldProjectionSpec& projection,
                                     const std::array<int, 3>& nodes, const Vec3& weights,
                                     const std::vector<Vec3>& particle_x_W) {
  SoftFieldFrame frame;
  std::array<Vec3, 3> rest, now;
  for (int k = 0; k < 3; ++k) {
    rest[k] = body.rest_positions[nodes[k] - body.first_particle];
    now[k] = particle_x_W[nodes[k]];
  }
  const Vec3 e1 = rest[1] - rest[0], e2 = rest[2] - rest[0];
  const Vec3 normal = e1.cross(e2);
  if (!(normal.norm() > 0)) return frame;
  // the rest-frame point projected by the field, and both edge matrices
  const Vec3 point = weights(0) * rest[0] + weights(1) * rest[1] + weights(2) * rest[2];
  frame.rest_normal = normal.normalized();
  frame.rest = ProjectSurfacePoint(projection, point, frame.rest_normal);
  frame.rest_edges << e1, e2;
  frame.current_edges << now[1] - now[0], now[2] - now[0];
  frame.valid = true;
  return frame;
}

}  // namespace sim
