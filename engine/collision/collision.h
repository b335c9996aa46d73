// Collision stage: contact points between every pair of shapes (and particles vs shapes) that are
// closer than a margin, as multi-point manifolds that stay stable from step to step (a box resting
// on a plane always gets its four corners, in the same order). Primitives only in this version:
// plane, sphere, box, capsule, plus cylinder against planes; the full collision library (hulls,
// meshes, SDFs, deforming tet surfaces) replaces this behind the same interface.
#pragma once

#include <bitset>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/core/math.h"
#include "engine/geometry/bvh.h"
#include "engine/model/model.h"
#include "engine/state/contacts.h"

namespace sim {

struct Model;
struct State;

/// Deterministic unit vector ⟂ n: the world axis least aligned with n (lowest index on ties),
/// projected onto the plane ⟂ n. `n` must be unit. The narrow phase's reference axes and the
/// contacts' tangent t (engine/step/contact_material.h).
inline Vec3 PerpendicularUnit(const Vec3& n) {
  const Vec3 magnitude = n.cwiseAbs();
  int axis = 0;
  if (magnitude.y() < magnitude(axis)) axis = 1;
  if (magnitude.z() < magnitude(axis)) axis = 2;
  const Vec3 e = Vec3::Unit(axis);
  return (e - n.dot(e) * n).normalized();
}

struct CollisionStats {
  int pairs_tested = 0;       ///< shape (and particle–shape) pairs that passed the bounding test
  int unsupported_pairs = 0;  ///< of those, pairs skipped because no narrow phase exists yet
  /// bit (kShapeTypeCount·min(type) + max(type)) per skipped ShapeType pair (a particle counts
  /// as a sphere)
  std::bitset<kShapeTypeCount * kShapeTypeCount> unsupported_mask;
};

/// Buffers of the broad phase, reused from step to step (no allocation once sized).
struct CollisionWorkspace {
  Real dt = 0;  ///< the step's time step [s]: manifold reduction ranks points by predicted gap
  std::vector<Vec3> box_min, box_max;           ///< world AABB per collider, grown by its sweep [m]
  std::vector<Real> sweep;                      ///< distance the collider can travel this step [m]
  std::vector<int> collider;                    ///< shape id, or −1 − particle id
  std::vector<int> order;                       ///< colliders sorted by box_min.x (sort and sweep)
  std::vector<std::pair<int, int>> candidates;  ///< overlapping collider pairs, sorted
  std::vector<int> planes;                      ///< plane shapes (unbounded, tested against all)
  std::vector<std::uint64_t> jointed;           ///< body pairs linked by a joint, sorted
  // soft bodies: current surface positions (local node ids) and their hierarchies, refitted
  std::vector<std::vector<Vec3>> soft_positions;
  std::vector<TriangleBvh> soft_bvh;
  std::vector<Vec3> soft_min, soft_max;  ///< bounds of each soft body, grown by its sweep [m]
  std::vector<Real> soft_sweep;
};

/// Broad phase + narrow phase. Broad phase: sort and sweep on world AABBs along x; planes are
/// tested against every collider. Each collider's bounds grow by the distance it can travel in
/// `dt` [s] at its current velocity (|v| + |ω|·r)·Δt, and a pair's contacts are created below
/// margin + both sweeps, so a fast body meets a speculative contact before it can pass through a
/// thin one (the NCP keeps λ_n = 0 unless the gap would close).
void DetectContacts(const Model& model, const State& state, Real margin, Real dt,
                    CollisionWorkspace* workspace, Contacts* contacts, CollisionStats* stats);

/// Replaces `contacts->items` with the contacts of `state`. A contact is created when the gap
/// C_n (see contacts.h) is below `margin` [m], so bodies about to touch are already constrained
/// (speculative contacts: the NCP keeps λ_n = 0 while the gap stays open). Pairs on the same
/// body, static-static pairs and pairs of bodies joined by a joint are skipped. Sets
/// `contacts->overflowed` instead of growing past `contacts->capacity`. Without motion sweep
/// (dt = 0), with a temporary workspace. Sides: B is the shape of the lower ShapeType (a plane is
/// always B), A the lower shape id among equal types; a particle is always A, its point the
/// centre, its radius the thickness. Geometry only: friction and the tangent frame are the
/// contact-material stage's (AssignContactMaterials, engine/step/contact_material.h), which a
/// step runs next; until then they keep Contact's defaults.
void DetectContacts(const Model& model, const State& state, Real margin, Contacts* contacts,
                    CollisionStats* stats);

}  // namespace sim
