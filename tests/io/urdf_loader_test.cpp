// URDF loader: the real Fetch and Allegro descriptions (counts, meshes), every broken-file
// diagnostic at its exact line, the conversion to COM-frame bodies and joint frames, and the
// scene object of type "urdf".
#include "engine/io/urdf_loader.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/io/scene_file.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

const std::string kRobots = test_support::SharedDataDir() + "/robots";

bool HaveRobots() { return std::filesystem::is_directory(kRobots + "/fetch_description"); }

#define REQUIRE_ROBOTS()                                                     \
  if (!HaveRobots()) {                                                       \
    SIM_SKIP_OR_FAIL_IN_CI("robot test data not found at " + kRobots +       \
                           " (shared/data/robots next to the source tree)"); \
  }

UrdfOptions RobotPaths() { return UrdfOptions{.package_paths = {kRobots}}; }


TEST(UrdfRealRobotTest, FetchCountsAndMeshes) {
  REQUIRE_ROBOTS();
  Expected<UrdfRobot> fetch =
      LoadUrdf(kRobots + "/fetch_description/robots/fetch.urdf", RobotPaths());
  ASSERT_TRUE(fetch.ok()) << fetch.diagnostics().Format();
  EXPECT_EQ(fetch->name, "fetch");
  EXPECT_EQ(fetch->links.size(), 26u);
  EXPECT_EQ(fetch->JointSummary(), "25 joints: 6 revolute, 5 continuous, 4 prismatic, 10 fixed");
  EXPECT_EQ(fetch->mesh_count, 42);
  EXPECT_EQ(fetch->mesh_resolved, 42);
  for (const UrdfLink& link : fetch->links) {
    for (const UrdfGeometry& g : link.visuals) {
      if (g.is_mesh) {
        EXPECT_TRUE(std::filesystem::is_regular_file(g.mesh_path)) << g.mesh_uri;
      }
    }
  }
  EXPECT_EQ(fetch.diagnostics().error_count(), 0);
  EXPECT_NEAR(fetch->TotalMass(), 121.283, 1e-3);
}


TEST(UrdfRealRobotTest, AllegroHandsCounts) {
  REQUIRE_ROBOTS();
  for (const char* side : {"right", "left"}) {
    Expected<UrdfRobot> hand = LoadUrdf(kRobots +
                                            "/allegro_hand_description/"
                                            "allegro_hand_description_" +
                                            side + ".urdf",
                                        RobotPaths());
    ASSERT_TRUE(hand.ok()) << hand.diagnostics().Format();
    EXPECT_EQ(hand->links.size(), 21u) << side;
    EXPECT_EQ(hand->JointSummary(), "20 joints: 16 revolute, 4 fixed") << side;
    EXPECT_EQ(hand->mesh_resolved, hand->mesh_count) << side;
  }
}


TEST(UrdfRealRobotTest, PackagePathFromEnvironment) {
  REQUIRE_ROBOTS();
  setenv("CONTACT_STUDIO_PACKAGE_PATH", ("/nonexistent:" + kRobots).c_str(), 1);
  std::vector<std::string> tried;
  const std::string path =
      ResolveResource("package://fetch_description/meshes/base_link.dae", "/tmp", {}, &tried);
  unsetenv("CONTACT_STUDIO_PACKAGE_PATH");
  EXPECT_EQ(path, kRobots + "/fetch_description/meshes/base_link.dae");
  ASSERT_GE(tried.size(), 2u);
  EXPECT_EQ(tried[0], "/nonexistent/fetch_description/meshes/base_link.dae");
}


