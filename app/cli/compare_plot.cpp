#include "app/cli/compare_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "engine/visual/lane_colors.h"

namespace sim::cli {
namespace {

constexpr double kWidth = 900;
constexpr double kChartHeight = 170;
constexpr double kLeft = 80, kRight = 20, kTop = 46, kGap = 46;
// a log chart cannot show 0: smaller values sit on this floor (as in the studio's charts)
constexpr double kLogFloor = 1e-12;

struct Chart {
  const char* title;
  Real DivergenceSample::*field;
  bool log;
};

constexpr Chart kCharts[] = {
    {"state distance to the reference [m]", &DivergenceSample::distance, true},
    {"max penetration [m]", &DivergenceSample::max_penetration, true},
    {"max joint error [m]", &DivergenceSample::max_joint_error, true},
    {"mechanical energy [J]", &DivergenceSample::energy, false},
    {"step time [ms]", &DivergenceSample::step_ms, false},
};

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Printf(const char* format, double a, double b = 0, double c = 0, double d = 0) {
  char text[256];
  std::snprintf(text, sizeof(text), format, a, b, c, d);
  return text;
}

std::string Color(int lane) {
  char text[16];
  std::snprintf(text, sizeof(text), "#%06x", LaneColor(lane));
  return text;
}

// one chart at vertical offset `top`: frame, axes with ticks, a polyline per run
std::string DrawChart(const Chart& chart, const std::vector<io::RunResult>& runs, double top,
                      double t_end) {
  const double plot_width = kWidth - kLeft - kRight;
  const double bottom = top + kChartHeight;
  // the value range over every run
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const io::RunResult& run : runs) {
    for (const DivergenceSample& sample : run.divergence) {
      double value = sample.*chart.field;
      if (!std::isfinite(value)) continue;
      if (chart.log) value = std::max(value, kLogFloor);
      low = std::min(low, value);
      high = std::max(high, value);
    }
  }
  if (!(low <= high)) low = high = chart.log ? 1 : 0;
  if (chart.log) {
    low = std::pow(10, std::floor(std::log10(low)));
    high = std::pow(10, std::max(std::ceil(std::log10(high)), std::log10(low) + 1));
  } else if (high - low < 1e-12 * std::max(1.0, std::abs(high))) {
    low -= 0.5;
    high += 0.5;
  } else {
    const double pad = 0.05 * (high - low);
    low -= pad;
    high += pad;
  }
  const auto y_of = [&](double value) {
    const double f = chart.log ? (std::log10(std::max(value, kLogFloor)) - std::log10(low)) /
                                     (std::log10(high) - std::log10(low))
                               : (value - low) / (high - low);
    return bottom - f * kChartHeight;
  };
  const auto x_of = [&](double time) { return kLeft + time / t_end * plot_width; };

  std::string svg =
      Printf("<text x=\"%g\" y=\"%g\" font-size=\"14\" font-weight=\"bold\">", kLeft, top - 8);
  svg += Escape(chart.title) + "</text>\n";
  svg +=
      Printf("<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" stroke=\"#888\"/>\n",
             kLeft, top, plot_width, kChartHeight);
  // y ticks: decades on a log chart (at most 6 labels), 5 even ones otherwise
  std::vector<double> ticks;
  if (chart.log) {
    const int first = static_cast<int>(std::lround(std::log10(low)));
    const int last = static_cast<int>(std::lround(std::log10(high)));
    const int stride = std::max(1, (last - first + 4) / 5);
    for (int e = first; e <= last; e += stride) ticks.push_back(std::pow(10, e));
  } else {
    for (int k = 0; k <= 4; ++k) ticks.push_back(low + (high - low) * k / 4);
  }
  for (const double tick : ticks) {
    const double y = y_of(tick);
    svg += Printf("<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#ddd\"/>\n", kLeft, y,
                  kLeft + plot_width, y);
    svg += Printf("<text x=\"%g\" y=\"%g\" font-size=\"11\" text-anchor=\"end\">%.3g</text>\n",
                  kLeft - 6, y + 4, tick);
  }
  // x ticks every fifth of the run
  for (int k = 0; k <= 5; ++k) {
    const double t = t_end * k / 5;
    svg += Printf("<text x=\"%g\" y=\"%g\" font-size=\"11\" text-anchor=\"middle\">%.3g s</text>\n",
                  x_of(t), bottom + 14, t);
  }
  // one polyline per run, broken where a value is not finite
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::string points;
    const auto flush = [&] {
      if (points.empty()) return;
      svg += "<polyline fill=\"none\" stroke-width=\"1.6\" stroke=\"" + Color(static_cast<int>(r)) +
             "\" points=\"" + points + "\"/>\n";
      points.clear();
    };
    for (const DivergenceSample& sample : runs[r].divergence) {
      const double value = sample.*chart.field;
      if (!std::isfinite(value)) {
        flush();
        continue;
      }
      points += Printf("%.1f,%.1f ", x_of(sample.time), y_of(value));
    }
    flush();
  }
  return svg;
}

}  // namespace


std::string ComparePlotSvg(const std::string& title, const std::vector<io::RunResult>& runs,
                           int reference) {
  double t_end = 0;
  for (const io::RunResult& run : runs) {
    if (!run.divergence.empty()) t_end = std::max(t_end, double(run.divergence.back().time));
  }
  if (!(t_end > 0)) t_end = 1;
  // legend rows of up to four runs under the title
  const int legend_rows = static_cast<int>((runs.size() + 3) / 4);
  const double charts_top = kTop + 22.0 * legend_rows + 20;
  const double height = charts_top + std::size(kCharts) * (kChartHeight + kGap) + 10;
  std::string svg = Printf(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
      "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
      kWidth, height);
  svg += Printf("<text x=\"%g\" y=\"24\" font-size=\"16\" font-weight=\"bold\">", kLeft);
  svg += Escape(title) + "</text>\n";
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const double x = kLeft + 200.0 * (r % 4);
    const double y = kTop + 22.0 * (r / 4);
    svg += Printf("<rect x=\"%g\" y=\"%g\" width=\"18\" height=\"4\" fill=\"", x, y - 5) +
           Color(static_cast<int>(r)) + "\"/>\n";
    std::string label = runs[r].label;
    if (static_cast<int>(r) == reference) label += " (reference)";
    svg += Printf("<text x=\"%g\" y=\"%g\" font-size=\"12\">", x + 24, y) + Escape(label) +
           "</text>\n";
  }
  for (std::size_t c = 0; c < std::size(kCharts); ++c) {
    svg += DrawChart(kCharts[c], runs, charts_top + c * (kChartHeight + kGap), t_end);
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace sim::cli
