// Teleop recording files (engine/io/teleop_recording_file.h), their replay
// (engine/io/teleop_replay.h) and the live recorder (engine/teleop/teleop_recorder.h):
//   - write then read gives the same recording, every number bit for bit;
//   - every kind of bad input is an error at its line;
//   - a hand-written recording on our Fetch replays to the same state hash twice, its actions
//     change the run, and the verified recording it yields replays as MATCH; a changed scene, a
//     tampered hash, an unknown target and a bad override are reported;
//   - actions submitted live and recorded replay to the live run's final state hash.
// Bit-exact equality is the reference throughout: the session integrates rates over simulated
// time and the CPU step is deterministic, so there is no tolerance.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/io/teleop_recording_file.h"
#include "engine/io/teleop_replay.h"
#include "engine/teleop/teleop_recorder.h"
#include "tests/support/teleop_scene.h"

namespace sim::io {
namespace {

namespace fs = std::filesystem;
using test_support::TeleopFetchActions;
using test_support::TestFolder;
using test_support::WriteTeleopFetchScene;
using ::testing::HasSubstr;

// equal bit for bit (so 0.0 and -0.0 differ, and a NaN equals itself)
bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

void ExpectSameAction(const TeleopAction& a, const TeleopAction& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.target, b.target);
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(SameBits(a.linear[k], b.linear[k])) << a.linear[k] << " vs " << b.linear[k];
    EXPECT_TRUE(SameBits(a.angular[k], b.angular[k]));
    EXPECT_TRUE(SameBits(a.pose.p[k], b.pose.p[k])) << a.pose.p[k] << " vs " << b.pose.p[k];
  }
  EXPECT_TRUE(SameBits(a.pose.q.w(), b.pose.q.w()));
  EXPECT_TRUE(SameBits(a.pose.q.x(), b.pose.q.x()));
  EXPECT_TRUE(SameBits(a.pose.q.y(), b.pose.q.y()));
  EXPECT_TRUE(SameBits(a.pose.q.z(), b.pose.q.z()));
  EXPECT_TRUE(SameBits(a.value, b.value));
}


void WriteText(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }


std::string Errors(const std::string& text, const std::string& source) {
  Expected<TeleopRecordingFile> file = ParseTeleopRecording(text, source);
  EXPECT_FALSE(file.ok());
  return file.diagnostics().Format();
}


