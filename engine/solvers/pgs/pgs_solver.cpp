#include "engine/solvers/pgs/pgs_solver.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/core/stopwatch.h"
#include "engine/model/model.h"
#include "engine/solvers/substeps.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"
#include "engine/state/state.h"

namespace sim {

const SolverInfo kPgsSolverInfo = {
    "pgs",
    "projected Gauss-Seidel (sequential impulses) on the velocity level, the Bullet/PhysX/Box2D "
    "baseline; rigid bodies, joints, particles",
    kFeatureRigidBodies | kFeatureJoints | kFeatureContacts | kFeatureParticles |
        kFeatureCoulombFriction | kFeatureRestitution,
    PgsSettingsTable,
    [](const Model& model) -> std::unique_ptr<Solver> {
      return std::make_unique<SolverPgs>(model);
    },
};


void SolverPgs::SetUpRows(const PgsSettings& settings, Real dt) {
  const int rows = constraints_.row_count();
  rows_.assign(rows, RowSolve{});
  const bool split = settings.position_correction == PgsPositionCorrection::kSplitImpulse;
  const Real beta = settings.baumgarte;
  for (int i = 0; i < rows; ++i) {
    RowSolve& row = rows_[i];
    const Real mass_term = blocks_.EffectiveMass(constraints_.gradient(i), false);
    const Real value = constraints_.value(i);
    switch (constraints_.type(i)) {
      case RowType::kBilateral: {
        const BilateralInfo& info = constraints_.bilateral(i);
        Real error = value - info.target_position;
        if (info.angular_target) error = WrapAngle(error);
        if (std::isinf(info.stiffness)) {
          // rigid: remove β of the error per step through the velocity (Baumgarte; as in Bullet,
          // split impulse is for contacts: its unwarmed pseudo-velocity sweeps converge slowly on
          // a joint's coupled rows, 2.6 cm of drift on a 1 m pendulum at 20 sweeps, measured)
          row.target = -beta * error / dt;
        } else {
          // the implicit spring-damper of the row: J u + γ P = v* (NSN's compliant row)
          const Real denominator = info.stiffness * dt + info.damping;
          row.compliance = 1 / (dt * denominator);
          row.target =
              -(info.stiffness * error - info.damping * info.target_velocity) / denominator;
        }
        break;
      }
      case RowType::kUnilateral: {
        // a gap may close within the step (speculative contact); penetration beyond the slop
        // is removed at β per step
        const bool contact = i >= constraints_.contact_row_begin();
        if (value >= 0) {
          row.target = -value / dt;
        } else {
          const Real correction = beta * std::max(-value - settings.slop, Real(0)) / dt;
          (split && contact ? row.position_target : row.target) = correction;
        }
        // restitution: an impact leaves at its bounce speed (contact_material.h)
        if (contact) {
          const ContactInfo& info = constraints_.contact(i - constraints_.contact_row_begin());
          if (info.bounce_velocity > 0) row.target = std::max(row.target, info.bounce_velocity);
        }
        break;
      }
      case RowType::kFriction:
        break;  // stick: J u = 0 within the bound
    }
    const Real denominator = mass_term + row.compliance;
    row.effective_mass = denominator > 0 ? 1 / denominator : 0;
  }
}


Real SolverPgs::RowVelocity(const Row& row, bool pseudo) const {
  return pseudo ? RowDot(row, pseudo_v_.data(), pseudo_w_.data())
                : RowDot(row, blocks_.v.data(), blocks_.w.data());
}


void SolverPgs::ApplyImpulse(const Row& row, Real impulse, bool pseudo) {
  if (pseudo) {
    blocks_.AddImpulse(row, impulse, &pseudo_v_, &pseudo_w_);
  } else {
    blocks_.AddImpulse(row, impulse, &blocks_.v, &blocks_.w);
  }
}


void SolverPgs::WarmStart(const State& in, const PgsSettings& settings) {
  const WarmStartRecord* record = FindWarmStart(in, name());
  if (!settings.warm_start || record == nullptr) return;
  const Real dt = blocks_.dt();
  // joint, coupling and attachment rows by position (their layout is fixed by the model)
  const int joint_rows = constraints_.contact_row_begin();
  if (static_cast<int>(record->joint_rows.size()) == joint_rows) {
    for (int i = 0; i < joint_rows; ++i) impulse_[i] = record->joint_rows[i] * dt;
  }
  // contacts by key; friction from its world-frame force, onto this step's tangent frame
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const ContactInfo& info = constraints_.contact(c);
    const ContactImpulse* cached = FindContactImpulse(*record, info.key);
    if (cached == nullptr) continue;
    impulse_[constraints_.normal_row(c)] = cached->normal * dt;
    impulse_[constraints_.friction_row(c)] = cached->friction_W.dot(info.tangent) * dt;
    impulse_[constraints_.friction_row(c) + 1] = cached->friction_W.dot(info.bitangent) * dt;
  }
  for (int i = 0; i < constraints_.row_count(); ++i) {
    if (impulse_[i] != 0) ApplyImpulse(constraints_.gradient(i), impulse_[i], false);
  }
}


