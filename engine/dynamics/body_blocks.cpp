#include "engine/dynamics/body_blocks.h"

#include "engine/model/model.h"
#include "engine/state/control.h"
#include "engine/state/state.h"

namespace sim {
namespace {

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


void BodyBlocks::Begin(const Model& model, const State& in, const Control& control, Real dt) {
  dt_ = dt;
  body_count_ = model.body_count();
  const int blocks = body_count_ + model.particle_count();
  const Vec3& gravity = model.options.gravity;
  for (auto* field : {&inv_mass, &x0, &x, &v, &w, &v_tilde, &w_tilde}) {
    field->assign(blocks, Vec3::Zero());
  }
  fixed.assign(blocks, 0);
  particle.assign(blocks, 0);
  mass.assign(blocks, 0);
  inertia_W.assign(blocks, Mat3::Zero());
  inv_inertia_W.assign(blocks, Mat3::Zero());
  q0.assign(blocks, Quat::Identity());
  dof_count_ = 0;

  // bodies: M̃ at q⁻ (world inertia), ũ = u⁻ + Δt M̃⁻¹ f_ext (+ gyroscopic), digest §5
  for (int b = 0; b < body_count_; ++b) {
    const Pose& X = in.body_X_WB[b];
    x0[b] = X.p;
    q0[b] = X.q.normalized();
    dof_count_ += 6;
    if (model.body_static[b] || model.body_mass[b] <= 0) {
      fixed[b] = 1;
      continue;
    }
    const Real m = model.body_mass[b];
    const Mat3 R = q0[b].toRotationMatrix();
    mass[b] = m;
    inertia_W[b] = R * model.body_inertia[b] * R.transpose();
    inv_inertia_W[b] = inertia_W[b].inverse();
    inv_mass[b].setConstant(1 / m);
    Vec3 force = m * gravity;
    Vec3 torque = Vec3::Zero();
    if (b < static_cast<int>(control.body_force_W.size())) force += control.body_force_W[b];
    if (b < static_cast<int>(control.body_torque_W.size())) torque = control.body_torque_W[b];
    v_tilde[b] = in.body_v_W[b] + dt * force / m;
    w_tilde[b] = ImplicitGyroscopic(in.body_w_W[b], q0[b], model.body_inertia[b], dt) +
                 dt * (inv_inertia_W[b] * torque);
  }
  // particles: a fixed one (clamped FEM node) keeps a zero inverse mass, like a static body
  for (int p = 0; p < model.particle_count(); ++p) {
    const int k = body_count_ + p;
    const Real m = model.particle_mass[p];
    particle[k] = 1;
    mass[k] = m;
    x0[k] = in.particle_x_W[p];
    dof_count_ += 3;
    if (model.particle_is_fixed(p)) {
      fixed[k] = 1;
      continue;
    }
    inv_mass[k].setConstant(1 / m);
    Vec3 force = m * gravity;
    if (p < static_cast<int>(control.particle_force_W.size())) force += control.particle_force_W[p];
    v_tilde[k] = in.particle_v_W[p] + dt * force / m;
  }
  x = x0;
  q.assign(q0.begin(), q0.end());
}


void BodyBlocks::StartFromInputVelocities(const State& in) {
  for (int b = 0; b < body_count_; ++b) {
    if (fixed[b]) continue;
    v[b] = in.body_v_W[b];
    w[b] = in.body_w_W[b];
  }
  for (std::size_t p = 0; p < in.particle_v_W.size(); ++p) {
    if (!fixed[body_count_ + p]) v[body_count_ + p] = in.particle_v_W[p];
  }
  UpdatePositions();
}


void BodyBlocks::UpdatePositions() {
  // q = q⁻ + Δt G(q⁻) u, then renormalize the quaternions (digest §2.3, §6.2 erratum)
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (fixed[k]) continue;
    x[k] = x0[k] + dt_ * v[k];
    if (particle[k]) continue;
    const Quat& start = q0[k];
    const Quat spin(0, w[k].x(), w[k].y(), w[k].z());
    Quat moved;
    moved.coeffs() = start.coeffs() + 0.5 * dt_ * (spin * start).coeffs();
    q[k] = moved.normalized();
  }
}


Vec3 BodyBlocks::WorldPoint(int block, const Vec3& p, Vec3* lever) const {
  if (block < 0) {
    lever->setZero();
    return p;  // static world: the point is already in world coordinates
  }
  if (particle[block]) {
    lever->setZero();
    return x[block];
  }
  *lever = q[block] * p;
  return x[block] + *lever;
}


Vec3 BodyBlocks::ContactSidePoint(bool particles, const std::array<int, 3>& blocks,
                                  const Vec3& weights, int block, const Vec3& p,
                                  ContactRowSide* side) const {
  side->particles = particles;
  if (!particles) {
    // rigid side: fixed blocks contribute no row coefficients
    const Vec3 point = WorldPoint(block, p, &side->lever);
    side->block[0] = block >= 0 && !fixed[block] ? block : -1;
    return point;
  }
  // particle side: the weighted sum of its particles (a vertex, an edge or a triangle point)
  Vec3 point = Vec3::Zero();
  side->weights = weights;
  for (int k = 0; k < 3; ++k) {
    if (blocks[k] < 0) continue;
    point += weights(k) * x[blocks[k]];
    side->block[k] = fixed[blocks[k]] ? -1 : blocks[k];
  }
  return point;
}


JointBodies BodyBlocks::JointBodiesAt(const Model& model, int j) const {
  JointBodies bodies;
  const int parent = model.joint_parent[j];
  const int child = model.joint_child[j];
  if (parent >= 0) bodies.X_WP = {x[parent], q[parent]};
  bodies.X_WC = {x[child], q[child]};
  bodies.parent_block = (parent >= 0 && !fixed[parent]) ? parent : -1;
  bodies.child_block = fixed[child] ? -1 : child;
  return bodies;
}


Real BodyBlocks::EffectiveMass(const Row& row, bool shifted) const {
  Real sum = 0;
  for (const RowEnd& e : row.end) {
    if (e.block < 0 || fixed[e.block]) continue;
    const Real inv_m = 1 / mass[e.block];
    sum += shifted ? e.lin.dot(inv_mass[e.block].cwiseProduct(e.lin)) : inv_m * e.lin.squaredNorm();
    if (!particle[e.block]) sum += e.ang.dot(inv_inertia_W[e.block] * e.ang);
  }
  return sum;
}


void BodyBlocks::AddImpulse(const Row& row, Real impulse, std::vector<Vec3>* v,
                            std::vector<Vec3>* w) const {
  for (const RowEnd& e : row.end) {
    if (e.block < 0 || fixed[e.block]) continue;
    (*v)[e.block] += inv_mass[e.block].cwiseProduct(impulse * e.lin);
    if (!particle[e.block]) (*w)[e.block] += inv_inertia_W[e.block] * (impulse * e.ang);
  }
}


void BodyBlocks::WriteState(const Model& model, const State& in, State* out) const {
  out->time = in.time + dt_;
  out->step = in.step + 1;
  out->body_X_WB.resize(body_count_);
  out->body_v_W.resize(body_count_);
  out->body_w_W.resize(body_count_);
  for (int b = 0; b < body_count_; ++b) {
    if (fixed[b]) {
      out->body_X_WB[b] = in.body_X_WB[b];
      out->body_v_W[b].setZero();
      out->body_w_W[b].setZero();
      continue;
    }
    out->body_X_WB[b] = {x[b], q[b]};
    out->body_v_W[b] = v[b];
    out->body_w_W[b] = w[b];
  }
  out->particle_x_W.resize(model.particle_count());
  out->particle_v_W.resize(model.particle_count());
  for (int p = 0; p < model.particle_count(); ++p) {
    out->particle_x_W[p] = x[body_count_ + p];
    out->particle_v_W[p] = v[body_count_ + p];
  }
}


bool BodyBlocks::IsFinite() const {
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (!x[k].allFinite() || !v[k].allFinite() || !w[k].allFinite() || !q[k].coeffs().allFinite()) {
      return false;
    }
  }
  return true;
}

}  // namespace sim
