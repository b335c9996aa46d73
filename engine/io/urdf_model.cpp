// UrdfRobot -> Model bodies, shapes and joints. Links joined by fixed joints are welded into one
// body (masses, COMs and inertias combined with the parallel-axis theorem). Each body frame sits at
// the COM, oriented as its first link's inertial frame (or that link's frame when it has none).
// URDF joint frames are computed at q = 0, then links are placed at the requested configuration by
// forward kinematics, so the state starts with every joint coordinate at its requested position.
#include <algorithm>
#include <cmath>
#include <functional>

#include <Eigen/Eigenvalues>

#include "engine/io/urdf_loader.h"

namespace sim::io {

namespace {

// mass given to a body none of whose links has an <inertial> [kg], [kg·m²]
constexpr Real kMasslessMass = 1e-3;
constexpr Real kMasslessInertia = 1e-6;
// smallest principal moment of a body [kg·m²]
constexpr Real kMinMoment = 1e-9;
// and relative to the largest one: a near-singular inertia makes the solve ill-conditioned
constexpr Real kMinMomentRatio = 1e-2;

bool IsActuated(UrdfJointType type) {
  return type == UrdfJointType::kRevolute || type == UrdfJointType::kContinuous ||
         type == UrdfJointType::kPrismatic;
}


// child link frame relative to the joint frame at coordinate q
Pose JointMotion(const UrdfJoint& joint, Real q) {
  Pose X;
  if (joint.type == UrdfJointType::kRevolute || joint.type == UrdfJointType::kContinuous) {
    X.q = Quat(Eigen::AngleAxisd(q, joint.axis));
  } else if (joint.type == UrdfJointType::kPrismatic) {
    X.p = q * joint.axis;
  }
  return X;
}


Mat3 Skew2(const Vec3& d) {  // parallel-axis term |d|² E − d dᵀ
  return d.squaredNorm() * Mat3::Identity() - d * d.transpose();
}

}  // namespace


int AddRobotToModel(const UrdfRobot& robot, const RobotPlacement& placement, Model* model,
                    State* state, Diagnostics* diagnostics) {
  const int n_links = static_cast<int>(robot.links.size());
  // tree: parent joint of every link
  std::vector<int> parent_joint(n_links, -1);
  for (int j = 0; j < static_cast<int>(robot.joints.size()); ++j) {
    parent_joint[robot.joints[j].child] = j;
  }
  auto welded = [&](int link) {
    const int j = parent_joint[link];
    return placement.weld_fixed_joints && j >= 0 && robot.joints[j].type == UrdfJointType::kFixed;
  };

  // link poses in the world at q = 0 and at the requested configuration
  std::map<std::string, Real> positions = placement.initial_positions;
  for (const auto& [name, value] : positions) {
    bool found = false;
    for (const UrdfJoint& joint : robot.joints)
      found |= joint.name == name && IsActuated(joint.type);
    if (!found) {
      diagnostics->Error(
          robot.source, 0, "",
          "initial position given for '" + name +
              "', which is not a revolute, continuous or prismatic joint of robot '" + robot.name +
              "'");
    }
  }
  // start position of each joint: requested or 0, inside its limits (Allegro's thumb joint_12.0
  // has lower limit 0.263, so 0 would start it in violation)
  for (const UrdfJoint& joint : robot.joints) {
    if (!joint.has_limits) continue;
    const auto it = positions.find(joint.name);
    const Real q = it == positions.end() ? 0 : it->second;
    const Real clamped = std::clamp(q, joint.lower, joint.upper);
    if (clamped == q) continue;
    positions[joint.name] = clamped;
    if (it != positions.end()) {
      diagnostics->Warning(robot.source, joint.line, "",
                           "initial position " + std::to_string(q) + " of joint '" + joint.name +
                               "' is outside its limits [" + std::to_string(joint.lower) + ", " +
                               std::to_string(joint.upper) + "]; it starts at " +
                               std::to_string(clamped));
    }
  }
  std::vector<Pose> X_W_zero(n_links), X_W_link(n_links);
  std::vector<char> placed(n_links, 0);
  std::function<void(int)> place = [&](int link) {
    if (placed[link]) return;
    const int j = parent_joint[link];
    if (j < 0) {
      X_W_zero[link] = placement.X_W_base;
      X_W_link[link] = placement.X_W_base;
    } else {
      const UrdfJoint& joint = robot.joints[j];
      place(joint.parent);
      const auto it = positions.find(joint.name);
      const Real q = it == positions.end() ? 0 : it->second;
      X_W_zero[link] = X_W_zero[joint.parent] * joint.X_PJ;
      X_W_link[link] = X_W_link[joint.parent] * joint.X_PJ * JointMotion(joint, q);
    }
    placed[link] = 1;
  };
  for (int l = 0; l < n_links; ++l) place(l);

  // bodies: each link not welded to its parent starts one; welded links join their parent's
  std::vector<int> link_body(n_links, -1);
  std::vector<int> body_root;  // first link of each robot body
  std::function<int(int)> body_of = [&](int link) {
    if (link_body[link] >= 0) return link_body[link];
    if (welded(link)) {
      link_body[link] = body_of(robot.joints[parent_joint[link]].parent);
    } else {
      link_body[link] = static_cast<int>(body_root.size());
      body_root.push_back(link);
    }
    return link_body[link];
  };
  for (int l = 0; l < n_links; ++l) body_of(l);

  // self-collision filter: a new group for this robot, -1 for the bodies already there
  int group = -1;
  if (!model->body_filter_group.empty() || !placement.self_collision) {
    model->body_filter_group.resize(model->body_count(), -1);
    for (int g : model->body_filter_group) group = std::max(group, g);
    ++group;
  }
  const bool grouped = !model->body_filter_group.empty() || !placement.self_collision;

  // per body: mass, COM and inertia in the root link frame; X_BL of every link
  const int first_body = model->body_count();
  std::vector<Pose> X_BL(n_links);
  std::vector<Pose> X_RB(body_root.size());
  for (int b = 0; b < static_cast<int>(body_root.size()); ++b) {
    const int root = body_root[b];
    const UrdfLink& root_link = robot.links[root];
    Real mass = 0;
    Vec3 com = Vec3::Zero();
    for (int l = 0; l < n_links; ++l) {
      if (link_body[l] != b || !robot.links[l].has_inertial) continue;
      const Pose X_RL = X_W_zero[root].Inverse() * X_W_zero[l];
      mass += robot.links[l].mass;
      com += robot.links[l].mass * (X_RL * robot.links[l].X_LI).p;
    }
    const Quat q_RB = root_link.has_inertial ? root_link.X_LI.q : Quat::Identity();
    Mat3 inertia = Mat3::Zero();
    if (mass > 0) {
      com /= mass;
      for (int l = 0; l < n_links; ++l) {
        if (link_body[l] != b || !robot.links[l].has_inertial) continue;
        const UrdfLink& link = robot.links[l];
        const Pose X_BI =
            Pose{com, q_RB}.Inverse() * X_W_zero[root].Inverse() * X_W_zero[l] * link.X_LI;
        const Mat3 R = X_BI.q.toRotationMatrix();
        inertia += R * link.inertia * R.transpose() + link.mass * Skew2(X_BI.p);
      }
    } else {
      mass = kMasslessMass;
      inertia = kMasslessInertia * Mat3::Identity();
      diagnostics->Warning(robot.source, root_link.line, "",
                           "link '" + root_link.name +
                               "' has no <inertial> (nor any link welded "
                               "to it); it gets 0.001 kg and inertia 1e-06 kg·m²");
    }
    X_RB[b] = Pose{com, q_RB};
    model->body_name.push_back(placement.name_prefix + root_link.name);
    model->body_mass.push_back(mass);
    // singular inertias (warned about by the parser) get a floor on their principal moments
    Eigen::SelfAdjointEigenSolver<Mat3> eigen(0.5 * (inertia + inertia.transpose()));
    const Vec3 moments = eigen.eigenvalues().cwiseMax(
        std::max(kMinMoment, kMinMomentRatio * eigen.eigenvalues().maxCoeff()));
    inertia = eigen.eigenvectors() * moments.asDiagonal() * eigen.eigenvectors().transpose();
    model->body_inertia.push_back(inertia);
    model->body_static.push_back(0);
    if (grouped) model->body_filter_group.push_back(placement.self_collision ? -1 : group);
    state->body_X_WB.push_back(X_W_link[root] * X_RB[b]);
    state->body_v_W.push_back(Vec3::Zero());
    state->body_w_W.push_back(Vec3::Zero());
  }
  for (int l = 0; l < n_links; ++l) {
    const int b = link_body[l];
    X_BL[l] = X_RB[b].Inverse() * X_W_zero[body_root[b]].Inverse() * X_W_zero[l];
  }

  // primitive collision shapes; meshes wait for the collision library
  int skipped_meshes = 0;
  for (int l = 0; l < n_links; ++l) {
    for (std::size_t c = 0; c < robot.links[l].collisions.size(); ++c) {
      const UrdfGeometry& g = robot.links[l].collisions[c];
      if (g.is_mesh || g.shape.type == ShapeType::kNone) {
        ++skipped_meshes;
        continue;
      }
      model->shape_name.push_back(placement.name_prefix + robot.links[l].name +
                                  (c == 0 ? "" : "#" + std::to_string(c)));
      model->shape_geometry.push_back(g.shape);
      model->shape_body.push_back(first_body + link_body[l]);
      model->shape_X_BS.push_back(X_BL[l] * g.X_LS);
      model->shape_material.push_back(placement.material);
      model->shape_color.push_back(model->materials.empty()
                                       ? std::array<float, 3>{0.7f, 0.7f, 0.7f}
                                       : model->materials[placement.material].color);
    }
  }
  if (skipped_meshes > 0) {
    diagnostics->Warning(robot.source, 0, "",
                         "robot '" + robot.name + "': " + std::to_string(skipped_meshes) +
                             " mesh collision geometries skipped (mesh collision comes with the "
                             "collision library)");
  }

  // joints between bodies, frames at q = 0 in both body frames
  auto add_joint = [&](const std::string& name, JointType type, int parent, int child,
                       const Pose& X_PJ, const Pose& X_CJ, const Vec3& axis) {
    model->joint_name.push_back(name);
    model->joint_type.push_back(type);
    model->joint_parent.push_back(parent);
    model->joint_child.push_back(child);
    model->joint_X_PJ.push_back(X_PJ);
    model->joint_X_CJ.push_back(X_CJ);
    model->joint_axis.push_back(axis);
    model->joint_limited.push_back(0);
    model->joint_lower.push_back(0);
    model->joint_upper.push_back(0);
    model->joint_compliance.push_back(0);
    model->joint_drive.push_back(JointDrive{});
  };
  const int root_body = first_body + link_body[robot.root_link];
  if (placement.fixed_base) {
    add_joint(placement.name_prefix + "base_fixed", JointType::kFixed, kWorldBody, root_body,
              placement.X_W_base, X_BL[robot.root_link], Vec3::UnitX());
  }
  for (const UrdfJoint& joint : robot.joints) {
    if (welded(joint.child)) continue;
    if (joint.type == UrdfJointType::kFloating || joint.type == UrdfJointType::kPlanar) continue;
    JointType type = JointType::kFixed;
    if (joint.type == UrdfJointType::kRevolute) type = JointType::kRevolute;
    if (joint.type == UrdfJointType::kContinuous) type = JointType::kContinuous;
    if (joint.type == UrdfJointType::kPrismatic) type = JointType::kPrismatic;
    add_joint(placement.name_prefix + joint.name, type, first_body + link_body[joint.parent],
              first_body + link_body[joint.child], X_BL[joint.parent] * joint.X_PJ,
              X_BL[joint.child], joint.axis);
    const int j = model->joint_count() - 1;
    if (joint.has_limits) {
      model->joint_limited[j] = 1;
      model->joint_lower[j] = joint.lower;
      model->joint_upper[j] = joint.upper;
    }
    if (IsActuated(joint.type)) {
      JointDrive& drive = model->joint_drive[j];
      const auto it = positions.find(joint.name);
      drive.stiffness = placement.hold_stiffness;
      drive.damping = placement.hold_damping + std::max<Real>(0, joint.damping);
      drive.target_position = it == positions.end() ? 0 : it->second;
    }
  }
  return root_body;
}

}  // namespace sim::io
