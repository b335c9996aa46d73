// Narrow phase of convex hulls and cylinders against analytic values and against the box pairs:
// a hull built from a box's corners must give BoxVsPlane's, SphereVsBox's, CapsuleVsBox's and
// BoxVsBox's manifolds for random poses (the strongest oracle we have), and the cylinder pairs
// must give the closed forms of resting, lying, crossed and sphere configurations.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/collision/gjk.h"
#include "engine/collision/narrowphase.h"
#include "engine/geometry/convex_hull.h"

namespace sim {
namespace {

using collision_internal::Manifold;
using collision_internal::ManifoldPoint;
using collision_internal::PlacedShape;
namespace np = collision_internal;

constexpr double kPi = std::numbers::pi;
// closed forms evaluated in double: agreement to rounding
constexpr double kTol = 1e-12;
// hull vs box oracle: the same arithmetic in a different order (world-frame planes instead of
// box-frame coordinates), so a few hundred ulps of the 1 m scale
constexpr double kOracleTol = 1e-9;
constexpr double kMargin = 0.02;

// ---- test helpers: a ConvexHull filled by hand (the qhull builder is another change) ----

// the hull of a small point set by brute force: every plane through three points with all points
// on one side is a face, coplanar points merged, loops counter-clockwise seen from outside
ConvexHull HullFromPoints(const std::vector<Vec3>& points, const std::string& name) {
  ConvexHull hull;
  hull.name = name;
  hull.vertices = points;
  const int n = static_cast<int>(points.size());
  constexpr double kPlanar = 1e-12;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      for (int k = j + 1; k < n; ++k) {
        Vec3 normal = (points[j] - points[i]).cross(points[k] - points[i]);
        if (normal.norm() < 1e-12) continue;
        normal.normalize();
        double offset = normal.dot(points[i]);
        int above = 0;
        int below = 0;
        for (const Vec3& p : points) {
          const double h = normal.dot(p) - offset;
          above += h > kPlanar;
          below += h < -kPlanar;
        }
        if (above > 0 && below > 0) continue;
        if (above > 0) {
          normal = -normal;
          offset = -offset;
        }
        bool known = false;
        for (const ConvexHull::Face& face : hull.faces) {
          known |= (face.normal - normal).norm() < 1e-9 && std::abs(face.offset - offset) < 1e-9;
        }
        if (known) continue;
        // the face's vertices sorted by angle about the normal
        std::vector<int> loop;
        Vec3 center = Vec3::Zero();
        for (int v = 0; v < n; ++v) {
          if (std::abs(normal.dot(points[v]) - offset) <= kPlanar) {
            loop.push_back(v);
            center += points[v];
          }
        }
        center /= static_cast<double>(loop.size());
        const Vec3 u = (points[loop[0]] - center).normalized();
        const Vec3 w = normal.cross(u);
        std::sort(loop.begin(), loop.end(), [&](int a, int b) {
          const Vec3 da = points[a] - center;
          const Vec3 db = points[b] - center;
          return std::atan2(w.dot(da), u.dot(da)) < std::atan2(w.dot(db), u.dot(db));
        });
        ConvexHull::Face face;
        face.normal = normal;
        face.offset = offset;
        face.first = static_cast<int>(hull.face_vertices.size());
        face.count = static_cast<int>(loop.size());
        hull.faces.push_back(face);
        hull.face_vertices.insert(hull.face_vertices.end(), loop.begin(), loop.end());
      }
    }
  }
  // edges from the loops, neighbours, centroid (vertex mean: exact for the symmetric test hulls)
  hull.vertex_neighbors.assign(n, {});
  for (const ConvexHull::Face& face : hull.faces) {
    for (int m = 0; m < face.count; ++m) {
      int a = hull.face_vertices[face.first + m];
      int b = hull.face_vertices[face.first + (m + 1) % face.count];
      if (a > b) std::swap(a, b);
      const std::array<int, 2> edge = {a, b};
      if (std::find(hull.edges.begin(), hull.edges.end(), edge) != hull.edges.end()) continue;
      hull.edges.push_back(edge);
      hull.vertex_neighbors[a].push_back(b);
      hull.vertex_neighbors[b].push_back(a);
    }
  }
  for (const Vec3& p : points) hull.centroid += p / n;
  return hull;
}

// a box's hull: vertex i has coordinate k positive when bit k of i is set (BoxVsPlane's corner
// ids), face 2·axis + (positive side) (CapsuleVsBox's face ids)
ConvexHull BoxHull(const Vec3& half) {
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i) {
    corners.emplace_back((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(),
                         (i & 4) ? half.z() : -half.z());
  }
  ConvexHull hull = HullFromPoints(corners, "box");
  const auto key = [](const ConvexHull::Face& face) {
    int axis = 0;
    face.normal.cwiseAbs().maxCoeff(&axis);
    return 2 * axis + (face.normal(axis) > 0 ? 1 : 0);
  };
  std::sort(hull.faces.begin(), hull.faces.end(),
            [&](const ConvexHull::Face& a, const ConvexHull::Face& b) { return key(a) < key(b); });
  return hull;
}

// a right prism over a regular n-gon of circumradius r in the xy plane, z ∈ [−h, h]
ConvexHull PrismHull(int sides, double r, double h) {
  std::vector<Vec3> points;
  for (const double z : {-h, h}) {
    for (int k = 0; k < sides; ++k) {
      const double angle = 2 * kPi * k / sides;
      points.emplace_back(r * std::cos(angle), r * std::sin(angle), z);
    }
  }
  return HullFromPoints(points, "prism");
}

ShapeGeometry BoxGeometry(const Vec3& half) {
  return {.type = ShapeType::kBox, .half_extents = half};
}
ShapeGeometry SphereGeometry(double radius) {
  return {.type = ShapeType::kSphere, .radius = radius};
}
ShapeGeometry CapsuleGeometry(double radius, double half_length) {
  return {.type = ShapeType::kCapsule, .radius = radius, .half_length = half_length};
}
ShapeGeometry CylinderGeometry(double radius, double half_length) {
  return {.type = ShapeType::kCylinder, .radius = radius, .half_length = half_length};
}
const ShapeGeometry kPlaneGeometry{.type = ShapeType::kPlane};
const ShapeGeometry kHullGeometry{.type = ShapeType::kNone};  // hull data passed separately

PlacedShape Place(const ShapeGeometry& geometry, const Vec3& center,
                  const Mat3& rotation = Mat3::Identity()) {
  return {&geometry, center, rotation};
}

