// Scalar and small-vector types of the engine. The CPU engine computes in double precision; the
// render snapshot converts to float once per published frame.
#pragma once

#include <limits>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace sim {

using Real = double;
using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

/// +∞ in Real: an unbounded limit (a rigid row's stiffness, a drive without a force limit)
inline constexpr Real kInfinity = std::numeric_limits<Real>::infinity();

/// Rigid transform X_AB: pose of frame B measured and expressed in frame A. p [m], q unit
/// quaternion.
struct Pose {
  Vec3 p = Vec3::Zero();
  Quat q = Quat::Identity();

  Vec3 operator*(const Vec3& point_B) const { return p + q * point_B; }
  Pose operator*(const Pose& X_BC) const { return {p + q * X_BC.p, (q * X_BC.q).normalized()}; }
  Pose Inverse() const {
    const Quat qi = q.conjugate();
    return {-(qi * p), qi};
  }
};

}  // namespace sim
