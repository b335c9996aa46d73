// Narrow phase of the collision stage (internal to engine/collision): the contact manifold of one
// pair of placed primitive shapes, in world coordinates. collision.cpp dispatches the pairs and
// turns the manifolds into Contacts.
//
// Convention: `XVsY(a, b, margin, out)` treats `a` as side A and `b` as side B; each point's normal
// is unit and points from B to A, its gap is nᵀ(point_a − point_b) (negative: penetration), and
// only points whose gap is below `margin` [m] are added.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

#include "engine/collision/collision.h"
#include "engine/core/math.h"
#include "engine/model/model.h"

namespace sim {
struct ConvexHull;  // engine/geometry/convex_hull.h
}  // namespace sim

namespace sim::collision_internal {

/// A shape placed in the world: its geometry and its frame (origin and axes) in world.
struct PlacedShape {
  const ShapeGeometry* geometry = nullptr;
  Vec3 center = Vec3::Zero();        ///< shape frame origin in world [m]
  Mat3 rotation = Mat3::Identity();  ///< shape axes in world (columns); local z = plane normal
  // how far the owning body moves in the step at its current twist (zero: static or unknown);
  // manifold reduction ranks candidate points by where they will be, not only where they are
  Vec3 step_translation = Vec3::Zero();  ///< v·Δt of the body's COM [m]
  Vec3 step_rotation = Vec3::Zero();     ///< ω·Δt [rad]
  Vec3 motion_origin = Vec3::Zero();     ///< the body's COM, world [m]

  /// Displacement of the world point `p` fixed in the shape over the step (first order) [m].
  Vec3 StepDisplacement(const Vec3& p) const {
    return step_translation + step_rotation.cross(p - motion_origin);
  }
};

/// Depth band of manifold reduction as a fraction of the contact margin: candidate points up to
/// this far above the deepest (ranked by the gap they may reach within the step) compete on
/// spread, so a face resting flat keeps its corners; points higher up only fill in behind
/// deeper ones, so a rocking body keeps the points about to land instead of far, high ones.
inline constexpr Real kDepthBandOfMargin = 0.05;

/// One point of a manifold, world frame.
struct ManifoldPoint {
  Vec3 normal = Vec3::UnitZ();  ///< unit, from B to A
  Vec3 point_a = Vec3::Zero();  ///< on A's surface [m]
  Vec3 point_b = Vec3::Zero();  ///< on B's surface [m]
  std::uint32_t feature = 0;    ///< stable id of the feature pair within the shape pair
};

inline constexpr int kMaxManifoldPoints = 8;

/// Fixed-capacity list of points (no heap).
struct Manifold {
  std::array<ManifoldPoint, kMaxManifoldPoints> points;
  int count = 0;

  void Add(const Vec3& normal, const Vec3& point_a, const Vec3& point_b, std::uint32_t feature) {
    if (count < kMaxManifoldPoints) points[count++] = {normal, point_a, point_b, feature};
  }
  /// Exchanges the roles of A and B (points swapped, normals negated).
  void SwapSides() {
    for (int i = 0; i < count; ++i) {
      std::swap(points[i].point_a, points[i].point_b);
      points[i].normal = -points[i].normal;
    }
  }
};

/// Parameters s, t ∈ [0, 1] of the closest points p0 + s (p1 − p0) and q0 + t (q1 − q0) of two
/// segments (Ericson, Real-Time Collision Detection §5.1.9); s = 0 for parallel segments.
void ClosestPointsOfSegments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1,
                             Real* s, Real* t);

/// Parameter t ∈ [0, 1] of the point of segment p0 + t (p1 − p0) closest to `point`.
inline Real ClosestParameterOnSegment(const Vec3& p0, const Vec3& p1, const Vec3& point) {
  const Vec3 direction = p1 - p0;
  const Real length_squared = direction.squaredNorm();
  if (length_squared <= 0) return 0;
  return std::clamp((point - p0).dot(direction) / length_squared, Real{0}, Real{1});
}

/// Adds the contact of two spheres (centres, radii [m]) when their gap is below `margin`;
/// `fallback_normal` (B to A) is used when the centres coincide.
void AddSpherePair(const Vec3& center_a, Real radius_a, const Vec3& center_b, Real radius_b,
                   const Vec3& fallback_normal, std::uint32_t feature, Real margin, Manifold* out);

