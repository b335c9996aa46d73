// Saving painted structure fields (engine/io/structure_field_save.h): the PNG beside the scene and
// the scene's field value pointing at it, on a copy of the shipped sliding_boxes.json; loading
// the scene again gives the painted texels within the 8-bit quantization, the rest of the file
// is byte for byte what it was, and every failure is a located error that leaves the scene whole.
#include "engine/io/structure_field_save.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/edit/structure_paint.h"
#include "engine/io/json_document.h"
#include "engine/io/scene_file.h"

namespace sim::io {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// 8-bit quantization (structure_field_save.h): each of cos 2θ, sin 2θ within 1/255, so the axis
// within asin(√2/255)/2 = 0.0028 rad; w within 1/510 (float round-off on top)
constexpr Real kChannelStep = 1.0 / 255 + 1e-6;
constexpr Real kAxisBound = 0.0028;
constexpr Real kStrengthStep = 0.5 / 255 + 1e-6;

// a fresh folder for this test's files
fs::path TestDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = fs::path(SIM_BINARY_DIR) / "tests" / "structure_field_save" / info->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// the field of shape `shape` in a loaded scene (the model is shared; its fields are paintable)
std::shared_ptr<StructureField> FieldOf(const Scene& scene, int shape) {
  return scene.model->structure_fields[scene.model->shape_structure_field[shape]];
}


// paint the channel pad of sliding_boxes (object 1, shape 1), save, reload: the texels come back
// within the quantization, the tile and projection exactly, the other fields as they were, and
// the file differs only in the value of /objects/1/structure_field
TEST(StructureFieldSave, ReloadReproducesThePaintedField) {
  const fs::path dir = TestDir();
  const fs::path scene_path = dir / "sliding_boxes.json";
  fs::copy_file(fs::path(SIM_SOURCE_DIR) / "scenes" / "sliding_boxes.json", scene_path);
  const std::string original = ReadFile(scene_path);
  Expected<Scene> scene = LoadScene(scene_path.string());
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const std::shared_ptr<StructureField> pad = FieldOf(scene.value(), 1);
  EXPECT_EQ(pad->scene_pointer, "/objects/1/structure_field");
  ASSERT_TRUE(BakeForPainting(*scene->model, scene->model->shape_structure_field[1], Vec2::Zero()));
  ApplyDab(pad.get(), {.tool = BrushTool::kSetAngle, .radius = 0.4, .angle = 1.1, .strength = 0.6},
           FieldDab{{1, 0.3}, 0.4, 1.1});
  ApplyDab(pad.get(), {.tool = BrushTool::kErase, .radius = 0.3}, FieldDab{{-2, -0.5}, 0.3});

  Expected<std::string> saved = SaveStructureField(*pad, scene_path.string());
  ASSERT_TRUE(saved.ok()) << saved.diagnostics().Format();
  EXPECT_EQ(fs::path(saved.value()), dir / "sliding_boxes_objects_1_structure_field.png");
  EXPECT_TRUE(fs::is_regular_file(saved.value()));
  EXPECT_FALSE(fs::exists(saved.value() + ".saving"));
  // every byte outside the field's old value is as it was; the value is the new reference
  const std::string text = ReadFile(scene_path);
  const Expected<JsonValue> before = ParseJson(original, "before");
  const JsonValue& old_value = *before->AtPointer("/objects/1/structure_field");
  const std::string tail = original.substr(old_value.end_offset());
  EXPECT_EQ(text.substr(0, old_value.begin_offset()), original.substr(0, old_value.begin_offset()));
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
  const Expected<JsonValue> after = ParseJson(text, "after");
  ASSERT_TRUE(after.ok()) << after.diagnostics().Format();
  const JsonValue& value = *after->AtPointer("/objects/1/structure_field");
  EXPECT_EQ(value.Find("image")->string(), "sliding_boxes_objects_1_structure_field.png");
  EXPECT_EQ(value.Find("procedural"), nullptr);
  EXPECT_EQ(value.Find("width"), nullptr);

  Expected<Scene> reloaded = LoadScene(scene_path.string());
  ASSERT_TRUE(reloaded.ok()) << reloaded.diagnostics().Format();
  const std::shared_ptr<StructureField> read = FieldOf(reloaded.value(), 1);
  EXPECT_EQ(read->kind, StructureFieldKind::kImage);
  ASSERT_EQ(read->width(), pad->width());
  ASSERT_EQ(read->height(), pad->height());
  EXPECT_EQ(read->tile_size, pad->tile_size);
  EXPECT_EQ(read->projection.kind, pad->projection.kind);
  EXPECT_EQ(read->projection.axis, pad->projection.axis);
  Real worst_axis = 0;
  for (std::size_t i = 0; i < read->texels().size(); ++i) {
    const StructureTexel& a = pad->texels()[i];
    const StructureTexel& b = read->texels()[i];
    ASSERT_NEAR(a.cos2, b.cos2, kChannelStep) << i;
    ASSERT_NEAR(a.sin2, b.sin2, kChannelStep) << i;
    ASSERT_NEAR(a.strength, b.strength, kStrengthStep) << i;
    const Real turn = std::remainder(std::atan2(a.sin2, a.cos2) - std::atan2(b.sin2, b.cos2),
                                     2 * std::numbers::pi);
    worst_axis = std::max(worst_axis, 0.5 * std::abs(turn));
  }
  EXPECT_LT(worst_axis, kAxisBound);
  // the painted spots read as painted: axis 1.1 strength 0.6, and erased
  EXPECT_NEAR(read->Sample({1, 0.3}).strength, 0.6, kStrengthStep);
  EXPECT_EQ(read->Sample({-2, -0.5}).strength, 0);
  // the other pads keep their procedural fields
  EXPECT_EQ(FieldOf(reloaded.value(), 2)->kind, StructureFieldKind::kRadial);
  EXPECT_EQ(FieldOf(reloaded.value(), 3)->kind, StructureFieldKind::kSlalom);

  // painted again and saved again: back into the same image, the value rewritten once more
  ApplyDab(read.get(), {.tool = BrushTool::kStrength, .radius = 0.2, .strength = 0.2},
           FieldDab{{3, 0}, 0.2});
  saved = SaveStructureField(*read, scene_path.string());
  ASSERT_TRUE(saved.ok()) << saved.diagnostics().Format();
  EXPECT_EQ(fs::path(saved.value()), dir / "sliding_boxes_objects_1_structure_field.png");
  Expected<Scene> third = LoadScene(scene_path.string());
  ASSERT_TRUE(third.ok()) << third.diagnostics().Format();
  EXPECT_NEAR(FieldOf(third.value(), 1)->Sample({3, 0}).strength, 0.2, kStrengthStep);
}


// the new value keeps the projection's own text and the old value's layout: one line stays one
// line; over several lines, members at the first member's indentation, '}' at the old one's.
// An image's "strength" goes (it is in the saved B channel), so reloading does not apply it twice
TEST(StructureFieldSave, NewValueKeepsProjectionTextAndLayout) {
  const fs::path dir = TestDir();
  const std::string scene = R"({"name": "t", // a comment that stays
"objects": [
  {"name": "ground", "type": "plane", "structure_field": {"procedural": "uniform", "strength": 0.5}},
  {"name": "deck", "type": "box", "size": [2, 1, 0.1], "position": [0, 0, 3],
   "structure_field": {
     "procedural": "vortex",
     "projection": {"type": "planar",
                    "axis": "-y"}
   }
  }
]}
)";
  WriteFile(dir / "t.json", scene);
  Expected<Scene> loaded = LoadScene((dir / "t.json").string());
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().Format();
  for (int shape : {0, 1}) {
    const int field = loaded->model->shape_structure_field[shape];
    ASSERT_TRUE(BakeForPainting(*loaded->model, field, Vec2::Zero()));
    ASSERT_TRUE(
        SaveStructureField(*FieldOf(loaded.value(), shape), (dir / "t.json").string()).ok());
  }
  const auto number = [](Real x) {
    std::ostringstream out;
    out.precision(17);
    out << x;
    return out.str();
  };
  const Vec2 ground_tile = FieldOf(loaded.value(), 0)->tile_size;
  const Vec2 deck_tile = FieldOf(loaded.value(), 1)->tile_size;
  const std::string text = ReadFile(dir / "t.json");
  EXPECT_THAT(text, HasSubstr(R"("structure_field": {"image": "t_objects_0_structure_field.png", )"
                              R"("tile_size": [)"));
  EXPECT_THAT(text, HasSubstr("\"deck\", \"type\": \"box\", \"size\": [2, 1, 0.1], \"position\": "
                              "[0, 0, 3],\n   \"structure_field\": {\n"
                              "     \"image\": \"t_objects_1_structure_field.png\",\n"
                              "     \"projection\": {\"type\": \"planar\",\n"
                              "                    \"axis\": \"-y\"},\n"
                              "     \"tile_size\": ["));
  EXPECT_THAT(text, HasSubstr("]\n   }\n  }\n]}\n"));
  EXPECT_THAT(text, HasSubstr("// a comment that stays"));
  Expected<Scene> reloaded = LoadScene((dir / "t.json").string());
  ASSERT_TRUE(reloaded.ok()) << reloaded.diagnostics().Format();
  EXPECT_TRUE(reloaded.diagnostics().empty()) << reloaded.diagnostics().Format();
  // the tiles exactly (shortest round-trip decimals), the deck's projection as it was written
  EXPECT_EQ(FieldOf(reloaded.value(), 0)->tile_size, ground_tile) << number(ground_tile.x());
  EXPECT_EQ(FieldOf(reloaded.value(), 1)->tile_size, deck_tile) << number(deck_tile.x());
  EXPECT_EQ(FieldOf(reloaded.value(), 1)->projection.axis, -Vec3::UnitY());
  // the ground's strength 0.5 is in its texels once, not scaled again on loading
  EXPECT_NEAR(FieldOf(reloaded.value(), 0)->Sample({0.2, 0.3}).strength, 0.5, kStrengthStep);
}


