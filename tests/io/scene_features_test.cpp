// Scene keys added with the URDF work: friction pairs (and the collision stage using them),
// probes, named cameras, planar/friction/mimic joints, URDF object options, drawn surfaces of mesh
// and field objects, the default scene around a lone file; and the issue's list of scene
// diagnostics (JSON syntax error, unknown key, wrong type), each with its exact message and line.
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/collision/collision.h"
#include "engine/dynamics/constraint_rows.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/visual_mesh.h"
#include "engine/io/default_scene.h"
#include "engine/io/scene_file.h"
#include "engine/step/contact_material.h"
#include "engine/step/pipeline.h"
#include "engine/step/probes.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

const std::string kRobots = test_support::SharedDataDir() + "/robots";

std::string Errors(const std::string& text) {
  Expected<Scene> scene =
      ParseScene(text, "s.json", SceneOptions{.file_roots = test_support::TestFileRoots()});
  EXPECT_FALSE(scene.ok());
  return scene.diagnostics().Format();
}

Scene Load(const std::string& text, const std::string& source = "s.json") {
  Expected<Scene> scene = ParseScene(text, source);
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  return scene.ok() ? std::move(scene.value()) : Scene{};
}


TEST(SceneDiagnosticsTest, SyntaxErrorUnknownKeyAndWrongTypeAtTheirLines) {
  // a missing comma: RapidJSON stops where the next member starts
  EXPECT_EQ(Errors("{\n  \"objects\": [\n    {\"name\": \"a\", \"type\": \"plane\"}\n"
                   "    {\"name\": \"b\"}\n  ]\n}\n"),
            "s.json:4: error: invalid JSON: Missing a comma or ']' after an array element.\n");
  // an unknown key is a warning listing the expected keys; the scene still loads
  Expected<Scene> typo = ParseScene(
      "{\"objects\": [\n  {\"name\": \"a\", \"type\": \"plane\",\n   \"ofset\": 1}]}", "s.json");
  ASSERT_TRUE(typo.ok());
  EXPECT_EQ(typo.diagnostics().Format(),
            "s.json:3: warning: unknown key 'ofset' in object 'a' (expected one of: name, type, "
            "material, color, normal, offset, collision_group, collides_with, structure_field); "
            "it is ignored "
            "(at /objects/0/ofset)\n");
  // a wrong type names the value and the type expected
  EXPECT_THAT(Errors("{\"objects\": [\n  {\"name\": \"a\", \"type\": \"sphere\",\n"
                     "   \"radius\": \"big\"}]}"),
              HasSubstr("s.json:3: error: object 'a' 'radius' must be a number, not a string (at "
                        "/objects/0/radius)"));
  EXPECT_THAT(Errors("{\"probes\": {},\n \"objects\": []}"),
              HasSubstr("s.json:1: error: 'probes' must be a array, not a object (at /probes)"));
}


