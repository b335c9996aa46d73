// Kinematic chains and damped-least-squares IK (engine/kinematics) on our Fetch
// (resources/robots/fetch) and the real Fetch URDF (shared test data), and the teleop controller
// (engine/teleop) driving a simulated Fetch through its joint drives.
//   - FK of the chain equals the pose the URDF loader places the gripper link at for the same
//     joint positions (the loader composes the URDF's own joint origins, independently), and the
//     chain reads those positions back with JointCoordinate;
//   - the geometric Jacobian equals central differences of FK;
//   - random reachable targets (FK of random joint positions within the limits) are reached to
//     2 mm / 1° from another configuration in a bounded number of IK steps, inside the limits;
//   - an unreachable target ends at a local closest pose: errors non-increasing at the end, a
//     vanishing step, and no small joint perturbation gets closer;
//   - stepping the Fetch with the IK writing drive targets brings the gripper to a target.
#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "engine/io/scene_file.h"
#include "engine/io/urdf_loader.h"
#include "engine/kinematics/dls_ik.h"
#include "engine/step/pipeline.h"
#include "engine/teleop/teleop_controller.h"
#include "tests/support/shared_data.h"
#include "tests/support/teleop_scene.h"

namespace sim {
namespace {

constexpr Real kPi = std::numbers::pi;
const std::string kOurFetch = std::string(SIM_SOURCE_DIR) + "/resources/robots/fetch/fetch.urdf";
const std::string kRobots = test_support::SharedDataDir() + "/robots";
const std::string kRealFetch = kRobots + "/fetch_description/robots/fetch.urdf";

// the arm and torso joints of both Fetch files, base to tip
const char* const kArmJoints[] = {
    "torso_lift_joint", "shoulder_pan_joint", "shoulder_lift_joint", "upperarm_roll_joint",
    "elbow_flex_joint", "forearm_roll_joint", "wrist_flex_joint",    "wrist_roll_joint"};

// the fetch_tomato start posture, away from the random samples
const std::map<std::string, Real> kStartPosture = {
    {"torso_lift_joint", 0.35},        {"shoulder_pan_joint", 0.27932},
    {"shoulder_lift_joint", -1.18317}, {"upperarm_roll_joint", -0.08488},
    {"elbow_flex_joint", 1.69324},     {"forearm_roll_joint", 0.0367},
    {"wrist_flex_joint", 1.06227},     {"wrist_roll_joint", 0.18284}};

struct LoadedRobot {
  Model model;
  State state;
};

// a robot fixed at the origin (no visuals, hulls) at the given joint positions
LoadedRobot LoadFetch(const std::string& urdf, const std::map<std::string, Real>& positions) {
  LoadedRobot robot;
  Expected<io::UrdfRobot> parsed = io::LoadUrdf(urdf, io::UrdfOptions{.package_paths = {kRobots}});
  EXPECT_TRUE(parsed.ok()) << parsed.diagnostics().Format();
  if (!parsed.ok()) return robot;
  robot.model.materials.push_back(Material{.name = "default"});
  io::RobotPlacement placement;
  placement.name_prefix = "fetch/";
  placement.initial_positions = positions;
  placement.visuals = false;
  Diagnostics diagnostics;
  io::AddRobotToModel(parsed.value(), placement, &robot.model, &robot.state, &diagnostics);
  EXPECT_FALSE(diagnostics.has_errors()) << diagnostics.Format();
  return robot;
}


KinematicChain ArmChain(const Model& model) {
  Expected<KinematicChain> chain = BuildKinematicChain(model, "", "fetch/gripper_link");
  EXPECT_TRUE(chain.ok()) << chain.diagnostics().Format();
  return chain.ok() ? chain.value() : KinematicChain{};
}


// joint positions uniformly inside the limits (continuous joints in [−π, π))
VecX RandomPositions(const KinematicChain& chain, std::mt19937* rng) {
  VecX q(chain.size());
  for (int k = 0; k < chain.size(); ++k) {
    const Real lo = std::isfinite(chain.lower[k]) ? chain.lower[k] : -kPi;
    const Real hi = std::isfinite(chain.upper[k]) ? chain.upper[k] : kPi;
    q[k] = std::uniform_real_distribution<Real>(lo, hi)(*rng);
  }
  return q;
}


std::map<std::string, Real> Named(const VecX& q) {
  std::map<std::string, Real> named;
  for (int k = 0; k < q.size(); ++k) named[kArmJoints[k]] = q[k];
  return named;
}


VecX Unnamed(const std::map<std::string, Real>& named) {
  VecX q(8);
  for (int k = 0; k < 8; ++k) q[k] = named.at(kArmJoints[k]);
  return q;
}


TEST(KinematicChainTest, ChainOfTheFetchArmFoldsTheFixedGripperJoint) {
  const LoadedRobot fetch = LoadFetch(kOurFetch, {});
  const KinematicChain chain = ArmChain(fetch.model);
  ASSERT_EQ(chain.size(), 8);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(fetch.model.joint_name[chain.joints[k]], std::string("fetch/") + kArmJoints[k]);
  }
  // the gripper link is welded into the wrist roll body (fixed gripper_axis joint)
  EXPECT_LT(fetch.model.FindBody("fetch/gripper_link"), 0);
  EXPECT_EQ(fetch.model.body_name[chain.tip_body], "fetch/wrist_roll_link");
  // a chain from a body that is not an ancestor, and one through the fingers' sibling, fail
  Expected<KinematicChain> sideways =
      BuildKinematicChain(fetch.model, "fetch/head_pan_link", "fetch/gripper_link");
  ASSERT_FALSE(sideways.ok());
  EXPECT_NE(sideways.diagnostics().Format().find("is not a descendant of 'fetch/head_pan_link'"),
            std::string::npos)
      << sideways.diagnostics().Format();
}


TEST(KinematicChainTest, ForwardKinematicsMatchesTheLoaderPlacement) {
  std::mt19937 rng(7);
  const KinematicChain reference = ArmChain(LoadFetch(kOurFetch, {}).model);
  for (int sample = 0; sample < 3; ++sample) {
    const VecX q = RandomPositions(reference, &rng);
    const LoadedRobot fetch = LoadFetch(kOurFetch, Named(q));
    const KinematicChain chain = ArmChain(fetch.model);
    // the loader's pose of the gripper link frame at q
    const int frame = fetch.model.FindFrame("fetch/gripper_link");
    ASSERT_GE(frame, 0);
    const Pose X_WF =
        fetch.state.body_X_WB[fetch.model.frame_body[frame]] * fetch.model.frame_X_BF[frame];
    const Pose X_WE = ChainForwardKinematics(chain, ChainBasePose(chain, fetch.state), q);
    // both compose ~10 transforms in double precision: agreement to ~1e-12 m expected
    EXPECT_LT((X_WE.p - X_WF.p).norm(), 1e-9);
    EXPECT_LT(X_WE.q.angularDistance(X_WF.q), 1e-9);
    // JointCoordinate reads q back (revolute wrapped to [−π, π), as sampled)
    EXPECT_LT((ChainPositions(fetch.model, chain, fetch.state) - q).cwiseAbs().maxCoeff(), 1e-9);
  }
}


// the drives' target pose (drawn as ghosts): every body of the Fetch at other joint positions,
// composed through the whole tree from the current state, is where the loader places it at those
// positions (the loader composes the URDF's joint origins independently); joints left NaN keep
// their relative pose
TEST(KinematicChainTest, PosesAtJointPositionsMatchTheLoaderPlacement) {
  std::mt19937 rng(11);
  const LoadedRobot start = LoadFetch(kOurFetch, kStartPosture);
  const KinematicChain arm = ArmChain(start.model);
  const VecX q = RandomPositions(arm, &rng);
  const LoadedRobot moved = LoadFetch(kOurFetch, Named(q));
  ASSERT_EQ(moved.model.body_count(), start.model.body_count());
  std::vector<Real> positions(start.model.joint_count(), NAN);
  for (int k = 0; k < arm.size(); ++k) positions[arm.joints[k]] = q[k];
  const std::vector<Pose> poses = PosesAtJointPositions(start.model, start.state, positions);
  ASSERT_EQ(static_cast<int>(poses.size()), start.model.body_count());
  for (int b = 0; b < start.model.body_count(); ++b) {
    // ~10 composed transforms in double precision
    EXPECT_LT((poses[b].p - moved.state.body_X_WB[b].p).norm(), 1e-9) << start.model.body_name[b];
    EXPECT_LT(poses[b].q.angularDistance(moved.state.body_X_WB[b].q), 1e-9)
        << start.model.body_name[b];
  }
  // all NaN: the state's own poses
  const std::vector<Pose> same = PosesAtJointPositions(
      start.model, start.state, std::vector<Real>(start.model.joint_count(), NAN));
  for (int b = 0; b < start.model.body_count(); ++b) {
    EXPECT_LT((same[b].p - start.state.body_X_WB[b].p).norm(), 1e-12);
  }
}


TEST(KinematicChainTest, JacobianMatchesCentralDifferences) {
  const LoadedRobot fetch = LoadFetch(kOurFetch, {});
  const KinematicChain chain = ArmChain(fetch.model);
  std::mt19937 rng(11);
  for (int sample = 0; sample < 5; ++sample) {
    const VecX q = RandomPositions(chain, &rng);
    Jacobian6 jacobian;
    ChainForwardKinematics(chain, Pose{}, q, &jacobian);
    // central differences: truncation O(h²)·|∂³p| ~ 1e-12, round-off 1e-16/h ~ 1e-10
    const Real h = 1e-6;
    for (int k = 0; k < chain.size(); ++k) {
      VecX plus = q, minus = q;
      plus[k] += h;
      minus[k] -= h;
      const Pose X_plus = ChainForwardKinematics(chain, Pose{}, plus);
      const Pose X_minus = ChainForwardKinematics(chain, Pose{}, minus);
      const Vec3 linear = (X_plus.p - X_minus.p) / (2 * h);
      const Eigen::AngleAxis<Real> turn(X_plus.q * X_minus.q.conjugate());
      const Vec3 angular = turn.angle() * turn.axis() / (2 * h);
      EXPECT_LT((jacobian.col(k).head<3>() - linear).norm(), 1e-7) << "joint " << k;
      EXPECT_LT((jacobian.col(k).tail<3>() - angular).norm(), 1e-7) << "joint " << k;
    }
  }
}


// IK steps from `start` towards FK(q_target); the steps taken to 2 mm / 1°, or -1
int StepsToReach(DlsIk& ik, const VecX& start, const Pose& X_WT, int max_steps, VecX* q_out) {
  VecX q = start;
  const KinematicChain& chain = ik.chain();
  for (int step = 0; step < max_steps; ++step) {
    const IkResult result = ik.Step(Pose{}, q, {.X_WT = X_WT});
    if (result.position_error < 2e-3 && result.rotation_error < kPi / 180) {
      *q_out = q;
      return step;
    }
    q = result.q;
    // limits hold at every step
    for (int k = 0; k < chain.size(); ++k) {
      EXPECT_GE(q[k], chain.lower[k]);
      EXPECT_LE(q[k], chain.upper[k]);
    }
  }
  *q_out = q;
  return -1;
}


// random reachable targets, FK of random joint positions q* within the limits:
//   - from q* + a random offset of up to ±0.5 rad (±5 cm on the torso) per joint, clamped into
//     the limits (a target that moved away from the arm, the teleop case): every one is reached
//     to 2 mm / 1° within kMaxSteps;
//   - from the fixed fetch_tomato posture, anywhere in the workspace: a local IK reaches most;
//     the rest end in local minima against joint limits (measured: 33/40 on ours, 35/40 on the
//     real Fetch), so at least 30 of 40 must be reached
void ExpectRandomTargetsReached(const std::string& urdf, unsigned seed) {
  const LoadedRobot fetch = LoadFetch(urdf, {});
  const KinematicChain chain = ArmChain(fetch.model);
  ASSERT_EQ(chain.size(), 8);
  // 0.05 rad (or m) per step at most: about 6 rad/s at the studio's 120 Hz
  DlsIk ik(chain, {.max_step = VecX::Constant(8, 0.05)});
  ik.set_rest_posture(Unnamed(kStartPosture));
  std::mt19937 rng(seed);
  constexpr int kSamples = 40;
  constexpr int kMaxSteps = 300;
  int near_most_steps = 0, far_reached = 0, far_most_steps = 0;
  for (int sample = 0; sample < kSamples; ++sample) {
    const VecX q_target = RandomPositions(chain, &rng);
    const Pose X_WT = ChainForwardKinematics(chain, Pose{}, q_target);
    VecX offset(8);
    for (int k = 0; k < 8; ++k) {
      offset[k] = std::uniform_real_distribution<Real>(-0.5, 0.5)(rng) * (k == 0 ? 0.1 : 1);
    }
    const VecX near_start = (q_target + offset).cwiseMax(chain.lower).cwiseMin(chain.upper);
    VecX q;
    const int near_steps = StepsToReach(ik, near_start, X_WT, kMaxSteps, &q);
    EXPECT_GE(near_steps, 0) << "sample " << sample << " target " << X_WT.p.transpose() << " final "
                             << (ChainForwardKinematics(chain, Pose{}, q).p - X_WT.p).norm();
    near_most_steps = std::max(near_most_steps, near_steps);
    const int far_steps = StepsToReach(ik, Unnamed(kStartPosture), X_WT, kMaxSteps, &q);
    if (far_steps >= 0) {
      ++far_reached;
      far_most_steps = std::max(far_most_steps, far_steps);
    }
  }
  EXPECT_GE(far_reached, 30);
  std::printf(
      "%s: from ±0.5 rad away %d/%d reached to 2 mm / 1 deg in at most %d IK steps; "
      "from the tomato posture %d/%d in at most %d\n",
      urdf.c_str(), kSamples, kSamples, near_most_steps, far_reached, kSamples, far_most_steps);
}


TEST(DlsIkTest, ReachesRandomTargetsOnOurFetch) { ExpectRandomTargetsReached(kOurFetch, 3); }


TEST(DlsIkTest, ReachesRandomTargetsOnTheRealFetch) {
  SIM_REQUIRE_SHARED_DATA(kRealFetch);
  ExpectRandomTargetsReached(kRealFetch, 5);
}


TEST(DlsIkTest, UnreachableTargetEndsAtTheClosestPoseWithoutOscillating) {
  const LoadedRobot fetch = LoadFetch(kOurFetch, {});
  const KinematicChain chain = ArmChain(fetch.model);
  DlsIk ik(chain, {.max_step = VecX::Constant(8, 0.05)});
  ik.set_rest_posture(Unnamed(kStartPosture));
  // 3 m in front of the robot at shoulder height: the arm reaches about 1 m
  const IkTarget target{.X_WT = Pose{Vec3(3, -0.5, 1.1), Quat::Identity()},
                        .orientation_weight = 0};
  VecX q = Unnamed(kStartPosture);
  std::vector<Real> errors;
  VecX last_step;
  for (int step = 0; step < 1000; ++step) {
    const IkResult result = ik.Step(Pose{}, q, target);
    errors.push_back(result.position_error);
    last_step = result.q - q;
    q = result.q;
  }
  // the last 100 errors never increase (1e-9 m: round-off of the FK); the last step is small
  // (along the singular direction the damped steps shrink with σ_min, so it creeps, bounded)
  for (std::size_t i = errors.size() - 100; i < errors.size(); ++i) {
    EXPECT_LE(errors[i], errors[i - 1] + 1e-9) << "step " << i;
  }
  EXPECT_LT(last_step.cwiseAbs().maxCoeff(), 1e-3);
  // a local closest pose: no joint perturbation of 0.01 within the limits gets 0.1 mm closer
  const Real final_error = (ChainForwardKinematics(chain, Pose{}, q).p - target.X_WT.p).norm();
  std::mt19937 rng(13);
  for (int trial = 0; trial < 200; ++trial) {
    VecX perturbed = q;
    for (int k = 0; k < 8; ++k)
      perturbed[k] += std::uniform_real_distribution<Real>(-0.01, 0.01)(rng);
    perturbed = perturbed.cwiseMax(chain.lower).cwiseMin(chain.upper);
    const Real error = (ChainForwardKinematics(chain, Pose{}, perturbed).p - target.X_WT.p).norm();
    EXPECT_GT(error, final_error - 1e-4) << "trial " << trial;
  }
  std::printf("unreachable target: final distance %.4f m, last step %.2e\n", final_error,
              last_step.cwiseAbs().maxCoeff());
}


TEST(TeleopControllerTest, FetchSceneReachesAPoseTargetThroughItsDrives) {
  // our Fetch on the ground, held by stiff drives, with an end effector and a gripper target
  const std::string text = test_support::TeleopFetchSceneText();
  Expected<io::Scene> scene = io::ParseScene(text, std::string(SIM_SOURCE_DIR) + "/scenes/t.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  auto simulation = Simulation::Create(scene->model, scene->initial_state, "nsn");
  ASSERT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
  Simulation& sim = *simulation.value();
  const Model& model = *scene->model;
  TeleopController teleop(model);
  ASSERT_TRUE(teleop.chain_errors().empty());
  teleop.Reset(model, sim.state());
  // 10 cm forward, 5 cm right, 8 cm up, the orientation kept
  const Pose start = teleop.EndEffectorPose(0, sim.state()).value();
  const Pose goal{start.p + Vec3(0.10, -0.05, 0.08), start.q};
  teleop.SetPoseTarget(0, goal);
  teleop.SetAxis(1, 1);
  const Real dt = model.options.solver.dt;
  const int steps = static_cast<int>(std::lround(3.0 / dt));
  for (int i = 0; i < steps; ++i) {
    teleop.Apply(model, sim.state(), dt, &sim.control());
    sim.Step();
  }
  const Pose reached = teleop.EndEffectorPose(0, sim.state()).value();
  Real position_error = 0, rotation_error = 0;
  PoseError(reached, goal, &position_error, &rotation_error);
  std::printf("dynamic Fetch: gripper %.2f mm / %.3f deg from the target after 3 s\n",
              position_error * 1e3, rotation_error * 180 / kPi);
  // the drives' static sag under gravity (~20 N·m / 1e5 N·m/rad ≈ 2e-4 rad over ~1 m) is
  // ~0.2 mm; 3 mm leaves room for the drive's tracking lag at the end of the motion
  EXPECT_LT(position_error, 3e-3);
  EXPECT_LT(rotation_error, 1.0 * kPi / 180);
  // the gripper target is the closed position
  EXPECT_NEAR(sim.control().joint_target_position[model.FindJoint("fetch/l_gripper_finger_joint")],
              0.01, 1e-15);
}

}  // namespace
}  // namespace sim
