#include "engine/fem/fem_material.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "engine/fem/svd3.h"

namespace sim {

namespace {

// stretches whose sum is below this are treated as this (the co-rotational b term, inverted tets)
constexpr Real kMinStretchSum = 1e-8;

// the two pair terms a = (Ψ_i − Ψ_j)/(s_i − s_j) and b = (Ψ_i + Ψ_j)/(s_i + s_j) of the pair
// (i, j), k the third index, in closed form per material (file comment of fem_material.h)
void PairTerms(const FemMaterialParameters& m, const Vec3& s, int i, int j, int k, Real activation,
               Real* a, Real* b) {
  const Real J = s(0) * s(1) * s(2);
  // activation −p(J − 1): Ψ_i = −p s_j s_k ⇒ a = p s_k, b = −p s_k
  *a = activation * s(k);
  *b = -activation * s(k);
  if (m.model == FemMaterialModel::kLinearCorotational) {
    // Ψ_i = 2μ(s_i − 1) + λ(Σs − 3): a = 2μ, b = 2μ + (2λ(Σs − 3) − 4μ)/(s_i + s_j)
    Real sum = s(i) + s(j);
    if (std::abs(sum) < kMinStretchSum) sum = sum < 0 ? -kMinStretchSum : kMinStretchSum;
    *a += 2 * m.mu;
    *b += 2 * m.mu + (2 * m.lambda * (s.sum() - 3) - 4 * m.mu) / sum;
    return;
  }
  // Ψ_i = 2C1 s_i + 2D1(J − α) s_j s_k: a = 2C1 − 2D1(J − α)s_k, b = 2C1 + 2D1(J − α)s_k
  *a += 2 * m.c1 - 2 * m.d1 * (J - m.alpha) * s(k);
  *b += 2 * m.c1 + 2 * m.d1 * (J - m.alpha) * s(k);
}

// rotation-variant SVD of F for the F-based functions (exact sweeps, no guess)
Svd3 Decompose(const Mat3& F) { return CalcSvd3(F, Mat3::Identity(), 20); }

}  // namespace


FemMaterialParameters MakeFemMaterial(FemMaterialModel model, Real youngs_modulus,
                                      Real poisson_ratio) {
  FemMaterialParameters m;
  m.model = model;
  m.mu = youngs_modulus / (2 * (1 + poisson_ratio));
  m.lambda = youngs_modulus * poisson_ratio / ((1 + poisson_ratio) * (1 - 2 * poisson_ratio));
  // C1 = μ/2, D1 = (λ + μ)/2: the rest tangent of linear elasticity (file comment)
  m.c1 = m.mu / 2;
  m.d1 = (m.lambda + m.mu) / 2;
  m.alpha = 1 + m.c1 / m.d1;  // zero stress at rest, erratum §19 #14
  return m;
}


PairStiffness EvalPairStiffness(const FemMaterialParameters& material, const Vec3& s,
                                Real activation) {
  PairStiffness pairs;
  constexpr int kPairs[3][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}};
  for (int p = 0; p < 3; ++p) {
    PairTerms(material, s, kPairs[p][0], kPairs[p][1], kPairs[p][2], activation, &pairs.shear(p),
              &pairs.rotation(p));
  }
  return pairs;
}


PrincipalEnergy EvalPrincipalEnergy(const FemMaterialParameters& m, const Vec3& s,
                                    Real activation) {
  PrincipalEnergy e;
  const Real J = s(0) * s(1) * s(2);
  const Vec3 dJ(s(1) * s(2), s(0) * s(2), s(0) * s(1));  // ∂J/∂s
  Mat3 d2J;                                              // ∂²J/∂s²
  d2J << 0, s(2), s(1), s(2), 0, s(0), s(1), s(0), 0;
  if (m.model == FemMaterialModel::kLinearCorotational) {
    const Real trace = s.sum() - 3;
    e.psi = m.mu * (s - Vec3::Ones()).squaredNorm() + 0.5 * m.lambda * trace * trace;
    e.gradient = 2 * m.mu * (s - Vec3::Ones()) + Vec3::Constant(m.lambda * trace);
    e.hessian = 2 * m.mu * Mat3::Identity() + Mat3::Constant(m.lambda);
  } else {
    // digest §2.8 with the (J − α) gradient of erratum §19 #14
    const Real volume = J - m.alpha;
    e.psi = m.c1 * (s.squaredNorm() - 3) + m.d1 * volume * volume -
            m.d1 * (1 - m.alpha) * (1 - m.alpha);
    e.gradient = 2 * m.c1 * s + 2 * m.d1 * volume * dJ;
    e.hessian = 2 * m.c1 * Mat3::Identity() + 2 * m.d1 * (dJ * dJ.transpose() + volume * d2J);
  }
  if (activation != 0) {
    e.psi -= activation * (J - 1);
    e.gradient -= activation * dJ;
    e.hessian -= activation * d2J;
  }
  return e;
}


