// Scene files (JSON): gravity, solver options, materials, camera and objects. Every error names the
// file, the line and the JSON path of the offending value. Format reference: docs/scene-format.md.
#pragma once

#include <memory>
#include <string>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim::io {

/// A loaded scene: the immutable model and the state it starts from.
struct Scene {
  std::string path;                    ///< file it was loaded from
  std::shared_ptr<const Model> model;  ///< never null in a successful load
  State initial_state;
};

/// Loads and validates a scene file. Paths inside are relative to the file. Never throws for bad
/// input: all problems found are returned as diagnostics. `progress` (optional) is told each
/// object, mesh, SDF and tetrahedralization and reaches 1 on success; once it is cancelled the
/// load stops at its next check and returns the one kLoadCancelledMessage error, about `path`.
Expected<Scene> LoadScene(const std::string& path, const LoadProgress& progress = {});

/// Same, from text already in memory; `source_name` is used in diagnostics.
Expected<Scene> ParseScene(const std::string& text, const std::string& source_name,
                           const LoadProgress& progress = {});

}  // namespace sim::io
