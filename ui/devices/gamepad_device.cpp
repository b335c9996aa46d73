#include "ui/devices/gamepad_device.h"

#include <SDL.h>

#include <algorithm>
#include <filesystem>

#include "ui/devices/device_inputs.h"
#include "ui/devices/teleop_rig.h"

namespace sim::devices {

namespace {

// an axis in SDL's int16 range as an input value: sticks in [−1, 1], triggers in [0, 1]
double AxisValue(Sint16 value) { return std::clamp(value / 32767.0, -1.0, 1.0); }

// SDL's name of an axis or button ("" for one SDL does not name)
std::string AxisName(int axis) {
  const char* name = SDL_GameControllerGetStringForAxis(static_cast<SDL_GameControllerAxis>(axis));
  return name != nullptr ? name : "";
}
std::string ButtonName(int button) {
  const char* name =
      SDL_GameControllerGetStringForButton(static_cast<SDL_GameControllerButton>(button));
  return name != nullptr ? name : "";
}

}  // namespace


std::string GameControllerDbPath() { return UserConfigDir() + "/gamecontrollerdb.txt"; }


struct GamepadDevice::Impl {
  explicit Impl(const DeviceMapping& mapping) : inputs(DeviceKind::kGamepad, mapping) {}

  // opens the first game controller connected when none is open; its axes' current values
  // become the inputs (a stick already held when plugged in drives at once; buttons wait for
  // their next press, so plugging in never toggles)
  void OpenFirst(SDL_JoystickID skip, double stamp_seconds, TeleopRig* rig,
                 std::vector<TeleopAction>* actions) {
    if (controller != nullptr) return;
    for (int index = 0; index < SDL_NumJoysticks(); ++index) {
      if (!SDL_IsGameController(index) || SDL_JoystickGetDeviceInstanceID(index) == skip) {
        continue;
      }
      controller = SDL_GameControllerOpen(index);
      if (controller == nullptr) continue;
      instance = SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(controller));
      const char* controller_name = SDL_GameControllerName(controller);
      name = controller_name != nullptr ? controller_name : "unnamed game controller";
      for (int axis = 0; axis < SDL_CONTROLLER_AXIS_MAX; ++axis) {
        const auto sdl_axis = static_cast<SDL_GameControllerAxis>(axis);
        inputs.Set(AxisName(axis), AxisValue(SDL_GameControllerGetAxis(controller, sdl_axis)),
                   stamp_seconds, rig, actions);
      }
      return;
    }
  }

  // the open controller is gone: its held inputs stop the rates they held
  void Close(double stamp_seconds, TeleopRig* rig, std::vector<TeleopAction>* actions) {
    if (controller == nullptr) return;
    SDL_GameControllerClose(controller);
    controller = nullptr;
    instance = -1;
    name.clear();
    inputs.ReleaseAll(stamp_seconds, rig, actions);
  }

  DeviceInputs inputs;
  bool initialised = false;
  std::string init_error;
  int user_mappings = 0;
  std::string user_db_note;
  SDL_GameController* controller = nullptr;
  SDL_JoystickID instance = -1;
  std::string name;
};


GamepadDevice::GamepadDevice(const DeviceMapping& mapping, const std::string& user_db_path)
    : impl_(std::make_unique<Impl>(mapping)) {
  // no SIGINT/SIGTERM handlers of SDL's in the studio's process; events while the studio's own
  // window (not SDL's) has the focus
  SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
  SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
  if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0) {
    impl_->init_error = SDL_GetError();
    return;
  }
  impl_->initialised = true;
  std::error_code error;
  if (!user_db_path.empty() && std::filesystem::is_regular_file(user_db_path, error)) {
    const int added = SDL_GameControllerAddMappingsFromFile(user_db_path.c_str());
    if (added < 0) {
      impl_->user_db_note = user_db_path + ": " + SDL_GetError();
    } else {
      impl_->user_mappings = added;
    }
  }
}


GamepadDevice::~GamepadDevice() {
  if (!impl_->initialised) return;
  if (impl_->controller != nullptr) SDL_GameControllerClose(impl_->controller);
  SDL_QuitSubSystem(SDL_INIT_GAMECONTROLLER);
}


std::vector<TeleopAction> GamepadDevice::Poll(TeleopRig* rig) {
  std::vector<TeleopAction> actions;
  Impl& impl = *impl_;
  if (!impl.initialised) return actions;
  // SDL stamps events in ms since its start: the event's age puts it on the teleop clock
  const double now = TeleopClockSeconds();
  const Uint32 ticks = SDL_GetTicks();
  SDL_Event event;
  while (SDL_PollEvent(&event) == 1) {
    const double stamp = now - static_cast<Uint32>(ticks - event.common.timestamp) * 1e-3;
    switch (event.type) {
      case SDL_CONTROLLERDEVICEADDED:
        impl.OpenFirst(-1, stamp, rig, &actions);
        break;
      case SDL_CONTROLLERDEVICEREMOVED:
        if (event.cdevice.which != impl.instance) break;
        impl.Close(stamp, rig, &actions);
        impl.OpenFirst(event.cdevice.which, stamp, rig, &actions);
        break;
      case SDL_CONTROLLERAXISMOTION:
        if (event.caxis.which != impl.instance) break;
        impl.inputs.Set(AxisName(event.caxis.axis), AxisValue(event.caxis.value), stamp, rig,
                        &actions);
        break;
      case SDL_CONTROLLERBUTTONDOWN:
      case SDL_CONTROLLERBUTTONUP:
        if (event.cbutton.which != impl.instance) break;
        impl.inputs.Set(ButtonName(event.cbutton.button),
                        event.cbutton.state == SDL_PRESSED ? 1.0 : 0.0, stamp, rig, &actions);
        break;
      default:
        break;
    }
  }
  return actions;
}


DeviceStatus GamepadDevice::status() const {
  DeviceStatus status;
  status.available = impl_->initialised;
  status.connected = impl_->controller != nullptr;
  if (!impl_->initialised) {
    status.text = "gamepads unavailable: SDL: " + impl_->init_error;
  } else if (status.connected) {
    status.text = impl_->name;
  } else {
    status.text = "no gamepad connected";
  }
  if (!impl_->user_db_note.empty()) status.text += " (" + impl_->user_db_note + ")";
  return status;
}


int GamepadDevice::user_mappings() const { return impl_->user_mappings; }

}  // namespace sim::devices
