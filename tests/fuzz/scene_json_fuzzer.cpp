// libFuzzer target: the scene reader (ParseScene) on arbitrary text. The scene "lives" in the
// fuzzer's empty temporary folder, so file references fail as missing files (or as outside the
// scene's folders) instead of reading the disk; every other key is read and validated as for a
// real scene. The work a scene may ask for is tiny (TetGen runs on requests of at most 100 tets,
// structured boxes of at most 64 cells, analytic fields are not drawn): with the defaults a
// mutated soft body or field took seconds under ASan, and the target ran 11 inputs a second.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/io/scene_file.h"
#include "engine/state/state.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string source = sim::fuzz::TempDir::Get().path() + "/fuzz_scene.json";
  const sim::io::SceneOptions options{.max_tets_by_volume = 100,
                                      .max_structured_cells = 64,
                                      .soft_body_sdf_resolution = 8,
                                      .draw_fields = false};
  sim::Expected<sim::io::Scene> scene = sim::io::ParseScene(text, source, options);
  sim::fuzz::CheckDiagnostics(scene.ok(), scene.diagnostics());
  if (scene.ok()) {
    sim::fuzz::Check(scene->model != nullptr, "a loaded scene has a model");
    sim::fuzz::Check(sim::MatchesModel(scene->initial_state, *scene->model),
                     "the initial state matches the model");
    sim::fuzz::Check(sim::IsFinite(scene->initial_state), "the initial state is finite");
  }
  return 0;
}
