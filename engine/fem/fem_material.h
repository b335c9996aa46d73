// Hyperelastic materials of constant-strain tetrahedra, written in the principal stretches
// s = (s1, s2, s3) of F (rotation-variant SVD F = U diag(s) Vᵀ, engine/fem/svd3.h), which is the
// form the compliance rows of the NSN solver need (digest nsn-and-friction.md §2.7, seed 002
// §9.2). Energies are densities per unit rest volume [Pa = J/m³].
//
// Linear co-rotational (the "linear co-rotational" model of seed 002 Fig. 13; Müller & Gross
// 2004, written with the polar rotation R = UVᵀ as Ψ = μ‖F − R‖² + λ/2 tr(RᵀF − I)²):
//   Ψ = μ Σ(s_i − 1)² + λ/2 (Σ s_i − 3)²
//   ∂Ψ/∂s_i = 2μ(s_i − 1) + λ(Σ s − 3),   ∂²Ψ/∂s² = 2μ I + λ 11ᵀ  (constant, positive definite)
//
// Stable Neo-Hookean in compliance form (digest §2.8, seed 000 App. B, with erratum §19 #14):
//   Ψ = C1 (I_C − 3) + D1 (J − α)² − D1 (1 − α)²,   I_C = Σ s_i²,  J = s1 s2 s3
//   ∂Ψ/∂s_i = 2 C1 s_i + 2 D1 (J − α) J/s_i        (J/s_i = s_j s_k: no division)
//   ∂²Ψ/∂s_i² = 2 C1 + 2 D1 (s_j s_k)²,   ∂²Ψ/∂s_i∂s_j = 2 D1 s_k (2J − α)
//   α = 1 + C1/D1 (zero stress at rest). The constant −D1(1 − α)² makes Ψ(I) = 0.
//   Lamé mapping: C1 = μ/2, D1 = (λ + μ)/2. This deviates on purpose from the digest's suggested
//   D1 = λ/2: with it the rest tangent ∂²Ψ/∂F² equals linear elasticity's (shear modulus μ, bulk
//   modulus λ + 2μ/3), so small deformations match Hooke's law (the cantilever reference) exactly;
//   with D1 = λ/2 the rest bulk modulus would be λ − μ/3. It is Smith et al. 2018's own
//   reparameterization λ' = λ + μ for the energy without their log term.
//
// Volumetric activation (PneuNet inflation, seed 002 §10 / digest §13: "a uniform internal
// volumetric stress added to each tet"): an internal pressure p [Pa] adds Ψ_act = −p (J − 1), whose
// stress −p J F⁻ᵀ pushes the tet to expand for p > 0.
//
// Stress and tangent in F (for tests, strain measures and reference forces; Irving et al. 2004,
// Teran et al. 2005): P = U diag(∂Ψ/∂s) Vᵀ; ∂P/∂F in the (U, V) frame has the diagonal block
// ∂²Ψ/∂s² on (F̂_11, F̂_22, F̂_33) and, per pair i ≠ j, the 2×2 block [[α, β], [β, α]] on
// (F̂_ij, F̂_ji) with α = (a + b)/2, β = (a − b)/2, a = (Ψ_i − Ψ_j)/(s_i − s_j),
// b = (Ψ_i + Ψ_j)/(s_i + s_j), each evaluated in closed form (no 0/0 at repeated stretches).
#pragma once

#include <Eigen/Core>

#include "engine/core/math.h"
#include "engine/model/model.h"

