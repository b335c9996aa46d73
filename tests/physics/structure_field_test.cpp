// The Matchstick combination of two sides' structure axes (digest nsn-and-friction.md §2.12,
// [T eq 29-34]; §20 item 5) and the structure-field sampling behind it (§2.13): procedural
// formulas, doubled-angle texels, projections, and a field lifted to world on a rotated body.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "engine/collision/collision.h"
#include "engine/model/structure_field.h"
#include "engine/step/contact_material.h"
#include "tests/support/model_builder.h"

namespace sim {
namespace {

constexpr Real kPi = std::numbers::pi;
const PairFriction kFriction{.iso = 0.4, .major = 0.8, .minor = 0.2};
const Vec3 kNormal = Vec3::UnitZ();

SideStructure Side(const Vec3& axis, Real strength = 1) { return {axis, strength}; }

// s_a ∥ s_b: d = 1 [T eq 29], t = s, the full cone (μ_major, μ_minor) [T eq 33-34]
TEST(Matchstick, AlignedGrainsGiveTheFullCone) {
  const MatchstickCone cone =
      CombineMatchstick(kNormal, Side(Vec3(1, 1, 0)), Side(Vec3(2, 2, 0)), kFriction);
  EXPECT_DOUBLE_EQ(cone.anisotropy, 1);
  EXPECT_NEAR(cone.tangent.dot(Vec3(1, 1, 0).normalized()), 1, 1e-15);
  EXPECT_NEAR(cone.bitangent.dot(kNormal.cross(cone.tangent)), 1, 1e-15);
  EXPECT_DOUBLE_EQ(cone.mu_t, 0.8);
  EXPECT_DOUBLE_EQ(cone.mu_b, 0.2);
}

// s_a ⟂ s_b: d = 0, the isotropic μ on both axes (and so the normal-only frame)
TEST(Matchstick, CrossedGrainsAreIsotropic) {
  const MatchstickCone cone =
      CombineMatchstick(kNormal, Side(Vec3::UnitX()), Side(Vec3::UnitY()), kFriction);
  EXPECT_NEAR(cone.anisotropy, 0, 1e-15);
  EXPECT_NEAR(cone.mu_t, 0.4, 1e-15);
  EXPECT_NEAR(cone.mu_b, 0.4, 1e-15);
}

// 45° apart: d = 1 − (2/π)(π/4) = 0.5, μ_t = 0.5·0.8 + 0.5·0.4 = 0.6, μ_b = 0.3, t the bisector
TEST(Matchstick, FortyFiveDegreesIsHalfway) {
  const Vec3 s_b(std::cos(kPi / 4), std::sin(kPi / 4), 0);
  const MatchstickCone cone = CombineMatchstick(kNormal, Side(Vec3::UnitX()), Side(s_b), kFriction);
  EXPECT_NEAR(cone.anisotropy, 0.5, 1e-15);
  EXPECT_NEAR(cone.mu_t, 0.6, 1e-15);
  EXPECT_NEAR(cone.mu_b, 0.3, 1e-15);
  EXPECT_NEAR(cone.tangent.dot(Vec3(std::cos(kPi / 8), std::sin(kPi / 8), 0)), 1, 1e-15);
}

// a grain is an axis: s_b = −s_a is aligned (d = 1), and t is ±s_a, not the degenerate
// normalize(s_a + s_b) = 0/0 (digest note ii)
TEST(Matchstick, SignFlippedGrainIsAligned) {
  const Vec3 s(0.6, -0.8, 0);
  const MatchstickCone cone = CombineMatchstick(kNormal, Side(s), Side(-s), kFriction);
  EXPECT_DOUBLE_EQ(cone.anisotropy, 1);
  EXPECT_NEAR(std::abs(cone.tangent.dot(s)), 1, 1e-15);
  EXPECT_TRUE(cone.tangent.allFinite());
}

// one side grained (strength w), the other without a field: t = ŝ, d = w (contact_material.h)
TEST(Matchstick, OneSidedFieldUsesItsAxisAndStrength) {
  const MatchstickCone full = CombineMatchstick(kNormal, {}, Side(Vec3::UnitY()), kFriction);
  EXPECT_DOUBLE_EQ(full.anisotropy, 1);
  EXPECT_NEAR(full.tangent.dot(Vec3::UnitY()), 1, 1e-15);
  const MatchstickCone weak = CombineMatchstick(kNormal, Side(Vec3::UnitY(), 0.25), {}, kFriction);
  EXPECT_DOUBLE_EQ(weak.anisotropy, 0.25);
  EXPECT_DOUBLE_EQ(weak.mu_t, 0.25 * 0.8 + 0.75 * 0.4);
  EXPECT_DOUBLE_EQ(weak.mu_b, 0.25 * 0.2 + 0.75 * 0.4);
}

// no grain on either side, or an axis along the normal: today's frame, isotropic (note iii); an
// out-of-plane component is projected away (note i)
TEST(Matchstick, FallsBackToTheNormalOnlyFrame) {
  const Vec3 n = Vec3(0.3, -0.2, 1).normalized();
  const MatchstickCone none = CombineMatchstick(n, {}, Side(n), kFriction);
  EXPECT_EQ(none.anisotropy, 0);
  EXPECT_EQ(none.tangent, PerpendicularUnit(n));
  EXPECT_EQ(none.mu_t, 0.4);
  const MatchstickCone tilted =
      CombineMatchstick(kNormal, Side(Vec3(1, 0, 5)), Side(Vec3(1, 0, -3)), kFriction);
  EXPECT_DOUBLE_EQ(tilted.anisotropy, 1);
  EXPECT_NEAR(tilted.tangent.dot(Vec3::UnitX()), 1, 1e-15);
}

// procedural formulas at chosen points (structure_field.h): uniform at its angle, radial away
// from the centre, vortex a quarter turn on, channel ⟂ on the line and 45° on at one width to
// the left, slalom ⟂ the lane v' = A sin(2πu'/λ) (at u' = 0 the lane slope is A·2π/λ)
TEST(StructureFieldSampling, ProceduralFormulas) {
  StructureField field;
  const auto angle = [&](const Vec2& uv) {
    const StructureSample s = field.Sample(uv);
    return std::atan2(s.direction.y(), s.direction.x());
  };
  field.kind = StructureFieldKind::kUniform;
  field.procedural.angle = 0.7;
  EXPECT_NEAR(angle({5, -3}), 0.7, 1e-15);
  field.kind = StructureFieldKind::kRadial;
  field.procedural.center = {1, 1};
  EXPECT_NEAR(angle({1, 3}), kPi / 2, 1e-15);
  EXPECT_EQ(field.Sample({1, 1}).strength, 0);  // no axis at the centre
  field.kind = StructureFieldKind::kVortex;
  EXPECT_NEAR(angle({3, 1}), kPi / 2, 1e-15);
  field.kind = StructureFieldKind::kChannel;
  field.procedural = ProceduralField{};
  field.procedural.width = 0.5;
  EXPECT_NEAR(angle({2, 0}), kPi / 2, 1e-15);
  EXPECT_NEAR(angle({2, 0.5}), kPi / 4, 1e-15);
  EXPECT_NEAR(angle({2, 3}), kPi / 4, 1e-15);
  EXPECT_NEAR(angle({2, -0.25}), kPi / 2 + kPi / 8, 1e-15);
  field.kind = StructureFieldKind::kSlalom;
  field.procedural.wavelength = 2;
  field.procedural.amplitude = 0.25;
  EXPECT_NEAR(angle({0, 0.1}), std::atan(0.25 * kPi) + kPi / 2, 1e-15);
  EXPECT_NEAR(angle({0.5, 0}), kPi / 2, 1e-15);
}

// texels: the doubled angle filters sign-flipped axes without cancelling (θ and θ + π average to
// θ), crossed axes cancel to "no direction", and bilinear filtering of a 45° and a 90° texel
// halfway gives 67.5°; a bake of a procedural field reproduces it at texel centres
TEST(StructureFieldSampling, DoubledAngleTexels) {
  StructureField field;
  field.tile_size = {2, 1};
  const Real theta = 0.4;
  field.SetTexels(2, 1, {TexelFromAxis(theta, 1), TexelFromAxis(theta + kPi, 0.5)});
  const std::uint64_t revision = field.revision();
  const StructureSample middle = field.Sample({1.0, 0.5});  // between the two texel centres
  EXPECT_NEAR(std::atan2(middle.direction.y(), middle.direction.x()), theta, 1e-6);
  EXPECT_NEAR(middle.strength, 0.75, 1e-6);
  field.mutable_texels()[1] = TexelFromAxis(theta + kPi / 2, 1);
  field.MarkChanged();
  EXPECT_GT(field.revision(), revision);
  EXPECT_EQ(field.Sample({1.0, 0.5}).strength, 0);
  field.mutable_texels()[0] = TexelFromAxis(kPi / 4, 1);
  field.mutable_texels()[1] = TexelFromAxis(kPi / 2, 1);
  const StructureSample blend = field.Sample({1.0, 0.5});
  EXPECT_NEAR(std::atan2(blend.direction.y(), blend.direction.x()), 3 * kPi / 8, 1e-6);

  StructureField vortex;
  vortex.kind = StructureFieldKind::kVortex;
  vortex.procedural.center = {0.5, 0.5};
  vortex.Bake(16, 16);
  for (int row = 0; row < 16; ++row) {
    for (int column = 0; column < 16; ++column) {
      const Vec2 uv = vortex.TexelCenter(column, row);
      const Vec2 a = vortex.Sample(uv).direction, b = vortex.SampleProcedural(uv).direction;
      EXPECT_NEAR(std::abs(a.dot(b)), 1, 1e-6);  // float texels
    }
  }
}

// 8-bit encoding: byte = round(127.5(c + 1)); the decoded doubled angle is within one step of
// the true one, so the axis is within (1/127.5)/2 ≈ 0.004 rad after halving (digest §2.13)
TEST(StructureFieldSampling, EightBitEncoding) {
  for (Real theta = -kPi; theta < kPi; theta += 0.05) {
    std::uint8_t rgb[3];
    EncodeStructureTexel(TexelFromAxis(theta, 0.3), rgb);
    const StructureTexel t = DecodeStructureTexel(rgb[0], rgb[1], rgb[2]);
    const Real back = 0.5 * std::atan2(t.sin2, t.cos2);
    EXPECT_NEAR(std::abs(std::cos(back - theta)), 1, 1e-4) << theta;
    EXPECT_NEAR(t.strength, 0.3, 0.5 / 255 + 1e-6);  // half a step, and float round-off
  }
  std::uint8_t rgb[3];
  EncodeStructureTexel({-1, 1, 1}, rgb);
  EXPECT_EQ(rgb[0], 0);
  EXPECT_EQ(rgb[1], 255);
  EXPECT_EQ(rgb[2], 255);
}

// projections: planar along z is (x, y); triplanar picks the axis of the normal's largest
// component; cylindrical u is the arc length ρφ and T_u the circumferential direction
TEST(StructureFieldSampling, Projections) {
  FieldProjectionSpec planar;
  const FieldCoordinates p = ProjectSurfacePoint(planar, Vec3(1, 2, 3), Vec3::UnitZ());
  EXPECT_EQ(p.uv, Vec2(1, 2));
  FieldProjectionSpec triplanar{.kind = FieldProjection::kTriplanar};
  const FieldCoordinates side = ProjectSurfacePoint(triplanar, Vec3(1, 2, 3), Vec3(0.1, -0.9, 0.2));
  EXPECT_NEAR(side.tangent_u.dot(Vec3::UnitX()), 1, 1e-15);  // plane ⟂ −y: e_u = x, e_v = −y × x
  EXPECT_NEAR(side.tangent_v.dot(Vec3::UnitZ()), 1, 1e-15);
  FieldProjectionSpec cylindrical{.kind = FieldProjection::kCylindrical};
  const FieldCoordinates c = ProjectSurfacePoint(cylindrical, Vec3(0, 2, 5), Vec3::UnitY());
  EXPECT_NEAR(c.uv.x(), 2 * kPi / 2, 1e-15);
  EXPECT_NEAR(c.uv.y(), 5, 1e-15);
  EXPECT_NEAR(c.tangent_u.dot(-Vec3::UnitX()), 1, 1e-15);
}

// a rigid side's axis is lifted through its body: a grained box (uniform field along its x)
// turned 30° about z gives a world axis at 30°, whatever face the contact is on
TEST(StructureFieldSampling, RigidSideRotatesWithItsBody) {
  Model model = test_support::MakeEmptyModel();
  State state;
  test_support::AddWorldShape(&model, test_support::Plane(), Pose{});
  const Quat turn(Eigen::AngleAxisd(kPi / 6, Vec3::UnitZ()));
  test_support::AddBody(&model, &state, "box", test_support::Box(Vec3(0.1, 0.1, 0.1)), 1,
                        Pose{Vec3(0, 0, 0.1), turn});
  auto field = std::make_shared<StructureField>();
  field->kind = StructureFieldKind::kUniform;
  field->projection.kind = FieldProjection::kTriplanar;
  model.structure_fields.push_back(field);
  model.shape_structure_field = {-1, 0};
  Contact contact;
  contact.a.body = 0;
  contact.a.shape = 1;
  contact.a.p_B = Vec3(0.1, 0.1, -0.1);  // a bottom corner
  contact.b.shape = 0;
  contact.normal_W = Vec3::UnitZ();
  const SideStructure a = SampleSideStructure(model, state, contact, true);
  EXPECT_EQ(a.strength, 1);
  EXPECT_NEAR(std::abs(a.axis_W.normalized().dot(turn * Vec3::UnitX())), 1, 1e-12);
  EXPECT_EQ(SampleSideStructure(model, state, contact, false).strength, 0);
}

}  // namespace
}  // namespace sim
