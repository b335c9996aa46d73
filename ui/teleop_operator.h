// TeleopOperator: the simulation worker's side of teleoperation (worker thread only, no Qt). It
// hands the devices' actions to every lane's TeleopSession at the next step (all lanes get the
// same actions, so compared solvers see the same operator), measures the input-to-step latency,
// records the session (from the scene's initial state, as a TeleopRecording) and replays one, and
// fills the gizmo's targets into the drawn frame.
//
// Latency: an action's device time stamp to the start of the step that applies it (wall clock,
// TeleopClockSeconds), and the steps between its arrival at the worker and that step: commands
// are drained between steps, so an action always reaches the very next step (1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/model.h"
#include "engine/teleop/teleop_action.h"
#include "engine/teleop/teleop_recorder.h"
#include "engine/teleop/teleop_recording.h"
#include "engine/visual/visual_frame.h"

namespace sim {
class Simulation;
}

namespace sim::ui {

/// One teleop target as the panels show it.
struct TeleopTargetStatus {
  std::string name;
  TeleopTargetType type = TeleopTargetType::kEndEffector;
  bool has_pose = false;     ///< end effectors: target and actual below are set
  Pose target;               ///< pose target, world
  Pose actual;               ///< end-effector pose, world
  Real position_error = 0;   ///< |p_T − p_E| [m]
  Real rotation_error = 0;   ///< angle of R_T R_Eᵀ [rad]
  int saturated_joints = 0;  ///< joints the IK held at a limit in the last step
  Real axis = 0;             ///< gripper/synergy axis in effect [0, 1]; NaN: not commanded
};

/// What the studio shows of teleoperation, published with every snapshot.
struct TeleopStatus {
  bool available = false;  ///< the scene declares teleop targets
  bool engaged = false;    ///< the operator has the robot (the scene script is paused)
  bool mode = false;       ///< teleop mode is on in the studio (gizmo drawn, keys mapped)
  int active_target = -1;  ///< the end effector the gizmo is on, or −1
  std::vector<TeleopTargetStatus> targets;
  // latency of the device actions applied so far (since the scene loaded)
  std::uint64_t latency_samples = 0;
  double latency_last_ms = 0, latency_mean_ms = 0, latency_max_ms = 0;
  int latency_max_steps = 0;  ///< steps from arrival to application, largest seen
  // recording and replay
  bool recording = false;
  std::uint64_t recorded_steps = 0;
  std::size_t recorded_actions = 0;
  bool replaying = false;
  std::uint64_t replay_step = 0, replay_steps = 0;
  std::string message;  ///< the last record/replay outcome ("replay: final state hash matches")
};

class TeleopOperator {
 public:
  /// A new scene: forgets everything but the mode.
  void Reset(const Model& model);
  /// The lanes went back to their initial states: a recording restarts at step 0, a replay stops.
  void OnLanesReset(const Simulation& lane0);

  /// Queues a device action for the next step (`arrival_step`: lane 0's step now).
  void Submit(const TeleopAction& action, std::uint64_t arrival_step);
  void SetMode(bool on, int active_target);

  /// Starts recording (the caller has reset the lanes), with the scene file it records and the
  /// `--set` assignments lane 0 runs with.
  void StartRecording(const Simulation& lane0, const std::string& scene_file,
                      const std::vector<std::string>& overrides);
  /// Stops recording and writes the recording to `path` (its scene named relative to it); false
  /// with `*error` set when none was running or the file could not be written.
  bool StopRecording(const Simulation& lane0, const std::string& path, std::string* error);
  /// Starts replaying `recording` (the caller has loaded its scene and reset the lanes); its
  /// targets are matched to lane 0's by name. False (and the message says why) when a target is
  /// not in the scene.
  bool StartReplay(TeleopRecording recording, const Simulation& lane0);
  bool replaying() const { return replay_.has_value(); }
  bool recording() const { return recorder_.has_value(); }
  /// True once a replay has stepped through all its steps (the caller pauses).
  bool replay_finished() const { return replay_finished_; }

  /// Before lane k steps: submits the queued (or replayed) actions of this step to its session.
  void BeforeStep(int lane, Simulation* simulation, std::uint64_t lane0_step);
  /// After every lane stepped: clears the queue, records lane 0's applied actions, advances the
  /// replay and compares its final state.
  void AfterSteps(const Simulation& lane0);

  /// The status of lane 0's targets and the operator.
  void FillStatus(const Simulation& lane0, TeleopStatus* status) const;
  /// Lane 0's end-effector targets for the gizmo (empty unless in teleop mode).
  void FillGizmo(const Simulation& lane0, std::vector<VisualTeleopTarget>* targets) const;

 private:
  struct Queued {
    TeleopAction action;
    std::uint64_t arrival_step = 0;
  };
  std::vector<Queued> queue_;
  bool mode_ = false;
  int active_target_ = -1;
  // latency meter
  std::uint64_t latency_samples_ = 0;
  double latency_sum_ms_ = 0, latency_last_ms_ = 0, latency_max_ms_ = 0;
  int latency_max_steps_ = 0;
  // recording
  std::optional<TeleopRecorder> recorder_;
  std::string recorded_scene_;  // the scene file the recording is of
  // replay: the recording (targets as lane 0's indices), the next action to submit, the steps
  // taken since it started (Step calls, as io::ReplayTeleopRecording counts them)
  std::optional<TeleopRecording> replay_;
  std::size_t replay_next_ = 0;
  std::uint64_t replay_step_ = 0;
  bool replay_finished_ = false;
  std::string message_;
};

}  // namespace sim::ui
