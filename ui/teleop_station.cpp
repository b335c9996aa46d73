#include "ui/teleop_station.h"

#include "ui/main_window.h"
#include "ui/panels/teleop_panel.h"
#include "ui/sim_bridge.h"
#include "ui/sim_worker.h"
#include "ui/viewport/vulkan_viewport.h"

namespace sim::ui {

TeleopStation::TeleopStation(MainWindow* window, SimBridge* bridge, VulkanViewport* viewport,
                             TeleopPanel* panel)
    : QObject(window), window_(window), bridge_(bridge), viewport_(viewport), panel_(panel) {
  connect(panel_, &TeleopPanel::TeleopModeToggled, this, [this](bool on) { SetTeleopMode(on); });
  connect(panel_, &TeleopPanel::ActiveTargetChanged, this, [this](int) { SendMode(); });
  connect(panel_, &TeleopPanel::AxisRequested, this, [this](int target, double value) {
    TeleopAction action;
    action.kind = TeleopActionKind::kSetAxis;
    action.target = target;
    action.value = value;
    Send(action);
  });
  connect(panel_, &TeleopPanel::ResetTargetsRequested, this, [this] {
    TeleopAction action;
    action.kind = TeleopActionKind::kReset;
    Send(action);
  });
  // the gizmo: the dragged pose becomes the active end effector's target
  connect(viewport_, &VulkanViewport::TeleopPoseDragged, this, [this](const Pose& target) {
    if (panel_->active_target() < 0) return;
    TeleopAction action;
    action.kind = TeleopActionKind::kSetPose;
    action.target = panel_->active_target();
    action.pose = target;
    Send(action);
  });
}


void TeleopStation::SetTeleopMode(bool on) {
  if (panel_->teleop_mode() != on) {
    panel_->SetTeleopMode(on);  // emits TeleopModeToggled, which comes back here
    return;
  }
  viewport_->SetTeleopMode(on);
  SendMode();
}


void TeleopStation::SendMode() {
  bridge_->Send(command::SetTeleopMode{panel_->teleop_mode(), panel_->active_target()});
}


void TeleopStation::Send(TeleopAction action) {
  action.stamp_seconds = TeleopClockSeconds();
  bridge_->Send(command::Teleop{action});
}


void TeleopStation::ShowSnapshot(const SimSnapshot& snapshot) { panel_->ShowSnapshot(snapshot); }

}  // namespace sim::ui
