#include "engine/teleop/teleop_controller.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/dynamics/constraint_rows.h"

namespace sim {

namespace {

constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();

}  // namespace


TeleopController::TeleopController(const Model& model)
    : arms_(model.teleop_targets.size()),
      axes_(model.teleop_targets.size(), kNaN),
      base_velocity_(model.teleop_targets.size(), Vec3::Zero()),
      base_position_(model.teleop_targets.size(), Vec3::Constant(kNaN)),
      targets_(model.teleop_targets) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    const TeleopTarget& spec = targets_[t];
    if (spec.type != TeleopTargetType::kEndEffector && spec.type != TeleopTargetType::kLookAt) {
      continue;
    }
    Expected<KinematicChain> chain =
        BuildKinematicChain(model, spec.base_body, spec.tip_body, spec.X_BE);
    if (!chain.ok()) {
      chain_errors_.push_back(spec.name + ": " + chain.diagnostics().items().front().message);
      continue;
    }
    // the rest posture: the scene's joints, the middle of the limits elsewhere
    DlsIk ik(std::move(chain.value()));
    VecX rest = ik.rest_posture();
    for (std::size_t r = 0; r < spec.rest_joints.size(); ++r) {
      for (int k = 0; k < ik.chain().size(); ++k) {
        if (ik.chain().joints[k] == spec.rest_joints[r]) rest[k] = spec.rest_positions[r];
      }
    }
    ik.set_rest_posture(rest);
    EndEffector arm{std::move(ik), Vec3::Zero(), IkTarget{}, VecX(), false, IkResult{}};
    arm.target.position_weight = spec.position_weight;
    arm.target.orientation_weight = spec.orientation_weight;
    arms_[t].emplace(std::move(arm));
  }
}


void TeleopController::Reset(const Model& model, const State& state) {
  std::fill(axes_.begin(), axes_.end(), kNaN);
  std::fill(base_velocity_.begin(), base_velocity_.end(), Vec3::Zero());
  std::fill(base_position_.begin(), base_position_.end(), Vec3::Constant(kNaN));
  for (std::size_t t = 0; t < arms_.size(); ++t) {
    std::optional<EndEffector>& arm = arms_[t];
    if (!arm) continue;
    const KinematicChain& chain = arm->ik.chain();
    arm->q_command = ChainPositions(model, chain, state);
    arm->target.X_WT = ChainForwardKinematics(chain, ChainBasePose(chain, state), arm->q_command);
    arm->look_point = arm->target.X_WT * targets_[t].look_axis;
    arm->has_target = true;
    arm->last = IkResult{};
  }
}


void TeleopController::SetPoseTarget(int target, const Pose& X_WT) {
  if (!arms_[target]) return;
  if (targets_[target].type == TeleopTargetType::kLookAt) {
    arms_[target]->look_point = X_WT.p;
  } else {
    arms_[target]->target.X_WT = X_WT;
  }
  arms_[target]->has_target = true;
}


void TeleopController::SetAxis(int target, Real axis) {
  const TeleopTargetType type = targets_[target].type;
  if (type == TeleopTargetType::kGripper || type == TeleopTargetType::kSynergy) {
    axes_[target] = std::clamp<Real>(axis, 0, 1);
  }
}


void TeleopController::SetBaseVelocity(int target, const Vec3& velocity) {
  const TeleopTarget& spec = targets_[target];
  if (spec.type != TeleopTargetType::kBase) return;
  // the planar speed and the yaw rate each within their caps
  const Vec2 planar = velocity.head<2>();
  const Real speed = planar.norm();
  const Vec2 capped =
      speed > spec.max_linear_speed ? Vec2(planar * (spec.max_linear_speed / speed)) : planar;
  base_velocity_[target] =
      Vec3(capped.x(), capped.y(),
           std::clamp(velocity.z(), -spec.max_angular_speed, spec.max_angular_speed));
}


