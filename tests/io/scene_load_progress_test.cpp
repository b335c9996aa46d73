// Scene loads watched and cancelled through a LoadMonitor (engine/core/load_monitor.h), as the
// studio does: a cancel from another thread stops a load in the middle of an SDF grid and returns
// the one "load cancelled" error promptly; every kind of file honours a cancel; the fraction only
// grows and reaches 1 on a successful load; a load without a monitor is the same load.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/core/load_monitor.h"
#include "engine/io/default_scene.h"
#include "engine/io/mesh_cache.h"
#include "engine/io/scene_file.h"
#include "tests/support/shared_data.h"
#include "tests/support/slow_scene.h"

namespace sim::io {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

// bound on the time from a cancel request to the load's return [s]: generous for a loaded 2-core
// machine; the checks come every slab of the SDF grid (milliseconds), the point is that it stops
constexpr double kCancelReturnSeconds = 5;

// a per-test scratch directory
fs::path ScratchDir() {
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::temp_directory_path() / ("cs_load_progress_" + std::string(info->name()));
  fs::create_directories(dir);
  return dir;
}

// a scene of a ground plane, a box, a unit cube as an SDF-backed mesh of `sdf_resolution` cells a
// side and a tetrahedralized soft ball
fs::path WriteScene(const fs::path& dir, int sdf_resolution) {
  const fs::path path = dir / "scene.json";
  std::ofstream(path) << R"({"name": "load progress", "objects": [
    {"name": "ground", "type": "plane"},
    {"name": "crate", "type": "box", "size": [0.2, 0.2, 0.2], "position": [1, 0, 0.1]},
    {"name": "cube", "type": "mesh", "file": "cube.obj", "position": [0, 0, 1],
     "sdf_resolution": )"
                      << sdf_resolution << R"(},
    {"name": "ball", "type": "tetmesh", "primitive": "sphere", "radius": 0.05,
     "position": [0, 1, 0.2]}]})";
  test_support::WriteUnitCube(dir);
  return path;
}

