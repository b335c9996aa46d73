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

}  // namespace sim