// failures: located errors naming the file, and the scene byte for byte as it was
TEST(StructureFieldSave, FailuresAreLocatedAndLeaveTheSceneWhole) {
  const fs::path dir = TestDir();
  const std::string scene =
      "{\"name\": \"t\", \"objects\": [\n"
      "{\"name\": \"ground\", \"type\": \"plane\",\n"
      " \"structure_field\": {\"procedural\": \"radial\"}}]}\n";
  const fs::path path = dir / "scene.json";
  WriteFile(path, scene);
  Expected<Scene> loaded = LoadScene(path.string());
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().Format();
  const std::shared_ptr<StructureField> field = FieldOf(loaded.value(), 0);
  const auto error = [&](const StructureField& f, const std::string& image = "") {
    const Expected<std::string> saved = SaveStructureField(f, path.string(), image);
    EXPECT_FALSE(saved.ok());
    EXPECT_EQ(ReadFile(path), scene);
    return saved.diagnostics().Format();
  };
  EXPECT_THAT(error(*field), HasSubstr("scene.json: error: the structure field has no texels to "
                                       "save (paint or bake it first) (at "
                                       "/objects/0/structure_field)"));
  ASSERT_TRUE(BakeForPainting(*loaded->model, 0, Vec2::Zero()));
  StructureField built = *field;
  built.scene_pointer.clear();
  EXPECT_THAT(error(built), HasSubstr("the structure field was not read from a scene"));
  EXPECT_THAT(error(*field, "../outside.png"),
              HasSubstr("scene.json:3: error: the structure field's image '../outside.png' must be "
                        "a .png path inside the scene's folder"));
  EXPECT_THAT(error(*field, "grain.jpg"), HasSubstr("must be a .png path"));
  // the image cannot be written (a folder is in the way): named, and the scene untouched
  fs::create_directories(dir / "blocked.png");
  EXPECT_THAT(error(*field, "blocked.png"), HasSubstr("blocked.png: error: "));
  // the scene changed under the field: no structure field at its pointer any more
  const std::string edited =
      "{\"name\": \"t\", \"objects\": [\n{\"name\": \"ground\", "
      "\"type\": \"plane\"}]}\n";
  WriteFile(path, edited);
  const Expected<std::string> stale = SaveStructureField(*field, path.string());
  ASSERT_FALSE(stale.ok());
  EXPECT_THAT(stale.diagnostics().Format(),
              HasSubstr("scene.json: error: the scene has no structure field at "
                        "/objects/0/structure_field any more"));
  EXPECT_EQ(ReadFile(path), edited);
  // an unreadable scene is the loader's error
  EXPECT_FALSE(SaveStructureField(*field, (dir / "missing.json").string()).ok());
}

}  // namespace
}  // namespace sim::io
