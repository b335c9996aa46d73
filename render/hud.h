// Dear ImGui widgets of the viewer's overlay that belong to the renderer: the strain colour bar,
// the contact-arrow legend, and the view controls that edit RenderOptions. Used by the studio's
// viewport overlay and by the offscreen renderer (legends in `contact-sim render` images). Call
// between ImGui::NewFrame() and ImGui::Render() on the thread that owns the ImGui context.
#pragma once

#include <string>

#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/render_options.h"
#include "render/scene_markers.h"
#include "render/strain_colors.h"

namespace sim::render {

/// A vertical colour bar with the field's name, its end and middle values and units, anchored
/// at the viewport's bottom-right corner.
void DrawStrainColorBar(const StrainLegend& legend);

/// Swatches of the contact markers (normal force, stick and slip friction) and the arrow scale,
/// anchored at the viewport's bottom-right corner.
void DrawContactLegend(const ForceScale& scale);

/// The structure view's legend: the dash colours by strength.
void DrawStructureLegend();

/// The legend the view mode of `options` needs (nothing in the shaded view or when
/// options.show_legend is false), for `frame` seen by `camera`.
void DrawLegends(const VisualFrame& frame, const RenderOptions& options, const OrbitCamera& camera);

/// `text` in a translucent box at the viewport's top-left corner (a video frame's simulated time).
void DrawCaption(const std::string& text);

/// A "View" panel at the viewport's top-right corner: view mode, strain field, marker and
/// collision toggles, shadows. Returns true when the user changed `*options`.
bool DrawViewControls(RenderOptions* options);

}  // namespace sim::render
