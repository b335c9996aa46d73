// The `teleop` array of a scene file: what an operator can steer on its robots (any URDF robot or
// jointed scene bodies). Each entry has a `name` and a `type`:
//   end_effector  {link, base?, position_weight?, orientation_weight?, rest_posture?,
//                  max_joint_speed?}: a link's 6-DoF pose through damped-least-squares IK
//   gripper       {joints: {"joint": [open, closed], ...}}: one axis, open (0) to closed (1)
//   synergy       {joints: {...}} as a gripper: a grasp synergy of several joints on one axis
//   base          {x_joint?, y_joint?, yaw_joint?, max_linear_speed?, max_angular_speed?}
//   look_at       {link, base?, axis?, rest_posture?, max_joint_speed?}: the link's axis pointed
//                 at a point (a head's pan and tilt) through the same IK, orientation only
// Joint names are the model's ("robot/joint"); links are "robot/link" (welded links too).
#include <set>

#include "engine/io/scene_reader.h"
#include "engine/kinematics/kinematic_chain.h"

namespace sim::io {

namespace {

constexpr double kMaxWeight = 1e6;  // weights are relative; far above any useful ratio
constexpr double kMaxSpeed = 1e3;   // [rad/s|m/s]

bool IsAngular(JointType type) {
  return type == JointType::kRevolute || type == JointType::kContinuous;
}


// a drivable joint named by `key` of `entry` (absent: −1 and true); `allowed` checks its type
bool ReadJointName(SceneReader& reader, const JsonValue& entry, const char* key, const Model& model,
                   bool (*allowed)(JointType), const char* expected, int* joint,
                   const std::string& what) {
  *joint = -1;
  const JsonValue* value = entry.Find(key);
  if (value == nullptr) return true;
  std::string name;
  if (!reader.ReadString(entry, key, &name, what)) return false;
  const int j = model.FindJoint(name);
  if (j < 0 || !DrivableJoint(model, j)) {
    reader.Error(*value, what + " '" + key + "' names " + (j < 0 ? "unknown joint '" : "joint '") +
                             name + (j < 0 ? "'" : "', which has no drive") +
                             " (joints with drives: " + DrivableJointNames(model) + ")");
    return false;
  }
  if (!allowed(model.joint_type[j])) {
    reader.Error(*value, what + " '" + key + "' joint '" + name + "' is " +
                             JointTypeName(model.joint_type[j]) + ", expected " + expected);
    return false;
  }
  *joint = j;
  return true;
}


// `joints`: {"joint": [open, closed], ...} of a gripper or synergy, inside the joints' limits
bool ReadAxisJoints(SceneReader& reader, const JsonValue& entry, const Model& model,
                    TeleopTarget* target, const std::string& what) {
  const JsonValue* joints = entry.Find("joints");
  if (joints == nullptr) {
    reader.Error(entry, what + " needs 'joints': {\"joint\": [open, closed], ...} [rad|m]");
    return false;
  }
  if (!reader.ExpectType(*joints, JsonValue::Type::kObject, what + " 'joints'")) return false;
  if (joints->members().empty()) {
    reader.Error(*joints, what + " 'joints' is empty; name at least one joint");
    return false;
  }
  bool ok = true;
  for (const auto& [name, value] : joints->members()) {
    const int j = model.FindJoint(name);
    if (j < 0 || !DrivableJoint(model, j)) {
      reader.Error(value, what + " names " + (j < 0 ? "unknown joint '" : "joint '") + name +
                              (j < 0 ? "'" : "', which has no drive") +
                              " (joints with drives: " + DrivableJointNames(model) + ")");
      ok = false;
      continue;
    }
    Vec2 range = Vec2::Zero();
    if (!reader.ReadArray<2>(*joints, name.c_str(), &range, what + " joint '" + name + "'",
                             -kMaxJointCoordinate, kMaxJointCoordinate)) {
      ok = false;
      continue;
    }
    if (model.joint_limited[j] && model.joint_type[j] != JointType::kContinuous &&
        (range.minCoeff() < model.joint_lower[j] - 1e-12 ||
         range.maxCoeff() > model.joint_upper[j] + 1e-12)) {
      reader.Error(value, what + " joint '" + name + "' open/closed [" + FormatNumber(range[0]) +
                              ", " + FormatNumber(range[1]) + "] leave its limits [" +
                              FormatNumber(model.joint_lower[j]) + ", " +
                              FormatNumber(model.joint_upper[j]) + "]");
      ok = false;
      continue;
    }
    target->joints.push_back(j);
    target->open.push_back(range[0]);
    target->closed.push_back(range[1]);
  }
  return ok;
}


// link, base, weights, rest posture and speed of an end effector; the chain must be valid
bool ReadEndEffector(SceneReader& reader, const JsonValue& entry, const Model& model,
                     TeleopTarget* target, const std::string& what) {
  const JsonValue* link = entry.Find("link");
  if (link == nullptr) {
    reader.Error(entry,
                 what + " needs 'link' (the end-effector link, e.g. \"fetch/gripper_link\")");
    return false;
  }
  std::string link_name, base_name;
  bool ok = reader.ReadString(entry, "link", &link_name, what);
  ok &= reader.ReadString(entry, "base", &base_name, what);
  ok &= reader.ReadNumber(entry, "position_weight", &target->position_weight, 0, kMaxWeight, what);
  ok &= reader.ReadNumber(entry, "orientation_weight", &target->orientation_weight, 0, kMaxWeight,
                          what);
  ok &=
      reader.ReadNumber(entry, "max_joint_speed", &target->max_joint_speed, 1e-6, kMaxSpeed, what);
  if (!ok) return false;
  if (target->position_weight == 0 && target->orientation_weight == 0) {
    reader.Error(entry, what + " has position_weight and orientation_weight 0; give one > 0");
    return false;
  }
  // the link and the base by name, then the chain between them
  const auto known = [&model](const std::string& name) {
    return model.FindFrame(name) >= 0 || model.FindBody(name) >= 0;
  };
  if (!known(link_name)) {
    reader.Error(*link, what + " 'link' names unknown link '" + link_name + "'");
    return false;
  }
  if (!base_name.empty() && !known(base_name)) {
    reader.Error(*entry.Find("base"), what + " 'base' names unknown link '" + base_name + "'");
    return false;
  }
  const Expected<KinematicChain> chain = BuildKinematicChain(model, base_name, link_name);
  if (!chain.ok()) {
    reader.Error(*link, what + ": " + chain.diagnostics().items().front().message);
    return false;
  }
  target->base_body = chain->base_body;
  target->tip_body = chain->tip_body;
  target->X_BE = chain->X_BE;
  // rest posture: chain joints only, inside their limits
  const JsonValue* rest = entry.Find("rest_posture");
  if (rest == nullptr) return true;
  if (!reader.ExpectType(*rest, JsonValue::Type::kObject, what + " 'rest_posture'")) return false;
  for (const auto& [name, value] : rest->members()) {
    const int j = model.FindJoint(name);
    int k = 0;
    while (k < chain->size() && chain->joints[k] != j) ++k;
    if (k == chain->size()) {
      reader.Error(value, what + " 'rest_posture' names '" + name +
                              "', which is not an actuated joint of the chain from " +
                              (base_name.empty() ? "the world" : "'" + base_name + "'") + " to '" +
                              link_name + "'");
      ok = false;
      continue;
    }
    double position = 0;
    if (!reader.ReadNumber(*rest, name.c_str(), &position, chain->lower[k], chain->upper[k],
                           what + " rest position")) {
      ok = false;
      continue;
    }
    target->rest_joints.push_back(j);
    target->rest_positions.push_back(position);
  }
  return ok;
}


bool Prismatic(JointType type) { return type == JointType::kPrismatic; }
bool Angular(JointType type) { return IsAngular(type); }


// the x, y and yaw joints of a planar base and its speed limits
bool ReadBase(SceneReader& reader, const JsonValue& entry, const Model& model, TeleopTarget* target,
              const std::string& what) {
  bool ok = ReadJointName(reader, entry, "x_joint", model, Prismatic, "prismatic",
                          &target->base_x_joint, what);
  ok &= ReadJointName(reader, entry, "y_joint", model, Prismatic, "prismatic",
                      &target->base_y_joint, what);
  ok &= ReadJointName(reader, entry, "yaw_joint", model, Angular, "revolute or continuous",
                      &target->base_yaw_joint, what);
  ok &= reader.ReadNumber(entry, "max_linear_speed", &target->max_linear_speed, 0, kMaxSpeed, what);
  ok &=
      reader.ReadNumber(entry, "max_angular_speed", &target->max_angular_speed, 0, kMaxSpeed, what);
  if (ok && target->base_x_joint < 0 && target->base_y_joint < 0 && target->base_yaw_joint < 0) {
    reader.Error(entry, what + " needs at least one of 'x_joint', 'y_joint', 'yaw_joint'");
    return false;
  }
  return ok;
}

}  // namespace


void ReadTeleop(SceneReader& reader, const JsonValue& root, Model* model) {
  const JsonValue* teleop = root.Find("teleop");
  if (teleop == nullptr) return;
  if (!reader.ExpectType(*teleop, JsonValue::Type::kArray, "'teleop'")) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < teleop->items().size(); ++i) {
    const JsonValue& entry = teleop->items()[i];
    std::string what = "teleop target " + std::to_string(i);
    if (!reader.ExpectType(entry, JsonValue::Type::kObject, what)) continue;
    TeleopTarget target;
    if (entry.Find("name") == nullptr) {
      reader.Error(entry, what + " needs a 'name'");
      continue;
    }
    if (!reader.ReadString(entry, "name", &target.name, what)) continue;
    what = "teleop target '" + target.name + "'";
    if (!names.insert(target.name).second) {
      reader.Error(*entry.Find("name"), "duplicate teleop target name '" + target.name + "'");
      continue;
    }
    if (entry.Find("type") == nullptr) {
      reader.Error(entry,
                   what + " needs a 'type' (end_effector, gripper, synergy, base or look_at)");
      continue;
    }
    using T = TeleopTargetType;
    if (!reader.ReadEnum<T>(entry, "type",
                            {{TeleopTargetTypeName(T::kEndEffector), T::kEndEffector},
                             {TeleopTargetTypeName(T::kGripper), T::kGripper},
                             {TeleopTargetTypeName(T::kSynergy), T::kSynergy},
                             {TeleopTargetTypeName(T::kBase), T::kBase},
                             {TeleopTargetTypeName(T::kLookAt), T::kLookAt}},
                            &target.type, what)) {
      continue;
    }
    bool ok = false;
    switch (target.type) {
      case T::kEndEffector:
        reader.CheckKeys(entry,
                         {"name", "type", "link", "base", "position_weight", "orientation_weight",
                          "rest_posture", "max_joint_speed"},
                         what);
        ok = ReadEndEffector(reader, entry, *model, &target, what);
        break;
      case T::kLookAt: {
        reader.CheckKeys(
            entry, {"name", "type", "link", "base", "axis", "rest_posture", "max_joint_speed"},
            what);
        ok = ReadEndEffector(reader, entry, *model, &target, what);
        // orientation only: the link's axis towards the point
        target.position_weight = 0;
        target.orientation_weight = 1;
        Eigen::Matrix<double, 3, 1> axis(1, 0, 0);
        if (ok && entry.Find("axis") != nullptr) {
          ok = reader.ReadArray<3>(entry, "axis", &axis, what, -1e3, 1e3);
          if (ok && !(axis.norm() > 1e-9)) {
            reader.Error(*entry.Find("axis"), what + " 'axis' must not be zero");
            ok = false;
          }
        }
        target.look_axis = axis.normalized().cast<Real>();
        break;
      }
      case T::kGripper:
      case T::kSynergy:
        reader.CheckKeys(entry, {"name", "type", "joints"}, what);
        ok = ReadAxisJoints(reader, entry, *model, &target, what);
        break;
      case T::kBase:
        reader.CheckKeys(entry,
                         {"name", "type", "x_joint", "y_joint", "yaw_joint", "max_linear_speed",
                          "max_angular_speed"},
                         what);
        ok = ReadBase(reader, entry, *model, &target, what);
        break;
    }
    if (ok) model->teleop_targets.push_back(std::move(target));
  }
}

}  // namespace sim::io
