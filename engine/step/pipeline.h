// The step pipeline: one step is a short list of named, timed stages (MuJoCo's mj_step, style
// anchors §3.4):
//   check input → collision → contact materials → solve (assembly, Newton, integration inside
//   the solver) → check output → commit or roll back.
// A non-finite input or result never reaches the caller's state: the step is rejected, the last
// good state kept, and kStepNonFinite reported.
#pragma once

#include <memory>
#include <string>

#include "engine/collision/collision.h"
#include "engine/core/diagnostics.h"
#include "engine/model/model.h"
#include "engine/solvers/solver.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"
#include "engine/state/state.h"
#include "engine/step/key_frame.h"
#include "engine/teleop/teleop_session.h"

namespace sim {

/// Speed above which a body or particle is taken for a diverged solve (kStepRunaway) [m/s]: three
/// times the speed of sound in air, beyond anything a robotics scene means to simulate.
inline constexpr Real kRunawaySpeed = 1000;

/// Buffers a step needs besides the caller's State; sized on the first step and reused.
struct StepWorkspace {
  CollisionWorkspace collision;
  Contacts contacts;
  State scratch;  ///< the solver writes here; swapped into the caller's state on success
  State start;    ///< the BDF2 start (q̂, û) of the step, when it has one
  StepReport report;
};

/// Advances `*state` by model.options.solver.dt with `solver`. Returns the workspace's report.
const StepReport& StepOnce(const Model& model, Solver& solver, const Control& control, State* state,
                           StepWorkspace* workspace);

/// A scene being simulated by one solver: model, state, control and workspace together. The
/// studio's worker and `contact-sim run/compare/bench` drive this.
class Simulation {
 public:
  /// Fails (with diagnostics) when the solver name is unknown or the state does not match.
  static Expected<std::unique_ptr<Simulation>> Create(std::shared_ptr<const Model> model,
                                                      const State& initial_state,
                                                      const std::string& solver_name);

  /// The control stage, then one step: the operator's teleop actions once engaged (teleop()),
  /// else the model's joint script (if any, but not on joints the user has taken) at the step's
  /// end time, write into control(); the targets the drives see follow it at each joint's
  /// maximum target speed (drive_control(), engine/step/target_rate.h); then the state advances
  /// by one step.
  const StepReport& Step();
  /// Back to the initial state with a fresh solver and workspace (as Create made them), the
  /// control kept, the drives' targets the model's, teleop disengaged.
  void Reset();

  /// The state, control and drive targets now, named `name`.
  KeyFrame SaveKeyFrame(std::string name) const;
  /// Continues from `key` (sized for this model: MatchesModel) with a fresh solver and
  /// workspace, as Reset does, so stepping from it replays what stepping from where it was saved
  /// did; teleop disengaged.
  void RestoreKeyFrame(const KeyFrame& key);

  /// The operator's session on the model's teleop targets; null when the model declares none.
  TeleopSession* teleop() { return teleop_.get(); }
  const TeleopSession* teleop() const { return teleop_.get(); }

  const Model& model() const { return *model_; }
  const std::shared_ptr<const Model>& model_ptr() const { return model_; }
  const State& state() const { return state_; }
  void set_state(const State& state) { state_ = state; }
  Control& control() { return control_; }
  const Control& control() const { return control_; }
  /// The control the last step saw: control() with the drive targets rate-limited.
  const Control& drive_control() const { return drive_control_; }
  const Contacts& contacts() const { return workspace_.contacts; }
  const StepReport& report() const { return workspace_.report; }
  Solver& solver() { return *solver_; }
  const Solver& solver() const { return *solver_; }

 private:
  Simulation() = default;
  std::shared_ptr<const Model> model_;
  std::unique_ptr<Solver> solver_;
  State initial_state_;
  State state_;
  Control control_;
  Control drive_control_;
  std::vector<Real> drive_targets_;  // the drives' targets at the last step; empty: the model's
  StepWorkspace workspace_;
  std::unique_ptr<TeleopSession> teleop_;
};

}  // namespace sim
