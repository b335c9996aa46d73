// ConvergencePanel: Qt Charts plots of the solver's convergence (MuJoCo's Cost figure, SOFA's
// computeGraphs), every lane overlaid:
//   last step, per Newton iteration (log axis): normal, friction and bilateral errors and the
//   merit; last step, inner solver: the residual ‖b − Ax‖₂ of every inner iteration, Newton
//   iterations one after the other (log axis); history: Newton iterations and step time of the last
//   SimWorker::kHistoryLength steps.
// Redrawn a few times per second while the simulation runs (charts are not free to redraw).
#pragma once

#include <memory>
#include <vector>

#include <QDockWidget>
#include <QElapsedTimer>

class QChart;
class QChartView;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace sim::ui {

struct SimSnapshot;

class ConvergencePanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit ConvergencePanel(QWidget* parent = nullptr);
  ~ConvergencePanel() override;

  /// Plots the snapshot (at most every kRefreshMs unless `force`).
  void ShowSnapshot(const SimSnapshot& snapshot, bool force = false);

  /// Minimum time between redraws [ms].
  static constexpr int kRefreshMs = 250;

 private:
  struct LaneSeries;
  void EnsureLanes(const SimSnapshot& snapshot);

  QChart* newton_chart_ = nullptr;
  QChart* linear_chart_ = nullptr;
  QChart* history_chart_ = nullptr;
  QValueAxis* newton_x_ = nullptr;
  QLogValueAxis* newton_y_ = nullptr;
  QValueAxis* linear_x_ = nullptr;
  QLogValueAxis* linear_y_ = nullptr;
  QValueAxis* history_x_ = nullptr;
  QValueAxis* history_iterations_ = nullptr;
  QValueAxis* history_ms_ = nullptr;
  std::vector<std::unique_ptr<LaneSeries>> lanes_;
  std::uint64_t shown_generation_ = ~0ull;
  std::uint64_t shown_serial_ = 0;
  QElapsedTimer since_redraw_;
};

}  // namespace sim::ui
