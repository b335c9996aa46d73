// Settings of the primal descent solver (seed 000 chapter 5, digest pd-sdf-robotics.md §1.8,
// §1.11): its typed struct and the descriptor table the scene reader, `--set`, the run report,
// the studio's solver panel and docs/scene-format.md read (settings_table.h).
#pragma once

#include "engine/core/math.h"
#include "engine/solvers/settings_table.h"

namespace sim {

struct SolverOptions;

/// How the descent direction P d is preconditioned (§1.3).
enum class PrimalPreconditioner {
  /// per body the 6×6 block M + Σ Hessian approximations, inverted (the digest's suggestion for
  /// "invert blockwise"): couplings within a body (normal against friction, translation against
  /// rotation) are solved exactly
  kBlock = 0,
  /// per DOF 1/(M_dd + Σ H_dd), the thesis's P^D of eq. (116): what its GPU kernels do
  kDiagonal,
};

/// Which normal force bounds a contact's relaxed friction (the f_n of eq. (132), a constant
/// parameter of each evaluation).
enum class PrimalFrictionNormal {
  /// the contact's normal force at the end of the previous step (IPC's lagged friction), the
  /// current iterate's for a new contact: the first iterates' penalty force, from the
  /// unconstrained ũ, is many times the weight and would clamp a sliding contact to rest
  kPreviousStep = 0,
  /// the current iterate's (the thesis's "lagged from the previous iteration")
  kIterate,
};

struct PrimalSettings {
  /// descent iterations per substep, a fixed count as in the thesis (Table 3: 15-100)
  int iterations = 20;
  int substeps = 1;  ///< the step Δt split into this many Algorithm 2 solves (Table 3 "Steps")
  Real step = 0.5;   ///< α of eq. (108), fixed, no line search (§1.8: 0.5)
  /// k_n of the penalty U_n = (k_n/p)|min(0, C_n)|^p, eq. (129) [N/m^(p−1)]
  Real contact_stiffness = 1e8;
  Real penalty_exponent = 2;  ///< p of eq. (129) ("often 2")
  /// k_f of the stick region, eq. (132), on the slip over the step Δt·Dᵀu [N/m]
  Real friction_stiffness = 1e8;
  PrimalPreconditioner preconditioner = PrimalPreconditioner::kBlock;
  PrimalFrictionNormal friction_normal = PrimalFrictionNormal::kPreviousStep;
  /// rigid joint, coupling and attachment rows as the potential ½kC² (the primal form has no
  /// hard constraints, §1.13) [N/m or N·m/rad]
  Real joint_stiffness = 1e8;
  /// kStepUnconverged when the last iteration still changed some velocity by more than this,
  /// i.e. the remaining preconditioned gradient α|P d| [m/s]
  Real unconverged_velocity = 0.1;
};

/// The descriptor table of the primal descent solver's settings.
const SettingsTable& PrimalSettingsTable();

/// The primal settings of `options` (its defaults where the options have none).
PrimalSettings ReadPrimalSettings(const SolverOptions& options);

}  // namespace sim
