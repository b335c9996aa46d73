// SolverPanel: live solver settings.
#include "ui/panels/solver_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "engine/solvers/solver.h"
#include "ui/sim_worker.h"

namespace sim::ui {

namespace {

// the values every settings field can take, in the order of the enums (model.h)
const char* const kLinearSolvers[] = {"pcr", "pcg", "jacobi", "gs", "direct"};
const char* const kLinearSolverTitles[] = {"PCR (conjugate residual)", "PCG (conjugate gradient)",
                                           "Jacobi", "Gauss-Seidel", "Direct (LDLᵀ)"};
const char* const kNcpFunctions[] = {"fb", "min"};
const char* const kNcpTitles[] = {"Fischer-Burmeister", "min-map"};
const char* const kPreconditioners[] = {"effective_mass", "identity", "dt2"};
const char* const kPreconditionerTitles[] = {"effective mass", "identity (r = 1)", "r = Δt²"};

// one string holding every shown field, to notice when the worker changed one
std::string Signature(const SolverSettings& s) {
  return s.name + "|" + std::to_string(s.dt) + "|" + std::to_string(s.newton_iterations) + "|" +
         std::to_string(s.linear_iterations) + "|" +
         std::to_string(static_cast<int>(s.linear_solver)) + "|" +
         std::to_string(static_cast<int>(s.ncp)) + "|" +
         std::to_string(static_cast<int>(s.preconditioner)) + "|" + std::to_string(s.damping) +
         "|" + std::to_string(s.line_search) + std::to_string(s.geometric_stiffness) +
         std::to_string(s.warm_start);
}

QComboBox* MakeCombo(const char* const* values, const char* const* titles, int count,
                     QWidget* parent) {
  auto* combo = new QComboBox(parent);
  for (int i = 0; i < count; ++i) {
    combo->addItem(QString::fromUtf8(titles[i]), QString::fromLatin1(values[i]));
  }
  return combo;
}

QString Bool(bool value) { return value ? QStringLiteral("true") : QStringLiteral("false"); }

}  // namespace


SolverPanel::SolverPanel(QWidget* parent) : QDockWidget(tr("Solver"), parent) {
  setObjectName(QStringLiteral("SolverPanel"));
  form_ = new QWidget(this);
  auto* layout = new QFormLayout(form_);
  layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

  lane_label_ = new QLabel(tr("Lane"), form_);
  lane_ = new QComboBox(form_);
  lane_->setToolTip(tr("Which compared lane an edit applies to"));
  layout->addRow(lane_label_, lane_);

  solver_ = new QComboBox(form_);
  for (const std::string& name : AvailableSolvers()) {
    solver_->addItem(QString::fromStdString(name), QString::fromStdString(name));
  }
  layout->addRow(tr("Solver"), solver_);

  newton_iterations_ = new QSpinBox(form_);
  newton_iterations_->setRange(1, 500);
  newton_iterations_->setToolTip(tr("Outer (Newton) iterations per step; the paper uses 4-8"));
  layout->addRow(tr("Newton iterations"), newton_iterations_);

  linear_iterations_ = new QSpinBox(form_);
  linear_iterations_->setRange(1, 5000);
  linear_iterations_->setToolTip(tr("Inner iterations per Newton iteration; the paper: 10-80"));
  layout->addRow(tr("Linear iterations"), linear_iterations_);

  linear_solver_ = MakeCombo(kLinearSolvers, kLinearSolverTitles, 5, form_);
  layout->addRow(tr("Linear solver"), linear_solver_);
  ncp_ = MakeCombo(kNcpFunctions, kNcpTitles, 2, form_);
  layout->addRow(tr("NCP function"), ncp_);
  preconditioner_ = MakeCombo(kPreconditioners, kPreconditionerTitles, 3, form_);
  preconditioner_->setToolTip(tr("Complementarity preconditioner r of the unilateral rows"));
  layout->addRow(tr("Preconditioner"), preconditioner_);

  dt_ms_ = new QDoubleSpinBox(form_);
  dt_ms_->setRange(0.01, 100.0);
  dt_ms_->setDecimals(3);
  dt_ms_->setSuffix(tr(" ms"));
  dt_ms_->setSingleStep(0.5);
  layout->addRow(tr("Time step"), dt_ms_);

  substeps_ = new QSpinBox(form_);
  substeps_->setRange(1, 1000);
  substeps_->setToolTip(tr("Steps taken between two published frames"));
  layout->addRow(tr("Steps per frame"), substeps_);

  damping_ = new QDoubleSpinBox(form_);
  damping_->setRange(0.01, 1.0);
  damping_->setDecimals(2);
  damping_->setSingleStep(0.05);
  damping_->setToolTip(tr("Constant Newton step fraction (unless line search is on)"));
  layout->addRow(tr("Newton damping"), damping_);

  line_search_ = new QCheckBox(tr("Line search"), form_);
  geometric_stiffness_ = new QCheckBox(tr("Geometric stiffness"), form_);
  warm_start_ = new QCheckBox(tr("Warm start"), form_);
  layout->addRow(line_search_);
  layout->addRow(geometric_stiffness_);
  layout->addRow(warm_start_);

  // edits: spin boxes report when the value is committed (Enter, focus out, arrows)
  for (QSpinBox* spin : {newton_iterations_, linear_iterations_, substeps_}) {
    spin->setKeyboardTracking(false);
  }
  for (QDoubleSpinBox* spin : {dt_ms_, damping_}) spin->setKeyboardTracking(false);
  connect(solver_, &QComboBox::activated, this,
          [this] { Emit("name", solver_->currentData().toString()); });
  connect(newton_iterations_, &QSpinBox::valueChanged, this,
          [this](int v) { Emit("newton_iterations", QString::number(v)); });
  connect(linear_iterations_, &QSpinBox::valueChanged, this,
          [this](int v) { Emit("linear_iterations", QString::number(v)); });
  connect(linear_solver_, &QComboBox::activated, this,
          [this] { Emit("linear_solver", linear_solver_->currentData().toString()); });
  connect(ncp_, &QComboBox::activated, this,
          [this] { Emit("ncp", ncp_->currentData().toString()); });
  connect(preconditioner_, &QComboBox::activated, this,
          [this] { Emit("preconditioner", preconditioner_->currentData().toString()); });
  connect(dt_ms_, &QDoubleSpinBox::valueChanged, this,
          [this](double ms) { Emit("dt", QString::number(ms / 1000.0, 'g', 12)); });
  connect(damping_, &QDoubleSpinBox::valueChanged, this,
          [this](double v) { Emit("damping", QString::number(v, 'g', 6)); });
  connect(line_search_, &QCheckBox::clicked, this,
          [this](bool v) { Emit("line_search", Bool(v)); });
  connect(geometric_stiffness_, &QCheckBox::clicked, this,
          [this](bool v) { Emit("geometric_stiffness", Bool(v)); });
  connect(warm_start_, &QCheckBox::clicked, this, [this](bool v) { Emit("warm_start", Bool(v)); });
  connect(substeps_, &QSpinBox::valueChanged, this, &SolverPanel::SubstepsChanged);
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


void SolverPanel::Emit(const std::string& field, const QString& value) {
  emit OverrideRequested(SelectedLane(), QString::fromStdString("solver." + field + "=") + value);
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
  const SolverSettings& settings = snapshot.lanes[lane].settings;
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


void SolverPanel::ShowSettings(const SolverSettings& s) {
  const QSignalBlocker b1(solver_), b2(newton_iterations_), b3(linear_iterations_),
      b4(linear_solver_), b5(ncp_), b6(preconditioner_), b7(dt_ms_), b8(damping_), b9(line_search_),
      b10(geometric_stiffness_), b11(warm_start_);
  solver_->setCurrentIndex(solver_->findData(QString::fromStdString(s.name)));
  newton_iterations_->setValue(s.newton_iterations);
  linear_iterations_->setValue(s.linear_iterations);
  linear_solver_->setCurrentIndex(static_cast<int>(s.linear_solver));
  ncp_->setCurrentIndex(static_cast<int>(s.ncp));
  preconditioner_->setCurrentIndex(static_cast<int>(s.preconditioner));
  dt_ms_->setValue(s.dt * 1000.0);
  damping_->setValue(s.damping);
  line_search_->setChecked(s.line_search);
  geometric_stiffness_->setChecked(s.geometric_stiffness);
  warm_start_->setChecked(s.warm_start);
}

}  // namespace sim::ui
