// ConvergencePanel: outer-iteration (Newton step or PGS sweep), inner-solver and per-step plots.
#include "ui/panels/convergence_panel.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QSplitter>
#include <QValueAxis>

#include "engine/visual/lane_colors.h"
#include "ui/panels/chart_axes.h"
#include "ui/sim_worker.h"

namespace sim::ui {

namespace {

// one lane: one colour per quantity; compared lanes: one colour per lane (LaneColor, as in the
// viewport's labels), one residual series each, so the legend has one entry per lane
const QColor kNormalColor(0x1f, 0x77, 0xb4);
const QColor kFrictionColor(0xff, 0x7f, 0x0e);
const QColor kBilateralColor(0x2c, 0xa0, 0x2c);
const QColor kMeritColor(0x7f, 0x7f, 0x7f);
const QColor kLinearColor(0x94, 0x67, 0xbd);
const QColor kIterationsColor(0x1f, 0x77, 0xb4);
const QColor kStepMsColor(0xd6, 0x27, 0x28);

double LogValue(double value) {
  return std::isfinite(value) ? std::max(value, kChartLogFloor) : 1e12;
}

QChart* MakeChart(const QString& title) {
  auto* chart = new QChart();
  chart->setTitle(title);
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->setAnimationOptions(QChart::NoAnimation);
  return chart;
}

QChartView* MakeView(QChart* chart, QWidget* parent) {
  auto* view = new QChartView(chart, parent);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumHeight(140);
  return view;
}

QLogValueAxis* MakeLogAxis(const QString& title) {
  auto* axis = new QLogValueAxis();
  axis->setTitleText(title);
  axis->setBase(10);
  axis->setLabelFormat(QStringLiteral("%g"));
  axis->setMinorTickCount(0);
  return axis;
}

QValueAxis* MakeValueAxis(const QString& title) {
  auto* axis = new QValueAxis();
  axis->setTitleText(title);
  axis->setLabelFormat(QStringLiteral("%g"));
  return axis;
}

// an axis of whole numbers (iterations, steps): a tick on each for short ranges, otherwise
// "nice" round ticks, so that integer labels never name a fractional tick
void FitCountAxis(QValueAxis* axis, double first, double last) {
  axis->setRange(first, last);
  const double span = last - first;
  if (span <= 10 && span == std::floor(span)) {
    axis->setTickCount(static_cast<int>(span) + 1);
  } else {
    axis->applyNiceNumbers();
  }
}

}  // namespace


struct ConvergencePanel::LaneSeries {
  QLineSeries* residual = nullptr;  // compared lanes: the largest of the three errors
  QLineSeries* normal = nullptr;
  QLineSeries* friction = nullptr;
  QLineSeries* bilateral = nullptr;
  QLineSeries* merit = nullptr;
  QLineSeries* linear = nullptr;
  QLineSeries* iterations = nullptr;
  QLineSeries* step_ms = nullptr;
};


ConvergencePanel::ConvergencePanel(QWidget* parent) : QDockWidget(tr("Convergence"), parent) {
  setObjectName(QStringLiteral("ConvergencePanel"));
  auto* splitter = new QSplitter(Qt::Vertical, this);

  newton_chart_ = MakeChart(tr("Last step: residuals per outer iteration (Newton step or sweep)"));
  newton_x_ = MakeValueAxis(tr("outer iteration"));
  newton_x_->setLabelFormat(QStringLiteral("%d"));
  newton_y_ = MakeLogAxis(tr("error"));
  newton_chart_->addAxis(newton_x_, Qt::AlignBottom);
  newton_chart_->addAxis(newton_y_, Qt::AlignLeft);

  linear_chart_ = MakeChart(tr("Last step: inner residual ‖b − Ax‖"));
  linear_x_ = MakeValueAxis(tr("inner iteration (all outer iterations)"));
  linear_x_->setLabelFormat(QStringLiteral("%d"));
  linear_y_ = MakeLogAxis(tr("residual"));
  linear_chart_->addAxis(linear_x_, Qt::AlignBottom);
  linear_chart_->addAxis(linear_y_, Qt::AlignLeft);

  history_chart_ = MakeChart(tr("Per step: outer iterations and step time"));
  history_x_ = MakeValueAxis(tr("step"));
  history_x_->setLabelFormat(QStringLiteral("%d"));
  history_iterations_ = MakeValueAxis(tr("outer iterations"));
  history_ms_ = MakeValueAxis(tr("step [ms]"));
  history_chart_->addAxis(history_x_, Qt::AlignBottom);
  history_chart_->addAxis(history_iterations_, Qt::AlignLeft);
  history_chart_->addAxis(history_ms_, Qt::AlignRight);

  splitter->addWidget(MakeView(newton_chart_, splitter));
  splitter->addWidget(MakeView(linear_chart_, splitter));
  splitter->addWidget(MakeView(history_chart_, splitter));
  setWidget(splitter);
  since_redraw_.start();
}


ConvergencePanel::~ConvergencePanel() = default;


void ConvergencePanel::EnsureLanes(const SimSnapshot& snapshot) {
  if (snapshot.lane_generation == shown_generation_ && lanes_.size() == snapshot.lanes.size()) {
    return;
  }
  for (QChart* chart : {newton_chart_, linear_chart_, history_chart_}) chart->removeAllSeries();
  lanes_.clear();
  const bool compare = snapshot.lanes.size() > 1;
  newton_chart_->setTitle(compare ? tr("Last step: largest residual per outer iteration")
                                  : tr("Last step: residuals per outer iteration (Newton step "
                                       "or sweep)"));
  // compared lanes: only the outer chart keeps a legend (one entry per lane)
  linear_chart_->legend()->setVisible(!compare);
  history_chart_->legend()->setVisible(!compare);
  for (std::size_t k = 0; k < snapshot.lanes.size(); ++k) {
    const QString lane_name = QString::fromStdString(snapshot.lanes[k].label);
    const QColor lane_color = QColor::fromRgb(LaneColor(static_cast<int>(k)));
    auto add = [&](QChart* chart, QAbstractAxis* x, QAbstractAxis* y, const QString& name,
                   const QColor& color, Qt::PenStyle style = Qt::SolidLine) {
      auto* series = new QLineSeries();
      series->setName(name);
      QPen pen(compare ? lane_color : color);
      pen.setWidthF(1.8);
      pen.setStyle(style);
      series->setPen(pen);
      series->setPointsVisible(true);
      chart->addSeries(series);
      series->attachAxis(x);
      series->attachAxis(y);
      return series;
    };
    auto lane = std::make_unique<LaneSeries>();
    if (compare) {
      lane->residual = add(newton_chart_, newton_x_, newton_y_, lane_name, lane_color);
      lane->linear = add(linear_chart_, linear_x_, linear_y_, lane_name, lane_color);
      lane->iterations =
          add(history_chart_, history_x_, history_iterations_, lane_name, lane_color);
      lane->step_ms =
          add(history_chart_, history_x_, history_ms_, lane_name, lane_color, Qt::DashLine);
    } else {
      lane->normal = add(newton_chart_, newton_x_, newton_y_, tr("normal [m]"), kNormalColor);
      lane->friction =
          add(newton_chart_, newton_x_, newton_y_, tr("friction [m/s]"), kFrictionColor);
      lane->bilateral = add(newton_chart_, newton_x_, newton_y_, tr("bilateral"), kBilateralColor);
      lane->merit = add(newton_chart_, newton_x_, newton_y_, tr("merit"), kMeritColor);
      lane->linear = add(linear_chart_, linear_x_, linear_y_, tr("inner residual"), kLinearColor);
      lane->iterations = add(history_chart_, history_x_, history_iterations_,
                             tr("outer iterations"), kIterationsColor);
      lane->step_ms = add(history_chart_, history_x_, history_ms_, tr("step ms"), kStepMsColor);
    }
    lane->iterations->setPointsVisible(false);
    lane->step_ms->setPointsVisible(false);
    lane->linear->setPointsVisible(false);
    lanes_.push_back(std::move(lane));
  }
  shown_generation_ = snapshot.lane_generation;
}


void ConvergencePanel::ShowSnapshot(const SimSnapshot& snapshot, bool force) {
  if (!isVisible() && !force) return;
  if (!force && (snapshot.serial == shown_serial_ || since_redraw_.elapsed() < kRefreshMs)) return;
  since_redraw_.restart();
  shown_serial_ = snapshot.serial;
  EnsureLanes(snapshot);

  double newton_low = INFINITY, newton_high = 0, linear_low = INFINITY, linear_high = 0;
  int newton_count = 1, inner_count = 1;
  double step_first = 0, step_last = 1, iterations_max = 1, ms_max = 0.1;
  for (std::size_t k = 0; k < lanes_.size(); ++k) {
    const LaneSnapshot& lane = snapshot.lanes[k];
    LaneSeries& series = *lanes_[k];
    // Newton history of the last step; a kind of row the scene lacks (no joints: no bilateral
    // rows) is left out instead of drawn along the floor
    QList<QPointF> residual, normal, friction, bilateral, merit, linear;
    const auto& newton = lane.report.iterations;
    auto plot = [&](QList<QPointF>* points, double x, double value) {
      if (!std::isfinite(value)) return;
      points->append({x, LogValue(value)});
      newton_low = std::min(newton_low, LogValue(value));
      newton_high = std::max(newton_high, LogValue(value));
    };
    for (std::size_t i = 0; i < newton.size(); ++i) {
      const IterationRecord& r = newton[i];
      const double x = static_cast<double>(i);
      if (lane.report.unilateral_rows > 0) plot(&normal, x, r.normal_error);
      if (lane.report.friction_rows > 0) plot(&friction, x, r.friction_error);
      if (lane.report.bilateral_rows > 0) plot(&bilateral, x, r.bilateral_error);
      plot(&merit, x, r.merit);
      if (series.residual != nullptr) {
        plot(&residual, x, std::max({r.normal_error, r.friction_error, r.bilateral_error}));
      }
    }
    for (std::size_t i = 0; i < lane.report.inner_residuals.size(); ++i) {
      const double v = lane.report.inner_residuals[i];
      linear.append({static_cast<double>(i), LogValue(v)});
      if (std::isfinite(v)) {
        linear_low = std::min(linear_low, LogValue(v));
        linear_high = std::max(linear_high, LogValue(v));
      }
    }
    if (series.residual != nullptr) {
      series.residual->replace(residual);
    } else {
      series.normal->replace(normal);
      series.friction->replace(friction);
      series.bilateral->replace(bilateral);
      series.merit->replace(merit);
    }
    series.linear->replace(linear);
    newton_count = std::max(newton_count, static_cast<int>(newton.size()));
    inner_count = std::max(inner_count, static_cast<int>(lane.report.inner_residuals.size()));

    // per-step history
    QList<QPointF> iterations, step_ms;
    for (const StepSample& sample : lane.history) {
      const double x = static_cast<double>(sample.step);
      iterations.append({x, static_cast<double>(sample.outer_iterations)});
      step_ms.append({x, sample.total_ms});
      iterations_max = std::max(iterations_max, static_cast<double>(sample.outer_iterations));
      ms_max = std::max(ms_max, sample.total_ms);
    }
    series.iterations->replace(iterations);
    series.step_ms->replace(step_ms);
    if (!lane.history.empty()) {
      step_first = static_cast<double>(lane.history.front().step);
      step_last = std::max(step_first + 1, static_cast<double>(lane.history.back().step));
    }
  }
  FitCountAxis(newton_x_, 0, std::max(1, newton_count - 1));
  FitLogAxis(newton_y_, newton_low, newton_high);
  FitCountAxis(linear_x_, 0, std::max(1, inner_count - 1));
  FitLogAxis(linear_y_, linear_low, linear_high);
  FitCountAxis(history_x_, step_first, step_last);
  history_iterations_->setRange(0, std::ceil(iterations_max * 1.1));
  history_iterations_->applyNiceNumbers();
  history_ms_->setRange(0, ms_max * 1.15);
  history_ms_->applyNiceNumbers();
}

}  // namespace sim::ui
