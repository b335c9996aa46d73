#include "engine/solvers/dual/dual_solver.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/core/stopwatch.h"
#include "engine/model/model.h"
#include "engine/solvers/pgs/pgs_solver.h"
#include "engine/solvers/substeps.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"
#include "engine/state/state.h"

namespace sim {

const SolverInfo kDualSolverInfo = {
    "dual",
    "dual ascent (XPBD): Jacobi multiplier updates with mass splitting, hard contact and friction "
    "(Macklin 2020 ch. 5, Algorithm 3); rigid bodies, joints, particles",
    kFeatureRigidBodies | kFeatureJoints | kFeatureContacts | kFeatureParticles |
        kFeatureCoulombFriction | kFeatureRestitution,
    DualSettingsTable,
    [](const Model& model) -> std::unique_ptr<Solver> {
      return std::make_unique<SolverDual>(model);
    },
};


bool SolverDual::StartsConstraint(int i) const {
  const int attachments = constraints_.attachment_row_begin();
  const int contacts = constraints_.contact_row_begin();
  return i == 0 || i == attachments || i >= contacts ||
         (i < attachments && constraints_.joint(i) != constraints_.joint(i - 1)) ||
         (i > attachments && (i - attachments) % 3 == 0);
}


void SolverDual::CountConstraints(bool mass_splitting) {
  const int blocks = blocks_.count();
  constraints_on_block_.assign(blocks, mass_splitting ? 0 : 1);
  if (!mass_splitting) return;
  last_group_.assign(blocks, -1);
  // a constraint is a group of consecutive rows: a joint's rows, one attachment's three, one
  // contact's normal (its friction rows go with it); inactive unilateral rows do not count
  int group = -1;
  for (int i = 0; i < constraints_.friction_row_begin(); ++i) {
    if (StartsConstraint(i)) ++group;
    if (constraints_.type(i) == RowType::kUnilateral && !(constraints_.value(i) < 0) &&
        !(multiplier_[i] > 0)) {
      continue;
    }
    for (const RowEnd& e : constraints_.gradient(i).end) {
      if (e.block < 0 || last_group_[e.block] == group) continue;
      last_group_[e.block] = group;
      ++constraints_on_block_[e.block];
    }
  }
}


Real SolverDual::SplitCoupling(const Row& a, const Row& b) const {
  Real sum = 0;
  for (const RowEnd& ea : a.end) {
    if (ea.block < 0 || blocks_.fixed[ea.block]) continue;
    for (const RowEnd& eb : b.end) {
      if (eb.block != ea.block) continue;
      Real term = ea.lin.dot(blocks_.inv_mass[ea.block].cwiseProduct(eb.lin));
      if (!blocks_.particle[ea.block]) term += ea.ang.dot(blocks_.inv_inertia_W[ea.block] * eb.ang);
      sum += std::max(constraints_on_block_[ea.block], 1) * term;
    }
  }
  return sum;
}


void SolverDual::ComputeUpdates(const DualSettings& settings, Real h, bool bounce,
                                IterationRecord* record) {
  update_.assign(constraints_.row_count(), 0);
  const Real alpha = settings.step;
  const Vec3* v = blocks_.v.data();
  const Vec3* w = blocks_.w.data();
  Real merit = 0, largest = 0;
  // Π(λ̂ + α Δλ̂) of row i with `projected`; the row's velocity change [m/s] for the record
  const auto propose = [&](int i, Real projected, Real inverse_mass) {
    update_[i] = projected - multiplier_[i];
    largest = std::max(largest, std::abs(update_[i]) * inverse_mass / h);
  };
  // a unilateral row's violation at the iterate [m/s]: penetration, or separation while pushing
  const auto unilateral_error = [&](int i, Real gap) {
    const Real violation = multiplier_[i] > 0 ? std::abs(gap) : std::max(-gap, Real(0));
    merit += violation * violation / (h * h);
    record->normal_error = std::max(record->normal_error, violation / h);
  };

  // joints, couplings and attachments, each constraint as one GPU thread would solve it on its
  // own bodies: its rigid rows together, Δλ̂ = −K⁻¹C with K = J M_s⁻¹ Jᵀ of those rows (a point
  // row's world axes are coupled through the body's rotation: one at a time converges at
  // ~2 %/iteration on a 1 m pendulum arm, measured), then its other rows in sequence; the
  // constraints from the same iterate
  const int joint_rows = constraints_.contact_row_begin();
  std::vector<int>& rigid = rigid_rows_;
  bool block_solved = false;  // the current constraint's rigid rows were solved together
  for (int i = 0; i < joint_rows; ++i) {
    if (StartsConstraint(i)) {
      local_.clear();
      rigid.clear();
      for (int j = i; j < joint_rows && (j == i || !StartsConstraint(j)); ++j) {
        if (constraints_.type(j) == RowType::kBilateral &&
            std::isinf(constraints_.bilateral(j).stiffness) &&
            SplitInverseMass(constraints_.gradient(j)) > 0) {
          rigid.push_back(j);
        }
      }
      block_solved = SolveRigidBlock(rigid, alpha);
      if (block_solved) {
        for (std::size_t a = 0; a < rigid.size(); ++a) {
          const int r = rigid[a];
          const Real error = RigidError(r);
          merit += error * error / (h * h);
          record->bilateral_error = std::max(record->bilateral_error, std::abs(error) / h);
          propose(r, multiplier_[r] + block_update_[a], SplitInverseMass(constraints_.gradient(r)));
          ApplyLocal(constraints_.gradient(r), block_update_[a] / h);
        }
      }
    }
    if (block_solved && std::find(rigid.begin(), rigid.end(), i) != rigid.end()) {
      continue;
    }
    const Row& row = constraints_.gradient(i);
    const Real inverse_mass = SplitInverseMass(row);
    if (!(inverse_mass > 0)) continue;
    // the row's velocity and displacement with the constraint's earlier rows applied
    const Real local_rate = LocalRate(row);
    const Real local_shift = h * local_rate;
    switch (constraints_.type(i)) {
      case RowType::kBilateral: {
        const BilateralInfo& info = constraints_.bilateral(i);
        const Real error = RigidError(i) + local_shift;
        if (std::isinf(info.stiffness)) {
          // rigid: α̃ = 0
          propose(i, multiplier_[i] + alpha * -error / inverse_mass, inverse_mass);
          merit += error * error / (h * h);
          record->bilateral_error = std::max(record->bilateral_error, std::abs(error) / h);
          break;
        }
        // compliant: XPBD with damping, multiplied through by kh² so that k = 0 is the damper
        //   Δλ̂ = (−kh²C − λ̂ − dh²(J u − v*)) / ((kh² + dh) J M⁻¹Jᵀ + 1)
        const Real k = info.stiffness, d = info.damping;
        const Real rate = RowDot(row, v, w) + local_rate - info.target_velocity;
        const Real change = (-k * h * h * error - multiplier_[i] - d * h * h * rate) /
                            ((k * h * h + d * h) * inverse_mass + 1);
        // a drive's force within its limit, |λ̂| ≤ f_max h² (a saturated motor)
        const Real bound = info.force_limit * h * h;
        propose(i, std::clamp(multiplier_[i] + alpha * change, -bound, bound), inverse_mass);
        break;
      }
      case RowType::kUnilateral: {
        const Real gap = constraints_.value(i) + local_shift;
        unilateral_error(i, gap);
        propose(i, std::max(multiplier_[i] + alpha * -gap / inverse_mass, Real(0)), inverse_mass);
        break;
      }
      case RowType::kFriction: {
        // joint friction: stop the row's displacement over the step within |λ̂| ≤ F h²
        const Real slip = h * (RowDot(row, v, w) + local_rate);
        const Real bound = constraints_.bilateral(i).friction_limit * h * h;
        const Real next = std::clamp(multiplier_[i] - alpha * slip / inverse_mass, -bound, bound);
        if (std::abs(next) < bound) {
          record->friction_error = std::max(record->friction_error, std::abs(slip) / h);
        }
        propose(i, next, inverse_mass);
        break;
      }
    }
    if (update_[i] != 0) ApplyLocal(row, update_[i] / h);
  }

  // contacts: the normal row, then the friction pair inside the cone of its new multiplier
  const Real contact_compliance = settings.contact_compliance / (h * h);
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const int n = constraints_.normal_row(c);
    const Real normal_mass = SplitInverseMass(constraints_.gradient(n));
    if (!(normal_mass > 0)) continue;
    const Real gap = BounceShiftedGap(constraints_, n, h, bounce);
    unilateral_error(n, gap);
    const Real normal =
        std::max(multiplier_[n] + alpha * (-gap - contact_compliance * multiplier_[n]) /
                                      (normal_mass + contact_compliance),
                 Real(0));
    propose(n, normal, normal_mass);

    const ContactInfo& info = constraints_.contact(c);
    const int f = constraints_.friction_row(c);
    const Row& tangent = constraints_.gradient(f);
    const Row& bitangent = constraints_.gradient(f + 1);
    const Real mass_t = SplitInverseMass(tangent), mass_b = SplitInverseMass(bitangent);
    if (!(info.mu_t > 0 && info.mu_b > 0 && mass_t > 0 && mass_b > 0)) {
      propose(f, 0, mass_t);
      propose(f + 1, 0, mass_b);
      continue;
    }
    // hard friction on the slip over the step, projected onto the elliptic cone of λ̂_n
    const Real slip_t = h * RowDot(tangent, v, w), slip_b = h * RowDot(bitangent, v, w);
    Real p_t = multiplier_[f] - alpha * slip_t / mass_t;
    Real p_b = multiplier_[f + 1] - alpha * slip_b / mass_b;
    if (std::hypot(p_t / info.mu_t, p_b / info.mu_b) > normal) {
      ProjectOnFrictionEllipse(1 / mass_t, 1 / mass_b, info.mu_t, info.mu_b, normal, &p_t, &p_b);
    } else if (normal > 0) {
      const Real creep = std::hypot(slip_t, slip_b) / h;
      merit += creep * creep;
      record->friction_error = std::max(record->friction_error, creep);
    }
    propose(f, p_t, mass_t);
    propose(f + 1, p_b, mass_b);
  }
  record->merit = std::sqrt(merit);
  record->step_size = largest;
}


