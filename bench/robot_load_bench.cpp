// Loading real robots into a scene (URDF parse, mesh files through assimp, convex hulls of the
// collision meshes, drawn surfaces of the visuals): the Fetch (42 mesh references, 37 files) and
// the Allegro hand (13 STL visuals, primitive collisions), from the shared test data
// (SIM_SHARED_DATA_DIR/robots). "cold" clears the mesh cache before every load, "warm" keeps the
// previous scene alive so every mesh comes from the cache. Wall time (the mesh files load in
// parallel). Run:
//   build/bin/robot_load_bench --benchmark_min_time=1 --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <string>

#include "engine/io/mesh_cache.h"
#include "engine/io/scene_file.h"

namespace {

const std::string kRobots = std::string(SIM_SHARED_DATA_DIR) + "/robots";

std::string RobotScene(const std::string& urdf, const std::string& collision) {
  return R"({"name": "robot", "objects": [{"name": "ground", "type": "plane"},
    {"name": "robot", "type": "urdf", "file": ")" +
         kRobots + "/" + urdf + R"(", "package_paths": [")" + kRobots +
         R"("], "collision_meshes": ")" + collision + R"("}]})";
}

void LoadRobot(benchmark::State& state, const std::string& urdf, const std::string& collision,
               bool warm) {
  const std::string text = RobotScene(urdf, collision);
  sim::Expected<sim::io::Scene> previous = sim::io::ParseScene(text, kRobots + "/bench.json");
  if (!previous.ok()) {
    state.SkipWithError(previous.diagnostics().Format().c_str());
    return;
  }
  for (auto _ : state) {
    if (!warm) sim::io::MeshCache::Global().Clear();
    sim::Expected<sim::io::Scene> scene = sim::io::ParseScene(text, kRobots + "/bench.json");
    benchmark::DoNotOptimize(scene.ok());
  }
}

void BM_FetchHullsCold(benchmark::State& state) {
  LoadRobot(state, "fetch_description/robots/fetch.urdf", "hull", false);
}
void BM_FetchHullsWarm(benchmark::State& state) {
  LoadRobot(state, "fetch_description/robots/fetch.urdf", "hull", true);
}
void BM_AllegroCold(benchmark::State& state) {
  LoadRobot(state, "allegro_hand_description/allegro_hand_description_right.urdf", "hull", false);
}

BENCHMARK(BM_FetchHullsCold)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FetchHullsWarm)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AllegroCold)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
