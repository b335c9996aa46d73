// FEM materials of engine/fem (style §3.8 "FEM" rows; Drake's constitutive model checks):
// the rotation-variant SVD, zero energy and stress at rest, P = ∂Ψ/∂F and ∂P/∂F against central
// differences, the rest tangent of linear elasticity, rotation invariance, the principal-stretch
// derivatives used by the compliance rows, and the positive-definite compliance.

// the lanes of four doubles below run without AVX here, so GCC notes that they are returned
// differently with AVX (-Wpsabi); they are inlined, so no call crosses that boundary
#pragma GCC diagnostic ignored "-Wpsabi"

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include "engine/fem/fem_material.h"
#include "engine/fem/fem_material_lanes.h"
#include "engine/fem/svd3.h"
#include "engine/fem/svd3_lanes.h"

namespace sim {
namespace {

// central differences of step h on O(1) quantities have truncation error ~h² (1e-10 for
// h = 1e-5) and round-off ~ε/h (1e-11): relative agreement to 1e-6 leaves a wide margin while
// still catching any wrong term (those are O(1) relative)
constexpr Real kStep = 1e-5;
constexpr Real kFdTolerance = 1e-6;

// Y = 1e5 Pa, ν = 0.45: the material-extension parameters of seed 002 Fig. 13
constexpr Real kYoungs = 1e5;
constexpr Real kPoisson = 0.45;

Mat3 RandomRotation(std::mt19937* rng) {
  std::normal_distribution<Real> normal;
  Quat q(normal(*rng), normal(*rng), normal(*rng), normal(*rng));
  return q.normalized().toRotationMatrix();
}

// a deformation gradient with well separated stretches in [0.6, 1.5], sign of det F as asked
Mat3 RandomF(std::mt19937* rng, bool inverted = false) {
  std::uniform_real_distribution<Real> stretch(0.6, 1.5);
  Vec3 s(stretch(*rng), stretch(*rng), stretch(*rng));
  if (inverted) s(2) = -0.3;
  return RandomRotation(rng) * s.asDiagonal() * RandomRotation(rng).transpose();
}

// relative error of `a` against `b`, with b's norm (or 1) as the scale
template <class M>
Real RelativeError(const M& a, const M& b) {
  return (a - b).norm() / std::max<Real>(1, b.norm());
}

TEST(Svd3Test, ReconstructsRotationsAndSignedStretches) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const bool inverted = trial % 3 == 0;
    const Mat3 F = RandomF(&rng, inverted);
    const Svd3 svd = CalcSvd3(F);
    // F = U Σ Vᵀ with U, V proper rotations (1e-13: a few round-offs of 3×3 products)
    EXPECT_LT((svd.U * svd.sigma.asDiagonal() * svd.V.transpose() - F).norm(), 1e-13);
    EXPECT_LT((svd.U.transpose() * svd.U - Mat3::Identity()).norm(), 1e-13);
    EXPECT_LT((svd.V.transpose() * svd.V - Mat3::Identity()).norm(), 1e-13);
    EXPECT_NEAR(svd.U.determinant(), 1, 1e-13);
    EXPECT_NEAR(svd.V.determinant(), 1, 1e-13);
    // sorted, σ3 carries the sign of det F
    EXPECT_GE(svd.sigma(0), svd.sigma(1));
    EXPECT_GE(svd.sigma(1), std::abs(svd.sigma(2)));
    EXPECT_EQ(svd.sigma(2) < 0, F.determinant() < 0);
    // a warm start from a nearby V gives the same stretches
    const Svd3 warm = CalcSvd3(F, svd.V * Eigen::AngleAxisd(0.05, Vec3::UnitY()).matrix());
    EXPECT_LT((warm.sigma - svd.sigma).norm(), 1e-13);
  }
}

TEST(Svd3Test, DegenerateMatricesStayOrthonormal) {
  // identity (repeated stretches), a flat tet (rank 2), a collapsed one (rank 1) and zero
  Mat3 flat = Mat3::Identity();
  flat(2, 2) = 0;
  Mat3 line = Mat3::Zero();
  line(0, 1) = 2;
  for (const Mat3& F : {Mat3(Mat3::Identity()), flat, line, Mat3(Mat3::Zero())}) {
    const Svd3 svd = CalcSvd3(F);
    EXPECT_LT((svd.U * svd.sigma.asDiagonal() * svd.V.transpose() - F).norm(), 1e-13);
    EXPECT_NEAR(svd.U.determinant(), 1, 1e-13);
    EXPECT_NEAR(svd.V.determinant(), 1, 1e-13);
  }
}

