// Typed reads of the scene reader; see scene_reader.h.
#include "engine/io/scene_reader.h"

#include <cmath>
#include <set>

namespace sim::io {

// each diagnostic of the loaded file, then (unless it is a note itself) where the scene loaded it
void AppendWithNote(SceneReader& reader, const Diagnostics& from, const JsonValue& at,
                    const std::string& note) {
  for (const Diagnostic& d : from.items()) {
    reader.diagnostics()->Add(d);
    if (d.severity == Severity::kNote) continue;
    reader.diagnostics()->Add(Diagnostic{.severity = Severity::kNote,
                                         .source = reader.source(),
                                         .line = at.line(),
                                         .element_path = at.pointer(),
                                         .message = note});
  }
}


void SceneReader::CheckKeys(const JsonValue& object, std::initializer_list<const char*> known,
                            const std::string& what) {
  const std::set<std::string> allowed(known.begin(), known.end());
  for (const auto& [key, value] : object.members()) {
    if (!allowed.contains(key)) {
      Warning(value, "unknown key '" + key + "' in " + what + " (expected one of: " + Join(known) +
                         "); it is ignored");
    }
  }
}


bool SceneReader::ExpectType(const JsonValue& value, JsonValue::Type type,
                             const std::string& what) {
  if (value.type() == type) return true;
  Error(value, what + " must be a " + JsonValue::TypeName(type) + ", not a " +
                   JsonValue::TypeName(value.type()));
  return false;
}


std::string SceneReader::Confined(const std::string& path, const JsonValue& at,
                                  const std::string& what) {
  if (file_roots_.Contains(path)) return path;
  // the file as written, and where it leads when that is not plain (a symbolic link, "..")
  const std::string written = at.is_string() ? at.string() : path;
  const std::string target = FileRoots::Target(path);
  Error(at, what + " '" + written + "'" + (target != written ? " (" + target + ")" : "") +
                " is outside the folders this scene may read (" + file_roots_.Describe() +
                "); add its folder to " + kFileRootsVariable + " to allow it");
  return "";
}


bool SceneReader::ReadNumber(const JsonValue& object, const char* key, double* out, double min,
                             double max, const std::string& what, bool exclusive_min) {
  const JsonValue* value = object.Find(key);
  if (value == nullptr) return true;
  if (!ExpectType(*value, JsonValue::Type::kNumber, what + " '" + key + "'")) return false;
  const double v = value->number();
  if (!std::isfinite(v) || v < min || (exclusive_min && v == min) || v > max) {
    Error(*value, what + " '" + key + "' is " + FormatNumber(v) + ", expected a value in " +
                      (exclusive_min ? "(" : "[") + FormatNumber(min) + ", " + FormatNumber(max) +
                      "]");
    return false;
  }
  *out = v;
  return true;
}


bool SceneReader::ReadInt(const JsonValue& object, const char* key, int* out, int min, int max,
                          const std::string& what) {
  const JsonValue* value = object.Find(key);
  if (value == nullptr) return true;
  if (!ExpectType(*value, JsonValue::Type::kNumber, what + " '" + key + "'")) return false;
  const double v = value->number();
  if (v != std::floor(v) || v < min || v > max) {
    Error(*value, what + " '" + key + "' is " + FormatNumber(v) + ", expected a whole number in [" +
                      std::to_string(min) + ", " + std::to_string(max) + "]");
    return false;
  }
  *out = static_cast<int>(v);
  return true;
}


bool SceneReader::ReadString(const JsonValue& object, const char* key, std::string* out,
                             const std::string& what) {
  const JsonValue* value = object.Find(key);
  if (value == nullptr) return true;
  if (!ExpectType(*value, JsonValue::Type::kString, what + " '" + key + "'")) return false;
  *out = value->string();
  return true;
}


bool SceneReader::ReadBool(const JsonValue& object, const char* key, bool* out,
                           const std::string& what) {
  const JsonValue* value = object.Find(key);
  if (value == nullptr) return true;
  if (!ExpectType(*value, JsonValue::Type::kBool, what + " '" + key + "'")) return false;
  *out = value->bool_value();
  return true;
}

bool ReadCollisionFilter(SceneReader& reader, const JsonValue& object, const std::string& what,
                         CollisionFilter* filter) {
  bool ok = true;
  int group = 0;
  if (object.Find("collision_group") != nullptr) {
    filter->given = true;
    ok &= reader.ReadInt(object, "collision_group", &group, 0, 31, what);
    filter->group = std::uint32_t{1} << group;
  }
  const JsonValue* with = object.Find("collides_with");
  if (with == nullptr) return ok;
  filter->given = true;
  if (!reader.ExpectType(*with, JsonValue::Type::kArray, what + " 'collides_with'")) return false;
  // the listed groups only (an empty list collides with nothing)
  filter->mask = 0;
  for (std::size_t i = 0; i < with->items().size(); ++i) {
    const JsonValue& item = with->items()[i];
    const double value = item.is_number() ? item.number() : -1;
    if (!item.is_number() || value != std::floor(value) || value < 0 || value > 31) {
      reader.Error(item, what + " 'collides_with' element " + std::to_string(i) +
                             " must be a group index in [0, 31]");
      ok = false;
      continue;
    }
    filter->mask |= std::uint32_t{1} << static_cast<int>(value);
  }
  return ok;
}


void ApplyCollisionFilter(const CollisionFilter& filter, int first_shape, Model* model) {
  if (!filter.given && model->shape_collision_group.empty()) return;
  // shapes read before the first filtered object keep the defaults
  model->shape_collision_group.resize(model->shape_count(), 1u);
  model->shape_collision_mask.resize(model->shape_count(), ~0u);
  for (int s = first_shape; s < model->shape_count(); ++s) {
    model->shape_collision_group[s] = filter.group;
    model->shape_collision_mask[s] = filter.mask;
  }
}

}  // namespace sim::io
