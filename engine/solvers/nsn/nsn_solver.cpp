#include "engine/solvers/nsn/nsn_solver.h"

#include <algorithm>

#include "engine/core/stopwatch.h"
#include "engine/model/model.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"
#include "engine/state/state.h"

namespace sim {

namespace {

// a Newton record from the errors of the iterate just assembled
IterationRecord RecordOf(const nsn::IterateErrors& errors, int inner_begin) {
  IterationRecord record;
  record.normal_error = errors.normal;
  record.friction_error = errors.friction;
  record.bilateral_error = errors.bilateral;
  record.merit = errors.merit;
  record.inner_begin = inner_begin;
  return record;
}

// back-tracking halvings before the line search gives up (digest §8: it often stalls with
// friction, then the damped step is taken)
constexpr int kLineSearchHalvings = 6;

}  // namespace


const SolverInfo kNsnSolverInfo = {
    "nsn",
    "non-smooth Newton on the NCP of contacts, friction, joints and FEM (Macklin et al. 2019, "
    "seed 002)",
    kFeatureRigidBodies | kFeatureJoints | kFeatureContacts | kFeatureParticles |
        kFeatureSoftBodies,
    NsnSettingsTable,
    [](const Model& model) -> std::unique_ptr<Solver> {
      return std::make_unique<SolverNsn>(model);
    },
};


SolverNsn::SolverNsn(const Model&) {}


Real SolverNsn::LineSearch(const nsn::VectorX& x, Real merit0, StepReport* report) {
  system_.SaveIterate();
  Real alpha = 1;
  for (int k = 0; k < kLineSearchHalvings; ++k, alpha *= 0.5) {
    system_.ApplyStep(alpha, x);
    system_.Assemble();
    // sufficient decrease of the merit ‖[g; h]‖₂ (Armijo with a small constant)
    if (system_.errors().merit <= (1 - 1e-4 * alpha) * merit0) {
      system_.RestoreIterate();
      return alpha;
    }
    system_.RestoreIterate();
  }
  report->status |= kStepLineSearchFailed;
  return 0;  // the caller falls back to α_damp
}


void SolverNsn::Step(const Model& model, const State& in, const Control& control,
                     Contacts& contacts, Real dt, State* out, StepReport* report) {
  report->Reset();
  Stopwatch stopwatch;
  system_.Begin(model, in, control, contacts, dt);
  const NsnSettings& settings = system_.settings();  // read from the table once, by Begin
  double assembly_ms = stopwatch.ElapsedMs();
  double solve_ms = 0;
  double integrate_ms = 0;

  for (int n = 0; n < settings.newton_iterations; ++n) {
    // assemble at the current iterate; its errors are this iteration's record
    stopwatch.Restart();
    system_.Assemble();
    if (n > 0) system_.UpdateGeometricStiffness();
    system_.BuildRhs(&rhs_);
    assembly_ms += stopwatch.ElapsedMs();
    // the exact element block of the preconditioner, refactored at every iterate: one factored
    // at the step's first iterate lets the impact of a soft ball diverge (measured), as contacts
    // switch on and the element compliance moves within the step
    stopwatch.Restart();
    system_.UpdatePreconditioner();
    solve_ms += stopwatch.ElapsedMs();
    IterationRecord record =
        RecordOf(system_.errors(), static_cast<int>(report->inner_residuals.size()));

    // inner linear solve of the Schur complement system
    stopwatch.Restart();
    const nsn::LinearSolveStats stats =
        nsn::SolveLinear(settings.linear_solver, system_, rhs_, settings.linear_iterations,
                         &solution_, &workspace_, &report->inner_residuals);
    system_.RecoverVelocity(solution_);
    solve_ms += stopwatch.ElapsedMs();
    record.inner_count = static_cast<int>(report->inner_residuals.size()) - record.inner_begin;
    report->inner_iterations += stats.iterations;

    // damped (or line-searched) update of λ, u and q
    stopwatch.Restart();
    Real alpha = settings.damping;
    if (settings.line_search) {
      const Real searched = LineSearch(solution_, record.merit, report);
      if (searched > 0) alpha = searched;
    }
    system_.KeepGradients();
    record.step_size = system_.ApplyStep(alpha, solution_);
    integrate_ms += stopwatch.ElapsedMs();
    report->iterations.push_back(record);
    ++report->outer_iterations;

    // a diverging iterate never reaches the state: report and keep the input
    if (!system_.IsFinite()) {
      report->status |= kStepNonFinite;
      report->message = "the Newton iterate became non-finite at iteration " +
                        std::to_string(n + 1) + "; the step was rejected";
      *out = in;
      return;
    }
  }

  // quality at the end of the step: one more evaluation at the final iterate
  stopwatch.Restart();
  system_.Assemble();
  const IterationRecord final_record =
      RecordOf(system_.errors(), static_cast<int>(report->inner_residuals.size()));
  report->iterations.push_back(final_record);
  system_.WriteState(out);
  system_.WriteContacts(&contacts);
  integrate_ms += stopwatch.ElapsedMs();

  report->assembly_ms = assembly_ms;
  report->solve_ms = solve_ms;
  report->integrate_ms = integrate_ms;
  report->contact_count = contacts.count();
  report->active_contact_count = system_.active_contact_count();
  report->bilateral_rows = system_.bilateral_row_count();
  report->unilateral_rows = system_.unilateral_row_count();
  report->friction_rows = system_.friction_row_count();
  report->element_rows = system_.element_row_count();
  report->max_penetration = system_.max_penetration();
  report->max_joint_error = system_.max_joint_error();
  report->final_residual = std::max(
      {final_record.normal_error, final_record.friction_error, final_record.bilateral_error});
  if (!system_.IsFinite()) {
    report->status |= kStepNonFinite;
    report->message = "the final iterate is non-finite; the step was rejected";
    *out = in;
  }
}

}  // namespace sim
