// Convex hull of a point set (a collision mesh simplified for fast contact), built with qhull.
// Faces are planar polygons (qhull's coplanar facets merged), so a box's hull has 6 faces of 4
// vertices and the narrow phase can clip faces as it does for boxes.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/math.h"
#include "engine/geometry/triangle_mesh.h"

namespace sim {

struct ConvexHull {
  /// One planar face: outward unit normal n and offset o (points x of the face have nᵀx = o), and
  /// its vertices as a counter-clockwise loop seen from outside, `face_vertices[first ..
  /// first + count)`.
  struct Face {
    Vec3 normal = Vec3::UnitZ();
    Real offset = 0;  ///< [m]
    int first = 0;
    int count = 0;
  };

  std::string name;            ///< the shape's name, for diagnostics
  std::vector<Vec3> vertices;  ///< hull vertices only (interior input points dropped) [m]
  std::vector<Face> faces;
  std::vector<int> face_vertices;
  std::vector<std::array<int, 2>> edges;           ///< unique undirected edges (vertex indices)
  std::vector<std::vector<int>> vertex_neighbors;  ///< adjacent vertices (hill-climbing support)
  Vec3 centroid = Vec3::Zero();                    ///< of the solid [m]
  Real volume = 0;                                 ///< [m³]
  Mat3 unit_inertia = Mat3::Zero();  ///< of the solid with density 1 about the centroid [m⁵]

  /// Index of the vertex with the largest dot product with `direction` (support mapping).
  int Support(const Vec3& direction) const;
  /// The faces fan-triangulated (for drawing and for building an SDF).
  TriangleMesh AsTriangleMesh() const;
};

/// Builds the hull of `points` (shape frame [m]). Reports an error naming `name` and returns null
/// for fewer than 4 points, non-finite points, or a zero-volume (flat or collinear) point set.
std::shared_ptr<const ConvexHull> BuildConvexHull(const std::vector<Vec3>& points,
                                                  const std::string& name,
                                                  Diagnostics* diagnostics);

}  // namespace sim
