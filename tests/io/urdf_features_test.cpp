// URDF features beyond links and joints: meshes as collision hulls or SDF-backed meshes, visuals
// with their materials, colours and textures (the real Fetch's COLLADA visuals Z-up and on their
// collision meshes), planar, floating and mimic joints, damping and friction, resource URIs, and
// every new diagnostic at its exact line.
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/geometry/visual_mesh.h"
#include "engine/io/mesh_cache.h"
#include "engine/io/scene_file.h"
#include "engine/io/urdf_loader.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

const std::string kRobots = test_support::SharedDataDir() + "/robots";
const std::string kFetch = kRobots + "/fetch_description/robots/fetch.urdf";
const std::string kAllegro =
    kRobots + "/allegro_hand_description/allegro_hand_description_right.urdf";

#define REQUIRE_ROBOTS()                                                \
  if (!std::filesystem::is_directory(kRobots + "/fetch_description")) { \
    SIM_SKIP_OR_FAIL_IN_CI("robot test data not found at " + kRobots);  \
  }

// a folder of its own under the test temp dir
std::filesystem::path TempDir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / name;
  std::filesystem::create_directories(dir);
  return dir;
}

// a closed unit cube [0, 1]³ as OBJ, counter-clockwise from outside
void WriteCube(const std::filesystem::path& path) {
  std::ofstream(path) << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
                         "f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
                         "f 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";
}

struct Converted {
  Model model;
  State state;
  Diagnostics diagnostics;
};

Converted Convert(const UrdfRobot& robot, const RobotPlacement& placement = {}) {
  Converted c;
  c.model.materials.push_back(Material{.name = "default"});
  AddRobotToModel(robot, placement, &c.model, &c.state, &c.diagnostics);
  return c;
}

Vec3 MeshUpper(const VisualMesh& mesh) {
  Vec3 upper = Vec3::Constant(-1e9);
  for (const auto& p : mesh.positions) upper = upper.cwiseMax(Vec3(p[0], p[1], p[2]));
  return upper;
}


