// Collision stage, one test per supported shape pair: gaps, normals, points and manifold sizes of
// configurations with closed-form answers (resting, penetrating, speculative, tilted, crossed).
#include "engine/collision/collision.h"

#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/unit/collision_test_util.h"

namespace sim {
namespace {

using testing::AxisAngle;
using testing::Box;
using testing::Capsule;
using testing::Cylinder;
using testing::ExpectConsistentContacts;
using testing::Features;
using testing::kPi;
using testing::Scene;
using testing::Sphere;
using testing::SurfacePointA;
using testing::SurfacePointB;
using testing::WorldPoint;

// closed forms evaluated in double: agreement to rounding
constexpr double kTol = 1e-12;
constexpr double kMargin = 0.01;

void ExpectVecNear(const Vec3& actual, const Vec3& expected, double tolerance) {
  EXPECT_LT((actual - expected).norm(), tolerance)
      << "actual " << actual.transpose() << " expected " << expected.transpose();
}

TEST(PlanePairsTest, SphereAbovePlaneIsSpeculativeWithFullContactData) {
  Scene scene;
  const int ground_material = scene.AddMaterial(0.2);
  const int ball_material = scene.AddMaterial(0.6);
  const int ground = scene.AddGround(ground_material);
  const int ball = scene.AddBodyShape(Sphere(0.5), {Vec3(0.3, -0.2, 0.6)}, ball_material);
  scene.Detect(0.2);
  ASSERT_EQ(scene.contacts.count(), 1);
  EXPECT_EQ(scene.stats.pairs_tested, 1);
  const Contact& contact = scene.contacts.items[0];
  // the plane is B, the sphere A; n from B to A is the plane's +z
  EXPECT_EQ(contact.a.shape, ball);
  EXPECT_EQ(contact.a.body, 0);
  EXPECT_EQ(contact.a.particle(), -1);
  EXPECT_EQ(contact.b.shape, ground);
  EXPECT_EQ(contact.b.body, kWorldBody);
  ExpectVecNear(contact.normal_W, Vec3::UnitZ(), kTol);
  EXPECT_NEAR(contact.gap0, 0.1, kTol);
  // the sphere is round: its point is its centre and its radius is part of the thickness
  EXPECT_EQ(contact.thickness, 0.5);
  EXPECT_EQ(contact.a.radius, 0.5);
  ExpectVecNear(contact.a.p_B, Vec3(0, 0, 0), kTol);  // body frame
  ExpectVecNear(SurfacePointA(scene.state, contact), Vec3(0.3, -0.2, 0.1), kTol);
  ExpectVecNear(contact.b.p_B, Vec3(0.3, -0.2, 0.0), kTol);  // world frame (static side)
  ExpectVecNear(contact.tangent_W, Vec3::UnitX(), kTol);
  ExpectVecNear(contact.bitangent_W, Vec3::UnitY(), kTol);
  EXPECT_NEAR(contact.friction_t, 0.4, kTol);
  EXPECT_NEAR(contact.friction_b, 0.4, kTol);
  ExpectConsistentContacts(scene, 0.2);

  // farther than the margin: rejected by the bounding test already
  scene.Detect(0.05);
  EXPECT_EQ(scene.contacts.count(), 0);
  EXPECT_EQ(scene.stats.pairs_tested, 0);
}

TEST(PlanePairsTest, TiltedPlaneUsesItsLocalZAsNormal) {
  Scene scene;
  const Quat tilt = AxisAngle(kPi / 6, Vec3::UnitX());
  const Vec3 origin(1, 2, -1);
  scene.AddShape(kWorldBody, testing::Plane(), {origin, tilt});
  const Vec3 normal = tilt * Vec3::UnitZ();
  scene.AddBodyShape(Sphere(0.25), {origin + tilt * Vec3(0.3, 0, 0) + 0.2 * normal});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 1);
  ExpectVecNear(scene.contacts.items[0].normal_W, normal, kTol);
  EXPECT_NEAR(scene.contacts.items[0].gap0, -0.05, kTol);
  ExpectConsistentContacts(scene, kMargin);
}

TEST(PlanePairsTest, BoxRestingOnPlaneHasFourCornersAtZeroGap) {
  Scene scene;
  scene.AddGround();
  scene.AddBodyShape(Box(0.5, 0.5, 0.5), {Vec3(0, 0, 0.5)});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 4);
  EXPECT_EQ(Features(scene.contacts), (std::vector<std::uint32_t>{0, 1, 2, 3}));
  for (const Contact& contact : scene.contacts.items) {
    // feature = corner index, bit k set: coordinate k positive
    const Vec3 corner((contact.feature & 1) ? 0.5 : -0.5, (contact.feature & 2) ? 0.5 : -0.5, -0.5);
    EXPECT_NEAR(contact.gap0, 0.0, kTol);
    ExpectVecNear(contact.normal_W, Vec3::UnitZ(), kTol);
    ExpectVecNear(contact.a.p_B, corner, kTol);
    ExpectVecNear(contact.b.p_B, Vec3(corner.x(), corner.y(), 0.0), kTol);
  }
  ExpectConsistentContacts(scene, kMargin);
}

