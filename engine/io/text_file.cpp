#include "engine/io/text_file.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace sim::io {

std::uint64_t MaxInputBytes() {
  const char* text = std::getenv("CONTACT_STUDIO_MAX_INPUT_MB");
  if (text == nullptr || *text == '\0') return kDefaultMaxInputBytes;
  char* end = nullptr;
  const double megabytes = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(megabytes > 0) || megabytes > 1e9) {
    return kDefaultMaxInputBytes;
  }
  return static_cast<std::uint64_t>(megabytes * 1024 * 1024);
}


Diagnostics CheckInputFile(const std::string& path, const std::string& kind) {
  Diagnostics diagnostics;
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) {
    diagnostics.Error(path, 0, "",
                      "cannot open " + kind + " file (does it exist and is it readable?)");
    return diagnostics;
  }
  if (!std::filesystem::is_regular_file(status)) {
    diagnostics.Error(path, 0, "", "is not a regular file (a directory, pipe or device)");
    return diagnostics;
  }
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  const std::uint64_t limit = MaxInputBytes();
  if (!error && size > limit) {
    diagnostics.Error(path, 0, "",
                      kind + " file of " + std::to_string(size / (1024 * 1024)) +
                          " MiB is over the input limit of " +
                          std::to_string(limit / (1024 * 1024)) +
                          " MiB (set CONTACT_STUDIO_MAX_INPUT_MB to raise it)");
  }
  return diagnostics;
}


Expected<std::string> ReadTextFile(const std::string& path, const std::string& kind) {
  Diagnostics diagnostics = CheckInputFile(path, kind);
  if (diagnostics.has_errors()) return diagnostics;
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    diagnostics.Error(path, 0, "",
                      "cannot open " + kind + " file (does it exist and is it readable?)");
    return diagnostics;
  }
  std::stringstream buffer;
  buffer << file.rdbuf();
  return Expected<std::string>(buffer.str());
}

}  // namespace sim::io
