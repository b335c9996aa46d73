// The studio's simulation worker and its exchange with the GUI: the triple buffer hands over whole
// frames, newest first; snapshots arrive and simulated time advances; pause, single step and reset
// do what MuJoCo users expect; commands (solver settings, drive targets) land only between steps,
// also when another thread sends them while the worker steps; bad commands and failed loads become
// diagnostics and the running scene goes on; the mouse spring moves light and heavy bodies alike;
// compared lanes step in lockstep. Built a second time with ThreadSanitizer (SIM_SANITIZE=thread).
#include "ui/sim_worker.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <mutex>
#include <numbers>
#include <optional>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/state/state.h"
#include "tests/support/model_builder.h"

namespace sim::ui {
namespace {

using test_support::AddBody;
using test_support::AddJoint;
using test_support::AddParticle;
using test_support::AddWorldShape;
using test_support::Box;
using test_support::MakeEmptyModel;
using test_support::Plane;

// generous wall-clock limit for anything the worker is asked to do [s]; these scenes step in
// microseconds, so only a badly overloaded machine comes near it
constexpr double kTimeoutSeconds = 30;

struct Scene {
  std::shared_ptr<const Model> model;
  State state;
};

// a box of 0.2 m resting on the ground
Scene BoxOnGround(Real mass = 1, Real friction = 0.5) {
  Model model = MakeEmptyModel(friction);
  State state;
  AddWorldShape(&model, Plane(), Pose{});
  AddBody(&model, &state, "box", Box(Vec3::Constant(0.1)), mass,
          Pose{Vec3(0, 0, 0.1), Quat::Identity()});
  return {std::make_shared<const Model>(std::move(model)), state};
}

// a pendulum on a driven revolute joint (no contacts)
Scene DrivenPendulum() {
  Model model = MakeEmptyModel();
  State state;
  const int bob = AddBody(&model, &state, "bob", Box(Vec3::Constant(0.05)), 1,
                          Pose{Vec3(0.5, 0, 1), Quat::Identity()});
  const int joint = AddJoint(&model, state, JointType::kRevolute, kWorldBody, bob, Vec3(0, 0, 1));
  model.joint_drive[joint].stiffness = 50;
  model.joint_drive[joint].damping = 2;
  return {std::make_shared<const Model>(std::move(model)), state};
}

command::LoadScene Load(const Scene& scene, bool running = false) {
  command::LoadScene load;
  load.model = scene.model;
  load.initial_state = scene.state;
  load.path = "test";
  load.start_running = running;
  return load;
}

// the latest snapshot seen; polls the worker as a GUI would until `done` holds
class SnapshotReader {
 public:
  explicit SnapshotReader(SimWorker* worker) : worker_(worker) {}

  const SimSnapshot& WaitFor(const std::function<bool(const SimSnapshot&)>& done) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(kTimeoutSeconds);
    while (std::chrono::steady_clock::now() < deadline) {
      if (SimSnapshot* latest = worker_->TakeLatest()) {
        EXPECT_GT(latest->serial, last_.serial) << "snapshots arrive newest first";
        last_ = std::move(*latest);
        if (done(last_)) return last_;
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    }
    ADD_FAILURE() << "timed out waiting for a snapshot";
    return last_;
  }

  // waits for a snapshot newer than the last one seen (while the worker runs: a later state)
  const SimSnapshot& Next() {
    const std::uint64_t serial = last_.serial;
    return WaitFor([&](const SimSnapshot& s) { return s.serial > serial; });
  }

  const SimSnapshot& last() const { return last_; }

