// The teleop action layer's device side (ui/devices): intents from the keyboard and the mapped
// inputs become the right TeleopActions for the active targets of a model with two arms, two
// hands and a base; a value held constant is sent once; switching targets stops the old one.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "ui/devices/device_inputs.h"
#include "ui/devices/keyboard_layout.h"
#include "ui/devices/teleop_rig.h"

namespace sim::devices {
namespace {

// two arms, a gripper, a synergy and a base, interleaved as a scene may list them
std::vector<TeleopTarget> Targets() {
  std::vector<TeleopTarget> targets(5);
  targets[0].name = "left_arm";
  targets[0].type = TeleopTargetType::kEndEffector;
  targets[1].name = "gripper";
  targets[1].type = TeleopTargetType::kGripper;
  targets[2].name = "right_arm";
  targets[2].type = TeleopTargetType::kEndEffector;
  targets[3].name = "base";
  targets[3].type = TeleopTargetType::kBase;
  targets[4].name = "hand";
  targets[4].type = TeleopTargetType::kSynergy;
  return targets;
}

// the keyboard section of the default layout, in code (the test does not depend on the file)
DeviceMapping Keyboard() {
  DeviceMapping mapping;
  mapping.speeds = {.linear_speed = 0.1,
                    .angular_speed = 0.5,
                    .base_linear_speed = 0.3,
                    .base_angular_speed = 0.4,
                    .hand_speed = 0.8};
  mapping.bindings = {
      {.input = "w", .intent = Intent::kMoveX},
      {.input = "s", .intent = Intent::kMoveX, .scale = -1},
      {.input = "a", .intent = Intent::kMoveY},
      {.input = "j", .intent = Intent::kRotateZ},
      {.input = "t", .intent = Intent::kBaseForward},
      {.input = "r", .intent = Intent::kBaseTurn},
      {.input = "x", .intent = Intent::kSynergy},
      {.input = "c", .intent = Intent::kGripperToggle},
      {.input = "h", .intent = Intent::kNextHand},
      {.input = "bracketright", .intent = Intent::kNextTarget},
      {.input = "bracketleft", .intent = Intent::kPreviousTarget},
      {.input = "p", .intent = Intent::kReset},
  };
  return mapping;
}

constexpr double kStamp = 12.5;


TEST(TeleopRigTest, FirstTargetOfEachKindIsActive) {
  const TeleopRig rig(Targets());
  EXPECT_EQ(rig.active_end_effector(), 0);
  EXPECT_EQ(rig.active_hand(), 1);
  EXPECT_EQ(rig.active_base(), 3);
  EXPECT_EQ(rig.end_effectors(), (std::vector<int>{0, 2}));
  EXPECT_EQ(rig.hands(), (std::vector<int>{1, 4}));
  const TeleopRig empty({});
  EXPECT_EQ(empty.active_end_effector(), -1);
}


TEST(TeleopRigTest, KeysBecomeRatesOfTheActiveTargetsSentOncePerChange) {
  TeleopRig rig(Targets());
  KeyboardTeleop keyboard(Keyboard());
  std::vector<TeleopAction> actions = keyboard.KeyPressed("w", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, TeleopActionKind::kPoseVelocity);
  EXPECT_EQ(actions[0].target, 0);
  EXPECT_EQ(actions[0].linear, Vec3(0.1, 0, 0));
  EXPECT_EQ(actions[0].angular, Vec3::Zero());
  EXPECT_EQ(actions[0].stamp_seconds, kStamp);
  // the auto-repeat of a held key sends nothing: the session holds the rate
  EXPECT_TRUE(keyboard.KeyPressed("w", &rig, kStamp).empty());
  // a second key adds to the twist; its opposite cancels it
  actions = keyboard.KeyPressed("a", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].linear, Vec3(0.1, 0.1, 0));
  actions = keyboard.KeyPressed("s", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].linear, Vec3(0, 0.1, 0));
  actions = keyboard.KeyPressed("j", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].angular, Vec3(0, 0, 0.5));
  // base and hand rates go to their targets
  actions = keyboard.KeyPressed("t", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, TeleopActionKind::kBaseVelocity);
  EXPECT_EQ(actions[0].target, 3);
  EXPECT_EQ(actions[0].linear, Vec3(0.3, 0, 0));
  actions = keyboard.KeyPressed("r", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].linear, Vec3(0.3, 0, 0.4));
  actions = keyboard.KeyPressed("x", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, TeleopActionKind::kAxisRate);
  EXPECT_EQ(actions[0].target, 1);
  EXPECT_EQ(actions[0].value, 0.8);
  // focus lost: every held rate stops, each once
  actions = keyboard.ReleaseAll(&rig, kStamp);
  ASSERT_EQ(actions.size(), 3u);
  EXPECT_EQ(actions[0].kind, TeleopActionKind::kPoseVelocity);
  EXPECT_EQ(actions[0].linear, Vec3::Zero());
  EXPECT_EQ(actions[0].angular, Vec3::Zero());
  EXPECT_EQ(actions[1].linear, Vec3::Zero());
  EXPECT_EQ(actions[2].value, 0);
  EXPECT_TRUE(keyboard.held().empty());
  EXPECT_TRUE(keyboard.KeyReleased("w", &rig, kStamp).empty());
  // an unbound key does nothing
  EXPECT_FALSE(keyboard.Handles("m"));
  EXPECT_TRUE(keyboard.KeyPressed("m", &rig, kStamp).empty());
}


