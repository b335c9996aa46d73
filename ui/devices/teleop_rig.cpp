#include "ui/devices/teleop_rig.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sim::devices {

namespace {

TeleopAction MakeAction(TeleopActionKind kind, int target, double stamp_seconds) {
  TeleopAction action;
  action.kind = kind;
  action.target = target;
  action.stamp_seconds = stamp_seconds;
  return action;
}

}  // namespace


TeleopRig::TeleopRig(const std::vector<TeleopTarget>& targets)
    : sent_linear_(targets.size(), Vec3::Zero()),
      sent_angular_(targets.size(), Vec3::Zero()),
      sent_axis_rate_(targets.size(), 0),
      axis_(targets.size(), std::numeric_limits<double>::quiet_NaN()) {
  for (int t = 0; t < static_cast<int>(targets.size()); ++t) {
    types_.push_back(targets[t].type);
    switch (targets[t].type) {
      case TeleopTargetType::kEndEffector:
      case TeleopTargetType::kLookAt:  // the move intents move the point looked at
        end_effectors_.push_back(t);
        break;
      case TeleopTargetType::kGripper:
      case TeleopTargetType::kSynergy:
        hands_.push_back(t);
        break;
      case TeleopTargetType::kBase:
        bases_.push_back(t);
        break;
    }
  }
  if (!end_effectors_.empty()) end_effector_ = end_effectors_.front();
  if (!hands_.empty()) hand_ = hands_.front();
  if (!bases_.empty()) base_ = bases_.front();
}


double TeleopRig::Held(Intent intent) const {
  double sum = 0;
  for (const auto& device : held_) sum += device[static_cast<int>(intent)];
  return sum;
}


void TeleopRig::Select(int target, double stamp_seconds, std::vector<TeleopAction>* actions) {
  if (target < 0 || target >= static_cast<int>(types_.size())) return;
  int* active = nullptr;
  switch (types_[target]) {
    case TeleopTargetType::kEndEffector:
    case TeleopTargetType::kLookAt:
      active = &end_effector_;
      break;
    case TeleopTargetType::kGripper:
    case TeleopTargetType::kSynergy:
      active = &hand_;
      break;
    case TeleopTargetType::kBase:
      active = &base_;
      break;
  }
  if (*active == target) return;
  // the old target stops where it is; the held values now drive the new one
  Stop(*active, stamp_seconds, actions);
  *active = target;
  Sync(stamp_seconds, actions);
}


void TeleopRig::SetHeld(DeviceKind device, Intent intent, double value, double stamp_seconds,
                        std::vector<TeleopAction>* actions) {
  if (IsButtonIntent(intent)) return;
  double& held = held_[static_cast<int>(device)][static_cast<int>(intent)];
  if (held == value) return;
  held = value;
  // the gripper axis is absolute: the device that moved it last sets it
  if (intent == Intent::kGripper) {
    SetAxis(hand_, value, stamp_seconds, actions);
    return;
  }
  Sync(stamp_seconds, actions);
}


void TeleopRig::Trigger(Intent intent, double stamp_seconds, std::vector<TeleopAction>* actions) {
  switch (intent) {
    case Intent::kGripperToggle: {
      if (hand_ < 0) return;
      // open when (last set) closed at least halfway, else close; never set: closes
      const double axis = axis_[hand_];
      SetAxis(hand_, !std::isnan(axis) && axis >= 0.5 ? 0.0 : 1.0, stamp_seconds, actions);
      return;
    }
    case Intent::kNextTarget:
    case Intent::kPreviousTarget:
      Select(Cycle(end_effectors_, end_effector_, intent == Intent::kNextTarget ? 1 : -1),
             stamp_seconds, actions);
      return;
    case Intent::kNextHand:
      Select(Cycle(hands_, hand_, 1), stamp_seconds, actions);
      return;
    case Intent::kReset:
      // the session stops every rate; nothing is "sent" any more, so the next change of a held
      // value sends the held rates afresh
      actions->push_back(MakeAction(TeleopActionKind::kReset, -1, stamp_seconds));
      std::fill(sent_linear_.begin(), sent_linear_.end(), Vec3::Zero());
      std::fill(sent_angular_.begin(), sent_angular_.end(), Vec3::Zero());
      std::fill(sent_axis_rate_.begin(), sent_axis_rate_.end(), 0.0);
      return;
    default:
      return;
  }
}


