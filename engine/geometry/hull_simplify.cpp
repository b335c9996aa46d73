#include "engine/geometry/hull_simplify.h"

#include <algorithm>
#include <limits>

namespace sim {

Real OutsideDistance(const ConvexHull& hull, const std::vector<Vec3>& points) {
  Real worst = 0;
  for (const Vec3& p : points) {
    Real outside = -std::numeric_limits<Real>::infinity();
    for (const ConvexHull::Face& face : hull.faces) {
      outside = std::max(outside, face.normal.dot(p) - face.offset);
    }
    worst = std::max(worst, outside);
  }
  return worst;
}


std::shared_ptr<const ConvexHull> BuildSimplifiedHull(const std::vector<Vec3>& points,
                                                      const std::string& name, int max_vertices,
                                                      Diagnostics* diagnostics) {
  std::shared_ptr<const ConvexHull> full = BuildConvexHull(points, name, diagnostics);
  max_vertices = std::max(max_vertices, 4);
  if (!full || static_cast<int>(full->vertices.size()) <= max_vertices) return full;
  const std::vector<Vec3>& candidates = full->vertices;
  const int n = static_cast<int>(candidates.size());
  Vec3 lower = candidates.front(), upper = lower;
  for (const Vec3& v : candidates) {
    lower = lower.cwiseMin(v);
    upper = upper.cwiseMax(v);
  }
  // below this a vertex is on the simplified hull already (round-off of the face planes)
  const Real tolerance = 1e-9 * (upper - lower).norm();

  // start: a farthest-point spread of 8 vertices from the +x extreme (never coplanar for a solid)
  std::vector<char> used(n, 0);
  std::vector<int> selected;
  std::vector<Real> distance(n, std::numeric_limits<Real>::infinity());
  int next = 0;
  for (int v = 1; v < n; ++v) {
    if (candidates[v].x() > candidates[next].x()) next = v;
  }
  const int seeds = std::min(8, max_vertices);
  while (static_cast<int>(selected.size()) < seeds) {
    used[next] = 1;
    selected.push_back(next);
    int farthest = -1;
    for (int v = 0; v < n; ++v) {
      distance[v] = std::min(distance[v], (candidates[v] - candidates[next]).squaredNorm());
      if (!used[v] && (farthest < 0 || distance[v] > distance[farthest])) farthest = v;
    }
    next = farthest;
  }

  // quickhull rounds: the farthest vertex above each face, largest first, within the budget
  std::shared_ptr<const ConvexHull> hull;
  while (true) {
    std::vector<Vec3> subset;
    for (int v : selected) subset.push_back(candidates[v]);
    Diagnostics quiet;  // a degenerate seed set only means more seeds are needed
    hull = BuildConvexHull(subset, name, &quiet);
    const int budget = max_vertices - static_cast<int>(selected.size());
    if (budget <= 0 && hull) break;
    std::vector<std::pair<Real, int>> above;
    if (hull) {
      for (const ConvexHull::Face& face : hull->faces) {
        int best = -1;
        Real best_distance = tolerance;
        for (int v = 0; v < n; ++v) {
          if (used[v]) continue;
          const Real d = face.normal.dot(candidates[v]) - face.offset;
          if (d > best_distance) {
            best_distance = d;
            best = v;
          }
        }
        if (best >= 0) above.emplace_back(best_distance, best);
      }
    } else {
      // flat seeds: add the unused vertex farthest from them
      int farthest = -1;
      for (int v = 0; v < n; ++v) {
        if (!used[v] && (farthest < 0 || distance[v] > distance[farthest])) farthest = v;
      }
      if (farthest >= 0) above.emplace_back(distance[farthest], farthest);
    }
    if (above.empty()) break;
    std::sort(above.begin(), above.end(), std::greater<>());
    int added = 0;
    for (const auto& [d, v] : above) {
      if (added >= std::max(budget, hull ? 0 : 1)) break;
      if (used[v]) continue;
      used[v] = 1;
      selected.push_back(v);
      ++added;
      for (int w = 0; w < n; ++w) {
        distance[w] = std::min(distance[w], (candidates[w] - candidates[v]).squaredNorm());
      }
    }
    if (added == 0) break;
  }
  if (!hull) return full;
  return hull;
}

}  // namespace sim
