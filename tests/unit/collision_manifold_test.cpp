// Collision stage behaviour beyond single pairs: pair filters (same body, static, jointed),
// unsupported pairs, capacity overflow, manifold stability under tiny perturbations, the sign of
// the normal (B to A), determinism and reuse of the contact buffer.
#include <cmath>
#include <functional>

#include <gtest/gtest.h>

#include "engine/geometry/analytic_sdf.h"

#include "engine/collision/collision.h"
#include "tests/unit/collision_test_util.h"

namespace sim {
namespace {

using testing::AxisAngle;
using testing::Box;
using testing::Capsule;
using testing::Cylinder;
using testing::Features;
using testing::kPi;
using testing::Scene;
using testing::Sphere;

constexpr double kMargin = 0.01;

TEST(PairFilterTest, SameBodyStaticAndJointedPairsAreSkipped) {
  // two overlapping shapes on one body
  Scene same_body;
  const int body = same_body.AddBody({Vec3(0, 0, 5)});
  same_body.AddShape(body, Box(0.5, 0.5, 0.5));
  same_body.AddShape(body, Sphere(0.5), {Vec3(0.2, 0, 0)});
  same_body.Detect(kMargin);
  EXPECT_EQ(same_body.contacts.count(), 0);
  EXPECT_EQ(same_body.stats.pairs_tested, 0);

  // world shapes and static bodies never collide with each other
  Scene both_static;
  both_static.AddGround();
  both_static.AddShape(kWorldBody, Box(0.5, 0.5, 0.5));
  both_static.AddShape(both_static.AddBody({Vec3(0, 0, 0.2)}, /*is_static=*/true), Sphere(0.5));
  both_static.Detect(kMargin);
  EXPECT_EQ(both_static.contacts.count(), 0);
  EXPECT_EQ(both_static.stats.pairs_tested, 0);

  // overlapping spheres on two bodies: one contact, none once a joint links the bodies
  Scene jointed;
  jointed.AddBodyShape(Sphere(0.5), {Vec3(0, 0, 5)});
  jointed.AddBodyShape(Sphere(0.5), {Vec3(0.8, 0, 5)});
  jointed.Detect(kMargin);
  EXPECT_EQ(jointed.contacts.count(), 1);
  jointed.AddJoint(1, 0);
  jointed.Detect(kMargin);
  EXPECT_EQ(jointed.contacts.count(), 0);
  EXPECT_EQ(jointed.stats.pairs_tested, 0);
}

TEST(PairFilterTest, BodyJointedToTheWorldStillTouchesTheGround) {
  Scene scene;
  scene.AddGround();
  scene.AddBodyShape(Sphere(0.5), {Vec3(0, 0, 0.5)});
  scene.AddJoint(kWorldBody, 0);
  scene.Detect(kMargin);
  EXPECT_EQ(scene.contacts.count(), 1);
}

TEST(PairFilterTest, CylindersMeetEveryPrimitive) {
  Scene scene;
  scene.AddGround();
  scene.AddBodyShape(Cylinder(0.3, 0.4), {Vec3(0, 0, 0.4)});
  scene.AddBodyShape(Sphere(0.2), {Vec3(0.49, 0, 0.4)});      // 1 cm into the cylinder's side
  scene.AddBodyShape(Box(0.1, 0.1, 0.1), {Vec3(5, 0, 0.4)});  // far from the cylinder
  scene.AddParticle(Vec3(0, 0, 0.89), 0.1);                   // 1 cm into the top cap
  scene.Detect(kMargin);
  EXPECT_EQ(scene.stats.unsupported_pairs, 0);
  // the cylinder stands on the ground (4 contacts), the sphere and the particle touch it
  int cylinder_ground = 0, sphere = 0, particle = 0;
  for (const Contact& contact : scene.contacts.items) {
    if (contact.a.is_particle()) {
      ++particle;
      EXPECT_NEAR(contact.gap0, -0.01, 1e-9);  // exact: the cap is flat
    } else if (contact.b.shape == 0) {
      ++cylinder_ground;
    } else {
      ++sphere;
      EXPECT_NEAR(contact.gap0, -0.01, 1e-9);  // exact: sphere against the cylinder side
    }
  }
  EXPECT_EQ(cylinder_ground, 4);
  EXPECT_EQ(sphere, 1);
  EXPECT_EQ(particle, 1);
}

TEST(PairFilterTest, FieldAgainstFieldIsCountedAsUnsupported) {
  // two analytic fields have no features to optimize against each other (SDF–SDF contact is
  // the thesis's future work, §2.13)
  Scene scene;
  auto field = std::make_shared<AnalyticSdf>();
  field->AddSphere(0.5);
  ShapeGeometry sdf;
  sdf.type = ShapeType::kSdf;
  sdf.sdf = field;
  scene.AddShape(kWorldBody, sdf, Pose{}, 0);
  scene.AddBodyShape(sdf, {Vec3(0.9, 0, 0)});
  scene.Detect(kMargin);
  EXPECT_EQ(scene.stats.unsupported_pairs, 1);
  EXPECT_TRUE(scene.stats.unsupported_mask.test(kShapeTypeCount * 8 + 8));
  EXPECT_EQ(scene.contacts.count(), 0);
}

TEST(CapacityTest, OverflowStopsAddingAndSetsTheFlag) {
  Scene scene;
  scene.AddGround();
  scene.AddBodyShape(Box(0.5, 0.5, 0.5), {Vec3(0, 0, 0.5)});
  scene.contacts.capacity = 3;
  scene.Detect(kMargin);
  EXPECT_EQ(scene.contacts.count(), 3);
  EXPECT_TRUE(scene.contacts.overflowed);
  scene.contacts.capacity = 4;
  scene.Detect(kMargin);
  EXPECT_EQ(scene.contacts.count(), 4);
  EXPECT_FALSE(scene.contacts.overflowed);
}

// feature ids after moving body 0 by `offset` [m] and turning it by `rotation` [rad] about x, y, z
std::vector<std::uint32_t> PerturbedFeatures(Scene scene, const Vec3& offset,
                                             const Vec3& rotation) {
  Pose& pose = scene.state.body_X_WB[0];
  pose.p += offset;
  for (int axis = 0; axis < 3; ++axis) {
    pose.q = (AxisAngle(rotation(axis), Vec3::Unit(axis)) * pose.q).normalized();
  }
  scene.Detect(kMargin);
  return Features(scene.contacts);
}

// every ±1e-9 m / ±1e-9 rad perturbation of body 0 keeps the count and feature ids
void ExpectStableManifold(const Scene& scene, int expected_count) {
  const std::vector<std::uint32_t> reference = PerturbedFeatures(scene, Vec3::Zero(), Vec3::Zero());
  ASSERT_EQ(static_cast<int>(reference.size()), expected_count);
  for (int axis = 0; axis < 3; ++axis) {
    for (const double sign : {-1.0, 1.0}) {
      const Vec3 delta = sign * 1e-9 * Vec3::Unit(axis);
      EXPECT_EQ(PerturbedFeatures(scene, delta, Vec3::Zero()), reference) << "move " << axis;
      EXPECT_EQ(PerturbedFeatures(scene, Vec3::Zero(), delta), reference) << "turn " << axis;
    }
  }
}

TEST(ManifoldStabilityTest, RestingShapesKeepTheirFeaturesUnderTinyPerturbations) {
  const Quat along_x = AxisAngle(kPi / 2, Vec3::UnitY());
  {
    SCOPED_TRACE("box on plane");
    Scene scene;
    scene.AddBodyShape(Box(0.5, 0.5, 0.5), {Vec3(0, 0, 0.5)});
    scene.AddGround();
    ExpectStableManifold(scene, 4);
  }
  {
    SCOPED_TRACE("flush box stack");
    Scene scene;
    scene.AddBodyShape(Box(0.5, 0.5, 0.5), {Vec3(0, 0, 1.0)});
    scene.AddShape(kWorldBody, Box(0.5, 0.5, 0.5));
    ExpectStableManifold(scene, 4);
  }
  {
    SCOPED_TRACE("box stack with 30 degree yaw");
    Scene scene;
    scene.AddBodyShape(Box(0.5, 0.5, 0.5), {Vec3(0, 0, 1.0), AxisAngle(kPi / 6, Vec3::UnitZ())});
    scene.AddShape(kWorldBody, Box(0.5, 0.5, 0.5));
    ExpectStableManifold(scene, 4);
  }
  {
    SCOPED_TRACE("small box on a large box");
    Scene scene;
    scene.AddBodyShape(Box(0.2, 0.3, 0.1), {Vec3(0.1, 0.2, 0.6), AxisAngle(0.3, Vec3::UnitZ())});
    scene.AddShape(kWorldBody, Box(1, 1, 0.5));
    ExpectStableManifold(scene, 4);
  }
  {
    SCOPED_TRACE("capsule on box");
    Scene scene;
    scene.AddBodyShape(Capsule(0.1, 0.5), {Vec3(0, 0, 0.6), along_x});
    scene.AddShape(kWorldBody, Box(1, 1, 0.5));
    ExpectStableManifold(scene, 2);
  }
  {
    SCOPED_TRACE("capsule on capsule");
    Scene scene;
    scene.AddBodyShape(Capsule(0.1, 0.5), {Vec3(0, 0, 0.2), along_x});
    scene.AddShape(kWorldBody, Capsule(0.1, 0.5), {Vec3::Zero(), along_x});
    ExpectStableManifold(scene, 2);
  }
  {
    SCOPED_TRACE("standing cylinder");
    Scene scene;
    scene.AddBodyShape(Cylinder(0.3, 0.4), {Vec3(0, 0, 0.4)});
    scene.AddGround();
    ExpectStableManifold(scene, 4);
  }
}

// moving A along the normal by δ opens every contact that keeps its feature by exactly δ
void ExpectNormalPointsFromBToA(Scene scene, double margin) {
  scene.Detect(margin);
  ASSERT_GT(scene.contacts.count(), 0);
  const Contacts before = scene.contacts;
  const Contact& first = before.items[0];
  const double delta = 1e-3;
  // move A's body along +n, or B's along −n when A is static
  if (first.a.body != kWorldBody) {
    scene.state.body_X_WB[first.a.body].p += delta * first.normal_W;
  } else if (first.a.is_particle()) {
    scene.state.particle_x_W[first.a.particle()] += delta * first.normal_W;
  } else {
    scene.state.body_X_WB[first.b.body].p -= delta * first.normal_W;
  }
  scene.Detect(margin);
  int matched = 0;
  for (const Contact& old_contact : before.items) {
    for (const Contact& new_contact : scene.contacts.items) {
      if (new_contact.feature != old_contact.feature) continue;
      EXPECT_NEAR(new_contact.gap0 - old_contact.gap0, delta, 1e-9);
      ++matched;
    }
  }
  EXPECT_GT(matched, 0);
}

TEST(NormalDirectionTest, GapGrowsWhenAMovesAlongTheNormal) {
  const Quat tilt = AxisAngle(0.3, Vec3(1, 2, 3));
  const Quat tilt2 = AxisAngle(-0.7, Vec3(-2, 1, 0.5));
  const std::vector<std::function<void(Scene*)>> builders = {
      [&](Scene* s) {  // sphere on plane
        s->AddGround();
        s->AddBodyShape(Sphere(0.3), {Vec3(0, 0, 0.29)});
      },
      [&](Scene* s) {  // tilted box on plane
        s->AddBodyShape(Box(0.3, 0.2, 0.1), {Vec3(0, 0, 0.2), tilt});
        s->AddGround();
      },
      [&](Scene* s) {  // capsule on plane
        s->AddGround();
        s->AddBodyShape(Capsule(0.1, 0.3), {Vec3(0, 0, 0.15), tilt});
      },
      [&](Scene* s) {  // tilted cylinder on plane
        s->AddGround();
        s->AddBodyShape(Cylinder(0.1, 0.3), {Vec3(0, 0, 0.2), tilt2});
      },
      [&](Scene* s) {  // sphere against sphere
        s->AddBodyShape(Sphere(0.3), {Vec3(0.1, 0.2, 0.5)});
        s->AddShape(kWorldBody, Sphere(0.4), {Vec3(0, 0, -0.15)});
      },
      [&](Scene* s) {  // dynamic sphere over a static box (A is the static box)
        s->AddShape(kWorldBody, Box(0.4, 0.5, 0.6), {Vec3::Zero(), tilt});
        s->AddBodyShape(Sphere(0.3), {tilt * Vec3(0.1, 0.2, 0.92)});
      },
      [&](Scene* s) {  // sphere against capsule
        s->AddBodyShape(Capsule(0.2, 0.5), {Vec3::Zero(), tilt});
        s->AddBodyShape(Sphere(0.3), {Vec3(0.4, 0.1, 0.2)});
      },
      [&](Scene* s) {  // capsule against capsule
        s->AddBodyShape(Capsule(0.2, 0.5), {Vec3::Zero(), tilt});
        s->AddBodyShape(Capsule(0.1, 0.4), {Vec3(0.1, 0.2, 0.25), tilt2});
      },
      [&](Scene* s) {  // capsule against box
        s->AddBodyShape(Capsule(0.1, 0.4), {Vec3(0.1, 0.2, 0.7), tilt2});
        s->AddShape(kWorldBody, Box(0.4, 0.5, 0.6), {Vec3::Zero(), tilt});
      },
      [&](Scene* s) {  // box against box
        s->AddBodyShape(Box(0.3, 0.2, 0.1), {Vec3(0.1, 0.1, 0.75), tilt2});
        s->AddShape(kWorldBody, Box(0.4, 0.5, 0.6), {Vec3::Zero(), tilt});
      },
      [&](Scene* s) {  // particle against box
        s->AddShape(kWorldBody, Box(0.4, 0.5, 0.6), {Vec3::Zero(), tilt});
        s->AddParticle(tilt * Vec3(0.1, 0.1, 0.62), 0.05);
      },
  };
  for (size_t i = 0; i < builders.size(); ++i) {
    SCOPED_TRACE("scene " + std::to_string(i));
    Scene scene;
    builders[i](&scene);
    ExpectNormalPointsFromBToA(scene, 0.1);
    scene.Detect(0.1);
    testing::ExpectConsistentContacts(scene, 0.1);
  }
}

// a small scene of mixed pairs, all touching or within the margin
Scene TinyScene() {
  Scene scene;
  scene.AddGround();
  scene.AddBodyShape(Box(0.5, 0.5, 0.5), {Vec3(0, 0, 0.499), AxisAngle(0.01, Vec3(1, 1, 0))});
  scene.AddBodyShape(Box(0.3, 0.3, 0.3), {Vec3(0.1, 0, 1.295), AxisAngle(0.4, Vec3::UnitZ())});
  scene.AddBodyShape(Sphere(0.2), {Vec3(0.695, 0, 0.5)});
  scene.AddBodyShape(Capsule(0.1, 0.4), {Vec3(-1, 0, 0.1), AxisAngle(kPi / 2, Vec3::UnitY())});
  scene.AddBodyShape(Cylinder(0.2, 0.3), {Vec3(2, 0, 0.3)});
  scene.AddParticle(Vec3(-1.1, 0, 0.235), 0.03);
  return scene;
}

TEST(DeterminismTest, SameSceneGivesBitIdenticalContactsAndReusesTheBuffer) {
  Scene first = TinyScene();
  Scene second = TinyScene();
  first.Detect(kMargin);
  second.Detect(kMargin);
  ASSERT_EQ(first.contacts.count(), second.contacts.count());
  // box–plane 4, capsule–plane 2, cylinder–plane 4, box–box 4, box–sphere 1, capsule–box 1,
  // particle–capsule 1
  EXPECT_EQ(first.contacts.count(), 17);
  double sum_first = 0;
  double sum_second = 0;
  for (int i = 0; i < first.contacts.count(); ++i) {
    const Contact& x = first.contacts.items[i];
    const Contact& y = second.contacts.items[i];
    EXPECT_EQ(x.feature, y.feature);
    EXPECT_EQ(x.a.shape, y.a.shape);
    EXPECT_EQ(x.b.shape, y.b.shape);
    EXPECT_EQ(x.gap0, y.gap0);
    EXPECT_EQ(x.normal_W, y.normal_W);
    EXPECT_EQ(x.a.p_B, y.a.p_B);
    EXPECT_EQ(x.b.p_B, y.b.p_B);
    sum_first += x.gap0 + x.normal_W.sum() + x.a.p_B.sum() + x.b.p_B.sum();
    sum_second += y.gap0 + y.normal_W.sum() + y.a.p_B.sum() + y.b.p_B.sum();
  }
  EXPECT_EQ(sum_first, sum_second);

  // detecting again reuses the same storage (no reallocation) and gives the same sum
  const Contact* storage = first.contacts.items.data();
  const size_t capacity = first.contacts.items.capacity();
  first.Detect(kMargin);
  EXPECT_EQ(first.contacts.items.data(), storage);
  EXPECT_EQ(first.contacts.items.capacity(), capacity);
  double sum_again = 0;
  for (const Contact& x : first.contacts.items) {
    sum_again += x.gap0 + x.normal_W.sum() + x.a.p_B.sum() + x.b.p_B.sum();
  }
  EXPECT_EQ(sum_again, sum_first);
  testing::ExpectConsistentContacts(first, kMargin);
}

}  // namespace
}  // namespace sim
