// `contact-sim check` and `contact-sim scenes` as a user runs them: exit codes and located
// messages.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace {

using sim::test_support::CommandResult;
using sim::test_support::RunCommand;
using sim::test_support::SharedDataDir;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;

CommandResult RunContactSim(const std::string& args) {
  const std::string log = std::string(SIM_BINARY_DIR) + "/tests/cli_io_test_" +
                          ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".log";
  return RunCommand(std::string(SIM_BINARY_DIR) + "/bin/contact-sim " + args, log);
}


const std::string kData = std::string(SIM_SOURCE_DIR) + "/tests/data/";
const std::string kScenes = std::string(SIM_SOURCE_DIR) + "/scenes/";


TEST(CliCheckTest, GoodSceneExitsZero) {
  const CommandResult r = RunContactSim("check " + kScenes + "default.json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("default.json: ok: scene"));
}


TEST(CliCheckTest, SyntaxErrorIsLocatedAndExitsOne) {
  const CommandResult r = RunContactSim("check " + kData + "bad_scene_syntax.json");
  EXPECT_EQ(r.exit_code, 1);
  // line 5 is where the object after the missing comma starts
  EXPECT_THAT(r.output, HasSubstr("bad_scene_syntax.json:5: error: invalid JSON"));
}


TEST(CliCheckTest, EveryBadValueIsReported) {
  const CommandResult r = RunContactSim("check " + kData + "bad_scene_values.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("bad_scene_values.json:5: error: object 'box' 'size' element 1 "
                                  "is 0"));
  EXPECT_THAT(r.output, HasSubstr("bad_scene_values.json:6: error: object 'ball' uses unknown "
                                  "material 'unobtainium'"));
  EXPECT_THAT(r.output, HasSubstr("2 error(s)"));
}


TEST(CliCheckTest, MissingFileExitsOne) {
  const CommandResult r = RunContactSim("check /nonexistent/scene.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("/nonexistent/scene.json: error: cannot open input file"));
}


TEST(CliCheckTest, RealRobotUrdfParses) {
  const std::string urdf =
      SharedDataDir() + "/robots/allegro_hand_description/allegro_hand_description_right.urdf";
  SIM_REQUIRE_SHARED_DATA(urdf);
  const CommandResult r = RunContactSim("check " + urdf);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("ok: urdf robot"));
}


TEST(CliCheckTest, BrokenUrdfExitsOne) {
  const CommandResult r = RunContactSim("check " + kData + "bad_robot.urdf");
  EXPECT_EQ(r.exit_code, 1);
  // both problems, each at its line, naming the joint
  EXPECT_THAT(r.output, HasSubstr("bad_robot.urdf:4: error: joint 'j' of type 'revolute' needs a "
                                  "<limit> element"));
  EXPECT_THAT(r.output, HasSubstr("bad_robot.urdf:6: error: joint 'j' child link 'missing_link' "
                                  "is not a link of this robot"));
}


TEST(CliCheckTest, RealMeshReads) {
  const std::string mesh =
      SharedDataDir() + "/robots/fetch_description/meshes/base_link_collision.STL";
  SIM_REQUIRE_SHARED_DATA(mesh);
  const CommandResult r = RunContactSim("check " + mesh);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // the STL stores 3 vertices per triangle; welded, it is a closed surface with a volume
  EXPECT_THAT(r.output, HasSubstr("base_link_collision.STL: ok: mesh 'base_link_collision.STL', 1 "
                                  "part, 2362 vertices, 4720 triangles, closed, volume 0.0810464 "
                                  "m³, bounding box [-0.2869, 0.2864] x [-0.2641, 0.2641] x "
                                  "[8.184e-07, 0.3589]"));
}


TEST(CliCheckTest, TetMeshSummary) {
  const std::string mesh = SharedDataDir() + "/tetmesh/sphere1K.msh";
  SIM_REQUIRE_SHARED_DATA(mesh);
  const CommandResult r = RunContactSim("check " + mesh);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("sphere1K.msh: ok: tet mesh 'sphere1K', 1760 nodes, 6851 tets, "
                                  "2474 boundary triangles, total volume 0.518477"));
  EXPECT_THAT(r.output, HasSubstr("bounding box [-0.4988, 0.4996] x [-0.4993, 0.4977] x [-0.499, "
                                  "0.4981]"));
}


TEST(CliCheckTest, BrokenTetMeshExitsOne) {
  const CommandResult r = RunContactSim("check " + kData + "tet_inverted.node");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.output, HasSubstr("tet_inverted.ele:4: error: tet mesh 'tet_inverted': tet 1 is "
                                  "inverted (signed volume -0.333333"));
  EXPECT_THAT(r.output, HasSubstr("1 error(s)"));
}


TEST(CliScenesTest, ListsTheDefaultScene) {
  const CommandResult r = RunContactSim("scenes");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // ids are padded to the longest one
  EXPECT_THAT(r.output, ContainsRegex("default +Boxes on a ground plane"));
}


TEST(CliScenesTest, ListsTheValidationScenesOfTheSubfolder) {
  const CommandResult r = RunContactSim("scenes");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, ContainsRegex("validation/incline +Box on a 30"));
  EXPECT_THAT(r.output, HasSubstr("validation/sliding_particle"));
}


TEST(CliCheckTest, SceneSummaryCountsJointsAndParticles) {
  const CommandResult r = RunContactSim("check " + kScenes + "validation/pendulum_chain.json " +
                                        kScenes + "validation/sliding_particle.json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("4 bodies, 5 shapes, 4 joints"));
  EXPECT_THAT(r.output, HasSubstr("0 bodies, 1 shapes, 1 particles"));
}


TEST(CliTest, UsageErrorsExitTwo) {
  EXPECT_EQ(RunContactSim("frobnicate").exit_code, 2);
  EXPECT_EQ(RunContactSim("run " + kScenes + "default.json --steps 0").exit_code, 2);
  EXPECT_EQ(RunContactSim("run " + kScenes + "default.json --steps 3 --duration 1").exit_code, 2);
}

}  // namespace