Mat3 AxisAngle(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// The draws of the two helpers below are sequenced: the order of a call's arguments is
// unspecified, GCC (which the tolerances were set with) evaluates the last first and clang the
// first, so unsequenced draws gave the clang sanitizer build other poses. Last component first
// keeps GCC's poses.
Mat3 RandomRotation(std::mt19937_64& random) {
  std::normal_distribution<double> normal;
  const double z = normal(random);
  const double y = normal(random);
  const double x = normal(random);
  const double w = normal(random);
  return Quat(w, x, y, z).normalized().toRotationMatrix();
}

Vec3 RandomVector(std::mt19937_64& random, double low, double high) {
  std::uniform_real_distribution<double> uniform(low, high);
  const double z = uniform(random);
  const double y = uniform(random);
  const double x = uniform(random);
  return Vec3(x, y, z);
}

double Gap(const ManifoldPoint& p) { return p.normal.dot(p.point_a - p.point_b); }

void ExpectVecNear(const Vec3& actual, const Vec3& expected, double tolerance) {
  EXPECT_LT((actual - expected).norm(), tolerance)
      << "actual " << actual.transpose() << " expected " << expected.transpose();
}

// supports of a box and a segment (two consecutive Vec3), for the tests' own GJK queries
struct BoxFrame {
  Vec3 center;
  Mat3 rotation;
  Vec3 half;
};
Vec3 BoxSupport(const void* shape, const Vec3& direction) {
  const BoxFrame& box = *static_cast<const BoxFrame*>(shape);
  const Vec3 local = box.rotation.transpose() * direction;
  const Vec3 corner(local.x() >= 0 ? box.half.x() : -box.half.x(),
                    local.y() >= 0 ? box.half.y() : -box.half.y(),
                    local.z() >= 0 ? box.half.z() : -box.half.z());
  return box.center + box.rotation * corner;
}
Vec3 SegmentSupport(const void* shape, const Vec3& direction) {
  const Vec3* ends = static_cast<const Vec3*>(shape);
  return direction.dot(ends[1] - ends[0]) > 0 ? ends[1] : ends[0];
}

// signed distance of a point to a placed box [m]
double BoxDistance(const Vec3& point, const Vec3& center, const Mat3& rotation, const Vec3& half) {
  const Vec3 excess = (rotation.transpose() * (point - center)).cwiseAbs() - half;
  return excess.cwiseMax(0.0).norm() + std::min(excess.maxCoeff(), 0.0);
}

// the cylinder's support mapping, written out again for the test
struct CylinderFrame {
  Vec3 center;
  Mat3 rotation;
  double radius;
  double half_length;
};
Vec3 CylinderSupport(const void* shape, const Vec3& d) {
  const CylinderFrame& c = *static_cast<const CylinderFrame*>(shape);
  const Vec3 local = c.rotation.transpose() * d;
  const double radial = local.head<2>().norm();
  Vec3 point(0, 0, local.z() >= 0 ? c.half_length : -c.half_length);
  if (radial > 0) point.head<2>() = c.radius * local.head<2>() / radial;
  return c.center + c.rotation * point;
}
Vec3 PointSupport(const void* shape, const Vec3&) { return *static_cast<const Vec3*>(shape); }

// every point of `part` is a point of `whole` (normal, points)
void ExpectContains(const Manifold& whole, const Manifold& part, double tolerance) {
  for (int i = 0; i < part.count; ++i) {
    bool found = false;
    for (int j = 0; j < whole.count && !found; ++j) {
      found = (whole.points[j].normal - part.points[i].normal).norm() < tolerance &&
              (whole.points[j].point_a - part.points[i].point_a).norm() < tolerance &&
              (whole.points[j].point_b - part.points[i].point_b).norm() < tolerance;
    }
    EXPECT_TRUE(found) << "point " << i;
  }
}

// every point of `expected` has a point of `actual` with equal normal and points
void ExpectSamePoints(const Manifold& actual, const Manifold& expected, double tolerance,
                      bool compare_features) {
  const auto describe = [](const Manifold& m) {
    std::string text;
    for (int i = 0; i < m.count; ++i) {
      std::ostringstream line;
      line << "\n  gap " << Gap(m.points[i]) << " n " << m.points[i].normal.transpose() << " a "
           << m.points[i].point_a.transpose() << " feature " << m.points[i].feature;
      text += line.str();
    }
    return text;
  };
  ASSERT_EQ(actual.count, expected.count)
      << "actual" << describe(actual) << "\nexpected" << describe(expected);
  for (int i = 0; i < expected.count; ++i) {
    const ManifoldPoint& e = expected.points[i];
    bool found = false;
    for (int j = 0; j < actual.count && !found; ++j) {
      const ManifoldPoint& a = actual.points[j];
      found = (a.normal - e.normal).norm() < tolerance &&
              (a.point_a - e.point_a).norm() < tolerance &&
              (a.point_b - e.point_b).norm() < tolerance &&
              (!compare_features || a.feature == e.feature);
    }
    EXPECT_TRUE(found) << "point " << i << " a " << e.point_a.transpose() << " b "
                       << e.point_b.transpose() << " n " << e.normal.transpose() << " feature "
                       << e.feature << "\nactual" << describe(actual) << "\nexpected"
                       << describe(expected);
  }
}

// ---- hull built from a box vs the box pairs, 200 random poses each ----

constexpr int kRandomPoses = 200;

TEST(HullBoxOracleTest, HullVsPlaneEqualsBoxVsPlane) {
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> uniform(0, 1);
  int with_contacts = 0;
  for (int trial = 0; trial < kRandomPoses; ++trial) {
    const Vec3 half = RandomVector(random, 0.1, 0.6);
    const ConvexHull hull = BoxHull(half);
    const ShapeGeometry box = BoxGeometry(half);
    const Mat3 plane_rotation = RandomRotation(random);
    const PlacedShape plane = Place(kPlaneGeometry, RandomVector(random, -1, 1), plane_rotation);
    const Mat3 rotation = RandomRotation(random);
    // the lowest corner between 5 cm below and 3 cm above the plane
    const Vec3 n = plane_rotation.col(2);
    const double extent = (rotation.transpose() * n).cwiseAbs().dot(half);
    const Vec3 center = plane.center + (extent - 0.05 + 0.08 * uniform(random)) * n +
                        plane_rotation.col(0) * uniform(random);
    Manifold expected;
    Manifold actual;
    np::BoxVsPlane(Place(box, center, rotation), plane, kMargin, &expected);
    np::HullVsPlane(hull, Place(kHullGeometry, center, rotation), plane, kMargin, &actual);
    SCOPED_TRACE("trial " + std::to_string(trial));
    with_contacts += expected.count > 0;
    // up to four corners: the same points and corner ids (vertex i is corner i)
    ASSERT_LE(expected.count, 4);
    ExpectSamePoints(actual, expected, kOracleTol, true);
  }
  EXPECT_GT(with_contacts, kRandomPoses / 2);
}

TEST(HullBoxOracleTest, HullVsSphereEqualsSphereVsBox) {
  std::mt19937_64 random(2);
  std::uniform_real_distribution<double> uniform(0, 1);
  int with_contacts = 0;
  for (int trial = 0; trial < kRandomPoses; ++trial) {
    const Vec3 half = RandomVector(random, 0.1, 0.6);
    const ConvexHull hull = BoxHull(half);
    const ShapeGeometry box = BoxGeometry(half);
    const ShapeGeometry sphere = SphereGeometry(0.05 + 0.3 * uniform(random));
    const Vec3 box_center = RandomVector(random, -1, 1);
    const Mat3 rotation = RandomRotation(random);
    // sphere centres anywhere in the box grown by the radius and the margin (inside, face, edge
    // and corner regions, apart and overlapping)
    const Vec3 local =
        RandomVector(random, -1, 1).cwiseProduct(half + Vec3::Constant(sphere.radius + 0.03));
    const PlacedShape ball = Place(sphere, box_center + rotation * local);
    Manifold expected;
    Manifold actual;
    np::SphereVsBox(ball, Place(box, box_center, rotation), kMargin, &expected);
    expected.SwapSides();  // the hull is A
    np::HullVsSphere(hull, Place(kHullGeometry, box_center, rotation), ball, kMargin, &actual);
    SCOPED_TRACE("trial " + std::to_string(trial));
    with_contacts += expected.count > 0;
    ExpectSamePoints(actual, expected, kOracleTol, true);
  }
  EXPECT_GT(with_contacts, kRandomPoses / 4);
}

TEST(HullBoxOracleTest, HullVsCapsuleEqualsCapsuleVsBox) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> uniform(0, 1);
  int with_contacts = 0;
  int two_point = 0;
  int compared = 0;
  for (int trial = 0; trial < kRandomPoses; ++trial) {
    const Vec3 half = RandomVector(random, 0.2, 0.6);
    const ConvexHull hull = BoxHull(half);
    const ShapeGeometry box = BoxGeometry(half);
    const ShapeGeometry capsule = CapsuleGeometry(0.05 + 0.1 * uniform(random), 0.3);
    const Vec3 box_center = RandomVector(random, -1, 1);
    const Mat3 rotation = RandomRotation(random);
    // half of the capsules lie parallel to a box face (two-point face contacts)
    Mat3 capsule_rotation = RandomRotation(random);
    if (trial % 2 == 0) capsule_rotation = rotation * AxisAngle(kPi / 2, Vec3::UnitY());
    const Vec3 local =
        RandomVector(random, -1, 1).cwiseProduct(half + Vec3::Constant(capsule.radius + 0.03));
    const PlacedShape stick = Place(capsule, box_center + rotation * local, capsule_rotation);
    const BoxFrame box_frame{box_center, rotation, half};
    Manifold expected;
    Manifold actual;
    np::CapsuleVsBox(stick, Place(box, box_center, rotation), kMargin, &expected);
    expected.SwapSides();
    np::HullVsCapsule(hull, Place(kHullGeometry, box_center, rotation), stick, kMargin, &actual);
    SCOPED_TRACE("trial " + std::to_string(trial));
    // a core segment inside the box: its deepest point is almost always at a kink of the box's
    // face distances, where both pairs pick the face by rounding; only contact presence compared
    const Vec3 half_segment = capsule.half_length * capsule_rotation.col(2);
    const std::array<Vec3, 2> core = {stick.center - half_segment, stick.center + half_segment};
    const np::GjkResult core_distance =
        np::GjkDistance({&SegmentSupport, core.data()}, {&BoxSupport, &box_frame}, 0.1);
    if (core_distance.overlapping) {
      EXPECT_EQ(actual.count > 0, expected.count > 0);
      continue;
    }
    ++compared;
    with_contacts += expected.count > 0;
    two_point += expected.count == 2;
    // a capsule parallel to a face has a plateau of closest points: CapsuleVsBox takes the
    // region of its plateau end by rounding (edge: one point, face: two) and the point along an
    // edge plateau by its candidate order; the deepest gap and its normal must agree, and the
    // smaller of two face manifolds must be part of the larger
    if (trial % 2 == 0 && (actual.count != expected.count || expected.count == 1)) {
      ASSERT_GT(actual.count, 0);
      ASSERT_GT(expected.count, 0);
      const auto deepest = [](const Manifold& m) {
        int best = 0;
        for (int i = 1; i < m.count; ++i) {
          if (Gap(m.points[i]) < Gap(m.points[best])) best = i;
        }
        return m.points[best];
      };
      EXPECT_NEAR(Gap(deepest(actual)), Gap(deepest(expected)), kOracleTol);
      ExpectVecNear(deepest(actual).normal, deepest(expected).normal, kOracleTol);
      if (actual.count == 2) ExpectContains(actual, expected, kOracleTol);
      if (expected.count == 2) ExpectContains(expected, actual, kOracleTol);
      continue;
    }
    ExpectSamePoints(actual, expected, kOracleTol, true);
  }
  EXPECT_GT(compared, kRandomPoses / 4);
  EXPECT_GT(with_contacts, kRandomPoses / 4);
  EXPECT_GT(two_point, 10);
}

