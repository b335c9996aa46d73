// Contact-material stage of the step pipeline, between collision and the solve: the one place
// that gives each contact the surface properties of its pair of materials. Collision says where
// two sides touch (points, normal, gap, features); this stage says how the touch behaves: the
// friction coefficients (μ_t, μ_b), the tangent frame (t, b) they act along, restitution, and the
// structure-field samples that make the cone anisotropic (digest nsn-and-friction.md §2.12,
// §2.13, §4.4.c).
//
// Matchstick combination (digest §2.12 with its reading of the typos and its notes (i)-(iv)).
// Each side with a structure field gives a world axis s (its field sampled at the contact and
// lifted through the surface tangent frame: rigid shapes rotate with their body, soft-body
// surfaces follow their current triangle) and a strength w in [0, 1]; a side without a field,
// or where its field has no axis, has w = 0. With ŝ = normalize(s − (s·n)n) (note i) and the
// sign σ = sign(ŝ_a·ŝ_b) (note ii):
//   d_ab = 1 − (2/π) acos|ŝ_a·ŝ_b|                              [T eq 29]
//          (evaluated as the same angle atan2(|ŝ_a × ŝ_b|, |ŝ_a·ŝ_b|), exact near alignment)
//   d    = w_a w_b d_ab + w_a (1 − w_b) + w_b (1 − w_a)
//   t    = normalize(w_a ŝ_a + w_b σ ŝ_b)                        [T eq 30]
//   b    = n × t                                                 [T eq 31]
//   μ_t  = d μ_major + (1 − d) μ,   μ_b = d μ_minor + (1 − d) μ   [T eq 33-34, digest reading]
// μ, μ_major, μ_minor are the pair's (friction_pairs entry, else each the mean of the two
// materials', ContactFrictionAxes). With w_a = w_b = 1 this is exactly eq. 29-30. The weights
// decide the one-sided case, which eq. 29 leaves open: a side with no grain (no field, or
// strength 0 there, e.g. erased to isotropic) cannot cancel the other side's grain, so a box
// without a field on a field-covered ground gets t = ŝ_ground and d = w_ground; the cone is
// isotropic (note iii: d = 0, μ_t = μ_b = μ) only where neither side has a direction. Two fully
// grained sides crossed at 90° still give d = 0 (eq. 29).
// A round cone (μ_t = μ_b, e.g. μ_major = μ_minor) keeps the normal-only frame t =
// PerpendicularUnit(n): any frame is principal then, and runs stay bit-identical to isotropic ones.
// Everything is computed once per contact before the solve (note iv); the solvers see a diagonal
// cone diag(1/μ_t², 1/μ_b²) in the (t, b) basis (§4.4.c).
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

/// One side's structure axis at a contact: world direction (any length; not yet projected) and
/// strength w in [0, 1] (0: no grain).
struct SideStructure {
  Vec3 axis_W = Vec3::Zero();
  Real strength = 0;
};

/// The sample of `side`'s structure field at the contact (`is_a`: the side is contact.a, whose
/// outward normal is −n), lifted to world at the configuration `state`; strength 0 when the
/// side has no field. Rigid shapes use their mesh UVs where the contact has them (projection
/// "uv", a face or vertex feature), else the field's projection of the shape-frame surface
/// point; soft-body surfaces project their rest-frame point and carry the axis through the
/// current triangle (s = E'·E⁺·s_rest with E, E' the rest and current edge matrices).
SideStructure SampleSideStructure(const Model& model, const State& state, const Contact& contact,
                                  bool is_a);

/// The friction cone of one contact: its frame, coefficients and blend d.
struct MatchstickCone {
  Vec3 tangent = Vec3::UnitX();
  Vec3 bitangent = Vec3::UnitY();
  Real mu_t = 0.5;
  Real mu_b = 0.5;
  Real anisotropy = 0;  ///< d
};

/// The Matchstick combination of the file comment for normal n (unit) and the pair's
/// coefficients.
MatchstickCone CombineMatchstick(const Vec3& n, const SideStructure& a, const SideStructure& b,
                                 const PairFriction& friction);

/// Gives every contact its friction and tangent frame from its two sides' materials and
/// structure fields (the Matchstick combination above; isotropic contacts get μ_t = μ_b = μ,
/// t = PerpendicularUnit(n) and b = n × t, so (t, b, n) is a right-handed orthonormal frame).
/// `state` is the configuration the contacts were found at (it places the fields). Run after
/// DetectContacts and before the solve; contacts from DetectContacts carry only geometry until
/// then.
void AssignContactMaterials(const Model& model, const State& state, Contacts* contacts);

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
