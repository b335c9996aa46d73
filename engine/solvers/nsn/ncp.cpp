#include "engine/solvers/nsn/ncp.h"

#include <algorithm>
#include <cmath>

namespace sim::nsn {

namespace {

// below this the FB root is treated as the non-differentiable origin (digest §4.3 assumption)
constexpr Real kTiny = 1e-30;

}  // namespace


NcpValue EvalNcp(NcpFunction ncp, Real gap, Real lambda, Real r) {
  NcpValue v;
  const Real scaled = r * lambda;
  if (ncp == NcpFunction::kMinMap) {
    // active when C ≤ rλ: the row is the constraint itself; else it drives λ to 0
    if (gap <= scaled) {
      v.phi = gap;
      v.dphi_dgap = 1;
      v.dphi_dlambda = 0;
    } else {
      v.phi = scaled;
      v.dphi_dgap = 0;
      v.dphi_dlambda = r;
    }
    return v;
  }
  // Fischer-Burmeister; at the origin the element α = 1, β = 0 of the Clarke subgradient
  // {(1 − a, 1 − b) : a² + b² ≤ 1}: a contact that begins at zero gap with no force is taken
  // active, so its normal force (and the friction bound μλ_n) grows from the first iteration
  // instead of the second (the digest's α = 0, β = 1 lets a box landing on a slope slide freely
  // for one iteration, and the excess outlives the step near the friction threshold)
  const Real norm = std::sqrt(gap * gap + scaled * scaled);
  if (norm < kTiny) {
    v.phi = 0;
    v.dphi_dgap = 1;
    v.dphi_dlambda = 0;
    return v;
  }
  v.phi = gap + scaled - norm;
  v.dphi_dgap = 1 - gap / norm;
  v.dphi_dlambda = (1 - scaled / norm) * r;
  return v;
}


Real FrictionCompliance(NcpFunction ncp, Real slip, Real friction, Real mu_normal, Real r) {
  const Real reserve = mu_normal - friction;  // distance to the cone boundary [N]
  if (ncp == NcpFunction::kMinMap) {
    // stick when the slip is inside the scaled reserve, else slide on the cone, eq. (105)
    if (slip <= r * reserve) return 0;
    return (slip - r * reserve) / mu_normal;
  }
  // eq. (104) with the corrected denominator; numerator → 0 means stick (W = 0)
  const Real root = std::sqrt(slip * slip + r * r * reserve * reserve);
  const Real numerator = root - r * reserve;
  const Real denominator = slip + r * mu_normal - root;
  // numerator ≥ 0 always; a vanishing numerator is the stick case (digest §4.4.b assumption)
  if (numerator <= 1e-14 * (slip + r * std::abs(reserve)) || numerator <= kTiny) return 0;
  if (denominator <= kTiny) {
    // |λ_f|^{n+1} ≤ 0: the force estimate collapsed; fall back to the sliding value
    return slip / mu_normal;
  }
  return std::max<Real>(0, r * numerator / denominator);
}


Eigen::Vector2d AnisotropicFrictionCompliance(NcpFunction ncp, const Eigen::Vector2d& slip_tb,
                                              const Eigen::Vector2d& force_tb, Real normal_force,
                                              Real mu_t, Real mu_b, Real r) {
  // scaled slip v̂ = L⁻ᵀ v and force λ̂ = L λ_f with L = diag(1/μ_t, 1/μ_b) (digest §4.4.c)
  const Eigen::Vector2d slip_hat(mu_t * slip_tb.x(), mu_b * slip_tb.y());
  const Eigen::Vector2d force_hat(force_tb.x() / mu_t, force_tb.y() / mu_b);
  const Real r_hat = r * 0.5 * (mu_t * mu_t + mu_b * mu_b);
  const Real w_hat =
      FrictionCompliance(ncp, slip_hat.norm(), force_hat.norm(), normal_force, r_hat);
  return {w_hat / (mu_t * mu_t), w_hat / (mu_b * mu_b)};
}

ProjectedFriction ProjectFriction(const Eigen::Vector2d& slip_tb, const Eigen::Vector2d& force_tb,
                                  Real normal_force, Real mu_t, Real mu_b, Real r) {
  // the round-cone frame: s̃ = D s, λ̃ = D⁻¹λ with D = diag(μ_t, μ_b)/μ̄, so λ̃·s̃ = λ_f·s and
  // the cone is |λ̃| ≤ μ̄λ_n (r needs no change: D² averages to 1 over the two rows)
  const Real mu_bar = std::sqrt(0.5 * (mu_t * mu_t + mu_b * mu_b));
  const Eigen::Vector2d scale(mu_t / mu_bar, mu_b / mu_bar);
  const Eigen::Vector2d slip = scale.cwiseProduct(slip_tb);
  const Eigen::Vector2d force = force_tb.cwiseQuotient(scale);
  const Real limit = mu_bar * normal_force;
  const Eigen::Vector2d z = force - slip / r;
  const Real z_norm = z.norm();
  ProjectedFriction rows;
  // stick strictly inside the cone: the hard row s̃ = 0 (a force on the boundary slides, so a
  // contact whose neighbour held the body at zero slip keeps its force there)
  if (z_norm < limit * (1 - 1e-9)) {
    rows.frame = scale.asDiagonal();
    rows.residual = slip;
    rows.error = slip.norm();
    return rows;
  }
  // slide: rotate so the first row is along ẑ; its force is held at the cone, the second row
  // (across the slide) is compliant with the projection's derivative
  const Eigen::Vector2d along = z_norm > 0 ? Eigen::Vector2d(z / z_norm) : Eigen::Vector2d(1, 0);
  Eigen::Matrix2d rotation;
  rotation << along.x(), along.y(), -along.y(), along.x();  // rows: ẑ, ẑ⊥
  rows.frame = rotation * scale.asDiagonal();
  rows.sliding = true;
  const Eigen::Vector2d slip_r = rotation * slip;
  const Eigen::Vector2d force_r = rotation * force;
  const Real kappa = z_norm > 0 ? limit / z_norm : 1;  // ≤ 1 on this branch
  const Real slide_compliance = kSlideForceCompliance * r;
  rows.compliance = {slide_compliance, r * (1 - kappa) / kappa};
  rows.residual = {slip_r.x() + slide_compliance * (force_r.x() - limit), r * force_r.y() / kappa};
  rows.error = r * (force - limit * along).norm();
  return rows;
}

}  // namespace sim::nsn