TEST(HullBoxOracleTest, HullVsBoxEqualsBoxVsBox) {
  std::mt19937_64 random(4);
  std::uniform_real_distribution<double> uniform(0, 1);
  int with_contacts = 0;
  int face_contacts = 0;
  for (int trial = 0; trial < kRandomPoses; ++trial) {
    const Vec3 half_a = RandomVector(random, 0.2, 0.6);
    const Vec3 half_b = RandomVector(random, 0.2, 0.6);
    const ConvexHull hull = BoxHull(half_a);
    const ShapeGeometry box_a = BoxGeometry(half_a);
    const ShapeGeometry box_b = BoxGeometry(half_b);
    const Mat3 rotation_b = RandomRotation(random);
    // a third of the pairs stacked face on face (yawed), the rest at random orientations
    Mat3 rotation_a = RandomRotation(random);
    Vec3 center_a;
    const Vec3 center_b = RandomVector(random, -1, 1);
    if (trial % 3 == 0) {
      rotation_a = rotation_b * AxisAngle(2 * kPi * uniform(random), Vec3::UnitZ());
      center_a =
          center_b + rotation_b * Vec3(0.3 * (uniform(random) - 0.5), 0.3 * (uniform(random) - 0.5),
                                       half_a.z() + half_b.z() - 0.02 * uniform(random));
    } else {
      const Vec3 direction = RandomVector(random, -1, 1).normalized();
      const double reach = (rotation_a.transpose() * direction).cwiseAbs().dot(half_a) +
                           (rotation_b.transpose() * direction).cwiseAbs().dot(half_b);
      center_a = center_b + (reach * (0.75 + 0.3 * uniform(random))) * direction;
    }
    Manifold expected;
    Manifold actual;
    np::BoxVsBox(Place(box_a, center_a, rotation_a), Place(box_b, center_b, rotation_b), kMargin,
                 &expected);
    np::HullVsBox(hull, Place(kHullGeometry, center_a, rotation_a),
                  Place(box_b, center_b, rotation_b), kMargin, &actual);
    SCOPED_TRACE("trial " + std::to_string(trial));
    with_contacts += expected.count > 0;
    face_contacts += expected.count >= 3;
    // a flush face pair reduced to four points: all are equally deep, and the reduction takes
    // the first of equals in polygon order, which follows the face loops' starting vertex and
    // orientation (a box's and a hull's differ). Then: same count, gaps and normal, every point
    // on both boxes' surfaces (within the 1e-5·length clip slack of BoxVsBox)
    bool flush = expected.count == 4;
    for (int i = 1; i < expected.count; ++i) {
      flush &= std::abs(Gap(expected.points[i]) - Gap(expected.points[0])) < kOracleTol;
    }
    if (flush) {
      ASSERT_EQ(actual.count, 4);
      for (int i = 0; i < 4; ++i) {
        const ManifoldPoint& p = actual.points[i];
        EXPECT_NEAR(Gap(p), Gap(expected.points[0]), kOracleTol);
        ExpectVecNear(p.normal, expected.points[0].normal, kOracleTol);
        EXPECT_NEAR(BoxDistance(p.point_a, center_a, rotation_a, half_a), 0, 1e-5);
        EXPECT_NEAR(BoxDistance(p.point_b, center_b, rotation_b, half_b), 0, 1e-5);
      }
      continue;
    }
    // feature ids use another encoding (hull face and vertex indices): points only
    ExpectSamePoints(actual, expected, kOracleTol, false);
  }
  EXPECT_GT(with_contacts, kRandomPoses / 2);
  EXPECT_GT(face_contacts, 30);
}

