// Teleop recording files (`*.teleop.json`): a TeleopRecording as JSON, read with every mistake
// located (`file:line: error: ...`) and written so that every number reads back bit for bit.
// Format reference: docs/teleop-recording.md.
//
//   {"format": "contact-studio-teleop-recording", "version": 1,
//    "scene": "../../scenes/fetch_tomato.json", "overrides": ["solver.newton_iterations=8"],
//    "solver": "nsn", "targets": ["arm", "gripper"], "initial_state_hash": "0x0123456789abcdef",
//    "steps": 1200, "final_state_hash": "0x0123456789abcdef",
//    "actions": [{"step": 0, "kind": "set_pose", "target": "arm", "position": [0.6, 0, 0.9],
//                 "quaternion_wxyz": [1, 0, 0, 0]}, ...]}
//
// Target names are resolved against the scene's teleop targets at replay (teleop_replay.h); this
// file checks everything that needs no scene.
#pragma once

#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/teleop/teleop_recording.h"

namespace sim::io {

inline constexpr const char* kTeleopRecordingFormat = "contact-studio-teleop-recording";
inline constexpr int kTeleopRecordingVersion = 1;

/// A recording as read from a file, with where its parts were written so that the replay can
/// locate the errors it finds against the scene.
struct TeleopRecordingFile {
  std::string path;  ///< the file read (the source of its diagnostics)
  /// the recording; an action's target indexes `recording.target_names` (the file's `targets`,
  /// else the names in the order the actions first use them), −1 for a reset of every target
  TeleopRecording recording;
  std::string scene_file;           ///< `scene` resolved against the file's folder
  int scene_line = 0;               ///< line of `scene`
  std::vector<int> override_lines;  ///< per override, its line
  int solver_line = 0;              ///< line of `solver` (0: absent)
  std::vector<int> target_lines;    ///< per target name, the line that first names it
  int initial_state_hash_line = 0;  ///< 0: absent
  int final_state_hash_line = 0;    ///< 0: absent
  std::vector<int> action_lines;    ///< per action, the line of its object
};

/// Reads and checks a recording file: the format and version, the scene (must exist), arrays of
/// 3 (position, linear, angular) and 4 (quaternion_wxyz) finite numbers, known kinds, a target
/// on every action but a reset, steps whole and non-decreasing and below `steps`, hashes as
/// "0x" + hexadecimal. Unknown keys are warnings. Errors are located in `path`.
Expected<TeleopRecordingFile> ReadTeleopRecording(const std::string& path);

/// The same from text in memory; `source_name` names it in diagnostics and is the path the
/// scene is resolved against.
Expected<TeleopRecordingFile> ParseTeleopRecording(const std::string& text,
                                                   const std::string& source_name);

/// The file's text: keys in the order above, one action per line, numbers in the shortest form
/// that reads back to the same double (std::to_chars), hashes as 0x + 16 hex digits; steps and
/// hashes that are 0 (not recorded) and an empty solver are left out.
std::string TeleopRecordingJson(const TeleopRecording& recording);

/// Writes TeleopRecordingJson to `path`; false with `*error` set on failure.
bool WriteTeleopRecording(const std::string& path, const TeleopRecording& recording,
                          std::string* error);

/// `scene_file` as a recording written to `recording_path` names it: relative to the
/// recording's folder (absolute when no relative path leads there).
std::string ScenePathFor(const std::string& scene_file, const std::string& recording_path);

/// "0x0123456789abcdef".
std::string FormatStateHash(std::uint64_t hash);

}  // namespace sim::io
