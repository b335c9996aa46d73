// Pixel helpers shared by the render tests: sampling, colour distance, spread and hue checks on
// sim::render::Image (RGBA8, sRGB-encoded, rows top to bottom).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include <Eigen/Core>

#include "render/offscreen_renderer.h"

namespace sim::render::image_checks {

using Rgb = std::array<int, 3>;

/// Colour of pixel (x, y), clamped into the image.
inline Rgb PixelAt(const Image& image, int x, int y) {
  x = std::clamp(x, 0, image.width - 1);
  y = std::clamp(y, 0, image.height - 1);
  const std::size_t i = (static_cast<std::size_t>(y) * image.width + x) * 4;
  return {image.rgba[i], image.rgba[i + 1], image.rgba[i + 2]};
}

/// Colour of the pixel containing the image point `p` (pixel units, origin top-left).
inline Rgb PixelAt(const Image& image, const Eigen::Vector2f& p) {
  return PixelAt(image, static_cast<int>(std::floor(p.x())), static_cast<int>(std::floor(p.y())));
}

/// Largest per-channel difference [0, 255].
inline int ColorDistance(const Rgb& a, const Rgb& b) {
  return std::max({std::abs(a[0] - b[0]), std::abs(a[1] - b[1]), std::abs(a[2] - b[2])});
}

/// Standard deviation of the pixels' mean channel value over the whole image [0, 255].
inline double PixelStdDev(const Image& image) {
  double sum = 0;
  double sum_squares = 0;
  const std::size_t count = static_cast<std::size_t>(image.width) * image.height;
  for (std::size_t i = 0; i < count; ++i) {
    const double v = (image.rgba[4 * i] + image.rgba[4 * i + 1] + image.rgba[4 * i + 2]) / 3.0;
    sum += v;
    sum_squares += v * v;
  }
  const double mean = sum / count;
  return std::sqrt(std::max(0.0, sum_squares / count - mean * mean));
}

/// Largest colour distance between any pixel of row `y` and its first pixel.
inline int RowSpread(const Image& image, int y) {
  int spread = 0;
  const Rgb first = PixelAt(image, 0, y);
  for (int x = 1; x < image.width; ++x) {
    spread = std::max(spread, ColorDistance(first, PixelAt(image, x, y)));
  }
  return spread;
}

/// Red clearly dominates green and blue.
inline bool IsReddish(const Rgb& c) { return c[0] > c[1] + 40 && c[0] > c[2] + 40; }

}  // namespace sim::render::image_checks
