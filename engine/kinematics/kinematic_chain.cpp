#include "engine/kinematics/kinematic_chain.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/dynamics/constraint_rows.h"

namespace sim {

namespace {

Expected<KinematicChain> ChainError(const std::string& message) {
  Diagnostics errors;
  errors.Error("kinematic chain", 0, "", message);
  return errors;
}


std::string BodyName(const Model& model, int body) {
  return body == kWorldBody ? "the world" : "'" + model.body_name[body] + "'";
}


bool Actuated(JointType type) {
  return type == JointType::kRevolute || type == JointType::kContinuous ||
         type == JointType::kPrismatic;
}


// a frame or body by name: its body and the frame in the body frame; false when unknown
bool FindFrameOrBody(const Model& model, const std::string& name, int* body, Pose* X_BF) {
  const int frame = model.FindFrame(name);
  if (frame >= 0) {
    *body = model.frame_body[frame];
    *X_BF = model.frame_X_BF[frame];
    return true;
  }
  *body = model.FindBody(name);
  *X_BF = Pose{};
  return *body >= 0;
}

}  // namespace


Pose JointMotion(JointType type, const Vec3& axis, Real q) {
  if (type == JointType::kPrismatic) return Pose{q * axis, Quat::Identity()};
  return Pose{Vec3::Zero(), Quat(Eigen::AngleAxis<Real>(q, axis))};
}


std::vector<Pose> PosesAtJointPositions(const Model& model, const State& state,
                                        const std::vector<Real>& positions) {
  const int bodies = model.body_count();
  std::vector<int> parent_joint(bodies, -1);
  for (int j = 0; j < model.joint_count(); ++j) {
    const int child = model.joint_child[j];
    if (child >= 0 && child < bodies && parent_joint[child] < 0) parent_joint[child] = j;
  }
  // each body after its parent: memoised walk towards the root
  std::vector<Pose> poses(bodies);
  std::vector<char> done(bodies, 0);
  std::vector<int> path;
  for (int b = 0; b < bodies; ++b) {
    for (int at = b; at >= 0 && !done[at] && path.size() <= static_cast<std::size_t>(bodies);) {
      path.push_back(at);
      const int j = parent_joint[at];
      at = j < 0 ? -1 : model.joint_parent[j];
    }
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      const int body = *it;
      const int j = parent_joint[body];
      const int parent = j < 0 ? kWorldBody : model.joint_parent[j];
      if (j < 0 || (parent != kWorldBody && !done[parent])) {
        poses[body] = state.body_X_WB[body];  // a root (or a loop): as it is
      } else {
        const Pose X_WP = parent == kWorldBody ? Pose{} : poses[parent];
        const Pose X_WP_now = parent == kWorldBody ? Pose{} : state.body_X_WB[parent];
        const Real q = j < static_cast<int>(positions.size()) ? positions[j] : Real(NAN);
        poses[body] =
            Actuated(model.joint_type[j]) && std::isfinite(q)
                ? X_WP * model.joint_X_PJ[j] *
                      JointMotion(model.joint_type[j], model.joint_axis[j].normalized(), q) *
                      model.joint_X_CJ[j].Inverse()
                : X_WP * (X_WP_now.Inverse() * state.body_X_WB[body]);
      }
      done[body] = 1;
    }
    path.clear();
  }
  return poses;
}


