// A small scene with teleop targets for the teleop tests (session, devices, recordings, studio):
// our Fetch (resources/robots/fetch) on the ground, held by stiff drives, with an end effector on
// its gripper link (chain from the torso lift link) and a gripper on its fingers, as in
// docs/scene-format.md "Teleop". Written into a folder of the test's own, with recordings beside
// it.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace sim::test_support {

/// A fresh folder under the system's temp folder for the running test (removed first if left
/// over from an earlier run).
inline std::filesystem::path TestFolder(const std::string& prefix) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    (prefix + "_" + test->test_suite_name() + "_" + test->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}


/// Variations of the Fetch teleop scene (numbers as JSON text).
struct TeleopFetchOptions {
  std::string torso_lift = "0.35";      ///< initial torso height [m]
  std::string gripper_closed = "0.01";  ///< each finger's target at the gripper's axis 1 [m]
  std::string extra;  ///< more top-level members, e.g. `"camera": {...}` or `"script": [...]`
};

/// The Fetch teleop scene's JSON text: our Fetch (its URDF by absolute path, so the text parses
/// from anywhere) at the fetch_tomato posture with the fingers open, stiff hold-pose drives, an
/// `arm` end effector and a `gripper`.
inline std::string TeleopFetchSceneText(const TeleopFetchOptions& options = {}) {
  const std::string urdf = std::string(SIM_SOURCE_DIR) + "/resources/robots/fetch/fetch.urdf";
  return R"({"gravity": [0, 0, -9.81], "solver": {"name": "nsn", "dt": 0.0083},
  "objects": [{"name": "ground", "type": "plane"},
    {"name": "fetch", "type": "urdf", "file": ")" +
         urdf + R"(",
     "initial_positions": {"shoulder_pan_joint": 0.27932, "shoulder_lift_joint": -1.18317,
       "upperarm_roll_joint": -0.08488, "elbow_flex_joint": 1.69324, "forearm_roll_joint": 0.0367,
       "wrist_flex_joint": 1.06227, "wrist_roll_joint": 0.18284, "torso_lift_joint": )" +
         options.torso_lift + R"(,
       "l_gripper_finger_joint": 0.05, "r_gripper_finger_joint": 0.05},
     "hold_pose": {"stiffness": 100000.0, "damping": 2000.0},
     "drives": {"torso_lift_joint": {"stiffness": 1000000.0, "damping": 10000.0},
       "l_gripper_finger_joint": {"stiffness": 300, "damping": 10.0},
       "r_gripper_finger_joint": {"stiffness": 300, "damping": 10.0}}}],
  "teleop": [
    {"name": "arm", "type": "end_effector", "link": "fetch/gripper_link",
     "base": "fetch/torso_lift_link", "orientation_weight": 0.5},
    {"name": "gripper", "type": "gripper", "joints": {
      "fetch/l_gripper_finger_joint": [0.05, )" +
         options.gripper_closed + R"(], "fetch/r_gripper_finger_joint": [0.05, )" +
         options.gripper_closed + "]}}]" + (options.extra.empty() ? "" : ",\n  " + options.extra) +
         "}\n";
}


/// The Fetch teleop scene as `dir`/`name`; `torso_lift` [m] sets its initial torso height (a
/// different value is a changed scene). Returns the file's path.
inline std::string WriteTeleopFetchScene(const std::filesystem::path& dir,
                                         const std::string& name = "fetch_teleop.json",
                                         const std::string& torso_lift = "0.35") {
  const std::filesystem::path path = dir / name;
  std::ofstream(path) << TeleopFetchSceneText({.torso_lift = torso_lift});
  return path.string();
}


/// A hand-written recording for the Fetch scene: every kind of action on both targets over the
/// first 80 steps of `steps` (line 8 holds the first action).
inline std::string TeleopFetchActions(const std::string& scene, int steps) {
  return R"({
  "format": "contact-studio-teleop-recording",
  "version": 1,
  "scene": ")" +
         scene +
         R"(",
  "targets": ["arm", "gripper"],
  "steps": )" +
         std::to_string(steps) +
         R"(,
  "actions": [
    {"step": 0, "kind": "pose_velocity", "target": "arm", "linear": [0.1, 0, 0], "angular": [0, 0, 0]},
    {"step": 10, "kind": "set_axis", "target": "gripper", "value": 1.0},
    {"step": 30, "kind": "axis_rate", "target": "gripper", "value": -0.5},
    {"step": 50, "kind": "pose_velocity", "target": "arm", "linear": [0, 0, 0.05], "angular": [0, 0, 0.2]},
    {"step": 60, "kind": "set_pose", "target": "arm", "position": [0.6, 0.1, 1.0], "quaternion_wxyz": [1, 0, 0, 0]},
    {"step": 80, "kind": "reset"}
  ]
}
)";
}

}  // namespace sim::test_support
