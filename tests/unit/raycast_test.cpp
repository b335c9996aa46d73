// Ray casts against every shape type, checked against closed-form hits (distance, point and
// normal), in rotated and translated frames; meshes, hulls and fields against the primitive they
// approximate; the scene cast picks the nearest of several bodies, skips what the options leave
// out, and finds free particles and the nearest node of a soft body's deformed surface.
#include "engine/collision/raycast.h"

#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "engine/geometry/analytic_sdf.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/geometry/mesh_primitives.h"
#include "engine/state/state.h"
#include "tests/support/model_builder.h"

namespace sim {
namespace {

using test_support::AddBody;
using test_support::AddParticle;
using test_support::AddWorldShape;
using test_support::Box;
using test_support::MakeEmptyModel;
using test_support::Plane;

// closed-form hits are exact up to rounding of a few operations on O(1) numbers
constexpr Real kExact = 1e-12;
constexpr Real kInf = std::numeric_limits<Real>::infinity();

ShapeGeometry Sphere(Real r) {
  ShapeGeometry g;
  g.type = ShapeType::kSphere;
  g.radius = r;
  return g;
}

ShapeGeometry Capsule(Real r, Real half_length) {
  ShapeGeometry g;
  g.type = ShapeType::kCapsule;
  g.radius = r;
  g.half_length = half_length;
  return g;
}

ShapeGeometry Cylinder(Real r, Real half_length) {
  ShapeGeometry g = Capsule(r, half_length);
  g.type = ShapeType::kCylinder;
  return g;
}

// a pose rotated by `angle` about `axis` and moved to `p`
Pose Placed(const Vec3& p, Real angle = 0, const Vec3& axis = Vec3::UnitZ()) {
  return Pose{p, Quat(Eigen::AngleAxis<Real>(angle, axis.normalized()))};
}

void ExpectHit(const RayHit& hit, Real distance, const Vec3& point, const Vec3& normal,
               Real tolerance = kExact) {
  ASSERT_TRUE(hit.hit);
  EXPECT_NEAR(hit.distance, distance, tolerance);
  EXPECT_LT((hit.point - point).norm(), tolerance) << hit.point.transpose();
  EXPECT_LT((hit.normal - normal).norm(), tolerance) << hit.normal.transpose();
}


TEST(RaycastShapeTest, PlaneFromAboveAndBelowParallelMisses) {
  // plane z = 1 (its local z is the normal); from above at 45° the hit is √2·(3 − 1) away
  const Pose X_WS = Placed(Vec3(0, 0, 1));
  const Vec3 d = Vec3(1, 0, -1).normalized();
  ExpectHit(RaycastShape(Plane(), X_WS, Vec3(0, 0, 3), d, kInf), 2 * std::sqrt(2.0), Vec3(2, 0, 1),
            Vec3::UnitZ());
  // from below the normal still faces the ray
  ExpectHit(RaycastShape(Plane(), X_WS, Vec3(0, 0, -1), Vec3::UnitZ(), kInf), 2, Vec3(0, 0, 1),
            -Vec3::UnitZ());
  EXPECT_FALSE(RaycastShape(Plane(), X_WS, Vec3(0, 0, 3), Vec3::UnitX(), kInf).hit);
  // pointing away, or farther than the limit
  EXPECT_FALSE(RaycastShape(Plane(), X_WS, Vec3(0, 0, 3), Vec3::UnitZ(), kInf).hit);
  EXPECT_FALSE(RaycastShape(Plane(), X_WS, Vec3(0, 0, 3), -Vec3::UnitZ(), 1.5).hit);
}


TEST(RaycastShapeTest, SphereEntryGrazingMissAndFromInside) {
  const Pose X_WS = Placed(Vec3(1, 2, 3));
  // along −x from x = 5: enters at x = 1 + 0.5
  ExpectHit(RaycastShape(Sphere(0.5), X_WS, Vec3(5, 2, 3), -Vec3::UnitX(), kInf), 3.5,
            Vec3(1.5, 2, 3), Vec3::UnitX());
  // offset by 0.3 in y: enters at x = 1 + √(0.25 − 0.09) = 1.4
  ExpectHit(RaycastShape(Sphere(0.5), X_WS, Vec3(5, 2.3, 3), -Vec3::UnitX(), kInf), 3.6,
            Vec3(1.4, 2.3, 3), Vec3(0.4, 0.3, 0) / 0.5);
  EXPECT_FALSE(RaycastShape(Sphere(0.5), X_WS, Vec3(5, 2.51, 3), -Vec3::UnitX(), kInf).hit);
  // from the centre: the exit, normal turned to face the ray
  ExpectHit(RaycastShape(Sphere(0.5), X_WS, Vec3(1, 2, 3), Vec3::UnitZ(), kInf), 0.5,
            Vec3(1, 2, 3.5), -Vec3::UnitZ());
}


TEST(RaycastShapeTest, BoxFacesInARotatedFrame) {
  // box of half sizes (1, 0.5, 0.25) turned 90° about z: its local x lies along world y
  const ShapeGeometry box = Box(Vec3(1, 0.5, 0.25));
  const Pose X_WS = Placed(Vec3(0, 0, 1), M_PI / 2);
  // local y lies along world −x: from +x the face met is at world x = 0.5
  ExpectHit(RaycastShape(box, X_WS, Vec3(3, 0.2, 1.1), -Vec3::UnitX(), kInf), 2.5,
            Vec3(0.5, 0.2, 1.1), Vec3::UnitX());
  // from +y: world y = 1 (local x face)
  ExpectHit(RaycastShape(box, X_WS, Vec3(0.1, 4, 0.9), -Vec3::UnitY(), kInf), 3, Vec3(0.1, 1, 0.9),
            Vec3::UnitY());
  // from above at an angle: top face z = 1.25
  const Vec3 d = Vec3(0, 1, -1).normalized();
  ExpectHit(RaycastShape(box, X_WS, Vec3(0, -0.5, 2.25), d, kInf), std::sqrt(2.0),
            Vec3(0, 0.5, 1.25), Vec3::UnitZ());
  // passing beside the box (world x extent is ±0.5)
  EXPECT_FALSE(RaycastShape(box, X_WS, Vec3(0.6, 4, 1), -Vec3::UnitY(), kInf).hit);
  // from inside: the exit through the top
  ExpectHit(RaycastShape(box, X_WS, Vec3(0, 0, 1), Vec3::UnitZ(), kInf), 0.25, Vec3(0, 0, 1.25),
            -Vec3::UnitZ());
}


TEST(RaycastShapeTest, CylinderSideCapsAndMiss) {
  // axis along world x (local z turned by 90° about y), radius 0.5, half length 1
  const ShapeGeometry cylinder = Cylinder(0.5, 1);
  const Pose X_WS = Placed(Vec3::Zero(), M_PI / 2, Vec3::UnitY());
  // side from above
  ExpectHit(RaycastShape(cylinder, X_WS, Vec3(0.7, 0, 2), -Vec3::UnitZ(), kInf), 1.5,
            Vec3(0.7, 0, 0.5), Vec3::UnitZ());
  // flat cap from +x, off the axis but inside the radius
  ExpectHit(RaycastShape(cylinder, X_WS, Vec3(4, 0.3, -0.2), -Vec3::UnitX(), kInf), 3,
            Vec3(1, 0.3, -0.2), Vec3::UnitX());
  // a flat cylinder has sharp rims: just beyond the cap's end from above misses
  EXPECT_FALSE(RaycastShape(cylinder, X_WS, Vec3(1.01, 0, 2), -Vec3::UnitZ(), kInf).hit);
  // parallel to the axis outside the radius
  EXPECT_FALSE(RaycastShape(cylinder, X_WS, Vec3(4, 0.51, 0), -Vec3::UnitX(), kInf).hit);
}


TEST(RaycastShapeTest, CapsuleSideAndRoundEnds) {
  const ShapeGeometry capsule = Capsule(0.5, 1);
  const Pose X_WS = Placed(Vec3(0, 0, 2));  // axis along world z, ends at z = 1 and 3
  // side from +x
  ExpectHit(RaycastShape(capsule, X_WS, Vec3(3, 0, 2.5), -Vec3::UnitX(), kInf), 2.5,
            Vec3(0.5, 0, 2.5), Vec3::UnitX());
  // end from above on the axis: the sphere's pole at z = 3.5
  ExpectHit(RaycastShape(capsule, X_WS, Vec3(0, 0, 5), -Vec3::UnitZ(), kInf), 1.5, Vec3(0, 0, 3.5),
            Vec3::UnitZ());
  // end from above off the axis by 0.3: z = 3 + √(0.25 − 0.09) = 3.4 (where a cylinder would
  // have its flat cap at 3)
  ExpectHit(RaycastShape(capsule, X_WS, Vec3(0.3, 0, 5), -Vec3::UnitZ(), kInf), 1.6,
            Vec3(0.3, 0, 3.4), Vec3(0.3, 0, 0.4) / 0.5);
  // past the round end: beyond z = 3.5
  EXPECT_FALSE(RaycastShape(capsule, X_WS, Vec3(3, 0, 3.55), -Vec3::UnitX(), kInf).hit);
}


TEST(RaycastShapeTest, ConvexHullOfABoxMatchesTheBox) {
  // the hull of a box's corners is the box: every ray gives the same hit
  const Vec3 half(0.4, 0.3, 0.2);
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i) {
    corners.emplace_back((i & 1 ? 1 : -1) * half.x(), (i & 2 ? 1 : -1) * half.y(),
                         (i & 4 ? 1 : -1) * half.z());
  }
  Diagnostics diagnostics;
  ShapeGeometry hull;
  hull.type = ShapeType::kConvexHull;
  hull.hull = BuildConvexHull(corners, "box_hull", &diagnostics);
  ASSERT_NE(hull.hull, nullptr) << diagnostics.Format();
  const Pose X_WS = Placed(Vec3(0.1, -0.2, 0.5), 0.7, Vec3(1, 2, 3));
  int hits = 0;
  for (int k = 0; k < 50; ++k) {
    // rays from a ring of origins aimed near the centre
    const Real a = 0.37 * k;
    const Vec3 origin = X_WS.p + Vec3(2 * std::cos(a), 2 * std::sin(a), 0.5 * std::sin(3 * a));
    const Vec3 aim = X_WS.p + 0.3 * Vec3(std::sin(5 * a), std::cos(7 * a), std::sin(2 * a));
    const Vec3 d = (aim - origin).normalized();
    const RayHit expected = RaycastShape(Box(half), X_WS, origin, d, kInf);
    const RayHit actual = RaycastShape(hull, X_WS, origin, d, kInf);
    ASSERT_EQ(actual.hit, expected.hit) << "ray " << k;
    if (!expected.hit) continue;
    ++hits;
    ExpectHit(actual, expected.distance, expected.point, expected.normal, 1e-9);
  }
  EXPECT_GT(hits, 25);
}


TEST(RaycastShapeTest, MeshSphereAgreesWithTheSphereWithinTheTessellation) {
  // an icosphere of 1280 triangles with its vertices on r = 1; its faces lie inside the sphere,
  // at most `depth` below it (the smallest distance of a face plane from the centre)
  const TriangleMesh surface = Icosphere(3, 1.0);
  Real depth = 0;
  for (const std::array<int, 3>& t : surface.triangles) {
    const Vec3& a = surface.vertices[t[0]];
    const Vec3 n = (surface.vertices[t[1]] - a).cross(surface.vertices[t[2]] - a).normalized();
    depth = std::max(depth, 1 - std::abs(n.dot(a)));
  }
  ASSERT_LT(depth, 6e-3);
  const ShapeGeometry mesh = test_support::MeshShape(surface, {.build_sdf = false});
  ASSERT_NE(mesh.mesh, nullptr);
  const Pose X_WS = Placed(Vec3(1, 1, 1), 0.3, Vec3::UnitX());
  for (int k = 0; k < 40; ++k) {
    const Real a = 0.5 * k;
    const Vec3 origin = X_WS.p + 4 * Vec3(std::cos(a), std::sin(a), std::cos(2.3 * a)).normalized();
    const Vec3 d = (X_WS.p + 0.5 * Vec3(std::sin(a), 0, std::cos(a)) - origin).normalized();
    const RayHit expected = RaycastShape(Sphere(1.0), X_WS, origin, d, kInf);
    const RayHit actual = RaycastShape(mesh, X_WS, origin, d, kInf);
    ASSERT_TRUE(expected.hit && actual.hit) << "ray " << k;
    // these rays meet the sphere at incidence ≤ 30° (aimed within 0.5 r of the centre), so the
    // mesh is hit at most depth / cos 30° later along the ray
    EXPECT_GE(actual.distance, expected.distance - 1e-12);
    EXPECT_LT(actual.distance - expected.distance, depth / std::cos(M_PI / 6)) << "ray " << k;
    EXPECT_GT(actual.normal.dot(expected.normal), std::cos(0.1));
  }
  // a ray that passes 1.01 from the centre misses
  EXPECT_FALSE(RaycastShape(mesh, X_WS, X_WS.p + Vec3(-3, 1.01, 0), Vec3::UnitX(), kInf).hit);
}


// a mesh hit names its collision-mesh triangle and the point's barycentric weights (Σ b_k p_k is
// the hit point in the shape frame); primitives name none
TEST(RaycastShapeTest, MeshHitsNameTheTriangleAndWeights) {
  // the unit square z = 0 as two triangles: 0 = (0, 0)-(1, 0)-(1, 1), 1 = (0, 0)-(1, 1)-(0, 1)
  TriangleMesh square;
  square.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)};
  square.triangles = {{0, 1, 2}, {0, 2, 3}};
  const ShapeGeometry mesh = test_support::MeshShape(square, {.build_sdf = false});
  ASSERT_NE(mesh.mesh, nullptr);
  const Pose X_WS = Placed(Vec3(2, 0, 1), 0.4, Vec3(1, 1, 0));
  for (const Vec2& target : {Vec2(0.7, 0.2), Vec2(0.25, 0.6)}) {
    const Vec3 p_W = X_WS * Vec3(target.x(), target.y(), 0);
    const RayHit hit =
        RaycastShape(mesh, X_WS, p_W + Vec3(0.1, 0.2, 3), -Vec3(0.1, 0.2, 3).normalized(), kInf);
    ASSERT_TRUE(hit.hit);
    // below the diagonal x = y: triangle 0, above: triangle 1
    EXPECT_EQ(hit.triangle, target.x() > target.y() ? 0 : 1);
    const auto& tri = square.triangles[hit.triangle];
    Vec3 p_S = Vec3::Zero();
    for (int k = 0; k < 3; ++k) p_S += hit.barycentric(k) * square.vertices[tri[k]];
    EXPECT_LT((p_S - Vec3(target.x(), target.y(), 0)).norm(), kExact);
    EXPECT_NEAR(hit.barycentric.sum(), 1, kExact);
  }
  const RayHit box =
      RaycastShape(Box(Vec3::Constant(0.5)), Pose{}, Vec3(0, 0, 3), -Vec3::UnitZ(), kInf);
  ASSERT_TRUE(box.hit);
  EXPECT_EQ(box.triangle, -1);
  EXPECT_EQ(box.barycentric, Vec3::Zero());
}


