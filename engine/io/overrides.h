// Command-line overrides of a loaded scene (`contact-sim run --set PATH=VALUE`) and the solver
// configurations of `compare` and `bench` (`nsn:linear_solver=jacobi;ncp=min`).
//
// Only values that a loaded Model reads at step time can be overridden: the solver settings,
// gravity and material friction. Densities were already turned into body masses and inertias when
// the scene was built, so `materials.<name>.density` is recognized but rejected with a message
// that says so (change it in the scene file instead).
#pragma once

#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/model/model.h"

namespace sim::io {

/// The paths ApplyOverride knows for `model`, in the order help texts list them: every solver
/// setting of the step and the running solver, "solver.<solver>.<setting>" for the others
/// (engine/solvers/solver_options.h), gravity and material friction.
std::vector<std::string> OverridePaths(const Model& model);

/// Applies one `PATH=VALUE` assignment to `*model` (a copy: the scene's Model is shared read-only).
/// Supported paths: solver.name, solver.<setting> with the range of its descriptor (the same
/// tables as the scene reader), gravity x,y,z m/s², materials.<name>.friction ≥ 0.
/// Returns errors (source `--set PATH=VALUE`, line 0) naming the bad value and the valid choices
/// or range; `*model` is left unchanged on error.
Diagnostics ApplyOverride(const std::string& assignment, Model* model);

/// Same with the path and value already split; `source` names the flag in diagnostics (for
/// example "--dt 0.5" when `--dt` is turned into solver.dt).
Diagnostics ApplyOverride(const std::string& path, const std::string& value,
                          const std::string& source, Model* model);

/// One entry of `--solvers`: a solver name, optionally with solver settings, e.g.
/// `nsn:linear_solver=jacobi;ncp=min`.
struct SolverConfig {
  std::string label;                   ///< the entry as written, used in tables and reports
  std::string solver;                  ///< solver name ("nsn"); empty means the scene's solver
  std::vector<std::string> overrides;  ///< full assignments: "solver.linear_solver=jacobi", ...
};

/// Parses a comma-separated `--solvers` list. Each entry is `NAME` or `NAME:KEY=VALUE;KEY=VALUE`
/// with KEY a solver setting without the `solver.` prefix. Errors name the entry (source
/// `--solvers`). An empty list gives one config for the scene's own solver.
Expected<std::vector<SolverConfig>> ParseSolverConfigs(const std::string& list);

/// Applies a config to `*model`: its settings overrides, then the solver name.
Diagnostics ApplySolverConfig(const SolverConfig& config, Model* model);

}  // namespace sim::io