Real SolverDual::RigidError(int i) const {
  const BilateralInfo& info = constraints_.bilateral(i);
  const Real error = constraints_.value(i) - info.target_position;
  return info.angular_target ? WrapAngle(error) : error;
}


bool SolverDual::SolveRigidBlock(const std::vector<int>& rows, Real alpha) {
  const int m = static_cast<int>(rows.size());
  if (m == 0 || m > kMaxBlockRows) return false;
  // no heap allocation per constraint and iteration: at most a joint's six rows and its drives
  using BlockMatrix =
      Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxBlockRows, kMaxBlockRows>;
  using BlockVector = Eigen::Matrix<Real, Eigen::Dynamic, 1, 0, kMaxBlockRows, 1>;
  BlockMatrix K(m, m);
  BlockVector rhs(m);
  for (int a = 0; a < m; ++a) {
    const Row& row_a = constraints_.gradient(rows[a]);
    rhs[a] = -RigidError(rows[a]);
    for (int b = 0; b <= a; ++b) {
      const Real entry = SplitCoupling(row_a, constraints_.gradient(rows[b]));
      K(a, b) = K(b, a) = entry;
    }
  }
  // a singular block (redundant rows) falls back to the rows one at a time
  const Eigen::LDLT<BlockMatrix> ldlt(K);
  if (ldlt.info() != Eigen::Success ||
      !(ldlt.vectorD().minCoeff() > 1e-12 * K.diagonal().maxCoeff())) {
    return false;
  }
  const BlockVector x = ldlt.solve(rhs);
  if (!x.allFinite()) return false;
  block_update_.assign(x.data(), x.data() + m);
  for (Real& value : block_update_) value *= alpha;
  return true;
}


