// SimWorker: command queue, pacing loop, lanes, mouse spring and snapshot publishing.
//
// Mouse spring (MuJoCo's mjv_applyPerturbForce, with its stiffness scaled by mass): for a body of
// mass m grabbed at the body-fixed point a (world position x_a, velocity v_a = v + ω × r,
// r = x_a − x_com) and pulled towards the target p,
//   F = m (k (p − x_a) − c v_a),   τ = r × F − c_ω I_W ω,
// k = kDragStiffness, c = kDragDamping, c_ω = kDragAngularDamping (stops a body grabbed off its
// centre from swinging about the grab point like a pendulum). A particle patch (the nodes of a
// soft body near the grabbed point) is pulled as one: with its mass centre x̄, the grabbed point
// x_a = x̄ + (offset at the grab) and per node i, F_i = m_i (k (p − x_a) − c v_i). The forces are
// explicit (constant over the step); per unit mass they stay within the explicit stability limits
// k·dt² < 4 and c·dt ≤ 2 up to dt = 0.1 s, the largest step a scene may have.
#include "ui/sim_worker.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <thread>
#include <utility>

#include <tbb/task_arena.h>

#include "engine/collision/raycast.h"
#include "engine/dynamics/constraint_rows.h"
#include "engine/io/divergence.h"
#include "engine/step/pipeline.h"
#include "engine/teleop/teleop_pick.h"
#include "engine/visual/drive_ghosts.h"
#include "ui/frame_compose.h"

namespace sim::ui {

namespace {

// angle between joint j's frame as fixed in the parent and as fixed in the child [rad]: the bend
// of a compliant weld, the swing of a ball joint (which have no scalar coordinate)
Real JointFrameAngle(const Model& model, int j, const Pose& X_WP, const Pose& X_WC) {
  const Quat q_WJp = X_WP.q * model.joint_X_PJ[j].q;
  const Quat q_WJc = X_WC.q * model.joint_X_CJ[j].q;
  return Eigen::AngleAxis<Real>(q_WJp.conjugate() * q_WJc).angle();
}


// angular damping of the mouse spring [1/s] (see the file comment)
constexpr Real kDragAngularDamping = 10;
// a soft body is grabbed by its nodes within this fraction of its bounding-box diagonal
constexpr Real kDragPatchFraction = 0.15;
// as-fast-as-possible mode publishes at most this often [s]: drawing faster is not seen, and
// building snapshots would eat into the stepping
constexpr double kFastPublishPeriod = 1.0 / 240.0;
// averaging window of the real-time factor and step rate [s]
constexpr double kMeterWindow = 0.5;
// diagnostics kept for the GUI when it does not drain them
constexpr std::size_t kMaxQueuedDiagnostics = 1000;

// engine threads for a request: ≤ 0 means all cores but one (at least one)
int EngineThreads(int requested) {
  if (requested > 0) return requested;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, cores - 1);
}


double Now() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

std::chrono::steady_clock::time_point ToTimePoint(double seconds) {
  return std::chrono::steady_clock::time_point(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(seconds)));
}

Mat3 WorldInertia(const Model& model, const State& state, int body) {
  const Mat3 R = state.body_X_WB[body].q.toRotationMatrix();
  return R * model.body_inertia[body] * R.transpose();
}

}  // namespace


struct SimWorker::Arena {
  explicit Arena(int threads) : arena(threads) {}
  tbb::task_arena arena;
};


struct SimWorker::Lane {
  std::unique_ptr<Simulation> simulation;
  std::string label;
  State initial_state;
  std::vector<StepSample> history;  // ring of kHistoryLength, next write at history_next
  std::size_t history_next = 0;
  std::array<std::uint64_t, kStepStatusBitCount> status_counts = {};
  std::uint32_t reported_status = 0;  // bits already reported since the load or reset
  double max_body_speed = 0;          // [m/s] since the load or reset
  bool stopped = false;               // failed: no more steps until a reset or key frame
  std::string unsupported;  // why its solver refused the scene (it never steps), else empty
};


struct SimWorker::Drag {
  int lane = 0;  // lane whose copy was grabbed: the drag plane and target are in its coordinates
  int body = kWorldBody;
  Vec3 anchor_B = Vec3::Zero();  // grabbed point in the body frame
  int particle = -1;             // grabbed node or free particle
  std::vector<int> patch;        // particles pulled together
  Vec3 patch_offset = Vec3::Zero();
  Vec3 plane_point = Vec3::Zero();
  Vec3 plane_normal = Vec3::UnitZ();
  Vec3 target = Vec3::Zero();
  // of the grabbed lane, at the last step: where the grabbed point is and the spring force
  Vec3 anchor_W = Vec3::Zero();
  Real force = 0;
};


SimWorker::SimWorker() = default;


SimWorker::~SimWorker() { Stop(); }


void SimWorker::Start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { Run(); });
}


void SimWorker::Stop() {
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    quit_ = true;
  }
  queue_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}


void SimWorker::Send(SimCommand command) {
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    queue_.push_back(std::move(command));
  }
  queue_cv_.notify_one();
}


