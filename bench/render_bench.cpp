// Frame cost of the scene renderer at 1280×720 on whatever Vulkan device is present (Mesa lavapipe
// on this 2-core machine), for the studio's target: a scene like fetch_tomato, about 30 bodies
// drawn by textured meshes (the Fetch robot's 24 visual meshes from shared/data/robots, laid out
// in a grid, each part with its file colour and texture) around a 7k-tet soft ball (sphere1K,
// squashed 20 % so the strain view has colours), on a ground plane, with 60 resting contacts for
// the contacts view. Each iteration is one OffscreenRenderer::Render: prepare, shadow pass, scene
// pass, copy to host memory and wait (the studio's frame minus presenting). Arguments: MSAA
// samples, shadows on/off, view (0 shaded, 1 strain, 2 contacts); the studio's speed trade-offs
// (RenderQuality::kAuto). BM_RenderFetchTomato draws scenes/fetch_tomato.json itself, frames of
// its scripted reach in turn (the issue's 1280×720 frame-rate figure; a frame drawn again would
// reuse its shadow map). Wall time, and the process's CPU
// time per frame (all lavapipe threads), which a shared machine disturbs less; report medians of
// repetitions. RENDER_BENCH_PNG=DIR writes one picture per configuration. Run:
//   build/bin/render_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/io/mesh_loader.h"
#include "engine/io/scene_file.h"
#include "engine/step/pipeline.h"
#include "engine/visual/camera.h"
#include "engine/visual/visual_frame.h"
#include "render/offscreen_renderer.h"
#include "render/png_io.h"

namespace {

// CPU time of the whole process, all threads (lavapipe renders on worker threads) [ms]
double ProcessCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}


// renders `frames` in turn from `*next` on, one per iteration; reports the process CPU time per
// frame, which a shared machine disturbs far less than the wall time
void TimeFrames(benchmark::State& bench, sim::render::OffscreenRenderer& renderer,
                const std::vector<sim::VisualFrame>& frames, std::size_t* next,
                const sim::OrbitCamera& camera, const sim::render::RenderOptions& options,
                const std::string& label) {
  // RENDER_BENCH_PNG=DIR: one picture of each configuration, to look at
  if (const char* dir = std::getenv("RENDER_BENCH_PNG")) {
    const std::string name = label + "_msaa" + std::to_string(bench.range(0)) + "_shadows" +
                             std::to_string(bench.range(1)) + "_view" +
                             sim::render::ViewModeName(options.view);
    std::string error;
    sim::render::WritePng(std::string(dir) + "/" + name + ".png",
                          renderer.Render(frames[*next % frames.size()], camera, options), &error);
  }
  const double cpu_start = ProcessCpuMs();
  for (auto _ : bench) {
    sim::render::Image image = renderer.Render(frames[*next % frames.size()], camera, options);
    *next += 1;
    benchmark::DoNotOptimize(image.rgba.data());
  }
  bench.counters["process_cpu_ms"] =
      (ProcessCpuMs() - cpu_start) / static_cast<double>(bench.iterations());
}


void TimeFrames(benchmark::State& bench, sim::render::OffscreenRenderer& renderer,
                const sim::VisualFrame& frame, const sim::OrbitCamera& camera,
                const sim::render::RenderOptions& options, const std::string& label) {
  // one frame drawn again and again
  const std::vector<sim::VisualFrame> frames = {frame};
  std::size_t next = 0;
  TimeFrames(bench, renderer, frames, &next, camera, options, label);
}


constexpr int kWidth = 1280;
constexpr int kHeight = 720;

// a file mesh as a VisualMesh as the loaders draw it: the file's shared vertices (assimp joins
// identical ones) with area-weighted smooth normals, uvs and parts
std::shared_ptr<const sim::VisualMesh> LoadVisual(const std::string& path) {
  sim::Expected<sim::io::LoadedMesh> loaded = sim::io::LoadMesh(path);
  if (!loaded.ok()) {
    std::fputs(loaded.diagnostics().Format().c_str(), stderr);
    std::abort();
  }
  const sim::TriangleMesh& mesh = loaded->mesh;
  auto visual = std::make_shared<sim::VisualMesh>();
  visual->name = path;
  for (const auto& part : loaded->parts) {
    sim::VisualMesh::Part out;
    out.first_index = static_cast<std::uint32_t>(3 * part.first_triangle);
    out.index_count = static_cast<std::uint32_t>(3 * part.triangle_count);
    out.color = {part.color[0], part.color[1], part.color[2], 1};
    out.texture = part.texture;
    visual->parts.push_back(out);
  }
  std::vector<sim::Vec3> normals(mesh.vertices.size(), sim::Vec3::Zero());
  for (const auto& triangle : mesh.triangles) {
    const sim::Vec3 n = (mesh.vertices[triangle[1]] - mesh.vertices[triangle[0]])
                            .cross(mesh.vertices[triangle[2]] - mesh.vertices[triangle[0]]);
    for (int k = 0; k < 3; ++k) {
      normals[triangle[k]] += n;
      visual->indices.push_back(static_cast<std::uint32_t>(triangle[k]));
    }
  }
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    const sim::Vec3& p = mesh.vertices[v];
    const sim::Vec3 n = normals[v].squaredNorm() > 0 ? normals[v].normalized() : sim::Vec3::UnitZ();
    visual->positions.push_back(
        {static_cast<float>(p.x()), static_cast<float>(p.y()), static_cast<float>(p.z())});
    visual->normals.push_back(
        {static_cast<float>(n.x()), static_cast<float>(n.y()), static_cast<float>(n.z())});
    if (mesh.has_uvs()) {
      visual->uvs.push_back(
          {static_cast<float>(mesh.uvs[v].x()), static_cast<float>(mesh.uvs[v].y())});
    }
  }
  return visual;
}