TEST(PlanePairsTest, BoxPenetrationAndSpeculativeGap) {
  Scene scene;
  scene.AddGround();
  scene.AddBodyShape(Box(0.5, 0.5, 0.5), {Vec3(0, 0, 0.49)});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 4);
  for (const Contact& contact : scene.contacts.items) EXPECT_NEAR(contact.gap0, -0.01, kTol);

  // 5 mm above: contacts with a margin of 1 cm, none with 4 mm
  scene.state.body_X_WB[0].p.z() = 0.505;
  scene.Detect(0.01);
  ASSERT_EQ(scene.contacts.count(), 4);
  for (const Contact& contact : scene.contacts.items) EXPECT_NEAR(contact.gap0, 0.005, kTol);
  scene.Detect(0.004);
  EXPECT_EQ(scene.contacts.count(), 0);
}

TEST(PlanePairsTest, BoxTiltedOnAnEdgeHasTwoContacts) {
  Scene scene;
  scene.AddGround();
  scene.AddBodyShape(Box(0.5, 0.5, 0.5),
                     {Vec3(0, 0, std::sqrt(0.5)), AxisAngle(kPi / 4, Vec3::UnitX())});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 2);
  // the edge y = z = −0.5 (corners 0 and 1) lies on the ground along x
  EXPECT_EQ(Features(scene.contacts), (std::vector<std::uint32_t>{0, 1}));
  for (const Contact& contact : scene.contacts.items) {
    EXPECT_NEAR(contact.gap0, 0.0, kTol);
    ExpectVecNear(contact.b.p_B, Vec3((contact.feature & 1) ? 0.5 : -0.5, 0, 0), kTol);
  }
}

TEST(PlanePairsTest, CapsuleLyingOnPlaneHasTwoContacts) {
  Scene scene;
  scene.AddGround();
  // local z turned onto world x
  scene.AddBodyShape(Capsule(0.1, 0.4), {Vec3(0, 0, 0.1), AxisAngle(kPi / 2, Vec3::UnitY())});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 2);
  EXPECT_EQ(Features(scene.contacts), (std::vector<std::uint32_t>{0, 1}));
  ExpectVecNear(scene.contacts.items[0].b.p_B, Vec3(-0.4, 0, 0), kTol);
  ExpectVecNear(scene.contacts.items[1].b.p_B, Vec3(0.4, 0, 0), kTol);
  for (const Contact& contact : scene.contacts.items) EXPECT_NEAR(contact.gap0, 0.0, kTol);
  ExpectConsistentContacts(scene, kMargin);
}