 private:
  SimWorker* worker_;
  SimSnapshot last_;
};


TEST(FrameMailboxTest, ReaderGetsTheNewestFrameOnce) {
  FrameMailbox<int> mailbox;
  EXPECT_EQ(mailbox.TakeLatest(), nullptr);
  for (int i = 1; i <= 3; ++i) {
    mailbox.back() = i;
    mailbox.Publish();
  }
  ASSERT_TRUE(mailbox.has_new());
  int* latest = mailbox.TakeLatest();
  ASSERT_NE(latest, nullptr);
  EXPECT_EQ(*latest, 3);
  EXPECT_EQ(mailbox.TakeLatest(), nullptr);  // nothing newer
  // the writer's next slot is never the one the reader holds
  mailbox.back() = 4;
  EXPECT_EQ(*latest, 3);
  mailbox.Publish();
  EXPECT_EQ(*mailbox.TakeLatest(), 4);
}


TEST(FrameMailboxTest, FramesCrossThreadsWholeAndInOrder) {
  // the writer fills every element of a frame with its serial; a torn frame (elements from two
  // serials) or an older frame after a newer one would show a broken exchange
  struct Frame {
    std::vector<std::uint64_t> values = std::vector<std::uint64_t>(256, 0);
  };
  FrameMailbox<Frame> mailbox;
  constexpr std::uint64_t kFrames = 20000;
  std::thread writer([&] {
    for (std::uint64_t serial = 1; serial <= kFrames; ++serial) {
      std::fill(mailbox.back().values.begin(), mailbox.back().values.end(), serial);
      mailbox.Publish();
    }
  });
  std::uint64_t last = 0;
  int taken = 0;
  while (last < kFrames) {
    Frame* frame = mailbox.TakeLatest();
    if (frame == nullptr) continue;
    const std::uint64_t serial = frame->values.front();
    for (std::uint64_t v : frame->values) ASSERT_EQ(v, serial) << "torn frame";
    ASSERT_GT(serial, last);
    last = serial;
    ++taken;
  }
  writer.join();
  EXPECT_GT(taken, 0);
}


TEST(SimWorkerTest, SnapshotsArriveAndTimeAdvances) {
  SimWorker worker;
  worker.Start();
  const Scene scene = BoxOnGround();
  worker.Send(command::SetPacing{false, 1.0});
  worker.Send(Load(scene, true));
  SnapshotReader reader(&worker);
  const SimSnapshot& s = reader.WaitFor(
      [](const SimSnapshot& s) { return !s.lanes.empty() && s.lanes[0].time > 0.25; });
  EXPECT_TRUE(s.running);
  EXPECT_EQ(s.scene_generation, 1u);
  EXPECT_EQ(s.model, scene.model);
  ASSERT_EQ(s.frame.shapes.size(), 2u);
  EXPECT_NEAR(s.frame.time, s.lanes[0].time, 1e-12);
  // the box rests: its drawn height stays at 0.1 m
  EXPECT_NEAR(s.frame.shapes[1].X_WS[11], 0.1, 0.01);
  const LaneSnapshot& lane = s.lanes[0];
  EXPECT_EQ(lane.label, "nsn");
  ASSERT_FALSE(lane.history.empty());
  EXPECT_EQ(lane.history.back().step, lane.step);
  for (std::size_t i = 1; i < lane.history.size(); ++i) {
    EXPECT_EQ(lane.history[i].step, lane.history[i - 1].step + 1);
  }
  EXPECT_GT(lane.report.outer_iterations, 0);
  EXPECT_GT(lane.report.contact_count, 0);
  EXPECT_LE(lane.history.size(), static_cast<std::size_t>(SimWorker::kHistoryLength));
}


TEST(SimWorkerTest, PauseStepAndResetAsInMuJoCo) {
  SimWorker worker;
  worker.Start();
  const Scene scene = BoxOnGround();
  worker.Send(Load(scene, false));
  SnapshotReader reader(&worker);
  reader.WaitFor([](const SimSnapshot& s) { return s.scene_generation == 1; });
  EXPECT_FALSE(reader.last().running);
  EXPECT_EQ(reader.last().lanes[0].step, 0u);

  // → takes exactly one step, three presses three more
  worker.Send(command::StepOnce{1});
  reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step >= 1; });
  EXPECT_EQ(reader.last().lanes[0].step, 1u);
  worker.Send(command::StepOnce{3});
  reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step >= 4; });
  // paused: no more steps come
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  worker.Send(command::SetSubsteps{2});
  const SimSnapshot& paused = reader.WaitFor([](const SimSnapshot& s) { return s.substeps == 2; });
  EXPECT_EQ(paused.lanes[0].step, 4u);
  EXPECT_FALSE(paused.running);
  EXPECT_EQ(paused.substeps, 2);

  // play runs on, pause stops
  worker.Send(command::SetPacing{false, 1.0});
  worker.Send(command::Play{});
  reader.WaitFor([](const SimSnapshot& s) { return s.running && s.lanes[0].step > 40; });
  worker.Send(command::Pause{});
  const std::uint64_t stopped =
      reader.WaitFor([](const SimSnapshot& s) { return !s.running; }).lanes[0].step;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  worker.Send(command::SetSubsteps{1});
  EXPECT_EQ(reader.WaitFor([](const SimSnapshot& s) { return s.substeps == 1; }).lanes[0].step,
            stopped);
  // substeps: a running frame takes 2 steps, so a published step count is even from an even start
  EXPECT_EQ(stopped % 2, 0u);

  // reset: back to the initial state and time, history cleared, still paused
  worker.Send(command::Reset{});
  const SimSnapshot& reset =
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step == 0; });
  EXPECT_EQ(reset.lanes[0].time, 0.0);
  EXPECT_TRUE(reset.lanes[0].history.empty());
  EXPECT_FALSE(reset.running);
  EXPECT_EQ(reset.frame.shapes[1].X_WS[11], static_cast<float>(scene.state.body_X_WB[0].p.z()));
}


TEST(SimWorkerTest, EngineThreadsLeaveACoreToTheGui) {
  SimWorker worker;
  worker.Start();
  worker.Send(Load(BoxOnGround(), false));
  SnapshotReader reader(&worker);
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  EXPECT_EQ(reader.WaitFor([](const SimSnapshot& s) { return s.scene_generation == 1; }).threads,
            std::max(1, cores - 1));
  worker.Send(command::SetThreads{2});
  worker.Send(command::StepOnce{2});
  const SimSnapshot& s = reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step >= 2; });
  EXPECT_EQ(s.threads, 2);
}


