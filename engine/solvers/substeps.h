// What the substepping solvers share (primal descent, dual ascent): a step of Δt as `substeps`
// solves of h = Δt/substeps, each from the last one's end on the step's contacts, and the step
// report's row counts and quality figures that every solver fills the same way.
#pragma once

#include <functional>
#include <string_view>

#include "engine/core/math.h"
#include "engine/dynamics/body_blocks.h"
#include "engine/dynamics/constraint_set.h"
#include "engine/solvers/solver.h"
#include "engine/state/state.h"

namespace sim {

struct Model;
struct Control;
struct Contacts;

/// The step's blocks and rows, and the state between substeps.
struct SubstepWorkspace {
  BodyBlocks blocks;
  ConstraintSet constraints;
  State stage;
};

/// Runs the substeps: each sets up `work->blocks` and `work->constraints` at its start and calls
/// `solve(h, substep)`, which returns false when the iterate became non-finite; then the final
/// state goes to *out (time and step advanced). On a non-finite solve the step is rejected:
/// kStepNonFinite with `what` in the message and *out = in; returns false. Fills the report's
/// assembly and solve times.
bool RunSubsteps(const Model& model, const State& in, const Control& control,
                 const Contacts& contacts, Real dt, int substeps, std::string_view what,
                 const std::function<bool(Real h, int substep)>& solve, SubstepWorkspace* work,
                 State* out, StepReport* report);

/// The report's row counts and the penetration and joint error at the rows' last evaluation.
void FillRowFigures(const ConstraintSet& constraints, int contact_count, StepReport* report);

/// The gap target of unilateral row i at the rows' last evaluation [m]: C, or with `bounce` a
/// contact's C shifted so that it must separate at its bounce speed (contact_material.h).
Real BounceShiftedGap(const ConstraintSet& constraints, int i, Real h, bool bounce);

/// Marks the step unconverged (kStepUnconverged, NaN included) when `residual` exceeds `bound`,
/// with "<measure> %.3g <unit> > %.3g (<setting>)" as the message.
void MarkUnconverged(Real residual, Real bound, std::string_view measure, std::string_view unit,
                     std::string_view setting, StepReport* report);

}  // namespace sim
