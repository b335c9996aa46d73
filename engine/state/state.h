// State: exactly what is needed to continue a simulation bit for bit (time, body poses and twists).
// Copyable; only the simulation worker mutates it.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/math.h"

namespace sim {

struct Model;

struct State {
  Real time = 0;                ///< simulated time [s]
  std::uint64_t step = 0;       ///< number of steps taken
  std::vector<Pose> body_X_WB;  ///< body frame (at the COM) in world
  std::vector<Vec3> body_v_W;   ///< linear velocity of the COM, world frame [m/s]
  std::vector<Vec3> body_w_W;   ///< angular velocity, world frame [rad/s]
};

}  // namespace sim
