// Where a structure field lies on a surface (structure_field.h, digest nsn-and-friction.md
// §2.13): the field coordinates (u, v) of a surface point and the tangents T_u, T_v that carry a
// field axis onto the surface. The contact-material stage samples the fields through these at
// every contact, and the painter (engine/edit/structure_paint.h) locates its dabs through the same
// functions, so a dab lands where a contact at that point reads the field.
//   Rigid shapes: under projection "uv", a point of a mesh triangle with texture coordinates
//   takes the mesh's (u, v), and T_u, T_v are the triangle's UV gradient dp/du, dp/dv
//   (Gram-Schmidt); every other point is projected by ProjectSurfacePoint in the shape frame.
//   Soft bodies: the rest-frame (material) point of a boundary triangle is projected, and a
//   rest-frame vector s_rest is carried to the current triangle as s = E'·E⁺·s_rest, with E, E'
//   the rest and current edge matrices [e1 e2] and E⁺ = (EᵀE)⁻¹Eᵀ.
#pragma once

#include <array>
#include <vector>

#include "engine/core/math.h"
#include "engine/model/model.h"

namespace sim {

struct TriangleMesh;

/// T_u, T_v (unit, T_v ⟂ T_u) of mesh triangle `triangle` from its UV gradient (dp/du, then dp/dv
/// made orthogonal to it), or false where the triangle's UVs are degenerate.
bool UvTangents(const TriangleMesh& mesh, int triangle, Vec3* t_u, Vec3* t_v);

/// Field coordinates of a point of a shape, in the shape frame (point `p_S` [m], outward unit
/// normal `n_S`): under a "uv" projection, on triangle `triangle` of a mesh with UVs, at texture
/// coordinates `*uv` (null: the point has none), the mesh's UVs and UV tangents; otherwise
/// ProjectSurfacePoint(projection, p_S, n_S).
FieldCoordinates ShapeFieldCoordinates(const ShapeGeometry& geometry,
                                       const FieldProjectionSpec& projection, int triangle,
                                       const Vec2* uv, const Vec3& p_S, const Vec3& n_S);

/// A point of a soft body's boundary triangle seen by the body's structure field.
struct SoftFieldFrame {
  bool valid = false;                ///< false where the rest triangle is degenerate (no normal)
  FieldCoordinates rest;             ///< (u, v), T_u and T_v of the rest-frame point
  Vec3 rest_normal = Vec3::UnitZ();  ///< outward unit normal of the rest triangle
  Eigen::Matrix<Real, 3, 2> rest_edges;     ///< E = [e1 e2] of the rest triangle [m]
  Eigen::Matrix<Real, 3, 2> current_edges;  ///< E' = [e1' e2'] of the current triangle [m]

  /// The current (world) image s = E'·E⁺·s_rest of rest-frame vector `s_rest`.
  Vec3 ToWorld(const Vec3& s_rest) const;
};

/// The frame at weights `weights` (summing to 1) of triangle `nodes` (global particle ids,
/// counter-clockwise seen from outside) of soft body `body` under `projection`, with the
/// triangle's current node positions from `particle_x_W` [m].
SoftFieldFrame SoftSurfaceFieldFrame(const SoftBody& body, const FieldProjectionSpec& projection,
                                     const std::array<int, 3>& nodes, const Vec3& weights,
                                     const std::vector<Vec3>& particle_x_W);

}  // namespace sim
