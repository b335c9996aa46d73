// Scene file reader: JSON tree (with locations) -> Model + initial State. Every problem becomes a
// diagnostic at the line of the offending value; reading goes on to report all of them, and only an
// error-free file yields a scene. Unknown keys are warnings that list the keys that were expected,
// so typos are caught without rejecting files written for newer versions.
#include "engine/io/scene_file.h"

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

#include "engine/io/json_document.h"

namespace sim::io {

namespace {

constexpr double kDegToRad = std::numbers::pi / 180.0;

std::string Join(std::initializer_list<const char*> words) {
  std::string out;
  for (const char* w : words) {
    if (!out.empty()) out += ", ";
    out += w;
  }
  return out;
}


std::string FormatNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}


// reads typed values out of the located tree, reporting problems at their line
class SceneReader {
 public:
  SceneReader(std::string source, Diagnostics* diagnostics)
      : source_(std::move(source)), diagnostics_(diagnostics) {}

  void Error(const JsonValue& at, const std::string& message) {
    diagnostics_->Error(source_, at.line(), at.pointer(), message);
  }
  void Warning(const JsonValue& at, const std::string& message) {
    diagnostics_->Warning(source_, at.line(), at.pointer(), message);
  }

  // warns about members of `object` not in `known`
  void CheckKeys(const JsonValue& object, std::initializer_list<const char*> known,
                 const std::string& what) {
    const std::set<std::string> allowed(known.begin(), known.end());
    for (const auto& [key, value] : object.members()) {
      if (!allowed.contains(key)) {
        Warning(value, "unknown key '" + key + "' in " + what +
                           " (expected one of: " + Join(known) + "); it is ignored");
      }
    }
  }

  bool ExpectType(const JsonValue& value, JsonValue::Type type, const std::string& what) {
    if (value.type() == type) return true;
    Error(value, what + " must be a " + JsonValue::TypeName(type) + ", not a " +
                     JsonValue::TypeName(value.type()));
    return false;
  }

  // number member `key`; `*out` keeps its default when absent. Checks [min, max].
  bool ReadNumber(const JsonValue& object, const char* key, double* out, double min, double max,
                  const std::string& what) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    if (!ExpectType(*value, JsonValue::Type::kNumber, what + " '" + key + "'")) return false;
    const double v = value->number();
    if (!std::isfinite(v) || v < min || v > max) {
      Error(*value, what + " '" + key + "' is " + FormatNumber(v) + ", expected a value in [" +
                        FormatNumber(min) + ", " + FormatNumber(max) + "]");
      return false;
    }
    *out = v;
    return true;
  }

  bool ReadString(const JsonValue& object, const char* key, std::string* out,
                  const std::string& what) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    if (!ExpectType(*value, JsonValue::Type::kString, what + " '" + key + "'")) return false;
    *out = value->string();
    return true;
  }

  bool ReadBool(const JsonValue& object, const char* key, bool* out, const std::string& what) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    if (!ExpectType(*value, JsonValue::Type::kBool, what + " '" + key + "'")) return false;
    *out = value->bool_value();
    return true;
  }

  // array of exactly N finite numbers, each in [min, max]
  template <int N>
  bool ReadArray(const JsonValue& object, const char* key, Eigen::Matrix<double, N, 1>* out,
                 const std::string& what, double min = -1e9, double max = 1e9) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    const std::string name = what + " '" + key + "'";
    if (!value->is_array() || static_cast<int>(value->items().size()) != N) {
      Error(*value, name + " must be an array of " + std::to_string(N) + " numbers");
      return false;
    }
    Eigen::Matrix<double, N, 1> result;
    for (int i = 0; i < N; ++i) {
      const JsonValue& item = value->items()[i];
      if (!item.is_number()) {
        Error(item, name + " must be an array of " + std::to_string(N) + " numbers, element " +
                        std::to_string(i) + " is a " + JsonValue::TypeName(item.type()));
        return false;
      }
      if (item.number() < min || item.number() > max) {
        Error(item, name + " element " + std::to_string(i) + " is " + FormatNumber(item.number()) +
                        ", expected a value in [" + FormatNumber(min) + ", " + FormatNumber(max) +
                        "]");
        return false;
      }
      result[i] = item.number();
    }
    *out = result;
    return true;
  }

  const std::string& source() const { return source_; }

 private:
  std::string source_;
  Diagnostics* diagnostics_;
};


