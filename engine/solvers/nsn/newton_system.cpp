#include "engine/solvers/nsn/newton_system.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "engine/core/parallel.h"
#include "engine/solvers/nsn/ncp.h"

namespace sim::nsn {
namespace {

// below these sizes the products run on the calling thread (TBB overhead, tiny test scenes)
constexpr int kMinParallelBlocks = 512;
constexpr int kMinParallelRows = 4096;

}  // namespace

namespace {

constexpr Real kInfinity = std::numeric_limits<Real>::infinity();


// implicit gyroscopic update of ω under zero torque: one Newton step on
// I(ω − ω0) + Δt ω × Iω = 0 in the body frame (Catto 2015). The explicit form of digest §5 gains
// energy on fast asymmetric spinners; this one does not blow up.
Vec3 ImplicitGyroscopic(const Vec3& w_W, const Quat& q_WB, const Mat3& inertia_B, Real dt) {
  const Vec3 w_B = q_WB.conjugate() * w_W;
  const Vec3 Iw = inertia_B * w_B;
  const Vec3 f = dt * w_B.cross(Iw);
  Mat3 skew_w, skew_Iw;
  skew_w << 0, -w_B.z(), w_B.y(), w_B.z(), 0, -w_B.x(), -w_B.y(), w_B.x(), 0;
  skew_Iw << 0, -Iw.z(), Iw.y(), Iw.z(), 0, -Iw.x(), -Iw.y(), Iw.x(), 0;
  const Mat3 jacobian = inertia_B + dt * (skew_w * inertia_B - skew_Iw);
  const Vec3 w_next = w_B - jacobian.inverse() * f;
  return q_WB * w_next;
}

}  // namespace


void NewtonSystem::Begin(const Model& model, const State& in, const Control& control,
                         const Contacts& contacts, Real dt) {
  model_ = &model;
  control_ = &control;
  dt_ = dt;
  settings_ = model.options.solver;
  body_count_ = model.body_count();
  in_ = in;
  const int blocks = body_count_ + model.particle_count();
  const Vec3& gravity = model.options.gravity;

  // DOF blocks: M̃ at q⁻ (world inertia), ũ = u⁻ + Δt M̃⁻¹ f_ext (+ gyroscopic), digest §5
  for (auto* v : {&block_inv_mass_,
                  &block_gs_shift_,
                  &x0_,
                  &x_,
                  &v_,
                  &w_,
                  &v_tilde_,
                  &w_tilde_,
                  &dv_,
                  &dw_,
                  &v_saved_,
                  &w_saved_,
                  &x_saved_,
                  &v_prev_,
                  &scratch_lin_,
                  &scratch_ang_,
                  &scratch_lin2_,
                  &scratch_ang2_,
                  &g_lin_,
                  &g_ang_}) {
    v->assign(blocks, Vec3::Zero());
  }
  block_fixed_.assign(blocks, 0);
  block_particle_.assign(blocks, 0);
  block_mass_.assign(blocks, 0);
  block_inertia_W_.assign(blocks, Mat3::Zero());
  block_inv_inertia_W_.assign(blocks, Mat3::Zero());
  q0_.assign(blocks, Quat::Identity());
  q_saved_.assign(blocks, Quat::Identity());
  dof_count_ = 0;
  for (int b = 0; b < body_count_; ++b) {
    const Pose& X = in.body_X_WB[b];
    x0_[b] = X.p;
    q0_[b] = X.q.normalized();
    dof_count_ += 6;
    if (model.body_static[b] || model.body_mass[b] <= 0) {
      block_fixed_[b] = 1;
      continue;
    }
    const Real m = model.body_mass[b];
    const Mat3 R = q0_[b].toRotationMatrix();
    block_mass_[b] = m;
    block_inertia_W_[b] = R * model.body_inertia[b] * R.transpose();
    block_inv_inertia_W_[b] = block_inertia_W_[b].inverse();
    block_inv_mass_[b].setConstant(1 / m);
    Vec3 force = m * gravity;
    Vec3 torque = Vec3::Zero();
    if (b < static_cast<int>(control.body_force_W.size())) force += control.body_force_W[b];
    if (b < static_cast<int>(control.body_torque_W.size())) torque = control.body_torque_W[b];
    v_tilde_[b] = in.body_v_W[b] + dt * force / m;
    w_tilde_[b] = ImplicitGyroscopic(in.body_w_W[b], q0_[b], model.body_inertia[b], dt) +
                  dt * (block_inv_inertia_W_[b] * torque);
  }
  for (int p = 0; p < model.particle_count(); ++p) {
    const int k = body_count_ + p;
    const Real m = model.particle_mass[p];
    block_particle_[k] = 1;
    block_mass_[k] = m;
    x0_[k] = in.particle_x_W[p];
    dof_count_ += 3;
    // a fixed particle (clamped FEM node) keeps a zero inverse mass, like a static body
    if (model.particle_is_fixed(p)) {
      block_fixed_[k] = 1;
      continue;
    }
    block_inv_mass_[k].setConstant(1 / m);
    Vec3 force = m * gravity;
    if (p < static_cast<int>(control.particle_force_W.size())) force += control.particle_force_W[p];
    v_tilde_[k] = in.particle_v_W[p] + dt * force / m;
  }
  x_ = x0_;
  q_.assign(q0_.begin(), q0_.end());

  // contacts: body-frame points and the contact frame, fixed for the step (digest §2.9)
  contact_count_ = contacts.count();
  contacts_.resize(contact_count_);
  for (int c = 0; c < contact_count_; ++c) {
    const Contact& src = contacts.items[c];
    ContactInfo& info = contacts_[c];
    const auto block_of = [&](const ContactSide& side) {
      if (side.is_particle()) return body_count_ + side.particle();
      return side.body;  // kWorldBody = −1: the static world
    };
    const auto particle_blocks = [&](const ContactSide& side) {
      std::array<int, 3> blocks = {-1, -1, -1};
      for (int k = 0; k < 3; ++k) {
        if (side.particles[k] >= 0) blocks[k] = body_count_ + side.particles[k];
      }
      return blocks;
    };
    info.block_a = block_of(src.a);
    info.block_b = block_of(src.b);
    info.particles_a = src.a.is_particle();
    info.particles_b = src.b.is_particle();
    info.blocks_a = particle_blocks(src.a);
    info.blocks_b = particle_blocks(src.b);
    info.weights_a = src.a.weights;
    info.weights_b = src.b.weights;
    info.p_a = src.a.p_B;
    info.p_b = src.b.p_B;
    info.radius_a = src.a.radius;
    info.radius_b = src.b.radius;
    info.normal = src.normal_W;
    info.tangent = src.tangent_W;
    info.bitangent = src.bitangent_W;
    info.thickness = src.thickness;
    info.mu_t = src.friction_t;
    info.mu_b = src.friction_b;
    info.gap = src.gap0;
    info.key = ContactKey(src);
  }

  // row layout: joint rows, attachment rows, contact normals, friction pairs (element rows
  // follow in their own form)
  int joint_rows = 0;
  for (int j = 0; j < model.joint_count(); ++j) joint_rows += JointRowCount(model, j);
  joint_rows += CouplingRowCount(model);
  attachment_row_begin_ = joint_rows;
  contact_row_begin_ = joint_rows + 3 * model.attachment_count();
  friction_row_begin_ = contact_row_begin_ + contact_count_;
  const int rows = friction_row_begin_ + 2 * contact_count_;
  rows_.resize(rows);
  gradients_.resize(rows);
  gradients_prev_.resize(rows);
  row_type_.resize(rows);
  row_joint_.assign(rows, -1);
  bilateral_.resize(rows);
  value_.assign(rows, 0);
  friction_active_.assign(contact_count_, 0);
  joint_scratch_.resize(kMaxJointRows);
  elements_.Begin(model, body_count_, dt, in.time + dt, settings_.fem_shear_rows);
  for (VectorX* v : {&lambda_, &lambda_saved_, &c_diag_, &h_, &diag_, &r_}) {
    v->setZero(rows + elements_.row_count());
  }
  r_frozen_ = false;

  // static row data: types and the targets/gains of bilateral rows
  int row = 0;
  for (int j = 0; j < model.joint_count(); ++j) {
    JointBodies bodies;
    const int n = BuildJointRows(model, j, bodies, joint_scratch_.data());
    const bool angular = model.joint_type[j] != JointType::kPrismatic;
    for (int k = 0; k < n; ++k, ++row) {
      row_joint_[row] = j;
      BilateralInfo& info = bilateral_[row];
      info = BilateralInfo{};
      switch (joint_scratch_[k].kind) {
        case JointRowKind::kLimitLower:
        case JointRowKind::kLimitUpper:
          row_type_[row] = RowType::kUnilateral;
          break;
        case JointRowKind::kDrive: {
          const JointDrive& drive = model.joint_drive[j];
          row_type_[row] = RowType::kBilateral;
          info.stiffness = drive.stiffness;
          info.damping = drive.damping;
          info.target_position = JointTargetPosition(model, control, j);
          info.target_velocity = JointTargetVelocity(model, control, j);
          info.angular_target = angular;
          break;
        }
        case JointRowKind::kLocked:
        case JointRowKind::kPointLocked: {
          row_type_[row] = RowType::kBilateral;
          // rotation rows may be softer than point rows (bending joints)
          const Real compliance = joint_scratch_[k].kind == JointRowKind::kLocked
                                      ? model.JointAngularCompliance(j)
                                      : model.joint_compliance[j];
          info.stiffness = compliance > 0 ? 1 / compliance : kInfinity;
          info.positional = joint_scratch_[k].kind == JointRowKind::kPointLocked;
          break;
        }
        case JointRowKind::kFriction:
          row_type_[row] = RowType::kFriction;
          info.friction_limit = model.JointFrictionLimit(j);
          break;
      }
    }
  }
  // coupling (mimic) rows: rigid, after every joint's rows
  for (int k = 0; k < CouplingRowCount(model); ++k, ++row) {
    row_joint_[row] = model.joint_couplings[k].follower;
    row_type_[row] = RowType::kBilateral;
    bilateral_[row] = BilateralInfo{};
    bilateral_[row].stiffness = kInfinity;
  }
  // attachment rows: rigid or compliant, positional (they count towards the joint error)
  for (int a = 0; a < model.attachment_count(); ++a, row += 3) {
    for (int k = 0; k < 3; ++k) {
      row_type_[row + k] = RowType::kBilateral;
      BilateralInfo& info = bilateral_[row + k];
      info = BilateralInfo{};
      const Real compliance = model.attachment_compliance[a];
      info.stiffness = compliance > 0 ? 1 / compliance : kInfinity;
      info.positional = true;
    }
  }
  for (int c = 0; c < contact_count_; ++c) {
    row_type_[contact_row_begin_ + c] = RowType::kUnilateral;
    row_type_[friction_row_begin_ + 2 * c] = RowType::kFriction;
    row_type_[friction_row_begin_ + 2 * c + 1] = RowType::kFriction;
  }
  if (settings_.warm_start) WarmStart(in);
}


void NewtonSystem::WarmStart(const State& in) {
  // velocities from the last step too: λ from a sliding contact with u = 0 would read as "stick
  // beyond the cone" and the friction fixed point would settle on the wrong branch
  for (int b = 0; b < body_count_; ++b) {
    if (block_fixed_[b]) continue;
    v_[b] = in.body_v_W[b];
    w_[b] = in.body_w_W[b];
  }
  for (std::size_t p = 0; p < in.particle_v_W.size(); ++p) {
    if (!block_fixed_[body_count_ + p]) v_[body_count_ + p] = in.particle_v_W[p];
  }
  UpdatePositions();

  // joint rows by position (their layout is fixed by the model)
  if (static_cast<int>(in.joint_lambda.size()) == contact_row_begin_) {
    for (int i = 0; i < contact_row_begin_; ++i) lambda_(i) = in.joint_lambda[i];
  }
  // contacts by key: the same shape pair and feature as in the previous step
  const auto& cache = in.contact_impulses;
  for (int c = 0; c < contact_count_; ++c) {
    const auto it = std::lower_bound(
        cache.begin(), cache.end(), contacts_[c].key,
        [](const ContactImpulse& entry, std::uint64_t key) { return entry.key < key; });
    if (it == cache.end() || it->key != contacts_[c].key) continue;
    lambda_(contact_row_begin_ + c) = it->normal;
    lambda_(friction_row_begin_ + 2 * c) = it->friction[0];
    lambda_(friction_row_begin_ + 2 * c + 1) = it->friction[1];
  }
  // element rows by position (their layout is fixed by the model)
  if (static_cast<int>(in.element_lambda.size()) == elements_.row_count()) {
    for (int i = 0; i < elements_.row_count(); ++i) lambda_(row_count() + i) = in.element_lambda[i];
  }
}


Vec3 NewtonSystem::WorldPoint(int block, const Vec3& p, Vec3* lever) const {
  if (block < 0) {
    lever->setZero();
    return p;  // static world: the point is already in world coordinates
  }
  if (block_particle_[block]) {
    lever->setZero();
    return x_[block];
  }
  *lever = q_[block] * p;
  return x_[block] + *lever;
}


Vec3 NewtonSystem::ContactSidePoint(bool particles, const std::array<int, 3>& blocks,
                                    const Vec3& weights, int block, const Vec3& p,
                                    ContactRowSide* side) const {
  side->particles = particles;
  if (!particles) {
    // rigid side: fixed blocks contribute no row coefficients
    const Vec3 point = WorldPoint(block, p, &side->lever);
    side->block[0] = block >= 0 && !block_fixed_[block] ? block : -1;
    return point;
  }
  // particle side: the weighted sum of its particles (a vertex, an edge or a triangle point)
  Vec3 point = Vec3::Zero();
  side->weights = weights;
  for (int k = 0; k < 3; ++k) {
    if (blocks[k] < 0) continue;
    point += weights(k) * x_[blocks[k]];
    side->block[k] = block_fixed_[blocks[k]] ? -1 : blocks[k];
  }
  return point;
}


Real NewtonSystem::EffectiveMass(const Row& row, bool with_shift) const {
  Real sum = 0;
  for (const RowEnd& e : row.end) {
    if (e.block < 0 || block_fixed_[e.block]) continue;
    const Real inv_m = 1 / block_mass_[e.block];
    sum += with_shift ? e.lin.dot(block_inv_mass_[e.block].cwiseProduct(e.lin))
                      : inv_m * e.lin.squaredNorm();
    if (!block_particle_[e.block]) sum += e.ang.dot(block_inv_inertia_W_[e.block] * e.ang);
  }
  return sum;
}


void NewtonSystem::AssembleJointRows() {
  const Model& model = *model_;
  int row = 0;
  for (int j = 0; j < model.joint_count(); ++j) {
    const int n = BuildJointRows(model, j, JointBodiesAt(j), joint_scratch_.data());
    for (int k = 0; k < n; ++k, ++row) {
      gradients_[row] = joint_scratch_[k].row;
      value_[row] = joint_scratch_[k].value;
    }
  }
  for (int k = 0; k < CouplingRowCount(model); ++k, ++row) {
    const JointRow coupling =
        BuildCouplingRow(model, k, JointBodiesAt(model.joint_couplings[k].follower),
                         JointBodiesAt(model.joint_couplings[k].leader));
    gradients_[row] = coupling.row;
    value_[row] = coupling.value;
  }
}


JointBodies NewtonSystem::JointBodiesAt(int j) const {
  const Model& model = *model_;
  JointBodies bodies;
  const int parent = model.joint_parent[j];
  const int child = model.joint_child[j];
  if (parent >= 0) bodies.X_WP = {x_[parent], q_[parent]};
  bodies.X_WC = {x_[child], q_[child]};
  bodies.parent_block = (parent >= 0 && !block_fixed_[parent]) ? parent : -1;
  bodies.child_block = block_fixed_[child] ? -1 : child;
  return bodies;
}


void NewtonSystem::AssembleAttachmentRows() {
  // c_k = (x_p − X_WB·p_B)·e_k; ∂/∂u: particle e_k, body −[e_k, r × e_k] (r = R p_B)
  const Model& model = *model_;
  for (int a = 0; a < model.attachment_count(); ++a) {
    const int particle = body_count_ + model.attachment_particle[a];
    const int body = model.attachment_body[a];
    Vec3 lever;
    const Vec3 target = WorldPoint(body, model.attachment_p_B[a], &lever);
    const Vec3 error = x_[particle] - target;
    const int particle_end = block_fixed_[particle] ? -1 : particle;
    const int body_end = body >= 0 && !block_fixed_[body] ? body : -1;
    for (int k = 0; k < 3; ++k) {
      const int row = attachment_row_begin_ + 3 * a + k;
      const Vec3 axis = Vec3::Unit(k);
      Row& grad = gradients_[row];
      grad = Row{};
      grad.end[0] = {particle_end, axis, Vec3::Zero()};
      grad.end[1] = {body_end, -axis, -lever.cross(axis)};
      value_[row] = error(k);
    }
  }
}


void NewtonSystem::AssembleContactRows() {
  for (int c = 0; c < contact_count_; ++c) {
    ContactInfo& info = contacts_[c];
    ContactRowSide side_a, side_b;
    const Vec3 a = ContactSidePoint(info.particles_a, info.blocks_a, info.weights_a, info.block_a,
                                    info.p_a, &side_a);
    const Vec3 b = ContactSidePoint(info.particles_b, info.blocks_b, info.weights_b, info.block_b,
                                    info.p_b, &side_b);
    // gap C_n = nᵀ(a − b) − d with the normal fixed in world for the step (digest §2.9)
    info.gap = info.normal.dot(a - b) - info.thickness;
    const int normal_row = contact_row_begin_ + c;
    FillContactRow(info.normal, side_a, side_b, &gradients_[normal_row]);
    value_[normal_row] = info.gap;
    // friction acts at the surface: a round side's lever arm reaches its radius past the core
    side_a.lever -= info.radius_a * info.normal;
    side_b.lever += info.radius_b * info.normal;
    const int friction_row = friction_row_begin_ + 2 * c;
    FillContactRow(info.tangent, side_a, side_b, &gradients_[friction_row]);
    FillContactRow(info.bitangent, side_a, side_b, &gradients_[friction_row + 1]);
  }
}


void NewtonSystem::Assemble() {
  const Real dt = dt_;
  AssembleJointRows();
  AssembleAttachmentRows();
  AssembleContactRows();
  errors_ = IterateErrors{};

  // bilateral and unilateral rows
  for (int i = 0; i < friction_row_begin_; ++i) {
    const Row& grad = gradients_[i];
    if (row_type_[i] == RowType::kFriction) {
      AssembleJointFrictionRow(i);
      continue;
    }
    if (row_type_[i] == RowType::kUnilateral) {
      // complementarity preconditioner r (digest §7): Δt²·[J M̃⁻¹ Jᵀ]_ii by default, computed
      // at q⁻ and then held for the step, so every Newton iteration solves the same NCP
      if (!r_frozen_) {
        Real r = 1;
        if (settings_.preconditioner == ComplementarityScaling::kEffectiveMass) {
          r = dt * dt * std::max(EffectiveMass(grad, false), 1e-12);
        } else if (settings_.preconditioner == ComplementarityScaling::kTimeStepSquared) {
          r = dt * dt;
        }
        r_(i) = r;
      }
      const Real r = r_(i);
      const NcpValue ncp = EvalNcp(settings_.ncp, value_[i], lambda_(i), r);
      Row& row = rows_[i];
      row = grad;
      for (RowEnd& e : row.end) {
        e.lin *= ncp.dphi_dgap;
        e.ang *= ncp.dphi_dgap;
      }
      c_diag_(i) = ncp.dphi_dlambda / (dt * dt);
      h_(i) = ncp.phi / dt;
      errors_.normal = std::max(errors_.normal, std::abs(std::min(value_[i], r * lambda_(i))));
      continue;
    }
    // bilateral compliant row: C = 1/(Δt(kΔt + d)), h = (k(c − c*) + d(Ju − v*) + λ)/(kΔt + d)
    rows_[i] = grad;
    const BilateralInfo& info = bilateral_[i];
    Real error = value_[i] - info.target_position;
    if (info.angular_target) error = WrapAngle(error);
    if (std::isinf(info.stiffness)) {
      c_diag_(i) = 0;
      h_(i) = error / dt;
      errors_.bilateral = std::max(errors_.bilateral, std::abs(error));
    } else {
      const Real denominator = info.stiffness * dt + info.damping;
      const Real velocity = RowDot(grad, v_.data(), w_.data()) - info.target_velocity;
      c_diag_(i) = 1 / (dt * denominator);
      h_(i) = (info.stiffness * error + info.damping * velocity + lambda_(i)) / denominator;
      errors_.bilateral = std::max(errors_.bilateral, std::abs(h_(i)) * dt);
    }
  }

  // friction rows, two per contact (digest §4.4.b/c)
  for (int c = 0; c < contact_count_; ++c) {
    const ContactInfo& info = contacts_[c];
    const int i = friction_row_begin_ + 2 * c;
    const Real normal_force = lambda_(contact_row_begin_ + c);
    const bool active = normal_force > 0 && info.mu_t > 0 && info.mu_b > 0;
    friction_active_[c] = active;
    if (!active) {
      // inactive: zero rows, unit compliance, h = λ_f so stale friction decays (digest §6.6)
      for (int k = 0; k < 2; ++k) {
        rows_[i + k] = Row{};
        c_diag_(i + k) = 1 / dt;
        h_(i + k) = lambda_(i + k);
      }
      continue;
    }
    const Row& grad_t = gradients_[i];
    const Row& grad_b = gradients_[i + 1];
    const Eigen::Vector2d slip(RowDot(grad_t, v_.data(), w_.data()),
                               RowDot(grad_b, v_.data(), w_.data()));
    const Eigen::Vector2d force(lambda_(i), lambda_(i + 1));
    // friction r-factor Δt·[J M̃⁻¹ Jᵀ]_ii, the mean of the two rows (digest §7 assumption),
    // held for the step like the normal one
    if (!r_frozen_ || r_(i) == 0) {
      Real r = 1;
      if (settings_.preconditioner == ComplementarityScaling::kEffectiveMass) {
        r = dt *
            std::max(0.5 * (EffectiveMass(grad_t, false) + EffectiveMass(grad_b, false)), 1e-12);
      } else if (settings_.preconditioner == ComplementarityScaling::kTimeStepSquared) {
        r = dt;
      }
      r_(i) = r;
    }
    const Real r = r_(i);
    const Eigen::Vector2d w = AnisotropicFrictionCompliance(settings_.ncp, slip, force,
                                                            normal_force, info.mu_t, info.mu_b, r);
    for (int k = 0; k < 2; ++k) {
      rows_[i + k] = gradients_[i + k];
      c_diag_(i + k) = w(k) / dt;
      h_(i + k) = slip(k) + w(k) * force(k);
    }
    errors_.friction = std::max(errors_.friction, std::sqrt(h_(i) * h_(i) + h_(i + 1) * h_(i + 1)));
  }

  r_frozen_ = true;
  BuildIncidence();

  // diagonal of A = J H⁻¹ Jᵀ + C + εI (Jacobi preconditioner of PCR/PCG)
  for (int i = 0; i < row_count(); ++i) {
    diag_(i) = EffectiveMass(rows_[i], true) + c_diag_(i) + settings_.regularization;
    // a row with no mass and no compliance (both sides static) must not divide by zero
    if (!(diag_(i) > 0)) diag_(i) = 1;
  }
  // FEM element rows: stretches, compliance, h and their diagonal (element_rows.h)
  if (elements_.row_count() > 0) {
    const int begin = row_count();
    elements_.Evaluate(x_, settings_.fem_compliance);
    const Real element_error =
        elements_.Assemble(v_, lambda_.data() + begin, block_inv_mass_, settings_.regularization,
                           h_.data() + begin, diag_.data() + begin);
    errors_.bilateral = std::max(errors_.bilateral, element_error);
  }

  // momentum residual g = M̃(u − ũ) − Δt Jᵀλ (eq. (78))
  AccumulateJt(lambda_, &scratch_lin_, &scratch_ang_);
  Real merit = 0;
  for (std::size_t k = 0; k < x_.size(); ++k) {
    if (block_fixed_[k]) {
      g_lin_[k].setZero();
      g_ang_[k].setZero();
      continue;
    }
    g_lin_[k] = block_mass_[k] * (v_[k] - v_tilde_[k]) - dt * scratch_lin_[k];
    g_ang_[k] = block_particle_[k]
                    ? Vec3::Zero()
                    : Vec3(block_inertia_W_[k] * (w_[k] - w_tilde_[k]) - dt * scratch_ang_[k]);
    merit += g_lin_[k].squaredNorm() + g_ang_[k].squaredNorm();
  }
  errors_.merit = std::sqrt(merit + h_.squaredNorm());
}


void NewtonSystem::BuildIncidence() {
  // rows with their used ends only, and a counting sort of the ends by block
  const int blocks = static_cast<int>(x_.size());
  packed_row_begin_.resize(row_count() + 1);
  packed_ends_.clear();
  incidence_begin_.assign(blocks + 1, 0);
  for (int i = 0; i < row_count(); ++i) {
    packed_row_begin_[i] = static_cast<int>(packed_ends_.size());
    for (const RowEnd& e : rows_[i].end) {
      if (e.block < 0) continue;
      packed_ends_.push_back(e);
      ++incidence_begin_[e.block + 1];
    }
  }
  packed_row_begin_[row_count()] = static_cast<int>(packed_ends_.size());
  for (int b = 0; b < blocks; ++b) incidence_begin_[b + 1] += incidence_begin_[b];
  transposed_.resize(packed_ends_.size());
  incidence_cursor_.assign(incidence_begin_.begin(), incidence_begin_.end() - 1);
  for (int i = 0; i < row_count(); ++i) {
    for (int k = packed_row_begin_[i]; k < packed_row_begin_[i + 1]; ++k) {
      const RowEnd& e = packed_ends_[k];
      transposed_[incidence_cursor_[e.block]++] = {i, e.lin, e.ang};
    }
  }
}


void NewtonSystem::AccumulateJt(const VectorX& x, std::vector<Vec3>* lin,
                                std::vector<Vec3>* ang) const {
  // Jᵀx gathered per block, in row order (the same sums whatever the thread count)
  ParallelFor(static_cast<int>(lin->size()), 256, kMinParallelBlocks, [&](int begin, int end) {
    for (int b = begin; b < end; ++b) {
      Vec3 sum_lin = Vec3::Zero(), sum_ang = Vec3::Zero();
      for (int k = incidence_begin_[b]; k < incidence_begin_[b + 1]; ++k) {
        const TransposedEnd& e = transposed_[k];
        const Real xi = x(e.row);
        sum_lin += xi * e.lin;
        sum_ang += xi * e.ang;
      }
      (*lin)[b] = sum_lin;
      (*ang)[b] = sum_ang;
    }
  });
  if (elements_.row_count() > 0) elements_.AddJt(x.data() + row_count(), lin);
}


void NewtonSystem::ApplyInverseH(const std::vector<Vec3>& lin, const std::vector<Vec3>& ang,
                                 std::vector<Vec3>* out_lin, std::vector<Vec3>* out_ang) const {
  for (int k = 0; k < body_count_; ++k) {
    (*out_lin)[k] = block_inv_mass_[k].cwiseProduct(lin[k]);
    (*out_ang)[k] = block_inv_inertia_W_[k] * ang[k];
  }
  // particles do not rotate (zero inverse inertia): their angular parts stay zero, without the
  // 3×3 product (a soft ball's 1760 nodes made it 2 % of the step)
  for (std::size_t k = body_count_; k < lin.size(); ++k) {
    (*out_lin)[k] = block_inv_mass_[k].cwiseProduct(lin[k]);
    (*out_ang)[k].setZero();
  }
}


Real NewtonSystem::ApplyDot(const VectorX& x, VectorX* y) const {
  // A x = J (H⁻¹ (Jᵀ x)) + C x + εx, by successive products ([T §4.9]); xᵀ A x summed by the
  // element rows in their pass (they are most of the rows)
  AccumulateJt(x, &scratch_lin_, &scratch_ang_);
  ApplyInverseH(scratch_lin_, scratch_ang_, &scratch_lin2_, &scratch_ang2_);
  y->resize(size());
  ParallelFor(row_count(), 1024, kMinParallelRows, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      Real value = 0;
      for (int k = packed_row_begin_[i]; k < packed_row_begin_[i + 1]; ++k) {
        const RowEnd& e = packed_ends_[k];
        value += e.lin.dot(scratch_lin2_[e.block]) + e.ang.dot(scratch_ang2_[e.block]);
      }
      (*y)(i) = value + (c_diag_(i) + settings_.regularization) * x(i);
    }
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
      scratch_lin2_[e.block] += block_inv_mass_[e.block].cwiseProduct(delta * e.lin);
      scratch_ang2_[e.block] += block_inv_inertia_W_[e.block] * (delta * e.ang);
    }
  }
  if (elements_.row_count() > 0) {
    const int begin = row_count();
    elements_.GaussSeidelSweep(b.data() + begin, diag_.data() + begin, settings_.regularization,
                               block_inv_mass_, &scratch_lin2_, x->data() + begin);
  }
}


