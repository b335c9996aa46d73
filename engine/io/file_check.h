// `contact-sim check FILE`: validates any input file the studio loads and returns its diagnostics.
#pragma once

#include <string>

#include "engine/core/diagnostics.h"

namespace sim::io {

/// What was checked, for the one-line summary of a file without errors.
struct CheckSummary {
  std::string kind;     ///< "scene", "urdf", "mesh", "tet mesh", "teleop recording"
  std::string details;  ///< e.g. "3 bodies, 4 shapes"
};

/// Checks `path` by its extension: .teleop.json teleop recording (the file alone), .json scene,
/// .urdf robot (urdfdom), tet mesh (.msh, .node, .ele, .vtk: LoadTetMesh), mesh formats assimp
/// reads (.obj, .stl, .dae, .ply, ...). Unknown or unsupported kinds are reported as errors.
Diagnostics CheckFile(const std::string& path, CheckSummary* summary);

}  // namespace sim::io
