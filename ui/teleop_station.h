// TeleopStation: the studio's teleoperation wiring (GUI thread). It turns the teleop panel's
// controls, the viewport's gizmo drags and keys, the gamepad (SDL2) and the SpaceMouse (libspnav)
// into TeleopActions for the simulation worker (command::Teleop, stamped with the event's time),
// through one action layer (devices::TeleopRig) and the mapping file (docs/teleop.md); keeps the
// panel showing the worker's TeleopStatus and the devices' status; and runs recording to and
// replay from files. The devices poll every kPollMilliseconds while teleop mode is on; the move
// and rotate intents are in the camera's heading frame (x away from the viewer along the ground,
// z up), so "forward" on a stick or key goes into the picture.
#pragma once

#include <cstdint>
#include <memory>

#include <QObject>
#include <QString>

#include "engine/teleop/teleop_action.h"
#include "ui/devices/action_mapping.h"

class QTimer;

namespace sim::devices {
class GamepadDevice;
class KeyboardTeleop;
class SpaceMouseDevice;
class TeleopRig;
}  // namespace sim::devices

namespace sim::ui {

class MainWindow;
class SimBridge;
class TeleopPanel;
class VulkanViewport;
struct SimSnapshot;

class TeleopStation : public QObject {
  Q_OBJECT

 public:
  /// Device poll period while teleop mode is on [ms] (250 Hz: well inside one 120 Hz step).
  static constexpr int kPollMilliseconds = 4;

  TeleopStation(MainWindow* window, SimBridge* bridge, VulkanViewport* viewport,
                TeleopPanel* panel);
  ~TeleopStation() override;

  /// Teleop mode on or off (panel, viewport, devices and worker together).
  void SetTeleopMode(bool on);
  /// Shows the snapshot in the panel; a new scene rebuilds the action layer for its targets.
  void ShowSnapshot(const SimSnapshot& snapshot);

  /// Makes `body` an end effector of the running scene and, once it is, the active one in
  /// teleop mode (the panel's "Teleoperate the selected body").
  void TeleoperateBody(int body);
  /// Resets the scene and records the session from its initial state (the panel's Record).
  void StartRecording();
  /// Stops recording and writes the recording to `path` (docs/teleop-recording.md).
  void StopRecording(const QString& path);
  /// Reads the recording at `path`, opens its scene with its solver and overrides and replays it
  /// to its end, where the final state hash is compared (the panel shows the outcome). False
  /// with the located errors in the diagnostics panel when the file is bad.
  bool Replay(const QString& path);

 private:
  void Send(TeleopAction action);
  void SendAll(const std::vector<TeleopAction>& actions);
  void SendMode();
  void PollDevices();
  bool OnKey(int key, bool pressed, bool auto_repeat);
  void UpdateFrame();
  void ShowDevices();
  QString scene_path_;            // the running scene's file (from the snapshot)
  std::size_t target_count_ = 0;  // the model's teleop targets the rig was built for
  int pending_body_ = -1;         // a body asked to become an end effector, not one yet

  MainWindow* window_;
  SimBridge* bridge_;
  VulkanViewport* viewport_;
  TeleopPanel* panel_;
  QTimer* poll_timer_;
  devices::ActionMapping mapping_;
  QString mapping_error_;
  std::unique_ptr<devices::TeleopRig> rig_;
  std::unique_ptr<devices::KeyboardTeleop> keyboard_;
  std::unique_ptr<devices::GamepadDevice> gamepad_;        // created at the first teleop mode
  std::unique_ptr<devices::SpaceMouseDevice> spacemouse_;  // likewise
  std::uint64_t scene_generation_ = ~std::uint64_t{0};
};

}  // namespace sim::ui
