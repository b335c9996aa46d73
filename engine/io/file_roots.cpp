#include "engine/io/file_roots.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <system_error>

namespace sim::io {

namespace fs = std::filesystem;

namespace {

// `path` made absolute with its symbolic links followed (as far as it exists) and normalized
fs::path Resolved(const fs::path& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path.empty() ? fs::path(".") : path, error);
  if (error) return path.lexically_normal();
  fs::path resolved = fs::weakly_canonical(absolute, error);
  return (error ? absolute : resolved).lexically_normal();
}

}  // namespace


FileRoots::FileRoots(const std::vector<std::string>& roots) {
  for (const std::string& root : roots) {
    if (root.empty()) continue;
    const fs::path resolved = Resolved(root);
    if (std::find(roots_.begin(), roots_.end(), resolved) == roots_.end()) {
      roots_.push_back(resolved);
    }
  }
}


FileRoots FileRoots::ForScene(const std::string& scene_path,
                              const std::vector<std::string>& allowed) {
  std::vector<std::string> roots = {Resolved(fs::path(scene_path).parent_path()).string()};
#ifdef SIM_SOURCE_RESOURCES_DIR
  roots.emplace_back(SIM_SOURCE_RESOURCES_DIR);
#endif
  roots.insert(roots.end(), allowed.begin(), allowed.end());
  if (const char* value = std::getenv(kFileRootsVariable)) {
    std::stringstream list(value);
    for (std::string root; std::getline(list, root, ':');) roots.push_back(root);
  }
  return FileRoots(roots);
}


bool FileRoots::Contains(const std::string& path) const {
  const fs::path file = Resolved(path);
  for (const fs::path& root : roots_) {
    // inside: the path relative to the root neither climbs out nor is empty (another drive)
    const fs::path relative = file.lexically_relative(root);
    if (!relative.empty() && *relative.begin() != "..") return true;
  }
  return false;
}


std::string FileRoots::Target(const std::string& path) { return Resolved(path).string(); }


std::vector<std::string> FileRoots::Strings() const {
  std::vector<std::string> strings;
  for (const fs::path& root : roots_) strings.push_back(root.string());
  return strings;
}


std::string FileRoots::Describe() const {
  std::string text;
  for (const fs::path& root : roots_) {
    text += (text.empty() ? "'" : ", '") + root.string() + "'";
  }
  return text;
}

}  // namespace sim::io