TEST(TeleopRecordingFileTest, WriteThenReadIsExact) {
  const fs::path dir = TestFolder("cs_teleop_file");
  WriteText(dir / "scene.json", "{}");  // the reader only checks that it exists
  TeleopRecording recording;
  recording.scene_path = "scene.json";
  recording.overrides = {"solver.newton_iterations=8", "gravity=0,0,-9.80665"};
  recording.solver = "nsn";
  recording.target_names = {"arm", "gripper", "base \"quoted\""};
  recording.initial_state_hash = 0x0123456789abcdefULL;
  recording.steps = 1200;
  recording.final_state_hash = 0xffffffffffffffffULL;
  // numbers without a short decimal form, the extremes of double and a negative zero
  const double third = 1.0 / 3.0;
  const double tiny = std::numeric_limits<double>::denorm_min();
  const double huge = 1e9 * (1 - 1e-16);
  TeleopAction pose{.kind = TeleopActionKind::kSetPose, .target = 0};
  pose.pose.p = Vec3(0.1 + 0.2, -third, 1e-300);
  pose.pose.q = Quat(std::sqrt(0.5), 0, -0.0, std::sqrt(0.5));
  TeleopAction twist{.kind = TeleopActionKind::kPoseVelocity, .target = 0};
  twist.linear = Vec3(tiny, -huge, 2.0 / 3.0);
  twist.angular = Vec3(std::nextafter(1.0, 2.0), 0, -1e-17);
  TeleopAction axis{.kind = TeleopActionKind::kSetAxis, .target = 1, .value = 0.7};
  TeleopAction rate{.kind = TeleopActionKind::kAxisRate, .target = 1, .value = -third};
  TeleopAction base{.kind = TeleopActionKind::kBaseVelocity, .target = 2};
  base.linear = Vec3(0.2, -0.0, 0.1);
  TeleopAction reset_all{.kind = TeleopActionKind::kReset, .target = -1};
  TeleopAction reset_arm{.kind = TeleopActionKind::kReset, .target = 0};
  recording.actions = {{0, pose},  {0, twist},       {10, axis},       {10, rate},
                       {11, base}, {500, reset_all}, {1199, reset_arm}};

  const std::string text = TeleopRecordingJson(recording);
  Expected<TeleopRecordingFile> read = ParseTeleopRecording(text, (dir / "a.teleop.json").string());
  ASSERT_TRUE(read.ok()) << read.diagnostics().Format() << text;
  EXPECT_TRUE(read.diagnostics().empty()) << read.diagnostics().Format();
  const TeleopRecording& back = read->recording;
  EXPECT_EQ(back.scene_path, recording.scene_path);
  EXPECT_EQ(read->scene_file, (dir / "scene.json").string());
  EXPECT_EQ(back.overrides, recording.overrides);
  EXPECT_EQ(back.solver, recording.solver);
  EXPECT_EQ(back.target_names, recording.target_names);
  EXPECT_EQ(back.initial_state_hash, recording.initial_state_hash);
  EXPECT_EQ(back.steps, recording.steps);
  EXPECT_EQ(back.final_state_hash, recording.final_state_hash);
  ASSERT_EQ(back.actions.size(), recording.actions.size());
  for (std::size_t k = 0; k < back.actions.size(); ++k) {
    SCOPED_TRACE("action " + std::to_string(k));
    EXPECT_EQ(back.actions[k].step, recording.actions[k].step);
    ExpectSameAction(back.actions[k].action, recording.actions[k].action);
  }
  // and the text is a fixed point
  EXPECT_EQ(TeleopRecordingJson(back), text);
  // one action per line, after the 11 header lines
  EXPECT_EQ(read->action_lines.front(), 12);
  EXPECT_EQ(read->action_lines.back(), 18);

  // through a file too
  std::string error;
  ASSERT_TRUE(WriteTeleopRecording((dir / "b.teleop.json").string(), recording, &error)) << error;
  Expected<TeleopRecordingFile> file = ReadTeleopRecording((dir / "b.teleop.json").string());
  ASSERT_TRUE(file.ok()) << file.diagnostics().Format();
  EXPECT_EQ(TeleopRecordingJson(file->recording), text);
}


TEST(TeleopRecordingFileTest, HandWrittenFileNeedsOnlyTheEssentials) {
  const fs::path dir = TestFolder("cs_teleop_file");
  WriteText(dir / "scene.json", "{}");
  Expected<TeleopRecordingFile> file = ParseTeleopRecording(
      R"({"format": "contact-studio-teleop-recording", "version": 1, "scene": "scene.json",
          "actions": [{"step": 3, "kind": "set_axis", "target": "gripper", "value": 1},
                      {"step": 4, "kind": "reset"},
                      {"step": 4, "kind": "pose_velocity", "target": "arm", "linear": [0, 0, 1]}]})",
      (dir / "r.teleop.json").string());
  ASSERT_TRUE(file.ok()) << file.diagnostics().Format();
  const TeleopRecording& recording = file->recording;
  EXPECT_TRUE(recording.overrides.empty());
  EXPECT_TRUE(recording.solver.empty());
  EXPECT_EQ(recording.initial_state_hash, 0u);
  EXPECT_EQ(recording.steps, 0u);
  // without `targets` the names are listed as the actions first use them
  EXPECT_THAT(recording.target_names, ::testing::ElementsAre("gripper", "arm"));
  ASSERT_EQ(recording.actions.size(), 3u);
  EXPECT_EQ(recording.actions[1].action.target, -1);
  EXPECT_EQ(recording.actions[2].action.target, 1);
  EXPECT_EQ(recording.actions[2].action.angular, Vec3::Zero());
}


