#include "engine/solvers/pbti/pbti_solver.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>

#include "engine/core/stopwatch.h"
#include "engine/model/model.h"
#include "engine/solvers/substeps.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"
#include "engine/state/state.h"

namespace sim {
namespace {

// central-difference step of G = ∂g/∂θ [m or rad]
constexpr Real kDifferenceStep = 1e-6;
// λ tries per iteration before the step is called stalled
constexpr int kDampingTries = 12;

}  // namespace

const SolverInfo kPbtiSolverInfo = {
    "pbti",
    "position-based frictional articulated integrator (PBFD, Pan & Manocha): reduced coordinates "
    "of kinematic trees, power-law contact and position-based friction, Levenberg-Marquardt on "
    "the force residual; rigid bodies and trees of revolute, prismatic and fixed joints",
    kFeatureRigidBodies | kFeatureJoints | kFeatureContacts,
    PbtiSettingsTable,
    [](const Model& model) -> std::unique_ptr<Solver> {
      return std::make_unique<SolverPbti>(model);
    },
    [](const Model& model) { return Articulation::Check(model, "pbti"); },
};


void SolverPbti::AddRow(const Row& row, Real scale, Eigen::VectorXd* g) const {
  for (const RowEnd& e : row.end) {
    if (e.block < 0 || e.block >= blocks_.body_count() || blocks_.fixed[e.block]) continue;
    const int r = 6 * e.block;
    g->noalias() += scale * (jacobian_.middleRows<3>(r).transpose() * e.lin +
                             jacobian_.middleRows<3>(r + 3).transpose() * e.ang);
  }
}


Real SolverPbti::NormalForce(const PbtiSettings& settings, int c) const {
  const Real depth = std::max(-constraints_.value(constraints_.normal_row(c)), Real(0));
  return depth > 0 ? settings.normal_stiffness * std::pow(depth, settings.normal_exponent) : 0;
}


Vec3 SolverPbti::FrictionForce(const PbtiSettings& settings, int c) const {
  // f^∥ of eq. (12) in the contact's tangent frame: (t, b, unused)
  const ContactInfo& info = constraints_.contact(c);
  const Real depth = std::max(-constraints_.value(constraints_.normal_row(c)), Real(0));
  if (!(depth > 0)) return Vec3::Zero();
  // the contact point's displacement over the step on each side, Δp = p(θ) − p(θ_n)
  const auto displacement = [&](int block, const Vec3& p) -> Vec3 {
    if (block < 0 || block >= blocks_.body_count() || blocks_.fixed[block]) return Vec3::Zero();
    return blocks_.x[block] + blocks_.q[block] * p - start_pose_[block] * p;
  };
  const Vec3 slip = displacement(info.block_a, info.p_a) - displacement(info.block_b, info.p_b);
  const Real s_t = info.tangent.dot(slip), s_b = info.bitangent.dot(slip);
  const Real length = std::hypot(s_t, s_b);
  if (!(length > 0)) return Vec3::Zero();
  const Real power = settings.friction_form == PbtiFrictionForm::kPrinted
                         ? settings.friction_exponent
                         : settings.friction_exponent - 1;
  const Real magnitude = (settings.friction_exponent + 1) * settings.friction_scale *
                         std::pow(length, power) * std::pow(depth, settings.depth_exponent + 1);
  return Vec3(-magnitude * info.mu_t * s_t, -magnitude * info.mu_b * s_b, 0);
}


void SolverPbti::Residual(const PbtiSettings& settings, const ArticulationConfig& config,
                          Eigen::VectorXd* residual) {
  const int n = articulation_.dof_count();
  const int bodies = blocks_.body_count();
  articulation_.Poses(config, start_pose_, &poses_);
  articulation_.Jacobian(poses_, &jacobian_);
  for (int b = 0; b < bodies; ++b) {
    blocks_.x[b] = poses_[b].p;
    blocks_.q[b] = poses_[b].q;
  }
  constraints_.Evaluate(blocks_);
  Eigen::VectorXd& g = *residual;
  g.setZero(n);
  const Real inv_dt2 = 1 / (dt_ * dt_);
  for (int b = 0; b < bodies; ++b) {
    if (blocks_.fixed[b]) continue;
    const int r = 6 * b;
    // ∂I/∂θ with gravity and the control's force folded into ũ: m (x − x_n − Δt ũ)/Δt²
    const Vec3 force =
        blocks_.mass[b] * inv_dt2 * (poses_[b].p - start_pose_[b].p - dt_ * blocks_.v_tilde[b]);
    // the rotation part tr(ΔR S ΔRᵀ)/(2Δt²) about the COM, S = ∫ρ x xᵀ = ½ tr(I) 1 − I: its
    // derivative along a world rotation ω is tr([ω] A), A = R S ΔRᵀ, i.e. ω · τ with τ below
    const Mat3& inertia = articulation_.model()->body_inertia[b];
    const Mat3 second_moment = Real(0.5) * inertia.trace() * Mat3::Identity() - inertia;
    const Mat3 R = poses_[b].q.toRotationMatrix();
    const Mat3 delta_R = R - 2 * start_pose_[b].q.toRotationMatrix() + previous_R_[b];
    const Mat3 A = R * second_moment * delta_R.transpose();
    Vec3 torque = inv_dt2 * Vec3(A(1, 2) - A(2, 1), A(2, 0) - A(0, 2), A(0, 1) - A(1, 0));
    if (b < static_cast<int>(control_->body_torque_W.size())) {
      torque -= control_->body_torque_W[b];
    }
    g.noalias() += jacobian_.middleRows<3>(r).transpose() * force +
                   jacobian_.middleRows<3>(r + 3).transpose() * torque;
  }
  // drives and limits; rigid joint rows hold by construction in reduced coordinates
  for (int i = 0; i < constraints_.contact_row_begin(); ++i) {
    const Real c = constraints_.value(i);
    if (constraints_.type(i) == RowType::kUnilateral) {
      if (c < 0) AddRow(constraints_.gradient(i), settings.limit_stiffness * c, &g);
      continue;
    }
    const BilateralInfo& info = constraints_.bilateral(i);
    if (constraints_.type(i) != RowType::kBilateral || std::isinf(info.stiffness)) continue;
    Real error = c - info.target_position;
    if (info.angular_target) error = WrapAngle(error);
    const Real rate = (c - start_value_[i]) / dt_ - info.target_velocity;
    // the drive's force, saturated at its limit ±f_max (a motor's effort)
    const Real force = std::clamp(info.stiffness * error + info.damping * rate, -info.force_limit,
                                  info.force_limit);
    AddRow(constraints_.gradient(i), force, &g);
  }
  // contacts: −C^⊥ d^α ∂C_n/∂θ (eq. 8, 9) and −C^∥ J_cᵀ f^∥ (eq. 12, 13)
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const Real normal = NormalForce(settings, c);
    if (normal == 0) continue;
    AddRow(constraints_.gradient(constraints_.normal_row(c)), -normal, &g);
    const Vec3 friction = FrictionForce(settings, c);
    const int f = constraints_.friction_row(c);
    AddRow(constraints_.gradient(f), -friction.x(), &g);
    AddRow(constraints_.gradient(f + 1), -friction.y(), &g);
  }
}


