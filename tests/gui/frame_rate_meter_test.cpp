// FrameRateMeter, the studio's one frame-rate figure: presented frames per second over the last
// second, the same whenever it is read between two frames.
#include "ui/viewport/viewport_stats.h"

#include <gtest/gtest.h>

namespace sim::ui {
namespace {

TEST(FrameRateMeter, CountsTheFramesOfTheLastSecond) {
  FrameRateMeter meter;
  EXPECT_EQ(meter.fps(), 0.0);
  meter.TickAt(0.0);
  EXPECT_EQ(meter.fps(), 0.0) << "one frame has no rate";
  // 16 fps for 2.5 s, then 4 fps: after one second at 4 fps only those frames count (times on
  // a binary grid, so the window's ends are exact)
  double t = 0.0;
  for (int i = 0; i < 40; ++i) meter.TickAt(t += 0.0625);
  EXPECT_DOUBLE_EQ(meter.fps(), 16.0);
  EXPECT_DOUBLE_EQ(meter.frame_ms(), 62.5);
  meter.TickAt(t += 0.25);
  EXPECT_GT(meter.fps(), 4.0) << "the fast frames still in the window count";
  EXPECT_LT(meter.fps(), 16.0);
  for (int i = 0; i < 4; ++i) meter.TickAt(t += 0.25);
  EXPECT_DOUBLE_EQ(meter.fps(), 4.0);
  EXPECT_DOUBLE_EQ(meter.frame_ms(), 250.0);
}


TEST(FrameRateMeter, MixedIntervalsGiveTheMeanRateNotTheMedianInterval) {
  // three fast frames then a stall, repeated: 4 frames per 0.5 s is 8 fps, although the median
  // interval (1/16 s) would say 16 fps
  FrameRateMeter meter;
  double t = 0.0;
  meter.TickAt(t);
  for (int cycle = 0; cycle < 8; ++cycle) {
    for (int i = 0; i < 3; ++i) meter.TickAt(t += 0.0625);
    meter.TickAt(t += 0.3125);
  }
  EXPECT_DOUBLE_EQ(meter.fps(), 8.0);
}


TEST(FrameRateMeter, FramesFurtherApartThanTheWindowGiveTheLastInterval) {
  FrameRateMeter meter;
  meter.TickAt(0.0);
  meter.TickAt(0.125);
  meter.TickAt(2.625);
  EXPECT_DOUBLE_EQ(meter.fps(), 0.4);
  meter.TickAt(6.625);
  EXPECT_DOUBLE_EQ(meter.fps(), 0.25);
}

}  // namespace
}  // namespace sim::ui