TEST(SceneFeaturesTest, FrictionPairsReplaceTheMeanInContacts) {
  const Scene scene = Load(R"({
    "materials": {"rubber": {"friction": 0.9}, "ice": {"friction": 0.1}},
    "friction_pairs": [{"materials": ["ice", "rubber"], "friction": 0.05}],
    "objects": [
      {"name": "ground", "type": "plane", "material": "ice"},
      {"name": "tyre", "type": "sphere", "radius": 0.1, "position": [0, 0, 0.1],
       "material": "rubber"},
      {"name": "crate", "type": "box", "size": [0.2, 0.2, 0.2], "position": [1, 0, 0.1]}
    ]})");
  const Model& model = *scene.model;
  ASSERT_EQ(model.friction_pairs.size(), 1u);
  EXPECT_DOUBLE_EQ(ContactFriction(model, 1, 2), 0.05);  // the pair, either order
  EXPECT_DOUBLE_EQ(ContactFriction(model, 2, 1), 0.05);
  EXPECT_DOUBLE_EQ(ContactFriction(model, 0, 2), 0.5 * (0.5 + 0.1));  // default–ice: the mean
  Contacts contacts;
  CollisionStats stats;
  DetectContacts(model, scene.initial_state, 0.01, &contacts, &stats);
  AssignContactMaterials(model, scene.initial_state, &contacts);
  int tyre = 0, crate = 0;
  for (const Contact& c : contacts.items) {
    const int body = c.a.body >= 0 ? c.a.body : c.b.body;
    if (model.body_name[body] == "tyre") {
      EXPECT_DOUBLE_EQ(c.friction_t, 0.05);
      ++tyre;
    } else {
      EXPECT_DOUBLE_EQ(c.friction_t, 0.3);
      ++crate;
    }
  }
  EXPECT_GT(tyre, 0);
  EXPECT_GT(crate, 0);

  const std::string errors = Errors(R"({"materials": {"ice": {}},
    "friction_pairs": [
      {"materials": ["ice", "lava"], "friction": 0.2},
      {"materials": ["ice", "default"], "friction": 0.2},
      {"materials": ["default", "ice"], "friction": 11},
      {"materials": ["default", "ice"], "friction": 0.3}],
    "objects": []})");
  EXPECT_THAT(errors, HasSubstr("s.json:3: error: friction pair 0 names unknown material 'lava' "
                                "(defined: default, ice) (at /friction_pairs/0/materials/1)"));
  EXPECT_THAT(errors, HasSubstr("s.json:5: error: friction pair 2 'friction' is 11, expected a "
                                "value in [0, 10]"));
  EXPECT_THAT(errors, HasSubstr("s.json:6: error: friction pair 3 repeats the pair 'default', "
                                "'ice'"));
}


constexpr const char* kPendulum = R"({
  "gravity": [0, 0, -9.81],
  "objects": [
    {"name": "bob", "type": "box", "size": [0.1, 0.1, 0.1], "mass": 1, "position": [0.5, 0, 1]},
    {"name": "puck", "type": "box", "size": [0.1, 0.1, 0.02], "mass": 1, "position": [3, 0, 0.5],
     "velocity": [0.2, 0.1, 0]},
    {"name": "a", "type": "box", "size": [0.1, 0.1, 0.1], "mass": 1, "position": [5, 0, 1]},
    {"name": "b", "type": "box", "size": [0.1, 0.1, 0.1], "mass": 1, "position": [6, 0, 1]},
    {"name": "dust", "type": "particle", "radius": 0.01, "position": [0, 3, 1]}
  ],
  "joints": [
    {"name": "hinge", "type": "revolute", "parent": "world", "child": "bob", "anchor": [0, 0, 1],
     "axis": [0, 1, 0], "friction": 0.01},
    {"name": "plane", "type": "planar", "parent": "world", "child": "puck", "axis": [0, 0, 1]},
    {"name": "lead", "type": "revolute", "parent": "world", "child": "a", "axis": [0, 0, 1],
     "drive": {"stiffness": 10, "target_position": 0.3}},
    {"name": "follow", "type": "revolute", "parent": "world", "child": "b", "axis": [0, 0, 1],
     "mimic": {"joint": "lead", "multiplier": 2, "offset": 0.1}}
  ],
  "probes": [
    {"name": "angle", "type": "joint_position", "joint": "hinge"},
    {"name": "rate", "type": "joint_velocity", "joint": "hinge"},
    {"name": "bob_x", "type": "body_position", "body": "bob"},
    {"name": "bob_q", "type": "body_orientation", "body": "bob"},
    {"name": "dust_x", "type": "particle_position", "particle": "dust"}
  ],
  "camera": {"distance": 4},
  "cameras": [{"name": "side", "yaw_deg": 90}, {"name": "top", "pitch_deg": 80, "distance": 9}]
})";


