// Constant-strain tetrahedra of a soft body: rest data, and the elastic energy and nodal forces
// evaluated directly from F (the reference the NSN element rows are tested against).
//
//   D_m = [X1 − X0, X2 − X0, X3 − X0]   rest edge matrix,  V_e = det(D_m)/6
//   F = D_s D_m⁻¹                       deformation gradient (digest nsn-and-friction.md §2.6)
//   U = Σ_e V_e Ψ(F_e)                  elastic energy [J]
//   f_a = −∂U/∂x_a:  [f1 f2 f3] = −V_e P(F) D_m⁻ᵀ,  f0 = −(f1 + f2 + f3)   (Sifakis & Barbič 2012)
#pragma once

#include <vector>

#include "engine/core/math.h"
#include "engine/fem/fem_material.h"
#include "engine/model/model.h"

namespace sim {

/// Fills `body->tet_rest_inverse` and `body->tet_rest_volume` from its rest positions and tets.
/// Precondition: every tet is positively oriented (ValidateTetMesh).
void InitSoftBodyElements(SoftBody* body);

/// The material constants of a soft body (its model, Young's modulus and Poisson ratio).
FemMaterialParameters SoftBodyMaterial(const SoftBody& body);

/// The pressure wave of a soft body over one step of `dt` [s]: its speed c = √((λ + 2μ)/ρ) (ρ the
/// body's particles' mass over its rest volume) [m/s], h the edge of a regular tet of its mean
/// volume [m], and the element layers c·Δt/h it crosses [-]. All 0 for a body without tets.
struct PressureWave {
  Real speed = 0;
  Real edge = 0;
  Real cells = 0;
};
PressureWave EstimatePressureWave(const Model& model, const SoftBody& body, Real dt);

/// Inner iterations a Jacobi-preconditioned Krylov solve needs per element layer a pressure wave
/// crosses in a step (c·Δt/h), to keep a soft body from gaining energy as it rolls; and to keep it
/// stable (measured, scene_soft_bodies.cpp)
inline constexpr double kIterationsPerWaveCell = 4.0;
inline constexpr double kStableIterationsPerWaveCell = 2.0;

/// Fraction of the activation applied at simulated time `time` [s]: the linear ramp of
/// `activation_ramp_time`, then 1.
Real ActivationScale(const SoftBody& body, Real time);

/// Rest data of tet `t` with its activation growth at ramp fraction `scale` (ActivationScale):
/// G = I + scale (G_full − I), D_m⁻¹ G⁻¹ maps the deformed edges to the elastic part F_e = F G⁻¹,
/// and the grown volume det(G)·V_e weights its energy. Without growth, the rest data unchanged.
struct TetRest {
  Mat3 inverse;  ///< D_m⁻¹ G⁻¹ [1/m]
  Real volume;   ///< det(G) V_e [m³]
};
TetRest GrownTetRest(const SoftBody& body, int t, Real scale);

/// Deformation gradient of tet `t` of `body` for particle positions `x` (all particles) [-],
/// measured from the mesh's rest shape (the activation growth included: what the viewport shows).
Mat3 TetDeformationGradient(const SoftBody& body, int t, const std::vector<Vec3>& x);

/// Elastic energy of soft body `s` [J] for particle positions `x`, activation at `time` [s].
Real CalcSoftBodyEnergy(const Model& model, int s, const std::vector<Vec3>& x, Real time = 0);

/// Adds the elastic forces f = −∂U/∂x [N] of soft body `s` to `forces` (one per particle of the
/// model, sized by the caller).
void AddSoftBodyElasticForces(const Model& model, int s, const std::vector<Vec3>& x, Real time,
                              std::vector<Vec3>* forces);

}  // namespace sim
