// The scene `teleop` section (engine/io/scene_teleop.cpp, docs/scene-format.md): end effector,
// gripper, synergy and base targets on our Fetch become Model::teleop_targets, and every mistake
// is an error at its line; a robot's effort_limits bound its drives by the URDF efforts.
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/scene_file.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

// our Fetch with hold drives, then the teleop section on line 5
std::string SceneText(const std::string& teleop) {
  return R"({"objects": [{"name": "fetch", "type": "urdf",
    "file": "../resources/robots/fetch/fetch.urdf", "hold_pose": {"stiffness": 1000, "damping": 10}}],
  "joints": [],
  "teleop": [
)" + teleop +
         "]}";
}

const std::string kSource = std::string(SIM_SOURCE_DIR) + "/scenes/teleop.json";

std::string Errors(const std::string& teleop) {
  Expected<Scene> scene = ParseScene(SceneText(teleop), kSource);
  EXPECT_FALSE(scene.ok());
  return scene.diagnostics().Format();
}


TEST(SceneTeleopTest, EffortLimitsBoundTheDrivesByTheUrdfEfforts) {
  // our Fetch's URDF: torso <limit effort="450">, shoulder lift 131.76 N·m; on by default, and a
  // scene drive's own max_force wins over the URDF's
  const auto load = [](const std::string& extra) {
    return ParseScene(R"({"objects": [{"name": "fetch", "type": "urdf",
      "file": "../resources/robots/fetch/fetch.urdf", "hold_pose": {"stiffness": 1000, "damping": 10})" +
                          extra + "}]}",
                      kSource);
  };
  Expected<Scene> unbounded = load(R"(, "effort_limits": false)");
  ASSERT_TRUE(unbounded.ok()) << unbounded.diagnostics().Format();
  const int torso = unbounded->model->FindJoint("fetch/torso_lift_joint");
  ASSERT_GE(torso, 0);
  EXPECT_TRUE(std::isinf(unbounded->model->joint_drive[torso].max_force));
  Expected<Scene> limited =
      load(R"(, "drives": {"shoulder_lift_joint": {"stiffness": 100, "max_force": 20}})");
  ASSERT_TRUE(limited.ok()) << limited.diagnostics().Format();
  const Model& model = *limited->model;
  EXPECT_EQ(model.joint_drive[torso].max_force, 450);
  EXPECT_EQ(model.joint_drive[model.FindJoint("fetch/shoulder_lift_joint")].max_force, 20);
  EXPECT_EQ(model.joint_drive[model.FindJoint("fetch/elbow_flex_joint")].max_force, 66.18);
}


TEST(SceneTeleopTest, TargetsOfEveryTypeAreRead) {
  Expected<Scene> scene = ParseScene(SceneText(R"(
    {"name": "arm", "type": "end_effector", "link": "fetch/gripper_link",
     "base": "fetch/torso_lift_link", "position_weight": 2, "orientation_weight": 0.5,
     "rest_posture": {"fetch/elbow_flex_joint": 1.5}, "max_joint_speed": 1},
    {"name": "gripper", "type": "gripper",
     "joints": {"fetch/l_gripper_finger_joint": [0.05, 0], "fetch/r_gripper_finger_joint": [0.05, 0]}},
    {"name": "pinch", "type": "synergy", "joints": {"fetch/head_tilt_joint": [0, 0.5]}},
    {"name": "lift", "type": "base", "x_joint": "fetch/torso_lift_joint",
     "yaw_joint": "fetch/head_pan_joint", "max_linear_speed": 0.2})"),
                                     kSource);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  ASSERT_EQ(model.teleop_targets.size(), 4u);
  const TeleopTarget& arm = model.teleop_targets[0];
  EXPECT_EQ(arm.type, TeleopTargetType::kEndEffector);
  EXPECT_EQ(model.body_name[arm.base_body], "fetch/torso_lift_link");
  // the gripper link is welded into the wrist roll body: its frame is an offset there
  EXPECT_EQ(model.body_name[arm.tip_body], "fetch/wrist_roll_link");
  EXPECT_EQ(arm.position_weight, 2);
  EXPECT_EQ(arm.orientation_weight, 0.5);
  EXPECT_THAT(arm.rest_joints, ::testing::ElementsAre(model.FindJoint("fetch/elbow_flex_joint")));
  EXPECT_THAT(arm.rest_positions, ::testing::ElementsAre(1.5));
  const TeleopTarget& gripper = model.teleop_targets[1];
  EXPECT_EQ(gripper.type, TeleopTargetType::kGripper);
  EXPECT_THAT(gripper.open, ::testing::ElementsAre(0.05, 0.05));
  EXPECT_THAT(gripper.closed, ::testing::ElementsAre(0.0, 0.0));
  EXPECT_EQ(model.teleop_targets[2].type, TeleopTargetType::kSynergy);
  const TeleopTarget& base = model.teleop_targets[3];
  EXPECT_EQ(base.base_x_joint, model.FindJoint("fetch/torso_lift_joint"));
  EXPECT_EQ(base.base_y_joint, -1);
  EXPECT_EQ(base.max_linear_speed, 0.2);
}


