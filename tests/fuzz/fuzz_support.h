// Shared by the libFuzzer targets of tests/fuzz: a private temporary folder for loaders that take
// a path (each run writes its input there and nothing else), and the checks every target makes
// on a loader's result, which abort (a crash to libFuzzer) when they fail.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "engine/core/diagnostics.h"

namespace sim::fuzz {

/// Aborts with `what` when `condition` fails: libFuzzer saves the input as a crash.
inline void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz check failed: %s\n", what);
    std::abort();
  }
}

/// One folder under $TMPDIR (or /tmp) per process, removed at exit; files written only there.
class TempDir {
 public:
  static TempDir& Get() {
    static TempDir dir;
    return dir;
  }
  const std::string& path() const { return path_; }

  /// Writes `data` to `name` inside the folder and returns its path.
  std::string Write(const std::string& name, std::string_view data) const {
    const std::string file = path_ + "/" + name;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    Check(static_cast<bool>(out), "writing the input to the temporary folder");
    return file;
  }

 private:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
                          "/contact-studio-fuzz-XXXXXX";
    Check(mkdtemp(pattern.data()) != nullptr, "creating the temporary folder");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code error;
    std::filesystem::remove_all(path_, error);
  }
  std::string path_;
};

/// What every loader promises (README "Files"): a failed load says why with at least one error,
/// and every error names the file it is about.
inline void CheckDiagnostics(bool ok, const Diagnostics& diagnostics) {
  Check(ok || diagnostics.has_errors(), "a failed load reports an error");
  Check(!ok || !diagnostics.has_errors(), "a successful load carries no error");
  for (const Diagnostic& d : diagnostics.items()) {
    Check(!d.source.empty(), "every diagnostic names its file");
    Check(d.line >= 0, "diagnostic lines are >= 0");
    Check(!d.message.empty(), "every diagnostic has a message");
  }
}

}  // namespace sim::fuzz
