// Strain measures of engine/fem/strain_measures.h against closed forms.
#include "engine/fem/strain_measures.h"

#include <cmath>

#include <random>

#include <gtest/gtest.h>

#include "engine/state/state.h"
#include "tests/support/tet_block.h"

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

TEST(StrainMeasuresTest, NodeStrainIsTheVolumeWeightedMeanOfTetStrains) {
  // CalcSoftBodyNodeStrain (every rendered frame) computes the tets' measures itself; its per-node
  // values must equal the rest-volume-weighted mean of CalcTetStrain over the tets around each node
  Model model;
  State state;
  test_support::AddTetBlock(&model, &state, "block", Vec3::Zero(), Vec3(1, 0.5, 0.5), {2, 1, 1});
  SoftBody& body = model.soft_bodies[0];
  body.youngs_modulus = 2e5;
  body.poisson_ratio = 0.4;
  std::mt19937 random(7);
  std::uniform_real_distribution<Real> jitter(-0.08, 0.08);
  for (Vec3& x : state.particle_x_W) x += Vec3(jitter(random), jitter(random), jitter(random));
  std::vector<float> volumetric, von_mises;
  CalcSoftBodyNodeStrain(model, state, 0, &volumetric, &von_mises);

  std::vector<Real> sum_volumetric(body.particle_count, 0), sum_von_mises(body.particle_count, 0),
      weight(body.particle_count, 0);
  for (const auto& tet : body.tets) {
    std::array<Vec3, 4> rest, x;
    for (int k = 0; k < 4; ++k) {
      rest[k] = body.rest_positions[tet[k]];
      x[k] = state.particle_x_W[tet[k]];
    }
    const TetStrain strain = CalcTetStrain(rest, x, body.youngs_modulus, body.poisson_ratio);
    const Real volume = TetSignedVolume(rest[0], rest[1], rest[2], rest[3]);
    for (int node : tet) {
      sum_volumetric[node] += volume * strain.volumetric;
      sum_von_mises[node] += volume * strain.von_mises;
      weight[node] += volume;
    }
  }
  for (int i = 0; i < body.particle_count; ++i) {
    // float output: 1e-6 relative
    EXPECT_NEAR(volumetric[i], sum_volumetric[i] / weight[i], 1e-6) << "node " << i;
    EXPECT_NEAR(von_mises[i], sum_von_mises[i] / weight[i], 1e-6 * body.youngs_modulus)
        << "node " << i;
  }
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
