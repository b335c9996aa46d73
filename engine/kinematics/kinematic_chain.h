// Kinematic chains read from a maximal-coordinate Model: the actuated joints between a base body
// (or the world) and an end-effector frame, forward kinematics of that frame from joint positions
// q, and its geometric Jacobian. The chain composes the model's own joint frames,
//   X_WC = X_WP · X_PJ · M(q) · X_CJ⁻¹,   M(q) = rotation q about the axis (revolute, continuous)
//                                                 or translation q along it (prismatic),
// the configuration where JointCoordinate (engine/dynamics/constraint_rows.h) reads back q, so
// FK predicts the pose the simulator reaches with those joint positions. Fixed joints are folded
// into the constant transforms between the actuated ones.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "engine/core/diagnostics.h"
#include "engine/core/math.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim {

using VecX = Eigen::VectorXd;
using Jacobian6 = Eigen::Matrix<Real, 6, Eigen::Dynamic>;

/// The actuated joints from a base to an end-effector frame, base first, with the constant
/// transforms between them.
struct KinematicChain {
  int base_body = kWorldBody;    ///< the chain's root body, or the world
  int tip_body = -1;             ///< the body the end-effector frame is fixed in
  Pose X_BE;                     ///< end-effector frame in the tip body frame
  std::vector<int> joints;       ///< model joint indices, base to tip
  std::vector<JointType> types;  ///< kRevolute, kContinuous or kPrismatic per joint
  std::vector<Vec3> axes;        ///< unit axis per joint, in its joint frame
  /// X_offsets[0]: base body frame → first joint frame (parent side); X_offsets[k]: joint k−1's
  /// frame (child side) → joint k's frame (parent side); X_offsets[n]: last joint frame (child
  /// side) → end-effector frame. n + 1 entries.
  std::vector<Pose> X_offsets;
  VecX lower, upper;  ///< joint limits [rad|m]; ∓∞ where a joint is unlimited

  int size() const { return static_cast<int>(joints.size()); }
};

/// Chain from `base_body` (kWorldBody: the world) to the frame X_BE of `tip_body`, walking from
/// the tip to the base through each body's parent joint. Errors (not a descendant of the base,
/// a ball or planar joint on the way, a mimic follower, a body with two parent joints) name the
/// bodies and joints involved.
Expected<KinematicChain> BuildKinematicChain(const Model& model, int base_body, int tip_body,
                                             const Pose& X_BE = Pose{});

/// Same, by names: `tip` a frame (a URDF link "robot/link", welded or not) or a body; `base` a
/// frame's or body's name, or "" for the world (a frame as base must be its body's own frame).
Expected<KinematicChain> BuildKinematicChain(const Model& model, const std::string& base,
                                             const std::string& tip);

/// The chain's joint positions q at `state` (JointCoordinate of each joint) [rad|m].
VecX ChainPositions(const Model& model, const KinematicChain& chain, const State& state);

/// Pose of the chain's base body in the world at `state` (the identity for the world).
Pose ChainBasePose(const KinematicChain& chain, const State& state);

/// End-effector pose in the world for joint positions q, the base at X_WBase.
Pose ChainForwardKinematics(const KinematicChain& chain, const Pose& X_WBase, const VecX& q);

/// The same with the 6×n geometric Jacobian, world frame: rows 0–2 the linear velocity of the
/// end-effector origin [m/s per rad/s or m/s per m/s], rows 3–5 its angular velocity [rad/s per
/// rad/s; 0 for prismatic joints]: column k is [a_k × (p_E − o_k); a_k] for a revolute joint with
/// world axis a_k through o_k, [a_k; 0] for a prismatic one.
Pose ChainForwardKinematics(const KinematicChain& chain, const Pose& X_WBase, const VecX& q,
                            Jacobian6* jacobian);

/// The joint motion M(q) in the joint frame: rotation q [rad] about unit `axis` (revolute,
/// continuous) or translation q [m] along it (prismatic).
Pose JointMotion(JointType type, const Vec3& axis, Real q);

/// World poses of every body with the 1-dof joints at `positions` (one per joint, NaN: as in
/// `state`) [rad|m], composed from each tree's root as the chain's FK does; other joints and
/// roots keep their pose in `state` relative to their parent. Drawn as the drives' target pose.
std::vector<Pose> PosesAtJointPositions(const Model& model, const State& state,
                                        const std::vector<Real>& positions);

}  // namespace sim