void TeleopController::Apply(const Model& model, const State& state, Real dt, Control* control) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    const TeleopTarget& spec = targets_[t];
    switch (spec.type) {
      case TeleopTargetType::kEndEffector:
      case TeleopTargetType::kLookAt: {
        if (!arms_[t]) break;
        EndEffector& arm = *arms_[t];
        const KinematicChain& chain = arm.ik.chain();
        // seed or resynchronize the commanded configuration from the measured one
        const VecX measured = ChainPositions(model, chain, state);
        if (arm.q_command.size() != measured.size() ||
            (arm.q_command - measured).cwiseAbs().maxCoeff() > kResyncDistance) {
          arm.q_command = measured;
        }
        if (!arm.has_target) {
          arm.target.X_WT = ChainForwardKinematics(chain, ChainBasePose(chain, state), measured);
          arm.look_point = arm.target.X_WT * spec.look_axis;
          arm.has_target = true;
        }
        if (spec.type == TeleopTargetType::kLookAt) {
          // the smallest turn of the commanded frame that points its axis at the point
          const Pose X_WE =
              ChainForwardKinematics(chain, ChainBasePose(chain, state), arm.q_command);
          const Vec3 to_point = arm.look_point - X_WE.p;
          if (to_point.norm() > Real(1e-6)) {
            arm.target.X_WT = {
                X_WE.p,
                (Quat::FromTwoVectors(X_WE.q * spec.look_axis, to_point) * X_WE.q).normalized()};
          }
        }
        arm.ik.options().max_step = VecX::Constant(chain.size(), spec.max_joint_speed * dt);
        arm.last = arm.ik.Step(ChainBasePose(chain, state), arm.q_command, arm.target);
        arm.q_command = arm.last.q;
        for (int k = 0; k < chain.size(); ++k) {
          control->joint_target_position[chain.joints[k]] = arm.q_command[k];
          MarkCommanded(control, chain.joints[k]);
        }
        break;
      }
      case TeleopTargetType::kGripper:
      case TeleopTargetType::kSynergy: {
        if (std::isnan(axes_[t])) break;
        for (std::size_t k = 0; k < spec.joints.size(); ++k) {
          control->joint_target_position[spec.joints[k]] =
              spec.open[k] + axes_[t] * (spec.closed[k] - spec.open[k]);
          MarkCommanded(control, spec.joints[k]);
        }
        break;
      }
      case TeleopTargetType::kBase: {
        // x, y, yaw targets: seeded from the measured joints, then integrated
        const int joints[3] = {spec.base_x_joint, spec.base_y_joint, spec.base_yaw_joint};
        Vec3& position = base_position_[t];
        for (int a = 0; a < 3; ++a) {
          if (std::isnan(position[a])) {
            position[a] = joints[a] >= 0 ? JointCoordinate(model, state, joints[a]) : 0;
          }
        }
        // heading-frame velocity to world x, y
        const Real yaw = position.z();
        const Vec3& v = base_velocity_[t];
        const Vec3 rate(std::cos(yaw) * v.x() - std::sin(yaw) * v.y(),
                        std::sin(yaw) * v.x() + std::cos(yaw) * v.y(), v.z());
        position += dt * rate;
        for (int a = 0; a < 3; ++a) {
          if (joints[a] < 0) continue;
          control->joint_target_position[joints[a]] = position[a];
          control->joint_target_velocity[joints[a]] = rate[a];
          MarkCommanded(control, joints[a]);
        }
        break;
      }
    }
  }
}


std::optional<Pose> TeleopController::EndEffectorPose(int target, const State& state) const {
  if (!arms_[target]) return std::nullopt;
  const KinematicChain& chain = arms_[target]->ik.chain();
  Pose X_WB = state.body_X_WB[chain.tip_body];
  return X_WB * chain.X_BE;
}


std::optional<Pose> TeleopController::PoseTarget(int target) const {
  if (!arms_[target]) return std::nullopt;
  if (targets_[target].type == TeleopTargetType::kLookAt) {
    return Pose{arms_[target]->look_point, Quat::Identity()};
  }
  return arms_[target]->target.X_WT;
}


const IkResult* TeleopController::LastIkResult(int target) const {
  return arms_[target] ? &arms_[target]->last : nullptr;
}

}  // namespace sim
