// What a teleop device reports for the studio's teleop panel.
#pragma once

#include <string>

namespace sim::devices {

struct DeviceStatus {
  bool available = false;  ///< the driver is there (SDL initialised, spacenavd reachable)
  bool connected = false;  ///< a device is connected and drives the rig
  std::string text;        ///< one line for the panel: the device's name, or why there is none
};

}  // namespace sim::devices
