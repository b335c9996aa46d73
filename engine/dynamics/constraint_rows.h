// Constraint rows in maximal coordinates: value c(q) and gradient ∇c·G (the Jacobian row with
// respect to the generalized velocity u = [v, ω] of each body, ω in world frame; digest §2.3,
// §2.9). Joints are sets of rows (the sources give none, digest §2.4 assumption; these are the
// standard maximal-coordinate forms, each with an exact gradient):
//   point rows     c_k = (p_C − p_P)·e_k, k = x,y,z          ball, revolute, fixed
//                  ∂/∂u: child [e_k, r_C × e_k], parent −[e_k, r_P × e_k]
//   slide rows     c_i = (p_C − p_P)·n_i, n_i ⟂ axis fixed in P     prismatic (2 rows)
//                  parent angular part gains n_i × (p_C − p_P) because n_i turns with P
//   hinge rows     c_i = a_P·b_i,C, b_i ⟂ a fixed in C         revolute, continuous (2 rows)
//   lock rows      c = y_P·z_C, z_P·x_C, x_P·y_C               fixed, prismatic (3 rows)
//                  d(a_P·b_C)/dt = (a_P × b_C)·(ω_P − ω_C)
//   coordinate     θ = 2·atan2(q_rel,vec·a, q_rel,w) (revolute) or s = (p_C − p_P)·a_P (prismatic),
//                  ∂θ/∂u = a·(ω_C − ω_P) (exact on the hinge manifold); used by limits
//                  (unilateral rows θ − lower ≥ 0, upper − θ ≥ 0) and by drives.
//   planar         c = (p_C − p_P)·a_P (slide row along the normal) + the 2 hinge rows   (3 rows)
//   joint friction the coordinate row's rate θ̇ = ∂θ/∂u·u with |λ| ≤ F: the 1-D friction cone
//                  of digest §4.4 with the bound F in place of μλ_n (stick: θ̇ = 0, slide:
//                  λ = −F sign θ̇), compliance W of eq. (104)/(105)
//   coupling       c = θ_f − m·θ_l − b (mimic), ∂c/∂u = ∂θ_f/∂u − m·∂θ_l/∂u over up to four
//                  bodies (ends on a shared body are merged), wrapped to (−π, π] when both
//                  joints are angular and m = ±1
// Contact rows: C_n = nᵀ(a − b) − d, ∂/∂u: A [n, r_A × n], B −[n, r_B × n] (digest §2.9);
// friction rows the same with the tangent directions (digest §2.10, D = [t b]).
#pragma once

#include <array>

#include "engine/core/math.h"
#include "engine/model/model.h"
#include "engine/state/contacts.h"
#include "engine/state/state.h"

