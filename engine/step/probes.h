// Probes: named measurements of a simulation (scene `probes`), sampled after every step and
// written to the run report (`contact-sim run --report`): a body's position, orientation or
// velocities, a joint's coordinate or rate, a particle's position, a soft body's centroid.
#pragma once

#include <vector>

#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim {

/// Writes the ProbeValueCount(kind) values of probe `p` of `model` at `state` to `values`:
/// positions [m], quaternions w, x, y, z, velocities [m/s], angular velocities [rad/s] (world
/// frame), joint coordinates [rad or m] and rates [rad/s or m/s] (the rate about/along the
/// joint axis of the child relative to the parent at the joint frame).
void EvaluateProbe(const Model& model, const State& state, int p, Real* values);

/// The rate of joint `j`'s coordinate at `state` [rad/s or m/s]: the child's velocity relative
/// to the parent about/along the joint axis (0 for joints without a coordinate).
Real JointRate(const Model& model, const State& state, int j);

/// Every probe of a model sampled once per recorded state.
struct ProbeLog {
  std::vector<Real> time;                  ///< [s], one per sample
  std::vector<std::vector<Real>> samples;  ///< per probe: values of every sample, concatenated

  /// Empties the log for `model`'s probes.
  void Reset(const Model& model);
  /// Appends one sample of every probe.
  void Record(const Model& model, const State& state);
  int sample_count() const { return static_cast<int>(time.size()); }
};

}  // namespace sim