// ---- hulls: analytic configurations ----

TEST(HullPairsTest, TetrahedronOnPlaneFaceDownAndVertexDown) {
  const std::vector<Vec3> corners = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  const ConvexHull tetra = HullFromPoints(corners, "tetrahedron");
  ASSERT_EQ(tetra.faces.size(), 4u);
  ASSERT_EQ(tetra.edges.size(), 6u);
  const Mat3 plane_rotation = AxisAngle(0.3, Vec3(1, 2, 0));
  const PlacedShape plane = Place(kPlaneGeometry, Vec3(0.5, -0.2, 0.1), plane_rotation);
  const Vec3 n = plane_rotation.col(2);
  // face z = 0 down, sunk 1 cm: the three corners at −0.01
  {
    Manifold manifold;
    np::HullVsPlane(tetra, Place(kHullGeometry, plane.center - 0.01 * n, plane_rotation), plane,
                    kMargin, &manifold);
    ASSERT_EQ(manifold.count, 3);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(manifold.points[i].feature, static_cast<std::uint32_t>(i));
      EXPECT_NEAR(Gap(manifold.points[i]), -0.01, kTol);
      ExpectVecNear(manifold.points[i].normal, n, kTol);
    }
  }
  // vertex 3 down (turned over), 5 mm above: one speculative point
  {
    const Mat3 rotation = plane_rotation * AxisAngle(kPi, Vec3::UnitX());
    Manifold manifold;
    np::HullVsPlane(tetra, Place(kHullGeometry, plane.center + 1.005 * n, rotation), plane, kMargin,
                    &manifold);
    ASSERT_EQ(manifold.count, 1);
    EXPECT_EQ(manifold.points[0].feature, 3u);
    EXPECT_NEAR(Gap(manifold.points[0]), 0.005, kTol);
  }
}

TEST(HullPairsTest, PrismRestingOnBoxAndOnHullGivesFourPointsAtTheDepth) {
  const ConvexHull prism = PrismHull(8, 0.3, 0.2);
  const ConvexHull slab = BoxHull(Vec3(1, 1, 0.5));
  const ShapeGeometry slab_box = BoxGeometry(Vec3(1, 1, 0.5));
  const PlacedShape placed =
      Place(kHullGeometry, Vec3(0.1, 0.2, 0.69), AxisAngle(0.4, Vec3::UnitZ()));
  for (const bool against_hull : {false, true}) {
    Manifold manifold;
    if (against_hull) {
      np::HullVsHull(prism, placed, slab, Place(kHullGeometry, Vec3::Zero()), kMargin, &manifold);
    } else {
      np::HullVsBox(prism, placed, Place(slab_box, Vec3::Zero()), kMargin, &manifold);
    }
    ASSERT_EQ(manifold.count, 4);
    for (int i = 0; i < manifold.count; ++i) {
      EXPECT_NEAR(Gap(manifold.points[i]), -0.01, kTol);
      ExpectVecNear(manifold.points[i].normal, Vec3::UnitZ(), kTol);
      // on the prism's bottom rim (circumradius 0.3 about its axis); the reference face's side
      // planes are moved out by 1e-5 of the length scale (0.2 m) as in BoxVsBox: 2 µm
      EXPECT_NEAR((manifold.points[i].point_a - placed.center).head<2>().norm(), 0.3, 3e-6);
    }
  }
}

TEST(HullPairsTest, SeparatedBeyondTheMarginGiveNothing) {
  const ConvexHull hull = PrismHull(6, 0.3, 0.2);
  const PlacedShape placed = Place(kHullGeometry, Vec3::Zero(), AxisAngle(0.2, Vec3(1, 1, 0)));
  const ShapeGeometry sphere = SphereGeometry(0.1);
  const ShapeGeometry capsule = CapsuleGeometry(0.1, 0.3);
  const ShapeGeometry box = BoxGeometry(Vec3(0.2, 0.2, 0.2));
  const ShapeGeometry cylinder = CylinderGeometry(0.2, 0.3);
  const Vec3 far(0, 0, 0.2 + 0.3 + 0.5 + 0.2 + kMargin + 0.05);  // beyond every extent
  Manifold manifold;
  np::HullVsPlane(hull, placed, Place(kPlaneGeometry, Vec3(0, 0, -0.5)), kMargin, &manifold);
  np::HullVsSphere(hull, placed, Place(sphere, far), kMargin, &manifold);
  np::HullVsCapsule(hull, placed, Place(capsule, far), kMargin, &manifold);
  np::HullVsBox(hull, placed, Place(box, far), kMargin, &manifold);
  np::HullVsHull(hull, placed, hull, Place(kHullGeometry, far), kMargin, &manifold);
  np::CylinderVsSphere(Place(cylinder, far), Place(sphere, Vec3::Zero()), kMargin, &manifold);
  np::CylinderVsCapsule(Place(cylinder, far), Place(capsule, Vec3::Zero()), kMargin, &manifold);
  np::CylinderVsBox(Place(cylinder, far), Place(box, Vec3::Zero()), kMargin, &manifold);
  np::CylinderVsCylinder(Place(cylinder, far), Place(cylinder, Vec3::Zero()), kMargin, &manifold);
  np::CylinderVsHull(Place(cylinder, far), hull, placed, kMargin, &manifold);
  EXPECT_EQ(manifold.count, 0);
}

// ---- cylinders: analytic configurations ----

