// Brush dabs on structure-field texels and their undo history (engine/edit/structure_paint.h,
// engine/edit/paint_history.h): each tool changes texels inside its disc by the falloff profile
// and nothing outside; set angle is exact; smooth is the box blur it states; dabs wrap across
// tile edges; undo and redo restore texels bit for bit within the history's limits; and a dab
// on a 1024² field costs well under a frame.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numbers>
#include <random>

#include "engine/edit/paint_history.h"
#include "engine/edit/structure_paint.h"

namespace sim {
namespace {

constexpr Real kPi = std::numbers::pi;
// texels are floats: values derived in double agree to a few float roundings
constexpr Real kFloat = 1e-6;

// a field of width × height texels over `tile`, every texel the axis θ with strength w
std::shared_ptr<StructureField> Uniform(int width, int height, Real theta, Real w,
                                        const Vec2& tile = Vec2(1, 1)) {
  auto field = std::make_shared<StructureField>();
  field->tile_size = tile;
  field->SetTexels(width, height,
                   std::vector<StructureTexel>(static_cast<std::size_t>(width) * height,
                                               TexelFromAxis(theta, w)));
  return field;
}

// a field of random axes and strengths (fixed seed)
std::shared_ptr<StructureField> Random(int width, int height) {
  auto field = Uniform(width, height, 0, 0);
  std::mt19937 random(7);
  std::uniform_real_distribution<Real> unit(0, 1);
  for (StructureTexel& t : field->mutable_texels())
    t = TexelFromAxis(kPi * unit(random), unit(random));
  return field;
}

const StructureTexel& At(const StructureField& field, int column, int row) {
  return field.texels()[static_cast<std::size_t>(row) * field.width() + column];
}

Real AxisOf(const StructureTexel& t) { return 0.5 * std::atan2(t.sin2, t.cos2); }

bool SameTexels(const StructureField& a, const std::vector<StructureTexel>& b) {
  return a.texels().size() == b.size() &&
         std::memcmp(a.texels().data(), b.data(), b.size() * sizeof(StructureTexel)) == 0;
}


// erase with hardness 0 on a 64² field: texels at s = d/r of 1/4, 1/2, 3/4 keep w = 1 − f(s)
// = 1 − (1 − 3s² + 2s³) = 0.15625, 0.5, 0.84375; at s ≥ 1 w stays 1 exactly, and no axis moves.
// The dab is centred on texel (32, 31) with r = 16 texels, so it writes columns and rows within
// 15 texels: the rectangle (17, 16) of 31 × 31
TEST(PaintBrush, FalloffProfileInsideTheDiscOnly) {
  auto field = Uniform(64, 64, 0.2, 1);
  const std::vector<StructureTexel> before = field->texels();
  const Vec2 center = field->TexelCenter(32, 31);
  const Real r = 16.0 / 64;
  const Brush eraser{.tool = BrushTool::kErase, .radius = r, .hardness = 0};
  const std::uint64_t revision = field->revision();
  const DirtyTexels dirty = ApplyDab(field.get(), eraser, FieldDab{center, r});
  EXPECT_EQ(field->revision(), revision + 1);  // one MarkChanged per dab
  ASSERT_EQ(dirty.count, 1);
  EXPECT_EQ(dirty.Bounds().column, 17);
  EXPECT_EQ(dirty.Bounds().row, 16);
  EXPECT_EQ(dirty.Bounds().width, 31);
  EXPECT_EQ(dirty.Bounds().height, 31);
  EXPECT_NEAR(At(*field, 36, 31).strength, 0.15625, kFloat);
  EXPECT_NEAR(At(*field, 40, 31).strength, 0.5, kFloat);
  EXPECT_NEAR(At(*field, 32, 35).strength, 0.15625, kFloat);  // the profile is round
  EXPECT_NEAR(At(*field, 44, 31).strength, 0.84375, kFloat);
  EXPECT_EQ(At(*field, 48, 31).strength, 1.0f);
  for (int row = 0; row < 64; ++row) {
    for (int column = 0; column < 64; ++column) {
      const Real s = (field->TexelCenter(column, row) - center).norm() / r;
      const StructureTexel& t = At(*field, column, row);
      const Real expected = s < 1 ? 3 * s * s - 2 * s * s * s : 1;
      EXPECT_NEAR(t.strength, expected, kFloat) << column << ", " << row;
      if (s >= 1) {
        EXPECT_EQ(t.strength, 1.0f);
      }
      EXPECT_EQ(t.cos2, before[row * 64 + column].cos2);
      EXPECT_EQ(t.sin2, before[row * 64 + column].sin2);
    }
  }
  // hardness ½: a = 1 within r/2 (w exactly 0 there), f(¾) = smoothstep at t = ½: w = ½;
  // opacity ½ on a hard disc: w = ½ throughout
  auto hard = Uniform(64, 64, 0.2, 1);
  ApplyDab(hard.get(), {.tool = BrushTool::kErase, .radius = r, .hardness = 0.5},
           FieldDab{center, r});
  EXPECT_EQ(At(*hard, 36, 31).strength, 0.0f);
  EXPECT_NEAR(At(*hard, 44, 31).strength, 0.5, kFloat);
  auto faint = Uniform(64, 64, 0.2, 1);
  ApplyDab(
      faint.get(),
      {.tool = BrushTool::kStrength, .radius = r, .opacity = 0.5, .hardness = 1, .strength = 0},
      FieldDab{center, r});
  EXPECT_NEAR(At(*faint, 44, 31).strength, 0.5, kFloat);
  EXPECT_EQ(At(*faint, 48, 31).strength, 1.0f);
}


// set angle: opacity 1 writes exactly TexelFromAxis(θ, w); keep_strength leaves w; opacity ½
// from 0 toward 0.6 blends the doubled angles 0 and 1.2 equally, so the axis is 0.3 and w is
// halfway; toward a crossed axis (doubled angles opposite) at ½ the brush's axis wins
TEST(PaintBrush, SetAngleIsExact) {
  auto field = Uniform(32, 32, 0, 0.3);
  const Vec2 center(0.5, 0.5);
  Brush brush{
      .tool = BrushTool::kSetAngle, .radius = 0.2, .hardness = 1, .angle = 0.7, .strength = 0.9};
  ApplyDab(field.get(), brush, DabAt(PaintSpot{.uv = center}, brush));
  const StructureTexel set = TexelFromAxis(0.7, 0.9), kept = TexelFromAxis(0, 0.3);
  for (int row = 0; row < 32; ++row) {
    for (int column = 0; column < 32; ++column) {
      const bool inside = (field->TexelCenter(column, row) - center).norm() < 0.2;
      const StructureTexel& t = At(*field, column, row);
      const StructureTexel& expected = inside ? set : kept;
      EXPECT_EQ(t.cos2, expected.cos2);
      EXPECT_EQ(t.sin2, expected.sin2);
      EXPECT_EQ(t.strength, expected.strength);
    }
  }
  brush.angle = -0.4;
  brush.keep_strength = true;
  ApplyDab(field.get(), brush, DabAt(PaintSpot{.uv = center}, brush));
  EXPECT_EQ(At(*field, 16, 16).cos2, TexelFromAxis(-0.4, 0).cos2);
  EXPECT_EQ(At(*field, 16, 16).strength, 0.9f);

  auto blend = Uniform(32, 32, 0, 0.3);
  ApplyDab(blend.get(),
           {.tool = BrushTool::kSetAngle,
            .radius = 0.2,
            .opacity = 0.5,
            .hardness = 1,
            .angle = 0.6,
            .strength = 0.9},
           FieldDab{center, 0.2, 0.6});
  EXPECT_NEAR(AxisOf(At(*blend, 16, 16)), 0.3, kFloat);
  EXPECT_NEAR(At(*blend, 16, 16).strength, 0.6, kFloat);
  auto crossed = Uniform(32, 32, 0, 1);
  ApplyDab(crossed.get(),
           {.tool = BrushTool::kSetAngle, .radius = 0.2, .opacity = 0.5, .hardness = 1},
           FieldDab{center, 0.2, kPi / 2});
  EXPECT_NEAR(std::abs(AxisOf(At(*crossed, 16, 16))), kPi / 2, kFloat);
}


// smooth on a checkerboard of axes 0 and 0.4 (w 1 and 0): r = 5 texels gives the 3 × 3 box
// (m = max(1, round(5/4)) = 1), so a texel of the first colour becomes the mean of 5 doubled
// angles 0 and 4 of 0.8: 2θ = atan2(4 sin 0.8, 5 + 4 cos 0.8) = 0.35306, w = 5/9; one of the
// second colour 2θ = atan2(5 sin 0.8, 4 + 5 cos 0.8) = 0.44694, w = 4/9. Neighbours then differ by
// 0.047 in θ instead of 0.4 (and by 1/9 in w instead of 1). A uniform field stays as it is
TEST(PaintBrush, SmoothIsABoxBlurThatKeepsAUniformField) {
  auto field = Uniform(32, 32, 0, 0);
  for (int row = 0; row < 32; ++row) {
    for (int column = 0; column < 32; ++column) {
      const bool first = (row + column) % 2 == 0;
      field->mutable_texels()[row * 32 + column] = TexelFromAxis(first ? 0 : 0.4, first ? 1 : 0);
    }
  }
  const Vec2 center = field->TexelCenter(16, 16);
  const Real r = 5.0 / 32;
  const Brush smooth{.tool = BrushTool::kSmooth, .radius = r, .hardness = 1};
  ApplyDab(field.get(), smooth, FieldDab{center, r});
  const Real first_axis = 0.5 * std::atan2(4 * std::sin(0.8), 5 + 4 * std::cos(0.8));
  const Real second_axis = 0.5 * std::atan2(5 * std::sin(0.8), 4 + 5 * std::cos(0.8));
  EXPECT_NEAR(first_axis, 0.17653, 1e-5);
  EXPECT_NEAR(second_axis - first_axis, 0.04694, 1e-5);
  int inside = 0;
  for (int row = 0; row < 32; ++row) {
    for (int column = 0; column < 32; ++column) {
      if ((field->TexelCenter(column, row) - center).norm() >= r) continue;
      ++inside;
      const bool first = (row + column) % 2 == 0;
      EXPECT_NEAR(AxisOf(At(*field, column, row)), first ? first_axis : second_axis, kFloat);
      EXPECT_NEAR(At(*field, column, row).strength, first ? 5.0 / 9 : 4.0 / 9, kFloat);
    }
  }
  EXPECT_EQ(inside, 69);  // texel centres strictly within 5 texels of a texel centre
  EXPECT_EQ(At(*field, 16, 21).strength, 0.0f);  // s = 1: outside, unchanged

  auto uniform = Uniform(32, 32, 0.9, 0.6);
  ApplyDab(uniform.get(), smooth, FieldDab{center, r});
  for (const StructureTexel& t : uniform->texels()) {
    EXPECT_NEAR(AxisOf(t), 0.9, kFloat);
    EXPECT_NEAR(t.strength, 0.6, kFloat);
  }
}


// texels wrap: a dab at u = 0.02 of a 2 m × 1 m tile (32 × 32 texels, 1/16 m by 1/32 m) also
// paints the texels at the right edge within r of its image at u = 2.02 (two rectangles); one at
// a corner paints all four corners (four); one wider than the tile paints every texel once
TEST(PaintBrush, DabsWrapAcrossTileEdges) {
  const Vec2 tile(2, 1);
  const auto nearest = [&](const Vec2& a, const Vec2& b) {
    Vec2 d = a - b;
    for (int i = 0; i < 2; ++i) d(i) -= tile(i) * std::round(d(i) / tile(i));
    return d.norm();
  };
  const Brush set{.tool = BrushTool::kSetAngle, .radius = 0.2, .hardness = 1, .angle = 1};
  for (const Vec2& center : {Vec2(0.02, 0.5), Vec2(1.99, 0.985)}) {
    auto field = Uniform(32, 32, 0, 1, tile);
    const DirtyTexels dirty = ApplyDab(field.get(), set, FieldDab{center, 0.2, 1});
    EXPECT_EQ(dirty.count, center.y() > 0.9 ? 4 : 2) << center.transpose();
    int painted = 0, covered = 0;
    for (int row = 0; row < 32; ++row) {
      for (int column = 0; column < 32; ++column) {
        const bool inside = nearest(field->TexelCenter(column, row), center) < 0.2;
        EXPECT_EQ(At(*field, column, row).cos2 != 1.0f, inside) << column << ", " << row;
        painted += inside;
      }
    }
    for (int i = 0; i < dirty.count; ++i) covered += dirty.rects[i].width * dirty.rects[i].height;
    EXPECT_GT(painted, 10);
    EXPECT_GE(covered, painted);
    EXPECT_EQ(At(*field, 31, center.y() > 0.9 ? 0 : 16).cos2 != 1.0f, true);  // the far edge
  }
  auto field = Uniform(32, 32, 0, 1, tile);
  const DirtyTexels all = ApplyDab(field.get(), set, FieldDab{Vec2(0.3, 0.4), 5, 1});
  int covered = 0;
  for (int i = 0; i < all.count; ++i) covered += all.rects[i].width * all.rects[i].height;
  EXPECT_EQ(covered, 32 * 32);
  for (const StructureTexel& t : field->texels()) EXPECT_NEAR(AxisOf(t), 1, kFloat);
}


// undo and redo write back the texels of each stroke bit for bit: two strokes (combing across
// the tile edge, then smoothing and erasing) on a 100 × 70 field (blocks cut at its edges)
TEST(PaintHistoryTest, UndoAndRedoAreBitExact) {
  auto field = Random(100, 70);
  const std::vector<StructureTexel> start = field->texels();
  PaintHistory history;
  Brush comb{.tool = BrushTool::kComb, .radius = 0.08, .hardness = 0.3};
  ASSERT_TRUE(history.BeginStroke(field));
  for (Real u = 0.9; u < 1.12; u += 0.02) history.Dab(comb, FieldDab{{u, 0.4}, 0.08, 0.3 + u});
  history.EndStroke();
  const std::vector<StructureTexel> first = field->texels();
  ASSERT_FALSE(SameTexels(*field, start));
  ASSERT_TRUE(history.BeginStroke(field));
  history.Dab({.tool = BrushTool::kSmooth, .radius = 0.2}, FieldDab{{0.5, 0.5}, 0.2});
  history.Dab({.tool = BrushTool::kErase, .radius = 0.1, .opacity = 0.6},
              FieldDab{{0.45, 0.05}, 0.1});
  history.EndStroke();
  const std::vector<StructureTexel> second = field->texels();
  EXPECT_EQ(history.undo_depth(), 2);

  const std::uint64_t revision = field->revision();
  PaintChange change = history.Undo();
  EXPECT_EQ(change.field, field);
  EXPECT_FALSE(change.bounds.empty());
  EXPECT_GT(field->revision(), revision);
  EXPECT_TRUE(SameTexels(*field, first));
  history.Undo();
  EXPECT_TRUE(SameTexels(*field, start));
  EXPECT_EQ(history.Undo().field, nullptr);  // nothing older
  history.Redo();
  EXPECT_TRUE(SameTexels(*field, first));
  history.Redo();
  EXPECT_TRUE(SameTexels(*field, second));
  EXPECT_EQ(history.Redo().field, nullptr);

  // a new stroke after an undo drops the redo list; a stroke that changed nothing (a comb dab
  // with no motion) is not kept; a field without texels cannot start one
  history.Undo();
  ASSERT_TRUE(history.BeginStroke(field));
  history.Dab({.tool = BrushTool::kErase, .radius = 0.1}, FieldDab{{0.2, 0.2}, 0.1});
  history.EndStroke();
  EXPECT_EQ(history.redo_depth(), 0);
  EXPECT_EQ(history.undo_depth(), 2);
  ASSERT_TRUE(history.BeginStroke(field));
  history.Dab(comb, FieldDab{{0.2, 0.2}, 0.1, std::nan("")});
  history.EndStroke();
  EXPECT_EQ(history.undo_depth(), 2);
  EXPECT_FALSE(history.BeginStroke(std::make_shared<StructureField>()));
  // a stroke whose field is gone is dropped on the way
  change = PaintChange{};
  field.reset();
  EXPECT_EQ(history.Undo().field, nullptr);
  EXPECT_EQ(history.undo_depth(), 0);
}


// limits: each stroke below writes inside one 32 × 32 block, 2 × 32² × 12 B = 24 KiB; with
// max_strokes = 2 the oldest of three goes, with 30000 B only the newest stays, with 20000 B
// (less than one stroke) none can be undone
TEST(PaintHistoryTest, KeepsTheNewestStrokesWithinItsLimits) {
  const std::size_t block_bytes = 2 * 32 * 32 * sizeof(StructureTexel);
  const auto three_strokes = [&](PaintHistory* history) {
    auto field = Uniform(128, 128, 0, 1);
    for (int i = 0; i < 3; ++i) {
      history->BeginStroke(field);
      const Vec2 center = field->TexelCenter(16 + 32 * i, 16);
      history->Dab({.tool = BrushTool::kErase, .radius = 0.05}, FieldDab{center, 0.05});
      history->EndStroke();
    }
    return field;
  };
  PaintHistory deep({.max_strokes = 2});
  auto kept = three_strokes(&deep);
  EXPECT_EQ(deep.undo_depth(), 2);
  EXPECT_EQ(deep.memory_bytes(), 2 * block_bytes);
  PaintHistory small({.max_bytes = 30000});
  kept = three_strokes(&small);
  EXPECT_EQ(small.undo_depth(), 1);
  PaintHistory tiny({.max_bytes = 20000});
  kept = three_strokes(&tiny);
  EXPECT_EQ(tiny.undo_depth(), 0);
  EXPECT_EQ(tiny.memory_bytes(), 0u);
}


// time per dab on a 1024² field over a 1 m tile at a 5 cm radius (51 texels, ~8200 texels
// written): each tool, and comb through the history; the studio paints one dab per frame, so a
// dab must stay far below a 60 Hz frame (16.7 ms). A dab writes only its disc's bounding box
TEST(PaintBrush, DabTimeOnA1024Field) {
  auto field = Uniform(1024, 1024, 0, 1);
  constexpr int kDabs = 200;
  const Real r = 0.05;
  for (const BrushTool tool : {BrushTool::kComb, BrushTool::kSetAngle, BrushTool::kSmooth,
                               BrushTool::kErase, BrushTool::kStrength}) {
    const Brush brush{.tool = tool, .radius = r, .opacity = 0.5, .strength = 0.5};
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kDabs; ++i) {
      const Vec2 center(0.1 + 0.004 * i, 0.3 + 0.002 * i);
      const TexelRect bounds = ApplyDab(field.get(), brush, FieldDab{center, r, 0.01 * i}).Bounds();
      EXPECT_LE(bounds.width, 103);  // 2·51.2 + 1 texel centres at most
      EXPECT_LE(bounds.height, 103);
    }
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count() /
        kDabs;
    std::printf("%-10s %8.1f us per dab (1024^2 field, 5 cm radius on a 1 m tile)\n",
                BrushToolName(tool), us);
    EXPECT_LT(us, 16.7e3);
  }
  PaintHistory history;
  history.BeginStroke(field);
  const auto start = std::chrono::steady_clock::now();
  const Brush comb{.tool = BrushTool::kComb, .radius = r};
  for (int i = 0; i < kDabs; ++i) {
    history.Dab(comb, FieldDab{Vec2(0.1 + 0.004 * i, 0.7), r, 0.02 * i});
  }
  history.EndStroke();
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      kDabs;
  std::printf("%-10s %8.1f us per dab with undo history (stroke of %d dabs, %.1f MiB kept)\n",
              "comb", us, kDabs, history.memory_bytes() / 1048576.0);
  EXPECT_LT(us, 16.7e3);
}

}  // namespace
}  // namespace sim
