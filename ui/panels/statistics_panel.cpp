// StatisticsPanel: rates, stage times, counts.
#include "ui/panels/statistics_panel.h"

#include <algorithm>
#include <functional>
#include <vector>

#include <QHeaderView>
#include <QTreeWidget>

#include "ui/sim_worker.h"

namespace sim::ui {

namespace {

// entries of StepStatusTable() the panel shows on rows of their own
constexpr int kMaxIterationsEntry = StepStatusIndex(kStepMaxIterations);
constexpr int kUnconvergedEntry = StepStatusIndex(kStepUnconverged);

// median of `values` (0 when empty)
double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  return values[mid];
}

// the median over a lane's recent steps of one figure
double MedianOf(const LaneSnapshot& lane, double StepSample::*field) {
  std::vector<double> values;
  values.reserve(lane.history.size());
  for (const StepSample& sample : lane.history) values.push_back(sample.*field);
  return Median(std::move(values));
}

QString Ms(double ms) { return QStringLiteral("%1 ms").arg(ms, 0, 'f', ms < 10 ? 3 : 1); }

int TetCount(const Model& model) {
  int tets = 0;
  for (const SoftBody& soft : model.soft_bodies) tets += static_cast<int>(soft.tets.size());
  return tets;
}

}  // namespace


StatisticsPanel::StatisticsPanel(QWidget* parent) : QDockWidget(tr("Statistics"), parent) {
  setObjectName(QStringLiteral("StatisticsPanel"));
  table_ = new QTreeWidget(this);
  table_->setRootIsDecorated(false);
  table_->setUniformRowHeights(true);
  table_->setAlternatingRowColors(true);
  table_->header()->setStretchLastSection(true);
  setWidget(table_);
  since_refresh_.start();
}