// CalcSvd3Lanes on lanes of V against CalcSvd3 on each lane's matrix and guess, with the FEM
// element evaluation's sweep bound and tolerance (nsn/element_rows.cpp); returns the largest
// difference of U, σ and V
template <class V>
Real LaneSvdDifference(const std::vector<Mat3>& Fs, const std::vector<Mat3>& guesses) {
  constexpr int W = kLaneCount<V>;
  constexpr int kSweeps = 6;
  constexpr Real kTolerance = 1e-8;
  Real largest = 0;
  for (std::size_t first = 0; first < Fs.size(); first += W) {
    Mat3 lane_F[W], lane_guess[W];
    for (int l = 0; l < W; ++l) {
      const std::size_t k = std::min(first + l, Fs.size() - 1);
      lane_F[l] = Fs[k];
      lane_guess[l] = guesses[k];
    }
    const Mat3Lanes<V> F = Mat3Lanes<V>::FromMatrices(lane_F);
    Mat3Lanes<V> Vm = Mat3Lanes<V>::FromMatrices(lane_guess), U;
    V sigma[3];
    CalcSvd3Lanes(F, &Vm, kSweeps, kTolerance, &U, sigma);
    for (int l = 0; l < W && first + l < Fs.size(); ++l) {
      const Svd3 scalar = CalcSvd3(Fs[first + l], guesses[first + l], kSweeps, kTolerance);
      const Vec3 lane_sigma(sigma[0][l], sigma[1][l], sigma[2][l]);
      largest = std::max(largest, (lane_sigma - scalar.sigma).cwiseAbs().maxCoeff());
      largest = std::max(largest, (U.Lane(l) - scalar.U).cwiseAbs().maxCoeff());
      largest = std::max(largest, (Vm.Lane(l) - scalar.V).cwiseAbs().maxCoeff());
    }
  }
  return largest;
}

TEST(Svd3Test, LanesGiveEachLaneTheScalarDecomposition) {
  // random, inverted and degenerate matrices (identity, flat, collapsed, zero) side by side, with
  // identity and random guesses: lanes that need different numbers of sweeps, skip rotations or
  // swap columns must each get what CalcSvd3 gives them (same steps, masked instead of branched;
  // the 3×3 products are summed in another order than Eigen's, which the rotations carry into U
  // and V: 3.3e-14 measured, so 1e-12; a wrong mask or swap gives O(1) differences)
  std::mt19937 rng(11);
  std::vector<Mat3> Fs, guesses;
  Mat3 flat = Mat3::Identity();
  flat(2, 2) = 0;
  Mat3 line = Mat3::Zero();
  line(0, 1) = 2;
  for (int trial = 0; trial < 61; ++trial) {
    switch (trial % 7) {
      case 0:
        Fs.push_back(Mat3::Identity());
        break;
      case 1:
        Fs.push_back(flat);
        break;
      case 2:
        Fs.push_back(line);
        break;
      case 3:
        Fs.push_back(Mat3::Zero());
        break;
      default:
        Fs.push_back(RandomF(&rng, trial % 2 == 0));
        break;
    }
    // identity, random, or within 1e-4 rad of the answer: lanes that converge after different
    // numbers of sweeps side by side
    if (trial % 5 == 1) {
      guesses.push_back(CalcSvd3(Fs.back()).V * Eigen::AngleAxisd(1e-4, Vec3::UnitX()).matrix());
    } else {
      guesses.push_back(trial % 3 == 0 ? Mat3(Mat3::Identity()) : RandomRotation(&rng));
    }
  }
  EXPECT_LT(LaneSvdDifference<RealPair>(Fs, guesses), 1e-12);
  EXPECT_LT(LaneSvdDifference<RealQuad>(Fs, guesses), 1e-12);
}

// one tet's material inputs for the lanes test
struct LaneCase {
  FemMaterialParameters material;
  Vec3 stretch;
  Real activation = 0;
  Real floor = 0;
};

