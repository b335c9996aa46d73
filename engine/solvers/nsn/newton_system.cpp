#include "engine/solvers/nsn/newton_system.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

#include "engine/core/parallel.h"
#include "engine/solvers/nsn/ncp.h"

namespace sim::nsn {
namespace {

// below these sizes the products run on the calling thread (TBB overhead, tiny test scenes)
constexpr int kMinParallelBlocks = 512;
constexpr int kMinParallelRows = 4096;

}  // namespace

void NewtonSystem::Begin(const Model& model, const State& in, const Control& control,
                         const Contacts& contacts, Real dt) {
  model_ = &model;
  dt_ = dt;
  settings_ = ReadNsnSettings(model.options.solver);
  in_ = &in;
  // shared dynamics: M̃, ũ and the iterate at q⁻ (body_blocks.h); the rows' layout and meaning
  // (constraint_set.h)
  blocks_.Begin(model, in, control, dt);
  constraints_.Begin(model, control, contacts, blocks_.body_count());
  const int blocks = blocks_.count();
  for (auto* v : {&block_gs_shift_, &dv_, &dw_, &v_prev_, &scratch_lin_, &scratch_ang_,
                  &scratch_lin2_, &scratch_ang2_, &g_lin_, &g_ang_}) {
    v->assign(blocks, Vec3::Zero());
  }

  // NSN's own rows: the NCP-scaled J, the element rows, and the multipliers
  const int rows = constraints_.row_count();
  rows_.resize(rows);
  gradients_prev_.resize(rows);
  friction_active_.assign(constraints_.contact_count(), 0);
  elements_.Begin(model, blocks_.body_count(), dt, in.time + dt, settings_.fem_shear_rows);
  for (VectorX* v : {&lambda_, &c_diag_, &h_, &diag_, &r_}) {
    v->setZero(rows + elements_.row_count());
  }
  r_frozen_ = false;
  if (settings_.warm_start) WarmStart(in);
}


void NewtonSystem::WarmStart(const State& in) {
  // velocities from the last step too: λ from a sliding contact with u = 0 would read as "stick
  // beyond the cone" and the friction fixed point would settle on the wrong branch
  blocks_.StartFromInputVelocities(in);
  const WarmStartRecord* record = FindWarmStart(in, "nsn");
  if (record == nullptr) return;

  // joint rows by position (their layout is fixed by the model)
  const int joint_rows = constraints_.contact_row_begin();
  if (static_cast<int>(record->joint_rows.size()) == joint_rows) {
    for (int i = 0; i < joint_rows; ++i) lambda_(i) = record->joint_rows[i];
  }
  // contacts by key; friction from its world-frame force, onto this step's tangent frame
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const ContactInfo& info = constraints_.contact(c);
    const ContactImpulse* cached = FindContactImpulse(*record, info.key);
    if (cached == nullptr) continue;
    lambda_(constraints_.normal_row(c)) = cached->normal;
    lambda_(constraints_.friction_row(c)) = cached->friction_W.dot(info.tangent);
    lambda_(constraints_.friction_row(c) + 1) = cached->friction_W.dot(info.bitangent);
  }
  // element rows by tet (the lane order of the rows is NSN's own)
  if (static_cast<int>(record->element_rows.size()) == elements_.row_count()) {
    for (int e = 0; e < elements_.tet_count(); ++e) {
      for (int r = 0; r < kElementRows; ++r) {
        lambda_(row_count() + elements_.RowIndex(e, r)) =
            record->element_rows[kElementRows * e + r];
      }
    }
  }
}


