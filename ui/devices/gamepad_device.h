// Gamepads through SDL2's GameController API: the standard layout (sticks, triggers, face
// buttons, d-pad by SDL name) of any controller SDL has a mapping for — its built-in database,
// plus the user's gamecontrollerdb.txt (GameControllerDbPath) and SDL's own
// SDL_GAMECONTROLLERCONFIG / SDL_GAMECONTROLLERCONFIG_FILE variables. Only SDL's game-controller
// subsystem is initialised (no video): it runs headless. Controllers come and go (hot-plug): the
// first connected one drives the rig; when it is unplugged its held rates stop and the next
// connected controller, or the same one plugged in again, continues with the same mapping.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/teleop/teleop_action.h"
#include "ui/devices/action_mapping.h"
#include "ui/devices/device_status.h"

namespace sim::devices {

class TeleopRig;

/// The user's extra controller mappings: UserConfigDir()/gamecontrollerdb.txt (the format of
/// github.com/gabomdq/SDL_GameControllerDB).
std::string GameControllerDbPath();

class GamepadDevice {
 public:
  /// Initialises SDL's game-controller subsystem (status() says why when that fails) and reads
  /// `user_db_path` when it exists. One GamepadDevice per process: SDL's event queue is global.
  explicit GamepadDevice(const DeviceMapping& mapping,
                         const std::string& user_db_path = GameControllerDbPath());
  ~GamepadDevice();
  GamepadDevice(const GamepadDevice&) = delete;
  GamepadDevice& operator=(const GamepadDevice&) = delete;

  /// Drains SDL's events (hot-plug, axes, buttons) and returns the actions for `rig`'s targets
  /// since the last poll, stamped with the events' times. Call from one thread, regularly (the
  /// studio: every frame).
  std::vector<TeleopAction> Poll(TeleopRig* rig);

  DeviceStatus status() const;
  /// Mappings read from the user's gamecontrollerdb.txt (0 when there is none).
  int user_mappings() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sim::devices
