#include "engine/fem/strain_measures.h"

#include <algorithm>
#include <cmath>


#include "engine/fem/svd3.h"
#include "engine/fem/tet_elements.h"
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

// von Mises stress [Pa] of the principal Cauchy stresses σ_i = s_i ∂Ψ/∂s_i / J of `material` at
// principal stretches `s` with J = det F, and activation pressure `activation` [Pa]
Real VonMisesStress(const FemMaterialParameters& material, const Vec3& s, Real J, Real activation) {
  if (!(std::abs(J) > 1e-12)) return 0;
  const Vec3 sigma = s.cwiseProduct(EvalPrincipalEnergy(material, s, activation).gradient) / J;
  const Real d12 = sigma(0) - sigma(1), d23 = sigma(1) - sigma(2), d31 = sigma(2) - sigma(0);
  return std::sqrt(0.5 * (d12 * d12 + d23 * d23 + d31 * d31));
}

}  // namespace


TetStrain CalcTetStrain(const std::array<Vec3, 4>& rest, const std::array<Vec3, 4>& x,
                        Real youngs_modulus, Real poisson_ratio) {
  return CalcTetStrain(
      rest, x, MakeFemMaterial(FemMaterialModel::kStableNeoHookean, youngs_modulus, poisson_ratio));
}


TetStrain CalcTetStrain(const std::array<Vec3, 4>& rest, const std::array<Vec3, 4>& x,
                        const FemMaterialParameters& material) {
  TetStrain strain;
  const Mat3 dm = EdgeMatrix(rest);
  // a flat rest tet has no strain to speak of (the loader rejects them; stay finite anyway)
  if (!(std::abs(dm.determinant()) > 0)) return strain;
  const Mat3 F = EdgeMatrix(x) * dm.inverse();
  const Real J = F.determinant();
  strain.volumetric = J - 1;
  // principal stretches: singular values, the smallest signed by det F (rotation-variant SVD)
  const Vec3 s = CalcSvd3(F).sigma;
  strain.stretches = s;
  strain.von_mises = VonMisesStress(material, s, J, 0);
  return strain;
}


void CalcSoftBodyNodeStrain(const Model& model, const State& state, int soft_body,
                            std::vector<float>* volumetric_strain, std::vector<float>* von_mises) {
  const SoftBody& body = model.soft_bodies[soft_body];
  const int n = body.particle_count;
  std::vector<Real> sum_volumetric(n, 0), sum_von_mises(n, 0), weight(n, 0);
  const FemMaterialParameters material = SoftBodyMaterial(body);
  const Real scale = ActivationScale(body, state.time);
  for (int t = 0; t < body.tet_count(); ++t) {
    const std::array<int, 4>& tet = body.tets[t];
    // a flat rest tet has no strain to speak of (the loader rejects them; stay finite anyway)
    const Real volume = std::abs(body.tet_rest_volume[t]);
    if (!(volume > 0)) continue;
    std::array<Vec3, 4> x;
    for (int k = 0; k < 4; ++k) x[k] = state.particle_x_W[tet[k]];
    const Mat3 edges = EdgeMatrix(x);
    // the strain from the mesh's rest shape (an inflated chamber shows its growth); the stress of
    // the elastic part F G⁻¹ with the activation pressure, which is what the material bears
    const Mat3 F = edges * body.tet_rest_inverse[t];
    const Mat3 F_elastic =
        body.tet_growth.empty() ? F : edges * GrownTetRest(body, t, scale).inverse;
    const Real pressure = body.tet_activation.empty() ? 0 : scale * body.tet_activation[t];
    const Real stress =
        VonMisesStress(material, CalcSvd3(F_elastic).sigma, F_elastic.determinant(), pressure);
    const Real volumetric = F.determinant() - 1;
    // weight by rest volume so small slivers do not dominate a node's value
    for (int k = 0; k < 4; ++k) {
      const int node = tet[k] - body.first_particle;
      sum_volumetric[node] += volume * volumetric;
      sum_von_mises[node] += volume * stress;
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
