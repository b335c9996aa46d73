// Located diagnostics for untrusted input (scene files, URDF, meshes) and an Expected<T> that
// carries either a value or the diagnostics that prevented it. Formats as the compilers do, so
// editors and CI logs link straight to the offending line:
//   scenes/default.json:12: error: box 'crate' has non-positive size [-1, 1, 1] (at
//   /objects/2/size)
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sim {

enum class Severity { kNote = 0, kWarning, kError };

/// One message about an input file. `line` and `column` are 1-based; 0 means unknown.
struct Diagnostic {
  Severity severity = Severity::kError;
  std::string source;        ///< file path as the user gave it
  int line = 0;              ///< 1-based line, 0 if unknown
  int column = 0;            ///< 1-based column, 0 if unknown
  std::string element_path;  ///< JSON pointer or XML path of the element, may be empty
  std::string message;  ///< a human sentence naming the entity, the bad value and what was expected

  /// `file:line: error: message (at /path)`; the column is not printed so `file:line:` stays
  /// grep-able.
  std::string Format() const;
};

/// Collects diagnostics; loaders keep going after the first error to report all of them.
class Diagnostics {
 public:
  void Add(Diagnostic diagnostic) { items_.push_back(std::move(diagnostic)); }
  void Error(std::string source, int line, std::string element_path, std::string message);
  void Warning(std::string source, int line, std::string element_path, std::string message);
  void Append(const Diagnostics& other);

  bool has_errors() const;
  int error_count() const;
  bool empty() const { return items_.empty(); }
  const std::vector<Diagnostic>& items() const { return items_; }

  /// All diagnostics, one formatted line each, newline-terminated.
  std::string Format() const;

 private:
  std::vector<Diagnostic> items_;
};

/// A value, or the diagnostics explaining why there is none (never both silently: warnings that
/// came with a successful load are kept in `diagnostics()`).
template <typename T>
class Expected {
 public:
  Expected(T value, Diagnostics warnings = {})
      : value_(std::move(value)), diagnostics_(std::move(warnings)) {}
  Expected(Diagnostics errors) : diagnostics_(std::move(errors)) {}

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  const Diagnostics& diagnostics() const { return diagnostics_; }

 private:
  std::optional<T> value_;
  Diagnostics diagnostics_;
};

}  // namespace sim
