// The linearized system of one non-smooth Newton iteration (seed 002 eq. (53)-(64), digest §6.4):
//
//   [ H   −Jᵀ ] [ Δu   ]     [ g ]      g = M̃(u − ũ) − Δt Jᵀλ                        eq. (78)
//   [ J    C  ] [ ΔλΔt ] = − [ h ]      h = [(1/Δt)(c_b + Eλ_b); (1/Δt)φ_n; φ_f]       eq. (79)
//
// reduced by the Schur complement on H to (J H⁻¹ Jᵀ + C + εI) x = J H⁻¹ g − h with x = ΔλΔt, and
// Δu = H⁻¹(Jᵀx − g) (eq. (80)-(81)). H is block diagonal (6×6 per rigid body with the world
// inertia at q⁻, 3×3 per particle plus the geometric-stiffness diagonal), so H⁻¹ is applied per
// block and the Schur matrix is never formed (digest §9.2, [T §4.9]).
//
// Rows, in a fixed order for the whole step (flat arrays, one Row per scalar constraint):
//   joint rows (bilateral locked rows, limit rows, drive rows, joint friction rows) → coupling
//   (mimic) rows → attachment rows (3 per attached particle, c = x_p − X_WB·p_B along the world
//   axes) → contact normal rows → 2 friction rows per contact → FEM element rows (6 per tet,
//   element_rows.h; kept in their own packed form, not as Rows, with a 3×3 compliance block per
//   tet). A joint friction row is a 1-D friction cone with a constant bound F: C = W/Δt,
//   h = Ju + Wλ, W of eq. (104)/(105). Bilateral compliant rows with stiffness k, damping d,
//   target c*, v*:
//     C = 1/(Δt(kΔt + d)),  h = (k(c − c*) + d(Ju − v*) + λ)/(kΔt + d)   (k = ∞: C = 0,
//     h = (c − c*)/Δt), which is (1/Δt)(c + Eλ) with E = 1/k when d = 0 (eq. (79)).
//   Unilateral rows (contacts, joint limits): J = α∇C G, C = S/Δt², h = φ/Δt with the r-scaled
//   NCP of ncp.h, r = Δt²[J M̃⁻¹ Jᵀ]_ii (effective-mass preconditioner, eq. (87)) evaluated at
//   q⁻ and held for the step (the sources leave this open, digest §7).
//   Friction rows: J = DᵀG, C = W/Δt, h = Dᵀu + Wλ_f when μλ_n > 0; otherwise J = 0, C = 1/Δt,
//   h = λ_f, which drives stale friction to zero without changing the structure (digest §6.6).
#pragma once

#include <vector>

#include "engine/core/math.h"
#include "engine/dynamics/body_blocks.h"
#include "engine/dynamics/constraint_rows.h"
#include "engine/dynamics/constraint_set.h"
#include "engine/model/model.h"
#include "engine/solvers/nsn/element_preconditioner.h"
#include "engine/solvers/nsn/element_rows.h"
#include "engine/solvers/nsn/joint_preconditioner.h"
#include "engine/solvers/nsn/linear_solvers.h"
#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/solvers/nsn/schur_arrays.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"
#include "engine/state/state.h"

namespace sim::nsn {

/// Convergence measures of the current iterate (see IterationRecord).
struct IterateErrors {
  Real normal = 0;  ///< max |min(C, rλ)| over unilateral rows [m]
  /// max over active contacts of |Dᵀu + Wλ_f| (compliance) or r·|λ_f − P(z)| (projection) [m/s]
  Real friction = 0;
  /// max |c − c*| of rigid rows, |h|·Δt of compliant ones [m or rad], and of element rows
  /// |E φ| times the largest element's size (ElementRows::length_scale) [m]
  Real bilateral = 0;
  Real joint = 0;    ///< the joint and attachment rows' part of `bilateral` [m or rad]
  Real element = 0;  ///< the element rows' part of `bilateral`, max |E φ| [-]
  /// max over free blocks of the momentum residual as a velocity, |g_lin|/m and |g_ang|/Ī with
  /// Ī the mean principal inertia [m/s, rad/s]: what a damped step has left of eq. (78)
  Real momentum = 0;
  /// max (|λ̂_f| − λ_n)/λ_n over contacts carrying at least 1e-3 of the largest normal force:
  /// how far friction stands outside its (scaled, digest §4.4.c) cone [-]
  Real cone = 0;
  Real merit = 0;  ///< ‖[g; h]‖₂
};

class NewtonSystem final : public SchurOperator {
 public:
  /// Start of a step: q⁻, M̃ (world inertia at q⁻), ũ (gravity, external forces and the
  /// gyroscopic term), the row layout, and the starting iterate u = 0 (digest §8) with λ = 0 or,
  /// with settings.warm_start, the previous step's multipliers carried in the State. `in` must
  /// outlive the step (WriteState reads it).
  void Begin(const Model& model, const State& in, const Control& control, const Contacts& contacts,
             Real dt);

