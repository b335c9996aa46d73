// Composing the drawn view of several simulation lanes (`contact-studio --compare A,B`): lane k's
// snapshot is drawn moved by k·offset next to lane 0, without its static world shapes (the ground
// is drawn once, by lane 0). Body indices stay those of the lane's model, so a selected body is
// highlighted in every lane.
#pragma once

#include "engine/core/math.h"
#include "engine/model/model.h"
#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"

namespace sim {
struct State;
}

namespace sim::ui {

/// Opacity of an overlaid lane's bodies (AppendLaneFrame with `ghost`).
constexpr float kLaneGhostOpacity = 0.35f;

/// Appends the moving parts of `lane` (bodies' shapes and meshes, soft bodies, contacts marked
/// with `lane_index`, the structure glyphs not on the world) to `*view`, translated by `offset`
/// [m]. Mesh assets are shared (deduplicated by pointer). With `ghost` the bodies are drawn
/// see-through in the lane's colour (lanes overlaid instead of side by side).
void AppendLaneFrame(const VisualFrame& lane, const Vec3& offset, int lane_index, VisualFrame* view,
                     bool ghost = false);

/// Offset [m] between neighbouring lanes along the unit vector `across` (e.g. the camera's right
/// axis): the extent of the scene's dynamic bodies and particles along `across`, plus a gap of a
/// third of it (at least 0.5 m), so lanes stand side by side without overlapping.
Vec3 LaneOffset(const Model& model, const State& state, const Vec3& across);

/// Where the viewport labels a lane with its solver [m, world]: 10 cm above the top of its moving
/// shapes and particles, over their middle (lane 0's place; add the lane's offset).
Vec3 LaneLabelPoint(const Model& model, const State& state);

/// The camera `home` moved to see `lanes` lanes `offset` apart: its target moves to the middle lane
/// and it backs off by the added half width over tan(fov_y / 2) (the narrower of the two fields of
/// view for a landscape viewport).
OrbitCamera CompareCamera(const OrbitCamera& home, const Vec3& offset, int lanes);

}  // namespace sim::ui