TEST(SimWorkerTest, RealTimePacingFollowsTheWallClock) {
  SimWorker worker;
  worker.Start();
  worker.Send(command::SetPacing{true, 1.0});
  worker.Send(Load(BoxOnGround(), true));
  SnapshotReader reader(&worker);
  reader.WaitFor([](const SimSnapshot& s) { return s.scene_generation == 1; });
  const auto start = std::chrono::steady_clock::now();
  const double time0 = reader.last().lanes[0].time;
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double simulated = reader.Next().lanes[0].time - time0;
  // never ahead of the wall clock by more than the step in flight; behind only by what a busy
  // machine steals (a tiny scene steps in microseconds), so half the wall time is a safe floor
  const double dt = reader.last().lanes[0].settings.dt;
  EXPECT_LE(simulated, wall + 2 * dt);
  EXPECT_GE(simulated, 0.5 * wall) << "a tiny scene keeps up with real time";
}


// the joint positions after `steps` steps from the scene's start, or from a reset of a run whose
// drive target was moved first
std::vector<Real> PositionsAfter(const Scene& scene, int steps, bool reset_first) {
  SimWorker worker;
  worker.Start();
  worker.Send(Load(scene, false));
  SnapshotReader reader(&worker);
  reader.WaitFor([](const SimSnapshot& s) { return s.scene_generation == 1; });
  if (reset_first) {
    worker.Send(command::SetJointTarget{0, 1.2});
    worker.Send(command::StepOnce{25});
    reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step == 25; });
    worker.Send(command::Reset{});
    const SimSnapshot& reset =
        reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step == 0; });
    EXPECT_TRUE(std::isnan(reset.lanes[0].joint_targets[0])) << "the target went back too";
  }
  worker.Send(command::StepOnce{steps});
  return reader
      .WaitFor([&](const SimSnapshot& s) {
        return s.lanes[0].step == static_cast<std::uint64_t>(steps);
      })
      .lanes[0]
      .joint_positions;
}

TEST(SimWorkerTest, JointsWithoutACoordinateReportTheAngleBetweenTheirFrames) {
  // a weld (fetch_beam's bending joints are compliant welds) and a ball joint whose children
  // start turned 10° and 25° from where the joints were made: the scene panel's Value shows that
  Model model = MakeEmptyModel();
  State state;
  const int weld_child = AddBody(&model, &state, "welded", Box(Vec3::Constant(0.05)), 1,
                                 Pose{Vec3(0.5, 0, 1), Quat::Identity()});
  const int ball_child = AddBody(&model, &state, "balled", Box(Vec3::Constant(0.05)), 1,
                                 Pose{Vec3(-0.5, 0, 1), Quat::Identity()});
  AddJoint(&model, state, JointType::kFixed, kWorldBody, weld_child, Vec3(0.4, 0, 1));
  AddJoint(&model, state, JointType::kBall, kWorldBody, ball_child, Vec3(-0.4, 0, 1));
  constexpr double kDegrees = std::numbers::pi / 180;
  state.body_X_WB[weld_child].q = Quat(Eigen::AngleAxis<Real>(10 * kDegrees, Vec3::UnitY()));
  state.body_X_WB[ball_child].q =
      Quat(Eigen::AngleAxis<Real>(25 * kDegrees, Vec3(1, 1, 0).normalized()));
  const Scene scene{std::make_shared<const Model>(std::move(model)), state};
  SimWorker worker;
  worker.Start();
  worker.Send(Load(scene, false));
  SnapshotReader reader(&worker);
  const std::vector<Real> angles =
      reader.WaitFor([](const SimSnapshot& s) { return s.scene_generation == 1; })
          .lanes[0]
          .joint_positions;
  ASSERT_EQ(angles.size(), 2u);
  EXPECT_NEAR(angles[0], 10 * kDegrees, 1e-9);
  EXPECT_NEAR(angles[1], 25 * kDegrees, 1e-9);
}


TEST(SimWorkerTest, ResetRestoresTheInitialStateAndTheTargetsAsAFreshLoad) {
  // MuJoCo's reset clears the controls too: after a moved drive target, Reset replays the scene
  // from its first frame bit for bit (a fresh solver: no warm start from before)
  const Scene scene = DrivenPendulum();
  const std::vector<Real> fresh = PositionsAfter(scene, 30, false);
  const std::vector<Real> after_reset = PositionsAfter(scene, 30, true);
  ASSERT_EQ(fresh.size(), after_reset.size());
  for (std::size_t j = 0; j < fresh.size(); ++j) EXPECT_EQ(fresh[j], after_reset[j]) << j;
}


