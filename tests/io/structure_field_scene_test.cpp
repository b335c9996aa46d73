// Structure fields in scene files (issue 18, docs/scene-format.md "Structure fields"): a PNG
// written here with libpng reads back as the procedural field it encodes (to 8-bit precision),
// fields reach every kind of surface, and every bad field is a located error, also through
// `contact-sim check`.
#include <png.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/model/model.h"
#include "tests/support/run_command.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

constexpr Real kPi = std::numbers::pi;

// a fresh folder for this test's scene and images
std::filesystem::path TestDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir =
      std::filesystem::path(SIM_BINARY_DIR) / "tests" / "structure_field" / info->name();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// writes a PNG with libpng: `channels` 1 (grey), 3 (RGB) or 4 (RGBA), `depth` 8 or 16 bits
void WritePngFile(const std::filesystem::path& path, int width, int height, int channels, int depth,
                  const std::vector<std::uint8_t>& samples) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  ASSERT_EQ(setjmp(png_jmpbuf(png)), 0);
  png_init_io(png, file);
  const int type = channels == 1   ? PNG_COLOR_TYPE_GRAY
                   : channels == 3 ? PNG_COLOR_TYPE_RGB
                                   : PNG_COLOR_TYPE_RGBA;
  png_set_IHDR(png, info, width, height, depth, type, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const std::size_t row = static_cast<std::size_t>(width) * channels * depth / 8;
  for (int y = 0; y < height; ++y) {
    png_write_row(png, const_cast<png_bytep>(samples.data() + y * row));
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  std::fclose(file);
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

// a scene with a ground plane carrying `field` (JSON text), on line 4
std::string GroundScene(const std::string& field) {
  return "{\n\"name\": \"t\",\n\"objects\": [\n"
         "{\"name\": \"ground\", \"type\": \"plane\", \"structure_field\": " +
         field + "}\n]}\n";
}

std::string LoadErrors(const std::filesystem::path& scene) {
  Expected<Scene> loaded = LoadScene(scene.string());
  EXPECT_FALSE(loaded.ok());
  return loaded.diagnostics().Format();
}

// a vortex field baked into a 32×32 RGB PNG (tile 2 × 2 m, centre (1, 1)), read back through a
// scene: at every texel centre the sampled axis is the procedural one within the 8-bit
// quantization (one step of 2/255 on cos 2θ and sin 2θ: ≤ 0.0056 rad on 2θ, ≤ 0.0028 rad on θ;
// 0.004 allowed) and the strength within half a step; between the centres of a uniform image
// bilinear filtering returns the same axis (equal texels interpolate to themselves)
TEST(StructureFieldScene, ImageEqualsTheProceduralFieldItEncodes) {
  const std::filesystem::path dir = TestDir();
  StructureField vortex;
  vortex.kind = StructureFieldKind::kVortex;
  vortex.procedural.center = {1, 1};
  vortex.procedural.strength = 0.8;
  vortex.tile_size = {2, 2};
  const int side = 32;
  // texel (column, row)'s centre in the field's coordinates (row 0 at the top: largest v)
  const auto center = [&](int column, int row) {
    return Vec2((column + 0.5) / side * 2, (side - row - 0.5) / side * 2);
  };
  std::vector<std::uint8_t> rgb(3 * side * side);
  for (int row = 0; row < side; ++row) {
    for (int column = 0; column < side; ++column) {
      const StructureSample s = vortex.SampleProcedural(center(column, row));
      const StructureTexel texel =
          TexelFromAxis(std::atan2(s.direction.y(), s.direction.x()), s.strength);
      EncodeStructureTexel(texel, &rgb[3 * (row * side + column)]);
    }
  }
  WritePngFile(dir / "vortex.png", side, side, 3, 8, rgb);
  WriteText(dir / "scene.json", GroundScene(R"({"image": "vortex.png", "tile_size": [2, 2]})"));
  Expected<Scene> scene = LoadScene((dir / "scene.json").string());
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const StructureField* field = ShapeStructureField(*scene->model, 0);
  ASSERT_NE(field, nullptr);
  EXPECT_EQ(field->kind, StructureFieldKind::kImage);
  EXPECT_EQ(field->width(), side);
  EXPECT_EQ(field->projection.kind, FieldProjection::kPlanar);  // a plane's default
  Real worst = 0;
  for (int row = 0; row < side; ++row) {
    for (int column = 0; column < side; ++column) {
      const Vec2 uv = center(column, row);
      EXPECT_EQ(uv, field->TexelCenter(column, row));
      const StructureSample read = field->Sample(uv);
      const StructureSample exact = vortex.SampleProcedural(uv);
      worst =
          std::max(worst, std::acos(std::min(1.0, std::abs(read.direction.dot(exact.direction)))));
      EXPECT_NEAR(read.strength, 0.8, 0.5 / 255 + 1e-6);
    }
  }
  EXPECT_LT(worst, 0.004);

  // a uniform 60° image: any point, texel centre or not, reads 60°
  std::vector<std::uint8_t> uniform(3 * 4 * 4);
  for (int i = 0; i < 16; ++i) EncodeStructureTexel(TexelFromAxis(kPi / 3, 1), &uniform[3 * i]);
  WritePngFile(dir / "uniform.png", 4, 4, 3, 8, uniform);
  WriteText(dir / "scene.json", GroundScene(R"({"image": "uniform.png"})"));
  Expected<Scene> flat = LoadScene((dir / "scene.json").string());
  ASSERT_TRUE(flat.ok()) << flat.diagnostics().Format();
  const StructureField& u = *ShapeStructureField(*flat->model, 0);
  for (const Vec2 uv : {Vec2(0.13, 0.71), Vec2(-3.3, 8.05), Vec2(0.5, 0.5)}) {
    const Vec2 d = u.Sample(uv).direction;
    EXPECT_NEAR(std::abs(std::atan2(d.y(), d.x()) - kPi / 3), 0, 0.004);
  }
}

// procedural fields and materials: every parameter read, fields on a compound's parts (its own
// and the object's), a tet mesh and a URDF-less box, the Matchstick coefficients
TEST(StructureFieldScene, ReadsProceduralFieldsAndCoefficients) {
  Expected<Scene> scene = ParseScene(R"({
    "name": "t",
    "materials": {"grain": {"friction": 0.4, "friction_major": 0.9, "friction_minor": 0.1}},
    "friction_pairs": [{"materials": ["grain", "default"], "friction": 0.3,
                        "friction_major": 0.5, "friction_minor": 0.2}],
    "objects": [
      {"name": "ground", "type": "plane", "material": "grain",
       "structure_field": {"procedural": "slalom", "angle_deg": 90, "center": [1, 2],
                           "wavelength": 3, "amplitude": 0.4, "strength": 0.5}},
      {"name": "box", "type": "box", "size": [1, 1, 1], "position": [0, 0, 2],
       "structure_field": {"procedural": "channel", "width": 2, "turn_deg": 30,
                           "projection": {"type": "planar", "axis": "-y", "origin": [0, 0, 1]}}},
      {"name": "ball", "type": "sphere", "radius": 0.3, "position": [3, 0, 1]},
      {"name": "table", "type": "compound", "position": [5, 0, 0],
       "structure_field": {"procedural": "uniform", "angle_deg": 45},
       "shapes": [{"type": "box", "size": [1, 1, 0.1]},
                  {"type": "cylinder", "radius": 0.1, "length": 1,
                   "structure_field": {"procedural": "vortex", "center": [0, 0]}}]}
    ]})",
                                     "s.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  ASSERT_EQ(model.structure_fields.size(), 4u);
  const StructureField& slalom = *ShapeStructureField(model, 0);
  EXPECT_EQ(slalom.kind, StructureFieldKind::kSlalom);
  EXPECT_NEAR(slalom.procedural.angle, kPi / 2, 1e-15);
  EXPECT_EQ(slalom.procedural.center, Vec2(1, 2));
  EXPECT_EQ(slalom.procedural.wavelength, 3);
  EXPECT_EQ(slalom.procedural.amplitude, 0.4);
  EXPECT_EQ(slalom.procedural.strength, 0.5);
  const StructureField& channel = *ShapeStructureField(model, 1);
  EXPECT_EQ(channel.projection.kind, FieldProjection::kPlanar);
  EXPECT_EQ(channel.projection.axis, -Vec3::UnitY());
  EXPECT_EQ(channel.projection.origin, Vec3(0, 0, 1));
  EXPECT_NEAR(channel.procedural.turn, kPi / 6, 1e-15);
  EXPECT_EQ(ShapeStructureField(model, 2), nullptr);  // the ball has none
  EXPECT_EQ(ShapeStructureField(model, 3)->kind, StructureFieldKind::kUniform);  // the object's
  EXPECT_EQ(ShapeStructureField(model, 4)->kind, StructureFieldKind::kVortex);   // its own
  EXPECT_EQ(ShapeStructureField(model, 4)->projection.kind, FieldProjection::kCylindrical);
  const PairFriction own = ContactFrictionAxes(model, 1, 1);
  EXPECT_EQ(own.major, 0.9);
  EXPECT_EQ(own.minor, 0.1);
  const PairFriction pair = ContactFrictionAxes(model, 0, 1);
  EXPECT_EQ(pair.iso, 0.3);
  EXPECT_EQ(pair.major, 0.5);
  EXPECT_EQ(pair.minor, 0.2);
}

// one bad field per case, each reported at its own line as `scene.json:LINE: error: ...`
TEST(StructureFieldScene, BadFieldsAreLocatedErrors) {
  const std::filesystem::path dir = TestDir();
  const auto check = [&](const std::string& field, const std::string& expected) {
    WriteText(dir / "scene.json", GroundScene(field));
    const std::string errors = LoadErrors(dir / "scene.json");
    EXPECT_THAT(errors, HasSubstr("scene.json:4: error: ")) << field;
    EXPECT_THAT(errors, HasSubstr(expected)) << field;
  };
  check(R"({"image": "missing.png"})",
        "object 'ground' 'structure_field' 'image' 'missing.png' does not exist");
  WriteText(dir / "text.png", "not a png");
  check(R"({"image": "text.png"})",
        "object 'ground' 'structure_field' 'image' 'text.png': not a PNG file");
  WritePngFile(dir / "grey.png", 2, 2, 1, 8, std::vector<std::uint8_t>(4, 128));
  check(R"({"image": "grey.png"})", "'grey.png' is 8-bit greyscale, expected 8-bit RGB or RGBA");
  WritePngFile(dir / "deep.png", 2, 2, 3, 16, std::vector<std::uint8_t>(24, 0));
  check(R"({"image": "deep.png"})", "'deep.png' is 16-bit RGB, expected 8-bit RGB or RGBA");
  WritePngFile(dir / "wide.png", 8193, 1, 3, 8, std::vector<std::uint8_t>(3 * 8193, 0));
  check(R"({"image": "wide.png"})",
        "'wide.png': the image is 8193x1 pixels, larger than 8192x8192");
  check(R"({"image": "../outside.png"})", "is outside the folders this scene may read");
  check(R"({"procedural": "spiral"})",
        "object 'ground' 'structure_field' 'procedural' is 'spiral', expected one of: uniform, "
        "radial, channel, slalom, vortex");
  // a non-finite number stops at the JSON layer; finite ones are checked for range
  check(R"({"procedural": "channel", "width": 1e999})", "invalid JSON: Number too big");
  check(R"({"procedural": "slalom", "amplitude": 1e300})",
        "object 'ground' 'structure_field' 'amplitude' is 1e+300, expected a value in [0, 1e+06]");
  check(R"({"procedural": "uniform", "strength": 1.5})",
        "'strength' is 1.5, expected a value in [0, 1]");
  check(R"({"procedural": "uniform", "projection": "uv"})",
        "'projection' is \"uv\", but the surface has no texture coordinates");
  check(R"({"procedural": "uniform", "image": "a.png"})", "gives both 'image' and 'procedural'");
  check(R"({"angle_deg": 3})", "needs 'image' (a PNG file) or 'procedural'");
  // materials: μ_minor above μ_major
  WriteText(dir / "scene.json", R"({"name": "t",
"materials": {"m": {"friction": 0.5,
  "friction_major": 0.3, "friction_minor": 0.4}},
"objects": [{"name": "ground", "type": "plane"}]})");
  EXPECT_THAT(LoadErrors(dir / "scene.json"),
              HasSubstr("scene.json:3: error: material 'm' has friction_minor 0.4 > "
                        "friction_major 0.3"));
}

// the same through the CLI a user runs: `contact-sim check` names the file and line, exits 1
TEST(StructureFieldScene, CheckCommandReportsBadImages) {
#ifndef SIM_HAVE_CLI
  GTEST_SKIP() << "contact-sim is not built in this configuration (SIM_BUILD_APP=OFF)";
#endif
  const std::filesystem::path dir = TestDir();
  WritePngFile(dir / "grey.png", 2, 2, 1, 8, std::vector<std::uint8_t>(4, 0));
  WriteText(dir / "scene.json", GroundScene(R"({"image": "grey.png"})"));
  const test_support::CommandResult r = test_support::RunCommand(
      std::string(SIM_BINARY_DIR) + "/bin/contact-sim check " + (dir / "scene.json").string(),
      (dir / "check.log").string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("scene.json:4: error: object 'ground' 'structure_field' "
                                  "'image' 'grey.png' is 8-bit greyscale"));
}

}  // namespace
}  // namespace sim::io