void ProjectOnFrictionEllipse(Real mass_t, Real mass_b, Real mu_t, Real mu_b, Real bound, Real* p_t,
                              Real* p_b) {
  if (!(bound > 0)) {
    *p_t = *p_b = 0;
    return;
  }
  // stationarity K(p − z) + ν A p = 0 gives p_i = k_i z_i / (k_i + ν a_i) with k_i = 1/m_i and
  // a_i = 1/μ_i²; in q_i = √a_i p_i = c_i / (λ_i + ν), c_i = √a_i z_i λ_i, λ_i = k_i / a_i, the
  // cone is |q| ≤ P_n: the trust-region secular equation, whose φ(ν) = 1/|q| − 1/P_n is
  // concave and increasing, so Newton from ν = 0 (outside: φ < 0) rises monotonically to the root
  const Real z[2] = {*p_t, *p_b};
  const Real mu[2] = {mu_t, mu_b};
  const Real mass[2] = {mass_t, mass_b};
  Real c[2], lambda[2];
  for (int i = 0; i < 2; ++i) {
    lambda[i] = mu[i] * mu[i] / mass[i];
    c[i] = z[i] / mu[i] * lambda[i];
  }
  const auto q = [&](Real nu, int i) { return c[i] / (lambda[i] + nu); };
  Real nu = 0;
  for (int iteration = 0; iteration < 30; ++iteration) {
    const Real q0 = q(nu, 0), q1 = q(nu, 1);
    const Real length = std::hypot(q0, q1);
    if (std::abs(length - bound) <= 1e-13 * bound) break;
    const Real slope =
        (q0 * q0 / (lambda[0] + nu) + q1 * q1 / (lambda[1] + nu)) / (length * length * length);
    nu = std::max<Real>(nu - (1 / length - 1 / bound) / slope, 0);
  }
  // back to impulses, exactly on the ellipse (the last step's round-off removed radially)
  const Real q0 = q(nu, 0), q1 = q(nu, 1);
  const Real length = std::hypot(q0, q1);
  const Real scale = length > 0 ? bound / length : 0;
  *p_t = mu_t * q0 * scale;
  *p_b = mu_b * q1 * scale;
}


