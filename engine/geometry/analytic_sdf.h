// Analytic signed distance fields: closed-form primitives combined by min/max operators into one
// field (digest pd-sdf-robotics.md §2.10, "Analytic": the spool of Fig. 46). The field is a flat
// array of plain nodes (no per-node heap objects, no virtual calls) so that it can be copied to
// the GPU as is, and its parameters (node poses) can be animated between steps.
//
// Conventions (every primitive is exact, φ is the Euclidean distance to the surface, also inside):
//   sphere      radius r, centred at the node origin
//   box         half extents h, centred at the node origin, axis aligned in the node frame
//   rounded box outer half extents h and rounding radius ρ ≤ min(h): the box h − ρ inflated by ρ
//   capsule     radius r around the segment z ∈ [−l, l] of the node frame
//   cylinder    radius r, z ∈ [−l, l] of the node frame (flat caps)
//   cone        apex at the node origin, axis −z, half-angle θ, capped by the disk at z = −height
//               (so an identity pose points the apex up)
//   torus       major radius R (circle in the node xy plane), minor radius r
//   half-space  the solid z ≤ 0 of the node frame (outward normal +z)
// Combinations of children a, b: union min(φa, φb), intersection max(φa, φb), difference
// max(φa, −φb) (a minus b), smooth union with the polynomial smooth minimum of width k. The
// gradient of a min/max is the gradient of the selected child; min/max combinations are exact
// distances only where the selected child is (outside a union, inside an intersection); elsewhere
// they bound the distance and keep the zero isosurface exact, which is what the chapter-6 local
// optimization needs (§2.9: "the isosurface is preserved, which is enough").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/math.h"
#include "engine/geometry/sdf.h"

namespace sim {

/// Most levels of combinations from the root to a primitive: Sample() recurses once per level.
inline constexpr int kMaxSdfDepth = 64;
/// Most nodes one Sample() evaluates (a node shared by several parents counts once per use): the
/// cost of every sample, and the field is drawn from 65³ of them (0.6 s at this size).
inline constexpr int kMaxSdfEvaluatedNodes = 1024;

/// Kind of one node of an AnalyticSdf.
enum class SdfNodeType : std::uint8_t {
  kNone = 0,
  kSphere,
  kBox,
  kRoundedBox,
  kCapsule,
  kCylinder,
  kCone,
  kTorus,
  kHalfSpace,
  kUnion,
  kIntersection,
  kDifference,
  kSmoothUnion,
};

/// One node: a primitive placed in the field frame, or a combination of two earlier nodes.
/// Plain data (trivially copyable) for a GPU mirror.
struct SdfNode {
  SdfNodeType type = SdfNodeType::kNone;
  int child_a = -1;  ///< combinations: first operand (node index < this node's index)
  int child_b = -1;  ///< combinations: second operand (node index < this node's index)
  /// Primitive sizes [m] (cone: params[0] = half-angle [rad]); smooth union: params[0] = k [m].
  /// sphere {r}, box {hx, hy, hz}, rounded box {hx, hy, hz, ρ}, capsule {r, l}, cylinder {r, l},
  /// cone {θ, height, sin θ, cos θ} (the last two cached by AddCone), torus {R, r}.
  std::array<Real, 4> params = {0, 0, 0, 0};
  Mat3 rotation = Mat3::Identity();  ///< R_FN: node axes in the field frame (primitives)
  Vec3 translation = Vec3::Zero();   ///< p_FN: node origin in the field frame [m] (primitives)
};

/// A tree of analytic primitives and combinations, evaluated from its root.
///
/// Build it with the Add*/combination calls (each returns the new node's index; children must
/// have been added before their parent, so the array is in topological order and has no cycles),
/// pick the root (default: the last node added), then call Validate(). Sample() requires a field
/// whose Validate() returned no messages. Not thread-safe to build; Sample() is const and may be
/// called from any number of threads.
class AnalyticSdf {
 public:
  /// Sphere of `radius` [m] centred at X_FN's origin. Returns the node index.
  int AddSphere(Real radius, const Pose& X_FN = {});
  /// Box of `half_extents` [m] centred at X_FN's origin.
  int AddBox(const Vec3& half_extents, const Pose& X_FN = {});
  /// Box of outer `half_extents` [m] whose edges and corners are rounded with `radius` [m]
  /// (0 < radius ≤ min half extent).
  int AddRoundedBox(const Vec3& half_extents, Real radius, const Pose& X_FN = {});
  /// Capsule of `radius` [m] around the node z segment [−half_length, half_length] [m].
  int AddCapsule(Real radius, Real half_length, const Pose& X_FN = {});
  /// Capped cylinder of `radius` [m], node z ∈ [−half_height, half_height] [m].
  int AddCylinder(Real radius, Real half_height, const Pose& X_FN = {});
  /// Capped cone: apex at X_FN's origin, axis along node −z, `half_angle` [rad] in (0, π/2),
  /// base disk at node z = −height [m].
  int AddCone(Real half_angle, Real height, const Pose& X_FN = {});
  /// Torus in the node xy plane: `major_radius` [m] to the tube centre, `minor_radius` [m] tube.
  int AddTorus(Real major_radius, Real minor_radius, const Pose& X_FN = {});
  /// Half-space z ≤ 0 of the node frame (X_FN's z axis is the outward normal).
  int AddHalfSpace(const Pose& X_FN = {});

  /// min(φa, φb).
  int Union(int a, int b);
  /// max(φa, φb).
  int Intersection(int a, int b);
  /// a minus b: max(φa, −φb).
  int Difference(int a, int b);
  /// Polynomial smooth minimum of width `k` [m] > 0 (blends the surfaces within k of each other).
  int SmoothUnion(int a, int b, Real k);

  /// Selects the node whose field Sample() returns.
  void SetRoot(int node) { root_ = node; }
  /// Moves a primitive (animated collision geometry, §2.10).
  void SetNodePose(int node, const Pose& X_FN);

  /// Every problem of the node array, one human sentence each ("node 3 (box): half extent
  /// [1, -2, 1] must be positive"); empty when the field can be sampled. Checks sizes, NaN/Inf,
  /// child indices (must precede the parent), the root, and the root's depth and evaluated
  /// nodes against kMaxSdfDepth and kMaxSdfEvaluatedNodes.
  std::vector<std::string> Validate() const;

  /// φ(x) and ∇φ(x) at `x_F` [m] (field frame). Requires an empty Validate().
  SdfSample Sample(const Vec3& x_F) const { return SampleNode(root_, x_F); }
  /// φ(x) only.
  Real Distance(const Vec3& x_F) const { return SampleNode(root_, x_F).distance; }

  int root() const { return root_; }
  int node_count() const { return static_cast<int>(nodes_.size()); }
  const std::vector<SdfNode>& nodes() const { return nodes_; }

 private:
  int AddPrimitive(SdfNodeType type, const std::array<Real, 4>& params, const Pose& X_FN);
  int AddCombination(SdfNodeType type, int a, int b, Real k);
  SdfSample SampleNode(int node, const Vec3& x_F) const;

  std::vector<SdfNode> nodes_;
  int root_ = -1;
};

/// Exact signed distance of one primitive node in its own frame (no placement): `x_N` in the node
/// frame, gradient in the node frame. Exposed for tests and for a GPU port of the same formulas.
SdfSample SamplePrimitive(const SdfNode& node, const Vec3& x_N);

/// Human name of a node type ("rounded box"), for messages.
const char* SdfNodeTypeName(SdfNodeType type);

}  // namespace sim
