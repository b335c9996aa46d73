// Target rate limit: the control stage moves the target a joint's drive sees towards the one the
// operator set directly (a studio slider: SetOperatorTarget, Control::joint_ramped) no faster
// than the joint's maximum target speed v_max. With θ*_{n−1} the target the drive saw at the
// previous step:
//   θ*_n = θ*_{n−1} + clamp(θ*_cmd − θ*_{n−1}, −v_max Δt, v_max Δt)
// and while the clamp acts θ̇*_n = (θ*_n − θ*_{n−1}) / Δt (the commanded θ̇* otherwise), so a
// target jump becomes a ramp at v_max. A stiff drive (Fetch's torso: k = 10⁶ N/m) given a
// 0.35 m jump in one step asks the solve for ~10⁵ N through the arm, the grasp and the soft
// tomato at once and runs it away; ramped at the robot's own velocity limit it follows.
// v_max is the URDF <limit velocity> of the joint (Model::joint_velocity_limit); a joint without
// one is not limited. A script's and teleop's targets are theirs to shape and reach the drives
// bit for bit as commanded.
#pragma once

#include <vector>

#include "engine/model/model.h"
#include "engine/state/control.h"

namespace sim {

/// Maximum speed [rad/s or m/s] at which joint `j`'s drive target may move; +∞ when unlimited.
Real MaxTargetSpeed(const Model& model, int j);

/// Writes into `drive` the control the step sees: `commanded` with each operator's target
/// (JointRamped) moved from `*last` (the targets the drives saw at the previous step; empty: the
/// model's) by at most MaxTargetSpeed·`dt` [s], every other target as commanded; `*last` becomes
/// the targets the drives see now (one per joint, the model's where nothing is commanded).
void LimitTargetRates(const Model& model, const Control& commanded, Real dt,
                      std::vector<Real>* last, Control* drive);

}  // namespace sim
