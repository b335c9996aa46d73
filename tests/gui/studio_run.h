// Helpers of the tests that run the contact-studio executable on a private Xvfb server
// (tests/gui/run_in_xvfb.sh) with Mesa lavapipe: running it with captured output, and reading
// colours of its screenshots.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "render/png_io.h"

namespace sim::studio_test {

namespace fs = std::filesystem;

inline const std::string kStudio = std::string(SIM_BINARY_DIR) + "/bin/contact-studio";
inline const std::string kDefaultScene = std::string(SIM_SOURCE_DIR) + "/scenes/default.json";
// Xvfb screen: larger than the studio's default window so nothing is clipped
inline const std::string kXvfbScreen = "1600x1000x24";
inline const std::string kRunInXvfb = std::string(SIM_SOURCE_DIR) + "/tests/gui/run_in_xvfb.sh";
// wall-clock limit of one studio run [s]; lavapipe renders a 1280x800 MSAA frame in well under 1 s
constexpr int kRunTimeoutSeconds = 300;
// "differs clearly" between two colours: max channel difference in 8-bit sRGB units; well above
// MSAA edge blending and dithering noise, well below any object/sky contrast in the scene
constexpr int kClearDifference = 24;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string Quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

inline std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// per-test scratch directory (tests may run in parallel under ctest -j)
inline fs::path ScratchDir() {
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::temp_directory_path() /
                 ("contact_studio_gui_" + std::to_string(getpid()) + "_" + info->name());
  fs::create_directories(dir);
  return dir;
}

// runs a shell command line with stdout/stderr captured to files
inline RunResult RunCommand(const std::string& command_line, const fs::path& scratch) {
  const fs::path out = scratch / "stdout.txt";
  const fs::path err = scratch / "stderr.txt";
  const std::string full = "timeout " + std::to_string(kRunTimeoutSeconds) + " " + command_line +
                           " >" + Quote(out.string()) + " 2>" + Quote(err.string());
  const int status = std::system(full.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadFile(out);
  result.err = ReadFile(err);
  return result;
}

inline bool HaveXvfb() { return std::system("command -v Xvfb >/dev/null 2>&1") == 0; }

// the studio on a private Xvfb (tests/gui/run_in_xvfb.sh: the server picks a free display itself)
inline std::string XvfbRun(const std::string& env, const std::string& args) {
  return "env -u WAYLAND_DISPLAY QT_QPA_PLATFORM=xcb " + env + " " + Quote(kRunInXvfb) + " " +
         Quote(kXvfbScreen) + " " + Quote(kStudio) + " " + args;
}


// the first number after `key` in `text` (the studio's summary lines)
inline std::optional<double> NumberAfter(const std::string& text, const std::string& key) {
  const std::size_t at = text.find(key);
  if (at == std::string::npos) return std::nullopt;
  return std::stod(text.substr(at + key.size()));
}

inline std::string RunReport(const RunResult& run) {
  return "exit code " + std::to_string(run.exit_code) + "\n--- stdout\n" + run.out +
         "\n--- stderr\n" + run.err;
}

using Rgb = std::array<int, 3>;

// mean colour of the (2r+1)² pixels around (x, y), clamped to the image
inline Rgb MeanColor(const render::Image& image, int x, int y, int r) {
  Rgb sum = {0, 0, 0};
  int count = 0;
  for (int j = std::max(0, y - r); j <= std::min(image.height - 1, y + r); ++j) {
    for (int i = std::max(0, x - r); i <= std::min(image.width - 1, x + r); ++i) {
      const std::uint8_t* p = &image.rgba[4 * (static_cast<std::size_t>(j) * image.width + i)];
      for (int c = 0; c < 3; ++c) sum[c] += p[c];
      ++count;
    }
  }
  for (int c = 0; c < 3; ++c) sum[c] /= std::max(1, count);
  return sum;
}

inline int ColorDifference(const Rgb& a, const Rgb& b) {
  int d = 0;
  for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(a[c] - b[c]));
  return d;
}

inline std::string ToString(const Rgb& c) {
  return "(" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) +
         ")";
}

// the viewport's rectangle in a studio screenshot (its PNG text chunk "viewport")
struct Viewport {
  int x = 0, y = 0, width = 0, height = 0;
};

inline bool ReadScreenshot(const fs::path& png, render::Image* image, Viewport* viewport) {
  std::string error;
  std::map<std::string, std::string> text;
  if (!render::ReadPng(png.string(), image, &error, &text) || text.count("viewport") == 0) {
    ADD_FAILURE() << "cannot read " << png << ": " << error;
    return false;
  }
  std::istringstream(text["viewport"]) >> viewport->x >> viewport->y >> viewport->width >>
      viewport->height;
  return viewport->width > 100 && viewport->height > 100;
}

}  // namespace sim::studio_test