TEST(SceneFeaturesTest, JointsProbesAndCameras) {
  const Scene scene = Load(kPendulum);
  const Model& model = *scene.model;
  ASSERT_EQ(model.joint_count(), 4);
  EXPECT_EQ(model.joint_type[1], JointType::kPlanar);
  ASSERT_EQ(model.joint_friction.size(), 4u);
  EXPECT_DOUBLE_EQ(model.joint_friction[0], 0.01);
  EXPECT_DOUBLE_EQ(model.joint_friction[3], 0);
  ASSERT_EQ(model.joint_couplings.size(), 1u);
  EXPECT_EQ(model.joint_couplings[0].follower, 3);
  EXPECT_EQ(model.joint_couplings[0].leader, 2);
  EXPECT_DOUBLE_EQ(model.joint_couplings[0].multiplier, 2);
  // cameras: named views start from `camera`
  ASSERT_EQ(model.cameras.size(), 2u);
  EXPECT_EQ(model.cameras[0].name, "side");
  EXPECT_DOUBLE_EQ(model.cameras[0].setup.distance, 4);
  EXPECT_DOUBLE_EQ(model.cameras[0].setup.yaw_deg, 90);
  EXPECT_DOUBLE_EQ(model.cameras[1].setup.distance, 9);
  EXPECT_DOUBLE_EQ(model.camera.distance, 4);

  // probes sampled along a run: the hinge angle and rate agree with the bob's motion
  ASSERT_EQ(model.probes.size(), 5u);
  auto simulation = Simulation::Create(scene.model, scene.initial_state, "nsn");
  ASSERT_TRUE(simulation.ok());
  ProbeLog log;
  log.Reset(model);
  for (int i = 0; i < 60; ++i) {
    simulation.value()->Step();
    log.Record(model, simulation.value()->state());
  }
  ASSERT_EQ(log.sample_count(), 60);
  ASSERT_EQ(log.samples[0].size(), 60u);   // 1 value per sample
  ASSERT_EQ(log.samples[2].size(), 180u);  // 3
  ASSERT_EQ(log.samples[3].size(), 240u);  // 4
  const State& s = simulation.value()->state();
  // the bob swings down about +y: the angle is its rotation about y
  const Vec3 arm = s.body_X_WB[0].p - Vec3(0, 0, 1);
  EXPECT_NEAR(log.samples[0].back(), -std::atan2(arm.z(), arm.x()), 1e-6);
  EXPECT_NEAR(log.samples[2][177], s.body_X_WB[0].p.x(), 1e-15);
  // the rate: the central difference of the angle samples (second order in Δt)
  const Real dt = model.options.solver.dt;
  const Real difference = (log.samples[0][58] - log.samples[0][56]) / (2 * dt);
  EXPECT_NEAR(log.samples[1][57], difference, 0.02 * std::abs(difference));
  // the particle falls freely
  EXPECT_LT(log.samples[4].back(), 1.0);
  // the follower joint keeps θ_f = 2 θ_l + 0.1 (a rigid row; the default 6 iterations)
  EXPECT_NEAR(JointCoordinate(model, 3, Pose{}, s.body_X_WB[3]),
              2 * JointCoordinate(model, 2, Pose{}, s.body_X_WB[2]) + 0.1, 1e-4);
}


