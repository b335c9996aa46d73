// The solver interface and its per-step report. Every solver (architecture §3) reads the same
// Model, State, Control and Contacts and fills one StepReport: convergence plots, benchmark
// reports and tests all read this one structure.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/math.h"
#include "engine/solvers/solver_registry.h"

namespace sim {

struct Model;
struct State;
struct Control;
struct Contacts;

/// Status bits of one step. kOk is the absence of every other bit.
enum StepStatus : std::uint32_t {
  kStepOk = 0,
  /// The Newton loop used its whole iteration budget without reaching the tolerance. Usual and
  /// harmless with the fixed budgets of the paper; raise solver.newton_iterations if the
  /// quality figures suffer.
  kStepMaxIterations = 1u << 0,
  /// The back-tracking line search found no decrease; the damped step was taken instead.
  kStepLineSearchFailed = 1u << 1,
  /// The state (input or iterate) became non-finite; the step was rejected and the last good
  /// state kept. Lower solver.dt or check the scene's masses and forces.
  kStepNonFinite = 1u << 2,
  /// More contacts than Contacts::capacity; the surplus was dropped. Raise the capacity.
  kStepCapacityExceeded = 1u << 3,
  /// A shape pair the collision stage cannot handle yet was skipped (reported once per pair).
  kStepUnsupportedPair = 1u << 4,
  /// A body or particle ended the step faster than kRunawaySpeed (engine/step/pipeline.h): the
  /// solve diverged while staying finite. The state is kept so the user sees it; raise
  /// solver.linear_iterations, turn on solver.line_search or lower solver.dt.
  kStepRunaway = 1u << 5,
  /// The step ended with a residual above the solver's stated tolerances (its `unconverged_*`
  /// settings): the state may be physically wrong (penetration, friction outside its cone, a
  /// joint apart). `message` names the measure and its value. Raise the iteration budgets, turn
  /// on the line search or lower solver.dt.
  kStepUnconverged = 1u << 6,
};

/// Number of status bits (the entries of StepStatusTable).
inline constexpr int kStepStatusBitCount = 7;

/// One status bit: its name in reports and whether it marks a result the user must not trust
/// (non-finite, run away, unconverged) rather than a note about the solve.
struct StepStatusEntry {
  std::uint32_t bit;
  const char* name;
  bool problem;
};

/// Every status bit, in bit order: the one list reports, the CLI and the studio read.
const StepStatusEntry (&StepStatusTable())[kStepStatusBitCount];

/// Index of the StepStatus `bit` in StepStatusTable().
constexpr int StepStatusIndex(std::uint32_t bit) { return std::countr_zero(bit); }

/// Bits of `status` that mark a result the user must not trust.
std::uint32_t ProblemBits(std::uint32_t status);

/// Names of the bits set in `status`, comma-separated ("ok" for none).
std::string StepStatusString(std::uint32_t status);

/// Convergence record of one outer iteration of a solver (a Newton iteration of NSN, a sweep of
/// PGS), measured at the iterate it started from (L∞ norms as in digest §14.2). What each error
/// measures is the solver's: NSN's are the NCP residuals below; PGS's are the velocity residuals
/// it met in the sweep [m/s].
struct IterationRecord {
  Real normal_error = 0;    ///< NSN: max |min(C_n, r λ_n)| over unilateral rows [m]
  Real friction_error = 0;  ///< NSN: max |φ_f| = |Dᵀu + Wλ_f| over active contacts [m/s]
  /// NSN: max |c_b + E λ_b| over joint rows [m or rad] and the FEM rows' strain error times
  /// the largest element's size [m]
  Real bilateral_error = 0;
  /// max (|λ_f| − μλ_n)/(μλ_n) over loaded contacts: friction outside its cone [-] (0 for a
  /// solver that clamps friction to the cone, like PGS)
  Real cone_error = 0;
  Real merit = 0;       ///< NSN: ‖[g; h]‖₂ of eq. (77), seed 002 (mixed units)
  Real step_size = 0;   ///< largest velocity change of the iteration [m/s]
  int inner_begin = 0;  ///< first entry in StepReport::inner_residuals
  int inner_count = 0;  ///< inner iterations recorded for this outer iteration
};

/// What happened in one step. Solvers reuse the vectors' capacity from step to step.
struct StepReport {
  std::uint32_t status = kStepOk;

  // per-stage wall time [ms]
  double collision_ms = 0;
  double assembly_ms = 0;
  double solve_ms = 0;
  double integrate_ms = 0;
  double total_ms = 0;
  /// the control stage before the step (Simulation::Step: teleop actions and IK, or the joint
  /// script), not in total_ms
  double control_ms = 0;

  // counts
  int contact_count = 0;
  int active_contact_count = 0;  ///< contacts with λ_n > 0 at the end
  int bilateral_rows = 0;
  int unilateral_rows = 0;  ///< contact normals plus joint limits
  int friction_rows = 0;
  int element_rows = 0;      ///< FEM element rows (3 per tet)
  int outer_iterations = 0;  ///< Newton iterations (NSN), sweeps (PGS)
  int inner_iterations = 0;  ///< inner linear iterations, summed over the outer ones
  /// order of the step's time integration: 1 backward Euler, 2 BDF2 (engine/step/integrator.h)
  int integrator_order = 1;

  // quality at the end of the step
  Real max_penetration = 0;  ///< max(−gap − d, 0) over contacts [m]
  Real max_joint_error = 0;  ///< max positional error of rigid joint rows [m]
  Real final_residual = 0;   ///< max of the last record's normal/friction/bilateral errors
  /// fastest body or particle after the step [m/s] (StepOnce; the runaway check reads it)
  Real max_speed = 0;

  /// Outer-iteration history and, flat, the inner residual norms ‖b − Ax‖₂ of every outer
  /// iteration (none for a solver without an inner solve).
  std::vector<IterationRecord> iterations;
  std::vector<Real> inner_residuals;

  std::string message;  ///< human-readable note for non-ok statuses

  void Reset();  ///< clears everything, keeps vector capacity
};

/// One interface, many implementations (architecture §2).
class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string_view name() const = 0;

  /// Advances `in` by `dt` [s] into `*out` (which may alias nothing; sizes are set here),
  /// reading and writing `contacts` (the forces are written back). Never throws for numerical
  /// trouble: it is reported in `*report`, which is reset first.
  virtual void Step(const Model& model, const State& in, const Control& control, Contacts& contacts,
                    Real dt, State* out, StepReport* report) = 0;

  /// Convenience form of the architecture doc; allocates a fresh report.
  StepReport Step(const Model& model, const State& in, const Control& control, Contacts& contacts,
                  Real dt, State* out) {
    StepReport report;
    Step(model, in, control, contacts, dt, out, &report);
    return report;
  }
};

}  // namespace sim
