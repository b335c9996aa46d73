// Contacts of deformable (tet-mesh) surfaces, internal to engine/collision. The nodes of a soft
// body are particles and already meet shapes as particles; this adds
//  - the boundary triangles against every shape's field, by the face optimization of seed 000
//    chapter 6 (digest pd-sdf-robotics.md §2.3, §2.9: "one contact per triangle", representative
//    triangles drop the duplicates of shared edges; an optimum on a vertex is the particle's),
//  - the surface nodes of one soft body against the deformed surface of another: the closest
//    point on the other's triangles, inside/outside from its rest SDF mapped through the tet of
//    that triangle (the deformable embedding of §2.9).
// Contact sides on a surface are weighted particle points (the triangle's three nodes with the
// barycentric weights), so the solver moves the nodes that carry the contact.
#pragma once

#include <vector>

#include "engine/collision/collision.h"

namespace sim::collision_internal {

/// Appends the soft-body contacts of `state` (see the file comment). `margin` [m] as in
/// DetectContacts; each body's bounds grow by its fastest node's travel in `dt` [s].
void CollideSoftBodies(const Model& model, const State& state, Real margin, Real dt,
                       CollisionWorkspace* workspace, Contacts* contacts, CollisionStats* stats);

}  // namespace sim::collision_internal
