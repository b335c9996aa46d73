#include "engine/solvers/primal/primal_solver.h"

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

const SolverInfo kPrimalSolverInfo = {
    "primal",
    "primal descent: implicit penalty contact, relaxed Coulomb friction, block-Jacobi "
    "preconditioned descent (Macklin 2020 ch. 5, Algorithm 2); rigid bodies, joints, particles",
    kFeatureRigidBodies | kFeatureJoints | kFeatureContacts | kFeatureParticles |
        kFeatureCoulombFriction | kFeatureRestitution,
    PrimalSettingsTable,
    [](const Model& model) -> std::unique_ptr<Solver> {
      return std::make_unique<SolverPrimal>(model);
    },
};


RelaxedFriction EvalRelaxedFriction(Real slip_t, Real slip_b, Real mu_t, Real mu_b,
                                    Real normal_force, Real friction_stiffness) {
  RelaxedFriction friction;
  if (!(normal_force > 0) || (mu_t <= 0 && mu_b <= 0)) return friction;
  // U_f = φ(r), r = |(μ_t s_t, μ_b s_b)|; φ'(r)/r = κ in the stick region, f_n/r on the slip
  // branch, and ∂r²/∂s = 2(μ_t² s_t, μ_b² s_b)
  const Real product = mu_t * mu_b;
  const Real kappa =
      friction_stiffness / (product > 0 ? product : std::max(mu_t, mu_b) * std::max(mu_t, mu_b));
  const Real r = std::hypot(mu_t * slip_t, mu_b * slip_b);
  friction.stick = kappa * r < normal_force;
  const Real scale = friction.stick ? kappa : normal_force / r;
  friction.weight_t = scale * mu_t * mu_t;
  friction.weight_b = scale * mu_b * mu_b;
  friction.force_t = -friction.weight_t * slip_t;
  friction.force_b = -friction.weight_b * slip_b;
  return friction;
}


void SolverPrimal::AddRow(const Row& row, Real force, Real weight) {
  for (const RowEnd& e : row.end) {
    if (e.block < 0 || blocks_.fixed[e.block]) continue;
    Vec6 j;
    j << e.lin, e.ang;
    if (blocks_.particle[e.block]) j.tail<3>().setZero();
    force_[e.block] += force * j;
    hessian_[e.block] += weight * j * j.transpose();
  }
}