Expected<KinematicChain> BuildKinematicChain(const Model& model, int base_body, int tip_body,
                                             const Pose& X_BE) {
  if (tip_body < 0 || tip_body >= model.body_count()) {
    return ChainError("the end effector needs a body (got index " + std::to_string(tip_body) + ")");
  }
  // the joint whose child each body is (maximal coordinates allow several: a loop)
  std::vector<int> parent_joint(model.body_count(), -1);
  for (int j = 0; j < model.joint_count(); ++j) {
    int& slot = parent_joint[model.joint_child[j]];
    slot = slot == -1 ? j : -2;
  }
  std::vector<int> followers;
  for (const JointCoupling& coupling : model.joint_couplings)
    followers.push_back(coupling.follower);

  // walk from the tip up to the base, collecting joints tip first
  std::vector<int> path;
  int body = tip_body;
  while (body != base_body) {
    if (body == kWorldBody) {
      return ChainError("body " + BodyName(model, tip_body) + " is not a descendant of " +
                        BodyName(model, base_body) + " through joints");
    }
    const int j = parent_joint[body];
    if (j == -1) {
      return ChainError("body " + BodyName(model, body) + " on the way from " +
                        BodyName(model, tip_body) + " to " + BodyName(model, base_body) +
                        " has no parent joint (a free body)");
    }
    if (j == -2) {
      return ChainError("body " + BodyName(model, body) +
                        " is the child of several joints (a closed loop); the chain needs a tree");
    }
    const JointType type = model.joint_type[j];
    if (type != JointType::kFixed && !Actuated(type)) {
      return ChainError("joint '" + model.joint_name[j] + "' on the chain is " +
                        JointTypeName(type) +
                        "; a chain takes revolute, continuous, prismatic and fixed joints only");
    }
    if (std::find(followers.begin(), followers.end(), j) != followers.end()) {
      return ChainError("joint '" + model.joint_name[j] +
                        "' on the chain mimics another joint; the chain cannot drive it");
    }
    path.push_back(j);
    body = model.joint_parent[j];
  }
  std::reverse(path.begin(), path.end());

  // actuated joints with the constant transforms between them (fixed joints folded in)
  KinematicChain chain;
  chain.base_body = base_body;
  chain.tip_body = tip_body;
  chain.X_BE = X_BE;
  Pose offset;  // from the last actuated joint's child frame (or the base) so far
  for (int j : path) {
    if (!Actuated(model.joint_type[j])) {
      offset = offset * model.joint_X_PJ[j] * model.joint_X_CJ[j].Inverse();
      continue;
    }
    chain.X_offsets.push_back(offset * model.joint_X_PJ[j]);
    chain.joints.push_back(j);
    chain.types.push_back(model.joint_type[j]);
    chain.axes.push_back(model.joint_axis[j].normalized());
    offset = model.joint_X_CJ[j].Inverse();
  }
  chain.X_offsets.push_back(offset * X_BE);

  // limits: ∓∞ for continuous and unlimited joints
  const int n = chain.size();
  constexpr Real kInf = std::numeric_limits<Real>::infinity();
  chain.lower = VecX::Constant(n, -kInf);
  chain.upper = VecX::Constant(n, kInf);
  for (int k = 0; k < n; ++k) {
    const int j = chain.joints[k];
    if (chain.types[k] != JointType::kContinuous && model.joint_limited[j]) {
      chain.lower[k] = model.joint_lower[j];
      chain.upper[k] = model.joint_upper[j];
    }
  }
  return chain;
}


Expected<KinematicChain> BuildKinematicChain(const Model& model, const std::string& base,
                                             const std::string& tip) {
  int tip_body = -1;
  Pose X_BE;
  if (!FindFrameOrBody(model, tip, &tip_body, &X_BE)) {
    return ChainError("no link or body named '" + tip + "'");
  }
  int base_body = kWorldBody;
  if (!base.empty()) {
    Pose X_BF;
    if (!FindFrameOrBody(model, base, &base_body, &X_BF)) {
      return ChainError("no link or body named '" + base + "'");
    }
    // a base welded into a larger body is that body (the chain's root is a body frame)
  }
  return BuildKinematicChain(model, base_body, tip_body, X_BE);
}


VecX ChainPositions(const Model& model, const KinematicChain& chain, const State& state) {
  VecX q(chain.size());
  for (int k = 0; k < chain.size(); ++k) q[k] = JointCoordinate(model, state, chain.joints[k]);
  return q;
}


Pose ChainBasePose(const KinematicChain& chain, const State& state) {
  return chain.base_body == kWorldBody ? Pose{} : state.body_X_WB[chain.base_body];
}


Pose ChainForwardKinematics(const KinematicChain& chain, const Pose& X_WBase, const VecX& q) {
  Pose X = X_WBase;
  for (int k = 0; k < chain.size(); ++k) {
    X = X * chain.X_offsets[k] * JointMotion(chain.types[k], chain.axes[k], q[k]);
  }
  return X * chain.X_offsets.back();
}


Pose ChainForwardKinematics(const KinematicChain& chain, const Pose& X_WBase, const VecX& q,
                            Jacobian6* jacobian) {
  const int n = chain.size();
  // each joint's world axis and origin on the way out, then the columns against p_E
  Eigen::Matrix<Real, 3, Eigen::Dynamic> axis_W(3, n), origin_W(3, n);
  Pose X = X_WBase;
  for (int k = 0; k < n; ++k) {
    X = X * chain.X_offsets[k];
    axis_W.col(k) = X.q * chain.axes[k];
    origin_W.col(k) = X.p;
    X = X * JointMotion(chain.types[k], chain.axes[k], q[k]);
  }
  const Pose X_WE = X * chain.X_offsets.back();
  jacobian->resize(6, n);
  for (int k = 0; k < n; ++k) {
    const Vec3 a = axis_W.col(k);
    if (chain.types[k] == JointType::kPrismatic) {
      jacobian->col(k) << a, Vec3::Zero();
    } else {
      jacobian->col(k) << a.cross(X_WE.p - origin_W.col(k)), a;
    }
  }
  return X_WE;
}

}  // namespace sim
