// Real robots from URDF under gravity: with a fixed base and hold-pose position drives, the Allegro
// right hand and Fetch (self-collision off, the loader default) stand still for 2 s (every joint
// within 1e-3 rad of where it started, every step finite); so does the Fetch with its collision
// meshes as hulls, self-collision on and a ground plane under its wheels (its own links must not
// fight each other).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/io/urdf_loader.h"
#include "engine/step/pipeline.h"
#include "tests/support/run_command.h"
#include "tests/support/shared_data.h"

namespace sim {
namespace {

const std::string kRobots = test_support::SharedDataDir() + "/robots";

// largest |q(t) − q(0)| over the robot's revolute/prismatic joints after `seconds`; -1 if a step
// failed
double MaxJointDrift(const std::string& urdf, const io::RobotPlacement& placement, double seconds,
                     int* failed_steps, bool ground = false) {
  Expected<io::UrdfRobot> robot = io::LoadUrdf(urdf, io::UrdfOptions{.package_paths = {kRobots}});
  EXPECT_TRUE(robot.ok()) << robot.diagnostics().Format();
  if (!robot.ok()) return -1;
  auto model = std::make_shared<Model>();
  model->materials.push_back(Material{.name = "default"});
  State state;
  Diagnostics diagnostics;
  if (ground) {
    model->shape_name.push_back("ground");
    model->shape_geometry.push_back(ShapeGeometry{.type = ShapeType::kPlane});
    model->shape_body.push_back(kWorldBody);
    model->shape_X_BS.push_back(Pose{});
    model->shape_material.push_back(0);
    model->shape_color.push_back({0.5f, 0.5f, 0.5f});
  }
  io::AddRobotToModel(robot.value(), placement, model.get(), &state, &diagnostics);
  EXPECT_FALSE(diagnostics.has_errors()) << diagnostics.Format();
  auto coordinates = [&](const State& s) {
    std::vector<double> q;
    for (int j = 0; j < model->joint_count(); ++j) {
      if (model->joint_type[j] == JointType::kFixed) continue;
      q.push_back(JointCoordinate(*model, j, s.body_X_WB[model->joint_parent[j]],
                                  s.body_X_WB[model->joint_child[j]]));
    }
    return q;
  };
  const std::vector<double> q0 = coordinates(state);
  auto simulation = Simulation::Create(model, state, "nsn");
  EXPECT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
  if (!simulation.ok()) return -1;
  const int steps = static_cast<int>(std::lround(seconds / model->options.solver.dt));
  double drift = 0;
  for (int i = 0; i < steps; ++i) {
    if (simulation.value()->Step().status != kStepOk) ++*failed_steps;
    const std::vector<double> q = coordinates(simulation.value()->state());
    for (std::size_t k = 0; k < q.size(); ++k) drift = std::max(drift, std::abs(q[k] - q0[k]));
  }
  EXPECT_TRUE(IsFinite(simulation.value()->state()));
  return drift;
}


TEST(UrdfRobotPhysicsTest, AllegroHandHoldsItsPoseUnderGravity) {
  if (!std::filesystem::is_directory(kRobots + "/allegro_hand_description")) {
    SIM_SKIP_OR_FAIL_IN_CI("robot test data not found at " + kRobots);
  }
  io::RobotPlacement placement;
  placement.X_W_base.p = Vec3(0, 0, 0.5);
  placement.initial_positions = {{"joint_1.0", 0.5}, {"joint_5.0", 0.5}, {"joint_13.0", 0.4}};
  // gravity torques are ~0.08 N·m on a bent finger: 1000 N·m/rad keeps the sag under 1e-4 rad and
  // the implicit drive is stable at that stiffness
  placement.hold_stiffness = 1000;
  placement.hold_damping = 5;
  int failed = 0;
  const double drift =
      MaxJointDrift(kRobots + "/allegro_hand_description/allegro_hand_description_right.urdf",
                    placement, 2.0, &failed);
  EXPECT_EQ(failed, 0);
  EXPECT_GE(drift, 0);
  EXPECT_LT(drift, 1e-3);
  RecordProperty("max_joint_drift_rad", std::to_string(drift));
  std::printf("max joint drift %g rad\n", drift);
}


// the Fetch with its torso up and its shoulder lifted, held in place; the arm carries ~20 N·m at
// the shoulder: 1e6 N·m/rad (N/m on the torso) keeps the sag under 1e-4
io::RobotPlacement HeldFetch() {
  io::RobotPlacement placement;
  placement.initial_positions = {{"torso_lift_joint", 0.1}, {"shoulder_lift_joint", -0.3}};
  placement.hold_stiffness = 1e6;
  placement.hold_damping = 1e4;
  return placement;
}

// every step finite and every joint within 1e-3 of where it started, for 2 s
void ExpectFetchHolds(const io::RobotPlacement& placement, bool ground) {
  if (!std::filesystem::is_directory(kRobots + "/fetch_description")) {
    SIM_SKIP_OR_FAIL_IN_CI("robot test data not found at " + kRobots);
  }
  int failed = 0;
  const double drift = MaxJointDrift(kRobots + "/fetch_description/robots/fetch.urdf", placement,
                                     2.0, &failed, ground);
  EXPECT_EQ(failed, 0);
  EXPECT_GE(drift, 0);
  EXPECT_LT(drift, 1e-3);
  std::printf("max joint drift %g rad or m\n", drift);
}


TEST(UrdfRobotPhysicsTest, FetchHoldsItsPoseUnderGravity) { ExpectFetchHolds(HeldFetch(), false); }


TEST(UrdfRobotPhysicsTest, FetchWithHullsAndSelfCollisionOnTheGroundHoldsItsPose) {
  io::RobotPlacement placement = HeldFetch();
  placement.self_collision = true;
  placement.collision_meshes = io::MeshCollision::kHull;
  // the wheels reach 6 mm below the base frame: 1 mm of clearance puts the base 7 mm up (a
  // fixed base cannot yield to the ground's push on wheels that start inside it)
  placement.X_W_base.p = Vec3(0, 0, 0.007);
  ExpectFetchHolds(placement, true);
}

}  // namespace
}  // namespace sim
