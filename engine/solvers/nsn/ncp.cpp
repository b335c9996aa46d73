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
  // Fischer-Burmeister; the element α = 0, β = 1 of the Clarke subgradient at the origin
  const Real norm = std::sqrt(gap * gap + scaled * scaled);
  if (norm < kTiny) {
    v.phi = 0;
    v.dphi_dgap = 0;
    v.dphi_dlambda = r;
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

}  // namespace sim::nsn
