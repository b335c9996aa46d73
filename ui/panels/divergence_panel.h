// DivergencePanel: how compared lanes drift apart over time, one chart each for the state
// distance to a chosen reference lane (the farthest body or particle), max penetration, joint
// error, mechanical energy and step time over the last SimWorker::kHistoryLength steps; every
// lane in its own colour (LaneColor, as in the viewport's labels and the convergence plots), one
// legend entry per lane. The reference lane is picked at the top.
// Redrawn a few times per second while the simulation runs.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include <QDockWidget>
#include <QElapsedTimer>

class QChart;
class QComboBox;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace sim::ui {

struct SimSnapshot;

class DivergencePanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit DivergencePanel(QWidget* parent = nullptr);
  ~DivergencePanel() override;

  /// Plots the snapshot (at most every kRefreshMs unless `force`).
  void ShowSnapshot(const SimSnapshot& snapshot, bool force = false);

  static constexpr int kRefreshMs = 250;
  /// The charts, top to bottom.
  static constexpr int kChartCount = 5;

 signals:
  /// The user picked the lane distances are measured from.
  void ReferenceLaneChanged(int lane);

 private:
  struct Chart {
    QChart* chart = nullptr;
    QValueAxis* x = nullptr;
    QLogValueAxis* log_y = nullptr;    ///< distances, penetration, joint error
    QValueAxis* linear_y = nullptr;    ///< energy, step time
    std::vector<QLineSeries*> series;  ///< one per lane
  };
  void EnsureLanes(const SimSnapshot& snapshot);

  QComboBox* reference_ = nullptr;
  std::array<Chart, kChartCount> charts_;
  std::uint64_t shown_generation_ = ~0ull;
  std::uint64_t shown_serial_ = 0;
  QElapsedTimer since_redraw_;
};

}  // namespace sim::ui
