// The solvers this build knows. Each solver folder describes itself with one SolverInfo (name,
// summary, what it supports, settings table, factory) and registers it in its CMakeLists.txt
// (sim_register_solver); the list below is generated from those registrations, so adding a
// solver is its own folder plus one add_subdirectory line in engine/solvers/CMakeLists.txt.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/solvers/settings_table.h"

namespace sim {

struct Model;
class Solver;

/// What a solver handles; a scene with more is refused with a located reason, never run wrong.
enum SolverFeature : unsigned {
  kFeatureRigidBodies = 1u << 0,
  kFeatureJoints = 1u << 1,  ///< joints, limits, drives, mimic couplings, joint friction
  kFeatureContacts = 1u << 2,
  kFeatureParticles = 1u << 3,   ///< free particles and attachments
  kFeatureSoftBodies = 1u << 4,  ///< tetrahedral FEM
  /// solver.integrator = bdf2: a fully implicit step whose start may be extrapolated
  /// (engine/step/integrator.h); a velocity-level step (symplectic Euler) goes unstable with it
  kFeatureSecondOrder = 1u << 5,
  /// Contact friction is Coulomb's law with the pair's μ (sticks inside the cone, slides on it).
  /// A claim the shared friction tests check; a scene is not refused without it.
  kFeatureCoulombFriction = 1u << 6,
  /// Impacts bounce with the pair's restitution (contact_material.h). A claim the shared tests
  /// check; a scene is not refused without it.
  kFeatureRestitution = 1u << 7,
};

struct SolverInfo {
  std::string_view name;     ///< as in scene files and --solver ("nsn", "pgs")
  std::string_view summary;  ///< one line: method and source
  unsigned features = 0;     ///< SolverFeature bits
  const SettingsTable& (*settings)();
  std::unique_ptr<Solver> (*make)(const Model& model);
  /// Warnings (or errors) about a model this solver would run poorly; may be null.
  Diagnostics (*check)(const Model& model) = nullptr;
};

/// Every registered solver, in registration order (the first is the default).
const std::vector<const SolverInfo*>& SolverRegistry();

/// The registered solver `name`, or nullptr.
const SolverInfo* FindSolver(std::string_view name);

/// The registered solver `name` claims every bit of `features`.
bool SolverClaims(std::string_view name, unsigned features);

/// Names of the registered solvers.
std::vector<std::string> AvailableSolvers();

/// Solvers of the architecture that this version does not have yet (named in messages).
bool IsPlannedSolver(std::string_view name);

/// Why `solver` cannot run `model` (e.g. FEM on a rigid-body solver), or an empty list.
Diagnostics CheckSolverSupports(const SolverInfo& solver, const Model& model);

/// The solver `name` for `model`, or diagnostics naming the choices or what it does not support.
Expected<std::unique_ptr<Solver>> MakeSolver(const std::string& name, const Model& model);

}  // namespace sim
