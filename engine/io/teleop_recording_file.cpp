#include "engine/io/teleop_recording_file.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "engine/io/json_document.h"
#include "engine/io/run_report.h"  // WriteTextFile
#include "engine/io/scene_reader.h"
#include "engine/io/text_file.h"

namespace sim::io {

namespace {

namespace fs = std::filesystem;

// steps are whole numbers a double holds exactly (2^53 steps of 1 ms: 285 000 years)
constexpr double kMaxStep = 9007199254740992.0;
// positions [m], rates [m/s, rad/s, 1/s] beyond this are typos
constexpr double kMaxMagnitude = 1e9;
// a quaternion shorter than this has no direction to normalize
constexpr double kMinQuaternionNorm = 1e-9;

constexpr TeleopActionKind kAllKinds[] = {
    TeleopActionKind::kPoseVelocity, TeleopActionKind::kSetPose,      TeleopActionKind::kSetAxis,
    TeleopActionKind::kAxisRate,     TeleopActionKind::kBaseVelocity, TeleopActionKind::kReset};

std::string KindNames() {
  std::vector<std::string> names;
  for (TeleopActionKind kind : kAllKinds) names.emplace_back(TeleopActionKindName(kind));
  return Join(names);
}


// "0x" and 1 to 16 hexadecimal digits
bool ParseHash(const std::string& text, std::uint64_t* hash) {
  if (text.size() < 3 || text.size() > 18 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) {
    return false;
  }
  const char* first = text.data() + 2;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(first, last, *hash, 16);
  return error == std::errc() && end == last;
}


// reads the recording's keys out of the located tree, every problem at its line
class RecordingReader {
 public:
  RecordingReader(const std::string& source, Diagnostics* diagnostics)
      : reader_(source, diagnostics, SceneOptions{}), diagnostics_(diagnostics) {}

  void Read(const JsonValue& root, TeleopRecordingFile* file) {
    if (!reader_.ExpectType(root, JsonValue::Type::kObject, "a teleop recording")) return;
    reader_.CheckKeys(root,
                      {"format", "version", "scene", "overrides", "solver", "targets",
                       "initial_state_hash", "steps", "final_state_hash", "actions"},
                      "the teleop recording");
    if (!ReadHeader(root)) return;
    ReadScene(root, file);
    ReadOverrides(root, file);
    ReadSolverAndTargets(root, file);
    ReadHashesAndSteps(root, file);
    ReadActions(root, file);
  }

 private:
  // format and version: anything else is not a file this build can read
  bool ReadHeader(const JsonValue& root) {
    const JsonValue* format = root.Find("format");
    if (format == nullptr || !format->is_string() || format->string() != kTeleopRecordingFormat) {
      reader_.Error(format != nullptr ? *format : root,
                    std::string("not a teleop recording: 'format' must be \"") +
                        kTeleopRecordingFormat + "\"");
      return false;
    }
    const JsonValue* version = root.Find("version");
    if (version == nullptr || !version->is_number() ||
        version->number() != kTeleopRecordingVersion) {
      reader_.Error(version != nullptr ? *version : root,
                    "teleop recording 'version' must be " +
                        std::to_string(kTeleopRecordingVersion) +
                        " (the version this build reads)");
      return false;
    }
    return true;
  }

  // `scene`: required, relative to the recording's folder, and it must exist
  void ReadScene(const JsonValue& root, TeleopRecordingFile* file) {
    const JsonValue* scene = root.Find("scene");
    if (scene == nullptr) {
      reader_.Error(root, "the teleop recording needs 'scene': the scene file it ran");
      return;
    }
    if (!reader_.ExpectType(*scene, JsonValue::Type::kString, "'scene'")) return;
    file->recording.scene_path = scene->string();
    file->scene_line = scene->line();
    if (scene->string().empty()) {
      reader_.Error(*scene, "'scene' is empty; name the scene file the recording ran");
      return;
    }
    const fs::path written(scene->string());
    const fs::path resolved =
        written.is_absolute() ? written : fs::path(reader_.source()).parent_path() / written;
    file->scene_file = resolved.lexically_normal().string();
    std::error_code error;
    if (!fs::is_regular_file(file->scene_file, error)) {
      reader_.Error(*scene, "scene '" + scene->string() + "' not found (looked for '" +
                                file->scene_file + "')");
    }
  }

