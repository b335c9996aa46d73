#include "engine/solvers/pbti/pbti_settings.h"

#include "engine/solvers/solver_options.h"

namespace sim {
namespace {

const std::vector<BoundSetting<PbtiSettings>>& PbtiBound() {
  using K = SettingKind;
  static const std::vector<BoundSetting<PbtiSettings>> kBound = {
      {{"normal_stiffness", "Normal stiffness", K::kReal, 1e7, 0, 1e18, true, "N/m^alpha",
        "C_perp of the normal force C_perp d^alpha on a penetration depth d (eq. 8)"},
       SIM_SETTING_FIELD(PbtiSettings, normal_stiffness)},
      {{"normal_exponent", "Normal exponent", K::kReal, 2, 1, 8, true, "",
        "alpha of the normal force: above 1 for a C2 potential (Lemma 4.2)"},
       SIM_SETTING_FIELD(PbtiSettings, normal_exponent)},
      {{"friction_exponent", "Friction exponent", K::kReal, 1, 0, 8, true, "",
        "beta of the friction force on the step's tangential displacement (eq. 12)"},
       SIM_SETTING_FIELD(PbtiSettings, friction_exponent)},
      {{"depth_exponent", "Depth exponent", K::kReal, 1, 0, 8, true, "",
        "gamma: friction grows with the depth as d^(gamma+1) (eq. 11)"},
       SIM_SETTING_FIELD(PbtiSettings, depth_exponent)},
      {{"friction_scale", "Friction scale", K::kReal, 1e12, 0, 1e24, false, "N/m^(beta+gamma+2)",
        "C_par per unit of the contact's Coulomb mu (eq. 13); calibrated per time step, not a "
        "friction coefficient"},
       SIM_SETTING_FIELD(PbtiSettings, friction_scale)},
      {{"friction_form",
        "Friction form",
        K::kChoice,
        0,
        0,
        0,
        false,
        "",
        "f_par as printed in eq. (12), |dp_t|^beta, or the exact gradient of eq. (11), "
        "|dp_t|^(beta-1)",
        {"printed", "exact_gradient"}},
       SIM_SETTING_FIELD(PbtiSettings, friction_form)},
      {{"limit_stiffness", "Limit stiffness", K::kReal, 1e5, 0, 1e15, false, "N*m/rad",
        "a violated joint limit as the penalty k c^2 / 2 (N/m for prismatic joints)"},
       SIM_SETTING_FIELD(PbtiSettings, limit_stiffness)},
      {{"grouped_differences", "Grouped differences", K::kBool, 1, 0, 0, false, "",
        "difference the columns of G that share no row together (bodies not coupled by a row): "
        "fewer residual evaluations, the same G"},
       SIM_SETTING_FIELD(PbtiSettings, grouped_differences)},
      {{"iterations", "LM iterations", K::kInt, 50, 1, 10000, false, "",
        "most Levenberg-Marquardt iterations on GE per step (eq. 14)"},
       SIM_SETTING_FIELD(PbtiSettings, iterations)},
      {{"damping", "LM damping", K::kReal, 1e-3, 0, 1e12, true, "",
        "lambda of eq. (14) at a step's first iteration, relative to the largest diagonal entry "
        "of G^T G"},
       SIM_SETTING_FIELD(PbtiSettings, damping)},
      {{"damping_factor", "LM damping factor", K::kReal, 10, 1, 1e6, true, "",
        "lambda divided by this after GE decreased, multiplied after it did not"},
       SIM_SETTING_FIELD(PbtiSettings, damping_factor)},
      {{"tolerance", "Tolerance", K::kReal, 1e-8, 0, 1, false, "",
        "the step ends when the force residual |g|inf is below this fraction of the weight"},
       SIM_SETTING_FIELD(PbtiSettings, tolerance)},
      {{"unconverged_residual", "Unconverged: force residual", K::kReal, 1e-4, 0, 1e6, true, "",
        "report a step unconverged when |g|inf ends above this fraction of the weight"},
       SIM_SETTING_FIELD(PbtiSettings, unconverged_residual)},
  };
  return kBound;
}

}  // namespace


const SettingsTable& PbtiSettingsTable() {
  static const SettingsTable kTable = DescriptorsOf(PbtiBound());
  return kTable;
}


PbtiSettings ReadPbtiSettings(const SolverOptions& options) {
  return StoreSettings(PbtiBound(), options.Find("pbti"));
}

}  // namespace sim
