// The world box around what a VisualFrame draws, for the viewer's frame-all and frame-selection
// (OrbitCamera::FrameBox).
#pragma once

#include <optional>

#include <Eigen/Core>

#include "engine/visual/visual_frame.h"

namespace sim {

/// An axis-aligned box, world [m].
struct Box3f {
  Eigen::Vector3f lower = Eigen::Vector3f::Constant(1e30f);
  Eigen::Vector3f upper = Eigen::Vector3f::Constant(-1e30f);
  void Add(const Eigen::Vector3f& p) {
    lower = lower.cwiseMin(p);
    upper = upper.cwiseMax(p);
  }
  bool empty() const { return !((upper - lower).minCoeff() >= 0); }
};

/// Bounds of what `frame` draws: shapes (planes excepted: they are infinite), mesh instances (their
/// vertices), soft bodies (their nodes); of body `body`'s shapes and meshes only when given.
/// Collision-only shapes count only when `with_collision` (the viewer shows them). nullopt when
/// nothing bounded is drawn (an empty scene, a ground alone, a body without geometry).
std::optional<Box3f> FrameBounds(const VisualFrame& frame, std::optional<int> body = std::nullopt,
                                 bool with_collision = false);

}  // namespace sim
