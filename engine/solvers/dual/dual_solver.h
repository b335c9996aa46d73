// Dual ascent (Macklin, PhD thesis 2020, chapter 5, Algorithm 3; digest pd-sdf-robotics.md §1.4,
// §1.9): the implicit step's dual, maximized over the rows' multipliers by a preconditioned
// Jacobi ascent, which is XPBD. In XPBD's multiplier λ̂ = Δt²λ [N·s²] and compliance
// α̃ = k⁻¹/Δt², per row i at the iterate q⁺ = q⁻ + Δt G u⁺:
//   Δλ̂_i = α_s (−C_i(q⁺) − α̃_i λ̂_i) / (J_i M_s⁻¹ J_iᵀ + α̃_i)          eq. (120)-(123)
//   λ̂ ← Π(λ̂ + Δλ̂),  u⁺ ← u⁺ + M⁻¹ Jᵀ Δλ̂ / Δt   (the incremental "fast projection" form)
// every constraint from the same iterate (Jacobi, order-independent like the thesis's GPU
// kernels; the rows of one joint or attachment in sequence within it, one thread's work),
// with mass splitting M_s (Tonge et al.; digest §13): each body's inverse mass multiplied by the
// number of constraints acting on it, so simultaneous updates average instead of adding up.
//   rigid joint, coupling, attachment rows  α̃ = 0
//   compliant rows (drives, soft joints)  α̃ = 1/(kΔt²) and XPBD's damping γ̃ = d/(kΔt) on
//       the row's displacement Δt(J u − v*) (Macklin et al. 2016, eq. (26)); a pure damper
//       (k = 0) in the limit of the same formula
//   contact normals and joint limits  hard (dual.contact_compliance 0), Π: λ̂_n ≥ 0; restitution
//       as the gap target C(q⁺) ≥ C(q⁻)⁺ + Δt v_b
//   friction  hard rows on the slip over the step Δt Dᵀu (digest §1.9's suggestion), Π: the
//       elliptic cone (λ̂_t/μ_t)² + (λ̂_b/μ_b)² ≤ λ̂_n² in the rows' own metric
//       (ProjectOnFrictionEllipse, maximally dissipative); joint friction boxed |λ̂| ≤ FΔt².
// λ̂ starts at 0 every step (Algorithm 3, erratum: once per step).
//
// Soft bodies (FEM) are not supported yet: MakeSolver refuses such scenes with a message.
#pragma once

#include <vector>

#include "engine/dynamics/body_blocks.h"
#include "engine/dynamics/constraint_set.h"
#include "engine/solvers/dual/dual_settings.h"
#include "engine/solvers/solver.h"
#include "engine/solvers/solver_registry.h"
#include "engine/solvers/substeps.h"

namespace sim {

/// The dual ascent solver's registration (engine/solvers/solver_registry.h).
extern const SolverInfo kDualSolverInfo;

class SolverDual final : public Solver {
 public:
  explicit SolverDual(const Model& /*model*/) {}
  std::string_view name() const override { return "dual"; }
  using Solver::Step;
  void Step(const Model& model, const State& in, const Control& control, Contacts& contacts,
            Real dt, State* out, StepReport* report) override;

 private:
  /// One Algorithm 3 solve of `h` [s] from the blocks' q⁻ (BodyBlocks::Begin done); returns
  /// false when the iterate became non-finite.
  bool Solve(const DualSettings& settings, Real h, bool bounce, StepReport* report);
  /// The Jacobi updates Δλ̂ of every row at the iterate (rows evaluated); fills the record.
  void ComputeUpdates(const DualSettings& settings, Real h, bool bounce, IterationRecord* record);
  /// Whether row i begins a constraint: a joint's rows, one attachment's three, one contact.
  bool StartsConstraint(int i) const;
  /// Per block, how many constraints act on it now (mass splitting).
  void CountConstraints(bool mass_splitting);
  /// J_a M_s⁻¹ J_bᵀ of two rows with the split masses [1/kg].
  Real SplitCoupling(const Row& a, const Row& b) const;
  /// J M_s⁻¹ Jᵀ of a row with the split masses [1/kg].
  Real SplitInverseMass(const Row& row) const { return SplitCoupling(row, row); }
  /// c − c* of a bilateral row (wrapped for angles).
  Real RigidError(int i) const;
  /// α K⁻¹(−C) of a constraint's rigid rows into block_update_; false when K is singular or
  /// the constraint has more than kMaxBlockRows rigid rows.
  bool SolveRigidBlock(const std::vector<int>& rows, Real alpha);
  /// J Δu of a row from the current constraint's earlier rows [m/s].
  Real LocalRate(const Row& row) const;
  /// Records a row's impulse [N·s] on the current constraint's local velocity changes.
  void ApplyLocal(const Row& row, Real impulse);
  void WriteContacts(Real h, Contacts* contacts) const;

  SubstepWorkspace work_;
  BodyBlocks& blocks_ = work_.blocks;
  ConstraintSet& constraints_ = work_.constraints;
  std::vector<Real> multiplier_;  ///< λ̂ per row [N·s²]
  std::vector<Real> update_;      ///< Δλ̂ per row of this iteration
  std::vector<int> constraints_on_block_;
  std::vector<int> last_group_;  ///< scratch of CountConstraints
  /// the velocity changes of the constraint being solved, per body it touches
  struct LocalChange {
    int block = -1;
    Vec3 v = Vec3::Zero(), w = Vec3::Zero();
  };
  std::vector<LocalChange> local_;
  /// the most rigid rows solved as one block; larger constraints go row by row
  static constexpr int kMaxBlockRows = 12;
  std::vector<int> rigid_rows_;     ///< the current constraint's rigid rows (scratch)
  std::vector<Real> block_update_;  ///< Δλ̂ of SolveRigidBlock's rows
};

}  // namespace sim
