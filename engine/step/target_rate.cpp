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
  drive->joint_target_position.resize(joints, std::numeric_limits<Real>::quiet_NaN());
  drive->joint_target_velocity.resize(joints, std::numeric_limits<Real>::quiet_NaN());
  for (int j = 0; j < joints; ++j) {
    const Real wanted = JointTargetPosition(model, commanded, j);
    const Real step = MaxTargetSpeed(model, j) * dt;
    const Real previous = (*last)[j];
    Real target = wanted;
    // a non-finite previous target (never for a model's) restarts at the commanded one
    if (std::isfinite(previous) && std::abs(wanted - previous) > step) {
      target = previous + std::clamp(wanted - previous, -step, step);
      drive->joint_target_velocity[j] = (target - previous) / dt;
    }
    drive->joint_target_position[j] = target;
    (*last)[j] = target;
  }
}

}  // namespace sim