TEST(TeleopRecordingFileTest, EveryMistakeIsLocated) {
  const fs::path dir = TestFolder("cs_teleop_file");
  WriteText(dir / "scene.json", "{}");
  const std::string source = (dir / "bad.teleop.json").string();
  // one mistake per line from line 5 on (line 10 is a good action the next line goes back from)
  const std::string errors = Errors(R"({
  "format": "contact-studio-teleop-recording", "version": 1,
  "scene": "scene.json", "targets": ["arm", "gripper"], "steps": 100,
  "actions": [
    {"step": 0, "kind": "wave", "target": "arm"},
    {"step": 1, "kind": "set_axis", "target": "leg", "value": 0.5},
    {"step": 2, "kind": "set_pose", "target": "arm", "position": [0, 1], "quaternion_wxyz": [1, 0, 0, 0]},
    {"step": 3, "kind": "set_pose", "target": "arm", "position": [0, 0, 1], "quaternion_wxyz": [0, 0, 0, 0]},
    {"step": 4, "kind": "pose_velocity", "target": "arm", "linear": [0, null, 0]},
    {"step": 10, "kind": "set_axis", "target": "gripper", "value": 0.5},
    {"step": 4, "kind": "set_axis", "target": "gripper", "value": 0.5},
    {"step": 100, "kind": "reset"},
    {"step": 20, "kind": "set_axis", "target": "gripper", "value": 2},
    {"step": 20, "kind": "set_axis", "target": "gripper"},
    {"step": 20.5, "kind": "reset"},
    {"step": 20, "kind": "axis_rate", "value": 1},
    {"kind": "reset"},
    {"step": 20, "kind": "base_velocity", "target": "arm", "linear": [1, 2, 3, 4]}
  ]
})",
                                    source);
  const std::string at = source + ":";
  EXPECT_THAT(errors, HasSubstr(at + "5: error: action 0 'kind' is 'wave', expected one of: "
                                     "pose_velocity, set_pose, set_axis, axis_rate, base_velocity, "
                                     "reset"));
  EXPECT_THAT(errors, HasSubstr(at + "6: error: action 1 (set_axis) 'target' is 'leg', not one "
                                     "of 'targets' (arm, gripper)"));
  EXPECT_THAT(errors, HasSubstr(at + "7: error: action 2 (set_pose) 'position' must be an array "
                                     "of 3 numbers"));
  EXPECT_THAT(errors, HasSubstr(at + "8: error: action 3 (set_pose) 'quaternion_wxyz' has norm "
                                     "0"));
  EXPECT_THAT(errors, HasSubstr(at + "9: error: action 4 (pose_velocity) 'linear' must be an "
                                     "array of 3 numbers, element 1 is a null"));
  EXPECT_THAT(errors, HasSubstr(at + "11: error: action 6 is at step 4, before the previous "
                                     "action's step 10 (steps must not go backwards)"));
  EXPECT_THAT(errors, HasSubstr(at + "12: error: action 7 is at step 100, not before the "
                                     "recording's end (100 steps)"));
  EXPECT_THAT(errors, HasSubstr(at + "13: error: action 8 (set_axis) 'value' is 2, expected a "
                                     "value in [0, 1]"));
  EXPECT_THAT(errors, HasSubstr(at + "14: error: action 9 (set_axis) needs 'value'"));
  EXPECT_THAT(errors, HasSubstr(at + "15: error: action 10 'step' is 20.5, expected a whole "
                                     "number"));
  EXPECT_THAT(errors, HasSubstr(at + "16: error: action 11 (axis_rate) needs 'target'"));
  EXPECT_THAT(errors, HasSubstr(at + "17: error: action 12 needs 'step'"));
  EXPECT_THAT(errors, HasSubstr(at + "18: error: action 13 (base_velocity) 'linear' must be an "
                                     "array of 3 numbers"));
}