std::vector<Diagnostic> SimWorker::TakeDiagnostics() {
  std::vector<Diagnostic> taken;
  std::lock_guard<std::mutex> lock(diagnostics_mutex_);
  taken.swap(diagnostics_);
  return taken;
}


void SimWorker::Report(Severity severity, const std::string& message) {
  Diagnostic diagnostic;
  diagnostic.severity = severity;
  diagnostic.source = "simulation";
  diagnostic.message = message;
  std::lock_guard<std::mutex> lock(diagnostics_mutex_);
  if (diagnostics_.size() < kMaxQueuedDiagnostics) diagnostics_.push_back(std::move(diagnostic));
}


double SimWorker::PacingTime() const {
  for (const auto& lane : lanes_) {
    if (!lane->stopped) return lane->simulation->state().time;
  }
  return lanes_.empty() ? 0.0 : lanes_[0]->simulation->state().time;
}


void SimWorker::Reanchor() {
  const double now = Now();
  const double time = PacingTime();
  wall_anchor_ = now;
  sim_anchor_ = time;
  meter_wall_ = now;
  meter_sim_ = time;
  meter_steps_ = steps_taken_;
}


void SimWorker::Run() {
  arena_ = std::make_unique<Arena>(EngineThreads(threads_));
  Reanchor();
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(queue_mutex_);
      if (quit_) return;
    }
    DrainCommands();

    const bool stepping = !lanes_.empty() && (running_ || pending_steps_ > 0);
    if (!stepping) {
      // paused: show what changed, then sleep until the next command
      if (dirty_) Publish();
      std::unique_lock<std::mutex> lock(queue_mutex_);
      queue_cv_.wait(lock, [this] { return quit_ || !queue_.empty(); });
      continue;
    }

    int steps = substeps_;
    if (!running_) {
      steps = 1;
      --pending_steps_;
    } else if (real_time_) {
      // sleep until the wall clock catches up with the simulated time (commands wake us)
      const double now = Now();
      const double time = PacingTime();
      const double due = wall_anchor_ + (time - sim_anchor_) / speed_;
      if (now < due) {
        if (dirty_) Publish();
        std::unique_lock<std::mutex> lock(queue_mutex_);
        queue_cv_.wait_until(lock, ToTimePoint(due), [this] { return quit_ || !queue_.empty(); });
        continue;
      }
      // too slow for real time: forget the debt instead of stepping in bursts to repay it
      if (now - due > kMaxLagSeconds) {
        wall_anchor_ = now;
        sim_anchor_ = time;
      }
    }

    try {
      // the engine's parallel loops stay inside the arena
      arena_->arena.execute([&] {
        for (int i = 0; i < steps && (running_ || i == 0); ++i) StepLanes();
      });
    } catch (const std::exception& error) {
      Report(Severity::kError, std::string("the simulation stopped: ") + error.what());
      running_ = false;
      pending_steps_ = 0;
    }
    dirty_ = true;

    // rate meters
    const double now = Now();
    if (now - meter_wall_ >= kMeterWindow) {
      const double time = PacingTime();
      real_time_factor_ = std::max(0.0, (time - meter_sim_) / (now - meter_wall_));
      steps_per_second_ = static_cast<double>(steps_taken_ - meter_steps_) / (now - meter_wall_);
      meter_wall_ = now;
      meter_sim_ = time;
      meter_steps_ = steps_taken_;
    }
    if (!running_ || real_time_ || now - last_publish_ >= kFastPublishPeriod) Publish();
  }
}


void SimWorker::DrainCommands() {
  std::vector<SimCommand> commands;
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    commands.swap(queue_);
  }
  for (const SimCommand& command : commands) {
    // a command that throws is reported and dropped; the worker goes on
    try {
      Apply(command);
    } catch (const std::exception& error) {
      Report(Severity::kError, std::string("a command failed: ") + error.what());
    }
    dirty_ = true;
  }
}


