// Control: what the user, a script or a teleop device commands for the next step (joint drive
// targets, external forces). Only the simulation worker writes it, from UI commands. Empty
// vectors mean "nothing commanded"; otherwise each vector has one entry per joint/body/particle.
#pragma once

#include <vector>

#include "engine/core/math.h"

namespace sim {

struct Model;

struct Control {
  std::vector<Real> joint_target_position;  ///< drive θ* per joint [rad|m]; NaN keeps the model's
  std::vector<Real> joint_target_velocity;  ///< drive θ̇* per joint [rad/s|m/s]; NaN: model's
  std::vector<Vec3> body_force_W;           ///< external force at the COM, world [N]
  std::vector<Vec3> body_torque_W;          ///< external torque, world [N·m]
  std::vector<Vec3> particle_force_W;       ///< external force on particles, world [N]
  /// 1: the user has taken joint j's target over (the studio's "take control"); the scene's
  /// script leaves it alone until released. Empty: none taken.
  std::vector<unsigned char> joint_taken;
};

/// True when joint `j`'s target is taken over by the user (Control::joint_taken).
inline bool JointTaken(const Control& control, int j) {
  return j < static_cast<int>(control.joint_taken.size()) && control.joint_taken[j] != 0;
}

/// A control sized for `model` with every target NaN (model defaults) and zero forces.
Control MakeControl(const Model& model);

/// Drive target of joint `j`: the control's when given and finite, else the model's.
Real JointTargetPosition(const Model& model, const Control& control, int j);
Real JointTargetVelocity(const Model& model, const Control& control, int j);

}  // namespace sim
