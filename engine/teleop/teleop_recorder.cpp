#include "engine/teleop/teleop_recorder.h"

#include <utility>

namespace sim {

TeleopRecorder::TeleopRecorder(const Simulation& simulation, std::string scene_path,
                               std::vector<std::string> overrides) {
  recording_.scene_path = std::move(scene_path);
  recording_.overrides = std::move(overrides);
  recording_.solver = std::string(simulation.solver().name());
  for (const TeleopTarget& target : simulation.model().teleop_targets) {
    recording_.target_names.push_back(target.name);
  }
  recording_.initial_state_hash = StateHash(simulation.state());
  first_step_ = simulation.state().step;
}


void TeleopRecorder::AfterStep(const Simulation& simulation) {
  // the step index counts Step calls, so a rejected (non-finite) step, which keeps State::step,
  // still moves the recording on as the replay does
  const std::uint64_t step = first_step_ + steps_;
  ++steps_;
  const TeleopSession* session = simulation.teleop();
  if (session == nullptr) return;
  for (const TeleopAction& action : session->last_applied()) {
    RecordedAction recorded{.step = step, .action = action};
    recorded.action.stamp_seconds = 0;  // wall time is not part of the physics
    recording_.actions.push_back(recorded);
  }
}


TeleopRecording TeleopRecorder::Finish(const Simulation& simulation) const {
  TeleopRecording recording = recording_;
  recording.steps = steps_;
  recording.final_state_hash = StateHash(simulation.state());
  return recording;
}

}  // namespace sim