void SolverPbti::GroupDifferenceColumns(const PbtiSettings& settings) {
  const int n = articulation_.dof_count();
  const int bodies = blocks_.body_count();
  // the bodies each coordinate moves (the Jacobian's structure at θ_n, rows evaluated there)
  std::vector<std::vector<int>> moved(n);
  for (int k = 0; k < n; ++k) {
    for (int b = 0; b < bodies; ++b) {
      if (!jacobian_.block(6 * b, k, 6, 1).isZero(0)) moved[k].push_back(b);
    }
  }
  // each body and the bodies a row couples it to (joints, drives, limits, contacts)
  std::vector<std::vector<char>> coupled(bodies, std::vector<char>(bodies, 0));
  for (int b = 0; b < bodies; ++b) coupled[b][b] = 1;
  for (int i = 0; i < constraints_.row_count(); ++i) {
    const Row& row = constraints_.gradient(i);
    for (const RowEnd& a : row.end) {
      for (const RowEnd& c : row.end) {
        if (a.block >= 0 && c.block >= 0 && a.block < bodies && c.block < bodies) {
          coupled[a.block][c.block] = 1;
        }
      }
    }
  }
  // g_i reads the poses of the bodies coordinate i moves and of those coupled to them, so
  // coordinate k reaches g_i when it moves one of them
  column_rows_.assign(n, {});
  std::vector<char> reach(bodies);
  for (int i = 0; i < n; ++i) {
    std::fill(reach.begin(), reach.end(), 0);
    for (const int b : moved[i]) {
      for (int c = 0; c < bodies; ++c) reach[c] |= coupled[b][c];
    }
    for (int k = 0; k < n; ++k) {
      const bool touches =
          !settings.grouped_differences ||
          std::any_of(moved[k].begin(), moved[k].end(), [&](int b) { return reach[b] != 0; });
      if (touches) column_rows_[k].push_back(i);
    }
  }
  // greedy colouring: a column joins the first group none of whose columns shares a row with it
  difference_groups_.clear();
  std::vector<std::vector<char>> row_taken;
  for (int k = 0; k < n; ++k) {
    std::size_t group = 0;
    for (; group < difference_groups_.size(); ++group) {
      const std::vector<char>& taken = row_taken[group];
      if (std::none_of(column_rows_[k].begin(), column_rows_[k].end(),
                       [&](int i) { return taken[i] != 0; })) {
        break;
      }
    }
    if (group == difference_groups_.size()) {
      difference_groups_.emplace_back();
      row_taken.emplace_back(n, 0);
    }
    difference_groups_[group].push_back(k);
    for (const int i : column_rows_[k]) row_taken[group][i] = 1;
  }
}


