#include "engine/step/contact_material.h"

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
    contact.friction_t = contact.friction_b = ContactFriction(
        model, ContactSideMaterial(model, contact.a), ContactSideMaterial(model, contact.b));
  }
}

}  // namespace sim
