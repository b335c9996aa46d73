#include "engine/io/overrides.h"

#include "engine/io/text_util.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

namespace sim::io {

namespace {

constexpr Real kInf = std::numeric_limits<Real>::infinity();
// gravity components beyond 1e4 m/s² are typos (the scene loader's bound)
constexpr Real kMaxGravity = 1e4;


std::string Trim(const std::string& text) {
  const std::size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  const std::size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}


std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}


// a whole-string finite number (strtod accepts the forms users type: 1e-3, .5, 2)
bool ParseFiniteReal(const std::string& text, Real* out) {
  const std::string trimmed = Trim(text);
  if (trimmed.empty()) return false;
  char* end = nullptr;
  const Real value = std::strtod(trimmed.c_str(), &end);
  if (end != trimmed.c_str() + trimmed.size() || !std::isfinite(value)) return false;
  *out = value;
  return true;
}


// a number in (lo, hi] when lo_open, else [lo, hi]
bool ParseRealIn(const std::string& text, Real lo, bool lo_open, Real hi, Real* out) {
  Real value = 0;
  if (!ParseFiniteReal(text, &value)) return false;
  if (lo_open ? value <= lo : value < lo) return false;
  if (value > hi) return false;
  *out = value;
  return true;
}


// gravity=x,y,z
bool ParseGravity(const std::string& value, Vec3* out) {
  const std::vector<std::string> parts = Split(value, ',');
  if (parts.size() != 3) return false;
  Vec3 g;
  for (int i = 0; i < 3; ++i) {
    if (!ParseRealIn(parts[i], -kMaxGravity, false, kMaxGravity, &g[i])) return false;
  }
  *out = g;
  return true;
}

}  // namespace


std::vector<std::string> OverridePaths(const Model& model) {
  std::vector<std::string> paths;
  for (const std::string& setting : SettingPaths(model.options.solver)) {
    paths.push_back("solver." + setting);
  }
  for (const char* path : {"gravity", "materials.<name>.friction", "materials.<name>.restitution",
                           "materials.<name>.density"}) {
    paths.emplace_back(path);
  }
  return paths;
}


Diagnostics ApplyOverride(const std::string& assignment, Model* model) {
  const std::size_t equals = assignment.find('=');
  if (equals == std::string::npos) {
    Diagnostics diagnostics;
    diagnostics.Error("--set " + assignment, 0, "",
                      "expected PATH=VALUE, with PATH one of: " + Join(OverridePaths(*model)));
    return diagnostics;
  }
  return ApplyOverride(Trim(assignment.substr(0, equals)), assignment.substr(equals + 1),
                       "--set " + assignment, model);
}


Diagnostics ApplyOverride(const std::string& path, const std::string& value,
                          const std::string& source, Model* model) {
  Diagnostics diagnostics;
  auto bad_value = [&](const std::string& expected) {
    diagnostics.Error(source, 0, "", path + " '" + value + "' is not valid: expected " + expected);
  };

  // solver.<setting>: validated against its descriptor (solver_options.h); a bad value changes
  // nothing
  if (path.starts_with("solver.")) {
    std::string expected;
    switch (SetSettingText(path.substr(7), value, &model->options.solver, &expected)) {
      case SettingUpdate::kApplied:
        break;
      case SettingUpdate::kBadValue:
        bad_value(expected);
        break;
      case SettingUpdate::kUnknownPath:
        diagnostics.Error(
            source, 0, "",
            "unknown path '" + path + "' (supported: " + Join(OverridePaths(*model)) + ")");
        break;
    }
    return diagnostics;
  }

  if (path == "gravity") {
    if (!ParseGravity(value, &model->options.gravity)) {
      bad_value("three comma-separated numbers x,y,z in [-1e4, 1e4] m/s^2");
    }
    return diagnostics;
  }

  // materials.<name>.<field>; the name may itself contain dots, the field never does
  const std::size_t last_dot = path.rfind('.');
  if (path.starts_with("materials.") && last_dot > 10) {
    const std::string name = path.substr(10, last_dot - 10);
    const std::string field = path.substr(last_dot + 1);
    const int material = model->FindMaterial(name);
    if ((field == "friction" || field == "restitution" || field == "density") && material < 0) {
      std::vector<std::string> names;
      for (const Material& m : model->materials) names.push_back(m.name);
      diagnostics.Error(source, 0, "",
                        "unknown material '" + name + "' (materials in this scene: " +
                            (names.empty() ? std::string("none") : Join(names)) + ")");
      return diagnostics;
    }
    if (field == "friction") {
      if (!ParseRealIn(value, 0, false, kInf, &model->materials[material].friction)) {
        bad_value("a friction coefficient >= 0");
      }
      return diagnostics;
    }
    if (field == "restitution") {
      if (!ParseRealIn(value, 0, false, 1, &model->materials[material].restitution)) {
        bad_value("a coefficient of restitution in [0, 1]");
      }
      return diagnostics;
    }
    if (field == "density") {
      // masses and inertias were computed from the density when the scene was built
      Real density = 0;
      if (!ParseRealIn(value, 0, true, kInf, &density)) {
        bad_value("a density > 0 kg/m^3");
      } else {
        diagnostics.Error(source, 0, "",
                          path +
                              " cannot be overridden: body masses and inertias were built "
                              "from it when the scene was loaded; change it in the scene file "
                              "(only solver settings, gravity and friction can be overridden)");
      }
      return diagnostics;
    }
  }

  diagnostics.Error(source, 0, "",
                    "unknown path '" + path + "' (supported: " + Join(OverridePaths(*model)) + ")");
  return diagnostics;
}


Expected<std::vector<SolverConfig>> ParseSolverConfigs(const std::string& list) {
  std::vector<SolverConfig> configs;
  Diagnostics diagnostics;
  if (Trim(list).empty()) return std::vector<SolverConfig>{SolverConfig{}};

  // entries are comma-separated; settings after ':' are ';'-separated KEY=VALUE
  for (const std::string& raw : Split(list, ',')) {
    const std::string entry = Trim(raw);
    if (entry.empty()) {
      diagnostics.Error("--solvers " + list, 0, "", "empty entry in the solver list");
      continue;
    }
    SolverConfig config;
    config.label = entry;
    const std::size_t colon = entry.find(':');
    config.solver = Trim(entry.substr(0, colon));
    if (colon != std::string::npos) {
      for (const std::string& raw_setting : Split(entry.substr(colon + 1), ';')) {
        const std::string setting = Trim(raw_setting);
        if (setting.empty()) continue;
        if (setting.find('=') == std::string::npos) {
          diagnostics.Error("--solvers " + entry, 0, "",
                            "setting '" + setting +
                                "' is not KEY=VALUE (KEY a solver setting such as "
                                "linear_solver, ncp, newton_iterations)");
          continue;
        }
        config.overrides.push_back("solver." + setting);
      }
    }
    configs.push_back(std::move(config));
  }
  if (diagnostics.has_errors()) return diagnostics;
  return configs;
}


Diagnostics ApplySolverConfig(const SolverConfig& config, Model* model) {
  Diagnostics diagnostics;
  // the name first: the settings that follow are the named solver's
  if (!config.solver.empty()) model->options.solver.name = config.solver;
  for (const std::string& assignment : config.overrides) {
    const std::size_t equals = assignment.find('=');
    diagnostics.Append(ApplyOverride(Trim(assignment.substr(0, equals)),
                                     assignment.substr(equals + 1), "--solvers " + config.label,
                                     model));
  }
  return diagnostics;
}

}  // namespace sim::io
