// SimWorker: the studio's simulation thread (architecture §4, style anchors §3.10). It owns the
// Simulations (State, Control, Contacts, Solver) of the open scene: one lane, or several lanes
// that run the same scene with different solver settings in lockstep (`--compare A,B`).
//
//   GUI ──Send(SimCommand)──▶ command queue (mutex, swapped out on drain) ──▶ worker, between steps
//   GUI ◀──TakeLatest()────── FrameMailbox<SimSnapshot> (lock-free triple buffer, latest wins)
//   GUI ◀──TakeDiagnostics()─ diagnostics (step status, failed commands): never lost, never thrown
//
// Commands are values applied only between steps; the GUI never waits for a step and the worker
// never waits for the GUI. Pacing: real time (sleep to the wall clock, drop the debt when more
// than kMaxLagSeconds behind, as MuJoCo's simulate does) or as fast as possible; each frame takes
// `substeps` steps of dt, then publishes a snapshot. Exceptions inside the worker become
// diagnostics and pause the simulation. The engine's parallel loops run in a TBB arena of all
// cores but one by default, so a heavy scene cannot starve the GUI thread and the renderer. This
// class has no Qt: the Qt side (SimBridge) and the tests (including a ThreadSanitizer build) drive
// it the same way.
#pragma once

#include <array>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/io/overrides.h"
#include "engine/model/model.h"
#include "engine/solvers/solver.h"
#include "engine/state/control.h"
#include "engine/state/state.h"
#include "engine/step/pipeline.h"
#include "engine/visual/visual_frame.h"
#include "ui/frame_mailbox.h"
#include "ui/structure_painter.h"
#include "ui/teleop_operator.h"

