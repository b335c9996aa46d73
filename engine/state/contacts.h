// Contacts: the collision stage's output and the solvers' input; after a solve it also holds the
// contact forces. One flat array of plain structs, reused from step to step (no per-contact heap
// objects), so the same layout can be mirrored on the GPU.
//
// Convention: the normal n points from B to A, and the gap is C_n = nᵀ(a − b) − d ≥ 0 (digest
// nsn-and-friction.md eq. §2.9), where a and b are the contact points on A and B and d the
// thickness. A positive λ_n pushes A along +n and B along −n.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/core/math.h"

namespace sim {

/// Which feature of a side's surface a contact lies on.
enum class FeatureKind : std::uint8_t { kNone = 0, kVertex, kEdge, kFace };

/// One side of a contact: a body (or the static world), a particle, or a point of a deformable
/// surface (an edge or a triangle of particles, weighted by barycentric coordinates).
struct ContactSide {
  int body = -1;   ///< body id, or kWorldBody (−1) for the static world / a particle side
  int shape = -1;  ///< shape id, or −1 for a particle side
  /// particle side: its particles (a vertex 1, an edge 2, a triangle 3; unused entries −1); the
  /// side's point is Σ_k weights(k)·x_k
  std::array<int, 3> particles = {-1, -1, -1};
  Vec3 weights = Vec3(1, 0, 0);
  /// contact point in the body frame (world frame if static) [m]; on a round side (sphere,
  /// capsule, particle) the core point (centre / axis point), the surface being `radius` out
  /// along the normal; unused on particle sides
  Vec3 p_B = Vec3::Zero();
  Real radius = 0;  ///< round part of this side [m], included in Contact::thickness

  // where on the side's surface the contact lies (structure fields, reports, contact reduction)
  FeatureKind feature_kind = FeatureKind::kNone;
  int feature_index = -1;  ///< vertex, edge or triangle index in the shape's mesh or surface
  Vec3 barycentric = Vec3::Zero();  ///< on a triangle (u, v, w) or an edge (1 − t, t, 0)
  Vec2 uv = Vec2::Zero();           ///< surface texture coordinates, when has_uv
  bool has_uv = false;
  int soft_body = -1;  ///< soft body whose surface this side lies on, else −1

  bool is_particle() const { return particles[0] >= 0; }
  int particle() const { return particles[0]; }  ///< first particle, or −1
};

struct Contact {
  ContactSide a;
  ContactSide b;
  Vec3 normal_W = Vec3::UnitZ();  ///< unit, from B to A, fixed for the step
  Real thickness = 0;         ///< d [m]: the distance kept along the normal (a.radius + b.radius)
  Real gap0 = 0;              ///< C_n at the start of the step [m] (negative: penetration)
  std::uint32_t feature = 0;  ///< identifies the feature pair within a shape pair

  // friction (digest §2.12, §4.4.c): the tangent basis is aligned with the cone's principal
  // axes so the 2×2 cone matrix A = diag(1/μ_t², 1/μ_b²) is diagonal; isotropic: μ_t = μ_b
  Vec3 tangent_W = Vec3::UnitX();    ///< d1 = t, unit, ⟂ normal
  Vec3 bitangent_W = Vec3::UnitY();  ///< d2 = b = n × t
  Real friction_t = 0.5;             ///< μ_t along the tangent [-]
  Real friction_b = 0.5;             ///< μ_b along the bitangent [-]
  /// Matchstick blend d in [0, 1] of the pair's structure fields ([T eq 29], weighted by their
  /// strengths; contact_material.h): 0 isotropic, 1 the full (μ_major, μ_minor) cone [-]
  Real anisotropy = 0;
  Real restitution = 0;  ///< e of the pair [-]
  /// separating normal speed the step must end with (e times the approach speed of an impact
  /// that closes within the step, else 0) [m/s]
  Real bounce_velocity = 0;

  // solver output (after the step)
  Real normal_force = 0;            ///< λ_n [N]
  Real friction_force[2] = {0, 0};  ///< λ_f along (tangent, bitangent) [N]
  Real gap = 0;                     ///< C_n at the end of the step [m]
};

struct State;

/// The contact's point midway between the two surfaces in configuration `state`, world [m]: A's
/// surface lies its radius back along −n from its core point, B's its radius along +n.
Vec3 ContactMidpoint(const State& state, const Contact& contact);

/// Identity of a contact across steps: the two sides (shape or particle) and the feature pair.
inline std::uint64_t ContactKey(const Contact& c) {
  // 20 bits per side (shape id + 1, or 2¹⁹ + first particle id), 24 bits of feature (a
  // surface triangle's contacts put the triangle in the feature)
  const auto side = [](const ContactSide& s) -> std::uint64_t {
    return s.is_particle() ? (std::uint64_t{1} << 19) + s.particles[0] : std::uint64_t(s.shape + 1);
  };
  return ((side(c.a) & 0xFFFFF) << 44) | ((side(c.b) & 0xFFFFF) << 24) | (c.feature & 0xFFFFFF);
}

struct Contacts {
  std::vector<Contact> items;
  int capacity = 65536;  ///< the collision stage sets kCapacityExceeded instead of growing past it
  bool overflowed = false;

  int count() const { return static_cast<int>(items.size()); }
  void Clear() {
    items.clear();
    overflowed = false;
  }
};

}  // namespace sim
