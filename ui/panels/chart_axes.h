// Axis fitting the chart panels share (convergence, divergence).
#pragma once

#include <algorithm>
#include <cmath>

#include <QLogValueAxis>

namespace sim::ui {

/// A log axis cannot show 0: smaller values are drawn at this floor (a converged row, a lane on
/// its reference).
constexpr double kChartLogFloor = 1e-12;
/// Most labels on a log axis (charts are 70-200 px high).
constexpr int kChartMaxLogLabels = 5;

/// A log axis range covering [low, high] in whole decades (1e-6..1 when there is nothing to
/// show). Qt Charts labels every power of the axis base and elides all labels when they do not
/// fit, so the base grows to 100, 1000, ... to keep at most `max_labels` (≥ 2) labels.
inline void FitLogAxis(QLogValueAxis* axis, double low, double high,
                       int max_labels = kChartMaxLogLabels) {
  if (!(low <= high)) {
    low = 1e-6;
    high = 1;
  }
  const int lo = static_cast<int>(std::floor(std::log10(std::max(low, kChartLogFloor))));
  const int hi =
      std::max(lo + 1, static_cast<int>(std::ceil(std::log10(std::max(high, kChartLogFloor)))));
  const int step = std::max(1, (hi - lo + max_labels - 2) / (max_labels - 1));
  // the ends on powers of the base
  const int first = static_cast<int>(std::floor(static_cast<double>(lo) / step)) * step;
  const int last = static_cast<int>(std::ceil(static_cast<double>(hi) / step)) * step;
  axis->setBase(std::pow(10.0, step));
  axis->setRange(std::pow(10.0, first), std::pow(10.0, std::max(last, first + step)));
}

}  // namespace sim::ui
