// The action layer's state between the devices and the TeleopSession: which of the model's teleop
// targets are active (one end effector, one hand — a gripper or synergy — and one base), and the
// held intent values of every device, summed and turned into sim::TeleopActions for the active
// targets:
//   move_* / rotate_*        → kPoseVelocity of the active end effector, in the world frame (the
//                              intents are in the teleop frame R_WF, e.g. the camera's; identity:
//                              the world's)
//   base_forward/strafe/turn → kBaseVelocity of the active base
//   synergy                  → kAxisRate of the active hand; gripper, gripper_toggle → kSetAxis
//   reset                    → kReset of every target (target −1)
// An action is emitted only when the value it carries changes (a rate held constant is sent once,
// the session holds it), and switching the active end effector or hand stops the old one's rates
// and hands the held values to the new one. Not thread-safe: the devices poll on one thread.
#pragma once

#include <array>
#include <vector>

#include "engine/core/math.h"
#include "engine/model/teleop_spec.h"
#include "engine/teleop/teleop_action.h"
#include "ui/devices/action_mapping.h"

namespace sim::devices {

class TeleopRig {
 public:
  /// The rig of a model's teleop targets (Model::teleop_targets); the first end effector, hand
  /// and base are active.
  explicit TeleopRig(const std::vector<TeleopTarget>& targets);

  /// The active targets (indices into the model's teleop targets), −1 where the model has none.
  int active_end_effector() const { return end_effector_; }
  int active_hand() const { return hand_; }
  int active_base() const { return base_; }
  /// The targets of each kind, in model order.
  const std::vector<int>& end_effectors() const { return end_effectors_; }
  const std::vector<int>& hands() const { return hands_; }
  const std::vector<int>& bases() const { return bases_; }

  /// Makes `target` the active end effector, hand or base (a panel's choice); the old one's
  /// rates stop. A target of another type is ignored.
  void Select(int target, double stamp_seconds, std::vector<TeleopAction>* actions);

  /// The frame the move and rotate intents are in, as its rotation in the world (a camera's
  /// R_WC for camera-relative teleop). Takes effect with the next change of a held value.
  void SetFrame(const Quat& R_WF) { R_WF_ = R_WF.normalized(); }
  /// The operator's speed scale on the end-effector and base rates (the panel's; 1: the
  /// mapping's speeds). Takes effect with the next change of a held value.
  void SetSpeedScale(double scale) { speed_scale_ = scale; }
  double speed_scale() const { return speed_scale_; }

  /// Device `device`'s value of held intent `intent` is now `value` ([m/s], [rad/s], [1/s], or
  /// the gripper axis in [0, 1]); the actions it causes are appended to `actions`.
  void SetHeld(DeviceKind device, Intent intent, double value, double stamp_seconds,
               std::vector<TeleopAction>* actions);
  /// Button intent `intent` was pressed.
  void Trigger(Intent intent, double stamp_seconds, std::vector<TeleopAction>* actions);
  /// Every held value of `device` back to zero (removed, lost focus).
  void ReleaseDevice(DeviceKind device, double stamp_seconds, std::vector<TeleopAction>* actions);

  /// The sum over devices of a held intent's value.
  double Held(Intent intent) const;

 private:
  // emits the rates of the active targets where they differ from what was last sent
  void Sync(double stamp_seconds, std::vector<TeleopAction>* actions);
  // stops the rates last sent to `target`
  void Stop(int target, double stamp_seconds, std::vector<TeleopAction>* actions);
  // the next (step +1) or previous (−1) of `list` after `current`
  static int Cycle(const std::vector<int>& list, int current, int step);
  void SetAxis(int hand, double value, double stamp_seconds, std::vector<TeleopAction>* actions);

  std::vector<TeleopTargetType> types_;
  std::vector<int> end_effectors_, hands_, bases_;
  int end_effector_ = -1, hand_ = -1, base_ = -1;
  Quat R_WF_ = Quat::Identity();
  double speed_scale_ = 1;
  std::array<std::array<double, kIntentCount>, kDeviceKindCount> held_{};
  // per target: the rates last sent (end effector twist, base velocity, hand axis rate) and the
  // hand axis last set (NaN: never), which gripper_toggle flips
  std::vector<Vec3> sent_linear_, sent_angular_;
  std::vector<double> sent_axis_rate_, axis_;
};

}  // namespace sim::devices
