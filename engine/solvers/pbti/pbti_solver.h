// The position-based frictional articulated integrator, PBFD (Pan & Manocha, seed 003; digest
// add-and-pbti.md part B, §C.3). In the reduced coordinates θ of the model's kinematic trees
// (engine/kinematics/articulation.h) a step is
//   θ_{n+1} = argmin_θ GE(θ),   GE = ½‖g(θ)‖²,
//   g = ∂I/∂θ − Jᵀ(m g + f_ext) − C^⊥ Σ_c J_cᵀ n d_c^α − C^∥ Σ_c J_cᵀ f^∥_c + drives + limits,
// eq. (13): I the position-based inertia of eq. (5) in closed form (digest §B.3: per body
// m‖Δc‖² + tr(ΔR S ΔRᵀ), over 2Δt², Δ = x − 2x_n + x_{n−1}), the normal force d^α n of eq. (8)
// on each contact's depth d, and f^∥ = −(β+1) Δp_t ‖Δp_t‖^β d^(γ+1) of eq. (12) on the contact
// point's tangential displacement over the step. The step is Levenberg-Marquardt on GᵀG, eq. (14)
// (the paper's JTJ-LM); G = ∂g/∂θ by central differences of the analytic g (the exact G needs
// ∂²p/∂θ², which the paper computes; ours costs two evaluations of g per group of columns that
// share no row). Velocities are the step's average, eq. (3), so the previous pose x_{n−1} = x_n −
// Δt v_n is the state's own history.
#pragma once

#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "engine/dynamics/body_blocks.h"
#include "engine/dynamics/constraint_set.h"
#include "engine/kinematics/articulation.h"
#include "engine/solvers/pbti/pbti_settings.h"
#include "engine/solvers/solver.h"
#include "engine/solvers/solver_registry.h"

namespace sim {

extern const SolverInfo kPbtiSolverInfo;

class SolverPbti final : public Solver {
 public:
  explicit SolverPbti(const Model& model) : articulation_(model) {}
  std::string_view name() const override { return "pbti"; }
  void Step(const Model& model, const State& in, const Control& control, Contacts& contacts,
            Real dt, State* out, StepReport* report) override;

 private:
  /// g(θ) at `config` into `*residual`; leaves the poses in blocks_ and the rows evaluated there.
  void Residual(const PbtiSettings& settings, const ArticulationConfig& config,
                Eigen::VectorXd* residual);
  /// θ-space gradient of a row: Σ over its ends of lin·J_x + ang·J_ω (jacobian_ current).
  void AddRow(const Row& row, Real scale, Eigen::VectorXd* g) const;
  /// Groups the columns of G whose rows do not overlap (Curtis-Powell-Reid), from the bodies
  /// each coordinate moves and the rows coupling bodies at θ_n: one pair of residual evaluations
  /// per group instead of per coordinate.
  void GroupDifferenceColumns(const PbtiSettings& settings);
  /// The contact forces of the final iterate into `contacts` [N].
  void WriteContacts(const PbtiSettings& settings, Contacts* contacts) const;
  /// Normal and friction force of contact c at the rows' last evaluation [N].
  Real NormalForce(const PbtiSettings& settings, int c) const;
  Vec3 FrictionForce(const PbtiSettings& settings, int c) const;

  Articulation articulation_;
  BodyBlocks blocks_;
  ConstraintSet constraints_;
  const Control* control_ = nullptr;
  Real dt_ = 0;
  std::vector<Pose> start_pose_;   ///< X_WB at θ_n
  std::vector<Mat3> previous_R_;   ///< R_{n−1} = exp(−Δt [ω_n]) R_n per body
  std::vector<Real> start_value_;  ///< row values at θ_n (drive damping)
  std::vector<Pose> poses_;        ///< scratch of Residual
  Eigen::MatrixXd jacobian_;       ///< (6 bodies) × n at poses_
  std::vector<std::vector<int>> difference_groups_;  ///< columns of G differenced together
  std::vector<std::vector<int>> column_rows_;        ///< per column, the rows it can reach
  // the Levenberg-Marquardt iteration's scratch (no allocation per step once sized)
  Eigen::MatrixXd G_, normal_, damped_;
  Eigen::LDLT<Eigen::MatrixXd> ldlt_;
  Eigen::VectorXd residual_, plus_, minus_, trial_, step_, rhs_, delta_;
  ArticulationConfig probe_;  ///< a differenced or trial configuration
};

}  // namespace sim
