#include "engine/step/integrator.h"

namespace sim {

namespace {

// (4 now − before)/3, the BDF2 extrapolation of one vector
Vec3 Extrapolated(const Vec3& now, const Vec3& before) { return now + (now - before) / 3; }

}  // namespace


bool Bdf2Start(const State& in, Real dt, State* start) {
  const StepHistory& history = in.history;
  if (history.successor_hash == 0 || history.impact || history.dt != dt ||
      history.body_X_WB.size() != in.body_X_WB.size() ||
      history.particle_x_W.size() != in.particle_x_W.size() ||
      history.successor_hash != StateHash(in)) {
    return false;
  }
  start->time = in.time + dt / 3;
  start->step = in.step;
  const std::size_t bodies = in.body_X_WB.size();
  start->body_X_WB.resize(bodies);
  start->body_v_W.resize(bodies);
  start->body_w_W.resize(bodies);
  for (std::size_t b = 0; b < bodies; ++b) {
    const Pose& now = in.body_X_WB[b];
    const Pose& before = history.body_X_WB[b];
    start->body_X_WB[b].p = Extrapolated(now.p, before.p);
    // the last step's rotation continued by a third, along its shortest arc
    Quat turn = now.q * before.q.conjugate();
    if (turn.w() < 0) turn.coeffs() = -turn.coeffs();
    start->body_X_WB[b].q = (Quat::Identity().slerp(1.0 / 3.0, turn) * now.q).normalized();
    start->body_v_W[b] = Extrapolated(in.body_v_W[b], history.body_v_W[b]);
    start->body_w_W[b] = Extrapolated(in.body_w_W[b], history.body_w_W[b]);
  }
  const std::size_t particles = in.particle_x_W.size();
  start->particle_x_W.resize(particles);
  start->particle_v_W.resize(particles);
  for (std::size_t p = 0; p < particles; ++p) {
    start->particle_x_W[p] = Extrapolated(in.particle_x_W[p], history.particle_x_W[p]);
    start->particle_v_W[p] = Extrapolated(in.particle_v_W[p], history.particle_v_W[p]);
  }
  start->warm_starts = in.warm_starts;
  start->history.successor_hash = 0;
  return true;
}


void RecordHistory(const State& in, Real dt, bool impact, State* out) {
  StepHistory& history = out->history;
  history.dt = dt;
  history.impact = impact;
  history.body_X_WB = in.body_X_WB;
  history.body_v_W = in.body_v_W;
  history.body_w_W = in.body_w_W;
  history.particle_x_W = in.particle_x_W;
  history.particle_v_W = in.particle_v_W;
  history.successor_hash = StateHash(*out);
}

}  // namespace sim