void SimWorker::Apply(const SimCommand& command) {
  struct Visitor {
    SimWorker* w;
    void operator()(const command::Play&) {
      if (!w->running_) w->Reanchor();
      w->running_ = true;
      w->pending_steps_ = 0;
    }
    void operator()(const command::Pause&) {
      w->running_ = false;
      w->pending_steps_ = 0;
    }
    void operator()(const command::StepOnce& c) {
      w->running_ = false;
      w->pending_steps_ += std::max(0, c.steps);
    }
    void operator()(const command::Reset&) { w->ResetLanes(); }
    void operator()(const command::SetPacing& c) {
      w->real_time_ = c.real_time;
      w->speed_ = std::clamp(c.speed, 1e-3, 1e3);
      w->Reanchor();
    }
    void operator()(const command::SetSubsteps& c) {
      w->substeps_ = std::clamp(c.substeps, 1, 1000);
    }
    void operator()(const command::SetThreads& c) {
      w->threads_ = c.threads;
      w->arena_ = std::make_unique<Arena>(EngineThreads(c.threads));
    }
    void operator()(const command::SetOverride& c) { w->ApplyOverride(c); }
    void operator()(const command::SetReferenceLane& c) {
      w->reference_lane_ = std::max(c.lane, 0);
    }
    void operator()(const command::SetLaneLayout& c) { w->lanes_overlaid_ = c.overlaid; }
    void operator()(const command::AddLane& c) { w->ApplyAddLane(c); }
    void operator()(const command::RemoveLane& c) { w->ApplyRemoveLane(c); }
    void operator()(const command::LoadScene& c) { w->ApplyLoad(c); }
    void operator()(const command::SetJointTarget& c) {
      for (int k = 0; k < static_cast<int>(w->lanes_.size()); ++k) {
        if (c.lane >= 0 && c.lane != k) continue;
        Control& control = w->lanes_[k]->simulation->control();
        // the operator's target: the drive follows it at the joint's velocity limit
        if (c.joint >= 0 && c.joint < static_cast<int>(control.joint_target_position.size())) {
          SetOperatorTarget(&control, c.joint, c.position);
        }
      }
    }
    void operator()(const command::SetJointTaken& c) {
      for (auto& lane : w->lanes_) {
        Control& control = lane->simulation->control();
        if (c.joint < 0 || c.joint >= lane->simulation->model().joint_count()) continue;
        control.joint_taken.resize(lane->simulation->model().joint_count(), 0);
        control.joint_taken[c.joint] = c.taken ? 1 : 0;
      }
    }
    void operator()(const command::SaveKeyFrame& c) { w->SaveKeyFrames(c.name); }
    void operator()(const command::RestoreKeyFrame& c) { w->RestoreKeyFrames(c.index); }
    void operator()(const command::Pick& c) {
      w->ApplyPick(c.origin, c.direction, false, Vec3::Zero());
    }
    void operator()(const command::SelectBody& c) {
      const int bodies = w->lanes_.empty() ? 0 : w->lanes_[0]->simulation->model().body_count();
      w->selected_body_ = c.body >= 0 && c.body < bodies ? c.body : kWorldBody;
      w->selected_particle_ = -1;
    }
    void operator()(const command::BeginDrag& c) {
      w->ApplyPick(c.origin, c.direction, true, c.view_direction);
    }
    void operator()(const command::MoveDrag& c) {
      if (w->drag_ == nullptr) return;
      Drag& drag = *w->drag_;
      // the ray in the grabbed lane's coordinates, crossed with the drag plane
      const Vec3 origin = c.origin - w->LaneShift(drag.lane);
      const Vec3 direction = c.direction.normalized();
      const Real denominator = drag.plane_normal.dot(direction);
      if (std::abs(denominator) < 1e-9) return;
      const Real t = drag.plane_normal.dot(drag.plane_point - origin) / denominator;
      if (t < 0 || !std::isfinite(t)) return;
      drag.target = origin + t * direction;
    }
    void operator()(const command::EndDrag&) { w->drag_.reset(); }
    void operator()(const command::BeginPaint& c) {
      if (w->lanes_.empty()) return;
      const Simulation& simulation = *w->lanes_[0]->simulation;
      w->painter_.Begin(simulation.model(), simulation.state(), c.origin, c.direction, c.brush);
    }
    void operator()(const command::PaintTo& c) {
      if (w->lanes_.empty()) return;
      const Simulation& simulation = *w->lanes_[0]->simulation;
      w->painter_.MoveTo(simulation.model(), simulation.state(), c.origin, c.direction);
    }
    void operator()(const command::EndPaint&) { w->painter_.End(); }
    void operator()(const command::UndoPaint&) { w->painter_.Undo(); }
    void operator()(const command::RedoPaint&) { w->painter_.Redo(); }
    void operator()(const command::SavePaint&) {
      if (w->lanes_.empty()) return;
      Diagnostics diagnostics;
      w->painter_.Save(w->lanes_[0]->simulation->model(), w->scene_path_, &diagnostics);
      for (const Diagnostic& d : diagnostics.items()) w->Report(d.severity, d.Format());
    }
    void operator()(const command::Teleop& c) {
      if (w->lanes_.empty()) return;
      w->teleop_.Submit(c.action, w->lanes_[0]->simulation->state().step);
    }
    void operator()(const command::SetTeleopMode& c) { w->teleop_.SetMode(c.on, c.active_target); }
    void operator()(const command::TeleoperateBody& c) { w->ApplyTeleoperateBody(c.body); }
    void operator()(const command::StartRecording&) {
      if (w->lanes_.empty()) return;
      w->ResetLanes();
      w->teleop_.StartRecording(*w->lanes_[0]->simulation, w->scene_path_, w->lane0_overrides_);
    }
    void operator()(const command::StopRecording& c) { w->ApplyRecordingStop(c.path); }
    void operator()(const command::Replay& c) {
      if (w->lanes_.empty()) return;
      w->ResetLanes();
      if (!w->teleop_.StartReplay(c.recording, *w->lanes_[0]->simulation)) return;
      w->running_ = true;
      w->Reanchor();
    }
  };
  std::visit(Visitor{this}, command);
}