TEST(UrdfFeaturesTest, FetchMeshesBecomeHullsAndZUpVisuals) {
  REQUIRE_ROBOTS();
  MeshCache::Global().Clear();
  Expected<UrdfRobot> robot = LoadUrdf(kFetch, UrdfOptions{.package_paths = {kRobots}});
  ASSERT_TRUE(robot.ok()) << robot.diagnostics().Format();
  const Converted fetch = Convert(robot.value());
  ASSERT_FALSE(fetch.diagnostics.has_errors()) << fetch.diagnostics.Format();
  const Model& model = fetch.model;
  // all 21 collision geometries are meshes: 21 hulls within the default 64-vertex budget, each
  // with its drawn faces
  ASSERT_EQ(model.shape_count(), 21);
  ASSERT_EQ(model.shape_visual_mesh.size(), 21u);
  for (int s = 0; s < model.shape_count(); ++s) {
    ASSERT_EQ(model.shape_geometry[s].type, ShapeType::kConvexHull) << model.shape_name[s];
    EXPECT_LE(model.shape_geometry[s].hull->vertices.size(), 64u) << model.shape_name[s];
    ASSERT_TRUE(model.shape_visual_mesh[s]) << model.shape_name[s];
  }
  // 21 visuals, all meshes; the COLLADA ones keep their textured materials (alpha 0), the STL
  // ones take the URDF colour
  ASSERT_EQ(model.visual_count(), 21);
  int textured = 0;
  for (int v = 0; v < model.visual_count(); ++v) {
    ASSERT_EQ(model.visual_geometry[v].type, ShapeType::kMesh) << model.visual_name[v];
    ASSERT_TRUE(model.visual_mesh[v]) << model.visual_name[v];
    const VisualMesh& mesh = *model.visual_mesh[v];
    const bool collada = mesh.name.ends_with(".dae");
    EXPECT_EQ(model.visual_color[v][3] == 0, collada) << model.visual_name[v];
    for (const VisualMesh::Part& part : mesh.parts) {
      if (part.texture.empty()) continue;
      EXPECT_TRUE(std::filesystem::is_regular_file(part.texture)) << part.texture;
      EXPECT_EQ(mesh.uvs.size(), mesh.positions.size());
      ++textured;
    }
  }
  // 14 DAEs, base_link.dae with 4 textures: at least 14 textured parts
  EXPECT_GE(textured, 14);

  // Z-up: every COLLADA visual covers the same box as its link's collision hull (the STLs are
  // Z-up by construction), within 1 cm, both in the body frame; a Y-up reading would swap the y
  // and z extents
  int compared = 0;
  for (int v = 0; v < model.visual_count(); ++v) {
    const VisualMesh& mesh = *model.visual_mesh[v];
    if (!mesh.name.ends_with(".dae")) continue;
    int s = -1;
    for (int k = 0; k < model.shape_count(); ++k) {
      if (model.shape_name[k] == model.visual_name[v]) s = k;
    }
    if (s < 0) continue;
    Vec3 visual_lower = Vec3::Constant(1e9), visual_upper = Vec3::Constant(-1e9);
    for (const auto& p : mesh.positions) {
      const Vec3 x = model.visual_X_BV[v] * Vec3(p[0], p[1], p[2]);
      visual_lower = visual_lower.cwiseMin(x);
      visual_upper = visual_upper.cwiseMax(x);
    }
    Vec3 hull_lower = Vec3::Constant(1e9), hull_upper = Vec3::Constant(-1e9);
    for (const Vec3& p : model.shape_geometry[s].hull->vertices) {
      const Vec3 x = model.shape_X_BS[s] * p;
      hull_lower = hull_lower.cwiseMin(x);
      hull_upper = hull_upper.cwiseMax(x);
    }
    EXPECT_LT((visual_lower - hull_lower).cwiseAbs().maxCoeff(), 0.01) << mesh.name;
    EXPECT_LT((visual_upper - hull_upper).cwiseAbs().maxCoeff(), 0.01) << mesh.name;
    ++compared;
  }
  EXPECT_GE(compared, 10);
  // the base visual in the world: a 0.57 m footprint, 0.36 m tall, standing on z = 0
  const int base = 0;
  ASSERT_EQ(model.visual_name[base], "base_link");
  const Pose X_WV = fetch.state.body_X_WB[model.visual_body[base]] * model.visual_X_BV[base];
  Vec3 lower = Vec3::Constant(1e9), upper = Vec3::Constant(-1e9);
  for (const auto& p : model.visual_mesh[base]->positions) {
    const Vec3 x = X_WV * Vec3(p[0], p[1], p[2]);
    lower = lower.cwiseMin(x);
    upper = upper.cwiseMax(x);
  }
  EXPECT_NEAR(upper.z() - lower.z(), 0.36, 0.01);
  EXPECT_NEAR(upper.x() - lower.x(), 0.57, 0.01);
  EXPECT_NEAR(lower.z(), 0, 0.005);
}


TEST(UrdfFeaturesTest, MeshesAreSharedBetweenRobotsAndScenes) {
  REQUIRE_ROBOTS();
  Expected<UrdfRobot> robot = LoadUrdf(kAllegro, UrdfOptions{.package_paths = {kRobots}});
  ASSERT_TRUE(robot.ok());
  const Converted first = Convert(robot.value());
  const Converted second = Convert(robot.value());
  ASSERT_EQ(first.model.visual_count(), 21);
  // the same (file, scale) is one VisualMesh for both robots, and for the fingers that repeat a
  // link mesh within a robot (link_1.0.STL is the first phalanx of three fingers)
  for (int v = 0; v < first.model.visual_count(); ++v) {
    EXPECT_EQ(first.model.visual_mesh[v], second.model.visual_mesh[v])
        << first.model.visual_name[v];
  }
  int shared = 0;
  for (int a = 0; a < first.model.visual_count(); ++a) {
    for (int b = a + 1; b < first.model.visual_count(); ++b) {
      shared += first.model.visual_mesh[a] == first.model.visual_mesh[b];
    }
  }
  EXPECT_GE(shared, 6);
  // the Allegro collides through primitives: 17 boxes and 4 fingertip spheres, no drawn meshes
  EXPECT_EQ(first.model.shape_count(), 21);
  EXPECT_TRUE(first.model.shape_visual_mesh.empty());
}


