// A tetrahedral mesh at rest (the volume of a deformable body), its validation and its boundary
// surface. Plain arrays so the same data can be copied to the GPU; loaded from files by
// engine/io/tet_mesh_loader.h.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/math.h"

namespace sim {

/// Nodes and tetrahedra of a volume mesh. Every tet is positively oriented:
/// det[v1 − v0, v2 − v0, v3 − v0] > 0 (the VTK_TETRA and TetGen convention).
struct TetMesh {
  std::string name;                      ///< for diagnostics (file stem, "sphere1K")
  std::vector<Vec3> nodes;               ///< rest positions [m], body frame
  std::vector<std::array<int, 4>> tets;  ///< 0-based node indices, positively oriented

  int node_count() const { return static_cast<int>(nodes.size()); }
  int tet_count() const { return static_cast<int>(tets.size()); }
};

/// Signed volume of the tet (p0, p1, p2, p3): det[p1 − p0, p2 − p0, p3 − p0] / 6 [m³]. Positive
/// when p3 lies on the side of triangle (p0, p1, p2) that its counter-clockwise normal points to.
Real TetSignedVolume(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3);

/// Signed volume of tet `t` of `mesh` [m³]. Precondition: its node indices are in range.
Real TetSignedVolume(const TetMesh& mesh, int t);

/// The boundary of a tet mesh: the faces used by exactly one tet.
struct TetSurface {
  std::vector<std::array<int, 3>> triangles;  ///< node indices, counter-clockwise seen from outside
  std::vector<int> triangle_tet;              ///< the tet each triangle is a face of
  std::vector<int> surface_nodes;             ///< the nodes on the boundary, ascending

  int triangle_count() const { return static_cast<int>(triangles.size()); }
};

/// Faces used by exactly one tet, oriented outward for positively oriented tets; in tet order,
/// then in local face order (opposite node 0, 1, 2, 3), so the result is deterministic.
/// Faces shared by three or more tets (a non-manifold volume) are not boundary faces.
/// Precondition: node indices are in range (ValidateTetMesh). Complexity O(tet_count) expected
/// (one hash map of sorted face keys).
TetSurface ExtractBoundary(const TetMesh& mesh);

/// Where each node and tet of a mesh was defined, so validation errors point at the file line.
/// Any vector may be empty (or shorter than the mesh) when lines are unknown.
struct TetSourceLines {
  std::string node_source;     ///< file that defines the nodes (empty: the `source` argument)
  std::vector<int> node_line;  ///< 1-based line per node
  std::string tet_source;      ///< file that defines the tets (empty: the `source` argument)
  std::vector<int> tet_line;   ///< 1-based line per tet
};

/// Relative threshold of the degenerate-tet test: a tet is flat when |6V| ≤ kTetFlatTolerance·L³,
/// L its longest edge. 1e-12 is about 1e4 double round-offs of the determinant, so only tets
/// that are flat to rounding are rejected; slivers that are merely poor stay (a quality measure
/// is a separate question).
inline constexpr Real kTetFlatTolerance = 1e-12;

/// Checks `mesh` and adds a diagnostic per problem, naming the mesh and the 0-based node or tet:
///  - errors: a node index out of range, a non-finite node coordinate, a node repeated within a
///    tet, a flat tet (|6V| ≤ kTetFlatTolerance·L³), an inverted tet (V < 0, with its volume),
///    an empty mesh;
///  - warnings: nodes used by no tet, a non-manifold boundary (a face shared by more than two
///    tets, or a boundary edge not shared by exactly two boundary triangles).
/// Each kind of error is listed for the first 20 nodes or tets, then counted in one more error.
/// `source` is the file name the diagnostics carry; `lines` (optional) gives each node's and tet's
/// line. Returns true when no error was added. Complexity O(node_count + tet_count).
bool ValidateTetMesh(const TetMesh& mesh, const std::string& source, Diagnostics* diagnostics,
                     const TetSourceLines* lines = nullptr);

/// A structured tet mesh of the box [−size/2, size/2] [m]: cells[0] × cells[1] × cells[2] hexahedra
/// (each ≥ 1), each split into five tets, the split mirrored on alternate cells (by the parity of
/// i + j + k) so that the faces of neighbouring cells match. Among the standard splits this one is
/// the least stiff in bending (measured on the cantilever of tests/physics, against the 6-tet
/// Kuhn split). Node (i, j, k) has index (i·(ny + 1) + j)·(nz + 1) + k.
TetMesh StructuredBoxTetMesh(const Vec3& size, const std::array<int, 3>& cells,
                             const std::string& name = "box");

}  // namespace sim
