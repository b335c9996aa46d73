#include "engine/solvers/pgs/pgs_settings.h"

#include "engine/solvers/solver_options.h"

namespace sim {
namespace {

const std::vector<BoundSetting<PgsSettings>>& PgsBound() {
  using K = SettingKind;
  static const std::vector<BoundSetting<PgsSettings>> kBound = {
      {{"iterations", "Sweeps", K::kInt, 20, 1, 10000, false, "",
        "Gauss-Seidel sweeps over all rows per step (Bullet 10, ODE 20)"},
       SIM_SETTING_FIELD(PgsSettings, iterations)},
      {{"max_iterations", "Sweeps, most", K::kInt, 60, 1, 10000, false, "",
        "more sweeps, up to this many, while a sweep still changes a row's velocity by more than "
        "extra_sweep_tolerance"},
       SIM_SETTING_FIELD(PgsSettings, max_iterations)},
      {{"extra_sweep_tolerance", "Extra sweep tolerance", K::kReal, 1e-5, 0, 1e6, true, "m/s",
        "velocity change of a sweep under which no extra sweep runs"},
       SIM_SETTING_FIELD(PgsSettings, extra_sweep_tolerance)},
      {{"warm_start", "Warm start", K::kBool, 1, 0, 0, false, "",
        "start from the last step's impulses, matched by contact feature and joint row"},
       SIM_SETTING_FIELD(PgsSettings, warm_start)},
      {{"position_correction",
        "Position correction",
        K::kChoice,
        1,
        0,
        0,
        false,
        "",
        "penetration removed by a velocity bias (Baumgarte) or a pseudo-velocity solve (split "
        "impulse)",
        {"baumgarte", "split_impulse"}},
       SIM_SETTING_FIELD(PgsSettings, position_correction)},
      {{"baumgarte", "Baumgarte factor", K::kReal, 0.2, 0, 1, false, "",
        "fraction of the penetration and joint error removed per step (Baumgarte factor)"},
       SIM_SETTING_FIELD(PgsSettings, baumgarte)},
      {{"slop", "Penetration slop", K::kReal, 0.0005, 0, 0.1, false, "m",
        "penetration left uncorrected, against jitter"},
       SIM_SETTING_FIELD(PgsSettings, slop)},
      {{"tolerance", "Tolerance", K::kReal, 0, 0, 1e6, false, "N*s",
        "stop sweeping when no impulse changes more than this (0: always run every sweep)"},
       SIM_SETTING_FIELD(PgsSettings, tolerance)},
      {{"unconverged_velocity", "Unconverged: velocity error", K::kReal, 0.1, 0, 1e6, true, "m/s",
        "report a step unconverged when its last sweep met a row residual above this"},
       SIM_SETTING_FIELD(PgsSettings, unconverged_velocity)},
  };
  return kBound;
}

}  // namespace


const SettingsTable& PgsSettingsTable() {
  static const SettingsTable kTable = DescriptorsOf(PgsBound());
  return kTable;
}


PgsSettings ReadPgsSettings(const SolverOptions& options) {
  return StoreSettings(PgsBound(), options.Find("pgs"));
}

}  // namespace sim
