#include "engine/io/overrides.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

namespace sim::io {

namespace {

constexpr Real kInf = std::numeric_limits<Real>::infinity();
// the scene loader's bounds: a dt beyond 0.1 s is never meant for contact-rich simulation, and
// gravity components beyond 1e4 m/s² are typos
constexpr Real kMaxDt = 0.1;
constexpr Real kMaxGravity = 1e4;
// iteration budgets above this are typos, not experiments (the paper uses 4-8 and 10-80)
constexpr int kMaxIterations = 1000000;

std::string Join(const std::vector<std::string>& items, const char* separator = ", ") {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}


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
bool ParseReal(const std::string& text, Real* out) {
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
  if (!ParseReal(text, &value)) return false;
  if (lo_open ? value <= lo : value < lo) return false;
  if (value > hi) return false;
  *out = value;
  return true;
}


bool ParsePositiveInt(const std::string& text, int* out) {
  const std::string trimmed = Trim(text);
  int value = 0;
  const auto [end, error] = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), value);
  if (error != std::errc() || end != trimmed.data() + trimmed.size()) return false;
  if (value < 1 || value > kMaxIterations) return false;
  *out = value;
  return true;
}


bool ParseBool(const std::string& text, bool* out) {
  const std::string trimmed = Trim(text);
  if (trimmed == "true" || trimmed == "1") {
    *out = true;
  } else if (trimmed == "false" || trimmed == "0") {
    *out = false;
  } else {
    return false;
  }
  return true;
}


// the enum value whose name is `text`, using the model's own name function
template <typename Enum, std::size_t N>
bool ParseChoice(const std::string& text, const Enum (&values)[N], const char* (*name)(Enum),
                 Enum* out) {
  for (Enum value : values) {
    if (Trim(text) == name(value)) {
      *out = value;
      return true;
    }
  }
  return false;
}


template <typename Enum, std::size_t N>
std::string ChoiceList(const Enum (&values)[N], const char* (*name)(Enum)) {
  std::vector<std::string> names;
  for (Enum value : values) names.push_back(name(value));
  return Join(names);
}


constexpr LinearSolverKind kLinearSolvers[] = {
    LinearSolverKind::kPcr, LinearSolverKind::kPcg, LinearSolverKind::kJacobi,
    LinearSolverKind::kGaussSeidel, LinearSolverKind::kDirect};
constexpr NcpFunction kNcpFunctions[] = {NcpFunction::kFischerBurmeister, NcpFunction::kMinMap};
constexpr ComplementarityScaling kScalings[] = {ComplementarityScaling::kEffectiveMass,
                                                ComplementarityScaling::kIdentity,
                                                ComplementarityScaling::kTimeStepSquared};
constexpr FemComplianceMode kComplianceModes[] = {FemComplianceMode::kProjected,
                                                  FemComplianceMode::kDiagonal};
constexpr FemPreconditioner kFemPreconditioners[] = {FemPreconditioner::kJacobi,
                                                     FemPreconditioner::kWoodbury};


