#include "engine/kinematics/articulation.h"

#include <map>
#include <string>
#include <vector>

#include "engine/dynamics/constraint_rows.h"
#include "engine/kinematics/kinematic_chain.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim {
namespace {

bool HasCoordinate(JointType type) {
  return type == JointType::kRevolute || type == JointType::kContinuous ||
         type == JointType::kPrismatic;
}

bool Floating(const Model& model, int b) { return !model.body_static[b] && model.body_mass[b] > 0; }

}  // namespace


Diagnostics Articulation::Check(const Model& model, std::string_view solver) {
  Diagnostics diagnostics;
  const auto refuse = [&](const std::string& what) {
    diagnostics.Error(model.name, 0, "",
                      "solver '" + std::string(solver) + "' does not support " + what +
                          " (reduced coordinates of kinematic trees; use a solver that does, "
                          "e.g. nsn)");
  };
  if (!model.joint_couplings.empty()) refuse("joint couplings (URDF <mimic>)");
  // one error per kind, naming its first joints (a URDF may have dozens)
  std::map<std::string, std::vector<std::string>> joints_of_kind;
  std::vector<int> parent(model.body_count(), -1);
  int dofs = 0;
  for (int j = 0; j < model.joint_count(); ++j) {
    const JointType type = model.joint_type[j];
    const std::string& name = model.joint_name[j];
    if (type != JointType::kFixed && !HasCoordinate(type)) {
      joints_of_kind[std::string(JointTypeName(type)) + " joints"].push_back(name);
    }
    if (model.joint_compliance[j] > 0 || model.JointAngularCompliance(j) > 0) {
      joints_of_kind["compliant joints"].push_back(name);
    }
    if (model.JointFrictionLimit(j) > 0) joints_of_kind["joint friction"].push_back(name);
    const int child = model.joint_child[j];
    if (child < 0 || child >= model.body_count()) continue;
    if (parent[child] >= 0) {
      refuse("closed loops (body '" + model.body_name[child] + "' is the child of joints '" +
             model.joint_name[parent[child]] + "' and '" + name + "')");
    }
    parent[child] = j;
    dofs += HasCoordinate(type) && Floating(model, child);
  }
  for (const auto& [kind, names] : joints_of_kind) {
    std::string list;
    for (std::size_t k = 0; k < names.size() && k < 3; ++k) {
      list += (k == 0 ? "joint '" : ", '") + names[k] + "'";
    }
    if (names.size() > 3) list += ", ... " + std::to_string(names.size()) + " in all";
    refuse(kind + " (" + list + ")");
  }
  for (int b = 0; b < model.body_count(); ++b) {
    if (parent[b] < 0 && Floating(model, b)) dofs += 6;
  }
  if (dofs > kMaxDofs) {
    refuse(std::to_string(dofs) + " degrees of freedom (its dense step takes at most " +
           std::to_string(kMaxDofs) + ")");
  }
  return diagnostics;
}


Articulation::Articulation(const Model& model) : model_(&model) {
  const int bodies = model.body_count();
  parent_joint_.assign(bodies, -1);
  for (int j = 0; j < model.joint_count(); ++j) {
    const int child = model.joint_child[j];
    if (child >= 0 && child < bodies && parent_joint_[child] < 0) parent_joint_[child] = j;
  }
  // each body after its parent, and the coordinates in that order
  std::vector<char> placed(bodies, 0);
  root_dof_.assign(bodies, -1);
  root_of_.assign(bodies, -1);
  joint_dof_.assign(model.joint_count(), -1);
  path_joints_.assign(bodies, {});
  const auto parent_body = [&](int b) {
    const int j = parent_joint_[b];
    return j < 0 ? kWorldBody : model.joint_parent[j];
  };
  for (int b = 0; b < bodies; ++b) {
    std::vector<int> path;
    for (int at = b; at >= 0 && !placed[at]; at = parent_body(at)) path.push_back(at);
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      const int body = *it;
      const int j = parent_joint_[body];
      const int up = parent_body(body);
      placed[body] = 1;
      order_.push_back(body);
      if (j < 0) {
        root_of_[body] = body;
        if (Floating(model, body)) {
          root_dof_[body] = dof_count_;
          dof_count_ += 6;
        }
        continue;
      }
      root_of_[body] = up >= 0 ? root_of_[up] : body;
      if (up >= 0) path_joints_[body] = path_joints_[up];
      if (HasCoordinate(model.joint_type[j]) && Floating(model, body)) {
        joint_dof_[j] = dof_count_++;
        path_joints_[body].push_back(j);
      }
    }
  }
}


