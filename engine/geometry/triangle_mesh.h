// A triangle mesh in the frame of the shape that owns it: the surface of a collision mesh, of a
// convex hull's source, or the boundary of a tetrahedral mesh at rest. Plain arrays so the same
// data can be copied to the GPU.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/core/math.h"

namespace sim {

struct TriangleMesh {
  std::string name;                           ///< for diagnostics ("fetch/base_link.dae")
  std::vector<Vec3> vertices;                 ///< [m], shape frame
  std::vector<std::array<int, 3>> triangles;  ///< vertex indices, counter-clockwise from outside
  std::vector<Vec2> uvs;                      ///< texture coordinates per vertex, or empty

  int vertex_count() const { return static_cast<int>(vertices.size()); }
  int triangle_count() const { return static_cast<int>(triangles.size()); }
  bool has_uvs() const { return !uvs.empty(); }
};

}  // namespace sim
