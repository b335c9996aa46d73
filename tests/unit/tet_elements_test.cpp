// Element-level FEM checks on a real tet mesh (shared data sphere1K.msh, 1760 nodes, 6851 tets),
// for both materials (style §3.8 "FEM" rows): zero energy and force at rest, no elastic force
// under a rigid rotation, the uniform-strain patch test, and nodal forces that are the negative
// energy gradient.
#include <filesystem>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "engine/fem/tet_elements.h"
#include "engine/io/scene_file.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim {
namespace {

const std::string kBall = test_support::SharedDataDir() + "/tetmesh/sphere1K.msh";

class TetElementsTest : public ::testing::TestWithParam<FemMaterialModel> {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kBall)) SIM_SKIP_OR_FAIL_IN_CI("tet mesh not found: " + kBall);
    // a 10 cm ball (the file's radius is 0.5), Y = 1e5 Pa, ν = 0.45
    const std::string model_name = FemMaterialModelName(GetParam());
    Expected<io::Scene> scene = io::ParseScene(
        R"({"gravity": [0, 0, 0], "objects": [{"name": "ball", "type": "tetmesh", "file": ")" +
            kBall + R"(", "scale": 0.2, "youngs_modulus": 1e5, "poisson_ratio": 0.45,
            "material_model": ")" +
            model_name + R"("}]})",
        "ball.json", io::SceneOptions{.file_roots = test_support::TestFileRoots()});
    ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
    scene_ = std::move(scene.value());
    ASSERT_EQ(scene_.model->soft_bodies.size(), 1u);
    ASSERT_EQ(scene_.model->soft_bodies[0].material_model, GetParam());
  }

  const Model& model() const { return *scene_.model; }
  const std::vector<Vec3>& rest() const { return scene_.initial_state.particle_x_W; }

  // elastic forces at positions x, one per particle
  std::vector<Vec3> Forces(const std::vector<Vec3>& x) const {
    std::vector<Vec3> f(x.size(), Vec3::Zero());
    AddSoftBodyElasticForces(model(), 0, x, 0, &f);
    return f;
  }

  // force scale of the test: the stress magnitude μ times a tet face area, for tolerances
  Real ForceScale() const {
    const Real volume = model().soft_bodies[0].tet_rest_volume[0];
    return SoftBodyMaterial(model().soft_bodies[0]).mu * std::pow(volume, 2.0 / 3.0);
  }

  io::Scene scene_;
};

TEST_P(TetElementsTest, RestStateHasNoEnergyNorForce) {
  // Drake TestUndeformedState at the mesh level
  EXPECT_NEAR(CalcSoftBodyEnergy(model(), 0, rest()), 0, 1e-12);
  Real largest = 0;
  for (const Vec3& f : Forces(rest())) largest = std::max(largest, f.norm());
  EXPECT_LT(largest, 1e-9 * ForceScale());
}

TEST_P(TetElementsTest, RigidlyRotatedMeshHasNoElasticForce) {
  // rotation invariance: x ↦ R x + p leaves every F a rotation, so Ψ = 0 and f = 0 (1e-9 of the
  // force scale: round-off of the SVD on 6851 tets)
  const Mat3 R = Eigen::AngleAxisd(1.1, Vec3(1, -2, 0.5).normalized()).toRotationMatrix();
  std::vector<Vec3> x = rest();
  for (Vec3& p : x) p = R * p + Vec3(0.3, -1, 2);
  EXPECT_NEAR(CalcSoftBodyEnergy(model(), 0, x), 0, 1e-12);
  Real largest = 0;
  for (const Vec3& f : Forces(x)) largest = std::max(largest, f.norm());
  EXPECT_LT(largest, 1e-9 * ForceScale());
}

TEST_P(TetElementsTest, UniformStrainPatchHasNoInteriorForce) {
  // patch test: the linear field x = (I + A) X gives every tet the same F = I + A, so the force
  // on an interior node (the divergence of a constant stress) is zero up to round-off, and the
  // boundary forces are the traction of that stress: they sum to zero and their moment balances
  const Mat3 A = (Mat3() << 0.10, 0.03, -0.02, 0.01, -0.05, 0.04, 0.02, 0.00, 0.08).finished();
  std::vector<Vec3> x = rest();
  for (Vec3& p : x) p = (Mat3::Identity() + A) * p;
  const std::vector<Vec3> f = Forces(x);
  const SoftBody& body = model().soft_bodies[0];
  std::set<int> boundary;
  for (const auto& t : body.surface) boundary.insert(t.begin(), t.end());
  Real largest_interior = 0, largest_boundary = 0;
  Vec3 total = Vec3::Zero(), moment = Vec3::Zero();
  for (int p = 0; p < body.particle_count; ++p) {
    const int k = body.first_particle + p;
    total += f[k];
    moment += x[k].cross(f[k]);
    if (boundary.count(k)) {
      largest_boundary = std::max(largest_boundary, f[k].norm());
    } else {
      largest_interior = std::max(largest_interior, f[k].norm());
    }
  }
  ASSERT_GT(largest_boundary, 1e-3 * ForceScale()) << "the patch must be loaded";
  EXPECT_LT(largest_interior, 1e-10 * largest_boundary);
  EXPECT_LT(total.norm(), 1e-10 * largest_boundary);
  EXPECT_LT(moment.norm(), 1e-10 * largest_boundary * 0.1);
}

TEST_P(TetElementsTest, NodalForcesAreTheNegativeEnergyGradient) {
  // f = −∂U/∂x by central differences on a few nodes of a randomly deformed ball
  std::mt19937 rng(1);
  std::normal_distribution<Real> noise(0, 0.004);  // 4 mm on a 10 cm ball: strains of ~20 %
  std::vector<Vec3> x = rest();
  for (Vec3& p : x) p += Vec3(noise(rng), noise(rng), noise(rng));
  const std::vector<Vec3> f = Forces(x);
  const Real h = 1e-7;  // 1e-7 m on tets of ~1 cm: truncation ~1e-14 relative
  for (int node : {0, 17, 401, 1200, 1759}) {
    for (int d = 0; d < 3; ++d) {
      std::vector<Vec3> plus = x, minus = x;
      plus[node](d) += h;
      minus[node](d) -= h;
      const Real fd =
          -(CalcSoftBodyEnergy(model(), 0, plus) - CalcSoftBodyEnergy(model(), 0, minus)) / (2 * h);
      // the energy sums 6851 tets, so its round-off (~1e-16 U) divided by h dominates
      EXPECT_NEAR(f[node](d), fd, 1e-5 * std::max<Real>(1, std::abs(fd)))
          << "node " << node << " axis " << d;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Materials, TetElementsTest,
                         ::testing::Values(FemMaterialModel::kStableNeoHookean,
                                           FemMaterialModel::kLinearCorotational),
                         [](const ::testing::TestParamInfo<FemMaterialModel>& info) {
                           return std::string(FemMaterialModelName(info.param));
                         });

}  // namespace
}  // namespace sim