void NewtonSystem::Assemble() {
  const Real dt = dt_;
  constraints_.Evaluate(blocks_);
  errors_ = IterateErrors{};

  // bilateral and unilateral rows
  for (int i = 0; i < constraints_.friction_row_begin(); ++i) {
    const Row& grad = constraints_.gradient(i);
    if (constraints_.type(i) == RowType::kFriction) {
      AssembleJointFrictionRow(i);
      continue;
    }
    if (constraints_.type(i) == RowType::kUnilateral) {
      // complementarity preconditioner r (digest §7): Δt²·[J M̃⁻¹ Jᵀ]_ii by default, computed
      // at q⁻ and then held for the step, so every Newton iteration solves the same NCP
      if (!r_frozen_) {
        Real r = 1;
        if (settings_.preconditioner == ComplementarityScaling::kEffectiveMass) {
          r = dt * dt * std::max(blocks_.EffectiveMass(grad, false), 1e-12);
        } else if (settings_.preconditioner == ComplementarityScaling::kTimeStepSquared) {
          r = dt * dt;
        }
        r_(i) = r;
      }
      const Real r = r_(i);
      // a bouncing contact holds C_n ≥ gap0 + Δt·v_bounce instead of C_n ≥ 0: J u ≥ v_bounce
      // (restitution as a target of the same NCP)
      Real gap = constraints_.value(i);
      if (i >= constraints_.contact_row_begin()) {
        const ContactInfo& contact = constraints_.contact(i - constraints_.contact_row_begin());
        if (contact.bounce_velocity > 0) {
          gap -= std::max<Real>(contact.gap0 + dt * contact.bounce_velocity, 0);
        }
      }
      const NcpValue ncp = EvalNcp(settings_.ncp, gap, lambda_(i), r);
      Row& row = rows_[i];
      row = grad;
      for (RowEnd& e : row.end) {
        e.lin *= ncp.dphi_dgap;
        e.ang *= ncp.dphi_dgap;
      }
      c_diag_(i) = ncp.dphi_dlambda / (dt * dt);
      h_(i) = ncp.phi / dt;
      errors_.normal = std::max(errors_.normal, std::abs(std::min(gap, r * lambda_(i))));
      continue;
    }
    // bilateral compliant row: C = 1/(Δt(kΔt + d)), h = (k(c − c*) + d(Ju − v*) + λ)/(kΔt + d)
    rows_[i] = grad;
    const BilateralInfo& info = constraints_.bilateral(i);
    Real error = constraints_.value(i) - info.target_position;
    if (info.angular_target) error = WrapAngle(error);
    if (std::isinf(info.stiffness)) {
      c_diag_(i) = 0;
      h_(i) = error / dt;
      errors_.joint = std::max(errors_.joint, std::abs(error));
    } else {
      const Real denominator = info.stiffness * dt + info.damping;
      const Real rate = RowDot(grad, blocks_.v.data(), blocks_.w.data());
      const Real velocity = rate - info.target_velocity;
      // the drive's row h = (k(c − c*) + d(Ju − v*) + λ)/(kΔt + d) [m/s], zero where λ is the
      // drive's force
      const Real h = (info.stiffness * error + info.damping * velocity + lambda_(i)) / denominator;
      if (std::isfinite(info.force_limit)) {
        if (!r_frozen_) r_(i) = dt * std::max(blocks_.EffectiveMass(grad, false), 1e-12);
        // a saturated motor: λ = P(λ − h/r) on [−f_max, f_max], the force held at its bound as
        // a slipping joint-friction row holds its own (the same projection, digest §4.4.b).
        // Deciding by the drive's force at the iterate alone, −k(c − c*) − d(Ju − v*), swings
        // it across the bound with every velocity overshoot of a stiff drive: Fetch with its
        // URDF efforts went unconverged on 479 of 482 steps, 9 with the projection.
        const Real z = lambda_(i) - h / r_(i);
        if (std::abs(z) > info.force_limit) {
          const Real held = std::copysign(info.force_limit, z);
          HoldRowForce(i, rate, held);
          errors_.joint = std::max(errors_.joint, std::abs(lambda_(i) - held) * dt / denominator);
          continue;
        }
      }
      c_diag_(i) = 1 / (dt * denominator);
      h_(i) = h;
      errors_.joint = std::max(errors_.joint, std::abs(h_(i)) * dt);
    }
  }

  // friction rows, two per contact (digest §4.4.b/c); the merit takes each contact's residual
  // as a slip (a held force's row carries a scaled force error in h)
  Real friction_merit = 0;
  friction_frame_.assign(constraints_.contact_count(), Eigen::Matrix2d::Identity());
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const ContactInfo& info = constraints_.contact(c);
    const int i = constraints_.friction_row_begin() + 2 * c;
    const Real normal_force = lambda_(constraints_.contact_row_begin() + c);
    const bool active = normal_force > 0 && info.mu_t > 0 && info.mu_b > 0;
    friction_active_[c] = active;
    if (!active) {
      // inactive: zero rows, unit compliance, h = λ_f so stale friction decays (digest §6.6)
      for (int k = 0; k < 2; ++k) {
        rows_[i + k] = Row{};
        c_diag_(i + k) = 1 / dt;
        h_(i + k) = lambda_(i + k);
        friction_merit += h_(i + k) * h_(i + k);
      }
      continue;
    }
    const Row& grad_t = constraints_.gradient(i);
    const Row& grad_b = constraints_.gradient(i + 1);
    const Eigen::Vector2d slip(RowDot(grad_t, blocks_.v.data(), blocks_.w.data()),
                               RowDot(grad_b, blocks_.v.data(), blocks_.w.data()));
    const Eigen::Vector2d force(lambda_(i), lambda_(i + 1));
    // friction r-factor Δt·[J M̃⁻¹ Jᵀ]_ii, the mean of the two rows (digest §7 assumption),
    // held for the step like the normal one
    if (!r_frozen_ || r_(i) == 0) {
      Real r = 1;
      if (settings_.preconditioner == ComplementarityScaling::kEffectiveMass) {
        r = dt * std::max(0.5 * (blocks_.EffectiveMass(grad_t, false) +
                                 blocks_.EffectiveMass(grad_b, false)),
                          1e-12);
      } else if (settings_.preconditioner == ComplementarityScaling::kTimeStepSquared) {
        r = dt;
      }
      r_(i) = r;
    }
    const Real r = r_(i);
    if (settings_.friction == FrictionLinearization::kProjection) {
      // rows T·[∇_t; ∇_b] in the frame of the projection's branch; λ stays in (t, b)
      const ProjectedFriction projected =
          ProjectFriction(slip, force, normal_force, info.mu_t, info.mu_b, r);
      friction_frame_[c] = projected.frame;
      for (int k = 0; k < 2; ++k) {
        rows_[i + k] = CombineRows(grad_t, projected.frame(k, 0), grad_b, projected.frame(k, 1));
        c_diag_(i + k) = projected.compliance(k) / dt;
        h_(i + k) = projected.residual(k);
      }
      errors_.friction = std::max(errors_.friction, projected.error);
      friction_merit += projected.error * projected.error;
      continue;
    }
    const Eigen::Vector2d w = AnisotropicFrictionCompliance(settings_.ncp, slip, force,
                                                            normal_force, info.mu_t, info.mu_b, r);
    for (int k = 0; k < 2; ++k) {
      rows_[i + k] = constraints_.gradient(i + k);
      c_diag_(i + k) = w(k) / dt;
      h_(i + k) = slip(k) + w(k) * force(k);
    }
    const Real error = std::hypot(h_(i), h_(i + 1));
    errors_.friction = std::max(errors_.friction, error);
    friction_merit += error * error;
  }

  // friction outside its cone, on contacts that carry force
  Real largest_normal = 0;
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    largest_normal = std::max(largest_normal, lambda_(constraints_.normal_row(c)));
  }
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const Real normal_force = lambda_(constraints_.normal_row(c));
    const ContactInfo& info = constraints_.contact(c);
    if (!friction_active_[c] || !(normal_force > 1e-3 * largest_normal)) continue;
    const int i = constraints_.friction_row(c);
    const Real scaled = std::hypot(lambda_(i) / info.mu_t, lambda_(i + 1) / info.mu_b);
    errors_.cone = std::max(errors_.cone, (scaled - normal_force) / normal_force);
  }

  r_frozen_ = true;
  BuildIncidence();
  DescribeArrays();

  // diagonal of A = J H⁻¹ Jᵀ + C + εI (Jacobi preconditioner of PCR/PCG)
  for (int i = 0; i < row_count(); ++i) {
    diag_(i) = blocks_.EffectiveMass(rows_[i], true) + c_diag_(i) + settings_.regularization;
    // a row with no mass and no compliance (both sides static) must not divide by zero
    if (!(diag_(i) > 0)) diag_(i) = 1;
  }
  // FEM element rows: stretches, compliance, h and their diagonal (element_rows.h)
  if (elements_.row_count() > 0) {
    const int begin = row_count();
    elements_.Evaluate(blocks_.x, settings_.fem_compliance);
    const Real element_error =
        elements_.Assemble(blocks_.v, lambda_.data() + begin, blocks_.inv_mass,
                           settings_.regularization, h_.data() + begin, diag_.data() + begin);
    // as a length, like the joints': the strain error times the largest element's size
    errors_.bilateral = element_error * elements_.length_scale();
    errors_.element = element_error;
  }

  errors_.bilateral = std::max(errors_.bilateral, errors_.joint);

  // momentum residual g = M̃(u − ũ) − Δt Jᵀλ (eq. (78)); friction rows in a contact's own frame
  // T·[∇_t; ∇_b] carry λ' = T⁻ᵀλ_f
  const VectorX* lambda_rows = &lambda_;
  if (settings_.friction == FrictionLinearization::kProjection) {
    lambda_rows_ = lambda_;
    for (int c = 0; c < constraints_.contact_count(); ++c) {
      const int i = constraints_.friction_row(c);
      lambda_rows_.segment<2>(i) = friction_frame_[c].transpose().inverse() * lambda_.segment<2>(i);
    }
    lambda_rows = &lambda_rows_;
  }
  AccumulateJt(*lambda_rows, &scratch_lin_, &scratch_ang_);
  Real merit = 0;
  for (std::size_t k = 0; k < blocks_.x.size(); ++k) {
    if (blocks_.fixed[k]) {
      g_lin_[k].setZero();
      g_ang_[k].setZero();
      continue;
    }
    g_lin_[k] = blocks_.mass[k] * (blocks_.v[k] - blocks_.v_tilde[k]) - dt * scratch_lin_[k];
    g_ang_[k] = blocks_.particle[k]
                    ? Vec3::Zero()
                    : Vec3(blocks_.inertia_W[k] * (blocks_.w[k] - blocks_.w_tilde[k]) -
                           dt * scratch_ang_[k]);
    merit += g_lin_[k].squaredNorm() + g_ang_[k].squaredNorm();
    errors_.momentum =
        std::max(errors_.momentum, g_lin_[k].cwiseAbs().maxCoeff() / blocks_.mass[k]);
    if (!blocks_.particle[k]) {
      errors_.momentum = std::max(
          errors_.momentum, 3 * g_ang_[k].cwiseAbs().maxCoeff() / blocks_.inertia_W[k].trace());
    }
  }
  const int friction_begin = constraints_.friction_row_begin();
  errors_.merit = std::sqrt(merit + h_.head(friction_begin).squaredNorm() + friction_merit +
                            h_.tail(h_.size() - row_count()).squaredNorm());
}