// largest difference of the lanes' material functions from the scalar ones over `cases`, relative
// to each quantity's size; counts the lanes the lanes' compliance left to the scalar function
template <class V>
Real LaneMaterialDifference(const std::vector<LaneCase>& cases, FemComplianceMode mode,
                            int* left_over) {
  constexpr int kLanes = kLaneCount<V>;
  Real largest = 0;
  const auto compare = [&largest](const auto& lanes_value, const auto& scalar_value) {
    largest = std::max(largest, (lanes_value - scalar_value).norm() / (1 + scalar_value.norm()));
  };
  for (std::size_t first = 0; first + kLanes <= cases.size(); first += kLanes) {
    // the inputs by lane: μ, λ, C1, D1, α, co-rotational, s (3), activation, floor
    Real inputs[11][kLanes];
    for (int l = 0; l < kLanes; ++l) {
      const LaneCase& c = cases[first + l];
      const FemMaterialParameters& p = c.material;
      const Real corotational = p.model == FemMaterialModel::kLinearCorotational ? 1 : 0;
      const Real values[11] = {p.mu,         p.lambda,     p.c1,         p.d1,
                               p.alpha,      corotational, c.stretch(0), c.stretch(1),
                               c.stretch(2), c.activation, c.floor};
      for (int k = 0; k < 11; ++k) inputs[k][l] = values[k];
    }
    const auto input = [&inputs](int k) { return LoadLanes<V>(inputs[k]); };
    const MaterialLanes<V> m{input(0), input(1), input(2), input(3), input(4), input(5)};
    const V s[3] = {input(6), input(7), input(8)};
    const V activation = input(9), floor = input(10);
    V gradient[3], shear[3];
    Mat3Lanes<V> hessian, E, projected;
    EvalPrincipalDerivativesLanes(m, s, activation, gradient, &hessian);
    EvalPairShearLanes(m, s, activation, shear);
    const auto direct = CalcProjectedComplianceLanes(hessian, mode, floor, &E, &projected);
    for (int l = 0; l < kLanes; ++l) {
      const LaneCase& c = cases[first + l];
      const PrincipalEnergy energy = EvalPrincipalEnergy(c.material, c.stretch, c.activation);
      compare(Vec3(gradient[0][l], gradient[1][l], gradient[2][l]), energy.gradient);
      compare(hessian.Lane(l), energy.hessian);
      const Vec3 scalar_shear = EvalPairStiffness(c.material, c.stretch, c.activation).shear;
      compare(Vec3(shear[0][l], shear[1][l], shear[2][l]), scalar_shear);
      if (!direct[l]) {
        ++*left_over;
        // only a Hessian that is not positive definite above the floor is left over
        const Mat3 shifted = energy.hessian - c.floor * Mat3::Identity();
        EXPECT_LE(Eigen::SelfAdjointEigenSolver<Mat3>(shifted).eigenvalues().minCoeff(),
                  1e-9 * (1 + shifted.norm()));
        continue;
      }
      Mat3 scalar_projected;
      const Mat3 scalar_E =
          CalcProjectedCompliance(energy.hessian, mode, c.floor, &scalar_projected);
      compare(E.Lane(l), scalar_E);
      compare(projected.Lane(l), scalar_projected);
    }
  }
  return largest;
}

TEST(FemMaterialLanesTest, EachLaneMatchesTheScalarFunctions) {
  // both materials mixed across lanes (as tets of two bodies in one group), with and without an
  // activation pressure, at stretches from compressed and inverted (an indefinite Neo-Hookean
  // Hessian, which the lanes leave to the scalar eigen-filter) to stretched. Same formulas as the
  // scalar functions, summed in the same order, so agreement to round-off (1e-12 relative); a
  // wrong term or a wrong lane's parameter is O(1)
  std::mt19937 rng(13);
  std::uniform_real_distribution<Real> stretch(-0.4, 1.8), youngs(1e4, 1e7), poisson(0.2, 0.49);
  std::vector<LaneCase> cases;
  for (int trial = 0; trial < 64; ++trial) {
    LaneCase c;
    c.material = MakeFemMaterial(trial % 3 == 0 ? FemMaterialModel::kLinearCorotational
                                                : FemMaterialModel::kStableNeoHookean,
                                 youngs(rng), poisson(rng));
    c.stretch = trial % 8 == 0 ? Vec3::Ones() : Vec3(stretch(rng), stretch(rng), stretch(rng));
    c.activation = trial % 4 == 1 ? 0.1 * c.material.mu : 0;
    c.floor = 1e-3 * 2 * c.material.mu;
    cases.push_back(c);
  }
  for (const FemComplianceMode mode :
       {FemComplianceMode::kProjected, FemComplianceMode::kDiagonal}) {
    int pairs_left = 0, quads_left = 0;
    EXPECT_LT(LaneMaterialDifference<RealPair>(cases, mode, &pairs_left), 1e-12);
    EXPECT_LT(LaneMaterialDifference<RealQuad>(cases, mode, &quads_left), 1e-12);
    EXPECT_EQ(pairs_left, quads_left);
    if (mode == FemComplianceMode::kProjected) {
      std::printf("lanes left to the scalar eigen-filter: %d of %zu\n", quads_left, cases.size());
      EXPECT_GT(quads_left, 0);
      EXPECT_LT(quads_left, static_cast<int>(cases.size()));
    } else {
      EXPECT_EQ(quads_left, 0);
    }
  }
}

