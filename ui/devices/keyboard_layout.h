// The teleop keyboard: key *names* (the studio's viewport translates its key events into these)
// pressed and released become held intents through the `keyboard` section of the mapping file.
// The default layout (resources/teleop/default_mapping.json, listed in docs/teleop.md) keeps off
// the keys the studio uses itself while the viewport has focus (StudioKeyUse), so teleop mode
// never eats Play/Pause, Step or Reset. Keys pressed with Ctrl or Alt are the studio's, not
// teleop's: the viewport does not pass them here.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "engine/teleop/teleop_action.h"
#include "ui/devices/action_mapping.h"
#include "ui/devices/device_inputs.h"

namespace sim::devices {

/// Every key name: "a" .. "z", "0" .. "9", "f1" .. "f12", "kp_0" .. "kp_9" (keypad), "space",
/// "return", "tab", "escape", "backspace", "insert", "delete", "home", "end", "pageup",
/// "pagedown", "left", "right", "up", "down", "minus", "equal", "bracketleft", "bracketright",
/// "semicolon", "apostrophe", "grave", "backslash", "comma", "period", "slash". Lower case.
const std::vector<std::string>& KeyNames();
bool IsKeyName(const std::string& key);

/// What the studio does with `key` (no modifier) while the viewport has focus, e.g. "Play/Pause"
/// for "space"; nullptr when the key is free for teleop.
const char* StudioKeyUse(const std::string& key);

/// The keyboard as a teleop device. Not thread-safe: call from the thread that gets key events.
class KeyboardTeleop {
 public:
  explicit KeyboardTeleop(const DeviceMapping& mapping);

  /// Whether the mapping binds `key` (the viewport then accepts the event).
  bool Handles(const std::string& key) const { return inputs_.IsBound(key); }

  /// `key` went down or up at `stamp_seconds` (TeleopClockSeconds); the actions for the rig's
  /// targets. The auto-repeated presses of a held key change nothing.
  std::vector<TeleopAction> KeyPressed(const std::string& key, TeleopRig* rig,
                                       double stamp_seconds = TeleopClockSeconds());
  std::vector<TeleopAction> KeyReleased(const std::string& key, TeleopRig* rig,
                                        double stamp_seconds = TeleopClockSeconds());
  /// Every key up (the viewport lost focus, teleop mode ended): held rates stop.
  std::vector<TeleopAction> ReleaseAll(TeleopRig* rig, double stamp_seconds = TeleopClockSeconds());

  /// The keys held now.
  const std::set<std::string>& held() const { return held_; }

 private:
  DeviceInputs inputs_;
  std::set<std::string> held_;
};

}  // namespace sim::devices