// the bodies as given are the configuration where each joint is at its initial position
TEST(SceneFeaturesTest, JointInitialPositions) {
  Expected<Scene> scene = ParseScene(R"({"objects": [
    {"name": "arm", "type": "box", "size": [0.5, 0.1, 0.1], "position": [0.25, 0, 1]},
    {"name": "cart", "type": "box", "size": [0.1, 0.1, 0.1], "position": [2, 0, 1]}],
    "joints": [
      {"name": "hinge", "type": "revolute", "parent": "world", "child": "arm",
       "anchor": [0, 0, 1], "axis": [0, 0, 1], "initial_position_deg": 30,
       "limits_deg": [-10, 10]},
      {"name": "rail", "type": "prismatic", "parent": "world", "child": "cart",
       "axis": [1, 0, 0], "initial_position": 0.4, "limits": [0, 1]}]})",
                                     "s.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  const State& state = scene->initial_state;
  EXPECT_NEAR(JointCoordinate(model, 0, Pose{}, state.body_X_WB[0]), 30 * 3.14159265358979 / 180,
              1e-12);
  EXPECT_NEAR(JointCoordinate(model, 1, Pose{}, state.body_X_WB[1]), 0.4, 1e-12);
  // 30° is outside [-10°, 10°]: a warning at the limits
  EXPECT_THAT(scene.diagnostics().Format(),
              HasSubstr("s.json:7: warning: joint 'hinge' starts outside its limits (its initial "
                        "position is 0.523599; joint positions are measured from the "
                        "configuration where the joint is at 0, see 'initial_position')"));
  EXPECT_THAT(Errors(R"({"objects": [{"name": "a", "type": "box", "size": [1, 1, 1]}],
    "joints": [{"name": "j", "type": "ball", "parent": "world", "child": "a",
      "initial_position": 1}]})"),
              HasSubstr("s.json:3: error: joint 'j' of type 'ball' has no initial position (only "
                        "revolute, continuous and prismatic joints have one)"));
}


TEST(SceneFeaturesTest, ProbeAndJointErrors) {
  const std::string errors = Errors(R"({"objects": [
    {"name": "a", "type": "box", "size": [1, 1, 1]},
    {"name": "w", "type": "box", "size": [1, 1, 1], "fixed": true}],
    "joints": [
      {"name": "j", "type": "ball", "parent": "world", "child": "a", "friction": 1},
      {"name": "k", "type": "revolute", "parent": "world", "child": "a", "axis": [0, 0, 1],
       "mimic": {"joint": "nope"}}],
    "probes": [
      {"name": "p", "type": "body_position", "body": "w"},
      {"name": "q", "type": "joint_angle", "joint": "k"},
      {"name": "r", "type": "joint_position", "body": "a"},
      {"name": "p", "type": "body_position", "body": "a"}]})");
  EXPECT_THAT(errors, HasSubstr("s.json:5: error: joint 'j' of type 'ball' cannot have friction "
                                "(only revolute, continuous and prismatic joints can)"));
  EXPECT_THAT(errors, HasSubstr("s.json:7: error: joint 'k' mimics 'nope', which is not a joint "
                                "(at /joints/1/mimic/joint)"));
  EXPECT_THAT(errors, HasSubstr("s.json:9: error: probe 'p' body 'w' is not a dynamic body of the "
                                "scene (at /probes/0/body)"));
  EXPECT_THAT(errors, HasSubstr("s.json:10: error: probe 'q' 'type' is 'joint_angle', expected one "
                                "of: body_position, body_orientation, body_velocity, "
                                "body_angular_velocity, joint_position, joint_velocity, "
                                "particle_position, soft_body_centroid"));
  EXPECT_THAT(errors, HasSubstr("s.json:11: error: probe 'r' of type 'joint_position' needs "
                                "'joint'"));
  EXPECT_THAT(errors, HasSubstr("s.json:12: error: duplicate probe name 'p'"));
}