TEST(TeleopRecordingFileTest, HeaderMistakesAreLocated) {
  const fs::path dir = TestFolder("cs_teleop_file");
  const std::string source = (dir / "bad.teleop.json").string();
  const std::string at = source + ":";
  // a scene that is not there, a malformed hash, steps 0 and an override without '='
  const std::string errors = Errors(R"({
  "format": "contact-studio-teleop-recording", "version": 1,
  "scene": "../nowhere/scene.json",
  "initial_state_hash": "0xfeedbeefs",
  "steps": 0,
  "overrides": ["solver.dt"],
  "actions": []
})",
                                    source);
  EXPECT_THAT(errors, HasSubstr(at + "3: error: scene '../nowhere/scene.json' not found"));
  EXPECT_THAT(errors, HasSubstr(at + "4: error: 'initial_state_hash' must be a string \"0x\""));
  EXPECT_THAT(errors, HasSubstr(at + "5: error: 'steps' is 0, expected a whole number in [1"));
  EXPECT_THAT(errors, HasSubstr(at + "6: error: override 'solver.dt' is not PATH=VALUE"));
  // another format, another version, a non-finite number (JSON has none: too big is an error)
  EXPECT_THAT(Errors("{\"format\": \"contact-studio-scene\", \"version\": 1}", source),
              HasSubstr(at + "1: error: not a teleop recording: 'format' must be"));
  EXPECT_THAT(Errors("{\"format\": \"contact-studio-teleop-recording\",\n\"version\": 2}", source),
              HasSubstr(at + "2: error: teleop recording 'version' must be 1"));
  EXPECT_THAT(Errors("{\"format\": \"contact-studio-teleop-recording\", \"version\": 1,\n"
                     "\"scene\": \"x.json\",\n\"actions\": [{\"step\": 0, \"kind\": "
                     "\"axis_rate\", \"target\": \"g\", \"value\": 1e999}]}",
                     source),
              HasSubstr(at + "3: error: invalid JSON"));
  // a file that is not there
  Expected<TeleopRecordingFile> missing = ReadTeleopRecording((dir / "none.json").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.diagnostics().Format(), HasSubstr("none.json: error: cannot open"));
}


// ---- replay on our Fetch --------------------------------------------------------------------

constexpr int kSteps = 150;  // 1.25 s of 8.3 ms steps: every action of TeleopFetchActions and 70
                             // steps after the last

Expected<ReplayResult> Replay(const fs::path& path, const ReplayOptions& options = {}) {
  return ReplayTeleopRecording(path.string(), options);
}


TEST(TeleopReplayTest, HandWrittenRecordingReplaysToTheSameStateTwice) {
  const fs::path dir = TestFolder("cs_teleop_replay");
  WriteTeleopFetchScene(dir);
  WriteText(dir / "hand.teleop.json", TeleopFetchActions("fetch_teleop.json", kSteps));
  int observed = 0;
  ReplayOptions options;
  options.observer = [&](const Simulation& simulation) {
    ++observed;
    EXPECT_EQ(simulation.state().step, static_cast<std::uint64_t>(observed));
  };
  Expected<ReplayResult> first = Replay(dir / "hand.teleop.json", options);
  ASSERT_TRUE(first.ok()) << first.diagnostics().Format();
  EXPECT_TRUE(first.diagnostics().empty()) << first.diagnostics().Format();
  EXPECT_EQ(observed, kSteps);
  EXPECT_EQ(first->steps, static_cast<std::uint64_t>(kSteps));
  EXPECT_EQ(first->actions_applied, 6);
  EXPECT_EQ(first->status.ok, kSteps);
  EXPECT_EQ(first->solver, "nsn");
  // no recorded final hash: nothing to compare
  EXPECT_FALSE(first->compared);
  Expected<ReplayResult> second = Replay(dir / "hand.teleop.json");
  ASSERT_TRUE(second.ok()) << second.diagnostics().Format();
  EXPECT_EQ(second->final_state_hash, first->final_state_hash);
  EXPECT_EQ(second->final_state_hash, StateHash(second->final_state));

  // the actions change the run: without them the robot holds its pose
  WriteText(dir / "idle.teleop.json",
            R"({"format": "contact-studio-teleop-recording", "version": 1,
                "scene": "fetch_teleop.json", "steps": 150, "actions": []})");
  Expected<ReplayResult> idle = Replay(dir / "idle.teleop.json");
  ASSERT_TRUE(idle.ok()) << idle.diagnostics().Format();
  EXPECT_NE(idle->final_state_hash, first->final_state_hash);
  const int wrist = first->model->FindBody("fetch/wrist_roll_link");
  ASSERT_GE(wrist, 0);
  // the arm moved by centimetres (10 cm/s for 50 steps, then the set pose), not by round-off
  EXPECT_GT((first->final_state.body_X_WB[wrist].p - idle->final_state.body_X_WB[wrist].p).norm(),
            0.01);
}


