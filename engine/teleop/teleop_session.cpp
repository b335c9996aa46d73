#include "engine/teleop/teleop_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "engine/dynamics/constraint_rows.h"

namespace sim {

namespace {

constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();

// exp of a rotation vector as a quaternion
Quat RotationVectorQuat(const Vec3& rotation) {
  const Real angle = rotation.norm();
  if (angle < Real(1e-12)) return Quat::Identity();
  return Quat(Eigen::AngleAxis<Real>(angle, rotation / angle));
}

}  // namespace

const char* TeleopActionKindName(TeleopActionKind kind) {
  switch (kind) {
    case TeleopActionKind::kPoseVelocity:
      return "pose_velocity";
    case TeleopActionKind::kSetPose:
      return "set_pose";
    case TeleopActionKind::kSetAxis:
      return "set_axis";
    case TeleopActionKind::kAxisRate:
      return "axis_rate";
    case TeleopActionKind::kBaseVelocity:
      return "base_velocity";
    case TeleopActionKind::kReset:
      return "reset";
  }
  return "unknown";
}


bool ParseTeleopActionKind(const std::string& name, TeleopActionKind* kind) {
  for (TeleopActionKind k :
       {TeleopActionKind::kPoseVelocity, TeleopActionKind::kSetPose, TeleopActionKind::kSetAxis,
        TeleopActionKind::kAxisRate, TeleopActionKind::kBaseVelocity, TeleopActionKind::kReset}) {
    if (name == TeleopActionKindName(k)) {
      *kind = k;
      return true;
    }
  }
  return false;
}


double TeleopClockSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}


TeleopSession::TeleopSession(const Model& model)
    : controller_(model),
      targets_(model.teleop_targets),
      linear_rate_(targets_.size(), Vec3::Zero()),
      angular_rate_(targets_.size(), Vec3::Zero()),
      axis_rate_(targets_.size(), 0),
      axes_(targets_.size(), kNaN),
      X_BaseT_(targets_.size()) {}


void TeleopSession::Submit(const TeleopAction& action) { queue_.push_back(action); }


void TeleopSession::Apply(const Model& model, const State& state, Real dt, Control* control) {
  applied_.clear();
  // targets fixed in a moving chain base follow it (see the file comment)
  for (int t = 0; t < target_count(); ++t) {
    if (!X_BaseT_[t]) continue;
    controller_.SetPoseTarget(t, ChainBasePose(*controller_.Chain(t), state) * *X_BaseT_[t]);
  }
  for (const TeleopAction& action : queue_) {
    const bool valid = action.target < target_count() &&
                       (action.target >= 0 || action.kind == TeleopActionKind::kReset);
    if (!valid) continue;
    ApplyAction(model, state, action);
    applied_.push_back(action);
    engaged_ = true;
  }
  queue_.clear();
  if (!engaged_) return;

  // integrate the held rates over the step, then let the controller write the drive targets
  for (int t = 0; t < target_count(); ++t) {
    switch (targets_[t].type) {
      case TeleopTargetType::kLookAt:
        // the point moves at the held linear rate (it is far from the head: no lead bound)
        if (linear_rate_[t].isZero()) break;
        controller_.SetPoseTarget(
            t, Pose{CurrentPoseTarget(t, state).p + dt * linear_rate_[t], Quat::Identity()});
        break;
      case TeleopTargetType::kEndEffector: {
        if (linear_rate_[t].isZero() && angular_rate_[t].isZero()) break;
        const std::optional<Pose> X_WE = controller_.EndEffectorPose(t, state);
        if (!X_WE) break;
        Pose X_WT = CurrentPoseTarget(t, state);
        X_WT.p += dt * linear_rate_[t];
        X_WT.q = (RotationVectorQuat(dt * angular_rate_[t]) * X_WT.q).normalized();
        // bounded lead over the end effector (see kMaxLead)
        const Vec3 lead = X_WT.p - X_WE->p;
        if (lead.norm() > kMaxLead) X_WT.p = X_WE->p + lead * (kMaxLead / lead.norm());
        const Real angle = X_WE->q.angularDistance(X_WT.q);
        if (angle > kMaxRotationLead) X_WT.q = X_WE->q.slerp(kMaxRotationLead / angle, X_WT.q);
        controller_.SetPoseTarget(t, X_WT);
        break;
      }
      case TeleopTargetType::kGripper:
      case TeleopTargetType::kSynergy:
        if (axis_rate_[t] == 0) break;
        if (std::isnan(axes_[t])) axes_[t] = MeasuredAxis(model, state, t);
        axes_[t] = std::clamp<Real>(axes_[t] + dt * axis_rate_[t], 0, 1);
        controller_.SetAxis(t, axes_[t]);
        break;
      case TeleopTargetType::kBase:
        break;
    }
  }
  controller_.Apply(model, state, dt, control);
  for (int t = 0; t < target_count(); ++t) {
    const KinematicChain* chain = controller_.Chain(t);
    if (chain == nullptr || chain->base_body == kWorldBody || !controller_.HasPoseTarget(t)) {
      continue;
    }
    X_BaseT_[t] = ChainBasePose(*chain, state).Inverse() * *controller_.PoseTarget(t);
  }
}


