// The import dialog in the studio (contact-studio under Xvfb with lavapipe): the shared Y-up
// armadillo opened through the dialog (--import presets: total mass 2 kg, up +Y, Import clicked
// with QTest) stands upright on the ground in the screenshot, taller than wide, where the same
// mesh imported as the file has it (up +Z) lies on its back, wider than tall; dropped on the
// window (--drop: a drag-enter and a drop event with the file's URL through the window's drop
// handling) it opens the dialog, whose Save as Scene writes a scene the studio then opens from
// that file and `contact-sim check` accepts; an unsupported file dropped is an error in the
// status bar and the running scene stays.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "render/png_io.h"
#include "tests/gui/studio_run.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim {
namespace {

using namespace studio_test;  // NOLINT: the helpers of these tests

const std::string kArmadillo = test_support::SharedDataDir() + "/tetmesh/armadillo_4k.node";
const std::string kSim = std::string(SIM_BINARY_DIR) + "/bin/contact-sim";
// the import's presets of these tests: 2 kg, 30 cm tall, 1 MPa (at the default 0.1 MPa the
// armadillo lying on its back runs away in the solve within 0.3 s), the file's Y up
const std::string kMaterial = "mass=2,scale=0.1,youngs_modulus=1e6";
const std::string kUpright = kMaterial + ",up=y";

// the pixel box of the imported object in a screenshot's viewport: its default material is a
// warm clay (red well above blue, green between them) against the grey ground and the sky
struct PixelBox {
  int left = 1 << 30, top = 1 << 30, right = -1, bottom = -1, count = 0;
  int width() const { return right - left + 1; }
  int height() const { return bottom - top + 1; }
};

PixelBox ClayBox(const fs::path& png) {
  render::Image image;
  Viewport viewport;
  PixelBox box;
  if (!ReadScreenshot(png, &image, &viewport)) return box;
  for (int y = viewport.y; y < viewport.y + viewport.height; ++y) {
    for (int x = viewport.x; x < viewport.x + viewport.width; ++x) {
      const std::uint8_t* p = &image.rgba[4 * (static_cast<std::size_t>(y) * image.width + x)];
      // lit clay keeps green between blue and red; the red x axis on the ground has little green
      if (p[0] < p[2] + 40 || p[0] < 60 || p[1] < p[2] + 12 || 2 * p[1] < p[0]) continue;
      box.left = std::min(box.left, x);
      box.right = std::max(box.right, x);
      box.top = std::min(box.top, y);
      box.bottom = std::max(box.bottom, y);
      ++box.count;
    }
  }
  return box;
}

std::string Describe(const PixelBox& box) {
  return std::to_string(box.width()) + " x " + std::to_string(box.height()) + " px, " +
         std::to_string(box.count) + " pixels";
}


TEST(StudioImportTest, AYUpArmadilloImportedWithUpYStandsUprightOnTheGround) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  SIM_REQUIRE_SHARED_DATA(kArmadillo);
  const fs::path scratch = ScratchDir();
  PixelBox boxes[2];
  const std::string ups[2] = {"y", "z"};
  for (int k = 0; k < 2; ++k) {
    const fs::path png = scratch / ("armadillo_up_" + ups[k] + ".png");
    const RunResult run = RunCommand(
        XvfbRun("", Quote(kArmadillo) + " --import " + Quote(kMaterial + ",up=" + ups[k]) +
                        " --frames 20 --screenshot " + Quote(png.string()) + " --exit"),
        scratch);
    ASSERT_EQ(run.exit_code, 0) << RunReport(run);
    // the dialog showed the mass asked for, and Import loaded the armadillo alone
    EXPECT_NE(run.out.find("import dialog: Mass: 2 kg"), std::string::npos) << RunReport(run);
    EXPECT_NE(run.out.find("scene: armadillo_4k"), std::string::npos) << RunReport(run);
    EXPECT_NE(run.out.find("diagnostics: 0 errors"), std::string::npos) << RunReport(run);
    // on the ground after the frames: its nodes' mean near half its height (0.30 m upright,
    // 0.23 m on its back), neither fallen through nor flying off
    ASSERT_NE(run.out.find("soft armadillo_4k "), std::string::npos) << RunReport(run);
    std::istringstream centre(run.out.substr(run.out.find("soft armadillo_4k ") + 18));
    double cx = 0, cy = 0, cz = 0;
    centre >> cx >> cy >> cz;
    EXPECT_GT(cz, 0.05) << RunReport(run);
    EXPECT_LT(cz, 0.25) << RunReport(run);
    boxes[k] = ClayBox(png);
    ASSERT_GT(boxes[k].count, 2000) << png << ": " << Describe(boxes[k]);
  }
  std::cout << "up +Y: " << Describe(boxes[0]) << "; up +Z: " << Describe(boxes[1]) << std::endl;
  // upright: taller than wide; as in the file, on its back: squatter by far (1.31 against 0.89
  // when measured)
  EXPECT_GT(boxes[0].height(), boxes[0].width()) << "up +Y: " << Describe(boxes[0]);
  const double upright = static_cast<double>(boxes[0].height()) / boxes[0].width();
  const double lying = static_cast<double>(boxes[1].height()) / boxes[1].width();
  EXPECT_GT(upright, 1.2 * lying) << "up +Z: " << Describe(boxes[1]);
  fs::remove_all(scratch);
}


