// The ring the viewport draws around the contact the inspector follows, on the overlay's
// background draw list (behind its windows), so the picked contact stays findable among many.
#pragma once

#include "engine/core/math.h"
#include "engine/visual/camera.h"

namespace sim::ui {

/// Draws a ring of kContactHighlightRadius pixels around world point `point_W` as `camera` sees
/// it in the ImGui main viewport (nothing when it is behind the camera). Call between
/// ImGui::NewFrame and ImGui::Render.
void DrawContactHighlight(const Vec3& point_W, const OrbitCamera& camera);

/// Radius of the ring [logical px]: the click radius that picks a contact (kContactPickRadius).
inline constexpr float kContactHighlightRadius = 10.0f;

}  // namespace sim::ui
