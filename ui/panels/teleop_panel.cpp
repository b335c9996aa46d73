#include "ui/panels/teleop_panel.h"

#include <cmath>
#include <numbers>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <QWidget>

#include "ui/panels/panel_widgets.h"
#include "ui/sim_worker.h"

namespace sim::ui {

namespace {

constexpr int kSliderSteps = 100;  // axis slider resolution

}  // namespace


TeleopPanel::TeleopPanel(QWidget* parent) : QDockWidget(tr("Teleop"), parent) {
  setObjectName(QStringLiteral("teleop_panel"));
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);

  mode_ = new QCheckBox(tr("Teleoperate (gizmo, keyboard, gamepad, SpaceMouse)"), body);
  mode_->setToolTip(
      tr("drag the gizmo's arrows and rings on the end-effector target; see "
         "docs/teleop.md for the keys"));
  layout->addWidget(mode_);
  connect(mode_, &QCheckBox::toggled, this, &TeleopPanel::TeleopModeToggled);

  // the active end effector and how far it is from its target
  auto* form = new QFormLayout();
  end_effector_ = new QComboBox(body);
  form->addRow(tr("End effector"), end_effector_);
  connect(end_effector_, &QComboBox::currentIndexChanged, this,
          [this](int) { emit ActiveTargetChanged(active_target()); });
  add_body_ = new QPushButton(tr("Teleoperate the selected body"), body);
  add_body_->setToolTip(
      tr("click a robot link in the viewport, then make it an end effector (its "
         "chain from the world, every joint driven)"));
  connect(add_body_, &QPushButton::clicked, this, [this] {
    if (selected_body_ >= 0) emit TeleoperateBodyRequested(selected_body_);
  });
  form->addRow(QString(), add_body_);
  error_ = new QLabel(tr("no end effector"), body);
  error_->setToolTip(tr("target versus actual pose of the end effector (the IK's error)"));
  form->addRow(tr("Pose error"), error_);
  speed_scale_ = SpinBox(0.1, 5, 1, 0.1, 1, QStringLiteral(" ×"), body);
  speed_scale_->setToolTip(
      tr("scales the mapping file's end-effector and base speeds of the "
         "keyboard, gamepad and SpaceMouse"));
  form->addRow(tr("Speed"), speed_scale_);
  connect(speed_scale_, &QDoubleSpinBox::valueChanged, this, &TeleopPanel::SpeedScaleChanged);
  layout->addLayout(form);

  // one slider per gripper or synergy, rebuilt per scene
  axes_box_ = new QWidget(body);
  axes_layout_ = new QGridLayout(axes_box_);
  axes_layout_->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(axes_box_);

  devices_ = new QLabel(tr("mouse gizmo"), body);
  devices_->setWordWrap(true);
  layout->addWidget(devices_);
  latency_ = new QLabel(body);
  latency_->setToolTip(tr("device event to the start of the step that applied it"));
  layout->addWidget(latency_);

  auto* buttons = new QHBoxLayout();
  record_ = new QPushButton(tr("Record"), body);
  record_->setToolTip(tr("reset to the initial state and record the session from there"));
  stop_ = new QPushButton(tr("Stop && Save…"), body);
  replay_ = new QPushButton(tr("Replay…"), body);
  reset_ = new QPushButton(tr("Hold"), body);
  reset_->setToolTip(tr("stop every rate and hold the robot where it is"));
  for (QPushButton* button : {record_, stop_, replay_, reset_}) buttons->addWidget(button);
  layout->addLayout(buttons);
  connect(record_, &QPushButton::clicked, this, &TeleopPanel::RecordRequested);
  connect(stop_, &QPushButton::clicked, this, &TeleopPanel::StopRecordingRequested);
  connect(replay_, &QPushButton::clicked, this, &TeleopPanel::ReplayRequested);
  connect(reset_, &QPushButton::clicked, this, &TeleopPanel::ResetTargetsRequested);

  status_ = new QLabel(body);
  status_->setWordWrap(true);
  layout->addWidget(status_);
  layout->addStretch(1);
  setWidget(body);
}


bool TeleopPanel::teleop_mode() const { return mode_->isChecked(); }
void TeleopPanel::SetTeleopMode(bool on) { mode_->setChecked(on); }
double TeleopPanel::speed_scale() const { return speed_scale_->value(); }


int TeleopPanel::active_target() const {
  const QVariant data = end_effector_->currentData();
  return data.isValid() ? data.toInt() : -1;
}


void TeleopPanel::SetActiveTarget(int target) {
  const int index = end_effector_->findData(target);
  if (index >= 0) end_effector_->setCurrentIndex(index);
}


void TeleopPanel::ShowDevices(const QString& text) { devices_->setText(text); }


