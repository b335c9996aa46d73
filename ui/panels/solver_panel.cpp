// SolverPanel: live solver settings, generated from the descriptor tables.
#include "ui/panels/solver_panel.h"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "engine/solvers/solver_registry.h"
#include "ui/sim_worker.h"

namespace sim::ui {

namespace {

// one string holding every shown value, to notice when the worker changed one
std::string Signature(const SolverOptions& options) {
  std::string signature;
  for (const auto& [path, text] : SettingTexts(options)) signature += path + "=" + text + "|";
  return signature;
}


// the setting's label as Qt text
QString Label(const SettingDescriptor& d) {
  return QString::fromUtf8(d.label.data(), static_cast<int>(d.label.size()));
}


// decimals that show the default and the range's ends of a real setting
int Decimals(const SettingDescriptor& d) {
  const double smallest = std::min({d.default_value > 0 ? d.default_value : 1.0,
                                    d.min > 0 ? d.min : 1.0, d.max > 0 ? d.max : 1.0});
  return std::clamp(static_cast<int>(std::ceil(-std::log10(smallest))) + 3, 2, 10);
}


void ShowValue(QWidget* widget, const SettingDescriptor& d, double value) {
  const QSignalBlocker blocker(widget);
  switch (d.kind) {
    case SettingKind::kReal:
      static_cast<QDoubleSpinBox*>(widget)->setValue(value);
      break;
    case SettingKind::kInt:
      static_cast<QSpinBox*>(widget)->setValue(static_cast<int>(value));
      break;
    case SettingKind::kBool:
      static_cast<QCheckBox*>(widget)->setChecked(value != 0);
      break;
    case SettingKind::kChoice:
      static_cast<QComboBox*>(widget)->setCurrentIndex(static_cast<int>(value));
      break;
  }
}

}  // namespace


SolverPanel::SolverPanel(QWidget* parent) : QDockWidget(tr("Solver"), parent) {
  setObjectName(QStringLiteral("SolverPanel"));
  form_ = new QWidget(this);
  auto* column = new QVBoxLayout(form_);
  auto* top = new QWidget(form_);
  auto* layout = new QFormLayout(top);
  layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  column->addWidget(top);

  lane_label_ = new QLabel(tr("Lane"), top);
  lane_ = new QComboBox(top);
  lane_->setToolTip(tr("Which compared lane an edit applies to"));
  layout->addRow(lane_label_, lane_);

  // the registered solvers; switching rebuilds the solver's section from its table
  solver_ = new QComboBox(top);
  for (const SolverInfo* info : SolverRegistry()) {
    const QString name = QString::fromLatin1(info->name.data(), info->name.size());
    solver_->addItem(name, name);
    solver_->setItemData(solver_->count() - 1,
                         QString::fromUtf8(info->summary.data(), info->summary.size()),
                         Qt::ToolTipRole);
  }
  layout->addRow(tr("Solver"), solver_);
  connect(solver_, &QComboBox::activated, this,
          [this] { Emit("name", solver_->currentData().toString()); });

  // the step's settings, then the steps per published frame (the worker's, not the model's)
  for (const SettingDescriptor& d : StepSettingsTable()) {
    step_widgets_.push_back(AddSettingWidget(std::string(d.name), d, top, layout));
  }
  substeps_ = new QSpinBox(top);
  substeps_->setRange(1, 1000);
  substeps_->setKeyboardTracking(false);
  substeps_->setToolTip(tr("Steps taken between two published frames"));
  layout->addRow(tr("Steps per frame"), substeps_);
  connect(substeps_, &QSpinBox::valueChanged, this, &SolverPanel::SubstepsChanged);

  solver_box_ = new QGroupBox(form_);
  new QVBoxLayout(solver_box_);
  column->addWidget(solver_box_);
  column->addStretch(1);
  BuildSolverSection(SolverRegistry().empty() ? "" : std::string(SolverRegistry()[0]->name));

  // another lane selected: show its settings
  connect(lane_, &QComboBox::activated, this, [this] { shown_signature_.clear(); });

  auto* scroll = new QScrollArea(this);
  scroll->setWidget(form_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  setWidget(scroll);
  form_->setEnabled(false);
  lane_label_->hide();
  lane_->hide();
}


SolverPanel::SettingWidget SolverPanel::AddSettingWidget(const std::string& path,
                                                         const SettingDescriptor& d,
                                                         QWidget* parent, QFormLayout* layout) {
  const QString help = QString::fromUtf8(d.help.data(), static_cast<int>(d.help.size()));
  const QString unit = QString::fromUtf8(d.unit.data(), static_cast<int>(d.unit.size()));
  QWidget* widget = nullptr;
  switch (d.kind) {
    case SettingKind::kReal: {
      auto* spin = new QDoubleSpinBox(parent);
      spin->setDecimals(Decimals(d));
      spin->setRange(d.min_exclusive ? d.min + std::pow(10.0, -spin->decimals()) : d.min, d.max);
      spin->setSingleStep(
          std::max(std::abs(d.default_value) / 10, std::pow(10.0, -spin->decimals())));
      if (!unit.isEmpty()) spin->setSuffix(QStringLiteral(" ") + unit);
      spin->setKeyboardTracking(false);
      connect(spin, &QDoubleSpinBox::valueChanged, this,
              [this, path](double v) { Emit(path, QString::number(v, 'g', 12)); });
      widget = spin;
      break;
    }
    case SettingKind::kInt: {
      auto* spin = new QSpinBox(parent);
      spin->setRange(static_cast<int>(d.min), static_cast<int>(d.max));
      if (!unit.isEmpty()) spin->setSuffix(QStringLiteral(" ") + unit);
      spin->setKeyboardTracking(false);
      connect(spin, &QSpinBox::valueChanged, this,
              [this, path](int v) { Emit(path, QString::number(v)); });
      widget = spin;
      break;
    }
    case SettingKind::kBool: {
      auto* check = new QCheckBox(Label(d), parent);
      connect(check, &QCheckBox::clicked, this, [this, path](bool v) {
        Emit(path, v ? QStringLiteral("true") : QStringLiteral("false"));
      });
      widget = check;
      break;
    }
    case SettingKind::kChoice: {
      auto* combo = new QComboBox(parent);
      for (std::string_view choice : d.choices) {
        const QString name = QString::fromLatin1(choice.data(), static_cast<int>(choice.size()));
        combo->addItem(name, name);
      }
      connect(combo, &QComboBox::activated, this,
              [this, path, combo] { Emit(path, combo->currentData().toString()); });
      widget = combo;
      break;
    }
  }
  widget->setToolTip(help);
  if (d.kind == SettingKind::kBool) {
    layout->addRow(widget);
  } else {
    layout->addRow(Label(d), widget);
  }
  ShowValue(widget, d, d.default_value);
  return {path, &d, widget};
}


void SolverPanel::BuildSolverSection(const std::string& solver) {
  if (solver == section_solver_ && solver_section_ != nullptr) return;
  section_solver_ = solver;
  solver_widgets_.clear();
  delete solver_section_;
  solver_section_ = new QWidget(solver_box_);
  auto* layout = new QFormLayout(solver_section_);
  layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  solver_box_->layout()->addWidget(solver_section_);
  solver_box_->setTitle(tr("%1 settings").arg(QString::fromStdString(solver)));
  const SolverInfo* info = FindSolver(solver);
  if (info == nullptr) return;
  for (const SettingDescriptor& d : info->settings()) {
    solver_widgets_.push_back(AddSettingWidget(std::string(d.name), d, solver_section_, layout));
  }
  // a section built after the panel was shown is hidden until shown itself
  solver_section_->show();
}


void SolverPanel::Emit(const std::string& path, const QString& value) {
  emit OverrideRequested(SelectedLane(), QString::fromStdString("solver." + path + "=") + value);
  // show the worker's answer once it has applied (or rejected) the edit
  shown_signature_.clear();
}


int SolverPanel::SelectedLane() const {
  return lane_->isVisible() ? lane_->currentData().toInt() : -1;
}


void SolverPanel::ShowSnapshot(const SimSnapshot& snapshot) {
  form_->setEnabled(!snapshot.lanes.empty());
  if (snapshot.lanes.empty()) return;
  const int lanes = static_cast<int>(snapshot.lanes.size());
  // lane selector: all lanes, or one of them
  if (snapshot.scene_generation != shown_generation_ || lanes != shown_lane_count_) {
    const QSignalBlocker blocker(lane_);
    lane_->clear();
    lane_->addItem(tr("All lanes"), -1);
    for (int k = 0; k < lanes; ++k) {
      lane_->addItem(QString::fromStdString(snapshot.lanes[k].label), k);
    }
    lane_label_->setVisible(lanes > 1);
    lane_->setVisible(lanes > 1);
    shown_generation_ = snapshot.scene_generation;
    shown_lane_count_ = lanes;
    shown_signature_.clear();
  }
  const int lane = std::max(0, SelectedLane());
  const SolverOptions& settings = snapshot.lanes[lane].settings;
  const std::string signature = Signature(settings);
  if (signature != shown_signature_ || lane != shown_lane_) {
    ShowSettings(settings);
    shown_signature_ = signature;
    shown_lane_ = lane;
  }
  if (snapshot.substeps != shown_substeps_) {
    const QSignalBlocker blocker(substeps_);
    substeps_->setValue(snapshot.substeps);
    shown_substeps_ = snapshot.substeps;
  }
}


void SolverPanel::ShowSettings(const SolverOptions& options) {
  {
    const QSignalBlocker blocker(solver_);
    solver_->setCurrentIndex(solver_->findData(QString::fromStdString(options.name)));
  }
  for (int i = 0; i < static_cast<int>(step_widgets_.size()); ++i) {
    ShowValue(step_widgets_[i].widget, *step_widgets_[i].descriptor, StepSettingValue(options, i));
  }
  BuildSolverSection(options.name);
  if (const SettingValues* values = options.Find(options.name)) {
    for (int i = 0; i < values->size() && i < static_cast<int>(solver_widgets_.size()); ++i) {
      ShowValue(solver_widgets_[i].widget, *solver_widgets_[i].descriptor, (*values)[i]);
    }
  }
}

}  // namespace sim::ui
