// Projected Gauss-Seidel (PGS), the classical baseline of Bullet, PhysX, Box2D and ODE: sequential
// impulses on the velocity level over the same rows as every solver (engine/dynamics/), with the
// row impulses clamped after each update (Catto, "Iterative Dynamics with Temporal Coherence",
// GDC 2005; the boxed LCP of seed 004 §2 and the relaxation baseline of seed 002 §1).
//
// Per step, with u starting at the unconstrained ũ = u⁻ + Δt M̃⁻¹ f_ext (body_blocks.h) and the
// rows J, c evaluated at q⁻:
//   for each sweep, for each row i (joints, then per contact its two friction rows and its
//   normal row):   ΔP = m_i (v*_i − J_i u − γ_i P_i),  m_i = 1/(J_i M̃⁻¹ J_iᵀ + γ_i)
//                  P_i ← clamp(P_i + ΔP) (contact normal P ≥ 0; friction inside the cone
//                  (P_t/μ_t)² + (P_b/μ_b)² ≤ P_n², ProjectOnFrictionEllipse; joint
//                  friction |P| ≤ FΔt)
//                  u += M̃⁻¹ J_iᵀ (P_i − P_i,old)
//   then q = q⁻ + Δt G(q⁻) u (the same integration as every solver).
// Targets: a rigid joint row aims at v* = −β c/Δt (Baumgarte); a contact lets its gap close
// within the step (v* = −c/Δt for c ≥ 0, speculative contact) and removes penetration beyond
// `slop` by β per step, through the velocity (Baumgarte) or through a second solve on
// pseudo-velocities that move positions only (split impulse, Catto 2006 / Bullet), which adds no
// energy. A compliant row (drive, soft joint, stiffness k, damping d)
// is the implicit spring of NSN's rows (γ = 1/(Δt(kΔt + d)), v* = −(k(c − c*) − d v̇*)/(kΔt + d)).
// Impulses P are in N·s; the contact forces written back are P/Δt.
//
// Soft bodies (FEM) are not supported: MakeSolver refuses such scenes with a message.
#pragma once

#include <vector>

#include "engine/dynamics/body_blocks.h"
#include "engine/dynamics/constraint_set.h"
#include "engine/solvers/pgs/pgs_settings.h"
#include "engine/solvers/solver.h"
#include "engine/solvers/solver_registry.h"

namespace sim {

/// The PGS solver's registration (engine/solvers/solver_registry.h).
extern const SolverInfo kPgsSolverInfo;

/// Projects a contact's friction impulse pair (P_t, P_b) [N·s] (the rows' unclamped update z)
/// onto the elliptic cone (P_t/μ_t)² + (P_b/μ_b)² ≤ `bound`² (bound = P_n) exactly, in the metric
/// of the rows' own Gauss-Seidel step: min ½(p − z)ᵀK(p − z), K = diag(1/m_t, 1/m_b) with m the
/// rows' effective masses [kg], by Newton on the secular equation of the multiplier ν (a few
/// steps, monotone; exact in one when m_t/μ_t² = m_b/μ_b², e.g. an isotropic cone with equal
/// masses, where it is the radial scaling). The metric makes the sliding fixed point maximally
/// dissipative: there K(p − z) = slip, so slip = −ν A p with A = diag(1/μ_t², 1/μ_b²), i.e.
/// λ_f = −λ_n A⁻¹v/√(vᵀA⁻¹v) (digest §2.12), whatever the two masses; a radial scaling would
/// settle on p ∥ −diag(m) v instead. Call only for a z outside the cone.
void ProjectOnFrictionEllipse(Real mass_t, Real mass_b, Real mu_t, Real mu_b, Real bound, Real* p_t,
                              Real* p_b);

class SolverPgs final : public Solver {
 public:
  explicit SolverPgs(const Model& model) {}
  std::string_view name() const override { return "pgs"; }
  using Solver::Step;
  void Step(const Model& model, const State& in, const Control& control, Contacts& contacts,
            Real dt, State* out, StepReport* report) override;

 private:
  /// Row data of one step.
  struct RowSolve {
    Real target = 0;           // v* [m/s or rad/s]
    Real compliance = 0;       // γ [m/(N·s)]
    Real effective_mass = 0;   // m_i = 1/(J M̃⁻¹ Jᵀ + γ)
    Real position_target = 0;  // split impulse: the pseudo-velocity target [m/s]
  };

  void SetUpRows(const PgsSettings& settings, Real dt);
  void WarmStart(const State& in, const PgsSettings& settings);
  /// One sweep over every row; returns the largest impulse change [N·s].
  Real Sweep(IterationRecord* record);
  /// The sweeps of the split-impulse pseudo-velocities (positions only).
  void SolvePositions(int sweeps);
  /// u += M̃⁻¹ Jᵀ ΔP for one row (on the pseudo-velocities with `pseudo`).
  void ApplyImpulse(const Row& row, Real impulse, bool pseudo);
  Real RowVelocity(const Row& row, bool pseudo) const;
  void WriteWarmStart(const State& in, State* out) const;

  BodyBlocks blocks_;
  ConstraintSet constraints_;
  std::vector<RowSolve> rows_;
  std::vector<Real> impulse_;           // P per row [N·s]
  std::vector<Real> position_impulse_;  // split impulse per row [N·s]
  std::vector<Vec3> pseudo_v_, pseudo_w_;
  std::vector<Vec3> kept_v_, kept_w_;  // split impulse: u while q moves with u + u_pseudo
};

}  // namespace sim
