// The viewport's picking conventions (MuJoCo simulate): a click selects, a press that travels is
// a camera drag and picks nothing, ctrl+left drag pulls with the spring, the overlay keeps its
// mouse; in paint mode a plain left drag paints (alt and shift still move the camera, ctrl still
// pulls); and the cursor ray goes through the very pixel the camera projects a point to.
#include "ui/viewport/pick_controller.h"

#include <gtest/gtest.h>

namespace sim::ui {
namespace {

using Action = PickController::Action;

TEST(PickControllerTest, ClickPicksAndATravellingPressDoesNot) {
  PickController pick;
  EXPECT_EQ(pick.Press(Qt::LeftButton, Qt::NoModifier, {100, 100}, false), Action::kNone);
  EXPECT_EQ(pick.Move({102, 101}), Action::kNone);
  EXPECT_EQ(pick.Release(Qt::LeftButton, {102, 101}), Action::kPick);
  // an orbit: travelled beyond the slop, even if it comes back
  pick.Press(Qt::LeftButton, Qt::NoModifier, {100, 100}, false);
  pick.Move({130, 100});
  pick.Move({100, 100});
  EXPECT_EQ(pick.Release(Qt::LeftButton, {100, 100}), Action::kNone);
  // right button (pan) and presses on the overlay pick nothing
  pick.Press(Qt::RightButton, Qt::NoModifier, {100, 100}, false);
  EXPECT_EQ(pick.Release(Qt::RightButton, {100, 100}), Action::kNone);
  pick.Press(Qt::LeftButton, Qt::NoModifier, {100, 100}, true);
  EXPECT_EQ(pick.Release(Qt::LeftButton, {100, 100}), Action::kNone);
  EXPECT_EQ(pick.DoubleClick(Qt::LeftButton, false), Action::kPick);
  EXPECT_EQ(pick.DoubleClick(Qt::LeftButton, true), Action::kNone);
}


TEST(PickControllerTest, PaintModeTurnsPlainLeftDragsIntoStrokes) {
  PickController pick;
  pick.SetPaintMode(true);
  EXPECT_EQ(pick.Press(Qt::LeftButton, Qt::NoModifier, {10, 10}, false), Action::kBeginPaint);
  EXPECT_TRUE(pick.painting());
  EXPECT_EQ(pick.Move({20, 10}), Action::kMovePaint);
  EXPECT_EQ(pick.Release(Qt::LeftButton, {20, 10}), Action::kEndPaint);
  EXPECT_FALSE(pick.painting());
  // a click paints a dab, never selects; double clicks select nothing
  EXPECT_EQ(pick.Press(Qt::LeftButton, Qt::NoModifier, {10, 10}, false), Action::kBeginPaint);
  EXPECT_EQ(pick.Release(Qt::LeftButton, {10, 10}), Action::kEndPaint);
  EXPECT_EQ(pick.DoubleClick(Qt::LeftButton, false), Action::kNone);
  // alt and shift leave the press to the camera (orbit, pan); ctrl still grabs; the overlay
  // keeps its mouse
  EXPECT_EQ(pick.Press(Qt::LeftButton, Qt::AltModifier, {10, 10}, false), Action::kNone);
  EXPECT_EQ(pick.Release(Qt::LeftButton, {40, 10}), Action::kNone);
  EXPECT_EQ(pick.Press(Qt::LeftButton, Qt::ShiftModifier, {10, 10}, false), Action::kNone);
  EXPECT_EQ(pick.Release(Qt::LeftButton, {40, 10}), Action::kNone);
  EXPECT_EQ(pick.Press(Qt::LeftButton, Qt::ControlModifier, {10, 10}, false), Action::kBeginDrag);
  EXPECT_EQ(pick.Release(Qt::LeftButton, {10, 10}), Action::kEndDrag);
  EXPECT_EQ(pick.Press(Qt::LeftButton, Qt::NoModifier, {10, 10}, true), Action::kNone);
  // losing focus ends a stroke
  pick.Press(Qt::LeftButton, Qt::NoModifier, {10, 10}, false);
  EXPECT_EQ(pick.Cancel(), Action::kEndPaint);
  EXPECT_FALSE(pick.painting());
}


TEST(PickControllerTest, CtrlDragPullsUntilReleaseOrFocusLoss) {
  PickController pick;
  EXPECT_EQ(pick.Press(Qt::LeftButton, Qt::ControlModifier, {50, 60}, false), Action::kBeginDrag);
  EXPECT_TRUE(pick.dragging());
  EXPECT_EQ(pick.Move({70, 60}), Action::kMoveDrag);
  // the modifier may be let go while dragging; the release ends it
  EXPECT_EQ(pick.Move({90, 65}), Action::kMoveDrag);
  EXPECT_EQ(pick.Release(Qt::LeftButton, {90, 65}), Action::kEndDrag);
  EXPECT_FALSE(pick.dragging());
  EXPECT_EQ(pick.Move({95, 65}), Action::kNone);
  // focus lost mid-drag ends the spring
  pick.Press(Qt::LeftButton, Qt::ControlModifier, {50, 60}, false);
  EXPECT_EQ(pick.Cancel(), Action::kEndDrag);
  EXPECT_EQ(pick.Cancel(), Action::kNone);
  // not over the overlay
  EXPECT_EQ(pick.Press(Qt::LeftButton, Qt::ControlModifier, {50, 60}, true), Action::kNone);
}


TEST(PixelRayTest, TheRayThroughAProjectedPixelMeetsThePoint) {
  OrbitCamera camera;
  camera.target = Eigen::Vector3f(0.3f, -0.2f, 0.5f);
  camera.distance = 5;
  camera.yaw_deg = 20;
  camera.pitch_deg = 30;
  const QSizeF size(900, 600);
  for (const Vec3& p : {Vec3(0, 0, 0), Vec3(1, 1, 0.5), Vec3(-1.5, 0.7, 1.2), Vec3(0.3, -2, 0)}) {
    const auto pixel = camera.ProjectToPixel(p, 900, 600);
    ASSERT_TRUE(pixel.has_value());
    Vec3 origin, direction;
    PixelRay(camera, QPointF(pixel->x(), pixel->y()), size, &origin, &direction);
    EXPECT_NEAR(direction.norm(), 1.0, 1e-12);
    // distance of p from the ray; float projection matrices: ~1e-6 relative to the depth
    const Vec3 to_p = p - origin;
    const double off = (to_p - to_p.dot(direction) * direction).norm();
    EXPECT_LT(off, 1e-4) << p.transpose();
    EXPECT_GT(to_p.dot(direction), 0);
  }
  // the centre pixel looks along the view direction
  Vec3 origin, direction;
  PixelRay(camera, QPointF(450, 300), size, &origin, &direction);
  EXPECT_LT((direction - ViewDirection(camera)).norm(), 1e-5);
  EXPECT_LT((origin - camera.Eye().cast<double>()).norm(), 1e-5);
}

// a click picks the contact drawn nearest the cursor within kContactPickRadius pixels, and none
// farther (the click then selects a body instead)
TEST(PickContactTest, TheNearestDrawnContactWithinTheRadius) {
  OrbitCamera camera;
  const QSizeF size(800, 500);
  VisualFrame frame;
  for (float x : {0.0f, 0.3f}) {
    VisualContact contact;
    contact.point = {x, 0, 0.5f};
    frame.contacts.push_back(contact);
  }
  const auto pixel_of = [&](int i) {
    const auto& p = frame.contacts[i].point;
    const auto pixel = camera.ProjectToPixel(Vec3(p[0], p[1], p[2]), 800, 500);
    return QPointF(pixel->x(), pixel->y());
  };
  EXPECT_EQ(PickContact(frame, camera, pixel_of(0) + QPointF(3, -2), size), 0);
  EXPECT_EQ(PickContact(frame, camera, pixel_of(1) + QPointF(-4, 4), size), 1);
  EXPECT_EQ(PickContact(frame, camera, pixel_of(1) + QPointF(kContactPickRadius + 1, 0), size), -1);
  EXPECT_EQ(PickContact(VisualFrame(), camera, pixel_of(0), size), -1);
}

}  // namespace
}  // namespace sim::ui
