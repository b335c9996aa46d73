// render::VideoWriter and render::ProbeVideo with Debian's FFmpeg libraries (no device needed):
// short MP4s written with libx264 and with mpeg4 decode to the frames, size, times and colours
// written (a channel swap in the RGBA to YUV conversion would turn red into blue); frames left
// out keep their times; odd sizes, unwritable paths and out-of-order frames are refused with
// clear messages; VideoFrameClock takes a frame per 1/fps s of simulated time.
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/png_io.h"
#include "render/video_probe.h"
#include "render/video_writer.h"
#include "tests/render/image_checks.h"

namespace sim::render {
namespace {

using image_checks::ColorDistance;
using image_checks::PixelAt;
using image_checks::Rgb;

constexpr int kWidth = 128;
constexpr int kHeight = 96;
constexpr int kFps = 30;
// 4:2:0 compression keeps flat colour within a few levels; a swapped channel is 200 off
constexpr int kColorTolerance = 12;

// quadrants red, green, blue and white, with an 8 px grey bar at rows 8·frame .. so frames differ
Image TestPicture(int width, int height, int frame) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.resize(static_cast<std::size_t>(width) * height * 4);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      Rgb c = x < width / 2 ? (y < height / 2 ? Rgb{230, 20, 20} : Rgb{20, 200, 30})
                            : (y < height / 2 ? Rgb{25, 40, 220} : Rgb{240, 240, 240});
      if (y / 8 == frame % (height / 8)) c = {128, 128, 128};
      std::uint8_t* p = &image.rgba[4 * (static_cast<std::size_t>(y) * width + x)];
      p[0] = static_cast<std::uint8_t>(c[0]);
      p[1] = static_cast<std::uint8_t>(c[1]);
      p[2] = static_cast<std::uint8_t>(c[2]);
      p[3] = 255;
    }
  }
  return image;
}


std::string TempPath(const std::string& name) { return ::testing::TempDir() + "/" + name; }


// writes `frames` test pictures with `codec` and checks what decodes
void WriteAndDecode(const std::string& codec, const std::string& decoder) {
  const std::string path = TempPath("video_writer_" + codec + ".mp4");
  VideoWriter writer;
  std::string error;
  ASSERT_TRUE(writer.Open(path, kWidth, kHeight, kFps, &error, codec)) << error;
  EXPECT_EQ(writer.codec_name(), codec);
  constexpr int kFrames = 15;
  for (int k = 0; k < kFrames; ++k) {
    ASSERT_TRUE(writer.AddFrame(TestPicture(kWidth, kHeight, k), &error)) << error;
  }
  EXPECT_EQ(writer.frames_written(), kFrames);
  EXPECT_DOUBLE_EQ(writer.duration(), 0.5);
  ASSERT_TRUE(writer.Finish(&error)) << error;
  EXPECT_FALSE(writer.is_open());

  VideoInfo info;
  Image picture;
  ASSERT_TRUE(ProbeVideo(path, &info, &error, 7, &picture)) << error;
  EXPECT_EQ(info.codec, decoder);
  EXPECT_EQ(info.frames, kFrames);
  EXPECT_EQ(info.width, kWidth);
  EXPECT_EQ(info.height, kHeight);
  EXPECT_NEAR(info.fps, kFps, 1e-6);
  EXPECT_NEAR(info.duration, 0.5, 0.5 / kFps);
  ASSERT_EQ(info.frame_times.size(), static_cast<std::size_t>(kFrames));
  for (int k = 0; k < kFrames; ++k) EXPECT_NEAR(info.frame_times[k], k / double(kFps), 1e-3);

  // the picture of frame 7: each quadrant's colour where it was written, the bar at rows 56..63
  ASSERT_EQ(picture.width, kWidth);
  ASSERT_EQ(picture.height, kHeight);
  std::string png_error;
  EXPECT_TRUE(WritePng(TempPath("video_writer_" + codec + "_frame7.png"), picture, &png_error));
  const Image written = TestPicture(kWidth, kHeight, 7);
  for (const auto& [x, y] : std::vector<std::pair<int, int>>{{kWidth / 4, kHeight / 8},
                                                             {kWidth / 4, 3 * kHeight / 4},
                                                             {3 * kWidth / 4, kHeight / 8},
                                                             {3 * kWidth / 4, 3 * kHeight / 4},
                                                             {kWidth / 4, 29}}) {
    EXPECT_LE(ColorDistance(PixelAt(picture, x, y), PixelAt(written, x, y)), kColorTolerance)
        << codec << " at (" << x << ", " << y << ")";
  }
  std::remove(path.c_str());
}


TEST(VideoWriterTest, H264FramesDecodeWithTheirSizeTimesAndColours) {
  WriteAndDecode("libx264", "h264");
}


TEST(VideoWriterTest, Mpeg4FramesDecodeWithTheirSizeTimesAndColours) {
  WriteAndDecode("mpeg4", "mpeg4");
}


