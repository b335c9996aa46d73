// Teleop targets of a scene (scene key `teleop`, docs/scene-format.md): what an operator's
// devices steer on a robot. Plain data in the Model; engine/teleop/teleop_controller.h turns an
// operator's commands for them into joint drive targets each step.
#pragma once

#include <string>
#include <vector>

#include "engine/core/math.h"

namespace sim {

enum class TeleopTargetType {
  kEndEffector = 0,  ///< a link's 6-DoF pose, reached by damped-least-squares IK
  kGripper,          ///< one axis in [0, 1]: open (0) to closed (1)
  kSynergy,          ///< one axis in [0, 1] to several joints (a power or pinch grasp)
  kBase,             ///< planar mobile base: x, y, yaw velocities through three joints
  kLookAt,           ///< a link's axis pointed at a point (a head: pan and tilt), by the IK
};

/// "end_effector", "gripper", "synergy", "base", "look_at" as in scene files.
const char* TeleopTargetTypeName(TeleopTargetType type);

/// One named teleop target. The fields a type does not use stay empty.
struct TeleopTarget {
  std::string name;
  TeleopTargetType type = TeleopTargetType::kEndEffector;

  // end effector: the chain from `base_body` (kWorldBody = −1: the world) to the frame
  // X_BE fixed in `tip_body` (a URDF link's frame, or a body's)
  int base_body = -1;
  int tip_body = -1;
  Pose X_BE;                    ///< end-effector frame in the tip body frame
  Real position_weight = 1;     ///< weight of the position error [1/m]
  Real orientation_weight = 1;  ///< weight of the orientation error [1/rad]; 0: position only
  /// rest posture of chosen chain joints (the IK's null-space goal) [rad|m]; chain joints not
  /// listed rest at the middle of their limits (0 when unlimited)
  std::vector<int> rest_joints;
  std::vector<Real> rest_positions;
  Real max_joint_speed = 1.5;  ///< IK joint-velocity cap [rad/s|m/s]
  /// look_at (which uses the chain fields above): the axis of the end-effector frame that is
  /// pointed at the target point (unit)
  Vec3 look_axis = Vec3::UnitX();

  // gripper, synergy: joint j_k's drive target is open_k + axis·(closed_k − open_k)
  std::vector<int> joints;
  std::vector<Real> open;    ///< [rad|m] at axis 0
  std::vector<Real> closed;  ///< [rad|m] at axis 1

  // base: the joints that move the base along world x, y (prismatic) and about z (revolute or
  // continuous), each with a drive (velocity targets); −1 where absent
  int base_x_joint = -1;
  int base_y_joint = -1;
  int base_yaw_joint = -1;
  Real max_linear_speed = 1;   ///< [m/s]
  Real max_angular_speed = 1;  ///< [rad/s]
};

}  // namespace sim
