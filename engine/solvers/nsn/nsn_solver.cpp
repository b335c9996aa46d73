#include "engine/solvers/nsn/nsn_solver.h"

#include "engine/model/model.h"
#include "engine/state/contacts.h"
#include "engine/state/control.h"
#include "engine/state/state.h"

namespace sim {

SolverNsn::SolverNsn(const Model&) {}

// TODO(nsn): placeholder (free flight) until the Newton solver lands in this issue.
void SolverNsn::Step(const Model& model, const State& in, const Control&, Contacts&, Real dt,
                     State* out, StepReport* report) {
  report->Reset();
  *out = in;
  for (int b = 0; b < model.body_count(); ++b) {
    out->body_v_W[b] += dt * model.options.gravity;
    out->body_X_WB[b].p += dt * out->body_v_W[b];
  }
  out->time = in.time + dt;
  out->step = in.step + 1;
}

}  // namespace sim
