// Contact-material stage (engine/step/contact_material.h): each side's material by kind (shape,
// free particle, soft-body surface and node), the pair's friction (friction_pairs entry, else
// the mean of the two μ), the tangent frame, and restitution (the pair's e and the bounce speed).
#include "engine/step/contact_material.h"

#include <array>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "tests/unit/collision_test_util.h"

namespace sim {
namespace {

using testing::Scene;
using testing::Sphere;

constexpr double kTol = 1e-12;

// a contact between two sides with normal +z (the stage reads only the sides and the normal)
Contact Between(const ContactSide& a, const ContactSide& b) {
  Contact contact;
  contact.a = a;
  contact.b = b;
  contact.normal_W = Vec3::UnitZ();
  return contact;
}

ContactSide ShapeSide(int shape) {
  ContactSide side;
  side.shape = shape;
  return side;
}

ContactSide ParticleSide(int particle, int soft_body = -1) {
  ContactSide side;
  side.particles[0] = particle;
  side.soft_body = soft_body;
  return side;
}

ContactSide SurfaceSide(const std::array<int, 3>& particles, int soft_body) {
  ContactSide side;
  side.particles = particles;
  side.weights = Vec3(0.2, 0.3, 0.5);
  side.soft_body = soft_body;
  return side;
}

// runs the stage on one contact and returns it
Contact Assigned(const Model& model, const Contact& contact) {
  Contacts contacts;
  contacts.items.push_back(contact);
  AssignContactMaterials(model, State{}, &contacts);
  return contacts.items[0];
}


TEST(ContactMaterialTest, FrictionPairEntryReplacesTheMean) {
  Scene scene;  // material 0: μ = 0.5
  const int ice = scene.AddMaterial(0.1);
  const int rubber = scene.AddMaterial(0.9);
  scene.model.friction_pairs.push_back({.material_a = ice, .material_b = rubber, .friction = 0.05});
  const int ground = scene.AddGround(ice);
  const int tyre = scene.AddBodyShape(Sphere(0.1), {Vec3(0, 0, 0.1)}, rubber);
  const int crate = scene.AddBodyShape(Sphere(0.1), {Vec3(1, 0, 0.1)});

  // the pair's entry, whichever side each material is on, along both tangent directions
  for (const Contact& c :
       {Between(ShapeSide(tyre), ShapeSide(ground)), Between(ShapeSide(ground), ShapeSide(tyre))}) {
    const Contact assigned = Assigned(scene.model, c);
    EXPECT_EQ(assigned.friction_t, 0.05);
    EXPECT_EQ(assigned.friction_b, 0.05);
  }
  // no entry: the mean of the two μ
  const Contact mean = Assigned(scene.model, Between(ShapeSide(crate), ShapeSide(ground)));
  EXPECT_NEAR(mean.friction_t, 0.5 * (0.5 + 0.1), kTol);
  EXPECT_EQ(mean.friction_b, mean.friction_t);
  const Contact rubber_crate = Assigned(scene.model, Between(ShapeSide(tyre), ShapeSide(crate)));
  EXPECT_NEAR(rubber_crate.friction_t, 0.5 * (0.9 + 0.5), kTol);
}


TEST(ContactMaterialTest, ParticleSideHasItsParticlesMaterial) {
  Scene scene;
  const int ground = scene.AddGround(scene.AddMaterial(0.3));
  const int particle = scene.AddParticle(Vec3(0, 0, 0.05), 0.05, scene.AddMaterial(0.9));
  const Contact c = Assigned(scene.model, Between(ParticleSide(particle), ShapeSide(ground)));
  EXPECT_NEAR(c.friction_t, 0.6, kTol);
  EXPECT_EQ(c.friction_b, c.friction_t);
  EXPECT_EQ(ContactSideMaterial(scene.model, ContactSide{}), -1);  // no shape, particle or body
}


TEST(ContactMaterialTest, SoftBodySurfaceHasTheSoftBodysMaterial) {
  Scene scene;
  const int ground = scene.AddGround(scene.AddMaterial(0.2));
  const int node_material = scene.AddMaterial(0.7);  // the nodes' particle material
  const int first_material = scene.AddMaterial(0.4);
  const int second_material = scene.AddMaterial(0.8);
  for (int k = 0; k < 6; ++k) scene.AddParticle(Vec3(k, 0, 0), 0.01, node_material);
  scene.model.soft_bodies.resize(2);
  scene.model.soft_bodies[0].first_particle = 0;
  scene.model.soft_bodies[0].particle_count = 3;
  scene.model.soft_bodies[0].material = first_material;
  scene.model.soft_bodies[1].first_particle = 3;
  scene.model.soft_bodies[1].particle_count = 3;
  scene.model.soft_bodies[1].material = second_material;
  const Model& model = scene.model;

  // a surface triangle against a shape: the soft body's material, not its nodes'
  EXPECT_EQ(ContactSideMaterial(model, SurfaceSide({0, 1, 2}, 0)), first_material);
  const Contact triangle = Assigned(model, Between(SurfaceSide({0, 1, 2}, 0), ShapeSide(ground)));
  EXPECT_NEAR(triangle.friction_t, 0.5 * (0.4 + 0.2), kTol);
  EXPECT_EQ(triangle.friction_b, triangle.friction_t);
  // a node of one soft body against the other's surface: both soft bodies' materials
  const Contact nodes = Assigned(model, Between(ParticleSide(1, 0), SurfaceSide({3, 4, 5}, 1)));
  EXPECT_NEAR(nodes.friction_t, 0.5 * (0.4 + 0.8), kTol);
  // a node met as a particle (no soft body on the side): its particle's material
  EXPECT_EQ(ContactSideMaterial(model, ParticleSide(1)), node_material);
}


TEST(ContactMaterialTest, FrameIsOrthonormalWithBitangentNormalCrossTangent) {
  Scene scene;
  const int ground = scene.AddGround();
  const int ball = scene.AddBodyShape(Sphere(0.1), {Vec3(0, 0, 0.1)});
  std::mt19937 random(7);
  std::normal_distribution<double> gaussian;
  std::vector<Vec3> normals = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(), -Vec3::UnitZ(),
                               Vec3(1, 1, 1).normalized()};
  for (int i = 0; i < 100; ++i) {
    normals.push_back(Vec3(gaussian(random), gaussian(random), gaussian(random)).normalized());
  }
  Contacts contacts;
  for (const Vec3& n : normals) {
    Contact contact = Between(ShapeSide(ball), ShapeSide(ground));
    contact.normal_W = n;
    contacts.items.push_back(contact);
  }
  AssignContactMaterials(scene.model, scene.state, &contacts);
  for (const Contact& c : contacts.items) {
    const Vec3& n = c.normal_W;
    const Vec3& t = c.tangent_W;
    const Vec3& b = c.bitangent_W;
    EXPECT_NEAR(t.norm(), 1.0, kTol);
    EXPECT_NEAR(b.norm(), 1.0, kTol);
    EXPECT_NEAR(t.dot(n), 0.0, kTol);
    EXPECT_NEAR(b.dot(n), 0.0, kTol);
    EXPECT_NEAR(t.dot(b), 0.0, kTol);
    EXPECT_EQ(b, n.cross(t));  // exactly n × t
    EXPECT_EQ(t, PerpendicularUnit(n));
  }
  // normal +z: t along the least aligned axis x (lowest index on ties), b along y
  EXPECT_EQ(contacts.items[2].tangent_W, Vec3::UnitX());
  EXPECT_EQ(contacts.items[2].bitangent_W, Vec3::UnitY());
}


TEST(ContactMaterialTest, DetectedContactsGetThePairsFriction) {
  Scene scene;
  const int ground = scene.AddGround(scene.AddMaterial(0.2));
  scene.AddBodyShape(Sphere(0.5), {Vec3(0.3, -0.2, 0.6)}, scene.AddMaterial(0.6));
  Contacts contacts;
  CollisionStats stats;
  DetectContacts(scene.model, scene.state, 0.2, &contacts, &stats);
  ASSERT_EQ(contacts.count(), 1);
  EXPECT_EQ(contacts.items[0].b.shape, ground);
  AssignContactMaterials(scene.model, scene.state, &contacts);
  EXPECT_NEAR(contacts.items[0].friction_t, 0.4, kTol);
  EXPECT_NEAR(contacts.items[0].friction_b, 0.4, kTol);
  EXPECT_EQ(contacts.items[0].tangent_W, Vec3::UnitX());
}

TEST(ContactMaterialTest, RestitutionTakesTheLargerAndBouncesOnlyAClosingImpact) {
  Scene scene;  // material 0: e = 0
  const int rubber = scene.AddMaterial(0.9);
  scene.model.materials[rubber].restitution = 0.8;
  scene.model.options.gravity = Vec3::Zero();
  const int ground = scene.AddGround();
  const int ball = scene.AddBodyShape(Sphere(0.1), {Vec3(0, 0, 0.1)}, rubber);
  const Real dt = 0.01;
  const auto bounce = [&](Real approach, Real gap0) {
    scene.state.body_v_W[0] = Vec3(0, 0, -approach);
    Contact contact = Between(ShapeSide(ball), ShapeSide(ground));
    contact.a.body = 0;
    contact.gap0 = gap0;
    Contacts contacts;
    contacts.items.push_back(contact);
    AssignContactMaterials(scene.model, scene.state, &contacts);
    AssignBounceVelocities(scene.model, scene.state, dt, &contacts);
    EXPECT_DOUBLE_EQ(contacts.items[0].restitution, 0.8);  // max(0, 0.8): a ball on a dead floor
    return contacts.items[0].bounce_velocity;
  };
  // without gravity the bounce is e·v exactly (the energy along the normal is kinetic alone)
  EXPECT_NEAR(bounce(2.0, 0.0), 1.6, kTol);
  EXPECT_NEAR(bounce(2.0, 0.015), 1.6, kTol);  // closes within the step: 0.015 < 2 · 0.01
  EXPECT_EQ(bounce(2.0, 0.025), 0);            // does not: it is still in flight at the end
  EXPECT_EQ(bounce(0.1, 0.0), 0);   // e·v = 0.08 m/s below the 0.1 m/s threshold: a resting touch
  EXPECT_EQ(bounce(-1.0, 0.0), 0);  // separating
  // with gravity toward the floor the speed that carries e² of the impact energy from gap0:
  // ½u² + g(gap0 + Δt u) = ½e²(v² + 2g·gap0)
  scene.model.options.gravity = Vec3(0, 0, -9.81);
  const Real u = bounce(2.0, 0.01);
  EXPECT_NEAR(0.5 * u * u + 9.81 * (0.01 + dt * u), 0.5 * 0.64 * (4.0 + 2 * 9.81 * 0.01), 1e-12);
}

}  // namespace
}  // namespace sim
