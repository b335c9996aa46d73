// Strain measures of engine/fem/strain_measures.h against closed forms.
#include "engine/fem/strain_measures.h"

#include <cmath>

#include <gtest/gtest.h>

namespace sim {
namespace {

// round-off of a 3×3 inverse and SVD on unit-sized tets
constexpr Real kTolerance = 1e-12;

std::array<Vec3, 4> UnitTet() {
  return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
}

TEST(StrainMeasuresTest, RestAndRigidMotionHaveNoStrain) {
  const std::array<Vec3, 4> rest = UnitTet();
  std::array<Vec3, 4> moved;
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  for (int k = 0; k < 4; ++k) moved[k] = R * rest[k] + Vec3(0.3, -2, 5);
  for (const auto& x : {rest, moved}) {
    const TetStrain strain = CalcTetStrain(rest, x, 1e5, 0.45);
    EXPECT_NEAR(strain.volumetric, 0, kTolerance);
    EXPECT_NEAR(strain.von_mises, 0, 1e5 * kTolerance);
    EXPECT_TRUE(strain.stretches.isApprox(Vec3::Ones(), kTolerance));
  }
}

TEST(StrainMeasuresTest, UniaxialStretchMatchesTheClosedForm) {
  // x ↦ diag(a, 1, 1) x: J = a, stretches (a, 1, 1), σ_vm = |σ1 − σ2| = μ(a² − 1)/a
  const Real a = 1.2, youngs = 1e5, nu = 0.45;
  const std::array<Vec3, 4> rest = UnitTet();
  std::array<Vec3, 4> x = rest;
  for (Vec3& p : x) p.x() *= a;
  const TetStrain strain = CalcTetStrain(rest, x, youngs, nu);
  const Real mu = youngs / (2 * (1 + nu));
  EXPECT_NEAR(strain.volumetric, a - 1, kTolerance);
  EXPECT_NEAR(strain.stretches[0], a, kTolerance);
  EXPECT_NEAR(strain.von_mises, mu * (a * a - 1) / a, 1e-9 * youngs);
}

TEST(StrainMeasuresTest, InvertedTetHasNegativeVolumeRatio) {
  const std::array<Vec3, 4> rest = UnitTet();
  std::array<Vec3, 4> x = rest;
  x[3].z() = -0.5;  // the apex pushed through the base
  const TetStrain strain = CalcTetStrain(rest, x, 1e5, 0.3);
  EXPECT_NEAR(strain.volumetric, -1.5, kTolerance);
  EXPECT_LT(strain.stretches[2], 0);
}

TEST(StrainMeasuresTest, StressFollowsTheMaterialModel) {
  // uniaxial stretch a of a co-rotational tet: σ_i = s_i ∂Ψ/∂s_i / J with
  // s_i ∂Ψ/∂s_i = 2μ s_i (s_i − 1) + λ s_i (Σs − 3): σ_vm = |σ1 − σ2| = (2μa(a − 1) + λ(a − 1)²)/a
  const Real a = 1.2, youngs = 1e5, nu = 0.45;
  const std::array<Vec3, 4> rest = UnitTet();
  std::array<Vec3, 4> x = rest;
  for (Vec3& p : x) p.x() *= a;
  const FemMaterialParameters corotational =
      MakeFemMaterial(FemMaterialModel::kLinearCorotational, youngs, nu);
  const TetStrain strain = CalcTetStrain(rest, x, corotational);
  const Real mu = corotational.mu, lambda = corotational.lambda;
  const Real expected = (2 * mu * a * (a - 1) + lambda * (a - 1) * (a - 1)) / a;
  EXPECT_NEAR(strain.von_mises, expected, 1e-9 * youngs);
  // and the Young/Poisson form is the stable Neo-Hookean one
  const TetStrain neo_hookean =
      CalcTetStrain(rest, x, MakeFemMaterial(FemMaterialModel::kStableNeoHookean, youngs, nu));
  EXPECT_NEAR(CalcTetStrain(rest, x, youngs, nu).von_mises, neo_hookean.von_mises, 1e-9);
  EXPECT_GT(std::abs(neo_hookean.von_mises - strain.von_mises), 1e-3 * youngs);
}

}  // namespace
}  // namespace sim
