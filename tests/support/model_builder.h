// Small helpers that build Models by hand for engine tests (bodies, world shapes, particles,
// joints), so a test states its setup in a few lines without a scene file.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "engine/geometry/collision_mesh.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim::test_support {

/// A model with one default material (μ = `friction`) and gravity −9.81 z.
inline Model MakeEmptyModel(Real friction = 0.5) {
  Model model;
  model.name = "test";
  Material material;
  material.name = "default";
  material.friction = friction;
  model.materials.push_back(material);
  return model;
}


/// Adds a static world shape (plane through `X_WS.p` with normal = local z, or any primitive).
inline int AddWorldShape(Model* model, const ShapeGeometry& geometry, const Pose& X_WS) {
  model->shape_name.push_back("world_shape_" + std::to_string(model->shape_count()));
  model->shape_geometry.push_back(geometry);
  model->shape_body.push_back(kWorldBody);
  model->shape_X_BS.push_back(X_WS);
  model->shape_material.push_back(0);
  model->shape_color.push_back({0.5f, 0.5f, 0.5f});
  return model->shape_count() - 1;
}


/// A static plane through the origin tilted by `angle` [rad] about `axis` (unit): its rotation
/// and normal.
struct Slope {
  Quat tilt;
  Vec3 normal;
};

inline Slope AddSlope(Model* model, Real angle, const Vec3& axis) {
  const Quat tilt(Eigen::AngleAxisd(angle, axis));
  ShapeGeometry plane;
  plane.type = ShapeType::kPlane;
  AddWorldShape(model, plane, Pose{Vec3::Zero(), tilt});
  return {tilt, tilt * Vec3::UnitZ()};
}


/// Adds a rigid body with one shape at its COM; inertia from the shape. Returns the body id.
inline int AddBody(Model* model, State* state, const std::string& name,
                   const ShapeGeometry& geometry, Real mass, const Pose& X_WB,
                   const Vec3& v = Vec3::Zero(), const Vec3& w = Vec3::Zero()) {
  const int body = model->body_count();
  model->body_name.push_back(name);
  model->body_mass.push_back(mass);
  model->body_inertia.push_back(ShapeUnitInertia(geometry, mass));
  model->body_static.push_back(0);
  model->shape_name.push_back(name);
  model->shape_geometry.push_back(geometry);
  model->shape_body.push_back(body);
  model->shape_X_BS.push_back(Pose{});
  model->shape_material.push_back(0);
  model->shape_color.push_back({0.5f, 0.5f, 0.5f});
  state->body_X_WB.push_back(X_WB);
  state->body_v_W.push_back(v);
  state->body_w_W.push_back(w);
  return body;
}


inline int AddParticle(Model* model, State* state, const std::string& name, Real mass, Real radius,
                       const Vec3& x, const Vec3& v = Vec3::Zero()) {
  model->particle_name.push_back(name);
  model->particle_mass.push_back(mass);
  model->particle_radius.push_back(radius);
  model->particle_material.push_back(0);
  state->particle_x_W.push_back(x);
  state->particle_v_W.push_back(v);
  return model->particle_count() - 1;
}


/// Adds a joint whose frame is at `anchor_W` with world orientation at the current state, and
/// `axis_W` (unit) as its axis. `parent` may be kWorldBody.
inline int AddJoint(Model* model, const State& state, JointType type, int parent, int child,
                    const Vec3& anchor_W, const Vec3& axis_W = Vec3::UnitY()) {
  const Pose X_WJ{anchor_W, Quat::Identity()};
  const Pose X_WP = parent >= 0 ? state.body_X_WB[parent] : Pose{};
  const Pose X_WC = state.body_X_WB[child];
  model->joint_name.push_back("joint_" + std::to_string(model->joint_count()));
  model->joint_type.push_back(type);
  model->joint_parent.push_back(parent);
  model->joint_child.push_back(child);
  model->joint_X_PJ.push_back(X_WP.Inverse() * X_WJ);
  model->joint_X_CJ.push_back(X_WC.Inverse() * X_WJ);
  model->joint_axis.push_back(axis_W.normalized());
  model->joint_limited.push_back(0);
  model->joint_lower.push_back(0);
  model->joint_upper.push_back(0);
  model->joint_compliance.push_back(0);
  model->joint_drive.push_back(JointDrive{});
  return model->joint_count() - 1;
}


/// Test-name generator for suites parametrized over inner linear solvers ("pcr", "gs", ...).
struct LinearSolverParamName {
  template <typename Info>
  std::string operator()(const Info& info) const {
    return LinearSolverName(info.param);
  }
};


inline ShapeGeometry Box(const Vec3& half_extents) {
  ShapeGeometry g;
  g.type = ShapeType::kBox;
  g.half_extents = half_extents;
  return g;
}


inline ShapeGeometry Sphere(Real radius) {
  ShapeGeometry g;
  g.type = ShapeType::kSphere;
  g.radius = radius;
  return g;
}


/// A mesh shape of `mesh`, its collision data built with `options` (a failure fails the test).
inline ShapeGeometry MeshShape(const TriangleMesh& mesh, const CollisionMeshOptions& options = {}) {
  Diagnostics diagnostics;
  ShapeGeometry g;
  g.type = ShapeType::kMesh;
  g.mesh = BuildCollisionMesh(mesh, options, "test", &diagnostics);
  EXPECT_TRUE(g.mesh != nullptr) << diagnostics.Format();
  return g;
}


inline ShapeGeometry Plane() {
  ShapeGeometry g;
  g.type = ShapeType::kPlane;
  return g;
}

}  // namespace sim::test_support
