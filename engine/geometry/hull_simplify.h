// A convex hull with at most N vertices, for collision: file meshes of robot links have hulls of
// thousands of vertices, and the hull–hull narrow phase (SAT over face normals and edge pairs,
// O(F₁V₂ + F₂V₁ + E₁E₂)) slows down with their square. The simplified hull is the hull of a
// subset of the full hull's vertices chosen as quickhull does, but stopping at the budget:
//   start from a farthest-point spread of the extreme vertices, then repeatedly add, for every
//   face of the current hull, the vertex farthest above it (distance nᵀx − o > 0), largest
//   distances first, until N vertices are used or no vertex lies more than `tolerance` outside.
// The result lies inside the full hull (its vertices are the full hull's), so contacts start at
// most `OutsideDistance` late; it is exact when the full hull has at most N vertices.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/math.h"
#include "engine/geometry/convex_hull.h"

namespace sim {

/// Default vertex budget of a collision hull built from a mesh file.
inline constexpr int kDefaultHullVertices = 64;

/// The hull of `points` with at most `max_vertices` (≥ 4) vertices, as described above. Errors as
/// BuildConvexHull (named `name`); null after an error.
std::shared_ptr<const ConvexHull> BuildSimplifiedHull(const std::vector<Vec3>& points,
                                                      const std::string& name, int max_vertices,
                                                      Diagnostics* diagnostics);

/// Largest distance [m] of a point of `points` outside `hull` (0 when all are inside).
Real OutsideDistance(const ConvexHull& hull, const std::vector<Vec3>& points);

}  // namespace sim