Real SolverDual::LocalRate(const Row& row) const {
  Real rate = 0;
  for (const RowEnd& e : row.end) {
    for (const LocalChange& change : local_) {
      if (change.block == e.block) rate += e.lin.dot(change.v) + e.ang.dot(change.w);
    }
  }
  return rate;
}


void SolverDual::ApplyLocal(const Row& row, Real impulse) {
  for (const RowEnd& e : row.end) {
    if (e.block < 0 || blocks_.fixed[e.block]) continue;
    auto it = std::find_if(local_.begin(), local_.end(),
                           [&](const LocalChange& c) { return c.block == e.block; });
    if (it == local_.end()) it = local_.insert(local_.end(), LocalChange{e.block});
    // with the split mass, as the constraint sees the body
    const Real share = std::max(constraints_on_block_[e.block], 1);
    it->v += share * blocks_.inv_mass[e.block].cwiseProduct(impulse * e.lin);
    if (!blocks_.particle[e.block]) {
      it->w += share * (blocks_.inv_inertia_W[e.block] * (impulse * e.ang));
    }
  }
}


bool SolverDual::Solve(const DualSettings& settings, Real h, bool bounce, StepReport* report) {
  // u⁺ ← ũ, q⁺ ← q⁻ + h G u⁺, λ̂ ← 0 (Algorithm 3)
  blocks_.v = blocks_.v_tilde;
  blocks_.w = blocks_.w_tilde;
  blocks_.UpdatePositions();
  multiplier_.assign(constraints_.row_count(), 0);
  // one pass more than the iterations: the last measures the final iterate without moving it
  for (int it = 0; it <= settings.iterations; ++it) {
    constraints_.Evaluate(blocks_);
    CountConstraints(settings.mass_splitting);
    IterationRecord record;
    record.inner_begin = static_cast<int>(report->inner_residuals.size());
    ComputeUpdates(settings, h, bounce, &record);
    report->iterations.push_back(record);
    if (it == settings.iterations) break;
    // λ̂ += Δλ̂, u⁺ += M⁻¹Jᵀ Δλ̂/h: every row from the same iterate
    for (int i = 0; i < constraints_.row_count(); ++i) {
      if (update_[i] == 0) continue;
      multiplier_[i] += update_[i];
      blocks_.AddImpulse(constraints_.gradient(i), update_[i] / h, &blocks_.v, &blocks_.w);
    }
    ++report->outer_iterations;
    blocks_.UpdatePositions();
  }
  return blocks_.IsFinite();
}


