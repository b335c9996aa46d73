// Scene features the shipped scenes need: compound objects (one body of several shapes, mass
// properties by the parallel-axis theorem), a robot's `material` and per-joint `drives`, and
// joints whose rotations are softer than their points (`angular_compliance`, a bending joint).
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"

namespace sim::io {
namespace {

using ::testing::HasSubstr;

Scene Parse(const std::string& text) {
  Expected<Scene> scene = ParseScene(text, "s.json");
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  return scene.ok() ? std::move(scene.value()) : Scene{};
}

std::string Errors(const std::string& text) {
  Expected<Scene> scene = ParseScene(text, "s.json");
  EXPECT_FALSE(scene.ok());
  return scene.diagnostics().Format();
}


TEST(CompoundObjectTest, TableIsOneBodyWithCombinedMassProperties) {
  // a 1 x 0.5 x 0.04 m top on four 0.04 x 0.04 x 0.5 m legs, 10 kg in all, split by volume
  const Scene scene = Parse(R"({"materials": {"wood": {"friction": 0.7, "color": [0.6, 0.4, 0.2]}},
    "objects": [{"name": "table", "type": "compound", "material": "wood", "mass": 10,
      "position": [1, 2, 0], "rpy_deg": [0, 0, 90],
      "shapes": [
        {"type": "box", "size": [1, 0.5, 0.04], "position": [0, 0, 0.52]},
        {"type": "box", "size": [0.04, 0.04, 0.5], "position": [0.45, 0.2, 0.25]},
        {"type": "box", "size": [0.04, 0.04, 0.5], "position": [-0.45, 0.2, 0.25]},
        {"type": "box", "size": [0.04, 0.04, 0.5], "position": [0.45, -0.2, 0.25]},
        {"type": "box", "size": [0.04, 0.04, 0.5], "position": [-0.45, -0.2, 0.25],
         "color": [0, 0, 1]}]}]})");
  ASSERT_TRUE(scene.model);
  const Model& model = *scene.model;
  ASSERT_EQ(model.body_count(), 1);
  ASSERT_EQ(model.shape_count(), 5);
  EXPECT_DOUBLE_EQ(model.body_mass[0], 10.0);
  // volumes: top 0.02 m³, legs 0.0008 m³ each -> masses 10·0.02/0.0232 and 10·0.0008/0.0232
  const double top = 10 * 0.02 / 0.0232;
  const double leg = 10 * 0.0008 / 0.0232;
  const double com_z = (top * 0.52 + 4 * leg * 0.25) / 10;
  // the body sits at the COM, turned 90° about z with the object
  const Pose& X_WB = scene.initial_state.body_X_WB[0];
  EXPECT_TRUE(X_WB.p.isApprox(Vec3(1, 2, com_z), 1e-12));
  EXPECT_TRUE((X_WB.q * Vec3::UnitX()).isApprox(Vec3::UnitY(), 1e-12));
  // I_zz: each box (a² + b²)/12 about its centre plus m·(x² + y²) to the COM axis
  const double izz = top * (1 + 0.25) / 12 + 4 * leg * (0.0016 + 0.0016) / 12 +
                     4 * leg * (0.45 * 0.45 + 0.2 * 0.2);
  EXPECT_NEAR(model.body_inertia[0](2, 2), izz, 1e-12);
  // I_xx picks up the vertical offsets of the top and the legs from the COM
  const double ixx = top * (0.25 + 0.0016) / 12 + top * std::pow(0.52 - com_z, 2) +
                     4 * leg * (0.0016 + 0.25) / 12 +
                     4 * leg * (0.2 * 0.2 + std::pow(0.25 - com_z, 2));
  EXPECT_NEAR(model.body_inertia[0](0, 0), ixx, 1e-12);
  // parts are placed relative to the COM, coloured by the material unless they say otherwise
  EXPECT_TRUE(model.shape_X_BS[0].p.isApprox(Vec3(0, 0, 0.52 - com_z), 1e-12));
  EXPECT_EQ(model.shape_name[4], "table/4");
  EXPECT_FLOAT_EQ(model.shape_color[0][0], 0.6f);
  EXPECT_FLOAT_EQ(model.shape_color[4][2], 1.0f);
  EXPECT_DOUBLE_EQ(model.materials[model.shape_material[2]].friction, 0.7);
}


TEST(CompoundObjectTest, FixedCompoundIsWorldShapes) {
  const Scene scene = Parse(R"({"objects": [{"name": "frame", "type": "compound", "fixed": true,
      "position": [0, 0, 1], "shapes": [
        {"type": "sphere", "radius": 0.1},
        {"type": "cylinder", "radius": 0.05, "length": 1, "position": [0.5, 0, 0],
         "rpy_deg": [0, 90, 0]}]}]})");
  ASSERT_TRUE(scene.model);
  EXPECT_EQ(scene.model->body_count(), 0);
  ASSERT_EQ(scene.model->shape_count(), 2);
  EXPECT_EQ(scene.model->shape_body[1], kWorldBody);
  EXPECT_TRUE(scene.model->shape_X_BS[1].p.isApprox(Vec3(0.5, 0, 1), 1e-12));
}


