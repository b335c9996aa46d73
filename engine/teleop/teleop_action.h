// The teleop action layer: every device (mouse gizmo, keyboard, gamepad, SpaceMouse) and a replayed
// recording speak only these values to the simulation. An action names a teleop target (an index
// into Model::teleop_targets) and what to do with it; TeleopSession applies the actions queued
// before a step at the start of that step, so an input reaches the drive targets of the next step.
//
// Rates (end-effector twist, axis rate, base velocity) are held until the next action of the same
// kind for the target replaces them (a zero stops); absolute actions (a pose, an axis value) take
// effect once. Rates are integrated by the session over the simulated step, so a replay of the
// same actions at the same steps reproduces the run bit for bit whatever the wall clock did.
#pragma once

#include <string>

#include "engine/core/math.h"

namespace sim {

enum class TeleopActionKind {
  kPoseVelocity = 0,  ///< end effector: hold a twist, `linear` [m/s] and `angular` [rad/s], world
  kSetPose,           ///< end effector: the pose target becomes `pose` (world)
  kSetAxis,       ///< gripper or synergy: the axis becomes `value` ∈ [0, 1] (0 open, 1 closed)
  kAxisRate,      ///< gripper or synergy: hold an axis rate `value` [1/s]
  kBaseVelocity,  ///< base: hold `linear` = (v_x, v_y [m/s] in the heading frame, ω [rad/s])
  kReset,         ///< every target (target −1) or one: rates stop, targets hold the robot's pose
};

/// "pose_velocity", "set_pose", "set_axis", "axis_rate", "base_velocity", "reset" (recordings and
/// mapping files use these names).
const char* TeleopActionKindName(TeleopActionKind kind);
/// The kind of a name above; false when unknown.
bool ParseTeleopActionKind(const std::string& name, TeleopActionKind* kind);

struct TeleopAction {
  TeleopActionKind kind = TeleopActionKind::kPoseVelocity;
  int target = -1;  ///< index into Model::teleop_targets (−1: all, for kReset)
  Vec3 linear = Vec3::Zero();
  Vec3 angular = Vec3::Zero();
  Pose pose;
  Real value = 0;
  /// steady-clock time of the device event [s] (std::chrono::steady_clock since its epoch), for
  /// the input-to-step latency; 0 when unknown (replays, scripts). Not part of the physics.
  double stamp_seconds = 0;
};

/// Seconds on the clock TeleopAction::stamp_seconds uses.
double TeleopClockSeconds();

}  // namespace sim
