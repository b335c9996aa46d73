// The recorded teleop demonstrations (resources/teleop/recordings, written by
// scenes/tools/make_teleop_recordings.py) replayed on their shipped scenes do the tasks:
//   - Fetch picks the soft tomato of fetch_tomato, puts it on the spring scale, and the scale
//     reads its weight;
//   - the Allegro hand of allegro_ball closes its power synergy on the ball and lifts it 5 cm;
//   - the mobile Fetch of fetch_teleop drives to the shelf and picks the can;
//   - a replay reproduces the recorded final state hash (the first replay's, written back as
//     `contact-sim replay --record` does).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/io/teleop_recording_file.h"
#include "engine/io/teleop_replay.h"
#include "engine/step/pipeline.h"

namespace sim {
namespace {

const std::string kRecordings = std::string(SIM_SOURCE_DIR) + "/resources/teleop/recordings/";
constexpr double kG = 9.81;

struct Replay {
  std::unique_ptr<Simulation> sim;  // at the replay's final state
  io::ReplayResult result;
  double seconds = 0;  // wall time of the replay
};

// replays the recording with the shared replayer (engine/io/teleop_replay.h); `observe` is called
// after every step
Replay RunRecording(const std::string& file,
                    const std::function<void(const Simulation&)>& observe = {}) {
  Replay replay;
  io::ReplayOptions options;
  options.observer = [&](const Simulation& sim) {
    const StepReport& report = sim.report();
    EXPECT_EQ(report.status & (kStepNonFinite | kStepRunaway), 0u)
        << file << " step " << sim.state().step << ": " << report.message;
    if (observe) observe(sim);
  };
  const auto start = std::chrono::steady_clock::now();
  Expected<io::ReplayResult> result = io::ReplayTeleopRecording(kRecordings + file, options);
  replay.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(result.ok()) << result.diagnostics().Format();
  if (!result.ok()) return replay;
  replay.result = std::move(result.value());
  EXPECT_EQ(replay.result.actions_not_reached, 0);
  auto simulation =
      Simulation::Create(replay.result.model, replay.result.final_state, replay.result.solver);
  EXPECT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
  if (simulation.ok()) replay.sim = std::move(simulation.value());
  return replay;
}

// mass-weighted centroid of a soft body's nodes [m], and its mass [kg]
Vec3 SoftCentroid(const Simulation& sim, int soft_body, double* mass = nullptr) {
  const Model& model = sim.model();
  const SoftBody& soft = model.soft_bodies.at(soft_body);
  Vec3 sum = Vec3::Zero();
  double total = 0;
  for (int p = soft.first_particle; p < soft.first_particle + soft.particle_count; ++p) {
    sum += model.particle_mass[p] * sim.state().particle_x_W[p];
    total += model.particle_mass[p];
  }
  if (mass != nullptr) *mass = total;
  return sum / total;
}

// the scale of fetch_tomato (scenes/tools/make_fetch_scenes.py): spring 200 N/m, crank 12 mm,
// rod 50 mm; the mass [kg] the needle reads (as tests/io/shipped_scenes_test.cpp ScaleReading)
double ScaleReading(const Simulation& sim) {
  constexpr double kSpring = 200, kCrank = 0.012, kRod = 0.05;
  const Model& model = sim.model();
  const int pivot = model.FindJoint("scale_needle_pivot");
  const double theta =
      JointCoordinate(model, pivot, Pose{}, sim.state().body_X_WB[model.joint_child[pivot]]);
  const double side = kCrank * (1 - std::cos(theta));
  const double drop = kCrank * std::sin(theta) + kRod - std::sqrt(kRod * kRod - side * side);
  return kSpring * drop / kG;
}


// the pose of `body` (a robot link with a body of its own) [m]
Vec3 BodyPosition(const Simulation& sim, const std::string& body) {
  const int b = sim.model().FindBody(body);
  EXPECT_GE(b, 0) << body;
  return b >= 0 ? sim.state().body_X_WB[b].p : Vec3::Zero();
}


TEST(TeleopPickTest, FetchPutsTheTomatoOnTheScaleAndItReadsTheWeight) {
  // after the lift (4.6 s) the tomato hangs between the finger pads above the table; at the end
  // (10 s, the gripper opened at 6.9 s and gone at 9 s) it lies on the platform and the needle
  // reads its weight
  const int lifted_step = static_cast<int>(std::lround(4.6 / 0.0083));
  Vec3 lifted = Vec3::Zero(), fingers = Vec3::Zero();
  Replay replay = RunRecording("fetch_tomato_pick.json", [&](const Simulation& sim) {
    if (sim.state().step != static_cast<std::uint64_t>(lifted_step)) return;
    lifted = SoftCentroid(sim, 0);
    fingers = 0.5 * (BodyPosition(sim, "fetch/l_gripper_finger_link") +
                     BodyPosition(sim, "fetch/r_gripper_finger_link"));
  });
  ASSERT_TRUE(replay.sim);
  const Simulation& sim = *replay.sim;
  constexpr double kTableTop = 0.72;           // make_fetch_scenes.py
  EXPECT_GT(lifted.z(), kTableTop + 0.1);      // lifted 0.17 m
  EXPECT_LT((lifted - fingers).norm(), 0.02);  // between the fingers
  double mass = 0;
  const Vec3 placed = SoftCentroid(sim, 0, &mass);
  const Vec3 platform = BodyPosition(sim, "scale_platform");
  EXPECT_LT(std::hypot(placed.x() - platform.x(), placed.y() - platform.y()), 0.03);
  EXPECT_GT(placed.z(), platform.z());
  // reference: the weight m g of the tomato's nodes (ρ V = 0.1439 kg). 5 % is the issue's
  // demand; the linkage reads a hung static weight to +0.5 % (FetchTomatoTest), so the margin
  // is for the soft tomato still settling on the damped platform (measured +0.4 %)
  const double reading = ScaleReading(sim);
  EXPECT_NEAR(reading, mass, 0.05 * mass);
  std::printf("tomato %.4f kg, scale reads %.4f kg (%+.2f %%); %llu steps in %.1f s\n", mass,
              reading, 100 * (reading - mass) / mass,
              static_cast<unsigned long long>(sim.state().step), replay.seconds);
}


TEST(TeleopPickTest, AllegroClosesOnTheBallAndLiftsIt) {
  // the power synergy closes over 1 s from 0.5 s; the palm rises 8 cm from 2 s to 3 s on its
  // slide and holds. Before the lift (1.9 s) and at the end (4 s), the ball's offset from the
  // palm is the same to 1 cm (it moved with the hand, not rolled out of it), and it rose ≥ 5 cm
  // above where it lay at the start
  Vec3 start = Vec3::Zero(), grasped_offset = Vec3::Zero();
  double palm_height = 0;
  Replay replay = RunRecording("allegro_ball_lift.json", [&](const Simulation& sim) {
    if (sim.state().step == 1) start = SoftCentroid(sim, 0);
    if (sim.state().step == static_cast<std::uint64_t>(std::lround(1.9 / 0.0083))) {
      grasped_offset = SoftCentroid(sim, 0) - BodyPosition(sim, "hand/palm_link");
      palm_height = sim.teleop()->controller().EndEffectorPose(0, sim.state())->p.z();
    }
  });
  ASSERT_TRUE(replay.sim);
  const Simulation& sim = *replay.sim;
  const Vec3 ball = SoftCentroid(sim, 0);
  const Vec3 offset = ball - BodyPosition(sim, "hand/palm_link");
  // the palm holds its height (0.25 m, where the scripted scene's fixed base held it) to the
  // slide drive's static sag: the IK commands the slide to the pose target itself, so the hand's
  // and the ball's weight (1.1 kg) sink it by m g / k = 0.11 mm
  EXPECT_NEAR(palm_height, 0.25, 2e-4);
  EXPECT_GT(ball.z() - start.z(), 0.05);
  EXPECT_LT((offset - grasped_offset).norm(), 0.01);
  std::printf("ball lifted %.1f mm, moved %.1f mm relative to the palm; %llu steps in %.1f s\n",
              (ball.z() - start.z()) * 1e3, (offset - grasped_offset).norm() * 1e3,
              static_cast<unsigned long long>(sim.state().step), replay.seconds);
}


TEST(TeleopPickTest, MobileFetchDrivesToTheShelfAndPicksTheCan) {
  // the base drives 0.85 m at 0.4 m/s (its drives track the integrated target: 1 cm), the
  // gripper closes on the can from above and lifts it 12 cm: the can is 10 cm up, between the
  // fingers, and the other things stay where they stood (5 mm)
  Replay replay = RunRecording("fetch_teleop_pick.json");
  ASSERT_TRUE(replay.sim);
  const Simulation& sim = *replay.sim;
  const Model& model = sim.model();
  const int base_x = model.FindJoint("base_x");
  ASSERT_GE(base_x, 0);
  EXPECT_NEAR(JointCoordinate(model, sim.state(), base_x), 0.85, 0.01);
  constexpr double kBoard = 0.75;  // the shelf's pick board, make_fetch_scenes.py
  const Vec3 can = BodyPosition(sim, "can");
  const Vec3 fingers = 0.5 * (BodyPosition(sim, "fetch/l_gripper_finger_link") +
                              BodyPosition(sim, "fetch/r_gripper_finger_link"));
  EXPECT_GT(can.z() - (kBoard + 0.055), 0.10);
  EXPECT_LT(std::hypot(can.x() - fingers.x(), can.y() - fingers.y()), 0.02);
  EXPECT_LT((BodyPosition(sim, "red_box") - Vec3(1.5, 0.2, kBoard + 0.05)).norm(), 0.005);
  EXPECT_LT((BodyPosition(sim, "green_box") - Vec3(1.5, -0.2, kBoard + 0.04)).norm(), 0.005);
  std::printf("base at %.4f m, can lifted %.1f mm; %llu steps in %.1f s\n",
              JointCoordinate(model, sim.state(), base_x), (can.z() - kBoard - 0.055) * 1e3,
              static_cast<unsigned long long>(sim.state().step), replay.seconds);
}


TEST(TeleopPickTest, AReplayReproducesTheRecordedFinalState) {
  // rates are integrated over simulated time and actions applied at recorded steps, so a
  // replay reproduces the state bit for bit (the hand: FEM ball, synergy, IK on the slide; the
  // mobile Fetch: base velocity, arm pose targets): the first replay's verified recording (its
  // hashes filled, as `contact-sim replay --record` writes it) replays to the same final hash
  for (const char* file : {"allegro_ball_lift.json", "fetch_teleop_pick.json"}) {
    Replay first = RunRecording(file);
    ASSERT_TRUE(first.sim);
    const std::string verified = (std::filesystem::temp_directory_path() /
                                  ("teleop_pick_" + std::to_string(getpid()) + "_" + file))
                                     .string();
    TeleopRecording recording = first.result.verified;
    recording.scene_path = io::ScenePathFor(first.result.file.scene_file, verified);
    std::string error;
    ASSERT_TRUE(io::WriteTeleopRecording(verified, recording, &error)) << error;
    Expected<io::ReplayResult> second = io::ReplayTeleopRecording(verified);
    ASSERT_TRUE(second.ok()) << second.diagnostics().Format();
    EXPECT_TRUE(second->compared) << file;
    EXPECT_TRUE(second->matches) << file << ": " << second->final_state_hash << " vs "
                                 << first.result.final_state_hash;
    std::filesystem::remove(verified);
  }
}

}  // namespace
}  // namespace sim
