#include "ui/teleop_station.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QTimer>

#include "engine/io/teleop_recording_file.h"
#include "ui/panels/diagnostics_panel.h"

#include "ui/devices/gamepad_device.h"
#include "ui/devices/keyboard_layout.h"
#include "ui/devices/spacemouse_device.h"
#include "ui/devices/teleop_rig.h"
#include "ui/main_window.h"
#include "ui/panels/help_panel.h"
#include "ui/panels/teleop_panel.h"
#include "ui/sim_bridge.h"
#include "ui/sim_worker.h"
#include "ui/viewport/pick_controller.h"
#include "ui/viewport/vulkan_viewport.h"

namespace sim::ui {

namespace {

// the keyboard_layout.h name of a Qt key, or "" for keys teleop does not know
std::string KeyName(int key) {
  if (key >= Qt::Key_A && key <= Qt::Key_Z) return std::string(1, char('a' + (key - Qt::Key_A)));
  if (key >= Qt::Key_0 && key <= Qt::Key_9) return std::string(1, char('0' + (key - Qt::Key_0)));
  switch (key) {
    case Qt::Key_BracketLeft:
      return "bracketleft";
    case Qt::Key_BracketRight:
      return "bracketright";
    case Qt::Key_Semicolon:
      return "semicolon";
    case Qt::Key_Apostrophe:
      return "apostrophe";
    case Qt::Key_Comma:
      return "comma";
    case Qt::Key_Period:
      return "period";
    case Qt::Key_Slash:
      return "slash";
    case Qt::Key_Backslash:
      return "backslash";
    case Qt::Key_QuoteLeft:
      return "grave";
    case Qt::Key_Up:
      return "up";
    case Qt::Key_Down:
      return "down";
    case Qt::Key_Left:
      return "left";
    case Qt::Key_PageUp:
      return "pageup";
    case Qt::Key_PageDown:
      return "pagedown";
    case Qt::Key_Insert:
      return "insert";
    case Qt::Key_Delete:
      return "delete";
    case Qt::Key_End:
      return "end";
    case Qt::Key_Tab:
      return "tab";
    case Qt::Key_Return:
      return "return";
    default:
      return "";
  }
}

}  // namespace


TeleopStation::TeleopStation(MainWindow* window, SimBridge* bridge, VulkanViewport* viewport,
                             TeleopPanel* panel)
    : QObject(window),
      window_(window),
      bridge_(bridge),
      viewport_(viewport),
      panel_(panel),
      poll_timer_(new QTimer(this)) {
  // the mapping: the user's copy when there is one, else the shipped default
  Expected<devices::ActionMapping> mapping =
      devices::LoadActionMapping(devices::ActionMappingPath());
  if (mapping.ok()) {
    mapping_ = mapping.value();
  } else {
    mapping_error_ = QString::fromStdString(mapping.diagnostics().Format());
  }
  keyboard_ =
      std::make_unique<devices::KeyboardTeleop>(mapping_.device(devices::DeviceKind::kKeyboard));
  // the keyboard's bindings in the help (F1)
  std::vector<std::pair<QString, QString>> keys;
  for (const devices::Binding& binding : mapping_.device(devices::DeviceKind::kKeyboard).bindings) {
    QString what = QString::fromLatin1(devices::IntentName(binding.intent));
    if (!devices::IsButtonIntent(binding.intent)) what += binding.scale < 0 ? " −" : " +";
    keys.emplace_back(QString::fromStdString(binding.input).toUpper(), what + tr(" (teleop mode)"));
  }
  window_->help_panel()->SetTeleopKeys(std::move(keys));

  connect(panel_, &TeleopPanel::TeleopModeToggled, this, [this](bool on) { SetTeleopMode(on); });
  connect(panel_, &TeleopPanel::ActiveTargetChanged, this, [this](int target) {
    if (rig_ != nullptr) {
      std::vector<TeleopAction> actions;
      rig_->Select(target, TeleopClockSeconds(), &actions);
      SendAll(actions);
    }
    SendMode();
  });
  connect(panel_, &TeleopPanel::SpeedScaleChanged, this, [this](double scale) {
    if (rig_ != nullptr) rig_->SetSpeedScale(scale);
  });
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
  connect(panel_, &TeleopPanel::TeleoperateBodyRequested, this, &TeleopStation::TeleoperateBody);
  connect(panel_, &TeleopPanel::RecordRequested, this, &TeleopStation::StartRecording);
  connect(panel_, &TeleopPanel::StopRecordingRequested, this, [this] {
    const QFileInfo scene(scene_path_);
    const QString path = QFileDialog::getSaveFileName(
        window_, tr("Save Teleop Recording"),
        scene.dir().filePath(scene.completeBaseName() + QStringLiteral(".teleop.json")),
        tr("Teleop recordings (*.json)"));
    // a cancelled dialog keeps recording
    if (!path.isEmpty()) StopRecording(path);
  });
  connect(panel_, &TeleopPanel::ReplayRequested, this, [this] {
    const QString path = QFileDialog::getOpenFileName(window_, tr("Replay Teleop Recording"),
                                                      QFileInfo(scene_path_).absolutePath(),
                                                      tr("Teleop recordings (*.json)"));
    if (!path.isEmpty()) Replay(path);
  });
  viewport_->SetTeleopKeyFilter(
      [this](int key, bool pressed, bool auto_repeat) { return OnKey(key, pressed, auto_repeat); });
  poll_timer_->setInterval(kPollMilliseconds);
  connect(poll_timer_, &QTimer::timeout, this, &TeleopStation::PollDevices);
}


TeleopStation::~TeleopStation() = default;


void TeleopStation::SetTeleopMode(bool on) {
  if (panel_->teleop_mode() != on) {
    panel_->SetTeleopMode(on);  // emits TeleopModeToggled, which comes back here
    return;
  }
  if (on && gamepad_ == nullptr) {
    gamepad_ =
        std::make_unique<devices::GamepadDevice>(mapping_.device(devices::DeviceKind::kGamepad));
    spacemouse_ = std::make_unique<devices::SpaceMouseDevice>(
        mapping_.device(devices::DeviceKind::kSpaceMouse));
  }
  if (!on && rig_ != nullptr) {
    // nothing held stays held when teleop mode ends
    SendAll(keyboard_->ReleaseAll(rig_.get()));
    std::vector<TeleopAction> actions;
    for (devices::DeviceKind kind :
         {devices::DeviceKind::kGamepad, devices::DeviceKind::kSpaceMouse}) {
      rig_->ReleaseDevice(kind, TeleopClockSeconds(), &actions);
    }
    SendAll(actions);
  }
  if (on) {
    poll_timer_->start();
  } else {
    poll_timer_->stop();
  }
  viewport_->SetTeleopMode(on);
  SendMode();
  ShowDevices();
}


void TeleopStation::SendMode() {
  bridge_->Send(command::SetTeleopMode{panel_->teleop_mode(), panel_->active_target()});
}


void TeleopStation::Send(TeleopAction action) {
  if (action.stamp_seconds == 0) action.stamp_seconds = TeleopClockSeconds();
  bridge_->Send(command::Teleop{action});
}


void TeleopStation::SendAll(const std::vector<TeleopAction>& actions) {
  for (const TeleopAction& action : actions) Send(action);
  // the keyboard or a device may have switched the active end effector
  if (rig_ != nullptr && rig_->active_end_effector() != panel_->active_target()) {
    panel_->SetActiveTarget(rig_->active_end_effector());
  }
}


void TeleopStation::UpdateFrame() {
  // the camera's heading frame: x along the view projected onto the ground, z up
  if (rig_ == nullptr) return;
  const std::array<float, 3>& up_f = viewport_->LatestFrame()->up;
  const Vec3 up = Vec3(up_f[0], up_f[1], up_f[2]).normalized();
  Vec3 forward = ViewDirection(viewport_->camera());
  forward -= forward.dot(up) * up;
  if (forward.norm() < 1e-6) return;  // looking straight down: keep the last frame
  forward.normalize();
  Mat3 R;
  R.col(0) = forward;
  R.col(1) = up.cross(forward);
  R.col(2) = up;
  rig_->SetFrame(Quat(R));
}


bool TeleopStation::OnKey(int key, bool pressed, bool auto_repeat) {
  if (rig_ == nullptr) return false;
  if (key == 0) {  // focus lost: every key up
    SendAll(keyboard_->ReleaseAll(rig_.get()));
    return true;
  }
  const std::string name = KeyName(key);
  if (name.empty() || !keyboard_->Handles(name)) return false;
  if (auto_repeat) return true;
  UpdateFrame();
  SendAll(pressed ? keyboard_->KeyPressed(name, rig_.get())
                  : keyboard_->KeyReleased(name, rig_.get()));
  return true;
}


void TeleopStation::PollDevices() {
  if (rig_ == nullptr) return;
  UpdateFrame();
  if (gamepad_ != nullptr) SendAll(gamepad_->Poll(rig_.get()));
  if (spacemouse_ != nullptr) SendAll(spacemouse_->Poll(rig_.get()));
}


void TeleopStation::ShowDevices() {
  QStringList lines;
  lines << tr("Mapping: %1")
               .arg(mapping_error_.isEmpty() ? QString::fromStdString(mapping_.source)
                                             : tr("not loaded (%1)").arg(mapping_error_.trimmed()));
  lines << tr(
      "Mouse: drag the gizmo; keyboard: WASD QE move, IJKL UO turn, C gripper (see "
      "docs/teleop.md)");
  if (gamepad_ != nullptr) {
    lines << tr("Gamepad: %1").arg(QString::fromStdString(gamepad_->status().text));
  }
  if (spacemouse_ != nullptr) {
    lines << tr("SpaceMouse: %1").arg(QString::fromStdString(spacemouse_->status().text));
  }
  panel_->ShowDevices(lines.join(QLatin1Char('\n')));
}


void TeleopStation::TeleoperateBody(int body) {
  pending_body_ = body;
  bridge_->Send(command::TeleoperateBody{body});
}


void TeleopStation::StartRecording() { bridge_->Send(command::StartRecording{}); }


void TeleopStation::StopRecording(const QString& path) {
  bridge_->Send(command::StopRecording{path.toStdString()});
}


bool TeleopStation::Replay(const QString& path) {
  Expected<io::TeleopRecordingFile> file = io::ReadTeleopRecording(path.toStdString());
  if (!file.ok()) {
    window_->diagnostics_panel()->AppendDiagnostics(file.diagnostics().items());
    window_->diagnostics_panel()->show();
    return false;
  }
  // once its scene is loaded: its solver and overrides, then the replay from the initial state
  auto recording = std::make_shared<TeleopRecording>(file.value().recording);
  auto connection = std::make_shared<QMetaObject::Connection>();
  *connection =
      connect(window_, &MainWindow::SceneLoadFinished, this,
              [this, recording, connection](bool ok, const QString&) {
                disconnect(*connection);
                if (!ok) return;
                if (!recording->solver.empty()) {
                  bridge_->Send(command::SetOverride{-1, "solver.name=" + recording->solver});
                }
                for (const std::string& assignment : recording->overrides) {
                  bridge_->Send(command::SetOverride{-1, assignment});
                }
                bridge_->Send(command::Replay{*recording});
              });
  window_->OpenScene(QString::fromStdString(file.value().scene_file));
  return true;
}


void TeleopStation::ShowSnapshot(const SimSnapshot& snapshot) {
  scene_path_ = QString::fromStdString(snapshot.scene_path);
  const std::size_t targets = snapshot.model ? snapshot.model->teleop_targets.size() : 0;
  if (snapshot.model != nullptr &&
      (snapshot.scene_generation != scene_generation_ || targets != target_count_)) {
    if (snapshot.scene_generation != scene_generation_) pending_body_ = -1;
    scene_generation_ = snapshot.scene_generation;
    target_count_ = targets;
    rig_ = std::make_unique<devices::TeleopRig>(snapshot.model->teleop_targets);
    rig_->SetSpeedScale(panel_->speed_scale());
    keyboard_ =
        std::make_unique<devices::KeyboardTeleop>(mapping_.device(devices::DeviceKind::kKeyboard));
  }
  panel_->ShowSnapshot(snapshot);
  // a body just made an end effector becomes the active one, in teleop mode
  if (pending_body_ >= 0 && snapshot.model != nullptr) {
    const std::vector<TeleopTarget>& list = snapshot.model->teleop_targets;
    for (int t = 0; t < static_cast<int>(list.size()); ++t) {
      if (list[t].type != TeleopTargetType::kEndEffector || list[t].tip_body != pending_body_) {
        continue;
      }
      pending_body_ = -1;
      panel_->SetActiveTarget(t);
      SetTeleopMode(true);
      break;
    }
  }
  // the devices come and go (hot-plug): their lines follow at the snapshot rate
  if (panel_->teleop_mode()) ShowDevices();
}

}  // namespace sim::ui
