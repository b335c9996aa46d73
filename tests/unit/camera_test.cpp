// Orbit camera conventions that screenshot tests and the renderer rely on.
#include "engine/visual/camera.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace sim
