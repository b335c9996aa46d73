#include "ui/panels/divergence_panel.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFormLayout>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QSplitter>
#include <QVBoxLayout>
#include <QValueAxis>

#include "engine/visual/lane_colors.h"
#include "ui/panels/chart_axes.h"
#include "ui/sim_worker.h"

namespace sim::ui {

namespace {

struct ChartSpec {
  const char* title;
  const char* axis;
  double StepSample::*field;
  bool log;
};

// labels per value axis: five charts of 70-110 px each hold three (Qt elides all of an axis'
// labels when they do not fit, measured at four and five)
constexpr int kLabelsPerAxis = 3;

constexpr ChartSpec kSpecs[DivergencePanel::kChartCount] = {
    {"Distance to the reference lane (farthest body)", "distance [m]", &StepSample::distance, true},
    {"Max penetration", "penetration [m]", &StepSample::max_penetration, true},
    {"Max joint error", "joint error [m]", &StepSample::max_joint_error, true},
    {"Mechanical energy", "energy [J]", &StepSample::energy, false},
    {"Step time", "step [ms]", &StepSample::total_ms, false},
};

}  // namespace


DivergencePanel::DivergencePanel(QWidget* parent) : QDockWidget(tr("Divergence"), parent) {
  setObjectName(QStringLiteral("DivergencePanel"));
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* form = new QFormLayout();
  reference_ = new QComboBox(body);
  reference_->setObjectName(QStringLiteral("ReferenceLane"));
  reference_->setToolTip(tr("the lane every lane's distance is measured from"));
  form->addRow(tr("Reference lane"), reference_);
  layout->addLayout(form);
  connect(reference_, &QComboBox::activated, this,
          [this](int index) { emit ReferenceLaneChanged(index); });

  auto* splitter = new QSplitter(Qt::Vertical, body);
  for (int c = 0; c < kChartCount; ++c) {
    Chart& chart = charts_[c];
    chart.chart = new QChart();
    chart.chart->setTitle(tr(kSpecs[c].title));
    chart.chart->setMargins(QMargins(2, 2, 2, 2));
    chart.chart->setAnimationOptions(QChart::NoAnimation);
    chart.chart->legend()->setAlignment(Qt::AlignBottom);
    // one legend, on the first chart: the lanes' colours are the same in every chart
    chart.chart->legend()->setVisible(c == 0);
    chart.x = new QValueAxis();
    chart.x->setTitleText(tr("simulated time [s]"));
    chart.x->setLabelFormat(QStringLiteral("%.3g"));
    chart.chart->addAxis(chart.x, Qt::AlignBottom);
    if (kSpecs[c].log) {
      chart.log_y = new QLogValueAxis();
      chart.log_y->setBase(10);
      chart.log_y->setLabelFormat(QStringLiteral("%.2g"));
      chart.log_y->setMinorTickCount(0);
      chart.log_y->setTitleText(tr(kSpecs[c].axis));
      chart.chart->addAxis(chart.log_y, Qt::AlignLeft);
    } else {
      chart.linear_y = new QValueAxis();
      chart.linear_y->setLabelFormat(QStringLiteral("%.3g"));
      chart.linear_y->setTitleText(tr(kSpecs[c].axis));
      chart.chart->addAxis(chart.linear_y, Qt::AlignLeft);
    }
    auto* view = new QChartView(chart.chart, splitter);
    view->setRenderHint(QPainter::Antialiasing);
    // five charts fit the window's height at 1280 × 720 (the dock's minimum is the window's)
    view->setMinimumHeight(c == 0 ? 110 : 70);
    splitter->addWidget(view);
  }
  layout->addWidget(splitter, 1);
  setWidget(body);
  since_redraw_.start();
}


DivergencePanel::~DivergencePanel() = default;


void DivergencePanel::EnsureLanes(const SimSnapshot& snapshot) {
  if (snapshot.lane_generation == shown_generation_ &&
      charts_[0].series.size() == snapshot.lanes.size()) {
    return;
  }
  reference_->clear();
  for (const LaneSnapshot& lane : snapshot.lanes) {
    reference_->addItem(QString::fromStdString(lane.label));
  }
  for (int c = 0; c < kChartCount; ++c) {
    Chart& chart = charts_[c];
    chart.chart->removeAllSeries();
    chart.series.clear();
    for (std::size_t k = 0; k < snapshot.lanes.size(); ++k) {
      auto* series = new QLineSeries();
      series->setName(QString::fromStdString(snapshot.lanes[k].label));
      QPen pen(QColor::fromRgb(LaneColor(static_cast<int>(k))));
      pen.setWidthF(1.6);
      series->setPen(pen);
      chart.chart->addSeries(series);
      series->attachAxis(chart.x);
      series->attachAxis(chart.log_y != nullptr ? static_cast<QAbstractAxis*>(chart.log_y)
                                                : chart.linear_y);
      chart.series.push_back(series);
    }
  }
  shown_generation_ = snapshot.lane_generation;
}


void DivergencePanel::ShowSnapshot(const SimSnapshot& snapshot, bool force) {
  if (!isVisible() && !force) return;
  if (!force && (snapshot.serial == shown_serial_ || since_redraw_.elapsed() < kRefreshMs)) return;
  since_redraw_.restart();
  shown_serial_ = snapshot.serial;
  EnsureLanes(snapshot);
  if (reference_->currentIndex() != snapshot.reference_lane) {
    reference_->setCurrentIndex(snapshot.reference_lane);
  }

  double t_first = INFINITY, t_last = -INFINITY;
  for (const LaneSnapshot& lane : snapshot.lanes) {
    if (lane.history.empty()) continue;
    t_first = std::min(t_first, lane.history.front().time);
    t_last = std::max(t_last, lane.history.back().time);
  }
  if (!(t_first < t_last)) {
    t_first = 0;
    t_last = 1;
  }
  for (int c = 0; c < kChartCount; ++c) {
    Chart& chart = charts_[c];
    double low = INFINITY, high = -INFINITY;
    for (std::size_t k = 0; k < snapshot.lanes.size(); ++k) {
      QList<QPointF> points;
      for (const StepSample& sample : snapshot.lanes[k].history) {
        double value = sample.*kSpecs[c].field;
        if (!std::isfinite(value)) continue;
        if (kSpecs[c].log) value = std::max(value, kChartLogFloor);
        points.append({sample.time, value});
        low = std::min(low, value);
        high = std::max(high, value);
      }
      chart.series[k]->replace(points);
    }
    chart.x->setRange(t_first, t_last);
    if (chart.log_y != nullptr) {
      // the first chart's legend takes half its height: two labels there
      FitLogAxis(chart.log_y, low, high, c == 0 ? 2 : kLabelsPerAxis);
    } else {
      if (!(low <= high)) low = high = 0;
      const double pad = std::max(0.05 * (high - low), 1e-9 * std::max(1.0, std::abs(high)));
      // a series that cannot be negative (step time) keeps its axis at or above 0
      chart.linear_y->setRange(low >= 0 ? std::max(0.0, low - pad) : low - pad, high + pad);
      chart.linear_y->applyNiceNumbers();
      if (chart.linear_y->tickCount() > kLabelsPerAxis) {
        chart.linear_y->setTickCount(kLabelsPerAxis);
      }
      // enough digits that neighbouring ticks differ (energy 58.9..59.0 J read "59 59 59" at 3)
      const double span = chart.linear_y->max() - chart.linear_y->min();
      const double size =
          std::max(std::abs(chart.linear_y->max()), std::abs(chart.linear_y->min()));
      const int ticks = std::max(chart.linear_y->tickCount() - 1, 1);
      const int digits =
          span > 0
              ? std::clamp(static_cast<int>(std::ceil(std::log10(size * ticks / span))) + 1, 3, 12)
              : 3;
      // set only when it changes: each call lays the chart out again
      const QString format = QStringLiteral("%.%1g").arg(digits);
      if (chart.linear_y->labelFormat() != format) chart.linear_y->setLabelFormat(format);
    }
  }
}

}  // namespace sim::ui
