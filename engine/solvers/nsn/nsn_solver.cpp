#include "engine/solvers/nsn/nsn_solver.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

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
  record.cone_error = errors.cone;
  record.bilateral_error = errors.bilateral;
  record.merit = errors.merit;
  record.inner_begin = inner_begin;
  return record;
}

// back-tracking halvings before the line search gives up (digest §8: it often stalls with
// friction, then the damped step is taken)
constexpr int kLineSearchHalvings = 6;

// kStepUnconverged with the first measure of the final record above its tolerance (the
// unconverged_* settings), named in the message
void CheckConverged(const IterationRecord& record, const NsnSettings& settings,
                    StepReport* report) {
  const struct {
    const char* name;
    Real value, tolerance;
    const char* unit;
  } measures[] = {{"normal error", record.normal_error, settings.unconverged_gap, "m"},
                  {"joint or element error", record.bilateral_error, settings.unconverged_gap, "m"},
                  {"friction residual", record.friction_error, settings.unconverged_slip, "m/s"},
                  {"friction outside its cone by", record.cone_error, settings.unconverged_cone,
                   "of the bound"}};
  for (const auto& m : measures) {
    // NaN counts as unconverged
    if (!(m.value <= m.tolerance)) {
      report->status |= kStepUnconverged;
      char text[160];
      std::snprintf(text, sizeof(text), "%s %.3g %s > %.3g (solver.unconverged_*)", m.name, m.value,
                    m.unit, m.tolerance);
      report->message = text;
      return;
    }
  }
}

// The contacts' and joints' residual as a velocity [m/s] (joint error per step)
Real ContactJointResidual(const nsn::IterateErrors& errors, Real dt) {
  return std::max({errors.friction, errors.normal / dt, errors.joint / dt});
}

// How far a step is from needing no iteration past the regular budget [-]: the contacts'
// residual over newton_tolerance, the joints' error over newton_joint_tolerance; above 1 it
// earns one. A step where contacts begin (a landing, the first step) needs them, as its normal
// forces and with them the friction bounds grow over the iterations; so does a light chain under
// a heavy load. Element rows are left out: their stretch error has no velocity scale.
Real ExtraIterationNeed(const nsn::IterateErrors& errors, const NsnSettings& settings, Real dt) {
  return std::max(std::max(errors.friction, errors.normal / dt) / settings.newton_tolerance,
                  errors.joint / settings.newton_joint_tolerance);
}

// friction outside its cone that still counts as converged (a fraction of the bound) [-]
constexpr Real kConvergedCone = 1e-3;

// every residual of the iterate as a velocity [m/s]: contacts, friction, joints, elements (their
// strain error per step, a strain rate [1/s], which for element sizes under 1 m is stricter than
// the velocity of their nodes) and the momentum balance that a damped step leaves
Real VelocityResidual(const nsn::IterateErrors& errors, Real dt) {
  return std::max({ContactJointResidual(errors, dt), errors.element / dt, errors.momentum});
}

// every residual below the tolerance [m/s], friction inside its cone
bool Converged(const nsn::IterateErrors& errors, Real tolerance, Real dt) {
  return VelocityResidual(errors, dt) <= tolerance && errors.cone <= kConvergedCone;
}

// extra iterations go on while each one keeps shrinking the residual: below 3/4 of what it was
// two iterations before (one iteration may grow it as contacts switch between stick and slide);
// past that the inner solve's inexactness is what is left and more iterations only cost
constexpr Real kExtraIterationProgress = 0.75;

}  // namespace


const SolverInfo kNsnSolverInfo = {
    "nsn",
    "non-smooth Newton on the NCP of contacts, friction, joints and FEM (Macklin et al. 2019, "
    "seed 002)",
    kFeatureRigidBodies | kFeatureJoints | kFeatureContacts | kFeatureParticles |
        kFeatureSoftBodies | kFeatureSecondOrder | kFeatureCoulombFriction | kFeatureRestitution,
    NsnSettingsTable,
    [](const Model& model) -> std::unique_ptr<Solver> {
      return std::make_unique<SolverNsn>(model);
    },
};


SolverNsn::SolverNsn(const Model&) {}


