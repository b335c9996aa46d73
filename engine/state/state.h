// State: exactly what is needed to continue a simulation bit for bit (time, body poses and twists,
// particle positions and velocities, and each solver's warm-start record). Copyable; only the
// simulation worker mutates it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/math.h"

namespace sim {

struct Model;

/// Multipliers of one contact from the previous step, keyed by the contact's shape pair and
/// feature (ContactKey in contacts.h). Friction is kept in the world frame, so it warm-starts
/// correctly when the contact's tangent frame turns between steps.
struct ContactImpulse {
  std::uint64_t key = 0;
  Real normal = 0;                 ///< λ_n [N]
  Vec3 friction_W = Vec3::Zero();  ///< friction force, world frame [N]
};

/// What one solver carries from a step to the next to warm-start it, keyed by entity: contacts
/// by feature pair, joint rows by their place in the model's joint layout, FEM element rows by
/// tet. Written and read only by the solver it is tagged with, so switching solver never feeds
/// one solver's multipliers to another.
struct WarmStartRecord {
  std::string solver;                    ///< the solver that wrote it ("nsn", "pgs")
  std::vector<ContactImpulse> contacts;  ///< sorted by key
  /// per joint, coupling and attachment row, in the order the model lays them out
  /// (engine/dynamics/constraint_set.h) [N or N·m]
  std::vector<Real> joint_rows;
  std::vector<Real> element_rows;  ///< per tet, its rows in tet order [N·m]
};

/// The kinematics one step before a state, kept for the second-order integrator (BDF2,
/// engine/step/integrator.h). It belongs to the state whose StateHash is `successor_hash`:
/// a state edited since (a reset, a drag, a new initial pose) no longer matches and restarts the
/// integrator with a backward-Euler step.
struct StepHistory {
  std::uint64_t successor_hash = 0;  ///< 0: no history
  Real dt = 0;                       ///< the step between the two states [s]
  /// a contact closed faster than solver.restitution_threshold in that step: the next step
  /// restarts with backward Euler (BDF2 across an impact rings)
  bool impact = false;
  std::vector<Pose> body_X_WB;
  std::vector<Vec3> body_v_W, body_w_W;          ///< [m/s], [rad/s]
  std::vector<Vec3> particle_x_W, particle_v_W;  ///< [m], [m/s]
};

struct State {
  Real time = 0;                   ///< simulated time [s]
  std::uint64_t step = 0;          ///< number of steps taken
  std::vector<Pose> body_X_WB;     ///< body frame (at the COM) in world
  std::vector<Vec3> body_v_W;      ///< linear velocity of the COM, world frame [m/s]
  std::vector<Vec3> body_w_W;      ///< angular velocity, world frame [rad/s]
  std::vector<Vec3> particle_x_W;  ///< particle positions, world frame [m]
  std::vector<Vec3> particle_v_W;  ///< particle velocities, world frame [m/s]

  /// each solver's warm-start record, at most one per solver (part of the state so a run
  /// resumes bit for bit)
  std::vector<WarmStartRecord> warm_starts;

  /// the previous step's kinematics, with solver.integrator = bdf2 (else empty)
  StepHistory history;
};

/// The warm-start record `solver` wrote into `state`, or nullptr.
const WarmStartRecord* FindWarmStart(const State& state, std::string_view solver);

/// The record of `solver` in `*out`, for the solver to write at the end of a step from `in`: the
/// other solvers' records pass from `in` to `*out` unchanged (vector capacity reused).
WarmStartRecord& CarryWarmStarts(const State& in, std::string_view solver, State* out);

/// The same for a solver that keeps no warm start: the others' records pass through and none of
/// `solver`'s stays in `*out`.
void CarryOtherWarmStarts(const State& in, std::string_view solver, State* out);

/// The entry of `record` with contact key `key`, or nullptr (contacts are sorted by key).
const ContactImpulse* FindContactImpulse(const WarmStartRecord& record, std::uint64_t key);

/// Sorts contact impulses by key (what FindContactImpulse expects).
void SortContactImpulses(std::vector<ContactImpulse>* contacts);

/// FNV-1a hash of every number of the kinematics (time, step, poses, twists, particles; not the
/// records), bit-exact: two runs that agree on it agree bit for bit. Also ties a StepHistory to
/// its state.
std::uint64_t StateHash(const State& state);

/// True when every number in the state is finite and every quaternion has a sane norm.
bool IsFinite(const State& state);

/// Sizes of the state match the model (bodies and particles).
bool MatchesModel(const State& state, const Model& model);

/// Kinetic plus gravitational potential energy of all bodies and particles [J] (reference
/// height 0 along −gravity), plus the strain energy of the soft bodies. Used for the energy-drift
/// quality figure.
Real MechanicalEnergy(const Model& model, const State& state);

}  // namespace sim