TEST(TeleopReplayTest, VerifiedRecordingMatchesAndATamperedOneDoesNot) {
  const fs::path dir = TestFolder("cs_teleop_replay");
  WriteTeleopFetchScene(dir);
  WriteText(dir / "hand.teleop.json", TeleopFetchActions("fetch_teleop.json", kSteps));
  Expected<ReplayResult> hand = Replay(dir / "hand.teleop.json");
  ASSERT_TRUE(hand.ok()) << hand.diagnostics().Format();

  // the verified recording, in a subfolder so the scene path is rewritten relative to it
  fs::create_directories(dir / "verified");
  TeleopRecording verified = hand->verified;
  const fs::path verified_path = dir / "verified" / "v.teleop.json";
  verified.scene_path = ScenePathFor(hand->file.scene_file, verified_path.string());
  EXPECT_EQ(verified.scene_path, "../fetch_teleop.json");
  EXPECT_EQ(verified.steps, static_cast<std::uint64_t>(kSteps));
  EXPECT_EQ(verified.final_state_hash, hand->final_state_hash);
  EXPECT_THAT(verified.target_names, ::testing::ElementsAre("arm", "gripper"));
  std::string error;
  ASSERT_TRUE(WriteTeleopRecording(verified_path.string(), verified, &error)) << error;
  Expected<ReplayResult> replay = Replay(verified_path);
  ASSERT_TRUE(replay.ok()) << replay.diagnostics().Format();
  EXPECT_TRUE(replay->compared);
  EXPECT_TRUE(replay->matches);

  // a recorded final hash one bit off is a mismatch, not an error
  TeleopRecording tampered = verified;
  tampered.final_state_hash ^= 1;
  ASSERT_TRUE(WriteTeleopRecording(verified_path.string(), tampered, &error)) << error;
  Expected<ReplayResult> mismatch = Replay(verified_path);
  ASSERT_TRUE(mismatch.ok()) << mismatch.diagnostics().Format();
  EXPECT_TRUE(mismatch->compared);
  EXPECT_FALSE(mismatch->matches);

  // a shorter run is not compared, and keeps only the actions it reached
  ReplayOptions shorter;
  shorter.steps = 40;
  Expected<ReplayResult> partial = Replay(verified_path, shorter);
  ASSERT_TRUE(partial.ok()) << partial.diagnostics().Format();
  EXPECT_FALSE(partial->compared);
  EXPECT_EQ(partial->actions_not_reached, 3);
  EXPECT_EQ(partial->verified.actions.size(), 3u);
}


TEST(TeleopReplayTest, WithoutStepsTheReplayRunsOneSecondPastTheLastAction) {
  const fs::path dir = TestFolder("cs_teleop_replay");
  WriteTeleopFetchScene(dir);
  WriteText(dir / "short.teleop.json",
            R"({"format": "contact-studio-teleop-recording", "version": 1,
                "scene": "fetch_teleop.json",
                "actions": [{"step": 20, "kind": "set_axis", "target": "gripper", "value": 1}]})");
  Expected<ReplayResult> replay = Replay(dir / "short.teleop.json");
  ASSERT_TRUE(replay.ok()) << replay.diagnostics().Format();
  // 20 steps to the action, then ceil(1 s / 8.3 ms) = 121 steps
  EXPECT_EQ(replay->steps, 20u + 121u);
}


