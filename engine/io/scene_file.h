// Scene files (JSON): gravity, solver options, materials, camera and objects. Every error names the
// file, the line and the JSON path of the offending value. Format reference: docs/scene-format.md.
#pragma once

#include <memory>
#include <string>
#include <vector>

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

/// How a scene is read. The defaults are the studio's and contact-sim's.
struct SceneOptions {
  /// Folders whose files the scene may name besides its own folder, the shipped resources/ and
  /// the folders of CONTACT_STUDIO_FILE_ROOTS (file_roots.h); "/" allows every path.
  std::vector<std::string> file_roots;
  /// Progress and cancellation of the load (load_monitor.h); unmonitored by default.
  LoadProgress progress;
};

/// Loads and validates a scene file. Paths inside are relative to the file. Never throws for bad
/// input: all problems found are returned as diagnostics. `options.progress` (optional) is told
/// each object, mesh, SDF and tetrahedralization and reaches 1 on success; once it is cancelled
/// the load stops at its next check and returns the one kLoadCancelledMessage error, about `path`.
Expected<Scene> LoadScene(const std::string& path, const SceneOptions& options = {});

/// Same, from text already in memory; `source_name` is used in diagnostics, and files are
/// resolved against (and confined to) its folder as for a file of that name.
Expected<Scene> ParseScene(const std::string& text, const std::string& source_name,
                           const SceneOptions& options = {});

/// LoadScene and ParseScene with default options and a monitored progress.
inline Expected<Scene> LoadScene(const std::string& path, const LoadProgress& progress) {
  return LoadScene(path, SceneOptions{.progress = progress});
}
inline Expected<Scene> ParseScene(const std::string& text, const std::string& source_name,
                                  const LoadProgress& progress) {
  return ParseScene(text, source_name, SceneOptions{.progress = progress});
}

}  // namespace sim::io