  /// Rows, C, h, g, the diagonal and the errors at the current iterate.
  void Assemble();

  /// b = J H⁻¹ g − h.
  void BuildRhs(VectorX* b) const;

  /// Δu = H⁻¹(Jᵀx − g), kept internally for ApplyStep.
  void RecoverVelocity(const VectorX& x);

  /// λ += α x/Δt, u += αΔu, q = q⁻ + Δt G(q⁻) u with quaternion renormalization (eq. (82)-(84)
  /// with the erratum of digest §19 #8). Returns ‖αΔu‖∞.
  Real ApplyStep(Real alpha, const VectorX& x);

  /// An iterate (u, λ, q) saved whole.
  struct Iterate {
    std::vector<Vec3> v, w, x;
    std::vector<Quat> q;
    VectorX lambda;
  };
  /// Saves the current iterate to `to` / makes `from` the current iterate (unassembled).
  void SaveIterate(Iterate* to) const;
  void RestoreIterate(const Iterate& from);
  /// The same with the system's own slot (line search trials).
  void SaveIterate() { SaveIterate(&trial_); }
  void RestoreIterate() { RestoreIterate(trial_); }

  /// Remembers the physical row gradients of the accepted iterate, before ApplyStep moves it
  /// (the other end of the geometric-stiffness secant; line-search trials do not count).
  void KeepGradients();

  /// Diagonal secant estimate of the geometric stiffness on particle DOFs (digest §10, with the
  /// sign and Δλ fixes of §19 #13): c_k = Δt[(J_phys(qⁿ⁺¹) − J_phys(qⁿ))ᵀλⁿ⁺¹]_k / Δu_k,
  /// H̃_kk = M̃_kk − min(0, c_k). With the FEM shear rows, the element rows' part of c_k is the
  /// closed-form diagonal Δt² K_rot of their rotation modes instead (ElementRows::
  /// AddRotationStiffness). Rigid bodies get the closed-form rotational stiffness of the joints'
  /// point rows in their angular block (UpdateRotationalStiffness). Call after Assemble() of the
  /// new iterate, with KeepGradients() called before the step that produced it.
  void UpdateGeometricStiffness();

  /// Writes q, u, the time and the contact forces and end gaps.
  void WriteState(State* out) const;
  void WriteContacts(Contacts* contacts) const;

  const IterateErrors& errors() const { return errors_; }
  const NsnSettings& settings() const { return settings_; }  ///< the step's, set by Begin
  /// max(−C_n, 0) over contacts at the current iterate [m]
  Real max_penetration() const { return constraints_.max_penetration(); }
  /// max |c| over positional joint rows [m]
  Real max_joint_error() const { return constraints_.max_joint_error(); }
  int active_contact_count() const;
  bool IsFinite() const;

  int row_count() const { return static_cast<int>(rows_.size()); }
  int bilateral_row_count() const { return constraints_.bilateral_row_count(); }
  int unilateral_row_count() const { return constraints_.unilateral_row_count(); }
  int friction_row_count() const { return 2 * constraints_.contact_count(); }
  /// FEM element rows (6 per tet), numbered after every other row: [row_count(), size()).
  int element_row_count() const { return elements_.row_count(); }
  int dof_count() const { return static_cast<int>(blocks_.dof_count()); }

  // direct access for tests (residual Jacobians by central differences)
  const std::vector<Row>& rows() const { return rows_; }
  const std::vector<Row>& gradients() const { return constraints_.gradients(); }
  const VectorX& residual_h() const { return h_; }
  const VectorX& compliance_diagonal() const { return c_diag_; }
  const VectorX& lambda() const { return lambda_; }
  RowType row_type(int i) const { return constraints_.type(i); }
  /// Generalized velocity u as one vector (6 per body [v, ω], 3 per particle).
  void GetVelocity(VectorX* u) const;
  void SetVelocity(const VectorX& u);  ///< also moves q = q⁻ + Δt G u
  void SetLambda(const VectorX& lambda) { lambda_ = lambda; }

  // SchurOperator
  int size() const override { return row_count() + element_row_count(); }
  void Apply(const VectorX& x, VectorX* y) const override { ApplyDot(x, y); }
  Real ApplyDot(const VectorX& x, VectorX* y) const override;
  const VectorX& diagonal() const override { return diag_; }
  void GaussSeidelSweep(const VectorX& b, VectorX* x) const override;
  Eigen::SparseMatrix<Real> AssembleMatrix() const override;
  /// blockdiag(A_jj⁻¹, D_other⁻¹, A_ee⁻¹): the exact joint block (joint_preconditioner.h, with
  /// settings.joint_preconditioner = exact) on the joint rows, the exact element block
  /// (element_preconditioner.h, with settings.fem_preconditioner = woodbury) on the element rows
  /// and the rows with particle ends, the diagonal on the others.
  bool has_preconditioner() const override;
  void ApplyPreconditioner(const VectorX& r, VectorX* z) const override;

