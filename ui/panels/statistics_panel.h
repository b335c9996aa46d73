// StatisticsPanel: a table of what the studio is doing (MuJoCo's Info and Timer, Chrono's info
// panel): frame rate, simulated time, real-time factor and step rate; step time by stage (medians
// over the recent steps); contacts and constraint rows; model sizes (bodies, joints, particles,
// soft bodies, tets); steps with each status. One column per lane.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>

class QTreeWidget;

namespace sim::ui {

struct SimSnapshot;

class StatisticsPanel : public QDockWidget {
  Q_OBJECT

 public:
  explicit StatisticsPanel(QWidget* parent = nullptr);

  /// Shows the snapshot's figures with the viewport's frame rate `fps` and interval `frame_ms`
  /// (refreshed at most every kRefreshMs).
  void ShowSnapshot(const SimSnapshot& snapshot, double fps, double frame_ms);

  static constexpr int kRefreshMs = 250;

 private:
  QTreeWidget* table_ = nullptr;
  QElapsedTimer since_refresh_;
  int shown_lanes_ = -1;
};

}  // namespace sim::ui
