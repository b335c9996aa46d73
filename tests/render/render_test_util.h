// Shared by the offscreen render tests: a renderer that skips without a Vulkan driver, shapes
// built from a position and rotation, projection of world points to pixels, image differences.
#pragma once

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <Eigen/Core>

#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/offscreen_renderer.h"
#include "render/vk/vk_check.h"

namespace sim::render::render_test {

/// The renderer, or nullptr with `skip_reason` set when the machine has no Vulkan driver at all.
inline std::unique_ptr<OffscreenRenderer> MakeRenderer(int width, int height, int samples,
                                                       bool shader_srgb, std::string* skip_reason) {
  try {
    return std::make_unique<OffscreenRenderer>(width, height, samples, shader_srgb);
  } catch (const DeviceError& e) {
    if (std::string(e.what()).find("no Vulkan driver found") == std::string::npos) throw;
    *skip_reason = e.what();
    return nullptr;
  }
}


/// Row-major 3×4 [R | p] of a rotation and a position.
inline std::array<float, 12> Rows(const Eigen::Vector3f& p_W,
                                  const Eigen::Matrix3f& R_WS = Eigen::Matrix3f::Identity()) {
  std::array<float, 12> rows;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) rows[r * 4 + c] = R_WS(r, c);
    rows[r * 4 + 3] = p_W[r];
  }
  return rows;
}


inline VisualShape MakeShape(ShapeType type, std::array<float, 3> size, const Eigen::Vector3f& p_W,
                             std::array<float, 4> color,
                             const Eigen::Matrix3f& R_WS = Eigen::Matrix3f::Identity()) {
  VisualShape shape;
  shape.type = type;
  shape.size = size;
  shape.color = color;
  shape.X_WS = Rows(p_W, R_WS);
  return shape;
}


/// Pixel of world point `p_W` in a `width`×`height` image (a test failure when behind the
/// camera).
inline Eigen::Vector2f Project(const OrbitCamera& camera, const Eigen::Vector3f& p_W, int width,
                               int height) {
  const std::optional<Eigen::Vector2f> pixel =
      camera.ProjectToPixel(p_W.cast<double>(), width, height);
  EXPECT_TRUE(pixel.has_value());
  return pixel.value_or(Eigen::Vector2f::Zero());
}


/// Mean and maximum absolute channel difference of two images of the same size.
inline std::pair<double, int> ImageDifference(const Image& a, const Image& b) {
  double sum = 0;
  int max = 0;
  for (std::size_t i = 0; i < a.rgba.size(); ++i) {
    const int d = std::abs(static_cast<int>(a.rgba[i]) - static_cast<int>(b.rgba[i]));
    sum += d;
    max = std::max(max, d);
  }
  return {sum / static_cast<double>(a.rgba.size()), max};
}

}  // namespace sim::render::render_test
