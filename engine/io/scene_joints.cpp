// The `joints` array of a scene file: joints between named objects, given in world coordinates at
// the initial configuration (anchor point, axis direction) and converted to the model's
// body-fixed joint frames. The joint frame J sits at the anchor with the world's orientation at
// the initial configuration, so every joint starts at position 0.
#include <algorithm>
#include <set>

#include "engine/io/scene_reader.h"

namespace sim::io {

namespace {

// drive gains beyond this are typos, not mechanisms
constexpr double kMaxGain = 1e12;

bool HasAxis(JointType type) {
  return type == JointType::kRevolute || type == JointType::kContinuous ||
         type == JointType::kPrismatic;
}

// a planar joint's axis is the normal of its plane
bool NeedsAxis(JointType type) { return HasAxis(type) || type == JointType::kPlanar; }

// a mimic read from a joint, resolved once every joint is known
struct PendingMimic {
  const JsonValue* at = nullptr;
  int follower = -1;
  std::string leader;
  Real multiplier = 1;
  Real offset = 0;
  std::string what;
};

bool IsAngular(JointType type) {
  return type == JointType::kRevolute || type == JointType::kContinuous;
}

// the names of objects of the given kinds, for "unknown name" messages
std::string KnownNames(const ObjectNames& objects, std::initializer_list<ObjectRef::Kind> kinds,
                       bool with_world) {
  std::vector<std::string> names;
  if (with_world) names.emplace_back("world");
  int more = 0;
  for (const auto& [name, ref] : objects) {
    if (std::find(kinds.begin(), kinds.end(), ref.kind) == kinds.end()) continue;
    if (static_cast<int>(names.size()) < kMaxListedNames) {
      names.push_back(name);
    } else {
      ++more;
    }
  }
  if (more > 0) names.push_back("... (" + std::to_string(more) + " more)");
  return names.empty() ? "none" : Join(names);
}

// one end of a joint by object name: its body (kWorldBody for "world" and fixed objects) and its
// initial pose; false with an error when the name cannot be a joint end
bool ReadJointEnd(SceneReader& reader, const JsonValue& joint, const char* key,
                  const ObjectNames& objects, const State& state, int* body, Pose* X_WB,
                  const std::string& what) {
  const JsonValue* value = joint.Find(key);
  const bool is_child = std::string(key) == "child";
  if (value == nullptr) {
    reader.Error(joint, what + " needs a '" + key + "' (the name of " +
                            (is_child ? "a dynamic body object)" : "an object, or \"world\")"));
    return false;
  }
  if (!reader.ExpectType(*value, JsonValue::Type::kString, what + " '" + key + "'")) return false;
  const std::string& name = value->string();
  using Kind = ObjectRef::Kind;
  if (name == "world") {
    if (is_child) {
      reader.Error(*value, what +
                               " has the world as its child; the child must be a dynamic body "
                               "(make the world the parent)");
      return false;
    }
    *body = kWorldBody;
    return true;
  }
  auto it = objects.find(name);
  if (it == objects.end()) {
    const std::string known = is_child ? KnownNames(objects, {Kind::kBody}, false)
                                       : KnownNames(objects, {Kind::kBody, Kind::kFixed}, true);
    reader.Error(*value, what + " has unknown " + key + " '" + name + "' (" +
                             (is_child ? "dynamic bodies: " : "known: ") + known + ")");
    return false;
  }
  switch (it->second.kind) {
    case Kind::kInvalid:
      return false;  // the object's own errors are already reported
    case Kind::kParticle:
      reader.Error(*value,
                   what + " " + key + " '" + name + "' is a particle; joints connect rigid bodies");
      return false;
    case Kind::kFixed:
      if (is_child) {
        reader.Error(*value, what + " child '" + name +
                                 "' is fixed; the child must be a dynamic body (make the fixed "
                                 "object the parent)");
        return false;
      }
      *body = kWorldBody;  // a fixed object is part of the static world
      return true;
    case Kind::kBody:
      *body = it->second.index;
      *X_WB = state.body_X_WB[it->second.index];
      return true;
  }
  return false;
}

// `limits` [lower, upper] (rad or m) or `limits_deg` (revolute); sets the limit fields
bool ReadLimits(SceneReader& reader, const JsonValue& joint, JointType type, double initial,
                bool* limited, double* lower, double* upper, const std::string& what) {
  const JsonValue* limits = joint.Find("limits");
  const JsonValue* limits_deg = joint.Find("limits_deg");
  if (limits == nullptr && limits_deg == nullptr) return true;
  const JsonValue& at = limits != nullptr ? *limits : *limits_deg;
  if (type != JointType::kRevolute && type != JointType::kPrismatic) {
    reader.Error(at, what + " of type '" + JointTypeName(type) +
                         "' cannot have limits (only revolute and prismatic joints can)");
    return false;
  }
  if (limits != nullptr && limits_deg != nullptr) {
    reader.Error(*limits_deg, what + " gives both 'limits' and 'limits_deg'; give one");
    return false;
  }
  if (limits_deg != nullptr && type != JointType::kRevolute) {
    reader.Error(*limits_deg,
                 what + " is prismatic; its limits are in metres: use 'limits', not 'limits_deg'");
    return false;
  }
  Eigen::Vector2d range;
  const char* key = limits != nullptr ? "limits" : "limits_deg";
  if (!reader.ReadArray<2>(joint, key, &range, what, -kMaxJointCoordinate, kMaxJointCoordinate)) {
    return false;
  }
  if (range[0] > range[1]) {
    reader.Error(at, what + " '" + key + "' lower " + FormatNumber(range[0]) + " is above upper " +
                         FormatNumber(range[1]) + "; expected lower <= upper");
    return false;
  }
  if (limits_deg != nullptr) range *= kDegToRad;
  // the joint starts at its initial position (0 unless given), which the limits should contain
  if (range[0] > initial || range[1] < initial) {
    reader.Warning(at, what + " starts outside its limits (its initial position is " +
                           FormatNumber(initial) +
                           "; joint positions are measured from the configuration where the "
                           "joint is at 0, see 'initial_position')");
  }
  *limited = true;
  *lower = range[0];
  *upper = range[1];
  return true;
}

// `initial_position` (rad or m) or `initial_position_deg` (revolute, continuous): where the joint
// is in the configuration the bodies are given in (default 0)
bool ReadInitialPosition(SceneReader& reader, const JsonValue& joint, JointType type,
                         double* initial, const std::string& what) {
  const JsonValue* value = joint.Find("initial_position");
  const JsonValue* degrees = joint.Find("initial_position_deg");
  if (value == nullptr && degrees == nullptr) return true;
  const JsonValue& at = value != nullptr ? *value : *degrees;
  if (type != JointType::kNone && !HasAxis(type)) {
    reader.Error(at, what + " of type '" + JointTypeName(type) +
                         "' has no initial position (only revolute, continuous and prismatic "
                         "joints have one)");
    return false;
  }
  if (value != nullptr && degrees != nullptr) {
    reader.Error(*degrees,
                 what + " gives both 'initial_position' and 'initial_position_deg'; give one");
    return false;
  }
  if (degrees != nullptr && !IsAngular(type)) {
    reader.Error(*degrees, what +
                               " is prismatic; its position is in metres: use "
                               "'initial_position', not 'initial_position_deg'");
    return false;
  }
  bool ok = reader.ReadNumber(joint, "initial_position", initial, -kMaxJointCoordinate,
                              kMaxJointCoordinate, what);
  double in_degrees = 0;
  ok &= reader.ReadNumber(joint, "initial_position_deg", &in_degrees, -kMaxJointCoordinate,
                          kMaxJointCoordinate, what);
  if (degrees != nullptr) *initial = in_degrees * kDegToRad;
  return ok;
}

// `drive` {stiffness, damping, target_position or target_position_deg, target_velocity}
bool ReadDrive(SceneReader& reader, const JsonValue& joint, JointType type, JointDrive* drive,
               const std::string& what) {
  const JsonValue* value = joint.Find("drive");
  if (value == nullptr) return true;
  if (!HasAxis(type)) {
    reader.Error(*value, what + " of type '" + JointTypeName(type) +
                             "' cannot have a drive (only revolute, continuous and prismatic "
                             "joints can)");
    return false;
  }
  return ReadDriveObject(reader, *value, IsAngular(type), drive, what + " drive");
}

void ReadJoint(SceneReader& reader, const JsonValue& joint, int index, const ObjectNames& objects,
               const State& state, std::set<std::string>* names, Model* model,
               std::vector<PendingMimic>* mimics) {
  std::string what = "joint " + std::to_string(index);
  if (!reader.ExpectType(joint, JsonValue::Type::kObject, what)) return;
  reader.CheckKeys(joint,
                   {"name", "type", "parent", "child", "anchor", "axis", "limits", "limits_deg",
                    "compliance", "angular_compliance", "drive", "friction", "mimic",
                    "initial_position", "initial_position_deg"},
                   what);
  bool ok = true;

  // name: required and unique among joints (controls and reports refer to joints by name)
  std::string name;
  const JsonValue* name_value = joint.Find("name");
  if (name_value == nullptr) {
    reader.Error(joint, what + " needs a 'name'");
    ok = false;
  } else if (reader.ReadString(joint, "name", &name, what)) {
    if (name.empty()) {
      reader.Error(*name_value, what + " has an empty name");
      ok = false;
    } else if (!names->insert(name).second) {
      reader.Error(*name_value, "duplicate joint name '" + name + "'");
      ok = false;
    }
    what = "joint '" + name + "'";
  } else {
    ok = false;
  }

  // type: without a valid one the type-specific keys cannot be checked
  JointType type = JointType::kNone;
  const JsonValue* type_value = joint.Find("type");
  if (type_value == nullptr) {
    reader.Error(joint,
                 what + " needs a 'type' (fixed, revolute, continuous, prismatic, ball or planar)");
    ok = false;
  } else if (reader.ExpectType(*type_value, JsonValue::Type::kString, what + " 'type'")) {
    for (JointType t : {JointType::kFixed, JointType::kRevolute, JointType::kContinuous,
                        JointType::kPrismatic, JointType::kBall, JointType::kPlanar}) {
      if (type_value->string() == JointTypeName(t)) type = t;
    }
    if (type == JointType::kNone) {
      reader.Error(*type_value,
                   what + " has unknown type '" + type_value->string() +
                       "' (expected fixed, revolute, continuous, prismatic, ball or planar)");
      ok = false;
    }
  } else {
    ok = false;
  }

  // parent and child, with their initial poses (identity for the world)
  int parent = kWorldBody;
  int child = kWorldBody;
  Pose X_WP;
  Pose X_WC;
  ok &= ReadJointEnd(reader, joint, "parent", objects, state, &parent, &X_WP, what);
  ok &= ReadJointEnd(reader, joint, "child", objects, state, &child, &X_WC, what);
  const JsonValue* parent_value = joint.Find("parent");
  const JsonValue* child_value = joint.Find("child");
  if (parent_value != nullptr && child_value != nullptr && parent_value->is_string() &&
      child_value->is_string() && child_value->string() != "world" &&
      parent_value->string() == child_value->string()) {
    reader.Error(*child_value, what + " connects '" + child_value->string() +
                                   "' to itself; parent and child "
                                   "must differ");
    ok = false;
  }

  // anchor (default: the child's origin) and axis, world coordinates at the initial configuration
  Vec3 anchor = X_WC.p;
  ok &= reader.ReadArray<3>(joint, "anchor", &anchor, what, -1e6, 1e6);
  Vec3 axis = Vec3::UnitX();
  if (const JsonValue* axis_value = joint.Find("axis")) {
    if (type != JointType::kNone && !NeedsAxis(type)) {
      reader.Warning(*axis_value, what + " of type '" + JointTypeName(type) +
                                      "' has no axis; its 'axis' is ignored");
    } else if (reader.ReadArray<3>(joint, "axis", &axis, what, -1e6, 1e6)) {
      if (axis.norm() < 1e-9) {
        reader.Error(*axis_value, what + " 'axis' has zero length");
        ok = false;
      } else {
        axis.normalize();
      }
    } else {
      ok = false;
    }
  } else if (NeedsAxis(type)) {
    reader.Error(
        joint, what + " of type '" + JointTypeName(type) + "' needs an 'axis' [x, y, z] (" +
                   (type == JointType::kPlanar ? "the plane's normal, " : "") + "world direction)");
    ok = false;
  }

  // initial position: the bodies as given are the configuration where the joint is at it
  double initial = 0;
  ok &= ReadInitialPosition(reader, joint, type, &initial, what);

  bool limited = false;
  double lower = 0;
  double upper = 0;
  JointDrive drive;
  double compliance = 0;
  if (type != JointType::kNone) {
    ok &= ReadLimits(reader, joint, type, initial, &limited, &lower, &upper, what);
    ok &= ReadDrive(reader, joint, type, &drive, what);
  }
  // compliance is m/N; 1 m/N is already softer than any joint meant to hold
  ok &= reader.ReadNumber(joint, "compliance", &compliance, 0, 1, what);
  // Coulomb friction of the joint's motion [N·m or N]
  double friction = 0;
  if (const JsonValue* value = joint.Find("friction")) {
    if (type != JointType::kNone && !HasAxis(type)) {
      reader.Error(*value, what + " of type '" + JointTypeName(type) +
                               "' cannot have friction (only revolute, continuous and prismatic "
                               "joints can)");
      ok = false;
    } else {
      ok &= reader.ReadNumber(joint, "friction", &friction, 0, kMaxGain, what);
    }
  }
  // mimic {joint, multiplier, offset}: θ = multiplier·θ_joint + offset
  PendingMimic mimic;
  if (const JsonValue* value = joint.Find("mimic")) {
    const std::string mimic_what = what + " 'mimic'";
    if (type != JointType::kNone && !HasAxis(type)) {
      reader.Error(*value, what + " of type '" + JointTypeName(type) +
                               "' cannot mimic another joint (only revolute, continuous and "
                               "prismatic joints can)");
      ok = false;
    } else if (reader.ExpectType(*value, JsonValue::Type::kObject, mimic_what)) {
      reader.CheckKeys(*value, {"joint", "multiplier", "offset"}, mimic_what);
      if (value->Find("joint") == nullptr) {
        reader.Error(*value, mimic_what + " needs 'joint' (the name of the joint it follows)");
        ok = false;
      }
      ok &= reader.ReadString(*value, "joint", &mimic.leader, mimic_what);
      ok &= reader.ReadNumber(*value, "multiplier", &mimic.multiplier, -kMaxGain, kMaxGain,
                              mimic_what);
      ok &= reader.ReadNumber(*value, "offset", &mimic.offset, -kMaxJointCoordinate,
                              kMaxJointCoordinate, mimic_what);
      mimic.at = value;
      mimic.what = what;
    } else {
      ok = false;
    }
  }
  // rad/(N·m) of the locked rotations; absent (-1): the same as 'compliance'
  double angular_compliance = -1;
  ok &= reader.ReadNumber(joint, "angular_compliance", &angular_compliance, 0, 1, what);
  if (!ok) return;

  // J is at the anchor with world orientation at the initial configuration, so the axis in J is
  // its world direction
  const Pose X_WJ{anchor, Quat::Identity()};
  model->joint_name.push_back(name);
  model->joint_type.push_back(type);
  model->joint_parent.push_back(parent);
  model->joint_child.push_back(child);
  model->joint_X_PJ.push_back(X_WP.Inverse() * X_WJ);
  // the child where the joint is at 0: moved back by its initial position about or along the axis
  Pose X_W0C = X_WC;
  if (initial != 0) {
    const Pose back = IsAngular(type) ? Pose{anchor, Quat(Eigen::AngleAxisd(-initial, axis))} *
                                            Pose{-anchor, Quat::Identity()}
                                      : Pose{-initial * axis, Quat::Identity()};
    X_W0C = back * X_WC;
  }
  model->joint_X_CJ.push_back(X_W0C.Inverse() * X_WJ);
  model->joint_axis.push_back(axis);
  model->joint_limited.push_back(limited ? 1 : 0);
  model->joint_lower.push_back(lower);
  model->joint_upper.push_back(upper);
  model->joint_compliance.push_back(compliance);
  model->joint_drive.push_back(drive);
  if (friction > 0) {
    model->joint_friction.resize(model->joint_count(), 0);
    model->joint_friction.back() = friction;
  }
  if (mimic.at != nullptr) {
    mimic.follower = model->joint_count() - 1;
    mimics->push_back(mimic);
  }
  // joints added before (robots) have no entry: -1 keeps their 'compliance' for rotations
  model->joint_angular_compliance.resize(model->joint_count() - 1, -1);
  model->joint_angular_compliance.push_back(angular_compliance);
}

}  // namespace


bool ReadDriveObject(SceneReader& reader, const JsonValue& value, bool angular, JointDrive* drive,
                     const std::string& drive_what) {
  if (!reader.ExpectType(value, JsonValue::Type::kObject, drive_what)) return false;
  reader.CheckKeys(value,
                   {"stiffness", "damping", "target_position", "target_position_deg",
                    "target_velocity", "max_force"},
                   drive_what);
  bool ok = reader.ReadNumber(value, "stiffness", &drive->stiffness, 0, kMaxGain, drive_what);
  ok &= reader.ReadNumber(value, "damping", &drive->damping, 0, kMaxGain, drive_what);
  ok &= reader.ReadNumber(value, "target_velocity", &drive->target_velocity, -kMaxJointCoordinate,
                          kMaxJointCoordinate, drive_what);
  ok &= reader.ReadNumber(value, "max_force", &drive->max_force, 1e-9, kMaxGain, drive_what);
  const JsonValue* degrees = value.Find("target_position_deg");
  if (degrees != nullptr && value.Find("target_position") != nullptr) {
    reader.Error(*degrees,
                 drive_what + " gives both 'target_position' and 'target_position_deg'; give one");
    return false;
  }
  if (degrees != nullptr && !angular) {
    reader.Error(*degrees, drive_what +
                               " of a prismatic joint is in metres: use "
                               "'target_position', not 'target_position_deg'");
    return false;
  }
  ok &= reader.ReadNumber(value, "target_position", &drive->target_position, -kMaxJointCoordinate,
                          kMaxJointCoordinate, drive_what);
  double target_deg = 0;
  ok &= reader.ReadNumber(value, "target_position_deg", &target_deg, -kMaxJointCoordinate,
                          kMaxJointCoordinate, drive_what);
  if (degrees != nullptr) drive->target_position = target_deg * kDegToRad;
  return ok;
}


void ReadJoints(SceneReader& reader, const JsonValue& root, const ObjectNames& objects,
                const State& state, Model* model) {
  const JsonValue* joints = root.Find("joints");
  if (joints == nullptr) return;
  if (!reader.ExpectType(*joints, JsonValue::Type::kArray, "'joints'")) return;
  std::set<std::string> names;
  std::vector<PendingMimic> mimics;
  for (std::size_t i = 0; i < joints->items().size(); ++i) {
    ReadJoint(reader, joints->items()[i], static_cast<int>(i), objects, state, &names, model,
              &mimics);
  }
  // mimic leaders: any 1-DOF joint of the scene, robots' joints included ("robot/joint")
  for (const PendingMimic& mimic : mimics) {
    const int leader = model->FindJoint(mimic.leader);
    const JsonValue& at = *mimic.at->Find("joint");
    if (leader < 0) {
      reader.Error(at, mimic.what + " mimics '" + mimic.leader + "', which is not a joint");
    } else if (leader == mimic.follower) {
      reader.Error(at, mimic.what + " mimics itself");
    } else if (!HasAxis(model->joint_type[leader])) {
      reader.Error(at, mimic.what + " mimics joint '" + mimic.leader + "' of type '" +
                           JointTypeName(model->joint_type[leader]) +
                           "' (expected a revolute, continuous or prismatic joint)");
    } else {
      model->joint_couplings.push_back(JointCoupling{.follower = mimic.follower,
                                                     .leader = leader,
                                                     .multiplier = mimic.multiplier,
                                                     .offset = mimic.offset});
    }
  }
}

}  // namespace sim::io