TEST(SceneFeaturesTest, MeshAndFieldObjectsAreDrawn) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "drawn";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "cube.obj") << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\n"
                                     "v 1 1 1\nv 0 1 1\nf 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\n"
                                     "f 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\n"
                                     "f 4 1 5\nf 4 5 8\n";
  const Scene scene = Load(R"({"objects": [
      {"name": "ground", "type": "plane"},
      {"name": "exact", "type": "mesh", "file": "cube.obj", "sdf_resolution": 16},
      {"name": "hull", "type": "mesh", "file": "cube.obj", "collision": "hull", "scale": 0.5},
      {"name": "field", "type": "sdf", "fixed": true,
       "shape": {"primitive": "sphere", "radius": 0.3}}]})",
                           (dir / "s.json").string());
  const Model& model = *scene.model;
  ASSERT_EQ(model.shape_visual_mesh.size(), 4u);
  EXPECT_FALSE(model.shape_visual_mesh[0]);  // primitives draw themselves
  // the SDF-backed mesh: the file's surface (12 triangles); the hull: its 6 faces of 4 corners
  ASSERT_TRUE(model.shape_visual_mesh[1]);
  EXPECT_EQ(model.shape_visual_mesh[1]->triangle_count(), 12);
  ASSERT_TRUE(model.shape_visual_mesh[2]);
  EXPECT_EQ(model.shape_visual_mesh[2]->vertex_count(), 24);
  // the field: its isosurface, on the sphere
  ASSERT_TRUE(model.shape_visual_mesh[3]);
  EXPECT_GT(model.shape_visual_mesh[3]->triangle_count(), 500);
  for (const auto& p : model.shape_visual_mesh[3]->positions) {
    EXPECT_NEAR(Vec3(p[0], p[1], p[2]).norm(), 0.3, 1e-6);
  }
}


TEST(SceneFeaturesTest, UrdfObjectOptions) {
  if (!std::filesystem::is_directory(kRobots + "/allegro_hand_description")) {
    SIM_SKIP_OR_FAIL_IN_CI("robot test data not found at " + kRobots);
  }
  const Scene scene = Load(R"({
    "materials": {"rubber": {"friction": 1.2}},
    "objects": [{"name": "hand", "type": "urdf",
      "file": "allegro_hand_description/allegro_hand_description_right.urdf",
      "package_paths": ["."], "material": "rubber", "joint_friction_scale": 0.01,
      "hold_pose": {"stiffness": 10, "damping": 0.1},
      "drives": {"joint_1.0": {"stiffness": 3, "damping": 0.2, "target_position": 0.4}}}]})",
                           kRobots + "/hand.json");
  const Model& model = *scene.model;
  const int j = model.FindJoint("hand/joint_1.0");
  ASSERT_GE(j, 0);
  EXPECT_DOUBLE_EQ(model.joint_drive[j].stiffness, 3);
  EXPECT_DOUBLE_EQ(model.joint_drive[j].target_position, 0.4);
  EXPECT_DOUBLE_EQ(model.joint_drive[model.FindJoint("hand/joint_2.0")].stiffness, 10);
  // joint_1.0's <dynamics friction="5"> scaled by 0.01
  EXPECT_DOUBLE_EQ(model.joint_friction[j], 0.05);
  for (int s = 0; s < model.shape_count(); ++s) EXPECT_EQ(model.shape_material[s], 1);

  const std::string errors = Errors(R"({"objects": [{"name": "hand", "type": "urdf",
      "file": ")" + kRobots + R"(/allegro_hand_description/allegro_hand_description_right.urdf",
      "collision_meshes": "convex", "drives": {"joint_1.0": {"stiffness": -1}}}]})");
  EXPECT_THAT(errors, HasSubstr("s.json:3: error: object 'hand' 'collision_meshes' is 'convex', "
                                "expected one of: hull, sdf"));
  EXPECT_THAT(errors, HasSubstr("s.json:3: error: object 'hand' drive of joint 'joint_1.0' "
                                "'stiffness' is -1, expected a value in [0, 1e+12]"));
}