TEST(PlanePairsTest, StandingCylinderHasFourRimContacts) {
  Scene scene;
  scene.AddGround();
  scene.AddBodyShape(Cylinder(0.3, 0.4), {Vec3(0, 0, 0.39)});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 4);
  EXPECT_EQ(Features(scene.contacts), (std::vector<std::uint32_t>{1, 2, 3, 4}));
  const Vec3 rim[4] = {Vec3(0.3, 0, 0), Vec3(0, 0.3, 0), Vec3(-0.3, 0, 0), Vec3(0, -0.3, 0)};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(scene.contacts.items[i].gap0, -0.01, kTol);
    ExpectVecNear(scene.contacts.items[i].b.p_B, rim[i], kTol);
  }
  // still four when tilted by 2°
  scene.state.body_X_WB[0].q = AxisAngle(2 * kPi / 180, Vec3::UnitX());
  scene.Detect(kMargin);
  EXPECT_EQ(scene.contacts.count(), 4);
  ExpectConsistentContacts(scene, kMargin);
}

TEST(PlanePairsTest, LyingAndTiltedCylinders) {
  Scene scene;
  scene.AddGround();
  // lying along y: the deepest rim point of each cap
  scene.AddBodyShape(Cylinder(0.3, 0.4), {Vec3(0, 0, 0.3), AxisAngle(kPi / 2, Vec3::UnitX())});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 2);
  EXPECT_EQ(Features(scene.contacts), (std::vector<std::uint32_t>{0, 5}));
  for (const Contact& contact : scene.contacts.items) {
    EXPECT_NEAR(contact.gap0, 0.0, kTol);
    EXPECT_NEAR(std::abs(contact.b.p_B.y()), 0.4, kTol);
  }
  // tilted 30°: only the bottom cap's lowest rim point touches
  const double tilt = kPi / 6;
  scene.state.body_X_WB[0] = {Vec3(0, 0, 0.4 * std::cos(tilt) + 0.3 * std::sin(tilt)),
                              AxisAngle(tilt, Vec3::UnitX())};
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 1);
  EXPECT_EQ(scene.contacts.items[0].feature, 0u);
  EXPECT_NEAR(scene.contacts.items[0].gap0, 0.0, kTol);
  ExpectConsistentContacts(scene, kMargin);
}

TEST(RoundPairsTest, SphereSphereDistanceAndDirection) {
  Scene scene;
  const Vec3 center_b(1, 2, 3);
  const Vec3 direction(0.6, 0, 0.8);
  const int a = scene.AddBodyShape(Sphere(0.5), {center_b - 1.3 * direction});
  const int b = scene.AddBodyShape(Sphere(0.7), {center_b});
  scene.Detect(0.2);
  ASSERT_EQ(scene.contacts.count(), 1);
  const Contact& contact = scene.contacts.items[0];
  EXPECT_EQ(contact.a.shape, a);  // equal types: A is the lower shape id
  EXPECT_EQ(contact.b.shape, b);
  ExpectVecNear(contact.normal_W, -direction, kTol);
  EXPECT_NEAR(contact.gap0, 0.1, kTol);
  ExpectVecNear(SurfacePointA(scene.state, contact), center_b - 0.8 * direction, kTol);
  ExpectVecNear(SurfacePointB(scene.state, contact), center_b - 0.7 * direction, kTol);
  ExpectConsistentContacts(scene, 0.2);
}

TEST(RoundPairsTest, SphereCapsuleClosestPointOnSegment) {
  Scene scene;
  const int capsule = scene.AddShape(kWorldBody, Capsule(0.2, 0.5));
  scene.AddBodyShape(Sphere(0.3), {Vec3(0.6, 0, 0.1)});
  scene.Detect(0.2);
  ASSERT_EQ(scene.contacts.count(), 1);
  const Contact& contact = scene.contacts.items[0];
  EXPECT_EQ(contact.a.shape, capsule);  // B has the lower type (sphere)
  ExpectVecNear(contact.normal_W, -Vec3::UnitX(), kTol);
  EXPECT_NEAR(contact.gap0, 0.1, kTol);
  ExpectVecNear(SurfacePointA(scene.state, contact), Vec3(0.2, 0, 0.1), kTol);
  ExpectVecNear(SurfacePointB(scene.state, contact), Vec3(0.3, 0, 0.1), kTol);
  ExpectConsistentContacts(scene, 0.2);
}

