// Our own robot models in resources/robots (written by resources/tools/make_robots.py): each loads
// without a diagnostic, has the links, joints by type and masses resources/robots/README.md
// states, resolves every visual mesh, and becomes the expected bodies and joints in a model. The
// published kinematic facts the README cites are checked at the home pose.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "engine/io/urdf_loader.h"

namespace sim::io {
namespace {

const std::string kRobots = std::string(SIM_SOURCE_DIR) + "/resources/robots";

UrdfRobot Load(const std::string& relative) {
  Expected<UrdfRobot> robot = LoadUrdf(kRobots + "/" + relative, UrdfOptions{});
  EXPECT_TRUE(robot.ok()) << robot.diagnostics().Format();
  EXPECT_TRUE(robot.diagnostics().empty()) << robot.diagnostics().Format();
  return robot.ok() ? std::move(robot.value()) : UrdfRobot{};
}

// adds the robot to an empty model (fixed base at the origin, home pose) and returns it
Model Build(const UrdfRobot& robot, State* state) {
  Model model;
  model.materials.push_back(Material{.name = "default"});
  Diagnostics diagnostics;
  RobotPlacement placement;
  placement.name_prefix = "r/";
  AddRobotToModel(robot, placement, &model, state, &diagnostics);
  EXPECT_FALSE(diagnostics.has_errors()) << diagnostics.Format();
  return model;
}

// mass sums are exact up to the 5 significant digits the URDF writes
constexpr double kMassTolerance = 1e-6;


TEST(RobotModelsTest, FetchHasTheArmHeadTorsoAndGripper) {
  const UrdfRobot fetch = Load("fetch/fetch.urdf");
  EXPECT_EQ(fetch.name, "fetch");
  EXPECT_EQ(fetch.links.size(), 16u);
  EXPECT_EQ(fetch.JointSummary(), "15 joints: 6 revolute, 5 continuous, 3 prismatic, 1 fixed");
  // the published total mass of the robot (README), split over the links
  EXPECT_NEAR(fetch.TotalMass(), 113.41, kMassTolerance);
  EXPECT_GT(fetch.mesh_count, 16);
  EXPECT_EQ(fetch.mesh_resolved, fetch.mesh_count);
  for (const char* joint :
       {"torso_lift_joint", "head_pan_joint", "head_tilt_joint", "shoulder_pan_joint",
        "shoulder_lift_joint", "upperarm_roll_joint", "elbow_flex_joint", "forearm_roll_joint",
        "wrist_flex_joint", "wrist_roll_joint", "l_gripper_finger_joint",
        "r_gripper_finger_joint"}) {
    bool found = false;
    for (const UrdfJoint& j : fetch.joints) found |= j.name == joint;
    EXPECT_TRUE(found) << joint;
  }

  // the gripper is welded to the wrist roll link: 15 bodies, 14 joints plus the base weld
  State state;
  const Model model = Build(fetch, &state);
  EXPECT_EQ(model.body_count(), 15);
  EXPECT_EQ(model.joint_count(), 15);
  // every body collides through at least one primitive
  for (int b = 0; b < model.body_count(); ++b) {
    bool has_shape = false;
    for (int s = 0; s < model.shape_count(); ++s) has_shape |= model.shape_body[s] == b;
    EXPECT_TRUE(has_shape) << model.body_name[b];
  }
  // shoulder-lift axis to tool centre point along x at the home pose: the published offsets
  // 219 + 133 + 197 + 124.5 + 138.5 + 166.45 mm (README)
  const int lift = model.FindJoint("r/shoulder_lift_joint");
  const int roll = model.FindJoint("r/wrist_roll_joint");
  ASSERT_GE(lift, 0);
  ASSERT_GE(roll, 0);
  const Vec3 p_lift = state.body_X_WB[model.joint_child[lift]] * model.joint_X_CJ[lift].p;
  const Vec3 p_roll = state.body_X_WB[model.joint_child[roll]] * model.joint_X_CJ[roll].p;
  EXPECT_NEAR(p_roll.x() - p_lift.x(), 0.219 + 0.133 + 0.197 + 0.1245 + 0.1385, 1e-9);
  EXPECT_NEAR(p_roll.z(), p_lift.z(), 1e-9);
  // 0.377 + 0.3486 + 0.06: shoulder-lift axis height with the torso down
  EXPECT_NEAR(p_lift.z(), 0.7856, 1e-9);
}


TEST(RobotModelsTest, AllegroHandsHaveSixteenActuatedJoints) {
  for (const char* side : {"right", "left"}) {
    const UrdfRobot hand = Load(std::string("allegro/allegro_") + side + ".urdf");
    EXPECT_EQ(hand.links.size(), 21u) << side;
    EXPECT_EQ(hand.JointSummary(), "20 joints: 16 revolute, 4 fixed") << side;
    EXPECT_NEAR(hand.TotalMass(), 0.993, kMassTolerance) << side;
    EXPECT_EQ(hand.mesh_resolved, hand.mesh_count) << side;
    // four rubber fingertips
    int tips = 0;
    for (const UrdfLink& link : hand.links) {
      for (const UrdfGeometry& g : link.collisions) {
        if (g.shape.type == ShapeType::kSphere && std::abs(g.shape.radius - 0.012) < 1e-9) ++tips;
      }
    }
    EXPECT_EQ(tips, 4) << side;
    State state;
    const Model model = Build(hand, &state);
    EXPECT_EQ(model.body_count(), 17) << side;  // palm + 16 links (tips welded)
    EXPECT_EQ(model.joint_count(), 17) << side;
  }
}


TEST(RobotModelsTest, LeftHandIsTheMirrorImageOfTheRight) {
  // the same joint angles give fingertip positions mirrored through y = 0
  const UrdfRobot right = Load("allegro/allegro_right.urdf");
  const UrdfRobot left = Load("allegro/allegro_left.urdf");
  auto place = [](const UrdfRobot& hand, State* state) {
    Model model;
    model.materials.push_back(Material{.name = "default"});
    RobotPlacement placement;
    for (const UrdfJoint& j : hand.joints) {
      if (j.type == UrdfJointType::kRevolute) placement.initial_positions[j.name] = 0.4;
    }
    Diagnostics diagnostics;
    AddRobotToModel(hand, placement, &model, state, &diagnostics);
    return model;
  };
  State state_r, state_l;
  const Model model_r = place(right, &state_r);
  const Model model_l = place(left, &state_l);
  ASSERT_EQ(model_r.body_count(), model_l.body_count());
  for (int b = 0; b < model_r.body_count(); ++b) {
    const Vec3 p = state_r.body_X_WB[b].p;
    EXPECT_TRUE(state_l.body_X_WB[b].p.isApprox(Vec3(p.x(), -p.y(), p.z()), 1e-9))
        << model_r.body_name[b];
  }
}


TEST(RobotModelsTest, HumanoidHasThirteenBodiesAndTwelveJoints) {
  const UrdfRobot humanoid = Load("humanoid/humanoid.urdf");
  EXPECT_EQ(humanoid.links.size(), 13u);
  EXPECT_EQ(humanoid.JointSummary(), "12 joints: 12 revolute");
  EXPECT_NEAR(humanoid.TotalMass(), 60.0, kMassTolerance);
  State state;
  const Model model = Build(humanoid, &state);
  EXPECT_EQ(model.body_count(), 13);
  // standing straight, the soles are 0.99 m below the pelvis origin (README)
  double lowest = 0;
  for (int s = 0; s < model.shape_count(); ++s) {
    if (model.shape_geometry[s].type != ShapeType::kBox) continue;
    const Pose X_WS = state.body_X_WB[model.shape_body[s]] * model.shape_X_BS[s];
    lowest = std::min(lowest, X_WS.p.z() - model.shape_geometry[s].half_extents.z());
  }
  EXPECT_NEAR(lowest, -0.99, 1e-9);
}

}  // namespace
}  // namespace sim::io
