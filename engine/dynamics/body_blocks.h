// The degrees of freedom of one step, shared by every solver (architecture §3): one block per
// rigid body (u = [v, ω], ω in world frame) and one per particle (u = v), with the step's mass
// matrix M̃ (world inertia at q⁻), the unconstrained velocity ũ = u⁻ + Δt M̃⁻¹ f_ext (with the
// implicit gyroscopic term) and the integration q = q⁻ + Δt G(q⁻) u (seed 002 eq. (82)-(84),
// digest nsn-and-friction.md §2.3, §5 and the renormalization erratum §19 #8).
//
// Blocks are numbered bodies [0, body_count), then particles. Plain arrays (one entry per block),
// so a solver reads and writes the iterate (x, q, v, w) directly.
#pragma once

#include <array>
#include <vector>

#include "engine/core/math.h"
#include "engine/dynamics/constraint_rows.h"

namespace sim {

struct Model;
struct State;
struct Control;

class BodyBlocks {
 public:
  /// Start of a step: q⁻ from `in`, M̃ at q⁻, ũ from gravity, the control's forces and torques
  /// and the implicit gyroscopic term; the iterate starts at q = q⁻, u = 0.
  void Begin(const Model& model, const State& in, const Control& control, Real dt);

  /// q = q⁻ + Δt G(q⁻) u for every free block, quaternions renormalized.
  void UpdatePositions();

  /// Starts the iterate from the input state's velocities (warm start) and moves q with them.
  void StartFromInputVelocities(const State& in);

  /// World point of body-frame point `p` on `block` at the iterate; `*lever` = R p (zero for a
  /// particle or the static world, block < 0, whose `p` is already in world) [m].
  Vec3 WorldPoint(int block, const Vec3& p, Vec3* lever) const;

  /// World point of one contact side at the iterate and its row description: a rigid block with
  /// its lever arm, or up to three weighted particles. Fixed blocks get no row coefficients.
  Vec3 ContactSidePoint(bool particles, const std::array<int, 3>& blocks, const Vec3& weights,
                        int block, const Vec3& p, ContactRowSide* side) const;

  /// Poses and (free) blocks of joint j's bodies at the iterate.
  JointBodies JointBodiesAt(const Model& model, int j) const;

  /// J M⁻¹ Jᵀ of one row: with `shifted`, the linear part reads inv_mass (which a solver may
  /// have lowered, e.g. NSN's geometric stiffness), otherwise 1/mass [1/kg].
  Real EffectiveMass(const Row& row, bool shifted) const;

  /// Adds M̃⁻¹ Jᵀ `impulse` of one row [N·s] to the velocities `*v`, `*w` (one entry per block:
  /// the iterate's, or a solver's own copy); fixed blocks do not move.
  void AddImpulse(const Row& row, Real impulse, std::vector<Vec3>* v, std::vector<Vec3>* w) const;

  /// Writes q, u, the time and the step count of the iterate into `*out` (static bodies keep their
  /// input pose with zero velocity). Leaves the warm-start records alone.
  void WriteState(const Model& model, const State& in, State* out) const;

  /// Every position, orientation and velocity of the iterate is finite.
  bool IsFinite() const;

  int count() const { return static_cast<int>(x.size()); }
  int body_count() const { return body_count_; }
  Real dt() const { return dt_; }
  /// Generalized velocity dimension: 6 per body, 3 per particle.
  long dof_count() const { return dof_count_; }

  // per block
  std::vector<unsigned char> fixed;     ///< static body, massless body or fixed particle
  std::vector<unsigned char> particle;  ///< a particle block (no rotation)
  std::vector<Real> mass;               ///< [kg]
  std::vector<Mat3> inertia_W;          ///< world inertia at q⁻ [kg·m²]
  std::vector<Mat3> inv_inertia_W;      ///< its inverse [1/(kg·m²)]
  std::vector<Vec3> inv_mass;  ///< linear diagonal of M̃⁻¹ (a solver may shift it) [1/kg]
  std::vector<Vec3> x0, x;     ///< positions at q⁻ and at the iterate [m]
  std::vector<Quat> q0, q;     ///< orientations at q⁻ and at the iterate
  std::vector<Vec3> v, w;      ///< iterate velocity [m/s], angular velocity [rad/s]
  std::vector<Vec3> v_tilde, w_tilde;  ///< ũ: velocities without constraint forces

 private:
  int body_count_ = 0;
  long dof_count_ = 0;
  Real dt_ = 0;
};

}  // namespace sim
