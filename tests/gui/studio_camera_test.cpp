// The studio's camera follows a body (contact-studio under Xvfb with lavapipe): on the 30° incline
// the box slides without end (a = 2.36 m/s²: 10 m in 3 s); with `--follow box` every screenshot
// along the slide shows it, without, it has left the view by t = 3 s. The box is found by its warm
// colour (material 0.78, 0.55, 0.32), which nothing else in the scene has: the incline is grey
// and the sky blue.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "render/png_io.h"
#include "tests/gui/studio_run.h"
#include "tests/support/run_command.h"

namespace sim {
namespace {

using namespace studio_test;  // NOLINT: the helpers of these tests

const std::string kIncline = std::string(SIM_SOURCE_DIR) + "/scenes/validation/incline.json";
// the box seen whole at the scene's distance covers ~1500 px of the 1280×800 window; a sliver at
// the border a few dozen
constexpr int kBoxVisiblePixels = 300;
// the slide long enough that, unfollowed, the box is out of the scene's view (≈ 4 m high there)
constexpr double kLongSlideSeconds = 3.0;

// viewport pixels of the box's warm colour (red above blue by 40 levels, green by 15, not dark)
// whose 8 neighbours are warm too: the box is a blob of ~1500 such pixels, where the red and green
// axis lines cross their blend makes a few warm pixels in a line one or two pixels wide
int BoxPixels(const fs::path& png) {
  render::Image image;
  Viewport viewport;
  if (!ReadScreenshot(png, &image, &viewport)) return -1;
  const int x0 = viewport.x, y0 = viewport.y;
  const int width = std::min(viewport.width, image.width - x0);
  const int height = std::min(viewport.height, image.height - y0);
  std::vector<char> warm(static_cast<std::size_t>(width) * height, 0);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const std::uint8_t* p =
          &image.rgba[4 * (static_cast<std::size_t>(y + y0) * image.width + x + x0)];
      warm[static_cast<std::size_t>(y) * width + x] =
          p[0] > 90 && p[0] > p[2] + 40 && p[1] > p[2] + 15;
    }
  }
  int count = 0;
  for (int y = 1; y + 1 < height; ++y) {
    for (int x = 1; x + 1 < width; ++x) {
      bool all = true;
      for (int dy = -1; dy <= 1 && all; ++dy) {
        for (int dx = -1; dx <= 1 && all; ++dx) {
          all = warm[static_cast<std::size_t>(y + dy) * width + x + dx] != 0;
        }
      }
      count += all;
    }
  }
  return count;
}

struct Shot {
  fs::path path;
  double time = 0;
  int box_pixels = 0;
};

// the incline for 240 frames with a screenshot every 30, `follow` as extra flags
std::vector<Shot> SlideShots(const std::string& follow, const fs::path& scratch, RunResult* run) {
  fs::create_directories(scratch);
  const fs::path png = scratch / "incline.png";
  *run = RunCommand(XvfbRun("", Quote(kIncline) + " " + follow +
                                    " --size 1280x800 --frames 240 --screenshot-every 30 "
                                    "--screenshot " +
                                    Quote(png.string()) + " --exit"),
                    scratch);
  std::vector<Shot> shots;
  const std::regex line(R"(screenshot at frame \d+: (\S+) sim time (\S+) s)");
  for (std::sregex_iterator it(run->out.begin(), run->out.end(), line), end; it != end; ++it) {
    Shot shot;
    shot.path = (*it)[1].str();
    shot.time = std::stod((*it)[2]);
    shot.box_pixels = BoxPixels(shot.path);
    shots.push_back(shot);
  }
  return shots;
}

std::string Describe(const std::vector<Shot>& shots) {
  std::string text;
  for (const Shot& shot : shots) {
    text += "t = " + std::to_string(shot.time) + " s: " + std::to_string(shot.box_pixels) +
            " box pixels\n";
  }
  return text;
}


TEST(StudioCameraTest, FollowingTheSlidingBoxKeepsItInEveryFrame) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  RunResult followed_run;
  const std::vector<Shot> followed = SlideShots("--follow box", scratch / "follow", &followed_run);
  ASSERT_EQ(followed_run.exit_code, 0) << RunReport(followed_run);
  EXPECT_NE(followed_run.out.find("follow: box (0)"), std::string::npos) << followed_run.out;
  ASSERT_EQ(followed.size(), 8u) << RunReport(followed_run);
  ASSERT_GT(followed.back().time, kLongSlideSeconds) << Describe(followed);
  std::cout << "followed:\n" << Describe(followed);
  for (const Shot& shot : followed) {
    EXPECT_GT(shot.box_pixels, kBoxVisiblePixels) << shot.path << "\n" << Describe(followed);
  }

  // the same slide unfollowed: the box is in the first shots and gone after a long slide
  RunResult free_run;
  const std::vector<Shot> free = SlideShots("", scratch / "free", &free_run);
  ASSERT_EQ(free_run.exit_code, 0) << RunReport(free_run);
  ASSERT_EQ(free.size(), 8u) << RunReport(free_run);
  ASSERT_GT(free.back().time, kLongSlideSeconds) << Describe(free);
  std::cout << "unfollowed:\n" << Describe(free);
  // 1.2 m of slide in the first second keep it in the scene's view (a slow machine's first shot
  // may come later, when it is already leaving)
  if (free.front().time < 1.5) {
    EXPECT_GT(free.front().box_pixels, kBoxVisiblePixels) << Describe(free);
  }
  for (const Shot& shot : free) {
    if (shot.time > kLongSlideSeconds) EXPECT_EQ(shot.box_pixels, 0) << Describe(free);
  }
}


TEST(StudioCameraTest, FrameAllKeyFitsTheBoxInView) {
  // paused, A frames everything drawn but the infinite incline: the 0.2 m box tilted 30°, whose
  // world box (half extents 0.1 (cos 30° + sin 30°), 0.1, the same) has a bounding sphere of
  // r = 0.2175 m; it then spans 80 % of the vertical half angle: d = r / sin(0.8 · 22.5°)
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const RunResult run = RunCommand(
      XvfbRun("", Quote(kIncline) + " --pause-after 1 --keys A --frames 8 --exit"), scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  const std::optional<double> distance = NumberAfter(run.out, " distance ");
  const std::optional<double> target_x = NumberAfter(run.out, "camera: target ");
  const std::optional<double> box_x = NumberAfter(run.out, "shape box ");
  ASSERT_TRUE(distance && target_x && box_x) << RunReport(run);
  const double half = 0.1 * (std::cos(M_PI / 6) + std::sin(M_PI / 6));
  const double radius = std::sqrt(2 * half * half + 0.01);
  EXPECT_NEAR(*distance, radius / std::sin(0.8 * 22.5 * M_PI / 180), 0.005) << run.out;
  // centred on the box where it was paused
  EXPECT_NEAR(*target_x, *box_x, 0.005) << run.out;
}


TEST(StudioCameraTest, FollowingAnUnknownBodyFails) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const RunResult run =
      RunCommand(XvfbRun("", Quote(kIncline) + " --follow boxx --frames 3 --exit"), scratch);
  EXPECT_EQ(run.exit_code, 1) << RunReport(run);
  EXPECT_NE(run.err.find("--follow: the scene has no body 'boxx'"), std::string::npos)
      << RunReport(run);
}

}  // namespace
}  // namespace sim
