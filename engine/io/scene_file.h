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
#include "engine/step/key_frame.h"

namespace sim::io {

/// A loaded scene: the immutable model and the state it starts from.
struct Scene {
  std::string path;                    ///< file it was loaded from
  std::shared_ptr<const Model> model;  ///< never null in a successful load
  State initial_state;
  /// the file's `keyframes`, in order: states and targets the studio can restore
  std::vector<KeyFrame> key_frames;
};

/// How a scene is read: where its files may be and how much work its objects may ask for. The
/// defaults are the studio's and contact-sim's.
struct SceneOptions {
  /// Folders whose files the scene may name besides its own folder, the shipped resources/ and
  /// the folders of CONTACT_STUDIO_FILE_ROOTS (file_roots.h); "/" allows every path.
  std::vector<std::string> file_roots;
  /// Most tets a tetrahedralized surface or primitive may ask for by volume (`mesh_size`; TetGen
  /// makes about 3x as many). TetGen's time grows with them (a 5 cm ball: 15k tets in 10 s, 444k
  /// in 145 s), so a larger request is refused before TetGen runs.
  double max_tets_by_volume = 25000;
  /// Most cells (of five tets) of a structured box (`cells`).
  double max_structured_cells = 1e6;
  /// Cells along the longest side of a soft body's rest-shape SDF (its contacts with other soft
  /// bodies).
  int soft_body_sdf_resolution = 32;
  /// Whether analytic fields get their drawn surface (65³ samples each); off where a scene is
  /// only read, not shown.
  bool draw_fields = true;
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
