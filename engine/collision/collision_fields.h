// Contacts through signed distance fields (internal to engine/collision): the chapter-6 method of
// seed 000 (digest pd-sdf-robotics.md §2) for every shape pair without an analytic narrow phase.
// Each shape has a field (primitives and analytic SDFs exactly, a hull by its face planes, a closed
// mesh by its grid) and features (a sphere's centre, a capsule's axis, a box's or hull's vertices
// and edges, a mesh's triangles). The features of each shape are minimized over the other's field
// (vertices sampled, edges by golden-section search, faces by projected gradient descent, §2.9:
// "test the vertices of both meshes plus GSS over each edge"; face optimization for meshes), and
// the redundant contacts of a pair are then reduced to a few well-spread ones per normal.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/collision/narrowphase.h"
#include "engine/geometry/analytic_sdf.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/state/contacts.h"
#include "engine/state/state.h"

namespace sim::collision_internal {

/// Where a field contact lies on one side's surface.
struct FieldSide {
  Real radius = 0;  ///< round part of the feature [m] (sphere, capsule), in the thickness
  FeatureKind kind = FeatureKind::kNone;
  int index = -1;  ///< vertex, edge or triangle of the side's mesh or polytope
  Vec3 barycentric = Vec3::Zero();
  Vec2 uv = Vec2::Zero();
  bool has_uv = false;
};

/// One contact found through a field, world frame.
struct FieldContact {
  Vec3 normal = Vec3::UnitZ();  ///< unit, from B to A (out of B's field)
  Vec3 point_a = Vec3::Zero();  ///< on A: a surface point, or the core of a round feature [m]
  Vec3 point_b = Vec3::Zero();  ///< on B: a surface point, or the core of a round feature [m]
  Real gap = 0;                 ///< nᵀ(point_a − point_b) − radius_a − radius_b [m]
  /// the lowest gap the contact may reach within the step at the bodies' current motion (the
  /// rank of the contact in ReduceContacts); the gap itself when the motion is unknown [m]
  Real predicted_gap = std::numeric_limits<Real>::quiet_NaN();
  std::uint32_t feature = 0;  ///< stable id within the shape pair
  FieldSide a, b;

  /// Exchanges the roles of A and B.
  void SwapSides() {
    std::swap(point_a, point_b);
    std::swap(a, b);
    normal = -normal;
  }
};

/// The shape's frame in world at `state`, with its body's motion over a step of `dt` [s].
PlacedShape PlaceShape(const Model& model, const State& state, int shape, Real dt = 0);

/// Half sizes of the world AABB of a placed shape around its origin [m]; infinite when
/// unbounded.
Vec3 HalfExtentsWorld(const PlacedShape& placed);

inline Pose PoseOf(const PlacedShape& s) { return {s.center, Quat(s.rotation).normalized()}; }

// the field of a primitive, in its shape frame (the conventions of analytic_sdf.h match the
// model's: capsules and cylinders along z, a plane's solid below its z = 0)
struct PrimitiveField {
  SdfNode node;
  SdfSample Sample(const Vec3& x) const { return SamplePrimitive(node, x); }
};

// a convex hull's field: the largest signed face-plane distance max_f (n_fᵀx − o_f). Exact inside
// and in front of a face; near an edge or a vertex outside it underestimates the distance, which
// only makes a speculative contact appear a little early (the NCP keeps λ = 0 while it is open)
struct HullField {
  const ConvexHull* hull;
  SdfSample Sample(const Vec3& x) const {
    SdfSample best{-std::numeric_limits<Real>::infinity(), Vec3::UnitZ()};
    for (const ConvexHull::Face& face : hull->faces) {
      const Real d = face.normal.dot(x) - face.offset;
      if (d > best.distance) best = {d, face.normal};
    }
    return best;
  }
};

// calls visit(field) with the field of `g` in its shape frame; false when it has none
template <class Visit>
bool WithField(const ShapeGeometry& g, Visit&& visit) {
  PrimitiveField primitive;
  switch (g.type) {
    case ShapeType::kSphere:
      primitive.node.type = SdfNodeType::kSphere;
      primitive.node.params = {g.radius, 0, 0, 0};
      break;
    case ShapeType::kBox:
      primitive.node.type = SdfNodeType::kBox;
      primitive.node.params = {g.half_extents.x(), g.half_extents.y(), g.half_extents.z(), 0};
      break;
    case ShapeType::kCapsule:
      primitive.node.type = SdfNodeType::kCapsule;
      primitive.node.params = {g.radius, g.half_length, 0, 0};
      break;
    case ShapeType::kCylinder:
      primitive.node.type = SdfNodeType::kCylinder;
      primitive.node.params = {g.radius, g.half_length, 0, 0};
      break;
    case ShapeType::kPlane:
      primitive.node.type = SdfNodeType::kHalfSpace;
      break;
    case ShapeType::kConvexHull:
      if (!g.hull) return false;
      visit(HullField{g.hull.get()});
      return true;
    case ShapeType::kMesh:
      if (!g.mesh || !g.mesh->sdf) return false;
      visit(*g.mesh->sdf);
      return true;
    case ShapeType::kSdf:
      if (!g.sdf) return false;
      visit(*g.sdf);
      return true;
    case ShapeType::kNone:
      return false;
  }
  visit(primitive);
  return true;
}

/// True when contacts between these two shape types go through fields (no analytic pair).
bool HasFieldPath(ShapeType a, ShapeType b);

/// Appends the contacts of A's features against B's field whose gap is below `margin` [m].
/// `direction` (0 or 1) is folded into the feature ids so that the two directions of a pair never
/// share one. Returns false when B has no field (a plane-less open mesh) or A has no features.
bool FeaturesAgainstField(const PlacedShape& a, const PlacedShape& b, Real margin, int direction,
                          std::vector<FieldContact>* out);

/// Reduces contacts[begin, end) to at most `max_per_group` per group of similar normals (within
/// ~25°), ranked by predicted_gap (the gap when unknown): among the contacts within
/// `depth_band` of the group's deepest, the deepest, then the point farthest from it, then the
/// two that span the largest area (the manifold reduction of box–box, generalized), so a
/// resting mesh keeps a stable support polygon instead of one contact per triangle; when fewer
/// than `max_per_group` are that deep, the next deepest fill in. Returns the new end.
int ReduceContacts(std::vector<FieldContact>* contacts, int begin, int max_per_group,
                   Real depth_band);

}  // namespace sim::collision_internal
