#include "render/strain_colors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "engine/visual/srgb.h"

namespace sim::render {

namespace {

// sRGB 8-bit control points at equal spacing along [0, 1]
using Stops = std::array<std::array<int, 3>, 9>;

// Moreland's cool-warm, from −range (blue) to +range (red)
constexpr Stops kCoolWarm = {{{59, 76, 192},
                              {98, 130, 234},
                              {141, 176, 254},
                              {184, 208, 249},
                              {221, 221, 221},
                              {245, 196, 173},
                              {244, 154, 123},
                              {222, 96, 77},
                              {180, 4, 38}}};

// magma from t = 1 (pale yellow) down to t = 0.2 (purple)
constexpr Stops kMagmaLight = {{{252, 253, 191},
                                {254, 211, 149},
                                {254, 169, 114},
                                {248, 125, 94},
                                {229, 89, 100},
                                {200, 62, 115},
                                {167, 48, 124},
                                {134, 36, 129},
                                {100, 26, 128}}};


std::array<float, 3> Sample(const Stops& stops, float t) {
  t = std::clamp(std::isfinite(t) ? t : 0.0f, 0.0f, 1.0f);
  const float x = t * static_cast<float>(stops.size() - 1);
  const int i = std::min(static_cast<int>(x), static_cast<int>(stops.size()) - 2);
  const float f = x - static_cast<float>(i);
  std::array<float, 3> rgb;
  // interpolate in linear light
  for (int c = 0; c < 3; ++c) {
    rgb[c] = (1 - f) * SrgbToLinear(stops[i][c]) + f * SrgbToLinear(stops[i + 1][c]);
  }
  return rgb;
}

}  // namespace


StrainLegend ComputeStrainLegend(const VisualFrame& frame, const RenderOptions& options) {
  StrainLegend legend;
  legend.field = options.strain_field;
  const bool volumetric = options.strain_field == StrainField::kVolumetric;
  legend.title = volumetric ? "volumetric strain J - 1" : "von Mises stress";
  legend.unit = volumetric ? "" : "Pa";
  // extremes of the frame's values, and their magnitudes for the fitted range
  std::vector<float> magnitudes;
  for (const VisualSoftBody& body : frame.soft_bodies) {
    for (float v : volumetric ? body.volumetric_strain : body.von_mises) {
      if (!std::isfinite(v)) continue;
      legend.data_min = magnitudes.empty() ? v : std::min(legend.data_min, v);
      legend.data_max = magnitudes.empty() ? v : std::max(legend.data_max, v);
      magnitudes.push_back(std::abs(v));
    }
  }
  // a fixed range, or the data's robust extent, never below the round-off floor
  float range = options.strain_range;
  if (!(range > 0)) {
    range = 0;
    if (!magnitudes.empty()) {
      const auto k = static_cast<std::ptrdiff_t>(
          std::ceil(kRangeQuantile * static_cast<float>(magnitudes.size() - 1)));
      std::nth_element(magnitudes.begin(), magnitudes.begin() + k, magnitudes.end());
      range = magnitudes[k];
    }
    range = std::max(range, volumetric ? kMinVolumetricRange : kMinVonMisesRange);
  }
  legend.min = volumetric ? -range : 0.0f;
  legend.max = range;
  return legend;
}


std::array<float, 3> StrainColor(float value, const StrainLegend& legend) {
  const float span = legend.max - legend.min;
  const float t = span > 0 ? (value - legend.min) / span : 0.5f;
  return legend.field == StrainField::kVolumetric ? Sample(kCoolWarm, t) : Sample(kMagmaLight, t);
}


std::string FormatStrainValue(float value, const StrainLegend& legend) {
  char text[64];
  if (legend.field == StrainField::kVolumetric) {
    std::snprintf(text, sizeof(text), "%+.2f %%", 100.0 * value);
    return text;
  }
  // SI prefix chosen on the magnitude
  constexpr std::array<std::pair<double, const char*>, 3> kPrefixes = {
      {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}}};
  const char* prefix = "";
  double scaled = value;
  for (const auto& [factor, name] : kPrefixes) {
    if (std::abs(value) >= factor) {
      prefix = name;
      scaled = value / factor;
      break;
    }
  }
  std::snprintf(text, sizeof(text), "%.3g %s%s", scaled, prefix, legend.unit.c_str());
  return text;
}

}  // namespace sim::render