ArticulationConfig Articulation::FromState(const State& state) const {
  ArticulationConfig config;
  config.root_pose = state.body_X_WB;
  config.joint_position.assign(model_->joint_count(), 0);
  for (int j = 0; j < model_->joint_count(); ++j) {
    if (joint_dof_[j] >= 0) config.joint_position[j] = JointCoordinate(*model_, state, j);
  }
  return config;
}


void Articulation::Poses(const ArticulationConfig& config, const std::vector<Pose>& static_poses,
                         std::vector<Pose>* X_WB) const {
  X_WB->resize(model_->body_count());
  for (const int b : order_) {
    const int j = parent_joint_[b];
    if (!Floating(*model_, b)) {
      (*X_WB)[b] = static_poses[b];
    } else if (j < 0) {
      (*X_WB)[b] = config.root_pose[b];
    } else {
      const int parent = model_->joint_parent[j];
      const Pose X_WP = parent == kWorldBody ? Pose{} : (*X_WB)[parent];
      const Pose motion = joint_dof_[j] >= 0 ? JointMotion(model_->joint_type[j],
                                                           model_->joint_axis[j].normalized(),
                                                           config.joint_position[j])
                                             : Pose{};
      (*X_WB)[b] = X_WP * model_->joint_X_PJ[j] * motion * model_->joint_X_CJ[j].Inverse();
    }
  }
}


void Articulation::Retract(const ArticulationConfig& config, const Eigen::VectorXd& delta,
                           Real scale, ArticulationConfig* out) const {
  *out = config;
  for (int b = 0; b < model_->body_count(); ++b) {
    const int k = root_dof_[b];
    if (k < 0) continue;
    out->root_pose[b].p += scale * delta.segment<3>(k);
    const Vec3 turn = scale * delta.segment<3>(k + 3);
    const Real angle = turn.norm();
    if (angle > 0) {
      out->root_pose[b].q =
          (Quat(Eigen::AngleAxisd(angle, turn / angle)) * out->root_pose[b].q).normalized();
    }
  }
  for (int j = 0; j < model_->joint_count(); ++j) {
    if (joint_dof_[j] >= 0) out->joint_position[j] += scale * delta[joint_dof_[j]];
  }
}


void Articulation::Jacobian(const std::vector<Pose>& X_WB, Eigen::MatrixXd* J) const {
  const int bodies = model_->body_count();
  J->setZero(6 * bodies, dof_count_);
  for (int b = 0; b < bodies; ++b) {
    if (!Floating(*model_, b)) continue;
    const Vec3& x = X_WB[b].p;
    const int root = root_of_[b];
    if (const int k = root_dof_[root]; k >= 0) {
      // the root's translation moves the tree; its world rotation vector turns it about the root
      const Vec3 lever = x - X_WB[root].p;
      for (int a = 0; a < 3; ++a) {
        J->block<3, 1>(6 * b, k + a) = Vec3::Unit(a);
        J->block<3, 1>(6 * b, k + 3 + a) = Vec3::Unit(a).cross(lever);
        J->block<3, 1>(6 * b + 3, k + 3 + a) = Vec3::Unit(a);
      }
    }
    for (const int j : path_joints_[b]) {
      // joint frame on the child side, where the joint's axis is fixed
      const Pose X_WJ = X_WB[model_->joint_child[j]] * model_->joint_X_CJ[j];
      const Vec3 axis = X_WJ.q * model_->joint_axis[j].normalized();
      const int k = joint_dof_[j];
      if (model_->joint_type[j] == JointType::kPrismatic) {
        J->block<3, 1>(6 * b, k) = axis;
      } else {
        J->block<3, 1>(6 * b, k) = axis.cross(x - X_WJ.p);
        J->block<3, 1>(6 * b + 3, k) = axis;
      }
    }
  }
}

}  // namespace sim
