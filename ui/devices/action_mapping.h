// The teleop mapping file (docs/teleop.md "Devices and mapping"): which input of which device
// (gamepad, keyboard, SpaceMouse) drives which intent, with its scale, dead zone and direction,
// and each device's speeds. Intents are what an operator means (move the end effector along x,
// close the gripper, select the next target); TeleopRig turns them into sim::TeleopActions for
// the model's teleop targets. The studio loads resources/teleop/default_mapping.json unless the
// user keeps a copy in their configuration folder (ActionMappingPath).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/core/diagnostics.h"

namespace sim::devices {

/// What an input means, independent of the device. Held intents carry a value while their
/// input is held; button intents act once when their input is pressed (IsButtonIntent).
enum class Intent {
  kMoveX = 0,       ///< end effector linear velocity along x of the teleop frame [m/s]
  kMoveY,           ///< ... along y
  kMoveZ,           ///< ... along z
  kRotateX,         ///< end effector angular velocity about x of the teleop frame [rad/s]
  kRotateY,         ///< ... about y
  kRotateZ,         ///< ... about z
  kBaseForward,     ///< base velocity along its heading [m/s]
  kBaseStrafe,      ///< base velocity to its left [m/s]
  kBaseTurn,        ///< base yaw rate, counter-clockwise seen from above [rad/s]
  kGripper,         ///< the active hand's axis, absolute: 0 open .. 1 closed (a trigger)
  kGripperToggle,   ///< button: the active hand opens when closed, closes when open
  kSynergy,         ///< the active hand's axis rate [1/s] (a stick or a pair of keys)
  kNextTarget,      ///< button: the next end effector becomes active
  kPreviousTarget,  ///< button: the previous end effector becomes active
  kNextHand,        ///< button: the next gripper or synergy becomes active
  kReset,           ///< button: every rate stops, every target holds the robot's pose
};
inline constexpr int kIntentCount = 16;

/// "move_x", "gripper_toggle", ... as in mapping files.
const char* IntentName(Intent intent);
/// The intent of a name above; false when unknown.
bool ParseIntent(const std::string& name, Intent* intent);
/// Every intent name, for messages and the docs.
std::vector<std::string> IntentNames();
/// Whether the intent acts once per press (gripper_toggle, next_target, previous_target,
/// next_hand, reset) rather than being held.
bool IsButtonIntent(Intent intent);

enum class DeviceKind { kGamepad = 0, kKeyboard, kSpaceMouse };
inline constexpr int kDeviceKindCount = 3;

/// "gamepad", "keyboard", "spacemouse": the sections of a mapping file.
const char* DeviceKindName(DeviceKind kind);

/// The input names a device has: a gamepad's are SDL GameController names (leftx, lefty, rightx,
/// righty, lefttrigger, righttrigger, a, b, x, y, dpup, ...), the keyboard's the key names of
/// keyboard_layout.h, a SpaceMouse's tx, ty, tz, rx, ry, rz and button0 .. button31.
std::vector<std::string> DeviceInputNames(DeviceKind kind);
bool IsDeviceInput(DeviceKind kind, const std::string& input);

/// One input driving one intent. The input's value v (sticks and 6-DoF axes in [−1, 1], triggers
/// in [0, 1], buttons and keys 0 or 1) goes through the dead zone (|v| ≤ dead_zone reads 0, the
/// rest is rescaled to reach 1 at full deflection), the direction (invert: −v; for `gripper`,
/// whose value is absolute, 1 − v) and the scale, then the device's speed for the intent.
struct Binding {
  std::string input;
  Intent intent = Intent::kMoveX;
  double scale = 1;
  double dead_zone = 0;  ///< share of the input's range read as 0, in [0, 1)
  bool invert = false;
  int line = 0;  ///< where the binding is in the mapping file (0: not from a file)
};

/// A device's speeds at full deflection and scale 1.
struct DeviceSpeeds {
  double linear_speed = 0.1;        ///< end effector [m/s]
  double angular_speed = 0.5;       ///< end effector [rad/s]
  double base_linear_speed = 0.3;   ///< base forward and strafe [m/s]
  double base_angular_speed = 0.5;  ///< base turn [rad/s]
  double hand_speed = 1.0;          ///< the `synergy` axis rate [1/s]
};

struct DeviceMapping {
  DeviceSpeeds speeds;
  std::vector<Binding> bindings;
};

struct ActionMapping {
  std::string source;  ///< the file it was read from
  std::array<DeviceMapping, kDeviceKindCount> devices;

  const DeviceMapping& device(DeviceKind kind) const { return devices[static_cast<int>(kind)]; }
  DeviceMapping& device(DeviceKind kind) { return devices[static_cast<int>(kind)]; }
};

/// Reads a mapping from `text`; errors (unknown intents and inputs, values out of range) and
/// warnings (unknown keys, keyboard keys the studio uses itself) are located in `source_name`.
Expected<ActionMapping> ParseActionMapping(const std::string& text, const std::string& source_name);
/// Reads the mapping file at `path`.
Expected<ActionMapping> LoadActionMapping(const std::string& path);

/// The shipped default: resources/teleop/default_mapping.json of the source tree.
std::string DefaultActionMappingPath();
/// The user's configuration folder: $XDG_CONFIG_HOME/contact-studio, else
/// ~/.config/contact-studio.
std::string UserConfigDir();
/// The user's own mapping: UserConfigDir()/teleop_mapping.json.
std::string UserActionMappingPath();
/// The mapping the studio loads: the user's when that file exists, else the default.
std::string ActionMappingPath();

}  // namespace sim::devices
