// The principal-stretch material functions of fem_material.h for several tets at once, one per
// lane of a GCC/Clang vector type V (two or four doubles: engine/core/real_lanes.h), as the NSN
// element rows evaluate them for every tet at every Newton iterate (nsn/element_rows.cpp):
//   ∂Ψ/∂s and ∂²Ψ/∂s²     EvalPrincipalEnergy (linear co-rotational or stable Neo-Hookean, per
//                          lane, plus the activation −p(J − 1))
//   the shear terms a      EvalPairStiffness's `shear`: a = (Ψ_i − Ψ_j)/(s_i − s_j) in closed form
//   E = H⁻¹                CalcProjectedCompliance where it needs no eigen-decomposition (H −
//   floor·I
//                          positive definite for kProjected, always for kDiagonal); the lanes it
//                          leaves are returned for the scalar function
// Same formulas as the scalar functions (fem_material.h file comment), so each lane matches them to
// round-off (the 3×3 inverse by cofactors, as Eigen's).
#pragma once

#include "engine/core/real_lanes.h"
#include "engine/fem/fem_material.h"
#include "engine/fem/svd3_lanes.h"

namespace sim {

/// FemMaterialParameters per lane; `corotational` is 1 for the linear co-rotational model, 0 for
/// stable Neo-Hookean.
template <class V>
struct MaterialLanes {
  V mu, lambda, c1, d1, alpha, corotational;
};

/// ∂Ψ/∂s (`gradient`) and ∂²Ψ/∂s² (`hessian`) at stretches `s` with activation pressure
/// `activation` [Pa], per lane.
template <class V>
[[gnu::always_inline]] inline void EvalPrincipalDerivativesLanes(const MaterialLanes<V>& m,
                                                                 const V (&s)[3],
                                                                 const V& activation,
                                                                 V (&gradient)[3],
                                                                 Mat3Lanes<V>* hessian) {
  const V J = s[0] * s[1] * s[2];
  const V dJ[3] = {s[1] * s[2], s[0] * s[2], s[0] * s[1]};  // ∂J/∂s
  const auto d2J = [&s](int i, int j) { return i == j ? V{} : s[3 - i - j]; };
  const auto corotational = m.corotational != 0;
  // linear co-rotational: 2μ(s − 1) + λ tr, 2μ I + λ 11ᵀ; stable Neo-Hookean: 2C1 s + 2D1(J − α)
  // ∂J/∂s, 2C1 I + 2D1(∂J ∂Jᵀ + (J − α) ∂²J)
  const V trace = s[0] + s[1] + s[2] - 3;
  const V volume = J - m.alpha;
  for (int i = 0; i < 3; ++i) {
    const V linear = 2 * m.mu * (s[i] - 1) + m.lambda * trace;
    const V neo_hookean = 2 * m.c1 * s[i] + 2 * m.d1 * volume * dJ[i];
    gradient[i] = (corotational ? linear : neo_hookean) - activation * dJ[i];
    for (int j = 0; j < 3; ++j) {
      const V identity = i == j ? V{} + 1 : V{};
      const V linear_ij = 2 * m.mu * identity + m.lambda;
      const V neo_hookean_ij =
          2 * m.c1 * identity + 2 * m.d1 * (dJ[i] * dJ[j] + volume * d2J(i, j));
      hessian->m[i][j] = (corotational ? linear_ij : neo_hookean_ij) - activation * d2J(i, j);
    }
  }
}

/// The shear terms a of the pairs (0, 1), (0, 2), (1, 2) (EvalPairStiffness's `shear`), per lane.
template <class V>
[[gnu::always_inline]] inline void EvalPairShearLanes(const MaterialLanes<V>& m, const V (&s)[3],
                                                      const V& activation, V (&shear)[3]) {
  constexpr int kThird[3] = {2, 1, 0};  // the third index k of each pair
  const V J = s[0] * s[1] * s[2];
  const auto corotational = m.corotational != 0;
  for (int p = 0; p < 3; ++p) {
    const V sk = s[kThird[p]];
    // activation: p s_k; linear co-rotational: 2μ; stable Neo-Hookean: 2C1 − 2D1(J − α)s_k
    const V material = corotational ? 2 * m.mu : 2 * m.c1 - 2 * m.d1 * (J - m.alpha) * sk;
    shear[p] = activation * sk + material;
  }
}

/// E = CalcProjectedCompliance(H, mode, floor) and its projected Hessian per lane, for the lanes
/// that need no eigen-decomposition: every lane for kDiagonal; for kProjected the lanes whose
/// H − floor·I passes Sylvester's test (E = H⁻¹ by cofactors, the projected Hessian H itself).
/// Returns the mask of those lanes; the others of `E` and `projected` are left undefined.
template <class V>
[[gnu::always_inline]] inline auto CalcProjectedComplianceLanes(const Mat3Lanes<V>& H,
                                                                FemComplianceMode mode,
                                                                const V& floor, Mat3Lanes<V>* E,
                                                                Mat3Lanes<V>* projected) {
  const auto& h = H.m;
  if (mode == FemComplianceMode::kDiagonal) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) E->m[i][j] = projected->m[i][j] = V{};
      const V magnitude = h[i][i] < 0 ? -h[i][i] : h[i][i];
      const V stiffness = magnitude > floor ? magnitude : floor;
      projected->m[i][i] = stiffness;
      E->m[i][i] = 1 / stiffness;
    }
    return floor == floor;  // every lane
  }
  // Sylvester: the leading minors of H − floor·I are positive
  const V s00 = h[0][0] - floor, s11 = h[1][1] - floor, s22 = h[2][2] - floor;
  const V m2 = s00 * s11 - h[0][1] * h[1][0];
  const V m3 = s00 * (s11 * s22 - h[1][2] * h[2][1]) -
               h[0][1] * (h[1][0] * s22 - h[1][2] * h[2][0]) +
               h[0][2] * (h[1][0] * h[2][1] - s11 * h[2][0]);
  const auto definite = (s00 > 0) & (m2 > 0) & (m3 > 0);
  // the inverse by cofactors (Eigen's 3×3 inverse): cofactor matrix over the determinant
  V cofactor[3][3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      cofactor[i][j] = h[i1][j1] * h[i2][j2] - h[i1][j2] * h[i2][j1];
    }
  }
  const V determinant =
      h[0][0] * cofactor[0][0] + h[0][1] * cofactor[0][1] + h[0][2] * cofactor[0][2];
  const V inverse_determinant = 1 / (definite ? determinant : V{} + 1);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      E->m[i][j] = cofactor[j][i] * inverse_determinant;
      projected->m[i][j] = h[i][j];
    }
  }
  return definite;
}

}  // namespace sim
