#include "engine/step/probes.h"

#include "engine/dynamics/constraint_rows.h"

namespace sim {

namespace {

void Write(const Vec3& v, Real* values) {
  for (int k = 0; k < 3; ++k) values[k] = v[k];
}

}  // namespace


// a·(ω_C − ω_P) about a revolute axis; along a prismatic axis the relative velocity of the two
// joint-frame origins plus the turning of the parent's axis,
// d/dt[(p_Jc − p_Jp)·a_P] = (v_Jc − v_Jp)·a_P + (ω_P × a_P)·(p_Jc − p_Jp)
Real JointRate(const Model& model, const State& state, int j) {
  const int parent = model.joint_parent[j];
  const int child = model.joint_child[j];
  const Pose X_WP = parent == kWorldBody ? Pose{} : state.body_X_WB[parent];
  const Vec3 v_P = parent == kWorldBody ? Vec3::Zero() : state.body_v_W[parent];
  const Vec3 w_P = parent == kWorldBody ? Vec3::Zero() : state.body_w_W[parent];
  const Pose& X_WC = state.body_X_WB[child];
  const Pose X_WJp = X_WP * model.joint_X_PJ[j];
  const Pose X_WJc = X_WC * model.joint_X_CJ[j];
  const Vec3 axis = X_WJp.q * model.joint_axis[j];
  if (model.joint_type[j] == JointType::kPrismatic) {
    const Vec3 v_Jp = v_P + w_P.cross(X_WJp.p - X_WP.p);
    const Vec3 v_Jc = state.body_v_W[child] + state.body_w_W[child].cross(X_WJc.p - X_WC.p);
    return (v_Jc - v_Jp).dot(axis) + w_P.cross(axis).dot(X_WJc.p - X_WJp.p);
  }
  if (model.joint_type[j] == JointType::kRevolute ||
      model.joint_type[j] == JointType::kContinuous) {
    return axis.dot(state.body_w_W[child] - w_P);
  }
  return 0;
}


void EvaluateProbe(const Model& model, const State& state, int p, Real* values) {
  const Probe& probe = model.probes[p];
  const int t = probe.target;
  switch (probe.kind) {
    case ProbeKind::kBodyPosition:
      Write(state.body_X_WB[t].p, values);
      return;
    case ProbeKind::kBodyOrientation: {
      const Quat& q = state.body_X_WB[t].q;
      values[0] = q.w();
      values[1] = q.x();
      values[2] = q.y();
      values[3] = q.z();
      return;
    }
    case ProbeKind::kBodyVelocity:
      Write(state.body_v_W[t], values);
      return;
    case ProbeKind::kBodyAngularVelocity:
      Write(state.body_w_W[t], values);
      return;
    case ProbeKind::kJointPosition:
      values[0] = JointCoordinate(model, state, t);
      return;
    case ProbeKind::kJointVelocity:
      values[0] = JointRate(model, state, t);
      return;
    case ProbeKind::kParticlePosition:
      Write(state.particle_x_W[t], values);
      return;
    case ProbeKind::kSoftBodyCentroid: {
      // mass-weighted mean of the body's nodes
      const SoftBody& body = model.soft_bodies[t];
      Vec3 sum = Vec3::Zero();
      Real mass = 0;
      for (int k = body.first_particle; k < body.first_particle + body.particle_count; ++k) {
        sum += model.particle_mass[k] * state.particle_x_W[k];
        mass += model.particle_mass[k];
      }
      Write(mass > 0 ? Vec3(sum / mass) : Vec3::Zero(), values);
      return;
    }
  }
}


void ProbeLog::Reset(const Model& model) {
  time.clear();
  samples.assign(model.probes.size(), {});
}


void ProbeLog::Record(const Model& model, const State& state) {
  if (samples.size() != model.probes.size()) Reset(model);
  time.push_back(state.time);
  Real values[4];
  for (std::size_t p = 0; p < model.probes.size(); ++p) {
    EvaluateProbe(model, state, static_cast<int>(p), values);
    samples[p].insert(samples[p].end(), values, values + ProbeValueCount(model.probes[p].kind));
  }
}

}  // namespace sim