TEST(SimWorkerTest, KeyFrameRestoresTheStateHashTargetsAndTrajectory) {
  // saved after a moved target, restored after 15 more steps: the state hash and the target are
  // the saved ones, and 15 steps from it end on the hash 15 steps from the save did
  SimWorker worker;
  worker.Start();
  worker.Send(Load(DrivenPendulum(), false));
  SnapshotReader reader(&worker);
  reader.WaitFor([](const SimSnapshot& s) { return s.scene_generation == 1; });
  worker.Send(command::SetJointTarget{0, 1.2});
  worker.Send(command::StepOnce{20});
  // saved once the 20 steps are taken (commands apply as soon as they arrive, between steps)
  reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step == 20; });
  worker.Send(command::SaveKeyFrame{"swing"});
  const SimSnapshot& saved = reader.WaitFor(
      [](const SimSnapshot& s) { return s.lanes[0].step == 20 && s.key_frames.size() == 1; });
  EXPECT_EQ(saved.key_frames[0], "swing");
  const std::uint64_t saved_hash = saved.lanes[0].state_hash;
  worker.Send(command::StepOnce{15});
  const std::uint64_t end_hash =
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step == 35; })
          .lanes[0]
          .state_hash;
  worker.Send(command::SetJointTarget{0, -0.3});
  worker.Send(command::RestoreKeyFrame{0});
  const SimSnapshot& restored =
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step == 20; });
  EXPECT_EQ(restored.lanes[0].state_hash, saved_hash);
  EXPECT_EQ(restored.lanes[0].joint_targets[0], 1.2);
  EXPECT_NE(saved_hash, end_hash);
  worker.Send(command::StepOnce{15});
  EXPECT_EQ(reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step == 35; })
                .lanes[0]
                .state_hash,
            end_hash);
  // a key frame that does not exist is an error, nothing changes
  worker.Send(command::RestoreKeyFrame{7});
  worker.Send(command::StepOnce{1});
  EXPECT_EQ(
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step == 36; }).lanes[0].step,
      36u);
  const std::vector<Diagnostic> diagnostics = worker.TakeDiagnostics();
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].message.find("no key frame 8"), std::string::npos);
}


TEST(SimWorkerTest, TheScenesKeyFramesAreOfferedAndRestored) {
  // a scene file's key frame (Scene::key_frames, sent with the load) is listed first and
  // restores its time, its state and its targets on every lane
  const Scene scene = DrivenPendulum();
  KeyFrame up;
  up.name = "up";
  up.state = scene.state;
  up.state.time = 0.5;
  up.control = MakeControl(*scene.model);
  up.control.joint_target_position[0] = 0.7;
  command::LoadScene load = Load(scene, false);
  load.key_frames = {up};
  SimWorker worker;
  worker.Start();
  worker.Send(load);
  SnapshotReader reader(&worker);
  const SimSnapshot& loaded =
      reader.WaitFor([](const SimSnapshot& s) { return s.scene_generation == 1; });
  EXPECT_EQ(loaded.key_frames, std::vector<std::string>{"up"});
  worker.Send(command::RestoreKeyFrame{0});
  const SimSnapshot& restored =
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].time == 0.5; });
  EXPECT_EQ(restored.lanes[0].joint_targets[0], 0.7);
  EXPECT_EQ(restored.lanes[0].state_hash, StateHash(up.state));
}


TEST(SimWorkerTest, TakenJointIsLeftByTheScriptUntilReleased) {
  // a script ramps the pendulum's target 0 → 1 rad over 1 s; taken over, the target is the
  // user's and stays; released, the script's again
  Scene scene = DrivenPendulum();
  auto model = std::make_shared<Model>(*scene.model);
  JointScriptTrack track;
  track.joint = 0;
  track.time = {0, 1};
  track.value = {0, 1};
  track.interpolation = {ScriptInterpolation::kLinear, ScriptInterpolation::kLinear};
  model->joint_script.push_back(track);
  scene.model = model;
  SimWorker worker;
  worker.Start();
  worker.Send(Load(scene, false));
  SnapshotReader reader(&worker);
  worker.Send(command::StepOnce{12});
  const SimSnapshot& scripted = reader.WaitFor(
      [](const SimSnapshot& s) { return !s.lanes.empty() && s.lanes[0].step == 12; });
  // the script at the 12th step's end time, 12 dt
  EXPECT_NEAR(scripted.lanes[0].joint_targets[0], 12.0 / 120, 1e-9);
  worker.Send(command::SetJointTaken{0, true});
  worker.Send(command::SetJointTarget{0, -0.5});
  worker.Send(command::StepOnce{12});
  const SimSnapshot& taken =
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step == 24; });
  EXPECT_EQ(taken.lanes[0].joint_targets[0], -0.5);
  EXPECT_EQ(taken.lanes[0].joint_taken[0], 1);
  worker.Send(command::SetJointTaken{0, false});
  worker.Send(command::StepOnce{1});
  const SimSnapshot& released =
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step == 25; });
  EXPECT_NEAR(released.lanes[0].joint_targets[0], 25.0 / 120, 1e-9);
  EXPECT_EQ(released.lanes[0].joint_taken[0], 0);
}


