#include "ui/devices/keyboard_layout.h"

#include <algorithm>
#include <utility>

#include "ui/devices/teleop_rig.h"

namespace sim::devices {

namespace {

// the studio's single-key shortcuts while the viewport has focus: ui/main_window.cpp (menu
// actions), ui/viewport/vulkan_viewport.cpp (F, V) and ui/scene_loader.cpp (Escape cancels a
// load); keep in step with them
constexpr std::pair<const char*, const char*> kStudioKeys[] = {
    {"space", "Play/Pause"},
    {"right", "Step"},
    {"backspace", "Reset"},
    {"minus", "Slower"},
    {"equal", "Faster"},
    {"home", "Reset Camera"},
    {"f", "reset camera (viewport)"},
    {"v", "view mode (viewport)"},
    {"f2", "Overlay"},
    {"f5", "Reload"},
    {"f12", "Screenshot"},
    {"escape", "Cancel Load"},
};

}  // namespace


const std::vector<std::string>& KeyNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> keys;
    for (char c = 'a'; c <= 'z'; ++c) keys.emplace_back(1, c);
    for (char c = '0'; c <= '9'; ++c) keys.emplace_back(1, c);
    for (int f = 1; f <= 12; ++f) keys.push_back("f" + std::to_string(f));
    for (char c = '0'; c <= '9'; ++c) keys.push_back(std::string("kp_") + c);
    for (const char* key :
         {"space", "return",    "tab",    "escape",      "backspace",    "insert",    "delete",
          "home",  "end",       "pageup", "pagedown",    "left",         "right",     "up",
          "down",  "minus",     "equal",  "bracketleft", "bracketright", "semicolon", "apostrophe",
          "grave", "backslash", "comma",  "period",      "slash"}) {
      keys.emplace_back(key);
    }
    return keys;
  }();
  return names;
}


bool IsKeyName(const std::string& key) {
  const std::vector<std::string>& names = KeyNames();
  return std::find(names.begin(), names.end(), key) != names.end();
}


const char* StudioKeyUse(const std::string& key) {
  for (const auto& [name, use] : kStudioKeys) {
    if (key == name) return use;
  }
  return nullptr;
}


KeyboardTeleop::KeyboardTeleop(const DeviceMapping& mapping)
    : inputs_(DeviceKind::kKeyboard, mapping) {}


std::vector<TeleopAction> KeyboardTeleop::KeyPressed(const std::string& key, TeleopRig* rig,
                                                     double stamp_seconds) {
  std::vector<TeleopAction> actions;
  if (!Handles(key) || !held_.insert(key).second) return actions;
  inputs_.Set(key, 1, stamp_seconds, rig, &actions);
  return actions;
}


std::vector<TeleopAction> KeyboardTeleop::KeyReleased(const std::string& key, TeleopRig* rig,
                                                      double stamp_seconds) {
  std::vector<TeleopAction> actions;
  if (held_.erase(key) == 0) return actions;
  inputs_.Set(key, 0, stamp_seconds, rig, &actions);
  return actions;
}


std::vector<TeleopAction> KeyboardTeleop::ReleaseAll(TeleopRig* rig, double stamp_seconds) {
  std::vector<TeleopAction> actions;
  held_.clear();
  inputs_.ReleaseAll(stamp_seconds, rig, &actions);
  return actions;
}

}  // namespace sim::devices