TEST(SceneTeleopTest, MistakesAreLocatedErrors) {
  // one mistake per line, from line 6 on
  const std::string errors = Errors(R"(
{"name": "a", "type": "end_effector", "link": "fetch/no_such_link"},
{"name": "b", "type": "end_effector", "link": "fetch/gripper_link", "base": "fetch/nowhere"},
{"name": "c", "type": "end_effector", "link": "fetch/gripper_link", "base": "fetch/head_pan_link"},
{"name": "d", "type": "end_effector", "link": "fetch/gripper_link", "position_weight": 0, "orientation_weight": 0},
{"name": "e", "type": "end_effector", "link": "fetch/gripper_link", "position_weight": -1},
{"name": "f", "type": "end_effector", "link": "fetch/gripper_link", "rest_posture": {"fetch/head_pan_joint": 0}},
{"name": "g", "type": "gripper", "joints": {"fetch/finger": [0, 1]}},
{"name": "h", "type": "gripper", "joints": {"fetch/l_gripper_finger_joint": [0.05, 0.5]}},
{"name": "i", "type": "base", "x_joint": "fetch/shoulder_pan_joint"},
{"name": "j", "type": "hand"},
{"name": "a", "type": "gripper", "joints": {"fetch/l_gripper_finger_joint": [0, 0.05]}},
{"name": "k", "type": "end_effector"},
{"name": "l", "type": "look_at", "link": "fetch/head_tilt_link", "axis": [0, 0, 0]})");
  const std::string at = kSource + ":";
  EXPECT_THAT(errors, HasSubstr(at + "6: error: teleop target 'a' 'link' names unknown link "
                                     "'fetch/no_such_link'"));
  EXPECT_THAT(errors, HasSubstr(at + "7: error: teleop target 'b' 'base' names unknown link "
                                     "'fetch/nowhere'"));
  EXPECT_THAT(errors, HasSubstr(at + "8: error: teleop target 'c': body 'fetch/wrist_roll_link' "
                                     "is not a descendant of 'fetch/head_pan_link'"));
  EXPECT_THAT(errors, HasSubstr(at + "9: error: teleop target 'd' has position_weight and "
                                     "orientation_weight 0"));
  EXPECT_THAT(errors, HasSubstr(at + "10: error:"));
  EXPECT_THAT(errors, HasSubstr("position_weight"));
  EXPECT_THAT(errors, HasSubstr(at + "11: error: teleop target 'f' 'rest_posture' names "
                                     "'fetch/head_pan_joint', which is not an actuated joint"));
  EXPECT_THAT(errors, HasSubstr(at + "12: error: teleop target 'g' names unknown joint "
                                     "'fetch/finger'"));
  EXPECT_THAT(errors, HasSubstr(at + "13: error: teleop target 'h' joint "
                                     "'fetch/l_gripper_finger_joint' open/closed [0.05, 0.5] "
                                     "leave its limits"));
  EXPECT_THAT(errors, HasSubstr(at + "14: error: teleop target 'i' 'x_joint' joint "
                                     "'fetch/shoulder_pan_joint' is revolute, expected prismatic"));
  EXPECT_THAT(errors, HasSubstr(at + "15: error: teleop target 'j' 'type' is 'hand', expected "
                                     "one of: end_effector, gripper, synergy, base, look_at"));
  EXPECT_THAT(errors, HasSubstr(at + "16: error: duplicate teleop target name 'a'"));
  EXPECT_THAT(errors, HasSubstr(at + "17: error: teleop target 'k' needs 'link'"));
  EXPECT_THAT(errors, HasSubstr(at + "18: error: teleop target 'l' 'axis' must not be zero"));
}

}  // namespace
}  // namespace sim::io
