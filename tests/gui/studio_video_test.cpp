// The studio records its viewport to an MP4 (contact-studio under Xvfb with lavapipe): with
// `--record` on the incline's sliding box (followed by the camera), the file written at exit
// decodes with FFmpeg's libraries to as many frames as the studio says, of the viewport's size,
// 1/30 s of simulated time apart or whole multiples of it; the status bar shows the red "● REC"
// while recording; the last frame shows the warm box on the grey incline under the blue sky (RGB
// order kept); Ctrl+Shift+R stops the recording and finishes the file; an unwritable file stops the
// studio with exit code 1 and says why.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "render/png_io.h"
#include "render/video_probe.h"
#include "tests/gui/studio_run.h"
#include "tests/support/run_command.h"

namespace sim {
namespace {

using namespace studio_test;  // NOLINT: the helpers of these tests

const std::string kIncline = std::string(SIM_SOURCE_DIR) + "/scenes/validation/incline.json";
constexpr int kFps = 30;

// pixels of `image` in the rectangle that are warm like the box (material 0.78, 0.55, 0.32)
int WarmPixels(const render::Image& image, int x0, int y0, int width, int height) {
  int count = 0;
  for (int y = y0; y < y0 + height && y < image.height; ++y) {
    for (int x = x0; x < x0 + width && x < image.width; ++x) {
      const std::uint8_t* p = &image.rgba[4 * (static_cast<std::size_t>(y) * image.width + x)];
      count += p[0] > 90 && p[0] > p[2] + 40 && p[1] > p[2] + 15;
    }
  }
  return count;
}


// red pixels of the "● REC" label in the status bar strip under the viewport
int RecLabelPixels(const render::Image& window, const Viewport& view) {
  int red = 0;
  for (int y = view.y + view.height; y < window.height; ++y) {
    for (int x = 0; x < window.width; ++x) {
      const std::uint8_t* p = &window.rgba[4 * (static_cast<std::size_t>(y) * window.width + x)];
      red += p[0] > 150 && p[1] < 90 && p[2] < 90;
    }
  }
  return red;
}


// the incline recorded with `--record` at 1280x720 and `arguments`, the window saved at the end
struct Recording {
  RunResult run;
  fs::path video;
  fs::path shot;
};
Recording RecordIncline(const fs::path& scratch, const std::string& arguments) {
  Recording recording;
  recording.video = scratch / "incline.mp4";
  recording.shot = scratch / "window.png";
  recording.run =
      RunCommand(XvfbRun("", Quote(kIncline) + " --size 1280x720 " + arguments + " --record " +
                                 Quote(recording.video.string()) + " --screenshot " +
                                 Quote(recording.shot.string()) + " --exit"),
                 scratch);
  return recording;
}


TEST(StudioVideoTest, RecordWritesTheViewportAsAnMp4InSimulatedTime) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const auto [run, video, shot] = RecordIncline(scratch, "--follow box --frames 30");
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);

  // "video: PATH, N frames, WxH, CODEC, 30 fps, T s of video, sim time A .. B s"
  const std::regex line(R"(video: .*, (\d+) frames, (\d+)x(\d+), (\S+), 30 fps, (\S+) s of video)");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(run.out, match, line)) << RunReport(run);
  std::cout << match[0] << std::endl;
  const int frames = std::stoi(match[1]);
  EXPECT_GT(frames, 0);
  EXPECT_EQ(match[4], "libx264");

  // the video is the viewport, rounded down to even
  render::Image window;
  Viewport view;
  ASSERT_TRUE(ReadScreenshot(shot, &window, &view));
  render::VideoInfo info;
  render::Image last;
  std::string error;
  ASSERT_TRUE(render::ProbeVideo(video.string(), &info, &error, frames - 1, &last)) << error;
  EXPECT_EQ(info.codec, "h264");
  EXPECT_EQ(info.frames, frames);
  EXPECT_EQ(info.width, view.width & ~1);
  EXPECT_EQ(info.height, view.height & ~1);
  EXPECT_EQ(std::stoi(match[2]), info.width);
  EXPECT_EQ(std::stoi(match[3]), info.height);

  // frames at whole periods of simulated time, no more of them than the time simulated allows
  const std::optional<double> sim_time = NumberAfter(run.out, "sim: time ");
  ASSERT_TRUE(sim_time) << RunReport(run);
  EXPECT_LE(frames, std::floor(*sim_time * kFps) + 1) << RunReport(run);
  for (std::size_t k = 1; k < info.frame_times.size(); ++k) {
    const double periods = (info.frame_times[k] - info.frame_times[k - 1]) * kFps;
    EXPECT_GE(periods, 0.99) << "frame " << k;
    EXPECT_NEAR(periods, std::round(periods), 0.05) << "frame " << k;
  }
  std::string png_error;
  EXPECT_TRUE(render::WritePng((scratch / "last_frame.png").string(), last, &png_error));

  // the last frame shows the box (warm) and the sky (blue above red) as the viewport does
  EXPECT_GT(WarmPixels(last, 0, 0, last.width, last.height), 300);
  const Rgb sky = MeanColor(last, last.width / 2, 4, 2);
  EXPECT_GT(sky[2], sky[0] + 10) << ToString(sky);
  const Rgb window_sky = MeanColor(window, view.x + view.width / 2, view.y + 4, 2);
  EXPECT_LT(ColorDifference(sky, window_sky), 12) << ToString(sky) << " " << ToString(window_sky);

  // "● REC" in red in the status bar under the viewport while recording (the screenshot is taken
  // before the studio quits)
  EXPECT_GT(RecLabelPixels(window, view), 15) << "no red REC label in the status bar";
  if (!HasFailure()) fs::remove_all(scratch);
}


