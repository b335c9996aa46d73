// Settings of the position-based frictional articulated integrator (seed 003, digest
// add-and-pbti.md §B.12, §C.3): its typed struct and the descriptor table the scene reader,
// `--set`, the run report, the studio's solver panel and docs/scene-format.md read
// (settings_table.h).
#pragma once

#include "engine/core/math.h"
#include "engine/solvers/settings_table.h"

namespace sim {

struct SolverOptions;

/// f^∥ of eq. (12): as printed, ‖Δp_t‖^β (the paper's smoothness claim holds for it), or the
/// exact gradient of eq. (11), ‖Δp_t‖^(β−1) (digest §B.5 erratum).
enum class PbtiFrictionForm { kPrinted = 0, kExactGradient };

struct PbtiSettings {
  /// C^⊥ of the normal force C^⊥ d^α [N/m^α]; the paper tunes it per scene and reports none
  Real normal_stiffness = 1e7;
  Real normal_exponent = 2;    ///< α (> 1 for P^⊥ ∈ C²)
  Real friction_exponent = 1;  ///< β (> 0)
  Real depth_exponent = 1;     ///< γ (> 0)
  /// C^∥ per unit Coulomb μ of the contact [N/m^(β+γ+2)]: each contact's C^∥ is this times its
  /// material μ, so frictionless materials stay frictionless (ours; the paper has no μ)
  Real friction_scale = 1e12;
  PbtiFrictionForm friction_form = PbtiFrictionForm::kPrinted;
  /// stiffness of a violated joint limit, a penalty ½ k c² (ours; the paper has no limits)
  /// [N·m/rad or N/m]
  Real limit_stiffness = 1e5;
  /// difference the columns of G in groups that share no row (exact: the other rows are
  /// structurally zero); off, one pair of residual evaluations per coordinate
  bool grouped_differences = true;
  int iterations = 50;       ///< most Levenberg-Marquardt iterations per step
  Real damping = 1e-3;       ///< λ of eq. (14) at the first iteration, relative to max diag(GᵀG)
  Real damping_factor = 10;  ///< λ is divided by this after a decrease of GE, multiplied after none
  /// the step ends when ‖g‖∞ is below this fraction of the bodies' weight Σ m |g|
  Real tolerance = 1e-8;
  /// kStepUnconverged when ‖g‖∞ ends above this fraction of the weight
  Real unconverged_residual = 1e-4;
};

/// The descriptor table of the PBTI solver's settings.
const SettingsTable& PbtiSettingsTable();

/// The PBTI settings of `options` (its defaults where the options have none).
PbtiSettings ReadPbtiSettings(const SolverOptions& options);

}  // namespace sim