struct Fixture {
  sim::VisualFrame frames[3];  // shaded/strain share one; contacts has the contact list
  sim::OrbitCamera camera;
  int triangles = 0;
};


Fixture& GetFixture() {
  static Fixture* fixture = [] {
    auto* f = new Fixture;
    // ground and the soft ball, squashed, from a scene file
    const std::string scene_text =
        R"({"name": "bench", "objects": [{"name": "ground", "type": "plane"},)"
        R"( {"name": "tomato", "type": "tetmesh", "file": ")" SIM_SHARED_DATA_DIR
        R"(/tetmesh/sphere1K.msh", "scale": 0.16, "position": [0, 0, 0.08]}]})";
    sim::Expected<sim::io::Scene> scene = sim::io::ParseScene(scene_text, "bench.json");
    if (!scene.ok()) {
      std::fputs(scene.diagnostics().Format().c_str(), stderr);
      std::abort();
    }
    sim::State state = scene->initial_state;
    for (sim::Vec3& x : state.particle_x_W) x.z() = 0.8 * x.z();
    sim::VisualFrame frame = sim::MakeVisualFrame(*scene->model, state);
    // the Fetch's visual meshes, 30 bodies in a 6 × 5 grid around the ball
    const std::filesystem::path meshes =
        std::filesystem::path(SIM_SHARED_DATA_DIR) / "robots/fetch_description/meshes";
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(meshes)) {
      const std::string name = entry.path().filename().string();
      const bool visual =
          entry.path().extension() == ".dae" ||
          (entry.path().extension() == ".STL" && name.find("collision") == std::string::npos);
      if (visual) files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    for (const std::string& file : files) frame.meshes.push_back(LoadVisual(file));
    for (int i = 0; i < 30; ++i) {
      sim::VisualMeshInstance instance;
      instance.mesh = i % static_cast<int>(frame.meshes.size());
      instance.color = {0, 0, 0, 0};
      instance.body = i;
      const float x = 0.5f * static_cast<float>(i % 6) - 1.25f;
      const float y = 0.5f * static_cast<float>(i / 6) - 0.5f;
      instance.X_WS = {1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, 0.05f};
      frame.mesh_instances.push_back(instance);
    }
    for (const auto& mesh : frame.meshes) f->triangles += mesh->triangle_count();
    f->frames[0] = f->frames[1] = f->frames[2] = frame;
    // contacts: 60 points on the ball's bottom and the meshes' feet
    for (int i = 0; i < 60; ++i) {
      sim::VisualContact contact;
      const float angle = 0.1047f * static_cast<float>(i);
      contact.point = {0.06f * std::cos(angle), 0.06f * std::sin(angle), 0};
      contact.normal_force = 1.0f + static_cast<float>(i % 7);
      contact.friction_force = {0.2f, 0.1f, 0};
      contact.sliding = i % 5 == 0;
      f->frames[2].contacts.push_back(contact);
    }
    f->camera.target = Eigen::Vector3f(0, 0.2f, 0.3f);
    f->camera.distance = 3.2f;
    return f;
  }();
  return *fixture;
}