class FemMaterialTest : public ::testing::TestWithParam<FemMaterialModel> {
 protected:
  FemMaterialParameters material_ = MakeFemMaterial(GetParam(), kYoungs, kPoisson);
};

TEST_P(FemMaterialTest, UndeformedStateHasNoEnergyNorStress) {
  // Ψ(I) = 0, P(I) = 0 (Drake TestUndeformedState); for Neo-Hookean this needs α = 1 + C1/D1
  EXPECT_NEAR(CalcEnergyDensity(material_, Mat3::Identity()), 0, 1e-9);
  EXPECT_LT(CalcFirstPiolaStress(material_, Mat3::Identity()).norm(), 1e-9);
  const PrincipalEnergy e = EvalPrincipalEnergy(material_, Vec3::Ones());
  EXPECT_NEAR(e.psi, 0, 1e-9);
  EXPECT_LT(e.gradient.norm(), 1e-9);
}

TEST_P(FemMaterialTest, PrincipalDerivativesMatchCentralDifferences) {
  // the gradient and Hessian in s that the compliance rows use (digest §2.7, §20 oracle 6)
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> stretch(0.5, 1.6);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec3 s(stretch(rng), stretch(rng), trial % 4 == 0 ? -0.4 : stretch(rng));
    const Real activation = trial % 2 == 0 ? 0 : 2e4;
    const PrincipalEnergy e = EvalPrincipalEnergy(material_, s, activation);
    Vec3 gradient;
    Mat3 hessian;
    for (int k = 0; k < 3; ++k) {
      Vec3 plus = s, minus = s;
      plus(k) += kStep;
      minus(k) -= kStep;
      const PrincipalEnergy ep = EvalPrincipalEnergy(material_, plus, activation);
      const PrincipalEnergy em = EvalPrincipalEnergy(material_, minus, activation);
      gradient(k) = (ep.psi - em.psi) / (2 * kStep);
      hessian.col(k) = (ep.gradient - em.gradient) / (2 * kStep);
    }
    EXPECT_LT(RelativeError(e.gradient, gradient), kFdTolerance) << s.transpose();
    EXPECT_LT(RelativeError(e.hessian, hessian), kFdTolerance) << s.transpose();
    EXPECT_LT((e.hessian - e.hessian.transpose()).norm(), 1e-12 * e.hessian.norm());
  }
}

TEST_P(FemMaterialTest, StressIsTheDerivativeOfTheEnergy) {
  // P = ∂Ψ/∂F by central differences over the 9 entries (Drake TestPIsDerivativeOfPsi)
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const Mat3 F = RandomF(&rng, trial % 5 == 0);
    const Real activation = trial % 2 == 0 ? 0 : 2e4;
    const Mat3 P = CalcFirstPiolaStress(material_, F, activation);
    Mat3 fd;
    for (int k = 0; k < 9; ++k) {
      Mat3 plus = F, minus = F;
      plus(k % 3, k / 3) += kStep;
      minus(k % 3, k / 3) -= kStep;
      fd(k % 3, k / 3) = (CalcEnergyDensity(material_, plus, activation) -
                          CalcEnergyDensity(material_, minus, activation)) /
                         (2 * kStep);
    }
    EXPECT_LT(RelativeError(P, fd), kFdTolerance) << "F =\n" << F;
  }
}

