// The `joints` array of a scene file: joints between named objects, given in world coordinates at
// the initial configuration (anchor point, axis direction) and converted to the model's
// body-fixed joint frames. The joint frame J sits at the anchor with the world's orientation at
// the initial configuration, so every joint starts at position 0.
#include <algorithm>
#include <numbers>
#include <set>

#include "engine/io/scene_reader.h"

namespace sim::io {

namespace {

constexpr double kDegToRad = std::numbers::pi / 180.0;
// joint limits, drive targets and rates beyond these are typos, not mechanisms
constexpr double kMaxCoordinate = 1e4;
constexpr double kMaxGain = 1e12;
// at most this many names are listed in "unknown name" messages
constexpr int kMaxListedNames = 12;

bool HasAxis(JointType type) {
  return type == JointType::kRevolute || type == JointType::kContinuous ||
         type == JointType::kPrismatic;
}

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
bool ReadLimits(SceneReader& reader, const JsonValue& joint, JointType type, bool* limited,
                double* lower, double* upper, const std::string& what) {
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
  if (!reader.ReadArray<2>(joint, key, &range, what, -kMaxCoordinate, kMaxCoordinate)) {
    return false;
  }
  if (range[0] > range[1]) {
    reader.Error(at, what + " '" + key + "' lower " + FormatNumber(range[0]) + " is above upper " +
                         FormatNumber(range[1]) + "; expected lower <= upper");
    return false;
  }
  if (limits_deg != nullptr) range *= kDegToRad;
  // the joint is at 0 in the initial configuration, so the limits should contain 0
  if (range[0] > 0 || range[1] < 0) {
    reader.Warning(at, what +
                           " starts outside its limits (joint positions are measured from "
                           "the initial configuration, where they are 0)");
  }
  *limited = true;
  *lower = range[0];
  *upper = range[1];
  return true;
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
  const std::string drive_what = what + " drive";
  if (!reader.ExpectType(*value, JsonValue::Type::kObject, drive_what)) return false;
  reader.CheckKeys(
      *value, {"stiffness", "damping", "target_position", "target_position_deg", "target_velocity"},
      drive_what);
  bool ok = reader.ReadNumber(*value, "stiffness", &drive->stiffness, 0, kMaxGain, drive_what);
  ok &= reader.ReadNumber(*value, "damping", &drive->damping, 0, kMaxGain, drive_what);
  ok &= reader.ReadNumber(*value, "target_velocity", &drive->target_velocity, -kMaxCoordinate,
                          kMaxCoordinate, drive_what);
  const JsonValue* degrees = value->Find("target_position_deg");
  if (degrees != nullptr && value->Find("target_position") != nullptr) {
    reader.Error(*degrees,
                 drive_what + " gives both 'target_position' and 'target_position_deg'; give one");
    return false;
  }
  if (degrees != nullptr && !IsAngular(type)) {
    reader.Error(*degrees, drive_what +
                               " of a prismatic joint is in metres: use "
                               "'target_position', not 'target_position_deg'");
    return false;
  }
  ok &= reader.ReadNumber(*value, "target_position", &drive->target_position, -kMaxCoordinate,
                          kMaxCoordinate, drive_what);
  double target_deg = 0;
  ok &= reader.ReadNumber(*value, "target_position_deg", &target_deg, -kMaxCoordinate,
                          kMaxCoordinate, drive_what);
  if (degrees != nullptr) drive->target_position = target_deg * kDegToRad;
  return ok;
}

void ReadJoint(SceneReader& reader, const JsonValue& joint, int index, const ObjectNames& objects,
               const State& state, std::set<std::string>* names, Model* model) {
  std::string what = "joint " + std::to_string(index);
  if (!reader.ExpectType(joint, JsonValue::Type::kObject, what)) return;
  reader.CheckKeys(joint,
                   {"name", "type", "parent", "child", "anchor", "axis", "limits", "limits_deg",
                    "compliance", "angular_compliance", "drive"},
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
    reader.Error(joint, what + " needs a 'type' (fixed, revolute, continuous, prismatic or ball)");
    ok = false;
  } else if (reader.ExpectType(*type_value, JsonValue::Type::kString, what + " 'type'")) {
    for (JointType t : {JointType::kFixed, JointType::kRevolute, JointType::kContinuous,
                        JointType::kPrismatic, JointType::kBall}) {
      if (type_value->string() == JointTypeName(t)) type = t;
    }
    if (type == JointType::kNone) {
      reader.Error(*type_value, what + " has unknown type '" + type_value->string() +
                                    "' (expected fixed, revolute, continuous, prismatic or ball)");
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
    if (type != JointType::kNone && !HasAxis(type)) {
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
  } else if (HasAxis(type)) {
    reader.Error(joint, what + " of type '" + JointTypeName(type) +
                            "' needs an 'axis' [x, y, z] (world direction)");
    ok = false;
  }

  bool limited = false;
  double lower = 0;
  double upper = 0;
  JointDrive drive;
  double compliance = 0;
  if (type != JointType::kNone) {
    ok &= ReadLimits(reader, joint, type, &limited, &lower, &upper, what);
    ok &= ReadDrive(reader, joint, type, &drive, what);
  }
  // compliance is m/N; 1 m/N is already softer than any joint meant to hold
  ok &= reader.ReadNumber(joint, "compliance", &compliance, 0, 1, what);
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
  model->joint_X_CJ.push_back(X_WC.Inverse() * X_WJ);
  model->joint_axis.push_back(axis);
  model->joint_limited.push_back(limited ? 1 : 0);
  model->joint_lower.push_back(lower);
  model->joint_upper.push_back(upper);
  model->joint_compliance.push_back(compliance);
  model->joint_drive.push_back(drive);
  // joints added before (robots) have no entry: -1 keeps their 'compliance' for rotations
  model->joint_angular_compliance.resize(model->joint_count() - 1, -1);
  model->joint_angular_compliance.push_back(angular_compliance);
}

}  // namespace


void ReadJoints(SceneReader& reader, const JsonValue& root, const ObjectNames& objects,
                const State& state, Model* model) {
  const JsonValue* joints = root.Find("joints");
  if (joints == nullptr) return;
  if (!reader.ExpectType(*joints, JsonValue::Type::kArray, "'joints'")) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < joints->items().size(); ++i) {
    ReadJoint(reader, joints->items()[i], static_cast<int>(i), objects, state, &names, model);
  }
}

}  // namespace sim::io
