// Ghosts of the drives' target pose.
#include "engine/visual/drive_ghosts.h"

#include <cmath>

#include "engine/kinematics/kinematic_chain.h"

namespace sim {

void AppendDriveTargetGhosts(const Model& model, const State& state,
                             const std::vector<Real>& targets, VisualFrame* frame) {
  bool any_target = false;
  for (Real q : targets) any_target |= std::isfinite(q);
  if (!any_target) return;
  const std::vector<Pose> poses = PosesAtJointPositions(model, state, targets);
  // the move from each body's pose to its target pose, for the bodies that are visibly off it
  std::vector<Pose> shift(model.body_count());
  std::vector<char> ghosted(model.body_count(), 0);
  for (int b = 0; b < model.body_count(); ++b) {
    if (model.body_static[b] != 0) continue;
    const Pose& now = state.body_X_WB[b];
    const Real distance = (poses[b].p - now.p).norm();
    const Real angle = now.q.angularDistance(poses[b].q);
    if (!(distance > kDriveGhostMinDistance || angle > kDriveGhostMinAngle)) continue;
    if (!poses[b].p.allFinite() || !poses[b].q.coeffs().allFinite()) continue;
    shift[b] = poses[b] * now.Inverse();
    ghosted[b] = 1;
  }
  const auto moved = [&](std::int32_t body) {
    return body >= 0 && body < model.body_count() && ghosted[body] != 0;
  };
  const std::size_t shapes = frame->shapes.size();
  for (std::size_t i = 0; i < shapes; ++i) {
    VisualShape shape = frame->shapes[i];
    if (!moved(shape.body) || shape.collision_only || shape.drive_target) continue;
    shape.X_WS = PoseToRows(shift[shape.body] * PoseFromRows(shape.X_WS));
    shape.drive_target = true;
    frame->shapes.push_back(shape);
  }
  const std::size_t instances = frame->mesh_instances.size();
  for (std::size_t i = 0; i < instances; ++i) {
    VisualMeshInstance instance = frame->mesh_instances[i];
    if (!moved(instance.body) || instance.collision_only || instance.drive_target) continue;
    instance.X_WS = PoseToRows(shift[instance.body] * PoseFromRows(instance.X_WS));
    instance.drive_target = true;
    frame->mesh_instances.push_back(instance);
  }
}

}  // namespace sim
