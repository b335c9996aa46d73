#include "engine/step/contact_material.h"

#include <algorithm>
#include <cmath>

#include "engine/collision/collision.h"

namespace sim {

int ContactSideMaterial(const Model& model, const ContactSide& side) {
  if (side.soft_body >= 0) return model.soft_bodies[side.soft_body].material;
  if (side.shape >= 0) return model.shape_material[side.shape];
  if (side.is_particle()) return model.particle_material[side.particle()];
  return -1;
}


void AssignContactMaterials(const Model& model, Contacts* contacts) {
  for (Contact& contact : contacts->items) {
    const Vec3& n = contact.normal_W;
    contact.tangent_W = PerpendicularUnit(n);
    contact.bitangent_W = n.cross(contact.tangent_W);
    const int material_a = ContactSideMaterial(model, contact.a);
    const int material_b = ContactSideMaterial(model, contact.b);
    contact.friction_t = contact.friction_b = ContactFriction(model, material_a, material_b);
    const auto restitution = [&](int m) { return m >= 0 ? model.materials[m].restitution : 0.0; };
    contact.restitution = std::max(restitution(material_a), restitution(material_b));
  }
}


namespace {

// velocity of a contact side's point at the start of the step, and whether gravity moves it
Vec3 SideVelocity(const Model& model, const State& state, const ContactSide& side, bool* dynamic) {
  *dynamic = false;
  if (side.is_particle()) {
    Vec3 v = Vec3::Zero();
    for (int k = 0; k < 3 && side.particles[k] >= 0; ++k) {
      v += side.weights(k) * state.particle_v_W[side.particles[k]];
      *dynamic |= model.particle_mass[side.particles[k]] > 0;
    }
    return v;
  }
  if (side.body < 0 || model.body_static[side.body]) return Vec3::Zero();
  *dynamic = true;
  const Pose& X_WB = state.body_X_WB[side.body];
  return state.body_v_W[side.body] + state.body_w_W[side.body].cross(X_WB.q * side.p_B);
}


// the approach speed −n·(v_A − v_B) of a contact at the start of the step
Real ApproachSpeed(const Model& model, const State& state, const Contact& contact, bool* dynamic_a,
                   bool* dynamic_b) {
  return -contact.normal_W.dot(SideVelocity(model, state, contact.a, dynamic_a) -
                               SideVelocity(model, state, contact.b, dynamic_b));
}

}  // namespace


void AssignBounceVelocities(const Model& model, const State& state, Real dt, Contacts* contacts) {
  const Real threshold = model.options.solver.restitution_threshold;
  for (Contact& contact : contacts->items) {
    contact.bounce_velocity = 0;
    if (!(contact.restitution > 0)) continue;
    bool dynamic_a = false, dynamic_b = false;
    const Vec3& n = contact.normal_W;
    const Real approach = ApproachSpeed(model, state, contact, &dynamic_a, &dynamic_b);
    const Real e = contact.restitution;
    if (!(e * approach > threshold) || contact.gap0 - dt * approach > 0) continue;
    // gravity's pull on the gap, A = n·(g_A − g_B) (negative toward a static floor), and the
    // energy ½u² − A·gap along the normal: the impact at the surface keeps e² of the approach's,
    // ½e²(v² − 2A·gap0), and the step's u ends at gap0 + Δt u with it:
    //   ½u² − A(gap0 + Δt u) = ½e²(v² − 2A·gap0)
    const Vec3& g = model.options.gravity;
    const Real A = n.dot((dynamic_a ? g : Vec3::Zero()) - (dynamic_b ? g : Vec3::Zero()));
    const Real gap0 = std::max<Real>(contact.gap0, 0);
    const Real c = 0.5 * e * e * (approach * approach - 2 * A * gap0) + A * gap0;
    const Real discriminant = A * A * dt * dt + 2 * c;
    contact.bounce_velocity =
        discriminant > 0 ? std::max<Real>(A * dt + std::sqrt(discriminant), 0) : e * approach;
  }
}


Real FastestClosingSpeed(const Model& model, const State& state, Real dt,
                         const Contacts& contacts) {
  Real fastest = 0;
  for (const Contact& contact : contacts.items) {
    bool dynamic_a = false, dynamic_b = false;
    const Real approach = ApproachSpeed(model, state, contact, &dynamic_a, &dynamic_b);
    if (approach > fastest && contact.gap0 - dt * approach <= 0) fastest = approach;
  }
  return fastest;
}

}  // namespace sim
