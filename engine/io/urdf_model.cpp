// UrdfRobot -> Model bodies, shapes and joints. Links joined by fixed joints are welded into one
// body (masses, COMs and inertias combined with the parallel-axis theorem). Each body frame sits at
// the COM, oriented as its first link's inertial frame (or that link's frame when it has none).
// URDF joint frames are computed at q = 0, then links are placed at the requested configuration by
// forward kinematics, so the state starts with every joint coordinate at its requested position
// (mimic followers on their coupling). Mesh files are loaded once per (file, scale) through the
// shared MeshCache, in parallel: collision meshes become convex hulls or SDF-backed meshes,
// visual meshes Model visuals (with the file's materials, or the URDF colour when it has none).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <Eigen/Eigenvalues>

#include "engine/collision/collision.h"
#include "engine/geometry/visual_mesh_builder.h"
#include "engine/io/mesh_cache.h"
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


// an error unless `name` is a revolute, continuous or prismatic joint of the robot
void CheckActuatedJoint(const UrdfRobot& robot, const std::string& name, const char* what,
                        Diagnostics* diagnostics) {
  for (const UrdfJoint& joint : robot.joints) {
    if (joint.name == name && IsActuated(joint.type)) return;
  }
  diagnostics->Error(robot.source, 0, "",
                     std::string(what) + " given for '" + name +
                         "', which is not a revolute, continuous or prismatic joint of robot '" +
                         robot.name + "'");
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

// key of a mesh geometry: its resolved file and scale
std::string MeshKey(const UrdfGeometry& g) {
  char scale[96];
  std::snprintf(scale, sizeof(scale), "|%.17g|%.17g|%.17g", g.mesh_scale.x(), g.mesh_scale.y(),
                g.mesh_scale.z());
  return g.mesh_path + scale;
}


struct CollisionAsset {
  std::shared_ptr<const ShapeGeometry> geometry;  // null after an error
  std::shared_ptr<const VisualMesh> drawn;        // the shape's drawn surface
};

struct VisualAsset {
  std::shared_ptr<const VisualMesh> mesh;  // null after an error
  bool own_materials = false;
};

struct RobotMeshes {
  std::map<std::string, CollisionAsset> collision;
  std::map<std::string, VisualAsset> visual;
};


// loads every distinct collision and visual mesh of the robot once (in parallel); problems are
// reported at the mesh file with a note at the first URDF line that uses it. `progress` advances
// by file; a cancel skips the files not started.
RobotMeshes LoadRobotMeshes(const UrdfRobot& robot, const RobotPlacement& placement,
                            const LoadProgress& progress, Diagnostics* diagnostics) {
  struct Request {
    const UrdfGeometry* geometry;
    bool collision;
    Diagnostics found;
    CollisionAsset collision_asset;
    VisualAsset visual_asset;
  };
  std::vector<Request> requests;
  std::set<std::string> seen_collision, seen_visual;
  for (const UrdfLink& link : robot.links) {
    for (const UrdfGeometry& g : link.collisions) {
      if (g.is_mesh && !g.mesh_path.empty() && seen_collision.insert(MeshKey(g)).second) {
        requests.push_back({&g, true, {}, {}, {}});
      }
    }
    if (!placement.visuals) continue;
    for (const UrdfGeometry& g : link.visuals) {
      if (g.is_mesh && !g.mesh_path.empty() && seen_visual.insert(MeshKey(g)).second) {
        requests.push_back({&g, false, {}, {}, {}});
      }
    }
  }
  MeshCache& cache = MeshCache::Global();
  // the files finish in any order: the fraction counts them, the tasks only check for a cancel
  std::atomic<int> files_done = 0;
  const LoadProgress file_progress = progress.Silent();
  auto file_done = [&] {
    progress.Report(static_cast<double>(++files_done) / static_cast<double>(requests.size()));
  };
  // files differ a hundredfold in size: one task per file, taken by whichever thread is free
  tbb::parallel_for(
      tbb::blocked_range<int>(0, static_cast<int>(requests.size()), 1),
      [&](const tbb::blocked_range<int>& range) {
        for (int r = range.begin(); r < range.end(); ++r) {
          Request& request = requests[r];
          const UrdfGeometry& g = *request.geometry;
          if (!request.collision) {
            MeshProduct<VisualMesh> visual = cache.Visual(
                g.mesh_path, g.mesh_scale, &request.visual_asset.own_materials, file_progress);
            file_done();
            request.found = visual.diagnostics;
            request.visual_asset.mesh = visual.value;
            continue;
          }
          auto shape = std::make_shared<ShapeGeometry>();
          if (placement.collision_meshes == MeshCollision::kHull) {
            MeshProduct<ConvexHull> hull =
                cache.Hull(g.mesh_path, g.mesh_scale, placement.hull_vertices, file_progress);
            file_done();
            request.found = hull.diagnostics;
            if (!hull.value) continue;
            shape->type = ShapeType::kConvexHull;
            shape->hull = hull.value;
            request.collision_asset.drawn = BuildHullVisualMesh(*hull.value);
          } else {
            MeshProduct<CollisionMesh> mesh =
                cache.Collision(g.mesh_path, g.mesh_scale, placement.sdf_resolution, file_progress);
            file_done();
            request.found = mesh.diagnostics;
            if (!mesh.value) continue;
            shape->type = ShapeType::kMesh;
            shape->mesh = mesh.value;
            request.collision_asset.drawn = BuildVisualMesh(mesh.value->surface);
          }
          request.collision_asset.geometry = std::move(shape);
        }
      },
      tbb::simple_partitioner());

  // results and diagnostics in request order (deterministic whatever the thread count)
  RobotMeshes meshes;
  for (Request& request : requests) {
    const UrdfGeometry& g = *request.geometry;
    for (const Diagnostic& d : request.found.items()) {
      diagnostics->Add(d);
      if (d.severity == Severity::kNote) continue;
      diagnostics->Add(Diagnostic{.severity = Severity::kNote,
                                  .source = robot.source,
                                  .line = g.line,
                                  .element_path = "",
                                  .message = std::string("used by this <") +
                                             (request.collision ? "collision" : "visual") +
                                             "> mesh '" + g.mesh_uri + "'"});
    }
    if (request.collision) {
      meshes.collision[MeshKey(g)] = request.collision_asset;
    } else {
      meshes.visual[MeshKey(g)] = request.visual_asset;
    }
  }
  return meshes;
}

}  // namespace