  void ReadOverrides(const JsonValue& root, TeleopRecordingFile* file) {
    const JsonValue* overrides = root.Find("overrides");
    if (overrides == nullptr) return;
    if (!reader_.ExpectType(*overrides, JsonValue::Type::kArray, "'overrides'")) return;
    for (const JsonValue& item : overrides->items()) {
      if (!reader_.ExpectType(item, JsonValue::Type::kString, "an 'overrides' entry")) continue;
      if (item.string().find('=') == std::string::npos) {
        reader_.Error(item, "override '" + item.string() + "' is not PATH=VALUE");
        continue;
      }
      file->recording.overrides.push_back(item.string());
      file->override_lines.push_back(item.line());
    }
  }

  void ReadSolverAndTargets(const JsonValue& root, TeleopRecordingFile* file) {
    if (const JsonValue* solver = root.Find("solver")) {
      reader_.ReadString(root, "solver", &file->recording.solver, "'solver'");
      file->solver_line = solver->line();
    }
    const JsonValue* targets = root.Find("targets");
    if (targets == nullptr) return;
    targets_given_ = true;
    if (!reader_.ExpectType(*targets, JsonValue::Type::kArray, "'targets'")) return;
    for (const JsonValue& item : targets->items()) {
      if (!reader_.ExpectType(item, JsonValue::Type::kString, "a 'targets' entry")) continue;
      if (item.string().empty() || TargetIndex(*file, item.string()) >= 0) {
        reader_.Error(item, "'targets' entry '" + item.string() + "' is " +
                                (item.string().empty() ? "empty" : "listed twice"));
        continue;
      }
      file->recording.target_names.push_back(item.string());
      file->target_lines.push_back(item.line());
    }
  }

  void ReadHashesAndSteps(const JsonValue& root, TeleopRecordingFile* file) {
    ReadHash(root, "initial_state_hash", &file->recording.initial_state_hash);
    if (const JsonValue* hash = root.Find("initial_state_hash")) {
      file->initial_state_hash_line = hash->line();
    }
    ReadHash(root, "final_state_hash", &file->recording.final_state_hash);
    if (const JsonValue* hash = root.Find("final_state_hash")) {
      file->final_state_hash_line = hash->line();
    }
    double steps = 0;
    if (ReadWhole(root, "steps", 1, &steps, "'steps'")) {
      file->recording.steps = static_cast<std::uint64_t>(steps);
    }
  }

  void ReadHash(const JsonValue& root, const char* key, std::uint64_t* hash) {
    const JsonValue* value = root.Find(key);
    if (value == nullptr) return;
    if (!value->is_string() || !ParseHash(value->string(), hash)) {
      reader_.Error(*value, std::string("'") + key +
                                "' must be a string \"0x\" + up to 16 hexadecimal digits "
                                "(a StateHash)");
    }
  }

  // whole number member `key` in [min, 2^53]
  bool ReadWhole(const JsonValue& object, const char* key, double min, double* out,
                 const std::string& what) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return false;
    if (!reader_.ExpectType(*value, JsonValue::Type::kNumber, what)) return false;
    const double v = value->number();
    if (v != std::floor(v) || v < min || v > kMaxStep) {
      reader_.Error(*value, what + " is " + FormatNumber(v) + ", expected a whole number in [" +
                                FormatNumber(min) + ", 2^53]");
      return false;
    }
    *out = v;
    return true;
  }

