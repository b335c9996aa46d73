#include "engine/state/state.h"

#include <algorithm>
#include <cmath>

#include "engine/fem/tet_elements.h"
#include "engine/model/model.h"
#include "engine/state/contacts.h"

namespace sim {

namespace {

void HashBytes(const void* data, std::size_t size, std::uint64_t* hash) {
  // FNV-1a 64-bit
  constexpr std::uint64_t kPrime = 0x100000001b3ull;
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    *hash ^= bytes[i];
    *hash *= kPrime;
  }
}


void HashReal(Real value, std::uint64_t* hash) {
  // +0 and -0 differ in bits but not in physics; fold them
  if (value == 0) value = 0;
  HashBytes(&value, sizeof(value), hash);
}


void HashVec(const Vec3& v, std::uint64_t* hash) {
  for (int i = 0; i < 3; ++i) HashReal(v[i], hash);
}

}  // namespace


std::uint64_t StateHash(const State& state) {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a offset basis
  HashReal(state.time, &hash);
  HashBytes(&state.step, sizeof(state.step), &hash);
  for (const Pose& X : state.body_X_WB) {
    HashVec(X.p, &hash);
    for (Real c : {X.q.w(), X.q.x(), X.q.y(), X.q.z()}) HashReal(c, &hash);
  }
  for (const auto* field :
       {&state.body_v_W, &state.body_w_W, &state.particle_x_W, &state.particle_v_W}) {
    for (const Vec3& v : *field) HashVec(v, &hash);
  }
  return hash;
}


bool IsFinite(const State& state) {
  if (!std::isfinite(state.time)) return false;
  for (const Pose& X : state.body_X_WB) {
    if (!X.p.allFinite() || !X.q.coeffs().allFinite()) return false;
    // a quaternion far from unit length means the integrator has lost it
    if (std::abs(X.q.squaredNorm() - 1) > 1e-3) return false;
  }
  for (const auto* field :
       {&state.body_v_W, &state.body_w_W, &state.particle_x_W, &state.particle_v_W}) {
    for (const Vec3& v : *field) {
      if (!v.allFinite()) return false;
    }
  }
  for (const WarmStartRecord& record : state.warm_starts) {
    for (const ContactImpulse& c : record.contacts) {
      if (!std::isfinite(c.normal) || !c.friction_W.allFinite()) return false;
    }
    for (const auto* rows : {&record.joint_rows, &record.element_rows}) {
      for (Real lambda : *rows) {
        if (!std::isfinite(lambda)) return false;
      }
    }
  }
  return true;
}


const WarmStartRecord* FindWarmStart(const State& state, std::string_view solver) {
  for (const WarmStartRecord& record : state.warm_starts) {
    if (record.solver == solver) return &record;
  }
  return nullptr;
}


WarmStartRecord& CarryWarmStarts(const State& in, std::string_view solver, State* out) {
  const auto record_of = [out](std::string_view name) -> WarmStartRecord& {
    for (WarmStartRecord& record : out->warm_starts) {
      if (record.solver == name) return record;
    }
    out->warm_starts.push_back(WarmStartRecord{.solver = std::string(name)});
    return out->warm_starts.back();
  };
  // drop what `in` no longer has, then copy the others' records and make room for this one's
  std::erase_if(out->warm_starts, [&](const WarmStartRecord& record) {
    return record.solver != solver && FindWarmStart(in, record.solver) == nullptr;
  });
  for (const WarmStartRecord& record : in.warm_starts) {
    if (record.solver != solver) record_of(record.solver) = record;
  }
  return record_of(solver);
}


void CarryOtherWarmStarts(const State& in, std::string_view solver, State* out) {
  CarryWarmStarts(in, solver, out);
  std::erase_if(out->warm_starts,
                [&](const WarmStartRecord& record) { return record.solver == solver; });
}


const ContactImpulse* FindContactImpulse(const WarmStartRecord& record, std::uint64_t key) {
  const auto it =
      std::lower_bound(record.contacts.begin(), record.contacts.end(), key,
                       [](const ContactImpulse& entry, std::uint64_t k) { return entry.key < k; });
  return it != record.contacts.end() && it->key == key ? &*it : nullptr;
}


void SortContactImpulses(std::vector<ContactImpulse>* contacts) {
  std::sort(contacts->begin(), contacts->end(),
            [](const ContactImpulse& x, const ContactImpulse& y) { return x.key < y.key; });
}


bool MatchesModel(const State& state, const Model& model) {
  const std::size_t bodies = model.body_count();
  const std::size_t particles = model.particle_count();
  return state.body_X_WB.size() == bodies && state.body_v_W.size() == bodies &&
         state.body_w_W.size() == bodies && state.particle_x_W.size() == particles &&
         state.particle_v_W.size() == particles;
}


Real MechanicalEnergy(const Model& model, const State& state) {
  const Vec3& g = model.options.gravity;
  Real energy = 0;
  for (int b = 0; b < model.body_count(); ++b) {
    if (model.body_static[b]) continue;
    const Real m = model.body_mass[b];
    const Mat3 R = state.body_X_WB[b].q.toRotationMatrix();
    const Mat3 inertia_W = R * model.body_inertia[b] * R.transpose();
    const Vec3& w = state.body_w_W[b];
    energy += 0.5 * m * state.body_v_W[b].squaredNorm() + 0.5 * w.dot(inertia_W * w);
    energy -= m * g.dot(state.body_X_WB[b].p);
  }
  for (int p = 0; p < model.particle_count(); ++p) {
    const Real m = model.particle_mass[p];
    energy += 0.5 * m * state.particle_v_W[p].squaredNorm() - m * g.dot(state.particle_x_W[p]);
  }
  // the strain energy stored in the soft bodies (with their activation at the state's time)
  for (int s = 0; s < static_cast<int>(model.soft_bodies.size()); ++s) {
    energy += CalcSoftBodyEnergy(model, s, state.particle_x_W, state.time);
  }
  return energy;
}

namespace {

// a contact side's core point in world [m]
Vec3 SideCorePoint(const State& state, const ContactSide& side) {
  if (side.is_particle()) {
    Vec3 p = Vec3::Zero();
    for (int k = 0; k < 3; ++k) {
      if (side.particles[k] >= 0) p += side.weights[k] * state.particle_x_W[side.particles[k]];
    }
    return p;
  }
  return side.body == kWorldBody ? side.p_B : state.body_X_WB[side.body] * side.p_B;
}

}  // namespace


Vec3 ContactMidpoint(const State& state, const Contact& contact) {
  const Vec3& n = contact.normal_W;
  const Vec3 a = SideCorePoint(state, contact.a) - contact.a.radius * n;
  const Vec3 b = SideCorePoint(state, contact.b) + contact.b.radius * n;
  return 0.5 * (a + b);
}


}  // namespace sim
