// Orbit camera conventions that screenshot tests and the renderer rely on.
#include "engine/visual/camera.h"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "engine/visual/frame_bounds.h"

namespace sim {
namespace {

// float math on O(1) m distances: 1e-4 is far above rounding, far below a pixel
constexpr float kTol = 1e-4f;

TEST(OrbitCameraTest, TargetProjectsToImageCentre) {
  OrbitCamera camera(CameraSetup{}, Vec3::UnitZ());
  const auto pixel = camera.ProjectToPixel(camera.target.cast<double>(), 640, 480);
  ASSERT_TRUE(pixel.has_value());
  EXPECT_NEAR(pixel->x(), 320.0f, kTol * 640);
  EXPECT_NEAR(pixel->y(), 240.0f, kTol * 480);
}


TEST(OrbitCameraTest, UpIsUpOnScreenAndEyeAtDistance) {
  OrbitCamera camera(CameraSetup{}, Vec3::UnitZ());
  EXPECT_NEAR((camera.Eye() - camera.target).norm(), camera.distance, kTol);
  // a point above the target appears above the centre (smaller pixel y)
  const Vec3 above = camera.target.cast<double>() + Vec3(0, 0, 0.5);
  EXPECT_LT(camera.ProjectToPixel(above, 640, 480)->y(), 240.0f);
}


TEST(OrbitCameraTest, PointBehindTheEyeIsNotProjected) {
  OrbitCamera camera(CameraSetup{}, Vec3::UnitZ());
  const Eigen::Vector3f behind = camera.Eye() + (camera.Eye() - camera.target);
  EXPECT_FALSE(camera.ProjectToPixel(behind.cast<double>(), 640, 480).has_value());
}


TEST(OrbitCameraTest, OrbitClampsPitchAndZoomScalesDistance) {
  OrbitCamera camera;
  camera.Orbit(10, 200);
  EXPECT_FLOAT_EQ(camera.pitch_deg, 89.0f);
  const float d = camera.distance;
  camera.Zoom(0.5f);
  EXPECT_NEAR(camera.distance, 0.5f * d, kTol);
}


TEST(OrbitCameraTest, PanMovesTargetInTheViewPlane) {
  OrbitCamera camera;
  const Eigen::Vector3f eye_to_target = camera.target - camera.Eye();
  const Eigen::Vector3f before = camera.target;
  camera.Pan(0.1f, 0.0f);
  const Eigen::Vector3f moved = camera.target - before;
  EXPECT_GT(moved.norm(), 0.0f);
  EXPECT_NEAR(moved.dot(eye_to_target.normalized()), 0.0f, kTol);
}


// the 8 corners of [lower, upper] in pixels: their smallest margin to the image border as a
// fraction of the image's smaller side (negative: a corner is outside)
float CornerMargin(const OrbitCamera& camera, const Eigen::Vector3f& lower,
                   const Eigen::Vector3f& upper, int width, int height, float* spread) {
  float margin = 1e9f;
  Eigen::Vector2f lo(1e9f, 1e9f), hi(-1e9f, -1e9f);
  for (int c = 0; c < 8; ++c) {
    const Eigen::Vector3f p((c & 1) ? upper.x() : lower.x(), (c & 2) ? upper.y() : lower.y(),
                            (c & 4) ? upper.z() : lower.z());
    const auto pixel = camera.ProjectToPixel(p.cast<double>(), width, height);
    if (!pixel) return -1;
    lo = lo.cwiseMin(*pixel);
    hi = hi.cwiseMax(*pixel);
    margin = std::min({margin, pixel->x(), pixel->y(), width - pixel->x(), height - pixel->y()});
  }
  *spread = std::max(hi.x() - lo.x(), hi.y() - lo.y()) / std::min(width, height);
  return margin / std::min(width, height);
}


TEST(OrbitCameraTest, FrameBoxFitsTheBoxInLandscapeAndPortraitImages) {
  // a long thin box far from the target the scene opened with (a robot arm 20 m away)
  const Eigen::Vector3f lower(18.0f, -0.2f, 0.0f), upper(22.0f, 0.3f, 0.6f);
  for (const auto [width, height] : {std::pair{1280, 720}, std::pair{400, 900}}) {
    OrbitCamera camera(CameraSetup{}, Vec3::UnitZ());
    const float yaw = camera.yaw_deg, pitch = camera.pitch_deg;
    camera.FrameBox(lower, upper, static_cast<float>(width) / height);
    EXPECT_NEAR((camera.target - 0.5f * (lower + upper)).norm(), 0.0f, kTol);
    EXPECT_EQ(camera.yaw_deg, yaw);
    EXPECT_EQ(camera.pitch_deg, pitch);
    // every corner inside, and the box not lost in the middle: it spans over a third of the view
    float spread = 0;
    const float margin = CornerMargin(camera, lower, upper, width, height, &spread);
    EXPECT_GT(margin, 0.02f) << width << "x" << height;
    EXPECT_GT(spread, 0.35f) << width << "x" << height;
  }
}


TEST(OrbitCameraTest, FrameBoxIgnoresAnEmptyBox) {
  OrbitCamera camera(CameraSetup{}, Vec3::UnitZ());
  const OrbitCamera before = camera;
  camera.FrameBox(Eigen::Vector3f(1, 1, 1), Eigen::Vector3f(0, 0, 0), 1.5f);
  camera.FrameBox(Eigen::Vector3f::Constant(NAN), Eigen::Vector3f::Zero(), 1.5f);
  EXPECT_EQ(camera.target, before.target);
  EXPECT_EQ(camera.distance, before.distance);
}


TEST(FrameBoundsTest, ShapesAndMeshesWithoutPlanesOrHiddenCollisionShapes) {
  VisualFrame frame;
  VisualShape ground;
  ground.type = ShapeType::kPlane;
  ground.size = {kPlaneDrawHalfSize, kPlaneGridCell, 0};
  frame.shapes.push_back(ground);
  EXPECT_FALSE(FrameBounds(frame).has_value()) << "a ground alone has no bounds";
  // a box of body 0 at (1, 2, 3), half extents (0.1, 0.2, 0.3), turned 90° about z
  VisualShape box;
  box.type = ShapeType::kBox;
  box.size = {0.1f, 0.2f, 0.3f};
  box.X_WS = {0, -1, 0, 1, 1, 0, 0, 2, 0, 0, 1, 3};
  box.body = 0;
  frame.shapes.push_back(box);
  // a sphere of body 1, collision only
  VisualShape sphere;
  sphere.type = ShapeType::kSphere;
  sphere.size = {0.5f, 0, 0};
  sphere.X_WS = {1, 0, 0, -4, 0, 1, 0, 0, 0, 0, 1, 0};
  sphere.body = 1;
  sphere.collision_only = true;
  frame.shapes.push_back(sphere);
  // a mesh of body 1 with two vertices, moved by (0, 0, 1)
  auto mesh = std::make_shared<VisualMesh>();
  mesh->positions = {{0, 0, 0}, {0.5f, 0.5f, 0.5f}};
  frame.meshes.push_back(mesh);
  VisualMeshInstance instance;
  instance.mesh = 0;
  instance.X_WS = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1};
  instance.body = 1;
  frame.mesh_instances.push_back(instance);

  const std::optional<Box3f> all = FrameBounds(frame);
  ASSERT_TRUE(all.has_value());
  EXPECT_TRUE(all->lower.isApprox(Eigen::Vector3f(0, 0, 1), kTol)) << all->lower.transpose();
  EXPECT_TRUE(all->upper.isApprox(Eigen::Vector3f(1.2f, 2.1f, 3.3f), kTol))
      << all->upper.transpose();
  const std::optional<Box3f> with_collision = FrameBounds(frame, std::nullopt, true);
  ASSERT_TRUE(with_collision.has_value());
  EXPECT_NEAR(with_collision->lower.x(), -4.5f, kTol);
  const std::optional<Box3f> box_only = FrameBounds(frame, 0);
  ASSERT_TRUE(box_only.has_value());
  EXPECT_TRUE(box_only->lower.isApprox(Eigen::Vector3f(0.8f, 1.9f, 2.7f), kTol))
      << box_only->lower.transpose();
  EXPECT_FALSE(FrameBounds(frame, 7).has_value()) << "a body with nothing drawn";
}

}  // namespace
}  // namespace sim