TEST(CompoundObjectTest, PartsAreCheckedAtTheirLines) {
  const std::string errors = Errors(R"({"objects": [{"name": "t", "type": "compound", "shapes": [
      {"type": "box", "size": [1, 0, 1]},
      {"type": "plane"},
      {"size": [1, 1, 1]}]}]})");
  EXPECT_THAT(errors, HasSubstr("s.json:2: error: object 't' shape 0 'size' element 1 is 0"));
  EXPECT_THAT(errors,
              HasSubstr("s.json:3: error: object 't' shape 1 has type 'plane', expected one "
                        "of: box, sphere, capsule, cylinder, mesh"));
  EXPECT_THAT(errors, HasSubstr("s.json:4: error: object 't' shape 2 needs a 'type'"));
  EXPECT_THAT(Errors(R"({"objects": [{"name": "t", "type": "compound"}]})"),
              HasSubstr("object 't' of type 'compound' needs 'shapes'"));
}


const std::string kArmUrdf = std::string(SIM_SOURCE_DIR) + "/resources/robots/fetch/fetch.urdf";


TEST(UrdfObjectOptionsTest, MaterialAndDriveOverrides) {
  const Scene scene = Parse(R"({"materials": {"grip": {"friction": 0.9}},
    "objects": [{"name": "fetch", "type": "urdf", "file": ")" +
                            kArmUrdf + R"(", "material": "grip",
      "hold_pose": {"stiffness": 1e5, "damping": 1e3},
      "initial_positions": {"l_gripper_finger_joint": 0.04},
      "drives": {"l_gripper_finger_joint": {"stiffness": 300, "damping": 10}}}]})");
  ASSERT_TRUE(scene.model);
  const Model& model = *scene.model;
  const int grip = model.FindMaterial("grip");
  for (int s = 0; s < model.shape_count(); ++s) EXPECT_EQ(model.shape_material[s], grip);
  const int finger = model.FindJoint("fetch/l_gripper_finger_joint");
  ASSERT_GE(finger, 0);
  EXPECT_EQ(model.joint_drive[finger].stiffness, 300);
  EXPECT_EQ(model.joint_drive[finger].damping, 10);
  EXPECT_EQ(model.joint_drive[finger].target_position, 0.04);  // the held initial position
  const int elbow = model.FindJoint("fetch/elbow_flex_joint");
  EXPECT_EQ(model.joint_drive[elbow].stiffness, 1e5);
}