Real SolverPgs::Sweep(IterationRecord* record) {
  Real largest = 0;
  Real merit = 0;
  Real largest_velocity_change = 0;
  const Real dt = blocks_.dt();
  // one row: ΔP = m (v* − J u − γ P), clamped by `clamp` on the accumulated impulse
  const auto solve_row = [&](int i, auto clamp) {
    const RowSolve& row = rows_[i];
    if (row.effective_mass == 0) return Real(0);
    const Row& gradient = constraints_.gradient(i);
    const Real residual = row.target - RowVelocity(gradient, false) - row.compliance * impulse_[i];
    const Real old = impulse_[i];
    impulse_[i] = clamp(old + row.effective_mass * residual);
    const Real change = impulse_[i] - old;
    if (change != 0) ApplyImpulse(gradient, change, false);
    largest = std::max(largest, std::abs(change));
    largest_velocity_change =
        std::max(largest_velocity_change, std::abs(change) / row.effective_mass);
    merit += residual * residual;
    return residual;
  };
  // a row whose accumulated impulse is boxed in ±bound: its residual counts in `error` only
  // inside the box (at the bound the row has nothing left to meet)
  const auto solve_boxed = [&](int i, Real bound, Real* error) {
    const Real residual = solve_row(i, [bound](Real p) { return std::clamp(p, -bound, bound); });
    if (std::abs(impulse_[i]) < bound) *error = std::max(*error, std::abs(residual));
  };
  const auto non_negative = [](Real p) { return std::max(p, Real(0)); };

  // joints, couplings and attachments (limits are unilateral, joint friction boxed)
  for (int i = 0; i < constraints_.contact_row_begin(); ++i) {
    switch (constraints_.type(i)) {
      case RowType::kBilateral:
        // a drive's impulse within its force limit (a saturated motor; +inf for other rows)
        solve_boxed(i, constraints_.bilateral(i).force_limit * dt, &record->bilateral_error);
        break;
      case RowType::kUnilateral: {
        const Real residual = solve_row(i, non_negative);
        const Real violation = impulse_[i] > 0 ? std::abs(residual) : std::max(residual, Real(0));
        record->normal_error = std::max(record->normal_error, violation);
        break;
      }
      case RowType::kFriction:
        solve_boxed(i, constraints_.bilateral(i).friction_limit * dt, &record->friction_error);
        break;
    }
  }

  // contacts: the friction pair inside the cone of the current normal impulse, then the normal
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const ContactInfo& info = constraints_.contact(c);
    const int n = constraints_.normal_row(c);
    const int f = constraints_.friction_row(c);
    if (info.mu_t > 0 && info.mu_b > 0 && rows_[f].effective_mass > 0 &&
        rows_[f + 1].effective_mass > 0) {
      const Row& tangent = constraints_.gradient(f);
      const Row& bitangent = constraints_.gradient(f + 1);
      const Real slip_t = RowVelocity(tangent, false);
      const Real slip_b = RowVelocity(bitangent, false);
      Real p_t = impulse_[f] - rows_[f].effective_mass * slip_t;
      Real p_b = impulse_[f + 1] - rows_[f + 1].effective_mass * slip_b;
      // the elliptic cone (P_t/μ_t)² + (P_b/μ_b)² ≤ P_n² (digest §2.12, [T eq 28, 32])
      const Real bound = impulse_[n];
      const bool sliding = std::hypot(p_t / info.mu_t, p_b / info.mu_b) > bound;
      if (sliding) {
        ProjectOnFrictionEllipse(rows_[f].effective_mass, rows_[f + 1].effective_mass, info.mu_t,
                                 info.mu_b, bound, &p_t, &p_b);
      } else {
        record->friction_error = std::max(record->friction_error, std::hypot(slip_t, slip_b));
      }
      const Real change_t = p_t - impulse_[f];
      const Real change_b = p_b - impulse_[f + 1];
      impulse_[f] = p_t;
      impulse_[f + 1] = p_b;
      ApplyImpulse(tangent, change_t, false);
      ApplyImpulse(bitangent, change_b, false);
      largest = std::max({largest, std::abs(change_t), std::abs(change_b)});
      largest_velocity_change =
          std::max({largest_velocity_change, std::abs(change_t) / rows_[f].effective_mass,
                    std::abs(change_b) / rows_[f + 1].effective_mass});
      merit += slip_t * slip_t + slip_b * slip_b;
    } else {
      // no friction: release what a warm start may have put there
      for (int k = 0; k < 2; ++k) {
        if (impulse_[f + k] != 0)
          ApplyImpulse(constraints_.gradient(f + k), -impulse_[f + k], false);
        impulse_[f + k] = 0;
      }
    }
    const Real residual = solve_row(n, non_negative);
    const Real violation = impulse_[n] > 0 ? std::abs(residual) : std::max(residual, Real(0));
    record->normal_error = std::max(record->normal_error, violation);
  }
  record->merit = std::sqrt(merit);
  record->step_size = largest_velocity_change;
  return largest;
}


void SolverPgs::SolvePositions(int sweeps) {
  // pseudo-velocities that move positions only: rigid rows and penetrating contacts/limits
  const int rows = constraints_.row_count();
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (int i = 0; i < rows; ++i) {
      const RowSolve& row = rows_[i];
      const RowType type = constraints_.type(i);
      if (type == RowType::kFriction || row.effective_mass == 0 || row.compliance > 0) continue;
      if (row.position_target == 0 && position_impulse_[i] == 0) continue;
      const Row& gradient = constraints_.gradient(i);
      const Real old = position_impulse_[i];
      Real next = old + row.effective_mass * (row.position_target - RowVelocity(gradient, true));
      if (type == RowType::kUnilateral) next = std::max(next, Real(0));
      position_impulse_[i] = next;
      if (next != old) ApplyImpulse(gradient, next - old, true);
    }
  }
}