// a small robot exercising planar, floating and mimic joints, damping, friction, materials and
// mesh collision, with its files in a temp folder
constexpr const char* kFeatureRobot = R"(<?xml version="1.0"?>
<robot name="features">
  <material name="blue"><color rgba="0 0 1 1"/></material>
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="0.2 0.2 0.2"/></geometry><material name="blue"/></visual>
    <collision><geometry><mesh filename="cube.obj" scale="0.2 0.2 0.2"/></geometry></collision>
  </link>
  <link name="slider">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="cube.obj" scale="0.1 0.2 0.3"/></geometry>
      <material name="red"><color rgba="1 0 0 0.5"/></material></visual>
  </link>
  <link name="finger_a">
    <inertial><mass value="0.1"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="finger_b">
    <inertial><mass value="0.1"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="puck">
    <inertial><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="free">
    <inertial><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="slide" type="prismatic">
    <parent link="base"/><child link="slider"/><axis xyz="1 0 0"/>
    <limit lower="-0.5" upper="0.5" effort="10" velocity="1"/>
    <dynamics damping="0.7" friction="2.5"/>
  </joint>
  <joint name="finger_a_joint" type="revolute">
    <origin xyz="0 0.1 0"/><parent link="slider"/><child link="finger_a"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="finger_b_joint" type="revolute">
    <origin xyz="0 -0.1 0"/><parent link="slider"/><child link="finger_b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="finger_a_joint" multiplier="-1" offset="0.05"/>
  </joint>
  <joint name="table" type="planar">
    <origin xyz="0 0 0.5"/><parent link="base"/><child link="puck"/><axis xyz="0 0 1"/>
  </joint>
  <joint name="loose" type="floating">
    <origin xyz="1 0 0"/><parent link="base"/><child link="free"/>
  </joint>
</robot>
)";

UrdfRobot FeatureRobot() {
  const std::filesystem::path dir = TempDir("urdf_features");
  WriteCube(dir / "cube.obj");
  std::ofstream(dir / "features.urdf") << kFeatureRobot;
  Expected<UrdfRobot> robot = LoadUrdf((dir / "features.urdf").string(), UrdfOptions{});
  EXPECT_TRUE(robot.ok()) << robot.diagnostics().Format();
  EXPECT_FALSE(robot.diagnostics().has_errors());
  return robot.ok() ? robot.value() : UrdfRobot{};
}


