// Shared pieces of the hull and cylinder narrow phase (internal to engine/collision): a read-only
// view of a placed convex polytope (a ConvexHull or a box), contact features (a face polygon, a
// segment or a point in world coordinates) and the clipping of one feature against a reference
// face, reduced to at most four points as BoxVsBox does.
//
// Feature ids of clipped contacts: bit 31 set when the reference face is B's, bits 19–29 the
// reference face id, bits 0–18 the incident point: its vertex id, or kClipCode | (2·side plane +
// leaving) for a point made by clipping. Edge–edge contacts: bit 30, edge of A in bits 15–29,
// edge of B in bits 0–14. Hulls with more than 2048 faces or 32768 edges reuse ids.
#pragma once

#include <array>
#include <cstdint>

#include "engine/collision/gjk.h"
#include "engine/collision/narrowphase.h"
#include "engine/geometry/convex_hull.h"

namespace sim::collision_internal {

/// A convex polytope placed in the world; its data stays in the shape frame.
struct Polytope {
  const Vec3* vertices = nullptr;  ///< shape frame [m]
  int vertex_count = 0;
  const ConvexHull::Face* faces = nullptr;  ///< shape frame
  int face_count = 0;
  const int* face_vertices = nullptr;
  const std::array<int, 2>* edges = nullptr;
  int edge_count = 0;
  Vec3 center = Vec3::Zero();
  Mat3 rotation = Mat3::Identity();

  Vec3 Vertex(int v) const { return center + rotation * vertices[v]; }
  Vec3 FaceNormal(int f) const { return rotation * faces[f].normal; }
  Real FaceOffset(int f) const { return FaceNormal(f).dot(center) + faces[f].offset; }
  /// Index of the first vertex farthest along `direction` (world).
  int SupportVertex(const Vec3& direction) const;
  /// Smallest distance from the vertex mean to a face plane [m] (the box's smallest half extent).
  Real InnerScale() const;
};

Polytope MakePolytope(const ConvexHull& hull, const PlacedShape& placed);

/// A box as a polytope: vertex i has coordinate k positive when bit k of i is set; face
/// 2·axis + (positive side), its loop counter-clockwise seen from outside.
struct BoxPolytope {
  std::array<Vec3, 8> vertices;
  std::array<ConvexHull::Face, 6> faces;
  std::array<int, 24> face_vertices;
  std::array<std::array<int, 2>, 12> edges;

  explicit BoxPolytope(const Vec3& half_extents);
  Polytope Placed(const Vec3& center, const Mat3& rotation) const;
};

/// Support mapping of a placed polytope, for GJK.
ConvexSupport PolytopeSupport(const Polytope* polytope);

/// A contact feature in world coordinates: 1 point, 2 (a segment) or ≥ 3 (a face polygon,
/// counter-clockwise about `normal`).
inline constexpr int kMaxFeaturePoints = 64;
struct ContactFeature {
  int count = 0;
  std::array<Vec3, kMaxFeaturePoints> points;
  std::array<std::uint32_t, kMaxFeaturePoints> ids{};
  Vec3 normal = Vec3::UnitZ();  ///< outward unit normal of a face polygon
  std::uint32_t id = 0;         ///< id of a face (reference face id)
};

/// Face `f` of the polytope as a feature (ids: vertex indices); false when it has more than
/// kMaxFeaturePoints vertices.
bool PolytopeFace(const Polytope& polytope, int f, ContactFeature* feature);

/// Index of the face of `polytope` whose outward normal is most anti-parallel to `normal`
/// (first within 1e-12).
int IncidentFace(const Polytope& polytope, const Vec3& normal);

/// Index of the face of `polytope` most aligned with `direction` (first within 1e-12).
int MostAlignedFace(const Polytope& polytope, const Vec3& direction);

/// Clips `incident` (a polygon or a segment) against the side planes of the `reference` face
/// polygon, keeps the points below `margin` over the reference plane and adds at most four
/// (deepest, then largest area) with normal = reference normal (oriented from B to A). Returns
/// the number of points added.
int AddClippedContact(const ContactFeature& reference, const ContactFeature& incident,
                      bool reference_is_a, Real margin, Real length_scale, Manifold* out);

/// Chooses at most four of `count` points. Among the points whose separation is within
/// `depth_band` of the deepest: the deepest, the farthest from it, the one spanning the largest
/// triangle with both and the one adding the most area (ties within a fraction of
/// `length_scale` go to the lower index); when fewer than four are that deep, all of them and
/// then the next deepest. Writes the indices in increasing order and returns how many.
int ReduceToFour(const Vec3* points, const Real* separation, int count, const Vec3& normal,
                 Real length_scale, Real depth_band, std::array<int, 4>* chosen);


/// Exchanges the sides of the manifold's points from index `first` on.
inline void SwapSidesFrom(int first, Manifold* out) {
  for (int i = first; i < out->count; ++i) {
    std::swap(out->points[i].point_a, out->points[i].point_b);
    out->points[i].normal = -out->points[i].normal;
  }
}

}  // namespace sim::collision_internal
