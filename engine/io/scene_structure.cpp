// Scene reader of structure fields (engine/model/structure_field.h): an object's
// "structure_field" value, a procedural field or a PNG image with its projection, checked value by
// value with located diagnostics.
#include <cmath>
#include <filesystem>
#include <memory>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "engine/geometry/collision_mesh.h"
#include "engine/io/png_file.h"
#include "engine/io/scene_reader.h"

namespace sim::io {

namespace {

// field coordinates beyond ±1000 km are typos, not surfaces
constexpr double kMaxCoordinate = 1e6;
// lengths of lanes, tiles and channels: from 0.1 mm to 1000 km
constexpr double kMinLength = 1e-4;


// "axis": "x" | "y" | "z" (optionally signed "-z") or [x, y, z], normalized
bool ReadAxis(SceneReader& reader, const JsonValue& object, Vec3* axis, const std::string& what) {
  const JsonValue* value = object.Find("axis");
  if (value == nullptr) return true;
  if (value->is_string()) {
    const std::string& name = value->string();
    const bool negative = !name.empty() && name[0] == '-';
    const std::string letter = negative ? name.substr(1) : name;
    if (letter == "x" || letter == "y" || letter == "z") {
      *axis = Vec3::Unit(letter[0] - 'x') * (negative ? -1 : 1);
      return true;
    }
    reader.Error(*value,
                 what + " 'axis' is '" + name +
                     "', expected \"x\", \"y\", \"z\" (optionally \"-x\" ...) or [x, y, z]");
    return false;
  }
  Vec3 v;
  if (!reader.ReadArray<3>(object, "axis", &v, what, -kMaxCoordinate, kMaxCoordinate)) return false;
  if (!(v.norm() > 1e-9)) {
    reader.Error(*value, what + " 'axis' has zero length");
    return false;
  }
  *axis = v.normalized();
  return true;
}


// "projection": "uv" | "planar" | ... or {"type", "axis", "origin"}
bool ReadProjection(SceneReader& reader, const JsonValue& field, FieldProjectionSpec* spec,
                    bool has_uvs, const std::string& what) {
  const JsonValue* value = field.Find("projection");
  if (value == nullptr) return true;
  const std::string name = what + " 'projection'";
  const auto read_kind = [&](const JsonValue& object, const char* key, const std::string& w) {
    return reader.ReadEnum(object, key,
                           {{"uv", FieldProjection::kUv},
                            {"planar", FieldProjection::kPlanar},
                            {"cylindrical", FieldProjection::kCylindrical},
                            {"triplanar", FieldProjection::kTriplanar}},
                           &spec->kind, w);
  };
  bool ok = true;
  const JsonValue* type = value;
  if (value->is_object()) {
    reader.CheckKeys(*value, {"type", "axis", "origin"}, name);
    type = value->Find("type");
    if (type == nullptr) {
      reader.Error(*value, name + " needs a 'type' (uv, planar, cylindrical or triplanar)");
      return false;
    }
    ok &= ReadAxis(reader, *value, &spec->axis, name);
    ok &=
        reader.ReadArray<3>(*value, "origin", &spec->origin, name, -kMaxCoordinate, kMaxCoordinate);
    ok &= read_kind(*value, "type", name);
  } else if (value->is_string()) {
    ok &= read_kind(field, "projection", what);
  } else {
    reader.Error(*value, name + " must be a string or an object, not a " +
                             JsonValue::TypeName(value->type()));
    return false;
  }
  if (ok && spec->kind == FieldProjection::kUv && !has_uvs) {
    reader.Error(*type, name +
                            " is \"uv\", but the surface has no texture coordinates (give a "
                            "mesh file with UVs, or a planar, cylindrical or triplanar "
                            "projection)");
    return false;
  }
  return ok;
}


// the image of an "image" field: 8-bit RGB(A), sides 1..8192, decoded into doubled-angle texels
bool ReadFieldImage(SceneReader& reader, const JsonValue& field, StructureField* out,
                    const std::string& what) {
  const JsonValue& value = *field.Find("image");
  if (!reader.ExpectType(value, JsonValue::Type::kString, what + " 'image'")) return false;
  std::filesystem::path path(value.string());
  if (path.is_relative()) path = std::filesystem::path(reader.source()).parent_path() / path;
  const std::string confined =
      reader.Confined(path.lexically_normal().string(), value, what + " 'image'");
  if (confined.empty()) return false;
  std::error_code code;
  if (!std::filesystem::is_regular_file(confined, code)) {
    reader.Error(value, what + " 'image' '" + value.string() + "' does not exist" +
                            (value.string() != confined ? " (looked for " + confined + ")" : ""));
    return false;
  }
  PngImage image;
  PngFormat format;
  std::string error;
  if (!ReadPng(confined, &image, &error, nullptr, &format, kMaxStructureFieldSide)) {
    reader.Error(value, what + " 'image' '" + value.string() + "': " + error);
    return false;
  }
  // the channels are numbers, not colours: only 8-bit RGB or RGBA holds them exactly
  if (format.bit_depth != 8 ||
      (format.color != PngColor::kRgb && format.color != PngColor::kRgba)) {
    reader.Error(value, what + " 'image' '" + value.string() + "' is " +
                            std::to_string(format.bit_depth) + "-bit " +
                            PngColorName(format.color) +
                            ", expected 8-bit RGB or RGBA (R, G = cos 2θ, sin 2θ; B = strength)");
    return false;
  }
  if (image.width < 1 || image.height < 1) {
    reader.Error(value, what + " 'image' '" + value.string() + "' has no pixels");
    return false;
  }
  std::vector<StructureTexel> texels(static_cast<std::size_t>(image.width) * image.height);
  for (std::size_t i = 0; i < texels.size(); ++i) {
    const std::uint8_t* px = &image.rgba[4 * i];
    texels[i] = DecodeStructureTexel(px[0], px[1], px[2]);
  }
  out->image_path = confined;
  out->SetTexels(image.width, image.height, std::move(texels));
  return true;
}


// the parameters of a procedural field
bool ReadProcedural(SceneReader& reader, const JsonValue& field, StructureField* out,
                    const std::string& what) {
  ProceduralField& p = out->procedural;
  bool ok = true;
  double angle_deg = 0;
  ok &= reader.ReadNumber(field, "angle_deg", &angle_deg, -1e4, 1e4, what);
  p.angle = angle_deg * kDegToRad;
  Eigen::Vector2d center = p.center;
  ok &= reader.ReadArray<2>(field, "center", &center, what, -kMaxCoordinate, kMaxCoordinate);
  p.center = center;
  ok &= reader.ReadNumber(field, "width", &p.width, kMinLength, kMaxCoordinate, what);
  double turn_deg = p.turn / kDegToRad;
  ok &= reader.ReadNumber(field, "turn_deg", &turn_deg, 0, 90, what);
  p.turn = turn_deg * kDegToRad;
  ok &= reader.ReadNumber(field, "wavelength", &p.wavelength, kMinLength, kMaxCoordinate, what);
  ok &= reader.ReadNumber(field, "amplitude", &p.amplitude, 0, kMaxCoordinate, what);
  ok &= reader.ReadNumber(field, "core_radius", &p.core_radius, 0, kMaxCoordinate, what);
  return ok;
}


// which keys each kind reads, for the unknown-key warning
std::vector<std::string> KnownKeys(StructureFieldKind kind) {
  std::vector<std::string> keys = {"strength", "projection", "tile_size"};
  switch (kind) {
    case StructureFieldKind::kImage:
      keys.push_back("image");
      break;
    case StructureFieldKind::kUniform:
      keys.insert(keys.end(), {"procedural", "angle_deg"});
      break;
    case StructureFieldKind::kRadial:
    case StructureFieldKind::kVortex:
      keys.insert(keys.end(), {"procedural", "center", "core_radius"});
      break;
    case StructureFieldKind::kChannel:
      keys.insert(keys.end(), {"procedural", "angle_deg", "center", "width", "turn_deg"});
      break;
    case StructureFieldKind::kSlalom:
      keys.insert(keys.end(), {"procedural", "angle_deg", "center", "wavelength", "amplitude"});
      break;
  }
  return keys;
}

}  // namespace


FieldProjectionSpec DefaultFieldProjection(const ShapeGeometry& geometry) {
  FieldProjectionSpec spec;
  switch (geometry.type) {
    case ShapeType::kPlane:
      spec.kind = FieldProjection::kPlanar;
      break;
    case ShapeType::kSphere:
    case ShapeType::kCapsule:
    case ShapeType::kCylinder:
      spec.kind = FieldProjection::kCylindrical;
      break;
    case ShapeType::kMesh:
      spec.kind = geometry.mesh && geometry.mesh->surface.has_uvs() ? FieldProjection::kUv
                                                                    : FieldProjection::kTriplanar;
      break;
    default:
      spec.kind = FieldProjection::kTriplanar;
      break;
  }
  return spec;
}


int ReadStructureField(SceneReader& reader, const JsonValue& object, const char* key,
                       const FieldProjectionSpec& default_projection, bool has_uvs,
                       const std::string& owner, Model* model) {
  const JsonValue* value = object.Find(key);
  if (value == nullptr || value->is_null()) return -1;
  const std::string what = owner + " '" + key + "'";
  if (!reader.ExpectType(*value, JsonValue::Type::kObject, what)) return kBadStructureField;
  const JsonValue* image = value->Find("image");
  const JsonValue* procedural = value->Find("procedural");
  if ((image == nullptr) == (procedural == nullptr)) {
    reader.Error(*value,
                 what + (image != nullptr ? " gives both 'image' and 'procedural'; give one"
                                          : " needs 'image' (a PNG file) or 'procedural' "
                                            "(uniform, radial, channel, slalom or vortex)"));
    return kBadStructureField;
  }
  auto field = std::make_shared<StructureField>();
  field->projection = default_projection;
  field->scene_pointer = value->pointer();
  bool ok = true;
  if (procedural != nullptr) {
    ok &= reader.ReadEnum(*value, "procedural",
                          {{"uniform", StructureFieldKind::kUniform},
                           {"radial", StructureFieldKind::kRadial},
                           {"channel", StructureFieldKind::kChannel},
                           {"slalom", StructureFieldKind::kSlalom},
                           {"vortex", StructureFieldKind::kVortex}},
                          &field->kind, what);
    if (!ok) return kBadStructureField;
  } else {
    field->kind = StructureFieldKind::kImage;
  }
  const std::vector<std::string> known = KnownKeys(field->kind);
  for (const auto& [name, member] : value->members()) {
    bool listed = false;
    for (const std::string& k : known) listed |= name == k;
    if (!listed) {
      reader.Warning(member, "'" + name + "' has no meaning in a " +
                                 StructureFieldKindName(field->kind) + " " + what +
                                 " and is ignored (its keys: " + Join(known) + ")");
    }
  }
  ok &= reader.ReadNumber(*value, "strength", &field->procedural.strength, 0, 1, what);
  ok &= ReadProjection(reader, *value, &field->projection, has_uvs, what);
  Eigen::Vector2d tile = field->tile_size;
  ok &= reader.ReadArray<2>(*value, "tile_size", &tile, what, kMinLength, kMaxCoordinate);
  field->tile_size = tile;
  if (field->kind == StructureFieldKind::kImage) {
    ok &= ReadFieldImage(reader, *value, field.get(), what);
    // an image's strength scales its blue channel
    if (ok && field->procedural.strength != 1) {
      for (StructureTexel& t : field->mutable_texels()) {
        t.strength *= static_cast<float>(field->procedural.strength);
      }
    }
  } else {
    ok &= ReadProcedural(reader, *value, field.get(), what);
  }
  if (!ok) return kBadStructureField;
  model->structure_fields.push_back(std::move(field));
  return static_cast<int>(model->structure_fields.size()) - 1;
}


void ApplyStructureField(int field, int first_shape, Model* model) {
  if (field < 0 && model->shape_structure_field.empty()) return;
  model->shape_structure_field.resize(model->shape_count(), -1);
  if (field < 0) return;
  for (int s = first_shape; s < model->shape_count(); ++s) model->shape_structure_field[s] = field;
}

}  // namespace sim::io
