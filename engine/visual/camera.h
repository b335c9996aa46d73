// Orbit camera shared by the studio viewport, the offscreen renderer and the tests (which project
// scene points to pixels to check screenshots). Conventions:
//   view space: right-handed, camera looks along -z, +y up;
//   clip space: Vulkan (x right, y DOWN, depth in [0, 1]); the projection flips y so that the
//   world's up axis points up on screen;
//   pixels: origin at the top-left corner, x right, y down, pixel centres at +0.5.
#pragma once

#include <optional>

#include <Eigen/Core>

#include "engine/model/model.h"

namespace sim {

class OrbitCamera {
 public:
  OrbitCamera() = default;
  OrbitCamera(const CameraSetup& setup, const Vec3& up);

  /// Eye position in world [m].
  Eigen::Vector3f Eye() const;
  /// World-to-view transform.
  Eigen::Matrix4f ViewMatrix() const;
  /// View-to-clip transform (Vulkan clip conventions) for width/height `aspect`.
  Eigen::Matrix4f ProjectionMatrix(float aspect) const;
  /// Pixel of world point `p_W` in an image of `width`×`height`, or nullopt behind the camera.
  std::optional<Eigen::Vector2f> ProjectToPixel(const Vec3& p_W, int width, int height) const;

  /// Rotates around the target: `yaw`/`pitch` increments in degrees; pitch is clamped to ±89°.
  void Orbit(float yaw_deg, float pitch_deg);
  /// Moves the target in the view plane by a fraction of the view height (dx right, dy up).
  void Pan(float dx_fraction, float dy_fraction);
  /// Multiplies the eye distance by `factor` (< 1 zooms in), clamped to [near·2, far/2].
  void Zoom(float factor);
  /// Frames the box [lower, upper] (world [m]): the target moves to its centre and the eye backs
  /// off along the current view direction until the box's bounding sphere spans `fill` of the
  /// narrower field of view of an image of width/height `aspect`; yaw, pitch and fov stay.
  /// An empty or non-finite box leaves the camera as it is.
  void FrameBox(const Eigen::Vector3f& lower, const Eigen::Vector3f& upper, float aspect,
                float fill = 0.8f);

  Eigen::Vector3f target = Eigen::Vector3f(0, 0, 0.5f);  ///< [m]
  Eigen::Vector3f up = Eigen::Vector3f::UnitZ();         ///< world up (unit)
  float distance = 6;                                    ///< [m]
  float yaw_deg = 35;                                    ///< about `up` [deg]
  float pitch_deg = 25;                                  ///< above the horizon [deg]
  float fov_y_deg = 45;                                  ///< vertical field of view [deg]
  float near_plane = 0.05f;                              ///< [m]
  float far_plane = 500.0f;                              ///< [m]
};

}  // namespace sim