Eigen::SparseMatrix<Real> NewtonSystem::AssembleMatrix() const {
  // J (rows × 6 per block) and the block-diagonal H⁻¹, then A = J H⁻¹ Jᵀ + C + εI
  const int blocks = static_cast<int>(x_.size());
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
      h_entries.emplace_back(6 * b + r, 6 * b + r, block_inv_mass_[b](r));
      for (int c = 0; c < 3; ++c) {
        h_entries.emplace_back(6 * b + 3 + r, 6 * b + 3 + c, block_inv_inertia_W_[b](r, c));
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
  return settings_.fem_preconditioner == FemPreconditioner::kWoodbury &&
         elements_.row_count() > 0 && element_preconditioner_.valid();
}


void NewtonSystem::ApplyPreconditioner(const VectorX& r, VectorX* z) const {
  z->resize(size());
  z->head(row_count()) = r.head(row_count()).cwiseQuotient(diag_.head(row_count()));
  element_preconditioner_.Apply(r.data(), z->data());
}


void NewtonSystem::UpdatePreconditioner() {
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
      if (e.block >= 0 && block_particle_[e.block]) e.block = -1;
    }
    rigid_inverse_mass(i) = EffectiveMass(rigid_ends, true);
  }
  element_preconditioner_.Update(elements_, block_inv_mass_, settings_.regularization, row_count(),
                                 CollectPointRows(rows_, block_particle_, c_diag_.head(row_count()),
                                                  rigid_inverse_mass, settings_.regularization));
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
  for (std::size_t k = 0; k < x_.size(); ++k) {
    scratch_lin_[k] -= g_lin_[k];
    scratch_ang_[k] -= g_ang_[k];
  }
  ApplyInverseH(scratch_lin_, scratch_ang_, &dv_, &dw_);
}