namespace sim {

/// How an element's principal-stretch Hessian is made positive definite before it is inverted
/// into the compliance E (digest §2.7).
enum class FemComplianceMode { kProjected = 0, kDiagonal };

/// Constants of one material, from Young's modulus and Poisson's ratio.
struct FemMaterialParameters {
  FemMaterialModel model = FemMaterialModel::kStableNeoHookean;
  Real mu = 0;      ///< Lamé shear modulus μ = Y / (2(1 + ν)) [Pa]
  Real lambda = 0;  ///< Lamé λ = Y ν / ((1 + ν)(1 − 2ν)) [Pa]
  Real c1 = 0;      ///< stable Neo-Hookean C1 = μ/2 [Pa]
  Real d1 = 0;      ///< stable Neo-Hookean D1 = (λ + μ)/2 [Pa]
  Real alpha = 1;   ///< stable Neo-Hookean α = 1 + C1/D1 [-]
};

/// The constants of `model` for Young's modulus `youngs_modulus` [Pa] > 0 and Poisson's ratio
/// `poisson_ratio` in (−1, 0.5).
FemMaterialParameters MakeFemMaterial(FemMaterialModel model, Real youngs_modulus,
                                      Real poisson_ratio);

/// Energy density and its derivatives in the principal stretches.
struct PrincipalEnergy {
  Real psi = 0;                  ///< Ψ [Pa]
  Vec3 gradient = Vec3::Zero();  ///< ∂Ψ/∂s [Pa]
  Mat3 hessian = Mat3::Zero();   ///< ∂²Ψ/∂s² [Pa], symmetric, possibly indefinite
};

/// Ψ, ∂Ψ/∂s and ∂²Ψ/∂s² at stretches `s` with activation pressure `activation` [Pa].
PrincipalEnergy EvalPrincipalEnergy(const FemMaterialParameters& material, const Vec3& s,
                                    Real activation = 0);

/// Stiffness of the two off-diagonal modes of each stretch pair (i, j) = (0, 1), (0, 2), (1, 2),
/// entries in that order: `shear` a = (Ψ_i − Ψ_j)/(s_i − s_j) on the symmetric mode
/// (F̂_ij + F̂_ji)/√2 and `rotation` b = (Ψ_i + Ψ_j)/(s_i + s_j) on the antisymmetric one
/// (F̂_ij − F̂_ji)/√2, F̂ = UᵀFV [Pa]. This is the part of ∂²Ψ/∂F² that principal-stretch rows do
/// not see (it is Σ_i Ψ_i ∂²s_i/∂F²); at rest a = 2μ, b = 0.
struct PairStiffness {
  Vec3 shear = Vec3::Zero();
  Vec3 rotation = Vec3::Zero();
};

PairStiffness EvalPairStiffness(const FemMaterialParameters& material, const Vec3& s,
                                Real activation = 0);

/// Energy density Ψ(F) [Pa] (F of a constant-strain tet, any sign of det F).
Real CalcEnergyDensity(const FemMaterialParameters& material, const Mat3& F, Real activation = 0);

/// First Piola-Kirchhoff stress P = ∂Ψ/∂F [Pa].
Mat3 CalcFirstPiolaStress(const FemMaterialParameters& material, const Mat3& F,
                          Real activation = 0);

using Mat9 = Eigen::Matrix<Real, 9, 9>;

/// ∂P/∂F [Pa] as a 9×9 matrix acting on vec(F) (column-major: vec(F)_{3c + r} = F(r, c)).
/// Exact where the stretches are distinct and s_i + s_j ≠ 0 (the co-rotational b term divides
/// by s_i + s_j, clamped away from 0).
Mat9 CalcFirstPiolaDerivative(const FemMaterialParameters& material, const Mat3& F,
                              Real activation = 0);

/// Positive definite compliance E of a symmetric 3×3 Hessian H (E in the inverse units of H): its
/// inverse after it is made positive definite (digest §2.7: "project it to the PD cone if needed
/// (Teran et al. 2005), or use a diagonal approximation"):
///   kProjected  eigenvalues replaced by their absolute values, at least `floor`:
///               E = Q diag(1/max(|λ_k|, floor)) Qᵀ (Chen et al. 2024's absolute-value filter; a
///               positive definite H is inverted directly)
///   kDiagonal   off-diagonal dropped, E = diag(1/max(|H_ii|, floor))
/// `floor` > 0. `projected_hessian`, when given, receives the PD matrix whose inverse E is.
Mat3 CalcProjectedCompliance(const Mat3& hessian, FemComplianceMode mode, Real floor,
                             Mat3* projected_hessian = nullptr);

}  // namespace sim
