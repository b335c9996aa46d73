// The model's rigid bodies as kinematic trees in reduced coordinates θ, for the reduced-coordinate
// solvers (architecture §3; seed 003, digest add-and-pbti.md §B.3): every body that is no joint's
// child is a root, floating with 6 degrees of freedom (or fixed when static); every revolute,
// continuous or prismatic joint adds one coordinate, a fixed joint none. A body's pose follows
// from its root's pose and the joint coordinates on its path,
//   X_WC = X_WP · X_PJ · M(θ_j) · X_CJ⁻¹   (kinematic_chain.h),
// and its geometric Jacobian from the joints' world axes. A root's rotation coordinates are a
// rotation vector about the world axes applied to its current orientation (Retract), so the
// Jacobian is exact at every configuration.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "engine/core/diagnostics.h"
#include "engine/core/math.h"

namespace sim {

struct Model;
struct State;

/// A configuration: the roots' poses and every joint's coordinate [rad|m] (0 for joints without
/// one).
struct ArticulationConfig {
  std::vector<Pose> root_pose;  ///< per body; read for roots only
  std::vector<Real> joint_position;
};

class Articulation {
 public:
  /// The most coordinates the dense solvers accept (their step is O(n³)).
  static constexpr int kMaxDofs = 300;

  /// What of `model` has no reduced-coordinate form here (particles and soft bodies aside, which
  /// the solver features refuse): ball and planar joints, compliant joints, mimic couplings,
  /// joint friction, closed loops, more than kMaxDofs coordinates. Errors name the joint or body.
  static Diagnostics Check(const Model& model, std::string_view solver);

  /// The trees of a model that Check accepts.
  explicit Articulation(const Model& model);

  int dof_count() const { return dof_count_; }
  /// The model the trees were built from.
  const Model* model() const { return model_; }

  /// The configuration of `state` (joint coordinates read back by JointCoordinate).
  ArticulationConfig FromState(const State& state) const;

  /// World pose of every body at `config` (static bodies keep `static_poses`).
  void Poses(const ArticulationConfig& config, const std::vector<Pose>& static_poses,
             std::vector<Pose>* X_WB) const;

  /// `config` moved by `scale`·`delta` (dof_count entries) into `*out` (its storage reused; not
  /// `config` itself): roots translated and turned by a world rotation vector, joints advanced.
  void Retract(const ArticulationConfig& config, const Eigen::VectorXd& delta, Real scale,
               ArticulationConfig* out) const;

  /// The (6 · bodies) × n Jacobian at the poses `X_WB`: rows 6b..6b+2 the velocity of body b's
  /// origin (its COM) [m/s per unit θ̇], rows 6b+3..6b+5 its world angular velocity.
  void Jacobian(const std::vector<Pose>& X_WB, Eigen::MatrixXd* J) const;

  /// Joint j's coordinate index in θ, or −1.
  int joint_dof(int j) const { return joint_dof_[j]; }
  /// Body b's first coordinate when it is a floating root (3 translations, 3 rotations), or −1.
  int root_dof(int b) const { return root_dof_[b]; }

 private:
  const Model* model_;
  int dof_count_ = 0;
  std::vector<int> order_;         ///< bodies, each after its parent
  std::vector<int> parent_joint_;  ///< per body, −1 for a root
  std::vector<int> joint_dof_;     ///< per joint
  std::vector<int> root_dof_;      ///< per body
  std::vector<int> root_of_;       ///< per body, its tree's root
  /// per body, the joints with a coordinate on its path from the root (they move it)
  std::vector<std::vector<int>> path_joints_;
};

}  // namespace sim
