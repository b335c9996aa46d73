#include "engine/step/target_rate.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sim {


Real MaxTargetSpeed(const Model& model, int j) {
  if (j < static_cast<int>(model.joint_velocity_limit.size()) &&
      model.joint_velocity_limit[j] > 0) {
    return model.joint_velocity_limit[j];
  }
  return std::numeric_limits<Real>::infinity();
}


void LimitTargetRates(const Model& model, const Control& commanded, Real dt,
                      std::vector<Real>* last, Control* drive) {
  *drive = commanded;
  const int joints = model.joint_count();
  // the drives start from the model's targets
  if (static_cast<int>(last->size()) != joints) {
    last->resize(joints);
    for (int j = 0; j < joints; ++j) (*last)[j] = model.joint_drive[j].target_position;
  }
  constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();
  for (int j = 0; j < joints; ++j) {
    const Real wanted = JointTargetPosition(model, commanded, j);
    const Real previous = (*last)[j];
    (*last)[j] = wanted;
    // a script's or teleop's target, and the operator's within one step's reach, reach the
    // drive as commanded; a non-finite previous target (never a model's) restarts there
    const Real step = MaxTargetSpeed(model, j) * dt;
    if (!JointRamped(commanded, j) || !std::isfinite(previous) ||
        !(std::abs(wanted - previous) > step)) {
      continue;
    }
    const Real target = previous + std::clamp(wanted - previous, -step, step);
    if (static_cast<int>(drive->joint_target_position.size()) < joints) {
      drive->joint_target_position.resize(joints, kNaN);
    }
    if (static_cast<int>(drive->joint_target_velocity.size()) < joints) {
      drive->joint_target_velocity.resize(joints, kNaN);
    }
    drive->joint_target_position[j] = target;
    drive->joint_target_velocity[j] = (target - previous) / dt;
    (*last)[j] = target;
  }
}

}  // namespace sim
