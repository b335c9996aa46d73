// Scene objects of type "compound": one rigid body (or one fixed group of world shapes) made of
// several shapes, e.g. a table from a top and four legs. Each part is a primitive or a mesh with
// its pose in the object's frame. Mass properties combine the parts:
//   m = Σ m_i,  c = Σ m_i c_i / m,  I_c = Σ R_i I_i R_iᵀ + m_i (|d_i|² E − d_i d_iᵀ),  d_i = c_i −
//   c
// (parallel-axis theorem), with m_i from the object's `mass` split by part volume, or from each
// part's density. The body frame sits at c with the object's orientation.
#include <memory>
#include "engine/geometry/collision_mesh.h"
#include "engine/io/scene_reader.h"

namespace sim::io {

namespace {

struct Part {
  ShapeGeometry geometry;
  Pose X_OS;  ///< shape frame in the object frame
  int material = 0;
  std::array<float, 3> color{};
  double density = 0;  ///< [kg/m³]
  std::string name;
  std::shared_ptr<const VisualMesh> visual;  ///< drawn surface of a mesh part, else null
  int structure_field = -1;                  ///< the part's own, else the object's
};

// appends the parts as shapes of `body` (kWorldBody: fixed, X_BO the object's world pose)
void AddParts(const std::vector<Part>& parts, int body, const Pose& X_BO, Model* model) {
  for (const Part& part : parts) {
    const int shape = model->shape_count();
    model->shape_name.push_back(part.name);
    model->shape_geometry.push_back(part.geometry);
    model->shape_body.push_back(body);
    model->shape_X_BS.push_back(X_BO * part.X_OS);
    model->shape_material.push_back(part.material);
    model->shape_color.push_back(part.color);
    ApplyStructureField(part.structure_field, shape, model);
    if (part.visual) {
      model->shape_visual_mesh.resize(shape);
      model->shape_visual_mesh.push_back(part.visual);
    }
  }
}

// one entry of "shapes"; false after reporting
bool ReadPart(SceneReader& reader, const JsonValue& value, const std::string& object_name,
              int index, const std::map<std::string, int>& materials, int object_material,
              const std::array<float, 3>& object_color, double object_density, const Model& model,
              Part* part) {
  const std::string what = "object '" + object_name + "' shape " + std::to_string(index);
  if (!reader.ExpectType(value, JsonValue::Type::kObject, what)) return false;
  reader.CheckKeys(value,
                   {"name", "type", "size", "radius", "length", "file", "scale", "collision",
                    "sdf_resolution", "hull_vertices", "position", "rpy_deg", "quaternion_wxyz",
                    "material", "color", "density", "structure_field"},
                   what);
  const JsonValue* type = value.Find("type");
  if (type == nullptr) {
    reader.Error(value, what + " needs a 'type' (box, sphere, capsule, cylinder or mesh)");
    return false;
  }
  if (!reader.ExpectType(*type, JsonValue::Type::kString, what + " 'type'")) return false;
  const std::string& kind = type->string();
  if (kind != "box" && kind != "sphere" && kind != "capsule" && kind != "cylinder" &&
      kind != "mesh") {
    reader.Error(*type, what + " has type '" + kind +
                            "', expected one of: box, sphere, capsule, cylinder, mesh");
    return false;
  }
  bool ok = ReadShapeGeometry(reader, value, *type, &part->geometry, what, &part->visual);
  ok &= reader.ReadArray<3>(value, "position", &part->X_OS.p, what, -1e6, 1e6);
  ok &= ReadOrientation(reader, value, &part->X_OS.q, what);
  part->material = object_material;
  ok &= ReadObjectMaterial(reader, value, materials, &part->material, what);
  // a part's own material gives its colour and density unless the part or object sets them
  const bool own_material = value.Find("material") != nullptr;
  part->color = own_material ? model.materials[part->material].color : object_color;
  ok &= ReadObjectColor(reader, value, &part->color, what);
  part->density = own_material ? model.materials[part->material].density : object_density;
  ok &= reader.ReadNumber(value, "density", &part->density, 1e-3, 1e6, what);
  part->name = object_name + "/" + std::to_string(index);
  ok &= reader.ReadString(value, "name", &part->name, what);
  return ok;
}

}  // namespace


void ReadCompoundObject(SceneReader& reader, const JsonValue& object, const std::string& name,
                        const std::map<std::string, int>& materials, ObjectNames* names,
                        Model* model, State* state) {
  const std::string what = "object '" + name + "'";
  reader.CheckKeys(object,
                   {"name", "type", "shapes", "material", "color", "position", "rpy_deg",
                    "quaternion_wxyz", "fixed", "mass", "density", "velocity", "angular_velocity",
                    "collision_group", "collides_with", "structure_field"},
                   what);
  int material = 0;
  bool ok = ReadObjectMaterial(reader, object, materials, &material, what);
  CollisionFilter filter;
  ok &= ReadCollisionFilter(reader, object, what, &filter);
  std::array<float, 3> color = model->materials[material].color;
  ok &= ReadObjectColor(reader, object, &color, what);
  Pose X_WO;
  ok &= reader.ReadArray<3>(object, "position", &X_WO.p, what, -1e6, 1e6);
  ok &= ReadOrientation(reader, object, &X_WO.q, what);
  bool fixed = false;
  ok &= reader.ReadBool(object, "fixed", &fixed, what);
  double density = model->materials[material].density;
  ok &= reader.ReadNumber(object, "density", &density, 1e-3, 1e6, what);
  double mass = 0;
  ok &= reader.ReadNumber(object, "mass", &mass, 1e-6, 1e9, what);
  if (object.Find("mass") != nullptr && object.Find("density") != nullptr) {
    reader.Error(*object.Find("density"), what + " gives both 'mass' and 'density'; give one");
    ok = false;
  }
  Vec3 velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();
  ok &= reader.ReadArray<3>(object, "velocity", &velocity, what, -1e4, 1e4);
  ok &= reader.ReadArray<3>(object, "angular_velocity", &angular_velocity, what, -1e4, 1e4);

  // the parts
  const JsonValue* shapes = object.Find("shapes");
  std::vector<Part> parts;
  if (shapes == nullptr) {
    reader.Error(object, what + " of type 'compound' needs 'shapes' (an array of shapes)");
    return;
  }
  if (!reader.ExpectType(*shapes, JsonValue::Type::kArray, what + " 'shapes'")) return;
  if (shapes->items().empty()) {
    reader.Error(*shapes, what + " 'shapes' is empty");
    return;
  }
  // a structure field of the object is shared by its parts (each projects it in its own shape
  // frame); a part's own field replaces it
  const int object_field =
      ReadTriplanarStructureField(reader, object, "structure_field", what, ok, model);
  ok &= object_field != kBadStructureField;
  for (std::size_t i = 0; i < shapes->items().size(); ++i) {
    Part part;
    const JsonValue& value = shapes->items()[i];
    if (ReadPart(reader, value, name, static_cast<int>(i), materials, material, color, density,
                 *model, &part)) {
      const ShapeGeometry& g = part.geometry;
      part.structure_field =
          ReadStructureField(reader, value, "structure_field", DefaultFieldProjection(g),
                             g.type == ShapeType::kMesh && g.mesh && g.mesh->surface.has_uvs(),
                             what + " shape " + std::to_string(i), model);
      if (part.structure_field == kBadStructureField) ok = false;
      if (part.structure_field == -1) part.structure_field = object_field;
      parts.push_back(std::move(part));
    } else {
      ok = false;
    }
  }
  if (!ok) return;

  ObjectRef* ref = name.empty() ? nullptr : &names->at(name);
  if (fixed) {
    for (const char* key : {"mass", "density", "velocity", "angular_velocity"}) {
      if (const JsonValue* v = object.Find(key)) {
        reader.Warning(*v, what + " is fixed; its '" + key + "' is ignored");
      }
    }
    if (ref != nullptr) *ref = {ObjectRef::Kind::kFixed, -1};
    const int first_shape = model->shape_count();
    AddParts(parts, kWorldBody, X_WO, model);
    ApplyCollisionFilter(filter, first_shape, model);
    return;
  }

  // part masses: the object's mass split by volume, else each part's density × volume
  std::vector<double> part_mass;
  double volume = 0;
  for (const Part& part : parts) volume += ShapeVolume(part.geometry);
  for (const Part& part : parts) {
    const double v = ShapeVolume(part.geometry);
    part_mass.push_back(object.Find("mass") != nullptr ? (volume > 0 ? mass * v / volume : 0)
                                                       : part.density * v);
  }
  double total = 0;
  Vec3 com = Vec3::Zero();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    total += part_mass[i];
    com += part_mass[i] * (parts[i].X_OS * ShapeCentroid(parts[i].geometry));
  }
  if (!(total > 0)) {
    reader.Error(*shapes, what +
                              " has no volume to take a mass from (open meshes?); give 'mass' "
                              "or make it fixed");
    return;
  }
  com /= total;
  Mat3 inertia = Mat3::Zero();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Mat3 R = parts[i].X_OS.q.toRotationMatrix();
    const Vec3 d = parts[i].X_OS * ShapeCentroid(parts[i].geometry) - com;
    inertia += R * ShapeUnitInertia(parts[i].geometry, part_mass[i]) * R.transpose() +
               part_mass[i] * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }

  // one body at the COM with the object's orientation; the parts relative to it
  const int body = model->body_count();
  if (ref != nullptr) *ref = {ObjectRef::Kind::kBody, body};
  const Pose X_OB{com, Quat::Identity()};
  const int first_shape = model->shape_count();
  AddParts(parts, body, X_OB.Inverse(), model);
  ApplyCollisionFilter(filter, first_shape, model);
  model->body_name.push_back(name);
  model->body_mass.push_back(total);
  model->body_inertia.push_back(inertia);
  model->body_static.push_back(0);
  if (!model->body_filter_group.empty()) model->body_filter_group.push_back(-1);
  state->body_X_WB.push_back(X_WO * X_OB);
  state->body_v_W.push_back(velocity);
  state->body_w_W.push_back(angular_velocity);
}

}  // namespace sim::io