TEST(SimWorkerTest, CommandsLandOnlyBetweenSteps) {
  // the observer runs on the worker at the start and end of each step; it records the step size
  // and drive target the step sees, and at the start of step 3 sends commands as the GUI would
  SimWorker* worker_ptr = nullptr;
  struct Seen {
    double dt = 0;
    Real target = 0;
  };
  std::mutex mutex;
  std::vector<std::pair<Seen, Seen>> steps;  // (before, after) per step
  Seen before;
  SimWorker worker;
  worker_ptr = &worker;
  worker.SetStepObserverForTesting(
      [&](StepPhase phase, int, const Model& model, const Control& control) {
        const Seen seen{model.options.solver.dt, control.joint_target_position[0]};
        std::lock_guard<std::mutex> lock(mutex);
        if (phase == StepPhase::kBefore) {
          before = seen;
          if (steps.size() == 2) {
            worker_ptr->Send(command::SetOverride{-1, "solver.dt=0.004"});
            worker_ptr->Send(command::SetJointTarget{0, 0.5});
          }
        } else {
          steps.emplace_back(before, seen);
        }
      });
  worker.Start();
  worker.Send(Load(DrivenPendulum(), false));
  worker.Send(command::StepOnce{6});
  SnapshotReader reader(&worker);
  const SimSnapshot& s =
      reader.WaitFor([](const SimSnapshot& s) { return !s.lanes.empty() && s.lanes[0].step >= 6; });
  std::lock_guard<std::mutex> lock(mutex);
  ASSERT_EQ(steps.size(), 6u);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    // nothing changes while a step runs
    EXPECT_EQ(steps[i].first.dt, steps[i].second.dt) << "step " << i;
    EXPECT_TRUE(steps[i].first.target == steps[i].second.target ||
                (std::isnan(steps[i].first.target) && std::isnan(steps[i].second.target)))
        << "step " << i;
    // sent during step 3 (index 2): seen from step 4 on
    const bool applied = i >= 3;
    EXPECT_EQ(steps[i].first.dt, applied ? 0.004 : 1.0 / 120.0) << "step " << i;
    EXPECT_EQ(applied, steps[i].first.target == 0.5) << "step " << i;
  }
  EXPECT_EQ(s.lanes[0].settings.dt, 0.004);
  EXPECT_EQ(s.lanes[0].joint_targets[0], 0.5);
}


TEST(SimWorkerTest, ConcurrentSendersNeverChangeAStepMidway) {
  // a GUI thread sends drive targets as fast as it can while the worker steps as fast as it can;
  // every step sees one target from start to end, and the targets it sees only grow
  std::atomic<int> mid_step_changes{0};
  std::atomic<int> steps{0};
  Real before = 0;
  Real last_seen = -1;
  std::atomic<int> out_of_order{0};
  SimWorker worker;
  worker.SetStepObserverForTesting([&](StepPhase phase, int, const Model&, const Control& c) {
    const Real target = c.joint_target_position[0];
    if (phase == StepPhase::kBefore) {
      before = target;
      return;
    }
    if (!(target == before || (std::isnan(target) && std::isnan(before)))) ++mid_step_changes;
    if (!std::isnan(target)) {
      if (target < last_seen) ++out_of_order;
      last_seen = target;
    }
    ++steps;
  });
  worker.Start();
  worker.Send(command::SetPacing{false, 1.0});
  worker.Send(Load(DrivenPendulum(), true));
  std::atomic<bool> stop{false};
  std::thread gui([&] {
    for (int i = 0; !stop; ++i) {
      worker.Send(command::SetJointTarget{0, 1e-3 * i});
      if (i % 16 == 0) std::this_thread::sleep_for(std::chrono::microseconds(10));
    }
  });
  SnapshotReader reader(&worker);
  reader.WaitFor([&](const SimSnapshot& s) {
    return steps.load() > 300 && !s.lanes.empty() && s.lanes[0].joint_targets[0] > 0;
  });
  stop = true;
  gui.join();
  worker.Stop();
  EXPECT_EQ(mid_step_changes.load(), 0);
  EXPECT_EQ(out_of_order.load(), 0);
}


TEST(SimWorkerTest, BadCommandsBecomeDiagnosticsAndTheSceneRunsOn) {
  SimWorker worker;
  worker.Start();
  const Scene scene = BoxOnGround();
  worker.Send(command::SetPacing{false, 1.0});
  worker.Send(Load(scene, true));
  SnapshotReader reader(&worker);
  reader.WaitFor([](const SimSnapshot& s) { return s.scene_generation == 1; });

  // an unknown setting and a bad value: errors naming them; the settings stay
  worker.Send(command::SetOverride{-1, "solver.newton_iterations=-3"});
  worker.Send(command::SetOverride{-1, "solver.bogus=1"});
  // a scene whose solver does not exist: not loaded
  command::LoadScene bad = Load(BoxOnGround(), true);
  bad.configs = {io::SolverConfig{"nope", "nope", {}}};
  worker.Send(bad);
  const std::uint64_t step = reader.Next().lanes[0].step;
  const SimSnapshot& s =
      reader.WaitFor([&](const SimSnapshot& s) { return s.lanes[0].step > step + 10; });
  EXPECT_EQ(s.scene_generation, 1u) << "the failed load replaced the scene";
  EXPECT_EQ(s.model, scene.model);
  EXPECT_EQ(ReadNsnSettings(s.lanes[0].settings).newton_iterations, 6);
  EXPECT_TRUE(s.running);
  const std::vector<Diagnostic> diagnostics = worker.TakeDiagnostics();
  ASSERT_GE(diagnostics.size(), 3u);
  std::string all;
  for (const Diagnostic& d : diagnostics) {
    EXPECT_EQ(d.severity, Severity::kError);
    all += d.Format() + "\n";
  }
  EXPECT_NE(all.find("newton_iterations"), std::string::npos) << all;
  EXPECT_NE(all.find("solver.bogus"), std::string::npos) << all;
  EXPECT_NE(all.find("nope"), std::string::npos) << all;
  EXPECT_TRUE(worker.TakeDiagnostics().empty());
}


