// Contact-material stage of the step pipeline, between collision and the solve: the one place
// that gives each contact the surface properties of its pair of materials. Collision says where
// two sides touch (points, normal, gap, features); this stage says how the touch behaves: the
// friction coefficients (μ_t, μ_b) and the tangent frame (t, b) they act along (digest
// nsn-and-friction.md §2.12, §4.4.c). Later surface properties (a structure field's sample,
// anisotropic μ_t ≠ μ_b along its direction, restitution) belong here too, not at the collision
// sites.
#pragma once

#include "engine/model/model.h"
#include "engine/state/contacts.h"
#include "engine/state/state.h"

namespace sim {

/// Material of one contact side (an index into model.materials): a point of a soft body's
/// surface (side.soft_body ≥ 0, a triangle or a node against another soft body) has the soft
/// body's material, a shape side its shape's, a particle side (a free particle, or a soft body's
/// node against a shape) its particle's. −1 for a side that is none of these.
int ContactSideMaterial(const Model& model, const ContactSide& side);

/// Gives every contact its friction and tangent frame from its two sides' materials: isotropic
/// μ_t = μ_b = ContactFriction (the pair's friction_pairs entry, else the mean of the two μ),
/// t = PerpendicularUnit(n) and b = n × t, so (t, b, n) is a right-handed orthonormal frame that
/// depends on the normal alone. Run after DetectContacts and before the solve; contacts from
/// DetectContacts carry only geometry until then.
void AssignContactMaterials(const Model& model, Contacts* contacts);

/// Restitution: each contact's e, the larger of its two materials' (Box2D's rule: a bouncy ball
/// bounces on a dead floor), and the separating normal speed its step must end with. An impact
/// bounces when it closes within the step (gap0 − Δt·v ≤ 0 at the approach speed v =
/// −n·(v_A − v_B) of the start-of-step velocities `state`) and e·v exceeds
/// model.options.solver.restitution_threshold; the speed is then chosen so that the relative
/// kinetic and gravitational energy along the normal after the step is e² of the impact's (the
/// step moves the contact by Δt·u from gap0, not from the surface, so u = e·v alone would leave
/// the bounce up to (1 + e)·Δt·v high under gravity). Else bounce_velocity = 0.
void AssignBounceVelocities(const Model& model, const State& state, Real dt, Contacts* contacts);

/// The fastest approach speed −n·(v_A − v_B) [m/s] of the contacts that close within the step
/// (gap0 − Δt·v ≤ 0) at the start-of-step velocities `state`; 0 when none closes.
Real FastestClosingSpeed(const Model& model, const State& state, Real dt, const Contacts& contacts);

}  // namespace sim
