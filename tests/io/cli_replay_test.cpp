// `contact-sim replay` as a user runs it: a hand-written recording is UNCHECKED, `--record` makes
// it a verified recording that replays as MATCH, a tampered hash is a MISMATCH at its line, a bad
// file is a located error, and --contacts / --hdf5 write their files. Exit codes: 0, 1.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/run_command.h"
#include "tests/support/teleop_scene.h"

namespace {

namespace fs = std::filesystem;
using sim::test_support::CommandResult;
using sim::test_support::RunCommand;
using ::testing::HasSubstr;

CommandResult RunContactSim(const std::string& args) {
  const std::string log = std::string(SIM_BINARY_DIR) + "/tests/cli_replay_test_" +
                          ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".log";
  return RunCommand(std::string(SIM_BINARY_DIR) + "/bin/contact-sim " + args, log);
}


std::string ReadText(const fs::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}


TEST(CliReplayTest, RecordThenReplayMatches) {
  const fs::path dir = sim::test_support::TestFolder("cs_cli_replay");
  sim::test_support::WriteTeleopFetchScene(dir);
  const fs::path hand = dir / "hand.teleop.json";
  std::ofstream(hand) << sim::test_support::TeleopFetchActions("fetch_teleop.json", 100);

  // a hand-written recording has no hash to compare; --record writes the verified one
  const fs::path verified = dir / "verified.teleop.json";
  const fs::path contacts = dir / "contacts.csv";
  const CommandResult first = RunContactSim("replay " + hand.string() + " --record " +
                                            verified.string() + " --contacts " + contacts.string());
  EXPECT_EQ(first.exit_code, 0) << first.output;
  EXPECT_THAT(first.output, HasSubstr("100 steps of 0.0083 s"));
  EXPECT_THAT(first.output, HasSubstr("6 actions applied"));
  EXPECT_THAT(first.output, HasSubstr("recorded none: UNCHECKED"));
  EXPECT_THAT(ReadText(contacts), ::testing::StartsWith("step,time,a,b,x,y,z,"));
  const std::string recorded = ReadText(verified);
  EXPECT_THAT(recorded, HasSubstr("\"initial_state_hash\": \"0x"));
  EXPECT_THAT(recorded, HasSubstr("\"steps\": 100,"));

  const CommandResult second = RunContactSim("replay " + verified.string());
  EXPECT_EQ(second.exit_code, 0) << second.output;
  EXPECT_THAT(second.output, HasSubstr("after 100 steps: MATCH"));

  // one hexadecimal digit of the final hash changed: MISMATCH at the hash's line (10)
  std::string tampered = recorded;
  const std::size_t at = tampered.find("\"final_state_hash\": \"0x") + 23;
  tampered[at] = tampered[at] == '0' ? '1' : '0';
  std::ofstream(verified) << tampered;
  const CommandResult mismatch = RunContactSim("replay " + verified.string());
  EXPECT_EQ(mismatch.exit_code, 1) << mismatch.output;
  EXPECT_THAT(mismatch.output, HasSubstr(": MISMATCH"));
  EXPECT_THAT(mismatch.output,
              HasSubstr(verified.string() + ":10: error: the replay ends in state 0x"));
}


TEST(CliReplayTest, BadRecordingIsALocatedErrorAndExitsOne) {
  const fs::path dir = sim::test_support::TestFolder("cs_cli_replay");
  sim::test_support::WriteTeleopFetchScene(dir);
  const fs::path bad = dir / "bad.teleop.json";
  std::ofstream(bad) << R"({"format": "contact-studio-teleop-recording", "version": 1,
  "scene": "fetch_teleop.json",
  "actions": [
    {"step": 0, "kind": "wave", "target": "arm"}]})";
  const CommandResult r = RunContactSim("replay " + bad.string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr(bad.string() + ":4: error: action 0 'kind' is 'wave'"));

  // `check` reads recordings too (the file alone)
  const CommandResult check = RunContactSim("check " + bad.string());
  EXPECT_EQ(check.exit_code, 1) << check.output;
  EXPECT_THAT(check.output, HasSubstr(bad.string() + ":4: error: action 0 'kind' is 'wave'"));
  const fs::path good = dir / "good.teleop.json";
  std::ofstream(good) << sim::test_support::TeleopFetchActions("fetch_teleop.json", 90);
  const CommandResult checked = RunContactSim("check " + good.string());
  EXPECT_EQ(checked.exit_code, 0) << checked.output;
  EXPECT_THAT(checked.output, HasSubstr("ok: teleop recording scene 'fetch_teleop.json', 6 "
                                        "actions on arm, gripper, 90 steps"));
  // a plain .json file is taken for a recording by the format its opening names (the shipped
  // recordings are named so)
  const fs::path plain = dir / "good.json";
  fs::copy_file(good, plain);
  const CommandResult by_content = RunContactSim("check " + plain.string());
  EXPECT_EQ(by_content.exit_code, 0) << by_content.output;
  EXPECT_THAT(by_content.output, HasSubstr("ok: teleop recording"));

  const CommandResult missing = RunContactSim("replay " + (dir / "none.teleop.json").string());
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
  EXPECT_THAT(missing.output, HasSubstr("none.teleop.json: error: cannot open"));
}


TEST(CliReplayTest, Hdf5ExportWritesTheDemonstration) {
#ifndef SIM_HAVE_HDF5
  GTEST_SKIP() << "this build has no HDF5 (libhdf5-dev)";
#endif
  const fs::path dir = sim::test_support::TestFolder("cs_cli_replay");
  sim::test_support::WriteTeleopFetchScene(dir);
  const fs::path hand = dir / "hand.teleop.json";
  std::ofstream(hand) << sim::test_support::TeleopFetchActions("fetch_teleop.json", 90);
  const fs::path h5 = dir / "demo.h5";
  const CommandResult r =
      RunContactSim("replay " + hand.string() + " --steps 90 --hdf5 " + h5.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("demonstration written to " + h5.string() + ": 90 samples"));
  // the HDF5 signature (its content: demo_hdf5_test)
  EXPECT_EQ(ReadText(h5).substr(0, 8), "\x89HDF\r\n\x1a\n");
}

}  // namespace
