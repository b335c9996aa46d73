#include "engine/solvers/dual/dual_settings.h"

#include "engine/solvers/solver_options.h"

namespace sim {
namespace {

const std::vector<BoundSetting<DualSettings>>& DualBound() {
  using K = SettingKind;
  static const std::vector<BoundSetting<DualSettings>> kBound = {
      {{"iterations", "Iterations", K::kInt, 20, 1, 100000, false, "",
        "Jacobi iterations on the multipliers per substep, a fixed count (thesis Table 3: "
        "15-100)"},
       SIM_SETTING_FIELD(DualSettings, iterations)},
      {{"substeps", "Substeps", K::kInt, 1, 1, 1000, false, "",
        "the step split into this many solves, contacts from one collision pass (Table 3)"},
       SIM_SETTING_FIELD(DualSettings, substeps)},
      {{"step", "Step length", K::kReal, 1, 0, 2, false, "",
        "alpha of the multiplier update on top of the mass splitting (1: plain XPBD)"},
       SIM_SETTING_FIELD(DualSettings, step)},
      {{"mass_splitting", "Mass splitting", K::kBool, 1, 0, 0, false, "",
        "split each body's mass between the constraints acting on it (Tonge et al.), so "
        "simultaneous Jacobi updates do not overshoot"},
       SIM_SETTING_FIELD(DualSettings, mass_splitting)},
      {{"contact_compliance", "Contact compliance", K::kReal, 0, 0, 1, false, "m/N",
        "inverse stiffness of the contact normal rows; 0 is hard contact"},
       SIM_SETTING_FIELD(DualSettings, contact_compliance)},
      {{"unconverged_velocity", "Unconverged: residual speed", K::kReal, 0.1, 0, 1e6, true, "m/s",
        "report a step unconverged when a row is still violated by more than this over the "
        "substep"},
       SIM_SETTING_FIELD(DualSettings, unconverged_velocity)},
  };
  return kBound;
}

}  // namespace


const SettingsTable& DualSettingsTable() {
  static const SettingsTable kTable = DescriptorsOf(DualBound());
  return kTable;
}


DualSettings ReadDualSettings(const SolverOptions& options) {
  return StoreSettings(DualBound(), options.Find("dual"));
}

}  // namespace sim
