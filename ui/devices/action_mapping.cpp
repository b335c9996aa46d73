#include "ui/devices/action_mapping.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/io/json_document.h"
#include "engine/io/scene_reader.h"
#include "engine/io/text_util.h"
#include "ui/devices/keyboard_layout.h"

namespace sim::devices {

namespace {

constexpr const char* kIntentNames[kIntentCount] = {
    "move_x",       "move_y",          "move_z",    "rotate_x", "rotate_y",       "rotate_z",
    "base_forward", "base_strafe",     "base_turn", "gripper",  "gripper_toggle", "synergy",
    "next_target",  "previous_target", "next_hand", "reset"};

// SDL's names of the game-controller axes and buttons (SDL_GameControllerGetStringForAxis and
// ...ForButton, SDL 2.26): the gamepad reports its inputs by them, and action_mapping_test checks
// this list equals SDL's
// clang-format off
constexpr const char* kGamepadInputs[] = {
    "leftx", "lefty", "rightx", "righty", "lefttrigger", "righttrigger", "a", "b", "x", "y",
    "back", "guide", "start", "leftstick", "rightstick", "leftshoulder", "rightshoulder", "dpup",
    "dpdown", "dpleft", "dpright", "misc1", "paddle1", "paddle2", "paddle3", "paddle4",
    "touchpad"};
// clang-format on

const std::vector<std::string>& GamepadInputs() {
  static const std::vector<std::string> inputs(std::begin(kGamepadInputs),
                                               std::end(kGamepadInputs));
  return inputs;
}

const std::vector<std::string>& SpaceMouseInputs() {
  static const std::vector<std::string> inputs = [] {
    std::vector<std::string> names = {"tx", "ty", "tz", "rx", "ry", "rz"};
    for (int b = 0; b < 32; ++b) names.push_back("button" + std::to_string(b));
    return names;
  }();
  return inputs;
}

// speeds are bounded by what a teleoperated robot can follow; beyond is a typo
constexpr double kMaxLinearSpeed = 10;   // [m/s]
constexpr double kMaxAngularSpeed = 50;  // [rad/s]
constexpr double kMaxHandSpeed = 100;    // [1/s]
constexpr double kMaxScale = 1e3;

void ReadBinding(io::SceneReader& reader, DeviceKind kind, const io::JsonValue& entry,
                 const std::string& what, DeviceMapping* device) {
  if (!reader.ExpectType(entry, io::JsonValue::Type::kObject, what)) return;
  reader.CheckKeys(entry, {"input", "intent", "scale", "dead_zone", "invert"}, what);
  Binding binding;
  binding.line = entry.line();
  bool ok = true;
  const io::JsonValue* input = entry.Find("input");
  const io::JsonValue* intent = entry.Find("intent");
  if (input == nullptr || intent == nullptr) {
    reader.Error(entry, what + " needs 'input' and 'intent'");
    return;
  }
  ok &= reader.ReadString(entry, "input", &binding.input, what);
  if (ok && !IsDeviceInput(kind, binding.input)) {
    std::vector<std::string> names = DeviceInputNames(kind);
    if (names.size() > static_cast<std::size_t>(io::kMaxListedNames) + 8) {
      names.resize(io::kMaxListedNames);
      names.push_back("... (docs/teleop.md lists them all)");
    }
    reader.Error(*input, what + " input '" + binding.input + "' is not a " + DeviceKindName(kind) +
                             " input (expected one of: " + io::Join(names) + ")");
    ok = false;
  }
  std::string intent_name;
  if (reader.ReadString(entry, "intent", &intent_name, what) &&
      !ParseIntent(intent_name, &binding.intent)) {
    reader.Error(*intent, what + " intent '" + intent_name +
                              "' is unknown (expected one of: " + io::Join(IntentNames()) + ")");
    ok = false;
  }
  ok &= reader.ReadNumber(entry, "scale", &binding.scale, -kMaxScale, kMaxScale, what);
  // a dead zone of 1 would leave nothing of the input
  if (const io::JsonValue* dead_zone = entry.Find("dead_zone")) {
    if (!reader.ExpectType(*dead_zone, io::JsonValue::Type::kNumber, what + " 'dead_zone'")) {
      ok = false;
    } else if (!(dead_zone->number() >= 0 && dead_zone->number() < 1)) {
      reader.Error(*dead_zone, what + " 'dead_zone' is " + io::FormatNumber(dead_zone->number()) +
                                   ", expected a share of the input's range in [0, 1)");
      ok = false;
    } else {
      binding.dead_zone = dead_zone->number();
    }
  }
  ok &= reader.ReadBool(entry, "invert", &binding.invert, what);
  if (!ok) return;
  // a key the studio itself uses never reaches teleop while the viewport has focus
  if (kind == DeviceKind::kKeyboard) {
    if (const char* use = StudioKeyUse(binding.input)) {
      reader.Warning(*input, what + " key '" + binding.input + "' is the studio's " + use +
                                 " shortcut; the viewport keeps it, so this binding never acts");
    }
  }
  device->bindings.push_back(binding);
}


void ReadDevice(io::SceneReader& reader, DeviceKind kind, const io::JsonValue& section,
                DeviceMapping* device) {
  const std::string what = std::string("'") + DeviceKindName(kind) + "'";
  if (!reader.ExpectType(section, io::JsonValue::Type::kObject, what)) return;
  reader.CheckKeys(section,
                   {"linear_speed", "angular_speed", "base_linear_speed", "base_angular_speed",
                    "hand_speed", "bindings"},
                   what);
  DeviceSpeeds& speeds = device->speeds;
  reader.ReadNumber(section, "linear_speed", &speeds.linear_speed, 0, kMaxLinearSpeed, what);
  reader.ReadNumber(section, "angular_speed", &speeds.angular_speed, 0, kMaxAngularSpeed, what);
  reader.ReadNumber(section, "base_linear_speed", &speeds.base_linear_speed, 0, kMaxLinearSpeed,
                    what);
  reader.ReadNumber(section, "base_angular_speed", &speeds.base_angular_speed, 0, kMaxAngularSpeed,
                    what);
  reader.ReadNumber(section, "hand_speed", &speeds.hand_speed, 0, kMaxHandSpeed, what);
  const io::JsonValue* bindings = section.Find("bindings");
  if (bindings == nullptr) return;
  if (!reader.ExpectType(*bindings, io::JsonValue::Type::kArray, what + " 'bindings'")) return;
  for (std::size_t i = 0; i < bindings->items().size(); ++i) {
    ReadBinding(reader, kind, bindings->items()[i], what + " binding " + std::to_string(i), device);
  }
}

}  // namespace


const char* IntentName(Intent intent) {
  const int i = static_cast<int>(intent);
  return i >= 0 && i < kIntentCount ? kIntentNames[i] : "unknown";
}


bool ParseIntent(const std::string& name, Intent* intent) {
  for (int i = 0; i < kIntentCount; ++i) {
    if (name == kIntentNames[i]) {
      *intent = static_cast<Intent>(i);
      return true;
    }
  }
  return false;
}


std::vector<std::string> IntentNames() {
  return std::vector<std::string>(std::begin(kIntentNames), std::end(kIntentNames));
}


bool IsButtonIntent(Intent intent) {
  switch (intent) {
    case Intent::kGripperToggle:
    case Intent::kNextTarget:
    case Intent::kPreviousTarget:
    case Intent::kNextHand:
    case Intent::kReset:
      return true;
    default:
      return false;
  }
}


const char* DeviceKindName(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::kGamepad:
      return "gamepad";
    case DeviceKind::kKeyboard:
      return "keyboard";
    case DeviceKind::kSpaceMouse:
      return "spacemouse";
  }
  return "unknown";
}


