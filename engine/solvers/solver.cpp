#include "engine/solvers/solver.h"


namespace sim {

namespace {

constexpr StepStatusEntry kStatusTable[kStepStatusBitCount] = {
    {kStepMaxIterations, "max_iterations", false},
    {kStepLineSearchFailed, "line_search_failed", false},
    {kStepNonFinite, "non_finite", true},
    {kStepCapacityExceeded, "capacity_exceeded", false},
    {kStepUnsupportedPair, "unsupported_pair", false},
    {kStepRunaway, "runaway", true},
    {kStepUnconverged, "unconverged", true},
};

// entry i is bit i (StepStatusIndex)
constexpr bool InBitOrder() {
  for (int i = 0; i < kStepStatusBitCount; ++i) {
    if (StepStatusIndex(kStatusTable[i].bit) != i) return false;
  }
  return true;
}
static_assert(InBitOrder());

}  // namespace


const StepStatusEntry (&StepStatusTable())[kStepStatusBitCount] { return kStatusTable; }


std::uint32_t ProblemBits(std::uint32_t status) {
  std::uint32_t problems = 0;
  for (const StepStatusEntry& entry : StepStatusTable()) {
    if (entry.problem) problems |= entry.bit;
  }
  return status & problems;
}


std::string StepStatusString(std::uint32_t status) {
  if (status == kStepOk) return "ok";
  std::string text;
  for (const StepStatusEntry& entry : StepStatusTable()) {
    if (status & entry.bit) text += (text.empty() ? "" : ",") + std::string(entry.name);
  }
  return text;
}


void StepReport::Reset() {
  status = kStepOk;
  collision_ms = assembly_ms = solve_ms = integrate_ms = total_ms = control_ms = 0;
  contact_count = active_contact_count = 0;
  bilateral_rows = unilateral_rows = friction_rows = element_rows = 0;
  outer_iterations = inner_iterations = 0;
  integrator_order = 1;
  max_penetration = max_joint_error = final_residual = max_speed = 0;
  iterations.clear();
  inner_residuals.clear();
  message.clear();
}


}  // namespace sim
