// The solver options of a scene: which solver runs it, the step's own settings (time step and
// contact margin, shared by every solver) and every registered solver's settings as the values
// of its descriptor table (settings_table.h, solver_registry.h). A model carries the settings of
// all solvers, so switching solver live or comparing solvers side by side keeps each one's.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/math.h"
#include "engine/solvers/settings_table.h"

namespace sim {

/// Time integration of the step (architecture §3): backward Euler (BDF1, first order, damps
/// oscillations: a swinging arm loses energy in proportion to Δt) or BDF2 (second order, nearly
/// conservative; restarts with backward Euler around impacts, engine/step/integrator.h).
enum class Integrator : unsigned char { kBdf1 = 0, kBdf2 };

struct SolverOptions {
  /// The name of the running solver and the defaults of every registered solver.
  SolverOptions();

  std::string name = "nsn";    ///< the running solver (architecture §3)
  Real dt = 1.0 / 120.0;       ///< time step [s]
  Real contact_margin = 0.01;  ///< contacts are created below this gap [m]
  /// impacts bounce (restitution) only above this separating speed e·v_approach [m/s]
  Real restitution_threshold = 0.1;
  Integrator integrator = Integrator::kBdf1;
  /// Each registered solver's settings, in registry order.
  std::vector<std::pair<std::string, SettingValues>> solvers;

  /// The settings of `solver`, or nullptr when no such solver is registered.
  const SettingValues* Find(std::string_view solver) const;
  SettingValues* Find(std::string_view solver);
  /// The running solver's settings.
  const SettingValues& current() const { return *Find(name); }
  SettingValues& current() { return *Find(name); }

  /// A setting of the running solver (which must have it).
  double Get(std::string_view setting) const { return current().Get(setting); }
  /// Sets a setting of the running solver; false (nothing changed) when it has no such setting
  /// or the value is out of its range.
  template <typename T>
  bool Set(std::string_view setting, T value) {
    return current().Set(setting, value);
  }
};

/// The step's own settings (dt, contact_margin) as a descriptor table.
const SettingsTable& StepSettingsTable();

/// Index of the step's setting `name` in StepSettingsTable(), or −1.
int FindStepSetting(std::string_view name);

/// The value of entry i of StepSettingsTable() in `options`, and its assignment (a value the
/// descriptor accepts).
double StepSettingValue(const SolverOptions& options, int i);
void SetStepSettingValue(int i, double value, SolverOptions* options);

/// Result of SetSettingText.
enum class SettingUpdate { kApplied = 0, kUnknownPath, kBadValue };

/// Sets the setting at `path` from text, validated against its descriptor (nothing changes on
/// failure). Paths: "name" (a registered solver), "dt", "contact_margin", "<setting>" of the
/// running solver, or "<solver>.<setting>". `*expected` says what the setting accepts.
SettingUpdate SetSettingText(std::string_view path, std::string_view text, SolverOptions* options,
                             std::string* expected);

/// Every path SetSettingText accepts, "<solver>.<setting>" for the solvers that do not run.
std::vector<std::string> SettingPaths(const SolverOptions& options);

/// (path, text) of the step's settings and the running solver's, in table order (reports).
std::vector<std::pair<std::string, std::string>> SettingTexts(const SolverOptions& options);

/// The settings of every solver as markdown tables (docs/scene-format.md is checked against it).
std::string SettingsMarkdown();

}  // namespace sim
