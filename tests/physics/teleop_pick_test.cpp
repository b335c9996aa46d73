// The recorded teleop demonstrations (resources/teleop/recordings, written by
// scenes/tools/make_teleop_recordings.py) replayed on their shipped scenes do the tasks:
//   - Fetch picks the soft tomato of fetch_tomato, puts it on the spring scale, and the scale
//     reads its weight;
//   - the Allegro hand of allegro_ball closes its power synergy on the ball and lifts it 5 cm;
//   - the mobile Fetch of fetch_teleop drives to the shelf and picks the can;
//   - a replay is deterministic: the same recording twice gives the same StateHash.
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/dynamics/constraint_rows.h"
#include "engine/io/json_document.h"
#include "engine/io/scene_file.h"
#include "engine/io/text_file.h"
#include "engine/step/pipeline.h"
#include "engine/teleop/teleop_recording.h"

namespace sim {
namespace {

const std::string kRecordings = std::string(SIM_SOURCE_DIR) + "/resources/teleop/recordings/";
constexpr double kG = 9.81;

// --- TEMPORARY: a minimal reader of the recording format, until the shared reader and replayer
// (`contact-sim replay`) land; then this section goes and the tests call the shared reader.

Vec3 ReadVec3(const io::JsonValue& action, const char* key) {
  const io::JsonValue* value = action.Find(key);
  if (value == nullptr || value->items().size() != 3) return Vec3::Zero();
  return Vec3(value->items()[0].number(), value->items()[1].number(), value->items()[2].number());
}

// the recording at `path` with its actions' target indices resolved on `model`
TeleopRecording ReadRecording(const std::string& path, const Model& model) {
  TeleopRecording recording;
  Expected<std::string> text = io::ReadTextFile(path, "teleop recording");
  EXPECT_TRUE(text.ok()) << text.diagnostics().Format();
  if (!text.ok()) return recording;
  Expected<io::JsonValue> json = io::ParseJson(text.value(), path);
  EXPECT_TRUE(json.ok()) << json.diagnostics().Format();
  if (!json.ok()) return recording;
  recording.scene_path = json->Find("scene")->string();
  recording.steps = static_cast<std::uint64_t>(json->Find("steps")->number());
  for (const io::JsonValue& entry : json->Find("actions")->items()) {
    RecordedAction recorded;
    recorded.step = static_cast<std::uint64_t>(entry.Find("step")->number());
    TeleopAction& action = recorded.action;
    EXPECT_TRUE(ParseTeleopActionKind(entry.Find("kind")->string(), &action.kind));
    const std::string target = entry.Find("target")->string();
    for (std::size_t t = 0; t < model.teleop_targets.size(); ++t) {
      if (model.teleop_targets[t].name == target) action.target = static_cast<int>(t);
    }
    EXPECT_GE(action.target, 0) << "unknown target " << target;
    action.linear = ReadVec3(entry, "linear");
    action.angular = ReadVec3(entry, "angular");
    action.pose.p = ReadVec3(entry, "position");
    if (const io::JsonValue* q = entry.Find("quaternion_wxyz")) {
      action.pose.q = Quat(q->items()[0].number(), q->items()[1].number(), q->items()[2].number(),
                           q->items()[3].number());
    }
    if (const io::JsonValue* value = entry.Find("value")) action.value = value->number();
    recording.actions.push_back(recorded);
  }
  return recording;
}

// --- end of the temporary reader

struct Replay {
  std::unique_ptr<Simulation> sim;
  double seconds = 0;  // wall time of the steps
};

// loads the recording's scene and steps it `steps` times, submitting each action before its
// step; `observe` is called after every step
Replay RunRecording(const std::string& file,
                    const std::function<void(const Simulation&)>& observe = {}) {
  Replay replay;
  // the scene path is relative to the recording's folder
  Expected<std::string> text = io::ReadTextFile(kRecordings + file, "teleop recording");
  EXPECT_TRUE(text.ok()) << text.diagnostics().Format();
  if (!text.ok()) return replay;
  Expected<io::JsonValue> json = io::ParseJson(text.value(), file);
  if (!json.ok()) return replay;
  const std::string scene_path = kRecordings + json->Find("scene")->string();
  Expected<io::Scene> scene = io::LoadScene(scene_path);
  EXPECT_TRUE(scene.ok()) << scene.diagnostics().Format();
  if (!scene.ok()) return replay;
  auto simulation =
      Simulation::Create(scene->model, scene->initial_state, scene->model->options.solver.name);
  EXPECT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
  if (!simulation.ok()) return replay;
  replay.sim = std::move(simulation.value());
  Simulation& sim = *replay.sim;
  EXPECT_NE(sim.teleop(), nullptr);
  if (sim.teleop() == nullptr) return replay;
  const TeleopRecording recording = ReadRecording(kRecordings + file, sim.model());
  std::size_t next = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t step = 0; step < recording.steps; ++step) {
    while (next < recording.actions.size() && recording.actions[next].step <= sim.state().step) {
      sim.teleop()->Submit(recording.actions[next++].action);
    }
    const StepReport& report = sim.Step();
    EXPECT_EQ(report.status & (kStepNonFinite | kStepRunaway), 0u)
        << file << " step " << step << ": " << report.message;
    if (observe) observe(sim);
  }
  replay.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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


TEST(TeleopPickTest, ReplayingARecordingTwiceGivesTheSameState) {
  // rates are integrated over simulated time and actions applied at recorded steps, so a
  // replay reproduces the state bit for bit (the hand: FEM ball, synergy, IK on the slide; the
  // mobile Fetch: base velocity, arm twist and pose targets)
  for (const char* file : {"allegro_ball_lift.json", "fetch_teleop_pick.json"}) {
    Replay first = RunRecording(file);
    Replay second = RunRecording(file);
    ASSERT_TRUE(first.sim && second.sim);
    EXPECT_EQ(first.sim->state().step, second.sim->state().step);
    EXPECT_EQ(StateHash(first.sim->state()), StateHash(second.sim->state())) << file;
  }
}

}  // namespace
}  // namespace sim
