// Scene file reader: JSON tree (with locations) -> Model + initial State. Every problem becomes a
// diagnostic at the line of the offending value; reading goes on to report all of them, and only an
// error-free file yields a scene. Unknown keys are warnings that list the keys that were expected,
// so typos are caught without rejecting files written for newer versions.
#include "engine/io/scene_file.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "engine/geometry/collision_mesh.h"
#include "engine/io/json_document.h"
#include "engine/io/scene_reader.h"
#include "engine/io/text_file.h"
#include "engine/solvers/solver_registry.h"

namespace sim::io {

namespace {

// shares of a scene's progress: the JSON tree before the objects, the joints and the rest after
constexpr double kObjectsBegin = 0.02;
constexpr double kObjectsEnd = 0.98;

}  // namespace


// orientation from "quaternion_wxyz" or "rpy_deg" (URDF convention: R = Rz(yaw) Ry(pitch) Rx(roll))
bool ReadOrientation(SceneReader& reader, const JsonValue& object, Quat* q,
                     const std::string& what) {
  const JsonValue* quaternion = object.Find("quaternion_wxyz");
  const JsonValue* rpy = object.Find("rpy_deg");
  if (quaternion != nullptr && rpy != nullptr) {
    reader.Error(*rpy, what + " gives both 'quaternion_wxyz' and 'rpy_deg'; give one");
    return false;
  }
  if (quaternion != nullptr) {
    Eigen::Vector4d wxyz(1, 0, 0, 0);
    if (!reader.ReadArray<4>(object, "quaternion_wxyz", &wxyz, what, -1e3, 1e3)) return false;
    if (wxyz.norm() < 1e-9) {
      reader.Error(*quaternion, what + " 'quaternion_wxyz' has zero length");
      return false;
    }
    *q = Quat(wxyz[0], wxyz[1], wxyz[2], wxyz[3]).normalized();
  }
  if (rpy != nullptr) {
    Vec3 angles;
    if (!reader.ReadArray<3>(object, "rpy_deg", &angles, what, -1e4, 1e4)) return false;
    angles *= kDegToRad;
    *q = Quat(Eigen::AngleAxisd(angles.z(), Vec3::UnitZ()) *
              Eigen::AngleAxisd(angles.y(), Vec3::UnitY()) *
              Eigen::AngleAxisd(angles.x(), Vec3::UnitX()));
  }
  return true;
}


namespace {

// colour [r, g, b] in [0, 1]
bool ReadColor(SceneReader& reader, const JsonValue& object, std::array<float, 3>* color,
               const std::string& what) {
  Vec3 rgb(color->at(0), color->at(1), color->at(2));
  if (!reader.ReadArray<3>(object, "color", &rgb, what, 0.0, 1.0)) return false;
  *color = {static_cast<float>(rgb.x()), static_cast<float>(rgb.y()), static_cast<float>(rgb.z())};
  return true;
}


// one setting as its descriptor says: a number or integer in its range, a bool, a choice name
void ReadSetting(SceneReader& reader, const JsonValue& value, const SettingDescriptor& descriptor,
                 const std::string& what, double* out) {
  double parsed = 0;
  bool typed = false;
  if (descriptor.kind == SettingKind::kBool) {
    typed = value.is_bool();
    parsed = value.bool_value() ? 1 : 0;
  } else if (descriptor.kind == SettingKind::kChoice) {
    typed = value.is_string() && ParseSetting(descriptor, value.string(), &parsed);
  } else {
    typed = value.is_number();
    parsed = value.number();
  }
  if (!typed || !IsValidSetting(descriptor, parsed)) {
    const std::string shown = value.is_string() ? "'" + value.string() + "'"
                              : value.is_number()
                                  ? FormatNumber(value.number())
                                  : std::string("a ") + JsonValue::TypeName(value.type());
    reader.Error(value, what + " '" + std::string(descriptor.name) + "' is " + shown +
                            ", expected " + ExpectedText(descriptor));
    return;
  }
  *out = parsed;
}


// setting `key` of `values` (which has it) from `member`
void ReadTableSetting(SceneReader& reader, const JsonValue& member, const std::string& key,
                      SettingValues* values, const std::string& what) {
  const int i = values->Find(key);
  double value = (*values)[i];
  ReadSetting(reader, member, values->table()[i], what, &value);
  values->Set(i, value);
}


// solver: {"name", the step's settings (dt, contact_margin), the named solver's settings, and
// "<solver>": {...} with the settings of any registered solver}; every setting as its
// descriptor table says (engine/solvers/solver_options.h)
void ReadSolver(SceneReader& reader, const JsonValue& solver, SolverOptions* options) {
  const std::string what = "solver";
  if (const JsonValue* name = solver.Find("name")) {
    if (reader.ExpectType(*name, JsonValue::Type::kString, "solver 'name'")) {
      if (FindSolver(name->string()) != nullptr) {
        options->name = name->string();
      } else {
        reader.Error(*name, std::string(IsPlannedSolver(name->string())
                                            ? "solver '" + name->string() +
                                                  "' is not available in this version"
                                            : "unknown solver '" + name->string() + "'") +
                                " (expected one of: " + Join(AvailableSolvers()) + ")");
      }
    }
  }
  for (const auto& [key, member] : solver.members()) {
    if (key == "name") continue;
    // the step's own settings
    if (const int i = FindStepSetting(key); i >= 0) {
      double value = StepSettingValue(*options, i);
      ReadSetting(reader, member, StepSettingsTable()[i], what, &value);
      SetStepSettingValue(i, value, options);
      continue;
    }
    // a block of one solver's settings
    if (SettingValues* block = options->Find(key)) {
      if (!reader.ExpectType(member, JsonValue::Type::kObject, "solver '" + key + "'")) continue;
      for (const auto& [setting, value] : member.members()) {
        if (block->Find(setting) >= 0) {
          ReadTableSetting(reader, value, setting, block, "solver '" + key + "'");
        } else {
          reader.Warning(value, "solver '" + key + "' has no setting '" + setting +
                                    "' (its settings: " + Join(SettingNames(*block)) + ")");
        }
      }
      continue;
    }
    // a setting of the named solver
    SettingValues& current = options->current();
    if (current.Find(key) >= 0) {
      ReadTableSetting(reader, member, key, &current, what);
      continue;
    }
    std::string owner;
    for (const auto& [solver_name, values] : options->solvers) {
      if (owner.empty() && values.Find(key) >= 0) owner = solver_name;
    }
    reader.Warning(member, owner.empty()
                               ? "unknown key '" + key + "' in 'solver' (expected: name, " +
                                     Join(SettingPaths(*options)) + ")"
                               : "'" + key + "' is a setting of solver '" + owner + "', not of '" +
                                     options->name + "', and is ignored (put it in \"" + owner +
                                     "\": {...} to keep it for that solver)");
  }
}


void ReadOptions(SceneReader& reader, const JsonValue& root, Model* model) {
  // up axis first: it sets the default gravity direction
  if (const JsonValue* up = root.Find("up")) {
    if (reader.ExpectType(*up, JsonValue::Type::kString, "'up'")) {
      if (up->string() == "z") {
        model->options.up = Vec3::UnitZ();
      } else if (up->string() == "y") {
        model->options.up = Vec3::UnitY();
        model->options.gravity = Vec3(0, -9.81, 0);
      } else {
        reader.Error(*up, "'up' is '" + up->string() + "', expected \"z\" or \"y\"");
      }
    }
  }
  reader.ReadArray<3>(root, "gravity", &model->options.gravity, "scene", -1e4, 1e4);

  if (const JsonValue* solver = root.Find("solver")) {
    if (reader.ExpectType(*solver, JsonValue::Type::kObject, "'solver'")) {
      ReadSolver(reader, *solver, &model->options.solver);
    }
  }

  if (const JsonValue* camera = root.Find("camera")) {
    if (reader.ExpectType(*camera, JsonValue::Type::kObject, "'camera'")) {
      ReadCameraSetup(reader, *camera, &model->camera, "camera");
    }
  }
  ReadCameras(reader, root, root.Find("camera") != nullptr, model);
}


}  // namespace


bool ReadFrictionAxes(SceneReader& reader, const JsonValue& object, double friction, double* major,
                      double* minor, const std::string& what) {
  bool ok = reader.ReadNumber(object, "friction_major", major, 0, 10, what);
  ok &= reader.ReadNumber(object, "friction_minor", minor, 0, 10, what);
  if (!ok) return false;
  const double mu_major = *major < 0 ? friction : *major;
  const double mu_minor = *minor < 0 ? friction : *minor;
  const JsonValue* at = object.Find("friction_minor") != nullptr ? object.Find("friction_minor")
                                                                 : object.Find("friction_major");
  if (at == nullptr) return true;
  if (mu_minor > mu_major) {
    reader.Error(*at, what + " has friction_minor " + FormatNumber(mu_minor) +
                          " > friction_major " + FormatNumber(mu_major) +
                          " (the major axis is the grain's high-friction direction; an omitted "
                          "one is 'friction')");
    return false;
  }
  if (mu_minor == 0 && mu_major > 0) {
    reader.Error(*at, what + " has friction_minor 0 with friction_major " + FormatNumber(mu_major) +
                          "; a cone with one zero axis has no friction at all in the solvers, "
                          "give a small positive friction_minor (e.g. 0.001)");
    return false;
  }
  return true;
}


namespace {

// materials: { "name": { friction, friction_major, friction_minor, restitution, density, color } };
// returns name -> index
std::map<std::string, int> ReadMaterials(SceneReader& reader, const JsonValue& root, Model* model) {
  std::map<std::string, int> index;
  // built-in default material, used by objects that name none
  model->materials.push_back(Material{.name = "default"});
  index["default"] = 0;
  const JsonValue* materials = root.Find("materials");
  if (materials == nullptr) return index;
  if (!reader.ExpectType(*materials, JsonValue::Type::kObject, "'materials'")) return index;
  for (const auto& [name, value] : materials->members()) {
    const std::string what = "material '" + name + "'";
    if (!reader.ExpectType(value, JsonValue::Type::kObject, what)) continue;
    reader.CheckKeys(
        value, {"friction", "friction_major", "friction_minor", "restitution", "density", "color"},
        what);
    Material material{.name = name};
    // μ above 10 is not a physical friction coefficient but a typo
    reader.ReadNumber(value, "friction", &material.friction, 0, 10, what);
    ReadFrictionAxes(reader, value, material.friction, &material.friction_major,
                     &material.friction_minor, what);
    reader.ReadNumber(value, "restitution", &material.restitution, 0, 1, what);
    reader.ReadNumber(value, "density", &material.density, 1e-3, 1e6, what);
    ReadColor(reader, value, &material.color, what);
    if (index.contains(name)) {
      model->materials[index[name]] = material;
    } else {
      index[name] = static_cast<int>(model->materials.size());
      model->materials.push_back(material);
    }
  }
  return index;
}


// geometry of one object by type (a particle's is the sphere of its contact radius); returns false
// (with diagnostics) when a parameter is missing or bad
bool ReadGeometry(SceneReader& reader, const JsonValue& object, const JsonValue& type_value,
                  ShapeGeometry* geometry, const std::string& what,
                  std::shared_ptr<const VisualMesh>* visual) {
  const std::string& type = type_value.string();
  // sizes below 0.1 mm or above 10 km are outside what the solver is tuned for
  constexpr double kMinSize = 1e-4;
  constexpr double kMaxSize = 1e4;
  auto require = [&](const char* key) {
    if (object.Find(key) != nullptr) return true;
    reader.Error(object, what + " of type '" + type + "' needs '" + key + "'");
    return false;
  };
  if (type == "plane") {
    geometry->type = ShapeType::kPlane;
    return true;
  }
  if (type == "box") {
    geometry->type = ShapeType::kBox;
    Vec3 size = Vec3::Zero();
    if (!require("size") || !reader.ReadArray<3>(object, "size", &size, what, kMinSize, kMaxSize))
      return false;
    geometry->half_extents = 0.5 * size;
    return true;
  }
  if (type == "sphere" || type == "particle") {
    geometry->type = ShapeType::kSphere;
    return require("radius") &&
           reader.ReadNumber(object, "radius", &geometry->radius, kMinSize, kMaxSize, what);
  }
  if (type == "capsule" || type == "cylinder") {
    geometry->type = type == "capsule" ? ShapeType::kCapsule : ShapeType::kCylinder;
    double length = 0;
    if (!require("radius") || !require("length")) return false;
    const bool ok =
        reader.ReadNumber(object, "radius", &geometry->radius, kMinSize, kMaxSize, what) &&
        reader.ReadNumber(object, "length", &length, kMinSize, kMaxSize, what);
    geometry->half_length = 0.5 * length;
    return ok;
  }
  if (type == "mesh" || type == "sdf")
    return ReadFileGeometry(reader, object, type, geometry, what, visual);
  reader.Error(type_value, what + " has unknown type '" + type +
                               "' (expected plane, box, sphere, capsule, cylinder, particle, "
                               "mesh, sdf, tetmesh, urdf or compound)");
  return false;
}


// material by name; `*material` stays 0 (default) when absent
bool ReadMaterialRef(SceneReader& reader, const JsonValue& object,
                     const std::map<std::string, int>& materials, int* material,
                     const std::string& what) {
  const JsonValue* m = object.Find("material");
  if (m == nullptr) return true;
  if (!reader.ExpectType(*m, JsonValue::Type::kString, what + " 'material'")) return false;
  auto it = materials.find(m->string());
  if (it == materials.end()) {
    std::string known;
    for (const auto& [n, i] : materials) known += (known.empty() ? "" : ", ") + n;
    reader.Error(*m,
                 what + " uses unknown material '" + m->string() + "' (defined: " + known + ")");
    return false;
  }
  *material = it->second;
  return true;
}


// name: required and unique, it is how reports, probes, joints and the UI refer to the object;
// registers it in `names` (as invalid until the object is read) and returns it, or ""
std::string ReadObjectName(SceneReader& reader, const JsonValue& object, ObjectNames* names,
                           std::string* what) {
  const JsonValue* name_value = object.Find("name");
  std::string name;
  if (name_value == nullptr) {
    reader.Error(object, *what + " needs a 'name'");
    return "";
  }
  if (!reader.ReadString(object, "name", &name, *what)) return "";
  if (name.empty()) {
    reader.Error(*name_value, *what + " has an empty name");
    return "";
  }
  *what = "object '" + name + "'";
  if (name == "world") {
    reader.Error(*name_value,
                 "object name 'world' is reserved (joints use it for the world frame)");
    return "";
  }
  if (!names->emplace(name, ObjectRef{}).second) {
    reader.Error(*name_value, "duplicate object name '" + name + "'");
    return "";
  }
  return name;
}


void ReadObject(SceneReader& reader, const JsonValue& object, int index,
                const std::map<std::string, int>& materials, ObjectNames* names, Model* model,
                State* state) {
  std::string what = "object " + std::to_string(index);
  if (!reader.ExpectType(object, JsonValue::Type::kObject, what)) return;
  const std::string name = ReadObjectName(reader, object, names, &what);

  const JsonValue* type_value = object.Find("type");
  if (type_value == nullptr) {
    reader.Error(object,
                 what + " needs a 'type' (plane, box, sphere, capsule, cylinder or particle)");
    return;
  }
  if (!reader.ExpectType(*type_value, JsonValue::Type::kString, what + " 'type'")) return;
  if (type_value->string() == "urdf") {
    ReadUrdfObject(reader, object, name, materials, names, model, state);
    return;
  }
  if (type_value->string() == "tetmesh") {
    ReadTetMeshObject(reader, object, name, materials, names, model, state);
    return;
  }
  if (type_value->string() == "compound") {
    ReadCompoundObject(reader, object, name, materials, names, model, state);
    return;
  }
  const bool is_plane = type_value->string() == "plane";
  const bool is_particle = type_value->string() == "particle";
  if (is_plane) {
    reader.CheckKeys(object,
                     {"name", "type", "material", "color", "normal", "offset", "collision_group",
                      "collides_with", "structure_field"},
                     what);
  } else if (is_particle) {
    reader.CheckKeys(object,
                     {"name", "type", "material", "color", "radius", "mass", "density", "position",
                      "velocity", "fixed"},
                     what);
  } else if (type_value->string() == "mesh" || type_value->string() == "sdf") {
    reader.CheckKeys(object,
                     {"name",
                      "type",
                      "material",
                      "color",
                      "file",
                      "scale",
                      "collision",
                      "sdf_resolution",
                      "hull_vertices",
                      "shape",
                      "position",
                      "quaternion_wxyz",
                      "rpy_deg",
                      "fixed",
                      "mass",
                      "density",
                      "velocity",
                      "angular_velocity",
                      "collision_group",
                      "collides_with",
                      "structure_field"},
                     what);
  } else {
    reader.CheckKeys(object,
                     {"name", "type", "material", "color", "size", "radius", "length", "position",
                      "quaternion_wxyz", "rpy_deg", "fixed", "mass", "density", "velocity",
                      "angular_velocity", "collision_group", "collides_with", "structure_field"},
                     what);
  }

  ShapeGeometry geometry;
  std::shared_ptr<const VisualMesh> visual;
  bool ok = ReadGeometry(reader, object, *type_value, &geometry, what, &visual);
  CollisionFilter filter;
  if (!is_particle) ok &= ReadCollisionFilter(reader, object, what, &filter);
  // the surface's structure field (particles have no surface to carry one)
  int structure_field = -1;
  if (is_particle && object.Find("structure_field") != nullptr) {
    reader.Error(*object.Find("structure_field"),
                 what +
                     " is a particle, which has no surface for a structure field (use a "
                     "sphere)");
    ok = false;
  } else if (ok) {
    structure_field = ReadStructureField(
        reader, object, "structure_field", DefaultFieldProjection(geometry),
        geometry.type == ShapeType::kMesh && geometry.mesh && geometry.mesh->surface.has_uvs(),
        what, model);
    ok &= structure_field != kBadStructureField;
  }

  // material and colour (the object's own colour overrides the material's)
  int material = 0;
  ok &= ReadMaterialRef(reader, object, materials, &material, what);
  std::array<float, 3> color = model->materials[material].color;
  ok &= ReadColor(reader, object, &color, what);
  if (is_particle && object.Find("color") != nullptr) {
    reader.Warning(*object.Find("color"), what +
                                              " is a particle, which has no colour of its own; "
                                              "its material's colour is shown");
  }

  // pose: planes by normal and offset, particles by position, everything else by position and
  // orientation
  Pose X_W;
  if (is_plane) {
    Vec3 normal = model->options.up;
    double offset = 0;
    ok &= reader.ReadArray<3>(object, "normal", &normal, what);
    ok &= reader.ReadNumber(object, "offset", &offset, -1e6, 1e6, what);
    if (normal.norm() < 1e-9) {
      reader.Error(*object.Find("normal"), what + " 'normal' has zero length");
      ok = false;
    } else {
      normal.normalize();
      X_W.q = Quat::FromTwoVectors(Vec3::UnitZ(), normal);
      X_W.p = offset * normal;
    }
  } else {
    ok &= reader.ReadArray<3>(object, "position", &X_W.p, what, -1e6, 1e6);
    if (!is_particle) ok &= ReadOrientation(reader, object, &X_W.q, what);
  }

  bool fixed = is_plane;
  if (is_particle && object.Find("fixed") != nullptr) {
    reader.Error(*object.Find("fixed"),
                 what +
                     " is a particle, which cannot be fixed (use a fixed sphere for a static "
                     "obstacle)");
    ok = false;
  } else if (!is_plane) {
    ok &= reader.ReadBool(object, "fixed", &fixed, what);
  }

  // mass from 'mass', else from 'density' (object, then material) times volume
  double mass = 0;
  Vec3 velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();
  if (!fixed) {
    const JsonValue* mass_value = object.Find("mass");
    const JsonValue* density_value = object.Find("density");
    if (mass_value != nullptr && density_value != nullptr) {
      reader.Error(*density_value, what + " gives both 'mass' and 'density'; give one");
      ok = false;
    }
    double density = model->materials[material].density;
    ok &= reader.ReadNumber(object, "density", &density, 1e-3, 1e6, what);
    mass = density * ShapeVolume(geometry);
    ok &= reader.ReadNumber(object, "mass", &mass, 1e-6, 1e9, what);
    ok &= reader.ReadArray<3>(object, "velocity", &velocity, what, -1e4, 1e4);
    if (!is_particle) {
      ok &= reader.ReadArray<3>(object, "angular_velocity", &angular_velocity, what, -1e4, 1e4);
    }
  } else {
    for (const char* key : {"mass", "density", "velocity", "angular_velocity"}) {
      if (const JsonValue* v = object.Find(key)) {
        reader.Warning(*v, what + " is fixed; its '" + key + "' is ignored");
      }
    }
  }
  // an analytic field has no closed-form mass properties: it is a fixed obstacle
  if (ok && geometry.type == ShapeType::kSdf && !fixed) {
    reader.Error(*type_value, what +
                                  " of type 'sdf' must be \"fixed\": true (an analytic field "
                                  "has no mass properties)");
    ok = false;
  }
  if (ok && !fixed && !(mass > 0)) {
    reader.Error(*type_value, what +
                                  " has no volume to take a mass from (an open mesh?); give "
                                  "'mass' or make it fixed");
    ok = false;
  }
  if (!ok) return;

  // particles are point masses with a contact radius and no shape
  ObjectRef* ref = name.empty() ? nullptr : &names->at(name);
  if (is_particle) {
    if (ref != nullptr) *ref = {ObjectRef::Kind::kParticle, model->particle_count()};
    model->particle_name.push_back(name);
    model->particle_mass.push_back(mass);
    model->particle_radius.push_back(geometry.radius);
    model->particle_material.push_back(material);
    state->particle_x_W.push_back(X_W.p);
    state->particle_v_W.push_back(velocity);
    return;
  }

  // fixed objects are world shapes; dynamic ones get a body with the shape at its COM
  const int shape = model->shape_count();
  if (visual) {
    model->shape_visual_mesh.resize(shape);
    model->shape_visual_mesh.push_back(visual);
  }
  model->shape_name.push_back(name);
  model->shape_geometry.push_back(geometry);
  model->shape_material.push_back(material);
  model->shape_color.push_back(color);
  ApplyCollisionFilter(filter, shape, model);
  ApplyStructureField(structure_field, shape, model);
  if (fixed) {
    if (ref != nullptr) *ref = {ObjectRef::Kind::kFixed, -1};
    model->shape_body.push_back(kWorldBody);
    model->shape_X_BS.push_back(X_W);
    return;
  }
  const int body = model->body_count();
  if (ref != nullptr) *ref = {ObjectRef::Kind::kBody, body};
  model->shape_body.push_back(body);
  // the body frame sits at the centre of mass (a mesh's centroid need not be its origin)
  const Vec3 centroid = ShapeCentroid(geometry);
  model->shape_X_BS.push_back(Pose{-centroid, Quat::Identity()});
  X_W = X_W * Pose{centroid, Quat::Identity()};
  model->body_name.push_back(name);
  model->body_mass.push_back(mass);
  model->body_inertia.push_back(ShapeUnitInertia(model->shape_geometry[shape], mass));
  model->body_static.push_back(0);
  if (!model->body_filter_group.empty()) model->body_filter_group.push_back(-1);
  state->body_X_WB.push_back(X_W);
  state->body_v_W.push_back(velocity);
  state->body_w_W.push_back(angular_velocity);
}

// what the progress says while object `index` of `count` is read: its name when it has one
std::string ObjectStage(const JsonValue& object, int index, int count) {
  const JsonValue* name = object.is_object() ? object.Find("name") : nullptr;
  const std::string which =
      name != nullptr && name->is_string() ? "'" + name->string() + "'" : std::to_string(index + 1);
  return "reading object " + which + " (" + std::to_string(index + 1) + " of " +
         std::to_string(count) + ")";
}

}  // namespace


bool ReadShapeGeometry(SceneReader& reader, const JsonValue& object, const JsonValue& type_value,
                       ShapeGeometry* geometry, const std::string& what,
                       std::shared_ptr<const VisualMesh>* visual) {
  return ReadGeometry(reader, object, type_value, geometry, what, visual);
}


bool ReadObjectMaterial(SceneReader& reader, const JsonValue& object,
                        const std::map<std::string, int>& materials, int* material,
                        const std::string& what) {
  return ReadMaterialRef(reader, object, materials, material, what);
}


bool ReadObjectColor(SceneReader& reader, const JsonValue& object, std::array<float, 3>* color,
                     const std::string& what) {
  return ReadColor(reader, object, color, what);
}


Expected<Scene> ParseScene(const std::string& text, const std::string& source_name,
                           const SceneOptions& options) {
  const LoadProgress& progress = options.progress;
  progress.Stage("reading scene " + std::filesystem::path(source_name).filename().string());
  Expected<JsonValue> json = ParseJson(text, source_name);
  if (!json.ok()) return json.diagnostics();
  Diagnostics diagnostics = json.diagnostics();
  SceneReader reader(source_name, &diagnostics, options);
  const JsonValue& root = json.value();
  if (!reader.ExpectType(root, JsonValue::Type::kObject, "the scene")) return diagnostics;

  reader.CheckKeys(root,
                   {"name", "description", "up", "gravity", "solver", "camera", "cameras",
                    "materials", "friction_pairs", "objects", "joints", "probes", "format_version",
                    "script", "teleop", "keyframes"},
                   "the scene");
  auto model = std::make_shared<Model>();
  Scene scene;
  scene.path = source_name;
  reader.ReadString(root, "name", &model->name, "scene");
  reader.ReadString(root, "description", &model->description, "scene");
  ReadOptions(reader, root, model.get());
  const std::map<std::string, int> materials = ReadMaterials(reader, root, model.get());
  ReadFrictionPairs(reader, root, materials, model.get());

  // objects: the scene's bodies, static shapes and particles; then the joints between them
  ObjectNames names;
  const JsonValue* objects = root.Find("objects");
  if (objects == nullptr) {
    reader.Error(root, "the scene needs an 'objects' array");
  } else if (reader.ExpectType(*objects, JsonValue::Type::kArray, "'objects'")) {
    // an equal share of the progress each; a cancel is seen between objects and inside them
    const LoadProgress objects_progress = progress.Part(kObjectsBegin, kObjectsEnd);
    const int count = static_cast<int>(objects->items().size());
    for (int i = 0; i < count && !progress.cancelled(); ++i) {
      const JsonValue& object = objects->items()[i];
      const LoadProgress object_progress = objects_progress.Share(i, count);
      object_progress.Stage(ObjectStage(object, i, count));
      reader.set_progress(object_progress);
      ReadObject(reader, object, i, materials, &names, model.get(), &scene.initial_state);
      object_progress.Report(1);
    }
    reader.set_progress(LoadProgress());
  }
  if (progress.cancelled()) return CancelledLoad(source_name);
  ReadJoints(reader, root, names, scene.initial_state, model.get());
  if (objects != nullptr && objects->is_array()) {
    ReadSoftBodyAttachments(reader, *objects, names, scene.initial_state, model.get());
  }
  ReadProbes(reader, root, names, model.get());
  ReadCameraFollow(reader, root, names, model.get());
  // per-shape and per-joint arrays filled by some objects only: one entry each once any has one
  if (!model->shape_visual_mesh.empty()) model->shape_visual_mesh.resize(model->shape_count());
  if (!model->shape_structure_field.empty()) {
    model->shape_structure_field.resize(model->shape_count(), -1);
  }
  if (!model->joint_friction.empty()) model->joint_friction.resize(model->joint_count(), 0);
  if (!model->joint_velocity_limit.empty()) {
    model->joint_velocity_limit.resize(model->joint_count(), 0);
  }
  ReadScript(reader, root, model.get());
  ReadTeleop(reader, root, model.get());
  ReadKeyFrames(reader, root, *model, scene.initial_state, &scene.key_frames);
  if (progress.cancelled()) return CancelledLoad(source_name);
  if (diagnostics.has_errors()) return diagnostics;
  scene.model = std::move(model);
  progress.Report(1);
  return Expected<Scene>(std::move(scene), std::move(diagnostics));
}


Expected<Scene> LoadScene(const std::string& path, const SceneOptions& options) {
  options.progress.Stage("reading scene " + std::filesystem::path(path).filename().string());
  Expected<std::string> text = ReadTextFile(path, "scene");
  if (!text.ok()) return text.diagnostics();
  return ParseScene(text.value(), path, options);
}

}  // namespace sim::io
