// Test helpers for the collision stage: a hand-built scene (model + state) with bodies, shapes,
// particles and joints, and accessors for contacts in world coordinates.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/collision/collision.h"
#include "engine/model/model.h"
#include "engine/state/contacts.h"
#include "engine/state/state.h"
#include "engine/step/contact_material.h"

namespace sim::testing {

constexpr double kPi = std::numbers::pi;

inline Quat AxisAngle(double angle, const Vec3& axis) {
  return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
}

inline ShapeGeometry Plane() { return {.type = ShapeType::kPlane}; }
inline ShapeGeometry Sphere(double radius) {
  return {.type = ShapeType::kSphere, .radius = radius};
}
inline ShapeGeometry Box(double hx, double hy, double hz) {
  return {.type = ShapeType::kBox, .half_extents = Vec3(hx, hy, hz)};
}
inline ShapeGeometry Capsule(double radius, double half_length) {
  return {.type = ShapeType::kCapsule, .radius = radius, .half_length = half_length};
}
inline ShapeGeometry Cylinder(double radius, double half_length) {
  return {.type = ShapeType::kCylinder, .radius = radius, .half_length = half_length};
}

/// A scene built by hand: material 0 has μ = 0.5; bodies are dynamic unless made static.
struct Scene {
  Model model;
  State state;

  Scene() { AddMaterial(0.5); }

  int AddMaterial(double friction) {
    Material material;
    material.friction = friction;
    model.materials.push_back(material);
    return static_cast<int>(model.materials.size()) - 1;
  }

  int AddBody(const Pose& X_WB, bool is_static = false) {
    model.body_name.push_back("body" + std::to_string(model.body_count()));
    model.body_mass.push_back(is_static ? 0.0 : 1.0);
    model.body_inertia.push_back(Mat3::Identity());
    model.body_static.push_back(is_static ? 1 : 0);
    state.body_X_WB.push_back(X_WB);
    state.body_v_W.push_back(Vec3::Zero());
    state.body_w_W.push_back(Vec3::Zero());
    return model.body_count() - 1;
  }

  /// A shape on `body` (kWorldBody: `X_BS` is its world pose).
  int AddShape(int body, const ShapeGeometry& geometry, const Pose& X_BS = {}, int material = 0) {
    model.shape_name.push_back("shape" + std::to_string(model.shape_count()));
    model.shape_geometry.push_back(geometry);
    model.shape_body.push_back(body);
    model.shape_X_BS.push_back(X_BS);
    model.shape_material.push_back(material);
    model.shape_color.push_back({0.5f, 0.5f, 0.5f});
    return model.shape_count() - 1;
  }

  /// A dynamic body at `X_WB` carrying one shape at its origin; returns the shape id.
  int AddBodyShape(const ShapeGeometry& geometry, const Pose& X_WB, int material = 0) {
    return AddShape(AddBody(X_WB), geometry, Pose{}, material);
  }

  int AddGround(int material = 0) { return AddShape(kWorldBody, Plane(), Pose{}, material); }

  int AddParticle(const Vec3& x_W, double radius, int material = 0) {
    model.particle_name.push_back("particle" + std::to_string(model.particle_count()));
    model.particle_mass.push_back(0.1);
    model.particle_radius.push_back(radius);
    model.particle_material.push_back(material);
    state.particle_x_W.push_back(x_W);
    state.particle_v_W.push_back(Vec3::Zero());
    return model.particle_count() - 1;
  }

  void AddJoint(int parent, int child) {
    model.joint_name.push_back("joint" + std::to_string(model.joint_count()));
    model.joint_type.push_back(JointType::kBall);
    model.joint_parent.push_back(parent);
    model.joint_child.push_back(child);
    model.joint_X_PJ.push_back(Pose{});
    model.joint_X_CJ.push_back(Pose{});
    model.joint_axis.push_back(Vec3::UnitZ());
    model.joint_limited.push_back(0);
    model.joint_lower.push_back(0);
    model.joint_upper.push_back(0);
    model.joint_compliance.push_back(0);
    model.joint_drive.push_back(JointDrive{});
  }

  /// Runs the collision stage into `contacts` and `stats`, then the contact-material stage (the
  /// contacts' friction and tangent frame), as a step does.
  void Detect(double margin) {
    DetectContacts(model, state, margin, &contacts, &stats);
    AssignContactMaterials(model, state, &contacts);
  }

  Contacts contacts;
  CollisionStats stats;
};

/// World position of a contact side's point (a particle side: the weighted sum of its particles).
inline Vec3 WorldPoint(const State& state, const ContactSide& side) {
  if (side.is_particle()) {
    Vec3 point = Vec3::Zero();
    for (int k = 0; k < 3; ++k) {
      if (side.particles[k] >= 0) point += side.weights(k) * state.particle_x_W[side.particles[k]];
    }
    return point;
  }
  if (side.body == kWorldBody) return side.p_B;
  return state.body_X_WB[side.body] * side.p_B;
}

/// World surface points of a contact: a round side's point is its core (sphere centre, capsule
/// axis point, particle centre), the surface lies its radius along −n (side A) or +n (side B).
inline Vec3 SurfacePointA(const State& state, const Contact& contact) {
  return WorldPoint(state, contact.a) - contact.a.radius * contact.normal_W;
}
inline Vec3 SurfacePointB(const State& state, const Contact& contact) {
  return WorldPoint(state, contact.b) + contact.b.radius * contact.normal_W;
}

/// The contacts' feature ids in output order.
inline std::vector<std::uint32_t> Features(const Contacts& contacts) {
  std::vector<std::uint32_t> features;
  for (const Contact& contact : contacts.items) features.push_back(contact.feature);
  return features;
}

/// Checks the invariants every contact must satisfy: unit normal, orthonormal tangent basis with
/// bitangent = n × t, gap0 = nᵀ(a − b) − d from the world points, and gap0 below the margin.
inline void ExpectConsistentContacts(const Scene& scene, double margin) {
  for (const Contact& contact : scene.contacts.items) {
    const Vec3& n = contact.normal_W;
    EXPECT_NEAR(n.norm(), 1.0, 1e-12);
    EXPECT_NEAR(contact.tangent_W.norm(), 1.0, 1e-12);
    EXPECT_NEAR(contact.tangent_W.dot(n), 0.0, 1e-12);
    EXPECT_LT((contact.bitangent_W - n.cross(contact.tangent_W)).norm(), 1e-12);
    const Vec3 a = WorldPoint(scene.state, contact.a);
    const Vec3 b = WorldPoint(scene.state, contact.b);
    EXPECT_NEAR(contact.gap0, n.dot(a - b) - contact.thickness, 1e-12);
    EXPECT_LT(contact.gap0, margin);
    EXPECT_EQ(contact.normal_force, 0.0);
    EXPECT_EQ(contact.gap, 0.0);
  }
}

}  // namespace sim::testing
