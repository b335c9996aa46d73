// Runs a shell command as a user would (std::system) and captures its exit code and output, for
// the tests that drive contact-sim and contact-studio as whole programs.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace sim::test_support {

struct CommandResult {
  int exit_code = -1;  ///< the process's exit status; -1 if it died from a signal
  std::string output;  ///< stdout and stderr together
};


/// Runs `command` with stdout and stderr redirected to `log` (a file path unique to the caller),
/// reads the log back and removes it.
inline CommandResult RunCommand(const std::string& command, const std::string& log) {
  const int status = std::system((command + " > " + log + " 2>&1").c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream file(log);
  std::stringstream text;
  text << file.rdbuf();
  result.output = text.str();
  std::remove(log.c_str());
  return result;
}

}  // namespace sim::test_support

namespace sim::test_support {

/// True under CI (CI set and not "false"/"0"): there setup.sh installs Xvfb and Mesa lavapipe, so a
/// test that would skip for want of them must fail instead of hiding a broken setup.
inline bool RequiredInCi() {
  const char* ci = std::getenv("CI");
  if (ci == nullptr) return false;
  const std::string value(ci);
  return !value.empty() && value != "false" && value != "0";
}

}  // namespace sim::test_support

/// Skips the current test with `reason`, or fails it under CI (see RequiredInCi). Use in the test
/// body: `if (!renderer) SIM_SKIP_OR_FAIL_IN_CI(reason);`
#define SIM_SKIP_OR_FAIL_IN_CI(reason)                                 \
  do {                                                                 \
    if (::sim::test_support::RequiredInCi()) GTEST_FAIL() << (reason); \
    GTEST_SKIP() << (reason);                                          \
  } while (0)
