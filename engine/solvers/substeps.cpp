#include "engine/solvers/substeps.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "engine/core/stopwatch.h"
#include "engine/model/model.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"
#include "engine/state/state.h"

namespace sim {

bool RunSubsteps(const Model& model, const State& in, const Control& control,
                 const Contacts& contacts, Real dt, int substeps, std::string_view what,
                 const std::function<bool(Real h, int substep)>& solve, SubstepWorkspace* work,
                 State* out, StepReport* report) {
  substeps = std::max(substeps, 1);
  const Real h = dt / substeps;
  Stopwatch stopwatch;
  for (int s = 0; s < substeps; ++s) {
    stopwatch.Restart();
    const State& start = s == 0 ? in : work->stage;
    work->blocks.Begin(model, start, control, h);
    work->constraints.Begin(model, control, contacts, work->blocks.body_count());
    report->assembly_ms += stopwatch.ElapsedMs();
    stopwatch.Restart();
    const bool finite = solve(h, s);
    report->solve_ms += stopwatch.ElapsedMs();
    if (!finite) {
      report->status |= kStepNonFinite;
      report->message =
          "the " + std::string(what) + " iterate became non-finite; the step was rejected";
      *out = in;
      return false;
    }
    if (s + 1 < substeps) work->blocks.WriteState(model, start, &work->stage);
  }
  // WriteState keeps what the blocks do not hold (particles' and soft bodies' extras) from the
  // state it is given: the last substep's start
  work->blocks.WriteState(model, substeps == 1 ? in : work->stage, out);
  out->time = in.time + dt;
  out->step = in.step + 1;
  return true;
}


void FillRowFigures(const ConstraintSet& constraints, int contact_count, StepReport* report) {
  report->contact_count = contact_count;
  report->bilateral_rows = constraints.bilateral_row_count();
  report->unilateral_rows = constraints.unilateral_row_count();
  report->friction_rows = 2 * constraints.contact_count();
  report->max_penetration = constraints.max_penetration();
  report->max_joint_error = constraints.max_joint_error();
}


Real BounceShiftedGap(const ConstraintSet& constraints, int i, Real h, bool bounce) {
  const Real gap = constraints.value(i);
  if (!bounce || i < constraints.contact_row_begin()) return gap;
  // J u ≥ v_b, i.e. C(q⁺) ≥ C(q⁻)⁺ + h v_b (PGS's target max(−C/h, v_b))
  const ContactInfo& info = constraints.contact(i - constraints.contact_row_begin());
  if (info.bounce_velocity <= 0) return gap;
  return gap - std::max(info.gap0, Real(0)) - h * info.bounce_velocity;
}


void MarkUnconverged(Real residual, Real bound, std::string_view measure, std::string_view unit,
                     std::string_view setting, StepReport* report) {
  report->final_residual = residual;
  if (residual <= bound) return;  // NaN counts as unconverged
  report->status |= kStepUnconverged;
  char numbers[64];
  std::snprintf(numbers, sizeof(numbers), " %.3g %.*s > %.3g (", residual,
                static_cast<int>(unit.size()), unit.data(), bound);
  report->message = std::string(measure) + numbers + std::string(setting) + ")";
}

}  // namespace sim