TEST(TeleopReplayTest, SceneMismatchesAreLocatedInTheRecording) {
  const fs::path dir = TestFolder("cs_teleop_replay");
  WriteTeleopFetchScene(dir);
  WriteText(dir / "hand.teleop.json", TeleopFetchActions("fetch_teleop.json", 90));
  Expected<ReplayResult> hand = Replay(dir / "hand.teleop.json");
  ASSERT_TRUE(hand.ok()) << hand.diagnostics().Format();
  std::string error;
  const fs::path verified = dir / "v.teleop.json";
  ASSERT_TRUE(WriteTeleopRecording(verified.string(), hand->verified, &error)) << error;

  // the torso starts 1 cm lower: the scene changed since the recording (line 8: the hash)
  WriteTeleopFetchScene(dir, "fetch_teleop.json", "0.34");
  Expected<ReplayResult> changed = Replay(verified);
  ASSERT_FALSE(changed.ok());
  EXPECT_THAT(changed.diagnostics().Format(),
              HasSubstr(verified.string() + ":8: error: the scene starts from state 0x"));
  EXPECT_THAT(changed.diagnostics().Format(),
              HasSubstr("scene 'fetch_teleop.json' (or a file it uses) changed since the "
                        "recording"));

  // a target the scene does not declare, a bad override and an unknown solver, at their lines
  WriteTeleopFetchScene(dir);
  WriteText(dir / "bad.teleop.json", R"({"format": "contact-studio-teleop-recording",
  "version": 1, "scene": "fetch_teleop.json",
  "overrides": ["solver.newton_iterations=-3"],
  "solver": "verlet",
  "actions": [
    {"step": 0, "kind": "set_axis", "target": "leg", "value": 1}]})");
  Expected<ReplayResult> bad = Replay(dir / "bad.teleop.json");
  ASSERT_FALSE(bad.ok());
  const std::string errors = bad.diagnostics().Format();
  const std::string at = (dir / "bad.teleop.json").string() + ":";
  EXPECT_THAT(errors, HasSubstr(at + "3: error: override 'solver.newton_iterations=-3': "));
  EXPECT_THAT(errors, HasSubstr(at + "4: error: 'solver': "));
  EXPECT_THAT(errors, HasSubstr(at + "6: error: teleop target 'leg' is not a target of scene "
                                     "'fetch_teleop.json' (its targets: arm, gripper)"));
}


TEST(TeleopRecorderTest, LiveActionsReplayToTheLiveFinalState) {
  const fs::path dir = TestFolder("cs_teleop_recorder");
  const std::string scene_path = WriteTeleopFetchScene(dir);
  Expected<Scene> scene = LoadScene(scene_path);
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  Expected<std::unique_ptr<Simulation>> created =
      Simulation::Create(scene->model, scene->initial_state, "nsn");
  ASSERT_TRUE(created.ok()) << created.diagnostics().Format();
  Simulation& simulation = *created.value();
  ASSERT_NE(simulation.teleop(), nullptr);

  // a device's actions as they come: wall-clock stamps, several in one step, a reset
  const fs::path recording_path = dir / "live.teleop.json";
  TeleopRecorder recorder(simulation, ScenePathFor(scene_path, recording_path.string()), {});
  int submitted = 0;
  const auto submit = [&](TeleopAction action) {
    action.stamp_seconds = TeleopClockSeconds();
    simulation.teleop()->Submit(action);
    ++submitted;
  };
  for (int i = 0; i < kSteps; ++i) {
    if (i == 3) {
      TeleopAction twist{.kind = TeleopActionKind::kPoseVelocity, .target = 0};
      twist.linear = Vec3(0.05, -0.02, 0.03);
      twist.angular = Vec3(0, 0.1 / 3, 0);
      submit(twist);
      submit({.kind = TeleopActionKind::kAxisRate, .target = 1, .value = 0.7});
    }
    if (i == 41) submit({.kind = TeleopActionKind::kSetAxis, .target = 1, .value = 0.25});
    if (i == 77) submit({.kind = TeleopActionKind::kReset, .target = -1});
    if (i == 90) {
      TeleopAction twist{.kind = TeleopActionKind::kPoseVelocity, .target = 0};
      twist.linear = Vec3(-0.03, 0, 0.01);
      submit(twist);
    }
    simulation.Step();
    recorder.AfterStep(simulation);
  }
  const TeleopRecording recording = recorder.Finish(simulation);
  EXPECT_EQ(recording.actions.size(), static_cast<std::size_t>(submitted));
  EXPECT_EQ(recording.actions[2].step, 41u);
  EXPECT_EQ(recording.steps, static_cast<std::uint64_t>(kSteps));
  EXPECT_EQ(recording.initial_state_hash, StateHash(scene->initial_state));
  EXPECT_EQ(recording.final_state_hash, StateHash(simulation.state()));

  std::string error;
  ASSERT_TRUE(WriteTeleopRecording(recording_path.string(), recording, &error)) << error;
  Expected<ReplayResult> replay = Replay(recording_path);
  ASSERT_TRUE(replay.ok()) << replay.diagnostics().Format();
  EXPECT_TRUE(replay->compared);
  EXPECT_TRUE(replay->matches) << FormatStateHash(replay->final_state_hash) << " vs live "
                               << FormatStateHash(recording.final_state_hash);
}

}  // namespace
}  // namespace sim::io
