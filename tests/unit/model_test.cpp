// Mass properties of the primitive shapes against closed-form results.
#include "engine/model/model.h"

#include <numbers>

#include <gtest/gtest.h>

namespace sim {
namespace {

constexpr double kPi = std::numbers::pi;
// closed forms evaluated in double: agreement to rounding
constexpr double kTol = 1e-12;

TEST(ShapeMassTest, BoxVolumeAndInertia) {
  ShapeGeometry box{.type = ShapeType::kBox, .half_extents = Vec3(0.5, 1.0, 1.5)};
  EXPECT_NEAR(ShapeVolume(box), 1.0 * 2.0 * 3.0, kTol);
  // I_x = m (b² + c²) / 12 for side lengths a, b, c
  const Mat3 I = ShapeUnitInertia(box, 12.0);
  EXPECT_NEAR(I(0, 0), 4 + 9, kTol);
  EXPECT_NEAR(I(1, 1), 1 + 9, kTol);
  EXPECT_NEAR(I(2, 2), 1 + 4, kTol);
}


TEST(ShapeMassTest, SphereAndCylinder) {
  ShapeGeometry sphere{.type = ShapeType::kSphere, .radius = 2.0};
  EXPECT_NEAR(ShapeVolume(sphere), 4.0 / 3.0 * kPi * 8, kTol);
  EXPECT_NEAR(ShapeUnitInertia(sphere, 5.0)(1, 1), 0.4 * 5 * 4, kTol);
  ShapeGeometry cylinder{.type = ShapeType::kCylinder, .radius = 1.0, .half_length = 1.0};
  EXPECT_NEAR(ShapeVolume(cylinder), kPi * 2, kTol);
  const Mat3 I = ShapeUnitInertia(cylinder, 6.0);
  EXPECT_NEAR(I(2, 2), 0.5 * 6, kTol);             // m r² / 2
  EXPECT_NEAR(I(0, 0), 6.0 * (3 + 4) / 12, kTol);  // m (3r² + h²) / 12
}


TEST(ShapeMassTest, CapsuleDegeneratesToSphere) {
  // a capsule with zero axis length is a sphere: same volume and inertia
  ShapeGeometry capsule{.type = ShapeType::kCapsule, .radius = 0.3, .half_length = 0.0};
  ShapeGeometry sphere{.type = ShapeType::kSphere, .radius = 0.3};
  EXPECT_NEAR(ShapeVolume(capsule), ShapeVolume(sphere), kTol);
  EXPECT_TRUE(ShapeUnitInertia(capsule, 2.0).isApprox(ShapeUnitInertia(sphere, 2.0), 1e-12));
}


TEST(ShapeMassTest, CapsuleLongLimitApproachesCylinderRod) {
  // for h >> r the lateral inertia tends to the thin rod m h² / 12 (within O(r/h))
  ShapeGeometry capsule{.type = ShapeType::kCapsule, .radius = 0.01, .half_length = 5.0};
  const double rod = 1.0 * 10.0 * 10.0 / 12;
  EXPECT_NEAR(ShapeUnitInertia(capsule, 1.0)(0, 0), rod, rod * 0.01);
}

}  // namespace
}  // namespace sim