TEST(DefaultSceneTest, RobotMeshAndTetMeshOnTheGround) {
  if (!std::filesystem::is_directory(kRobots + "/allegro_hand_description")) {
    SIM_SKIP_OR_FAIL_IN_CI("robot test data not found at " + kRobots);
  }
  // the Allegro hand: fixed base, held, lifted onto the ground, framed
  Expected<Scene> hand = MakeDefaultSceneFor(kRobots +
                                             "/allegro_hand_description/"
                                             "allegro_hand_description_right.urdf");
  ASSERT_TRUE(hand.ok()) << hand.diagnostics().Format();
  const Model& model = *hand->model;
  EXPECT_EQ(model.shape_name.back(), "ground");
  EXPECT_EQ(model.shape_geometry.back().type, ShapeType::kPlane);
  EXPECT_EQ(model.joint_name[0], "allegro_hand_description_right/base_fixed");
  // hold drives of 1000·m·g·(1 m) with m = 0.9549 kg (written with 6 digits)
  EXPECT_NEAR(model.joint_drive[1].stiffness, 1000 * 0.9549 * 9.81, 0.01);
  // the lowest point of every visual sits at the clearance above z = 0
  Real lowest = 1e9;
  for (int v = 0; v < model.visual_count(); ++v) {
    const Pose X = hand->initial_state.body_X_WB[model.visual_body[v]] * model.visual_X_BV[v];
    for (const auto& p : model.visual_mesh[v]->positions) {
      lowest = std::min(lowest, (X * Vec3(p[0], p[1], p[2])).z());
    }
  }
  EXPECT_NEAR(lowest, kDefaultSceneClearance, 1e-6);
  EXPECT_GT(model.camera.distance, 0.1);
  EXPECT_LT(model.camera.distance, 2.0);
  EXPECT_TRUE(hand.diagnostics().Format().find(".default-scene.json") == std::string::npos);

  // a closed mesh: a dynamic body resting its lowest point at the clearance
  Expected<Scene> base =
      LoadAnyScene(kRobots + "/fetch_description/meshes/base_link_collision.STL");
  ASSERT_TRUE(base.ok()) << base.diagnostics().Format();
  EXPECT_EQ(base->model->body_count(), 1);
  EXPECT_EQ(base->model->shape_geometry[0].type, ShapeType::kMesh);
  const CollisionMesh& mesh = *base->model->shape_geometry[0].mesh;
  EXPECT_NEAR((base->initial_state.body_X_WB[0] * base->model->shape_X_BS[0] * mesh.lower).z(),
              kDefaultSceneClearance, 1e-6);

  // a tet mesh: a soft body above the ground
  const std::string sphere = test_support::SharedDataDir() + "/tetmesh/sphere1K.msh";
  Expected<Scene> soft = LoadAnyScene(sphere);
  ASSERT_TRUE(soft.ok()) << soft.diagnostics().Format();
  ASSERT_EQ(soft->model->soft_bodies.size(), 1u);
  Real low = 1e9;
  for (int p = 0; p < soft->model->particle_count(); ++p) {
    low = std::min(low, soft->initial_state.particle_x_W[p].z() - soft->model->particle_radius[p]);
  }
  EXPECT_NEAR(low, kDefaultSceneClearance, 1e-9);

  // a file of no known kind
  const std::string text = (std::filesystem::path(::testing::TempDir()) / "notes.txt").string();
  std::ofstream(text) << "hello";
  Expected<Scene> none = LoadAnyScene(text);
  ASSERT_FALSE(none.ok());
  EXPECT_THAT(none.diagnostics().Format(),
              HasSubstr("notes.txt: error: cannot make a scene around a '.txt' file (expected a "
                        ".urdf robot, a mesh such as .obj, .stl, .dae, or a tet mesh .msh, .node, "
                        ".ele, .vtk)"));
}