bool SolverNsn::LineSearch(const nsn::VectorX& x, Real merit0, Real* step_size) {
  system_.SaveIterate();
  Real alpha = 1;
  for (int k = 0; k < kLineSearchHalvings; ++k, alpha *= 0.5) {
    *step_size = system_.ApplyStep(alpha, x);
    system_.Assemble();
    // sufficient decrease of the merit ‖[g; h]‖₂ (Armijo with a small constant): keep the trial,
    // assembled, as the next iterate
    if (system_.errors().merit <= (1 - 1e-4 * alpha) * merit0) return true;
    system_.RestoreIterate();
  }
  return false;
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

  // whether the system is assembled at the current iterate (an accepted line-search trial is)
  bool assembled = false;
  const int most_iterations = std::max(settings.newton_iterations, settings.newton_max_iterations);
  const int linear_iterations = WaveIterations(settings, model, dt);
  std::vector<Real>& needs = extra_needs_;
  needs.clear();
  // the iterate of least residual met, for a Newton that diverges (friction bounds that follow
  // normal forces jumping at an impact): returned instead of the last. The residual as a
  // velocity, not the merit: a joint friction row's scaled force error swamps the merit. Never
  // the warm start itself: returned step after step, it would carry no forces at all.
  Real best_residual = std::numeric_limits<Real>::infinity();
  int best_iteration = -1;
  for (int n = 0; n < most_iterations; ++n) {
    // assemble at the current iterate; its errors are this iteration's record
    stopwatch.Restart();
    if (!assembled) system_.Assemble();
    assembled = true;
    if (n > 0 && settings.newton_fallback_ratio > 0) {
      const Real residual = VelocityResidual(system_.errors(), dt);
      if (residual < best_residual) {
        best_residual = residual;
        best_iteration = n;
        system_.SaveIterate(&best_iterate_);
      }
    }
    // done early once every residual is below the tolerance (easy steps, resting contact);
    // past the regular budget only while unconverged and converging
    const Real need = ExtraIterationNeed(system_.errors(), settings, dt);
    if (n >= settings.newton_min_iterations &&
        Converged(system_.errors(), settings.newton_exit_tolerance, dt)) {
      assembly_ms += stopwatch.ElapsedMs();
      break;
    }
    if (n >= settings.newton_iterations &&
        (need <= 1 ||
         (needs.size() >= 2 && need > kExtraIterationProgress * needs[needs.size() - 2]))) {
      assembly_ms += stopwatch.ElapsedMs();
      break;
    }
    needs.push_back(need);
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
        nsn::SolveLinear(settings.linear_solver, system_, rhs_, linear_iterations, &solution_,
                         &workspace_, &report->inner_residuals);
    system_.RecoverVelocity(solution_);
    solve_ms += stopwatch.ElapsedMs();
    record.inner_count = static_cast<int>(report->inner_residuals.size()) - record.inner_begin;
    report->inner_iterations += stats.iterations;

    // line-searched (or damped) update of λ, u and q
    stopwatch.Restart();
    system_.KeepGradients();
    assembled = settings.line_search && LineSearch(solution_, record.merit, &record.step_size);
    if (!assembled) {
      if (settings.line_search) report->status |= kStepLineSearchFailed;
      record.step_size = system_.ApplyStep(settings.damping, solution_);
    }
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

  // quality at the end of the step: one more evaluation at the final iterate, or at the best
  // one where the last has diverged from it
  stopwatch.Restart();
  if (!assembled) system_.Assemble();
  char fallback_note[160] = "";
  const Real final_residual = VelocityResidual(system_.errors(), dt);
  if (best_iteration >= 0 && final_residual > settings.newton_fallback_ratio * best_residual) {
    std::snprintf(fallback_note, sizeof(fallback_note),
                  "Newton diverged (residual %.3g m/s at the end, %.3g at iteration %d): kept "
                  "iteration %d",
                  final_residual, best_residual, best_iteration + 1, best_iteration + 1);
    report->iterations.push_back(
        RecordOf(system_.errors(), static_cast<int>(report->inner_residuals.size())));
    system_.RestoreIterate(best_iterate_);
    system_.Assemble();
  }
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
    return;
  }
  CheckConverged(final_record, settings, report);
  if (fallback_note[0] != '\0') {
    report->message += (report->message.empty() ? "" : "; ") + std::string(fallback_note);
  }
}

}  // namespace sim