TEST(RoundPairsTest, ParallelCapsulesGiveTwoPointsCrossedOne) {
  Scene scene;
  const Quat along_x = AxisAngle(kPi / 2, Vec3::UnitY());
  scene.AddBodyShape(Capsule(0.1, 0.5), {Vec3(0, 0, 0.2), along_x});
  scene.AddShape(kWorldBody, Capsule(0.1, 0.5), {Vec3(0.3, 0, 0), along_x});
  scene.Detect(kMargin);
  // overlap of the cores along x: [−0.2, 0.5]
  ASSERT_EQ(scene.contacts.count(), 2);
  EXPECT_EQ(Features(scene.contacts), (std::vector<std::uint32_t>{1, 2}));
  ExpectVecNear(SurfacePointA(scene.state, scene.contacts.items[0]), Vec3(-0.2, 0, 0.1), kTol);
  ExpectVecNear(SurfacePointA(scene.state, scene.contacts.items[1]), Vec3(0.5, 0, 0.1), kTol);
  for (const Contact& contact : scene.contacts.items) {
    EXPECT_NEAR(contact.gap0, 0.0, kTol);
    ExpectVecNear(contact.normal_W, Vec3::UnitZ(), kTol);
  }

  // crossed at right angles, 5 cm apart: one point between the axes
  scene.state.body_X_WB[0] = {Vec3(0.3, 0, 0.25), AxisAngle(kPi / 2, Vec3::UnitX())};
  scene.Detect(0.1);
  ASSERT_EQ(scene.contacts.count(), 1);
  EXPECT_EQ(scene.contacts.items[0].feature, 0u);
  EXPECT_NEAR(scene.contacts.items[0].gap0, 0.05, kTol);
  ExpectVecNear(scene.contacts.items[0].normal_W, Vec3::UnitZ(), kTol);
  ExpectVecNear(SurfacePointA(scene.state, scene.contacts.items[0]), Vec3(0.3, 0, 0.15), kTol);
  ExpectConsistentContacts(scene, 0.1);
}

TEST(BoxPairsTest, SphereInsideBoxLeavesThroughTheNearestFace) {
  Scene scene;
  const int box = scene.AddShape(kWorldBody, Box(1, 1, 1));
  scene.AddBodyShape(Sphere(0.2), {Vec3(0.1, 0.2, 0.7)});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 1);
  const Contact& contact = scene.contacts.items[0];
  // A is the box, B the sphere: n points from the sphere into the box (−z)
  EXPECT_EQ(contact.a.shape, box);
  ExpectVecNear(contact.normal_W, -Vec3::UnitZ(), kTol);
  EXPECT_NEAR(contact.gap0, -0.5, kTol);  // 0.3 to the top face plus the radius
  ExpectVecNear(contact.a.p_B, Vec3(0.1, 0.2, 1.0), kTol);
  ExpectVecNear(contact.b.p_B, Vec3(0, 0, 0), kTol);  // the sphere's core: its centre
  ExpectVecNear(SurfacePointB(scene.state, contact), Vec3(0.1, 0.2, 0.5), kTol);
  ExpectConsistentContacts(scene, kMargin);
}

TEST(BoxPairsTest, SphereNearBoxCorner) {
  Scene scene;
  scene.AddShape(kWorldBody, Box(0.5, 0.5, 0.5));
  scene.AddBodyShape(Sphere(0.1), {Vec3(0.6, 0.6, 0.6)});
  scene.Detect(0.1);
  ASSERT_EQ(scene.contacts.count(), 1);
  const Contact& contact = scene.contacts.items[0];
  EXPECT_NEAR(contact.gap0, std::sqrt(3.0) * 0.1 - 0.1, kTol);
  ExpectVecNear(contact.normal_W, -Vec3(1, 1, 1).normalized(), kTol);
  ExpectVecNear(contact.a.p_B, Vec3(0.5, 0.5, 0.5), kTol);
  ExpectConsistentContacts(scene, 0.1);
}

