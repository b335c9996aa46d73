// TeleopPanel: teleoperation of the scene's `teleop` targets (issue 19). A checkable teleop mode
// (the viewport's gizmo on the active end effector, the keyboard layout, the gamepad and the
// SpaceMouse feed the robot), the active end effector with its target-versus-actual pose error,
// a slider and open/close buttons per gripper or synergy, a speed scale on the devices, the input
// latency, and recording (from the initial state) and replay of sessions. Any body selected in
// the viewport can be made an end effector (a robot without a scene `teleop` section too). The
// devices' status lines come from the host (TeleopStation), which owns the devices.
#pragma once

#include <string>
#include <vector>

#include <QDockWidget>
#include <QString>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QPushButton;
class QSlider;

namespace sim::ui {

struct SimSnapshot;

class TeleopPanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit TeleopPanel(QWidget* parent = nullptr);

  bool teleop_mode() const;
  void SetTeleopMode(bool on);
  /// The active end effector's index in the model's teleop targets, or −1.
  int active_target() const;
  /// Selects the active end effector by target index (ignored when it is not one).
  void SetActiveTarget(int target);
  /// The operator's scale on the rate devices' speeds (keyboard, gamepad, SpaceMouse) [-].
  double speed_scale() const;

  /// Shows the targets, errors, latency and recording state of the snapshot.
  void ShowSnapshot(const SimSnapshot& snapshot);
  /// The devices' lines (active device, mapping file, each device's status).
  void ShowDevices(const QString& text);

 signals:
  void TeleopModeToggled(bool on);
  void ActiveTargetChanged(int target);
  void SpeedScaleChanged(double scale);
  /// A gripper or synergy axis set in the panel: target index, value in [0, 1].
  void AxisRequested(int target, double value);
  void ResetTargetsRequested();
  /// Make the body selected in the viewport or the scene tree an end effector.
  void TeleoperateBodyRequested(int body);
  void RecordRequested();
  void StopRecordingRequested();
  void ReplayRequested();

 private:
  void RebuildTargets(const SimSnapshot& snapshot);

  QCheckBox* mode_ = nullptr;
  QComboBox* end_effector_ = nullptr;
  QLabel* error_ = nullptr;
  QGridLayout* axes_layout_ = nullptr;
  QWidget* axes_box_ = nullptr;
  std::vector<QSlider*> axis_sliders_;
  std::vector<int> axis_targets_;
  QDoubleSpinBox* speed_scale_ = nullptr;
  QLabel* devices_ = nullptr;
  QLabel* latency_ = nullptr;
  QPushButton* record_ = nullptr;
  QPushButton* stop_ = nullptr;
  QPushButton* replay_ = nullptr;
  QPushButton* reset_ = nullptr;
  QLabel* status_ = nullptr;
  QPushButton* add_body_ = nullptr;
  int selected_body_ = -1;
  bool controls_enabled_ = true;  // as last set from the snapshot
  std::uint64_t scene_generation_ = ~std::uint64_t{0};
  std::vector<std::string> target_names_;  // as last built
};

}  // namespace sim::ui
