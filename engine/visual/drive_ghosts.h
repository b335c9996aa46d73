// Ghosts of the drives' target pose: the bodies of a robot drawn where its joint drives pull them
// (the commanded joint positions composed through the tree, PosesAtJointPositions), beside the
// robot as it is, so a slider move or a script's next key shows where the arm is headed.
#pragma once

#include <vector>

#include "engine/model/model.h"
#include "engine/state/state.h"
#include "engine/visual/visual_frame.h"

namespace sim {

/// A body's ghost is drawn when its target pose is this far from its pose [m] ...
inline constexpr Real kDriveGhostMinDistance = 0.002;
/// ... or turned this far from it [rad] (1°).
inline constexpr Real kDriveGhostMinAngle = 0.0174533;

/// Appends to `frame` a copy of each shape and mesh instance (not collision-only ones) of the
/// bodies whose pose at the joint positions `targets` (one per joint [rad|m], NaN: the joint
/// as it is) differs from their pose in `state` by the thresholds above, placed at that pose and
/// marked `drive_target`. `frame` must have been filled from `state` (FillVisualFrame).
void AppendDriveTargetGhosts(const Model& model, const State& state,
                             const std::vector<Real>& targets, VisualFrame* frame);

}  // namespace sim