TEST(SceneCameraTest, FollowNamesABodyOrIsALocatedError) {
  const std::string objects = R"("objects": [{"name": "ground", "type": "plane"},
    {"name": "box", "type": "box", "size": [0.2, 0.2, 0.2], "position": [0, 0, 0.1]},
    {"name": "ball", "type": "sphere", "radius": 0.1, "position": [1, 0, 0.1]}])";
  const Scene scene = Load(R"({"camera": {"follow": "ball"},
    "cameras": [{"name": "box view", "follow": "box"}, {"name": "free"}], )" +
                           objects + "}");
  const Model& model = *scene.model;
  EXPECT_EQ(model.camera.follow_body, model.FindBody("ball"));
  ASSERT_EQ(model.cameras.size(), 2u);
  EXPECT_EQ(model.cameras[0].setup.follow_body, model.FindBody("box"));
  EXPECT_EQ(model.cameras[1].setup.follow_body, kWorldBody) << "each view names its own";
  // without `camera` the first named view opens the scene, following its body
  EXPECT_EQ(Load(R"({"cameras": [{"name": "v", "follow": "box"}], )" + objects + "}")
                .model->camera.follow_body,
            0);

  EXPECT_EQ(Errors("{\"camera\": {\"distance\": 3,\n  \"follow\": \"boxx\"}, " + objects + "}"),
            "s.json:2: error: camera 'follow' is 'boxx', which is not a body of the scene "
            "(expected a body: ball, box) (at /camera/follow)\n");
  EXPECT_THAT(Errors(R"({"cameras": [{"name": "v", "follow": "ground"}], )" + objects + "}"),
              HasSubstr("s.json:1: error: camera 'v' 'follow' is 'ground', which is not a body "
                        "of the scene (expected a body: ball, box) (at /cameras/0/follow)"));
  EXPECT_THAT(Errors(R"({"camera": {"follow": 3}, )" + objects + "}"),
              HasSubstr("(at /camera/follow)"));
}


// the lowest point of every visual mesh vertex and collision mesh vertex of a loaded scene
Real LowestMeshPoint(const Scene& scene, int* meshes) {
  const Model& model = *scene.model;
  const auto X_W = [&](int body, const Pose& X_B) {
    return body == kWorldBody ? X_B : scene.initial_state.body_X_WB[body] * X_B;
  };
  Real lowest = 1e9;
  *meshes = 0;
  for (int v = 0; v < model.visual_count(); ++v) {
    if (!model.visual_mesh[v]) continue;
    ++*meshes;
    const Pose X = X_W(model.visual_body[v], model.visual_X_BV[v]);
    for (const auto& p : model.visual_mesh[v]->positions) {
      lowest = std::min(lowest, (X * Vec3(p[0], p[1], p[2])).z());
    }
  }
  for (int s = 0; s < model.shape_count(); ++s) {
    const ShapeGeometry& g = model.shape_geometry[s];
    if (g.type != ShapeType::kMesh || !g.mesh) continue;
    ++*meshes;
    const Pose X = X_W(model.shape_body[s], model.shape_X_BS[s]);
    for (const Vec3& p : g.mesh->surface.vertices) lowest = std::min(lowest, (X * p).z());
  }
  return lowest;
}


TEST(DefaultSceneTest, LoneRobotsRestTheirLowestPointOnTheGround) {
  // every drawn and colliding vertex counts: none below the clearance above z = 0, one on it
  for (const std::string robot : {"/allegro_hand_description/allegro_hand_description_right.urdf",
                                  "/fetch_description/robots/fetch.urdf"}) {
    if (!std::filesystem::exists(kRobots + robot)) {
      SIM_SKIP_OR_FAIL_IN_CI("robot test data not found at " + kRobots + robot);
    }
    Expected<Scene> scene = MakeDefaultSceneFor(kRobots + robot);
    ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
    int meshes = 0;
    EXPECT_NEAR(LowestMeshPoint(scene.value(), &meshes), kDefaultSceneClearance, 1e-6) << robot;
    EXPECT_GT(meshes, 10) << robot;
    // centred over the origin: the camera looks at it
    EXPECT_NEAR(scene->model->camera.target.x(), 0, 1e-9);
    EXPECT_GT(scene->model->camera.target.z(), kDefaultSceneClearance);
  }
}

}  // namespace
}  // namespace sim::io