void SimWorker::ResetLanes() {
  for (auto& lane : lanes_) {
    // as MuJoCo's reset: the drive targets set since (sliders) go back to the scene's too
    lane->simulation->control() = MakeControl(lane->simulation->model());
    lane->simulation->Reset();
    ClearLaneRecord(lane.get());
  }
  if (!lanes_.empty()) teleop_.OnLanesReset(*lanes_[0]->simulation);
  pending_steps_ = 0;
  Reanchor();
}


void SimWorker::ClearLaneRecord(Lane* lane) {
  lane->history.clear();
  lane->history_next = 0;
  lane->status_counts = {};
  lane->reported_status = 0;
  lane->max_body_speed = 0;
  // an unsupported lane stays stopped: its solver never runs
  lane->stopped = !lane->unsupported.empty();
}


void SimWorker::SaveKeyFrames(const std::string& name) {
  if (lanes_.empty()) return;
  const std::string key_name =
      name.empty() ? "key " + std::to_string(key_frames_.size() + 1) : name;
  std::vector<KeyFrame> keys;
  for (const auto& lane : lanes_) keys.push_back(lane->simulation->SaveKeyFrame(key_name));
  key_frames_.push_back(std::move(keys));
}


void SimWorker::RestoreKeyFrames(int index) {
  if (index < 0 || index >= static_cast<int>(key_frames_.size())) {
    Report(Severity::kError, "there is no key frame " + std::to_string(index + 1));
    return;
  }
  const std::vector<KeyFrame>& keys = key_frames_[index];
  for (int k = 0; k < static_cast<int>(lanes_.size()); ++k) {
    // a scene file's key frame is one for every lane
    const KeyFrame& key = keys[std::min<std::size_t>(k, keys.size() - 1)];
    if (!MatchesModel(key.state, lanes_[k]->simulation->model())) {
      Report(Severity::kError, "key frame '" + key.name + "' does not match the scene");
      return;
    }
  }
  for (int k = 0; k < static_cast<int>(lanes_.size()); ++k) {
    lanes_[k]->simulation->RestoreKeyFrame(keys[std::min<std::size_t>(k, keys.size() - 1)]);
    ClearLaneRecord(lanes_[k].get());
  }
  drag_.reset();
  if (!lanes_.empty()) teleop_.OnLanesReset(*lanes_[0]->simulation);
  pending_steps_ = 0;
  Reanchor();
}


void SimWorker::ApplyRecordingStop(const std::string& path) {
  if (lanes_.empty()) return;
  std::string error;
  if (!teleop_.StopRecording(*lanes_[0]->simulation, path, &error)) {
    Report(Severity::kError, "teleop recording: " + error);
  }
}


void SimWorker::ApplyLoad(const command::LoadScene& load) {
  if (load.model == nullptr) {
    Report(Severity::kError, "a scene without a model was sent to the simulation");
    return;
  }
  std::vector<io::SolverConfig> configs = load.configs;
  if (configs.empty()) configs.push_back(io::SolverConfig{load.model->options.solver.name, "", {}});

  // build every lane first: a lane that fails leaves the running scene as it is
  std::vector<std::unique_ptr<Lane>> lanes;
  for (const io::SolverConfig& config : configs) {
    // a single lane must run; a compared lane whose solver refuses the scene is shown stopped
    std::unique_ptr<Lane> lane =
        MakeLane(load.model, config, load.initial_state, configs.size() > 1);
    if (lane == nullptr) return;
    lane->initial_state = load.initial_state;
    lanes.push_back(std::move(lane));
  }
  lanes_ = std::move(lanes);
  ++lane_generation_;
  reference_lane_ = 0;
  key_frames_.clear();
  for (const KeyFrame& key : load.key_frames) key_frames_.push_back({key});
  scene_path_ = load.path;
  lane_offset_ = load.lane_offset;
  ++scene_generation_;
  drag_.reset();
  painter_.Reset();
  teleop_.Reset(*lanes_[0]->simulation->model_ptr());
  lane0_overrides_ = configs[0].overrides;
  if (!configs[0].solver.empty()) {
    lane0_overrides_.insert(lane0_overrides_.begin(), "solver.name=" + configs[0].solver);
  }
  selected_body_ = kWorldBody;
  selected_particle_ = -1;
  running_ = load.start_running;
  pending_steps_ = 0;
  Reanchor();
}