// a box of 0.2 m floating in zero gravity at (0, 0, 1)
Scene FloatingBox(Real mass) {
  Model model = MakeEmptyModel();
  model.options.gravity = Vec3::Zero();
  State state;
  AddBody(&model, &state, "box", Box(Vec3::Constant(0.1)), mass,
          Pose{Vec3(0, 0, 1), Quat::Identity()});
  return {std::make_shared<const Model>(std::move(model)), state};
}

// grabs the scene's first body where a ray from straight above meets it and pulls that point
// 0.5 m along +x for `steps` steps (the camera looks down: the drag plane is horizontal)
SimSnapshot DragSideways(const Scene& scene, int steps) {
  SimWorker worker;
  worker.Start();
  worker.Send(Load(scene, false));
  const Vec3 eye = scene.state.body_X_WB[0].p + Vec3(0, 0, 3);
  worker.Send(command::BeginDrag{eye, -Vec3::UnitZ(), -Vec3::UnitZ()});
  worker.Send(command::MoveDrag{eye + Vec3(0.5, 0, 0), -Vec3::UnitZ()});
  worker.Send(command::StepOnce{steps});
  SnapshotReader reader(&worker);
  return reader.WaitFor([&](const SimSnapshot& s) {
    return !s.lanes.empty() && s.lanes[0].step >= static_cast<std::uint64_t>(steps);
  });
}

Vec3 Anchor(const SimSnapshot& s) {
  return Vec3(s.frame.drag.anchor[0], s.frame.drag.anchor[1], s.frame.drag.anchor[2]);
}


TEST(SimWorkerTest, MouseSpringMovesLightAndHeavyBodiesAlike) {
  // grabbed at the top centre (0, 0, 1.1), pulled towards (0.5, 0, 1.1). Forces ∝ m and torques
  // ∝ I ∝ m make the motion independent of the mass: a 1000× heavier box moves the same way
  // (up to the solver's tolerance), both half way after 0.1 s and at the target after 2 s
  for (int steps : {12, 240}) {
    const SimSnapshot light = DragSideways(FloatingBox(1), steps);
    const SimSnapshot heavy = DragSideways(FloatingBox(1000), steps);
    ASSERT_TRUE(light.frame.drag.active);
    ASSERT_TRUE(heavy.frame.drag.active);
    EXPECT_LT((Anchor(light) - Anchor(heavy)).norm(), 1e-3)
        << Anchor(light).transpose() << " vs " << Anchor(heavy).transpose();
    // the critically damped approach, x(t) = 0.5 (1 − e^{−ωt}(1 + ωt)), ω = 10/s: 0.17 m at
    // t = 0.1 s (only roughly: the pull also turns the box about its centre), 0.5 m at 2 s
    const Real expected = steps == 12 ? 0.17 : 0.5;
    EXPECT_NEAR(Anchor(light).x(), expected, steps == 12 ? 0.08 : 1e-3);
    EXPECT_NEAR(Anchor(light).z(), 1.1, steps == 12 ? 0.05 : 1e-3);
    // the published spring: target, grabbed body, its force (none at rest)
    EXPECT_EQ(light.frame.drag.body, 0);
    EXPECT_EQ(light.selected_body, 0);
    EXPECT_EQ(light.frame.selected_body, 0);
    EXPECT_NEAR(light.frame.drag.target[0], 0.5f, 1e-6);
    EXPECT_NEAR(light.frame.drag.target[2], 1.1f, 1e-6);
    if (steps == 12) {
      // still pulling (spring and damping nearly cancel at t = 1/ω on the critical approach);
      // the force scales with the mass
      EXPECT_GT(light.frame.drag.force, 0.5f);
      EXPECT_NEAR(heavy.frame.drag.force / light.frame.drag.force, 1000.0f, 50.0f);
    } else {
      EXPECT_LT(light.frame.drag.force, 0.1f);
    }
  }
}


TEST(SimWorkerTest, PickSelectsAndGroundClears) {
  SimWorker worker;
  worker.Start();
  worker.Send(Load(BoxOnGround(), false));
  worker.Send(command::Pick{Vec3(0, 0, 3), -Vec3::UnitZ()});
  SnapshotReader reader(&worker);
  EXPECT_EQ(
      reader.WaitFor([](const SimSnapshot& s) { return s.frame.selected_body == 0; }).selected_body,
      0);
  // the ground is static: clicking it clears the selection and grabs nothing
  worker.Send(command::BeginDrag{Vec3(2, 0, 3), -Vec3::UnitZ(), -Vec3::UnitZ()});
  const SimSnapshot& s =
      reader.WaitFor([](const SimSnapshot& s) { return s.selected_body == kWorldBody; });
  EXPECT_EQ(s.frame.selected_body, kWorldBody);
  EXPECT_FALSE(s.frame.drag.active);
  worker.Send(command::SelectBody{0});
  EXPECT_EQ(reader.WaitFor([](const SimSnapshot& s) { return s.selected_body == 0; }).selected_body,
            0);
}