namespace sim::ui {

/// Commands from the GUI (values; applied by the worker between steps).
namespace command {
struct Play {};
struct Pause {};
/// Pauses and takes `steps` steps (→ key).
struct StepOnce {
  int steps = 1;
};
/// Back to the initial state of every lane, its drive targets the scene's again (Backspace), as a
/// fresh load; running or paused stays as it was.
struct Reset {};
/// Real time (`speed` sim seconds per wall second; 0.25 is slow motion) or as fast as possible.
struct SetPacing {
  bool real_time = true;
  double speed = 1.0;
};
/// Steps per published frame (≥ 1).
struct SetSubsteps {
  int substeps = 1;
};
/// Threads the engine may use inside a step (its TBB loops); ≤ 0: all cores but one, so the
/// GUI and the software renderer keep a core (at least 1).
struct SetThreads {
  int threads = 0;
};
/// A `--set` assignment ("solver.ncp=min", "gravity=0,0,-1", "materials.wood.friction=0.2"), or
/// "solver.name=NAME" to switch solvers, on lane `lane`, or on every lane when −1. The state
/// carries over; the solver is rebuilt.
struct SetOverride {
  int lane = -1;
  std::string assignment;
};
/// The lane every lane's divergence (StepSample::distance) is measured from.
struct SetReferenceLane {
  int lane = 0;
};
/// How compared lanes are drawn: side by side (lane k moved by k·lane_offset), or overlaid on
/// lane 0 with every other lane see-through in its colour (ghosts).
struct SetLaneLayout {
  bool overlaid = false;
};
/// Adds a compared lane running `config` (io::ParseSolverConfigs, one entry: "pgs",
/// "nsn:ncp=min"): branched from lane `from`'s current state and control (its model with the
/// config applied), or from the scene's initial state when `from` < 0. Running or paused stays.
struct AddLane {
  std::string config;
  int from = -1;
};
/// Removes lane `lane` (never the last one).
struct RemoveLane {
  int lane = 0;
};
/// Replaces the scene (all lanes) at the next step boundary. `configs` empty: one lane with the
/// scene's solver; otherwise one lane per config (io::ParseSolverConfigs). Lane k is drawn moved
/// by k·`lane_offset` [m] so compared lanes stand side by side.
struct LoadScene {
  std::shared_ptr<const Model> model;
  State initial_state;
  std::string path;
  std::vector<io::SolverConfig> configs;
  Vec3 lane_offset = Vec3::Zero();
  bool start_running = true;
  /// the scene file's key frames (sized for `model`), offered after the load
  std::vector<KeyFrame> key_frames;
};
/// The operator's drive target θ* of joint `joint` [rad or m] (a slider); NaN returns to the
/// model's target. The drive follows it at the joint's velocity limit (SetOperatorTarget). On
/// lane `lane`, or on every lane when −1.
struct SetJointTarget {
  int joint = -1;
  Real position = 0;
  int lane = -1;
};
/// Takes joint `joint`'s target over from the scene's script (`taken`), or hands it back: while
/// taken the script leaves the joint's target to SetJointTarget (Control::joint_taken).
struct SetJointTaken {
  int joint = -1;
  bool taken = true;
};
/// Saves every lane's state, control and drive targets as a key frame named `name` (empty:
/// "key N"), after the scene file's key frames.
struct SaveKeyFrame {
  std::string name;
};
/// Every lane continues from key frame `index` (SimSnapshot::key_frames); running or paused
/// stays as it was.
struct RestoreKeyFrame {
  int index = 0;
};
/// Selects what the ray (world, from the camera) hits first; nothing clears the selection.
struct Pick {
  Vec3 origin = Vec3::Zero();
  Vec3 direction = -Vec3::UnitZ();
};
/// Selects `body` (kWorldBody: none), e.g. from the scene tree.
struct SelectBody {
  int body = kWorldBody;
};
/// Grabs what the ray hits (a dynamic body or a particle/FEM node) with the mouse spring. The
/// spring pulls the grabbed point to where later rays cross the plane through the grabbed point
/// with normal `view_direction` (the camera's forward axis), MuJoCo's ctrl+drag.
struct BeginDrag {
  Vec3 origin = Vec3::Zero();
  Vec3 direction = -Vec3::UnitZ();
  Vec3 view_direction = -Vec3::UnitZ();
};
/// Moves the spring's target to where this ray crosses the drag plane.
struct MoveDrag {
  Vec3 origin = Vec3::Zero();
  Vec3 direction = -Vec3::UnitZ();
};
struct EndDrag {};
/// Starts a paint stroke of `brush` on the structure field the ray hits (lane 0's bodies: the
/// fields are shared by every lane), StructurePainter.
struct BeginPaint {
  Vec3 origin = Vec3::Zero();
  Vec3 direction = -Vec3::UnitZ();
  Brush brush;
};
/// Continues the stroke to where this ray hits.
struct PaintTo {
  Vec3 origin = Vec3::Zero();
  Vec3 direction = -Vec3::UnitZ();
};
struct EndPaint {};
struct UndoPaint {};
struct RedoPaint {};
/// Saves the painted fields as PNGs beside the scene and points the scene file at them.
struct SavePaint {};
/// A teleop device's action, applied by every lane at the next step (TeleopOperator).
struct Teleop {
  TeleopAction action;
};
/// Teleop mode on or off (the gizmo is drawn on end effector `active_target`, −1: none).
struct SetTeleopMode {
  bool on = false;
  int active_target = -1;
};
/// Makes `body` a teleop end effector of every lane (engine/teleop/teleop_pick.h): the models
/// get the target, state and control carry over. A body that is one already is left as it is.
struct TeleoperateBody {
  int body = kWorldBody;
};
/// Resets every lane (Reset) and records the teleop session from there.
struct StartRecording {};
/// Stops recording and writes the recording to `path` (empty: discards it); a write that fails
/// is a diagnostic.
struct StopRecording {
  std::string path;
};
/// Resets every lane (Reset) and replays `recording` (its scene loaded before), running, and
/// pauses at its end with the final state hash compared (TeleopStatus::message).
struct Replay {
  TeleopRecording recording;
};
}  // namespace command

using SimCommand =
    std::variant<command::Play, command::Pause, command::StepOnce, command::Reset,
                 command::SetPacing, command::SetSubsteps, command::SetThreads,
                 command::SetOverride, command::SetReferenceLane, command::SetLaneLayout,
                 command::AddLane, command::RemoveLane, command::LoadScene, command::SetJointTarget,
                 command::SetJointTaken, command::SaveKeyFrame, command::RestoreKeyFrame,
                 command::Pick, command::SelectBody, command::BeginDrag, command::MoveDrag,
                 command::EndDrag, command::BeginPaint, command::PaintTo, command::EndPaint,
                 command::UndoPaint, command::RedoPaint, command::SavePaint, command::Teleop,
                 command::SetTeleopMode, command::TeleoperateBody, command::StartRecording,
                 command::StopRecording, command::Replay>;

/// The figures of one step, kept for the per-step history plots and statistics.
struct StepSample {
  std::uint64_t step = 0;    ///< index of the step (state.step after it)
  double time = 0;           ///< simulated time after the step [s]
  double dt = 0;             ///< step size used [s]
  int outer_iterations = 0;  ///< Newton iterations (NSN), sweeps (PGS)
  int inner_iterations = 0;
  int contacts = 0;
  double total_ms = 0, collision_ms = 0, assembly_ms = 0, solve_ms = 0, integrate_ms = 0;
  double final_residual = 0;
  std::uint32_t status = kStepOk;
  /// divergence from the reference lane (SetReferenceLane) after this step: the farthest body
  /// or particle [m] (StateDistance; 0 for the reference itself)
  double distance = 0;
  double max_penetration = 0;  ///< [m]
  double max_joint_error = 0;  ///< [m]
  double energy = 0;           ///< MechanicalEnergy [J]
};


/// What the panels need of one lane.
struct LaneSnapshot {
  std::string label;       ///< solver name or the --compare entry
  SolverOptions settings;  ///< in effect
  std::shared_ptr<const Model> model;
  StepReport report;                ///< the last step's
  std::vector<StepSample> history;  ///< the last kHistoryLength steps, oldest first
  /// θ per joint [rad or m]; for ball, planar and fixed joints the angle between the joint's
  /// frames in the parent and in the child [rad] (a compliant weld's bend)
  std::vector<Real> joint_positions;
  std::vector<Real> joint_targets;  ///< commanded θ* per joint; NaN: the model's
  /// θ* the drives saw at the last step (the commanded one, rate-limited) [rad or m]
  std::vector<Real> drive_targets;
  std::vector<unsigned char> joint_taken;  ///< 1: taken over from the script (SetJointTaken)
  std::uint64_t state_hash = 0;            ///< StateHash of the lane's state
  double max_body_speed = 0;  ///< fastest body or particle since the load or reset [m/s]
  /// the lane failed (a non-finite step) and stopped while the others go on
  bool stopped = false;
  /// why the lane's solver refused the scene (the lane never steps), else empty
  std::string unsupported;
  /// where the viewport labels the lane, world [m] (compared lanes only; LaneLabelPoint)
  Vec3 label_W = Vec3::Zero();
  /// steps since the scene loaded or reset with each status bit set (bit order of StepStatus)
  std::array<std::uint64_t, kStepStatusBitCount> status_counts = {};
  std::uint64_t step = 0;
  double time = 0;
};

/// Everything the GUI reads from the worker, published as one unit.
struct SimSnapshot {
  std::uint64_t serial = 0;            ///< publish count (never 0 once published)
  std::uint64_t scene_generation = 0;  ///< bumps at every LoadScene the worker applied
  std::string scene_path;
  std::shared_ptr<const Model> model;  ///< lane 0's (null before the first scene)
  VisualFrame frame;                   ///< the drawn view: every lane, with selection and drag
  std::vector<LaneSnapshot> lanes;
  int reference_lane = 0;             ///< the lane divergences are measured from
  std::uint64_t lane_generation = 0;  ///< bumps whenever lanes are loaded, added or removed
  Vec3 lane_offset = Vec3::Zero();
  bool running = false;
  bool real_time = true;
  double speed = 1.0;
  int substeps = 1;
  int threads = 1;              ///< engine threads inside a step
  double real_time_factor = 0;  ///< simulated over wall seconds, recent average
  double steps_per_second = 0;  ///< recent average
  int selected_body = kWorldBody;
  int selected_particle = -1;
  PaintStatus paint;    ///< the structure painter's undo depth, unsaved fields and last message
  TeleopStatus teleop;  ///< lane 0's teleop targets, latency, recording and replay
  std::vector<std::string> key_frames;  ///< names of the key frames that can be restored
};

/// Where a step observer is called (tests check that commands land only between steps).
enum class StepPhase { kBefore, kAfter };

class SimWorker {
 public:
  /// Steps kept in LaneSnapshot::history.
  static constexpr int kHistoryLength = 600;
  /// Real-time pacing gives up catching up when it is this far behind [s].
  static constexpr double kMaxLagSeconds = 0.1;
  /// The mouse spring's stiffness per kilogram of the grabbed body [N/(m·kg)] = [1/s²] and its
  /// damping per kilogram [1/s]: ω = 10 rad/s, critically damped (ζ = 1). Scaling by the mass
  /// (MuJoCo's mjv_applyPerturbForce) makes light and heavy bodies follow alike.
  static constexpr Real kDragStiffness = 100;
  static constexpr Real kDragDamping = 20;