Real CalcEnergyDensity(const FemMaterialParameters& material, const Mat3& F, Real activation) {
  return EvalPrincipalEnergy(material, Decompose(F).sigma, activation).psi;
}


Mat3 CalcFirstPiolaStress(const FemMaterialParameters& material, const Mat3& F, Real activation) {
  // P = U diag(∂Ψ/∂s) Vᵀ (Irving et al. 2004)
  const Svd3 svd = Decompose(F);
  const Vec3 gradient = EvalPrincipalEnergy(material, svd.sigma, activation).gradient;
  return svd.U * gradient.asDiagonal() * svd.V.transpose();
}


Mat9 CalcFirstPiolaDerivative(const FemMaterialParameters& material, const Mat3& F,
                              Real activation) {
  const Svd3 svd = Decompose(F);
  const Vec3& s = svd.sigma;
  const PrincipalEnergy e = EvalPrincipalEnergy(material, s, activation);
  // the 2×2 pair blocks [[α, β], [β, α]] in the (U, V) frame, α = (a + b)/2, β = (a − b)/2
  const PairStiffness pairs = EvalPairStiffness(material, s, activation);
  Mat3 alpha = Mat3::Zero(), beta = Mat3::Zero();
  constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int p = 0; p < 3; ++p) {
    const int i = kPairs[p][0], j = kPairs[p][1];
    alpha(i, j) = alpha(j, i) = 0.5 * (pairs.shear(p) + pairs.rotation(p));
    beta(i, j) = beta(j, i) = 0.5 * (pairs.shear(p) - pairs.rotation(p));
  }
  // column c of ∂P/∂F is vec(dP) for dF = the unit matrix of entry c: dF̂ = Uᵀ dF V, then
  // dP̂_ii = Σ_j Ψ_ij dF̂_jj, dP̂_ij = α_ij dF̂_ij + β_ij dF̂_ji, dP = U dP̂ Vᵀ
  Mat9 dPdF;
  for (int c = 0; c < 9; ++c) {
    Mat3 dF = Mat3::Zero();
    dF(c % 3, c / 3) = 1;
    const Mat3 dF_hat = svd.U.transpose() * dF * svd.V;
    Mat3 dP_hat;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        dP_hat(i, j) = i == j ? e.hessian.row(i).dot(dF_hat.diagonal())
                              : alpha(i, j) * dF_hat(i, j) + beta(i, j) * dF_hat(j, i);
      }
    }
    const Mat3 dP = svd.U * dP_hat * svd.V.transpose();
    dPdF.col(c) = Eigen::Map<const Eigen::Matrix<Real, 9, 1>>(dP.data());
  }
  return dPdF;
}


Mat3 CalcProjectedCompliance(const Mat3& hessian, FemComplianceMode mode, Real floor,
                             Mat3* projected_hessian) {
  if (mode == FemComplianceMode::kDiagonal) {
    const Vec3 stiffness = hessian.diagonal().cwiseAbs().cwiseMax(floor);
    if (projected_hessian != nullptr) *projected_hessian = stiffness.asDiagonal();
    return stiffness.cwiseInverse().asDiagonal();
  }
  // positive definite with every eigenvalue ≥ floor (the usual case): invert directly. Sylvester:
  // the leading minors of H − floor·I are positive.
  const Mat3 shifted = hessian - floor * Mat3::Identity();
  const Real m1 = shifted(0, 0);
  const Real m2 = shifted(0, 0) * shifted(1, 1) - shifted(0, 1) * shifted(1, 0);
  if (m1 > 0 && m2 > 0 && shifted.determinant() > 0) {
    if (projected_hessian != nullptr) *projected_hessian = hessian;
    return hessian.inverse();
  }
  // otherwise filter the eigenvalues: |λ_k| bounded below by the floor (the absolute-value
  // filter of Chen et al. 2024, "Stabler Neo-Hookean simulation", which for stable Neo-Hookean
  // converges better than clamping to 0 (Teran et al. 2005): a concave direction keeps the
  // magnitude of its curvature instead of becoming free)
  Eigen::SelfAdjointEigenSolver<Mat3> eigen;
  eigen.computeDirect(hessian);
  const Vec3 clamped = eigen.eigenvalues().cwiseAbs().cwiseMax(floor);
  const Mat3& Q = eigen.eigenvectors();
  if (projected_hessian != nullptr) *projected_hessian = Q * clamped.asDiagonal() * Q.transpose();
  return Q * clamped.cwiseInverse().asDiagonal() * Q.transpose();
}

}  // namespace sim
