// Tetrahedral mesh files -> TetMesh, with located diagnostics. Formats, by extension:
//   .msh        Gmsh MSH 2.2 and 4.1, ASCII (binary files are reported as unsupported). Only
//               4-node tetrahedra (element type 4) are kept; other elements and sections other
//               than $MeshFormat, $Nodes and $Elements are skipped. Node tags may be sparse.
//   .node/.ele  TetGen: either file names the pair (same stem). 0- or 1-based indices, detected
//               from the first node index; '#' comments; attributes and boundary markers ignored;
//               10-node tets keep their 4 corners.
//   .vtk        legacy VTK ASCII, DATASET UNSTRUCTURED_GRID: POINTS, CELLS, CELL_TYPES; cells of
//               type 10 (VTK_TETRA) are kept, other cells ignored; POINT_DATA (or CELL_DATA,
//               FIELD, METADATA) and what follows is not read.
// Every problem is reported as `file:line: error: ...`; parsing goes on after an error where the
// file structure allows it, and the result is then the diagnostics only. Truncated or garbage
// input never crashes: every count read from the file is checked against what is actually there,
// and no allocation is sized by a count alone.
#pragma once

#include <string>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/core/math.h"
#include "engine/geometry/tet_mesh.h"

namespace sim::io {

/// Loads the tet mesh at `path` and validates it (ValidateTetMesh, with each tet's file line):
/// inverted, flat or out-of-range tets and non-finite nodes are errors. Node coordinates are
/// multiplied by `scale` (> 0, finite; file units -> m). The mesh is named after the file stem.
/// Warnings (unused nodes, a non-manifold boundary, skipped unknown sections) come with the value.
/// Thread-safe (no shared state). `progress` follows the reading through the text; a cancel ends
/// it with the kLoadCancelledMessage error.
Expected<TetMesh> LoadTetMesh(const std::string& path, Real scale = 1,
                              const LoadProgress& progress = {});

}  // namespace sim::io
