// GJK distance and EPA penetration depth between two convex sets given by their support mappings
// (internal to engine/collision). Allocation-free (fixed-capacity simplex and polytope on the
// stack) and deterministic (no randomness, ties broken by index).
//
// GJK: Gilbert, Johnson, Keerthi (1988), "A fast procedure for computing the distance between
// complex objects in three-dimensional space", with the closest-point-on-simplex regions of
// Ericson, Real-Time Collision Detection §5.1.5 and §9.5. On polytopes it terminates exactly; on
// curved sets (cylinders) it stops when the lower bound v·w is within kGjkRelativeTolerance of
// |v|².
//
// EPA: van den Bergen (2001), "Proximity queries and penetration depth computation on 3D game
// objects". Exact on polytopes and on flat parts of curved sets (a cylinder cap or side line on a
// face); on curved parts its depth is within the facet error of the expanded polytope, bounded by
// the termination tolerance (1e-9 of the length scale) unless the vertex capacity runs out
// (`converged` = false then). Facets are removed by flood fill from the one seen, so rounding on
// curved sets cannot leave holes.
//
// Robustness: GJK never reports containment from a flat tetrahedron (near-duplicate support
// points of a curved set), and CalcConvexContact re-queries a near contact (closest points less
// than 1e-6 of the length scale apart, whose direction is noise) with A moved by 1e-3 of it.
// Measured against closed forms (tests/unit/hull_collision_test.cpp): cylinder–point distance
// 2e-10 m apart and 3e-10 m inside; polytopes to rounding.
#pragma once

#include "engine/core/math.h"

namespace sim::collision_internal {

/// A support mapping: the point of a convex set farthest along `direction` (not necessarily
/// unit; any maximizer for a zero direction). A plain function pointer and context, so calls do
/// not allocate.
struct ConvexSupport {
  using Function = Vec3 (*)(const void* shape, const Vec3& direction);
  Function function = nullptr;
  const void* shape = nullptr;

  Vec3 operator()(const Vec3& direction) const { return function(shape, direction); }
};

/// Result of GjkDistance.
struct GjkResult {
  bool overlapping = false;     ///< the sets intersect (or touch within the tolerance)
  Real distance = 0;            ///< between the sets when not overlapping [m]
  Vec3 point_a = Vec3::Zero();  ///< closest point of A (when not overlapping) [m]
  Vec3 point_b = Vec3::Zero();  ///< closest point of B (when not overlapping) [m]
  int iterations = 0;
};

/// Distance between convex sets A and B (world frame). `length_scale` [m] sets the absolute
/// tolerance: sets closer than 1e-10·length_scale count as overlapping.
GjkResult GjkDistance(const ConvexSupport& a, const ConvexSupport& b, Real length_scale);

/// Result of EpaPenetration.
struct PenetrationResult {
  bool converged = false;       ///< false: capacity reached, result is the best found
  Real depth = 0;               ///< translation of A along `normal` that separates them [m]
  Vec3 normal = Vec3::UnitZ();  ///< unit, from B to A
  Vec3 point_a = Vec3::Zero();  ///< deepest point of A (on A's surface) [m]
  Vec3 point_b = Vec3::Zero();  ///< deepest point of B (on B's surface) [m]
};

/// Penetration depth and direction of intersecting convex sets A and B (minimum translation).
/// point_a − point_b = −depth·normal. Call it when GjkDistance reports an overlap.
PenetrationResult EpaPenetration(const ConvexSupport& a, const ConvexSupport& b, Real length_scale);

/// Signed distance of two convex sets: GJK when apart, EPA when overlapping (a near contact is
/// re-queried with A moved, see above). `normal` is from B to A; `distance` =
/// normalᵀ(point_a − point_b), negative when penetrating. `length_scale` [m]: the smallest
/// feature size of the two sets (tolerances are fractions of it).
struct ConvexContact {
  Real distance = 0;  ///< [m]
  Vec3 normal = Vec3::UnitZ();
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
  bool exact = true;  ///< false when EPA ran out of capacity
};
ConvexContact CalcConvexContact(const ConvexSupport& a, const ConvexSupport& b, Real length_scale);

}  // namespace sim::collision_internal
