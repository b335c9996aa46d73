#include "engine/state/control.h"

#include <cmath>
#include <limits>

#include "engine/model/model.h"

namespace sim {


Control MakeControl(const Model& model) {
  constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();
  Control control;
  control.joint_target_position.assign(model.joint_count(), kNaN);
  control.joint_target_velocity.assign(model.joint_count(), kNaN);
  control.body_force_W.assign(model.body_count(), Vec3::Zero());
  control.body_torque_W.assign(model.body_count(), Vec3::Zero());
  control.particle_force_W.assign(model.particle_count(), Vec3::Zero());
  control.joint_taken.assign(model.joint_count(), 0);
  control.joint_ramped.assign(model.joint_count(), 0);
  return control;
}


void SetOperatorTarget(Control* control, int j, Real position) {
  if (j < 0) return;
  const std::size_t n = static_cast<std::size_t>(j) + 1;
  if (control->joint_target_position.size() < n) {
    control->joint_target_position.resize(n, std::numeric_limits<Real>::quiet_NaN());
  }
  if (control->joint_ramped.size() < n) control->joint_ramped.resize(n, 0);
  control->joint_target_position[j] = position;
  control->joint_ramped[j] = 1;
}


Real JointTargetPosition(const Model& model, const Control& control, int j) {
  if (j < static_cast<int>(control.joint_target_position.size()) &&
      std::isfinite(control.joint_target_position[j])) {
    return control.joint_target_position[j];
  }
  return model.joint_drive[j].target_position;
}


Real JointTargetVelocity(const Model& model, const Control& control, int j) {
  if (j < static_cast<int>(control.joint_target_velocity.size()) &&
      std::isfinite(control.joint_target_velocity[j])) {
    return control.joint_target_velocity[j];
  }
  return model.joint_drive[j].target_velocity;
}

}  // namespace sim