TEST(BoxPairsTest, CapsuleLyingOnBoxIsClippedToTheFace) {
  Scene scene;
  const Quat along_x = AxisAngle(kPi / 2, Vec3::UnitY());
  scene.AddShape(kWorldBody, Box(1, 1, 0.5));
  scene.AddBodyShape(Capsule(0.1, 0.5), {Vec3(0, 0, 0.6), along_x});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 2);
  for (int i = 0; i < 2; ++i) {
    const Contact& contact = scene.contacts.items[i];
    EXPECT_NEAR(contact.gap0, 0.0, kTol);
    ExpectVecNear(contact.normal_W, Vec3::UnitZ(), kTol);
    ExpectVecNear(contact.b.p_B, Vec3(i == 0 ? -0.5 : 0.5, 0, 0.5), kTol);
  }

  // hanging over the edge x = 1 and sunk 1 cm: the contacts stop at the edge
  scene.state.body_X_WB[0].p = Vec3(0.9, 0, 0.59);
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 2);
  ExpectVecNear(scene.contacts.items[0].b.p_B, Vec3(0.4, 0, 0.5), kTol);
  ExpectVecNear(scene.contacts.items[1].b.p_B, Vec3(1.0, 0, 0.5), kTol);
  for (const Contact& contact : scene.contacts.items) EXPECT_NEAR(contact.gap0, -0.01, kTol);
  ExpectConsistentContacts(scene, kMargin);
}

TEST(BoxPairsTest, CapsuleStandingOnOrCrossingABoxEdgeGivesOnePoint) {
  Scene scene;
  scene.AddShape(kWorldBody, Box(1, 1, 0.5));
  // standing upright on the top face: only the lower end sphere touches
  scene.AddBodyShape(Capsule(0.1, 0.5), {Vec3(0.2, 0.3, 1.1)});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 1);
  EXPECT_NEAR(scene.contacts.items[0].gap0, 0.0, kTol);
  ExpectVecNear(scene.contacts.items[0].b.p_B, Vec3(0.2, 0.3, 0.5), kTol);

  // along y, diagonally beyond the edge x = 1, z = 0.5
  scene.state.body_X_WB[0] = {Vec3(1.1, 0, 0.6), AxisAngle(kPi / 2, Vec3::UnitX())};
  scene.Detect(0.1);
  ASSERT_EQ(scene.contacts.count(), 1);
  const Contact& contact = scene.contacts.items[0];
  EXPECT_NEAR(contact.gap0, std::sqrt(0.02) - 0.1, kTol);
  ExpectVecNear(contact.normal_W, Vec3(1, 0, 1).normalized(), kTol);
  EXPECT_NEAR(contact.b.p_B.x(), 1.0, kTol);
  EXPECT_NEAR(contact.b.p_B.z(), 0.5, kTol);
  ExpectConsistentContacts(scene, 0.1);
}

TEST(BoxPairsTest, StackedBoxesWithYawGiveFourPointsInsideBothFaces) {
  Scene scene;
  const Quat yaw = AxisAngle(kPi / 6, Vec3::UnitZ());
  scene.AddBodyShape(Box(0.5, 0.5, 0.5), {Vec3(0, 0, 1.0), yaw});
  scene.AddShape(kWorldBody, Box(0.5, 0.5, 0.5));
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 4);
  double area = 0;
  Vec3 previous = WorldPoint(scene.state, scene.contacts.items[3].a);
  for (const Contact& contact : scene.contacts.items) {
    EXPECT_NEAR(contact.gap0, 0.0, 1e-9);
    ExpectVecNear(contact.normal_W, Vec3::UnitZ(), 1e-12);
    const Vec3 a = WorldPoint(scene.state, contact.a);
    const Vec3 b = WorldPoint(scene.state, contact.b);
    ExpectVecNear(a, b, 1e-9);
    EXPECT_NEAR(a.z(), 0.5, 1e-9);
    // inside the lower top face and the upper bottom face (a few µm of clip slack allowed)
    const Vec3 upper = yaw.conjugate() * (a - Vec3(0, 0, 1));
    EXPECT_LE(b.cwiseAbs().head<2>().maxCoeff(), 0.5 + 1e-5);
    EXPECT_LE(upper.cwiseAbs().head<2>().maxCoeff(), 0.5 + 1e-5);
    area += 0.5 * previous.cross(a).z();  // shoelace over the points in polygon order
    previous = a;
  }
  // the four points span most of the octagonal overlap (0.845 m²; a square inscribed in a
  // regular octagon covers 71% of it)
  EXPECT_GT(std::abs(area), 0.6) << area;
  ExpectConsistentContacts(scene, kMargin);
}