TEST(RaycastShapeTest, AnalyticFieldsBySphereTracing) {
  // a field of a sphere of r = 0.5 unioned with a box: ray along −x hits the sphere at 0.5
  AnalyticSdf field;
  const int sphere = field.AddSphere(0.5);
  const int box = field.AddBox(Vec3(0.2, 0.2, 1.0), Pose{Vec3(0, 0, 1.5), Quat::Identity()});
  field.Union(sphere, box);
  ASSERT_TRUE(field.Validate().empty());
  ShapeGeometry sdf;
  sdf.type = ShapeType::kSdf;
  sdf.sdf = std::make_shared<const AnalyticSdf>(field);
  const Pose X_WS = Placed(Vec3(0, 0, 1));
  // tolerance: sphere tracing stops within 1e-6·(1 + t) of the surface
  ExpectHit(RaycastShape(sdf, X_WS, Vec3(3, 0, 1), -Vec3::UnitX(), kInf), 2.5, Vec3(0.5, 0, 1),
            Vec3::UnitX(), 1e-5);
  // the box part from above: its top at z = 1 + 2.5
  ExpectHit(RaycastShape(sdf, X_WS, Vec3(0.1, 0.1, 6), -Vec3::UnitZ(), kInf), 2.5,
            Vec3(0.1, 0.1, 3.5), Vec3::UnitZ(), 1e-5);
  EXPECT_FALSE(RaycastShape(sdf, X_WS, Vec3(3, 0.6, 1), -Vec3::UnitX(), kInf).hit);
}