namespace sim {

/// The coefficients of one row on one DOF block (a body or a particle). For particles `ang` is
/// unused. `block` < 0 means the static world (no coefficients).
struct RowEnd {
  int block = -1;
  Vec3 lin = Vec3::Zero();
  Vec3 ang = Vec3::Zero();
};

/// Most DOF blocks one row touches: a body or particle on each side of a joint or rigid contact,
/// or a surface triangle's three particles against a body or a particle.
inline constexpr int kMaxRowEnds = 4;

/// A Jacobian row over at most kMaxRowEnds DOF blocks (unused ends have block −1). Plain data,
/// stored in flat arrays.
struct Row {
  std::array<RowEnd, kMaxRowEnds> end;
};

/// What a joint row means to the solver.
enum class JointRowKind : unsigned char {
  kLocked = 0,   ///< bilateral, compliance = joint compliance
  kPointLocked,  ///< bilateral positional row (counts towards the joint error in metres)
  kLimitLower,   ///< unilateral, value = θ − lower ≥ 0
  kLimitUpper,   ///< unilateral, value = upper − θ ≥ 0
  kDrive,        ///< bilateral compliant row, value = θ (the target is applied by the solver)
  kFriction,     ///< joint friction: velocity row with |λ| ≤ model.JointFrictionLimit(j)
};

/// One row of a joint at the current configuration.
struct JointRow {
  Row row;
  Real value = 0;
  JointRowKind kind = JointRowKind::kLocked;
};

/// Most rows any joint produces: 6 locked, or 5 locked + 2 limits + 1 drive + 1 friction.
inline constexpr int kMaxJointRows = 9;

/// Pose of a DOF block's frame (the body frame at the COM), with kWorldBody as identity.
struct JointBodies {
  Pose X_WP;  ///< parent pose (identity for the world)
  Pose X_WC;  ///< child pose
  int parent_block = -1;
  int child_block = -1;
};

/// Number of rows joint `j` produces (constant for a model).
int JointRowCount(const Model& model, int j);

/// True when joint `j`'s first three rows are its point rows along world x, y, z (ball,
/// revolute, continuous, fixed).
bool HasPointRows(const Model& model, int j);

/// Rotational geometric stiffness of joint j's point rows carrying the force `force` = Σ_k λ_k e_k
/// on the child [N]: for each side the Hessian −Σ_k λ_k ∂²c_k/∂θ² over its world rotation θ,
/// ∓[½(f rᵀ + r fᵀ) − (f·r) I] with r the side's COM → anchor lever (c_k = e_k·(anchor_C −
/// anchor_P), R(θ)r ≈ (I + [θ]× + ½[θ]×²) r) [N·m]. A link in tension gets a positive stiffness.
void JointPointStiffness(const Model& model, int j, const JointBodies& bodies, const Vec3& force,
                         Mat3* parent, Mat3* child);

/// Fills `rows` (at least JointRowCount entries) for joint `j`; returns the row count.
int BuildJointRows(const Model& model, int j, const JointBodies& bodies, JointRow* rows);

/// The joint coordinate θ [rad] or s [m] of revolute/continuous/prismatic joints (0 otherwise).
Real JointCoordinate(const Model& model, int j, const Pose& X_WP, const Pose& X_WC);

/// The same, of joint `j` at the body poses of `state` (the world is the identity).
Real JointCoordinate(const Model& model, const State& state, int j);

/// Rows of the model's joint couplings (one per JointCoupling), after all joint rows.
inline int CouplingRowCount(const Model& model) {
  return static_cast<int>(model.joint_couplings.size());
}

/// The row of coupling `k`: value c = θ_f − m·θ_l − b and its gradient, given the bodies of the
/// follower joint and of the leader joint. Kind kLocked (rigid).
JointRow BuildCouplingRow(const Model& model, int k, const JointBodies& follower,
                          const JointBodies& leader);

/// `angle` mapped to [−π, π) [rad].
Real WrapAngle(Real angle);


/// One side of a contact as the rows see it: a rigid block with the lever arm r from its centre
/// of mass to the point [m], or up to three particle blocks whose weighted sum is the point.
struct ContactRowSide {
  std::array<int, 3> block = {-1, -1, -1};  ///< block per particle, or block[0] = the body
  Vec3 weights = Vec3(1, 0, 0);             ///< particle weights (barycentric)
  Vec3 lever = Vec3::Zero();                ///< rigid side only [m]
  bool particles = false;
};

/// Writes the row of a contact between two sides along `direction` into `row` (A gets
/// +direction, B −direction); together the sides use at most kMaxRowEnds blocks, the rest of
/// the row's ends get block −1.
void FillContactRow(const Vec3& direction, const ContactRowSide& a, const ContactRowSide& b,
                    Row* row);

/// Row value J u for the velocity vector of each block (lin, ang per block).
inline Real RowDot(const Row& row, const Vec3* lin, const Vec3* ang) {
  Real value = 0;
  for (const RowEnd& e : row.end) {
    if (e.block < 0) continue;
    value += e.lin.dot(lin[e.block]) + e.ang.dot(ang[e.block]);
  }
  return value;
}

/// a·ka + b·kb for two rows over the same blocks end by end (a contact's two tangent rows).
inline Row CombineRows(const Row& a, Real ka, const Row& b, Real kb) {
  Row row = a;
  for (int e = 0; e < kMaxRowEnds; ++e) {
    row.end[e].lin = ka * a.end[e].lin + kb * b.end[e].lin;
    row.end[e].ang = ka * a.end[e].ang + kb * b.end[e].ang;
  }
  return row;
}

}  // namespace sim
