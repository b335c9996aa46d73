// Markers the viewer draws over the scene, as instances of the unit arrow, sphere and box meshes:
// contact points with normal and friction force arrows and friction ellipses (contacts view),
// structure-field dashes (structure view), joint frames, centres of mass, what holds things
// (joint anchors and their world mounts, attachment struts, fixed FEM nodes) and the mouse drag
// spring. Sizes follow the view (a fraction of its height at the camera
// target) so markers stay readable at any zoom; force arrows scale linearly with force, the
// frame's largest force drawn RenderOptions::arrow_length long. CPU only (tests check it without
// a device).
#pragma once

#include <array>
#include <vector>

#include <Eigen/Core>

#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/render_options.h"

namespace sim::render {

/// The unit mesh a marker is drawn with.
enum class MarkerMesh { kArrow = 0, kSphere, kBox };

struct Marker {
  MarkerMesh mesh = MarkerMesh::kSphere;
  /// Marker-to-world transform, row-major 3×4 [R | p] (p in m); an arrow points along its z.
  std::array<float, 12> X_WM = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  std::array<float, 4> scale = {1, 1, 1, 0};  ///< as MeshScale (arrow: r, r, r, shaft length)
  std::array<float, 4> color = {1, 1, 1, 1};  ///< linear RGBA
  /// drawn faintly where the scene hides it (force arrows inside bodies); false: hidden like
  /// scene geometry (dashes on surfaces)
  bool ghost = true;
};

// marker colours (linear RGB)
inline constexpr std::array<float, 3> kNormalForceColor = {0.05f, 0.30f, 1.00f};  // blue
inline constexpr std::array<float, 3> kStickColor = {0.05f, 0.75f, 0.10f};        // green
inline constexpr std::array<float, 3> kSlipColor = {1.00f, 0.22f, 0.02f};         // orange-red
inline constexpr std::array<float, 3> kInactiveContactColor = {0.35f, 0.35f, 0.35f};
inline constexpr std::array<float, 3> kDragColor = {0.95f, 0.05f, 0.80f};  // magenta
inline constexpr std::array<float, 3> kComColor = {1.00f, 0.80f, 0.02f};   // yellow
inline constexpr std::array<float, 3> kJointAxisColor = {1.00f, 0.85f, 0.10f};
inline constexpr std::array<float, 3> kFrictionEllipseColor = {0.95f, 0.85f, 0.10f};  // yellow
inline constexpr std::array<float, 3> kJointAnchorColor = {0.02f, 0.75f, 0.95f};      // cyan
inline constexpr std::array<float, 3> kMountColor = {0.10f, 0.10f, 0.12f};            // black
inline constexpr std::array<float, 3> kAttachmentColor = {0.55f, 0.10f, 0.95f};       // violet
inline constexpr std::array<float, 3> kFixedNodeColor = {0.90f, 0.06f, 0.06f};        // red
// structure dashes: grey where there is no grain (w = 0), through teal (w = ½) to orange (w = 1)
inline constexpr std::array<float, 3> kNoGrainColor = {0.45f, 0.45f, 0.45f};
inline constexpr std::array<float, 3> kHalfGrainColor = {0.02f, 0.55f, 0.60f};
inline constexpr std::array<float, 3> kFullGrainColor = {1.00f, 0.35f, 0.02f};

// marker sizes as fractions of the view height at the camera target
inline constexpr float kArrowRadiusPerView = 0.0035f;
inline constexpr float kContactPointRadiusPerView = 0.008f;
inline constexpr float kJointAxisLengthPerView = 0.05f;
inline constexpr float kComRadiusPerView = 0.008f;
inline constexpr float kJointAnchorRadiusPerView = 0.010f;
/// A world mount: a plate of this half width (its half thickness a quarter of it).
inline constexpr float kMountHalfWidthPerView = 0.022f;
/// Attachment ends and fixed nodes: spheres and cubes of this radius (half size).
inline constexpr float kHoldRadiusPerView = 0.005f;
/// Segments of a friction ellipse's outline.
inline constexpr int kEllipseSegments = 32;
/// Cones with |μ_t − μ_b| ≤ this fraction of the larger are round: no ellipse is drawn.
inline constexpr float kRoundConeTolerance = 1e-3f;
/// Structure dashes: width and thickness as fractions of their length; lifted this fraction of
/// their length off the surface.
inline constexpr float kDashWidthPerLength = 0.12f;
inline constexpr float kDashLiftPerLength = 0.04f;

/// Colour of a structure dash of strength w in [0, 1] (kNoGrainColor → kHalfGrainColor →
/// kFullGrainColor, linear in w on each half).
std::array<float, 3> GrainColor(float strength);

/// Height of the view at the camera's target, 2·d·tan(fov/2) [m].
float ViewHeightAtTarget(const OrbitCamera& camera);

/// Which contacts the arrows' scale was fitted to: those touching the selected body when it has
/// any, else those in view (inside the camera's frustum), else all of the frame's.
enum class ForceScaleReference { kNone = 0, kSelectedBody, kInView, kAll };

/// With the log option, f₀ of the arrow length log(1 + f/f₀) as a fraction of the scale's force.
inline constexpr float kLogForceFloor = 1e-2f;
/// Arrows are never drawn longer than this many times the scale's arrow (longer ones are clipped
/// to it and counted in ForceScale::clipped).
inline constexpr float kMaxArrowFactor = 2.0f;

/// Force-to-length scale of the contact arrows: the force `max_force` [N] (the largest normal or
/// friction force of the reference contacts; 0 when there is none) is drawn `reference_length`
/// [m] long (RenderOptions::arrow_length of the view height), linearly at `meters_per_newton`
/// [m/N] or on a log scale.
struct ForceScale {
  float meters_per_newton = 0;
  float max_force = 0;
  float reference_length = 0;
  bool log = false;
  ForceScaleReference reference = ForceScaleReference::kNone;
  int clipped = 0;  ///< arrows of the frame longer than kMaxArrowFactor × reference_length
};
/// The scale of the frame's contact arrows in a view `view_height` high at the camera's target.
/// With `view_projection` (world → Vulkan clip) only contacts inside the view fit it, unless
/// the selected body touches some (then those do).
ForceScale ComputeForceScale(const VisualFrame& frame, const RenderOptions& options,
                             float view_height, const Eigen::Matrix4f* view_projection = nullptr);
/// The drawn length of an arrow of `force` [N] ≥ 0 at `scale` [m], at most kMaxArrowFactor ×
/// the reference length.
float ArrowLength(const ForceScale& scale, float force);
/// "the selected body's contacts", "contacts in view", "all contacts" or "no contacts".
const char* ForceScaleReferenceName(ForceScaleReference reference);

/// An arrow from `from` along unit `direction`, `length` [m] long (head included) with shaft
/// radius `radius` [m] (thinned so the head never exceeds the length).
Marker MakeArrowMarker(const std::array<float, 3>& from, const std::array<float, 3>& direction,
                       float length, float radius, const std::array<float, 3>& color);

/// A sphere of `radius` [m] at `centre` (world).
Marker MakeSphereMarker(const Eigen::Vector3f& centre, float radius,
                        const std::array<float, 3>& color);

/// A flat bar (box) centred at `centre` along unit `along`, lying in the plane of unit `normal`:
/// half length, half width, half thickness [m].
Marker MakeBarMarker(const Eigen::Vector3f& centre, const Eigen::Vector3f& along,
                     const Eigen::Vector3f& normal, float half_length, float half_width,
                     float half_thickness, const std::array<float, 3>& color);

/// Appends the markers of `frame` that `options` asks for (contacts, and the friction ellipses of
/// anisotropic ones, in the contacts view, structure dashes in the structure view, joint frames,
/// centres of mass, joint anchors, attachments and fixed nodes, the drag spring when active) to
/// `markers`. A joint's anchor is a cyan sphere at its frame's origin; one that holds a body to
/// the world also gets a black mount plate across the up axis, resting on the sphere. An attachment
/// is a violet strut from the holding body's centre of mass to the held point, ending in a sphere
/// (a mount when the world holds it); a fixed FEM node is a red cube. A friction ellipse is the set
/// of friction forces the cone allows at the contact's normal force, |λ_t|²/μ_t² + |λ_b|²/μ_b² ≤
/// λ_n² (digest nsn-and-friction.md §2.12), drawn to the force arrows' scale around the contact
/// point in its tangent plane (semi-axes μ_t·λ_n along t and μ_b·λ_n along b), so a sliding
/// contact's friction arrow ends on it.
/// `view_projection` (world → Vulkan clip), when given, fits the contact arrows' scale to the
/// contacts in view (ComputeForceScale).
void BuildMarkers(const VisualFrame& frame, const RenderOptions& options, float view_height,
                  std::vector<Marker>* markers, const Eigen::Matrix4f* view_projection = nullptr);

}  // namespace sim::render
