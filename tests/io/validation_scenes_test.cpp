// The validation scenes of scenes/validation/: each loads without a diagnostic and is built the way
// its header comment says (counts, masses, geometry), so the physics tests that use them can trust
// their analytic references.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <numbers>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/scene_catalog.h"
#include "engine/io/scene_file.h"
#include "engine/solvers/nsn/nsn_settings.h"
#include "tests/support/shared_data.h"

namespace sim::io {
namespace {

constexpr double kDegToRad = std::numbers::pi / 180.0;

Scene Load(const std::string& name) {
  const std::string path = std::string(SIM_SOURCE_DIR) + "/scenes/validation/" + name;
  Expected<Scene> scene = LoadScene(path);
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  EXPECT_TRUE(scene.diagnostics().empty()) << scene.diagnostics().Format();
  if (!scene.ok()) return Scene{};
  EXPECT_TRUE(MatchesModel(scene->initial_state, *scene->model)) << name;
  return std::move(scene.value());
}

// world-frame extent of an axis-aligned box shape of body `b`
struct Box {
  Vec3 lo, hi;
};
Box BodyBox(const Model& model, const State& state, int b) {
  const int s = static_cast<int>(std::find(model.shape_body.begin(), model.shape_body.end(), b) -
                                 model.shape_body.begin());
  const Vec3 h = model.shape_geometry[s].half_extents;
  return {state.body_X_WB[b].p - h, state.body_X_WB[b].p + h};
}


TEST(ValidationScenesTest, ContactStudioScenesListsThem) {
  Diagnostics diagnostics;
  const std::vector<SceneEntry> scenes =
      ListScenes(std::string(SIM_SOURCE_DIR) + "/scenes", &diagnostics);
  std::vector<std::string> ids;
  for (const SceneEntry& entry : scenes) ids.push_back(entry.id);
  for (const char* id :
       {"validation/incline", "validation/heavy_stack", "validation/arch",
        "validation/pendulum_chain", "validation/sliding_particle", "validation/cantilever",
        "validation/material_extension", "validation/box_on_soft_block",
        "validation/bouncing_balls", "validation/newtons_cradle", "soft_ball"}) {
    EXPECT_THAT(ids, ::testing::Contains(id));
  }
}


TEST(ValidationScenesTest, InclineIsThirtyDegreesWithTheBoxFlushOnIt) {
  const Scene scene = Load("incline.json");
  ASSERT_TRUE(scene.model);
  const Model& model = *scene.model;
  ASSERT_EQ(model.body_count(), 1);
  EXPECT_EQ(model.shape_count(), 2);
  EXPECT_DOUBLE_EQ(model.body_mass[0], 1.0);
  EXPECT_DOUBLE_EQ(model.options.solver.dt, 1.0 / 120.0);
  // the plane's normal is 30° from up, tilted toward −x (so the slope descends toward −x)
  const Vec3 n = model.shape_X_BS[0].q * Vec3::UnitZ();
  EXPECT_NEAR(std::acos(n.dot(Vec3::UnitZ())), 30 * kDegToRad, 1e-12);
  EXPECT_NEAR(n.x(), -0.5, 1e-12);
  // box: sides 0.2 m, its z axis along the normal, its centre 0.1 m above the plane (gap 0)
  const Pose& X_WB = scene.initial_state.body_X_WB[0];
  EXPECT_TRUE(model.shape_geometry[1].half_extents.isApprox(Vec3::Constant(0.1)));
  EXPECT_TRUE((X_WB.q * Vec3::UnitZ()).isApprox(n, 1e-12));
  EXPECT_NEAR(n.dot(X_WB.p - model.shape_X_BS[0].p), 0.1, 1e-12);
  EXPECT_TRUE(scene.initial_state.body_v_W[0].isZero());
  // one material for both, so materials.contact.friction sets μ
  const int contact = model.FindMaterial("contact");
  EXPECT_EQ(model.shape_material[0], contact);
  EXPECT_EQ(model.shape_material[1], contact);
  EXPECT_DOUBLE_EQ(model.materials[contact].friction, 0.3);
}


TEST(ValidationScenesTest, HeavyStackIsLightestAtTheBottomWithRatio4096) {
  const Scene scene = Load("heavy_stack.json");
  ASSERT_TRUE(scene.model);
  const Model& model = *scene.model;
  ASSERT_EQ(model.body_count(), 5);
  EXPECT_EQ(ReadNsnSettings(model.options.solver).newton_iterations, 6);
  EXPECT_EQ(ReadNsnSettings(model.options.solver).linear_iterations, 20);
  double below_top = 0;  // z of the top face of the block below
  for (int b = 0; b < 5; ++b) {
    EXPECT_DOUBLE_EQ(model.body_mass[b], std::pow(8.0, b + 1)) << model.body_name[b];
    const Box box = BodyBox(model, scene.initial_state, b);
    EXPECT_TRUE((box.hi - box.lo).isApprox(Vec3::Constant(0.5)));
    EXPECT_NEAR(box.lo.z(), below_top, 1e-12) << model.body_name[b] << " is not face-flush";
    below_top = box.hi.z();
  }
  EXPECT_DOUBLE_EQ(model.body_mass[4] / model.body_mass[0], 4096.0);
  for (const Material& m : model.materials) {
    if (m.name != "default") {
      EXPECT_DOUBLE_EQ(m.friction, 0.5);
    }
  }
}


TEST(ValidationScenesTest, ArchHasTwentyFlushBlocksHeavierAtTheBottom) {
  const Scene scene = Load("arch.json");
  ASSERT_TRUE(scene.model);
  const Model& model = *scene.model;
  const State& state = scene.initial_state;
  ASSERT_EQ(model.body_count(), 20);
  EXPECT_EQ(ReadNsnSettings(model.options.solver).newton_iterations, 6);
  EXPECT_EQ(ReadNsnSettings(model.options.solver).linear_iterations, 20);
  EXPECT_DOUBLE_EQ(model.materials[model.FindMaterial("contact")].friction, 0.6);
  const auto [lightest, heaviest] =
      std::minmax_element(model.body_mass.begin(), model.body_mass.end());
  EXPECT_GE(*lightest, 15.0);
  EXPECT_LE(*heaviest, 110.0);
  constexpr double kTol = 1e-9;
  for (int b = 0; b < 20; ++b) {
    const Box box = BodyBox(model, state, b);
    EXPECT_TRUE(state.body_X_WB[b].q.isApprox(Quat::Identity()));
    // rests face-flush on the ground or on a block, and overlaps no other block
    bool supported = std::abs(box.lo.z()) < kTol;
    for (int c = 0; c < 20; ++c) {
      if (c == b) continue;
      const Box other = BodyBox(model, state, c);
      const Vec3 overlap = box.hi.cwiseMin(other.hi) - box.lo.cwiseMax(other.lo);
      EXPECT_FALSE((overlap.array() > kTol).all())
          << model.body_name[b] << " overlaps " << model.body_name[c];
      if (std::abs(other.hi.z() - box.lo.z()) < kTol && overlap.x() > kTol) {
        supported = true;
        // the block below is heavier
        EXPECT_GT(model.body_mass[c], model.body_mass[b]) << model.body_name[b];
      }
    }
    EXPECT_TRUE(supported) << model.body_name[b] << " is not resting face to face";
  }
  // the two top blocks meet face to face at the crown, x = 0
  const Box left = BodyBox(model, state, model.FindBody("left_9"));
  const Box right = BodyBox(model, state, model.FindBody("right_9"));
  EXPECT_NEAR(left.hi.x(), 0.0, kTol);
  EXPECT_NEAR(right.lo.x(), 0.0, kTol);
}


TEST(ValidationScenesTest, PendulumChainIsFourLinksOnRevoluteJointsAboutY) {
  const Scene scene = Load("pendulum_chain.json");
  ASSERT_TRUE(scene.model);
  const Model& model = *scene.model;
  const State& state = scene.initial_state;
  ASSERT_EQ(model.body_count(), 4);
  ASSERT_EQ(model.joint_count(), 4);
  EXPECT_EQ(model.joint_parent[0], kWorldBody);
  EXPECT_TRUE(model.joint_X_PJ[0].p.isApprox(Vec3(0, 0, 2.5)));
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(model.joint_type[j], JointType::kRevolute);
    EXPECT_DOUBLE_EQ(model.body_mass[j], 1.0);
    EXPECT_EQ(model.joint_child[j], j);
    if (j > 0) {
      EXPECT_EQ(model.joint_parent[j], j - 1);
    }
    // the axis is y in the joint frame and in the world
    EXPECT_TRUE(model.joint_axis[j].isApprox(Vec3::UnitY(), 1e-12));
    EXPECT_TRUE((state.body_X_WB[j].q * model.joint_X_CJ[j].q * model.joint_axis[j])
                    .isApprox(Vec3::UnitY(), 1e-12));
    // each joint is at the top end of its child link and the bottom end of its parent link
    EXPECT_TRUE(model.joint_X_CJ[j].p.isApprox(Vec3(0, 0, 0.25), 1e-12)) << j;
    if (j > 0) {
      EXPECT_TRUE(model.joint_X_PJ[j].p.isApprox(Vec3(0, 0, -0.25), 1e-12)) << j;
    }
    EXPECT_FALSE(model.joint_limited[j]);
    // the chain leans 5° about y, at rest
    const Vec3 down = state.body_X_WB[j].q * -Vec3::UnitZ();
    EXPECT_NEAR(std::atan2(-down.x(), -down.z()), 5 * kDegToRad, 1e-12);
    EXPECT_TRUE(state.body_v_W[j].isZero() && state.body_w_W[j].isZero());
  }
}


TEST(ValidationScenesTest, SlidingParticleHasTheTenNewtonNormalForce) {
  const Scene scene = Load("sliding_particle.json");
  ASSERT_TRUE(scene.model);
  const Model& model = *scene.model;
  const State& state = scene.initial_state;
  EXPECT_EQ(model.body_count(), 0);
  ASSERT_EQ(model.particle_count(), 1);
  const double g = -model.options.gravity.z();
  EXPECT_DOUBLE_EQ(model.particle_mass[0] * g, 10.0);
  EXPECT_DOUBLE_EQ(model.particle_radius[0], 0.05);
  EXPECT_DOUBLE_EQ(state.particle_x_W[0].z(), 0.05);  // resting on the plane z = 0
  EXPECT_TRUE(state.particle_v_W[0].isApprox(Vec3(0.5, 0, 0)));
  const double mu = model.materials[model.particle_material[0]].friction;
  EXPECT_DOUBLE_EQ(mu, 0.5);
  // the references of the header: stop time and distance
  EXPECT_NEAR(0.5 / (mu * g), 0.1019, 1e-4);
  EXPECT_NEAR(0.25 / (2 * mu * g), 0.02548, 1e-5);
}


// fixed particles of soft body `s`
int FixedNodes(const Model& model, int s) {
  const SoftBody& body = model.soft_bodies[s];
  int fixed = 0;
  for (int k = 0; k < body.particle_count; ++k) {
    fixed += model.particle_is_fixed(body.first_particle + k);
  }
  return fixed;
}


TEST(ValidationScenesTest, CantileverIsAClampedBeamWithATipWeight) {
  const Scene scene = Load("cantilever.json");
  ASSERT_TRUE(scene.model);
  const Model& model = *scene.model;
  ASSERT_EQ(model.soft_bodies.size(), 1u);
  const SoftBody& beam = model.soft_bodies[0];
  // 20 × 2 × 2 cells of 5 tets; the clamp is the 3 × 3 nodes at x = 0, the tip weight hangs from
  // the 3 × 3 nodes at x = 1
  EXPECT_EQ(beam.tet_count(), 400);
  EXPECT_EQ(beam.particle_count, 21 * 3 * 3);
  EXPECT_EQ(FixedNodes(model, 0), 9);
  EXPECT_EQ(model.attachment_count(), 9);
  const int weight = model.FindBody("tip_weight");
  ASSERT_GE(weight, 0);
  EXPECT_DOUBLE_EQ(model.body_mass[weight], 1.0);
  for (int a = 0; a < model.attachment_count(); ++a) {
    EXPECT_EQ(model.attachment_body[a], weight);
    EXPECT_NEAR(scene.initial_state.particle_x_W[model.attachment_particle[a]].x(), 1.0, 1e-12);
  }
  // its centre of mass right below the tip (no moment about the beam's end)
  EXPECT_NEAR(scene.initial_state.body_X_WB[weight].p.x(), 1.0, 1e-12);
  EXPECT_EQ(beam.material_model, FemMaterialModel::kLinearCorotational);
  EXPECT_DOUBLE_EQ(beam.youngs_modulus, 1e8);
  EXPECT_DOUBLE_EQ(beam.poisson_ratio, 0.3);
  // the header's numbers: δ = PL³/(3EI) + qL⁴/(8EI) = 3.924 + 14.715 mm
  const double inertia = 0.1 * std::pow(0.1, 3) / 12;
  const double g = -model.options.gravity.z();
  EXPECT_NEAR(1.0 * g / (3 * 1e8 * inertia), 3.924e-3, 1e-6);
  EXPECT_NEAR(1000 * g * 0.01 / (8 * 1e8 * inertia), 14.715e-3, 1e-6);
}


TEST(ValidationScenesTest, MaterialExtensionPullsOneBarOfEachModel) {
  const Scene scene = Load("material_extension.json");
  ASSERT_TRUE(scene.model);
  const Model& model = *scene.model;
  ASSERT_EQ(model.soft_bodies.size(), 2u);
  EXPECT_EQ(model.soft_bodies[0].material_model, FemMaterialModel::kLinearCorotational);
  EXPECT_EQ(model.soft_bodies[1].material_model, FemMaterialModel::kStableNeoHookean);
  for (int s = 0; s < 2; ++s) {
    const SoftBody& bar = model.soft_bodies[s];
    EXPECT_DOUBLE_EQ(bar.youngs_modulus, 1e5);  // seed 002 Fig. 13
    EXPECT_DOUBLE_EQ(bar.poisson_ratio, 0.45);
    EXPECT_EQ(FixedNodes(model, s), 9);
  }
  EXPECT_EQ(model.attachment_count(), 18);
  ASSERT_EQ(model.joint_count(), 2);
  for (int j = 0; j < 2; ++j) {
    EXPECT_EQ(model.joint_type[j], JointType::kPrismatic);
    EXPECT_DOUBLE_EQ(model.joint_drive[j].target_position, 0.12);  // 0.2 m pulled to 0.32 m
  }
}


TEST(ValidationScenesTest, BoxOnSoftBlockIsAOneKilogramBoxWiderThanTheBlock) {
  const Scene scene = Load("box_on_soft_block.json");
  ASSERT_TRUE(scene.model);
  const Model& model = *scene.model;
  ASSERT_EQ(model.soft_bodies.size(), 1u);
  EXPECT_EQ(model.soft_bodies[0].tet_count(), 4 * 4 * 4 * 5);
  EXPECT_DOUBLE_EQ(model.soft_bodies[0].poisson_ratio, 0);
  const int box = model.FindBody("box");
  ASSERT_GE(box, 0);
  EXPECT_DOUBLE_EQ(model.body_mass[box], 1.0);
  const int shape = static_cast<int>(
      std::find(model.shape_body.begin(), model.shape_body.end(), box) - model.shape_body.begin());
  ASSERT_LT(shape, model.shape_count());
  EXPECT_GT(model.shape_geometry[shape].half_extents.x(), 0.05);  // wider than the 0.1 m block
}


// the FEM benchmark scene of issue 5 (not shipped: it reads the shared test data)
TEST(ValidationScenesTest, SoftBallBenchmarkIsTheSharedSphereMesh) {
  // the scene names ../shared/data/tetmesh/sphere1K.msh relative to itself
  SIM_REQUIRE_SHARED_DATA(test_support::SharedDataDir() + "/tetmesh/sphere1K.msh");
  Expected<Scene> scene =
      LoadScene(std::string(SIM_SOURCE_DIR) + "/bench/scenes/soft_ball_sphere1k.json",
                SceneOptions{.file_roots = {test_support::SharedDataDir()}});
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  // at the default settings solver.wave_iterations raises the 20 inner iterations to the
  // load-time estimate's 4·c·Δt/h = 38 (c·Δt/h = 9.4), so the scene loads without a warning
  EXPECT_TRUE(scene.diagnostics().items().empty()) << scene.diagnostics().Format();
  const SolverOptions& solver = scene->model->options.solver;
  EXPECT_EQ(WaveIterations(ReadNsnSettings(solver), *scene->model, solver.dt), 38);
  // with the fixed count the warning says what it needs
  const std::string path = std::string(SIM_SOURCE_DIR) + "/bench/scenes/soft_ball_sphere1k.json";
  std::ifstream file(path);
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  text.insert(text.find("\n{") + 2, R"("solver": {"wave_iterations": false},)");
  Expected<Scene> fixed =
      ParseScene(text, path, SceneOptions{.file_roots = {test_support::SharedDataDir()}});
  ASSERT_TRUE(fixed.ok()) << fixed.diagnostics().Format();
  const std::string diagnostics = fixed.diagnostics().Format();
  EXPECT_EQ(fixed.diagnostics().items().size(), 1u) << diagnostics;
  EXPECT_NE(diagnostics.find("c·Δt/h = 9.4"), std::string::npos) << diagnostics;
  EXPECT_NE(diagnostics.find("about 38 to keep it from gaining energy as it rolls and 19 to keep "
                             "it stable (the scene has 20)"),
            std::string::npos)
      << diagnostics;
  EXPECT_EQ(scene->model->tet_count(), 6851);  // sphere1K.msh, shared/data/tetmesh/README.md
  EXPECT_EQ(scene->model->particle_count(), 1760);
}

}  // namespace
}  // namespace sim::io