  void ReadActions(const JsonValue& root, TeleopRecordingFile* file) {
    const JsonValue* actions = root.Find("actions");
    if (actions == nullptr) {
      reader_.Error(root, "the teleop recording needs 'actions': [{\"step\": ..., \"kind\": ...}]");
      return;
    }
    if (!reader_.ExpectType(*actions, JsonValue::Type::kArray, "'actions'")) return;
    std::uint64_t previous_step = 0;
    for (std::size_t i = 0; i < actions->items().size(); ++i) {
      RecordedAction action;
      if (!ReadAction(actions->items()[i], i, file, &action)) continue;
      const JsonValue& at = *actions->items()[i].Find("step");
      if (action.step < previous_step) {
        reader_.Error(at, "action " + std::to_string(i) + " is at step " +
                              std::to_string(action.step) + ", before the previous action's step " +
                              std::to_string(previous_step) + " (steps must not go backwards)");
        continue;
      }
      if (file->recording.steps > 0 && action.step >= file->recording.steps) {
        reader_.Error(at, "action " + std::to_string(i) + " is at step " +
                              std::to_string(action.step) + ", not before the recording's end (" +
                              std::to_string(file->recording.steps) +
                              " steps): it would never be applied");
        continue;
      }
      previous_step = action.step;
      file->recording.actions.push_back(action);
      file->action_lines.push_back(at.line());
    }
  }

  // one action object; false after reporting what is wrong with it
  bool ReadAction(const JsonValue& item, std::size_t i, TeleopRecordingFile* file,
                  RecordedAction* out) {
    std::string what = "action " + std::to_string(i);
    if (!reader_.ExpectType(item, JsonValue::Type::kObject, what)) return false;
    const int errors = diagnostics_->error_count();
    // step and kind first: the kind says which keys the action has
    double step = 0;
    if (item.Find("step") == nullptr) {
      reader_.Error(item, what + " needs 'step': the step it is applied at (State::step)");
    } else if (ReadWhole(item, "step", 0, &step, what + " 'step'")) {
      out->step = static_cast<std::uint64_t>(step);
    }
    const JsonValue* kind = item.Find("kind");
    if (kind == nullptr) {
      reader_.Error(item, what + " needs 'kind' (one of: " + KindNames() + ")");
      return false;
    }
    if (!reader_.ExpectType(*kind, JsonValue::Type::kString, what + " 'kind'")) return false;
    TeleopAction& action = out->action;
    if (!ParseTeleopActionKind(kind->string(), &action.kind)) {
      reader_.Error(*kind,
                    what + " 'kind' is '" + kind->string() + "', expected one of: " + KindNames());
      return false;
    }
    what += " (" + kind->string() + ")";
    ReadTarget(item, what, action.kind == TeleopActionKind::kReset, file, &action.target);

    // the kind's own values
    switch (action.kind) {
      case TeleopActionKind::kSetPose: {
        reader_.CheckKeys(item, {"step", "kind", "target", "position", "quaternion_wxyz"}, what);
        Eigen::Matrix<double, 4, 1> wxyz(1, 0, 0, 0);
        if (Require(item, "position", "[x, y, z] [m]", what)) {
          reader_.ReadArray<3>(item, "position", &action.pose.p, what, -kMaxMagnitude,
                               kMaxMagnitude);
        }
        if (Require(item, "quaternion_wxyz", "[w, x, y, z]", what) &&
            reader_.ReadArray<4>(item, "quaternion_wxyz", &wxyz, what, -kMaxMagnitude,
                                 kMaxMagnitude)) {
          if (wxyz.norm() < kMinQuaternionNorm) {
            reader_.Error(*item.Find("quaternion_wxyz"),
                          what + " 'quaternion_wxyz' has norm 0, not a rotation");
          }
          action.pose.q = Quat(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
        }
        break;
      }
      case TeleopActionKind::kPoseVelocity:
        reader_.CheckKeys(item, {"step", "kind", "target", "linear", "angular"}, what);
        reader_.ReadArray<3>(item, "linear", &action.linear, what, -kMaxMagnitude, kMaxMagnitude);
        reader_.ReadArray<3>(item, "angular", &action.angular, what, -kMaxMagnitude, kMaxMagnitude);
        break;
      case TeleopActionKind::kSetAxis:
      case TeleopActionKind::kAxisRate: {
        reader_.CheckKeys(item, {"step", "kind", "target", "value"}, what);
        const bool absolute = action.kind == TeleopActionKind::kSetAxis;
        if (Require(item, "value", absolute ? "in [0, 1] (0 open, 1 closed)" : "[1/s]", what)) {
          reader_.ReadNumber(item, "value", &action.value, absolute ? 0 : -kMaxMagnitude,
                             absolute ? 1 : kMaxMagnitude, what);
        }
        break;
      }
      case TeleopActionKind::kBaseVelocity:
        reader_.CheckKeys(item, {"step", "kind", "target", "linear"}, what);
        if (Require(item, "linear", "[v_x, v_y [m/s], omega [rad/s]]", what)) {
          reader_.ReadArray<3>(item, "linear", &action.linear, what, -kMaxMagnitude, kMaxMagnitude);
        }
        break;
      case TeleopActionKind::kReset:
        reader_.CheckKeys(item, {"step", "kind", "target"}, what);
        break;
    }
    return diagnostics_->error_count() == errors;
  }

  // false after an error when `key` is absent
  bool Require(const JsonValue& item, const char* key, const char* form, const std::string& what) {
    if (item.Find(key) != nullptr) return true;
    reader_.Error(item, what + " needs '" + key + "': " + form);
    return false;
  }

  // `target`: a name of `targets` (when given), else a new name is added; optional on a reset
  void ReadTarget(const JsonValue& item, const std::string& what, bool optional,
                  TeleopRecordingFile* file, int* target) {
    *target = -1;
    const JsonValue* value = item.Find("target");
    if (value == nullptr) {
      if (!optional) reader_.Error(item, what + " needs 'target': a teleop target's name");
      return;
    }
    if (!reader_.ExpectType(*value, JsonValue::Type::kString, what + " 'target'")) return;
    *target = TargetIndex(*file, value->string());
    if (*target >= 0) return;
    if (targets_given_ || value->string().empty()) {
      reader_.Error(*value, what + " 'target' is '" + value->string() +
                                "', not one of 'targets' (" + Join(file->recording.target_names) +
                                ")");
      return;
    }
    *target = static_cast<int>(file->recording.target_names.size());
    file->recording.target_names.push_back(value->string());
    file->target_lines.push_back(value->line());
  }

  static int TargetIndex(const TeleopRecordingFile& file, const std::string& name) {
    const std::vector<std::string>& names = file.recording.target_names;
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (names[k] == name) return static_cast<int>(k);
    }
    return -1;
  }

