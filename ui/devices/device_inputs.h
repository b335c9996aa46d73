// One device's raw inputs turned into intent values through the device's mapping (dead zone,
// direction, scale, speed per binding, summed per intent), handed to the TeleopRig when an
// intent's value changes. Every device (gamepad, keyboard, SpaceMouse) goes through this, so a
// binding means the same on each.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "engine/teleop/teleop_action.h"
#include "ui/devices/action_mapping.h"

namespace sim::devices {

class TeleopRig;

class DeviceInputs {
 public:
  DeviceInputs(DeviceKind kind, DeviceMapping mapping);

  /// Input `input` now reads `value` (sticks and 6-DoF axes in [−1, 1], triggers in [0, 1],
  /// buttons and keys 0 or 1): the changed held intents go to `rig` as the device's values, a
  /// button intent whose input crossed 0.5 upwards fires once. Unbound inputs are ignored.
  void Set(const std::string& input, double value, double stamp_seconds, TeleopRig* rig,
           std::vector<TeleopAction>* actions);

  /// Every input back to rest (device removed, focus lost): the device's held intents go to 0.
  void ReleaseAll(double stamp_seconds, TeleopRig* rig, std::vector<TeleopAction>* actions);

  bool IsBound(const std::string& input) const { return bound_.contains(input); }
  /// The inputs the mapping binds.
  std::vector<std::string> BoundInputs() const;
  DeviceKind kind() const { return kind_; }
  const DeviceMapping& mapping() const { return mapping_; }

  /// The value of a held intent now: [m/s], [rad/s], [1/s], or the gripper axis in [0, 1].
  double IntentValue(Intent intent) const { return values_[static_cast<int>(intent)]; }

 private:
  // every intent's summed value from the raw inputs (held ones times their speed; button ones
  // raw, compared with the press threshold)
  std::array<double, kIntentCount> Sums() const;
  // hands the intents bound to `input` that changed to the rig; fires button intents on their
  // rising edge
  void Update(const std::string& input, double stamp_seconds, TeleopRig* rig,
              std::vector<TeleopAction>* actions);

  DeviceKind kind_;
  DeviceMapping mapping_;
  std::map<std::string, double> bound_;  // raw value of every bound input
  std::array<double, kIntentCount> values_{};
  std::array<bool, kIntentCount> pressed_{};
};

/// The shaped value of one binding for raw input `value`: dead zone, direction and scale, before
/// the device's speed.
double ShapedInput(const Binding& binding, double value);
/// The device speed that scales `intent` (1 for gripper and the button intents).
double IntentSpeed(const DeviceSpeeds& speeds, Intent intent);

}  // namespace sim::devices
