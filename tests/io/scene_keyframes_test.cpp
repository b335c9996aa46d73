// The scene `keyframes` (engine/io/scene_keyframes.cpp): each is the initial state at its time
// with the bodies it names moved and the drive targets it names commanded; every mistake is an
// error at its line and JSON path; restored, a key frame continues as a run from that state.
#include <cmath>
#include <numbers>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

// a 1 kg arm on a driven hinge (about y) and a free box, then the key frames
std::string SceneText(const std::string& keyframes) {
  return R"({"gravity": [0, 0, -9.81], "objects": [
    {"name": "arm", "type": "box", "size": [0.4, 0.05, 0.05], "mass": 1, "position": [0.2, 0, 1]},
    {"name": "box", "type": "box", "size": [0.1, 0.1, 0.1], "position": [3, 0, 0.05]}],
  "joints": [
    {"name": "hinge", "type": "revolute", "parent": "world", "child": "arm",
     "anchor": [0, 0, 1], "axis": [0, 1, 0], "drive": {"stiffness": 2000, "damping": 60}}],
  "keyframes": )" +
         keyframes + "}";
}

std::string Errors(const std::string& text) {
  Expected<Scene> scene = ParseScene(text, "s.json");
  EXPECT_FALSE(scene.ok());
  return scene.diagnostics().Format();
}


TEST(SceneKeyFramesTest, KeyFramesMoveTheNamedBodiesAndCommandTheTargets) {
  Expected<Scene> scene = ParseScene(SceneText(R"([
    {"name": "thrown", "time": 0.5,
     "bodies": {"box": {"position": [3, 0, 2], "rpy_deg": [0, 0, 90], "velocity": [0, 1, 4],
                        "angular_velocity": [0, 0, 3]}},
     "targets_deg": {"hinge": 30}},
    {"name": "rest"}])"),
                                     "s.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  ASSERT_EQ(scene->key_frames.size(), 2u);
  const KeyFrame& thrown = scene->key_frames[0];
  EXPECT_EQ(thrown.name, "thrown");
  EXPECT_EQ(thrown.state.time, 0.5);
  const int box = model.FindBody("box");
  const int arm = model.FindBody("arm");
  EXPECT_EQ(thrown.state.body_X_WB[box].p, Vec3(3, 0, 2));
  EXPECT_NEAR((thrown.state.body_X_WB[box].q * Vec3::UnitX() - Vec3::UnitY()).norm(), 0, 1e-12);
  EXPECT_EQ(thrown.state.body_v_W[box], Vec3(0, 1, 4));
  EXPECT_EQ(thrown.state.body_w_W[box], Vec3(0, 0, 3));
  // what the key frame does not name keeps its initial value
  EXPECT_EQ(thrown.state.body_X_WB[arm].p, scene->initial_state.body_X_WB[arm].p);
  const int hinge = model.FindJoint("hinge");
  EXPECT_NEAR(thrown.control.joint_target_position[hinge], std::numbers::pi / 6, 1e-15);
  EXPECT_FALSE(JointRamped(thrown.control, hinge));
  // a key frame with only a name is the initial state
  EXPECT_EQ(scene->key_frames[1].state.time, 0.0);
  EXPECT_EQ(StateHash(scene->key_frames[1].state), StateHash(scene->initial_state));
  EXPECT_TRUE(std::isnan(scene->key_frames[1].control.joint_target_position[hinge]));

  // restored, the box flies from there: 0.1 s later it rose 4·0.1 − g·0.1²/2 (a free body)
  auto sim = Simulation::Create(scene->model, scene->initial_state, "nsn");
  ASSERT_TRUE(sim.ok()) << sim.diagnostics().Format();
  sim.value()->RestoreKeyFrame(thrown);
  while (sim.value()->state().time < 0.6 - 1e-9) sim.value()->Step();
  EXPECT_NEAR(sim.value()->state().body_X_WB[box].p.z(), 2 + 0.4 - 9.81 * 0.01 / 2, 1e-2);
  EXPECT_NEAR(sim.value()->state().body_X_WB[box].p.y(), 0.1, 1e-6);
}