TEST(CylinderPairsTest, CylinderStandingOnBoxCapGivesFourOrMorePointsAtTheDepth) {
  const ShapeGeometry cylinder = CylinderGeometry(0.3, 0.4);
  const ShapeGeometry box = BoxGeometry(Vec3(1, 1, 0.5));
  const Vec3 center(0.1, -0.2, 0.5 + 0.4 - 0.01);
  for (const double yaw : {0.0, 0.37}) {
    Manifold manifold;
    np::CylinderVsBox(Place(cylinder, center, AxisAngle(yaw, Vec3::UnitZ())),
                      Place(box, Vec3::Zero()), kMargin, &manifold);
    ASSERT_GE(manifold.count, 4);
    for (int i = 0; i < manifold.count; ++i) {
      const ManifoldPoint& p = manifold.points[i];
      EXPECT_NEAR(Gap(p), -0.01, kTol);
      ExpectVecNear(p.normal, Vec3::UnitZ(), kTol);
      EXPECT_NEAR(p.point_a.z(), 0.49, kTol);
      EXPECT_NEAR(p.point_b.z(), 0.5, kTol);
      // cap polygon vertices lie on the rim
      EXPECT_NEAR((p.point_a - center).head<2>().norm(), 0.3, 1e-12);
    }
  }
  // a cap hanging over the box edge x = 1: points only on the box's face
  Manifold manifold;
  np::CylinderVsBox(Place(cylinder, Vec3(0.9, 0, 0.9)), Place(box, Vec3::Zero()), kMargin,
                    &manifold);
  ASSERT_GE(manifold.count, 3);
  for (int i = 0; i < manifold.count; ++i) {
    EXPECT_NEAR(Gap(manifold.points[i]), 0.0, kTol);
    EXPECT_LE(manifold.points[i].point_b.x(), 1.0 + 1e-5);
  }
}

TEST(CylinderPairsTest, CylinderLyingOnBoxGivesTheTwoEndsOfItsSideLine) {
  const ShapeGeometry cylinder = CylinderGeometry(0.3, 0.4);
  const ShapeGeometry box = BoxGeometry(Vec3(1, 1, 0.5));
  // axis along x, 5 mm into the top face
  const Vec3 center(0.2, 0.1, 0.5 + 0.3 - 0.005);
  Manifold manifold;
  np::CylinderVsBox(Place(cylinder, center, AxisAngle(kPi / 2, Vec3::UnitY())),
                    Place(box, Vec3::Zero()), kMargin, &manifold);
  ASSERT_EQ(manifold.count, 2);
  std::vector<double> x;
  for (int i = 0; i < 2; ++i) {
    const ManifoldPoint& p = manifold.points[i];
    EXPECT_NEAR(Gap(p), -0.005, kTol);
    ExpectVecNear(p.normal, Vec3::UnitZ(), kTol);
    EXPECT_NEAR(p.point_a.y(), 0.1, kTol);
    EXPECT_NEAR(p.point_a.z(), 0.495, kTol);
    x.push_back(p.point_a.x());
  }
  std::sort(x.begin(), x.end());
  EXPECT_NEAR(x[0], -0.2, kTol);
  EXPECT_NEAR(x[1], 0.6, kTol);
}

TEST(CylinderPairsTest, SphereAgainstCylinderSideCapAndRim) {
  const ShapeGeometry cylinder = CylinderGeometry(0.3, 0.4);
  const ShapeGeometry sphere = SphereGeometry(0.1);
  const Mat3 rotation = AxisAngle(0.7, Vec3(1, -2, 0.5));
  const Vec3 origin(0.3, -0.1, 0.2);
  struct Case {
    const char* name;
    Vec3 local_center;  // sphere centre, cylinder frame
    double gap;
    Vec3 local_normal;  // from the sphere to the cylinder (B to A)
    Vec3 local_point_a;
  };
  const double s = std::sqrt(0.5);
  const Case cases[] = {
      {"side", Vec3(0.45, 0, 0.1), 0.05, -Vec3::UnitX(), Vec3(0.3, 0, 0.1)},
      {"cap", Vec3(0.1, 0.1, 0.48), -0.02, -Vec3::UnitZ(), Vec3(0.1, 0.1, 0.4)},
      {"rim", Vec3(0.3 + 0.05 * s, 0, 0.4 + 0.05 * s), -0.05, -Vec3(s, 0, s), Vec3(0.3, 0, 0.4)},
      {"inside near side", Vec3(0, 0.25, 0), -0.15, -Vec3::UnitY(), Vec3(0, 0.3, 0)},
      {"inside near cap", Vec3(0.1, 0, -0.35), -0.15, Vec3::UnitZ(), Vec3(0.1, 0, -0.4)},
  };
  for (const Case& test : cases) {
    SCOPED_TRACE(test.name);
    Manifold manifold;
    np::CylinderVsSphere(Place(cylinder, origin, rotation),
                         Place(sphere, origin + rotation * test.local_center), 0.1, &manifold);
    ASSERT_EQ(manifold.count, 1);
    const ManifoldPoint& p = manifold.points[0];
    EXPECT_NEAR(Gap(p), test.gap, kTol);
    ExpectVecNear(p.normal, rotation * test.local_normal, kTol);
    ExpectVecNear(p.point_a, origin + rotation * test.local_point_a, kTol);
    ExpectVecNear(p.point_b, origin + rotation * test.local_center + 0.1 * p.normal, kTol);
  }
}

TEST(CylinderPairsTest, CylindersCrossedAtRightAnglesMeetAtOnePoint) {
  const ShapeGeometry a = CylinderGeometry(0.3, 0.5);
  const ShapeGeometry b = CylinderGeometry(0.2, 0.6);
  // B along y at the origin, A along x above it: the closest points lie on the z axis
  for (const double gap : {0.01, 1e-4, 0.0, -1e-4, -0.01, -0.05}) {
    SCOPED_TRACE(gap);
    Manifold manifold;
    np::CylinderVsCylinder(Place(a, Vec3(0, 0, 0.5 + gap), AxisAngle(kPi / 2, Vec3::UnitY())),
                           Place(b, Vec3::Zero(), AxisAngle(kPi / 2, Vec3::UnitX())), kMargin,
                           &manifold);
    ASSERT_EQ(manifold.count, 1);
    const ManifoldPoint& p = manifold.points[0];
    // GJK/EPA on curved sets stop at tolerances (gjk.h); the gap is first order in them (seen:
    // 6e-11 when touching), the normal and points second order on the curved surfaces (a gap
    // error ε moves the point by ~√(ε·r); seen: 4e-6 when touching, 2e-7 otherwise)
    EXPECT_NEAR(Gap(p), gap, 1e-9);
    ExpectVecNear(p.normal, Vec3::UnitZ(), 1e-5);
    ExpectVecNear(p.point_a, Vec3(0, 0, 0.2 + gap), 1e-5);
    ExpectVecNear(p.point_b, Vec3(0, 0, 0.2), 1e-5);
  }
}

TEST(CylinderPairsTest, CapsuleLyingOnCylinderCapGivesTwoPoints) {
  const ShapeGeometry cylinder = CylinderGeometry(0.5, 0.4);
  const ShapeGeometry capsule = CapsuleGeometry(0.1, 0.2);
  // cylinder A standing below, capsule B lying along x on its top cap, 1 cm deep
  Manifold manifold;
  np::CylinderVsCapsule(
      Place(cylinder, Vec3::Zero()),
      Place(capsule, Vec3(0.1, 0, 0.4 + 0.1 - 0.01), AxisAngle(kPi / 2, Vec3::UnitY())), kMargin,
      &manifold);
  ASSERT_EQ(manifold.count, 2);
  for (int i = 0; i < 2; ++i) {
    const ManifoldPoint& p = manifold.points[i];
    EXPECT_NEAR(Gap(p), -0.01, kTol);
    ExpectVecNear(p.normal, -Vec3::UnitZ(), kTol);
    EXPECT_NEAR(p.point_a.z(), 0.4, kTol);
    EXPECT_NEAR(std::abs(p.point_a.x() - 0.1), 0.2, kTol);
  }
}

