// TeleopSession: the operator's side of a simulation. It queues TeleopActions from devices (or a
// replayed recording), applies them at the start of the next step, integrates the held rates over
// the step and hands the resulting targets to the TeleopController, which writes joint drive
// targets (IK for end effectors). Simulation::Step calls it once per step on the stepping thread.
//
// Engagement: until the first action arrives the session writes nothing, so a scene's joint script
// (the scripted versions of the teleop scenes, used by the benchmarks) runs unchanged; from the
// first action on the operator has the robot and the script is paused until the simulation is
// reset (Simulation::Reset makes a new session).
//
// Rate-driven end-effector targets never lead the end effector by more than `kMaxLead`: holding a
// key towards a wall or out of reach does not wind the target up, and reversing moves the arm back
// at once.
//
// An end effector whose chain starts at a body (e.g. Fetch's torso link) keeps its pose target
// fixed in that body's frame between actions: the target rides along when a mobile base drives,
// as an operator holding the arm still expects. Actions still speak world poses and twists.
#pragma once

#include <optional>
#include <vector>

#include "engine/model/model.h"
#include "engine/state/control.h"
#include "engine/state/state.h"
#include "engine/teleop/teleop_action.h"
#include "engine/teleop/teleop_controller.h"

namespace sim {

class TeleopSession {
 public:
  /// Largest distance of a rate-driven pose target from the end effector [m].
  static constexpr Real kMaxLead = 0.15;
  /// Largest rotation of a rate-driven pose target from the end effector's orientation [rad].
  static constexpr Real kMaxRotationLead = 0.6;

  explicit TeleopSession(const Model& model);

  /// Queues an action for the next Apply (an out-of-range target is dropped there).
  void Submit(const TeleopAction& action);

  /// True once an action has been applied since the session was made.
  bool engaged() const { return engaged_; }

  /// Applies the queued actions, integrates held rates over `dt` [s] and writes the drive targets
  /// of the commanded targets into `control`. Does nothing before the first action.
  void Apply(const Model& model, const State& state, Real dt, Control* control);

  /// The actions applied by the last Apply, in order (recording, latency).
  const std::vector<TeleopAction>& last_applied() const { return applied_; }

  const TeleopController& controller() const { return controller_; }
  int target_count() const { return static_cast<int>(targets_.size()); }
  const TeleopTarget& target(int t) const { return targets_[t]; }

  /// The gripper/synergy axis in effect [0, 1], or NaN when not commanded yet.
  Real Axis(int target) const { return axes_[target]; }

  /// The per-step command vector (the "actions" of a demonstration): per target in model order,
  /// an end effector's pose target p (3, m) and q (4, w x y z), an axis (1, NaN until commanded), a
  /// base's velocity (3: v_x, v_y [m/s], ω [rad/s]), a look-at target's point (3, m).
  VecX CommandVector(const State& state) const;
  int command_size() const;

 private:
  void ApplyAction(const Model& model, const State& state, const TeleopAction& action);
  // the end effector's pose target to integrate from (its current target, else its pose)
  Pose CurrentPoseTarget(int target, const State& state) const;
  Real MeasuredAxis(const Model& model, const State& state, int target) const;

  TeleopController controller_;
  std::vector<TeleopTarget> targets_;
  std::vector<TeleopAction> queue_;
  std::vector<TeleopAction> applied_;
  std::vector<Vec3> linear_rate_;   // end effector twist, base velocity
  std::vector<Vec3> angular_rate_;  // end effector
  std::vector<Real> axis_rate_;     // gripper, synergy [1/s]
  std::vector<Real> axes_;          // in effect, NaN: not commanded
  // end effectors on a moving chain base: the pose target in the base's frame, once known
  std::vector<std::optional<Pose>> X_BaseT_;
  bool engaged_ = false;
};

}  // namespace sim
