// VisualFrame: the render-ready snapshot the simulation publishes and the renderer reads. Plain
// float data, no engine internals, so the renderer (Vulkan) and any other consumer (recorder, test)
// never touch Model or State while the solver is stepping.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/model/model.h"

namespace sim {

struct State;

/// One shape instance to draw.
struct VisualShape {
  ShapeType type = ShapeType::kNone;
  /// Shape parameters [m]: box half extents (x, y, z); sphere (r, -, -); capsule and cylinder
  /// (r, half length, -); plane: (half size of the drawn square, grid cell size, -).
  std::array<float, 3> size = {0, 0, 0};
  /// Shape-to-world transform, row-major 3×4 [R | p] (p in m).
  std::array<float, 12> X_WS = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  std::array<float, 4> color = {0.7f, 0.7f, 0.7f, 1.0f};  ///< linear RGBA
  std::int32_t body = kWorldBody;                         ///< owning body, for picking
};

struct VisualFrame {
  double time = 0;                      ///< simulated time [s]
  std::uint64_t step = 0;               ///< steps taken
  std::array<float, 3> up = {0, 0, 1};  ///< world up axis
  std::vector<VisualShape> shapes;
};

/// Builds the snapshot of `state` (poses of every shape in world).
VisualFrame MakeVisualFrame(const Model& model, const State& state);

/// Drawn half size of an infinite plane [m] and its grid cell [m].
inline constexpr float kPlaneDrawHalfSize = 50.0f;
inline constexpr float kPlaneGridCell = 0.5f;

}  // namespace sim
