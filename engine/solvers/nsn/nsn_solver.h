// The non-smooth Newton (NSN) solver of Macklin et al., "Non-Smooth Newton Methods for
// Deformable Multi-Body Dynamics", ACM TOG 38(5) 2019 (seed 002) and Macklin's thesis ch. 4
// (seed 000), as specified by docs/seeds/nsn-and-friction.md (digest) with its errata (§19).
//
// Per step (digest §12, Algorithm 1 of seed 002):
//   u⁰ = 0, λ⁰ = 0 (or the last step's λ: warm_start, a deviation from §8), q⁰ = q⁻
//   for n = 0 … N−1:
//     assemble J, C, g, h at (qⁿ, uⁿ, λⁿ)                           newton_system.h, eq. (77)-(79)
//     solve (J H⁻¹ Jᵀ + C + εI) x = J H⁻¹ g − h with M inner iterations    eq. (80), §6.7
//     Δu = H⁻¹(Jᵀx − g)                                                         eq. (81)
//     α = α_damp (0.75), or back-tracking on ‖[g; h]‖₂ when line_search is on   §8
//     λ += αx/Δt;  u += αΔu;  q = q⁻ + Δt G u (renormalized)                    eq. (82)-(84)
//     update the geometric-stiffness diagonal (particle DOFs)                   §10
//   commit q⁺ = q, u⁺ = u; write contact forces.
// The iteration budget is fixed (as in the paper), so kStepMaxIterations is never set; the
// report carries the convergence history instead.
#pragma once

#include <vector>

#include "engine/solvers/nsn/linear_solvers.h"
#include "engine/solvers/nsn/newton_system.h"
#include "engine/solvers/solver.h"
#include "engine/solvers/solver_registry.h"

namespace sim {

/// The NSN solver's registration (engine/solvers/solver_registry.h).
extern const SolverInfo kNsnSolverInfo;

class SolverNsn final : public Solver {
 public:
  explicit SolverNsn(const Model& model);
  std::string_view name() const override { return "nsn"; }
  using Solver::Step;
  void Step(const Model& model, const State& in, const Control& control, Contacts& contacts,
            Real dt, State* out, StepReport* report) override;

  /// The system of the last Newton iteration (tests inspect it).
  const nsn::NewtonSystem& system() const { return system_; }

 private:
  /// Back-tracking from α = 1 on the merit: on success the system holds the accepted trial
  /// iterate, assembled, and its step size; otherwise the iterate it started from.
  bool LineSearch(const nsn::VectorX& x, Real merit0, Real* step_size);

  nsn::NewtonSystem system_;
  nsn::LinearWorkspace workspace_;
  nsn::VectorX rhs_, solution_;
  std::vector<Real> extra_needs_;            // per Newton iteration, for the extra iterations' test
  nsn::NewtonSystem::Iterate best_iterate_;  // the step's least-residual iterate (fallback)
};

}  // namespace sim
