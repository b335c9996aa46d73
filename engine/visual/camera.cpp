#include "engine/visual/camera.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <Eigen/Geometry>

namespace sim {

namespace {

constexpr float kDegToRad = std::numbers::pi_v<float> / 180.0f;

// two unit vectors spanning the horizontal plane, forming a right-handed frame with `up`
void HorizontalBasis(const Eigen::Vector3f& up, Eigen::Vector3f* e1, Eigen::Vector3f* e2) {
  const Eigen::Vector3f seed =
      std::abs(up.x()) < 0.9f ? Eigen::Vector3f::UnitX() : Eigen::Vector3f::UnitY();
  *e1 = (seed - seed.dot(up) * up).normalized();
  *e2 = up.cross(*e1);
}

}  // namespace


OrbitCamera::OrbitCamera(const CameraSetup& setup, const Vec3& up_axis)
    : target(setup.target.cast<float>()),
      up(up_axis.cast<float>().normalized()),
      distance(static_cast<float>(setup.distance)),
      yaw_deg(static_cast<float>(setup.yaw_deg)),
      pitch_deg(static_cast<float>(setup.pitch_deg)),
      fov_y_deg(static_cast<float>(setup.fov_y_deg)) {}


Eigen::Vector3f OrbitCamera::Eye() const {
  Eigen::Vector3f e1, e2;
  HorizontalBasis(up, &e1, &e2);
  const float yaw = yaw_deg * kDegToRad;
  const float pitch = pitch_deg * kDegToRad;
  // direction from target to eye: yaw around up, pitch above the horizontal plane
  const Eigen::Vector3f horizontal = std::cos(yaw) * e1 + std::sin(yaw) * e2;
  const Eigen::Vector3f dir = std::cos(pitch) * horizontal + std::sin(pitch) * up;
  return target + distance * dir;
}


Eigen::Matrix4f OrbitCamera::ViewMatrix() const {
  const Eigen::Vector3f eye = Eye();
  const Eigen::Vector3f back = (eye - target).normalized();   // view +z
  const Eigen::Vector3f right = up.cross(back).normalized();  // view +x
  const Eigen::Vector3f true_up = back.cross(right);          // view +y
  Eigen::Matrix4f view = Eigen::Matrix4f::Identity();
  view.block<1, 3>(0, 0) = right.transpose();
  view.block<1, 3>(1, 0) = true_up.transpose();
  view.block<1, 3>(2, 0) = back.transpose();
  view(0, 3) = -right.dot(eye);
  view(1, 3) = -true_up.dot(eye);
  view(2, 3) = -back.dot(eye);
  return view;
}


Eigen::Matrix4f OrbitCamera::ProjectionMatrix(float aspect) const {
  // right-handed perspective to Vulkan clip space: y flipped, depth 0 at near, 1 at far
  const float f = 1.0f / std::tan(0.5f * fov_y_deg * kDegToRad);
  const float n = near_plane;
  const float fa = far_plane;
  Eigen::Matrix4f proj = Eigen::Matrix4f::Zero();
  proj(0, 0) = f / aspect;
  proj(1, 1) = -f;
  proj(2, 2) = fa / (n - fa);
  proj(2, 3) = fa * n / (n - fa);
  proj(3, 2) = -1.0f;
  return proj;
}


std::optional<Eigen::Vector2f> OrbitCamera::ProjectToPixel(const Vec3& p_W, int width,
                                                           int height) const {
  const Eigen::Vector4f p(static_cast<float>(p_W.x()), static_cast<float>(p_W.y()),
                          static_cast<float>(p_W.z()), 1.0f);
  const Eigen::Vector4f clip =
      ProjectionMatrix(static_cast<float>(width) / static_cast<float>(height)) * ViewMatrix() * p;
  if (clip.w() <= 1e-6f) return std::nullopt;
  const float x_ndc = clip.x() / clip.w();
  const float y_ndc = clip.y() / clip.w();
  // Vulkan viewport transform: NDC (-1,-1) is the top-left corner
  return Eigen::Vector2f(0.5f * (x_ndc + 1.0f) * width, 0.5f * (y_ndc + 1.0f) * height);
}


void OrbitCamera::Orbit(float d_yaw_deg, float d_pitch_deg) {
  yaw_deg = std::fmod(yaw_deg + d_yaw_deg, 360.0f);
  pitch_deg = std::clamp(pitch_deg + d_pitch_deg, -89.0f, 89.0f);
}


void OrbitCamera::Pan(float dx_fraction, float dy_fraction) {
  const Eigen::Vector3f back = (Eye() - target).normalized();
  const Eigen::Vector3f right = up.cross(back).normalized();
  const Eigen::Vector3f true_up = back.cross(right);
  // one fraction of the view height at the target's distance
  const float view_height = 2.0f * distance * std::tan(0.5f * fov_y_deg * kDegToRad);
  target += view_height * (-dx_fraction * right - dy_fraction * true_up);
}


void OrbitCamera::Zoom(float factor) {
  distance = std::clamp(distance * factor, 2.0f * near_plane, 0.5f * far_plane);
}


void OrbitCamera::FrameBox(const Eigen::Vector3f& lower, const Eigen::Vector3f& upper, float aspect,
                           float fill) {
  if (!lower.allFinite() || !upper.allFinite() || (upper - lower).minCoeff() < 0) return;
  if (!(aspect > 0) || !(fill > 0)) return;
  // the narrower half angle: vertical, or horizontal in a portrait image
  const float half_y = 0.5f * fov_y_deg * kDegToRad;
  const float half_x = std::atan(aspect * std::tan(half_y));
  const float half = std::min(half_y, half_x);
  // a sphere of radius r seen from distance d spans the half angle asin(r / d)
  const float radius = std::max(0.5f * (upper - lower).norm(), 1e-3f);
  target = 0.5f * (lower + upper);
  distance = std::clamp(radius / std::sin(std::min(fill, 1.0f) * half), 2.0f * near_plane,
                        0.5f * far_plane);
}

}  // namespace sim