TEST(UrdfResourceTest, APackagePathCannotLeaveItsPackage) {
  // even where the escaped file exists (/etc/passwd), nothing outside the package is resolved
  for (const char* uri : {"package://pkg/../../../../etc/passwd", "package://../etc/passwd",
                          "package://pkg/meshes/../../../etc/passwd"}) {
    std::vector<std::string> tried;
    EXPECT_EQ(ResolveResource(uri, "/", {"/"}, &tried), "") << uri;
    ASSERT_EQ(tried.size(), 1u) << uri;
    EXPECT_THAT(tried[0], HasSubstr("refused: the path leaves package")) << uri;
  }
  // a ".." that stays inside is fine (it is only normalized)
  std::vector<std::string> tried;
  ResolveResource("package://pkg/meshes/../meshes/base.stl", "/tmp", {"/nonexistent"}, &tried);
  ASSERT_FALSE(tried.empty());
  EXPECT_EQ(tried[0], "/nonexistent/pkg/meshes/base.stl");
}


TEST(UrdfRealRobotTest, CheckCliPrintsSummary) {
  REQUIRE_ROBOTS();
  if (!std::filesystem::exists(std::string(SIM_BINARY_DIR) + "/bin/contact-sim")) {
    GTEST_SKIP() << "contact-sim is not built in this configuration";
  }
  const std::string log = std::string(SIM_BINARY_DIR) + "/tests/urdf_check_cli.log";
  const test_support::CommandResult r = test_support::RunCommand(
      "CONTACT_STUDIO_PACKAGE_PATH=" + kRobots + " " + SIM_BINARY_DIR + "/bin/contact-sim check " +
          kRobots + "/fetch_description/robots/fetch.urdf",
      log);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("ok: urdf robot 'fetch', 26 links, 25 joints: 6 revolute, 5 "
                                  "continuous, 4 prismatic, 10 fixed, total mass 121.283 kg, "
                                  "meshes resolved 42/42"));
}


// a minimal robot around one replaceable piece
std::string Robot(const std::string& body) {
  return "<?xml version=\"1.0\"?>\n"   // line 1
         "<robot name=\"r\">\n"        // line 2
         "  <link name=\"base\"/>\n"   // line 3
         "  <link name=\"arm\"/>\n" +  // line 4
         body +                        // from line 5
         "</robot>\n";
}

std::string Errors(const std::string& text) {
  Expected<UrdfRobot> robot = ParseUrdf(text, "robot.urdf", UrdfOptions{});
  EXPECT_FALSE(robot.ok());
  return robot.diagnostics().Format();
}


TEST(UrdfDiagnosticsTest, UnknownJointTypeListsValidOnes) {
  const std::string out =
      Errors(Robot("  <joint name=\"elbow\" type=\"revolve\">\n"
                   "    <parent link=\"base\"/><child link=\"arm\"/>\n  </joint>\n"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:5: error: joint 'elbow' has unknown type 'revolve' "
                             "(expected revolute, continuous, prismatic, fixed, floating, "
                             "planar)"));
}


TEST(UrdfDiagnosticsTest, MissingParentLink) {
  const std::string out =
      Errors(Robot("  <joint name=\"elbow\" type=\"fixed\">\n"
                   "    <parent link=\"torso\"/>\n"
                   "    <child link=\"arm\"/>\n  </joint>\n"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:6: error: joint 'elbow' parent link 'torso' is not a "
                             "link of this robot"));
}


TEST(UrdfDiagnosticsTest, BadNumbersAllReported) {
  const std::string out = Errors(
      Robot("  <joint name=\"elbow\" type=\"revolute\">\n"
            "    <origin xyz=\"0 0 abc\"/>\n"
            "    <parent link=\"base\"/><child link=\"arm\"/>\n"
            "    <axis xyz=\"0 nan 1\"/>\n"
            "    <limit lower=\"-1\" upper=\"one\" effort=\"1\" velocity=\"1\"/>\n  </joint>\n"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:6: error: joint 'elbow' <origin> 'xyz' is '0 0 abc', "
                             "expected 3 finite numbers"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:8: error: joint 'elbow' <axis> 'xyz' is '0 nan 1', "
                             "expected 3 finite numbers"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:9: error: joint 'elbow' <limit> 'upper' is 'one', "
                             "expected a finite number"));
}


