#include "engine/step/joint_script.h"

#include <algorithm>

namespace sim {

void EvaluateScriptTrack(const JointScriptTrack& track, Real t, Real* position, Real* velocity) {
  const std::vector<Real>& times = track.time;
  // hold the last key after the end (and the first before the start)
  if (t >= times.back()) {
    *position = track.value.back();
    *velocity = 0;
    return;
  }
  if (t <= times.front()) {
    *position = track.value.front();
    *velocity = 0;
    return;
  }
  // the segment (k − 1, k] that contains t
  const int k = static_cast<int>(std::upper_bound(times.begin(), times.end(), t) - times.begin());
  const Real span = times[k] - times[k - 1];
  const Real u = (t - times[k - 1]) / span;
  const Real from = track.value[k - 1];
  const Real delta = track.value[k] - from;
  switch (track.interpolation[k]) {
    case ScriptInterpolation::kSmooth:
      *position = from + delta * u * u * (3 - 2 * u);
      *velocity = delta * 6 * u * (1 - u) / span;
      return;
    case ScriptInterpolation::kLinear:
      *position = from + delta * u;
      *velocity = delta / span;
      return;
    case ScriptInterpolation::kStep:
      *position = from;
      *velocity = 0;
      return;
  }
}


void ApplyJointScript(const Model& model, Real t, Control* control) {
  for (const JointScriptTrack& track : model.joint_script) {
    // a joint the user has taken over keeps the user's target
    if (track.joint < 0 || track.time.empty() || JointTaken(*control, track.joint)) continue;
    Real position = 0;
    Real velocity = 0;
    EvaluateScriptTrack(track, t, &position, &velocity);
    control->joint_target_position[track.joint] = position;
    control->joint_target_velocity[track.joint] = velocity;
    MarkCommanded(control, track.joint);
  }
}

}  // namespace sim