std::unique_ptr<SimWorker::Lane> SimWorker::MakeLane(const std::shared_ptr<const Model>& base,
                                                     const io::SolverConfig& config,
                                                     const State& state, bool compared) {
  std::shared_ptr<const Model> model = base;
  if (!config.solver.empty() || !config.overrides.empty()) {
    auto copy = std::make_shared<Model>(*base);
    const Diagnostics diagnostics = io::ApplySolverConfig(config, copy.get());
    if (diagnostics.has_errors()) {
      for (const Diagnostic& d : diagnostics.items()) Report(d.severity, d.Format());
      return nullptr;
    }
    model = std::move(copy);
  }
  auto lane = std::make_unique<Lane>();
  lane->label = config.label.empty() ? model->options.solver.name : config.label;
  Expected<std::unique_ptr<Simulation>> simulation =
      Simulation::Create(model, state, model->options.solver.name);
  if (!simulation.ok() && !compared) {
    for (const Diagnostic& d : simulation.diagnostics().items()) Report(d.severity, d.Format());
    return nullptr;
  }
  if (!simulation.ok()) {
    // the scene's own model and solver hold the lane's place, stopped at the start
    lane->unsupported = simulation.diagnostics().Format();
    Report(Severity::kWarning,
           lane->label + ": unsupported, the lane does not step: " + lane->unsupported);
    simulation = Simulation::Create(base, state, base->options.solver.name);
    if (!simulation.ok()) {
      for (const Diagnostic& d : simulation.diagnostics().items()) Report(d.severity, d.Format());
      return nullptr;
    }
    lane->stopped = true;
  }
  lane->simulation = std::move(simulation.value());
  return lane;
}


void SimWorker::ApplyAddLane(const command::AddLane& add) {
  if (lanes_.empty()) return;
  Expected<std::vector<io::SolverConfig>> configs = io::ParseSolverConfigs(add.config);
  if (!configs.ok() || configs->size() != 1) {
    Report(Severity::kError, "add lane: '" + add.config +
                                 "' is not one solver config (NAME or "
                                 "NAME:KEY=VALUE;KEY=VALUE)");
    return;
  }
  const bool branch = add.from >= 0 && add.from < static_cast<int>(lanes_.size());
  const Lane& source = *lanes_[branch ? add.from : 0];
  const State& start = branch ? source.simulation->state() : source.initial_state;
  std::unique_ptr<Lane> lane =
      MakeLane(source.simulation->model_ptr(), configs->front(), start, true);
  if (lane == nullptr) return;
  lane->initial_state = source.initial_state;
  // a branch carries the source lane's inputs too (drive targets, teleop, forces)
  if (branch && lane->unsupported.empty())
    lane->simulation->control() = source.simulation->control();
  if (branch) lane->label += " @" + std::to_string(start.step);
  lanes_.push_back(std::move(lane));
  ++lane_generation_;
}


void SimWorker::ApplyRemoveLane(const command::RemoveLane& remove) {
  if (lanes_.size() < 2 || remove.lane < 0 || remove.lane >= static_cast<int>(lanes_.size())) {
    Report(Severity::kWarning, "remove lane: there is no lane " + std::to_string(remove.lane) +
                                   " to remove (the last lane stays)");
    return;
  }
  lanes_.erase(lanes_.begin() + remove.lane);
  drag_.reset();
  if (reference_lane_ >= static_cast<int>(lanes_.size()) || reference_lane_ == remove.lane) {
    reference_lane_ = 0;
  } else if (reference_lane_ > remove.lane) {
    --reference_lane_;
  }
  if (remove.lane == 0) teleop_.Reset(*lanes_[0]->simulation->model_ptr());
  ++lane_generation_;
}


void SimWorker::ApplyOverride(const command::SetOverride& set) {
  for (int k = 0; k < static_cast<int>(lanes_.size()); ++k) {
    if (set.lane >= 0 && set.lane != k) continue;
    auto model = std::make_shared<Model>(lanes_[k]->simulation->model());
    // every setting, the solver's name included, is a `--set` path of the settings tables
    const Diagnostics diagnostics = io::ApplyOverride(set.assignment, model.get());
    if (diagnostics.has_errors()) {
      for (const Diagnostic& d : diagnostics.items()) Report(d.severity, d.Format());
      return;
    }
    if (!ReplaceLaneModel(k, std::move(model))) return;
    if (k == 0) lane0_overrides_.push_back(set.assignment);
  }
}


bool SimWorker::ReplaceLaneModel(int k, std::shared_ptr<const Model> model) {
  // a new solver for the new model; state and control carry over
  Lane& lane = *lanes_[k];
  Expected<std::unique_ptr<Simulation>> simulation =
      Simulation::Create(model, lane.initial_state, model->options.solver.name);
  if (!simulation.ok()) {
    for (const Diagnostic& d : simulation.diagnostics().items()) Report(d.severity, d.Format());
    return false;
  }
  // the drives' targets carry over too, so a setting changed mid-ramp does not jump them
  simulation.value()->RestoreKeyFrame(lane.simulation->SaveKeyFrame(""));
  lane.simulation = std::move(simulation.value());
  return true;
}