void NewtonSystem::UpdatePositions() {
  // q = q⁻ + Δt G(q⁻) u, then renormalize the quaternions (digest §2.3, §6.2 erratum)
  for (std::size_t k = 0; k < x_.size(); ++k) {
    if (block_fixed_[k]) continue;
    x_[k] = x0_[k] + dt_ * v_[k];
    if (block_particle_[k]) continue;
    const Quat& q0 = q0_[k];
    const Quat spin(0, w_[k].x(), w_[k].y(), w_[k].z());
    Quat q;
    q.coeffs() = q0.coeffs() + 0.5 * dt_ * (spin * q0).coeffs();
    q_[k] = q.normalized();
  }
}


Real NewtonSystem::ApplyStep(Real alpha, const VectorX& x) {
  v_prev_ = v_;
  lambda_ += (alpha / dt_) * x;
  Real step = 0;
  for (std::size_t k = 0; k < x_.size(); ++k) {
    if (block_fixed_[k]) continue;
    v_[k] += alpha * dv_[k];
    w_[k] += alpha * dw_[k];
    step = std::max(
        {step, alpha * dv_[k].cwiseAbs().maxCoeff(), alpha * dw_[k].cwiseAbs().maxCoeff()});
  }
  UpdatePositions();
  return step;
}


