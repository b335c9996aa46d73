#include "ui/panels/paint_panel.h"

#include <numbers>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QWidget>

#include "ui/panels/panel_widgets.h"
#include "ui/sim_worker.h"

namespace sim::ui {

namespace {

constexpr BrushTool kTools[] = {BrushTool::kComb, BrushTool::kSetAngle, BrushTool::kSmooth,
                                BrushTool::kErase, BrushTool::kStrength};

}  // namespace


PaintPanel::PaintPanel(QWidget* parent) : QDockWidget(tr("Paint"), parent) {
  setObjectName(QStringLiteral("paint_panel"));
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);

  mode_ = new QCheckBox(tr("Paint structure fields (left drag; Alt+drag orbits)"), body);
  layout->addWidget(mode_);
  connect(mode_, &QCheckBox::toggled, this, &PaintPanel::PaintModeToggled);

  // the brush, defaults as Brush's
  const Brush defaults;
  auto* form = new QFormLayout();
  tool_ = new QComboBox(body);
  for (BrushTool tool : kTools) tool_->addItem(BrushToolName(tool));
  form->addRow(tr("Tool"), tool_);
  radius_ = SpinBox(0.001, 10, defaults.radius, 0.005, 3, tr(" m"), body);
  radius_->setToolTip(tr("brush radius on the surface"));
  form->addRow(tr("Radius"), radius_);
  opacity_ = SpinBox(0, 1, defaults.opacity, 0.05, 2, QString(), body);
  opacity_->setToolTip(tr("how far one dab moves a texel toward the tool's target"));
  form->addRow(tr("Opacity"), opacity_);
  hardness_ = SpinBox(0, 1, defaults.hardness, 0.05, 2, QString(), body);
  hardness_->setToolTip(tr("1: a hard disc; 0: a smooth falloff from the centre"));
  form->addRow(tr("Hardness"), hardness_);
  angle_ = SpinBox(-180, 180, 0, 5, 1, QStringLiteral("°"), body);
  angle_->setToolTip(tr("set angle: the grain axis, from the field's +u toward +v"));
  form->addRow(tr("Angle"), angle_);
  strength_ = SpinBox(0, 1, defaults.strength, 0.05, 2, QString(), body);
  strength_->setToolTip(tr("the grain strength that comb, set angle and strength paint"));
  form->addRow(tr("Strength"), strength_);
  layout->addLayout(form);

  auto* buttons = new QHBoxLayout();
  undo_ = new QPushButton(tr("Undo"), body);
  redo_ = new QPushButton(tr("Redo"), body);
  save_ = new QPushButton(tr("Save PNG"), body);
  save_->setToolTip(tr("write the painted fields as PNGs beside the scene and reference them"));
  for (QPushButton* button : {undo_, redo_, save_}) buttons->addWidget(button);
  layout->addLayout(buttons);
  connect(undo_, &QPushButton::clicked, this, &PaintPanel::UndoRequested);
  connect(redo_, &QPushButton::clicked, this, &PaintPanel::RedoRequested);
  connect(save_, &QPushButton::clicked, this, &PaintPanel::SaveRequested);

  status_ = new QLabel(tr("Paint on a surface that has a structure field."), body);
  status_->setWordWrap(true);
  layout->addWidget(status_);
  layout->addStretch();
  setWidget(body);
}


Brush PaintPanel::brush() const {
  Brush brush;
  brush.tool = kTools[std::max(0, tool_->currentIndex())];
  brush.radius = radius_->value();
  brush.opacity = opacity_->value();
  brush.hardness = hardness_->value();
  brush.angle = angle_->value() * std::numbers::pi / 180;
  brush.strength = strength_->value();
  return brush;
}


bool PaintPanel::SetTool(const QString& name) {
  const int index = tool_->findText(name);
  if (index < 0) return false;
  tool_->setCurrentIndex(index);
  return true;
}


void PaintPanel::SetRadius(double metres) { radius_->setValue(metres); }
void PaintPanel::SetAngleDegrees(double degrees) { angle_->setValue(degrees); }
bool PaintPanel::paint_mode() const { return mode_->isChecked(); }
void PaintPanel::SetPaintMode(bool on) { mode_->setChecked(on); }


void PaintPanel::ShowSnapshot(const SimSnapshot& snapshot) {
  const PaintStatus& paint = snapshot.paint;
  undo_->setEnabled(paint.undo_depth > 0);
  redo_->setEnabled(paint.redo_depth > 0);
  save_->setEnabled(paint.unsaved_fields > 0);
  QString text = QString::fromStdString(paint.message);
  if (paint.unsaved_fields > 0) {
    text += (text.isEmpty() ? QString() : QStringLiteral("\n")) +
            tr("%n painted field(s) not saved", nullptr, paint.unsaved_fields);
  }
  status_->setText(text.isEmpty() ? tr("Paint on a surface that has a structure field.") : text);
}

}  // namespace sim::ui
