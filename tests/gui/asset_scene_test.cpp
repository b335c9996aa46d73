// File > Open on a lone robot or mesh: a URDF (the real Allegro hand), a tet mesh and a surface
// mesh each get a default scene with a ground plane, the object above the ground and a camera
// aimed at it; scenes load as they are; a broken URDF reports its own file and line.
#include "ui/asset_scene.h"

#include <algorithm>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "engine/geometry/convex_hull.h"
#include "engine/state/state.h"

namespace sim::ui {
namespace {

const std::string kData = SIM_SHARED_DATA_DIR;
// the default scene leaves this gap under a dropped object [m] (asset_scene.cpp)
constexpr double kDropGap = 0.02;

int PlaneCount(const Model& model) {
  return static_cast<int>(
      std::count_if(model.shape_geometry.begin(), model.shape_geometry.end(),
                    [](const ShapeGeometry& g) { return g.type == ShapeType::kPlane; }));
}


TEST(AssetSceneTest, KindsByExtension) {
  EXPECT_EQ(AssetKindOf("a/b.json"), AssetKind::kScene);
  EXPECT_EQ(AssetKindOf("robot.URDF"), AssetKind::kUrdf);
  EXPECT_EQ(AssetKindOf("x.msh"), AssetKind::kTetMesh);
  EXPECT_EQ(AssetKindOf("x.node"), AssetKind::kTetMesh);
  EXPECT_EQ(AssetKindOf("x.STL"), AssetKind::kSurfaceMesh);
  EXPECT_EQ(AssetKindOf("x.txt"), AssetKind::kUnknown);
}


TEST(AssetSceneTest, UrdfGetsGroundAndCamera) {
  const std::string urdf =
      kData + "/robots/allegro_hand_description/allegro_hand_description_right.urdf";
  const Expected<io::Scene> scene = LoadSceneOrAsset(urdf);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  EXPECT_EQ(model.name, "allegro_hand_description_right.urdf");
  EXPECT_EQ(PlaneCount(model), 1);
  EXPECT_GT(model.body_count(), 10);
  EXPECT_GT(model.joint_count(), 10);
  // every body above the ground, every driven joint held
  for (int b = 0; b < model.body_count(); ++b) {
    EXPECT_GT(scene->initial_state.body_X_WB[b].p.z(), 0) << model.body_name[b];
  }
  int driven = 0;
  for (const JointDrive& drive : model.joint_drive) driven += drive.enabled();
  EXPECT_GE(driven, 16);
  // the camera looks at the hand from a hand's distance (not the 6 m default)
  EXPECT_LT(model.camera.distance, 1.5);
  EXPECT_GT(model.camera.target.z(), 0);
}


TEST(AssetSceneTest, TetMeshIsDroppedOntoTheGround) {
  const Expected<io::Scene> scene = LoadSceneOrAsset(kData + "/tetmesh/sphere1K.msh");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  ASSERT_EQ(model.soft_bodies.size(), 1u);
  EXPECT_EQ(PlaneCount(model), 1);
  double lowest = std::numeric_limits<double>::infinity();
  for (int p = 0; p < model.particle_count(); ++p) {
    lowest = std::min(lowest, scene->initial_state.particle_x_W[p].z() - model.particle_radius[p]);
  }
  EXPECT_NEAR(lowest, kDropGap, 1e-9);
}


TEST(AssetSceneTest, SurfaceMeshBecomesARigidHullAboveTheGround) {
  const Expected<io::Scene> scene =
      LoadSceneOrAsset(kData + "/robots/allegro_hand_description/meshes/base_link.STL");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  ASSERT_EQ(model.body_count(), 1);
  int hull = -1;
  for (int s = 0; s < model.shape_count(); ++s) {
    if (model.shape_geometry[s].type == ShapeType::kConvexHull) hull = s;
  }
  ASSERT_GE(hull, 0);
  const Pose X_WS = scene->initial_state.body_X_WB[0] * model.shape_X_BS[hull];
  double lowest = std::numeric_limits<double>::infinity();
  for (const Vec3& v : model.shape_geometry[hull].hull->vertices) {
    lowest = std::min(lowest, (X_WS * v).z());
  }
  EXPECT_NEAR(lowest, kDropGap, 1e-9);
}


TEST(AssetSceneTest, ScenesLoadAsTheyAreAndBrokenFilesReportTheirLines) {
  const Expected<io::Scene> scene =
      LoadSceneOrAsset(std::string(SIM_SOURCE_DIR) + "/scenes/default.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  EXPECT_EQ(scene->model->name, "Boxes on a ground plane");
  const Expected<io::Scene> broken =
      LoadSceneOrAsset(std::string(SIM_SOURCE_DIR) + "/tests/data/bad_robot.urdf");
  ASSERT_FALSE(broken.ok());
  const std::string text = broken.diagnostics().Format();
  EXPECT_NE(text.find("bad_robot.urdf:"), std::string::npos) << text;
}

}  // namespace
}  // namespace sim::ui