TEST(StudioImportTest, ADroppedMeshSavedAsASceneReopensFromItAndPassesCheck) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  SIM_REQUIRE_SHARED_DATA(kArmadillo);
  const fs::path scratch = ScratchDir();
  const fs::path scene = scratch / "armadillo.json";
  const fs::path png = scratch / "dropped.png";
  // the saved scene names the shared data outside its folder: allowed as a user would allow it
  const std::string roots = "CONTACT_STUDIO_FILE_ROOTS=" + Quote(test_support::SharedDataDir());
  const RunResult run =
      RunCommand(XvfbRun(roots, Quote(kDefaultScene) + " --drop " + Quote(kArmadillo) +
                                    " --import " + Quote(kUpright + ",save=" + scene.string()) +
                                    " --frames 40 --screenshot " + Quote(png.string()) + " --exit"),
                 scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  EXPECT_NE(run.out.find("drop: " + kArmadillo + " accepted"), std::string::npos) << RunReport(run);
  EXPECT_NE(run.out.find("import dialog: Mass: 2 kg"), std::string::npos) << RunReport(run);
  EXPECT_EQ(run.out.find("import error:"), std::string::npos) << RunReport(run);
  // the studio opened the saved file, which holds the armadillo in place of the default scene
  EXPECT_NE(run.out.find("load: ok " + scene.string()), std::string::npos) << RunReport(run);
  EXPECT_NE(run.out.find("scene: armadillo_4k"), std::string::npos) << RunReport(run);
  EXPECT_EQ(run.out.find("shape crate"), std::string::npos) << RunReport(run);
  ASSERT_TRUE(fs::exists(scene));
  const PixelBox box = ClayBox(png);
  EXPECT_GT(box.count, 2000) << Describe(box);
  EXPECT_GT(box.height(), box.width()) << Describe(box);

  // contact-sim check accepts the saved scene, with its soft body
  const test_support::CommandResult check = test_support::RunCommand(
      "env " + roots + " " + Quote(kSim) + " check " + Quote(scene.string()),
      (scratch / "check.log").string());
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("scene"), std::string::npos) << check.output;
  fs::remove_all(scratch);
}


TEST(StudioImportTest, AnUnsupportedDropIsAnErrorInTheStatusBarAndTheSceneStays) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path notes = scratch / "notes.txt";
  std::ofstream(notes) << "not a scene\n";
  const RunResult run = RunCommand(XvfbRun("", Quote(kDefaultScene) + " --drop " +
                                                   Quote(notes.string()) + " --frames 20 --exit"),
                                   scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  EXPECT_NE(run.out.find("drop: " + notes.string() +
                         " accepted, status: Cannot open notes.txt: "
                         "not a scene (.json), a URDF robot or a mesh"),
            std::string::npos)
      << RunReport(run);
  EXPECT_NE(run.err.find("contact-studio: error: Cannot open notes.txt"), std::string::npos)
      << RunReport(run);
  // no dialog, no load: the default scene runs on
  EXPECT_EQ(run.out.find("import dialog:"), std::string::npos) << RunReport(run);
  EXPECT_EQ(run.out.find("load: "), std::string::npos) << RunReport(run);
  EXPECT_NE(run.out.find("scene: Boxes on a ground plane"), std::string::npos) << RunReport(run);
  EXPECT_NE(run.out.find(", running"), std::string::npos) << RunReport(run);
  fs::remove_all(scratch);
}


TEST(StudioImportTest, BadImportPresetsAreAUsageError) {
  const fs::path scratch = ScratchDir();
  // the command line is checked before the display is needed
  const RunResult run =
      RunCommand("env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM " + Quote(kStudio) + " " +
                     Quote(kArmadillo) + " --import 'up=w,scale=0,colour=red'",
                 scratch);
  EXPECT_EQ(run.exit_code, 2) << RunReport(run);
  EXPECT_NE(run.err.find("contact-studio: error: --import: 'up=w': up expects z, y, x"),
            std::string::npos)
      << RunReport(run);
  EXPECT_NE(run.err.find("'scale=0': scale expects a number in [1e-06, 1e+06]"), std::string::npos)
      << RunReport(run);
  EXPECT_NE(run.err.find("'colour': unknown key"), std::string::npos) << RunReport(run);
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace sim
