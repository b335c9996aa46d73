#include "ui/teleop_operator.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/io/teleop_recording_file.h"
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


}  // namespace


void TeleopOperator::Reset(const Model& model) {
  queue_.clear();
  latency_samples_ = 0;
  latency_sum_ms_ = latency_last_ms_ = latency_max_ms_ = 0;
  latency_max_steps_ = 0;
  recorder_.reset();
  replay_.reset();
  replay_finished_ = false;
  message_.clear();
  if (active_target_ >= static_cast<int>(model.teleop_targets.size())) active_target_ = -1;
}


void TeleopOperator::OnLanesReset(const Simulation& lane0) {
  queue_.clear();
  if (recorder_) {
    const TeleopRecording& recording = recorder_->recording();
    recorder_.emplace(lane0, recording.scene_path, recording.overrides);
    message_ = "recording restarted from the initial state";
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


void TeleopOperator::StartRecording(const Simulation& lane0, const std::string& scene_file,
                                    const std::vector<std::string>& overrides) {
  recorder_.emplace(lane0, scene_file, overrides);
  recorded_scene_ = scene_file;
  message_ = "recording from the initial state";
}


bool TeleopOperator::StopRecording(const Simulation& lane0, const std::string& path,
                                   std::string* error) {
  if (!recorder_) {
    *error = "no recording is running";
    return false;
  }
  TeleopRecording recording = recorder_->Finish(lane0);
  recorder_.reset();
  if (path.empty()) {
    message_ = "recording discarded";
    return true;
  }
  recording.scene_path = io::ScenePathFor(recorded_scene_, path);
  if (!io::WriteTeleopRecording(path, recording, error)) return false;
  message_ = "recorded " + std::to_string(recording.actions.size()) + " actions over " +
             std::to_string(recording.steps) + " steps to " + path + " (final state " +
             io::FormatStateHash(recording.final_state_hash) + ")";
  return true;
}


bool TeleopOperator::StartReplay(TeleopRecording recording, const Simulation& lane0) {
  queue_.clear();
  recorder_.reset();
  replay_.reset();
  // the recording's target indices name its `target_names`: map them onto the scene's
  const std::vector<TeleopTarget>& targets = lane0.model().teleop_targets;
  std::vector<int> index(recording.target_names.size(), -1);
  for (std::size_t n = 0; n < recording.target_names.size(); ++n) {
    for (std::size_t t = 0; t < targets.size(); ++t) {
      if (targets[t].name == recording.target_names[n]) index[n] = static_cast<int>(t);
    }
    if (index[n] < 0) {
      message_ = "replay: the scene has no teleop target '" + recording.target_names[n] + "'";
      return false;
    }
  }
  for (RecordedAction& recorded : recording.actions) {
    if (recorded.action.target >= 0) recorded.action.target = index[recorded.action.target];
  }
  // without a recorded length: one simulated second past the last action (as contact-sim replay)
  if (recording.steps == 0) {
    const Real dt = lane0.model().options.solver.dt;
    const std::uint64_t last = recording.actions.empty() ? 0 : recording.actions.back().step;
    recording.steps = last + 1 + static_cast<std::uint64_t>(std::ceil(1.0 / dt));
  }
  if (recording.initial_state_hash != 0 &&
      recording.initial_state_hash != StateHash(lane0.state())) {
    message_ = "replay: the scene's initial state " +
               io::FormatStateHash(StateHash(lane0.state())) + " differs from the recording's " +
               io::FormatStateHash(recording.initial_state_hash) +
               "; the scene changed since it was recorded";
  } else {
    message_ = "replaying";
  }
  replay_ = std::move(recording);
  replay_next_ = 0;
  replay_step_ = 0;
  replay_finished_ = false;
  return true;
}


void TeleopOperator::BeforeStep(int lane, Simulation* simulation, std::uint64_t lane0_step) {
  TeleopSession* session = simulation->teleop();
  if (session == nullptr) return;
  if (replay_) {
    for (std::size_t i = replay_next_;
         i < replay_->actions.size() && replay_->actions[i].step == replay_step_; ++i) {
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
  if (recorder_) recorder_->AfterStep(lane0);
  if (!replay_) return;
  while (replay_next_ < replay_->actions.size() &&
         replay_->actions[replay_next_].step <= replay_step_) {
    ++replay_next_;
  }
  if (++replay_step_ < replay_->steps) return;
  const std::string hash = io::FormatStateHash(StateHash(lane0.state()));
  if (replay_->final_state_hash == 0) {
    message_ = "replay done after " + std::to_string(replay_->steps) + " steps: final state " +
               hash + " (the recording has no hash to compare)";
  } else if (StateHash(lane0.state()) == replay_->final_state_hash) {
    message_ = "replay done: final state " + hash + " matches the recording";
  } else {
    message_ = "replay done: final state " + hash + " differs from the recording's " +
               io::FormatStateHash(replay_->final_state_hash);
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
        if (target.type == TeleopTargetType::kLookAt) {
          // how far the look axis is off the point
          const Vec3 axis = actual->q * session->target(t).look_axis;
          const Vec3 to_point = target.target.p - actual->p;
          target.rotation_error = std::atan2(axis.cross(to_point).norm(), axis.dot(to_point));
        } else {
          PoseError(target.actual, target.target, &target.position_error, &target.rotation_error);
        }
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
  status->recording = recorder_.has_value();
  status->recorded_steps = recorder_ ? recorder_->steps() : 0;
  status->recorded_actions = recorder_ ? recorder_->recording().actions.size() : 0;
  status->replaying = replay_.has_value();
  status->replay_step = replay_step_;
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
