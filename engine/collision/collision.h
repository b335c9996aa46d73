// Collision stage: contact points between every pair of shapes (and particles vs shapes) that are
// closer than a margin, as multi-point manifolds that stay stable from step to step (a box resting
// on a plane always gets its four corners, in the same order). Primitives only in this version:
// plane, sphere, box, capsule, plus cylinder against planes; the full collision library (hulls,
// meshes, SDFs, deforming tet surfaces) replaces this behind the same interface.
#pragma once

#include <cstdint>

#include "engine/core/math.h"
#include "engine/state/contacts.h"

namespace sim {

struct Model;
struct State;

struct CollisionStats {
  int pairs_tested = 0;       ///< shape (and particle–shape) pairs that passed the bounding test
  int unsupported_pairs = 0;  ///< of those, pairs skipped because no narrow phase exists yet
  /// bit (6·min(type) + max(type)) per skipped ShapeType pair (a particle counts as a sphere)
  std::uint64_t unsupported_mask = 0;
};

/// Replaces `contacts->items` with the contacts of `state`. A contact is created when the gap
/// C_n (see contacts.h) is below `margin` [m], so bodies about to touch are already constrained
/// (speculative contacts: the NCP keeps λ_n = 0 while the gap stays open). Pairs on the same
/// body, static-static pairs and pairs of bodies joined by a joint are skipped. Friction: the
/// mean of the two materials' μ, isotropic (μ_t = μ_b). Sets `contacts->overflowed` instead of
/// growing past `contacts->capacity`. Allocation-free once `contacts->items` has capacity.
/// Sides: B is the shape of the lower ShapeType (a plane is always B), A the lower shape id
/// among equal types; a particle is always A, its point the centre, its radius the thickness.
void DetectContacts(const Model& model, const State& state, Real margin, Contacts* contacts,
                    CollisionStats* stats);

}  // namespace sim
