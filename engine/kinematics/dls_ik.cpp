#include "engine/kinematics/dls_ik.h"

#include <algorithm>
#include <cmath>

#include <Eigen/SVD>

namespace sim {

namespace {

using Vec6 = Eigen::Matrix<Real, 6, 1>;

// rotation vector of R_T R_Eᵀ (world frame): the angle in [0, π] times the unit axis
Vec3 RotationError(const Quat& q_WE, const Quat& q_WT) {
  Quat delta = q_WT * q_WE.conjugate();
  if (delta.w() < 0) delta.coeffs() = -delta.coeffs();
  const Eigen::AngleAxis<Real> angle_axis(delta.normalized());
  return angle_axis.angle() * angle_axis.axis();
}


// `v` shortened to at most `max_norm`
Vec3 Clamped(const Vec3& v, Real max_norm) {
  const Real norm = v.norm();
  return norm > max_norm ? Vec3(v * (max_norm / norm)) : v;
}

// ½‖e‖² of the weighted, unclamped task error
Real WeightedError(const Pose& X_WE, const IkTarget& target) {
  const Real position = target.position_weight * (target.X_WT.p - X_WE.p).norm();
  const Real rotation = target.orientation_weight * RotationError(X_WE.q, target.X_WT.q).norm();
  return 0.5 * (position * position + rotation * rotation);
}


// step halvings tried before a call gives up its step (2⁻⁸ of the first)
constexpr int kMaxHalvings = 9;

}  // namespace


void PoseError(const Pose& X_WE, const Pose& X_WT, Real* position_error, Real* rotation_error) {
  *position_error = (X_WT.p - X_WE.p).norm();
  *rotation_error = RotationError(X_WE.q, X_WT.q).norm();
}


DlsIk::DlsIk(KinematicChain chain, DlsOptions options)
    : chain_(std::move(chain)), options_(std::move(options)) {
  const int n = chain_.size();
  // rest posture: the middle of the limits, 0 where unlimited
  rest_ = VecX::Zero(n);
  for (int k = 0; k < n; ++k) {
    if (std::isfinite(chain_.lower[k]) && std::isfinite(chain_.upper[k])) {
      rest_[k] = 0.5 * (chain_.lower[k] + chain_.upper[k]);
    }
  }
  jacobian_.resize(6, n);
  weighted_.resize(6, n);
  inv_sqrt_weight_ = VecX::Ones(n);
  step_.resize(n);
  posture_.resize(n);
  active_.resize(n);
}


void DlsIk::SolveActive(const Vec6& error, IkResult* result) {
  const int n = chain_.size();
  // W^(−1/2)-scaled Jacobian of the active joints; clamped joints' motion is already out of e
  for (int k = 0; k < n; ++k) {
    weighted_.col(k) = active_[k] ? Vec6(jacobian_.col(k) * inv_sqrt_weight_[k]) : Vec6::Zero();
  }
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(weighted_, Eigen::ComputeThinU | Eigen::ComputeThinV);
  // σ_min over the task's rank: rows with weight 0 and inactive joints add zero singular values
  const int task_rows = ((weighted_.topRows(3).array() != 0).any() ? 3 : 0) +
                        ((weighted_.bottomRows(3).array() != 0).any() ? 3 : 0);
  const int rank = std::min<int>(task_rows, static_cast<int>(active_.sum()));
  const auto& sigma = svd.singularValues();
  const Real sigma_min = rank > 0 ? sigma[rank - 1] : 0;
  // adaptive damping (Nakamura & Hanafusa 1986): λ² = (1 − (σ_min/ε)²) λ_max² below ε
  const Real eps = options_.singular_threshold;
  const Real ratio = sigma_min / eps;
  const Real lambda2 =
      sigma_min >= eps ? 0 : (1 - ratio * ratio) * options_.damping_max * options_.damping_max;
  result->damping = std::sqrt(lambda2);
  result->min_singular = sigma_min;

  // z = Σ σᵢ/(σᵢ² + λ²) vᵢ uᵢᵀ e  +  (I − Σ σᵢ²/(σᵢ² + λ²) vᵢ vᵢᵀ) z₀   (weighted joint space)
  const auto& U = svd.matrixU();
  const auto& V = svd.matrixV();
  VecX z = posture_;
  for (int k = 0; k < n; ++k) {
    if (!active_[k]) z[k] = 0;
  }
  const VecX z0 = z;
  for (int i = 0; i < rank; ++i) {
    const Real s = sigma[i];
    const Real denominator = s * s + lambda2;
    if (denominator <= 0) continue;
    z += V.col(i) * ((s * U.col(i).dot(error) - s * s * V.col(i).dot(z0)) / denominator);
  }
  for (int k = 0; k < n; ++k) {
    if (active_[k]) step_[k] = inv_sqrt_weight_[k] * z[k];
  }
}


IkResult DlsIk::Step(const Pose& X_WBase, const VecX& q_in, const IkTarget& target) {
  const int n = chain_.size();
  IkResult result;
  const VecX q = q_in.cwiseMax(chain_.lower).cwiseMin(chain_.upper);
  const Pose X_WE = ChainForwardKinematics(chain_, X_WBase, q, &jacobian_);

  // weighted, clamped task error and the Jacobian rows weighted alike
  const Vec3 position_error = target.X_WT.p - X_WE.p;
  const Vec3 rotation_error = RotationError(X_WE.q, target.X_WT.q);
  result.position_error = position_error.norm();
  result.rotation_error = rotation_error.norm();
  Vec6 error;
  error << target.position_weight * Clamped(position_error, options_.max_position_error),
      target.orientation_weight * Clamped(rotation_error, options_.max_rotation_error);
  jacobian_.topRows(3) *= target.position_weight;
  jacobian_.bottomRows(3) *= target.orientation_weight;

  // joint weights and the posture goal, both in the weighted joint space x = W^(1/2) q
  for (int k = 0; k < n; ++k) {
    const Real weight = options_.joint_weights.size() == n ? options_.joint_weights[k] : 1;
    inv_sqrt_weight_[k] = 1 / std::sqrt(weight);
    posture_[k] = options_.posture_gain * (rest_[k] - q[k]) / inv_sqrt_weight_[k];
  }

  // the step with the posture term, and without it where that one does not lower the error
  // (with λ > 0 the damped null-space projector leaks the posture pull into the task)
  const Real error_now = WeightedError(X_WE, target);
  for (const bool posture : {true, false}) {
    if (!posture) posture_.setZero();
    SolveWithLimits(q, error, &result);
    if (LineSearch(X_WBase, q, target, error_now, &result.q)) break;
  }
  return result;
}


void DlsIk::SolveWithLimits(const VecX& q, const Vec6& error, IkResult* result) {
  const int n = chain_.size();
  // solve, clamp joints that would cross a limit, re-solve without them
  active_.setOnes();
  step_.setZero();
  result->saturated = 0;
  Vec6 remaining = error;
  for (int pass = 0; pass <= n; ++pass) {
    SolveActive(remaining, result);
    bool clamped = false;
    for (int k = 0; k < n; ++k) {
      if (!active_[k]) continue;
      const Real next = q[k] + step_[k];
      if (next <= chain_.upper[k] && next >= chain_.lower[k]) continue;
      step_[k] = std::clamp(next, chain_.lower[k], chain_.upper[k]) - q[k];
      active_[k] = 0;
      remaining -= jacobian_.col(k) * step_[k];
      ++result->saturated;
      clamped = true;
    }
    if (!clamped) break;
  }
}


bool DlsIk::LineSearch(const Pose& X_WBase, const VecX& q, const IkTarget& target, Real error_now,
                       VecX* q_next) {
  const int n = chain_.size();
  // velocity cap: scale the whole step (its direction kept; the box of limits is convex, so the
  // scaled step stays inside)
  Real scale = 1;
  if (options_.max_step.size() == n) {
    for (int k = 0; k < n; ++k) {
      const Real cap = options_.max_step[k];
      if (std::abs(step_[k]) > cap) scale = std::min(scale, cap / std::abs(step_[k]));
    }
  }
  // back-tracking: halve the step until the weighted task error does not grow (Armijo-style
  // acceptance with zero slope), so successive errors never increase, even where the damped
  // step overshoots at the workspace boundary; no acceptable step leaves q where it is
  *q_next = q;
  for (int halving = 0; halving < kMaxHalvings; ++halving, scale *= 0.5) {
    const VecX trial = (q + scale * step_).cwiseMax(chain_.lower).cwiseMin(chain_.upper);
    if (WeightedError(ChainForwardKinematics(chain_, X_WBase, trial), target) <= error_now) {
      *q_next = trial;
      return true;
    }
  }
  return false;
}

}  // namespace sim
