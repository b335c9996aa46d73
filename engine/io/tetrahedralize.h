// Tetrahedral meshes from closed triangle surfaces, so a user can drop in an OBJ/STL (or name a
// primitive) and get a soft body. Wraps TetGen 1.5 (Si 2015, "TetGen, a Delaunay-based quality
// tetrahedral mesh generator", ACM TOMS 41(2); Debian libtet1.5-dev, AGPL-3.0): a constrained
// Delaunay tetrahedralization of the surface as a piecewise linear complex (switch p), refined
// until every tet's radius-edge ratio is ≤ `quality` (q) and its volume ≤ `max_volume` (a).
// TetGen's failures (self-intersecting or open input, features below its tolerance) come back as
// located diagnostics naming the surface, never as an exit: open surfaces are caught before TetGen
// runs, self-intersections by its -d detector (TetGen 1.5.0 crashes when it aborts a meshing
// run, freeing its memory twice), the rest as the exception TetGen's library build throws.
#pragma once

#include <string>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/core/math.h"
#include "engine/geometry/tet_mesh.h"
#include "engine/geometry/triangle_mesh.h"

namespace sim::io {

struct TetrahedralizeOptions {
  /// Largest tet volume [m³]; 0: no bound (only the quality refinement adds points).
  Real max_volume = 0;
  /// Bound on every tet's circumradius / shortest edge ratio (TetGen -q), ≥ 1.1 [-]; TetGen's
  /// default 2 allows slivers, 1.5 gives well-shaped tets for FEM at a modest node count.
  Real quality = 1.5;
};

/// Tetrahedralizes the closed, outward-oriented surface `surface` (its coordinates become the
/// rest positions, [m]). `source` names the file the surface came from, for diagnostics. Errors
/// (returned as diagnostics only): an open or non-manifold surface, fewer than 4 vertices,
/// self-intersections and TetGen's other failures. The result is validated (ValidateTetMesh),
/// every tet positively oriented. TetGen cannot be interrupted: a cancel of `progress` is seen
/// before and after each of its runs (their time is bounded by the callers' tet budgets).
Expected<TetMesh> TetrahedralizeSurface(const TriangleMesh& surface,
                                        const TetrahedralizeOptions& options,
                                        const std::string& source,
                                        const LoadProgress& progress = {});

/// Largest volume [m³] of a tet whose edges are about `edge_length` [m]: the regular tet's
/// volume √2·L³/12.
Real TetVolumeForEdgeLength(Real edge_length);

}  // namespace sim::io
