// Scripted joint targets (engine/step/joint_script.h): the interpolation formulas of the header at
// known points, holding before and after the keys, and ApplyJointScript writing only scripted
// joints into Control.
#include "engine/step/joint_script.h"

#include <cmath>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace sim
