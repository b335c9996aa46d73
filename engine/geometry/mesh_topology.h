// Topology of a triangle mesh: unique edges and their adjacent triangles, closedness and
// manifoldness, face and pseudonormals (Bærentzen & Aanæs 2005, "Signed distance computation using
// the angle weighted pseudonormal": the sign of (x − p)ᵀn at the closest point p of a closed mesh,
// with n the pseudonormal of the closest feature, is the sign of φ(x)), and representative
// triangles (Curtis, Tamstorf & Manocha 2008; digest pd-sdf-robotics.md §2.9): every vertex and
// edge is owned by exactly one incident triangle, so per-triangle contacts are not duplicated.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/math.h"
#include "engine/geometry/triangle_mesh.h"

namespace sim {

/// Derived connectivity of a `TriangleMesh`; built once (O(T log T)) and immutable after.
struct MeshTopology {
  /// Copy of the mesh's triangles (vertex indices), so feature queries need only the topology.
  std::vector<std::array<int, 3>> triangles;
  /// Unique undirected edges as (smaller, larger) vertex index, sorted lexicographically.
  std::vector<std::array<int, 2>> edges;
  /// The first two triangles adjacent to each edge, −1 when absent (edges with more than two
  /// triangles are counted in `nonmanifold_edges`; only two are stored).
  std::vector<std::array<int, 2>> edge_triangles;
  /// Edge k of triangle t joins its vertices k and (k + 1) % 3; −1 for a collapsed edge (a
  /// triangle with a repeated vertex index).
  std::vector<std::array<int, 3>> triangle_edges;
  /// Outward unit face normals (counter-clockwise winding); zero for degenerate triangles.
  std::vector<Vec3> face_normals;
  /// Angle-weighted vertex pseudonormals [-], unit; zero for vertices no triangle references.
  std::vector<Vec3> vertex_normals;
  /// Edge pseudonormals [-]: the normalized sum of the adjacent face normals.
  std::vector<Vec3> edge_normals;
  /// Representative triangle owning each vertex / edge, −1 for an unreferenced vertex.
  std::vector<int> vertex_owner;
  std::vector<int> edge_owner;

  /// Every edge has exactly two triangles that traverse it in opposite directions (a closed,
  /// consistently oriented 2-manifold surface, the precondition for signed distances).
  bool closed = false;
  int boundary_edges = 0;      ///< edges with one adjacent triangle
  int nonmanifold_edges = 0;   ///< edges with more than two adjacent triangles
  int inconsistent_edges = 0;  ///< two-triangle edges traversed in the same direction by both
  /// Triangles with area ≤ 1e-12 (longest edge)² or a repeated vertex index.
  int degenerate_triangles = 0;
  int first_degenerate_triangle = -1;  ///< for diagnostics, −1 when none
  int first_boundary_edge = -1;        ///< for diagnostics, −1 when none
  int first_nonmanifold_edge = -1;     ///< for diagnostics, −1 when none
  int first_inconsistent_edge = -1;    ///< for diagnostics, −1 when none

  int edge_count() const { return static_cast<int>(edges.size()); }
};

/// Builds the topology of `mesh`. Precondition: every vertex index is in range (`ValidateMesh`).
MeshTopology BuildMeshTopology(const TriangleMesh& mesh);

/// Feature of a triangle a point with barycentric coordinates `barycentric` lies on: a vertex when
/// two coordinates are ≤ `tolerance`, an edge when one is, else the face. Returns whether
/// `triangle` is the representative (owner) of that feature; faces are always their own, and so
/// is the collapsed edge of a degenerate triangle.
bool OwnsFeature(const MeshTopology& topology, int triangle, const Vec3& barycentric,
                 Real tolerance);

/// Checks `mesh` (loaded from `source_file`) and reports to `diagnostics` (line 0, every message
/// naming the mesh). Errors, returning false: empty mesh, vertex index out of range, non-finite
/// vertex. Warnings: degenerate triangles, non-manifold edges, open boundary, inconsistent
/// orientation.
bool ValidateMesh(const TriangleMesh& mesh, const std::string& source_file,
                  Diagnostics* diagnostics);

}  // namespace sim