TEST(UrdfDiagnosticsTest, MissingMeshListsEveryPathTried) {
  UrdfOptions options{.package_paths = {"/opt/a", "/opt/b/pkg"}};
  Expected<UrdfRobot> robot = ParseUrdf(
      "<robot name=\"r\">\n  <link name=\"base\">\n    <visual><geometry>\n"
      "      <mesh filename=\"package://pkg/meshes/base.stl\"/>\n"
      "    </geometry></visual>\n  </link>\n</robot>\n",
      "/robots/r.urdf", options);
  ASSERT_FALSE(robot.ok());
  EXPECT_THAT(robot.diagnostics().Format(),
              HasSubstr("/robots/r.urdf:4: error: link 'base' <visual> mesh "
                        "'package://pkg/meshes/base.stl' not found (tried: "
                        "/opt/a/pkg/meshes/base.stl, /opt/b/pkg/pkg/meshes/base.stl, "
                        "/opt/b/pkg/meshes/base.stl)"));
}


TEST(UrdfDiagnosticsTest, InertiaNotPositiveDefiniteAndBadMass) {
  const std::string out = Errors(
      "<robot name=\"r\">\n  <link name=\"base\">\n    <inertial>\n"
      "      <mass value=\"0\"/>\n"
      "      <inertia ixx=\"1\" iyy=\"1\" izz=\"-1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>\n"
      "    </inertial>\n  </link>\n</robot>\n");
  EXPECT_THAT(out, HasSubstr("robot.urdf:4: error: link 'base' has mass 0, expected a positive "
                             "mass in kg"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:5: error: link 'base' has an inertia that is not "
                             "positive definite (ixx 1, iyy 1, izz -1"));
}


TEST(UrdfDiagnosticsTest, XmlSyntaxErrorIsLocated) {
  const std::string out =
      Errors("<robot name=\"r\">\n  <link name=\"base\">\n\n  </lnk>\n</robot>\n");
  // tinyxml2 locates a mismatched end tag at the element it fails to close
  EXPECT_THAT(out, HasSubstr("robot.urdf:2: error: invalid XML: mismatched element (XMLElement "
                             "name=link)"));
  const std::string quote = Errors(
      "<robot name=\"r\">\n  <link name=\"base\"/>\n"
      "  <link name=\"arm/>\n</robot>\n");
  EXPECT_THAT(quote, HasSubstr("robot.urdf:3: error: invalid XML"));
}


TEST(UrdfDiagnosticsTest, UrdfdomRejectionIsLocated) {
  // two roots: our pass accepts it, urdfdom does not; its reason is captured, not printed
  const std::string out = Errors(
      "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n"
      "</robot>\n");
  EXPECT_THAT(out, HasSubstr("robot.urdf:1: error: robot description rejected by urdfdom:"));
}


TEST(UrdfDiagnosticsTest, FileUrdfdomReadsAsAnotherRobotIsRefused) {
  // found by fuzz_urdf: the XML declaration is closed by '>' for urdfdom but only by the '?>'
  // on line 2 for tinyxml2, so the two read different <robot> elements; it crashed the
  // conversion (a robot with no links)
  const std::string out = Errors(
      "<?xml version=\"1.0\">\n<robot name=\"outer\">\"?>\n<robot name=\"r\"/>\n"
      "  <link name=\"a\"/>\n</robot>\n");
  EXPECT_THAT(out, HasSubstr("robot.urdf:3: error: urdfdom reads a different robot from this "
                             "file than its <robot> element"));
}