int AddRobotToModel(const UrdfRobot& robot, const RobotPlacement& placement, Model* model,
                    State* state, Diagnostics* diagnostics, const LoadProgress& progress) {
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
    CheckActuatedJoint(robot, name, "initial position", diagnostics);
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
  // mimic followers start where their coupling puts them, θ_f = m·θ_l + b, leaders first: the
  // depth of a joint is 0 when it mimics none, else its leader's + 1; joints on or behind a cycle
  // of mimics get n_joints and are settled last, in file order
  const int n_joints = static_cast<int>(robot.joints.size());
  constexpr int kUnknown = -1, kOnWalk = -2;
  std::vector<int> mimic_depth(n_joints, kUnknown);
  for (int start = 0; start < n_joints; ++start) {
    std::vector<int> walk;
    int j = start;
    while (mimic_depth[j] == kUnknown && robot.joints[j].mimic_leader >= 0) {
      mimic_depth[j] = kOnWalk;
      walk.push_back(j);
      j = robot.joints[j].mimic_leader;
    }
    if (mimic_depth[j] == kUnknown) mimic_depth[j] = 0;
    int depth = mimic_depth[j] == kOnWalk ? n_joints : mimic_depth[j];
    for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
      depth = std::min(depth + 1, n_joints);
      mimic_depth[*it] = depth;
    }
  }
  std::vector<int> mimic_order;
  for (int j = 0; j < n_joints; ++j) {
    if (robot.joints[j].mimic_leader >= 0) mimic_order.push_back(j);
  }
  std::stable_sort(mimic_order.begin(), mimic_order.end(),
                   [&](int a, int b) { return mimic_depth[a] < mimic_depth[b]; });
  for (int j : mimic_order) {
    const UrdfJoint& joint = robot.joints[j];
    const auto leader = positions.find(robot.joints[joint.mimic_leader].name);
    const Real q = joint.mimic_multiplier * (leader == positions.end() ? 0 : leader->second) +
                   joint.mimic_offset;
    const auto it = positions.find(joint.name);
    if (it != positions.end() && it->second == q) continue;
    if (placement.initial_positions.contains(joint.name)) {
      diagnostics->Warning(robot.source, joint.line, "",
                           "initial position of joint '" + joint.name +
                               "' is ignored: it mimics '" + robot.joints[joint.mimic_leader].name +
                               "' and starts at " + std::to_string(q));
    }
    positions[joint.name] = q;
  }

  // links parents first (a walk from the root; iterative, as a chain may be thousands long)
  std::vector<std::vector<int>> child_joints(n_links);
  for (int j = 0; j < n_joints; ++j) child_joints[robot.joints[j].parent].push_back(j);
  std::vector<int> link_order;
  for (int l = 0; l < n_links; ++l) {
    if (parent_joint[l] >= 0) continue;
    link_order.push_back(l);
    for (std::size_t next = link_order.size() - 1; next < link_order.size(); ++next) {
      for (int j : child_joints[link_order[next]]) link_order.push_back(robot.joints[j].child);
    }
  }
  std::vector<Pose> X_W_zero(n_links), X_W_link(n_links);
  for (int link : link_order) {
    const int j = parent_joint[link];
    if (j < 0) {
      X_W_zero[link] = placement.X_W_base;
      X_W_link[link] = placement.X_W_base;
      continue;
    }
    const UrdfJoint& joint = robot.joints[j];
    const auto it = positions.find(joint.name);
    const Real q = it == positions.end() ? 0 : it->second;
    X_W_zero[link] = X_W_zero[joint.parent] * joint.X_PJ;
    X_W_link[link] = X_W_link[joint.parent] * joint.X_PJ * JointMotion(joint, q);
  }

  // bodies: each link not welded to its parent starts one, numbered in file order; welded
  // links join their parent's
  std::vector<int> link_body(n_links, -1);
  std::vector<int> body_root;  // first link of each robot body
  std::vector<int> welded_walk;
  for (int l = 0; l < n_links; ++l) {
    int link = l;
    welded_walk.clear();
    while (link_body[link] < 0 && welded(link)) {
      welded_walk.push_back(link);
      link = robot.joints[parent_joint[link]].parent;
    }
    if (link_body[link] < 0) {
      link_body[link] = static_cast<int>(body_root.size());
      body_root.push_back(link);
    }
    for (int w : welded_walk) link_body[w] = link_body[link];
  }
  std::vector<std::vector<int>> body_links(body_root.size());  // in file order
  for (int l = 0; l < n_links; ++l) body_links[link_body[l]].push_back(l);

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
    for (int l : body_links[b]) {
      if (!robot.links[l].has_inertial) continue;
      const Pose X_RL = X_W_zero[root].Inverse() * X_W_zero[l];
      mass += robot.links[l].mass;
      com += robot.links[l].mass * (X_RL * robot.links[l].X_LI).p;
    }
    const Quat q_RB = root_link.has_inertial ? root_link.X_LI.q : Quat::Identity();
    Mat3 inertia = Mat3::Zero();
    if (mass > 0) {
      com /= mass;
      for (int l : body_links[b]) {
        if (!robot.links[l].has_inertial) continue;
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
    // every link's frame stays addressable by name, welded or not (teleop end effectors)
    model->frame_name.push_back(placement.name_prefix + robot.links[l].name);
    model->frame_body.push_back(first_body + b);
    model->frame_X_BF.push_back(X_BL[l]);
  }

  // mesh files: every distinct (file, scale) once, in parallel, through the shared cache
  progress.Stage("loading the meshes of robot '" + robot.name + "'");
  const RobotMeshes meshes = LoadRobotMeshes(robot, placement, progress, diagnostics);

  // collision shapes: primitives as they are, meshes as hulls or SDF-backed meshes
  for (int l = 0; l < n_links; ++l) {
    for (std::size_t c = 0; c < robot.links[l].collisions.size(); ++c) {
      const UrdfGeometry& g = robot.links[l].collisions[c];
      ShapeGeometry shape = g.shape;
      std::shared_ptr<const VisualMesh> drawn;
      if (g.is_mesh) {
        const auto it = meshes.collision.find(MeshKey(g));
        if (it == meshes.collision.end() || !it->second.geometry) continue;  // reported
        shape = *it->second.geometry;
        drawn = it->second.drawn;
      } else if (shape.type == ShapeType::kNone) {
        continue;
      }
      const int s = model->shape_count();
      if (drawn) {
        model->shape_visual_mesh.resize(s);
        model->shape_visual_mesh.push_back(drawn);
      }
      model->shape_name.push_back(placement.name_prefix + robot.links[l].name +
                                  (c == 0 ? "" : "#" + std::to_string(c)));
      model->shape_geometry.push_back(shape);
      model->shape_body.push_back(first_body + link_body[l]);
      model->shape_X_BS.push_back(X_BL[l] * g.X_LS);
      model->shape_material.push_back(placement.material);
      model->shape_color.push_back(model->materials.empty()
                                       ? std::array<float, 3>{0.7f, 0.7f, 0.7f}
                                       : model->materials[placement.material].color);
    }
  }
  if (!model->shape_visual_mesh.empty()) model->shape_visual_mesh.resize(model->shape_count());

  // visuals: primitives with their URDF colour, meshes with the file's materials when it has
  // any (RViz's rule), else the URDF colour
  if (placement.visuals) {
    for (int l = 0; l < n_links; ++l) {
      for (std::size_t v = 0; v < robot.links[l].visuals.size(); ++v) {
        const UrdfGeometry& g = robot.links[l].visuals[v];
        ShapeGeometry geometry = g.shape;
        std::shared_ptr<const VisualMesh> mesh;
        std::array<float, 4> color = g.color;
        if (g.is_mesh) {
          const auto it = meshes.visual.find(MeshKey(g));
          if (it == meshes.visual.end() || !it->second.mesh) continue;  // reported
          geometry.type = ShapeType::kMesh;
          mesh = it->second.mesh;
          if (it->second.own_materials) color = {0, 0, 0, 0};
        } else if (geometry.type == ShapeType::kNone) {
          continue;
        }
        model->visual_name.push_back(placement.name_prefix + robot.links[l].name +
                                     (v == 0 ? "" : "#" + std::to_string(v)));
        model->visual_body.push_back(first_body + link_body[l]);
        model->visual_X_BV.push_back(X_BL[l] * g.X_LS);
        model->visual_geometry.push_back(geometry);
        model->visual_mesh.push_back(mesh);
        model->visual_color.push_back(color);
      }
    }
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
  // a floating joint leaves its child free: no joint at all
  std::vector<int> model_joint(robot.joints.size(), -1);
  for (std::size_t k = 0; k < robot.joints.size(); ++k) {
    const UrdfJoint& joint = robot.joints[k];
    if (welded(joint.child)) continue;
    if (joint.type == UrdfJointType::kFloating) continue;
    JointType type = JointType::kFixed;
    if (joint.type == UrdfJointType::kRevolute) type = JointType::kRevolute;
    if (joint.type == UrdfJointType::kContinuous) type = JointType::kContinuous;
    if (joint.type == UrdfJointType::kPrismatic) type = JointType::kPrismatic;
    if (joint.type == UrdfJointType::kPlanar) type = JointType::kPlanar;
    add_joint(placement.name_prefix + joint.name, type, first_body + link_body[joint.parent],
              first_body + link_body[joint.child], X_BL[joint.parent] * joint.X_PJ,
              X_BL[joint.child], joint.axis);
    const int j = model->joint_count() - 1;
    model_joint[k] = j;
    if (joint.has_limits) {
      model->joint_limited[j] = 1;
      model->joint_lower[j] = joint.lower;
      model->joint_upper[j] = joint.upper;
    }
    // the speed limit bounds how fast the drive's target may move (engine/step/target_rate.h)
    if (IsActuated(joint.type) && joint.velocity > 0) {
      model->joint_velocity_limit.resize(model->joint_count(), 0);
      model->joint_velocity_limit[j] = joint.velocity;
    }
    // Coulomb friction of the joint's motion (a box-constrained row, constraint_rows.h)
    if (IsActuated(joint.type) && joint.friction * placement.joint_friction_scale > 0) {
      model->joint_friction.resize(model->joint_count(), 0);
      model->joint_friction[j] = joint.friction * placement.joint_friction_scale;
    }
    if (!IsActuated(joint.type)) continue;
    // drives: the scene's own for this joint, else the hold drive at the start position (not
    // for mimic followers, which their coupling moves); URDF damping is viscous damping either
    // way (a drive with k = 0 when nothing holds the joint)
    JointDrive& drive = model->joint_drive[j];
    const auto own = placement.drives.find(joint.name);
    const auto it = positions.find(joint.name);
    // the motor's saturation: URDF <limit effort>, unless the scene's drive gives its own
    const Real effort = placement.effort_limits && joint.effort > 0 ? joint.effort : kInfinity;
    if (own != placement.drives.end()) {
      drive = own->second;
      if (std::isinf(drive.max_force)) drive.max_force = effort;
      // a drive without a target holds the joint's initial position
      if (std::isnan(drive.target_position)) {
        drive.target_position = it == positions.end() ? 0 : it->second;
      }
      continue;
    }
    if (joint.mimic_leader < 0) drive.stiffness = placement.hold_stiffness;
    drive.damping =
        (joint.mimic_leader < 0 ? placement.hold_damping : 0) + std::max<Real>(0, joint.damping);
    drive.target_position = it == positions.end() ? 0 : it->second;
    drive.max_force = effort;
  }
  if (!model->joint_friction.empty()) model->joint_friction.resize(model->joint_count(), 0);
  if (!model->joint_velocity_limit.empty()) {
    model->joint_velocity_limit.resize(model->joint_count(), 0);
  }
  // (the scene reader checks placement.drives names at their own lines)

  // self-collision: pairs of the robot's bodies already touching at the start never collide
  // (MoveIt's "default pose" rule): coarse collision geometry of near links often overlaps, and
  // those links would otherwise push each other apart from the first step
  if (placement.self_collision && !progress.cancelled()) {
    Contacts touching;
    touching.capacity = 1 << 20;
    CollisionStats stats;
    DetectContacts(*model, *state, 0, &touching, &stats);
    std::set<std::array<int, 2>> pairs;
    for (const Contact& contact : touching.items) {
      const int a = contact.a.body, b = contact.b.body;
      if (a < first_body || b < first_body || a == b || contact.a.particles[0] >= 0 ||
          contact.b.particles[0] >= 0) {
        continue;
      }
      pairs.insert({std::min(a, b), std::max(a, b)});
    }
    model->body_collision_exclusions.insert(model->body_collision_exclusions.end(), pairs.begin(),
                                            pairs.end());
  }

  // mimic joints: θ_follower = multiplier·θ_leader + offset, one coupling row each
  for (std::size_t k = 0; k < robot.joints.size(); ++k) {
    const UrdfJoint& joint = robot.joints[k];
    if (joint.mimic_leader < 0 || model_joint[k] < 0 || model_joint[joint.mimic_leader] < 0) {
      continue;
    }
    model->joint_couplings.push_back(JointCoupling{.follower = model_joint[k],
                                                   .leader = model_joint[joint.mimic_leader],
                                                   .multiplier = joint.mimic_multiplier,
                                                   .offset = joint.mimic_offset});
  }
  return root_body;
}

}  // namespace sim::io
