// Descriptor tables of settings (MuJoCo's one field list, mjxmacro.h): each solver, and the step
// itself, describes its settings once (name, type, default, range, unit, one line of help). The
// scene reader, `--set`, the run report's `settings`, the studio's solver panel and the settings
// table of docs/scene-format.md all read that one table; a solver turns the values into its own
// typed struct through the same table (BoundSettings).
#pragma once

#include <cmath>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace sim {

enum class SettingKind : unsigned char { kReal = 0, kInt, kBool, kChoice };

/// One setting. Values are held as doubles: integers and booleans exactly, a choice as the index
/// into `choices`.
struct SettingDescriptor {
  std::string_view name;   ///< as in scene files and `--set` ("newton_iterations")
  std::string_view label;  ///< as the studio shows it ("Newton iterations")
  SettingKind kind = SettingKind::kReal;
  double default_value = 0;
  double min = 0;                         ///< kReal and kInt: smallest value allowed
  double max = 0;                         ///< kReal and kInt: largest value allowed
  bool min_exclusive = false;             ///< kReal: the range is (min, max]
  std::string_view unit;                  ///< SI unit ("s", "m", "1/kg"); empty for a pure number
  std::string_view help;                  ///< one line
  std::vector<std::string_view> choices;  ///< kChoice: the names, in index order
};

using SettingsTable = std::vector<SettingDescriptor>;

/// What a descriptor accepts, for messages ("an integer in [1, 1000]", "one of pcr, pcg").
std::string ExpectedText(const SettingDescriptor& descriptor);

/// `value` within the descriptor's type and range.
bool IsValidSetting(const SettingDescriptor& descriptor, double value);

/// Parses `text` ("0.01", "20", "true"/"false"/"1"/"0", a choice name) into a valid value.
bool ParseSetting(const SettingDescriptor& descriptor, std::string_view text, double* value);

/// The value as it is written in scene files and reports ("pcr", "true", "20", "0.008333").
std::string SettingText(const SettingDescriptor& descriptor, double value);

/// The values of one table, in table order.
class SettingValues {
 public:
  SettingValues() = default;
  /// The table's defaults.
  explicit SettingValues(const SettingsTable& table);

  const SettingsTable& table() const { return *table_; }
  int size() const { return static_cast<int>(values_.size()); }
  /// Index of the setting `name`, or −1.
  int Find(std::string_view name) const;
  double operator[](int i) const { return values_[i]; }
  /// Sets entry i when the value is valid for it; returns whether it was.
  bool Set(int i, double value);
  /// The value of `name` (which must exist).
  double Get(std::string_view name) const;
  /// Sets `name` (which must exist) to a value of its type: a number, a bool or an enum whose
  /// underlying value is the choice index. Returns false (changing nothing) when out of range.
  template <typename T>
  bool Set(std::string_view name, T value) {
    const int i = Find(name);
    if (i < 0) return false;
    if constexpr (std::is_enum_v<T>) {
      return Set(i, static_cast<double>(static_cast<std::underlying_type_t<T>>(value)));
    } else {
      return Set(i, static_cast<double>(value));
    }
  }
  bool operator==(const SettingValues& other) const { return values_ == other.values_; }

 private:
  const SettingsTable* table_ = nullptr;
  std::vector<double> values_;
};

/// The names of the settings of `values`' table, in order.
std::vector<std::string> SettingNames(const SettingValues& values);

/// Stores a table value into a typed field: numbers, bools and enums (choice index).
template <typename Field>
void StoreSetting(Field* field, double value) {
  if constexpr (std::is_same_v<Field, bool>) {
    *field = value != 0;
  } else if constexpr (std::is_enum_v<Field>) {
    *field = static_cast<Field>(static_cast<std::underlying_type_t<Field>>(value));
  } else if constexpr (std::is_integral_v<Field>) {
    *field = static_cast<Field>(std::llround(value));
  } else {
    *field = static_cast<Field>(value);
  }
}

/// A typed field as a table value (the inverse of StoreSetting).
template <typename Field>
double LoadSetting(const Field& field) {
  if constexpr (std::is_enum_v<Field>) {
    return static_cast<double>(static_cast<std::underlying_type_t<Field>>(field));
  } else {
    return static_cast<double>(field);
  }
}

/// A descriptor bound to the field of a solver's typed settings struct `S`.
template <typename S>
struct BoundSetting {
  SettingDescriptor descriptor;
  void (*store)(S& settings, double value);
  double (*load)(const S& settings);
};

/// Binds a field of `Struct` for a BoundSetting (captureless lambdas: one line per setting).
#define SIM_SETTING_FIELD(Struct, field)                                               \
  [](Struct& settings, double value) { ::sim::StoreSetting(&settings.field, value); }, \
      [](const Struct& settings) { return ::sim::LoadSetting(settings.field); }

/// The descriptors of a bound table, in order.
template <typename S>
SettingsTable DescriptorsOf(const std::vector<BoundSetting<S>>& bound) {
  SettingsTable table;
  for (const BoundSetting<S>& entry : bound) table.push_back(entry.descriptor);
  return table;
}

/// Typed settings from table values (the bound table and the values' table are the same list);
/// the struct's defaults where `values` is null.
template <typename S>
S StoreSettings(const std::vector<BoundSetting<S>>& bound, const SettingValues* values) {
  S typed{};
  for (int i = 0; values != nullptr && i < values->size() && i < static_cast<int>(bound.size());
       ++i) {
    bound[i].store(typed, (*values)[i]);
  }
  return typed;
}

}  // namespace sim