TEST(UrdfFeaturesTest, JointTypesDampingFrictionAndMimic) {
  const UrdfRobot robot = FeatureRobot();
  ASSERT_EQ(robot.joints.size(), 5u);
  EXPECT_EQ(robot.JointSummary(), "5 joints: 2 revolute, 1 prismatic, 1 floating, 1 planar");
  RobotPlacement placement;
  placement.hold_stiffness = 100;
  placement.hold_damping = 1;
  const Converted c = Convert(robot, placement);
  ASSERT_FALSE(c.diagnostics.has_errors()) << c.diagnostics.Format();
  const Model& model = c.model;
  // every link a body; the floating joint leaves "free" without a joint: base weld, slide, two
  // fingers, the planar joint
  EXPECT_EQ(model.body_count(), 6);
  ASSERT_EQ(model.joint_count(), 5);
  EXPECT_EQ(model.FindJoint("loose"), -1);
  const int planar = model.FindJoint("table");
  ASSERT_GE(planar, 0);
  EXPECT_EQ(model.joint_type[planar], JointType::kPlanar);
  EXPECT_TRUE(model.joint_axis[planar].isApprox(Vec3::UnitZ(), 1e-12));
  // the free link starts where the floating joint's origin puts it (1 m along the base's x)
  const int free = model.FindBody("free");
  EXPECT_TRUE(c.state.body_X_WB[free].p.isApprox(Vec3(1, 0, 0), 1e-12));
  // damping adds to the hold drive; friction is the joint's Coulomb bound
  const int slide = model.FindJoint("slide");
  EXPECT_DOUBLE_EQ(model.joint_drive[slide].stiffness, 100);
  EXPECT_DOUBLE_EQ(model.joint_drive[slide].damping, 1 + 0.7);
  ASSERT_EQ(model.joint_friction.size(), 5u);
  EXPECT_DOUBLE_EQ(model.joint_friction[slide], 2.5);
  EXPECT_DOUBLE_EQ(model.JointFrictionLimit(planar), 0);
  // the mimic: one coupling, and no hold drive on the follower
  ASSERT_EQ(model.joint_couplings.size(), 1u);
  const JointCoupling& coupling = model.joint_couplings[0];
  EXPECT_EQ(coupling.follower, model.FindJoint("finger_b_joint"));
  EXPECT_EQ(coupling.leader, model.FindJoint("finger_a_joint"));
  EXPECT_DOUBLE_EQ(coupling.multiplier, -1);
  EXPECT_DOUBLE_EQ(coupling.offset, 0.05);
  EXPECT_FALSE(model.joint_drive[coupling.follower].enabled());
  EXPECT_DOUBLE_EQ(model.joint_drive[coupling.leader].stiffness, 100);
  // the follower starts on its coupling: θ_b = −θ_a + 0.05 with θ_a = 0
  const auto coordinate = [&](const Converted& k, int j) {
    return JointCoordinate(k.model, j, k.state.body_X_WB[k.model.joint_parent[j]],
                           k.state.body_X_WB[k.model.joint_child[j]]);
  };
  EXPECT_NEAR(coordinate(c, coupling.follower), 0.05, 1e-12);
  RobotPlacement moved = placement;
  moved.initial_positions["finger_a_joint"] = 0.3;
  const Converted bent = Convert(robot, moved);
  EXPECT_NEAR(coordinate(bent, coupling.leader), 0.3, 1e-12);
  EXPECT_NEAR(coordinate(bent, coupling.follower), -0.25, 1e-12);

  // without a hold drive the URDF damping alone is a damping-only drive (viscous damping); a
  // friction scale of 0 turns joint friction off
  RobotPlacement bare;
  bare.joint_friction_scale = 0;
  const Converted plain = Convert(robot, bare);
  EXPECT_DOUBLE_EQ(plain.model.joint_drive[slide].stiffness, 0);
  EXPECT_DOUBLE_EQ(plain.model.joint_drive[slide].damping, 0.7);
  EXPECT_TRUE(plain.model.joint_friction.empty());
}


TEST(UrdfFeaturesTest, VisualMaterialsAndMeshCollision) {
  const UrdfRobot robot = FeatureRobot();
  const Converted c = Convert(robot);
  const Model& model = c.model;
  ASSERT_EQ(model.visual_count(), 2);
  // the base's box in the robot-level material 'blue'
  EXPECT_EQ(model.visual_geometry[0].type, ShapeType::kBox);
  EXPECT_TRUE(model.visual_geometry[0].half_extents.isApprox(Vec3::Constant(0.1), 1e-12));
  EXPECT_EQ(model.visual_color[0], (std::array<float, 4>{0, 0, 1, 1}));
  // the slider's OBJ has no materials of its own: drawn in the visual's own red, scaled per axis
  EXPECT_EQ(model.visual_geometry[1].type, ShapeType::kMesh);
  EXPECT_EQ(model.visual_color[1], (std::array<float, 4>{1, 0, 0, 0.5f}));
  const VisualMesh& slider = *model.visual_mesh[1];
  EXPECT_TRUE(MeshUpper(slider).isApprox(Vec3(0.1, 0.2, 0.3), 1e-6));
  EXPECT_EQ(slider.triangle_count(), 12);
  EXPECT_EQ(slider.vertex_count(), 24);  // 90° creases: 4 corners per face
  // the base collides through the hull of its scaled cube
  ASSERT_EQ(model.shape_count(), 1);
  ASSERT_EQ(model.shape_geometry[0].type, ShapeType::kConvexHull);
  EXPECT_NEAR(model.shape_geometry[0].hull->volume, 0.008, 1e-12);
  // or through the SDF-backed mesh when asked
  RobotPlacement sdf;
  sdf.collision_meshes = MeshCollision::kSdf;
  sdf.sdf_resolution = 16;
  const Converted exact = Convert(robot, sdf);
  ASSERT_EQ(exact.model.shape_geometry[0].type, ShapeType::kMesh);
  const CollisionMesh& mesh = *exact.model.shape_geometry[0].mesh;
  EXPECT_TRUE(mesh.closed);
  EXPECT_TRUE(mesh.sdf);
  EXPECT_NEAR(mesh.mass.volume, 0.008, 1e-12);
}