  SimWorker();
  ~SimWorker();  ///< stops and joins the thread
  SimWorker(const SimWorker&) = delete;
  SimWorker& operator=(const SimWorker&) = delete;

  /// Starts the thread (once).
  void Start();
  /// Stops and joins the thread; commands still queued are dropped.
  void Stop();

  /// Queues a command (any thread, never blocks on a step).
  void Send(SimCommand command);

  /// The newest snapshot published since the last call, or null (one reader thread). The reader
  /// owns the slot until its next call and may move out of it.
  SimSnapshot* TakeLatest() { return mailbox_.TakeLatest(); }

  /// Diagnostics raised since the last call (failed commands, step status), oldest first.
  std::vector<Diagnostic> TakeDiagnostics();

  /// Called on the worker thread before and after every step of every lane, with the lane's
  /// model and control as the step sees them. Set before Start(); for tests.
  using StepObserver =
      std::function<void(StepPhase phase, int lane, const Model& model, const Control& control)>;
  void SetStepObserverForTesting(StepObserver observer) { observer_ = std::move(observer); }

 private:
  struct Lane;
  struct Drag;

  void Run();
  void DrainCommands();
  void Apply(const SimCommand& command);
  void ApplyLoad(const command::LoadScene& load);
  void ApplyOverride(const command::SetOverride& set);
  // lane k runs `model` from now on, its state and control carried over; false (reported) when
  // the solver cannot be made for it
  bool ReplaceLaneModel(int k, std::shared_ptr<const Model> model);
  // a lane running `config` on `model` from `state`, null (reported) when it cannot; a compared
  // lane whose solver refuses the model is a stopped lane of the scene's own solver saying so
  std::unique_ptr<Lane> MakeLane(const std::shared_ptr<const Model>& model,
                                 const io::SolverConfig& config, const State& state, bool compared);
  void ApplyAddLane(const command::AddLane& add);
  void ApplyRemoveLane(const command::RemoveLane& remove);
  void ApplyTeleoperateBody(int body);
  void ApplyPick(const Vec3& origin, const Vec3& direction, bool grab, const Vec3& view);
  void StepLanes();
  void ApplyDragForces(Lane& lane);
  void Publish();
  void Report(Severity severity, const std::string& message);
  void Reanchor();
  // simulated time the pacing follows: the first lane still stepping's [s]
  double PacingTime() const;
  void ResetLanes();
  // forgets a lane's history, status counts and failure (a reset or key frame)
  void ClearLaneRecord(Lane* lane);
  void SaveKeyFrames(const std::string& name);
  void RestoreKeyFrames(int index);
  void ApplyRecordingStop(const std::string& path);

