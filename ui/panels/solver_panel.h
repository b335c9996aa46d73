// SolverPanel: the solver settings of the running scene, applied live (MuJoCo's Physics section).
// Every widget is generated from the descriptor tables (engine/solvers/settings_table.h): the
// solver choice, the step's settings (time step, contact margin), the steps per frame, and the
// running solver's own settings, rebuilt when the solver is switched. Every edit becomes a
// `--set`-style override command for the worker, which rebuilds the solver at the next step
// boundary; the panel then shows what the worker reports (a rejected value springs back). With
// compared lanes, a lane selector picks which lane an edit goes to.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <QDockWidget>

#include "engine/model/model.h"

class QComboBox;
class QFormLayout;
class QGroupBox;
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
  /// An edit: assignment `solver.<setting>=<value>` for lane `lane` (−1: every lane).
  void OverrideRequested(int lane, const QString& assignment);
  /// Steps per published frame.
  void SubstepsChanged(int substeps);

 private:
  /// A widget made from one descriptor, and the override path it edits.
  struct SettingWidget {
    std::string path;
    const SettingDescriptor* descriptor = nullptr;
    QWidget* widget = nullptr;
  };

  void ShowSettings(const SolverOptions& options);
  /// Rebuilds the solver's own section for the table of `solver`.
  void BuildSolverSection(const std::string& solver);
  SettingWidget AddSettingWidget(const std::string& path, const SettingDescriptor& descriptor,
                                 QWidget* parent, QFormLayout* layout);
  void Emit(const std::string& path, const QString& value);
  int SelectedLane() const;

  QLabel* lane_label_ = nullptr;
  QComboBox* lane_ = nullptr;
  QComboBox* solver_ = nullptr;
  QSpinBox* substeps_ = nullptr;
  QWidget* form_ = nullptr;
  QGroupBox* solver_box_ = nullptr;
  QWidget* solver_section_ = nullptr;
  std::vector<SettingWidget> step_widgets_;
  std::vector<SettingWidget> solver_widgets_;
  std::string section_solver_;  // solver whose settings the section shows

  // what is shown, to refresh only on the worker's changes
  std::uint64_t shown_generation_ = 0;
  int shown_lane_ = -2;
  int shown_lane_count_ = 0;
  std::string shown_signature_;
  int shown_substeps_ = 0;
};

}  // namespace sim::ui
