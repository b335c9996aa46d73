#include "engine/teleop/teleop_pick.h"

#include "engine/kinematics/kinematic_chain.h"

namespace sim {

Expected<TeleopTarget> EndEffectorTargetForBody(const Model& model, int body) {
  Diagnostics diagnostics;
  if (body < 0 || body >= model.body_count()) {
    diagnostics.Error(model.name, 0, "", "no body " + std::to_string(body) + " to teleoperate");
    return diagnostics;
  }
  const std::string& name = model.body_name[body];
  // the link's own frame when the loader kept one by this name, else the body (COM) frame
  Pose X_BE;
  const int frame = model.FindFrame(name);
  if (frame >= 0 && model.frame_body[frame] == body) X_BE = model.frame_X_BF[frame];
  Expected<KinematicChain> chain = BuildKinematicChain(model, kWorldBody, body, X_BE);
  if (!chain.ok()) {
    diagnostics.Error(
        model.name, 0, "",
        "cannot teleoperate '" + name + "': " + chain.diagnostics().items().front().message);
    return diagnostics;
  }
  if (chain->size() == 0) {
    diagnostics.Error(model.name, 0, "",
                      "cannot teleoperate '" + name + "': no joint moves it (fixed to the world)");
    return diagnostics;
  }
  for (const int joint : chain->joints) {
    if (!model.joint_drive[joint].enabled()) {
      diagnostics.Error(model.name, 0, "",
                        "cannot teleoperate '" + name + "': joint '" + model.joint_name[joint] +
                            "' has no drive (give the robot `hold_pose` or `drives` in the scene)");
      return diagnostics;
    }
  }
  TeleopTarget target;
  target.name = name;
  target.type = TeleopTargetType::kEndEffector;
  target.base_body = kWorldBody;
  target.tip_body = body;
  target.X_BE = X_BE;
  return target;
}

}  // namespace sim