void SolverPrimal::Accumulate(const PrimalSettings& settings, Real h, bool bounce, bool first,
                              IterationRecord* record) {
  const int blocks = blocks_.count();
  force_.assign(blocks, Vec6::Zero());
  hessian_.assign(blocks, Mat6::Zero());
  const Real p = settings.penalty_exponent;
  const Real k_n = settings.contact_stiffness;
  const Real k_f = settings.friction_stiffness;
  // the penalty (129): force k_n|C|^{p−1} along Jᵀ, Hessian weight Δt² k_n (p−1)|C|^{p−2} (131)
  const auto penalty = [&](int i, Real gap) {
    if (gap >= 0) return Real(0);
    const Real depth = -gap;
    const Real force = k_n * std::pow(depth, p - 1);
    AddRow(constraints_.gradient(i), force, h * h * k_n * (p - 1) * std::pow(depth, p - 2));
    record->normal_error = std::max(record->normal_error, depth);
    return force;
  };

  // joints, couplings and attachments
  for (int i = 0; i < constraints_.contact_row_begin(); ++i) {
    const Row& row = constraints_.gradient(i);
    switch (constraints_.type(i)) {
      case RowType::kBilateral: {
        const BilateralInfo& info = constraints_.bilateral(i);
        const Real value = constraints_.value(i);
        if (std::isinf(info.stiffness)) {
          // a rigid row as the potential ½ k_j C²
          AddRow(row, -settings.joint_stiffness * value, h * h * settings.joint_stiffness);
          record->bilateral_error = std::max(record->bilateral_error, std::abs(value));
          break;
        }
        // a compliant row: spring to its target and damper to its target velocity
        Real error = value - info.target_position;
        if (info.angular_target) error = WrapAngle(error);
        const Real rate = RowDot(row, blocks_.v.data(), blocks_.w.data());
        const Real force = -info.stiffness * error - info.damping * (rate - info.target_velocity);
        // a drive beyond its force limit pushes with ±f_max, which does not change with the
        // motion (a saturated motor: no stiffness left in the Hessian)
        if (std::abs(force) > info.force_limit) {
          AddRow(row, std::copysign(info.force_limit, force), 0);
          break;
        }
        AddRow(row, force, h * h * info.stiffness + h * info.damping);
        break;
      }
      case RowType::kUnilateral:
        penalty(i, constraints_.value(i));
        break;
      case RowType::kFriction: {
        // joint friction: the 1-D relaxed Coulomb potential with the bound F in place of μ f_n
        const Real slip = h * RowDot(row, blocks_.v.data(), blocks_.w.data());
        const RelaxedFriction friction =
            EvalRelaxedFriction(slip, 0, 1, 0, constraints_.bilateral(i).friction_limit, k_f);
        AddRow(row, friction.force_t, h * h * friction.weight_t);
        break;
      }
    }
  }

  // contacts: the normal penalty, then the friction bounded by that normal force (lagged f_n)
  normal_force_.assign(constraints_.contact_count(), 0);
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const int n = constraints_.normal_row(c);
    const Real gap = BounceShiftedGap(constraints_, n, h, bounce);
    normal_force_[c] = penalty(n, gap);
    if (first && friction_normal_[c] == kNewContact) {
      // a new contact: the penalty force at ũ is k_n times the whole unconstrained penetration,
      // many times the weight; friction takes the force that removes that penetration over the
      // step instead, m_eff |C|/h² (a box at rest on four corners: its weight per corner)
      const Real inverse_mass = blocks_.EffectiveMass(constraints_.gradient(n), false);
      friction_normal_[c] =
          inverse_mass > 0
              ? std::min(normal_force_[c], std::max(-gap, Real(0)) / (h * h * inverse_mass))
              : normal_force_[c];
    }
    if (normal_force_[c] <= 0) continue;
    const ContactInfo& info = constraints_.contact(c);
    const int f = constraints_.friction_row(c);
    const Row& tangent = constraints_.gradient(f);
    const Row& bitangent = constraints_.gradient(f + 1);
    const Real slip_t = h * RowDot(tangent, blocks_.v.data(), blocks_.w.data());
    const Real slip_b = h * RowDot(bitangent, blocks_.v.data(), blocks_.w.data());
    const RelaxedFriction friction =
        EvalRelaxedFriction(slip_t, slip_b, info.mu_t, info.mu_b, FrictionNormal(c), k_f);
    AddRow(tangent, friction.force_t, h * h * friction.weight_t);
    AddRow(bitangent, friction.force_b, h * h * friction.weight_b);
    // a sticking contact's creep speed [m/s]
    if (friction.stick) {
      record->friction_error = std::max(record->friction_error, std::hypot(slip_t, slip_b) / h);
    }
  }
}


bool SolverPrimal::Solve(const PrimalSettings& settings, Real h, bool bounce, StepReport* report) {
  // u⁺ ← ũ, q⁺ ← q⁻ + h G u⁺ (Algorithm 2)
  blocks_.v = blocks_.v_tilde;
  blocks_.w = blocks_.w_tilde;
  blocks_.UpdatePositions();
  const Real alpha = settings.step;
  const bool diagonal = settings.preconditioner == PrimalPreconditioner::kDiagonal;
  // one pass more than the iterations: the last measures the final iterate without moving it
  for (int it = 0; it <= settings.iterations; ++it) {
    constraints_.Evaluate(blocks_);
    IterationRecord record;
    record.inner_begin = static_cast<int>(report->inner_residuals.size());
    Accumulate(settings, h, bounce, it == 0, &record);
    // the preconditioned gradient P d per block, d = M(u − ũ) − h f (107)
    Real merit = 0, largest = 0;
    for (int k = 0; k < blocks_.count(); ++k) {
      if (blocks_.fixed[k]) continue;
      const Real m = blocks_.mass[k];
      const Vec3 d_lin = m * (blocks_.v[k] - blocks_.v_tilde[k]) - h * force_[k].head<3>();
      Vec6 step;
      if (blocks_.particle[k]) {
        const Mat3 block = m * Mat3::Identity() + hessian_[k].topLeftCorner<3, 3>();
        step << (diagonal ? Vec3(d_lin.cwiseQuotient(block.diagonal()))
                          : block.ldlt().solve(d_lin)),
            Vec3::Zero();
      } else {
        Vec6 gradient;
        gradient << d_lin,
            blocks_.inertia_W[k] * (blocks_.w[k] - blocks_.w_tilde[k]) - h * force_[k].tail<3>();
        Mat6 block = hessian_[k];
        block.topLeftCorner<3, 3>() += m * Mat3::Identity();
        block.bottomRightCorner<3, 3>() += blocks_.inertia_W[k];
        step = diagonal ? Vec6(gradient.cwiseQuotient(block.diagonal()))
                        : block.ldlt().solve(gradient);
      }
      merit += step.squaredNorm();
      largest = std::max(largest, step.cwiseAbs().maxCoeff());
      if (it < settings.iterations) {
        blocks_.v[k] -= alpha * step.head<3>();
        blocks_.w[k] -= alpha * step.tail<3>();
      }
    }
    record.merit = std::sqrt(merit);
    record.step_size = it < settings.iterations ? alpha * largest : largest;
    report->iterations.push_back(record);
    if (it == settings.iterations) break;
    ++report->outer_iterations;
    blocks_.UpdatePositions();
  }
  return blocks_.IsFinite();
}