void SimWorker::ApplyTeleoperateBody(int body) {
  if (lanes_.empty()) return;
  const Model& model = lanes_[0]->simulation->model();
  for (const TeleopTarget& target : model.teleop_targets) {
    if (target.type == TeleopTargetType::kEndEffector && target.tip_body == body) return;
  }
  if (teleop_.recording() || teleop_.replaying()) {
    Report(Severity::kWarning, "a teleop target cannot be added while recording or replaying");
    return;
  }
  Expected<TeleopTarget> target = EndEffectorTargetForBody(model, body);
  if (!target.ok()) {
    for (const Diagnostic& d : target.diagnostics().items()) Report(d.severity, d.message);
    return;
  }
  for (int k = 0; k < static_cast<int>(lanes_.size()); ++k) {
    auto copy = std::make_shared<Model>(lanes_[k]->simulation->model());
    copy->teleop_targets.push_back(target.value());
    if (!ReplaceLaneModel(k, std::move(copy))) return;
  }
}


void SimWorker::ApplyPick(const Vec3& origin, const Vec3& direction, bool grab,
                          const Vec3& view_direction) {
  drag_.reset();
  // the nearest hit over every lane, each lane's ray moved into its own coordinates
  RayHit best;
  int best_lane = -1;
  for (int k = 0; k < static_cast<int>(lanes_.size()); ++k) {
    const Simulation& simulation = *lanes_[k]->simulation;
    const RayHit hit =
        Raycast(simulation.model(), simulation.state(), origin - LaneShift(k), direction);
    if (hit.hit && hit.distance < best.distance) {
      best = hit;
      best_lane = k;
    }
  }
  selected_body_ = kWorldBody;
  selected_particle_ = -1;
  if (best_lane < 0) return;
  const Simulation& simulation = *lanes_[best_lane]->simulation;
  const Model& model = simulation.model();
  const State& state = simulation.state();
  const bool dynamic_body = best.body != kWorldBody && model.body_static[best.body] == 0;
  if (best.particle >= 0) {
    selected_particle_ = best.particle;
  } else if (dynamic_body) {
    selected_body_ = best.body;
  }
  if (!grab || (!dynamic_body && best.particle < 0)) return;

  auto drag = std::make_unique<Drag>();
  drag->lane = best_lane;
  drag->plane_point = best.point;
  drag->plane_normal = view_direction.norm() > 0 ? view_direction.normalized() : -direction;
  drag->target = best.point;
  drag->anchor_W = best.point;
  if (best.particle < 0) {
    drag->body = best.body;
    drag->anchor_B = state.body_X_WB[best.body].Inverse() * best.point;
  } else {
    drag->particle = best.particle;
    if (best.soft_body >= 0) {
      // the soft body's nodes near the grabbed point move together
      const SoftBody& soft = model.soft_bodies[best.soft_body];
      Vec3 lower = Vec3::Constant(std::numeric_limits<Real>::infinity());
      Vec3 upper = -lower;
      for (int i = 0; i < soft.particle_count; ++i) {
        const Vec3& x = state.particle_x_W[soft.first_particle + i];
        lower = lower.cwiseMin(x);
        upper = upper.cwiseMax(x);
      }
      const Real radius = kDragPatchFraction * (upper - lower).norm();
      for (int i = 0; i < soft.particle_count; ++i) {
        const int p = soft.first_particle + i;
        if ((state.particle_x_W[p] - best.point).norm() <= radius) drag->patch.push_back(p);
      }
    }
    if (std::find(drag->patch.begin(), drag->patch.end(), best.particle) == drag->patch.end()) {
      drag->patch.push_back(best.particle);
    }
    Real mass = 0;
    Vec3 centre = Vec3::Zero();
    for (int p : drag->patch) {
      mass += model.particle_mass[p];
      centre += model.particle_mass[p] * state.particle_x_W[p];
    }
    drag->patch_offset = best.point - centre / mass;
  }
  drag_ = std::move(drag);
}


void SimWorker::ApplyDragForces(Lane& lane) {
  Simulation& simulation = *lane.simulation;
  Control& control = simulation.control();
  std::fill(control.body_force_W.begin(), control.body_force_W.end(), Vec3::Zero());
  std::fill(control.body_torque_W.begin(), control.body_torque_W.end(), Vec3::Zero());
  std::fill(control.particle_force_W.begin(), control.particle_force_W.end(), Vec3::Zero());
  if (drag_ == nullptr) return;
  Drag& drag = *drag_;
  const Model& model = simulation.model();
  const State& state = simulation.state();
  const bool grabbed_lane = lanes_[drag.lane].get() == &lane;
  if (drag.body != kWorldBody) {
    if (drag.body >= model.body_count() || control.body_force_W.empty()) return;
    const int b = drag.body;
    const Pose& X_WB = state.body_X_WB[b];
    const Vec3 anchor = X_WB * drag.anchor_B;
    const Vec3 lever = anchor - X_WB.p;
    const Vec3 velocity = state.body_v_W[b] + state.body_w_W[b].cross(lever);
    const Vec3 force =
        model.body_mass[b] * (kDragStiffness * (drag.target - anchor) - kDragDamping * velocity);
    control.body_force_W[b] += force;
    control.body_torque_W[b] += lever.cross(force) - kDragAngularDamping *
                                                         WorldInertia(model, state, b) *
                                                         state.body_w_W[b];
    if (grabbed_lane) {
      drag.anchor_W = anchor;
      drag.force = force.norm();
    }
    return;
  }
  if (control.particle_force_W.empty()) return;
  Real mass = 0;
  Vec3 centre = Vec3::Zero();
  for (int p : drag.patch) {
    mass += model.particle_mass[p];
    centre += model.particle_mass[p] * state.particle_x_W[p];
  }
  const Vec3 anchor = centre / mass + drag.patch_offset;
  const Vec3 pull = kDragStiffness * (drag.target - anchor);
  Vec3 total = Vec3::Zero();
  for (int p : drag.patch) {
    const Vec3 force = model.particle_mass[p] * (pull - kDragDamping * state.particle_v_W[p]);
    control.particle_force_W[p] += force;
    total += force;
  }
  if (grabbed_lane) {
    drag.anchor_W = anchor;
    drag.force = total.norm();
  }
}


