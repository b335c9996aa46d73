// Where the files a scene names may be. A scene reads meshes, tet meshes and robots from its own
// folder (and below), from the program's shipped resources/ folder, and from folders the user
// allows: SceneOptions::file_roots and the colon-separated CONTACT_STUDIO_FILE_ROOTS. A path that
// leaves them ("../../etc/passwd", an absolute path elsewhere, a symbolic link pointing out) is
// refused before any importer reads it, so a scene from elsewhere cannot read the user's files.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sim::io {

/// The environment variable of further folders scenes may read from (colon-separated; "/"
/// allows every path).
inline constexpr char kFileRootsVariable[] = "CONTACT_STUDIO_FILE_ROOTS";

/// The folders whose files one scene may read, each resolved (symbolic links followed).
class FileRoots {
 public:
  /// Exactly `roots`.
  explicit FileRoots(const std::vector<std::string>& roots);

  /// The roots of a scene file: its folder (the current folder for a bare name), the shipped
  /// resources/ folder, `allowed` and the folders of CONTACT_STUDIO_FILE_ROOTS.
  static FileRoots ForScene(const std::string& scene_path, const std::vector<std::string>& allowed);

  /// Whether `path`, with its symbolic links followed, lies inside one of the roots.
  bool Contains(const std::string& path) const;

  /// `path` absolute, normalized and with its symbolic links followed (as far as it exists).
  static std::string Target(const std::string& path);

  /// The roots for a message: "'/a/scenes', '/a/resources'".
  std::string Describe() const;

  /// The roots as strings, for another reader's options (a scene's robots).
  std::vector<std::string> Strings() const;

 private:
  std::vector<std::filesystem::path> roots_;
};

}  // namespace sim::io
