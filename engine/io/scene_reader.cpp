// Typed reads of the scene reader; see scene_reader.h.
#include "engine/io/scene_reader.h"

#include <cmath>
#include <set>
#include <sstream>

namespace sim::io {

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ", ";
    out += w;
  }
  return out;
}


std::string Join(std::initializer_list<const char*> words) {
  return Join(std::vector<std::string>(words.begin(), words.end()));
}


std::string FormatNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
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

}  // namespace sim::io