std::vector<std::string> DeviceInputNames(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::kGamepad:
      return GamepadInputs();
    case DeviceKind::kKeyboard:
      return KeyNames();
    case DeviceKind::kSpaceMouse:
      return SpaceMouseInputs();
  }
  return {};
}


bool IsDeviceInput(DeviceKind kind, const std::string& input) {
  if (kind == DeviceKind::kKeyboard) return IsKeyName(input);
  const std::vector<std::string>& names =
      kind == DeviceKind::kGamepad ? GamepadInputs() : SpaceMouseInputs();
  return std::find(names.begin(), names.end(), input) != names.end();
}


Expected<ActionMapping> ParseActionMapping(const std::string& text,
                                           const std::string& source_name) {
  Expected<io::JsonValue> json = io::ParseJson(text, source_name);
  if (!json.ok()) return json.diagnostics();
  Diagnostics diagnostics;
  io::SceneReader reader(source_name, &diagnostics, io::SceneOptions{});
  const io::JsonValue& root = json.value();
  ActionMapping mapping;
  mapping.source = source_name;
  if (reader.ExpectType(root, io::JsonValue::Type::kObject, "the mapping")) {
    reader.CheckKeys(root, {"description", "gamepad", "keyboard", "spacemouse"}, "the mapping");
    for (int k = 0; k < kDeviceKindCount; ++k) {
      const DeviceKind kind = static_cast<DeviceKind>(k);
      if (const io::JsonValue* section = root.Find(DeviceKindName(kind))) {
        ReadDevice(reader, kind, *section, &mapping.device(kind));
      }
    }
  }
  if (diagnostics.has_errors()) return diagnostics;
  return Expected<ActionMapping>(std::move(mapping), std::move(diagnostics));
}


Expected<ActionMapping> LoadActionMapping(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    Diagnostics diagnostics;
    diagnostics.Error(path, 0, "", "cannot open the teleop mapping file");
    return diagnostics;
  }
  std::ostringstream text;
  text << file.rdbuf();
  return ParseActionMapping(text.str(), path);
}


std::string DefaultActionMappingPath() {
  return std::string(SIM_SOURCE_RESOURCES_DIR) + "/teleop/default_mapping.json";
}


std::string UserConfigDir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && *xdg != '\0') return std::string(xdg) + "/contact-studio";
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : ".") + "/.config/contact-studio";
}


std::string UserActionMappingPath() { return UserConfigDir() + "/teleop_mapping.json"; }


std::string ActionMappingPath() {
  std::error_code error;
  const std::string user = UserActionMappingPath();
  return std::filesystem::is_regular_file(user, error) ? user : DefaultActionMappingPath();
}

}  // namespace sim::devices