void TeleopSession::ApplyAction(const Model& model, const State& state,
                                const TeleopAction& action) {
  const int t = action.target;
  switch (action.kind) {
    case TeleopActionKind::kPoseVelocity:
      linear_rate_[t] = action.linear;
      angular_rate_[t] = action.angular;
      break;
    case TeleopActionKind::kSetPose: {
      Pose X_WT = action.pose;
      X_WT.q.normalize();
      controller_.SetPoseTarget(t, X_WT);
      break;
    }
    case TeleopActionKind::kSetAxis:
      axes_[t] = std::clamp<Real>(action.value, 0, 1);
      controller_.SetAxis(t, axes_[t]);
      break;
    case TeleopActionKind::kAxisRate:
      axis_rate_[t] = action.value;
      break;
    case TeleopActionKind::kBaseVelocity:
      controller_.SetBaseVelocity(t, action.linear);
      linear_rate_[t] = action.linear;
      break;
    case TeleopActionKind::kReset: {
      const int first = t < 0 ? 0 : t;
      const int last = t < 0 ? target_count() : t + 1;
      for (int k = first; k < last; ++k) {
        linear_rate_[k].setZero();
        angular_rate_[k].setZero();
        axis_rate_[k] = 0;
        if (targets_[k].type == TeleopTargetType::kBase)
          controller_.SetBaseVelocity(k, Vec3::Zero());
        if (const std::optional<Pose> X_WE = controller_.EndEffectorPose(k, state)) {
          controller_.SetPoseTarget(k, *X_WE);
        }
      }
      break;
    }
  }
  (void)model;
}


Pose TeleopSession::CurrentPoseTarget(int target, const State& state) const {
  if (controller_.HasPoseTarget(target)) return *controller_.PoseTarget(target);
  return controller_.EndEffectorPose(target, state).value_or(Pose{});
}


Real TeleopSession::MeasuredAxis(const Model& model, const State& state, int target) const {
  // the first joint whose open and closed positions differ tells where the axis is now
  const TeleopTarget& spec = targets_[target];
  for (std::size_t k = 0; k < spec.joints.size(); ++k) {
    const Real span = spec.closed[k] - spec.open[k];
    if (std::abs(span) < Real(1e-12)) continue;
    const Real position = JointCoordinate(model, state, spec.joints[k]);
    return std::clamp<Real>((position - spec.open[k]) / span, 0, 1);
  }
  return 0;
}


int TeleopSession::command_size() const {
  int size = 0;
  for (const TeleopTarget& spec : targets_) {
    switch (spec.type) {
      case TeleopTargetType::kEndEffector:
        size += 7;
        break;
      case TeleopTargetType::kGripper:
      case TeleopTargetType::kSynergy:
        size += 1;
        break;
      case TeleopTargetType::kBase:
      case TeleopTargetType::kLookAt:
        size += 3;
        break;
    }
  }
  return size;
}


VecX TeleopSession::CommandVector(const State& state) const {
  VecX command(command_size());
  int at = 0;
  for (int t = 0; t < target_count(); ++t) {
    switch (targets_[t].type) {
      case TeleopTargetType::kEndEffector: {
        const Pose X_WT = CurrentPoseTarget(t, state);
        command.segment<3>(at) = X_WT.p;
        command.segment<4>(at + 3) << X_WT.q.w(), X_WT.q.x(), X_WT.q.y(), X_WT.q.z();
        at += 7;
        break;
      }
      case TeleopTargetType::kGripper:
      case TeleopTargetType::kSynergy:
        command[at++] = axes_[t];
        break;
      case TeleopTargetType::kBase:
        command.segment<3>(at) = linear_rate_[t];
        at += 3;
        break;
      case TeleopTargetType::kLookAt:
        command.segment<3>(at) = CurrentPoseTarget(t, state).p;
        at += 3;
        break;
    }
  }
  return command;
}

}  // namespace sim