void StatisticsPanel::ShowSnapshot(const SimSnapshot& snapshot, double fps, double frame_ms) {
  if (!isVisible() || since_refresh_.elapsed() < kRefreshMs) return;
  since_refresh_.restart();
  const int lanes = static_cast<int>(snapshot.lanes.size());
  if (lanes != shown_lanes_) {
    QStringList header = {tr("Figure")};
    for (const LaneSnapshot& lane : snapshot.lanes) header << QString::fromStdString(lane.label);
    if (lanes == 0) header << tr("Value");
    table_->setColumnCount(static_cast<int>(header.size()));
    table_->setHeaderLabels(header);
    shown_lanes_ = lanes;
  }

  // rows: a name and one value per lane (shared figures go in the first lane's column)
  struct Row {
    QString name;
    std::function<QString(const LaneSnapshot&)> value;
    bool shared = false;
  };
  const auto model_of = [](const LaneSnapshot& lane) -> const Model& { return *lane.model; };
  const QString pacing = snapshot.real_time ? tr("real time ×%1").arg(snapshot.speed, 0, 'g', 3)
                                            : tr("as fast as possible");
  const std::vector<Row> rows = {
      {tr("Frame rate"),
       [&](const LaneSnapshot&) {
         return QStringLiteral("%1 fps (%2)").arg(fps, 0, 'f', 1).arg(Ms(frame_ms));
       },
       true},
      {tr("State"),
       [&](const LaneSnapshot&) {
         return (snapshot.running ? tr("running, ") : tr("paused, ")) + pacing;
       },
       true},
      {tr("Real-time factor"),
       [&](const LaneSnapshot&) { return QString::number(snapshot.real_time_factor, 'f', 2); },
       true},
      {tr("Engine threads"), [&](const LaneSnapshot&) { return QString::number(snapshot.threads); },
       true},
      {tr("Steps per second"),
       [&](const LaneSnapshot&) { return QString::number(snapshot.steps_per_second, 'f', 0); },
       true},
      {tr("Simulated time"),
       [](const LaneSnapshot& l) { return QStringLiteral("%1 s").arg(l.time, 0, 'f', 3); }},
      {tr("Steps"), [](const LaneSnapshot& l) { return QString::number(l.step); }},
      {tr("Step (median)"),
       [](const LaneSnapshot& l) { return Ms(MedianOf(l, &StepSample::total_ms)); }},
      {tr("  collision"),
       [](const LaneSnapshot& l) { return Ms(MedianOf(l, &StepSample::collision_ms)); }},
      {tr("  assembly"),
       [](const LaneSnapshot& l) { return Ms(MedianOf(l, &StepSample::assembly_ms)); }},
      {tr("  solve"), [](const LaneSnapshot& l) { return Ms(MedianOf(l, &StepSample::solve_ms)); }},
      {tr("  integrate"),
       [](const LaneSnapshot& l) { return Ms(MedianOf(l, &StepSample::integrate_ms)); }},
      {tr("  control (teleop IK, script)"),
       [](const LaneSnapshot& l) { return Ms(l.report.control_ms); }},
      {tr("Teleop input latency"),
       [&](const LaneSnapshot&) {
         const TeleopStatus& t = snapshot.teleop;
         if (t.latency_samples == 0) return tr("no input yet");
         return tr("%1 mean, %2 max; within %3 step(s)")
             .arg(Ms(t.latency_mean_ms))
             .arg(Ms(t.latency_max_ms))
             .arg(t.latency_max_steps);
       },
       true},
      {tr("Outer / inner iterations"),
       [](const LaneSnapshot& l) {
         return QStringLiteral("%1 / %2")
             .arg(l.report.outer_iterations)
             .arg(l.report.inner_iterations);
       }},
      {tr("Final residual"),
       [](const LaneSnapshot& l) { return QString::number(l.report.final_residual, 'e', 2); }},
      {tr("Contacts (active)"),
       [](const LaneSnapshot& l) {
         return QStringLiteral("%1 (%2)")
             .arg(l.report.contact_count)
             .arg(l.report.active_contact_count);
       }},
      {tr("Rows: bilateral / unilateral / friction"),
       [](const LaneSnapshot& l) {
         return QStringLiteral("%1 / %2 / %3")
             .arg(l.report.bilateral_rows)
             .arg(l.report.unilateral_rows)
             .arg(l.report.friction_rows);
       }},
      {tr("Max penetration"),
       [](const LaneSnapshot& l) {
         return QStringLiteral("%1 mm").arg(l.report.max_penetration * 1e3, 0, 'f', 3);
       }},
      {tr("Bodies / joints"),
       [&](const LaneSnapshot& l) {
         return QStringLiteral("%1 / %2")
             .arg(model_of(l).body_count())
             .arg(model_of(l).joint_count());
       }},
      {tr("Particles / soft bodies / tets"),
       [&](const LaneSnapshot& l) {
         return QStringLiteral("%1 / %2 / %3")
             .arg(model_of(l).particle_count())
             .arg(model_of(l).soft_bodies.size())
             .arg(TetCount(model_of(l)));
       }},
      {tr("Steps at the iteration limit"),
       [](const LaneSnapshot& l) { return QString::number(l.status_counts[kMaxIterationsEntry]); }},
      {tr("Unconverged steps"),
       [](const LaneSnapshot& l) { return QString::number(l.status_counts[kUnconvergedEntry]); }},
      {tr("Steps with other problems"),
       [](const LaneSnapshot& l) {
         std::uint64_t n = 0;
         for (int bit = 0; bit < kStepStatusBitCount; ++bit) {
           if (bit != kMaxIterationsEntry && bit != kUnconvergedEntry) n += l.status_counts[bit];
         }
         return QString::number(n);
       }},
  };

  if (table_->topLevelItemCount() != static_cast<int>(rows.size())) {
    table_->clear();
    for (const Row& row : rows) new QTreeWidgetItem(table_, {row.name});
  }
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    QTreeWidgetItem* item = table_->topLevelItem(r);
    for (int k = 0; k < lanes; ++k) {
      const bool show = !rows[r].shared || k == 0;
      item->setText(k + 1,
                    show && snapshot.lanes[k].model ? rows[r].value(snapshot.lanes[k]) : QString());
    }
  }
  table_->resizeColumnToContents(0);
}

}  // namespace sim::ui