TEST(CylinderPairsTest, CylinderOnPrismHullAndOnCylinder) {
  const ConvexHull prism = PrismHull(8, 1.0, 0.5);
  const ShapeGeometry cylinder = CylinderGeometry(0.3, 0.4);
  const Vec3 center(0.1, 0.1, 0.5 + 0.4 - 0.01);
  Manifold on_hull;
  np::CylinderVsHull(Place(cylinder, center), prism, Place(kHullGeometry, Vec3::Zero()), kMargin,
                     &on_hull);
  ASSERT_GE(on_hull.count, 4);
  for (int i = 0; i < on_hull.count; ++i) EXPECT_NEAR(Gap(on_hull.points[i]), -0.01, kTol);

  // coaxial stack on a wider cylinder: the upper cap's rim, 4 points at the depth
  const ShapeGeometry base = CylinderGeometry(0.6, 0.5);
  Manifold stacked;
  np::CylinderVsCylinder(Place(cylinder, center), Place(base, Vec3::Zero()), kMargin, &stacked);
  ASSERT_EQ(stacked.count, 4);
  for (int i = 0; i < stacked.count; ++i) {
    EXPECT_NEAR(Gap(stacked.points[i]), -0.01, kTol);
    ExpectVecNear(stacked.points[i].normal, Vec3::UnitZ(), kTol);
  }
}

TEST(CylinderPairsTest, ParallelLyingCylindersAndCapsuleGiveTheOverlapEnds) {
  const ShapeGeometry cylinder = CylinderGeometry(0.2, 0.5);
  const ShapeGeometry capsule = CapsuleGeometry(0.1, 0.5);
  const Mat3 along_x = AxisAngle(kPi / 2, Vec3::UnitY());
  // both along x, B's shifted by 0.3: their side lines overlap on x ∈ [−0.2, 0.5], 1 cm deep
  Manifold cylinders;
  np::CylinderVsCylinder(Place(cylinder, Vec3(0, 0, 0.39), along_x),
                         Place(cylinder, Vec3(0.3, 0, 0), along_x), kMargin, &cylinders);
  Manifold with_capsule;
  np::CylinderVsCapsule(Place(cylinder, Vec3(0, 0, 0.29), along_x),
                        Place(capsule, Vec3(0.3, 0, 0), along_x), kMargin, &with_capsule);
  for (const Manifold* manifold : {&cylinders, &with_capsule}) {
    ASSERT_EQ(manifold->count, 2);
    for (int i = 0; i < 2; ++i) {
      const ManifoldPoint& p = manifold->points[i];
      EXPECT_NEAR(Gap(p), -0.01, kTol);
      ExpectVecNear(p.normal, Vec3::UnitZ(), kTol);
      EXPECT_NEAR(p.point_a.x(), i == 0 ? -0.2 : 0.5, kTol);
    }
  }
}

// signed distances used to check that manifold points lie on the surfaces [m]
double CylinderDistance(const Vec3& point, const PlacedShape& c) {
  const Vec3 local = c.rotation.transpose() * (point - c.center);
  const Vec2 excess(local.head<2>().norm() - c.geometry->radius,
                    std::abs(local.z()) - c.geometry->half_length);
  return excess.cwiseMax(0.0).norm() + std::min(excess.maxCoeff(), 0.0);
}
double CapsuleDistance(const Vec3& point, const PlacedShape& c) {
  const Vec3 half = c.geometry->half_length * c.rotation.col(2);
  const double t = np::ClosestParameterOnSegment(c.center - half, c.center + half, point);
  return (point - (c.center - half + 2 * t * half)).norm() - c.geometry->radius;
}

TEST(CylinderPairsTest, RandomPosesGiveSurfacePointsAtTheSignedDistance) {
  // every pair, 200 random poses each: points on both surfaces, gaps consistent, the deepest gap
  // equal to the signed distance of the sets (from GJK/EPA on exact supports) up to the 16-gon
  std::mt19937_64 random(6);
  std::uniform_real_distribution<double> uniform(0, 1);
  const ConvexHull prism = PrismHull(7, 0.4, 0.3);
  const ShapeGeometry box = BoxGeometry(Vec3(0.4, 0.3, 0.25));
  const ShapeGeometry capsule = CapsuleGeometry(0.15, 0.3);
  const ShapeGeometry other_cylinder = CylinderGeometry(0.25, 0.35);
  const ShapeGeometry cylinder = CylinderGeometry(0.3, 0.4);
  const double r = 0.3;
  // chords of the 16-gon lie inside the rim by at most r(1 − cos(π/16)); the clip slack 1e-5·L
  const double chord = r * (1 - std::cos(kPi / 16)) + 1e-9;
  const double slack = 1e-5;
  int counts[4] = {0, 0, 0, 0};
  for (int pair = 0; pair < 4; ++pair) {
    for (int trial = 0; trial < kRandomPoses; ++trial) {
      SCOPED_TRACE("pair " + std::to_string(pair) + " trial " + std::to_string(trial));
      const PlacedShape a = Place(cylinder, RandomVector(random, -0.1, 0.1) + Vec3(0, 0, 0.6),
                                  RandomRotation(random));
      // B at the origin; A moved along the line of centres to a gap in [−3 cm, 2 cm]
      const Mat3 rotation_b = RandomRotation(random);
      const PlacedShape b = Place(pair == 0   ? box
                                  : pair == 1 ? capsule
                                  : pair == 2 ? other_cylinder
                                              : kHullGeometry,
                                  Vec3::Zero(), rotation_b);
      const BoxFrame box_frame{Vec3::Zero(), rotation_b, box.half_extents};
      const CylinderFrame cylinder_frame{Vec3::Zero(), rotation_b, 0.25, 0.35};
      const Vec3 half = 0.3 * rotation_b.col(2);
      const std::array<Vec3, 2> core = {-half, half};
      std::vector<Vec3> hull_world;
      for (const Vec3& v : prism.vertices) hull_world.push_back(rotation_b * v);
      const auto hull_support = [](const void* shape, const Vec3& d) {
        const auto& points = *static_cast<const std::vector<Vec3>*>(shape);
        int best = 0;
        for (int i = 1; i < static_cast<int>(points.size()); ++i) {
          if (points[i].dot(d) > points[best].dot(d)) best = i;
        }
        return points[best];
      };
      const np::ConvexSupport support_b =
          pair == 0   ? np::ConvexSupport{&BoxSupport, &box_frame}
          : pair == 1 ? np::ConvexSupport{&SegmentSupport, core.data()}
          : pair == 2 ? np::ConvexSupport{&CylinderSupport, &cylinder_frame}
                      : np::ConvexSupport{hull_support, &hull_world};
      const double round_b = pair == 1 ? capsule.radius : 0;
      const auto distance_at = [&](const Vec3& center) {
        const CylinderFrame frame{center, a.rotation, 0.3, 0.4};
        return np::CalcConvexContact({&CylinderSupport, &frame}, support_b, 0.1).distance - round_b;
      };
      // slide A along its offset direction to the target gap (the distance is monotone enough)
      const double target = -0.03 + 0.05 * uniform(random);
      Vec3 center = a.center;
      const Vec3 direction = center.normalized();
      for (int step = 0; step < 30; ++step) center -= (distance_at(center) - target) * direction;
      const double distance = distance_at(center);
      const PlacedShape placed_a = Place(cylinder, center, a.rotation);
      Manifold manifold;
      if (pair == 0) np::CylinderVsBox(placed_a, b, kMargin, &manifold);
      if (pair == 1) np::CylinderVsCapsule(placed_a, b, kMargin, &manifold);
      if (pair == 2) np::CylinderVsCylinder(placed_a, b, kMargin, &manifold);
      if (pair == 3) np::CylinderVsHull(placed_a, prism, b, kMargin, &manifold);
      ASSERT_GT(manifold.count, 0) << distance;
      counts[pair] += manifold.count > 1;
      double deepest = 1;
      for (int i = 0; i < manifold.count; ++i) {
        const ManifoldPoint& p = manifold.points[i];
        EXPECT_NEAR(p.normal.norm(), 1, kTol);
        EXPECT_LT(Gap(p), kMargin);
        deepest = std::min(deepest, Gap(p));
        const double on_a = CylinderDistance(p.point_a, placed_a);
        EXPECT_GT(on_a, -chord - 1e-6);
        EXPECT_LT(on_a, slack);
        const double on_b = pair == 0
                                ? BoxDistance(p.point_b, Vec3::Zero(), rotation_b, box.half_extents)
                            : pair == 1 ? CapsuleDistance(p.point_b, b)
                            : pair == 2 ? CylinderDistance(p.point_b, b)
                                        : 0.0;
        EXPECT_GT(on_b, -chord - 1e-6);
        EXPECT_LT(on_b, slack);
      }
      EXPECT_NEAR(deepest, distance, chord);
    }
  }
  std::printf("multi-point manifolds: box %d capsule %d cylinder %d hull %d of %d\n", counts[0],
              counts[1], counts[2], counts[3], kRandomPoses);
}