TEST(TeleopRigTest, SwitchingTargetsStopsTheOldOneAndDrivesTheNew) {
  TeleopRig rig(Targets());
  KeyboardTeleop keyboard(Keyboard());
  keyboard.KeyPressed("w", &rig, kStamp);
  // next target while w is held: the left arm stops, the right arm takes the rate
  std::vector<TeleopAction> actions = keyboard.KeyPressed("bracketright", &rig, kStamp);
  ASSERT_EQ(actions.size(), 2u);
  EXPECT_EQ(actions[0].kind, TeleopActionKind::kPoseVelocity);
  EXPECT_EQ(actions[0].target, 0);
  EXPECT_EQ(actions[0].linear, Vec3::Zero());
  EXPECT_EQ(actions[1].target, 2);
  EXPECT_EQ(actions[1].linear, Vec3(0.1, 0, 0));
  EXPECT_EQ(rig.active_end_effector(), 2);
  // holding the button does not cycle again; the next press wraps around to the left arm
  EXPECT_TRUE(keyboard.KeyPressed("bracketright", &rig, kStamp).empty());
  keyboard.KeyReleased("bracketright", &rig, kStamp);
  keyboard.KeyReleased("w", &rig, kStamp);
  actions = keyboard.KeyPressed("bracketright", &rig, kStamp);
  EXPECT_TRUE(actions.empty());  // nothing held: nothing to stop or send
  EXPECT_EQ(rig.active_end_effector(), 0);
  keyboard.KeyPressed("bracketleft", &rig, kStamp);
  EXPECT_EQ(rig.active_end_effector(), 2);
  // next hand: the synergy's rate moves from the gripper to the Allegro-like hand
  keyboard.KeyPressed("x", &rig, kStamp);
  actions = keyboard.KeyPressed("h", &rig, kStamp);
  ASSERT_EQ(actions.size(), 2u);
  EXPECT_EQ(actions[0].kind, TeleopActionKind::kAxisRate);
  EXPECT_EQ(actions[0].target, 1);
  EXPECT_EQ(actions[0].value, 0);
  EXPECT_EQ(actions[1].target, 4);
  EXPECT_EQ(actions[1].value, 0.8);
  EXPECT_EQ(rig.active_hand(), 4);
  // a panel's choice does the same; a target of another kind is ignored
  std::vector<TeleopAction> selected;
  rig.Select(1, kStamp, &selected);
  ASSERT_EQ(selected.size(), 2u);
  EXPECT_EQ(selected[0].target, 4);
  EXPECT_EQ(selected[1].target, 1);
  rig.Select(7, kStamp, &selected);
  EXPECT_EQ(rig.active_hand(), 1);
}


