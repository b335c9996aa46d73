// A JSON document whose every value remembers where it was written (line, column, JSON pointer),
// so scene errors can say `scene.json:12: error: ...`. Parsing is RapidJSON's SAX reader over a
// stream that counts lines; this file only builds the located tree.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/diagnostics.h"

namespace sim::io {

class JsonValue {
 public:
  enum class Type { kNull = 0, kBool, kNumber, kString, kArray, kObject };

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_bool() const { return type_ == Type::kBool; }
  bool is_number() const { return type_ == Type::kNumber; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }

  bool bool_value() const { return bool_; }
  double number() const { return number_; }
  const std::string& string() const { return string_; }
  /// Array elements (empty unless is_array()).
  const std::vector<JsonValue>& items() const { return items_; }
  /// Object members in file order (empty unless is_object()).
  const std::vector<std::pair<std::string, JsonValue>>& members() const { return members_; }
  /// Member `key` of an object, or nullptr.
  const JsonValue* Find(const std::string& key) const;

  int line() const { return line_; }                       ///< 1-based line where the value ends
  int column() const { return column_; }                   ///< 1-based column where the value ends
  const std::string& pointer() const { return pointer_; }  ///< JSON pointer, "" for the root
  /// Byte range [begin_offset, end_offset) of the value's text in the parsed text (a leading
  /// byte-order mark counted), from its first character ('{', '"', a digit, ...) to just past its
  /// last: what to replace to rewrite the value in place.
  std::size_t begin_offset() const { return begin_offset_; }
  std::size_t end_offset() const { return end_offset_; }
  /// The value at JSON pointer `pointer` (RFC 6901, "" for this value) below this one, or nullptr.
  const JsonValue* AtPointer(const std::string& pointer) const;

  /// "number", "string", ... for messages.
  static const char* TypeName(Type type);

 private:
  friend class JsonTreeBuilder;
  Type type_ = Type::kNull;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> items_;
  std::vector<std::pair<std::string, JsonValue>> members_;
  int line_ = 0;
  int column_ = 0;
  std::string pointer_;
  std::size_t begin_offset_ = 0;
  std::size_t end_offset_ = 0;
};

/// Deepest nesting of arrays and objects ParseJson accepts (scenes use fewer than 10 levels).
inline constexpr int kMaxJsonDepth = 256;

/// Parses `text` (JSON with // and /* */ comments allowed). Syntax errors, duplicate keys,
/// numbers out of double range and nesting deeper than kMaxJsonDepth become located diagnostics
/// attributed to `source_name`.
Expected<JsonValue> ParseJson(const std::string& text, const std::string& source_name);

}  // namespace sim::io