TEST(SimWorkerTest, ParticlesAreDraggedToo) {
  Model model = MakeEmptyModel();
  model.options.gravity = Vec3::Zero();
  State state;
  AddParticle(&model, &state, "grain", 0.01, 0.05, Vec3(0, 0, 1));
  SimWorker worker;
  worker.Start();
  worker.Send(Load({std::make_shared<const Model>(std::move(model)), state}, false));
  worker.Send(command::BeginDrag{Vec3(-3, 0, 1), Vec3::UnitX(), Vec3::UnitX()});
  worker.Send(command::MoveDrag{Vec3(-3, 0.3, 1), Vec3::UnitX()});
  worker.Send(command::StepOnce{240});
  SnapshotReader reader(&worker);
  const SimSnapshot& s = reader.WaitFor(
      [](const SimSnapshot& s) { return !s.lanes.empty() && s.lanes[0].step >= 240; });
  EXPECT_EQ(s.selected_particle, 0);
  EXPECT_EQ(s.frame.drag.particle, 0);
  // grabbed at its surface (−0.05, 0, 1): that point is pulled to (−0.05, 0.3, 1)
  EXPECT_NEAR(s.frame.drag.anchor[1], 0.3f, 1e-3f);
}


TEST(SimWorkerTest, ComparedLanesStepInLockstepSideBySide) {
  SimWorker worker;
  worker.Start();
  command::LoadScene load = Load(BoxOnGround(), false);
  Expected<std::vector<io::SolverConfig>> configs =
      io::ParseSolverConfigs("nsn,nsn:linear_solver=jacobi;newton_iterations=3");
  ASSERT_TRUE(configs.ok()) << configs.diagnostics().Format();
  load.configs = configs.value();
  load.lane_offset = Vec3(0, 2, 0);
  worker.Send(load);
  worker.Send(command::StepOnce{10});
  SnapshotReader reader(&worker);
  const SimSnapshot& s = reader.WaitFor(
      [](const SimSnapshot& s) { return s.lanes.size() == 2 && s.lanes[0].step >= 10; });
  EXPECT_EQ(s.lanes[0].step, s.lanes[1].step);
  EXPECT_EQ(s.lanes[0].label, "nsn");
  EXPECT_EQ(s.lanes[1].label, "nsn:linear_solver=jacobi;newton_iterations=3");
  EXPECT_EQ(ReadNsnSettings(s.lanes[1].settings).linear_solver, LinearSolverKind::kJacobi);
  EXPECT_EQ(ReadNsnSettings(s.lanes[1].settings).newton_iterations, 3);
  EXPECT_EQ(ReadNsnSettings(s.lanes[0].settings).newton_iterations, 6);
  // drawn: the ground once, the box twice, lane 1's 2 m along +y
  ASSERT_EQ(s.frame.shapes.size(), 3u);
  EXPECT_NEAR(s.frame.shapes[2].X_WS[7] - s.frame.shapes[1].X_WS[7], 2.0f, 0.01f);
  // a solver setting for lane 1 only
  worker.Send(command::SetOverride{1, "solver.ncp=min"});
  const SimSnapshot& after = reader.WaitFor([](const SimSnapshot& s) {
    return ReadNsnSettings(s.lanes[1].settings).ncp == NcpFunction::kMinMap;
  });
  EXPECT_EQ(ReadNsnSettings(after.lanes[1].settings).ncp, NcpFunction::kMinMap);
  EXPECT_EQ(ReadNsnSettings(after.lanes[0].settings).ncp, NcpFunction::kFischerBurmeister);
  // picking lane 1's box (at y = 2) selects the box
  worker.Send(command::Pick{Vec3(0, 2, 3), -Vec3::UnitZ()});
  EXPECT_EQ(reader.WaitFor([](const SimSnapshot& s) { return s.selected_body == 0; }).selected_body,
            0);
  // overlaid as ghosts: lane 1's box where lane 0's is, see-through, its label at the same point
  worker.Send(command::SetLaneLayout{true});
  worker.Send(command::StepOnce{1});
  const SimSnapshot& ghosts =
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step >= 11; });
  ASSERT_EQ(ghosts.frame.shapes.size(), 3u);
  EXPECT_FALSE(ghosts.frame.shapes[1].lane_ghost);
  EXPECT_TRUE(ghosts.frame.shapes[2].lane_ghost);
  EXPECT_NEAR(ghosts.frame.shapes[2].X_WS[7] - ghosts.frame.shapes[1].X_WS[7], 0.0f, 0.01f);
  EXPECT_NEAR((ghosts.lanes[1].label_W - ghosts.lanes[0].label_W).norm(), 0, 0.01);
  // and back side by side
  worker.Send(command::SetLaneLayout{false});
  worker.Send(command::StepOnce{1});
  const SimSnapshot& side =
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes[0].step >= 12; });
  EXPECT_FALSE(side.frame.shapes[2].lane_ghost);
  EXPECT_NEAR(side.frame.shapes[2].X_WS[7] - side.frame.shapes[1].X_WS[7], 2.0f, 0.01f);
}