void SimWorker::StepLanes() {
  // lockstep: step i of every lane before step i + 1
  const std::uint64_t lane0_step = lanes_[0]->simulation->state().step;
  for (int k = 0; k < static_cast<int>(lanes_.size()); ++k) {
    Lane& lane = *lanes_[k];
    // a failed lane stays where it failed while the others go on
    if (lane.stopped) continue;
    ApplyDragForces(lane);
    Simulation& simulation = *lane.simulation;
    teleop_.BeforeStep(k, &simulation, lane0_step);
    if (observer_) observer_(StepPhase::kBefore, k, simulation.model(), simulation.control());
    const StepReport& report = simulation.Step();
    if (observer_) observer_(StepPhase::kAfter, k, simulation.model(), simulation.control());

    StepSample sample;
    sample.step = simulation.state().step;
    sample.time = simulation.state().time;
    sample.dt = simulation.model().options.solver.dt;
    sample.outer_iterations = report.outer_iterations;
    sample.inner_iterations = report.inner_iterations;
    sample.contacts = report.contact_count;
    sample.total_ms = report.total_ms;
    sample.collision_ms = report.collision_ms;
    sample.assembly_ms = report.assembly_ms;
    sample.solve_ms = report.solve_ms;
    sample.integrate_ms = report.integrate_ms;
    sample.final_residual = report.final_residual;
    sample.status = report.status;
    sample.max_penetration = report.max_penetration;
    sample.max_joint_error = report.max_joint_error;
    sample.energy = MechanicalEnergy(simulation.model(), simulation.state());
    if (lane.history.size() < static_cast<std::size_t>(kHistoryLength)) {
      lane.history.push_back(sample);
    } else {
      lane.history[lane.history_next] = sample;
    }
    lane.history_next = (lane.history_next + 1) % kHistoryLength;

    // status: counted always; reported once per kind (the iteration limit is routine)
    for (int bit = 0; bit < kStepStatusBitCount; ++bit) {
      const std::uint32_t flag = StepStatusTable()[bit].bit;
      if ((report.status & flag) == 0) continue;
      ++lane.status_counts[bit];
      if (flag == kStepMaxIterations || (lane.reported_status & flag) != 0) continue;
      lane.reported_status |= flag;
      std::string message =
          lane.label + ": step " + std::to_string(sample.step) + ": " + StepStatusString(flag);
      if (!report.message.empty()) message += ": " + report.message;
      Report(flag == kStepNonFinite ? Severity::kError : Severity::kWarning, message);
    }
    lane.max_body_speed = std::max(lane.max_body_speed, static_cast<double>(report.max_speed));
    if (report.status & kStepNonFinite) {
      // the state was kept, but the next step would fail the same way: stop the lane and say
      // so; compared lanes that still step go on
      lane.stopped = true;
      const bool others = std::any_of(lanes_.begin(), lanes_.end(),
                                      [](const auto& other) { return !other->stopped; });
      Report(Severity::kError, lane.label +
                                   (others ? ": this lane is stopped, the others go on"
                                           : ": the simulation is paused") +
                                   " (reset with Backspace, or lower solver.dt)");
      if (!others) running_ = false;
    }
  }
  teleop_.AfterSteps(*lanes_[0]->simulation);
  // a replay pauses at its end, on the state whose hash it compared
  if (teleop_.replay_finished()) running_ = false;
  ++steps_taken_;
  // each lane's distance from the reference lane after this round (a lane that stopped keeps
  // its last sample)
  const int reference = std::min(reference_lane_, static_cast<int>(lanes_.size()) - 1);
  const State& reference_state = lanes_[reference]->simulation->state();
  for (const auto& lane : lanes_) {
    if (lane->stopped || lane->history.empty()) continue;
    const std::size_t newest = (lane->history_next + kHistoryLength - 1) % kHistoryLength;
    lane->history[std::min(newest, lane->history.size() - 1)].distance =
        StateDistance(lane->simulation->state(), reference_state);
  }
}


