#include "engine/io/divergence.h"

#include <algorithm>
#include <limits>

#include "engine/model/model.h"
#include "engine/solvers/solver.h"
#include "engine/state/state.h"

namespace sim {

Real StateDistance(const State& state, const State& reference) {
  if (state.body_X_WB.size() != reference.body_X_WB.size() ||
      state.particle_x_W.size() != reference.particle_x_W.size()) {
    return std::numeric_limits<Real>::quiet_NaN();
  }
  Real distance = 0;
  for (std::size_t b = 0; b < state.body_X_WB.size(); ++b) {
    distance = std::max(distance, (state.body_X_WB[b].p - reference.body_X_WB[b].p).norm());
  }
  for (std::size_t p = 0; p < state.particle_x_W.size(); ++p) {
    distance = std::max(distance, (state.particle_x_W[p] - reference.particle_x_W[p]).norm());
  }
  return distance;
}


DivergenceSample MeasureDivergence(const Model& model, const State& state, const State& reference,
                                   const StepReport& report) {
  DivergenceSample sample;
  sample.time = state.time;
  sample.distance = StateDistance(state, reference);
  sample.max_penetration = report.max_penetration;
  sample.max_joint_error = report.max_joint_error;
  sample.energy = MechanicalEnergy(model, state);
  sample.step_ms = report.total_ms;
  return sample;
}

}  // namespace sim
