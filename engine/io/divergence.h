// Divergence of compared runs (`contact-sim compare`, the studio's lanes): per step, how far a
// run's state is from a reference run's, with the quality figures and cost of the step, so that
// solvers stepped in lockstep from one state can be plotted against each other over time.
#pragma once

#include <vector>

#include "engine/core/math.h"

namespace sim {

struct Model;
struct State;
struct StepReport;

/// One step of one run.
struct DivergenceSample {
  Real time = 0;             ///< simulated time after the step [s]
  Real distance = 0;         ///< StateDistance to the reference run's state [m]
  Real max_penetration = 0;  ///< [m]
  Real max_joint_error = 0;  ///< [m]
  Real energy = 0;           ///< MechanicalEnergy [J]
  Real step_ms = 0;          ///< wall time of the step [ms]
};

/// The largest distance between a body's (or particle's) position in `state` and in
/// `reference` [m]; NaN when they are not states of one model (different counts).
Real StateDistance(const State& state, const State& reference);

/// The sample of a step that left `state` (reported by `report`) against `reference`.
DivergenceSample MeasureDivergence(const Model& model, const State& state, const State& reference,
                                   const StepReport& report);

}  // namespace sim
