// `contact-sim render SCENE --video FILE.mp4` as a user runs it, without a display: a 5 s MP4 of
// fetch_tomato at 30 fps is written and decodes with FFmpeg's libraries to 150 frames of the size
// asked, 1/30 s apart; its first frame is the picture `render --out` makes of the same state (so
// the colours survive the RGBA to YUV conversion) apart from the time caption in its corner; bad
// input (an unwritable file, an odd size, --fps without --video) fails with a clear message.
// Skips without a Vulkan driver.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include <gtest/gtest.h>

#include "render/png_io.h"
#include "render/video_probe.h"
#include "tests/render/image_checks.h"
#include "tests/support/run_command.h"

namespace sim::render {
namespace {

using image_checks::ColorDistance;
using image_checks::PixelAt;
using image_checks::PixelStdDev;
using sim::test_support::CommandResult;

const std::string kContactSim = std::string(SIM_BINARY_DIR) + "/bin/contact-sim";
const std::string kFetchTomato = std::string(SIM_SOURCE_DIR) + "/scenes/fetch_tomato.json";
// 640×360 keeps the 150 frames of lavapipe rendering near half a minute here
constexpr int kWidth = 640;
constexpr int kHeight = 360;

// `contact-sim ARGUMENTS` without a display
CommandResult ContactSim(const std::string& arguments, const std::string& name) {
  return test_support::RunCommand(
      "env -u DISPLAY -u WAYLAND_DISPLAY " + kContactSim + " " + arguments,
      ::testing::TempDir() + "/" + name + ".log");
}


bool NoVulkan(const CommandResult& result) {
  return result.exit_code != 0 && result.output.find("no Vulkan driver found") != std::string::npos;
}


TEST(VideoCli, FiveSecondsOfFetchTomatoDecodeTo150FramesOfTheSizeAsked) {
  const std::string video = ::testing::TempDir() + "/fetch_tomato.mp4";
  std::remove(video.c_str());
  const std::string size =
      " --width " + std::to_string(kWidth) + " --height " + std::to_string(kHeight);
  const auto start = std::chrono::steady_clock::now();
  const CommandResult run =
      ContactSim("render " + kFetchTomato + " --video " + video + " --fps 30 --duration 5" + size,
                 "video_fetch_tomato");
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (NoVulkan(run)) GTEST_SKIP() << run.output;
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // the summary line, and the measurement: frames, wall time, file size
  std::cout << run.output << "wall time of the command: " << wall << " s" << std::endl;
  EXPECT_NE(run.output.find(": 150 frames (30 fps, 5 s of video), 640x360, libx264"),
            std::string::npos)
      << run.output;

  VideoInfo info;
  Image first;
  std::string error;
  ASSERT_TRUE(ProbeVideo(video, &info, &error, 0, &first)) << error;
  EXPECT_EQ(info.codec, "h264");
  EXPECT_EQ(info.frames, 150);
  EXPECT_EQ(info.width, kWidth);
  EXPECT_EQ(info.height, kHeight);
  EXPECT_NEAR(info.duration, 5.0, 1.0 / 30);
  ASSERT_EQ(info.frame_times.size(), 150u);
  for (std::size_t k = 1; k < info.frame_times.size(); ++k) {
    ASSERT_NEAR(info.frame_times[k] - info.frame_times[k - 1], 1.0 / 30, 1e-3) << "frame " << k;
  }
  EXPECT_TRUE(WritePng(::testing::TempDir() + "/fetch_tomato_frame0.png", first, &error));

  // the PNG of the initial state at the same size: the same picture, but for the caption box at
  // the top-left and the encoding's few levels (swapped channels would be hundreds off)
  const std::string png = ::testing::TempDir() + "/fetch_tomato_t0.png";
  const CommandResult still =
      ContactSim("render " + kFetchTomato + " --out " + png + size, "video_fetch_tomato_png");
  ASSERT_EQ(still.exit_code, 0) << still.output;
  Image reference;
  ASSERT_TRUE(ReadPng(png, &reference, &error)) << error;
  double difference = 0;
  int count = 0;
  for (int y = kHeight / 4; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      difference += ColorDistance(PixelAt(first, x, y), PixelAt(reference, x, y));
      ++count;
    }
  }
  EXPECT_LT(difference / count, 6.0);
  EXPECT_GT(PixelStdDev(first), 8.0);
  // the caption "t = 0.000 s" in its dark box changes the top-left corner
  int caption = 0;
  for (int y = 0; y < 40; ++y) {
    for (int x = 0; x < 120; ++x) {
      caption += ColorDistance(PixelAt(first, x, y), PixelAt(reference, x, y)) > 40;
    }
  }
  EXPECT_GT(caption, 200);
  std::remove(video.c_str());
  std::remove(png.c_str());
}


TEST(VideoCli, ANonFiniteStepEndsTheVideoWithTheFramesSoFar) {
  // the step from t = 4.6 s is the first non-finite one: frames 0 .. 138 (t <= 4.6 s) are kept
  const std::string scene = std::string(SIM_SOURCE_DIR) + "/tests/data/render/blows_up.json";
  const std::string video = ::testing::TempDir() + "/blows_up.mp4";
  std::remove(video.c_str());
  const CommandResult run =
      ContactSim("render " + scene + " --video " + video + " --duration 5 --width 64 --height 48",
                 "video_blows_up");
  if (NoVulkan(run)) GTEST_SKIP() << run.output;
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("blows_up.json: error: non-finite step at t = 4.6 s"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("the video stops there: 139 of 150 frames in " + video),
            std::string::npos)
      << run.output;
  VideoInfo info;
  std::string error;
  ASSERT_TRUE(ProbeVideo(video, &info, &error)) << error;
  EXPECT_EQ(info.frames, 139);
  std::remove(video.c_str());
}


TEST(VideoCli, BadInputFailsWithAClearMessage) {
  const std::string box = std::string(SIM_SOURCE_DIR) + "/scenes/default.json";
  const CommandResult unwritable =
      ContactSim("render " + box +
                     " --video /nonexistent-folder/out.mp4 --duration 0.1 "
                     "--width 64 --height 48",
                 "video_unwritable");
  if (NoVulkan(unwritable)) GTEST_SKIP() << unwritable.output;
  EXPECT_EQ(unwritable.exit_code, 1) << unwritable.output;
  EXPECT_NE(unwritable.output.find("contact-sim render: error: /nonexistent-folder/out.mp4: "
                                   "cannot open for writing"),
            std::string::npos)
      << unwritable.output;

  const std::string out = ::testing::TempDir() + "/odd.mp4";
  const CommandResult odd =
      ContactSim("render " + box + " --video " + out + " --width 65 --height 48", "video_odd");
  EXPECT_EQ(odd.exit_code, 2) << odd.output;
  EXPECT_NE(odd.output.find("--video needs an even --width and --height"), std::string::npos)
      << odd.output;

  const CommandResult fps_alone =
      ContactSim("render " + box + " --out " + out + ".png --fps 30", "video_fps_alone");
  EXPECT_EQ(fps_alone.exit_code, 2) << fps_alone.output;
  EXPECT_NE(fps_alone.output.find("--fps requires --video"), std::string::npos) << fps_alone.output;

  const CommandResult neither = ContactSim("render " + box, "video_neither");
  EXPECT_EQ(neither.exit_code, 2) << neither.output;
  EXPECT_NE(neither.output.find("give --out FILE.png or --video FILE.mp4"), std::string::npos)
      << neither.output;
}

}  // namespace
}  // namespace sim::render
