// A recorded teleop session: the scene it ran (file and the `--set` overrides that changed it), the
// initial state it started from (the scene's, identified by its StateHash), and the action stream
// with the step each action was applied at. Replaying the actions at the same steps from the same
// initial state reproduces the final state bit for bit on the CPU (TeleopSession integrates the
// rates over simulated time, never wall time).
//
// File format: engine/io/teleop_recording_file.h and docs/teleop-recording.md; replay:
// engine/io/teleop_replay.h; recording a live session: engine/teleop/teleop_recorder.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/teleop/teleop_action.h"

namespace sim {

/// One applied action and the step it was applied at: `step` is State::step before that step
/// (the first step of a run from a scene's initial state is step 0). `action.target` indexes
/// TeleopRecording::target_names (the model's teleop targets when recorded live).
struct RecordedAction {
  std::uint64_t step = 0;
  TeleopAction action;
};

struct TeleopRecording {
  std::string scene_path;              ///< as written; relative paths are relative to the file
  std::vector<std::string> overrides;  ///< `--set` assignments applied to the scene, in order
  std::string solver;                  ///< solver name the run used; empty: the scene's
  /// the target names the actions' indices refer to (Model::teleop_targets names when recorded;
  /// matched to the model's targets by name on replay)
  std::vector<std::string> target_names;
  /// StateHash of the state the recording starts from; 0: not recorded (not checked)
  std::uint64_t initial_state_hash = 0;
  std::uint64_t steps = 0;              ///< steps recorded; 0: not recorded
  std::uint64_t final_state_hash = 0;   ///< StateHash after `steps` steps; 0: not recorded
  std::vector<RecordedAction> actions;  ///< in the order applied (steps non-decreasing)
};

}  // namespace sim