TEST(UrdfFeaturesTest, TexturesResolveAndMissingOnesAreWarnings) {
  const std::filesystem::path dir = TempDir("urdf_texture");
  std::ofstream(dir / "wood.png") << "not really a png";
  std::ofstream(dir / "t.urdf")
      << "<robot name=\"t\">\n"                                                         // 1
         "  <link name=\"a\">\n"                                                        // 2
         "    <visual><geometry><sphere radius=\"0.1\"/></geometry>\n"                  // 3
         "      <material name=\"wood\"><texture filename=\"wood.png\"/></material>\n"  // 4
         "    </visual>\n"                                                              // 5
         "    <visual><geometry><sphere radius=\"0.1\"/></geometry>\n"                  // 6
         "      <material name=\"\"><texture filename=\"package://p/stone.png\"/>"
         "</material>\n"  // 7
         "    </visual>\n  </link>\n</robot>\n";
  Expected<UrdfRobot> robot = LoadUrdf((dir / "t.urdf").string(), UrdfOptions{});
  ASSERT_TRUE(robot.ok()) << robot.diagnostics().Format();
  EXPECT_EQ(robot->links[0].visuals[0].texture, (dir / "wood.png").string());
  EXPECT_TRUE(robot->links[0].visuals[1].texture.empty());
  EXPECT_THAT(robot.diagnostics().Format(),
              HasSubstr("t.urdf:7: warning: link 'a' <visual> <material> texture "
                        "'package://p/stone.png' not found (tried: "));
}


TEST(UrdfFeaturesTest, EveryUriFormResolves) {
  const std::filesystem::path dir = TempDir("urdf_uris");
  std::filesystem::create_directories(dir / "pkg_root" / "my_pkg" / "meshes");
  std::filesystem::create_directories(dir / "ros_ws" / "ros_pkg" / "urdf");
  std::filesystem::create_directories(dir / "ros_ws" / "ros_pkg" / "meshes");
  for (const auto& p : {dir / "pkg_root" / "my_pkg" / "meshes" / "m.obj", dir / "rel.obj",
                        dir / "ros_ws" / "ros_pkg" / "meshes" / "r.obj"}) {
    WriteCube(p);
  }
  const std::string base = dir.string();
  std::vector<std::string> tried;
  // package:// through the package path list (R/pkg/rest, and R/rest when R is the package)
  EXPECT_EQ(ResolveResource("package://my_pkg/meshes/m.obj", base, {base + "/pkg_root"}, &tried),
            base + "/pkg_root/my_pkg/meshes/m.obj");
  EXPECT_EQ(
      ResolveResource("package://my_pkg/meshes/m.obj", base, {base + "/pkg_root/my_pkg"}, &tried),
      base + "/pkg_root/my_pkg/meshes/m.obj");
  // package:// through CONTACT_STUDIO_PACKAGE_PATH, then ROS_PACKAGE_PATH
  setenv("ROS_PACKAGE_PATH", (base + "/pkg_root").c_str(), 1);
  EXPECT_EQ(ResolveResource("package://my_pkg/meshes/m.obj", base, {}, &tried),
            base + "/pkg_root/my_pkg/meshes/m.obj");
  unsetenv("ROS_PACKAGE_PATH");
  // package:// found as an ancestor of the URDF (ROS layout, no path set)
  EXPECT_EQ(
      ResolveResource("package://ros_pkg/meshes/r.obj", base + "/ros_ws/ros_pkg/urdf", {}, &tried),
      base + "/ros_ws/ros_pkg/meshes/r.obj");
  // file://, absolute and relative paths
  EXPECT_EQ(ResolveResource("file://" + base + "/rel.obj", "/elsewhere", {}, &tried),
            base + "/rel.obj");
  EXPECT_EQ(ResolveResource(base + "/rel.obj", "/elsewhere", {}, &tried), base + "/rel.obj");
  EXPECT_EQ(ResolveResource("rel.obj", base, {}, &tried), base + "/rel.obj");
  // not found: empty, with every path it tried
  tried.clear();
  EXPECT_EQ(ResolveResource("file:///nowhere/x.obj", base, {}, &tried), "");
  EXPECT_EQ(tried, (std::vector<std::string>{"/nowhere/x.obj"}));
}


