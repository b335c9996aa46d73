#include "engine/solvers/primal/primal_settings.h"

#include "engine/solvers/solver_options.h"

namespace sim {
namespace {

const std::vector<BoundSetting<PrimalSettings>>& PrimalBound() {
  using K = SettingKind;
  static const std::vector<BoundSetting<PrimalSettings>> kBound = {
      {{"iterations", "Iterations", K::kInt, 20, 1, 100000, false, "",
        "preconditioned descent iterations per substep, a fixed count (thesis Table 3: 15-100)"},
       SIM_SETTING_FIELD(PrimalSettings, iterations)},
      {{"substeps", "Substeps", K::kInt, 1, 1, 1000, false, "",
        "the step split into this many solves, contacts from one collision pass (Table 3)"},
       SIM_SETTING_FIELD(PrimalSettings, substeps)},
      {{"step", "Step length", K::kReal, 0.5, 0, 1, true, "",
        "fixed step alpha of the descent u <- u - alpha P d (the thesis's 0.5, no line search)"},
       SIM_SETTING_FIELD(PrimalSettings, step)},
      {{"contact_stiffness", "Contact stiffness", K::kReal, 1e8, 0, 1e15, true, "N/m",
        "k_n of the implicit penalty (k_n/p)|min(0, C_n)|^p (thesis 1e4-1e8)"},
       SIM_SETTING_FIELD(PrimalSettings, contact_stiffness)},
      {{"penalty_exponent", "Penalty exponent", K::kReal, 2, 2, 8, false, "",
        "p of the penalty: 2 gives a C1 contact force, 3 a C2 one"},
       SIM_SETTING_FIELD(PrimalSettings, penalty_exponent)},
      {{"friction_stiffness", "Friction stiffness", K::kReal, 1e8, 0, 1e15, true, "N/m",
        "k_f of the relaxed Coulomb friction's stick region on the slip over a step: a sticking "
        "contact creeps by f/k_f per step"},
       SIM_SETTING_FIELD(PrimalSettings, friction_stiffness)},
      {{"preconditioner",
        "Preconditioner",
        K::kChoice,
        0,
        0,
        0,
        false,
        "",
        "per-body 6x6 blocks inverted, or the thesis's per-DOF diagonal (slower with stiffness "
        "ratios within a body)",
        {"block", "diagonal"}},
       SIM_SETTING_FIELD(PrimalSettings, preconditioner)},
      {{"friction_normal",
        "Friction normal force",
        K::kChoice,
        0,
        0,
        0,
        false,
        "",
        "the normal force bounding friction: the previous step's (a sliding contact slides) or "
        "the current iterate's as in the thesis (its first iterates clamp sliding to rest)",
        {"previous_step", "iterate"}},
       SIM_SETTING_FIELD(PrimalSettings, friction_normal)},
      {{"joint_stiffness", "Joint stiffness", K::kReal, 1e8, 0, 1e15, true, "N/m",
        "rigid joint, coupling and attachment rows as the potential k C^2 / 2 (N*m/rad for "
        "rotations): the primal form has no hard constraints"},
       SIM_SETTING_FIELD(PrimalSettings, joint_stiffness)},
      {{"unconverged_velocity", "Unconverged: velocity change", K::kReal, 0.1, 0, 1e6, true, "m/s",
        "report a step unconverged when its last iteration still moved a velocity by more"},
       SIM_SETTING_FIELD(PrimalSettings, unconverged_velocity)},
  };
  return kBound;
}

}  // namespace


const SettingsTable& PrimalSettingsTable() {
  static const SettingsTable kTable = DescriptorsOf(PrimalBound());
  return kTable;
}


PrimalSettings ReadPrimalSettings(const SolverOptions& options) {
  return StoreSettings(PrimalBound(), options.Find("primal"));
}

}  // namespace sim
