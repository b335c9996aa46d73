// The render snapshot carries world poses of shapes (body pose composed with the shape's pose).
#include "engine/visual/visual_frame.h"

#include <gtest/gtest.h>

#include "engine/state/state.h"

namespace sim {
namespace {

TEST(VisualFrameTest, ComposesBodyAndShapePoses) {
  Model model;
  model.body_name = {"b"};
  model.body_mass = {1};
  model.body_inertia = {Mat3::Identity()};
  model.body_static = {0};
  model.shape_name = {"s"};
  model.shape_geometry = {ShapeGeometry{.type = ShapeType::kBox, .half_extents = Vec3(1, 2, 3)}};
  model.shape_body = {0};
  model.shape_X_BS = {Pose{Vec3(1, 0, 0), Quat::Identity()}};
  model.shape_material = {0};
  model.shape_color = {{0.1f, 0.2f, 0.3f}};
  State state;
  // body at (0, 0, 2), rotated 90° about z: the shape offset +x becomes +y
  state.body_X_WB = {Pose{Vec3(0, 0, 2), Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()))}};
  const VisualFrame frame = MakeVisualFrame(model, state);
  ASSERT_EQ(frame.shapes.size(), 1u);
  const VisualShape& s = frame.shapes[0];
  EXPECT_NEAR(s.X_WS[3], 0.0f, 1e-6f);
  EXPECT_NEAR(s.X_WS[7], 1.0f, 1e-6f);
  EXPECT_NEAR(s.X_WS[11], 2.0f, 1e-6f);
  EXPECT_FLOAT_EQ(s.size[2], 3.0f);
  EXPECT_FLOAT_EQ(s.color[1], 0.2f);
}

}  // namespace
}  // namespace sim