void SolverPgs::Step(const Model& model, const State& in, const Control& control,
                     Contacts& contacts, Real dt, State* out, StepReport* report) {
  report->Reset();
  const PgsSettings settings = ReadPgsSettings(model.options.solver);
  Stopwatch stopwatch;

  // rows at q⁻, u starting at the unconstrained velocity ũ
  blocks_.Begin(model, in, control, dt);
  constraints_.Begin(model, control, contacts, blocks_.body_count());
  constraints_.Evaluate(blocks_);
  blocks_.v = blocks_.v_tilde;
  blocks_.w = blocks_.w_tilde;
  SetUpRows(settings, dt);
  const int rows = constraints_.row_count();
  impulse_.assign(rows, 0);
  WarmStart(in, settings);
  report->assembly_ms = stopwatch.ElapsedMs();

  // sweeps: each one a record of the residuals it met (velocity level [m/s])
  stopwatch.Restart();
  // past `iterations` only while a sweep still moves some row's velocity (record.step_size)
  const int most_sweeps = std::max(settings.iterations, settings.max_iterations);
  for (int sweep = 0; sweep < most_sweeps; ++sweep) {
    IterationRecord record;
    record.inner_begin = static_cast<int>(report->inner_residuals.size());
    const Real largest_change = Sweep(&record);
    report->iterations.push_back(record);
    ++report->outer_iterations;
    if (settings.tolerance > 0 && largest_change <= settings.tolerance) break;
    if (sweep + 1 >= settings.iterations && record.step_size <= settings.extra_sweep_tolerance) {
      break;
    }
    if (settings.tolerance > 0 && sweep + 1 == most_sweeps) {
      report->status |= kStepMaxIterations;
    }
  }
  // split impulse: positions move by u + u_pseudo, the velocities keep u
  const bool split = settings.position_correction == PgsPositionCorrection::kSplitImpulse;
  if (split) {
    pseudo_v_.assign(blocks_.count(), Vec3::Zero());
    pseudo_w_.assign(blocks_.count(), Vec3::Zero());
    position_impulse_.assign(rows, 0);
    SolvePositions(settings.iterations);
    kept_v_ = blocks_.v;
    kept_w_ = blocks_.w;
    for (int k = 0; k < blocks_.count(); ++k) {
      blocks_.v[k] += pseudo_v_[k];
      blocks_.w[k] += pseudo_w_[k];
    }
  }
  report->solve_ms = stopwatch.ElapsedMs();

  // integrate, then the quality figures at the new configuration
  stopwatch.Restart();
  blocks_.UpdatePositions();
  if (split) {
    blocks_.v.swap(kept_v_);
    blocks_.w.swap(kept_w_);
  }
  if (!blocks_.IsFinite()) {
    report->status |= kStepNonFinite;
    report->message = "the PGS velocities became non-finite; the step was rejected";
    *out = in;
    return;
  }
  constraints_.Evaluate(blocks_);
  blocks_.WriteState(model, in, out);
  WriteWarmStart(in, out);
  int active = 0;
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    Contact& contact = contacts.items[c];
    contact.normal_force = impulse_[constraints_.normal_row(c)] / dt;
    contact.friction_force[0] = impulse_[constraints_.friction_row(c)] / dt;
    contact.friction_force[1] = impulse_[constraints_.friction_row(c) + 1] / dt;
    contact.gap = constraints_.contact(c).gap;
    active += contact.normal_force > 0;
  }
  report->integrate_ms = stopwatch.ElapsedMs();

  FillRowFigures(constraints_, contacts.count(), report);
  report->active_contact_count = active;
  if (!report->iterations.empty()) {
    const IterationRecord& last = report->iterations.back();
    MarkUnconverged(std::max({last.normal_error, last.friction_error, last.bilateral_error}),
                    settings.unconverged_velocity, "the last sweep met a row velocity residual of",
                    "m/s", "pgs.unconverged_velocity", report);
  }
}


void SolverPgs::WriteWarmStart(const State& in, State* out) const {
  WarmStartRecord& record = CarryWarmStarts(in, name(), out);
  const Real dt = blocks_.dt();
  const int joint_rows = constraints_.contact_row_begin();
  record.joint_rows.resize(joint_rows);
  for (int i = 0; i < joint_rows; ++i) record.joint_rows[i] = impulse_[i] / dt;
  record.element_rows.clear();
  record.contacts.clear();
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const Real normal = impulse_[constraints_.normal_row(c)] / dt;
    if (!(normal > 0)) continue;  // separated: nothing worth carrying over
    const ContactInfo& info = constraints_.contact(c);
    ContactImpulse impulse;
    impulse.key = info.key;
    impulse.normal = normal;
    impulse.friction_W = (impulse_[constraints_.friction_row(c)] * info.tangent +
                          impulse_[constraints_.friction_row(c) + 1] * info.bitangent) /
                         dt;
    record.contacts.push_back(impulse);
  }
  SortContactImpulses(&record.contacts);
}

}  // namespace sim