// two links; the arm's COM is offset and rotated from its link frame
constexpr const char* kTwoLinks = R"(<robot name="two">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
  </link>
  <link name="arm">
    <inertial>
      <origin xyz="0.5 0 0" rpy="0 0 1.5707963267948966"/>
      <mass value="1"/><inertia ixx="0.01" iyy="0.02" izz="0.03" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <collision><origin xyz="0.5 0 0"/><geometry><cylinder radius="0.05" length="1"/></geometry>
    </collision>
  </link>
  <link name="sensor"/>
  <joint name="shoulder" type="revolute">
    <origin xyz="0 0 0.3" rpy="0 0 0"/>
    <parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="1"/>
  </joint>
  <joint name="sensor_mount" type="fixed">
    <origin xyz="1 0 0"/><parent link="arm"/><child link="sensor"/>
  </joint>
</robot>
)";


TEST(UrdfConversionTest, ComFramesJointFramesAndInitialPosition) {
  Expected<UrdfRobot> robot = ParseUrdf(kTwoLinks, "two.urdf", UrdfOptions{});
  ASSERT_TRUE(robot.ok()) << robot.diagnostics().Format();
  Model model;
  model.materials.push_back(Material{.name = "default"});
  State state;
  Diagnostics diagnostics;
  RobotPlacement placement;
  placement.name_prefix = "two/";
  placement.X_W_base.p = Vec3(1, 2, 3);
  placement.initial_positions["shoulder"] = 0.4;
  placement.hold_stiffness = 50;
  const int root = AddRobotToModel(robot.value(), placement, &model, &state, &diagnostics);
  EXPECT_FALSE(diagnostics.has_errors()) << diagnostics.Format();

  // the sensor is welded into the arm: two bodies, base fixed to the world plus the shoulder
  ASSERT_EQ(model.body_count(), 2);
  EXPECT_EQ(root, 0);
  EXPECT_EQ(model.body_name[1], "two/arm");
  ASSERT_EQ(model.joint_count(), 2);
  EXPECT_EQ(model.joint_type[0], JointType::kFixed);
  EXPECT_EQ(model.joint_parent[0], kWorldBody);
  EXPECT_EQ(model.joint_type[1], JointType::kRevolute);
  EXPECT_EQ(model.joint_limited[1], 1);
  EXPECT_DOUBLE_EQ(model.joint_upper[1], 2);
  EXPECT_DOUBLE_EQ(model.joint_drive[1].stiffness, 50);
  EXPECT_DOUBLE_EQ(model.joint_drive[1].target_position, 0.4);

  // arm COM: link at (1, 2, 3.3) rotated 0.4 rad about y, COM 0.5 along the link's x
  const Pose& X_WA = state.body_X_WB[1];
  const Vec3 expected_com =
      Vec3(1, 2, 3.3) + Eigen::AngleAxisd(0.4, Vec3::UnitY()) * Vec3(0.5, 0, 0);
  EXPECT_LT((X_WA.p - expected_com).norm(), 1e-12);
  // inertia in the inertial frame (rotated 90° about z) stays diagonal there
  EXPECT_NEAR(model.body_inertia[1](0, 0), 0.01, 1e-12);
  EXPECT_NEAR(model.body_inertia[1](2, 2), 0.03, 1e-12);
  EXPECT_DOUBLE_EQ(model.body_mass[1], 1);
  // the base body keeps its link frame: its box shape sits at its COM
  EXPECT_LT((state.body_X_WB[0].p - Vec3(1, 2, 3)).norm(), 1e-12);
  ASSERT_EQ(model.shape_count(), 2);
  EXPECT_EQ(model.shape_geometry[1].type, ShapeType::kCylinder);
  EXPECT_DOUBLE_EQ(model.shape_geometry[1].half_length, 0.5);
  // the cylinder's centre in the world is the arm COM (both 0.5 along the link x)
  EXPECT_LT(((X_WA * model.shape_X_BS[1]).p - expected_com).norm(), 1e-12);

  // joint coordinates equal the requested positions, and the frames coincide at q = 0
  EXPECT_NEAR(JointCoordinate(model, 1, state.body_X_WB[0], state.body_X_WB[1]), 0.4, 1e-12);
  EXPECT_NEAR(JointCoordinate(model, 0, Pose{}, state.body_X_WB[0]), 0, 1e-12);
  placement.initial_positions.clear();
  Model model0;
  model0.materials.push_back(Material{.name = "default"});
  State state0;
  AddRobotToModel(robot.value(), placement, &model0, &state0, &diagnostics);
  for (int j = 0; j < model0.joint_count(); ++j) {
    const Pose X_WP =
        model0.joint_parent[j] == kWorldBody ? Pose{} : state0.body_X_WB[model0.joint_parent[j]];
    const Pose X_WJp = X_WP * model0.joint_X_PJ[j];
    const Pose X_WJc = state0.body_X_WB[model0.joint_child[j]] * model0.joint_X_CJ[j];
    EXPECT_LT((X_WJp.p - X_WJc.p).norm(), 1e-12) << model0.joint_name[j];
    EXPECT_LT(X_WJp.q.angularDistance(X_WJc.q), 1e-9) << model0.joint_name[j];
  }
}


