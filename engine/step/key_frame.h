// A key frame: everything a run continues from, bit for bit (MuJoCo's keyframes, its
// mjSTATE_INTEGRATION). Saved and restored by Simulation (pipeline.h); a scene file's
// `keyframes` list gives them too (docs/scene-format.md).
#pragma once

#include <string>
#include <vector>

#include "engine/core/math.h"
#include "engine/state/control.h"
#include "engine/state/state.h"

namespace sim {

/// The state with every solver's warm start, the commanded control and the targets the drives
/// saw at the last step (the rate limit's, engine/step/target_rate.h).
struct KeyFrame {
  std::string name;
  State state;
  Control control;
  std::vector<Real> drive_targets;  ///< [rad or m] per joint; empty: the model's
};

}  // namespace sim
