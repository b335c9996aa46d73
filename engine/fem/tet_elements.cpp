#include "engine/fem/tet_elements.h"

#include <algorithm>

namespace sim {

namespace {

// [x1 − x0, x2 − x0, x3 − x0] of the particles of `tet`
Mat3 EdgeMatrix(const std::array<int, 4>& tet, const std::vector<Vec3>& x) {
  Mat3 d;
  for (int k = 0; k < 3; ++k) d.col(k) = x[tet[k + 1]] - x[tet[0]];
  return d;
}

}  // namespace


void InitSoftBodyElements(SoftBody* body) {
  const int n = body->tet_count();
  body->tet_rest_inverse.resize(n);
  body->tet_rest_volume.resize(n);
  for (int t = 0; t < n; ++t) {
    Mat3 dm;
    const std::array<int, 4>& tet = body->tets[t];
    for (int k = 0; k < 3; ++k) {
      dm.col(k) = body->rest_positions[tet[k + 1] - body->first_particle] -
                  body->rest_positions[tet[0] - body->first_particle];
    }
    body->tet_rest_volume[t] = dm.determinant() / 6;
    body->tet_rest_inverse[t] = dm.inverse();
  }
}


FemMaterialParameters SoftBodyMaterial(const SoftBody& body) {
  return MakeFemMaterial(body.material_model, body.youngs_modulus, body.poisson_ratio);
}


PressureWave EstimatePressureWave(const Model& model, const SoftBody& body, Real dt) {
  if (body.tet_count() == 0) return {};
  Real volume = 0, mass = 0;
  for (Real v : body.tet_rest_volume) volume += v;
  for (int p = body.first_particle; p < body.first_particle + body.particle_count; ++p) {
    mass += model.particle_mass[p];
  }
  if (!(volume > 0) || !(mass > 0)) return {};
  const FemMaterialParameters material = SoftBodyMaterial(body);
  PressureWave wave;
  wave.speed = std::sqrt((material.lambda + 2 * material.mu) / (mass / volume));
  // the edge of a regular tet of the mean volume, V = a³/(6√2)
  wave.edge = std::cbrt(6 * std::sqrt(2.0) * volume / body.tet_count());
  wave.cells = wave.speed * dt / wave.edge;
  return wave;
}


Real ActivationScale(const SoftBody& body, Real time) {
  if (!(body.activation_ramp_time > 0)) return 1;
  return std::clamp<Real>(time / body.activation_ramp_time, 0, 1);
}


TetRest GrownTetRest(const SoftBody& body, int t, Real scale) {
  if (body.tet_growth.empty() || scale == 0) {
    return {body.tet_rest_inverse[t], body.tet_rest_volume[t]};
  }
  const Mat3 growth = Mat3::Identity() + scale * (body.tet_growth[t] - Mat3::Identity());
  return {body.tet_rest_inverse[t] * growth.inverse(),
          growth.determinant() * body.tet_rest_volume[t]};
}


Mat3 TetDeformationGradient(const SoftBody& body, int t, const std::vector<Vec3>& x) {
  return EdgeMatrix(body.tets[t], x) * body.tet_rest_inverse[t];
}


Real CalcSoftBodyEnergy(const Model& model, int s, const std::vector<Vec3>& x, Real time) {
  const SoftBody& body = model.soft_bodies[s];
  const FemMaterialParameters material = SoftBodyMaterial(body);
  const Real scale = ActivationScale(body, time);
  Real energy = 0;
  for (int t = 0; t < body.tet_count(); ++t) {
    const Real activation = body.tet_activation.empty() ? 0 : scale * body.tet_activation[t];
    const TetRest rest = GrownTetRest(body, t, scale);
    const Mat3 F = EdgeMatrix(body.tets[t], x) * rest.inverse;  // the elastic part F G⁻¹
    energy += rest.volume * CalcEnergyDensity(material, F, activation);
  }
  return energy;
}


void AddSoftBodyElasticForces(const Model& model, int s, const std::vector<Vec3>& x, Real time,
                              std::vector<Vec3>* forces) {
  const SoftBody& body = model.soft_bodies[s];
  const FemMaterialParameters material = SoftBodyMaterial(body);
  const Real scale = ActivationScale(body, time);
  for (int t = 0; t < body.tet_count(); ++t) {
    const Real activation = body.tet_activation.empty() ? 0 : scale * body.tet_activation[t];
    const TetRest rest = GrownTetRest(body, t, scale);
    const Mat3 F = EdgeMatrix(body.tets[t], x) * rest.inverse;  // the elastic part F G⁻¹
    const Mat3 P = CalcFirstPiolaStress(material, F, activation);
    // [f1 f2 f3] = −V P D_m⁻ᵀ, f0 = −(f1 + f2 + f3), with the grown rest data
    const Mat3 f = -rest.volume * P * rest.inverse.transpose();
    const std::array<int, 4>& tet = body.tets[t];
    for (int k = 0; k < 3; ++k) {
      (*forces)[tet[k + 1]] += f.col(k);
      (*forces)[tet[0]] -= f.col(k);
    }
  }
}

}  // namespace sim
