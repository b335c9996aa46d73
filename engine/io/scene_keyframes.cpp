// The `keyframes` array of a scene file: named states the studio restores (Simulation > Restore
// Key Frame), like MuJoCo's <keyframe>. Each is
//   {"name": "...", "time": s,
//    "bodies": {"body": {"position": [m], "rpy_deg" | "quaternion_wxyz",
//                        "velocity": [m/s], "angular_velocity": [rad/s]}, ...},
//    "positions": {"joint": rad|m, ...}, "positions_deg": {"joint": deg, ...},
//    "targets": {"joint": rad|m, ...}, "targets_deg": {"joint": deg, ...}}
// (joints named as in the script, scene_targets.h) and starts from the scene's initial state:
// what it does not name keeps its initial value. Joint positions move the bodies below those
// joints through the tree (PosesAtJointPositions) before `bodies` places any body; a driven joint
// given a position and no target is commanded to hold it.
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/io/scene_reader.h"
#include "engine/io/scene_targets.h"
#include "engine/kinematics/kinematic_chain.h"
#include "engine/state/control.h"

namespace sim::io {

namespace {

// a key frame later than a day of simulated time is a typo (as a script's)
constexpr double kMaxKeyFrameTime = 86400;
// speeds beyond this are typos [m/s] or [rad/s]
constexpr double kMaxSpeed = 1e4;

// the "bodies" of one key frame, written into `state`
bool ReadKeyFrameBodies(SceneReader& reader, const JsonValue& key, const Model& model, State* state,
                        const std::string& what) {
  const JsonValue* bodies = key.Find("bodies");
  if (bodies == nullptr) return true;
  if (!reader.ExpectType(*bodies, JsonValue::Type::kObject, what + " 'bodies'")) return false;
  bool ok = true;
  for (const auto& [name, value] : bodies->members()) {
    const std::string body_what = what + " body '" + name + "'";
    const int body = model.FindBody(name);
    if (body < 0) {
      reader.Error(value, what + " names unknown body '" + name + "' (a moving object or a " +
                              "robot's link, as 'robot/link')");
      ok = false;
      continue;
    }
    if (!reader.ExpectType(value, JsonValue::Type::kObject, body_what)) {
      ok = false;
      continue;
    }
    reader.CheckKeys(value,
                     {"position", "rpy_deg", "quaternion_wxyz", "velocity", "angular_velocity"},
                     body_what);
    ok &= reader.ReadArray<3>(value, "position", &state->body_X_WB[body].p, body_what, -1e6, 1e6);
    ok &= ReadOrientation(reader, value, &state->body_X_WB[body].q, body_what);
    ok &= reader.ReadArray<3>(value, "velocity", &state->body_v_W[body], body_what, -kMaxSpeed,
                              kMaxSpeed);
    ok &= reader.ReadArray<3>(value, "angular_velocity", &state->body_w_W[body], body_what,
                              -kMaxSpeed, kMaxSpeed);
  }
  return ok;
}

}  // namespace


void ReadKeyFrames(SceneReader& reader, const JsonValue& root, const Model& model,
                   const State& initial_state, std::vector<KeyFrame>* key_frames) {
  const JsonValue* keys = root.Find("keyframes");
  if (keys == nullptr) return;
  if (!reader.ExpectType(*keys, JsonValue::Type::kArray, "'keyframes'")) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < keys->items().size(); ++i) {
    const JsonValue& key = keys->items()[i];
    const std::string what = "key frame " + std::to_string(i);
    if (!reader.ExpectType(key, JsonValue::Type::kObject, what)) continue;
    reader.CheckKeys(
        key, {"name", "time", "positions", "positions_deg", "bodies", "targets", "targets_deg"},
        what);
    KeyFrame frame;
    frame.state = initial_state;
    frame.control = MakeControl(model);
    bool ok = true;
    const JsonValue* name = key.Find("name");
    if (name == nullptr) {
      reader.Error(key, what + " needs a 'name'");
      ok = false;
    } else if (reader.ReadString(key, "name", &frame.name, what)) {
      if (frame.name.empty()) {
        reader.Error(*name, what + " 'name' is empty");
        ok = false;
      } else if (!names.insert(frame.name).second) {
        reader.Error(*name, what + " 'name' '" + frame.name + "' is used by an earlier key frame");
        ok = false;
      }
    } else {
      ok = false;
    }
    ok &= reader.ReadNumber(key, "time", &frame.state.time, 0, kMaxKeyFrameTime, what);
    // joint positions: the bodies below them moved through the tree, then `bodies` on top
    std::map<int, std::string> positioned;
    std::vector<std::pair<int, double>> positions;
    ok &= ReadJointTargets(reader, key, "positions", false, model, &positioned, &positions, what,
                           JointValues::kPositions);
    ok &= ReadJointTargets(reader, key, "positions_deg", true, model, &positioned, &positions, what,
                           JointValues::kPositions);
    if (!positions.empty()) {
      std::vector<Real> q(model.joint_count(), NAN);
      for (const auto& [joint, position] : positions) q[joint] = position;
      frame.state.body_X_WB = PosesAtJointPositions(model, frame.state, q);
    }
    ok &= ReadKeyFrameBodies(reader, key, model, &frame.state, what);
    // the targets as a script's keyframe names them, commanded from the key frame on; a driven
    // joint given only a position holds it
    std::map<int, std::string> named;
    std::vector<std::pair<int, double>> targets;
    ok &= ReadJointTargets(reader, key, "targets", false, model, &named, &targets, what);
    ok &= ReadJointTargets(reader, key, "targets_deg", true, model, &named, &targets, what);
    for (const auto& [joint, position] : positions) {
      if (DrivableJoint(model, joint) && named.count(joint) == 0) {
        frame.control.joint_target_position[joint] = position;
      }
    }
    for (const auto& [joint, target] : targets) frame.control.joint_target_position[joint] = target;
    if (ok) key_frames->push_back(std::move(frame));
  }
}

}  // namespace sim::io
