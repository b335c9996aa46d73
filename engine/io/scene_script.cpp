// The `script` array of a scene file: keyframes of joint drive targets over time, played by
// Simulation::Step (engine/step/joint_script.h). Each keyframe is
//   {"time": s, "targets": {"joint": rad|m, ...}, "targets_deg": {"joint": deg, ...},
//    "interpolation": "smooth" | "linear" | "step"}
// and a joint name may hold '*' wildcards ("*/knee_l" targets the left knee of every robot).
// Keyframes become one track per joint in Model::joint_script.
#include <map>

#include "engine/io/scene_reader.h"
#include "engine/io/scene_targets.h"

namespace sim::io {

namespace {

// a script longer than a day of simulated time is a typo
constexpr double kMaxScriptTime = 86400;

// '*' matches any run of characters (including '/'); everything else matches itself
bool GlobMatch(const char* pattern, const char* name) {
  if (*pattern == '\0') return *name == '\0';
  if (*pattern == '*') {
    for (const char* rest = name;; ++rest) {
      if (GlobMatch(pattern + 1, rest)) return true;
      if (*rest == '\0') return false;
    }
  }
  return *pattern == *name && GlobMatch(pattern + 1, name + 1);
}

struct Key {
  double time = 0;
  double value = 0;
  ScriptInterpolation interpolation = ScriptInterpolation::kSmooth;
};

// the targets of one keyframe ("targets" in rad|m or "targets_deg"); adds a key per joint
bool ReadTargets(SceneReader& reader, const JsonValue& keyframe, const char* key, bool degrees,
                 const Key& base, const Model& model, std::map<int, std::string>* named,
                 std::map<int, std::vector<Key>>* keys, const std::string& what) {
  std::vector<std::pair<int, double>> targets;
  const bool ok = ReadJointTargets(reader, keyframe, key, degrees, model, named, &targets, what);
  for (const auto& [joint, value] : targets) {
    Key k = base;
    k.value = value;
    (*keys)[joint].push_back(k);
  }
  return ok;
}

}  // namespace


bool ReadJointTargets(SceneReader& reader, const JsonValue& object, const char* key, bool degrees,
                      const Model& model, std::map<int, std::string>* named,
                      std::vector<std::pair<int, double>>* out, const std::string& what,
                      JointValues kind) {
  const bool positions = kind == JointValues::kPositions;
  const auto accepts = [&](int j) {
    const JointType type = model.joint_type[j];
    return positions ? type == JointType::kRevolute || type == JointType::kContinuous ||
                           type == JointType::kPrismatic
                     : DrivableJoint(model, j);
  };
  const char* verb = positions ? " sets the position of" : " targets";
  const JsonValue* targets = object.Find(key);
  if (targets == nullptr) return true;
  if (!reader.ExpectType(*targets, JsonValue::Type::kObject, what + " '" + key + "'")) return false;
  bool ok = true;
  for (const auto& [pattern, value] : targets->members()) {
    double target = 0;
    if (!reader.ReadNumber(*targets, pattern.c_str(), &target, -kMaxJointCoordinate,
                           kMaxJointCoordinate, what + " target")) {
      ok = false;
      continue;
    }
    const bool wildcard = pattern.find('*') != std::string::npos;
    int matched = 0;
    for (int j = 0; j < model.joint_count(); ++j) {
      if (wildcard ? !GlobMatch(pattern.c_str(), model.joint_name[j].c_str())
                   : model.joint_name[j] != pattern) {
        continue;
      }
      // with a wildcard, joints that cannot take the value (fixed, undriven) are not matched
      if (wildcard && !accepts(j)) continue;
      ++matched;
      const std::string& name = model.joint_name[j];
      if (!accepts(j)) {
        reader.Error(value, what + verb + " joint '" + name +
                                (positions ? "', which is not revolute, continuous or prismatic"
                                           : "', which has no drive (give it a 'drive' in "
                                             "'joints', or its robot a 'hold_pose')"));
        ok = false;
        continue;
      }
      if (degrees && model.joint_type[j] == JointType::kPrismatic) {
        reader.Error(value, what + " gives prismatic joint '" + name + " a " +
                                (positions ? "position" : "target") + " in degrees; use '" +
                                (positions ? "positions" : "targets") + "' (metres)");
        ok = false;
        continue;
      }
      if (!named->emplace(j, pattern).second) {
        reader.Error(value, what + verb + " joint '" + name + "' twice (by '" + named->at(j) +
                                "' and by '" + pattern + "')");
        ok = false;
        continue;
      }
      const double position = degrees ? target * kDegToRad : target;
      if (model.joint_limited[j] &&
          (position < model.joint_lower[j] - 1e-12 || position > model.joint_upper[j] + 1e-12)) {
        reader.Warning(value, what + (positions ? " position " : " target ") +
                                  FormatNumber(position) + " of joint '" + name +
                                  "' is outside its limits [" + FormatNumber(model.joint_lower[j]) +
                                  ", " + FormatNumber(model.joint_upper[j]) +
                                  "]; the joint stops at the limit");
      }
      out->emplace_back(j, position);
    }
    if (matched == 0) {
      const std::string kinds =
          positions ? "revolute, continuous or prismatic joint" : "driven joint";
      reader.Error(value,
                   what +
                       (wildcard ? " pattern '" + pattern + "' matches no " + kinds
                                 : " names unknown joint '" + pattern + "'") +
                       (positions ? std::string()
                                  : " (joints with drives: " + DrivableJointNames(model) + ")"));
      ok = false;
    }
  }
  return ok;
}


bool DrivableJoint(const Model& model, int j) {
  const JointType type = model.joint_type[j];
  return (type == JointType::kRevolute || type == JointType::kContinuous ||
          type == JointType::kPrismatic) &&
         model.joint_drive[j].enabled();
}

std::string DrivableJointNames(const Model& model) {
  std::vector<std::string> names;
  int more = 0;
  for (int j = 0; j < model.joint_count(); ++j) {
    if (!DrivableJoint(model, j)) continue;
    if (static_cast<int>(names.size()) < kMaxListedNames) {
      names.push_back(model.joint_name[j]);
    } else {
      ++more;
    }
  }
  if (more > 0) names.push_back("... (" + std::to_string(more) + " more)");
  return names.empty() ? "none: give joints a 'drive' or robots a 'hold_pose'" : Join(names);
}


void ReadScript(SceneReader& reader, const JsonValue& root, Model* model) {
  const JsonValue* script = root.Find("script");
  if (script == nullptr) return;
  if (!reader.ExpectType(*script, JsonValue::Type::kArray, "'script'")) return;
  std::map<int, std::vector<Key>> keys;  // joint -> its keys in time order
  double previous_time = -1;
  int previous_index = -1;
  bool ok = true;
  for (std::size_t i = 0; i < script->items().size(); ++i) {
    const JsonValue& keyframe = script->items()[i];
    const std::string what = "script keyframe " + std::to_string(i);
    if (!reader.ExpectType(keyframe, JsonValue::Type::kObject, what)) {
      ok = false;
      continue;
    }
    reader.CheckKeys(keyframe, {"time", "targets", "targets_deg", "interpolation"}, what);
    const JsonValue* time_value = keyframe.Find("time");
    if (time_value == nullptr) {
      reader.Error(keyframe, what + " needs a 'time' [s]");
      ok = false;
      continue;
    }
    Key base;
    if (!reader.ReadNumber(keyframe, "time", &base.time, 0, kMaxScriptTime, what)) {
      ok = false;
      continue;
    }
    // keys must move forward in time: a segment needs a positive duration
    if (base.time <= previous_time) {
      reader.Error(*time_value, what + " 'time' " + FormatNumber(base.time) +
                                    " is not after keyframe " + std::to_string(previous_index) +
                                    "'s " + FormatNumber(previous_time) +
                                    " (keyframes must have increasing times)");
      ok = false;
      continue;
    }
    previous_time = base.time;
    previous_index = static_cast<int>(i);
    using I = ScriptInterpolation;
    ok &= reader.ReadEnum<I>(keyframe, "interpolation",
                             {{"smooth", I::kSmooth}, {"linear", I::kLinear}, {"step", I::kStep}},
                             &base.interpolation, what);
    if (keyframe.Find("targets") == nullptr && keyframe.Find("targets_deg") == nullptr) {
      reader.Warning(keyframe, what + " has no 'targets' or 'targets_deg'; it has no effect");
    }
    std::map<int, std::string> named;  // joints of this keyframe, by the name that matched
    ok &= ReadTargets(reader, keyframe, "targets", false, base, *model, &named, &keys, what);
    ok &= ReadTargets(reader, keyframe, "targets_deg", true, base, *model, &named, &keys, what);
  }
  if (!ok) return;

  // one track per joint, starting at t = 0 from the joint's own drive target
  for (const auto& [joint, joint_keys] : keys) {
    JointScriptTrack track;
    track.joint = joint;
    if (joint_keys.front().time > 0) {
      track.time.push_back(0);
      track.value.push_back(model->joint_drive[joint].target_position);
      track.interpolation.push_back(ScriptInterpolation::kStep);
    }
    for (const Key& k : joint_keys) {
      track.time.push_back(k.time);
      track.value.push_back(k.value);
      track.interpolation.push_back(k.interpolation);
    }
    model->joint_script.push_back(std::move(track));
  }
}

}  // namespace sim::io
