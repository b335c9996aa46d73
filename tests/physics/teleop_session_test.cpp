// The teleop action layer on our Fetch (engine/teleop/teleop_session.h, Simulation::teleop()):
//   - before the first action the scene's joint script drives the robot; the first action
//     engages the operator and pauses the script; Reset hands the robot back;
//   - a held end-effector twist moves the target at its speed (v·t) and the end effector
//     follows; a twist into the unreachable leaves the target at most kMaxLead ahead;
//   - an axis rate closes the gripper at its rate and clamps at closed;
//   - the same actions at the same steps give the same state bit for bit; a different one does
//     not (the replay guarantee of recordings);
//   - on the mobile Fetch (scenes/fetch_teleop.json) the arm's target rides with the torso it is
//     fixed in: driving the base carries the gripper along, the arm's joints keep still;
//   - the mobile Fetch's head (a look_at target on pan and tilt) points its camera axis at a
//     point within 1°;
//   - a link picked in the studio (EndEffectorTargetForBody) becomes an end effector whose chain
//     runs from the world, and reaches a pose target; a body no joint moves, or one behind an
//     undriven joint, is refused with the reason.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"
#include "engine/teleop/teleop_pick.h"
#include "engine/teleop/teleop_session.h"
#include "tests/support/teleop_scene.h"