// A chain of `links` links, one per line from line 3, then its joints from line links + 3: odd
// links are welded to their parent by a fixed joint, even ones slide 1 mm above it on a prismatic
// joint that mimics the previous prismatic one, written last joint first (leaders after their
// followers in the file)
std::string ChainUrdf(int links) {
  std::string text = "<?xml version=\"1.0\"?>\n<robot name=\"chain\">\n";
  for (int i = 0; i < links; ++i) {
    text += "<link name=\"l" + std::to_string(i) +
            "\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" "
            "ixz=\"0\" iyz=\"0\"/></inertial></link>\n";
  }
  for (int i = links - 1; i >= 1; --i) {
    const std::string name = "j" + std::to_string(i);
    const std::string ends = "<parent link=\"l" + std::to_string(i - 1) + "\"/><child link=\"l" +
                             std::to_string(i) + "\"/><origin xyz=\"0 0 0.001\"/>";
    if (i % 2 == 1) {
      text += "<joint name=\"" + name + "\" type=\"fixed\">" + ends + "</joint>\n";
      continue;
    }
    text += "<joint name=\"" + name + "\" type=\"prismatic\">" + ends +
            "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>" +
            (i > 2 ? "<mimic joint=\"j" + std::to_string(i - 2) + "\"/>" : "") + "</joint>\n";
  }
  return text + "</robot>\n";
}


// a robot over the link limit is refused at its first link over it, before urdfdom (which reads
// 10^5 links in 7 s) and the model walk see it
TEST(UrdfDiagnosticsTest, RobotOverTheLinkLimitIsRefusedAtThatLink) {
  Expected<UrdfRobot> robot = ParseUrdf(ChainUrdf(100000), "chain.urdf", UrdfOptions{});
  ASSERT_FALSE(robot.ok());
  EXPECT_EQ(robot.diagnostics().Format(),
            "chain.urdf:" + std::to_string(kMaxUrdfLinks + 3) +
                ": error: the robot has more than 10000 links (the limit of one robot)\n");
}


// the longest chain allowed is placed link after link (no recursion), welded links join their
// parents' bodies and each mimic starts where its leader puts it, in one pass for any order
TEST(UrdfConversionTest, ChainAtTheLinkLimitIsPlacedLinkAfterLink) {
  const int links = kMaxUrdfLinks;
  Expected<UrdfRobot> robot = ParseUrdf(ChainUrdf(links), "chain.urdf", UrdfOptions{});
  ASSERT_TRUE(robot.ok()) << robot.diagnostics().Format();
  RobotPlacement placement;
  placement.initial_positions["j2"] = 0.0005;
  Model model;
  model.materials.push_back(Material{.name = "default"});
  State state;
  Diagnostics added;
  AddRobotToModel(robot.value(), placement, &model, &state, &added);
  EXPECT_FALSE(added.has_errors()) << added.Format();
  ASSERT_EQ(model.body_count(), links / 2);
  EXPECT_EQ(model.body_name.back(), "l" + std::to_string(links - 2));
  EXPECT_DOUBLE_EQ(model.body_mass.back(), 2);
  // 1 mm per joint plus 0.5 mm per prismatic joint, each on its leader's position
  const int prismatic = links / 2 - 1;
  const Real top = 0.001 * (links - 2) + 0.0005 * prismatic;
  // the last body: links - 2 and its welded child 1 mm above, COM between them
  EXPECT_NEAR(state.body_X_WB.back().p.z(), top + 0.0005, 1e-9);
}


