// The import of a lone mesh or robot (engine/io/import_scene.h, the studio's import dialog): a
// Y-up armadillo and bunny from the shared data stand upright on the ground, the requested total
// mass or density is the loaded body's mass, the saved scene names its mesh relative to itself
// and reads back through the real scene loader, a scene whose mesh lies outside its file roots is
// refused before anything is written, and the --import presets parse or say what they expect.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/default_scene.h"
#include "engine/io/file_roots.h"
#include "engine/io/import_scene.h"
#include "engine/io/scene_file.h"
#include "tests/support/shared_data.h"

namespace sim::io {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kTetData = test_support::SharedDataDir() + "/tetmesh/";
const std::string kArmadillo = kTetData + "armadillo_4k.node";
const std::string kBunny = kTetData + "bunny.msh";
// the masses are sums of lumped node masses ρV/4: equal to the request to rounding
constexpr double kMassTolerance = 1e-9;
// the armadillo's extent along y in the file (shared/data/tetmesh/README.md: y[-1.081, 1.948])
constexpr double kArmadilloHeight = 1.948 + 1.081;
// the bunny's: y[-0.338, 2.742]
constexpr double kBunnyHeight = 2.742 + 0.338;
// the README's bounds are rounded to 1e-3; the bounds add the nodes' contact radius
constexpr double kBoundsTolerance = 0.02;

fs::path ScratchDir() {
  const fs::path dir = fs::path(::testing::TempDir()) /
                       ("import_scene_test_" +
                        std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
  fs::create_directories(dir);
  return dir;
}

ImportSettings Inspect(const std::string& path) {
  Expected<ImportSource> source = InspectImportFile(path);
  EXPECT_TRUE(source.ok()) << source.diagnostics().Format();
  ImportSettings settings;
  if (source.ok()) settings.source = source.value();
  return settings;
}

Vec3 Size(const Scene& scene, Vec3* lower = nullptr) {
  Vec3 lo, hi;
  EXPECT_TRUE(SceneBounds(*scene.model, scene.initial_state, &lo, &hi));
  if (lower != nullptr) *lower = lo;
  return hi - lo;
}

double ParticleMass(const Scene& scene) {
  const std::vector<Real>& m = scene.model->particle_mass;
  return std::accumulate(m.begin(), m.end(), 0.0);
}

// scenes saved outside the shared data may read it (as CONTACT_STUDIO_FILE_ROOTS allows a user)
class ScopedFileRoots {
 public:
  explicit ScopedFileRoots(const std::string& roots) {
    if (const char* old = std::getenv(kFileRootsVariable)) old_ = old;
    setenv(kFileRootsVariable, roots.c_str(), 1);
  }
  ~ScopedFileRoots() {
    if (old_.empty()) {
      unsetenv(kFileRootsVariable);
    } else {
      setenv(kFileRootsVariable, old_.c_str(), 1);
    }
  }

 private:
  std::string old_;
};


TEST(ImportSceneTest, AYUpArmadilloStandsUprightOnTheGround) {
  SIM_REQUIRE_SHARED_DATA(kArmadillo);
  ImportSettings settings = Inspect(kArmadillo);
  EXPECT_EQ(settings.source.kind, ImportKind::kTetMesh);
  EXPECT_EQ(settings.source.nodes, 1180);
  EXPECT_EQ(settings.source.elements, 3717);
  settings.scale = 0.1;

  // as in the file (Z up) the tallest extent lies along y: on its back
  Expected<Scene> as_is = LoadImportScene(settings);
  ASSERT_TRUE(as_is.ok()) << as_is.diagnostics().Format();
  const Vec3 lying = Size(as_is.value());
  EXPECT_GT(lying.y(), lying.z());

  settings.up = UpAxis::kPlusY;
  EXPECT_NEAR(ImportedSize(settings).z(), 0.1 * kArmadilloHeight, 0.01);
  Expected<Scene> upright = LoadImportScene(settings);
  ASSERT_TRUE(upright.ok()) << upright.diagnostics().Format();
  Vec3 lower;
  const Vec3 size = Size(upright.value(), &lower);
  EXPECT_GT(size.z(), size.x());
  EXPECT_GT(size.z(), size.y());
  EXPECT_NEAR(size.z(), 0.1 * kArmadilloHeight, 0.1 * kBoundsTolerance);
  // on the ground, centred on the origin
  EXPECT_NEAR(lower.z(), kDefaultSceneClearance, 1e-9);
  EXPECT_NEAR(lower.x() + 0.5 * size.x(), 0, 1e-9);
  EXPECT_NEAR(lower.y() + 0.5 * size.y(), 0, 1e-9);
  EXPECT_EQ(upright->path, settings.source.path);
  // the default density of 1000 kg/m³ on a 3 m armadillo is tonnes; at a tenth, kilograms
  EXPECT_NEAR(ParticleMass(upright.value()), ImportedMass(settings),
              kMassTolerance * ImportedMass(settings));
  EXPECT_GT(ImportedMass(settings), 1);
  EXPECT_LT(ImportedMass(settings), 10);
}


TEST(ImportSceneTest, TheBunnysUpAxisBecomesWorldZAndThePositionMovesIt) {
  SIM_REQUIRE_SHARED_DATA(kBunny);
  ImportSettings settings = Inspect(kBunny);
  settings.up = UpAxis::kPlusY;
  settings.position = Vec3(1, -2, 0.5);
  settings.yaw_deg = 90;
  Expected<Scene> scene = LoadImportScene(settings);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  Vec3 lower;
  const Vec3 size = Size(scene.value(), &lower);
  EXPECT_NEAR(size.z(), kBunnyHeight, kBoundsTolerance);
  EXPECT_NEAR(lower.z(), 0.5 + kDefaultSceneClearance, 1e-9);
  EXPECT_NEAR(lower.x() + 0.5 * size.x(), 1, 1e-9);
  EXPECT_NEAR(lower.y() + 0.5 * size.y(), -2, 1e-9);
  // the camera looks at it
  EXPECT_NEAR(scene->model->camera.target.x(), 1, 1e-9);
  EXPECT_NEAR(scene->model->camera.target.y(), -2, 1e-9);
}


TEST(ImportSceneTest, ASavedSceneNamesItsMeshRelativelyAndReadsBackWithTheTotalMass) {
  SIM_REQUIRE_SHARED_DATA(kArmadillo);
  const fs::path dir = ScratchDir();
  const ScopedFileRoots roots(test_support::SharedDataDir());
  ImportSettings settings = Inspect(kArmadillo);
  settings.up = UpAxis::kPlusY;
  settings.scale = 0.1;
  settings.total_mass = 2.0;
  settings.friction = 0.8;
  settings.youngs_modulus = 2e5;
  settings.poisson_ratio = 0.4;
  EXPECT_EQ(ImportedMass(settings), 2.0);
  const std::string path = (dir / "armadillo.json").string();
  const Diagnostics saved = SaveImportScene(settings, path);
  ASSERT_FALSE(saved.has_errors()) << saved.Format();

  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  const std::string relative =
      fs::relative(kArmadillo, dir).generic_string();  // "../../…/armadillo_4k.node"
  EXPECT_THAT(text.str(), HasSubstr("\"file\": \"" + relative + "\""));
  EXPECT_THAT(text.str(), HasSubstr("\"mass\": 2"));

  // the real scene loader, with the folders a user's scene may read
  Expected<Scene> scene = LoadScene(path);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  EXPECT_NEAR(ParticleMass(scene.value()), 2.0, 2.0 * kMassTolerance);
  ASSERT_EQ(scene->model->soft_bodies.size(), 1u);
  EXPECT_EQ(scene->model->soft_bodies[0].youngs_modulus, 2e5);
  EXPECT_EQ(scene->model->soft_bodies[0].poisson_ratio, 0.4);
  const Model& model = *scene->model;
  EXPECT_EQ(model.materials[model.soft_bodies[0].material].friction, 0.8);
  Vec3 lower;
  const Vec3 size = Size(scene.value(), &lower);
  EXPECT_GT(size.z(), size.x());
  EXPECT_GT(size.z(), size.y());
  EXPECT_NEAR(lower.z(), kDefaultSceneClearance, 1e-9);
  // the same scene as the unsaved import
  Expected<Scene> imported = LoadImportScene(settings);
  ASSERT_TRUE(imported.ok());
  EXPECT_EQ(imported->initial_state.particle_x_W, scene->initial_state.particle_x_W);
}


TEST(ImportSceneTest, ADensityGivesDensityTimesTheScaledVolume) {
  SIM_REQUIRE_SHARED_DATA(kBunny);
  ImportSettings settings = Inspect(kBunny);
  settings.density = 250;
  settings.scale = 0.05;
  const double expected = 250 * settings.source.volume * 0.05 * 0.05 * 0.05;
  EXPECT_NEAR(ImportedMass(settings), expected, 1e-12 * expected);
  Expected<Scene> scene = LoadImportScene(settings);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  EXPECT_NEAR(ParticleMass(scene.value()), expected, kMassTolerance * expected);
}


TEST(ImportSceneTest, AClosedSurfaceMeshBecomesARigidBodyOfTheTotalMass) {
  const std::string off = kTetData + "bunny_10k.off";
  SIM_REQUIRE_SHARED_DATA(off);
  ImportSettings settings = Inspect(off);
  ASSERT_EQ(settings.source.kind, ImportKind::kSurfaceMesh);
  ASSERT_TRUE(settings.source.closed);
  settings.up = UpAxis::kPlusY;
  settings.scale = 0.2;
  settings.total_mass = 0.75;
  Expected<Scene> scene = LoadImportScene(settings);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  ASSERT_EQ(model.body_count(), 1);
  EXPECT_NEAR(model.body_mass[0], 0.75, 0.75 * kMassTolerance);
  // the file's y extent [0, 1.028] is the height
  EXPECT_NEAR(Size(scene.value()).z(), 0.2 * 1.028, 0.2 * kBoundsTolerance);
}


TEST(ImportSceneTest, ARobotStandsOnTheGroundWithItsBaseFixedOrFree) {
  // our Allegro hand (resources/), saved beside nothing: imported from memory
  const std::string urdf =
      std::string(SIM_SOURCE_DIR) + "/resources/robots/allegro/allegro_right.urdf";
  ImportSettings settings = Inspect(urdf);
  ASSERT_EQ(settings.source.kind, ImportKind::kRobot);
  EXPECT_GT(settings.source.robot_mass, 0);
  EXPECT_EQ(ImportedMass(settings), 0);  // its own inertials count
  settings.position = Vec3(0.5, 0, 0);
  for (const bool fixed : {true, false}) {
    settings.fixed_base = fixed;
    Expected<Scene> scene = LoadImportScene(settings);
    ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
    Vec3 lower;
    const Vec3 size = Size(scene.value(), &lower);
    EXPECT_NEAR(lower.z(), kDefaultSceneClearance, 1e-9);
    EXPECT_NEAR(lower.x() + 0.5 * size.x(), 0.5, 1e-9);
    // a fixed base is a joint to the world
    int world_joints = 0;
    for (int j = 0; j < scene->model->joint_count(); ++j) {
      world_joints += scene->model->joint_parent[j] == kWorldBody;
    }
    EXPECT_EQ(world_joints, fixed ? 1 : 0);
  }
}


TEST(ImportSceneTest, ASceneThatCouldNotReadItsMeshIsNotWritten) {
  SIM_REQUIRE_SHARED_DATA(kArmadillo);
  const ScopedFileRoots roots("");
  const ImportSettings settings = Inspect(kArmadillo);
  const std::string path = (ScratchDir() / "elsewhere.json").string();
  fs::remove(path);
  const Diagnostics saved = SaveImportScene(settings, path);
  ASSERT_TRUE(saved.has_errors());
  EXPECT_THAT(saved.Format(), HasSubstr("outside the folders a scene here may read"));
  EXPECT_THAT(saved.Format(), HasSubstr(kFileRootsVariable));
  EXPECT_FALSE(fs::exists(path));
}


TEST(ImportSceneTest, UnsupportedFilesAreErrorsThatNameTheKindsTaken) {
  const fs::path text = ScratchDir() / "notes.txt";
  std::ofstream(text) << "hello\n";
  EXPECT_FALSE(ImportKindOf(text.string()).has_value());
  EXPECT_FALSE(ImportKindOf("scene.json").has_value());
  EXPECT_EQ(ImportKindOf("robot.URDF"), ImportKind::kRobot);
  EXPECT_EQ(ImportKindOf("bunny.msh"), ImportKind::kTetMesh);
  EXPECT_EQ(ImportKindOf("part.stl"), ImportKind::kSurfaceMesh);
  Expected<ImportSource> source = InspectImportFile(text.string());
  ASSERT_FALSE(source.ok());
  EXPECT_THAT(source.diagnostics().Format(), HasSubstr("cannot import a '.txt' file"));
  // a missing file of a taken kind is the loaders' located error
  Expected<ImportSource> missing = InspectImportFile((ScratchDir() / "none.msh").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.diagnostics().Format(), HasSubstr("none.msh"));
}


TEST(ImportSceneTest, PresetsSetTheSettingsOrSayWhatTheyExpect) {
  ImportSettings settings;
  std::vector<std::pair<std::string, std::string>> other;
  Diagnostics ok = ApplyImportPresets(
      "material=rubber,density=900,up=-y,scale=0.01,x=1,y=2,z=3,yaw=45,base=free,save=a.json",
      &settings, &other);
  EXPECT_FALSE(ok.has_errors()) << ok.Format();
  EXPECT_EQ(settings.friction, 0.9);
  EXPECT_EQ(settings.youngs_modulus, 1e6);
  EXPECT_EQ(settings.density, 900);
  EXPECT_FALSE(settings.total_mass.has_value());
  EXPECT_EQ(settings.up, UpAxis::kMinusY);
  EXPECT_EQ(settings.scale, 0.01);
  EXPECT_EQ(settings.position, Vec3(1, 2, 3));
  EXPECT_EQ(settings.yaw_deg, 45);
  EXPECT_FALSE(settings.fixed_base);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0], std::make_pair(std::string("save"), std::string("a.json")));
  EXPECT_FALSE(ApplyImportPresets("mass=2,up=+x", &settings).has_errors());
  EXPECT_EQ(settings.total_mass, 2.0);
  EXPECT_EQ(settings.up, UpAxis::kPlusX);

  const std::string errors =
      ApplyImportPresets("up=w,scale=0,mass=abc,material=jelly,colour=red,base", &settings)
          .Format();
  EXPECT_THAT(errors, HasSubstr("'up=w': up expects z, y, x, -z, -y or -x"));
  EXPECT_THAT(errors, HasSubstr("'scale=0': scale expects a number in [1e-06, 1e+06]"));
  EXPECT_THAT(errors, HasSubstr("'mass=abc': mass expects a number"));
  EXPECT_THAT(errors, HasSubstr("'material=jelly': material expects one of default, rubber"));
  EXPECT_THAT(errors, HasSubstr("'colour=red': unknown key"));
  EXPECT_THAT(errors, HasSubstr("'base': expected KEY=VALUE"));
}

}  // namespace
}  // namespace sim::io
