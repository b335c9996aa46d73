#include "engine/solvers/solver_options.h"

#include "engine/solvers/solver_registry.h"

namespace sim {
namespace {

// the step's settings, bound to SolverOptions (one list, as every solver's)
const std::vector<BoundSetting<SolverOptions>>& StepBound() {
  // a time step beyond 0.1 s is never meant for contact-rich simulation; below 1 µs a second of
  // simulation is a million steps
  static const std::vector<BoundSetting<SolverOptions>> kBound = {
      {{"dt", "Time step", SettingKind::kReal, 1.0 / 120.0, 1e-6, 0.1, false, "s",
        "time step (two steps per 60 Hz frame by default)"},
       SIM_SETTING_FIELD(SolverOptions, dt)},
      {{"contact_margin", "Contact margin", SettingKind::kReal, 0.01, 0, 1, false, "m",
        "contacts are created below this gap"},
       SIM_SETTING_FIELD(SolverOptions, contact_margin)},
      {{"restitution_threshold", "Restitution threshold", SettingKind::kReal, 0.1, 0, 100, false,
        "m/s", "impacts bounce only when the restitution's separating speed is above this"},
       SIM_SETTING_FIELD(SolverOptions, restitution_threshold)},
      {{"integrator",
        "Integrator",
        SettingKind::kChoice,
        0,
        0,
        0,
        false,
        "",
        "bdf1: backward Euler (damps swinging); bdf2: second order, keeps energy, backward Euler "
        "around impacts",
        {"bdf1", "bdf2"}},
       SIM_SETTING_FIELD(SolverOptions, integrator)},
  };
  return kBound;
}


std::string Escaped(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}


// one markdown table of a settings table
std::string TableMarkdown(const SettingsTable& table) {
  std::string text =
      "| setting | type | default | range | unit | meaning |\n|---|---|---|---|---|---|\n";
  for (const SettingDescriptor& d : table) {
    static constexpr const char* kKinds[] = {"number", "integer", "bool", "choice"};
    std::string range;
    if (d.kind == SettingKind::kReal || d.kind == SettingKind::kInt) {
      range = std::string(d.min_exclusive ? "(" : "[") + SettingText(d, d.min) + ", " +
              SettingText(d, d.max) + "]";
    } else if (d.kind == SettingKind::kChoice) {
      for (std::string_view choice : d.choices) {
        range += (range.empty() ? "" : ", ") + std::string(choice);
      }
    }
    text += "| `" + std::string(d.name) + "` | " + kKinds[static_cast<int>(d.kind)] + " | " +
            SettingText(d, d.default_value) + " | " + Escaped(range) + " | " + std::string(d.unit) +
            " | " + Escaped(d.help) + " |\n";
  }
  return text;
}

}  // namespace


const SettingsTable& StepSettingsTable() {
  static const SettingsTable kTable = DescriptorsOf(StepBound());
  return kTable;
}


double StepSettingValue(const SolverOptions& options, int i) {
  return StepBound()[i].load(options);
}


int FindStepSetting(std::string_view name) {
  const SettingsTable& step = StepSettingsTable();
  for (int i = 0; i < static_cast<int>(step.size()); ++i) {
    if (step[i].name == name) return i;
  }
  return -1;
}


void SetStepSettingValue(int i, double value, SolverOptions* options) {
  StepBound()[i].store(*options, value);
}


const SettingValues* SolverOptions::Find(std::string_view solver) const {
  for (const auto& [solver_name, values] : solvers) {
    if (solver_name == solver) return &values;
  }
  return nullptr;
}


SettingValues* SolverOptions::Find(std::string_view solver) {
  for (auto& [solver_name, values] : solvers) {
    if (solver_name == solver) return &values;
  }
  return nullptr;
}


SettingUpdate SetSettingText(std::string_view path, std::string_view text, SolverOptions* options,
                             std::string* expected) {
  if (path == "name") {
    std::string names;
    for (const std::string& name : AvailableSolvers()) names += (names.empty() ? "" : ", ") + name;
    *expected = "one of: " + names;
    if (FindSolver(text) == nullptr) return SettingUpdate::kBadValue;
    options->name = std::string(text);
    return SettingUpdate::kApplied;
  }
  // the step's own settings
  if (const int i = FindStepSetting(path); i >= 0) {
    const SettingDescriptor& descriptor = StepSettingsTable()[i];
    *expected = ExpectedText(descriptor);
    double value = 0;
    if (!ParseSetting(descriptor, text, &value)) return SettingUpdate::kBadValue;
    SetStepSettingValue(i, value, options);
    return SettingUpdate::kApplied;
  }
  // "<solver>.<setting>", or a setting of the running solver
  SettingValues* values = options->Find(options->name);
  std::string_view setting = path;
  if (const std::size_t dot = path.find('.'); dot != std::string_view::npos) {
    values = options->Find(path.substr(0, dot));
    setting = path.substr(dot + 1);
  }
  const int i = values != nullptr ? values->Find(setting) : -1;
  if (i < 0) return SettingUpdate::kUnknownPath;
  const SettingDescriptor& descriptor = values->table()[i];
  *expected = ExpectedText(descriptor);
  double value = 0;
  if (!ParseSetting(descriptor, text, &value)) return SettingUpdate::kBadValue;
  values->Set(i, value);
  return SettingUpdate::kApplied;
}


std::vector<std::string> SettingPaths(const SolverOptions& options) {
  std::vector<std::string> paths = {"name"};
  for (const SettingDescriptor& d : StepSettingsTable()) paths.emplace_back(d.name);
  for (const auto& [solver, values] : options.solvers) {
    const std::string prefix = solver == options.name ? "" : solver + ".";
    for (const SettingDescriptor& d : values.table()) paths.push_back(prefix + std::string(d.name));
  }
  return paths;
}


std::vector<std::pair<std::string, std::string>> SettingTexts(const SolverOptions& options) {
  std::vector<std::pair<std::string, std::string>> texts = {{"name", options.name}};
  const SettingsTable& step = StepSettingsTable();
  for (int i = 0; i < static_cast<int>(step.size()); ++i) {
    texts.emplace_back(std::string(step[i].name),
                       SettingText(step[i], StepSettingValue(options, i)));
  }
  if (const SettingValues* values = options.Find(options.name)) {
    for (int i = 0; i < values->size(); ++i) {
      const SettingDescriptor& d = values->table()[i];
      texts.emplace_back(std::string(d.name), SettingText(d, (*values)[i]));
    }
  }
  return texts;
}


std::string SettingsMarkdown() {
  std::string text = "Step settings (every solver):\n\n" + TableMarkdown(StepSettingsTable());
  for (const SolverInfo* info : SolverRegistry()) {
    text += "\n`" + std::string(info->name) + "`: " + std::string(info->summary) + "\n\n" +
            TableMarkdown(info->settings());
  }
  return text;
}

}  // namespace sim
