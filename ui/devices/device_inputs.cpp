#include "ui/devices/device_inputs.h"

#include <algorithm>
#include <cmath>

#include "ui/devices/teleop_rig.h"

namespace sim::devices {

namespace {

// a button intent is pressed while its summed input exceeds half of a full press
constexpr double kPressThreshold = 0.5;

}  // namespace


double ShapedInput(const Binding& binding, double value) {
  double v = std::clamp(value, -1.0, 1.0);
  // dead zone, then rescaled so full deflection still reads 1 (no jump at the zone's edge)
  const double magnitude = std::abs(v);
  v = magnitude <= binding.dead_zone
          ? 0.0
          : std::copysign((magnitude - binding.dead_zone) / (1 - binding.dead_zone), v);
  if (binding.invert) v = binding.intent == Intent::kGripper ? 1 - v : -v;
  return binding.scale * v;
}


double IntentSpeed(const DeviceSpeeds& speeds, Intent intent) {
  switch (intent) {
    case Intent::kMoveX:
    case Intent::kMoveY:
    case Intent::kMoveZ:
      return speeds.linear_speed;
    case Intent::kRotateX:
    case Intent::kRotateY:
    case Intent::kRotateZ:
      return speeds.angular_speed;
    case Intent::kBaseForward:
    case Intent::kBaseStrafe:
      return speeds.base_linear_speed;
    case Intent::kBaseTurn:
      return speeds.base_angular_speed;
    case Intent::kSynergy:
      return speeds.hand_speed;
    default:
      return 1;
  }
}


DeviceInputs::DeviceInputs(DeviceKind kind, DeviceMapping mapping)
    : kind_(kind), mapping_(std::move(mapping)) {
  for (const Binding& binding : mapping_.bindings) bound_[binding.input] = 0;
  // the values at rest (an inverted gripper binding reads 1 there), sent to no one
  values_ = Sums();
}


std::vector<std::string> DeviceInputs::BoundInputs() const {
  std::vector<std::string> inputs;
  for (const auto& [input, value] : bound_) inputs.push_back(input);
  return inputs;
}


void DeviceInputs::Set(const std::string& input, double value, double stamp_seconds, TeleopRig* rig,
                       std::vector<TeleopAction>* actions) {
  auto found = bound_.find(input);
  if (found == bound_.end() || found->second == value) return;
  found->second = value;
  Update(input, stamp_seconds, rig, actions);
}


void DeviceInputs::ReleaseAll(double stamp_seconds, TeleopRig* rig,
                              std::vector<TeleopAction>* actions) {
  // the inputs at rest; the rig stops the device's rates (an absolute gripper axis stays where
  // it was put: a released trigger does not open the hand of an unplugged pad)
  for (auto& [input, value] : bound_) value = 0;
  pressed_.fill(false);
  values_ = Sums();
  rig->ReleaseDevice(kind_, stamp_seconds, actions);
}


std::array<double, kIntentCount> DeviceInputs::Sums() const {
  std::array<double, kIntentCount> sums{};
  for (const Binding& binding : mapping_.bindings) {
    sums[static_cast<int>(binding.intent)] += ShapedInput(binding, bound_.at(binding.input));
  }
  for (int i = 0; i < kIntentCount; ++i) {
    const Intent intent = static_cast<Intent>(i);
    if (IsButtonIntent(intent)) continue;
    sums[i] *= IntentSpeed(mapping_.speeds, intent);
    if (intent == Intent::kGripper) sums[i] = std::clamp(sums[i], 0.0, 1.0);
  }
  return sums;
}


void DeviceInputs::Update(const std::string& input, double stamp_seconds, TeleopRig* rig,
                          std::vector<TeleopAction>* actions) {
  const std::array<double, kIntentCount> sums = Sums();
  // only the intents bound to the input that changed: another intent keeps what it last sent
  std::array<bool, kIntentCount> touched{};
  for (const Binding& binding : mapping_.bindings) {
    if (binding.input == input) touched[static_cast<int>(binding.intent)] = true;
  }
  for (int i = 0; i < kIntentCount; ++i) {
    if (!touched[i]) continue;
    const Intent intent = static_cast<Intent>(i);
    if (IsButtonIntent(intent)) {
      // fires on the rising edge only: a held button or an auto-repeating key acts once
      const bool pressed = sums[i] > kPressThreshold;
      if (pressed && !pressed_[i]) rig->Trigger(intent, stamp_seconds, actions);
      pressed_[i] = pressed;
      continue;
    }
    if (sums[i] == values_[i]) continue;
    values_[i] = sums[i];
    rig->SetHeld(kind_, intent, sums[i], stamp_seconds, actions);
  }
}

}  // namespace sim::devices