void TeleopRig::ReleaseDevice(DeviceKind device, double stamp_seconds,
                              std::vector<TeleopAction>* actions) {
  std::array<double, kIntentCount>& held = held_[static_cast<int>(device)];
  // an absolute gripper axis stays where it was set
  const double gripper = held[static_cast<int>(Intent::kGripper)];
  held.fill(0);
  held[static_cast<int>(Intent::kGripper)] = gripper;
  Sync(stamp_seconds, actions);
}


void TeleopRig::Sync(double stamp_seconds, std::vector<TeleopAction>* actions) {
  if (end_effector_ >= 0) {
    const Vec3 linear = speed_scale_ * (R_WF_ * Vec3(Held(Intent::kMoveX), Held(Intent::kMoveY),
                                                     Held(Intent::kMoveZ)));
    const Vec3 angular =
        speed_scale_ *
        (R_WF_ * Vec3(Held(Intent::kRotateX), Held(Intent::kRotateY), Held(Intent::kRotateZ)));
    if (linear != sent_linear_[end_effector_] || angular != sent_angular_[end_effector_]) {
      TeleopAction action =
          MakeAction(TeleopActionKind::kPoseVelocity, end_effector_, stamp_seconds);
      action.linear = linear;
      action.angular = angular;
      actions->push_back(action);
      sent_linear_[end_effector_] = linear;
      sent_angular_[end_effector_] = angular;
    }
  }
  if (base_ >= 0) {
    const Vec3 velocity = speed_scale_ * Vec3(Held(Intent::kBaseForward), Held(Intent::kBaseStrafe),
                                              Held(Intent::kBaseTurn));
    if (velocity != sent_linear_[base_]) {
      TeleopAction action = MakeAction(TeleopActionKind::kBaseVelocity, base_, stamp_seconds);
      action.linear = velocity;
      actions->push_back(action);
      sent_linear_[base_] = velocity;
    }
  }
  if (hand_ >= 0) {
    const double rate = Held(Intent::kSynergy);
    if (rate != sent_axis_rate_[hand_]) {
      TeleopAction action = MakeAction(TeleopActionKind::kAxisRate, hand_, stamp_seconds);
      action.value = rate;
      actions->push_back(action);
      sent_axis_rate_[hand_] = rate;
    }
  }
}


void TeleopRig::Stop(int target, double stamp_seconds, std::vector<TeleopAction>* actions) {
  if (target < 0) return;
  switch (types_[target]) {
    case TeleopTargetType::kEndEffector:
    case TeleopTargetType::kLookAt:
      if (sent_linear_[target].isZero() && sent_angular_[target].isZero()) return;
      actions->push_back(MakeAction(TeleopActionKind::kPoseVelocity, target, stamp_seconds));
      sent_linear_[target].setZero();
      sent_angular_[target].setZero();
      return;
    case TeleopTargetType::kGripper:
    case TeleopTargetType::kSynergy:
      if (sent_axis_rate_[target] == 0) return;
      actions->push_back(MakeAction(TeleopActionKind::kAxisRate, target, stamp_seconds));
      sent_axis_rate_[target] = 0;
      return;
    case TeleopTargetType::kBase:
      if (sent_linear_[target].isZero()) return;
      actions->push_back(MakeAction(TeleopActionKind::kBaseVelocity, target, stamp_seconds));
      sent_linear_[target].setZero();
      return;
  }
}


int TeleopRig::Cycle(const std::vector<int>& list, int current, int step) {
  if (list.empty()) return -1;
  const auto at = std::find(list.begin(), list.end(), current);
  const int n = static_cast<int>(list.size());
  const int index = at == list.end() ? 0 : static_cast<int>(at - list.begin());
  return list[((index + step) % n + n) % n];
}


void TeleopRig::SetAxis(int hand, double value, double stamp_seconds,
                        std::vector<TeleopAction>* actions) {
  if (hand < 0) return;
  TeleopAction action = MakeAction(TeleopActionKind::kSetAxis, hand, stamp_seconds);
  action.value = std::clamp(value, 0.0, 1.0);
  actions->push_back(action);
  axis_[hand] = action.value;
}

}  // namespace sim::devices