TEST(BoxPairsTest, FlushStackPenetratingGivesTheFourCornersAtTheDepth) {
  Scene scene;
  scene.AddBodyShape(Box(0.5, 0.5, 0.5), {Vec3(0, 0, 0.98)});
  scene.AddShape(kWorldBody, Box(0.5, 0.5, 0.5));
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 4);
  for (const Contact& contact : scene.contacts.items) {
    EXPECT_NEAR(contact.gap0, -0.02, kTol);
    ExpectVecNear(contact.normal_W, Vec3::UnitZ(), kTol);
    const Vec3 b = WorldPoint(scene.state, contact.b);
    EXPECT_NEAR(std::abs(b.x()), 0.5, kTol);
    EXPECT_NEAR(std::abs(b.y()), 0.5, kTol);
  }
  ExpectConsistentContacts(scene, kMargin);
}

TEST(BoxPairsTest, CrossedEdgesGiveOneEdgeContact) {
  Scene scene;
  // lower box on an edge along x, upper box on an edge along y, 3 mm apart
  const double half_diagonal = std::sqrt(0.5);
  scene.AddBodyShape(Box(0.5, 0.5, 0.5),
                     {Vec3(0, 0, 2 * half_diagonal + 0.003), AxisAngle(kPi / 4, Vec3::UnitY())});
  scene.AddShape(kWorldBody, Box(0.5, 0.5, 0.5), {Vec3::Zero(), AxisAngle(kPi / 4, Vec3::UnitX())});
  scene.Detect(kMargin);
  ASSERT_EQ(scene.contacts.count(), 1);
  const Contact& contact = scene.contacts.items[0];
  EXPECT_NEAR(contact.gap0, 0.003, 1e-12);
  ExpectVecNear(contact.normal_W, Vec3::UnitZ(), 1e-12);
  ExpectVecNear(WorldPoint(scene.state, contact.a), Vec3(0, 0, half_diagonal + 0.003), 1e-12);
  ExpectVecNear(WorldPoint(scene.state, contact.b), Vec3(0, 0, half_diagonal), 1e-12);
  ExpectConsistentContacts(scene, kMargin);
}

TEST(ParticlePairsTest, ParticleAbovePlaneWithinMargin) {
  Scene scene;
  const int ground_material = scene.AddMaterial(0.3);
  const int particle_material = scene.AddMaterial(0.9);
  const int ground = scene.AddGround(ground_material);
  scene.AddParticle(Vec3(0.2, 0.3, 0.08), 0.05, particle_material);
  scene.Detect(0.05);
  ASSERT_EQ(scene.contacts.count(), 1);
  const Contact& contact = scene.contacts.items[0];
  EXPECT_EQ(contact.a.particle(), 0);
  EXPECT_EQ(contact.a.body, kWorldBody);
  EXPECT_EQ(contact.a.shape, -1);
  EXPECT_EQ(contact.a.p_B, Vec3::Zero());
  EXPECT_EQ(contact.b.shape, ground);
  EXPECT_EQ(contact.b.particle(), -1);
  EXPECT_NEAR(contact.thickness, 0.05, kTol);
  EXPECT_NEAR(contact.gap0, 0.08 - 0.05, kTol);
  ExpectVecNear(contact.normal_W, Vec3::UnitZ(), kTol);
  ExpectVecNear(contact.b.p_B, Vec3(0.2, 0.3, 0), kTol);
  EXPECT_NEAR(contact.friction_t, 0.6, kTol);
  ExpectConsistentContacts(scene, 0.05);

  // above the margin: nothing
  scene.state.particle_x_W[0].z() = 0.2;
  scene.Detect(0.05);
  EXPECT_EQ(scene.contacts.count(), 0);
}

