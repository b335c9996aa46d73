#include "ui/devices/spacemouse_device.h"

#include <algorithm>
#include <cerrno>
#include <string>

#ifdef SIM_HAVE_SPNAV
#include <spnav.h>
#include <sys/socket.h>
#endif

#include "ui/devices/device_inputs.h"
#include "ui/devices/teleop_rig.h"

namespace sim::devices {

struct SpaceMouseDevice::Impl {
  explicit Impl(const DeviceMapping& mapping) : inputs(DeviceKind::kSpaceMouse, mapping) {}

#ifdef SIM_HAVE_SPNAV
  // one connection attempt: spnav_open fails quietly when spacenavd's socket is not there
  void TryConnect(double now) {
    last_attempt = now;
    connected = spnav_open() != -1;
    device_name.clear();
    if (!connected) return;
    // protocol 1 (spacenavd 1.0+) tells the device's name
    char name[128] = {};
    if (spnav_protocol() >= 1 && spnav_dev_name(name, sizeof(name)) > 0) device_name = name;
  }

  // spacenavd went away (the socket reads end-of-file): close and let the rates stop
  bool DaemonGone() const {
    char byte = 0;
    const ssize_t n = recv(spnav_fd(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
  }
#endif

  DeviceInputs inputs;
  bool connected = false;
  double last_attempt = -1e300;
  std::string device_name;
};


SpaceMouseDevice::SpaceMouseDevice(const DeviceMapping& mapping)
    : impl_(std::make_unique<Impl>(mapping)) {
#ifdef SIM_HAVE_SPNAV
  impl_->TryConnect(TeleopClockSeconds());
#endif
}


SpaceMouseDevice::~SpaceMouseDevice() {
#ifdef SIM_HAVE_SPNAV
  if (impl_->connected) spnav_close();
#endif
}


bool SpaceMouseDevice::Supported() {
#ifdef SIM_HAVE_SPNAV
  return true;
#else
  return false;
#endif
}


std::vector<TeleopAction> SpaceMouseDevice::Poll(TeleopRig* rig) {
  std::vector<TeleopAction> actions;
#ifdef SIM_HAVE_SPNAV
  Impl& impl = *impl_;
  const double now = TeleopClockSeconds();
  if (!impl.connected) {
    if (now - impl.last_attempt >= kReconnectSeconds) impl.TryConnect(now);
    if (!impl.connected) return actions;
  }
  if (impl.DaemonGone()) {
    spnav_close();
    impl.connected = false;
    impl.inputs.ReleaseAll(now, rig, &actions);
    return actions;
  }
  static const char* const kAxes[6] = {"tx", "ty", "tz", "rx", "ry", "rz"};
  spnav_event event;
  while (spnav_poll_event(&event) != 0) {
    if (event.type == SPNAV_EVENT_MOTION) {
      const int values[6] = {event.motion.x,  event.motion.y,  event.motion.z,
                             event.motion.rx, event.motion.ry, event.motion.rz};
      for (int axis = 0; axis < 6; ++axis) {
        impl.inputs.Set(kAxes[axis], std::clamp(values[axis] / kFullScale, -1.0, 1.0), now, rig,
                        &actions);
      }
    } else if (event.type == SPNAV_EVENT_BUTTON) {
      impl.inputs.Set("button" + std::to_string(event.button.bnum), event.button.press ? 1.0 : 0.0,
                      now, rig, &actions);
    }
  }
#else
  (void)rig;
#endif
  return actions;
}


DeviceStatus SpaceMouseDevice::status() const {
  DeviceStatus status;
#ifdef SIM_HAVE_SPNAV
  status.available = impl_->connected;
  status.connected = impl_->connected;
  if (!impl_->connected) {
    status.text = "no SpaceMouse: spacenavd is not running";
  } else {
    status.text = impl_->device_name.empty() ? "SpaceMouse (spacenavd)" : impl_->device_name;
  }
#else
  status.text = "no SpaceMouse: built without libspnav (install libspnav-dev and reconfigure)";
#endif
  return status;
}

}  // namespace sim::devices