// the fractions a monitor shows while `load` runs on this thread, sampled by another one
std::vector<double> SampleFractions(const LoadMonitor& monitor, const std::function<void()>& load) {
  std::vector<double> fractions;
  std::atomic<bool> done = false;
  std::thread watcher([&] {
    while (!done) {
      fractions.push_back(monitor.status().fraction);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  load();
  done = true;
  watcher.join();
  fractions.push_back(monitor.status().fraction);
  return fractions;
}


TEST(LoadProgressTest, PartsMapIntoTheWholeAndTheFractionNeverDecreases) {
  LoadMonitor monitor;
  const LoadProgress whole(&monitor);
  // the second of four shares, half done: 1/4 + 1/8
  whole.Share(1, 4).Report(0.5, "half of the second");
  EXPECT_DOUBLE_EQ(monitor.status().fraction, 0.375);
  EXPECT_EQ(monitor.status().stage, "half of the second");
  // an earlier part cannot move it back; the stage still changes
  whole.Part(0, 0.25).Report(1, "first");
  EXPECT_DOUBLE_EQ(monitor.status().fraction, 0.375);
  EXPECT_EQ(monitor.status().stage, "first");
  // a silent part checks for a cancel without moving the fraction
  whole.Part(0.5, 1).Silent().Report(1);
  EXPECT_DOUBLE_EQ(monitor.status().fraction, 0.375);
  EXPECT_FALSE(whole.Part(0.5, 1).Silent().cancelled());
  monitor.RequestCancel();
  EXPECT_TRUE(whole.Part(0.5, 1).Silent().cancelled());
  // an unmonitored progress is never cancelled and reports nowhere
  EXPECT_FALSE(LoadProgress().cancelled());
  LoadProgress().Report(1, "nothing");
}


TEST(LoadProgressTest, CancelFromAnotherThreadStopsAnSdfBuildPromptly) {
  const fs::path dir = ScratchDir();
  const fs::path scene = WriteScene(dir, test_support::kSlowSdfResolution);
  MeshCache::Global().Clear();
  LoadMonitor monitor;
  Expected<Scene> result = Diagnostics();
  Clock::time_point returned;
  std::thread loader([&] {
    result = LoadScene(scene.string(), LoadProgress(&monitor));
    returned = Clock::now();
  });
  // cancel once the grid is being filled
  LoadStatus status;
  const Clock::time_point start = Clock::now();
  while ((status = monitor.status()).stage.find("building SDF") == std::string::npos &&
         Clock::now() - start < std::chrono::seconds(60)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_THAT(status.stage, HasSubstr("building SDF of cube.obj"));
  const Clock::time_point cancelled = Clock::now();
  monitor.RequestCancel();
  loader.join();
  const double seconds = std::chrono::duration<double>(returned - cancelled).count();
  std::cout << "stage at the cancel: " << status.stage << ", " << status.fraction
            << "; the load returned " << seconds << " s after the cancel" << std::endl;
  EXPECT_LT(seconds, kCancelReturnSeconds);
  ASSERT_FALSE(result.ok());
  // only the cancel, located at the scene, not the errors of the objects it cut short
  EXPECT_EQ(result.diagnostics().Format(), scene.string() + ": error: load cancelled\n");
  // the half-built product was not cached: the next load builds it anew and succeeds
  Expected<Scene> again = LoadScene(WriteScene(dir, 16).string());
  EXPECT_TRUE(again.ok()) << again.diagnostics().Format();
}


TEST(LoadProgressTest, EveryKindOfFileHonoursACancel) {
  const std::string tet_data = test_support::SharedDataDir() + "/tetmesh";
  SIM_REQUIRE_SHARED_DATA(tet_data);
  const fs::path dir = ScratchDir();
  const std::vector<std::string> files = {
      WriteScene(dir, 16).string(),               // a scene
      test_support::WriteUnitCube(dir).string(),  // a mesh with a default scene around it
      tet_data + "/bunny.msh",                    // a Gmsh tet mesh
      tet_data + "/armadillo_4k.node",            // a TetGen tet mesh
      std::string(SIM_SOURCE_DIR) + "/resources/robots/allegro/allegro_right.urdf"};  // a robot
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    MeshCache::Global().Clear();
    LoadMonitor monitor;
    monitor.RequestCancel();
    Expected<Scene> result = LoadAnyScene(file, LoadProgress(&monitor));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.diagnostics().Format(), file + ": error: load cancelled\n");
  }
}


TEST(LoadProgressTest, FractionGrowsToOneThroughTheStagesOfASuccessfulLoad) {
  const fs::path dir = ScratchDir();
  const fs::path scene = WriteScene(dir, 64);
  MeshCache::Global().Clear();
  LoadMonitor monitor;
  Expected<Scene> result = Diagnostics();
  const std::vector<double> fractions =
      SampleFractions(monitor, [&] { result = LoadScene(scene.string(), LoadProgress(&monitor)); });
  ASSERT_TRUE(result.ok()) << result.diagnostics().Format();
  for (std::size_t i = 1; i < fractions.size(); ++i) {
    EXPECT_LE(fractions[i - 1], fractions[i]) << "sample " << i;
  }
  EXPECT_EQ(fractions.back(), 1.0);
  // the last stage is the last object's (its boundary's SDF)
  EXPECT_THAT(monitor.status().stage, HasSubstr("ball"));
}


TEST(LoadProgressTest, ALoadWithoutAMonitorIsTheSameLoad) {
  const fs::path dir = ScratchDir();
  const fs::path scene = WriteScene(dir, 32);
  MeshCache::Global().Clear();
  Expected<Scene> plain = LoadScene(scene.string());
  MeshCache::Global().Clear();
  LoadMonitor monitor;
  Expected<Scene> watched = LoadScene(scene.string(), LoadProgress(&monitor));
  ASSERT_TRUE(plain.ok()) << plain.diagnostics().Format();
  ASSERT_TRUE(watched.ok()) << watched.diagnostics().Format();
  EXPECT_EQ(plain.diagnostics().Format(), watched.diagnostics().Format());
  EXPECT_EQ(StateHash(plain->initial_state), StateHash(watched->initial_state));
  const Model& a = *plain->model;
  const Model& b = *watched->model;
  ASSERT_EQ(a.shape_count(), b.shape_count());
  EXPECT_EQ(a.body_mass, b.body_mass);
  EXPECT_EQ(a.particle_mass, b.particle_mass);
  // the cube's grid, node for node (built twice: the cache was cleared)
  const int cube = 2;
  ASSERT_EQ(a.shape_geometry[cube].type, ShapeType::kMesh);
  EXPECT_NE(a.shape_geometry[cube].mesh, b.shape_geometry[cube].mesh);
  EXPECT_EQ(a.shape_geometry[cube].mesh->sdf->values(), b.shape_geometry[cube].mesh->sdf->values());
  EXPECT_EQ(monitor.status().fraction, 1.0);
}

}  // namespace
}  // namespace sim::io
