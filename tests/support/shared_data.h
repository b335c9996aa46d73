// The shared test data (real robot URDFs and tet meshes in ../shared/data beside the checkout) that
// some tests read. A fresh clone has no such folder: those tests skip outside CI and fail under CI
// (see RequiredInCi), where the data must be there.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/run_command.h"

namespace sim::test_support {

/// The shared test data folder: the environment variable SIM_SHARED_DATA_DIR when set and not
/// empty, else the build's SIM_SHARED_DATA_DIR (../shared/data beside the source tree).
inline std::string SharedDataDir() {
  const char* dir = std::getenv("SIM_SHARED_DATA_DIR");
  if (dir != nullptr && *dir != '\0') return dir;
  return SIM_SHARED_DATA_DIR;
}

/// Folders a test's scene may read files from besides its own (SceneOptions::file_roots): the
/// shared test data and the temporary folder the test wrote its files to.
inline std::vector<std::string> TestFileRoots() {
  return {SharedDataDir(), std::filesystem::temp_directory_path().string(), ::testing::TempDir()};
}

}  // namespace sim::test_support

/// Skips the current test (fails it under CI) when `path`, a file or folder of the shared test
/// data, does not exist. Use in the test body: `SIM_REQUIRE_SHARED_DATA(kBall);`
#define SIM_REQUIRE_SHARED_DATA(path)                                                       \
  do {                                                                                      \
    const std::string sim_shared_data_path_ = (path);                                       \
    if (!std::filesystem::exists(sim_shared_data_path_)) {                                  \
      SIM_SKIP_OR_FAIL_IN_CI("shared test data not found at " + sim_shared_data_path_ +     \
                             ": it lives in ../shared/data beside the source tree, or set " \
                             "SIM_SHARED_DATA_DIR to its folder");                          \
    }                                                                                       \
  } while (0)