TEST(ParticlePairsTest, ParticleAgainstSphereBoxAndCapsule) {
  struct Case {
    ShapeGeometry shape;
    Vec3 particle;
    double radius;
    double gap;
    Vec3 normal;
  };
  const Case cases[] = {
      {Sphere(0.5), Vec3(0, 0.6, 0), 0.05, 0.05, Vec3::UnitY()},
      {Box(0.5, 0.5, 0.5), Vec3(0.1, -0.2, 0.52), 0.01, 0.01, Vec3::UnitZ()},
      {Box(0.5, 0.5, 0.5), Vec3(0.1, -0.2, 0.45), 0.01, -0.06, Vec3::UnitZ()},
      {Capsule(0.1, 0.5), Vec3(0.15, 0, 0.3), 0.02, 0.03, Vec3::UnitX()},
  };
  for (const Case& test : cases) {
    Scene scene;
    scene.AddShape(kWorldBody, test.shape);
    scene.AddParticle(test.particle, test.radius);
    scene.Detect(0.1);
    ASSERT_EQ(scene.contacts.count(), 1) << ShapeTypeName(test.shape.type);
    const Contact& contact = scene.contacts.items[0];
    EXPECT_EQ(contact.a.particle(), 0);
    EXPECT_NEAR(contact.gap0, test.gap, kTol) << ShapeTypeName(test.shape.type);
    ExpectVecNear(contact.normal_W, test.normal, kTol);
    // the particle and a round shape both contribute their radius to the thickness
    EXPECT_NEAR(contact.thickness, test.radius + contact.b.radius, kTol);
    EXPECT_NEAR(contact.a.radius, test.radius, kTol);
    ExpectConsistentContacts(scene, 0.1);
  }
}

TEST(BroadPhaseTest, SweepFindsEveryShapePairAndShapeParticlePairThatOverlaps) {
  // the sort and sweep runs shapes and particles as two lists (particle–particle contact is not
  // modelled): its candidates must be exactly the pairs of grown boxes that overlap on every
  // axis, checked here against all pairs; a few boxes start at the same x (exact binary
  // fractions), where the two lists' scans must find the pair once
  Scene scene;
  std::mt19937 random(3);
  std::uniform_real_distribution<double> coordinate(-1, 1), size(0.02, 0.3);
  for (int i = 0; i < 40; ++i) {
    const Vec3 position(coordinate(random), coordinate(random), coordinate(random));
    scene.AddBodyShape(i % 2 ? Sphere(size(random)) : Box(size(random), size(random), 0.1),
                       Pose{position, Quat::Identity()});
  }
  scene.AddShape(kWorldBody, Sphere(0.25), Pose{Vec3(0.5, 0, 0), Quat::Identity()});
  for (int i = 0; i < 300; ++i) {
    scene.AddParticle(Vec3(coordinate(random), coordinate(random), coordinate(random)), 0.02);
  }
  scene.AddParticle(Vec3(0.375, 0, 0.1), 0.125);  // box_min.x = 0.25, as the sphere's
  scene.AddParticle(Vec3(0.375, 0, 0.1), 0.125);  // and again
  const double margin = 0.05;
  CollisionWorkspace workspace;
  DetectContacts(scene.model, scene.state, margin, 0, &workspace, &scene.contacts, &scene.stats);
  std::vector<std::pair<int, int>> expected;
  const int n = static_cast<int>(workspace.collider.size());
  ASSERT_EQ(n, 41 + 302);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (workspace.collider[i] < 0 && workspace.collider[j] < 0) continue;
      const bool apart =
          (workspace.box_min[j].array() > workspace.box_max[i].array() + margin).any() ||
          (workspace.box_min[i].array() > workspace.box_max[j].array() + margin).any();
      if (!apart) expected.push_back({i, j});
    }
  }
  EXPECT_GT(expected.size(), 100u);
  EXPECT_EQ(workspace.candidates, expected);  // both sorted
}

}  // namespace
}  // namespace sim