void NewtonSystem::BuildIncidence() {
  // rows with their used ends only, and a counting sort of the ends by block
  const int blocks = static_cast<int>(blocks_.x.size());
  packed_row_begin_.resize(row_count() + 1);
  packed_end_block_.clear();
  packed_end_lin_.clear();
  packed_end_ang_.clear();
  incidence_begin_.assign(blocks + 1, 0);
  for (int i = 0; i < row_count(); ++i) {
    packed_row_begin_[i] = static_cast<int>(packed_end_block_.size());
    for (const RowEnd& e : rows_[i].end) {
      if (e.block < 0) continue;
      packed_end_block_.push_back(e.block);
      packed_end_lin_.push_back(e.lin);
      packed_end_ang_.push_back(e.ang);
      ++incidence_begin_[e.block + 1];
    }
  }
  const int ends = static_cast<int>(packed_end_block_.size());
  packed_row_begin_[row_count()] = ends;
  for (int b = 0; b < blocks; ++b) incidence_begin_[b + 1] += incidence_begin_[b];
  incidence_row_.resize(ends);
  incidence_lin_.resize(ends);
  incidence_ang_.resize(ends);
  incidence_cursor_.assign(incidence_begin_.begin(), incidence_begin_.end() - 1);
  for (int i = 0; i < row_count(); ++i) {
    for (int k = packed_row_begin_[i]; k < packed_row_begin_[i + 1]; ++k) {
      const int slot = incidence_cursor_[packed_end_block_[k]]++;
      incidence_row_[slot] = i;
      incidence_lin_[slot] = packed_end_lin_[k];
      incidence_ang_[slot] = packed_end_ang_[k];
    }
  }
}


