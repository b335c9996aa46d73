#include "engine/fem/strain_measures.h"

#include <algorithm>
#include <cmath>

#include <Eigen/SVD>

#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim {

namespace {

// edge matrix [x1 − x0, x2 − x0, x3 − x0] of a tet [m]
Mat3 EdgeMatrix(const std::array<Vec3, 4>& x) {
  Mat3 d;
  for (int k = 0; k < 3; ++k) d.col(k) = x[k + 1] - x[0];
  return d;
}

}  // namespace


TetStrain CalcTetStrain(const std::array<Vec3, 4>& rest, const std::array<Vec3, 4>& x,
                        Real youngs_modulus, Real poisson_ratio) {
  TetStrain strain;
  const Mat3 dm = EdgeMatrix(rest);
  // a flat rest tet has no strain to speak of (the loader rejects them; stay finite anyway)
  if (!(std::abs(dm.determinant()) > 0)) return strain;
  const Mat3 F = EdgeMatrix(x) * dm.inverse();
  const Real J = F.determinant();
  strain.volumetric = J - 1;
  // principal stretches: singular values, the smallest signed by det F (rotation-variant SVD)
  Vec3 s = Eigen::JacobiSVD<Mat3>(F).singularValues();
  if (J < 0) s[2] = -s[2];
  strain.stretches = s;
  // principal Cauchy stress differences of stable Neo-Hookean: 2 C1 (s_i² − s_j²) / J, C1 = μ/2
  const Real mu = youngs_modulus / (2 * (1 + poisson_ratio));
  if (std::abs(J) > 1e-12) {
    const Real scale = mu / J;
    const Real d12 = scale * (s[0] * s[0] - s[1] * s[1]);
    const Real d23 = scale * (s[1] * s[1] - s[2] * s[2]);
    const Real d31 = scale * (s[2] * s[2] - s[0] * s[0]);
    strain.von_mises = std::sqrt(0.5 * (d12 * d12 + d23 * d23 + d31 * d31));
  }
  return strain;
}


void CalcSoftBodyNodeStrain(const Model& model, const State& state, int soft_body,
                            std::vector<float>* volumetric_strain, std::vector<float>* von_mises) {
  const SoftBody& body = model.soft_bodies[soft_body];
  const int n = body.particle_count;
  const Real mu = body.youngs_modulus / (2 * (1 + body.poisson_ratio));
  std::vector<Real> sum_volumetric(n, 0), sum_von_mises(n, 0), weight(n, 0);
  for (const std::array<int, 4>& tet : body.tets) {
    std::array<Vec3, 4> rest, x;
    for (int k = 0; k < 4; ++k) {
      rest[k] = body.rest_positions[tet[k] - body.first_particle];
      x[k] = state.particle_x_W[tet[k]];
    }
    // the same J − 1 and σ_vm as CalcTetStrain without its SVD (this runs for every rendered
    // frame): the squared stretches are the eigenvalues of B = F Fᵀ, so
    // Σ_{i<j} (s_i² − s_j²)² = 3 tr(B²) − tr(B)² and σ_vm = |μ/J| √(½ (3 tr(B²) − tr(B)²))
    const Mat3 dm = EdgeMatrix(rest);
    const Real volume = std::abs(dm.determinant()) / 6;
    if (!(volume > 0)) continue;
    const Mat3 F = EdgeMatrix(x) * dm.inverse();
    const Real J = F.determinant();
    const Mat3 B = F * F.transpose();
    const Real trace = B.trace();
    const Real spread = std::max<Real>(0, 3 * B.squaredNorm() - trace * trace);
    const Real tet_von_mises = std::abs(J) > 1e-12 ? std::abs(mu / J) * std::sqrt(0.5 * spread) : 0;
    // weight by rest volume so small slivers do not dominate a node's value
    for (int k = 0; k < 4; ++k) {
      const int node = tet[k] - body.first_particle;
      sum_volumetric[node] += volume * (J - 1);
      sum_von_mises[node] += volume * tet_von_mises;
      weight[node] += volume;
    }
  }
  volumetric_strain->assign(n, 0.0f);
  von_mises->assign(n, 0.0f);
  for (int i = 0; i < n; ++i) {
    if (weight[i] <= 0) continue;
    (*volumetric_strain)[i] = static_cast<float>(sum_volumetric[i] / weight[i]);
    (*von_mises)[i] = static_cast<float>(sum_von_mises[i] / weight[i]);
  }
}

}  // namespace sim
