// What the viewer shows: the view mode and the marker toggles, set by the studio's menus and ImGui
// overlay and by `contact-sim render --view`. Plain data without Vulkan or Qt, so every front-end
// can include it.
#pragma once

#include <optional>
#include <string>

namespace sim::render {

/// How the scene is coloured.
enum class ViewMode {
  kShaded = 0,  ///< lit materials and textures
  kStrain,      ///< soft bodies coloured by a strain field (colour bar in the overlay), the rest
                ///< desaturated
  kContacts,    ///< contact points with normal and friction force arrows and each contact's
                ///< friction ellipse; bodies see-through
  kStructure,   ///< structure fields as dashes along the grain coloured by strength, on
                ///< desaturated bodies
};

/// The per-node field the strain view colours soft bodies by.
enum class StrainField {
  kVolumetric = 0,  ///< J − 1 [-], diverging map: blue compression, white 0, red expansion
  kVonMises,        ///< von Mises stress [Pa], sequential map from pale yellow (0) to purple
};

/// Speed trade-offs fixed when a renderer is created: kFull filters shadows softly (13 taps) in a
/// 2048² map; kFast takes one bilinear tap (hard edges) in a 1024² map; kAuto is kFast on
/// software rasterizers (lavapipe, where each tap costs about 1 ms of a 1280×720 frame and the
/// 2048² map a quarter of it) and kFull on GPUs.
enum class RenderQuality { kAuto = 0, kFull, kFast };

struct RenderOptions {
  ViewMode view = ViewMode::kShaded;
  StrainField strain_field = StrainField::kVolumetric;
  /// Colour bar range: |J − 1| [-] or σ_vm [Pa] at the ends of the map; 0 fits the frame's
  /// values (98th percentile of the magnitudes, symmetric about 0 for J − 1).
  float strain_range = 0;
  bool show_collision = false;     ///< collision shapes hidden by visuals, see-through on top
  bool show_joint_frames = false;  ///< x/y/z axes (red/green/blue) and motion axis (yellow)
  bool show_com = false;           ///< a marker at each dynamic body's centre of mass
  /// what holds things: joint anchors (a mount where a joint holds a body to the world),
  /// attachments (struts from the holding body to the held nodes) and fixed FEM nodes
  bool show_constraints = true;
  bool shadows = true;  ///< key light shadow map
  /// ghosts of bodies at their drives' target pose (VisualShape::drive_target), see-through
  bool show_drive_targets = true;
  /// Contact arrows: the largest force of the frame is drawn this long, as a fraction of the
  /// view's height at the camera target [-] (so arrows stay readable at any zoom).
  float arrow_length = 0.15f;
  /// Contact arrows' length ∝ log(1 + f/f₀) instead of f (f₀ = kLogForceFloor of the scale's
  /// force), so forces a thousand times apart both stay readable.
  bool contact_force_log = false;
  /// Contact arrows: the normal and the friction force apart (MuJoCo's "contact split"), else
  /// one arrow of the total force on A.
  bool contact_force_split = true;
  bool show_legend = true;  ///< colour bar / contact legend in the overlay
};

/// Number of view modes (ViewMode values are 0 .. kViewModeCount − 1).
inline constexpr int kViewModeCount = 4;

/// "shaded", "strain", "contacts", "structure".
const char* ViewModeName(ViewMode mode);
/// The mode named `name` (as ViewModeName), or nullopt.
std::optional<ViewMode> ParseViewMode(const std::string& name);

}  // namespace sim::render
