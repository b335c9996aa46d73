// State: exactly what is needed to continue a simulation bit for bit (time, body poses and twists,
// particle positions and velocities). Copyable; only the simulation worker mutates it.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/math.h"

namespace sim {

struct Model;

/// Multipliers of one contact from the previous step, for warm starting (keyed by the contact's
/// shape pair and feature, see ContactKey in contacts.h).
struct ContactImpulse {
  std::uint64_t key = 0;
  Real normal = 0;            ///< λ_n [N]
  Real friction[2] = {0, 0};  ///< λ_f along (tangent, bitangent) [N]
};

struct State {
  Real time = 0;                   ///< simulated time [s]
  std::uint64_t step = 0;          ///< number of steps taken
  std::vector<Pose> body_X_WB;     ///< body frame (at the COM) in world
  std::vector<Vec3> body_v_W;      ///< linear velocity of the COM, world frame [m/s]
  std::vector<Vec3> body_w_W;      ///< angular velocity, world frame [rad/s]
  std::vector<Vec3> particle_x_W;  ///< particle positions, world frame [m]
  std::vector<Vec3> particle_v_W;  ///< particle velocities, world frame [m/s]

  // warm-start data: the last step's multipliers (part of the state so a run resumes bit for bit)
  std::vector<ContactImpulse> contact_impulses;  ///< sorted by key
  std::vector<Real> joint_lambda;                ///< one per joint row, in model row order [N]
  std::vector<Real> element_lambda;              ///< 6 per FEM tet (element_rows.h) [N·m]
};

/// True when every number in the state is finite and every quaternion has a sane norm.
bool IsFinite(const State& state);

/// Sizes of the state match the model (bodies and particles).
bool MatchesModel(const State& state, const Model& model);

/// Kinetic plus gravitational potential energy of all bodies and particles [J] (reference
/// height 0 along −gravity), plus the strain energy of the soft bodies. Used for the energy-drift
/// quality figure.
Real MechanicalEnergy(const Model& model, const State& state);

}  // namespace sim
