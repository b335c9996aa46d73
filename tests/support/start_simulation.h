// Starts a Simulation of a hand-built model with a named solver, failing the test (and returning
// null) when the solver refuses it.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/step/pipeline.h"

namespace sim::test_support {

inline std::unique_ptr<Simulation> StartSimulation(Model model, const State& state,
                                                   const std::string& solver) {
  model.options.solver.name = solver;
  auto simulation =
      Simulation::Create(std::make_shared<const Model>(std::move(model)), state, solver);
  EXPECT_TRUE(simulation.ok()) << simulation.diagnostics().Format();
  return simulation.ok() ? std::move(simulation.value()) : nullptr;
}

}  // namespace sim::test_support
