// Axis-aligned bounding volume hierarchy over the triangles of a mesh, stored in flat arrays
// (nodes in depth-first order, leaves as ranges of a permuted triangle list) so it can be copied
// to the GPU and refit in one reverse pass for deforming meshes. Built by median split of the
// triangle centroids along the longest axis of their bounds (O(T log² T)), leaves ≤ 4 triangles.
#pragma once

#include <array>
#include <vector>

#include "engine/core/math.h"

namespace sim {

class TriangleBvh {
 public:
  /// Maximum number of triangles per leaf.
  static constexpr int kLeafSize = 4;

  /// One node: bounds [m] and either two children (`count == 0`: children `first` and
  /// `first + 1`) or a leaf (`count > 0`: triangles `order()[first .. first + count)`).
  struct Node {
    Vec3 lower = Vec3::Zero();
    Vec3 upper = Vec3::Zero();
    int first = 0;
    int count = 0;
  };

  /// Result of a closest-point query; `triangle == −1` when nothing is within the distance.
  struct Hit {
    int triangle = -1;
    Vec3 point = Vec3::Zero();        ///< closest point on the mesh [m]
    Vec3 barycentric = Vec3::Zero();  ///< of `point` in `triangle` (exact zeros on features)
    Real distance_squared = 0;        ///< |x − point|² [m²]
  };

  TriangleBvh() = default;

  /// Builds the hierarchy over `triangles` (vertex indices into `vertices` [m], copied).
  void Build(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles);

  /// Updates the node bounds to moved `vertices` (same count and topology as in Build). The tree
  /// structure is kept, so queries stay correct but may get slower for large deformations. O(N).
  void Refit(const std::vector<Vec3>& vertices);

  /// Closest point of the mesh to `x` [m] among points not farther than `max_distance` [m];
  /// among equidistant triangles the smallest id wins (deterministic).
  Hit Closest(const Vec3& x, Real max_distance) const;

  /// As `Closest`, first testing `hint_triangle` (e.g. the answer of a neighbouring query), which
  /// tightens the search radius at once; `hint_triangle` may be −1.
  Hit Closest(const Vec3& x, Real max_distance, int hint_triangle) const;

  /// Calls `visitor(int triangle)` for every triangle whose bounding box overlaps the box
  /// [lower, upper] [m] (each at most once, in no particular order).
  template <typename Visitor>
  void Query(const Vec3& lower, const Vec3& upper, Visitor&& visitor) const;

  const std::vector<Node>& nodes() const { return nodes_; }
  /// Triangle ids in leaf order.
  const std::vector<int>& order() const { return order_; }
  const std::vector<Vec3>& vertices() const { return vertices_; }
  const std::vector<std::array<int, 3>>& triangles() const { return triangles_; }
  bool empty() const { return nodes_.empty(); }

 private:
  // recursive median-split build of order_[begin, end) into node `index`
  void BuildNode(int index, int begin, int end, const std::vector<Vec3>& centroids);
  // bounds of triangle t
  void TriangleBounds(int t, Vec3* lower, Vec3* upper) const;

  std::vector<Node> nodes_;
  std::vector<int> order_;
  std::vector<Vec3> vertices_;
  std::vector<std::array<int, 3>> triangles_;
};


template <typename Visitor>
void TriangleBvh::Query(const Vec3& lower, const Vec3& upper, Visitor&& visitor) const {
  if (nodes_.empty()) return;
  // depth-first traversal with an explicit stack (depth ≤ 64 for any realistic mesh)
  int stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if ((node.lower.array() > upper.array()).any() || (node.upper.array() < lower.array()).any()) {
      continue;
    }
    if (node.count == 0) {
      stack[top++] = node.first;
      stack[top++] = node.first + 1;
      continue;
    }
    // leaf: test each triangle's own box
    for (int i = node.first; i < node.first + node.count; ++i) {
      Vec3 t_lower;
      Vec3 t_upper;
      TriangleBounds(order_[i], &t_lower, &t_upper);
      if ((t_lower.array() <= upper.array()).all() && (t_upper.array() >= lower.array()).all()) {
        visitor(order_[i]);
      }
    }
  }
}

}  // namespace sim