void NewtonSystem::DescribeArrays() {
  static_assert(sizeof(Vec3) == 3 * sizeof(Real) && sizeof(Mat3) == 9 * sizeof(Real));
  const auto scalars = [](const auto& v, int per_entry) {
    return std::span<const Real>(v.empty() ? nullptr : v[0].data(), per_entry * v.size());
  };
  const auto ints = [](const std::vector<int>& v) { return std::span<const int>(v); };
  SchurArrays<Real>& a = arrays_;
  a = {};
  a.block_count = blocks_.count();
  a.body_count = blocks_.body_count();
  a.inv_mass = scalars(blocks_.inv_mass, 3);
  a.inv_inertia = scalars(blocks_.inv_inertia_W, 9).first(9 * blocks_.body_count());
  a.row_count = row_count();
  a.row_begin = ints(packed_row_begin_);
  a.end_block = ints(packed_end_block_);
  a.end_lin = scalars(packed_end_lin_, 3);
  a.end_ang = scalars(packed_end_ang_, 3);
  a.incidence_begin = ints(incidence_begin_);
  a.incidence_row = ints(incidence_row_);
  a.incidence_lin = scalars(incidence_lin_, 3);
  a.incidence_ang = scalars(incidence_ang_, 3);
  a.compliance = std::span<const Real>(c_diag_.data(), row_count());
  a.regularization = settings_.regularization;
  a.diagonal = std::span<const Real>(diag_.data(), diag_.size());
  elements_.DescribeArrays(&a);
}


void NewtonSystem::AccumulateJt(const VectorX& x, std::vector<Vec3>* lin,
                                std::vector<Vec3>* ang) const {
  // Jᵀx gathered per block, in row order (the same sums whatever the thread count)
  const SchurArrays<Real>& a = arrays_;
  ParallelFor(static_cast<int>(lin->size()), 256, kMinParallelBlocks, [&](int begin, int end) {
    GatherRowsJt(a, x.data(), begin, end, (*lin)[0].data(), (*ang)[0].data());
  });
  if (elements_.row_count() > 0) elements_.AddJt(x.data() + row_count(), lin);
}


void NewtonSystem::ApplyInverseH(const std::vector<Vec3>& lin, const std::vector<Vec3>& ang,
                                 std::vector<Vec3>* out_lin, std::vector<Vec3>* out_ang) const {
  if (lin.empty()) return;
  nsn::ApplyInverseH(arrays_, lin[0].data(), ang[0].data(), (*out_lin)[0].data(),
                     (*out_ang)[0].data());
}


Real NewtonSystem::ApplyDot(const VectorX& x, VectorX* y) const {
  // A x = J (H⁻¹ (Jᵀ x)) + C x + εx, by successive products ([T §4.9]); xᵀ A x summed by the
  // element rows in their pass (they are most of the rows)
  AccumulateJt(x, &scratch_lin_, &scratch_ang_);
  ApplyInverseH(scratch_lin_, scratch_ang_, &scratch_lin2_, &scratch_ang2_);
  y->resize(size());
  const SchurArrays<Real>& a = arrays_;
  ParallelFor(row_count(), 1024, kMinParallelRows, [&](int begin, int end) {
    ApplyRows(a, scratch_lin2_[0].data(), scratch_ang2_[0].data(), x.data(), begin, end, y->data());
  });
  Real dot = x.head(row_count()).dot(y->head(row_count()));
  if (elements_.row_count() > 0) {
    dot += elements_.Apply(scratch_lin2_, x.data() + row_count(), settings_.regularization,
                           y->data() + row_count());
  }
  return dot;
}