TEST(UrdfConversionTest, UnknownInitialPositionIsAnError) {
  Expected<UrdfRobot> robot = ParseUrdf(kTwoLinks, "two.urdf", UrdfOptions{});
  ASSERT_TRUE(robot.ok());
  Model model;
  State state;
  Diagnostics diagnostics;
  RobotPlacement placement;
  placement.initial_positions["elbow"] = 1;
  AddRobotToModel(robot.value(), placement, &model, &state, &diagnostics);
  EXPECT_THAT(diagnostics.Format(), HasSubstr("initial position given for 'elbow', which is not a "
                                              "revolute, continuous or prismatic joint of robot "
                                              "'two'"));
}


TEST(UrdfSceneTest, AllegroSceneObject) {
  REQUIRE_ROBOTS();
  const std::string scene = R"({
  "name": "hand",
  "objects": [
    {"name": "ground", "type": "plane"},
    {"name": "hand", "type": "urdf",
     "file": "allegro_hand_description/allegro_hand_description_right.urdf",
     "package_paths": ["."], "position": [0, 0, 0.5], "rpy_deg": [0, 0, 90],
     "initial_positions": {"joint_1.0": 0.3}, "hold_pose": {"stiffness": 10, "damping": 0.1}}
  ]
})";
  Expected<Scene> loaded = ParseScene(scene, kRobots + "/hand_scene.json");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().Format();
  const Model& model = *loaded->model;
  // 21 links, the 4 fingertips welded: 17 bodies; 16 revolute joints and the base weld
  EXPECT_EQ(model.body_count(), 17);
  EXPECT_EQ(model.joint_count(), 17);
  EXPECT_EQ(model.body_name[0], "hand/palm_link");
  // welding keeps the mass: the bodies weigh what the links do, each tip is in its finger's body
  double total = 0;
  for (int b = 0; b < model.body_count(); ++b) total += model.body_mass[b];
  EXPECT_NEAR(total, 0.9549, 1e-9);
  EXPECT_NEAR(model.body_mass[model.FindBody("hand/link_3.0")], 0.0096 + 0.0168, 1e-12);
  const int j = model.FindJoint("hand/joint_1.0");
  ASSERT_GE(j, 0);
  const State& s = loaded->initial_state;
  EXPECT_NEAR(JointCoordinate(model, j, s.body_X_WB[model.joint_parent[j]],
                              s.body_X_WB[model.joint_child[j]]),
              0.3, 1e-9);
}


TEST(UrdfSceneTest, UrdfErrorsCarryANoteAtTheSceneLine) {
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream urdf(dir + "/bad_robot.urdf");
    urdf << Robot(
        "  <joint name=\"elbow\" type=\"revolve\">\n"
        "    <parent link=\"base\"/><child link=\"arm\"/>\n  </joint>\n");
  }
  const std::string scene =
      "{\n  \"objects\": [\n    {\"name\": \"bot\", \"type\": \"urdf\",\n"
      "     \"file\": \"bad_robot.urdf\"}\n  ]\n}\n";
  Expected<Scene> loaded = ParseScene(scene, dir + "/scene.json");
  ASSERT_FALSE(loaded.ok());
  const std::string out = loaded.diagnostics().Format();
  EXPECT_THAT(out, HasSubstr("bad_robot.urdf:5: error: joint 'elbow' has unknown type"));
  EXPECT_THAT(out, HasSubstr("scene.json:4: note: in the robot of object 'bot'"));
}

}  // namespace
}  // namespace sim::io
