// The studio's memory stays flat while it renders (contact-studio under Xvfb with lavapipe):
// fetch_tomato in a 4-lane comparison, in each view (shaded, strain, contacts, structure), its
// resident memory logged every few frames (--memory-log). The scene runs for a while (every
// buffer grows to its workload), is paused so that every later frame draws the same state, and
// after a short warm-up the growth per rendered frame stays below the bound the issue's target
// (< 20 MB over 10 minutes) gives. The 10-minute run with the scene running is in the README
// (Tests).
#include <algorithm>
#include <iostream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/gui/studio_run.h"
#include "tests/support/run_command.h"

namespace sim {
namespace {

using namespace studio_test;  // NOLINT: the helpers of these tests

const std::string kTomatoScene = std::string(SIM_SOURCE_DIR) + "/scenes/fetch_tomato.json";
// four configurations that stay finite on fetch_tomato (pgs refuses soft bodies)
constexpr const char* kLanes = "nsn,nsn:ncp=min,nsn:line_search=true,nsn:newton_iterations=8";
// a small window keeps lavapipe's frames short on a 2-core machine; the draws are the same
constexpr const char* kWindowSize = "640x400";
// frames with the scene running, then paused: a warm-up, then the measured frames
constexpr int kRunningFrames = 60;
// (under a loaded machine the renderer's memory settles for a few hundred frames after the pause,
// +1.3 MB in a few steps then flat over 800 frames on the 4-lane contacts view: the median over 30
// intervals sees a leak, which rises in every interval, and not that settling)
constexpr int kPausedWarmupFrames = 40;
constexpr int kMeasuredFrames = 300;
constexpr int kLogEvery = 10;
// growth bound [kB per frame]: 20 MB over 10 minutes at the 16 fps the studio renders
// fetch_tomato at on lavapipe, 20 · 1024 / 9600 ≈ 2.1 (at a GPU's 60 fps the same bound would
// allow 75 MB in 10 minutes; the measured growth here is 0)
constexpr double kMaxGrowthKbPerFrame = 20.0 * 1024.0 / (10 * 60 * 16);

struct MemorySample {
  int frame = 0;
  double rss_kb = 0;
  long long step = 0;
};

// the "memory: frame F rss R kB step S" lines of a run
std::vector<MemorySample> MemorySamples(const std::string& out) {
  std::vector<MemorySample> samples;
  const std::regex line(R"(memory: frame (\d+) rss (-?\d+) kB step (\d+))");
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it) {
    samples.push_back({std::stoi((*it)[1]), std::stod((*it)[2]), std::stoll((*it)[3])});
  }
  return samples;
}

std::string Describe(const std::vector<MemorySample>& samples) {
  std::ostringstream text;
  for (const MemorySample& s : samples) {
    text << "frame " << s.frame << " rss " << s.rss_kb << " kB step " << s.step << "\n";
  }
  return text.str();
}


TEST(StudioSoakTest, MemoryPerFrameStaysFlatInEveryViewOfTheComparedTomato) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  for (const std::string view : {"shaded", "strain", "contacts", "structure"}) {
    SCOPED_TRACE(view);
    const int frames = kRunningFrames + kPausedWarmupFrames + kMeasuredFrames;
    const RunResult run = RunCommand(
        XvfbRun("", Quote(kTomatoScene) + " --compare '" + kLanes + "' --size " + kWindowSize +
                        " --view " + view + " --pause-after " + std::to_string(kRunningFrames) +
                        " --memory-log " + std::to_string(kLogEvery) + " --frames " +
                        std::to_string(frames) + " --exit"),
        scratch);
    ASSERT_EQ(run.exit_code, 0) << RunReport(run);
    const std::vector<MemorySample> samples = MemorySamples(run.out);

    // measured: after the paused warm-up, all of one state (the scene ran before the pause)
    const int start = kRunningFrames + kPausedWarmupFrames;
    std::vector<MemorySample> measured;
    std::copy_if(samples.begin(), samples.end(), std::back_inserter(measured),
                 [start](const MemorySample& s) { return s.frame >= start; });
    ASSERT_GE(measured.size(), 9u) << "too few frames logged\n" << RunReport(run);
    EXPECT_GT(measured.front().step, 0) << "the scene never ran\n" << Describe(samples);
    EXPECT_EQ(measured.front().step, measured.back().step) << "the scene was not paused\n"
                                                           << Describe(samples);

    // the median rise per frame over the logged intervals: a leak rises in every interval, an
    // allocation made once (a buffer, an allocator arena, settling over two or three samples)
    // in a few of them
    std::vector<double> rises;
    for (std::size_t i = 1; i < measured.size(); ++i) {
      rises.push_back((measured[i].rss_kb - measured[i - 1].rss_kb) /
                      (measured[i].frame - measured[i - 1].frame));
    }
    std::nth_element(rises.begin(), rises.begin() + rises.size() / 2, rises.end());
    const double growth = rises[rises.size() / 2];
    const double frames_between = measured.back().frame - measured.front().frame;
    std::cout << view << ": resident memory " << measured.back().rss_kb / 1024 << " MB, growth "
              << growth << " kB per frame over " << frames_between << " frames (bound "
              << kMaxGrowthKbPerFrame << ")" << std::endl;
    EXPECT_LT(growth, kMaxGrowthKbPerFrame) << Describe(samples);
  }
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace sim
