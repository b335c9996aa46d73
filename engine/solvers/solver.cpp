#include "engine/solvers/solver.h"


namespace sim {

std::string StepStatusString(std::uint32_t status) {
  if (status == kStepOk) return "ok";
  static constexpr struct {
    std::uint32_t bit;
    const char* name;
  } kNames[] = {{kStepMaxIterations, "max_iterations"},
                {kStepLineSearchFailed, "line_search_failed"},
                {kStepNonFinite, "non_finite"},
                {kStepCapacityExceeded, "capacity_exceeded"},
                {kStepUnsupportedPair, "unsupported_pair"},
                {kStepRunaway, "runaway"}};
  std::string text;
  for (const auto& entry : kNames) {
    if (status & entry.bit) text += (text.empty() ? "" : ",") + std::string(entry.name);
  }
  return text;
}


void StepReport::Reset() {
  status = kStepOk;
  collision_ms = assembly_ms = solve_ms = integrate_ms = total_ms = 0;
  contact_count = active_contact_count = 0;
  bilateral_rows = unilateral_rows = friction_rows = element_rows = 0;
  outer_iterations = inner_iterations = 0;
  max_penetration = max_joint_error = final_residual = 0;
  iterations.clear();
  inner_residuals.clear();
  message.clear();
}


}  // namespace sim