void SolverPrimal::Step(const Model& model, const State& in, const Control& control,
                        Contacts& contacts, Real dt, State* out, StepReport* report) {
  report->Reset();
  const PrimalSettings settings = ReadPrimalSettings(model.options.solver);
  // each substep one Algorithm 2 solve; the bounce target belongs to the impact's, the first
  Real h = dt;
  const auto solve = [&](Real substep_h, int substep) {
    h = substep_h;
    if (substep == 0) {
      ReadPreviousNormals(in, settings);
    } else if (settings.friction_normal == PrimalFrictionNormal::kPreviousStep) {
      // the previous substep's
      for (std::size_t c = 0; c < normal_force_.size(); ++c) {
        friction_normal_[c] = normal_force_[c] > 0 ? normal_force_[c] : kNewContact;
      }
    }
    return Solve(settings, h, substep == 0, report);
  };
  if (!RunSubsteps(model, in, control, contacts, dt, settings.substeps, "primal descent", solve,
                   &work_, out, report)) {
    return;
  }
  // no warm start of u (Algorithm 2 starts from ũ); the record keeps the normal forces
  Stopwatch stopwatch;
  WriteNormalRecord(in, out);
  WriteContacts(settings, h, &contacts);
  report->integrate_ms = stopwatch.ElapsedMs();

  FillRowFigures(constraints_, contacts.count(), report);
  report->active_contact_count = static_cast<int>(
      std::count_if(normal_force_.begin(), normal_force_.end(), [](Real f) { return f > 0; }));
  MarkUnconverged(report->iterations.back().step_size, settings.unconverged_velocity,
                  "a further descent step would still change a velocity by", "m/s",
                  "primal.unconverged_velocity", report);
}


void SolverPrimal::ReadPreviousNormals(const State& in, const PrimalSettings& settings) {
  const bool lagged = settings.friction_normal == PrimalFrictionNormal::kPreviousStep;
  friction_normal_.assign(constraints_.contact_count(), lagged ? kNewContact : kIterateNormal);
  const WarmStartRecord* record = FindWarmStart(in, name());
  if (!lagged || record == nullptr) return;
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const ContactImpulse* cached = FindContactImpulse(*record, constraints_.contact(c).key);
    if (cached != nullptr) friction_normal_[c] = cached->normal;
  }
}


void SolverPrimal::WriteNormalRecord(const State& in, State* out) const {
  WarmStartRecord& record = CarryWarmStarts(in, name(), out);
  record.joint_rows.clear();
  record.element_rows.clear();
  record.contacts.clear();
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    if (!(normal_force_[c] > 0)) continue;
    ContactImpulse impulse;
    impulse.key = constraints_.contact(c).key;
    impulse.normal = normal_force_[c];
    record.contacts.push_back(impulse);
  }
  SortContactImpulses(&record.contacts);
}


void SolverPrimal::WriteContacts(const PrimalSettings& settings, Real h, Contacts* contacts) const {
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    Contact& contact = contacts->items[c];
    const ContactInfo& info = constraints_.contact(c);
    contact.normal_force = normal_force_[c];
    const int f = constraints_.friction_row(c);
    const RelaxedFriction friction = EvalRelaxedFriction(
        h * RowDot(constraints_.gradient(f), blocks_.v.data(), blocks_.w.data()),
        h * RowDot(constraints_.gradient(f + 1), blocks_.v.data(), blocks_.w.data()), info.mu_t,
        info.mu_b, FrictionNormal(c), settings.friction_stiffness);
    contact.friction_force[0] = friction.force_t;
    contact.friction_force[1] = friction.force_b;
    contact.gap = info.gap;
  }
}

}  // namespace sim