  SceneReader reader_;
  Diagnostics* diagnostics_;
  bool targets_given_ = false;
};


// the shortest text that reads back to the same double; null for a non-finite value (which the
// reader then reports)
std::string Number(double value) { return std::isfinite(value) ? ExactNumber(value) : "null"; }


std::string Array(std::initializer_list<double> values) {
  std::string out = "[";
  for (const double v : values) out += (out.size() > 1 ? ", " : "") + Number(v);
  return out + "]";
}


std::string StringArray(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t k = 0; k < values.size(); ++k)
    out += (k > 0 ? ", " : "") + JsonString(values[k]);
  return out + "]";
}


std::string ActionJson(const TeleopRecording& recording, const RecordedAction& recorded) {
  const TeleopAction& a = recorded.action;
  std::string out = "{\"step\": " + std::to_string(recorded.step) +
                    ", \"kind\": " + JsonString(TeleopActionKindName(a.kind));
  // an index outside the names is left out: the reader then reports the action
  if (a.target >= 0 && a.target < static_cast<int>(recording.target_names.size())) {
    out += ", \"target\": " + JsonString(recording.target_names[a.target]);
  }
  switch (a.kind) {
    case TeleopActionKind::kSetPose:
      out += ", \"position\": " + Array({a.pose.p.x(), a.pose.p.y(), a.pose.p.z()}) +
             ", \"quaternion_wxyz\": " +
             Array({a.pose.q.w(), a.pose.q.x(), a.pose.q.y(), a.pose.q.z()});
      break;
    case TeleopActionKind::kPoseVelocity:
      out += ", \"linear\": " + Array({a.linear.x(), a.linear.y(), a.linear.z()}) +
             ", \"angular\": " + Array({a.angular.x(), a.angular.y(), a.angular.z()});
      break;
    case TeleopActionKind::kSetAxis:
    case TeleopActionKind::kAxisRate:
      out += ", \"value\": " + Number(a.value);
      break;
    case TeleopActionKind::kBaseVelocity:
      out += ", \"linear\": " + Array({a.linear.x(), a.linear.y(), a.linear.z()});
      break;
    case TeleopActionKind::kReset:
      break;
  }
  return out + "}";
}

}  // namespace


