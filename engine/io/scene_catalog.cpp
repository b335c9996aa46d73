// Locating and listing the shipped scenes.
#include "engine/io/scene_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "engine/io/scene_file.h"

namespace sim::io {

namespace fs = std::filesystem;

namespace {

// directory of the running executable: from argv[0] when it has a path, else /proc/self/exe
fs::path ExecutableDirectory(const std::string& executable_path) {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) exe = fs::absolute(executable_path, ec);
  return exe.parent_path();
}

}  // namespace


std::string FindScenesDirectory(const std::string& executable_path) {
  std::error_code ec;
  if (const char* env = std::getenv("CONTACT_STUDIO_SCENES"); env != nullptr && *env != '\0') {
    return fs::is_directory(env, ec) ? std::string(env) : std::string();
  }
  const fs::path exe_dir = ExecutableDirectory(executable_path);
  // build tree (build/bin -> ../../scenes), an install prefix, then the source tree of this build
  std::vector<fs::path> candidates = {exe_dir / ".." / ".." / "scenes", exe_dir / ".." / "scenes",
                                      exe_dir / ".." / "share" / "contact-studio" / "scenes"};
#ifdef SIM_SOURCE_SCENES_DIR
  candidates.emplace_back(SIM_SOURCE_SCENES_DIR);
#endif
  for (const fs::path& dir : candidates) {
    if (fs::is_regular_file(dir / "default.json", ec))
      return fs::weakly_canonical(dir, ec).string();
  }
  return "";
}


std::string DefaultScenePath(const std::string& executable_path) {
  const std::string dir = FindScenesDirectory(executable_path);
  return dir.empty() ? std::string() : (fs::path(dir) / "default.json").string();
}


std::vector<SceneEntry> ListScenes(const std::string& scenes_dir, Diagnostics* diagnostics) {
  std::vector<SceneEntry> entries;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(scenes_dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".json") continue;
    SceneEntry entry;
    entry.path = it->path().string();
    entry.id = fs::relative(it->path(), scenes_dir).replace_extension().generic_string();
    Expected<Scene> scene = LoadScene(entry.path);
    if (scene.ok()) {
      entry.name = scene->model->name;
      entry.description = scene->model->description;
    } else {
      entry.description = "(does not load: see `contact-sim check " + entry.path + "`)";
      if (diagnostics != nullptr) diagnostics->Append(scene.diagnostics());
    }
    entries.push_back(std::move(entry));
  }
  if (ec && diagnostics != nullptr) {
    diagnostics->Error(scenes_dir, 0, "", "cannot list scenes: " + ec.message());
  }
  std::sort(entries.begin(), entries.end(),
            [](const SceneEntry& a, const SceneEntry& b) { return a.id < b.id; });
  return entries;
}

}  // namespace sim::io
