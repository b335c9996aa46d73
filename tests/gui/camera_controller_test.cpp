// CameraController: the viewport's mouse conventions, checked through what the user sees: points
// follow the cursor when panning, the near side of the scene follows it when orbiting, the wheel
// zooms in, the overlay keeps the mouse, and Reset returns exactly to the scene's camera.
#include "ui/viewport/camera_controller.h"

#include <gtest/gtest.h>

namespace sim::ui {
namespace {

constexpr int kWidth = 900;
constexpr int kHeight = 700;
// projected positions are float; a pan is exact up to rounding of a few ulps of a ~1000 px value
constexpr float kPixelTolerance = 0.05f;

OrbitCamera SceneCamera() {
  CameraSetup setup;
  setup.target = Vec3(0.2, -0.1, 0.45);
  setup.distance = 6.5;
  setup.yaw_deg = 35;
  setup.pitch_deg = 24;
  setup.fov_y_deg = 45;
  return OrbitCamera(setup, Vec3::UnitZ());
}

Eigen::Vector2f Pixel(const OrbitCamera& camera, const Vec3& p) {
  const std::optional<Eigen::Vector2f> pixel = camera.ProjectToPixel(p, kWidth, kHeight);
  EXPECT_TRUE(pixel.has_value());
  return pixel.value_or(Eigen::Vector2f::Zero());
}

// drags from the viewport centre by (dx, dy) logical pixels with `button` and `modifiers`
void Drag(CameraController* controller, Qt::MouseButton button, Qt::KeyboardModifiers modifiers,
          double dx, double dy) {
  const QPointF start(kWidth / 2.0, kHeight / 2.0);
  ASSERT_TRUE(controller->Press(button, modifiers, start, /*overlay_has_mouse=*/false));
  // in several steps, as a real drag arrives
  for (int i = 1; i <= 4; ++i) {
    controller->Move(start + QPointF(dx * i / 4.0, dy * i / 4.0), kHeight);
  }
  controller->Release(button);
  EXPECT_EQ(controller->drag(), CameraController::Drag::kNone);
}


TEST(CameraControllerTest, StartsAtTheHomeCameraExactly) {
  CameraController controller;
  controller.SetHome(SceneCamera());
  const OrbitCamera expected = SceneCamera();
  EXPECT_EQ(controller.camera().Eye(), expected.Eye());
  EXPECT_EQ(controller.camera().target, expected.target);
  EXPECT_EQ(controller.camera().fov_y_deg, expected.fov_y_deg);
}


TEST(CameraControllerTest, PanKeepsTargetDepthPointsUnderTheCursor) {
  for (const Qt::MouseButton button : {Qt::RightButton, Qt::MiddleButton, Qt::LeftButton}) {
    CameraController controller;
    controller.SetHome(SceneCamera());
    const Vec3 target = controller.camera().target.cast<double>();
    const Eigen::Vector2f before = Pixel(controller.camera(), target);
    const Qt::KeyboardModifiers modifiers =
        button == Qt::LeftButton ? Qt::ShiftModifier : Qt::NoModifier;
    Drag(&controller, button, modifiers, 120, -45);
    const Eigen::Vector2f after = Pixel(controller.camera(), target);
    EXPECT_NEAR(after.x() - before.x(), 120.0f, kPixelTolerance) << "button " << button;
    EXPECT_NEAR(after.y() - before.y(), -45.0f, kPixelTolerance) << "button " << button;
  }
}


TEST(CameraControllerTest, OrbitSwingsTheNearSideWithTheCursor) {
  CameraController controller;
  controller.SetHome(SceneCamera());
  const OrbitCamera home = controller.camera();
  // a point between the target and the eye, on the viewer's side of the orbit centre
  const Vec3 near_point = (home.target + 0.5f * (home.Eye() - home.target)).cast<double>();
  const Eigen::Vector2f before = Pixel(home, near_point);
  Drag(&controller, Qt::LeftButton, Qt::NoModifier, 60, 0);
  EXPECT_GT(Pixel(controller.camera(), near_point).x(), before.x() + 5.0f);
  EXPECT_FLOAT_EQ(controller.camera().yaw_deg,
                  home.yaw_deg - 60 * CameraController::kOrbitDegreesPerPixel);

  // dragging down raises the eye (more of the tops of things)
  Drag(&controller, Qt::LeftButton, Qt::NoModifier, 0, 40);
  EXPECT_GT(controller.camera().Eye().z(), home.Eye().z());
  // the target does not move while orbiting
  EXPECT_EQ(controller.camera().target, home.target);
}


TEST(CameraControllerTest, WheelAwayZoomsIn) {
  CameraController controller;
  controller.SetHome(SceneCamera());
  const float distance = controller.camera().distance;
  controller.Wheel(2.0f, /*overlay_has_mouse=*/false);
  EXPECT_FLOAT_EQ(controller.camera().distance, distance * 0.9f * 0.9f);
  controller.Wheel(-2.0f, false);
  EXPECT_NEAR(controller.camera().distance, distance, 1e-4f);
}


TEST(CameraControllerTest, OverlayKeepsTheMouse) {
  CameraController controller;
  controller.SetHome(SceneCamera());
  const OrbitCamera home = controller.camera();
  // a press on the overlay starts no drag; the following motion does not move the camera
  EXPECT_FALSE(controller.Press(Qt::LeftButton, Qt::NoModifier, QPointF(20, 20), true));
  controller.Move(QPointF(220, 120), kHeight);
  controller.Release(Qt::LeftButton);
  controller.Wheel(3.0f, /*overlay_has_mouse=*/true);
  EXPECT_EQ(controller.camera().Eye(), home.Eye());
  EXPECT_EQ(controller.camera().target, home.target);
}


TEST(CameraControllerTest, ResetReturnsHome) {
  CameraController controller;
  controller.SetHome(SceneCamera());
  Drag(&controller, Qt::LeftButton, Qt::NoModifier, 200, 80);
  Drag(&controller, Qt::RightButton, Qt::NoModifier, -50, 30);
  controller.Wheel(4.0f, false);
  ASSERT_NE(controller.camera().Eye(), SceneCamera().Eye());
  controller.Reset();
  EXPECT_EQ(controller.camera().Eye(), SceneCamera().Eye());
  EXPECT_EQ(controller.camera().target, SceneCamera().target);
}


TEST(CameraControllerTest, SecondButtonDoesNotHijackADrag) {
  CameraController controller;
  controller.SetHome(SceneCamera());
  ASSERT_TRUE(controller.Press(Qt::LeftButton, Qt::NoModifier, QPointF(10, 10), false));
  EXPECT_FALSE(controller.Press(Qt::RightButton, Qt::NoModifier, QPointF(10, 10), false));
  EXPECT_EQ(controller.drag(), CameraController::Drag::kOrbit);
  // releasing the other button keeps the orbit going
  controller.Release(Qt::RightButton);
  EXPECT_EQ(controller.drag(), CameraController::Drag::kOrbit);
  controller.Release(Qt::LeftButton);
  EXPECT_EQ(controller.drag(), CameraController::Drag::kNone);
}


// a frame with `count` bodies, body 1's centre of mass at `com`
VisualFrame FrameWithBody(const Eigen::Vector3f& com, int count = 2) {
  VisualFrame frame;
  frame.bodies.resize(count);
  if (count > 1) frame.bodies[1].X_WB = {1, 0, 0, com.x(), 0, 1, 0, com.y(), 0, 0, 1, com.z()};
  return frame;
}


TEST(CameraControllerTest, FollowedBodyStaysWhereItIsOnScreen) {
  CameraController controller;
  controller.SetHome(SceneCamera());
  controller.SetFollow(1, /*recentre=*/false);
  // the body slides 8 m down and sideways: far out of the home view
  const Eigen::Vector3f start(1.0f, 0.5f, 1.0f);
  controller.Track(FrameWithBody(start));
  const Eigen::Vector2f first = Pixel(controller.camera(), start.cast<double>());
  for (int k = 1; k <= 10; ++k) {
    const Eigen::Vector3f com = start + 0.8f * k * Eigen::Vector3f(-1, 0.3f, -0.5f);
    controller.Track(FrameWithBody(com));
    const Eigen::Vector2f now = Pixel(controller.camera(), com.cast<double>());
    EXPECT_NEAR((now - first).norm(), 0, kPixelTolerance) << "step " << k;
  }
  // without following, the body would be off screen: the home view does not see it
  const std::optional<Eigen::Vector2f> home = SceneCamera().ProjectToPixel(
      (start + 8.0f * Eigen::Vector3f(-1, 0.3f, -0.5f)).cast<double>(), kWidth, kHeight);
  EXPECT_TRUE(!home || home->x() < 0 || home->x() > kWidth || home->y() < 0 || home->y() > kHeight)
      << "the home view sees the body's end point";
  // a frame without the body (another scene) moves nothing; stopping keeps the view
  const Eigen::Vector3f target = controller.camera().target;
  controller.Track(FrameWithBody(Eigen::Vector3f(50, 50, 50), 1));
  controller.SetFollow(kWorldBody, false);
  controller.Track(FrameWithBody(Eigen::Vector3f(50, 50, 50)));
  EXPECT_EQ(controller.camera().target, target);
}


TEST(CameraControllerTest, FollowWithRecentreAndResetPutTheBodyInTheMiddle) {
  CameraController controller;
  controller.SetHome(SceneCamera());
  const Eigen::Vector3f com(3.0f, -2.0f, 0.2f);
  controller.SetFollow(1, /*recentre=*/true);
  controller.Track(FrameWithBody(com));
  EXPECT_EQ(controller.camera().target, com);
  controller.Reset();
  EXPECT_EQ(controller.camera().target, SceneCamera().target);
  const Eigen::Vector3f later = com + Eigen::Vector3f(1, 1, 0);
  controller.Track(FrameWithBody(later));
  EXPECT_EQ(controller.camera().target, later) << "Reset while following recentres";
  EXPECT_EQ(controller.camera().distance, SceneCamera().distance);
}

}  // namespace
}  // namespace sim::ui
