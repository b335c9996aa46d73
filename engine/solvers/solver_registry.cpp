#include "engine/solvers/solver_registry.h"

#include "engine/model/model.h"
#include "engine/solvers/solver.h"
#include "engine/solvers/solver_options.h"

namespace sim {


SolverOptions::SolverOptions() {
  for (const SolverInfo* info : SolverRegistry()) {
    solvers.emplace_back(std::string(info->name), SettingValues(info->settings()));
  }
  if (!SolverRegistry().empty()) name = std::string(SolverRegistry().front()->name);
}


const SolverInfo* FindSolver(std::string_view name) {
  for (const SolverInfo* info : SolverRegistry()) {
    if (info->name == name) return info;
  }
  return nullptr;
}


std::vector<std::string> AvailableSolvers() {
  std::vector<std::string> names;
  for (const SolverInfo* info : SolverRegistry()) names.emplace_back(info->name);
  return names;
}


bool SolverClaims(std::string_view name, unsigned features) {
  const SolverInfo* info = FindSolver(name);
  return info != nullptr && (info->features & features) == features;
}


bool IsPlannedSolver(std::string_view name) {
  for (std::string_view planned : {"add", "lcp"}) {
    if (name == planned) return true;
  }
  return false;
}


Diagnostics CheckSolverSupports(const SolverInfo& solver, const Model& model) {
  Diagnostics diagnostics;
  const auto refuse = [&](const std::string& what) {
    diagnostics.Error(model.name, 0, "",
                      "solver '" + std::string(solver.name) + "' does not support " + what +
                          " (this scene has them; use a solver that does, e.g. nsn)");
  };
  if (model.tet_count() > 0 && !(solver.features & kFeatureSoftBodies)) {
    refuse("soft bodies (tetrahedral FEM)");
  }
  if (model.particle_count() > 0 && model.tet_count() == 0 &&
      !(solver.features & kFeatureParticles)) {
    refuse("particles");
  }
  if (model.joint_count() > 0 && !(solver.features & kFeatureJoints)) refuse("joints");
  if (solver.check != nullptr) diagnostics.Append(solver.check(model));
  if (model.options.solver.integrator == Integrator::kBdf2 &&
      !(solver.features & kFeatureSecondOrder)) {
    diagnostics.Error(model.name, 0, "",
                      "solver '" + std::string(solver.name) +
                          "' does not support solver.integrator = bdf2 (its velocity-level step "
                          "keeps energy with bdf1; use bdf1, or a solver that does, e.g. nsn)");
  }
  return diagnostics;
}


Expected<std::unique_ptr<Solver>> MakeSolver(const std::string& name, const Model& model) {
  if (const SolverInfo* info = FindSolver(name)) {
    Diagnostics unsupported = CheckSolverSupports(*info, model);
    if (unsupported.has_errors()) return unsupported;
    return Expected<std::unique_ptr<Solver>>(info->make(model));
  }
  Diagnostics diagnostics;
  std::string known;
  for (const std::string& n : AvailableSolvers()) known += (known.empty() ? "" : ", ") + n;
  diagnostics.Error(
      "solver", 0, "",
      "solver '" + name + "' " +
          (IsPlannedSolver(name) ? "is not available in this version" : "is unknown") +
          " (available: " + known + ")");
  return diagnostics;
}

}  // namespace sim
