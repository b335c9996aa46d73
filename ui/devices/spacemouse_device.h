// 3Dconnexion SpaceMouse (6-DoF) through spacenavd and libspnav: the cap's translation and
// rotation become the inputs tx, ty, tz, rx, ry, rz (spacenavd's frame: x right, y up, z towards
// the user), its buttons button0, button1, ... Without spacenavd running the device says so and
// polls nothing, and tries to connect again every kReconnectSeconds; a build without libspnav
// (SIM_HAVE_SPNAV unset: libspnav-dev missing at configure time) has the device, always absent.
#pragma once

#include <memory>
#include <vector>

#include "engine/teleop/teleop_action.h"
#include "ui/devices/action_mapping.h"
#include "ui/devices/device_status.h"

namespace sim::devices {

class TeleopRig;

class SpaceMouseDevice {
 public:
  /// How often Poll tries to reach spacenavd while it is not connected [s].
  static constexpr double kReconnectSeconds = 2.0;
  /// spacenavd's motion value at full deflection of the cap (SpaceNavigator, SpaceMouse
  /// Compact: about ±350); the inputs are motion / kFullScale, clamped to [−1, 1].
  static constexpr double kFullScale = 350.0;

  /// Connects to spacenavd when it runs.
  explicit SpaceMouseDevice(const DeviceMapping& mapping);
  ~SpaceMouseDevice();
  SpaceMouseDevice(const SpaceMouseDevice&) = delete;
  SpaceMouseDevice& operator=(const SpaceMouseDevice&) = delete;

  /// The actions for `rig`'s targets from the events since the last poll; nothing (and no
  /// message) while spacenavd is not there.
  std::vector<TeleopAction> Poll(TeleopRig* rig);

  DeviceStatus status() const;
  /// Whether this build has libspnav.
  static bool Supported();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sim::devices