// signed distance of a point to a placed hull (max of the face planes: exact inside and on
// faces, a lower bound outside) [m]
double HullDistance(const Vec3& point, const ConvexHull& hull, const PlacedShape& placed) {
  const Vec3 local = placed.rotation.transpose() * (point - placed.center);
  double distance = -1e300;
  for (const ConvexHull::Face& face : hull.faces) {
    distance = std::max(distance, face.normal.dot(local) - face.offset);
  }
  return distance;
}

TEST(HullPairsTest, RandomPenetratingHullsGiveSurfacePointsAtTheDepth) {
  // SAT's depth is the exact penetration depth of two polytopes: the deepest point must equal
  // EPA's (exact on polytopes), and every point lie on both surfaces (within the clip slack)
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> uniform(0, 1);
  const ConvexHull hull_a = PrismHull(5, 0.35, 0.25);
  const ConvexHull hull_b = HullFromPoints(
      {Vec3(0.4, 0, -0.2), Vec3(-0.3, 0.3, -0.2), Vec3(-0.3, -0.35, -0.2), Vec3(0.05, 0.02, 0.35)},
      "tetrahedron");
  const auto support = [](const void* shape, const Vec3& d) {
    const auto& points = *static_cast<const std::vector<Vec3>*>(shape);
    int best = 0;
    for (int i = 1; i < static_cast<int>(points.size()); ++i) {
      if (points[i].dot(d) > points[best].dot(d)) best = i;
    }
    return points[best];
  };
  int multi_point = 0;
  for (int trial = 0; trial < kRandomPoses; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Mat3 rotation_a = RandomRotation(random);
    const Mat3 rotation_b = RandomRotation(random);
    const PlacedShape b = Place(kHullGeometry, Vec3::Zero(), rotation_b);
    std::vector<Vec3> world_b;
    for (const Vec3& v : hull_b.vertices) world_b.push_back(rotation_b * v);
    const Vec3 direction = RandomVector(random, -1, 1).normalized();
    const auto contact_at = [&](const Vec3& center) {
      std::vector<Vec3> world_a;
      for (const Vec3& v : hull_a.vertices) world_a.push_back(center + rotation_a * v);
      return np::CalcConvexContact({support, &world_a}, {support, &world_b}, 0.2);
    };
    // slide A along `direction` to a depth in [0, 3 cm]
    const double target = -0.03 * uniform(random);
    Vec3 center = 0.8 * direction;
    for (int step = 0; step < 40; ++step) {
      center -= (contact_at(center).distance - target) /
                std::max(0.2, direction.dot(contact_at(center).normal)) * direction;
    }
    const np::ConvexContact contact = contact_at(center);
    if (contact.distance >= 0) continue;
    const PlacedShape a = Place(kHullGeometry, center, rotation_a);
    Manifold manifold;
    np::HullVsHull(hull_a, a, hull_b, b, kMargin, &manifold);
    ASSERT_GT(manifold.count, 0);
    multi_point += manifold.count > 1;
    double deepest = 1;
    for (int i = 0; i < manifold.count; ++i) {
      const ManifoldPoint& p = manifold.points[i];
      deepest = std::min(deepest, Gap(p));
      EXPECT_NEAR(HullDistance(p.point_a, hull_a, a), 0, 1e-5);
      EXPECT_NEAR(HullDistance(p.point_b, hull_b, b), 0, 1e-5);
    }
    // EPA's tolerance is 1e-9 of the length scale; SAT is exact
    EXPECT_NEAR(deepest, contact.distance, 1e-8);
  }
  EXPECT_GT(multi_point, 10);
}

// ---- feature ids stable under ±1e-9 m / ±1e-9 rad perturbations of A ----

template <typename Collide>
void ExpectStableFeatures(const Collide& collide, const Vec3& center, const Mat3& rotation,
                          int expected_count) {
  const auto features = [&](const Vec3& offset, const Vec3& turn) {
    Mat3 r = rotation;
    for (int axis = 0; axis < 3; ++axis) r = AxisAngle(turn(axis), Vec3::Unit(axis)) * r;
    Manifold manifold;
    collide(center + offset, r, &manifold);
    std::vector<std::uint32_t> ids;
    for (int i = 0; i < manifold.count; ++i) ids.push_back(manifold.points[i].feature);
    return ids;
  };
  const std::vector<std::uint32_t> reference = features(Vec3::Zero(), Vec3::Zero());
  ASSERT_EQ(static_cast<int>(reference.size()), expected_count);
  for (int axis = 0; axis < 3; ++axis) {
    for (const double sign : {-1.0, 1.0}) {
      const Vec3 delta = sign * 1e-9 * Vec3::Unit(axis);
      EXPECT_EQ(features(delta, Vec3::Zero()), reference) << "move " << axis;
      EXPECT_EQ(features(Vec3::Zero(), delta), reference) << "turn " << axis;
    }
  }
}

