// Cost of the render snapshot (FillVisualFrame) that the studio's worker builds for every
// published frame, on the issue's target: a 7k-tet soft ball (sphere1K: 1,760 nodes, 6,851 tets,
// 2,474 boundary triangles) with 30 rigid bodies on a ground plane, with and without the last
// step's contacts. The ball is squashed by 20 % so the strain is not trivially zero. Budget: about
// 1 ms per frame (issue 7). Single thread, shared machine: indicative numbers. Run:
//   build/bin/visual_frame_bench --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"
#include "engine/visual/visual_frame.h"

namespace {

// ground, a 6 × 5 grid of boxes and the ball
std::string SceneText() {
  std::string objects = R"({"name": "ground", "type": "plane"})";
  for (int i = 0; i < 30; ++i) {
    char box[256];
    std::snprintf(box, sizeof(box),
                  R"(, {"name": "box%d", "type": "box", "size": [0.2, 0.2, 0.2],)"
                  R"( "position": [%g, %g, 0.1]})",
                  i, 0.4 * (i % 6) - 1.0, 0.4 * (i / 6) + 1.0);
    objects += box;
  }
  objects += R"(, {"name": "ball", "type": "tetmesh", "file": ")" SIM_SHARED_DATA_DIR
             R"(/tetmesh/sphere1K.msh", "scale": 0.1, "position": [0, 0, 0.05]})";
  return R"({"name": "bench", "objects": [)" + objects + "]}";
}


struct Fixture {
  sim::io::Scene scene;
  sim::State state;
  std::unique_ptr<sim::Simulation> simulation;
};


Fixture& GetFixture() {
  static Fixture* fixture = [] {
    auto* f = new Fixture;
    sim::Expected<sim::io::Scene> scene = sim::io::ParseScene(SceneText(), "bench.json");
    if (!scene.ok()) {
      std::fputs(scene.diagnostics().Format().c_str(), stderr);
      std::abort();
    }
    f->scene = std::move(scene.value());
    f->state = f->scene.initial_state;
    // squash the ball vertically by 20 % about its centre
    for (sim::Vec3& x : f->state.particle_x_W) x.z() = 0.05 + 0.8 * (x.z() - 0.05);
    // one step for a realistic contact list
    f->simulation =
        std::move(sim::Simulation::Create(f->scene.model, f->scene.initial_state, "nsn").value());
    f->simulation->Step();
    return f;
  }();
  return *fixture;
}


void BM_FillVisualFrame(benchmark::State& bench) {
  Fixture& f = GetFixture();
  sim::VisualFrame frame;
  const bool with_contacts = bench.range(0) != 0;
  const sim::Contacts* contacts = with_contacts ? &f.simulation->contacts() : nullptr;
  for (auto _ : bench) {
    sim::FillVisualFrame(*f.scene.model, f.state, contacts, &frame);
    benchmark::DoNotOptimize(frame.soft_bodies.data());
  }
  bench.counters["tets"] = static_cast<double>(f.scene.model->soft_bodies[0].tets.size());
  bench.counters["contacts"] = static_cast<double>(frame.contacts.size());
}
BENCHMARK(BM_FillVisualFrame)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);


void BM_MakeVisualFrame(benchmark::State& bench) {
  Fixture& f = GetFixture();
  for (auto _ : bench) {
    sim::VisualFrame frame = sim::MakeVisualFrame(*f.scene.model, f.state);
    benchmark::DoNotOptimize(frame.soft_bodies.data());
  }
}
BENCHMARK(BM_MakeVisualFrame)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