TEST(StudioVideoTest, CtrlShiftRStopsTheRecordingAndFinishesTheFile) {
  // recording from the first frame, Ctrl+Shift+R pressed at a quarter of the 40 frames: the file
  // is finished then, before the run ends, and the REC label is gone
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const auto [run, video, shot] = RecordIncline(scratch, "--frames 40 --keys Ctrl+Shift+R");
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  const std::regex line(R"(video: .*, (\d+) frames, .* sim time (\S+) \.\. (\S+) s)");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(run.out, match, line)) << RunReport(run);
  std::cout << match[0] << std::endl;
  const std::optional<double> sim_time = NumberAfter(run.out, "sim: time ");
  ASSERT_TRUE(sim_time) << RunReport(run);
  // the video ends at the sim time the keys were pressed, not at the end of the run: nearer the
  // press than the end, as the window renders a few frames before the key's event is handled
  // (0.04-0.07 s of sim time measured, 0.26 s on a loaded machine); times, not frame counts, as
  // a loaded machine renders fewer frames per sim second
  const std::regex keys_line(R"(keys: Ctrl\+Shift\+R at frame \d+, sim time (\S+) s)");
  std::smatch keys;
  ASSERT_TRUE(std::regex_search(run.out, keys, keys_line)) << RunReport(run);
  const double video_end = std::stod(match[3]);
  const double pressed = std::stod(keys[1]);
  EXPECT_GE(video_end, pressed - 1.0 / kFps) << RunReport(run);
  EXPECT_LT(video_end, (pressed + *sim_time) / 2) << "recorded on past the press" << RunReport(run);
  render::VideoInfo info;
  std::string error;
  ASSERT_TRUE(render::ProbeVideo(video.string(), &info, &error)) << error;
  EXPECT_EQ(info.frames, std::stoi(match[1]));
  EXPECT_GT(info.frames, 0);
  render::Image window;
  Viewport view;
  ASSERT_TRUE(ReadScreenshot(shot, &window, &view));
  EXPECT_LT(RecLabelPixels(window, view), 5);
  if (!HasFailure()) fs::remove_all(scratch);
}


TEST(StudioVideoTest, UnwritableRecordFileExitsOneAndSaysWhy) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const RunResult run = RunCommand(
      XvfbRun("", Quote(kIncline) + " --frames 5 --record /nonexistent-folder/out.mp4 --exit"),
      scratch);
  EXPECT_EQ(run.exit_code, 1) << RunReport(run);
  EXPECT_NE(
      run.err.find("contact-studio: error: --record: cannot write /nonexistent-folder/out.mp4"),
      std::string::npos)
      << RunReport(run);
  const RunResult lone_rate =
      RunCommand(XvfbRun("", Quote(kIncline) + " --record-fps 30 --frames 5 --exit"), scratch);
  EXPECT_EQ(lone_rate.exit_code, 2) << RunReport(lone_rate);
  EXPECT_NE(lone_rate.err.find("--record-fps needs --record"), std::string::npos)
      << RunReport(lone_rate);
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace sim