void NewtonSystem::GaussSeidelSweep(const VectorX& b, VectorX* x) const {
  // keep t = H⁻¹ Jᵀ x current while visiting the rows in order
  AccumulateJt(*x, &scratch_lin_, &scratch_ang_);
  ApplyInverseH(scratch_lin_, scratch_ang_, &scratch_lin2_, &scratch_ang2_);
  for (int i = 0; i < row_count(); ++i) {
    const Row& row = rows_[i];
    const Real ax = RowDot(row, scratch_lin2_.data(), scratch_ang2_.data()) +
                    (c_diag_(i) + settings_.regularization) * (*x)(i);
    const Real delta = (b(i) - ax) / diag_(i);
    (*x)(i) += delta;
    for (const RowEnd& e : row.end) {
      if (e.block < 0) continue;
      scratch_lin2_[e.block] += blocks_.inv_mass[e.block].cwiseProduct(delta * e.lin);
      scratch_ang2_[e.block] += blocks_.inv_inertia_W[e.block] * (delta * e.ang);
    }
  }
  if (elements_.row_count() > 0) {
    const int begin = row_count();
    elements_.GaussSeidelSweep(b.data() + begin, diag_.data() + begin, settings_.regularization,
                               blocks_.inv_mass, &scratch_lin2_, x->data() + begin);
  }
}


Eigen::SparseMatrix<Real> NewtonSystem::AssembleMatrix() const {
  // J (rows × 6 per block) and the block-diagonal H⁻¹, then A = J H⁻¹ Jᵀ + C + εI
  const int blocks = static_cast<int>(blocks_.x.size());
  std::vector<Eigen::Triplet<Real>> j_entries, h_entries;
  for (int i = 0; i < row_count(); ++i) {
    for (const RowEnd& e : rows_[i].end) {
      if (e.block < 0) continue;
      for (int k = 0; k < 3; ++k) {
        if (e.lin(k) != 0) j_entries.emplace_back(i, 6 * e.block + k, e.lin(k));
        if (e.ang(k) != 0) j_entries.emplace_back(i, 6 * e.block + 3 + k, e.ang(k));
      }
    }
  }
  std::vector<Eigen::Triplet<Real>> c_entries;
  elements_.AppendTriplets(row_count(), &j_entries, &c_entries);
  for (int b = 0; b < blocks; ++b) {
    for (int r = 0; r < 3; ++r) {
      h_entries.emplace_back(6 * b + r, 6 * b + r, blocks_.inv_mass[b](r));
      for (int c = 0; c < 3; ++c) {
        h_entries.emplace_back(6 * b + 3 + r, 6 * b + 3 + c, blocks_.inv_inertia_W[b](r, c));
      }
    }
  }
  Eigen::SparseMatrix<Real> J(size(), 6 * blocks), H_inv(6 * blocks, 6 * blocks);
  J.setFromTriplets(j_entries.begin(), j_entries.end());
  H_inv.setFromTriplets(h_entries.begin(), h_entries.end());
  Eigen::SparseMatrix<Real> A = J * H_inv * J.transpose();
  Eigen::SparseMatrix<Real> C(size(), size());
  for (int i = 0; i < row_count(); ++i) {
    c_entries.emplace_back(i, i, c_diag_(i) + settings_.regularization);
  }
  for (int i = row_count(); i < size(); ++i) c_entries.emplace_back(i, i, settings_.regularization);
  C.setFromTriplets(c_entries.begin(), c_entries.end());
  return A + C;
}


bool NewtonSystem::has_preconditioner() const {
  return joint_preconditioner_.valid() ||
         (settings_.fem_preconditioner == FemPreconditioner::kWoodbury &&
          elements_.row_count() > 0 && element_preconditioner_.valid());
}


void NewtonSystem::ApplyPreconditioner(const VectorX& r, VectorX* z) const {
  // the diagonal on every row, then the exact blocks over their rows
  *z = r.cwiseQuotient(diag_);
  joint_preconditioner_.Apply(r.data(), z->data());
  if (settings_.fem_preconditioner == FemPreconditioner::kWoodbury && elements_.row_count() > 0 &&
      element_preconditioner_.valid()) {
    element_preconditioner_.Apply(r.data(), z->data());
  }
}