TEST(RaycastSceneTest, NearestBodyWinsAndOptionsFilter) {
  Model model = MakeEmptyModel();
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  const int near =
      AddBody(&model, &state, "near", Box(Vec3::Constant(0.5)), 1, Placed(Vec3(0, 0, 2)));
  const int far = AddBody(&model, &state, "far", Sphere(0.5), 1, Placed(Vec3(0, 0, 0.5)));
  // from above the near box is hit first (top at z = 2.5)
  RayHit hit = Raycast(model, state, Vec3(0, 0, 10), Vec3(0, 0, -3));
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.body, near);
  EXPECT_EQ(hit.shape, 1);
  EXPECT_NEAR(hit.distance, 7.5, kExact);
  // beside the box (|y| > 0.5) and clear of the sphere (0.2² + 0.6² > 0.5²): the ground
  hit = Raycast(model, state, Vec3(0.2, 0.6, 10), -Vec3::UnitZ());
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.body, kWorldBody);
  EXPECT_EQ(hit.shape, 0);
  EXPECT_NEAR(hit.distance, 10, kExact);
  // above the sphere, the box (over it) is hit first; with the box moved away, the sphere
  hit = Raycast(model, state, Vec3(0.0, 0.3, 10), -Vec3::UnitZ());
  EXPECT_EQ(hit.body, near);
  state.body_X_WB[near].p = Vec3(5, 0, 2);
  hit = Raycast(model, state, Vec3(0.0, 0.3, 10), -Vec3::UnitZ());
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.body, far);
  EXPECT_NEAR(hit.point.z(), 0.5 + std::sqrt(0.25 - 0.09), kExact);
  // without static shapes the ground is not hit, and nothing beyond max_distance is
  RaycastOptions options;
  options.static_shapes = false;
  EXPECT_FALSE(Raycast(model, state, Vec3(3, 3, 10), -Vec3::UnitZ(), options).hit);
  options.static_shapes = true;
  options.max_distance = 9;
  EXPECT_FALSE(Raycast(model, state, Vec3(3, 3, 10), -Vec3::UnitZ(), options).hit);
  // a zero direction hits nothing
  EXPECT_FALSE(Raycast(model, state, Vec3(0, 0, 10), Vec3::Zero()).hit);
}


