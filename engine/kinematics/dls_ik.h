// Damped-least-squares inverse kinematics, one bounded step per call (it runs every simulation
// step, so one call is one step of an iteration that the next steps continue).
//
// Task error e = [w_p (p_T − p_E); w_o log(R_T R_Eᵀ)] (world frame; log: the rotation vector),
// each part clamped to a largest length per call (Buss & Kim 2005, "clamping the target"). With
// the task Jacobian J (rows weighted like e) and diagonal joint weights W, the step is
//   Δq = W⁻¹Jᵀ(J W⁻¹Jᵀ + λ²I)⁻¹ e + (I − J⁺J) k₀ (q_rest − q)                 (Buss 2004, eq. 11;
// the damped pseudo-inverse J⁺ = W⁻¹Jᵀ(J W⁻¹Jᵀ + λ²I)⁻¹, Wampler 1986 / Nakamura & Hanafusa 1986)
// computed from the SVD J W^(−1/2) = U Σ Vᵀ as Σᵢ σᵢ/(σᵢ² + λ²) vᵢ uᵢᵀ. The damping is singularity
// robust: λ = 0 while the smallest singular value σ_min ≥ ε, else λ² = (1 − (σ_min/ε)²) λ_max²
// (Nakamura & Hanafusa 1986; Chiaverini 1997), so a well-conditioned arm converges like
// Gauss–Newton and a singular one takes bounded steps.
//
// Joint limits: a joint whose step would cross a limit is clamped to it, removed from the active
// set, its motion taken out of e, and the rest re-solved (the clamping loop of Baerlocher & Boulic
// 2004 / Chan & Dubey 1995); the returned q always lies inside the limits. Finally the whole step
// is scaled (direction kept) so no joint moves faster than its velocity cap.
//
// Unreachable targets: the step is a damped Gauss–Newton step on ½‖e‖² with a line search, so the
// iteration descends to the reachable pose closest to the target in the weighted metric (a local
// minimum where Jᵀe = 0 on the active joints) and stays there: the error never increases, and at
// the workspace boundary, where the damped step along the vanishing singular direction would
// overshoot (σ/(σ² + λ²) is large while the radial error is not small), the halvings shrink it
// to what still reduces the error, so the arm settles stretched towards the target instead of
// flipping its elbow back and forth.
#pragma once

#include "engine/kinematics/kinematic_chain.h"

namespace sim {

/// A 6-DoF target pose for the end effector, with the weights of its two parts.
struct IkTarget {
  Pose X_WT;                    ///< target pose of the end-effector frame, world
  Real position_weight = 1;     ///< w_p [1/m]; 0 ignores the position
  Real orientation_weight = 1;  ///< w_o [1/rad]; 0 ignores the orientation (position only)
};

struct DlsOptions {
  Real damping_max = 0.05;         ///< λ_max, in weighted task units per weighted joint unit
  Real singular_threshold = 0.05;  ///< ε: damping starts below this σ_min
  Real max_position_error = 0.1;   ///< clamp of ‖p_T − p_E‖ per call [m]
  Real max_rotation_error = 0.5;   ///< clamp of the rotation error angle per call [rad]
  Real posture_gain = 0.1;         ///< k₀ of the null-space term per call [-], 0: none
  /// joint weights W (diagonal; a larger weight moves that joint less), empty: all 1
  VecX joint_weights;
  /// largest |Δq_k| per call [rad|m] (a velocity cap times the step); empty: none
  VecX max_step;
};

/// What one IK call computed.
struct IkResult {
  VecX q;                   ///< next joint positions, inside the limits [rad|m]
  Real position_error = 0;  ///< ‖p_T − p_E‖ before the step [m]
  Real rotation_error = 0;  ///< angle of R_T R_Eᵀ before the step [rad]
  Real damping = 0;         ///< λ used [-]
  Real min_singular = 0;    ///< σ_min of the weighted Jacobian [-]
  int saturated = 0;        ///< joints clamped at a limit in this step
};

/// Errors of the end-effector pose X_WE against the target: position [m], rotation angle [rad].
void PoseError(const Pose& X_WE, const Pose& X_WT, Real* position_error, Real* rotation_error);

/// Damped-least-squares IK on one chain, with its options, rest posture and work buffers.
class DlsIk {
 public:
  explicit DlsIk(KinematicChain chain, DlsOptions options = {});

  const KinematicChain& chain() const { return chain_; }
  const DlsOptions& options() const { return options_; }
  DlsOptions& options() { return options_; }
  /// The null-space goal q_rest [rad|m] (default: the middle of each joint's limits, 0 where
  /// unlimited).
  void set_rest_posture(const VecX& rest) { rest_ = rest; }
  const VecX& rest_posture() const { return rest_; }

  /// One step from joint positions q (clamped into the limits first) towards `target`, the
  /// chain's base at X_WBase. Returns q + Δq inside the limits with every |Δq_k| ≤ max_step_k.
  IkResult Step(const Pose& X_WBase, const VecX& q, const IkTarget& target);

 private:
  // damped solve on the active joints: writes the step in the weighted joint space
  void SolveActive(const Eigen::Matrix<Real, 6, 1>& error, IkResult* result);
  // the active-set loop: joints that would cross a limit are clamped there and the rest
  // re-solved; leaves the step in step_
  void SolveWithLimits(const VecX& q, const Eigen::Matrix<Real, 6, 1>& error, IkResult* result);
  // scales step_ to the velocity cap, then halves it until the error does not grow; false (and
  // *q_next = q) when no halving helps
  bool LineSearch(const Pose& X_WBase, const VecX& q, const IkTarget& target, Real error_now,
                  VecX* q_next);

  KinematicChain chain_;
  DlsOptions options_;
  VecX rest_;
  // work buffers
  Jacobian6 jacobian_, weighted_;
  VecX inv_sqrt_weight_, step_, posture_;
  Eigen::Matrix<int, Eigen::Dynamic, 1> active_;
};

}  // namespace sim
