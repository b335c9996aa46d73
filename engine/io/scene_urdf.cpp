// Scene objects of type "urdf": a robot loaded from a URDF file, placed by position and
// orientation, optionally fixed to the world, started at given joint positions and held there by
// position drives. URDF diagnostics keep their own file:line and get a note at the scene line.
#include <algorithm>
#include <filesystem>
#include <limits>

#include "engine/io/scene_reader.h"
#include "engine/io/urdf_loader.h"

namespace sim::io {

void ReadUrdfObject(SceneReader& reader, const JsonValue& object, const std::string& name,
                    const std::map<std::string, int>& materials, ObjectNames* names, Model* model,
                    State* state) {
  const std::string what = "object '" + name + "'";
  reader.CheckKeys(object,
                   {"name",
                    "type",
                    "file",
                    "position",
                    "rpy_deg",
                    "quaternion_wxyz",
                    "fixed_base",
                    "package_paths",
                    "initial_positions",
                    "hold_pose",
                    "drives",
                    "weld_fixed_joints",
                    "self_collision",
                    "collision_meshes",
                    "sdf_resolution",
                    "hull_vertices",
                    "material",
                    "joint_friction_scale",
                    "effort_limits",
                    "collision_group",
                    "collides_with",
                    "structure_field",
                    "link_structure_fields"},
                   what);
  const JsonValue* file = object.Find("file");
  if (file == nullptr) {
    reader.Error(object,
                 what + " of type 'urdf' needs 'file' (a .urdf path relative to the scene)");
    return;
  }
  // relative to the scene, inside the folders it may read
  const std::string path = ResolveFile(reader, object, what);
  const std::filesystem::path scene_dir = std::filesystem::path(reader.source()).parent_path();

  RobotPlacement placement;
  placement.name_prefix = name + "/";
  bool ok = !path.empty();
  ok &= reader.ReadArray<3>(object, "position", &placement.X_W_base.p, what, -1e6, 1e6);
  ok &= ReadOrientation(reader, object, &placement.X_W_base.q, what);
  ok &= reader.ReadBool(object, "fixed_base", &placement.fixed_base, what);
  ok &= reader.ReadBool(object, "weld_fixed_joints", &placement.weld_fixed_joints, what);
  ok &= reader.ReadBool(object, "self_collision", &placement.self_collision, what);
  ok &= reader.ReadEnum<MeshCollision>(
      object, "collision_meshes", {{"hull", MeshCollision::kHull}, {"sdf", MeshCollision::kSdf}},
      &placement.collision_meshes, what);
  ok &= reader.ReadInt(object, "sdf_resolution", &placement.sdf_resolution, 8, kMaxSdfResolution,
                       what);
  ok &= reader.ReadInt(object, "hull_vertices", &placement.hull_vertices, 4, 100000, what);
  ok &= reader.ReadNumber(object, "joint_friction_scale", &placement.joint_friction_scale, 0, 1e3,
                          what);
  ok &= reader.ReadBool(object, "effort_limits", &placement.effort_limits, what);
  if (const JsonValue* material = object.Find("material")) {
    if (reader.ExpectType(*material, JsonValue::Type::kString, what + " 'material'")) {
      const auto it = materials.find(material->string());
      if (it == materials.end()) {
        std::vector<std::string> known;
        for (const auto& [n, i] : materials) known.push_back(n);
        reader.Error(*material, what + " uses unknown material '" + material->string() +
                                    "' (defined: " + Join(known) + ")");
        ok = false;
      } else {
        placement.material = it->second;
      }
    } else {
      ok = false;
    }
  }

  // the robot's meshes and textures come from the scene's folders too
  UrdfOptions options{.resource_roots = reader.file_roots().Strings()};
  if (const JsonValue* paths = object.Find("package_paths")) {
    if (reader.ExpectType(*paths, JsonValue::Type::kArray, what + " 'package_paths'")) {
      for (const JsonValue& path : paths->items()) {
        if (!reader.ExpectType(path, JsonValue::Type::kString, what + " 'package_paths' entry")) {
          ok = false;
          continue;
        }
        const std::string root = reader.Confined((scene_dir / path.string()).string(), path,
                                                 what + " 'package_paths' entry");
        if (root.empty()) {
          ok = false;
          continue;
        }
        options.package_paths.push_back(root);
      }
    } else {
      ok = false;
    }
  }
  if (const JsonValue* positions = object.Find("initial_positions")) {
    if (reader.ExpectType(*positions, JsonValue::Type::kObject, what + " 'initial_positions'")) {
      for (const auto& [joint, value] : positions->members()) {
        double q = 0;
        ok &=
            reader.ReadNumber(*positions, joint.c_str(), &q, -1e4, 1e4, what + " initial position");
        placement.initial_positions[joint] = q;
      }
    } else {
      ok = false;
    }
  }
  if (const JsonValue* hold = object.Find("hold_pose")) {
    if (reader.ExpectType(*hold, JsonValue::Type::kObject, what + " 'hold_pose'")) {
      reader.CheckKeys(*hold, {"stiffness", "damping"}, what + " 'hold_pose'");
      ok &= reader.ReadNumber(*hold, "stiffness", &placement.hold_stiffness, 0, 1e9,
                              what + " 'hold_pose'");
      ok &= reader.ReadNumber(*hold, "damping", &placement.hold_damping, 0, 1e9,
                              what + " 'hold_pose'");
    } else {
      ok = false;
    }
  }
  if (const JsonValue* drives = object.Find("drives")) {
    if (reader.ExpectType(*drives, JsonValue::Type::kObject, what + " 'drives'")) {
      // targets in rad or m, or in degrees (checked against the joint's type once it is known)
      for (const auto& [joint, value] : drives->members()) {
        // no target given: the joint's initial position (NaN until the robot is placed)
        JointDrive drive;
        drive.target_position = std::numeric_limits<Real>::quiet_NaN();
        ok &= ReadDriveObject(reader, value, /*angular=*/true, &drive,
                              what + " drive of joint '" + joint + "'");
        placement.drives[joint] = drive;
      }
    } else {
      ok = false;
    }
  }
  CollisionFilter filter;
  ok &= ReadCollisionFilter(reader, object, what, &filter);
  // structure fields: one for every link's shapes, and per link by name (projected triplanar in
  // each shape's frame unless they say otherwise)
  const int robot_field =
      ReadTriplanarStructureField(reader, object, "structure_field", what, ok, model);
  ok &= robot_field != kBadStructureField;
  std::map<std::string, int> link_fields;
  const JsonValue* link_values = object.Find("link_structure_fields");
  if (ok && link_values != nullptr &&
      reader.ExpectType(*link_values, JsonValue::Type::kObject,
                        what + " 'link_structure_fields'")) {
    for (const auto& [link, value] : link_values->members()) {
      const int field = ReadTriplanarStructureField(reader, *link_values, link.c_str(),
                                                    what + " link '" + link + "'", true, model);
      ok &= field != kBadStructureField;
      link_fields[link] = field;
    }
  } else if (link_values != nullptr) {
    ok = false;
  }
  if (!ok) return;

  reader.progress().Stage("reading robot " + std::filesystem::path(path).filename().string());
  Expected<UrdfRobot> robot = LoadUrdf(path, options);
  AppendWithNote(reader, robot.diagnostics(), *file, "in the robot of " + what);
  if (!robot.ok()) return;
  // drives name actuated joints of this robot (checked here, at the scene line of each entry)
  if (const JsonValue* drives = object.Find("drives")) {
    bool drives_ok = true;
    for (const auto& [joint, value] : drives->members()) {
      const auto& joints = robot->joints;
      // init-captures: clang before 16 cannot capture a structured binding
      const bool actuated =
          std::any_of(joints.begin(), joints.end(), [&joint = joint](const UrdfJoint& j) {
            return j.name == joint &&
                   (j.type == UrdfJointType::kRevolute || j.type == UrdfJointType::kContinuous ||
                    j.type == UrdfJointType::kPrismatic);
          });
      if (!actuated) {
        reader.Error(value, what + " 'drives' names '" + joint +
                                "', which is not a revolute, continuous or prismatic joint of the "
                                "robot");
        drives_ok = false;
        continue;
      }
      const bool prismatic =
          std::any_of(joints.begin(), joints.end(), [&joint = joint](const UrdfJoint& j) {
            return j.name == joint && j.type == UrdfJointType::kPrismatic;
          });
      if (prismatic && value.Find("target_position_deg") != nullptr) {
        reader.Error(*value.Find("target_position_deg"),
                     what + " drive of prismatic joint '" + joint +
                         "' gives 'target_position_deg'; a prismatic target is in metres: use "
                         "'target_position'");
        drives_ok = false;
      }
    }
    if (!drives_ok) return;
  }

  Diagnostics conversion;
  const int first_body = model->body_count();
  const int first_shape = model->shape_count();
  const int root =
      AddRobotToModel(robot.value(), placement, model, state, &conversion, reader.progress());
  AppendWithNote(reader, conversion, *file, "in the robot of " + what);
  if (conversion.has_errors()) return;
  ApplyCollisionFilter(filter, first_shape, model);
  // each link's field by its body name "name/link", else the robot's
  bool fields_ok = true;
  for (const auto& [link, field] : link_fields) {
    if (model->FindBody(placement.name_prefix + link) < first_body) {
      reader.Error(*link_values->Find(link), what + " 'link_structure_fields' names '" + link +
                                                 "', which is not a link of the robot with a "
                                                 "body of its own");
      fields_ok = false;
    }
  }
  if (!fields_ok) return;
  if (robot_field >= 0 || !link_fields.empty()) {
    model->shape_structure_field.resize(model->shape_count(), -1);
    for (int s = first_shape; s < model->shape_count(); ++s) {
      const int body = model->shape_body[s];
      const std::string link =
          body >= first_body ? model->body_name[body].substr(placement.name_prefix.size()) : "";
      const auto it = link_fields.find(link);
      model->shape_structure_field[s] = it != link_fields.end() ? it->second : robot_field;
    }
  }

  // the object name stands for the root body; every body also as "name/link"
  if (!name.empty()) names->at(name) = ObjectRef{ObjectRef::Kind::kBody, root};
  for (int b = first_body; b < model->body_count(); ++b) {
    names->emplace(model->body_name[b], ObjectRef{ObjectRef::Kind::kBody, b});
  }
}

}  // namespace sim::io
