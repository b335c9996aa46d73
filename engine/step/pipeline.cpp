#include "engine/step/pipeline.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/collision/collision.h"
#include "engine/core/stopwatch.h"
#include "engine/solvers/solver_registry.h"
#include "engine/step/contact_material.h"
#include "engine/step/integrator.h"
#include "engine/step/joint_script.h"
#include "engine/step/target_rate.h"

namespace sim {

const StepReport& StepOnce(const Model& model, Solver& solver, const Control& control, State* state,
                           StepWorkspace* workspace) {
  const Stopwatch step_watch;
  StepReport& report = workspace->report;
  report.Reset();
  const Real dt = model.options.solver.dt;

  // check input: never start from a non-finite or mismatched state
  if (!MatchesModel(*state, model) || !IsFinite(*state)) {
    report.status |= kStepNonFinite;
    report.message = "the input state is non-finite or does not match the model; step skipped";
    report.total_ms = step_watch.ElapsedMs();
    return report;
  }

  // collision: contacts of the start-of-step configuration (normals fixed for the step)
  const Stopwatch collision_watch;
  CollisionStats stats;
  DetectContacts(model, *state, model.options.solver.contact_margin, dt, &workspace->collision,
                 &workspace->contacts, &stats);
  // contact materials: each contact's friction and tangent frame (timed with the collision)
  AssignContactMaterials(model, *state, &workspace->contacts);
  AssignBounceVelocities(model, *state, dt, &workspace->contacts);
  const double collision_ms = collision_watch.ElapsedMs();

  // time integration: BDF2 is a backward-Euler step of 2Δt/3 from the extrapolated start, where
  // the history allows and no contact closes at speed (integrator.h); else backward Euler
  const bool bdf2 = model.options.solver.integrator == Integrator::kBdf2 &&
                    SolverClaims(solver.name(), kFeatureSecondOrder);
  bool impact = false;
  const State* start = state;
  Real solver_dt = dt;
  if (bdf2) {
    impact = FastestClosingSpeed(model, *state, dt, workspace->contacts) >
             model.options.solver.restitution_threshold;
    if (!impact && Bdf2Start(*state, dt, &workspace->start)) {
      start = &workspace->start;
      solver_dt = 2 * dt / 3;
    }
  }

  // solve: assembly, Newton iterations and integration happen inside the solver
  solver.Step(model, *start, control, workspace->contacts, solver_dt, &workspace->scratch, &report);
  report.integrator_order = start == state ? 1 : 2;
  report.collision_ms = collision_ms;
  if (workspace->contacts.overflowed) report.status |= kStepCapacityExceeded;
  if (stats.unsupported_pairs > 0) report.status |= kStepUnsupportedPair;

  // check output, then commit; a rejected step keeps the last good state
  if ((report.status & kStepNonFinite) || !IsFinite(workspace->scratch)) {
    report.status |= kStepNonFinite;
    if (report.message.empty()) {
      report.message = "the solver produced a non-finite state; step rejected, state kept";
    }
  } else {
    if (bdf2) {
      workspace->scratch.time = state->time + dt;
      RecordHistory(*state, dt, impact, &workspace->scratch);
    } else {
      workspace->scratch.history.successor_hash = 0;
    }
    std::swap(*state, workspace->scratch);
    // a diverging solve can stay finite for many steps: flag speeds no scene means
    Real fastest = 0;
    for (const Vec3& v : state->body_v_W) fastest = std::max(fastest, v.norm());
    for (const Vec3& v : state->particle_v_W) fastest = std::max(fastest, v.norm());
    report.max_speed = fastest;
    if (fastest > kRunawaySpeed) {
      report.status |= kStepRunaway;
      if (report.message.empty()) {
        report.message = "a body or particle moves at " + std::to_string(fastest) +
                         " m/s: the solve diverged (raise solver.linear_iterations, turn on "
                         "solver.line_search or lower solver.dt)";
      }
    }
  }
  report.total_ms = step_watch.ElapsedMs();
  return report;
}


Expected<std::unique_ptr<Simulation>> Simulation::Create(std::shared_ptr<const Model> model,
                                                         const State& initial_state,
                                                         const std::string& solver_name) {
  Diagnostics diagnostics;
  if (!MatchesModel(initial_state, *model)) {
    diagnostics.Error(model->name, 0, "", "the initial state does not match the model's sizes");
    return diagnostics;
  }
  Expected<std::unique_ptr<Solver>> solver = MakeSolver(solver_name, *model);
  if (!solver.ok()) return solver.diagnostics();
  std::unique_ptr<Simulation> simulation(new Simulation());
  simulation->model_ = std::move(model);
  simulation->solver_ = std::move(solver.value());
  simulation->initial_state_ = initial_state;
  simulation->state_ = initial_state;
  simulation->control_ = MakeControl(*simulation->model_);
  if (!simulation->model_->teleop_targets.empty()) {
    simulation->teleop_ = std::make_unique<TeleopSession>(*simulation->model_);
  }
  return Expected<std::unique_ptr<Simulation>>(std::move(simulation));
}


const StepReport& Simulation::Step() {
  // control: the operator's targets once engaged, else the scripted joint targets at the end of
  // the step (the drives are implicit: they act at t + dt)
  const Stopwatch control_watch;
  const Real dt = model_->options.solver.dt;
  if (teleop_) teleop_->Apply(*model_, state_, dt, &control_);
  if (!(teleop_ && teleop_->engaged()) && !model_->joint_script.empty()) {
    ApplyJointScript(*model_, state_.time + dt, &control_);
  }
  // the drives see the commanded targets at no more than each joint's maximum target speed
  LimitTargetRates(*model_, control_, dt, &drive_targets_, &drive_control_);
  const double control_ms = control_watch.ElapsedMs();
  StepOnce(*model_, *solver_, drive_control_, &state_, &workspace_);
  workspace_.report.control_ms = control_ms;
  return workspace_.report;
}


void Simulation::Reset() {
  // as freshly created (a new solver and workspace: no warm start or cache from the steps
  // before), so a run from the reset replays bit for bit what a new Simulation does
  state_ = initial_state_;
  drive_targets_.clear();
  drive_control_ = Control();
  Expected<std::unique_ptr<Solver>> solver = MakeSolver(std::string(solver_->name()), *model_);
  if (solver.ok()) solver_ = std::move(solver.value());
  workspace_ = StepWorkspace();
  if (teleop_) teleop_ = std::make_unique<TeleopSession>(*model_);
}


KeyFrame Simulation::SaveKeyFrame(std::string name) const {
  KeyFrame key;
  key.name = std::move(name);
  key.state = state_;
  key.control = control_;
  key.drive_targets = drive_targets_;
  return key;
}


void Simulation::RestoreKeyFrame(const KeyFrame& key) {
  // fresh solver and workspace as Reset makes them; the key frame brings the warm starts
  Reset();
  state_ = key.state;
  control_ = key.control;
  drive_targets_ = key.drive_targets;
}

}  // namespace sim
