#include "ui/teleop_operator.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "engine/kinematics/dls_ik.h"
#include "engine/step/pipeline.h"

namespace sim::ui {

namespace {

std::array<float, 12> RowMajor(const Pose& X) {
  const Mat3 R = X.q.toRotationMatrix();
  std::array<float, 12> out{};
  for (int row = 0; row < 3; ++row) {
    for (int c = 0; c < 3; ++c) out[row * 4 + c] = static_cast<float>(R(row, c));
    out[row * 4 + 3] = static_cast<float>(X.p[row]);
  }
  return out;
}

std::string Hex(std::uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace


void TeleopOperator::Reset(const Model& model) {
  queue_.clear();
  latency_samples_ = 0;
  latency_sum_ms_ = latency_last_ms_ = latency_max_ms_ = 0;
  latency_max_steps_ = 0;
  recording_.reset();
  replay_.reset();
  replay_finished_ = false;
  message_.clear();
  if (active_target_ >= static_cast<int>(model.teleop_targets.size())) active_target_ = -1;
}


void TeleopOperator::OnLanesReset(const Simulation& lane0) {
  queue_.clear();
  if (recording_) {
    recording_->actions.clear();
    recording_->initial_state_hash = StateHash(lane0.state());
  }
  if (replay_) {
    replay_.reset();
    message_ = "replay stopped by a reset";
  }
}


void TeleopOperator::Submit(const TeleopAction& action, std::uint64_t arrival_step) {
  // a replay owns the robot until it ends
  if (replay_) return;
  queue_.push_back({action, arrival_step});
}


void TeleopOperator::SetMode(bool on, int active_target) {
  mode_ = on;
  active_target_ = active_target;
}


void TeleopOperator::StartRecording(const Simulation& lane0, const std::string& scene_path,
                                    const std::vector<std::string>& overrides) {
  TeleopRecording recording;
  recording.scene_path = scene_path;
  recording.overrides = overrides;
  recording.solver = lane0.model().options.solver.name;
  for (const TeleopTarget& target : lane0.model().teleop_targets) {
    recording.target_names.push_back(target.name);
  }
  recording.initial_state_hash = StateHash(lane0.state());
  recording_ = std::move(recording);
  message_ = "recording from the initial state";
}


std::optional<TeleopRecording> TeleopOperator::StopRecording(const Simulation& lane0) {
  if (!recording_) return std::nullopt;
  TeleopRecording recording = std::move(*recording_);
  recording_.reset();
  recording.steps = lane0.state().step;
  recording.final_state_hash = StateHash(lane0.state());
  message_ = "recorded " + std::to_string(recording.actions.size()) + " actions over " +
             std::to_string(recording.steps) + " steps";
  return recording;
}


void TeleopOperator::StartReplay(TeleopRecording recording, const Simulation& lane0) {
  queue_.clear();
  recording_.reset();
  if (recording.initial_state_hash != 0 &&
      recording.initial_state_hash != StateHash(lane0.state())) {
    message_ = "replay: the scene's initial state differs from the recording's (" +
               Hex(StateHash(lane0.state())) + " vs " + Hex(recording.initial_state_hash) +
               "); the scene changed since it was recorded";
  } else {
    message_ = "replaying";
  }
  replay_ = std::move(recording);
  replay_next_ = 0;
  replay_finished_ = false;
}


void TeleopOperator::BeforeStep(int lane, Simulation* simulation, std::uint64_t lane0_step) {
  TeleopSession* session = simulation->teleop();
  if (session == nullptr) return;
  if (replay_) {
    for (std::size_t i = replay_next_;
         i < replay_->actions.size() && replay_->actions[i].step == lane0_step; ++i) {
      session->Submit(replay_->actions[i].action);
    }
    return;
  }
  const double now = TeleopClockSeconds();
  for (const Queued& queued : queue_) {
    session->Submit(queued.action);
    if (lane != 0) continue;
    // latency of device actions, measured on lane 0 (the others apply the same at the same step)
    const int steps = static_cast<int>(lane0_step + 1 - queued.arrival_step);
    latency_max_steps_ = std::max(latency_max_steps_, steps);
    if (queued.action.stamp_seconds > 0) {
      latency_last_ms_ = 1e3 * (now - queued.action.stamp_seconds);
      latency_sum_ms_ += latency_last_ms_;
      latency_max_ms_ = std::max(latency_max_ms_, latency_last_ms_);
      ++latency_samples_;
    }
  }
}


void TeleopOperator::AfterSteps(const Simulation& lane0) {
  queue_.clear();
  const std::uint64_t step = lane0.state().step - 1;  // the step just taken
  if (recording_ && lane0.teleop() != nullptr) {
    for (const TeleopAction& action : lane0.teleop()->last_applied()) {
      recording_->actions.push_back({step, action});
    }
  }
  if (!replay_) return;
  while (replay_next_ < replay_->actions.size() && replay_->actions[replay_next_].step <= step) {
    ++replay_next_;
  }
  if (lane0.state().step < replay_->steps) return;
  const std::uint64_t hash = StateHash(lane0.state());
  if (replay_->final_state_hash == 0) {
    message_ = "replay done after " + std::to_string(replay_->steps) + " steps: final state " +
               Hex(hash) + " (the recording has no hash to compare)";
  } else if (hash == replay_->final_state_hash) {
    message_ = "replay done: final state hash " + Hex(hash) + " matches the recording";
  } else {
    message_ = "replay done: final state hash " + Hex(hash) + " differs from the recording's " +
               Hex(replay_->final_state_hash);
  }
  replay_.reset();
  replay_finished_ = true;
}


void TeleopOperator::FillStatus(const Simulation& lane0, TeleopStatus* status) const {
  const TeleopSession* session = lane0.teleop();
  status->available = session != nullptr;
  status->engaged = session != nullptr && session->engaged();
  status->mode = mode_;
  status->active_target = active_target_;
  status->targets.clear();
  if (session != nullptr) {
    for (int t = 0; t < session->target_count(); ++t) {
      TeleopTargetStatus target;
      target.name = session->target(t).name;
      target.type = session->target(t).type;
      target.axis = session->Axis(t);
      const TeleopController& controller = session->controller();
      if (const std::optional<Pose> actual = controller.EndEffectorPose(t, lane0.state())) {
        target.has_pose = true;
        target.actual = *actual;
        target.target = controller.HasPoseTarget(t) ? *controller.PoseTarget(t) : *actual;
        PoseError(target.actual, target.target, &target.position_error, &target.rotation_error);
        if (const IkResult* ik = controller.LastIkResult(t))
          target.saturated_joints = ik->saturated;
      }
      status->targets.push_back(std::move(target));
    }
  }
  status->latency_samples = latency_samples_;
  status->latency_last_ms = latency_last_ms_;
  status->latency_mean_ms = latency_samples_ > 0 ? latency_sum_ms_ / latency_samples_ : 0;
  status->latency_max_ms = latency_max_ms_;
  status->latency_max_steps = latency_max_steps_;
  status->recording = recording_.has_value();
  status->recorded_steps = recording_ ? lane0.state().step : 0;
  status->recorded_actions = recording_ ? recording_->actions.size() : 0;
  status->replaying = replay_.has_value();
  status->replay_step = lane0.state().step;
  status->replay_steps = replay_ ? replay_->steps : 0;
  status->message = message_;
}


void TeleopOperator::FillGizmo(const Simulation& lane0,
                               std::vector<VisualTeleopTarget>* targets) const {
  targets->clear();
  const TeleopSession* session = lane0.teleop();
  if (!mode_ || session == nullptr) return;
  const TeleopController& controller = session->controller();
  for (int t = 0; t < session->target_count(); ++t) {
    const std::optional<Pose> actual = controller.EndEffectorPose(t, lane0.state());
    if (!actual) continue;
    VisualTeleopTarget target;
    target.X_WT = RowMajor(controller.HasPoseTarget(t) ? *controller.PoseTarget(t) : *actual);
    for (int i = 0; i < 3; ++i) target.actual[i] = static_cast<float>(actual->p[i]);
    target.gizmo = t == active_target_;
    targets->push_back(target);
  }
}

}  // namespace sim::ui
