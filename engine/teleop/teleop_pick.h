// Teleop targets picked in the studio rather than declared in the scene: any body of a robot
// (a URDF link; welded links are their body's) becomes an end effector whose chain runs from the
// world through its parent joints, so a robot loaded without a scene (a lone URDF gets hold-pose
// drives, engine/io/default_scene.h) can be teleoperated at once.
#pragma once

#include "engine/core/diagnostics.h"
#include "engine/model/model.h"

namespace sim {

/// An end-effector target on `body` (position and orientation weights 1, the rest posture the
/// middle of the limits) named after the body, its frame the URDF link frame of that name when
/// there is one, else the body frame. Errors: no such body, a chain that cannot be built (a free
/// body on the way, a ball joint, ...), a chain with no joint, or a chain joint without a drive
/// (the IK moves joints through their drive targets).
Expected<TeleopTarget> EndEffectorTargetForBody(const Model& model, int body);

}  // namespace sim
