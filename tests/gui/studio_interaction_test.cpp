// Robust interaction in the studio (contact-studio under Xvfb with lavapipe): Fetch's torso
// slider in fetch_tomato dragged to either end (`--drag-joint`) is ramped at the torso's 0.1 m/s
// velocity limit and does not run the solve away (the summary's lane line: no non-finite or
// runaway step, every body and node slower than 1 m/s); Reset (Backspace) after the drag returns
// the scene to its first frame and the scene's targets, the state hash that of a fresh load;
// compared lanes both step.
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/gui/studio_run.h"
#include "tests/support/run_command.h"

namespace sim {
namespace {

using namespace studio_test;  // NOLINT: the helpers of these tests

const std::string kFetchTomato = std::string(SIM_SOURCE_DIR) + "/scenes/fetch_tomato.json";
const std::string kTorso = "fetch/torso_lift_joint";

struct LaneLine {
  std::string hash;
  double max_speed = 0;
  int non_finite = -1, runaway = -1;
};

// lane 0's "lane LABEL: hash H, max speed S m/s, non-finite N, runaway R, ..." summary line
std::optional<LaneLine> FirstLane(const std::string& out) {
  const std::regex line(
      R"(lane \S+: hash (\d+), max speed (\S+) m/s, non-finite (\d+), runaway (\d+))");
  std::smatch match;
  if (!std::regex_search(out, match, line)) return std::nullopt;
  return LaneLine{match[1], std::stod(match[2]), std::stoi(match[3]), std::stoi(match[4])};
}

// lane 0 of the run neither went non-finite nor ran away, and nothing moved at 1 m/s or faster
void ExpectLaneHeld(const RunResult& run, const std::string& what) {
  const std::optional<LaneLine> lane = FirstLane(run.out);
  ASSERT_TRUE(lane) << RunReport(run);
  std::cout << what << ": max speed " << lane->max_speed << " m/s, non-finite " << lane->non_finite
            << ", runaway " << lane->runaway << std::endl;
  EXPECT_EQ(lane->non_finite, 0) << RunReport(run);
  EXPECT_EQ(lane->runaway, 0) << RunReport(run);
  EXPECT_LT(lane->max_speed, 1.0) << RunReport(run);
}

RunResult RunFetch(const std::string& args, const fs::path& scratch) {
  return RunCommand(XvfbRun("", Quote(kFetchTomato) + " --size 1280x800 " + args + " --exit"),
                    scratch);
}


TEST(StudioInteractionTest, TorsoSliderToEitherEndDoesNotRunAway) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  for (const char* target : {"0", "0.4"}) {
    const fs::path png = scratch / (std::string("torso_") + target + ".png");
    // the scene panel open: its slider rows are in the screenshot. Down, the run pauses early to
    // check the ramp alone (the jam is the next test)
    const std::string pause = std::string(target) == "0" ? " --pause-after 12" : "";
    const RunResult run =
        RunFetch(std::string("--frames 90 --panels scene --drag-joint ") + kTorso + "=" + target +
                     pause + " --screenshot " + Quote(png.string()),
                 scratch);
    ASSERT_EQ(run.exit_code, 0) << RunReport(run);
    ExpectLaneHeld(run, std::string("torso to ") + target);
    // the slider's target reached the worker: the commanded target is the drag's
    const std::regex joint_line("joint " + kTorso +
                                R"(: position (\S+), target (\S+), drive (\S+))");
    std::smatch match;
    ASSERT_TRUE(std::regex_search(run.out, match, joint_line)) << RunReport(run);
    EXPECT_NEAR(std::stod(match[2]), std::stod(target), 1e-3) << RunReport(run);
    // the drive's target ramps from the scene's 0.35 m at 0.1 m/s from the drag on. The worker,
    // ahead of the window's snapshot, takes the drag at its next step: the ramp ran at most the
    // sim time since the drag was shown, and at most ~0.2 s (two slow frames) less
    const std::optional<double> time = NumberAfter(run.out, "sim: time ");
    const std::optional<double> dragged_at = NumberAfter(run.out, ", sim time ");
    ASSERT_TRUE(time && dragged_at) << RunReport(run);
    if (std::string(target) == "0") {
      ASSERT_LT(*time, 1.8) << "paused too late to check the ramp alone" << RunReport(run);
      const double ramped = 0.35 - 0.1 * (*time - *dragged_at);
      const double drive = std::stod(match[3]);
      EXPECT_GE(drive, ramped - 0.005) << "faster than the ramp" << RunReport(run);
      EXPECT_LE(drive, ramped + 0.02) << "the ramp lagged" << RunReport(run);
    }
    EXPECT_TRUE(fs::exists(png)) << RunReport(run);
  }
}


TEST(StudioInteractionTest, TorsoLoweredIntoTheJamDoesNotRunAway) {
  // lowered past ~0.15 m (2 s) the script's reach presses the hand into the table: the arm's
  // drives saturate at their URDF efforts (effort_limits, on by default) and the hand stays
  // above the table. Unbounded drives ran away here at 2.2 s (1.6e4 m normal error).
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const RunResult run =
      RunFetch("--frames 200 --panels scene --drag-joint " + kTorso + "=0", scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  const std::optional<double> time = NumberAfter(run.out, "sim: time ");
  ASSERT_TRUE(time) << RunReport(run);
  // the ramp from 0.35 m at 0.1 m/s ends at 3.5 s
  ASSERT_GT(*time, 3.6) << "ran too briefly to reach the bottom" << RunReport(run);
  ExpectLaneHeld(run, "torso jam over " + std::to_string(*time) + " s");
  const std::regex joint_line("joint " + kTorso + R"(: position (\S+), target (\S+))");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(run.out, match, joint_line)) << RunReport(run);
  // 450 N lowers the torso against the jam (its weight helps): it reaches the bottom
  EXPECT_LT(std::stod(match[1]), 0.01) << RunReport(run);
}


TEST(StudioInteractionTest, ResetAfterTheDragIsTheFreshLoad) {
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  // paused and reset at a quarter of the frames: after the drag, and without it
  const RunResult dragged =
      RunFetch("--frames 40 --keys Space,Backspace --drag-joint " + kTorso + "=0", scratch);
  ASSERT_EQ(dragged.exit_code, 0) << RunReport(dragged);
  const RunResult fresh = RunFetch("--frames 40 --keys Space,Backspace", scratch);
  ASSERT_EQ(fresh.exit_code, 0) << RunReport(fresh);
  const std::optional<LaneLine> after = FirstLane(dragged.out);
  const std::optional<LaneLine> loaded = FirstLane(fresh.out);
  ASSERT_TRUE(after && loaded) << RunReport(dragged) << RunReport(fresh);
  EXPECT_EQ(after->hash, loaded->hash) << RunReport(dragged);
  EXPECT_NE(dragged.out.find("sim: time 0 s, steps 0, paused"), std::string::npos)
      << RunReport(dragged);
  // the torso's target is the scene's again (0.35 m), no longer taken over
  const std::regex joint_line("joint " + kTorso +
                              R"(: position \S+, target (\S+), drive \S+, taken (\d))");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(dragged.out, match, joint_line)) << RunReport(dragged);
  EXPECT_NEAR(std::stod(match[1]), 0.35, 1e-9);
  EXPECT_EQ(match[2], "0");
}


