// The teleop gizmo: translate arrows and rotate rings on an end effector's pose target, drawn as
// markers and hit and dragged with the mouse (the studio's viewport does the dragging with these
// functions, so what is drawn is what is picked). The handles are world-aligned (global mode,
// like MuJoCo's mocap perturbation): arrow k moves the target along world axis k, ring k turns it
// about world axis k. Sizes follow the view (fractions of its height at the camera target). CPU
// only; no Vulkan.
#pragma once

#include <vector>

#include "engine/core/math.h"
#include "engine/visual/visual_frame.h"
#include "render/scene_markers.h"

namespace sim::render {

enum class GizmoHandle {
  kNone = 0,
  kTranslateX,
  kTranslateY,
  kTranslateZ,
  kRotateX,
  kRotateY,
  kRotateZ,
};

// gizmo sizes as fractions of the view height at the camera target
inline constexpr float kGizmoArrowLengthPerView = 0.14f;
inline constexpr float kGizmoRingRadiusPerView = 0.10f;
/// how close a ray must pass to a handle to hit it
inline constexpr float kGizmoPickTolerancePerView = 0.012f;
inline constexpr std::array<float, 3> kTeleopTargetColor = {0.10f, 0.85f, 0.95f};  // cyan

/// Appends the markers of the teleop targets: every target a small sphere with a line to its end
/// effector; the active one (`gizmo`) also the three arrows (red x, green y, blue z) and rings.
void AddTeleopMarkers(const VisualFrame& frame, float view_height, std::vector<Marker>* markers);

/// The handle of the gizmo at `center` [m] that the ray (origin, unit direction) hits, the
/// nearest along the ray; kNone when it misses them all.
GizmoHandle PickGizmoHandle(const Vec3& center, Real view_height, const Vec3& ray_origin,
                            const Vec3& ray_direction);

/// The pose target after dragging `handle` from where ray `from` crossed it to ray `to`, starting
/// at `start` (translate: along the axis by the motion of the closest point on it; rotate: about
/// the axis through the target by the angle swept in the ring's plane). Returns `start` where the
/// drag is undefined (a ray parallel to the axis or to the ring's plane).
Pose DragGizmo(GizmoHandle handle, const Pose& start, const Vec3& from_origin,
               const Vec3& from_direction, const Vec3& to_origin, const Vec3& to_direction);

}  // namespace sim::render