void BM_RenderFetchTomatoLike(benchmark::State& bench) {
  Fixture& f = GetFixture();
  const int samples = static_cast<int>(bench.range(0));
  sim::render::RenderOptions options;
  options.shadows = bench.range(1) != 0;
  options.view = static_cast<sim::render::ViewMode>(bench.range(2));
  options.show_legend = false;
  static std::unique_ptr<sim::render::OffscreenRenderer> renderer;
  static int renderer_samples = 0;
  if (!renderer || renderer_samples != samples) {
    renderer.reset();
    renderer = std::make_unique<sim::render::OffscreenRenderer>(kWidth, kHeight, samples, false,
                                                                sim::render::RenderQuality::kAuto);
    renderer_samples = samples;
  }
  const sim::VisualFrame& frame = f.frames[bench.range(2)];
  renderer->Render(frame, f.camera, options);  // uploads the meshes and textures once
  TimeFrames(bench, *renderer, frame, f.camera, options, "fetch_tomato_like");
  bench.counters["mesh_triangles"] = f.triangles;
  bench.counters["instances"] = static_cast<double>(frame.mesh_instances.size());
}
BENCHMARK(BM_RenderFetchTomatoLike)
    ->ArgNames({"msaa", "shadows", "view"})
    ->Args({1, 1, 0})
    ->Args({1, 0, 0})
    ->Args({1, 1, 1})
    ->Args({1, 1, 2})
    ->Args({4, 1, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

// fetch_tomato itself (scenes/fetch_tomato.json) from the scene's camera, as the studio draws it
// while the simulation runs: the frames of the scripted reach (1.5-2.5 s simulated, every other
// step, 60 frames) in turn, so that the arm, the gripper and the tomato move from one frame to the
// next while the table, the scale and most of the robot stay. Arguments: shadows on/off.
struct TomatoFixture {
  std::vector<sim::VisualFrame> frames;
  sim::OrbitCamera camera;
};


TomatoFixture& GetTomatoFixture() {
  static TomatoFixture* fixture = [] {
    auto* f = new TomatoFixture;
    sim::Expected<sim::io::Scene> scene =
        sim::io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/fetch_tomato.json");
    if (!scene.ok()) {
      std::fputs(scene.diagnostics().Format().c_str(), stderr);
      std::abort();
    }
    auto created = sim::Simulation::Create(scene->model, scene->initial_state,
                                           scene->model->options.solver.name);
    if (!created.ok()) {
      std::fputs(created.diagnostics().Format().c_str(), stderr);
      std::abort();
    }
    std::unique_ptr<sim::Simulation> simulation = std::move(created.value());
    constexpr double kFirstFrameTime = 1.5;  // [s] the reach starts
    constexpr int kFrames = 60;
    while (simulation->state().time < kFirstFrameTime) simulation->Step();
    for (int i = 0; i < kFrames; ++i) {
      simulation->Step();
      simulation->Step();
      f->frames.push_back(sim::MakeVisualFrame(*scene->model, simulation->state()));
    }
    f->camera = sim::OrbitCamera(scene->model->camera, scene->model->options.up);
    return f;
  }();
  return *fixture;
}


void BM_RenderFetchTomato(benchmark::State& bench) {
  TomatoFixture& f = GetTomatoFixture();
  sim::render::RenderOptions options;
  options.shadows = bench.range(1) != 0;
  sim::render::OffscreenRenderer renderer(kWidth, kHeight, static_cast<int>(bench.range(0)), false,
                                          sim::render::RenderQuality::kAuto);
  renderer.Render(f.frames[0], f.camera, options);  // uploads the meshes and textures once
  std::size_t next = 1;
  TimeFrames(bench, renderer, f.frames, &next, f.camera, options, "fetch_tomato");
}
BENCHMARK(BM_RenderFetchTomato)
    ->ArgNames({"msaa", "shadows"})
    ->Args({1, 1})
    ->Args({1, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

// the default scene (8 primitives on a ground plane): the cost of the frame itself (sky, ground,
// shadows, MSAA) with almost no geometry
void BM_RenderDefaultScene(benchmark::State& bench) {
  static sim::io::Scene scene = [] {
    sim::Expected<sim::io::Scene> loaded =
        sim::io::LoadScene(std::string(SIM_SOURCE_DIR) + "/scenes/default.json");
    if (!loaded.ok()) std::abort();
    return std::move(loaded.value());
  }();
  const int samples = static_cast<int>(bench.range(0));
  sim::render::OffscreenRenderer renderer(kWidth, kHeight, samples, false,
                                          sim::render::RenderQuality::kAuto);
  sim::render::RenderOptions options;
  options.shadows = bench.range(1) != 0;
  const sim::VisualFrame frame = sim::MakeVisualFrame(*scene.model, scene.initial_state);
  const sim::OrbitCamera camera(scene.model->camera, scene.model->options.up);
  TimeFrames(bench, renderer, frame, camera, options, "default");
}
BENCHMARK(BM_RenderDefaultScene)
    ->ArgNames({"msaa", "shadows"})
    ->Args({4, 1})
    ->Args({4, 0})
    ->Args({1, 1})
    ->Args({1, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