TEST(HullStabilityTest, RestingContactsKeepTheirFeatureIds) {
  const ConvexHull cube = BoxHull(Vec3(0.5, 0.5, 0.5));
  const ConvexHull prism = PrismHull(8, 0.3, 0.2);
  const ShapeGeometry box = BoxGeometry(Vec3(0.5, 0.5, 0.5));
  const ShapeGeometry capsule = CapsuleGeometry(0.1, 0.3);
  const ShapeGeometry cylinder = CylinderGeometry(0.3, 0.4);
  const ShapeGeometry big_box = BoxGeometry(Vec3(1, 1, 0.5));
  const Mat3 along_x = AxisAngle(kPi / 2, Vec3::UnitY());
  {
    SCOPED_TRACE("hull cube on plane");
    ExpectStableFeatures(
        [&](const Vec3& c, const Mat3& r, Manifold* m) {
          np::HullVsPlane(cube, Place(kHullGeometry, c, r), Place(kPlaneGeometry, Vec3::Zero()),
                          kMargin, m);
        },
        Vec3(0, 0, 0.5), Mat3::Identity(), 4);
  }
  {
    SCOPED_TRACE("hull cube flush on box");
    ExpectStableFeatures(
        [&](const Vec3& c, const Mat3& r, Manifold* m) {
          np::HullVsBox(cube, Place(kHullGeometry, c, r), Place(box, Vec3::Zero()), kMargin, m);
        },
        Vec3(0, 0, 1.0), Mat3::Identity(), 4);
  }
  {
    SCOPED_TRACE("prism on hull cube, yawed");
    ExpectStableFeatures(
        [&](const Vec3& c, const Mat3& r, Manifold* m) {
          np::HullVsHull(prism, Place(kHullGeometry, c, r), cube,
                         Place(kHullGeometry, Vec3::Zero()), kMargin, m);
        },
        Vec3(0.1, 0, 0.7), AxisAngle(0.3, Vec3::UnitZ()), 4);
  }
  {
    SCOPED_TRACE("hull cube on lying capsule");
    ExpectStableFeatures(
        [&](const Vec3& c, const Mat3& r, Manifold* m) {
          np::HullVsCapsule(cube, Place(kHullGeometry, c, r),
                            Place(capsule, Vec3(0, 0, -0.1), along_x), kMargin, m);
        },
        Vec3(0.05, 0, 0.5), Mat3::Identity(), 2);
  }
  {
    SCOPED_TRACE("cylinder standing on box");
    ExpectStableFeatures(
        [&](const Vec3& c, const Mat3& r, Manifold* m) {
          np::CylinderVsBox(Place(cylinder, c, r), Place(big_box, Vec3::Zero()), kMargin, m);
        },
        Vec3(0.1, 0, 0.9), Mat3::Identity(), 4);
  }
  {
    SCOPED_TRACE("cylinder standing on a wider cylinder");
    const ShapeGeometry base = CylinderGeometry(0.6, 0.5);
    ExpectStableFeatures(
        [&](const Vec3& c, const Mat3& r, Manifold* m) {
          np::CylinderVsCylinder(Place(cylinder, c, r), Place(base, Vec3::Zero()), kMargin, m);
        },
        Vec3(0.1, 0, 0.9), Mat3::Identity(), 4);
  }
  {
    SCOPED_TRACE("cylinder lying on a prism hull");
    const ConvexHull slab = PrismHull(8, 1.0, 0.5);
    ExpectStableFeatures(
        [&](const Vec3& c, const Mat3& r, Manifold* m) {
          np::CylinderVsHull(Place(cylinder, c, r), slab, Place(kHullGeometry, Vec3::Zero()),
                             kMargin, m);
        },
        Vec3(0.1, 0, 0.8), along_x, 2);
  }
  {
    SCOPED_TRACE("cylinder lying on box");
    ExpectStableFeatures(
        [&](const Vec3& c, const Mat3& r, Manifold* m) {
          np::CylinderVsBox(Place(cylinder, c, r), Place(big_box, Vec3::Zero()), kMargin, m);
        },
        Vec3(0.1, 0, 0.8), along_x, 2);
  }
}

// ---- GJK/EPA on their own ----

TEST(GjkTest, CylinderToPointMatchesTheClosedFormOverRandomPoses) {
  // the generic GJK/EPA path the cylinder pairs use, against CylinderVsSphere's closed form
  std::mt19937_64 random(5);
  const ShapeGeometry cylinder = CylinderGeometry(0.3, 0.4);
  const ShapeGeometry point = SphereGeometry(0);
  double worst_outside = 0;
  double worst_inside = 0;
  for (int trial = 0; trial < kRandomPoses; ++trial) {
    const CylinderFrame frame{RandomVector(random, -1, 1), RandomRotation(random), 0.3, 0.4};
    const Vec3 center = frame.center + frame.rotation * RandomVector(random, -0.5, 0.5);
    Manifold expected;
    np::CylinderVsSphere(Place(cylinder, frame.center, frame.rotation), Place(point, center), 10,
                         &expected);
    ASSERT_EQ(expected.count, 1);
    const np::ConvexContact contact =
        np::CalcConvexContact({&CylinderSupport, &frame}, {&PointSupport, &center}, 0.3);
    const double error = std::abs(contact.distance - Gap(expected.points[0]));
    (contact.distance > 0 ? worst_outside : worst_inside) =
        std::max(contact.distance > 0 ? worst_outside : worst_inside, error);
  }
  // apart: GJK's relative 1e-12 stop in |v|² (seen: 2e-10 m); inside: EPA on the curved side
  // stops at 1e-9·length or at its vertex capacity (seen: 3e-8 m over these poses)
  EXPECT_LT(worst_outside, 1e-9);
  EXPECT_LT(worst_inside, 1e-6);
  std::printf("cylinder-point GJK error %.3g, EPA error %.3g\n", worst_outside, worst_inside);
}

TEST(GjkTest, BoxDistancesAndPenetrationAreExact) {
  // two unit cubes as polytope supports, one shifted along x
  struct Cube {
    Vec3 center;
  };
  const auto support = [](const void* shape, const Vec3& d) -> Vec3 {
    const Vec3& c = static_cast<const Cube*>(shape)->center;
    return c + Vec3(d.x() >= 0 ? 0.5 : -0.5, d.y() >= 0 ? 0.5 : -0.5, d.z() >= 0 ? 0.5 : -0.5);
  };
  const Cube b{Vec3::Zero()};
  for (const double shift : {1.3, 1.0, 0.9, 0.6}) {
    SCOPED_TRACE(shift);
    const Cube a{Vec3(shift, 0.1, -0.2)};
    const np::ConvexContact contact = np::CalcConvexContact({support, &a}, {support, &b}, 0.5);
    EXPECT_NEAR(contact.distance, shift - 1.0, kTol);
    ExpectVecNear(contact.normal, Vec3::UnitX(), kTol);
    EXPECT_NEAR(contact.normal.dot(contact.point_a - contact.point_b), contact.distance, kTol);
    EXPECT_TRUE(contact.exact);
  }
}

}  // namespace
}  // namespace sim
