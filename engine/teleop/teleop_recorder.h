// TeleopRecorder: turns a live teleop session into a TeleopRecording (the studio's Record button).
// It watches a Simulation from the state the recording starts at (the scene's initial state,
// after a load or Simulation::Reset, so that a replay from the scene starts there too) and, after
// every Simulation::Step, appends the actions that step applied with the step they were applied
// at. Replaying the recording (engine/io/teleop_replay.h) reproduces the final state bit for bit.
//
// A reset, a drag or any other edit of the state between steps is not an action: start a new
// recording after one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/step/pipeline.h"
#include "engine/teleop/teleop_recording.h"

namespace sim {

class TeleopRecorder {
 public:
  /// Starts at `simulation`'s current state: its hash, the model's target names and the
  /// solver. `scene_path` and `overrides` are what a replay loads (the scene as the recording
  /// file will name it, relative to the file's folder; the `--set` assignments in order).
  TeleopRecorder(const Simulation& simulation, std::string scene_path,
                 std::vector<std::string> overrides);

  /// After each Simulation::Step: appends TeleopSession::last_applied() at the step index the
  /// step started from.
  void AfterStep(const Simulation& simulation);

  /// The recording so far with `steps` and the final state hash of `simulation` filled in.
  TeleopRecording Finish(const Simulation& simulation) const;

  const TeleopRecording& recording() const { return recording_; }
  std::uint64_t steps() const { return steps_; }

 private:
  TeleopRecording recording_;
  std::uint64_t first_step_ = 0;  // State::step where the recording starts
  std::uint64_t steps_ = 0;       // steps recorded so far
};

}  // namespace sim