namespace sim {
namespace {

// the Fetch teleop scene (tests/support/teleop_scene.h) with the torso at 0.2 m and a script that
// raises it at 1 s
std::string FetchScene() {
  return test_support::TeleopFetchSceneText(
      {.torso_lift = "0.2",
       .extra = R"("script": [{"time": 1.0, "targets": {"fetch/torso_lift_joint": 0.3}}])"});
}

constexpr int kArm = 0, kGripper = 1;

std::unique_ptr<Simulation> MakeFetch() {
  Expected<io::Scene> scene =
      io::ParseScene(FetchScene(), std::string(SIM_SOURCE_DIR) + "/scenes/t.json");
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  if (!scene.ok()) return nullptr;
  auto simulation = Simulation::Create(scene->model, scene->initial_state, "nsn");
  EXPECT_TRUE(simulation.ok());
  return simulation.ok() ? std::move(simulation.value()) : nullptr;
}

void StepFor(Simulation* sim, Real seconds) {
  const int steps = static_cast<int>(std::lround(seconds / sim->model().options.solver.dt));
  for (int i = 0; i < steps; ++i) sim->Step();
}

Vec3 Gripper(const Simulation& sim) {
  return sim.teleop()->controller().EndEffectorPose(kArm, sim.state())->p;
}

TeleopAction Twist(const Vec3& linear) {
  TeleopAction action;
  action.kind = TeleopActionKind::kPoseVelocity;
  action.target = kArm;
  action.linear = linear;
  return action;
}

TEST(TeleopSessionTest, TheFirstActionPausesTheScriptAndResetHandsItBack) {
  std::unique_ptr<Simulation> sim = MakeFetch();
  ASSERT_NE(sim, nullptr);
  const int torso = sim->model().FindJoint("fetch/torso_lift_joint");
  StepFor(sim.get(), 1.1);
  EXPECT_FALSE(sim->teleop()->engaged());
  EXPECT_EQ(sim->control().joint_target_position[torso], 0.3);  // the script's keyframe
  sim->Reset();
  StepFor(sim.get(), 0.5);
  sim->teleop()->Submit(Twist(Vec3::Zero()));
  sim->Step();
  EXPECT_TRUE(sim->teleop()->engaged());
  // the torso is not in the arm's chain: its target stays where the script had ramped it
  // (halfway to 0.3 m at 0.5 s) past the script's 1 s keyframe
  const Real paused = sim->control().joint_target_position[torso];
  EXPECT_NEAR(paused, 0.25, 0.01);
  StepFor(sim.get(), 1.0);
  EXPECT_EQ(sim->control().joint_target_position[torso], paused);
  sim->Reset();
  EXPECT_FALSE(sim->teleop()->engaged());
  StepFor(sim.get(), 1.1);
  EXPECT_EQ(sim->control().joint_target_position[torso], 0.3);
}


TEST(TeleopSessionTest, AHeldTwistMovesTheTargetAtItsSpeedAndTheArmFollows) {
  std::unique_ptr<Simulation> sim = MakeFetch();
  ASSERT_NE(sim, nullptr);
  const Vec3 start = Gripper(*sim);
  const Vec3 velocity(0.05, 0, 0.03);  // m/s, well under the IK's joint-speed cap
  sim->teleop()->Submit(Twist(velocity));
  StepFor(sim.get(), 1.0);
  sim->teleop()->Submit(Twist(Vec3::Zero()));
  StepFor(sim.get(), 1.5);
  const Pose target = *sim->teleop()->controller().PoseTarget(kArm);
  // v·t exactly: the rate is integrated over the steps it was held (120 of dt = 1/120.5 s)
  const Real held = 120 * sim->model().options.solver.dt;
  EXPECT_NEAR((target.p - start - held * velocity).norm(), 0, 1e-3);
  // the gripper followed within the tracking of the stiff drives (a few mm at most, settled)
  EXPECT_LT((Gripper(*sim) - target.p).norm(), 3e-3);
}


TEST(TeleopSessionTest, ATwistIntoTheUnreachableLeadsByAtMostTheBound) {
  std::unique_ptr<Simulation> sim = MakeFetch();
  ASSERT_NE(sim, nullptr);
  sim->teleop()->Submit(Twist(Vec3(2.0, 0, 0)));  // 2 m/s outward for 2 s: far out of reach
  StepFor(sim.get(), 2.0);
  const Pose target = *sim->teleop()->controller().PoseTarget(kArm);
  // (the bound holds against the pose the step started from; the arm, pressed at its reach,
  // moves less than a millimetre within the step)
  EXPECT_LE((target.p - Gripper(*sim)).norm(), TeleopSession::kMaxLead + 1e-3);
  EXPECT_GT((target.p - Gripper(*sim)).norm(), 0.5 * TeleopSession::kMaxLead);
  // reversing brings the target back at once: 0.5 s at 0.4 m/s inward
  const Real out = target.p.x();
  sim->teleop()->Submit(Twist(Vec3(-0.4, 0, 0)));
  StepFor(sim.get(), 0.5);
  EXPECT_LT(sim->teleop()->controller().PoseTarget(kArm)->p.x(), out - 0.1);
}


TEST(TeleopSessionTest, AnAxisRateClosesTheGripperAndClamps) {
  std::unique_ptr<Simulation> sim = MakeFetch();
  ASSERT_NE(sim, nullptr);
  TeleopAction close;
  close.kind = TeleopActionKind::kAxisRate;
  close.target = kGripper;
  close.value = 2.0;  // 1/s: closed in 0.5 s from open
  sim->teleop()->Submit(close);
  sim->Step();
  const Real first = sim->teleop()->Axis(kGripper);
  // seeded from the fingers' measured opening, then one step of the rate
  EXPECT_GT(first, 0);
  StepFor(sim.get(), 1.0);
  EXPECT_EQ(sim->teleop()->Axis(kGripper), 1.0);
  const int finger = sim->model().FindJoint("fetch/l_gripper_finger_joint");
  EXPECT_NEAR(sim->control().joint_target_position[finger], 0.01, 1e-12);
  EXPECT_NEAR(JointCoordinate(sim->model(), sim->state(), finger), 0.01, 2e-3);
}


TEST(TeleopSessionTest, TheSameActionsAtTheSameStepsGiveTheSameStateBitForBit) {
  const auto run = [](Real speed) {
    std::unique_ptr<Simulation> sim = MakeFetch();
    for (int step = 0; step < 240; ++step) {
      if (step == 10) sim->teleop()->Submit(Twist(Vec3(speed, 0.02, 0)));
      if (step == 100) {
        TeleopAction grip;
        grip.kind = TeleopActionKind::kSetAxis;
        grip.target = kGripper;
        grip.value = 0.7;
        sim->teleop()->Submit(grip);
        sim->teleop()->Submit(Twist(Vec3::Zero()));
      }
      sim->Step();
    }
    return StateHash(sim->state());
  };
  const std::uint64_t first = run(0.04);
  EXPECT_EQ(run(0.04), first);
  EXPECT_NE(run(0.0400001), first);
}

// the shipped mobile Fetch (scenes/fetch_teleop.json)
std::unique_ptr<Simulation> MakeMobileFetch() {
  Expected<io::Scene> scene =
      io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/fetch_teleop.json");
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  if (!scene.ok()) return nullptr;
  auto created = Simulation::Create(scene->model, scene->initial_state, "nsn");
  EXPECT_TRUE(created.ok());
  return created.ok() ? std::move(created.value()) : nullptr;
}

TEST(TeleopSessionTest, TheArmsTargetRidesWithTheMobileBase) {
  std::unique_ptr<Simulation> mobile = MakeMobileFetch();
  ASSERT_NE(mobile, nullptr);
  Simulation& sim = *mobile;
  const Model& model = sim.model();
  int arm = -1, base = -1;
  for (int t = 0; t < sim.teleop()->target_count(); ++t) {
    if (sim.teleop()->target(t).name == "arm") arm = t;
    if (sim.teleop()->target(t).name == "base") base = t;
  }
  ASSERT_GE(arm, 0);
  ASSERT_GE(base, 0);
  const int elbow = model.FindJoint("fetch/elbow_flex_joint");
  const int x_joint = model.FindJoint("base_x");
  ASSERT_GE(elbow, 0);
  ASSERT_GE(x_joint, 0);
  StepFor(&sim, 0.2);
  const Vec3 gripper0 = sim.teleop()->controller().EndEffectorPose(arm, sim.state())->p;
  const Real elbow0 = JointCoordinate(model, sim.state(), elbow);
  const Real x0 = JointCoordinate(model, sim.state(), x_joint);
  TeleopAction drive;
  drive.kind = TeleopActionKind::kBaseVelocity;
  drive.target = base;
  drive.linear = Vec3(0.3, 0, 0);  // 0.3 m/s forward for 1 s
  sim.teleop()->Submit(drive);
  StepFor(&sim, 1.0);
  drive.linear.setZero();
  sim.teleop()->Submit(drive);
  StepFor(&sim, 1.0);
  const Real driven = JointCoordinate(model, sim.state(), x_joint) - x0;
  const Vec3 gripper1 = sim.teleop()->controller().EndEffectorPose(arm, sim.state())->p;
  EXPECT_NEAR(driven, 0.3, 0.01);  // the base's drive tracks the integrated target
  // the gripper moved with the base (within the arm's settling, a few mm), the elbow kept still
  EXPECT_NEAR((gripper1 - gripper0 - Vec3(driven, 0, 0)).norm(), 0, 5e-3);
  EXPECT_NEAR(JointCoordinate(model, sim.state(), elbow), elbow0, 0.01);
}

TEST(TeleopSessionTest, TheHeadLooksAtAPoint) {
  std::unique_ptr<Simulation> mobile = MakeMobileFetch();
  ASSERT_NE(mobile, nullptr);
  Simulation& sim = *mobile;
  int head = -1;
  for (int t = 0; t < sim.teleop()->target_count(); ++t) {
    if (sim.teleop()->target(t).type == TeleopTargetType::kLookAt) head = t;
  }
  ASSERT_GE(head, 0);
  StepFor(&sim, 0.2);
  // a point ahead, to the left and below: pan and tilt of about 20° each
  const Pose eye = *sim.teleop()->controller().EndEffectorPose(head, sim.state());
  TeleopAction look;
  look.kind = TeleopActionKind::kSetPose;
  look.target = head;
  look.pose.p = eye.p + Vec3(1.5, 0.6, -0.6);
  sim.teleop()->Submit(look);
  StepFor(&sim, 2.0);
  const Pose seen = *sim.teleop()->controller().EndEffectorPose(head, sim.state());
  const Vec3 axis = seen.q * Vec3::UnitX();
  const Vec3 to_point = (look.pose.p - seen.p).normalized();
  // the stiff hold-pose drives track the IK's pan and tilt to well under a degree
  EXPECT_LT(std::acos(std::clamp<Real>(axis.dot(to_point), -1, 1)), 1.0 * 3.14159265 / 180);
}


TEST(TeleopSessionTest, APickedLinkBecomesAnEndEffectorThatReachesItsTarget) {
  Expected<io::Scene> scene = io::ParseScene(test_support::TeleopFetchSceneText(),
                                             std::string(SIM_SOURCE_DIR) + "/scenes/t.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  // the wrist: torso, shoulder pan and lift, upper arm roll, elbow, forearm roll, wrist flex and
  // roll from the world (the fixed base folded in)
  const int wrist = model.FindBody("fetch/wrist_roll_link");
  Expected<TeleopTarget> target = EndEffectorTargetForBody(model, wrist);
  ASSERT_TRUE(target.ok()) << target.diagnostics().Format();
  EXPECT_EQ(target->name, "fetch/wrist_roll_link");
  auto picked = std::make_shared<Model>(model);
  picked->teleop_targets.push_back(target.value());
  auto created = Simulation::Create(picked, scene->initial_state, "nsn");
  ASSERT_TRUE(created.ok());
  Simulation& sim = *created.value();
  const int t = static_cast<int>(picked->teleop_targets.size()) - 1;
  ASSERT_EQ(sim.teleop()->controller().Chain(t)->size(), 8);
  TeleopAction reach;
  reach.kind = TeleopActionKind::kSetPose;
  reach.target = t;
  reach.pose = *sim.teleop()->controller().EndEffectorPose(t, sim.state());
  reach.pose.p += Vec3(-0.05, 0.05, 0.05);
  sim.teleop()->Submit(reach);
  StepFor(&sim, 2.5);
  // within the stiff drives' tracking (the same bound as the declared arm's, 3 mm)
  EXPECT_LT((sim.teleop()->controller().EndEffectorPose(t, sim.state())->p - reach.pose.p).norm(),
            3e-3);

  // refused with the reason: the base (no joint moves it), and the wrist without drives
  Expected<TeleopTarget> base = EndEffectorTargetForBody(model, model.FindBody("fetch/base_link"));
  ASSERT_FALSE(base.ok());
  EXPECT_NE(base.diagnostics().Format().find("no joint moves it"), std::string::npos)
      << base.diagnostics().Format();
  Model undriven = model;
  undriven.joint_drive[model.FindJoint("fetch/elbow_flex_joint")] = JointDrive{};
  Expected<TeleopTarget> loose = EndEffectorTargetForBody(undriven, wrist);
  ASSERT_FALSE(loose.ok());
  EXPECT_NE(loose.diagnostics().Format().find("'fetch/elbow_flex_joint' has no drive"),
            std::string::npos)
      << loose.diagnostics().Format();
}

}  // namespace
}  // namespace sim
