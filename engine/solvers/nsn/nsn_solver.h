#pragma once

#include "engine/solvers/solver.h"

namespace sim {

class SolverNsn final : public Solver {
 public:
  explicit SolverNsn(const Model& model);
  std::string_view name() const override { return "nsn"; }
  void Step(const Model& model, const State& in, const Control& control, Contacts& contacts,
            Real dt, State* out, StepReport* report) override;
};

}  // namespace sim
