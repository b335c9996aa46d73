// Teleoperation's cost and latency on the shipped teleop scenes (issue 19's speed targets):
//   BM_TeleopStep/SCENE: one simulation step with the operator engaged (the arm's target moving
//     on a held twist, so the IK works every step), with counters `teleop_us` (the control
//     stage: actions, rate integration, IK, drive targets) and `overhead_%` = teleop / step;
//     target < 5 % on fetch_tomato;
//   BM_InputLatency/SCENE: the studio's worker (ui/sim_worker.h, no Qt) running the scene in real
//     time while device actions arrive at random moments (as a 250 Hz poller delivers them);
//     counters: latency from the event's time stamp to the start of the step that applied it
//     (`latency_mean_ms`, `latency_max_ms`), the steps from arrival to application
//     (`latency_steps`, target 1) and the real-time factor the worker kept (`rtf`).
// Run: build/bench/teleop_bench --benchmark_min_time=2
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>

#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"
#include "engine/teleop/teleop_session.h"
#include "ui/sim_worker.h"

namespace sim {
namespace {

io::Scene LoadShipped(const std::string& name) {
  Expected<io::Scene> scene =
      io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/" + name + ".json");
  if (!scene.ok()) throw std::runtime_error(scene.diagnostics().Format());
  return std::move(scene.value());
}

// the first end effector of the model's teleop targets
int FirstEndEffector(const Model& model) {
  for (std::size_t t = 0; t < model.teleop_targets.size(); ++t) {
    if (model.teleop_targets[t].type == TeleopTargetType::kEndEffector) return static_cast<int>(t);
  }
  return -1;
}

// a slow circle of the end effector's target: a held twist that turns every half second
TeleopAction CircleTwist(int target, int step) {
  const double phase = 2 * 3.14159265358979 * step / 240.0;
  TeleopAction action;
  action.kind = TeleopActionKind::kPoseVelocity;
  action.target = target;
  action.linear = 0.05 * Vec3(std::cos(phase), std::sin(phase), 0);
  return action;
}

void BM_TeleopStep(benchmark::State& bench, const std::string& name) {
  const io::Scene scene = LoadShipped(name);
  auto simulation =
      Simulation::Create(scene.model, scene.initial_state, scene.model->options.solver.name);
  Simulation& sim = *simulation.value();
  const int arm = FirstEndEffector(sim.model());
  // settle, then engage
  for (int i = 0; i < 30; ++i) sim.Step();
  double control_ms = 0, step_ms = 0;
  int step = 0;
  for (auto _ : bench) {
    if (step % 60 == 0) sim.teleop()->Submit(CircleTwist(arm, step));
    const StepReport& report = sim.Step();
    control_ms += report.control_ms;
    step_ms += report.total_ms;
    ++step;
  }
  bench.counters["teleop_us"] = 1e3 * control_ms / step;
  bench.counters["step_ms"] = step_ms / step;
  bench.counters["overhead_%"] = 100 * control_ms / step_ms;
}


void BM_InputLatency(benchmark::State& bench, const std::string& name) {
  const io::Scene scene = LoadShipped(name);
  const int arm = FirstEndEffector(*scene.model);
  ui::SimWorker worker;
  worker.Start();
  ui::command::LoadScene load;
  load.model = scene.model;
  load.initial_state = scene.initial_state;
  load.path = name;
  worker.Send(load);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pause_us(1000, 12000);  // actions 1–12 ms apart
  int sent = 0;
  for (auto _ : bench) {
    TeleopAction action = CircleTwist(arm, sent++);
    action.stamp_seconds = TeleopClockSeconds();
    worker.Send(ui::command::Teleop{action});
    std::this_thread::sleep_for(std::chrono::microseconds(pause_us(rng)));
  }
  // the worker's own figures, from its latest snapshot
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ui::SimSnapshot* latest = nullptr;
  for (int tries = 0; tries < 100 && latest == nullptr; ++tries) {
    latest = worker.TakeLatest();
    if (latest == nullptr) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (latest != nullptr) {
    bench.counters["latency_mean_ms"] = latest->teleop.latency_mean_ms;
    bench.counters["latency_max_ms"] = latest->teleop.latency_max_ms;
    bench.counters["latency_steps"] = latest->teleop.latency_max_steps;
    bench.counters["samples"] = static_cast<double>(latest->teleop.latency_samples);
    bench.counters["rtf"] = latest->real_time_factor;
  }
  worker.Stop();
}

BENCHMARK_CAPTURE(BM_TeleopStep, fetch_tomato, std::string("fetch_tomato"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TeleopStep, allegro_ball, std::string("allegro_ball"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TeleopStep, fetch_teleop, std::string("fetch_teleop"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_InputLatency, fetch_tomato, std::string("fetch_tomato"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(400)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_InputLatency, fetch_teleop, std::string("fetch_teleop"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(400)
    ->UseRealTime();

}  // namespace
}  // namespace sim

BENCHMARK_MAIN();