TEST(RaycastSceneTest, FreeParticlesAndSoftBodyNodes) {
  Model model = MakeEmptyModel();
  State state;
  const int free = AddParticle(&model, &state, "grain", 0.1, 0.05, Vec3(2, 0, 1));
  // a one-tet soft body with nodes 1..4: base triangle at z = 0, apex at z = 1
  const Vec3 nodes[4] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  SoftBody soft;
  soft.name = "jelly";
  soft.first_particle = model.particle_count();
  soft.particle_count = 4;
  for (int i = 0; i < 4; ++i) {
    AddParticle(&model, &state, "jelly_" + std::to_string(i), 0.1, 0.01, nodes[i]);
  }
  const int base = soft.first_particle;
  soft.tets = {{base, base + 1, base + 2, base + 3}};
  // outward counter-clockwise faces
  soft.surface = {{base, base + 2, base + 1},
                  {base, base + 1, base + 3},
                  {base, base + 3, base + 2},
                  {base + 1, base + 2, base + 3}};
  model.soft_bodies.push_back(soft);

  // the free particle: a sphere of its contact radius
  RayHit hit = Raycast(model, state, Vec3(2, 0, 3), -Vec3::UnitZ());
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.particle, free);
  EXPECT_EQ(hit.soft_body, -1);
  EXPECT_EQ(hit.triangle, -1);
  EXPECT_EQ(hit.nodes[0], -1);
  EXPECT_NEAR(hit.distance, 1.95, kExact);

  // the slanted face x + y + z = 1 from above near node base+1 (1, 0, 0)
  hit = Raycast(model, state, Vec3(0.7, 0.1, 3), -Vec3::UnitZ());
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.soft_body, 0);
  EXPECT_EQ(hit.particle, base + 1);
  EXPECT_NEAR(hit.point.z(), 0.2, kExact);
  EXPECT_LT((hit.normal - Vec3(1, 1, 1).normalized()).norm(), kExact);
  // the surface spot: boundary triangle 3 (nodes 1, 2, 3 locally) and the point's weights on it
  EXPECT_EQ(hit.triangle, 3);
  EXPECT_EQ(hit.nodes, (std::array<int, 3>{1, 2, 3}));
  Vec3 spot = Vec3::Zero();
  for (int k = 0; k < 3; ++k) spot += hit.barycentric(k) * nodes[hit.nodes[k]];
  EXPECT_LT((spot - Vec3(0.7, 0.1, 0.2)).norm(), kExact);
  // deform: lift the apex; a ray near it now hits at the moved surface and names the apex
  state.particle_x_W[base + 3] = Vec3(0, 0, 2);
  hit = Raycast(model, state, Vec3(0.05, 0.05, 3), -Vec3::UnitZ());
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.particle, base + 3);
  EXPECT_NEAR(hit.point.z(), 2 * (1 - 0.05 - 0.05), kExact);  // plane x + y + z/2 = 1
  // soft bodies left out: the ray passes through
  RaycastOptions options;
  options.soft_bodies = false;
  EXPECT_FALSE(Raycast(model, state, Vec3(0.05, 0.05, 3), -Vec3::UnitZ(), options).hit);
}

}  // namespace
}  // namespace sim
