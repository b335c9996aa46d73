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
  /// 1: the operator set joint j's target directly (SetOperatorTarget: a studio slider); the
  /// drive follows it at the joint's maximum target speed (engine/step/target_rate.h). A script
  /// or teleop writing the target clears it, so their targets reach the drive as commanded.
  /// Empty: none.
  std::vector<unsigned char> joint_ramped;
};

/// True when joint `j`'s target is taken over by the user (Control::joint_taken).
inline bool JointTaken(const Control& control, int j) {
  return j < static_cast<int>(control.joint_taken.size()) && control.joint_taken[j] != 0;
}

/// True when joint `j`'s target is the operator's, ramped (Control::joint_ramped).
inline bool JointRamped(const Control& control, int j) {
  return j < static_cast<int>(control.joint_ramped.size()) && control.joint_ramped[j] != 0;
}

/// Marks joint `j`'s target as a script's or teleop's: it reaches the drive as commanded.
inline void MarkCommanded(Control* control, int j) {
  if (j < static_cast<int>(control->joint_ramped.size())) control->joint_ramped[j] = 0;
}

/// Sets joint `j`'s target θ* [rad or m] as the operator's (NaN: back to the model's); the drive
/// follows it at the joint's maximum target speed (Control::joint_ramped).
void SetOperatorTarget(Control* control, int j, Real position);

/// A control sized for `model` with every target NaN (model defaults) and zero forces.
Control MakeControl(const Model& model);

/// Drive target of joint `j`: the control's when given and finite, else the model's.
Real JointTargetPosition(const Model& model, const Control& control, int j);
Real JointTargetVelocity(const Model& model, const Control& control, int j);

}  // namespace sim