Expected<TeleopRecordingFile> ParseTeleopRecording(const std::string& text,
                                                   const std::string& source_name) {
  Expected<JsonValue> root = ParseJson(text, source_name);
  if (!root.ok()) return root.diagnostics();
  Diagnostics diagnostics;
  TeleopRecordingFile file;
  file.path = source_name;
  RecordingReader(source_name, &diagnostics).Read(root.value(), &file);
  if (diagnostics.has_errors()) return diagnostics;
  return Expected<TeleopRecordingFile>(std::move(file), std::move(diagnostics));
}


Expected<TeleopRecordingFile> ReadTeleopRecording(const std::string& path) {
  Expected<std::string> text = ReadTextFile(path, "teleop recording");
  if (!text.ok()) return text.diagnostics();
  return ParseTeleopRecording(text.value(), path);
}


std::string FormatStateHash(std::uint64_t hash) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%016llx", static_cast<unsigned long long>(hash));
  return text;
}


std::string TeleopRecordingJson(const TeleopRecording& recording) {
  std::string out = "{\n";
  out += "  \"format\": " + JsonString(kTeleopRecordingFormat) + ",\n";
  out += "  \"version\": " + std::to_string(kTeleopRecordingVersion) + ",\n";
  out += "  \"scene\": " + JsonString(recording.scene_path) + ",\n";
  out += "  \"overrides\": " + StringArray(recording.overrides) + ",\n";
  if (!recording.solver.empty()) out += "  \"solver\": " + JsonString(recording.solver) + ",\n";
  out += "  \"targets\": " + StringArray(recording.target_names) + ",\n";
  if (recording.initial_state_hash != 0) {
    out +=
        "  \"initial_state_hash\": " + JsonString(FormatStateHash(recording.initial_state_hash)) +
        ",\n";
  }
  if (recording.steps != 0) out += "  \"steps\": " + std::to_string(recording.steps) + ",\n";
  if (recording.final_state_hash != 0) {
    out += "  \"final_state_hash\": " + JsonString(FormatStateHash(recording.final_state_hash)) +
           ",\n";
  }
  out += "  \"actions\": [";
  for (std::size_t k = 0; k < recording.actions.size(); ++k) {
    out += (k > 0 ? ",\n    " : "\n    ") + ActionJson(recording, recording.actions[k]);
  }
  out += recording.actions.empty() ? "]\n" : "\n  ]\n";
  return out + "}\n";
}


std::string ScenePathFor(const std::string& scene_file, const std::string& recording_path) {
  const fs::path scene = fs::absolute(scene_file).lexically_normal();
  const fs::path folder = fs::absolute(recording_path).lexically_normal().parent_path();
  const fs::path relative = scene.lexically_relative(folder);
  return relative.empty() ? scene.string() : relative.string();
}


bool WriteTeleopRecording(const std::string& path, const TeleopRecording& recording,
                          std::string* error) {
  return WriteTextFile(path, TeleopRecordingJson(recording), error);
}

}  // namespace sim::io
