#include "engine/solvers/nsn/nsn_settings.h"

#include <algorithm>
#include <cmath>

#include "engine/fem/tet_elements.h"
#include "engine/model/model.h"
#include "engine/solvers/solver_options.h"

namespace sim {
namespace {

// choice names, in enum order (the table and the *Name functions read the same lists)
// (constant-initialized arrays: safe to read during static initialization)
constexpr std::string_view kLinearSolverNames[] = {"pcr", "pcg", "jacobi", "gs", "direct"};
constexpr std::string_view kNcpNames[] = {"fb", "min"};
constexpr std::string_view kFrictionNames[] = {"compliance", "projection"};
constexpr std::string_view kScalingNames[] = {"effective_mass", "identity", "dt2"};
constexpr std::string_view kComplianceNames[] = {"projected", "diagonal"};
constexpr std::string_view kFemPreconditionerNames[] = {"jacobi", "woodbury"};
constexpr std::string_view kJointPreconditionerNames[] = {"diagonal", "exact", "auto"};

template <std::size_t N>
std::vector<std::string_view> Choices(const std::string_view (&names)[N]) {
  return {std::begin(names), std::end(names)};
}

template <std::size_t N, typename Enum>
const char* ChoiceName(const std::string_view (&names)[N], Enum value) {
  const auto index = static_cast<std::size_t>(value);
  return index < N ? names[index].data() : "?";
}


const std::vector<BoundSetting<NsnSettings>>& NsnBound() {
  using K = SettingKind;
  static const std::vector<BoundSetting<NsnSettings>> kBound = {
      {{"newton_iterations", "Newton iterations", K::kInt, 6, 1, 1000, false, "",
        "outer Newton iterations per step (§13: 4-8)"},
       SIM_SETTING_FIELD(NsnSettings, newton_iterations)},
      {{"newton_min_iterations", "Newton iterations, fewest", K::kInt, 2, 1, 1000, false, "",
        "a step ends after this many Newton iterations, before newton_iterations, once every "
        "residual (contacts, friction, joints, elements, momentum) is below "
        "newton_exit_tolerance"},
       SIM_SETTING_FIELD(NsnSettings, newton_min_iterations)},
      {{"newton_exit_tolerance", "Newton exit tolerance", K::kReal, 1e-6, 0, 1e6, true, "m/s",
        "residual, as a velocity, under which a step has converged and ends early"},
       SIM_SETTING_FIELD(NsnSettings, newton_exit_tolerance)},
      {{"newton_max_iterations", "Newton iterations, most", K::kInt, 8, 1, 1000, false, "",
        "more Newton iterations, up to this many, while contacts or joints are unconverged and "
        "converging"},
       SIM_SETTING_FIELD(NsnSettings, newton_max_iterations)},
      {{"newton_tolerance", "Newton tolerance", K::kReal, 1e-4, 0, 1e6, true, "m/s",
        "contact residual, as a velocity, under which no extra iteration runs"},
       SIM_SETTING_FIELD(NsnSettings, newton_tolerance)},
      {{"newton_joint_tolerance", "Newton joint tolerance", K::kReal, 1e-5, 0, 1e6, true, "m",
        "joint error (m or rad) under which no extra iteration runs"},
       SIM_SETTING_FIELD(NsnSettings, newton_joint_tolerance)},
      {{"newton_fallback_ratio", "Newton fallback ratio", K::kReal, 100, 0, 1e6, false, "",
        "a step whose last Newton iterate has this many times the residual (as a velocity) of "
        "its best returns the best instead (0: off)"},
       SIM_SETTING_FIELD(NsnSettings, newton_fallback_ratio)},
      {{"linear_iterations", "Linear iterations", K::kInt, 20, 1, 10000, false, "",
        "inner linear iterations per Newton iteration (§13: 10-80)"},
       SIM_SETTING_FIELD(NsnSettings, linear_iterations)},
      {{"wave_iterations", "Iterations per wave", K::kBool, 1, 0, 0, false, "",
        "raise the inner iterations to 4 per element layer a pressure wave crosses in a step "
        "(c·dt/h) of the stiffest soft body, with the jacobi FEM preconditioner"},
       SIM_SETTING_FIELD(NsnSettings, wave_iterations)},
      {{"wave_iterations_max", "Iterations per wave, most", K::kInt, 200, 1, 10000, false, "",
        "the most inner iterations wave_iterations raises to"},
       SIM_SETTING_FIELD(NsnSettings, wave_iterations_max)},
      {{"linear_solver", "Linear solver", K::kChoice, 0, 0, 0, false, "",
        "inner solver of the Schur system: PCR, PCG, Jacobi, Gauss-Seidel or direct LDLT (§9)",
        Choices(kLinearSolverNames)},
       SIM_SETTING_FIELD(NsnSettings, linear_solver)},
      {{"ncp", "NCP function", K::kChoice, 0, 0, 0, false, "",
        "NCP function: Fischer-Burmeister or min-map (§4)", Choices(kNcpNames)},
       SIM_SETTING_FIELD(NsnSettings, ncp)},
      {{"friction", "Friction rows", K::kChoice, 1, 0, 0, false, "",
        "friction in the Newton step: the compliance of eq. (104) (the paper) or the linearized "
        "cone projection, which slides at the threshold",
        Choices(kFrictionNames)},
       SIM_SETTING_FIELD(NsnSettings, friction)},
      {{"preconditioner", "Complementarity scaling", K::kChoice, 0, 0, 0, false, "",
        "complementarity scaling r: effective mass, 1 or dt^2 (§7)", Choices(kScalingNames)},
       SIM_SETTING_FIELD(NsnSettings, preconditioner)},
      {{"damping", "Newton damping", K::kReal, 0.75, 0, 1, true, "",
        "constant Newton step fraction alpha (§8)"},
       SIM_SETTING_FIELD(NsnSettings, damping)},
      {{"line_search", "Line search", K::kBool, 0, 0, 0, false, "",
        "back-tracking on the residual norm instead of the constant step (§8)"},
       SIM_SETTING_FIELD(NsnSettings, line_search)},
      {{"regularization", "Regularization", K::kReal, 1e-6, 0, 1, false, "1/kg",
        "identity shift of the Schur system (§6.7)"},
       SIM_SETTING_FIELD(NsnSettings, regularization)},
      {{"geometric_stiffness", "Geometric stiffness", K::kBool, 1, 0, 0, false, "",
        "geometric stiffness: diagonal on particle DOFs (§10), closed form on joint-loaded bodies"},
       SIM_SETTING_FIELD(NsnSettings, geometric_stiffness)},
      {{"warm_start", "Warm start", K::kBool, 1, 0, 0, false, "",
        "start from the last step's velocities and multipliers (the paper starts from zero)"},
       SIM_SETTING_FIELD(NsnSettings, warm_start)},
      {{"fem_compliance", "FEM compliance", K::kChoice, 0, 0, 0, false, "",
        "positive-definite fix of the element Hessians: eigen-projection or diagonal (§2.7)",
        Choices(kComplianceNames)},
       SIM_SETTING_FIELD(NsnSettings, fem_compliance)},
      {{"fem_shear_rows", "FEM shear rows", K::kBool, 1, 0, 0, false, "",
        "three shear rows per tet besides the three stretch rows (false: the paper's three)"},
       SIM_SETTING_FIELD(NsnSettings, fem_shear_rows)},
      {{"fem_preconditioner", "FEM preconditioner", K::kChoice, 0, 0, 0, false, "",
        "preconditioner of the element rows: Schur diagonal or exact element block (Woodbury)",
        Choices(kFemPreconditionerNames)},
       SIM_SETTING_FIELD(NsnSettings, fem_preconditioner)},
      {{"joint_preconditioner", "Joint preconditioner", K::kChoice, 2, 0, 0, false, "",
        "preconditioner of the joints' rigid rows: Schur diagonal, exact joint block (sparse "
        "LDLT; carries a heavy load along a chain in one iteration), or auto: exact while a "
        "link's rotational geometric stiffness exceeds 10x its inertia",
        Choices(kJointPreconditionerNames)},
       SIM_SETTING_FIELD(NsnSettings, joint_preconditioner)},
      {{"unconverged_gap", "Unconverged: gap error", K::kReal, 1e-3, 0, 1e6, true, "m",
        "report a step unconverged above this normal or joint error at its end"},
       SIM_SETTING_FIELD(NsnSettings, unconverged_gap)},
      {{"unconverged_slip", "Unconverged: slip error", K::kReal, 0.1, 0, 1e6, true, "m/s",
        "report a step unconverged above this friction residual at its end"},
       SIM_SETTING_FIELD(NsnSettings, unconverged_slip)},
      {{"unconverged_cone", "Unconverged: cone error", K::kReal, 0.1, 0, 1e6, true, "",
        "report a step unconverged with friction this fraction outside its cone at its end"},
       SIM_SETTING_FIELD(NsnSettings, unconverged_cone)},
  };
  return kBound;
}

}  // namespace


const char* LinearSolverName(LinearSolverKind kind) { return ChoiceName(kLinearSolverNames, kind); }
const char* NcpFunctionName(NcpFunction ncp) { return ChoiceName(kNcpNames, ncp); }
const char* FrictionLinearizationName(FrictionLinearization kind) {
  return ChoiceName(kFrictionNames, kind);
}
const char* ScalingName(ComplementarityScaling r) { return ChoiceName(kScalingNames, r); }
const char* FemComplianceModeName(FemComplianceMode mode) {
  return ChoiceName(kComplianceNames, mode);
}
const char* FemPreconditionerName(FemPreconditioner kind) {
  return ChoiceName(kFemPreconditionerNames, kind);
}


const char* JointPreconditionerName(JointPreconditionerKind kind) {
  return ChoiceName(kJointPreconditionerNames, kind);
}


int WaveIterationsFor(const NsnSettings& settings, Real cells) {
  if (!settings.wave_iterations) return settings.linear_iterations;
  const int needed = static_cast<int>(std::ceil(kIterationsPerWaveCell * cells));
  return std::max(settings.linear_iterations, std::min(needed, settings.wave_iterations_max));
}


int WaveIterations(const NsnSettings& settings, const Model& model, Real dt) {
  if (!settings.wave_iterations || settings.fem_preconditioner != FemPreconditioner::kJacobi) {
    return settings.linear_iterations;
  }
  // a Jacobi-preconditioned Krylov iteration carries a pressure wave one element layer per
  // product, so an inner solve of fewer than ~3.5-4 per layer the wave crosses in a step lags the
  // element forces behind the motion: a 6851-tet ball (c·Δt/h = 9.4) at 20 rolls away gaining
  // energy (1.2 J in 4 s from a 0.8 J drop), at 33 it rolls at 5.7 cm/s at 4 s, at 35 at 1.2 cm/s
  // (measured)
  Real cells = 0;
  for (const SoftBody& body : model.soft_bodies) {
    cells = std::max(cells, EstimatePressureWave(model, body, dt).cells);
  }
  return WaveIterationsFor(settings, cells);
}


const SettingsTable& NsnSettingsTable() {
  static const SettingsTable kTable = DescriptorsOf(NsnBound());
  return kTable;
}


NsnSettings ReadNsnSettings(const SolverOptions& options) {
  return StoreSettings(NsnBound(), options.Find("nsn"));
}

}  // namespace sim
