// Scripted joint targets (engine/step/joint_script.h): the interpolation formulas of the header at
// known points, holding before and after the keys, and ApplyJointScript writing only scripted
// joints into Control (not those the user has taken); the target rate limit of the control
// stage (engine/step/target_rate.h).
#include "engine/step/joint_script.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "engine/step/target_rate.h"

namespace sim {
namespace {

JointScriptTrack Track(ScriptInterpolation interpolation) {
  JointScriptTrack track;
  track.joint = 0;
  track.time = {0, 1, 3};
  track.value = {0.5, 0.5, 1.5};
  track.interpolation = {ScriptInterpolation::kStep, ScriptInterpolation::kStep, interpolation};
  return track;
}


TEST(JointScriptTest, SmoothEasesInAndOut) {
  const JointScriptTrack track = Track(ScriptInterpolation::kSmooth);
  Real p = 0, v = 0;
  // u = 1/4: s = 3/16 − 2/64 = 5/32, ṡ = 6·(1/4)(3/4) / 2 s
  EvaluateScriptTrack(track, 1.5, &p, &v);
  EXPECT_NEAR(p, 0.5 + 5.0 / 32.0, 1e-15);
  EXPECT_NEAR(v, 6 * 0.25 * 0.75 / 2, 1e-15);
  // midpoint: half way, the largest target velocity 1.5 Δ / span
  EvaluateScriptTrack(track, 2.0, &p, &v);
  EXPECT_NEAR(p, 1.0, 1e-15);
  EXPECT_NEAR(v, 0.75, 1e-15);
  // zero velocity at both keys
  EvaluateScriptTrack(track, 1.0 + 1e-9, &p, &v);
  EXPECT_NEAR(v, 0, 1e-8);
  EvaluateScriptTrack(track, 3.0 - 1e-9, &p, &v);
  EXPECT_NEAR(v, 0, 1e-8);
}


TEST(JointScriptTest, LinearMovesAtConstantSpeed) {
  const JointScriptTrack track = Track(ScriptInterpolation::kLinear);
  Real p = 0, v = 0;
  EvaluateScriptTrack(track, 1.5, &p, &v);
  EXPECT_NEAR(p, 0.75, 1e-15);
  EXPECT_NEAR(v, 0.5, 1e-15);
}


TEST(JointScriptTest, StepJumpsAtTheKey) {
  const JointScriptTrack track = Track(ScriptInterpolation::kStep);
  Real p = 0, v = 0;
  EvaluateScriptTrack(track, 2.999, &p, &v);
  EXPECT_EQ(p, 0.5);
  EXPECT_EQ(v, 0);
  EvaluateScriptTrack(track, 3.0, &p, &v);
  EXPECT_EQ(p, 1.5);
}


TEST(JointScriptTest, HoldsBeforeAndAfterTheKeys) {
  const JointScriptTrack track = Track(ScriptInterpolation::kSmooth);
  Real p = 0, v = 0;
  EvaluateScriptTrack(track, -1, &p, &v);
  EXPECT_EQ(p, 0.5);
  EXPECT_EQ(v, 0);
  EvaluateScriptTrack(track, 10, &p, &v);
  EXPECT_EQ(p, 1.5);
  EXPECT_EQ(v, 0);
}


TEST(JointScriptTest, ApplyWritesOnlyScriptedJoints) {
  Model model;
  model.joint_drive.resize(2);
  model.joint_type.assign(2, JointType::kRevolute);
  JointScriptTrack track = Track(ScriptInterpolation::kLinear);
  track.joint = 1;
  model.joint_script.push_back(track);
  Control control;
  control.joint_target_position = {0.25, NAN};
  control.joint_target_velocity = {NAN, NAN};
  ApplyJointScript(model, 2.0, &control);
  EXPECT_EQ(control.joint_target_position[0], 0.25);  // not scripted: kept
  EXPECT_TRUE(std::isnan(control.joint_target_velocity[0]));
  EXPECT_NEAR(control.joint_target_position[1], 1.0, 1e-15);
  EXPECT_NEAR(control.joint_target_velocity[1], 0.5, 1e-15);
}

TEST(JointScriptTest, TakenJointKeepsTheUsersTarget) {
  Model model;
  model.joint_drive.resize(1);
  model.joint_type.assign(1, JointType::kRevolute);
  model.joint_script.push_back(Track(ScriptInterpolation::kLinear));
  Control control;
  control.joint_target_position = {-0.2};
  control.joint_target_velocity = {NAN};
  control.joint_taken = {1};
  ApplyJointScript(model, 2.0, &control);
  EXPECT_EQ(control.joint_target_position[0], -0.2);
  control.joint_taken = {0};
  ApplyJointScript(model, 2.0, &control);
  EXPECT_NEAR(control.joint_target_position[0], 1.0, 1e-15);
}


TEST(TargetRateTest, AnOperatorsJumpBecomesARampAtTheVelocityLimit) {
  // the operator sets joint 0 (limited to 0.1 m/s) and joint 1 (no limit); dt = 0.01 s: joint
  // 0's target moves 1 mm per step at 0.1 m/s towards the commanded 0 from the model's 0.35,
  // joint 1 jumps
  Model model;
  model.joint_drive.resize(2);
  model.joint_type.assign(2, JointType::kPrismatic);
  model.joint_drive[0].target_position = 0.35;
  model.joint_velocity_limit = {0.1, 0};
  EXPECT_EQ(MaxTargetSpeed(model, 0), 0.1);
  EXPECT_TRUE(std::isinf(MaxTargetSpeed(model, 1)));
  Control commanded;
  commanded.joint_target_velocity = {NAN, NAN};
  SetOperatorTarget(&commanded, 0, 0.0);
  SetOperatorTarget(&commanded, 1, 0.7);
  EXPECT_TRUE(JointRamped(commanded, 0) && JointRamped(commanded, 1));
  std::vector<Real> last;
  Control drive;
  LimitTargetRates(model, commanded, 0.01, &last, &drive);
  EXPECT_NEAR(drive.joint_target_position[0], 0.349, 1e-15);
  EXPECT_NEAR(drive.joint_target_velocity[0], -0.1, 1e-12);
  EXPECT_EQ(drive.joint_target_position[1], 0.7);
  EXPECT_TRUE(std::isnan(drive.joint_target_velocity[1]));  // the commanded (model's) one
  for (int i = 1; i < 349; ++i) LimitTargetRates(model, commanded, 0.01, &last, &drive);
  EXPECT_NEAR(drive.joint_target_position[0], 0.001, 1e-12);
  // within one step of the target: exactly the commanded target and velocity
  LimitTargetRates(model, commanded, 0.01, &last, &drive);
  LimitTargetRates(model, commanded, 0.01, &last, &drive);
  EXPECT_EQ(drive.joint_target_position[0], 0.0);
  EXPECT_TRUE(std::isnan(drive.joint_target_velocity[0]));
  EXPECT_EQ(last[0], 0.0);
}


TEST(TargetRateTest, AScriptsJumpReachesTheDriveAsCommanded) {
  // the same limited joint: an operator's jump is ramped, but once the script writes the joint
  // (clearing Control::joint_ramped) its jump and velocity reach the drive bit for bit
  Model model;
  model.joint_drive.resize(1);
  model.joint_type.assign(1, JointType::kPrismatic);
  model.joint_drive[0].target_position = 0.35;
  model.joint_velocity_limit = {0.1};
  JointScriptTrack track = Track(ScriptInterpolation::kLinear);
  track.joint = 0;
  model.joint_script.push_back(track);
  Control commanded;
  commanded.joint_target_position = {NAN};
  commanded.joint_target_velocity = {NAN};
  SetOperatorTarget(&commanded, 0, 0.0);
  std::vector<Real> last;
  Control drive;
  LimitTargetRates(model, commanded, 0.01, &last, &drive);
  EXPECT_NEAR(drive.joint_target_position[0], 0.349, 1e-15);
  ApplyJointScript(model, 1.5, &commanded);
  EXPECT_FALSE(JointRamped(commanded, 0));
  LimitTargetRates(model, commanded, 0.01, &last, &drive);
  EXPECT_EQ(drive.joint_target_position[0], commanded.joint_target_position[0]);
  EXPECT_EQ(drive.joint_target_velocity[0], commanded.joint_target_velocity[0]);
  EXPECT_EQ(last[0], commanded.joint_target_position[0]);
}

}  // namespace
}  // namespace sim