void NewtonSystem::SaveIterate() {
  v_saved_ = v_;
  w_saved_ = w_;
  x_saved_ = x_;
  q_saved_.assign(q_.begin(), q_.end());
  lambda_saved_ = lambda_;
}


void NewtonSystem::RestoreIterate() {
  v_ = v_saved_;
  w_ = w_saved_;
  x_ = x_saved_;
  q_.assign(q_saved_.begin(), q_saved_.end());
  lambda_ = lambda_saved_;
}


void NewtonSystem::KeepGradients() {
  // only particle rows feed the estimate; skip the copy when it cannot be used
  if (settings_.geometric_stiffness && dof_count_ > 6L * body_count_) gradients_prev_ = gradients_;
  // (the element rows' secant is the three-row form's; six rows use the closed form)
  if (settings_.geometric_stiffness && elements_.row_count() > 0 && !elements_.shear_rows()) {
    elements_.KeepRows();
  }
}


void NewtonSystem::UpdateGeometricStiffness() {
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
      const int block = gradients_[i].end[e].block;
      if (block < 0 || !block_particle_[block]) continue;
      any_particle_row = true;
      scratch_lin_[block] +=
          dt_ * lambda * (gradients_[i].end[e].lin - gradients_prev_[i].end[e].lin);
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
  for (std::size_t k = 0; k < x_.size(); ++k) {
    if (!block_particle_[k] || block_fixed_[k]) continue;
    for (int d = 0; d < 3; ++d) {
      const Real du = v_[k](d) - v_prev_[k](d);
      const bool moved = std::abs(du) >= kTinyVelocity;
      if (!moved && !closed_form) continue;
      const Real c = scratch_lin2_[k](d) + (moved ? scratch_lin_[k](d) / du : 0);
      block_gs_shift_[k](d) = std::max<Real>(0, -c);  // H̃_kk = M̃_kk − min(0, c_k)
      block_inv_mass_[k](d) = 1 / (block_mass_[k] + block_gs_shift_[k](d));
    }
  }
}


