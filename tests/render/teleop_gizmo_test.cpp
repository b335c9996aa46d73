// The teleop gizmo's picking and dragging (render/teleop_gizmo.h), against the geometry it draws:
// a ray through a point of an arrow picks that arrow, one through a ring picks the ring, one far
// from both picks nothing; dragging an arrow moves the target by the motion of the cursor's
// closest point on the axis; dragging a ring turns it by the swept angle; and the active target's
// markers are the three arrows and rings.
#include "render/teleop_gizmo.h"

#include <numbers>

#include <gtest/gtest.h>

namespace sim::render {
namespace {

constexpr Real kPi = std::numbers::pi;
const Vec3 kCentre(0.5, 0.2, 1.0);
constexpr Real kViewHeight = 1.0;  // so the sizes are the fractions themselves

// a ray from the camera side (−y, looking along +y) through `point`
void RayThrough(const Vec3& point, Vec3* origin, Vec3* direction) {
  *origin = point - Vec3(0.1, 2.0, -0.05);
  *direction = (point - *origin).normalized();
}

TEST(TeleopGizmoTest, RaysPickTheHandleTheyPassThrough) {
  Vec3 origin, direction;
  // past the rings (0.10) on the x and z arrows (0.14 long)
  RayThrough(kCentre + 0.125 * Vec3::UnitX(), &origin, &direction);
  EXPECT_EQ(PickGizmoHandle(kCentre, kViewHeight, origin, direction), GizmoHandle::kTranslateX);
  RayThrough(kCentre + 0.125 * Vec3::UnitZ(), &origin, &direction);
  EXPECT_EQ(PickGizmoHandle(kCentre, kViewHeight, origin, direction), GizmoHandle::kTranslateZ);
  // the ring about y lies in the x-z plane the camera faces: a point on it at 45°
  RayThrough(kCentre + 0.10 * Vec3(std::sqrt(0.5), 0, std::sqrt(0.5)), &origin, &direction);
  EXPECT_EQ(PickGizmoHandle(kCentre, kViewHeight, origin, direction), GizmoHandle::kRotateY);
  // far from every handle
  RayThrough(kCentre + Vec3(0.3, 0, 0.3), &origin, &direction);
  EXPECT_EQ(PickGizmoHandle(kCentre, kViewHeight, origin, direction), GizmoHandle::kNone);
}


TEST(TeleopGizmoTest, DraggingAnArrowMovesAlongItsAxisOnly) {
  const Pose start{kCentre, Quat(Eigen::AngleAxis<Real>(0.3, Vec3::UnitZ()))};
  Vec3 o0, d0, o1, d1;
  RayThrough(kCentre + 0.12 * Vec3::UnitX(), &o0, &d0);
  // the cursor moves 7 cm along x and 3 cm up: only the x part moves the target
  RayThrough(kCentre + 0.19 * Vec3::UnitX() + 0.03 * Vec3::UnitZ(), &o1, &d1);
  const Pose moved = DragGizmo(GizmoHandle::kTranslateX, start, o0, d0, o1, d1);
  // the closest point of the second ray on the axis is within a few µm of x + 0.07 (the ray
  // is nearly perpendicular to the axis)
  EXPECT_NEAR(moved.p.x() - kCentre.x(), 0.07, 2e-3);
  EXPECT_NEAR(moved.p.y(), kCentre.y(), 1e-12);
  EXPECT_NEAR(moved.p.z(), kCentre.z(), 1e-12);
  EXPECT_NEAR(moved.q.angularDistance(start.q), 0, 1e-12);
}


TEST(TeleopGizmoTest, DraggingARingTurnsAboutItsAxisByTheSweptAngle) {
  const Pose start{kCentre, Quat::Identity()};
  // on the ring about y from 0° to 30° (in the x-z plane, angle from +z towards +x about +y)
  const Vec3 a = kCentre + 0.1 * Vec3::UnitZ();
  const Vec3 b = kCentre + 0.1 * Vec3(std::sin(kPi / 6), 0, std::cos(kPi / 6));
  Vec3 o0, d0, o1, d1;
  RayThrough(a, &o0, &d0);
  RayThrough(b, &o1, &d1);
  const Pose turned = DragGizmo(GizmoHandle::kRotateY, start, o0, d0, o1, d1);
  const Eigen::AngleAxis<Real> rotation(turned.q);
  EXPECT_NEAR(rotation.angle(), kPi / 6, 1e-9);
  EXPECT_NEAR(std::abs(rotation.axis().dot(Vec3::UnitY())), 1, 1e-9);
  EXPECT_EQ((turned.p - kCentre).norm(), 0);
}


TEST(TeleopGizmoTest, TheActiveTargetGetsArrowsAndRings) {
  VisualFrame frame;
  VisualTeleopTarget active;
  active.X_WT = {1, 0, 0, 0.5f, 0, 1, 0, 0.2f, 0, 0, 1, 1.0f};
  active.actual = {0.45f, 0.2f, 1.0f};
  active.gizmo = true;
  VisualTeleopTarget other = active;
  other.gizmo = false;
  frame.teleop_targets = {active, other};
  std::vector<Marker> markers;
  AddTeleopMarkers(frame, 1.0f, &markers);
  int arrows = 0, bars = 0, spheres = 0;
  for (const Marker& m : markers) {
    arrows += m.mesh == MarkerMesh::kArrow;
    bars += m.mesh == MarkerMesh::kBox;
    spheres += m.mesh == MarkerMesh::kSphere;
  }
  EXPECT_EQ(arrows, 3);    // x, y, z of the active target only
  EXPECT_EQ(spheres, 2);   // both targets
  EXPECT_GE(bars, 3 * 8);  // three rings (and the target-to-end-effector lines)
}

}  // namespace
}  // namespace sim::render