// a revolute drive target may be given in degrees; a prismatic one only in metres
TEST(UrdfObjectOptionsTest, DriveTargetsInDegreesForRevoluteJointsOnly) {
  const Scene scene =
      Parse(R"({"objects": [{"name": "fetch", "type": "urdf", "file": ")" + kArmUrdf + R"(",
      "drives": {"elbow_flex_joint": {"stiffness": 300, "target_position_deg": 90}}}]})");
  ASSERT_TRUE(scene.model);
  const int elbow = scene.model->FindJoint("fetch/elbow_flex_joint");
  ASSERT_GE(elbow, 0);
  EXPECT_NEAR(scene.model->joint_drive[elbow].target_position, M_PI / 2, 1e-12);
  EXPECT_THAT(Errors(R"({"objects": [{"name": "fetch", "type": "urdf", "file": ")" + kArmUrdf +
                     R"(",
      "drives": {"l_gripper_finger_joint": {"target_position_deg": 3}}}]})"),
              HasSubstr("s.json:2: error: object 'fetch' drive of prismatic joint "
                        "'l_gripper_finger_joint' gives 'target_position_deg'; a prismatic "
                        "target is in metres: use 'target_position'"));
}


TEST(UrdfObjectOptionsTest, UnknownMaterialAndJointAreErrors) {
  const std::string errors = Errors(R"({"objects": [{"name": "fetch", "type": "urdf",
      "file": ")" + kArmUrdf + R"(", "material": "rubber"}]})");
  EXPECT_THAT(errors,
              HasSubstr("s.json:2: error: object 'fetch' uses unknown material 'rubber' (defined: "
                        "default)"));
  EXPECT_THAT(Errors(R"({"objects": [{"name": "fetch", "type": "urdf", "file": ")" + kArmUrdf +
                     R"(",
      "drives": {"gripper_axis": {"stiffness": 1}}}]})"),
              HasSubstr("s.json:2: error: object 'fetch' 'drives' names 'gripper_axis', which is "
                        "not a revolute, continuous or prismatic joint of the robot"));
}


TEST(BendingJointTest, AngularComplianceBendsUnderATorqueAsHookesLawSays) {
  // a 1 kg bar welded to the world by a joint with angular compliance c = 0.004 rad/(N·m)
  // (bending stiffness 250 N·m/rad, as the Fetch beam of seed 002 Table 2) and rigid points; a
  // torque τ = 0.5 N·m bends it to θ = c τ = 2 mrad at rest while its anchor does not move
  const Scene scene = Parse(R"({"gravity": [0, 0, 0], "objects": [
      {"name": "bar", "type": "box", "size": [0.2, 0.02, 0.02], "mass": 1,
       "position": [0.1, 0, 1]}],
    "joints": [{"name": "bend", "type": "fixed", "parent": "world", "child": "bar",
                "anchor": [0, 0, 1], "angular_compliance": 0.004}]})");
  ASSERT_TRUE(scene.model);
  EXPECT_EQ(scene.model->JointAngularCompliance(0), 0.004);
  EXPECT_EQ(scene.model->joint_compliance[0], 0);
  auto simulation = Simulation::Create(scene.model, scene.initial_state, "nsn");
  ASSERT_TRUE(simulation.ok());
  Simulation& sim = *simulation.value();
  sim.control().body_torque_W[0] = Vec3(0, 0.5, 0);
  // the bar rings at ω = √(k/I) ≈ 1000 rad/s; implicit steps damp it out within 2 s
  for (int i = 0; i < 240; ++i) sim.Step();
  const Pose& X_WB = sim.state().body_X_WB[0];
  const Vec3 x_axis = X_WB.q * Vec3::UnitX();
  const double angle = std::atan2(-x_axis.z(), x_axis.x());
  // 1e-4 relative (measured 3e-6): the lock rows measure a product of unit vectors, ≈ θ to O(θ³)
  EXPECT_NEAR(angle, 0.002, 0.002 * 1e-4);
  // the anchor (the bar's end) stays at the joint: points are rigid
  const Vec3 anchor = X_WB * Vec3(-0.1, 0, 0);
  EXPECT_LT((anchor - Vec3(0, 0, 1)).norm(), 1e-5);
}

}  // namespace
}  // namespace sim::io