// solver.<field>: returns false with `*expected` set when the value is bad, and sets nothing
// when `field` is unknown (then `*known` is false)
bool ApplySolverField(const std::string& field, const std::string& value, SolverSettings* s,
                      bool* known, std::string* expected) {
  *known = true;
  if (field == "dt") {
    *expected = "a time step in (0, 0.1] s";
    return ParseRealIn(value, 0, true, kMaxDt, &s->dt);
  }
  if (field == "newton_iterations" || field == "linear_iterations") {
    *expected = "a positive integer";
    return ParsePositiveInt(
        value, field == "newton_iterations" ? &s->newton_iterations : &s->linear_iterations);
  }
  if (field == "linear_solver") {
    *expected = "one of " + ChoiceList(kLinearSolvers, LinearSolverName);
    return ParseChoice(value, kLinearSolvers, LinearSolverName, &s->linear_solver);
  }
  if (field == "ncp") {
    *expected = "one of " + ChoiceList(kNcpFunctions, NcpFunctionName);
    return ParseChoice(value, kNcpFunctions, NcpFunctionName, &s->ncp);
  }
  if (field == "preconditioner") {
    *expected = "one of " + ChoiceList(kScalings, ScalingName);
    return ParseChoice(value, kScalings, ScalingName, &s->preconditioner);
  }
  if (field == "damping") {
    *expected = "a step fraction in (0, 1]";
    return ParseRealIn(value, 0, true, 1, &s->damping);
  }
  if (field == "line_search" || field == "geometric_stiffness" || field == "warm_start" ||
      field == "fem_shear_rows") {
    *expected = "one of true, false, 1, 0";
    bool* target = field == "line_search"           ? &s->line_search
                   : field == "geometric_stiffness" ? &s->geometric_stiffness
                   : field == "fem_shear_rows"      ? &s->fem_shear_rows
                                                    : &s->warm_start;
    return ParseBool(value, target);
  }
  if (field == "regularization") {
    *expected = "a number >= 0 (1/kg)";
    return ParseRealIn(value, 0, false, kInf, &s->regularization);
  }
  if (field == "contact_margin") {
    *expected = "a distance >= 0 m";
    return ParseRealIn(value, 0, false, kInf, &s->contact_margin);
  }
  if (field == "fem_compliance") {
    *expected = "one of " + ChoiceList(kComplianceModes, FemComplianceModeName);
    return ParseChoice(value, kComplianceModes, FemComplianceModeName, &s->fem_compliance);
  }
  if (field == "fem_preconditioner") {
    *expected = "one of " + ChoiceList(kFemPreconditioners, FemPreconditionerName);
    return ParseChoice(value, kFemPreconditioners, FemPreconditionerName, &s->fem_preconditioner);
  }
  *known = false;
  return false;
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


const std::vector<std::string>& OverridePaths() {
  static const std::vector<std::string> kPaths = {"solver.dt",
                                                  "solver.newton_iterations",
                                                  "solver.linear_iterations",
                                                  "solver.linear_solver",
                                                  "solver.ncp",
                                                  "solver.preconditioner",
                                                  "solver.damping",
                                                  "solver.line_search",
                                                  "solver.regularization",
                                                  "solver.geometric_stiffness",
                                                  "solver.contact_margin",
                                                  "solver.warm_start",
                                                  "solver.fem_compliance",
                                                  "solver.fem_shear_rows",
                                                  "solver.fem_preconditioner",
                                                  "gravity",
                                                  "materials.<name>.friction",
                                                  "materials.<name>.density"};
  return kPaths;
}


Diagnostics ApplyOverride(const std::string& assignment, Model* model) {
  const std::size_t equals = assignment.find('=');
  if (equals == std::string::npos) {
    Diagnostics diagnostics;
    diagnostics.Error("--set " + assignment, 0, "",
                      "expected PATH=VALUE, with PATH one of: " + Join(OverridePaths()));
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

  // solver.<field>: validated on a copy so that a bad value changes nothing
  if (path.starts_with("solver.")) {
    SolverSettings settings = model->options.solver;
    bool known = false;
    std::string expected;
    if (ApplySolverField(path.substr(7), value, &settings, &known, &expected)) {
      model->options.solver = settings;
    } else if (known) {
      bad_value(expected);
    } else {
      diagnostics.Error(source, 0, "",
                        "unknown path '" + path + "' (supported: " + Join(OverridePaths()) + ")");
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
    if ((field == "friction" || field == "density") && material < 0) {
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
                    "unknown path '" + path + "' (supported: " + Join(OverridePaths()) + ")");
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
  for (const std::string& assignment : config.overrides) {
    const std::size_t equals = assignment.find('=');
    diagnostics.Append(ApplyOverride(Trim(assignment.substr(0, equals)),
                                     assignment.substr(equals + 1), "--solvers " + config.label,
                                     model));
  }
  if (!config.solver.empty()) model->options.solver.name = config.solver;
  return diagnostics;
}

}  // namespace sim::io
