#include "engine/solvers/settings_table.h"

#include <cassert>
#include <charconv>
#include <cstdio>

namespace sim {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}


// shortest text that reads back as the same double
std::string NumberText(double value) {
  char text[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(text, sizeof(text), "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

}  // namespace


std::string ExpectedText(const SettingDescriptor& d) {
  const std::string unit = d.unit.empty() ? "" : " " + std::string(d.unit);
  switch (d.kind) {
    case SettingKind::kReal:
      return std::string("a value in ") + (d.min_exclusive ? "(" : "[") + NumberText(d.min) + ", " +
             NumberText(d.max) + "]" + unit;
    case SettingKind::kInt:
      return "a whole number in [" + NumberText(d.min) + ", " + NumberText(d.max) + "]" + unit;
    case SettingKind::kBool:
      return "one of true, false, 1, 0";
    case SettingKind::kChoice: {
      std::string names;
      for (std::string_view choice : d.choices) {
        names += (names.empty() ? "" : ", ") + std::string(choice);
      }
      return "one of: " + names;
    }
  }
  return "";
}


bool IsValidSetting(const SettingDescriptor& d, double value) {
  if (!std::isfinite(value)) return false;
  switch (d.kind) {
    case SettingKind::kReal:
      return (d.min_exclusive ? value > d.min : value >= d.min) && value <= d.max;
    case SettingKind::kInt:
      return value == std::floor(value) && value >= d.min && value <= d.max;
    case SettingKind::kBool:
      return value == 0 || value == 1;
    case SettingKind::kChoice:
      return value == std::floor(value) && value >= 0 &&
             value < static_cast<double>(d.choices.size());
  }
  return false;
}


bool ParseSetting(const SettingDescriptor& d, std::string_view text, double* value) {
  text = Trim(text);
  double parsed = 0;
  switch (d.kind) {
    case SettingKind::kBool:
      if (text == "true" || text == "1") {
        parsed = 1;
      } else if (text == "false" || text == "0") {
        parsed = 0;
      } else {
        return false;
      }
      break;
    case SettingKind::kChoice: {
      parsed = -1;
      for (std::size_t k = 0; k < d.choices.size(); ++k) {
        if (text == d.choices[k]) parsed = static_cast<double>(k);
      }
      if (parsed < 0) return false;
      break;
    }
    case SettingKind::kReal:
    case SettingKind::kInt: {
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
      if (error != std::errc() || end != text.data() + text.size() || text.empty()) return false;
      break;
    }
  }
  if (!IsValidSetting(d, parsed)) return false;
  *value = parsed;
  return true;
}


std::string SettingText(const SettingDescriptor& d, double value) {
  switch (d.kind) {
    case SettingKind::kBool:
      return value != 0 ? "true" : "false";
    case SettingKind::kChoice: {
      const auto index = static_cast<std::size_t>(value);
      return index < d.choices.size() ? std::string(d.choices[index]) : "?";
    }
    case SettingKind::kInt:
    case SettingKind::kReal:
      return NumberText(value);
  }
  return "";
}


SettingValues::SettingValues(const SettingsTable& table) : table_(&table) {
  values_.reserve(table.size());
  for (const SettingDescriptor& d : table) values_.push_back(d.default_value);
}


int SettingValues::Find(std::string_view name) const {
  if (table_ == nullptr) return -1;
  for (int i = 0; i < size(); ++i) {
    if ((*table_)[i].name == name) return i;
  }
  return -1;
}


bool SettingValues::Set(int i, double value) {
  if (i < 0 || i >= size() || !IsValidSetting((*table_)[i], value)) return false;
  values_[i] = value;
  return true;
}


double SettingValues::Get(std::string_view name) const {
  const int i = Find(name);
  assert(i >= 0 && "unknown setting");
  return i >= 0 ? values_[i] : 0;
}


std::vector<std::string> SettingNames(const SettingValues& values) {
  std::vector<std::string> names;
  for (int i = 0; i < values.size(); ++i) names.emplace_back(values.table()[i].name);
  return names;
}

}  // namespace sim
