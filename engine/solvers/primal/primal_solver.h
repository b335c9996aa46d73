// Primal descent (Macklin, PhD thesis 2020, chapter 5, Algorithm 2; digest pd-sdf-robotics.md
// §1.2-§1.8): the implicit step as the minimization of
//   g(u) = ½(u − ũ)ᵀM(u − ũ) + Σ U_i(q⁺(u)) + Δt Σ U_f(u),   q⁺ = q⁻ + Δt G u      eq. (105)
// by a fixed number of preconditioned gradient steps u ← u − α P d, d = M(u − ũ) − Δt f (107),
// every potential re-evaluated at each iterate, no Lagrange multipliers:
//   contact normals and joint limits  U_n = (k_n/p)|min(0, C_n)|^p                 eq. (129)
//   rigid joint, coupling, attachment rows  U = ½ k_j C²  (no hard constraints, §1.13)
//   compliant rows (drives, soft joints)  U = ½ k (C − C*)², damping ½ d (J u − v*)² Δt
//   friction (relaxed Coulomb, f_n lagged: the previous step's normal force, or the thesis's
//     current iterate's, primal.friction_normal)                                  eq. (132)
//       U_f = ½ κ r²  (κ r < f_n),  f_n r − f_n²/(2κ)  otherwise,  r = |(μ_t s_t, μ_b s_b)|
//     on the slip over the step s = Δt Dᵀu [m], κ = k_f/(μ_t μ_b): for μ_t = μ_b the thesis's
//     ½k_f|s|² / μ f_n|s| − γ with force −min(k_f, μ f_n/|s|) D s (eq. (133), erratum D s); the
//     elliptic cone's slip force is the maximally dissipative −f_n A⁻¹s/|s|_A⁻¹ (digest §2.12).
//     On the slip displacement, k_f has k_n's units, as the thesis's k_n = k_f and the contact
//     stiffness ratio of its Fig. 31 (k_n/k_f = 100) need; a sticking contact creeps by
//     f/k_f per step
//   joint friction rows  the same 1-D potential with the bound F in place of μ f_n.
// Preconditioner: per body the 6×6 block (per particle the 3×3) M + Δt² Σ k_i J_iᵀJ_i ((131) with
// (p − 1)|C|^{p−2} for the penalty, the scalar Λ of (136) for friction, h d for dampers),
// inverted blockwise (§1.3 "invert blockwise"), or its diagonal (primal.preconditioner): a Jacobi
// iteration over blocks, order-independent like the thesis's GPU one. The geometric stiffness is
// dropped (§1.6).
//
// Soft bodies (FEM) are not supported yet: MakeSolver refuses such scenes with a message.
#pragma once

#include <vector>

#include "engine/dynamics/body_blocks.h"
#include "engine/dynamics/constraint_set.h"
#include "engine/solvers/primal/primal_settings.h"
#include "engine/solvers/solver.h"
#include "engine/solvers/solver_registry.h"
#include "engine/solvers/substeps.h"

namespace sim {

/// The primal descent solver's registration (engine/solvers/solver_registry.h).
extern const SolverInfo kPrimalSolverInfo;

/// Relaxed Coulomb friction of one contact (eq. (132)-(136)) at the slip (s_t, s_b) over the step
/// [m] with normal force `normal_force` [N], friction coefficients μ_t, μ_b and stick stiffness
/// k_f [N/m].
struct RelaxedFriction {
  Real force_t = 0, force_b = 0;    ///< −∂U_f/∂s [N]
  Real weight_t = 0, weight_b = 0;  ///< the scalar Hessian approximation Λ of (136) [N/m]
  bool stick = false;               ///< in the quadratic stick region
};
RelaxedFriction EvalRelaxedFriction(Real slip_t, Real slip_b, Real mu_t, Real mu_b,
                                    Real normal_force, Real friction_stiffness);

class SolverPrimal final : public Solver {
 public:
  explicit SolverPrimal(const Model& /*model*/) {}
  std::string_view name() const override { return "primal"; }
  using Solver::Step;
  void Step(const Model& model, const State& in, const Control& control, Contacts& contacts,
            Real dt, State* out, StepReport* report) override;

 private:
  using Mat6 = Eigen::Matrix<Real, 6, 6>;
  using Vec6 = Eigen::Matrix<Real, 6, 1>;

  /// One Algorithm 2 solve of `h` [s] from the blocks' q⁻ (BodyBlocks::Begin done); returns
  /// false when the iterate became non-finite.
  bool Solve(const PrimalSettings& settings, Real h, bool bounce, StepReport* report);
  /// Forces and preconditioner blocks of every potential at the iterate (rows evaluated);
  /// fills the record's errors.
  void Accumulate(const PrimalSettings& settings, Real h, bool bounce, bool first,
                  IterationRecord* record);
  /// Adds `force` Jᵀ to the generalized forces and `weight` JᵀJ to the preconditioner blocks.
  void AddRow(const Row& row, Real force, Real weight);
  /// The normal force bounding contact c's friction [N].
  Real FrictionNormal(int c) const {
    return friction_normal_[c] >= 0 ? friction_normal_[c] : normal_force_[c];
  }
  /// Each contact's normal force at the end of the previous step, kNewContact where it had none.
  void ReadPreviousNormals(const State& in, const PrimalSettings& settings);
  void WriteContacts(const PrimalSettings& settings, Real h, Contacts* contacts) const;
  void WriteNormalRecord(const State& in, State* out) const;

  SubstepWorkspace work_;
  BodyBlocks& blocks_ = work_.blocks;
  ConstraintSet& constraints_ = work_.constraints;
  std::vector<Vec6> force_;         ///< generalized force per block [N, N·m]
  std::vector<Mat6> hessian_;       ///< preconditioner block per block (without M) [kg, kg·m²]
  std::vector<Real> normal_force_;  ///< per contact, at the iterate [N]
  /// per contact, the lagged normal force of its friction (primal.friction_normal) [N], or one
  /// of the markers below
  std::vector<Real> friction_normal_;
  static constexpr Real kIterateNormal = -1;  ///< the iterate's normal force
  static constexpr Real kNewContact = -2;     ///< to be estimated at the first iterate
  std::vector<Real> start_gap_;               ///< per contact, C_n at the start of the substep [m]
};

}  // namespace sim