void NewtonSystem::WriteState(State* out) const {
  const Model& model = *model_;
  out->time = in_.time + dt_;
  out->step = in_.step + 1;
  out->body_X_WB.resize(body_count_);
  out->body_v_W.resize(body_count_);
  out->body_w_W.resize(body_count_);
  for (int b = 0; b < body_count_; ++b) {
    if (block_fixed_[b]) {
      out->body_X_WB[b] = in_.body_X_WB[b];
      out->body_v_W[b].setZero();
      out->body_w_W[b].setZero();
      continue;
    }
    out->body_X_WB[b] = {x_[b], q_[b]};
    out->body_v_W[b] = v_[b];
    out->body_w_W[b] = w_[b];
  }
  // warm-start data for the next step
  out->joint_lambda.resize(contact_row_begin_);
  for (int i = 0; i < contact_row_begin_; ++i) out->joint_lambda[i] = lambda_(i);
  out->element_lambda.resize(element_row_count());
  for (int i = 0; i < element_row_count(); ++i) out->element_lambda[i] = lambda_(row_count() + i);
  out->contact_impulses.clear();
  for (int c = 0; c < contact_count_; ++c) {
    const Real normal = lambda_(contact_row_begin_ + c);
    if (!(normal > 0)) continue;  // separated: nothing worth carrying over
    ContactImpulse impulse;
    impulse.key = contacts_[c].key;
    impulse.normal = normal;
    impulse.friction[0] = lambda_(friction_row_begin_ + 2 * c);
    impulse.friction[1] = lambda_(friction_row_begin_ + 2 * c + 1);
    out->contact_impulses.push_back(impulse);
  }
  std::sort(out->contact_impulses.begin(), out->contact_impulses.end(),
            [](const ContactImpulse& x, const ContactImpulse& y) { return x.key < y.key; });
  out->particle_x_W.resize(model.particle_count());
  out->particle_v_W.resize(model.particle_count());
  for (int p = 0; p < model.particle_count(); ++p) {
    out->particle_x_W[p] = x_[body_count_ + p];
    out->particle_v_W[p] = v_[body_count_ + p];
  }
}