TEST(SimWorkerTest, AFailingComparedLaneStopsWhileTheOthersGoOn) {
  // lane 1's control gets a NaN force on the bob before its third step (the engine rejects even
  // a 1e308 drive target without a non-finite state, so the test injects one): that step is
  // non-finite, the lane is stopped and says so; lane 0 keeps stepping and the run is not paused
  SimWorker worker;
  worker.SetStepObserverForTesting(
      [lane1_steps = 0](StepPhase phase, int lane, const Model&, const Control& control) mutable {
        if (phase != StepPhase::kBefore || lane != 1 || ++lane1_steps < 3) return;
        // the worker's own control, handed out const for observing
        const_cast<Control&>(control).body_force_W[0] = Vec3::Constant(NAN);
      });
  worker.Start();
  command::LoadScene load = Load(DrivenPendulum(), false);
  Expected<std::vector<io::SolverConfig>> configs = io::ParseSolverConfigs("nsn,nsn");
  ASSERT_TRUE(configs.ok()) << configs.diagnostics().Format();
  load.configs = configs.value();
  worker.Send(command::SetPacing{false, 1.0});
  worker.Send(load);
  worker.Send(command::Play{});
  SnapshotReader reader(&worker);
  const SimSnapshot& s = reader.WaitFor([](const SimSnapshot& s) {
    return s.lanes.size() == 2 && s.lanes[1].stopped && s.lanes[0].step > 50;
  });
  EXPECT_TRUE(s.running);
  EXPECT_FALSE(s.lanes[0].stopped);
  EXPECT_EQ(s.lanes[0].status_counts[StepStatusIndex(kStepNonFinite)], 0u);
  EXPECT_LT(s.lanes[1].step, 5u);
  EXPECT_GE(s.lanes[1].status_counts[StepStatusIndex(kStepNonFinite)], 1u);
  std::string all;
  for (const Diagnostic& d : worker.TakeDiagnostics()) all += d.message + "\n";
  EXPECT_NE(all.find("this lane is stopped, the others go on"), std::string::npos) << all;
  // reset starts the failed lane again
  worker.Send(command::Pause{});
  worker.Send(command::Reset{});
  EXPECT_FALSE(
      reader.WaitFor([](const SimSnapshot& s) { return !s.running && s.lanes[0].step == 0; })
          .lanes[1]
          .stopped);
}


TEST(SimWorkerTest, LanesAreAddedBranchedAndRemovedWhileTheOthersKeepTheirState) {
  // two compared lanes, 10 steps; a dual lane branched from lane 0 starts from lane 0's state
  // (same hash, same step), a pgs lane added from the start at step 0; every lane then steps;
  // distances are to the reference lane (0 for itself); removing a lane keeps the others
  SimWorker worker;
  worker.Start();
  command::LoadScene load = Load(BoxOnGround(), false);
  Expected<std::vector<io::SolverConfig>> configs = io::ParseSolverConfigs("nsn,pgs");
  ASSERT_TRUE(configs.ok()) << configs.diagnostics().Format();
  load.configs = configs.value();
  worker.Send(load);
  worker.Send(command::StepOnce{10});
  SnapshotReader reader(&worker);
  reader.WaitFor([](const SimSnapshot& s) { return s.lanes.size() == 2 && s.lanes[0].step >= 10; });
  worker.Send(command::AddLane{"dual", 0});
  worker.Send(command::AddLane{"pgs:iterations=5", -1});
  const SimSnapshot& added =
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes.size() == 4; });
  EXPECT_EQ(added.lanes[2].label, "dual @10");
  EXPECT_EQ(added.lanes[2].step, 10u);
  EXPECT_EQ(added.lanes[2].state_hash, added.lanes[0].state_hash);
  EXPECT_EQ(added.lanes[3].label, "pgs:iterations=5");
  EXPECT_EQ(added.lanes[3].step, 0u);

  worker.Send(command::StepOnce{5});
  const SimSnapshot& stepped = reader.WaitFor(
      [](const SimSnapshot& s) { return s.lanes.size() == 4 && s.lanes[3].step == 5; });
  EXPECT_EQ(stepped.lanes[2].step, 15u);
  EXPECT_EQ(stepped.lanes[0].history.back().distance, 0.0);
  // a box resting on the ground: every solver keeps it within a millimetre of NSN's
  for (int k = 1; k < 4; ++k) EXPECT_LT(stepped.lanes[k].history.back().distance, 1e-3) << k;

  worker.Send(command::SetReferenceLane{1});
  worker.Send(command::StepOnce{1});
  const SimSnapshot& referenced = reader.WaitFor(
      [](const SimSnapshot& s) { return s.reference_lane == 1 && s.lanes[0].step == 16; });
  EXPECT_EQ(referenced.lanes[1].history.back().distance, 0.0);

  worker.Send(command::RemoveLane{1});
  const SimSnapshot& removed =
      reader.WaitFor([](const SimSnapshot& s) { return s.lanes.size() == 3; });
  EXPECT_EQ(removed.lanes[0].label, "nsn");
  EXPECT_EQ(removed.lanes[1].label, "dual @10");
  EXPECT_EQ(removed.lanes[2].label, "pgs:iterations=5");
  EXPECT_EQ(removed.lanes[1].step, 16u);
  EXPECT_EQ(removed.reference_lane, 0);
  // the last lane stays
  worker.Send(command::RemoveLane{0});
  worker.Send(command::RemoveLane{0});
  worker.Send(command::RemoveLane{0});
  EXPECT_EQ(reader.WaitFor([](const SimSnapshot& s) { return s.lanes.size() == 1; }).lanes.size(),
            1u);
}

}  // namespace
}  // namespace sim::ui