TEST_P(FemMaterialTest, StressDerivativeMatchesCentralDifferences) {
  // ∂P/∂F column by column (Drake TestdPdFIsDerivativeOfP)
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const Mat3 F = RandomF(&rng, trial % 5 == 0);
    const Real activation = trial % 2 == 0 ? 0 : 2e4;
    const Mat9 dPdF = CalcFirstPiolaDerivative(material_, F, activation);
    Mat9 fd;
    for (int k = 0; k < 9; ++k) {
      Mat3 plus = F, minus = F;
      plus(k % 3, k / 3) += kStep;
      minus(k % 3, k / 3) -= kStep;
      const Mat3 dP = (CalcFirstPiolaStress(material_, plus, activation) -
                       CalcFirstPiolaStress(material_, minus, activation)) /
                      (2 * kStep);
      fd.col(k) = Eigen::Map<const Eigen::Matrix<Real, 9, 1>>(dP.data());
    }
    EXPECT_LT(RelativeError(dPdF, fd), kFdTolerance) << "F =\n" << F;
    // a hyperelastic tangent is symmetric (major symmetry)
    EXPECT_LT((dPdF - dPdF.transpose()).norm(), 1e-9 * dPdF.norm());
  }
}

TEST_P(FemMaterialTest, PairStiffnessIsTheTangentOffTheStretchDiagonal) {
  // ∂²Ψ/∂F² restricted to the symmetric and antisymmetric (i, j) modes of F̂ = UᵀFV equals the
  // pair stiffness a and b: the part the element rows leave to the geometric stiffness
  std::mt19937 rng(13);
  for (int trial = 0; trial < 10; ++trial) {
    const Mat3 F = RandomF(&rng, trial % 4 == 0);
    const Real activation = trial % 2 == 0 ? 0 : 2e4;
    const Svd3 svd = CalcSvd3(F);
    const Mat9 dPdF = CalcFirstPiolaDerivative(material_, F, activation);
    const PairStiffness pairs = EvalPairStiffness(material_, svd.sigma, activation);
    constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int p = 0; p < 3; ++p) {
      const int i = kPairs[p][0], j = kPairs[p][1];
      for (const Real sign : {1.0, -1.0}) {
        // dF = U (e_i e_jᵀ ± e_j e_iᵀ)/√2 Vᵀ, a unit mode
        Mat3 mode_hat = Mat3::Zero();
        mode_hat(i, j) = 1 / std::sqrt(2.0);
        mode_hat(j, i) = sign / std::sqrt(2.0);
        const Mat3 mode = svd.U * mode_hat * svd.V.transpose();
        const Eigen::Map<const Eigen::Matrix<Real, 9, 1>> m(mode.data());
        const Real curvature = m.dot(dPdF * m);
        const Real expected = sign > 0 ? pairs.shear(p) : pairs.rotation(p);
        EXPECT_NEAR(curvature, expected, 1e-9 * dPdF.norm());
      }
    }
  }
  // at rest the shear modes carry 2μ and the rotations nothing
  const PairStiffness rest = EvalPairStiffness(material_, Vec3::Ones());
  EXPECT_LT((rest.shear - Vec3::Constant(2 * material_.mu)).norm(), 1e-9 * material_.mu);
  EXPECT_LT(rest.rotation.norm(), 1e-9 * material_.mu);
}

TEST_P(FemMaterialTest, RestTangentIsLinearElasticity) {
  // ∂P/∂F(I) = μ(δ_ik δ_jl + δ_il δ_jk) + λ δ_ij δ_kl: both models reduce to Hooke's law for small
  // strains (the cantilever reference relies on it); the repeated stretches of I are the limit
  const Mat9 dPdF = CalcFirstPiolaDerivative(material_, Mat3::Identity());
  Mat9 hooke = Mat9::Zero();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 3; ++k) {
        for (int l = 0; l < 3; ++l) {
          hooke(3 * j + i, 3 * l + k) = material_.mu * ((i == k && j == l) + (i == l && j == k)) +
                                        material_.lambda * (i == j && k == l);
        }
      }
    }
  }
  EXPECT_LT(RelativeError(dPdF, hooke), 1e-12);
}