// joint positions, as MuJoCo's qpos: the arm turned 90° about the hinge (its COM, 0.2 m out along
// +x, swung to 0.2 m below the hinge, where JointCoordinate reads 90° back), the drive commanded
// to hold it; restored, it stays (stiffness 2000 N·m/rad against 1.96 N·m of gravity: 1e-3 rad)
TEST(SceneKeyFramesTest, JointPositionsPlaceTheBodiesBelowThem) {
  Expected<Scene> scene =
      ParseScene(SceneText(R"([{"name": "down", "positions_deg": {"hinge": 90}}])"), "s.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  const KeyFrame& down = scene->key_frames.at(0);
  const int arm = model.FindBody("arm");
  const int hinge = model.FindJoint("hinge");
  const Vec3 offset = down.state.body_X_WB[arm].p - Vec3(0, 0, 1);
  EXPECT_NEAR(offset.norm(), 0.2, 1e-12);
  EXPECT_NEAR(std::abs(offset.z()), 0.2, 1e-12) << offset.transpose();
  EXPECT_NEAR(JointCoordinate(model, hinge, Pose{}, down.state.body_X_WB[arm]),
              std::numbers::pi / 2, 1e-12);
  EXPECT_NEAR(down.control.joint_target_position[hinge], std::numbers::pi / 2, 1e-15);
  // the free box is not below the hinge: as it was
  const int box = model.FindBody("box");
  EXPECT_EQ(down.state.body_X_WB[box].p, scene->initial_state.body_X_WB[box].p);
  auto sim = Simulation::Create(scene->model, scene->initial_state, "nsn");
  ASSERT_TRUE(sim.ok()) << sim.diagnostics().Format();
  sim.value()->RestoreKeyFrame(down);
  for (int i = 0; i < 60; ++i) sim.value()->Step();
  EXPECT_NEAR(JointCoordinate(model, hinge, Pose{}, sim.value()->state().body_X_WB[arm]),
              std::numbers::pi / 2, 5e-3);
  // a position for a joint that has none, or an unknown one, is an error at its line
  EXPECT_THAT(Errors(SceneText(R"([{"name": "k",
    "positions": {"hinj": 1}}])")),
              HasSubstr("s.json:8: error: key frame 0 names unknown joint 'hinj'"));
}


TEST(SceneKeyFramesTest, UnknownBodyIsAnErrorAtItsLine) {
  EXPECT_EQ(Errors(SceneText(R"([
    {"name": "k", "bodies": {"bx": {"position": [0, 0, 1]}}}])")),
            "s.json:8: error: key frame 0 names unknown body 'bx' (a moving object or a robot's "
            "link, as 'robot/link') (at /keyframes/0/bodies/bx)\n");
}


TEST(SceneKeyFramesTest, UnknownJointListsTheDrivenOnes) {
  EXPECT_EQ(Errors(SceneText(R"([
    {"name": "k", "targets": {"hinj": 0.3}}])")),
            "s.json:8: error: key frame 0 names unknown joint 'hinj' (joints with drives: "
            "hinge) (at /keyframes/0/targets/hinj)\n");
}


TEST(SceneKeyFramesTest, NamesAreRequiredAndUnique) {
  EXPECT_THAT(Errors(SceneText(R"([{"time": 1}])")),
              HasSubstr("s.json:7: error: key frame 0 needs a 'name' (at /keyframes/0)"));
  EXPECT_THAT(Errors(SceneText(R"([{"name": "a"},
    {"name": "a"}])")),
              HasSubstr("s.json:8: error: key frame 1 'name' 'a' is used by an earlier key frame "
                        "(at /keyframes/1/name)"));
}


TEST(SceneKeyFramesTest, BadValuesAreLocated) {
  EXPECT_THAT(Errors(SceneText(R"([
    {"name": "k", "time": -1}])")),
              HasSubstr("s.json:8: error: key frame 0 'time' is -1, expected a value in [0, 86400] "
                        "(at /keyframes/0/time)"));
  EXPECT_THAT(Errors(SceneText(R"([
    {"name": "k", "bodies": {"box": {"velocity": [0, 1]}}}])")),
              HasSubstr("(at /keyframes/0/bodies/box/velocity)"));
}

}  // namespace
}  // namespace sim::io