// colour [r, g, b] in [0, 1]
bool ReadColor(SceneReader& reader, const JsonValue& object, std::array<float, 3>* color,
               const std::string& what) {
  Vec3 rgb(color->at(0), color->at(1), color->at(2));
  if (!reader.ReadArray<3>(object, "color", &rgb, what, 0.0, 1.0)) return false;
  *color = {static_cast<float>(rgb.x()), static_cast<float>(rgb.y()), static_cast<float>(rgb.z())};
  return true;
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
      reader.CheckKeys(*solver, {"name", "dt"}, "'solver'");
      reader.ReadString(*solver, "name", &model->options.solver.name, "solver");
      static const std::set<std::string> kSolvers = {"nsn", "pgs",  "primal", "dual",
                                                     "add", "pbti", "lcp"};
      if (!kSolvers.contains(model->options.solver.name)) {
        reader.Error(*solver->Find("name"), "unknown solver '" + model->options.solver.name +
                                                "' (expected one of: nsn, pgs, primal, dual, "
                                                "add, pbti, lcp)");
      }
      // a time step beyond 0.1 s is never meant for contact-rich simulation
      reader.ReadNumber(*solver, "dt", &model->options.solver.dt, 1e-6, 0.1, "solver");
    }
  }

  if (const JsonValue* camera = root.Find("camera")) {
    if (reader.ExpectType(*camera, JsonValue::Type::kObject, "'camera'")) {
      CameraSetup& c = model->camera;
      reader.CheckKeys(*camera, {"target", "distance", "yaw_deg", "pitch_deg", "fov_deg"},
                       "'camera'");
      reader.ReadArray<3>(*camera, "target", &c.target, "camera");
      reader.ReadNumber(*camera, "distance", &c.distance, 0.01, 1e4, "camera");
      reader.ReadNumber(*camera, "yaw_deg", &c.yaw_deg, -360, 360, "camera");
      reader.ReadNumber(*camera, "pitch_deg", &c.pitch_deg, -89, 89, "camera");
      reader.ReadNumber(*camera, "fov_deg", &c.fov_y_deg, 5, 150, "camera");
    }
  }
}


// materials: { "name": { friction, density, color } }; returns name -> index
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
    reader.CheckKeys(value, {"friction", "density", "color"}, what);
    Material material{.name = name};
    // μ above 10 is not a physical friction coefficient but a typo
    reader.ReadNumber(value, "friction", &material.friction, 0, 10, what);
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


