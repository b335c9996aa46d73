// Turns an operator's commands for a scene's teleop targets (Model::teleop_targets) into joint
// drive targets in Control, once per simulation step, on the thread that steps (devices and UI
// live elsewhere and only set commands here).
//
// End effectors: the IK (engine/kinematics/dls_ik.h) iterates on the commanded configuration
// q_cmd, one step per simulation step with |Δq| ≤ max_joint_speed·dt, and q_cmd becomes the drive
// targets; the drives then track q_cmd. q_cmd starts at the measured joint positions and is reset
// to them when the measured arm lags more than `kResyncDistance` behind (blocked by contact), so
// the command never winds up far from the robot.
// Grippers and synergies: θ*_k = open_k + a·(closed_k − open_k) for the axis a ∈ [0, 1].
// Bases: the commanded velocity (v_x, v_y in the heading frame of the yaw joint, ω) becomes the
// drives' target velocities and the integral of it their target positions.
// Look-at targets (heads): the pose target's position is the point to look at; each step the
// orientation target is the smallest turn of the commanded end-effector frame that points its
// look axis at the point, and the IK (orientation only) steps towards it. The point starts 1 m
// along the axis.
#pragma once

#include <optional>
#include <vector>

#include "engine/kinematics/dls_ik.h"
#include "engine/model/model.h"
#include "engine/state/control.h"
#include "engine/state/state.h"

namespace sim {

class TeleopController {
 public:
  /// Joint-space distance of measured from commanded positions beyond which q_cmd is reset to
  /// the measured positions [rad|m] (the largest |Δ| over the chain's joints).
  static constexpr Real kResyncDistance = 0.3;

  /// Controllers for every teleop target of `model` (its chains were checked by the loader; a
  /// target whose chain fails here is skipped and reported by `chain_errors`).
  explicit TeleopController(const Model& model);

  /// Forgets the commands and seeds every end effector's target and q_cmd from `state` (the
  /// targets then hold the current pose).
  void Reset(const Model& model, const State& state);

  /// Commands. `target` indexes Model::teleop_targets; a call for the wrong type is ignored.
  void SetPoseTarget(int target, const Pose& X_WT);
  void SetAxis(int target, Real axis);  ///< gripper or synergy, clamped to [0, 1]
  /// base: v_x, v_y [m/s] in the heading frame, ω [rad/s]; clamped to the target's max speeds
  void SetBaseVelocity(int target, const Vec3& velocity);

  /// Writes the drive targets of every commanded target into `control` (sized for the model by
  /// MakeControl) for a step of `dt` [s] from `state`.
  void Apply(const Model& model, const State& state, Real dt, Control* control);

  /// The end effector's current pose in the world at `state`, and its pose target (for a look_at
  /// target: the point, with the identity orientation); nullopt for other target types.
  std::optional<Pose> EndEffectorPose(int target, const State& state) const;
  std::optional<Pose> PoseTarget(int target) const;
  /// Whether the end effector has a pose target yet (before its first Apply or a
  /// SetPoseTarget it has none and holds the current pose).
  bool HasPoseTarget(int target) const { return arms_[target] && arms_[target]->has_target; }
  /// The end effector's kinematic chain, or nullptr for other target types.
  const KinematicChain* Chain(int target) const {
    return arms_[target] ? &arms_[target]->ik.chain() : nullptr;
  }
  /// The last IK step of an end effector (errors, damping), or nullptr.
  const IkResult* LastIkResult(int target) const;
  const std::vector<std::string>& chain_errors() const { return chain_errors_; }

 private:
  struct EndEffector {
    DlsIk ik;
    Vec3 look_point = Vec3::Zero();  ///< look_at: the point [m], world
    IkTarget target;
    VecX q_command;           ///< empty until seeded
    bool has_target = false;  ///< false: the first Apply holds the current pose
    IkResult last;
  };
  std::vector<std::optional<EndEffector>> arms_;  // per teleop target
  std::vector<Real> axes_;                        // gripper/synergy axis, NaN: not commanded
  std::vector<Vec3> base_velocity_;               // base command
  std::vector<Vec3> base_position_;               // integrated x, y, yaw targets (NaN: unseeded)
  std::vector<TeleopTarget> targets_;
  std::vector<std::string> chain_errors_;
};

}  // namespace sim