TEST_P(FemMaterialTest, RotatingTheDeformationChangesNothingButTheStressFrame) {
  // Ψ(RF) = Ψ(F), P(RF) = R P(F): a rigidly rotated element has the same energy, and zero stress
  // when F is a rotation
  std::mt19937 rng(9);
  for (int trial = 0; trial < 10; ++trial) {
    const Mat3 F = RandomF(&rng);
    const Mat3 R = RandomRotation(&rng);
    const Real psi = CalcEnergyDensity(material_, F);
    EXPECT_NEAR(CalcEnergyDensity(material_, R * F), psi, 1e-12 * std::abs(psi));
    EXPECT_LT(RelativeError(CalcFirstPiolaStress(material_, R * F),
                            Mat3(R * CalcFirstPiolaStress(material_, F))),
              1e-12);
    EXPECT_LT(CalcFirstPiolaStress(material_, R).norm(), 1e-9);
    EXPECT_NEAR(CalcEnergyDensity(material_, R), 0, 1e-9);
  }
}

INSTANTIATE_TEST_SUITE_P(Materials, FemMaterialTest,
                         ::testing::Values(FemMaterialModel::kStableNeoHookean,
                                           FemMaterialModel::kLinearCorotational),
                         [](const ::testing::TestParamInfo<FemMaterialModel>& info) {
                           return std::string(FemMaterialModelName(info.param));
                         });

TEST(FemMaterialConstantsTest, NeoHookeanConstantsFollowTheLameMapping) {
  // C1 = μ/2, D1 = (λ + μ)/2, α = 1 + C1/D1 (fem_material.h; digest §2.8, erratum §19 #14)
  const FemMaterialParameters m =
      MakeFemMaterial(FemMaterialModel::kStableNeoHookean, kYoungs, kPoisson);
  const Real mu = kYoungs / (2 * (1 + kPoisson));
  const Real lambda = kYoungs * kPoisson / ((1 + kPoisson) * (1 - 2 * kPoisson));
  EXPECT_NEAR(m.mu, mu, 1e-9);
  EXPECT_NEAR(m.lambda, lambda, 1e-9);
  EXPECT_NEAR(m.c1, mu / 2, 1e-9);
  EXPECT_NEAR(m.d1, (lambda + mu) / 2, 1e-9);
  EXPECT_NEAR(m.alpha, 1 + m.c1 / m.d1, 1e-15);
}

TEST(FemComplianceTest, PositiveDefiniteHessiansAreInvertedExactly) {
  const FemMaterialParameters m =
      MakeFemMaterial(FemMaterialModel::kLinearCorotational, kYoungs, kPoisson);
  const Mat3 H = EvalPrincipalEnergy(m, Vec3(1.1, 0.9, 1)).hessian;
  const Mat3 E = CalcProjectedCompliance(H, FemComplianceMode::kProjected, 1);
  EXPECT_LT((E * H - Mat3::Identity()).norm(), 1e-12);
}

TEST(FemComplianceTest, IndefiniteHessiansGetAbsoluteEigenvalues) {
  // a stretched Neo-Hookean element under strong activation is indefinite; the projection keeps
  // the eigenvectors and takes the eigenvalues' magnitudes (at least the floor); the diagonal
  // mode keeps |diag(H)|
  const FemMaterialParameters m =
      MakeFemMaterial(FemMaterialModel::kStableNeoHookean, kYoungs, kPoisson);
  const Mat3 H = EvalPrincipalEnergy(m, Vec3(1.8, 1.2, 0.4), 8e5).hessian;
  Eigen::SelfAdjointEigenSolver<Mat3> eigen(H);
  ASSERT_LT(eigen.eigenvalues()(0), 0) << "the test case must be indefinite";
  const Real floor = 10;
  Mat3 projected;
  const Mat3 E = CalcProjectedCompliance(H, FemComplianceMode::kProjected, floor, &projected);
  EXPECT_LT((E * projected - Mat3::Identity()).norm(), 1e-9);
  // same eigenvectors: the projection commutes with H; eigenvalues |λ_k| (or the floor)
  EXPECT_LT((projected * H - H * projected).norm(), 1e-9 * H.norm() * H.norm());
  Eigen::SelfAdjointEigenSolver<Mat3> filtered(projected);
  Vec3 expected = eigen.eigenvalues().cwiseAbs().cwiseMax(floor);
  std::sort(expected.data(), expected.data() + 3);
  EXPECT_LT((filtered.eigenvalues() - expected).norm(), 1e-9 * H.norm());
  const Mat3 diagonal = CalcProjectedCompliance(H, FemComplianceMode::kDiagonal, floor);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(diagonal(k, k), 1 / std::max(std::abs(H(k, k)), floor), 1e-15);
  }
  EXPECT_EQ(Mat3(diagonal.diagonal().asDiagonal()), diagonal);
}

}  // namespace
}  // namespace sim
