// Loads in the studio (contact-studio under Xvfb with lavapipe): a slow scene opened while the
// default scene runs shows its progress bar with a value; a click on the Cancel button (QTest)
// ends the load as cancelled within moments, the status bar says so, the progress widgets hide
// and the default scene is still the one simulated, its time going on through the load and after.
#include <algorithm>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "render/png_io.h"
#include "tests/gui/studio_run.h"
#include "tests/support/run_command.h"
#include "tests/support/slow_scene.h"

namespace sim {
namespace {

using namespace studio_test;  // NOLINT: the helpers of these tests

TEST(StudioLoadTest, CancelStopsASlowLoadAndTheRunningSceneGoesOn) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path slow = test_support::WriteCubeScene(scratch, "slow.json");
  const fs::path loading_png = scratch / "loading.png";
  const fs::path after_png = scratch / "after.png";
  const RunResult run = RunCommand(
      XvfbRun("", Quote(kDefaultScene) + " --frames 120 --open-after " + Quote(slow.string()) +
                      " --cancel-load " + Quote(loading_png.string()) + " --screenshot " +
                      Quote(after_png.string()) + " --exit"),
      scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  std::cout << run.out;

  // the bar showed part of the load done while the SDF was being built, then Cancel was clicked
  const std::optional<double> percent = NumberAfter(run.out, "load progress: ");
  ASSERT_TRUE(percent) << RunReport(run);
  EXPECT_GT(*percent, 0) << RunReport(run);
  EXPECT_LT(*percent, 100) << RunReport(run);
  EXPECT_NE(run.out.find("(Loading slow.json: "), std::string::npos) << RunReport(run);

  // the load ended as cancelled, and the status bar says so
  EXPECT_NE(run.out.find("load: cancelled " + slow.string()), std::string::npos) << RunReport(run);
  EXPECT_NE(run.out.find("status: Load of slow.json cancelled"), std::string::npos)
      << RunReport(run);
  EXPECT_NE(run.err.find("contact-studio: load of " + slow.string() + " cancelled"),
            std::string::npos)
      << RunReport(run);
  // no diagnostics from the cut-short load, and the widgets are gone
  EXPECT_NE(run.out.find("diagnostics: 0 errors"), std::string::npos) << RunReport(run);
  EXPECT_NE(run.out.find("load widgets: hidden"), std::string::npos) << RunReport(run);

  // the default scene is still the one simulated, stepping during the load and after the cancel
  EXPECT_NE(run.out.find("scene: Boxes on a ground plane"), std::string::npos) << RunReport(run);
  EXPECT_NE(run.out.find(", running"), std::string::npos) << RunReport(run);
  const std::size_t cancel_line = run.out.find("load: cancelled ");
  ASSERT_NE(cancel_line, std::string::npos);
  const std::optional<double> opened_at =
      NumberAfter(run.out.substr(0, cancel_line), " at sim time ");
  const std::optional<double> cancelled_at =
      NumberAfter(run.out.substr(cancel_line), " at sim time ");
  const std::optional<double> final_time = NumberAfter(run.out, "sim: time ");
  ASSERT_TRUE(opened_at && cancelled_at && final_time) << RunReport(run);
  EXPECT_GT(*cancelled_at, *opened_at) << RunReport(run);
  EXPECT_GT(*final_time, *cancelled_at) << RunReport(run);

  // the loading screenshot shows the bar: its filled start differs clearly from its empty end
  // (the value is below 100 %); the final one shows no bar there
  int x = 0, y = 0, width = 0, height = 0;
  const std::size_t bar_at = run.out.find(") bar at ");
  ASSERT_NE(bar_at, std::string::npos) << RunReport(run);
  std::istringstream(run.out.substr(bar_at + 9)) >> x >> y >> width >> height;
  ASSERT_GT(width, 20);
  render::Image loading, after;
  std::string error;
  ASSERT_TRUE(render::ReadPng(loading_png.string(), &loading, &error)) << error;
  ASSERT_TRUE(render::ReadPng(after_png.string(), &after, &error)) << error;
  const int middle = y + height / 2;
  const int filled_x = x + width * std::max(1, static_cast<int>(*percent) / 4) / 100;
  const int empty_x = x + width * 97 / 100;
  const Rgb filled = MeanColor(loading, filled_x, middle, 1);
  const Rgb empty = MeanColor(loading, empty_x, middle, 1);
  EXPECT_GT(ColorDifference(filled, empty), kClearDifference)
      << "filled " << ToString(filled) << " empty " << ToString(empty);
  const Rgb filled_after = MeanColor(after, filled_x, middle, 1);
  EXPECT_GT(ColorDifference(filled, filled_after), kClearDifference)
      << "loading " << ToString(filled) << " after " << ToString(filled_after);
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace sim
