// Ray casting against a scene: the first surface a ray x(t) = o + t·d (t ≥ 0, |d| = 1) meets among
// the shapes, the free particles and the deformed surfaces of soft bodies. The studio picks bodies
// and FEM nodes with it (click to select, ctrl+drag to perturb) and paints structure fields
// (a hit on a mesh or a soft surface names its triangle and the barycentric weights of the point).
//
// Per shape, in the shape frame (o and d transformed by X_SW):
//   plane      z = 0 with normal +z:          t = −o_z / d_z (hit from either side)
//   sphere     |x|² = r²:                     t² + 2(o·d)t + |o|² − r² = 0, smaller root ≥ 0
//   box        |x_i| ≤ h_i:                   slab method (Kay & Kajiya), entering slab gives n
//   cylinder   x² + y² ≤ r², |z| ≤ l:         infinite cylinder quadratic clipped to the slab |z| ≤
//   l
//                                             (Cyrus–Beck on the two caps)
//   capsule    dist(x, segment z ∈ [−l, l]) ≤ r: the cylinder's side, and the two end spheres
//   hull       nᵢᵀx ≤ oᵢ for every face:      Cyrus–Beck clipping of the ray by the half-spaces
//   mesh       triangles:                     BVH slab traversal, Möller–Trumbore per triangle
//   sdf        φ(x) = 0:                      sphere tracing, t ← t + φ(x(t)) (φ is a distance or
//                                             a lower bound of it, analytic_sdf.h)
// A ray starting inside a solid primitive reports the exit point (so a camera inside a box still
// picks it); meshes and soft surfaces report the first triangle crossed from either side.
#pragma once

#include <array>
#include <limits>

#include "engine/core/math.h"
#include "engine/model/model.h"

namespace sim {

struct State;

/// What a ray hit first.
struct RayHit {
  bool hit = false;
  Real distance = std::numeric_limits<Real>::infinity();  ///< t along the unit direction [m]
  Vec3 point = Vec3::Zero();                              ///< world [m]
  Vec3 normal = Vec3::UnitZ();  ///< world unit surface normal, facing the ray (nᵀd ≤ 0)
  int shape = -1;               ///< shape id, or −1 for a particle or a soft surface
  int body = kWorldBody;        ///< owning body (kWorldBody for static shapes and particles)
  int particle = -1;   ///< free particle hit, or the soft-body node nearest the point, or −1
  int soft_body = -1;  ///< soft body whose surface was hit, or −1

  // the surface spot, for mesh UVs and structure fields (engine/edit/structure_paint.h)
  /// triangle hit: of a mesh shape's collision mesh (CollisionMesh::surface, whose UVs
  /// interpolate with `barycentric`), or of a soft body's boundary (an index into
  /// SoftBody::surface); −1 on other surfaces
  int triangle = -1;
  /// weights of `point` on the triangle's three vertices (summing to 1); zero without a triangle
  Vec3 barycentric = Vec3::Zero();
  /// a soft body's triangle as local node ids (indices into SoftBody::rest_positions, in the
  /// order of SoftBody::surface); −1 otherwise
  std::array<int, 3> nodes = {-1, -1, -1};
};

/// Which kinds of things a scene ray cast considers.
struct RaycastOptions {
  Real max_distance = std::numeric_limits<Real>::infinity();  ///< [m]
  bool static_shapes = true;  ///< shapes of the world and of static bodies (ground, walls)
  bool particles = true;      ///< free particles (spheres of their contact radius)
  bool soft_bodies = true;    ///< the deformed boundary surfaces of soft bodies
};

/// First hit of the ray with one shape `geometry` placed at `X_WS`. `direction` must be unit.
/// The result names no shape or body (the caller knows them); a mesh's triangle and barycentric
/// weights are filled in.
RayHit RaycastShape(const ShapeGeometry& geometry, const Pose& X_WS, const Vec3& origin,
                    const Vec3& direction, Real max_distance);

/// First hit of the ray with the scene `model` in configuration `state` (which must match it).
/// `direction` need not be unit (it is normalized; a zero direction hits nothing).
RayHit Raycast(const Model& model, const State& state, const Vec3& origin, const Vec3& direction,
               const RaycastOptions& options = {});

}  // namespace sim