void SolverDual::Step(const Model& model, const State& in, const Control& control,
                      Contacts& contacts, Real dt, State* out, StepReport* report) {
  report->Reset();
  const DualSettings settings = ReadDualSettings(model.options.solver);
  // each substep one Algorithm 3 solve; the bounce target belongs to the impact's, the first
  Real h = dt;
  const auto solve = [&](Real substep_h, int substep) {
    h = substep_h;
    return Solve(settings, h, substep == 0, report);
  };
  if (!RunSubsteps(model, in, control, contacts, dt, settings.substeps, "dual ascent", solve,
                   &work_, out, report)) {
    return;
  }
  // no warm start (Algorithm 3 starts from λ = 0); the other solvers' records pass through
  Stopwatch stopwatch;
  CarryOtherWarmStarts(in, name(), out);
  WriteContacts(h, &contacts);
  report->integrate_ms = stopwatch.ElapsedMs();

  FillRowFigures(constraints_, contacts.count(), report);
  int active = 0;
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    active += multiplier_[constraints_.normal_row(c)] > 0;
  }
  report->active_contact_count = active;
  const IterationRecord& last = report->iterations.back();
  MarkUnconverged(std::max({last.normal_error, last.friction_error, last.bilateral_error}),
                  settings.unconverged_velocity,
                  "the final iterate still violates a row over the step by", "m/s",
                  "dual.unconverged_velocity", report);
}


void SolverDual::WriteContacts(Real h, Contacts* contacts) const {
  // forces λ = λ̂/h² [N]
  const Real scale = 1 / (h * h);
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    Contact& contact = contacts->items[c];
    const int f = constraints_.friction_row(c);
    contact.normal_force = multiplier_[constraints_.normal_row(c)] * scale;
    contact.friction_force[0] = multiplier_[f] * scale;
    contact.friction_force[1] = multiplier_[f + 1] * scale;
    contact.gap = constraints_.contact(c).gap;
  }
}

}  // namespace sim