void NewtonSystem::UpdatePreconditioner() {
  // the rigid rows of joints and couplings (compliant, drive, limit and friction rows stay on the
  // diagonal: joint_preconditioner.h)
  const bool exact = settings_.joint_preconditioner == JointPreconditionerKind::kExact ||
                     (settings_.joint_preconditioner == JointPreconditionerKind::kAuto &&
                      heavy_joint_load_ && settings_.geometric_stiffness);
  const int joint_rows = exact ? constraints_.attachment_row_begin() : 0;
  joint_block_rows_.assign(joint_rows, 0);
  for (int i = 0; i < joint_rows; ++i) {
    joint_block_rows_[i] = constraints_.type(i) == RowType::kBilateral &&
                           std::isinf(constraints_.bilateral(i).stiffness);
  }
  joint_preconditioner_.Update(rows_, joint_rows, joint_block_rows_, blocks_, c_diag_.data(),
                               settings_.regularization);
  if (settings_.fem_preconditioner != FemPreconditioner::kWoodbury || elements_.row_count() == 0) {
    return;
  }
  // rows with particle ends (contacts of tet nodes and surface triangles with the world and with
  // bodies, attachments) join the exact block, their rigid ends by their J M⁻¹ Jᵀ: a contact on a
  // stiff body is held by the whole body, which its diagonal alone does not see (measured: a
  // Y = 10 MPa PneuNet finger pressed on a ball ran away with only the world's rows in the
  // block). A failed factorization leaves the preconditioner invalid: PCR then uses the diagonal
  VectorX rigid_inverse_mass(row_count());
  for (int i = 0; i < row_count(); ++i) {
    Row rigid_ends = rows_[i];
    for (RowEnd& e : rigid_ends.end) {
      if (e.block >= 0 && blocks_.particle[e.block]) e.block = -1;
    }
    rigid_inverse_mass(i) = blocks_.EffectiveMass(rigid_ends, true);
  }
  element_preconditioner_.Update(
      elements_, blocks_.inv_mass, settings_.regularization, row_count(),
      CollectPointRows(rows_, blocks_.particle, c_diag_.head(row_count()), rigid_inverse_mass,
                       settings_.regularization));
}


void NewtonSystem::BuildRhs(VectorX* b) const {
  // b = J H⁻¹ g − h (for the unknown x = ΔλΔt)
  ApplyInverseH(g_lin_, g_ang_, &scratch_lin2_, &scratch_ang2_);
  b->resize(size());
  for (int i = 0; i < row_count(); ++i) {
    (*b)(i) = RowDot(rows_[i], scratch_lin2_.data(), scratch_ang2_.data()) - h_(i);
  }
  if (elements_.row_count() > 0) {
    elements_.MultiplyJ(scratch_lin2_, b->data() + row_count());
    b->tail(element_row_count()) -= h_.tail(element_row_count());
  }
}


void NewtonSystem::RecoverVelocity(const VectorX& x) {
  // Δu = H⁻¹(Jᵀx − g), eq. (81)
  AccumulateJt(x, &scratch_lin_, &scratch_ang_);
  for (std::size_t k = 0; k < blocks_.x.size(); ++k) {
    scratch_lin_[k] -= g_lin_[k];
    scratch_ang_[k] -= g_ang_[k];
  }
  ApplyInverseH(scratch_lin_, scratch_ang_, &dv_, &dw_);
}


Real NewtonSystem::ApplyStep(Real alpha, const VectorX& x) {
  v_prev_ = blocks_.v;
  lambda_ += (alpha / dt_) * x;
  // friction solved in a contact's own frame: Δλ_f = TᵀΔλ'
  if (settings_.friction == FrictionLinearization::kProjection) {
    for (int c = 0; c < constraints_.contact_count(); ++c) {
      const int i = constraints_.friction_row(c);
      const Eigen::Vector2d solved = x.segment<2>(i);
      lambda_.segment<2>(i) += (alpha / dt_) * (friction_frame_[c].transpose() * solved - solved);
    }
  }
  Real step = 0;
  for (std::size_t k = 0; k < blocks_.x.size(); ++k) {
    if (blocks_.fixed[k]) continue;
    blocks_.v[k] += alpha * dv_[k];
    blocks_.w[k] += alpha * dw_[k];
    step = std::max(
        {step, alpha * dv_[k].cwiseAbs().maxCoeff(), alpha * dw_[k].cwiseAbs().maxCoeff()});
  }
  blocks_.UpdatePositions();
  return step;
}


void NewtonSystem::SaveIterate(Iterate* to) const {
  to->v = blocks_.v;
  to->w = blocks_.w;
  to->x = blocks_.x;
  to->q.assign(blocks_.q.begin(), blocks_.q.end());
  to->lambda = lambda_;
}


void NewtonSystem::RestoreIterate(const Iterate& from) {
  blocks_.v = from.v;
  blocks_.w = from.w;
  blocks_.x = from.x;
  blocks_.q.assign(from.q.begin(), from.q.end());
  lambda_ = from.lambda;
}


void NewtonSystem::KeepGradients() {
  // only particle rows feed the estimate; skip the copy when it cannot be used
  if (settings_.geometric_stiffness && blocks_.dof_count() > 6L * blocks_.body_count())
    gradients_prev_ = constraints_.gradients();
  // (the element rows' secant is the three-row form's; six rows use the closed form)
  if (settings_.geometric_stiffness && elements_.row_count() > 0 && !elements_.shear_rows()) {
    elements_.KeepRows();
  }
}