// plane pairs (narrowphase_plane.cpp); the plane is B, a half-space below its local +z
void SphereVsPlane(const PlacedShape& sphere, const PlacedShape& plane, Real margin, Manifold* out);
void BoxVsPlane(const PlacedShape& box, const PlacedShape& plane, Real margin, Manifold* out);
void CapsuleVsPlane(const PlacedShape& capsule, const PlacedShape& plane, Real margin,
                    Manifold* out);
void CylinderVsPlane(const PlacedShape& cylinder, const PlacedShape& plane, Real margin,
                     Manifold* out);

// sphere and capsule pairs (narrowphase_round.cpp)
void SphereVsSphere(const PlacedShape& a, const PlacedShape& b, Real margin, Manifold* out);
void SphereVsCapsule(const PlacedShape& sphere, const PlacedShape& capsule, Real margin,
                     Manifold* out);
void CapsuleVsCapsule(const PlacedShape& a, const PlacedShape& b, Real margin, Manifold* out);

// box pairs (narrowphase_box.cpp, narrowphase_box_box.cpp)
void SphereVsBox(const PlacedShape& sphere, const PlacedShape& box, Real margin, Manifold* out);
void CapsuleVsBox(const PlacedShape& capsule, const PlacedShape& box, Real margin, Manifold* out);
void BoxVsBox(const PlacedShape& a, const PlacedShape& b, Real margin, Manifold* out);

// convex hull pairs (narrowphase_hull.cpp); the hull is A, `hull` its shape-frame data placed by
// the PlacedShape's frame (whose geometry is not read). Face contacts come from SAT over face
// normals and edge–edge cross products, then reference/incident face clipping reduced to at most
// four points (as BoxVsBox); a hull built from a box's corners gives BoxVsX's results.
// Feature ids: HullVsPlane vertex index; HullVsSphere 0; HullVsCapsule 0 (edge/vertex region) or
// 1 + 2·face + end (face region); HullVsHull/HullVsBox see narrowphase_feature.h.

/// Hull vertices below `margin` over the plane (B), at most four (deepest + largest area).
void HullVsPlane(const ConvexHull& hull, const PlacedShape& placed, const PlacedShape& plane,
                 Real margin, Manifold* out);
/// Exact closest point of the hull to the sphere centre (GJK), or the face of least penetration
/// when the centre is inside; point_b is on the sphere's surface.
void HullVsSphere(const ConvexHull& hull, const PlacedShape& placed, const PlacedShape& sphere,
                  Real margin, Manifold* out);
/// Exact closest points of hull and capsule segment (GJK), or the deepest point of the segment
/// (minimum of the hull's face distance) when the segment enters the hull; in a face region the
/// segment is clipped to the face and gives up to two points (as CapsuleVsBox).
void HullVsCapsule(const ConvexHull& hull, const PlacedShape& placed, const PlacedShape& capsule,
                   Real margin, Manifold* out);
/// Hull (A) against box (B): HullVsHull with the box as a six-face polytope.
void HullVsBox(const ConvexHull& hull, const PlacedShape& placed, const PlacedShape& box,
               Real margin, Manifold* out);
/// Hull (A) against hull (B).
void HullVsHull(const ConvexHull& hull_a, const PlacedShape& placed_a, const ConvexHull& hull_b,
                const PlacedShape& placed_b, Real margin, Manifold* out);

// cylinder pairs (narrowphase_cylinder.cpp); the cylinder is A. Deepest points and normal from
// GJK/EPA on the exact cylinder support (analytic for the sphere); the manifold clips the
// cylinder's cap (a 16-gon inscribed in the rim) or side line against the other shape's face
// (a face within 5° of the normal), so depths are exact and the manifold's extent is short by
// at most r(1 − cos(π/16)) ≈ 0.019·r (see the file comment for tilted caps). Feature ids: 0 for
// a single point, narrowphase_feature.h's clip ids (cylinder points 16·cap + k for cap vertices
// k, 32 + end for side line ends), 2²⁹ + end for two parallel lines.

/// Exact closest point of the solid cylinder to the sphere centre, or least penetration inside.
void CylinderVsSphere(const PlacedShape& cylinder, const PlacedShape& sphere, Real margin,
                      Manifold* out);
void CylinderVsCapsule(const PlacedShape& cylinder, const PlacedShape& capsule, Real margin,
                       Manifold* out);
void CylinderVsBox(const PlacedShape& cylinder, const PlacedShape& box, Real margin, Manifold* out);
void CylinderVsCylinder(const PlacedShape& a, const PlacedShape& b, Real margin, Manifold* out);
void CylinderVsHull(const PlacedShape& cylinder, const ConvexHull& hull, const PlacedShape& placed,
                    Real margin, Manifold* out);

}  // namespace sim::collision_internal