TEST(VideoWriterTest, SkippedFramesKeepTheTimesOfTheOthers) {
  const std::string path = TempPath("video_writer_gaps.mp4");
  VideoWriter writer;
  std::string error;
  ASSERT_TRUE(writer.Open(path, kWidth, kHeight, kFps, &error)) << error;
  for (const int index : {0, 1, 5, 6}) {
    ASSERT_TRUE(writer.AddFrame(TestPicture(kWidth, kHeight, index), index, &error)) << error;
  }
  // an earlier index than the last is refused
  EXPECT_FALSE(writer.AddFrame(TestPicture(kWidth, kHeight, 0), 3, &error));
  EXPECT_NE(error.find("video frame 3 comes after frame 6"), std::string::npos) << error;
  ASSERT_TRUE(writer.Finish(&error)) << error;
  VideoInfo info;
  ASSERT_TRUE(ProbeVideo(path, &info, &error)) << error;
  ASSERT_EQ(info.frames, 4);
  EXPECT_NEAR(info.frame_times[2], 5.0 / kFps, 1e-3);
  EXPECT_NEAR(info.duration, 7.0 / kFps, 0.5 / kFps);
  std::remove(path.c_str());
}


TEST(VideoWriterTest, ImagesOfOtherSizesAreCroppedOrScaled) {
  const std::string path = TempPath("video_writer_sizes.mp4");
  VideoWriter writer;
  std::string error;
  ASSERT_TRUE(writer.Open(path, kWidth, kHeight, kFps, &error)) << error;
  // one pixel over (an odd window) is cropped; half the size is scaled up
  ASSERT_TRUE(writer.AddFrame(TestPicture(kWidth + 1, kHeight + 1, 0), &error)) << error;
  ASSERT_TRUE(writer.AddFrame(TestPicture(kWidth / 2, kHeight / 2, 0), &error)) << error;
  Image empty;
  EXPECT_FALSE(writer.AddFrame(empty, &error));
  EXPECT_NE(error.find("empty or short image"), std::string::npos) << error;
  ASSERT_TRUE(writer.Finish(&error)) << error;
  VideoInfo info;
  Image picture;
  ASSERT_TRUE(ProbeVideo(path, &info, &error, 1, &picture)) << error;
  EXPECT_EQ(info.frames, 2);
  EXPECT_EQ(picture.width, kWidth);
  EXPECT_LE(ColorDistance(PixelAt(picture, kWidth / 4, kHeight / 4), Rgb{230, 20, 20}),
            kColorTolerance);
  std::remove(path.c_str());
}


TEST(VideoWriterTest, BadSizesRatesCodecsAndPathsAreRefusedWithAReason) {
  VideoWriter writer;
  std::string error;
  EXPECT_FALSE(writer.Open(TempPath("odd.mp4"), 641, 360, kFps, &error));
  EXPECT_NE(error.find("641x360: width and height must be even"), std::string::npos) << error;
  EXPECT_FALSE(writer.Open(TempPath("rate.mp4"), 640, 360, 0, &error));
  EXPECT_NE(error.find("frame rate 0 is not in [1, 240]"), std::string::npos) << error;
  EXPECT_FALSE(writer.Open(TempPath("codec.mp4"), 640, 360, kFps, &error, "vp9"));
  EXPECT_NE(error.find("unknown video codec 'vp9'"), std::string::npos) << error;
  EXPECT_FALSE(writer.Open("/nonexistent-folder/video.mp4", 640, 360, kFps, &error));
  EXPECT_NE(error.find("/nonexistent-folder/video.mp4: cannot open for writing"), std::string::npos)
      << error;
  EXPECT_FALSE(writer.is_open());
  EXPECT_FALSE(writer.AddFrame(TestPicture(640, 360, 0), &error));
  EXPECT_NE(error.find("no file is open"), std::string::npos) << error;

  VideoInfo info;
  EXPECT_FALSE(ProbeVideo("/nonexistent-folder/video.mp4", &info, &error));
  EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
}


TEST(VideoFrameClockTest, OneFramePerPeriodOfSimulatedTime) {
  VideoFrameClock clock(10);
  EXPECT_EQ(clock.FrameAt(0.0), 0);    // the first picture at once
  EXPECT_EQ(clock.FrameAt(0.05), -1);  // not yet 0.1 s on
  EXPECT_EQ(clock.FrameAt(0.1), 1);    // on the boundary
  EXPECT_EQ(clock.FrameAt(0.1), -1);   // paused: no new frame
  EXPECT_EQ(clock.FrameAt(0.42), 4);   // frames 2 and 3 jumped over
  EXPECT_EQ(clock.FrameAt(0.49), -1);
  EXPECT_EQ(clock.FrameAt(0.5), 5);
  // back to the start (reset): the video goes on from its next frame
  EXPECT_EQ(clock.FrameAt(0.0), 6);
  EXPECT_EQ(clock.FrameAt(0.06), -1);
  EXPECT_EQ(clock.FrameAt(0.1), 7);
}

}  // namespace
}  // namespace sim::render
