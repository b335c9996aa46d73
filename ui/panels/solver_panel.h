// SolverPanel: the solver settings of the running scene, applied live (MuJoCo's Physics section):
// solver, Newton and linear iterations, inner linear solver, NCP function, complementarity
// preconditioner, time step, damping, line search, geometric stiffness, warm start, and the steps
// per frame. Every edit becomes a `--set`-style override command for the worker, which rebuilds
// the solver at the next step boundary; the panel then shows what the worker reports (a rejected
// value springs back). With compared lanes, a lane selector picks which lane an edit goes to.
#pragma once

#include <memory>
#include <string>

#include <QDockWidget>

#include "engine/model/model.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;
class QWidget;

namespace sim::ui {

struct SimSnapshot;

class SolverPanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit SolverPanel(QWidget* parent = nullptr);

  /// Shows the settings of the snapshot's lanes (refreshes only what the worker changed, so an
  /// edit in progress is not overwritten).
  void ShowSnapshot(const SimSnapshot& snapshot);

 signals:
  /// An edit: assignment `solver.<field>=<value>` for lane `lane` (−1: every lane).
  void OverrideRequested(int lane, const QString& assignment);
  /// Steps per published frame.
  void SubstepsChanged(int substeps);

 private:
  void ShowSettings(const SolverSettings& settings);
  void Emit(const std::string& field, const QString& value);
  int SelectedLane() const;

  QLabel* lane_label_ = nullptr;
  QComboBox* lane_ = nullptr;
  QComboBox* solver_ = nullptr;
  QSpinBox* newton_iterations_ = nullptr;
  QSpinBox* linear_iterations_ = nullptr;
  QComboBox* linear_solver_ = nullptr;
  QComboBox* ncp_ = nullptr;
  QComboBox* preconditioner_ = nullptr;
  QDoubleSpinBox* dt_ms_ = nullptr;
  QSpinBox* substeps_ = nullptr;
  QDoubleSpinBox* damping_ = nullptr;
  QCheckBox* line_search_ = nullptr;
  QCheckBox* geometric_stiffness_ = nullptr;
  QCheckBox* warm_start_ = nullptr;
  QWidget* form_ = nullptr;

  // what is shown, to refresh only on the worker's changes
  std::uint64_t shown_generation_ = 0;
  int shown_lane_ = -2;
  int shown_lane_count_ = 0;
  std::string shown_signature_;
  int shown_substeps_ = 0;
};

}  // namespace sim::ui