void TeleopPanel::RebuildTargets(const SimSnapshot& snapshot) {
  const TeleopStatus& teleop = snapshot.teleop;
  {
    const QSignalBlocker block(end_effector_);
    end_effector_->clear();
    for (int t = 0; t < static_cast<int>(teleop.targets.size()); ++t) {
      const TeleopTargetType type = teleop.targets[t].type;
      if (type != TeleopTargetType::kEndEffector && type != TeleopTargetType::kLookAt) continue;
      end_effector_->addItem(QString::fromStdString(teleop.targets[t].name), t);
    }
  }
  axis_sliders_.clear();
  axis_targets_.clear();
  // rows of: name, Open, slider, Close
  QLayoutItem* item = nullptr;
  while ((item = axes_layout_->takeAt(0)) != nullptr) {
    if (item->widget() != nullptr) item->widget()->deleteLater();
    delete item;
  }
  int row = 0;
  for (int t = 0; t < static_cast<int>(teleop.targets.size()); ++t) {
    const TeleopTargetType type = teleop.targets[t].type;
    if (type != TeleopTargetType::kGripper && type != TeleopTargetType::kSynergy) continue;
    auto* holder = new QWidget(axes_box_);
    auto* line = new QHBoxLayout(holder);
    line->setContentsMargins(0, 0, 0, 0);
    line->addWidget(new QLabel(QString::fromStdString(teleop.targets[t].name), holder));
    auto* open = new QPushButton(tr("Open"), holder);
    auto* slider = new QSlider(Qt::Horizontal, holder);
    slider->setRange(0, kSliderSteps);
    slider->setToolTip(tr("0 open … 1 closed"));
    auto* close = new QPushButton(tr("Close"), holder);
    line->addWidget(open);
    line->addWidget(slider, 1);
    line->addWidget(close);
    axes_layout_->addWidget(holder, row++, 0);
    connect(open, &QPushButton::clicked, this, [this, t] { emit AxisRequested(t, 0.0); });
    connect(close, &QPushButton::clicked, this, [this, t] { emit AxisRequested(t, 1.0); });
    connect(slider, &QSlider::sliderMoved, this, [this, t](int value) {
      emit AxisRequested(t, static_cast<double>(value) / kSliderSteps);
    });
    axis_sliders_.push_back(slider);
    axis_targets_.push_back(t);
  }
  if (end_effector_->count() > 0) emit ActiveTargetChanged(active_target());
}


void TeleopPanel::ShowSnapshot(const SimSnapshot& snapshot) {
  const TeleopStatus& teleop = snapshot.teleop;
  std::vector<std::string> names;
  for (const TeleopTargetStatus& target : teleop.targets) names.push_back(target.name);
  if (snapshot.scene_generation != scene_generation_ || names != target_names_) {
    scene_generation_ = snapshot.scene_generation;
    target_names_ = names;
    RebuildTargets(snapshot);
  }
  selected_body_ = snapshot.selected_body;
  add_body_->setEnabled(selected_body_ >= 0 && !teleop.recording && !teleop.replaying);
  // the controls follow the scene's targets (only on a change: this runs every snapshot)
  if (teleop.available != controls_enabled_) {
    controls_enabled_ = teleop.available;
    for (QWidget* child : findChildren<QWidget*>()) {
      if (child != add_body_ && child != status_ && child->parent() == widget()) {
        child->setEnabled(controls_enabled_);
      }
    }
  }
  if (!teleop.available) {
    status_->setText(
        tr("This scene declares no teleop targets (scene `teleop`, "
           "docs/scene-format.md)."));
    return;
  }
  const int active = active_target();
  if (active >= 0 && active < static_cast<int>(teleop.targets.size()) &&
      teleop.targets[active].has_pose) {
    const TeleopTargetStatus& target = teleop.targets[active];
    error_->setText(tr("%1 mm, %2°%3")
                        .arg(1e3 * target.position_error, 0, 'f', 1)
                        .arg(target.rotation_error * 180 / std::numbers::pi, 0, 'f', 1)
                        .arg(target.saturated_joints > 0
                                 ? tr(" (%1 joints at a limit)").arg(target.saturated_joints)
                                 : QString()));
  }
  for (std::size_t k = 0; k < axis_sliders_.size(); ++k) {
    const Real axis = teleop.targets[axis_targets_[k]].axis;
    if (std::isnan(axis) || axis_sliders_[k]->isSliderDown()) continue;
    const QSignalBlocker block(axis_sliders_[k]);
    axis_sliders_[k]->setValue(static_cast<int>(std::lround(axis * kSliderSteps)));
  }
  latency_->setText(teleop.latency_samples == 0
                        ? tr("Input latency: no device input yet")
                        : tr("Input latency: %1 ms (mean %2, max %3), applied within %4 step(s)")
                              .arg(teleop.latency_last_ms, 0, 'f', 1)
                              .arg(teleop.latency_mean_ms, 0, 'f', 1)
                              .arg(teleop.latency_max_ms, 0, 'f', 1)
                              .arg(teleop.latency_max_steps));
  record_->setEnabled(!teleop.recording && !teleop.replaying);
  stop_->setEnabled(teleop.recording);
  QString state;
  if (teleop.recording) {
    state = tr("Recording: %1 actions, %2 steps")
                .arg(teleop.recorded_actions)
                .arg(teleop.recorded_steps);
  } else if (teleop.replaying) {
    state = tr("Replaying: step %1 of %2").arg(teleop.replay_step).arg(teleop.replay_steps);
  } else {
    state = teleop.engaged ? tr("Operator in control (scene script paused)")
                           : tr("Scene script in control");
  }
  if (!teleop.message.empty())
    state += QStringLiteral("\n") + QString::fromStdString(teleop.message);
  status_->setText(state);
}

}  // namespace sim::ui
