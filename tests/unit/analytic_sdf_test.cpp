// AnalyticSdf: every primitive's value against an independently written closed form, its
// gradient against central differences, the closest-point property y = x − φ∇φ on the surface
// (digest pd-sdf-robotics.md §2.1), the min/max gradient selection of the combinations, and
// Validate()'s messages.
#include "engine/geometry/analytic_sdf.h"

#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <string>

#include <gtest/gtest.h>

namespace sim {
namespace {

constexpr Real kPi = std::numbers::pi;

// a pose that is neither axis aligned nor at the origin, so rotation handling is exercised
Pose TiltedPose() {
  Pose X;
  X.p = Vec3(0.1, -0.2, 0.3);
  X.q = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  return X;
}

// 2D distance from p to the rectangle [x0, x1] × [y0, y1], signed (negative inside)
Real RectangleDistance(const Vec2& p, const Vec2& lo, const Vec2& hi) {
  const Vec2 clamped = p.cwiseMax(lo).cwiseMin(hi);
  if ((p - clamped).norm() > 0) return (p - clamped).norm();
  return -std::min({p.x() - lo.x(), hi.x() - p.x(), p.y() - lo.y(), hi.y() - p.y()});
}

Real SegmentDistance2(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Real t = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
  return (p - (a + t * (b - a))).norm();
}

struct PrimitiveCase {
  std::string name;
  std::function<int(AnalyticSdf&, const Pose&)> add;
  std::function<Real(const Vec3&)> reference;  // independent formula in the node frame
};

std::vector<PrimitiveCase> Primitives() {
  const Vec3 h(0.3, 0.5, 0.2);
  return {
      {"sphere", [](AnalyticSdf& f, const Pose& X) { return f.AddSphere(0.4, X); },
       [](const Vec3& x) { return x.norm() - 0.4; }},
      {"box", [h](AnalyticSdf& f, const Pose& X) { return f.AddBox(h, X); },
       [h](const Vec3& x) {
         // clamp to the box outside; smallest face clearance inside
         const Vec3 c = x.cwiseMax(-h).cwiseMin(h);
         if ((x - c).norm() > 0) return (x - c).norm();
         return -(h - x.cwiseAbs()).minCoeff();
       }},
      {"rounded box", [h](AnalyticSdf& f, const Pose& X) { return f.AddRoundedBox(h, 0.1, X); },
       [h](const Vec3& x) {
         const Vec3 inner = h - Vec3::Constant(0.1);
         const Vec3 c = x.cwiseMax(-inner).cwiseMin(inner);
         if ((x - c).norm() > 0) return (x - c).norm() - 0.1;
         return -(inner - x.cwiseAbs()).minCoeff() - 0.1;
       }},
      {"capsule", [](AnalyticSdf& f, const Pose& X) { return f.AddCapsule(0.2, 0.4, X); },
       [](const Vec3& x) {
         const Vec3 a(0, 0, -0.4), b(0, 0, 0.4);
         const Real t = std::clamp((x - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
         return (x - (a + t * (b - a))).norm() - 0.2;
       }},
      {"cylinder", [](AnalyticSdf& f, const Pose& X) { return f.AddCylinder(0.3, 0.4, X); },
       [](const Vec3& x) {
         // meridian half-plane: the rectangle ρ ∈ [−0.3, 0.3], z ∈ [−0.4, 0.4] mirrored
         return RectangleDistance(Vec2(std::hypot(x.x(), x.y()), x.z()), Vec2(-0.3, -0.4),
                                  Vec2(0.3, 0.4));
       }},
      {"cone", [](AnalyticSdf& f, const Pose& X) { return f.AddCone(kPi / 6, 0.6, X); },
       [](const Vec3& x) {
         // meridian triangle apex (0,0), rim (R,−h), axis foot (0,−h); the mirrored profile
         // (−ρ) is never closer, the axis segment is not surface
         const Real h = 0.6, R = h * std::tan(kPi / 6);
         const Vec2 p(std::hypot(x.x(), x.y()), x.z());
         const Real d =
             std::min(SegmentDistance2(p, {0, 0}, {R, -h}), SegmentDistance2(p, {0, -h}, {R, -h}));
         const bool inside = p.y() <= 0 && p.y() >= -h && p.x() <= -p.y() * R / h;
         return inside ? -d : d;
       }},
      {"torus", [](AnalyticSdf& f, const Pose& X) { return f.AddTorus(0.5, 0.15, X); },
       [](const Vec3& x) {
         // distance to the tube's centre circle minus the tube radius
         const Vec3 radial = Vec3(x.x(), x.y(), 0).normalized();
         return (x - 0.5 * radial).norm() - 0.15;
       }},
      {"half-space", [](AnalyticSdf& f, const Pose& X) { return f.AddHalfSpace(X); },
       [](const Vec3& x) { return x.z(); }},
  };
}

// central-difference gradient; h = 1e-6 m gives O(h²κ) + O(ε/h) ≈ 1e-10 error away from kinks
Vec3 FiniteDifferenceGradient(const AnalyticSdf& field, const Vec3& x) {
  constexpr Real h = 1e-6;
  Vec3 g;
  for (int k = 0; k < 3; ++k) {
    const Vec3 e = Vec3::Unit(k) * h;
    g(k) = (field.Distance(x + e) - field.Distance(x - e)) / (2 * h);
  }
  return g;
}

TEST(AnalyticSdfTest, PrimitivesMatchClosedFormsAndFiniteDifferences) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> coord(-1.0, 1.0);
  const Pose X_FN = TiltedPose();
  for (const PrimitiveCase& c : Primitives()) {
    SCOPED_TRACE(c.name);
    AnalyticSdf field;
    c.add(field, X_FN);
    ASSERT_TRUE(field.Validate().empty());
    int kinks = 0;
    for (int i = 0; i < 2000; ++i) {
      const Vec3 x_F(coord(rng), coord(rng), coord(rng));
      const Vec3 x_N = X_FN.Inverse() * x_F;
      const SdfSample s = field.Sample(x_F);
      // exact Euclidean distance, inside and outside (1e-12: double rounding of O(1) values)
      ASSERT_NEAR(s.distance, c.reference(x_N), 1e-12) << x_N.transpose();
      // unit gradient: φ is a distance function (|∇φ| = 1 a.e.)
      ASSERT_NEAR(s.gradient.norm(), 1.0, 1e-12);
      // the closest-point property y = x − φ∇φ lands on the surface (§2.1)
      ASSERT_NEAR(field.Distance(x_F - s.distance * s.gradient), 0.0, 1e-12);
      // analytic gradient vs central differences; a point within h of a kink (medial axis,
      // cone rim) legitimately differs, allow a handful in 2000
      if ((s.gradient - FiniteDifferenceGradient(field, x_F)).norm() > 1e-6) ++kinks;
    }
    EXPECT_LE(kinks, 2);
  }
}

TEST(AnalyticSdfTest, ConeApexAndBaseDistances) {
  // apex up at the origin, half-angle 45°, height 1: a point 5 mm below the apex on the axis is
  // 5 mm·sin 45° from the slanted side; 1 cm above the apex is 1 cm from the apex
  AnalyticSdf field;
  field.AddCone(kPi / 4, 1.0);
  EXPECT_NEAR(field.Distance(Vec3(0, 0, -0.005)), -0.005 * std::sin(kPi / 4), 1e-15);
  EXPECT_NEAR(field.Distance(Vec3(0, 0, 0.01)), 0.01, 1e-15);
  EXPECT_NEAR(field.Sample(Vec3(0, 0, 0.01)).gradient.z(), 1.0, 1e-15);
  // below the base centre: distance to the base disk, gradient −z
  EXPECT_NEAR(field.Distance(Vec3(0.1, 0, -1.2)), 0.2, 1e-15);
  EXPECT_NEAR(field.Sample(Vec3(0.1, 0, -1.2)).gradient.z(), -1.0, 1e-15);
}

TEST(AnalyticSdfTest, CombinationsSelectTheGradientOfTheActiveOperand) {
  AnalyticSdf field;
  const int a = field.AddSphere(0.5, {Vec3(-0.3, 0, 0), Quat::Identity()});
  const int b = field.AddBox(Vec3(0.3, 0.3, 0.3), {Vec3(0.4, 0, 0), Quat::Identity()});
  const int u = field.Union(a, b);
  const int n = field.Intersection(a, b);
  const int d = field.Difference(a, b);
  const int s = field.SmoothUnion(a, b, 0.2);
  ASSERT_TRUE(field.Validate().empty());
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> coord(-1.2, 1.2);
  for (int i = 0; i < 500; ++i) {
    const Vec3 x(coord(rng), coord(rng), coord(rng));
    AnalyticSdf sa = field, sb = field;
    sa.SetRoot(a);
    sb.SetRoot(b);
    const SdfSample pa = sa.Sample(x), pb = sb.Sample(x);
    for (const int root : {u, n, d, s}) {
      AnalyticSdf f = field;
      f.SetRoot(root);
      const SdfSample v = f.Sample(x);
      if (root == u) {
        EXPECT_EQ(v.distance, std::min(pa.distance, pb.distance));
      }
      if (root == n) {
        EXPECT_EQ(v.distance, std::max(pa.distance, pb.distance));
      }
      if (root == d) {
        EXPECT_EQ(v.distance, std::max(pa.distance, -pb.distance));
      }
      // the smooth union lies below the union by at most k/4 (h(1−h)k ≤ k/4)
      if (root == s) {
        EXPECT_LE(v.distance, std::min(pa.distance, pb.distance) + 1e-15);
        EXPECT_GE(v.distance, std::min(pa.distance, pb.distance) - 0.2 / 4 - 1e-15);
      }
      // gradients are the derivative of the combined value (skip the rare point next to the
      // switching surface, where a central difference straddles two operands)
      const Vec3 fd = FiniteDifferenceGradient(f, x);
      const Real da = std::abs(pa.distance - pb.distance), db = std::abs(pa.distance + pb.distance);
      if (da > 1e-5 && db > 1e-5) {
        EXPECT_LT((v.gradient - fd).norm(), 1e-6) << root;
      }
    }
  }
}

TEST(AnalyticSdfTest, ValidateNamesTheNodeAndTheBadValue) {
  AnalyticSdf field;
  field.AddSphere(-1.0);
  field.AddBox(Vec3(1, std::nan(""), 1));
  field.AddRoundedBox(Vec3(0.5, 0.5, 0.5), 0.6);
  field.AddCone(kPi / 2, 1.0);
  field.AddTorus(0.2, 0.3);
  field.Union(0, 7);
  const std::vector<std::string> messages = field.Validate();
  ASSERT_EQ(messages.size(), 6u);
  EXPECT_NE(messages[0].find("node 0 (sphere): sizes [-1] must be positive"), std::string::npos)
      << messages[0];
  EXPECT_NE(messages[1].find("node 1 (box)"), std::string::npos) << messages[1];
  EXPECT_NE(messages[2].find("rounding radius"), std::string::npos) << messages[2];
  EXPECT_NE(messages[3].find("half-angle"), std::string::npos) << messages[3];
  EXPECT_NE(messages[4].find("minor radius"), std::string::npos) << messages[4];
  EXPECT_NE(messages[5].find("node 5 (union): child 7 must be an earlier node"), std::string::npos)
      << messages[5];
  EXPECT_EQ(AnalyticSdf().Validate().size(), 1u);  // empty field
}

TEST(AnalyticSdfTest, ValidateBoundsTheDepthAndTheNodesASampleEvaluates) {
  // a chain one level deeper than Sample() may recurse
  AnalyticSdf chain;
  int node = chain.AddSphere(1.0);
  for (int level = 0; level <= kMaxSdfDepth; ++level) node = chain.Union(chain.AddSphere(1), node);
  std::vector<std::string> messages = chain.Validate();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0], "node 130 (union): the tree is 65 levels deep (at most 64)");
  // 11 unions of a node with itself: 12 array nodes, 4095 evaluated per sample
  AnalyticSdf shared;
  node = shared.AddSphere(1.0);
  for (int level = 0; level < 11; ++level) node = shared.Union(node, node);
  messages = shared.Validate();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0], "node 11 (union): a sample evaluates 4095 nodes (at most 1024)");
}

}  // namespace
}  // namespace sim
