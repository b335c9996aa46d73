// Drive targets and key frames on the shipped Fetch scenes: a torso slider dragged to either end
// is ramped at the URDF's velocity limit (engine/step/target_rate.h) and never runs the solve
// away, even with the soft tomato in the grasp; the scene's scripted gripper (faster than its
// finger limit) is not; a key frame restored mid-ramp replays the run bit for bit.
// SIM_NO_TARGET_RATE=1 clears the velocity limits, to measure the jump the limit prevents.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"
#include "engine/step/target_rate.h"

namespace sim::io {
namespace {

const std::string kScenes = SIM_SOURCE_DIR "/scenes";

// the scene's simulation; without the velocity limits with `unlimited` or SIM_NO_TARGET_RATE=1
std::unique_ptr<Simulation> Start(const std::string& path, bool unlimited = false) {
  Expected<Scene> scene = LoadScene(path);
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  if (!scene.ok()) return nullptr;
  std::shared_ptr<const Model> model = scene->model;
  if (unlimited || std::getenv("SIM_NO_TARGET_RATE") != nullptr) {
    auto copy = std::make_shared<Model>(*model);
    copy->joint_velocity_limit.clear();
    model = std::move(copy);
  }
  auto simulation = Simulation::Create(model, scene->initial_state, "nsn");
  EXPECT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
  return simulation.ok() ? std::move(simulation.value()) : nullptr;
}

double JointPosition(const Simulation& sim, int j) {
  const Model& model = sim.model();
  const int parent = model.joint_parent[j];
  const Pose X_WP = parent == kWorldBody ? Pose{} : sim.state().body_X_WB[parent];
  return JointCoordinate(model, j, X_WP, sim.state().body_X_WB[model.joint_child[j]]);
}

// one step, then the state's hash
std::uint64_t StepHash(Simulation* sim) {
  sim->Step();
  return StateHash(sim->state());
}

// equal bit for bit (NaN included: the model's target)
bool SameBits(const std::vector<Real>& a, const std::vector<Real>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)) == 0;
}

double FastestSpeed(const State& state) {
  double fastest = 0;
  for (const Vec3& v : state.body_v_W) fastest = std::max(fastest, double(v.norm()));
  for (const Vec3& v : state.particle_v_W) fastest = std::max(fastest, double(v.norm()));
  return fastest;
}


TEST(TargetRateTest, FetchTorsoLimitIsTheUrdfVelocityLimit) {
  Expected<Scene> scene = LoadScene(kScenes + "/fetch_tomato.json");
  ASSERT_TRUE(scene.ok()) << scene.diagnostics().Format();
  const Model& model = *scene->model;
  EXPECT_EQ(MaxTargetSpeed(model, model.FindJoint("fetch/torso_lift_joint")), 0.1);
  EXPECT_EQ(MaxTargetSpeed(model, model.FindJoint("fetch/shoulder_pan_joint")), 1.256);
  // the scale's needle pivot is a scene joint: no URDF limit
  EXPECT_TRUE(std::isinf(MaxTargetSpeed(model, model.FindJoint("scale_needle_pivot"))));
}