void SolverPbti::Step(const Model& model, const State& in, const Control& control,
                      Contacts& contacts, Real dt, State* out, StepReport* report) {
  report->Reset();
  const PbtiSettings settings = ReadPbtiSettings(model.options.solver);
  Stopwatch stopwatch;
  if (articulation_.model() != &model) articulation_ = Articulation(model);
  dt_ = dt;
  control_ = &control;
  blocks_.Begin(model, in, control, dt);
  constraints_.Begin(model, control, contacts, blocks_.body_count());
  const int bodies = blocks_.body_count();
  const int n = articulation_.dof_count();

  // θ_n and the history eq. (5) needs: x_{n−1} = x_n − Δt v_n, R_{n−1} = exp(−Δt[ω_n]) R_n
  ArticulationConfig config = articulation_.FromState(in);
  articulation_.Poses(config, in.body_X_WB, &poses_);
  start_pose_ = poses_;
  previous_R_.resize(bodies);
  Real weight = 0;
  for (int b = 0; b < bodies; ++b) {
    const Vec3 turn = -dt * in.body_w_W[b];
    const Real angle = turn.norm();
    const Quat back = angle > 0 ? Quat(Eigen::AngleAxisd(angle, turn / angle)) : Quat::Identity();
    previous_R_[b] = (back * start_pose_[b].q).toRotationMatrix();
    if (!blocks_.fixed[b]) weight += blocks_.mass[b];
  }
  const Real g_norm = model.options.gravity.norm();
  weight *= g_norm > 0 ? g_norm : 1;
  for (int b = 0; b < bodies; ++b) {
    blocks_.x[b] = start_pose_[b].p;
    blocks_.q[b] = start_pose_[b].q;
  }
  constraints_.Evaluate(blocks_);
  start_value_.resize(constraints_.row_count());
  for (int i = 0; i < constraints_.row_count(); ++i) start_value_[i] = constraints_.value(i);
  report->assembly_ms = stopwatch.ElapsedMs();
  stopwatch.Restart();

  // JTJ-LM on GE = ½‖g‖², eq. (14); the matrices and vectors are members, sized once per scene
  Eigen::VectorXd& g = residual_;
  Residual(settings, config, &g);
  GroupDifferenceColumns(settings);
  Real lambda = settings.damping;
  G_.resize(n, n);
  for (int it = 0; g.allFinite(); ++it) {
    IterationRecord record;
    record.normal_error = n > 0 ? g.lpNorm<Eigen::Infinity>() : 0;
    record.merit = g.norm();
    record.inner_begin = static_cast<int>(report->inner_residuals.size());
    if (it == settings.iterations || record.normal_error <= settings.tolerance * weight) {
      report->iterations.push_back(record);
      break;
    }
    // columns of one group share the residual evaluations (their rows do not overlap)
    for (const std::vector<int>& group : difference_groups_) {
      step_.setZero(n);
      for (const int k : group) step_[k] = kDifferenceStep;
      articulation_.Retract(config, step_, 1, &probe_);
      Residual(settings, probe_, &plus_);
      articulation_.Retract(config, step_, -1, &probe_);
      Residual(settings, probe_, &minus_);
      for (const int k : group) {
        G_.col(k).setZero();
        for (const int i : column_rows_[k]) {
          G_(i, k) = (plus_[i] - minus_[i]) / (2 * kDifferenceStep);
        }
      }
    }
    // a root's rotation coordinates are a chart at the iterate: g at a turned root is in the
    // turned root's chart, g_chart(φ) = J_l(φ)ᵀ g(φ) with J_l = 1 + ½[φ]× + O(φ²), which adds
    // ½[τ]× to its block (τ the rotation part of g)
    for (int b = 0; b < bodies; ++b) {
      const int r = articulation_.root_dof(b);
      if (r < 0) continue;
      const Vec3 tau = g.segment<3>(r + 3);
      Mat3 cross;
      cross << 0, -tau.z(), tau.y(), tau.z(), 0, -tau.x(), -tau.y(), tau.x(), 0;
      G_.block<3, 3>(r + 3, r + 3) += Real(0.5) * cross;
    }
    normal_.noalias() = G_.transpose() * G_;
    rhs_.noalias() = G_.transpose() * g;
    // λ I as in eq. (14), λ relative to GᵀG's largest diagonal entry (Nielsen): it damps the
    // soft modes (a link lifting off, resisted by its inertia m/Δt² only) without slowing the
    // stiff contact modes, which a per-coordinate (Marquardt) scaling would damp alike (that
    // left |g| at 1 % of the weight on the slope chain at Δt = 0.1 s, measured)
    const Real scale = std::max(normal_.diagonal().maxCoeff(), Real(1e-300));
    const Real objective = g.squaredNorm();
    bool accepted = false;
    for (int tries = 0; tries < kDampingTries && !accepted; ++tries) {
      damped_ = normal_;
      damped_.diagonal().array() += lambda * scale;
      delta_ = ldlt_.compute(damped_).solve(rhs_);
      articulation_.Retract(config, delta_, -1, &probe_);
      Residual(settings, probe_, &trial_);
      report->inner_residuals.push_back(trial_.norm());
      ++record.inner_count;
      if (trial_.allFinite() && trial_.squaredNorm() < objective) {
        std::swap(config, probe_);
        g.swap(trial_);
        record.step_size = delta_.lpNorm<Eigen::Infinity>() / dt;
        lambda /= settings.damping_factor;
        accepted = true;
      } else {
        lambda *= settings.damping_factor;
      }
    }
    report->inner_iterations += record.inner_count;
    report->iterations.push_back(record);
    if (!accepted) break;  // stalled: a stationary point of GE (or the λ range exhausted)
    ++report->outer_iterations;
  }
  // the accepted iterate, rows evaluated there
  Residual(settings, config, &g);
  report->solve_ms = stopwatch.ElapsedMs();
  stopwatch.Restart();
  if (!g.allFinite()) {
    report->status |= kStepNonFinite;
    report->message = "the PBFD iterate became non-finite; the step was rejected";
    *out = in;
    return;
  }
  // the average velocities of eq. (3)
  for (int b = 0; b < bodies; ++b) {
    if (blocks_.fixed[b]) continue;
    blocks_.v[b] = (poses_[b].p - start_pose_[b].p) / dt;
    const Eigen::AngleAxisd turn(poses_[b].q * start_pose_[b].q.conjugate());
    blocks_.w[b] = turn.angle() / dt * turn.axis();
  }
  blocks_.WriteState(model, in, out);
  CarryOtherWarmStarts(in, name(), out);
  WriteContacts(settings, &contacts);
  report->integrate_ms = stopwatch.ElapsedMs();

  FillRowFigures(constraints_, contacts.count(), report);
  int active = 0;
  for (int c = 0; c < constraints_.contact_count(); ++c) active += NormalForce(settings, c) > 0;
  report->active_contact_count = active;
  MarkUnconverged(n > 0 ? g.lpNorm<Eigen::Infinity>() / weight : 0, settings.unconverged_residual,
                  "the force residual |g|inf over the weight is", "", "pbti.unconverged_residual",
                  report);
}


void SolverPbti::WriteContacts(const PbtiSettings& settings, Contacts* contacts) const {
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    Contact& contact = contacts->items[c];
    const Vec3 friction = FrictionForce(settings, c);
    contact.normal_force = NormalForce(settings, c);
    contact.friction_force[0] = friction.x();
    contact.friction_force[1] = friction.y();
    contact.gap = constraints_.contact(c).gap;
  }
}

}  // namespace sim
