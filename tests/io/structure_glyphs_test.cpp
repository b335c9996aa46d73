// The structure view's glyphs (engine/visual/structure_glyphs.h) from scenes: each dash lies on
// its surface along the grain the contact stage would use there, rotates with its body, shows
// erased grain as strength 0, and a plane's grid stays on its lattice while bodies move.
#include <cmath>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/state/contacts.h"
#include "engine/step/contact_material.h"
#include "engine/visual/structure_glyphs.h"
#include "engine/visual/visual_frame.h"

namespace sim {
namespace {

constexpr Real kPi = std::numbers::pi;

Vec3 ToVec(const std::array<float, 3>& v) { return Vec3(v[0], v[1], v[2]); }

io::Scene Load(const std::string& text) {
  Expected<io::Scene> scene = io::ParseScene(text, "glyphs.json");
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  return std::move(scene.value());
}

// a ground plane with a uniform 30° field and a 0.4 m box whose top carries a uniform 0° field
// in its own frame, yawed by `yaw_deg` about z
std::string Scene(double yaw_deg, double ground_strength) {
  return R"({"name": "g",
"materials": {"m": {"friction": 0.5, "friction_major": 0.8, "friction_minor": 0.2}},
"objects": [
 {"name": "ground", "type": "plane", "material": "m",
  "structure_field": {"procedural": "uniform", "angle_deg": 30, "strength": )" +
         std::to_string(ground_strength) + R"(}},
 {"name": "box", "type": "box", "size": [0.4, 0.4, 0.4], "material": "m",
  "position": [0.3, -0.2, 0.2], "rpy_deg": [0, 0, )" +
         std::to_string(yaw_deg) + R"(],
  "structure_field": {"procedural": "uniform", "angle_deg": 0,
                      "projection": {"type": "planar", "axis": "z"}}}]})";
}

// the unsigned angle between two axes [rad]
Real AxisAngle(const Vec3& a, const Vec3& b) {
  return std::acos(std::min<Real>(1, std::abs(a.normalized().dot(b.normalized()))));
}

// every ground dash lies in the plane (z = 0) along 30°, unit, strength 1, at most
// kPlaneGlyphsPerSide² of them, on a lattice of the grid's spacing: (x / s − ½) is an integer
TEST(StructureGlyphs, PlaneDashesFollowItsUniformField) {
  const io::Scene scene = Load(Scene(0, 1));
  std::vector<VisualStructureGlyph> glyphs;
  AppendStructureGlyphs(*scene.model, scene.initial_state, &glyphs);
  int ground = 0;
  Real spacing = 0;
  for (const VisualStructureGlyph& glyph : glyphs) {
    if (!glyph.on_world) continue;
    ++ground;
    EXPECT_NEAR(glyph.center[2], 0, 1e-7);
    EXPECT_NEAR(ToVec(glyph.normal).z(), 1, 1e-7);
    // float storage: 1e-6 rad
    EXPECT_LT(AxisAngle(ToVec(glyph.axis), Vec3(std::cos(kPi / 6), std::sin(kPi / 6), 0)), 1e-6);
    EXPECT_NEAR(ToVec(glyph.axis).norm(), 1, 1e-6);
    EXPECT_FLOAT_EQ(glyph.strength, 1);
    // the dash is 0.8 of the spacing long (structure_glyphs.cpp kDashPerSpacing)
    spacing = 2 * glyph.half_length / 0.8;
  }
  EXPECT_GT(ground, 100);
  EXPECT_LE(ground, (kPlaneGlyphsPerSide + 1) * (kPlaneGlyphsPerSide + 1));
  ASSERT_GT(spacing, 0);
  for (const VisualStructureGlyph& glyph : glyphs) {
    if (!glyph.on_world) continue;
    for (int c = 0; c < 2; ++c) {
      const Real cells = glyph.center[c] / spacing - 0.5;
      EXPECT_NEAR(cells, std::round(cells), 1e-4) << c;
    }
  }
  // a grid at least 2·kMinPlaneGlyphHalfSpan wide around the box
  Real min_x = 1e9, max_x = -1e9;
  for (const VisualStructureGlyph& glyph : glyphs) {
    if (!glyph.on_world) continue;
    min_x = std::min<Real>(min_x, glyph.center[0]);
    max_x = std::max<Real>(max_x, glyph.center[0]);
  }
  EXPECT_LT(min_x, 0.3 - kMinPlaneGlyphHalfSpan + spacing);
  EXPECT_GT(max_x, 0.3 + kMinPlaneGlyphHalfSpan - spacing);
}

// the box's top-face dashes point along its own x axis: world yaw 40° for a box yawed 40°
// (planar projection along the box's z: u = box x); the side faces' dashes lie in their faces
TEST(StructureGlyphs, BoxDashesTurnWithTheBody) {
  for (const double yaw : {0.0, 40.0}) {
    const io::Scene scene = Load(Scene(yaw, 1));
    std::vector<VisualStructureGlyph> glyphs;
    AppendStructureGlyphs(*scene.model, scene.initial_state, &glyphs);
    const Real psi = yaw * kPi / 180;
    int top = 0, sides = 0;
    for (const VisualStructureGlyph& glyph : glyphs) {
      if (glyph.on_world) continue;
      const Vec3 normal = ToVec(glyph.normal);
      EXPECT_NEAR(ToVec(glyph.axis).dot(normal), 0, 1e-6) << "a dash lies in its face";
      if (normal.z() > 0.99) {
        ++top;
        EXPECT_NEAR(glyph.center[2], 0.4, 1e-6);
        EXPECT_LT(AxisAngle(ToVec(glyph.axis), Vec3(std::cos(psi), std::sin(psi), 0)), 1e-5);
      } else if (std::abs(normal.z()) < 1e-6) {
        ++sides;
      }
    }
    EXPECT_GT(top, 4) << yaw;
    EXPECT_GT(sides, 4 * top / 2) << yaw;
  }
}

// erased grain (strength 0) shows as strength-0 ticks, not as missing glyphs
TEST(StructureGlyphs, GrainlessGroundKeepsItsTicksAtStrengthZero) {
  const io::Scene scene = Load(Scene(0, 0));
  std::vector<VisualStructureGlyph> glyphs;
  AppendStructureGlyphs(*scene.model, scene.initial_state, &glyphs);
  int ground = 0;
  for (const VisualStructureGlyph& glyph : glyphs) {
    if (!glyph.on_world) continue;
    ++ground;
    EXPECT_EQ(glyph.strength, 0);
    EXPECT_NEAR(ToVec(glyph.axis).norm(), 1, 1e-6);
  }
  EXPECT_GT(ground, 100);
}

// a dash shows what friction uses: at the box's contacts with the ground the contact stage's
// principal tangent is the combination of both sides' axes (ground 30°, box bottom 0° in its
// frame); with the box's field at the same 30° as the ground's, t is the ground dashes' axis
TEST(StructureGlyphs, DashesShowTheAxisTheContactStageUses) {
  const io::Scene scene = Load(Scene(30, 1));
  std::vector<VisualStructureGlyph> glyphs;
  AppendStructureGlyphs(*scene.model, scene.initial_state, &glyphs);
  Contact contact;
  contact.a.body = 0;  // the box: its only body
  contact.a.shape = 1;
  contact.b.shape = 0;
  contact.normal_W = Vec3::UnitZ();
  contact.a.p_B = Vec3(0.1, 0.1, -0.2);  // on its bottom face
  const SideStructure box = SampleSideStructure(*scene.model, scene.initial_state, contact, true);
  ASSERT_GT(box.strength, 0);
  for (const VisualStructureGlyph& glyph : glyphs) {
    if (glyph.on_world) {
      EXPECT_LT(AxisAngle(ToVec(glyph.axis), box.axis_W), 1e-5);
    }
  }
}

}  // namespace
}  // namespace sim
