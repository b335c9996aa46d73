// The shipped scenes: where they are and what each one is.
#pragma once

#include <string>
#include <vector>

#include "engine/core/diagnostics.h"

namespace sim::io {

struct SceneEntry {
  std::string path;         ///< full path of the scene file
  std::string id;           ///< path relative to the scenes directory, without ".json"
  std::string name;         ///< "name" field of the scene
  std::string description;  ///< "description" field of the scene
};

/// Finds the `scenes/` directory: $CONTACT_STUDIO_SCENES if set, else next to the executable's
/// build tree (<exe dir>/../../scenes, <exe dir>/../scenes), else the source tree this binary was
/// built from. Returns "" when none exists.
std::string FindScenesDirectory(const std::string& executable_path);

/// The default scene file (`<scenes dir>/default.json`), or "" when the directory is not found.
std::string DefaultScenePath(const std::string& executable_path);

/// All `*.json` scenes under `scenes_dir`, sorted by id. Scenes that fail to parse are listed
/// with their error in `diagnostics`.
std::vector<SceneEntry> ListScenes(const std::string& scenes_dir, Diagnostics* diagnostics);

}  // namespace sim::io