// geometry of one object by type; returns false (with diagnostics) when a parameter is missing or
// bad
bool ReadGeometry(SceneReader& reader, const JsonValue& object, const JsonValue& type_value,
                  ShapeGeometry* geometry, const std::string& what) {
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
  if (type == "sphere") {
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
  if (type == "mesh" || type == "urdf" || type == "tetmesh") {
    reader.Error(type_value, what + " has type '" + type +
                                 "', which this version cannot load yet (supported: plane, box, "
                                 "sphere, capsule, cylinder)");
    return false;
  }
  reader.Error(type_value, what + " has unknown type '" + type +
                               "' (expected plane, box, sphere, capsule or cylinder)");
  return false;
}


void ReadObject(SceneReader& reader, const JsonValue& object, int index,
                const std::map<std::string, int>& materials, std::set<std::string>* names,
                Model* model, State* state) {
  std::string what = "object " + std::to_string(index);
  if (!reader.ExpectType(object, JsonValue::Type::kObject, what)) return;

  // name: required and unique, it is how reports, probes and the UI refer to the object
  std::string name;
  const JsonValue* name_value = object.Find("name");
  if (name_value == nullptr) {
    reader.Error(object, what + " needs a 'name'");
  } else if (reader.ReadString(object, "name", &name, what)) {
    if (name.empty()) {
      reader.Error(*name_value, what + " has an empty name");
    } else if (!names->insert(name).second) {
      reader.Error(*name_value, "duplicate object name '" + name + "'");
    }
    what = "object '" + name + "'";
  }

  const JsonValue* type_value = object.Find("type");
  if (type_value == nullptr) {
    reader.Error(object, what + " needs a 'type' (plane, box, sphere, capsule or cylinder)");
    return;
  }
  if (!reader.ExpectType(*type_value, JsonValue::Type::kString, what + " 'type'")) return;
  const bool is_plane = type_value->string() == "plane";
  if (is_plane) {
    reader.CheckKeys(object, {"name", "type", "material", "color", "normal", "offset"}, what);
  } else {
    reader.CheckKeys(
        object,
        {"name", "type", "material", "color", "size", "radius", "length", "position",
         "quaternion_wxyz", "rpy_deg", "fixed", "mass", "density", "velocity", "angular_velocity"},
        what);
  }

  ShapeGeometry geometry;
  bool ok = ReadGeometry(reader, object, *type_value, &geometry, what);

  // material and colour (the object's own colour overrides the material's)
  int material = 0;
  if (const JsonValue* m = object.Find("material")) {
    if (reader.ExpectType(*m, JsonValue::Type::kString, what + " 'material'")) {
      auto it = materials.find(m->string());
      if (it == materials.end()) {
        std::string known;
        for (const auto& [n, i] : materials) known += (known.empty() ? "" : ", ") + n;
        reader.Error(
            *m, what + " uses unknown material '" + m->string() + "' (defined: " + known + ")");
        ok = false;
      } else {
        material = it->second;
      }
    }
  }
  std::array<float, 3> color = model->materials[material].color;
  ok &= ReadColor(reader, object, &color, what);

  // pose: planes by normal and offset, everything else by position and orientation
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
    ok &= ReadOrientation(reader, object, &X_W.q, what);
  }

  bool fixed = is_plane;
  if (!is_plane) ok &= reader.ReadBool(object, "fixed", &fixed, what);

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
    ok &= reader.ReadArray<3>(object, "angular_velocity", &angular_velocity, what, -1e4, 1e4);
  } else if (fixed) {
    for (const char* key : {"mass", "density", "velocity", "angular_velocity"}) {
      if (const JsonValue* v = object.Find(key)) {
        reader.Warning(*v, what + " is fixed; its '" + key + "' is ignored");
      }
    }
  }
  if (!ok) return;

  // fixed objects are world shapes; dynamic ones get a body with the shape at its COM
  const int shape = model->shape_count();
  model->shape_name.push_back(name);
  model->shape_geometry.push_back(geometry);
  model->shape_material.push_back(material);
  model->shape_color.push_back(color);
  if (fixed) {
    model->shape_body.push_back(kWorldBody);
    model->shape_X_BS.push_back(X_W);
    return;
  }
  const int body = model->body_count();
  model->shape_body.push_back(body);
  model->shape_X_BS.push_back(Pose{});
  model->body_name.push_back(name);
  model->body_mass.push_back(mass);
  model->body_inertia.push_back(ShapeUnitInertia(model->shape_geometry[shape], mass));
  model->body_static.push_back(0);
  state->body_X_WB.push_back(X_W);
  state->body_v_W.push_back(velocity);
  state->body_w_W.push_back(angular_velocity);
}

}  // namespace


Expected<Scene> ParseScene(const std::string& text, const std::string& source_name) {
  Expected<JsonValue> json = ParseJson(text, source_name);
  if (!json.ok()) return json.diagnostics();
  Diagnostics diagnostics = json.diagnostics();
  SceneReader reader(source_name, &diagnostics);
  const JsonValue& root = json.value();
  if (!reader.ExpectType(root, JsonValue::Type::kObject, "the scene")) return diagnostics;

  reader.CheckKeys(root,
                   {"name", "description", "up", "gravity", "solver", "camera", "materials",
                    "objects", "format_version"},
                   "the scene");
  auto model = std::make_shared<Model>();
  Scene scene;
  scene.path = source_name;
  reader.ReadString(root, "name", &model->name, "scene");
  reader.ReadString(root, "description", &model->description, "scene");
  ReadOptions(reader, root, model.get());
  const std::map<std::string, int> materials = ReadMaterials(reader, root, model.get());

  // objects: the scene's bodies and static shapes
  const JsonValue* objects = root.Find("objects");
  if (objects == nullptr) {
    reader.Error(root, "the scene needs an 'objects' array");
  } else if (reader.ExpectType(*objects, JsonValue::Type::kArray, "'objects'")) {
    std::set<std::string> names;
    for (std::size_t i = 0; i < objects->items().size(); ++i) {
      ReadObject(reader, objects->items()[i], static_cast<int>(i), materials, &names, model.get(),
                 &scene.initial_state);
    }
  }
  if (diagnostics.has_errors()) return diagnostics;
  scene.model = std::move(model);
  return Expected<Scene>(std::move(scene), std::move(diagnostics));
}


Expected<Scene> LoadScene(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    Diagnostics diagnostics;
    diagnostics.Error(path, 0, "", "cannot open scene file (does it exist and is it readable?)");
    return diagnostics;
  }
  std::stringstream buffer;
  buffer << file.rdbuf();
  return ParseScene(buffer.str(), path);
}

}  // namespace sim::io
