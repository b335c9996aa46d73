// TeleopStation: the studio's teleoperation wiring (GUI thread). It turns the teleop panel's
// controls, the viewport's gizmo drags and keys, and the devices into TeleopActions for the
// simulation worker (command::Teleop, stamped with the event's time), keeps the panel showing the
// worker's TeleopStatus, and runs recording to and replay from files.
#pragma once

#include <QObject>
#include <QString>

#include "engine/teleop/teleop_action.h"

namespace sim::ui {

class MainWindow;
class SimBridge;
class TeleopPanel;
class VulkanViewport;
struct SimSnapshot;

class TeleopStation : public QObject {
  Q_OBJECT

 public:
  TeleopStation(MainWindow* window, SimBridge* bridge, VulkanViewport* viewport,
                TeleopPanel* panel);

  /// Teleop mode on or off (panel, viewport and worker together).
  void SetTeleopMode(bool on);
  /// Shows the snapshot in the panel.
  void ShowSnapshot(const SimSnapshot& snapshot);

 private:
  void Send(TeleopAction action);
  void SendMode();

  MainWindow* window_;
  SimBridge* bridge_;
  VulkanViewport* viewport_;
  TeleopPanel* panel_;
};

}  // namespace sim::ui