TEST(TargetRateTest, FetchTorsoSliderToEitherEndDoesNotRunAway) {
  // the torso slider dragged from 0.35 m to its lower and upper limit (0 and 0.4 m) at 3.8 s, the
  // soft tomato grasped and the script going on (lift at 4.3 s, place from 5.0 s): the drive's
  // target ramps at 0.1 m/s, no step is non-finite or runs away, bodies and nodes stay slower
  // than 1 m/s. Up, the torso reaches 0.4 m; down, 1.2 s of the ramp (to ~0.23 m) are checked:
  // lowered further, the script's place presses the hand into the scale (a jam, not a jump).
  // Unramped (SIM_NO_TARGET_RATE=1) the jump down runs away within 0.1 s.
  auto sim = Start(kScenes + "/fetch_tomato.json");
  ASSERT_TRUE(sim);
  const int torso = sim->model().FindJoint("fetch/torso_lift_joint");
  ASSERT_GE(torso, 0);
  while (sim->state().time < 3.8) ASSERT_EQ(sim->Step().status & kStepNonFinite, 0u);
  const KeyFrame grasped = sim->SaveKeyFrame("grasped");
  for (const double target : {0.0, 0.4}) {
    sim->RestoreKeyFrame(grasped);
    const double start = sim->state().time;
    const double from = JointPosition(*sim, torso);
    SetOperatorTarget(&sim->control(), torso, target);
    // up: the ramp's time at 0.1 m/s, then 0.5 s to settle; down: until the script's place
    const double end = target > from ? start + (target - from) / 0.1 + 0.5 : 5.0;
    int non_finite = 0, runaway = 0;
    double fastest = 0, ramp_error = 0;
    while (sim->state().time < end && non_finite == 0) {
      const StepReport& report = sim->Step();
      non_finite += (report.status & kStepNonFinite) != 0;
      runaway += (report.status & kStepRunaway) != 0;
      fastest = std::max(fastest, FastestSpeed(sim->state()));
      // the drive's target: the model's 0.35 m moved 0.1 m/s towards the slider's
      const double ramp = 0.35 + std::clamp(target - 0.35, -0.1 * (sim->state().time - start),
                                            0.1 * (sim->state().time - start));
      ramp_error =
          std::max(ramp_error, std::abs(sim->drive_control().joint_target_position[torso] - ramp));
      if (std::getenv("SIM_TRACE") != nullptr) {
        std::cout << "t " << sim->state().time << " torso " << JointPosition(*sim, torso)
                  << " drive " << sim->drive_control().joint_target_position[torso] << " fastest "
                  << FastestSpeed(sim->state()) << " status " << report.status << std::endl;
      }
    }
    std::cout << "torso " << from << " -> " << target << " m over " << sim->state().time - start
              << " s: max speed " << fastest << " m/s, non-finite " << non_finite << ", runaway "
              << runaway << ", torso at " << JointPosition(*sim, torso) << " m" << std::endl;
    EXPECT_EQ(non_finite, 0) << target;
    EXPECT_EQ(runaway, 0) << target;
    EXPECT_LT(fastest, 1.0) << target;
    if (std::getenv("SIM_NO_TARGET_RATE") == nullptr) {
      EXPECT_LT(ramp_error, 1e-3) << target;  // within a step's 0.83 mm
    }
    if (target > from) EXPECT_NEAR(JointPosition(*sim, torso), target, 0.01);
  }
}


TEST(TargetRateTest, ScriptedTargetsReachTheDrivesAsCommanded) {
  // fetch_tomato's script closes the gripper at ~0.056 m/s against the fingers' 0.05 m/s limit
  // and moves the torso and arm: 240 steps end on the same state hash with the limits and
  // without them, and the drives saw exactly the commanded targets
  auto limited = Start(kScenes + "/fetch_tomato.json");
  auto unlimited = Start(kScenes + "/fetch_tomato.json", true);
  ASSERT_TRUE(limited && unlimited);
  for (int i = 0; i < 240; ++i) {
    limited->Step();
    unlimited->Step();
    ASSERT_TRUE(SameBits(limited->drive_control().joint_target_position,
                         limited->control().joint_target_position))
        << "step " << i;
    ASSERT_TRUE(SameBits(limited->drive_control().joint_target_velocity,
                         limited->control().joint_target_velocity))
        << "step " << i;
  }
  EXPECT_EQ(StateHash(limited->state()), StateHash(unlimited->state()));
}


TEST(KeyFrameTest, RestoredKeyFrameReplaysTheStateAndTrajectoryHashes) {
  // saved mid-run with contacts, warm starts, a script and a moved target; restored, it gives
  // the same state hash, and 60 steps from it end on the same hash as 60 steps from the original
  auto sim = Start(SIM_SOURCE_DIR "/tests/data/fetch_tomato_rigid.json");
  ASSERT_TRUE(sim);
  const int torso = sim->model().FindJoint("fetch/torso_lift_joint");
  while (sim->state().time < 1.0) sim->Step();
  SetOperatorTarget(&sim->control(), torso, 0.2);
  for (int i = 0; i < 10; ++i) sim->Step();
  const KeyFrame key = sim->SaveKeyFrame("k");
  const std::uint64_t saved = StateHash(sim->state());
  std::uint64_t trajectory = 0;
  for (int i = 0; i < 60; ++i) trajectory ^= StepHash(sim.get()) * (i + 1);
  const std::uint64_t original_end = StateHash(sim->state());
  sim->Reset();
  sim->RestoreKeyFrame(key);
  EXPECT_EQ(StateHash(sim->state()), saved);
  EXPECT_EQ(sim->control().joint_target_position[torso], 0.2);
  std::uint64_t replayed = 0;
  for (int i = 0; i < 60; ++i) replayed ^= StepHash(sim.get()) * (i + 1);
  EXPECT_EQ(replayed, trajectory);
  EXPECT_EQ(StateHash(sim->state()), original_end);
}

}  // namespace
}  // namespace sim::io