void NewtonSystem::WriteContacts(Contacts* contacts) const {
  for (int c = 0; c < contact_count_; ++c) {
    Contact& contact = contacts->items[c];
    contact.normal_force = lambda_(contact_row_begin_ + c);
    contact.friction_force[0] = lambda_(friction_row_begin_ + 2 * c);
    contact.friction_force[1] = lambda_(friction_row_begin_ + 2 * c + 1);
    contact.gap = contacts_[c].gap;
  }
}


Real NewtonSystem::max_penetration() const {
  Real penetration = 0;
  for (const ContactInfo& info : contacts_) penetration = std::max(penetration, -info.gap);
  return penetration;
}


Real NewtonSystem::max_joint_error() const {
  Real error = 0;
  for (int i = 0; i < contact_row_begin_; ++i) {
    if (row_type_[i] == RowType::kBilateral && bilateral_[i].positional) {
      error = std::max(error, std::abs(value_[i]));
    }
  }
  return error;
}


int NewtonSystem::active_contact_count() const {
  int count = 0;
  for (int c = 0; c < contact_count_; ++c) count += lambda_(contact_row_begin_ + c) > 0;
  return count;
}


int NewtonSystem::bilateral_row_count() const {
  int count = 0;
  for (int i = 0; i < contact_row_begin_; ++i) count += row_type_[i] == RowType::kBilateral;
  return count;
}