TEST(StudioInteractionTest, ComparedLanesAreLabelledAndStepTogether) {
  // two solvers side by side: both lanes step (the viewport names each over its scene: see the
  // screenshot)
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path png = scratch / "compare.png";
  const RunResult run =
      RunCommand(XvfbRun("", Quote(std::string(SIM_SOURCE_DIR) + "/scenes/sliding_boxes.json") +
                                 " --size 1280x800 --compare nsn,pgs --frames 40 --screenshot " +
                                 Quote(png.string()) + " --exit"),
                 scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  const std::regex lane(
      R"(lane (\S+): hash \d+, max speed \S+ m/s, non-finite 0, runaway \d+, stepping)");
  std::vector<std::string> labels;
  for (auto it = std::sregex_iterator(run.out.begin(), run.out.end(), lane);
       it != std::sregex_iterator(); ++it) {
    labels.push_back((*it)[1]);
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"nsn", "pgs"})) << RunReport(run);
  EXPECT_TRUE(fs::exists(png)) << RunReport(run);
}

TEST(StudioInteractionTest, FourSolversOnTheHeavyStack) {
  // --compare nsn,pgs,primal,dual on the 4096:1 stack (docs/solvers.md): four labelled lanes
  // from the same state, each stepping; after 1 s the NSN and primal stacks stand (their lanes'
  // largest body speed stays below 0.5 m/s) while PGS's collapses and the dual's sinks (above)
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path png = scratch / "compare4.png";
  const RunResult run = RunCommand(
      XvfbRun("", Quote(std::string(SIM_SOURCE_DIR) + "/scenes/validation/heavy_stack.json") +
                      " --size 1280x800 --compare nsn,pgs,primal,dual --frames 60 --screenshot " +
                      Quote(png.string()) + " --exit"),
      scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  const std::regex lane(
      R"(lane (\S+): hash \d+, max speed (\S+) m/s, non-finite 0, runaway \d+, stepping)");
  std::vector<std::string> labels;
  std::vector<double> speeds;
  for (auto it = std::sregex_iterator(run.out.begin(), run.out.end(), lane);
       it != std::sregex_iterator(); ++it) {
    labels.push_back((*it)[1]);
    speeds.push_back(std::stod((*it)[2]));
  }
  ASSERT_EQ(labels, (std::vector<std::string>{"nsn", "pgs", "primal", "dual"})) << RunReport(run);
  EXPECT_LT(speeds[0], 0.5);
  EXPECT_GT(speeds[1], 0.5);
  EXPECT_LT(speeds[2], 0.5);
  EXPECT_GT(speeds[3], 0.5);
  EXPECT_TRUE(fs::exists(png)) << RunReport(run);
}

TEST(StudioInteractionTest, LanesOverlaidAsGhostsOnTheHeavyStack) {
  // --lanes ghost: both lanes step from the same state where lane 1 stands (the home camera
  // frames one stack); a layout that is neither side nor ghost is refused by name
  if (!HaveXvfb()) SIM_SKIP_OR_FAIL_IN_CI("Xvfb is not installed");
  const fs::path scratch = ScratchDir();
  const fs::path png = scratch / "ghosts.png";
  const std::string scene =
      Quote(std::string(SIM_SOURCE_DIR) + "/scenes/validation/heavy_stack.json");
  const RunResult run =
      RunCommand(XvfbRun("", scene +
                                 " --size 1280x800 --compare nsn,pgs --lanes ghost --frames 30 "
                                 "--screenshot " +
                                 Quote(png.string()) + " --exit"),
                 scratch);
  ASSERT_EQ(run.exit_code, 0) << RunReport(run);
  const std::regex lane(
      R"(lane (\S+): hash \d+, max speed \S+ m/s, non-finite 0, runaway \d+, stepping)");
  int lanes = 0;
  for (auto it = std::sregex_iterator(run.out.begin(), run.out.end(), lane);
       it != std::sregex_iterator(); ++it) {
    ++lanes;
  }
  EXPECT_EQ(lanes, 2) << RunReport(run);
  EXPECT_TRUE(fs::exists(png)) << RunReport(run);
  const RunResult bad = RunCommand(XvfbRun("", scene + " --lanes diagonal --exit"), scratch);
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE((bad.out + bad.err).find("--lanes: 'diagonal' is not side or ghost"), std::string::npos)
      << RunReport(bad);
}

}  // namespace
}  // namespace sim
