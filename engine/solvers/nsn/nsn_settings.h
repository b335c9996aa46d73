// Settings of the NSN solver: the enums of its choices, its typed settings struct and the
// descriptor table that the scene reader, `--set`, the run report, the studio's solver panel and
// docs/scene-format.md read (settings_table.h). Defaults are those of digest nsn-and-friction.md
// §13 except where a help line says otherwise.
#pragma once

#include "engine/core/math.h"
#include "engine/fem/fem_material.h"
#include "engine/solvers/settings_table.h"

namespace sim {

struct SolverOptions;
struct Model;

/// Inner linear solver of each Newton iteration (digest nsn-and-friction.md §9).
enum class LinearSolverKind { kPcr = 0, kPcg, kJacobi, kGaussSeidel, kDirect };

/// NCP function of the unilateral rows (digest §4.1-4.3).
enum class NcpFunction { kFischerBurmeister = 0, kMinMap };

/// How a friction row enters the Newton system: the seed's compliance W of eq. (104)/(105), held
/// for the iteration, or the generalized-Newton linearization of the cone projection
/// λ_f = P(λ_f − s/r) (Alart and Curnier 1991): on the sliding branch the force along the slide
/// stays on the cone whatever the slip, and only its direction is compliant (ncp.h).
enum class FrictionLinearization { kCompliance = 0, kProjection };

/// Complementarity preconditioner r (digest §7): r = Δt²·[J M̃⁻¹ Jᵀ]_ii, r = 1, or r = Δt².
enum class ComplementarityScaling { kEffectiveMass = 0, kIdentity, kTimeStepSquared };

/// Preconditioner of the FEM element rows in the inner PCR/PCG solve: the Schur diagonal, or the
/// exact inverse of the element block by the Woodbury identity (element_preconditioner.h).
enum class FemPreconditioner { kJacobi = 0, kWoodbury };

/// Preconditioner of the joint rows in the inner PCR/PCG solve: the Schur diagonal, or the exact
/// inverse of the joint block by its sparse LDLᵀ (joint_preconditioner.h), or the exact block
/// only while a link carries a load whose rotational geometric stiffness dwarfs its inertia.
enum class JointPreconditionerKind { kDiagonal = 0, kExact, kAuto };

const char* LinearSolverName(LinearSolverKind kind);  ///< "pcr", "pcg", "jacobi", "gs", "direct"
const char* NcpFunctionName(NcpFunction ncp);         ///< "fb", "min"
const char* FrictionLinearizationName(FrictionLinearization kind);  ///< "compliance", "projection"
const char* ScalingName(ComplementarityScaling r);          ///< "effective_mass", "identity", "dt2"
const char* FemComplianceModeName(FemComplianceMode mode);  ///< "projected", "diagonal"
const char* FemPreconditionerName(FemPreconditioner kind);  ///< "jacobi", "woodbury"
const char* JointPreconditionerName(JointPreconditionerKind kind);  ///< "diagonal", "exact", "auto"

/// The NSN solver's settings, typed (the values of NsnSettingsTable).
struct NsnSettings {
  int newton_iterations = 6;
  /// a step ends after this many iterations, before newton_iterations, once every residual
  /// (contacts, friction, joints, elements, momentum) is below newton_exit_tolerance
  int newton_min_iterations = 2;
  /// velocity residual of a converged step [m/s]: a sliding box's per-step velocity change
  /// must be right to about this much for 2 % over 2 s of sliding
  Real newton_exit_tolerance = 1e-6;
  /// iterations past newton_iterations, up to this many in all, while a contact or joint
  /// residual stays above newton_tolerance (a new contact, an impact)
  int newton_max_iterations = 8;
  Real newton_tolerance = 1e-4;  ///< velocity residual under which no extra iteration runs [m/s]
  /// joint error under which no extra iteration runs [m or rad]: a position error, corrected
  /// at every step and not accumulated, so not a velocity tolerance as the contacts'
  Real newton_joint_tolerance = 1e-5;
  /// a step whose last iterate's residual (as a velocity, every row) exceeds this multiple of
  /// the least it met returns that iterate instead (a diverging Newton); 0: the last always [-]
  Real newton_fallback_ratio = 100;
  int linear_iterations = 20;
  /// raise linear_iterations to kIterationsPerWaveCell·c·Δt/h of the stiffest soft body on the
  /// Jacobi FEM preconditioner, at most wave_iterations_max (WaveIterations)
  bool wave_iterations = true;
  int wave_iterations_max = 200;
  LinearSolverKind linear_solver = LinearSolverKind::kPcr;
  NcpFunction ncp = NcpFunction::kFischerBurmeister;
  FrictionLinearization friction = FrictionLinearization::kProjection;
  ComplementarityScaling preconditioner = ComplementarityScaling::kEffectiveMass;
  Real damping = 0.75;  ///< constant Newton step fraction α_damp (§8) [-]
  bool warm_start = true;
  bool line_search = false;
  Real regularization = 1e-6;  ///< ε identity shift of the Schur system (§6.7) [1/kg]
  bool geometric_stiffness = true;
  FemComplianceMode fem_compliance = FemComplianceMode::kProjected;
  bool fem_shear_rows = true;
  FemPreconditioner fem_preconditioner = FemPreconditioner::kJacobi;
  JointPreconditionerKind joint_preconditioner = JointPreconditionerKind::kAuto;
  /// kStepUnconverged above these at the step's end: normal and joint error [m], friction
  /// residual [m/s], friction outside its cone as a fraction of the bound [-]
  Real unconverged_gap = 1e-3;
  Real unconverged_slip = 0.1;
  Real unconverged_cone = 0.1;
};

/// The inner iterations for a soft body whose pressure wave crosses `cells` element layers a step
/// (EstimatePressureWave): settings.linear_iterations, raised with settings.wave_iterations to
/// kIterationsPerWaveCell·cells, at most settings.wave_iterations_max (never below
/// linear_iterations).
int WaveIterationsFor(const NsnSettings& settings, Real cells);

/// The inner iterations of a step: WaveIterationsFor the model's stiffest soft body, or
/// settings.linear_iterations where the FEM preconditioner is not the Jacobi one.
int WaveIterations(const NsnSettings& settings, const Model& model, Real dt);

/// The descriptor table of the NSN solver's settings.
const SettingsTable& NsnSettingsTable();

/// The NSN settings of `options` (its defaults where the options have none).
NsnSettings ReadNsnSettings(const SolverOptions& options);

}  // namespace sim
