#include "engine/geometry/bvh.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/geometry/closest_point.h"

namespace sim {
namespace {

// squared distance from x to the box [lower, upper] (0 inside)
Real BoxDistanceSquared(const Vec3& x, const Vec3& lower, const Vec3& upper) {
  const Vec3 d = (lower - x).cwiseMax(x - upper).cwiseMax(0.0);
  return d.squaredNorm();
}

}  // namespace


void TriangleBvh::TriangleBounds(int t, Vec3* lower, Vec3* upper) const {
  const auto& tri = triangles_[t];
  const Vec3& a = vertices_[tri[0]];
  const Vec3& b = vertices_[tri[1]];
  const Vec3& c = vertices_[tri[2]];
  *lower = a.cwiseMin(b).cwiseMin(c);
  *upper = a.cwiseMax(b).cwiseMax(c);
}


void TriangleBvh::Build(const std::vector<Vec3>& vertices,
                        const std::vector<std::array<int, 3>>& triangles) {
  vertices_ = vertices;
  triangles_ = triangles;
  nodes_.clear();
  order_.resize(triangles_.size());
  if (triangles_.empty()) return;

  // centroids drive the split; the triangle order is permuted in place
  std::vector<Vec3> centroids(triangles_.size());
  for (size_t t = 0; t < triangles_.size(); ++t) {
    order_[t] = static_cast<int>(t);
    const auto& tri = triangles_[t];
    centroids[t] = (vertices_[tri[0]] + vertices_[tri[1]] + vertices_[tri[2]]) / 3;
  }
  // median splits give leaves of ≥ 2 triangles, hence < T nodes
  nodes_.reserve(triangles_.size() + 1);
  nodes_.emplace_back();
  BuildNode(0, 0, static_cast<int>(triangles_.size()), centroids);
}


void TriangleBvh::BuildNode(int index, int begin, int end, const std::vector<Vec3>& centroids) {
  // bounds of the triangles and of their centroids
  Vec3 lower = Vec3::Constant(std::numeric_limits<Real>::infinity());
  Vec3 upper = -lower;
  Vec3 c_lower = lower;
  Vec3 c_upper = upper;
  for (int i = begin; i < end; ++i) {
    Vec3 t_lower;
    Vec3 t_upper;
    TriangleBounds(order_[i], &t_lower, &t_upper);
    lower = lower.cwiseMin(t_lower);
    upper = upper.cwiseMax(t_upper);
    c_lower = c_lower.cwiseMin(centroids[order_[i]]);
    c_upper = c_upper.cwiseMax(centroids[order_[i]]);
  }
  nodes_[index].lower = lower;
  nodes_[index].upper = upper;
  if (end - begin <= kLeafSize) {
    nodes_[index].first = begin;
    nodes_[index].count = end - begin;
    return;
  }

  // median split along the longest centroid axis
  int axis = 0;
  (c_upper - c_lower).maxCoeff(&axis);
  const int mid = begin + (end - begin) / 2;
  std::nth_element(
      order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
      [&centroids, axis](int a, int b) { return centroids[a][axis] < centroids[b][axis]; });

  // children are allocated as a consecutive pair, after their parent (refit runs in reverse)
  const int left = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  nodes_.emplace_back();
  nodes_[index].first = left;
  nodes_[index].count = 0;
  BuildNode(left, begin, mid, centroids);
  BuildNode(left + 1, mid, end, centroids);
}


void TriangleBvh::Refit(const std::vector<Vec3>& vertices) {
  vertices_ = vertices;
  // children have larger indices than their parent: one reverse pass sees children first
  for (int n = static_cast<int>(nodes_.size()) - 1; n >= 0; --n) {
    Node& node = nodes_[n];
    if (node.count == 0) {
      const Node& a = nodes_[node.first];
      const Node& b = nodes_[node.first + 1];
      node.lower = a.lower.cwiseMin(b.lower);
      node.upper = a.upper.cwiseMax(b.upper);
      continue;
    }
    node.lower = Vec3::Constant(std::numeric_limits<Real>::infinity());
    node.upper = -node.lower;
    for (int i = node.first; i < node.first + node.count; ++i) {
      Vec3 t_lower;
      Vec3 t_upper;
      TriangleBounds(order_[i], &t_lower, &t_upper);
      node.lower = node.lower.cwiseMin(t_lower);
      node.upper = node.upper.cwiseMax(t_upper);
    }
  }
}


TriangleBvh::Hit TriangleBvh::Closest(const Vec3& x, Real max_distance) const {
  return Closest(x, max_distance, -1);
}


TriangleBvh::Hit TriangleBvh::Closest(const Vec3& x, Real max_distance, int hint_triangle) const {
  Hit hit;
  if (nodes_.empty()) return hit;
  Real best = max_distance * max_distance;

  // exact distance to one triangle, kept when it improves the best
  auto test = [&](int t) {
    const auto& tri = triangles_[t];
    Vec3 barycentric;
    const Vec3 p = ClosestPointOnTriangle(x, vertices_[tri[0]], vertices_[tri[1]],
                                          vertices_[tri[2]], &barycentric);
    const Real d2 = (x - p).squaredNorm();
    // ties go to the smaller triangle id, so the answer does not depend on the hint or on the
    // traversal order (SDF results must not depend on how rows are split among threads)
    if (d2 < best || (d2 == best && (hit.triangle < 0 || t < hit.triangle))) {
      best = d2;
      hit.triangle = t;
      hit.point = p;
      hit.barycentric = barycentric;
      hit.distance_squared = d2;
    }
  };
  if (hint_triangle >= 0) test(hint_triangle);

  // best-first descent: nearer child first, prune boxes farther than the best so far
  struct Entry {
    int node;
    Real distance_squared;
  };
  Entry stack[128];
  int top = 0;
  stack[top++] = {0, BoxDistanceSquared(x, nodes_[0].lower, nodes_[0].upper)};
  while (top > 0) {
    const Entry entry = stack[--top];
    if (entry.distance_squared > best) continue;
    const Node& node = nodes_[entry.node];
    if (node.count > 0) {
      for (int i = node.first; i < node.first + node.count; ++i) test(order_[i]);
      continue;
    }
    const int a = node.first;
    const int b = node.first + 1;
    const Real da = BoxDistanceSquared(x, nodes_[a].lower, nodes_[a].upper);
    const Real db = BoxDistanceSquared(x, nodes_[b].lower, nodes_[b].upper);
    // push the farther child first so the nearer one is popped next
    if (da <= db) {
      if (db <= best) stack[top++] = {b, db};
      if (da <= best) stack[top++] = {a, da};
    } else {
      if (da <= best) stack[top++] = {a, da};
      if (db <= best) stack[top++] = {b, db};
    }
  }
  return hit;
}

}  // namespace sim
