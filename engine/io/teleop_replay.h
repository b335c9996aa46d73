// Replaying a teleop recording (teleop_recording_file.h): load the scene it names, apply its
// overrides and solver, check that the scene still starts from the recorded state, submit every
// action before the step it was applied at and step the recording's length. Because the session
// integrates rates over simulated time, the final state of a replay equals the recorded one bit
// for bit (StateHash) on the CPU; a mismatch means the engine or the scene's data changed.
//
// Used by `contact-sim replay`, the demonstration export (engine/io/hdf5/demo_hdf5.h), the
// studio's replay and the tests of the shipped recordings.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/core/diagnostics.h"
#include "engine/io/run_report.h"
#include "engine/io/teleop_recording_file.h"
#include "engine/model/model.h"
#include "engine/state/state.h"
#include "engine/step/pipeline.h"
#include "engine/teleop/teleop_recording.h"

namespace sim::io {

struct ReplayOptions {
  /// Steps to run; 0: the recording's `steps`, or without them its last action's step plus one
  /// simulated second (at least one second).
  std::uint64_t steps = 0;
  /// Called once before the first step with the simulation at the recording's initial state.
  std::function<void(const Simulation&)> on_start;
  /// Called after every step with the simulation (state, contacts, teleop session), e.g. to
  /// sample a demonstration or dump contacts. Runs on the calling thread.
  std::function<void(const Simulation&)> observer;
};

struct ReplayResult {
  TeleopRecordingFile file;            ///< the recording as read
  std::shared_ptr<const Model> model;  ///< the scene's model with the overrides and solver applied
  std::string solver;                  ///< the solver that ran
  std::uint64_t steps = 0;             ///< steps run
  State final_state;
  std::uint64_t initial_state_hash = 0;  ///< StateHash of the scene's initial state
  std::uint64_t final_state_hash = 0;    ///< StateHash of final_state
  /// the recording has a final hash for this many steps, so the replay was compared with it
  bool compared = false;
  bool matches = false;         ///< compared and equal
  int actions_applied = 0;      ///< actions the teleop session applied
  int actions_not_reached = 0;  ///< actions at steps at or after `steps` (a shorter --steps)
  StatusCounts status;          ///< the steps' StepStatus bits (non-finite, runaway, ...)
  /// the recording with this run's initial and final hashes, steps and solver, its targets the
  /// model's (all of them, in model order): what `contact-sim replay --record` writes. Its
  /// scene_path is the file's as written (relative to the file read).
  TeleopRecording verified;
};

/// Replays the recording at `path`. Errors (all located): the file's (teleop_recording_file.h),
/// the scene's, a bad override or solver (at its line in the recording), a target name the scene
/// does not declare (at the line that names it), actions on a scene without teleop targets, and
/// an initial state that differs from the recorded hash (the scene changed since recording).
/// A final state that differs is not an error: `matches` says it.
Expected<ReplayResult> ReplayTeleopRecording(const std::string& path,
                                             const ReplayOptions& options = {});

/// The same for a recording already read.
Expected<ReplayResult> ReplayTeleopRecording(const TeleopRecordingFile& file,
                                             const ReplayOptions& options = {});

}  // namespace sim::io