void SimWorker::Publish() {
  SimSnapshot& snapshot = mailbox_.back();
  snapshot.serial = ++serial_;
  snapshot.scene_generation = scene_generation_;
  snapshot.scene_path = scene_path_;
  snapshot.lane_offset = lane_offset_;
  snapshot.lane_generation = lane_generation_;
  snapshot.reference_lane =
      std::min(reference_lane_, std::max(static_cast<int>(lanes_.size()) - 1, 0));
  snapshot.running = running_;
  snapshot.real_time = real_time_;
  snapshot.speed = speed_;
  snapshot.substeps = substeps_;
  snapshot.threads = EngineThreads(threads_);
  snapshot.real_time_factor = running_ ? real_time_factor_ : 0;
  snapshot.steps_per_second = running_ ? steps_per_second_ : 0;
  snapshot.selected_body = selected_body_;
  snapshot.selected_particle = selected_particle_;
  snapshot.paint = painter_.status();
  snapshot.model = lanes_.empty() ? nullptr : lanes_[0]->simulation->model_ptr();
  snapshot.lanes.resize(lanes_.size());

  for (int k = 0; k < static_cast<int>(lanes_.size()); ++k) {
    const Lane& lane = *lanes_[k];
    const Simulation& simulation = *lane.simulation;
    const Model& model = simulation.model();
    const State& state = simulation.state();
    // the drawn view: lane 0 as is, the others beside it
    // (with the last step's contacts and forces, for the contacts view)
    if (k == 0) {
      FillVisualFrame(model, state, &simulation.contacts(), &snapshot.frame);
      // where the drives pull the robot: the commanded targets, else the ones the drives saw
      std::vector<Real> targets = simulation.control().joint_target_position;
      const std::vector<Real>& driven = simulation.drive_control().joint_target_position;
      for (std::size_t j = 0; j < targets.size() && j < driven.size(); ++j) {
        if (!std::isfinite(targets[j])) targets[j] = driven[j];
      }
      AppendDriveTargetGhosts(model, state, targets, &snapshot.frame);
    } else {
      AppendLaneFrame(MakeVisualFrame(model, state, simulation.contacts()), LaneShift(k), k,
                      &snapshot.frame, lanes_overlaid_);
    }

    LaneSnapshot& out = snapshot.lanes[k];
    out.label = lane.label;
    out.unsupported = lane.unsupported;
    out.settings = model.options.solver;
    out.model = simulation.model_ptr();
    out.report = simulation.report();
    out.step = state.step;
    out.time = state.time;
    out.status_counts = lane.status_counts;
    // history oldest first: the ring from its next write position
    out.history.clear();
    const std::size_t n = lane.history.size();
    const std::size_t start = n < static_cast<std::size_t>(kHistoryLength) ? 0 : lane.history_next;
    for (std::size_t i = 0; i < n; ++i) out.history.push_back(lane.history[(start + i) % n]);
    // joint coordinates and commanded targets
    out.joint_positions.assign(model.joint_count(), 0);
    for (int j = 0; j < model.joint_count(); ++j) {
      const int parent = model.joint_parent[j];
      const Pose X_WP = parent == kWorldBody ? Pose{} : state.body_X_WB[parent];
      const Pose& X_WC = state.body_X_WB[model.joint_child[j]];
      out.joint_positions[j] = JointFreedoms(model.joint_type[j]) == 1
                                   ? JointCoordinate(model, j, X_WP, X_WC)
                                   : JointFrameAngle(model, j, X_WP, X_WC);
    }
    out.joint_targets = simulation.control().joint_target_position;
    out.drive_targets = simulation.drive_control().joint_target_position;
    out.joint_taken = simulation.control().joint_taken;
    out.state_hash = StateHash(state);
    out.max_body_speed = lane.max_body_speed;
    out.stopped = lane.stopped;
    if (lanes_.size() > 1) out.label_W = LaneLabelPoint(model, state) + LaneShift(k);
  }
  snapshot.key_frames.clear();
  for (const auto& keys : key_frames_) snapshot.key_frames.push_back(keys.front().name);

  // interaction state on top
  snapshot.frame.selected_body = selected_body_;
  snapshot.frame.drag = VisualDrag();
  if (drag_ != nullptr && !lanes_.empty()) {
    const Vec3 shift = LaneShift(drag_->lane);
    VisualDrag& drag = snapshot.frame.drag;
    drag.active = true;
    drag.body = drag_->body;
    drag.particle = drag_->particle;
    for (int i = 0; i < 3; ++i) {
      drag.anchor[i] = static_cast<float>(drag_->anchor_W[i] + shift[i]);
      drag.target[i] = static_cast<float>(drag_->target[i] + shift[i]);
    }
    drag.force = static_cast<float>(drag_->force);
  }
  // teleop: lane 0's targets, and the gizmo in teleop mode
  if (!lanes_.empty()) {
    teleop_.FillStatus(*lanes_[0]->simulation, &snapshot.teleop);
    teleop_.FillGizmo(*lanes_[0]->simulation, &snapshot.frame.teleop_targets);
  } else {
    snapshot.teleop = TeleopStatus();
    snapshot.frame.teleop_targets.clear();
  }
  mailbox_.Publish();
  dirty_ = false;
  last_publish_ = Now();
}

}  // namespace sim::ui