void NewtonSystem::UpdateRotationalStiffness() {
  // H_ang = I_W + Δt² P₊(−Σ λ ∂²c/∂θ²) per body from the joints' point rows (closed form,
  // JointPointStiffness), P₊ the positive part: a light link carrying a heavy load has a
  // rotational stiffness Δt² T r far above its inertia, and Newton without it overshoots
  if (!settings_.geometric_stiffness || model_->joint_count() == 0) return;
  rotation_stiffness_.assign(blocks_.body_count(), Mat3::Zero());
  // each joint's rows start with its three point rows (constraint_rows.h)
  for (int i = 0; i + 2 < constraints_.attachment_row_begin(); ++i) {
    const int j = constraints_.joint(i);
    if (j < 0 || (i > 0 && constraints_.joint(i - 1) == j) || !HasPointRows(*model_, j) ||
        constraints_.joint(i + 2) != j) {
      continue;
    }
    const Vec3 force(lambda_(i), lambda_(i + 1), lambda_(i + 2));
    if (force.squaredNorm() == 0) continue;
    const JointBodies bodies = blocks_.JointBodiesAt(*model_, j);
    Mat3 parent, child;
    JointPointStiffness(*model_, j, bodies, force, &parent, &child);
    if (bodies.parent_block >= 0 && bodies.parent_block < blocks_.body_count())
      rotation_stiffness_[bodies.parent_block] += parent;
    if (bodies.child_block >= 0 && bodies.child_block < blocks_.body_count())
      rotation_stiffness_[bodies.child_block] += child;
  }
  // every body, so one whose load went away this iteration drops last iteration's shift
  heavy_joint_load_ = false;
  for (int b = 0; b < blocks_.body_count(); ++b) {
    if (blocks_.fixed[b]) continue;
    Vec3 positive = Vec3::Zero();
    Eigen::SelfAdjointEigenSolver<Mat3> eigen;
    if (!rotation_stiffness_[b].isZero(0)) {
      eigen.computeDirect(rotation_stiffness_[b]);  // closed form for 3×3
      positive = eigen.eigenvalues().cwiseMax(0);
    }
    if (positive.maxCoeff() <= 0) {
      blocks_.inv_inertia_W[b] = blocks_.inertia_W[b].inverse();
      continue;
    }
    const Mat3 shift =
        eigen.eigenvectors() * positive.asDiagonal() * eigen.eigenvectors().transpose();
    blocks_.inv_inertia_W[b] = (blocks_.inertia_W[b] + dt_ * dt_ * shift).inverse();
    heavy_joint_load_ |=
        dt_ * dt_ * positive.maxCoeff() > kHeavyJointLoad * blocks_.inertia_W[b].trace() / 3;
  }
}


void NewtonSystem::UpdateGeometricStiffness() {
  UpdateRotationalStiffness();
  // Δf = Δt (J_phys(qⁿ⁺¹) − J_phys(qⁿ))ᵀ λⁿ⁺¹ on particle DOFs; c_k = Δf_k / Δu_k
  // only particle DOFs carry the estimate: nothing to do in a scene of rigid bodies
  if (!settings_.geometric_stiffness || model_->particle_count() == 0) return;
  std::fill(scratch_lin_.begin(), scratch_lin_.end(), Vec3::Zero());
  std::fill(scratch_lin2_.begin(), scratch_lin2_.end(), Vec3::Zero());
  bool any_particle_row = false;
  for (int i = 0; i < row_count(); ++i) {
    const Real lambda = lambda_(i);
    if (lambda == 0) continue;
    for (int e = 0; e < kMaxRowEnds; ++e) {
      const int block = constraints_.gradient(i).end[e].block;
      if (block < 0 || !blocks_.particle[block]) continue;
      any_particle_row = true;
      scratch_lin_[block] +=
          dt_ * lambda * (constraints_.gradient(i).end[e].lin - gradients_prev_[i].end[e].lin);
    }
  }
  // element rows: the secant in the sources' three-row form; in the six-row form the closed-form
  // diagonal of the rotation modes (element_rows.h), as the shear rows carry the other pair mode
  // and its secant sees (λ_i − λ_j)/(s_i − s_j), unbounded for unconverged multipliers at nearly
  // equal stretches (a ball near rest: it reached 10⁴-10⁷ times the particle masses at impact,
  // which froze the particles and made the next secant larger still, measured)
  const bool closed_form = elements_.row_count() > 0 && elements_.shear_rows();
  if (closed_form) {
    elements_.AddRotationStiffness(lambda_.data() + row_count(), dt_, &scratch_lin2_);
    any_particle_row = true;
  } else if (elements_.row_count() > 0) {
    elements_.AddSecantForce(lambda_.data() + row_count(), dt_, &scratch_lin_);
    any_particle_row = true;
  }
  if (!any_particle_row) return;
  constexpr Real kTinyVelocity = 1e-12;  // skip DOFs that did not move (digest §10)
  for (std::size_t k = 0; k < blocks_.x.size(); ++k) {
    if (!blocks_.particle[k] || blocks_.fixed[k]) continue;
    for (int d = 0; d < 3; ++d) {
      const Real du = blocks_.v[k](d) - v_prev_[k](d);
      const bool moved = std::abs(du) >= kTinyVelocity;
      if (!moved && !closed_form) continue;
      const Real c = scratch_lin2_[k](d) + (moved ? scratch_lin_[k](d) / du : 0);
      block_gs_shift_[k](d) = std::max<Real>(0, -c);  // H̃_kk = M̃_kk − min(0, c_k)
      blocks_.inv_mass[k](d) = 1 / (blocks_.mass[k] + block_gs_shift_[k](d));
    }
  }
}


