// The "every solver" seam of the tests: the registered solvers that claim a feature, as
// parameters of a TEST_P suite, so a solver that claims a feature runs that feature's tests.
#pragma once

#include <string>
#include <vector>

#include "engine/solvers/solver_registry.h"

namespace sim::test_support {

/// Names of the registered solvers whose features include every bit of `features`.
inline std::vector<std::string> SolversWith(unsigned features) {
  std::vector<std::string> names;
  for (const SolverInfo* info : SolverRegistry()) {
    if ((info->features & features) == features) names.emplace_back(info->name);
  }
  return names;
}


/// Test-name generator for suites parametrized over solver names.
struct SolverParamName {
  template <typename Info>
  std::string operator()(const Info& info) const {
    return info.param;
  }
};

}  // namespace sim::test_support