  /// The arrays the Schur product reads, as spans over this system's storage (valid until the
  /// next Begin or Assemble).
  const SchurArrays<Real>& arrays() const { return arrays_; }

  /// Refactors the joint and element blocks of the preconditioner at the current iterate (after
  /// Assemble; nothing for a block without rows or with its diagonal setting).
  void UpdatePreconditioner();

 private:
  void WarmStart(const State& in);
  /// The rigid bodies' part of UpdateGeometricStiffness: the joints' point rows in closed form.
  void UpdateRotationalStiffness();
  void ApplyInverseH(const std::vector<Vec3>& lin, const std::vector<Vec3>& ang,
                     std::vector<Vec3>* out_lin, std::vector<Vec3>* out_ang) const;
  void AccumulateJt(const VectorX& x, std::vector<Vec3>* lin, std::vector<Vec3>* ang) const;
  /// A joint friction row (RowType::kFriction before the contact rows).
  void AssembleJointFrictionRow(int i);
  /// row i holds its force at `held` while its rate `rate` [m/s or rad/s] moves freely: a
  /// slipping joint-friction row, a saturated drive (needs the row's r_)
  void HoldRowForce(int i, Real rate, Real held);
  void BuildIncidence();
  /// Points arrays_ at the current storage (after BuildIncidence).
  void DescribeArrays();

  const Model* model_ = nullptr;
  const State* in_ = nullptr;  // the step's input (q⁻, u⁻)
  Real dt_ = 0;
  NsnSettings settings_;
  BodyBlocks blocks_;          // M̃, ũ and the iterate (q, u); inv_mass carries the GS shift
  ConstraintSet constraints_;  // layout, meaning, values and physical gradients of the rows

  std::vector<Vec3> block_gs_shift_;      // geometric stiffness shift per block [kg]
  std::vector<Mat3> rotation_stiffness_;  // −Σ λ ∂²c/∂θ² per body [N·m]
  std::vector<Vec3> dv_, dw_;             // Newton step Δu
  std::vector<Vec3> v_prev_;
  Iterate trial_;  // SaveIterate()'s slot
  // per-block scratch of the products: Jᵀx (lin, ang) and H⁻¹Jᵀx (lin2, ang2)
  mutable std::vector<Vec3> scratch_lin_, scratch_ang_, scratch_lin2_, scratch_ang2_;
  std::vector<Vec3> g_lin_, g_ang_;  // momentum residual g [N·s]

  // rows
  std::vector<Row> rows_;  // assembled J (NCP-scaled for unilateral rows)
  std::vector<Row> gradients_prev_;
  // The assembled J packed for the Schur products, rebuilt by each Assemble, as plain arrays
  // (schur_arrays.h, arrays()): by rows (the used ends only) for J t, and by blocks for Jᵀx, so
  // Jᵀx is a gather per block (no write conflicts between threads) and both products stream
  // through contiguous memory
  std::vector<int> packed_row_begin_, packed_end_block_;
  std::vector<Vec3> packed_end_lin_, packed_end_ang_;
  std::vector<int> incidence_begin_, incidence_cursor_, incidence_row_;
  std::vector<Vec3> incidence_lin_, incidence_ang_;
  SchurArrays<Real> arrays_;  // spans over the above, the blocks and the element rows
  VectorX lambda_, c_diag_, h_, diag_;
  VectorX r_;              // complementarity scale per unilateral row / friction pair
  bool r_frozen_ = false;  // r is computed at the first assembly of the step
  std::vector<unsigned char> friction_active_;
  /// per contact, the frame T of its friction rows (identity for the compliance form)
  std::vector<Eigen::Matrix2d> friction_frame_;
  VectorX lambda_rows_;   // λ with each contact's friction pair in its frame's coordinates
  ElementRows elements_;  // rows [row_count(), size())
  ElementPreconditioner element_preconditioner_;
  JointPreconditioner joint_preconditioner_;  // rigid rows of [0, attachment_row_begin)
  std::vector<unsigned char> joint_block_rows_;
  /// whether a body's rotational geometric stiffness Δt²·λ_max exceeds kHeavyJointLoad times its
  /// mean inertia (a light link carrying a heavy load), at the last UpdateRotationalStiffness:
  /// joint_preconditioner = auto then uses the exact joint block (kept across steps)
  bool heavy_joint_load_ = false;
  static constexpr Real kHeavyJointLoad = 10;

  IterateErrors errors_;
};

}  // namespace sim::nsn