// every new URDF diagnostic, exact message at its line
std::string Errors(const std::string& text) {
  Expected<UrdfRobot> robot = ParseUrdf(text, "robot.urdf", UrdfOptions{});
  EXPECT_FALSE(robot.ok());
  return robot.diagnostics().Format();
}

TEST(UrdfFeaturesTest, MaterialAndMimicDiagnostics) {
  const std::string out = Errors(
      "<robot name=\"r\">\n"                                                              // 1
      "  <material name=\"dim\"><color rgba=\"0.5 0.5 2 1\"/></material>\n"               // 2
      "  <link name=\"a\"><visual><geometry><sphere radius=\"1\"/></geometry>\n"          // 3
      "    <material name=\"steel\"/></visual></link>\n"                                  // 4
      "  <link name=\"b\"/><link name=\"c\"/>\n"                                          // 5
      "  <joint name=\"j1\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>\n"  // 6
      "    <limit lower=\"0\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n"                // 7
      "    <mimic joint=\"nope\"/><dynamics damping=\"-1\"/></joint>\n"                   // 8
      "  <joint name=\"j2\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/>\n"     // 9
      "    <mimic joint=\"j1\"/></joint>\n"                                               // 10
      "</robot>\n");
  EXPECT_THAT(out, HasSubstr("robot.urdf:2: error: robot <material 'dim'> <color> 'rgba' is '0.5 "
                             "0.5 2 1', expected 4 numbers in [0, 1]"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:4: error: link 'a' <visual> uses material 'steel', "
                             "which is not defined (define it under <robot> with a <color> or "
                             "<texture>, or give this one a <color>)"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:8: error: joint 'j1' mimics 'nope', which is not a "
                             "joint of this robot"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:8: error: joint 'j1' <dynamics> 'damping' is -1, "
                             "expected a value >= 0"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:10: error: joint 'j2' of type 'fixed' cannot mimic "
                             "another joint (only revolute, continuous and prismatic joints "
                             "can)"));
}

TEST(UrdfFeaturesTest, MimicOfAFixedJointAndUnloadableMesh) {
  const std::string out = Errors(
      "<robot name=\"r\">\n  <link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n"  // 1-2
      "  <joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"  // 3
      "  <joint name=\"j2\" type=\"continuous\"><parent link=\"b\"/><child link=\"c\"/>\n"     // 4
      "    <mimic joint=\"j1\" multiplier=\"two\"/></joint>\n"                                 // 5
      "</robot>\n");
  EXPECT_THAT(out, HasSubstr("robot.urdf:5: error: joint 'j2' <mimic> 'multiplier' is 'two', "
                             "expected a finite number"));
  EXPECT_THAT(out, HasSubstr("robot.urdf:5: error: joint 'j2' mimics joint 'j1' of type 'fixed' "
                             "(expected a revolute, continuous or prismatic joint)"));

  // a mesh that resolves but does not load: an error at the file, a note at the URDF line
  const std::filesystem::path dir = TempDir("urdf_bad_mesh");
  std::ofstream(dir / "broken.stl") << "solid x\n facet normal nonsense\n";
  std::ofstream(dir / "r.urdf") << "<robot name=\"r\">\n  <link name=\"a\">\n"
                                   "    <collision><geometry><mesh filename=\"broken.stl\"/>"
                                   "</geometry></collision>\n  </link>\n</robot>\n";
  Expected<UrdfRobot> robot = LoadUrdf((dir / "r.urdf").string(), UrdfOptions{});
  ASSERT_TRUE(robot.ok()) << robot.diagnostics().Format();
  const Converted c = Convert(robot.value());
  EXPECT_TRUE(c.diagnostics.has_errors());
  const std::string text = c.diagnostics.Format();
  EXPECT_THAT(text, HasSubstr((dir / "broken.stl").string() + ": error: cannot read mesh"));
  EXPECT_THAT(text, HasSubstr("r.urdf:3: note: used by this <collision> mesh 'broken.stl'"));
}

}  // namespace
}  // namespace sim::io
