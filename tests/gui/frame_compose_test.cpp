// Compared lanes in one view (ui/frame_compose): a lane beside lane 0 brings its moving parts and
// everything that holds them, moved by its offset — free particles (shapes of no body), joint
// anchors, attachments with their holding body's centre of mass, fixed nodes — and its contacts
// marked with its index; the static world is drawn once, by lane 0.
#include "ui/frame_compose.h"

#include <gtest/gtest.h>

namespace sim::ui {
namespace {

TEST(FrameComposeTest, ALaneBringsItsParticlesAnchorsAndAttachmentsMoved) {
  VisualFrame lane;
  VisualShape ground;  // static world: lane 0 draws it
  lane.shapes.push_back(ground);
  VisualShape particle;
  particle.particle = true;
  particle.X_WS[3] = 1;
  lane.shapes.push_back(particle);
  VisualJoint pin;
  pin.type = JointType::kRevolute;
  pin.X_WJ[11] = 2;
  lane.joints.push_back(pin);
  VisualAttachment hold;
  hold.body = 0;
  hold.anchor = {0, 0, 2};
  hold.body_com = {0, 0, 1};
  lane.attachments.push_back(hold);
  lane.fixed_particles.push_back({5, 0, 0});
  lane.contacts.push_back(VisualContact());

  VisualFrame view;
  AppendLaneFrame(lane, Vec3(0, 3, 0), 2, &view);
  ASSERT_EQ(view.shapes.size(), 1u) << "the world's shape is lane 0's";
  EXPECT_TRUE(view.shapes[0].particle);
  EXPECT_FLOAT_EQ(view.shapes[0].X_WS[7], 3);
  ASSERT_EQ(view.joints.size(), 1u);
  EXPECT_FLOAT_EQ(view.joints[0].X_WJ[7], 3);
  EXPECT_FLOAT_EQ(view.joints[0].X_WJ[11], 2);
  ASSERT_EQ(view.attachments.size(), 1u);
  EXPECT_FLOAT_EQ(view.attachments[0].anchor[1], 3);
  EXPECT_FLOAT_EQ(view.attachments[0].body_com[1], 3);
  ASSERT_EQ(view.fixed_particles.size(), 1u);
  EXPECT_FLOAT_EQ(view.fixed_particles[0][1], 3);
  ASSERT_EQ(view.contacts.size(), 1u);
  EXPECT_EQ(view.contacts[0].lane, 2);
}

TEST(FrameComposeTest, AGhostLaneIsSeeThroughInItsColourWithoutCollisionOrTargetShapes) {
  // lanes overlaid: a lane's bodies keep their place (offset 0) and are drawn see-through in
  // the lane's colour (LaneColor, linear RGB); collision-only shapes and drive-target ghosts stay
  // lane 0's, so the overlay shows one ghost per lane
  VisualFrame lane;
  VisualShape body;
  body.body = 0;
  body.X_WS[3] = 1;
  lane.shapes.push_back(body);
  VisualShape collision = body;
  collision.collision_only = true;
  lane.shapes.push_back(collision);
  VisualShape target = body;
  target.drive_target = true;
  lane.shapes.push_back(target);
  VisualFrame view;
  AppendLaneFrame(lane, Vec3::Zero(), 1, &view, true);
  ASSERT_EQ(view.shapes.size(), 1u);
  const VisualShape& ghost = view.shapes[0];
  EXPECT_TRUE(ghost.lane_ghost);
  EXPECT_FLOAT_EQ(ghost.X_WS[3], 1);
  // lane 1 is Tableau orange 0xff7f0e: (255, 127, 14) decoded from sRGB
  EXPECT_NEAR(ghost.color[0], 1.0f, 1e-6f);
  EXPECT_NEAR(ghost.color[1], 0.212231f, 1e-6f);
  EXPECT_NEAR(ghost.color[2], 0.004391f, 1e-6f);
  EXPECT_FLOAT_EQ(ghost.color[3], kLaneGhostOpacity);
}

}  // namespace
}  // namespace sim::ui