TEST(TeleopRigTest, ToggleResetAndAbsoluteGripper) {
  TeleopRig rig(Targets());
  KeyboardTeleop keyboard(Keyboard());
  // the toggle closes a hand never set, then opens it
  std::vector<TeleopAction> actions = keyboard.KeyPressed("c", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, TeleopActionKind::kSetAxis);
  EXPECT_EQ(actions[0].target, 1);
  EXPECT_EQ(actions[0].value, 1);
  keyboard.KeyReleased("c", &rig, kStamp);
  actions = keyboard.KeyPressed("c", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].value, 0);
  // reset: one action for every target; a key still held is sent afresh on the next change
  keyboard.KeyPressed("w", &rig, kStamp);
  actions = keyboard.KeyPressed("p", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, TeleopActionKind::kReset);
  EXPECT_EQ(actions[0].target, -1);
  actions = keyboard.KeyPressed("a", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].linear, Vec3(0.1, 0.1, 0));
  // an absolute gripper axis (a trigger) is set on every change, clamped to [0, 1]
  DeviceMapping pad;
  pad.bindings = {{.input = "righttrigger", .intent = Intent::kGripper, .dead_zone = 0.1}};
  DeviceInputs trigger(DeviceKind::kGamepad, pad);
  actions.clear();
  trigger.Set("righttrigger", 0.05, kStamp, &rig, &actions);  // inside the dead zone: still 0
  EXPECT_TRUE(actions.empty());
  trigger.Set("righttrigger", 0.55, kStamp, &rig, &actions);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, TeleopActionKind::kSetAxis);
  EXPECT_DOUBLE_EQ(actions[0].value, 0.5);  // (0.55 − 0.1) / (1 − 0.1)
}


TEST(TeleopRigTest, TwoDevicesAddUpAndTheFrameRotatesTheTwist) {
  TeleopRig rig(Targets());
  // the teleop frame is the camera's, turned 90° about z: its x is the world's y
  rig.SetFrame(Quat(Eigen::AngleAxis<Real>(std::numbers::pi / 2, Vec3::UnitZ())));
  KeyboardTeleop keyboard(Keyboard());
  std::vector<TeleopAction> actions = keyboard.KeyPressed("w", &rig, kStamp);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_NEAR((actions[0].linear - Vec3(0, 0.1, 0)).norm(), 0, 1e-15);
  // a stick of another device adds to the keyboard's rate; releasing that device leaves the key's
  DeviceMapping stick;
  stick.speeds.linear_speed = 0.2;
  stick.bindings = {{.input = "lefty", .intent = Intent::kMoveX, .dead_zone = 0.2, .invert = true}};
  DeviceInputs pad(DeviceKind::kGamepad, stick);
  actions.clear();
  pad.Set("lefty", -0.6, kStamp, &rig, &actions);  // up, half way past the dead zone
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_NEAR(pad.IntentValue(Intent::kMoveX), 0.1, 1e-15);
  EXPECT_NEAR((actions[0].linear - Vec3(0, 0.2, 0)).norm(), 0, 1e-15);
  actions.clear();
  pad.ReleaseAll(kStamp, &rig, &actions);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_NEAR((actions[0].linear - Vec3(0, 0.1, 0)).norm(), 0, 1e-15);
}


TEST(TeleopRigTest, DeadZoneIsContinuousAndInvertFlips) {
  const Binding stick{.input = "leftx", .intent = Intent::kMoveY, .dead_zone = 0.2};
  EXPECT_EQ(ShapedInput(stick, 0.2), 0);
  EXPECT_NEAR(ShapedInput(stick, 0.2 + 1e-9), 0, 1e-8);  // no jump at the zone's edge
  EXPECT_EQ(ShapedInput(stick, -1), -1);
  EXPECT_EQ(ShapedInput(stick, 1.5), 1);  // clamped to full deflection
  const Binding inverted{.input = "lefty", .intent = Intent::kMoveX, .scale = 2, .invert = true};
  EXPECT_EQ(ShapedInput(inverted, 0.5), -1);
  const Binding gripper{.input = "lefttrigger", .intent = Intent::kGripper, .invert = true};
  EXPECT_EQ(ShapedInput(gripper, 0.25), 0.75);
}

}  // namespace
}  // namespace sim::devices