void NewtonSystem::WriteState(State* out) const {
  blocks_.WriteState(*model_, *in_, out);
  // warm-start record for the next step, keyed by entity
  WarmStartRecord& record = CarryWarmStarts(*in_, "nsn", out);
  const int joint_rows = constraints_.contact_row_begin();
  record.joint_rows.assign(lambda_.data(), lambda_.data() + joint_rows);
  record.element_rows.resize(element_row_count());
  for (int e = 0; e < elements_.tet_count(); ++e) {
    for (int r = 0; r < kElementRows; ++r) {
      record.element_rows[kElementRows * e + r] = lambda_(row_count() + elements_.RowIndex(e, r));
    }
  }
  record.contacts.clear();
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    const Real normal = lambda_(constraints_.normal_row(c));
    if (!(normal > 0)) continue;  // separated: nothing worth carrying over
    const ContactInfo& info = constraints_.contact(c);
    ContactImpulse impulse;
    impulse.key = info.key;
    impulse.normal = normal;
    impulse.friction_W = lambda_(constraints_.friction_row(c)) * info.tangent +
                         lambda_(constraints_.friction_row(c) + 1) * info.bitangent;
    record.contacts.push_back(impulse);
  }
  SortContactImpulses(&record.contacts);
}


void NewtonSystem::WriteContacts(Contacts* contacts) const {
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    Contact& contact = contacts->items[c];
    contact.normal_force = lambda_(constraints_.normal_row(c));
    contact.friction_force[0] = lambda_(constraints_.friction_row(c));
    contact.friction_force[1] = lambda_(constraints_.friction_row(c) + 1);
    contact.gap = constraints_.contact(c).gap;
  }
}


int NewtonSystem::active_contact_count() const {
  int count = 0;
  for (int c = 0; c < constraints_.contact_count(); ++c) {
    count += lambda_(constraints_.normal_row(c)) > 0;
  }
  return count;
}


void NewtonSystem::HoldRowForce(int i, Real rate, Real held) {
  // h = Ju + C(λ − held) with C far above the row's J M⁻¹ Jᵀ Δt: the Newton step sets λ = held
  // and leaves the motion free
  const Real compliance = kSlideForceCompliance * r_(i);
  c_diag_(i) = compliance / dt_;
  h_(i) = rate + compliance * (lambda_(i) - held);
}


void NewtonSystem::AssembleJointFrictionRow(int i) {
  // the 1-D friction cone |λ| ≤ F of a joint's rate (digest §4.4.b with F for μλ_n): C = W/Δt,
  // h = Ju + Wλ; W = 0 sticks (a hard rate row), W > 0 slides with |λ| = F
  const Real dt = dt_;
  const Row& grad = constraints_.gradient(i);
  if (!r_frozen_) {
    Real r = 1;
    if (settings_.preconditioner == ComplementarityScaling::kEffectiveMass) {
      r = dt * std::max(blocks_.EffectiveMass(grad, false), 1e-12);
    } else if (settings_.preconditioner == ComplementarityScaling::kTimeStepSquared) {
      r = dt;
    }
    r_(i) = r;
  }
  const Real slip = RowDot(grad, blocks_.v.data(), blocks_.w.data());
  rows_[i] = grad;
  if (settings_.friction == FrictionLinearization::kProjection) {
    // the 1-D projection λ = P(λ − s/r) on [−F, F]: stick inside, else the force held at ±F
    const Real limit = constraints_.bilateral(i).friction_limit;
    const Real z = lambda_(i) - slip / r_(i);
    if (std::abs(z) < limit * (1 - 1e-9)) {
      c_diag_(i) = 0;
      h_(i) = slip;
    } else {
      HoldRowForce(i, slip, std::copysign(limit, z));
    }
    const Real error = std::abs(lambda_(i) - std::clamp(z, -limit, limit)) * r_(i);
    errors_.friction = std::max(errors_.friction, error);
    return;
  }
  const Real w = FrictionCompliance(settings_.ncp, std::abs(slip), std::abs(lambda_(i)),
                                    constraints_.bilateral(i).friction_limit, r_(i));
  c_diag_(i) = w / dt;
  h_(i) = slip + w * lambda_(i);
  errors_.friction = std::max(errors_.friction, std::abs(h_(i)));
}


bool NewtonSystem::IsFinite() const { return lambda_.allFinite() && blocks_.IsFinite(); }


void NewtonSystem::GetVelocity(VectorX* u) const {
  u->resize(blocks_.dof_count());
  long offset = 0;
  for (std::size_t k = 0; k < blocks_.x.size(); ++k) {
    u->segment<3>(offset) = blocks_.v[k];
    offset += 3;
    if (!blocks_.particle[k]) {
      u->segment<3>(offset) = blocks_.w[k];
      offset += 3;
    }
  }
}


void NewtonSystem::SetVelocity(const VectorX& u) {
  long offset = 0;
  for (std::size_t k = 0; k < blocks_.x.size(); ++k) {
    blocks_.v[k] = u.segment<3>(offset);
    offset += 3;
    if (!blocks_.particle[k]) {
      blocks_.w[k] = u.segment<3>(offset);
      offset += 3;
    }
  }
  blocks_.UpdatePositions();
}

}  // namespace sim::nsn
