// Smoke tests of the contact-studio executable under Xvfb: it renders the default scene and writes
// a screenshot in which every object and the ground are visible where the scene's camera puts them;
// a broken scene exits 1 with located diagnostics; a missing display or a missing Vulkan driver is
// explained instead of crashing. Skipped when xvfb-run is not installed.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/png_io.h"
#include "tests/gui/studio_run.h"
#include "tests/support/run_command.h"

namespace sim {
namespace {

using namespace studio_test;  // NOLINT: the helpers of these tests

Vec3 Translation(const VisualShape& shape) {
  return Vec3(shape.X_WS[3], shape.X_WS[7], shape.X_WS[11]);
}

double DistanceToSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (a + t * ab - p).norm();
}


TEST(StudioSmokeTest, ScreenshotShowsEverySceneObject) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path png = scratch / "studio.png";
  const RunResult run = RunCommand(XvfbRun("", Quote(kDefaultScene) + " --frames 60 --screenshot " +
                                                   Quote(png.string()) + " --exit"),
                                   scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  EXPECT_NE(run.out.find("screenshot: " + png.string()), std::string::npos) << RunReport(run);

  render::Image image;
  std::string error;
  std::map<std::string, std::string> text;
  ASSERT_TRUE(render::ReadPng(png.string(), &image, &error, &text)) << error;
  ASSERT_EQ(text.count("viewport"), 1u) << "no 'viewport' text chunk";
  int vx = 0, vy = 0, vw = 0, vh = 0;
  std::istringstream(text["viewport"]) >> vx >> vy >> vw >> vh;
  ASSERT_GT(vw, 100);
  ASSERT_GT(vh, 100);
  ASSERT_LE(vx + vw, image.width);
  ASSERT_LE(vy + vh, image.height);

  // the picture is not one flat colour
  std::set<std::uint32_t> colors;
  for (std::size_t i = 0; i + 3 < image.rgba.size() && colors.size() < 64; i += 4 * 97) {
    colors.insert(image.rgba[i] | image.rgba[i + 1] << 8 | image.rgba[i + 2] << 16);
  }
  EXPECT_GE(colors.size(), 16u) << "the screenshot is (nearly) uniform";

  // sky: near the top of the viewport, right of the ImGui stats box at the top-left
  const Rgb sky = MeanColor(image, vx + vw * 3 / 4, vy + 12, 3);

  // the camera the studio starts with: the scene's own, exactly
  Expected<io::Scene> scene = io::LoadScene(kDefaultScene);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  const OrbitCamera camera(model.camera, model.options.up);
  const VisualFrame frame = MakeVisualFrame(model, scene->initial_state);

  // every object's centre is drawn in something other than sky
  int objects = 0;
  const ShapeGeometry* plane = nullptr;
  int plane_index = -1;
  for (int s = 0; s < model.shape_count(); ++s) {
    if (model.shape_geometry[s].type == ShapeType::kPlane) {
      plane = &model.shape_geometry[s];
      plane_index = s;
      continue;
    }
    const std::optional<Eigen::Vector2f> pixel =
        camera.ProjectToPixel(Translation(frame.shapes[s]), vw, vh);
    ASSERT_TRUE(pixel.has_value()) << model.shape_name[s] << " is behind the camera";
    const int x = vx + static_cast<int>(pixel->x());
    const int y = vy + static_cast<int>(pixel->y());
    ASSERT_TRUE(x >= vx && x < vx + vw && y >= vy && y < vy + vh)
        << model.shape_name[s] << " projects outside the viewport at " << x << ", " << y;
    const Rgb color = MeanColor(image, x, y, 1);
    std::cout << model.shape_name[s] << " at (" << x << ", " << y << "): " << ToString(color)
              << "\n";
    EXPECT_GT(ColorDifference(color, sky), kClearDifference)
        << model.shape_name[s] << " at pixel (" << x << ", " << y << ") is " << ToString(color)
        << ", sky is " << ToString(sky);
    ++objects;
  }
  EXPECT_GT(objects, 0);

  // the ground: the point of the plane nearest the viewport centre that is clear of every object
  // (and whose line of sight is clear), drawn in something other than sky too
  ASSERT_NE(plane, nullptr) << "the default scene has a ground plane";
  const VisualShape& ground = frame.shapes[plane_index];
  const Vec3 origin = Translation(ground);
  const Vec3 u(ground.X_WS[0], ground.X_WS[4], ground.X_WS[8]);
  const Vec3 v(ground.X_WS[1], ground.X_WS[5], ground.X_WS[9]);
  const Vec3 eye = camera.Eye().cast<double>();
  // stay clear of the stats box (top-left) and of the viewport's edges
  const double margin = 0.1 * std::min(vw, vh);
  std::optional<Eigen::Vector2f> best;
  double best_distance = std::numeric_limits<double>::max();
  // candidates at grid-cell centres, so the sample sees the plane's own shade and not a grid or
  // axis line (lines lie on multiples of the cell size, axes on the plane's local x and y axes)
  const double cell = ground.size[1];
  ASSERT_GT(cell, 0.0);
  const int cells = static_cast<int>(std::ceil(10.0 / cell));
  for (int i = -cells; i < cells; ++i) {
    for (int j = -cells; j < cells; ++j) {
      const double a = (i + 0.5) * cell;
      const double b = (j + 0.5) * cell;
      const Vec3 p = origin + a * u + b * v;
      bool clear = true;
      for (int s = 0; s < model.shape_count() && clear; ++s) {
        if (s == plane_index) continue;
        const Vec3 c = Translation(frame.shapes[s]);
        // 0.3 m of free ground around the point, and nothing between it and the eye
        const double r = BoundingRadius(model.shape_geometry[s]);
        clear = (p - c).norm() > r + 0.3 && DistanceToSegment(c, eye, p) > r + 0.05;
      }
      const std::optional<Eigen::Vector2f> pixel = camera.ProjectToPixel(p, vw, vh);
      if (!clear || !pixel || pixel->x() < margin || pixel->x() > vw - margin ||
          pixel->y() < vh * 0.4 || pixel->y() > vh - margin) {
        continue;
      }
      const double d = std::hypot(pixel->x() - vw / 2.0, pixel->y() - vh / 2.0);
      if (d < best_distance) {
        best_distance = d;
        best = pixel;
      }
    }
  }
  ASSERT_TRUE(best.has_value()) << "no visible ground point clear of the objects";
  const int gx = vx + static_cast<int>(best->x());
  const int gy = vy + static_cast<int>(best->y());
  const Rgb ground_color = MeanColor(image, gx, gy, 2);
  std::cout << "sky: " << ToString(sky) << ", ground at (" << gx << ", " << gy
            << "): " << ToString(ground_color) << std::endl;
  EXPECT_GT(ColorDifference(ground_color, sky), kClearDifference)
      << "ground at pixel (" << gx << ", " << gy << ") is " << ToString(ground_color) << ", sky is "
      << ToString(sky);
  fs::remove_all(scratch);
}


TEST(StudioSmokeTest, F1ShowsEveryKeyAndMouseAction) {
  // the keys panel lists the shortcut table the actions bind from (18 entries), the 7 mouse
  // gestures and the default mapping's teleop keys; it takes room from the viewport when shown
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path shot = scratch / "help.png";
  const RunResult run =
      RunCommand(XvfbRun("", Quote(kDefaultScene) + " --keys F1 --frames 12 --screenshot " +
                                 Quote(shot.string()) + " --exit"),
                 scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  const std::optional<double> rows = NumberAfter(run.out, "help: visible, ");
  ASSERT_TRUE(rows) << RunReport(run);
  EXPECT_GE(*rows, 18 + 7 + 20) << RunReport(run);
  render::Image image;
  Viewport view;
  ASSERT_TRUE(ReadScreenshot(shot, &image, &view));
  // the panel sits right of the viewport (default window 1280 wide, scene dock 400)
  EXPECT_LT(view.x + view.width, image.width - 300);
  fs::remove_all(scratch);
}


// every panel open at 1280 × 800: the right side's panels are tabs of one dock (at most 30 % of
// the window) and the scene dock at most 24 %, so the viewport keeps about half of the width
// (it was 350 px with the panels side by side)
TEST(StudioSmokeTest, EveryPanelOpenLeavesTheViewportHalfTheWindow) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path shot = scratch / "panels.png";
  const RunResult run = RunCommand(
      XvfbRun("", Quote(kDefaultScene) +
                      " --size 1280x800 --panels scene,solver,convergence,statistics,inspector,"
                      "paint,teleop,help --frames 12 --screenshot " +
                      Quote(shot.string()) + " --exit"),
      scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  render::Image image;
  Viewport view;
  ASSERT_TRUE(ReadScreenshot(shot, &image, &view));
  EXPECT_EQ(image.width, 1280);
  EXPECT_GE(view.width, 560) << "the panels leave the viewport " << view.width << " px";
  fs::remove_all(scratch);
}


TEST(StudioSmokeTest, BrokenSceneExitsOneWithLocatedDiagnostics) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path broken = scratch / "broken.json";
  // a missing comma after "box" on line 4
  std::ofstream(broken) << "{\n"
                           "  \"name\": \"broken\",\n"
                           "  \"objects\": [\n"
                           "    {\"name\": \"crate\", \"type\": \"box\" \"size\": [1, 1, 1]}\n"
                           "  ]\n"
                           "}\n";
  // the loader's own first diagnostic is what the studio must print
  const Expected<io::Scene> expected = io::LoadScene(broken.string());
  ASSERT_FALSE(expected.ok());
  ASSERT_FALSE(expected.diagnostics().items().empty());
  const Diagnostic& first = expected.diagnostics().items().front();
  ASSERT_GT(first.line, 0);

  const RunResult run =
      RunCommand(XvfbRun("", Quote(broken.string()) + " --frames 5 --exit"), scratch);
  EXPECT_EQ(run.exit_code, 1) << RunReport(run);
  EXPECT_NE(run.err.find(":" + std::to_string(first.line) + ": error:"), std::string::npos)
      << RunReport(run);
  EXPECT_NE(run.err.find(first.Format()), std::string::npos) << RunReport(run);
  fs::remove_all(scratch);
}


TEST(StudioSmokeTest, NoDisplayIsExplained) {
  const fs::path scratch = ScratchDir();
  const std::string env = "env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM ";
  const RunResult run = RunCommand(env + Quote(kStudio) + " " + Quote(kDefaultScene), scratch);
  EXPECT_EQ(run.exit_code, 2) << RunReport(run);
  EXPECT_NE(run.err.find("no display"), std::string::npos) << RunReport(run);
  EXPECT_NE(run.err.find("contact-sim render"), std::string::npos) << RunReport(run);

  // --help still works without a display
  const RunResult help = RunCommand(env + Quote(kStudio) + " --help", scratch);
  EXPECT_EQ(help.exit_code, 0) << RunReport(help);
  EXPECT_NE(help.out.find("--screenshot"), std::string::npos) << RunReport(help);
  fs::remove_all(scratch);
}


TEST(StudioSmokeTest, MissingVulkanDriverIsExplained) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  // point the loader at a driver manifest that does not exist: no ICD, no device
  const RunResult run = RunCommand(XvfbRun("VK_ICD_FILENAMES=/nonexistent/icd.json "
                                           "VK_DRIVER_FILES=/nonexistent/icd.json",
                                           Quote(kDefaultScene) + " --frames 5 --exit"),
                                   scratch);
  EXPECT_EQ(run.exit_code, 1) << RunReport(run);
  EXPECT_NE(run.err.find("Vulkan is not available"), std::string::npos) << RunReport(run);
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace sim