  // GUI → worker
  std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::vector<SimCommand> queue_;
  bool quit_ = false;

  // worker → GUI
  FrameMailbox<SimSnapshot> mailbox_;
  std::mutex diagnostics_mutex_;
  std::vector<Diagnostic> diagnostics_;

  // worker thread state (touched only by the worker once started)
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::unique_ptr<Drag> drag_;
  StructurePainter painter_;
  TeleopOperator teleop_;
  std::vector<std::string> lane0_overrides_;  // `--set` assignments lane 0 runs with
  std::string scene_path_;
  // key frames: per key, one per lane (the scene file's are the same for every lane)
  std::vector<std::vector<KeyFrame>> key_frames_;
  std::uint64_t scene_generation_ = 0;
  std::uint64_t serial_ = 0;
  Vec3 lane_offset_ = Vec3::Zero();
  bool lanes_overlaid_ = false;  ///< SetLaneLayout
  /// Where lane k is drawn relative to lane 0 [m]: k·lane_offset_, or 0 when overlaid.
  Vec3 LaneShift(int k) const { return lanes_overlaid_ ? Vec3::Zero() : Vec3(k * lane_offset_); }
  int reference_lane_ = 0;
  std::uint64_t lane_generation_ = 0;
  bool running_ = false;
  bool real_time_ = true;
  double speed_ = 1.0;
  int substeps_ = 1;
  int threads_ = 0;  // asked for (≤ 0: all cores but one)
  struct Arena;      // a tbb::task_arena (kept out of this header: TBB's `emit` clashes with Qt's)
  std::unique_ptr<Arena> arena_;
  int pending_steps_ = 0;
  bool dirty_ = true;
  int selected_body_ = kWorldBody;
  int selected_particle_ = -1;
  double wall_anchor_ = 0;  ///< wall clock [s] at which lane 0 had sim time sim_anchor_
  double sim_anchor_ = 0;
  double last_publish_ = -1;
  // rate meters over windows of ~0.5 s
  double meter_wall_ = 0;
  double meter_sim_ = 0;
  std::uint64_t meter_steps_ = 0;
  std::uint64_t steps_taken_ = 0;
  double real_time_factor_ = 0;
  double steps_per_second_ = 0;

  StepObserver observer_;
  std::thread thread_;
};

}  // namespace sim::ui