int NewtonSystem::unilateral_row_count() const {
  int count = contact_count_;
  for (int i = 0; i < contact_row_begin_; ++i) count += row_type_[i] == RowType::kUnilateral;
  return count;
}


void NewtonSystem::AssembleJointFrictionRow(int i) {
  // the 1-D friction cone |λ| ≤ F of a joint's rate (digest §4.4.b with F for μλ_n): C = W/Δt,
  // h = Ju + Wλ; W = 0 sticks (a hard rate row), W > 0 slides with |λ| = F
  const Real dt = dt_;
  const Row& grad = gradients_[i];
  if (!r_frozen_) {
    Real r = 1;
    if (settings_.preconditioner == ComplementarityScaling::kEffectiveMass) {
      r = dt * std::max(EffectiveMass(grad, false), 1e-12);
    } else if (settings_.preconditioner == ComplementarityScaling::kTimeStepSquared) {
      r = dt;
    }
    r_(i) = r;
  }
  const Real slip = RowDot(grad, v_.data(), w_.data());
  const Real w = FrictionCompliance(settings_.ncp, std::abs(slip), std::abs(lambda_(i)),
                                    bilateral_[i].friction_limit, r_(i));
  rows_[i] = grad;
  c_diag_(i) = w / dt;
  h_(i) = slip + w * lambda_(i);
  errors_.friction = std::max(errors_.friction, std::abs(h_(i)));
}


bool NewtonSystem::IsFinite() const {
  if (!lambda_.allFinite()) return false;
  for (std::size_t k = 0; k < x_.size(); ++k) {
    if (!x_[k].allFinite() || !v_[k].allFinite() || !w_[k].allFinite() ||
        !q_[k].coeffs().allFinite()) {
      return false;
    }
  }
  return true;
}


void NewtonSystem::GetVelocity(VectorX* u) const {
  u->resize(dof_count_);
  long offset = 0;
  for (std::size_t k = 0; k < x_.size(); ++k) {
    u->segment<3>(offset) = v_[k];
    offset += 3;
    if (!block_particle_[k]) {
      u->segment<3>(offset) = w_[k];
      offset += 3;
    }
  }
}


void NewtonSystem::SetVelocity(const VectorX& u) {
  long offset = 0;
  for (std::size_t k = 0; k < x_.size(); ++k) {
    v_[k] = u.segment<3>(offset);
    offset += 3;
    if (!block_particle_[k]) {
      w_[k] = u.segment<3>(offset);
      offset += 3;
    }
  }
  UpdatePositions();
}

}  // namespace sim::nsn
