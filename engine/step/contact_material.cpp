#include "engine/step/contact_material.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/collision/collision.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/model/structure_surface.h"

namespace sim {

int ContactSideMaterial(const Model& model, const ContactSide& side) {
  if (side.soft_body >= 0) return model.soft_bodies[side.soft_body].material;
  if (side.shape >= 0) return model.shape_material[side.shape];
  if (side.is_particle()) return model.particle_material[side.particle()];
  return -1;
}


namespace {

// below this a projected axis is taken as along the normal: no direction in the tangent plane
constexpr Real kMinTangentAxis = 1e-6;

// field coordinates of a rigid side: the mesh's UVs where the contact has them (a face, or a
// vertex through its representative triangle), else projected
FieldCoordinates RigidCoordinates(const Model& model, const StructureField& field,
                                  const ContactSide& side, const Vec3& p_S, const Vec3& n_S) {
  const ShapeGeometry& geometry = model.shape_geometry[side.shape];
  int triangle = side.feature_index;
  if (side.feature_kind == FeatureKind::kVertex && geometry.mesh) {
    const std::vector<int>& owner = geometry.mesh->topology.vertex_owner;
    triangle = triangle >= 0 && triangle < static_cast<int>(owner.size()) ? owner[triangle] : -1;
  }
  return ShapeFieldCoordinates(geometry, field.projection, triangle,
                               side.has_uv ? &side.uv : nullptr, p_S, n_S);
}

// the soft body whose node `particle` is, or −1
int SoftBodyOfParticle(const Model& model, int particle) {
  for (int s = 0; s < static_cast<int>(model.soft_bodies.size()); ++s) {
    const SoftBody& body = model.soft_bodies[s];
    if (particle >= body.first_particle && particle < body.first_particle + body.particle_count)
      return s;
  }
  return -1;
}

// a soft-body side's sample: the rest-frame axis carried through the current triangle
SideStructure SoftSideStructure(const Model& model, const State& state, const ContactSide& side,
                                int soft_body) {
  const SoftBody& body = model.soft_bodies[soft_body];
  SideStructure out;
  if (body.structure_field < 0 || !body.collision) return out;
  const StructureField& field = *model.structure_fields[body.structure_field];
  // the triangle and the point's weights on it (a node: its representative triangle)
  std::array<int, 3> nodes = side.particles;
  Vec3 weights = side.weights;
  if (nodes[1] < 0) {
    const int local = nodes[0] - body.first_particle;
    const std::vector<int>& owner = body.collision->topology.vertex_owner;
    const int triangle = local >= 0 && local < static_cast<int>(owner.size()) ? owner[local] : -1;
    if (triangle < 0) return out;
    const auto& tri = body.collision->rest_surface.triangles[triangle];
    for (int k = 0; k < 3; ++k) {
      nodes[k] = body.first_particle + tri[k];
      weights(k) = tri[k] == local ? 1 : 0;
    }
  }
  const SoftFieldFrame frame =
      SoftSurfaceFieldFrame(body, field.projection, nodes, weights, state.particle_x_W);
  if (!frame.valid) return out;
  const StructureSample sample = field.Sample(frame.rest.uv);
  if (!(sample.strength > 0)) return out;
  const Vec3 s_rest =
      sample.direction.x() * frame.rest.tangent_u + sample.direction.y() * frame.rest.tangent_v;
  out.axis_W = frame.ToWorld(s_rest);
  out.strength = sample.strength;
  return out;
}

}  // namespace


SideStructure SampleSideStructure(const Model& model, const State& state, const Contact& contact,
                                  bool is_a) {
  const ContactSide& side = is_a ? contact.a : contact.b;
  // soft-body surfaces: a triangle side, or a node of one
  if (side.is_particle()) {
    if (model.soft_bodies.empty()) return {};
    const int soft_body =
        side.soft_body >= 0 ? side.soft_body : SoftBodyOfParticle(model, side.particle());
    return soft_body >= 0 ? SoftSideStructure(model, state, side, soft_body) : SideStructure{};
  }
  const StructureField* field = ShapeStructureField(model, side.shape);
  if (field == nullptr) return {};
  // the surface point and outward normal in the shape frame (a round side's surface lies its
  // radius out from the core point; A's outward normal is −n)
  const int body = side.body;
  const Pose X_WS = body == kWorldBody ? model.shape_X_BS[side.shape]
                                       : state.body_X_WB[body] * model.shape_X_BS[side.shape];
  const Vec3 core_W = body == kWorldBody ? side.p_B : state.body_X_WB[body] * side.p_B;
  const Vec3 outward_W = is_a ? Vec3(-contact.normal_W) : contact.normal_W;
  const Vec3 surface_W = core_W + side.radius * outward_W;
  const Quat q_SW = X_WS.q.conjugate();
  const Vec3 p_S = q_SW * (surface_W - X_WS.p);
  const Vec3 n_S = q_SW * outward_W;
  const FieldCoordinates coordinates = RigidCoordinates(model, *field, side, p_S, n_S);
  const StructureSample sample = field->Sample(coordinates.uv);
  if (!(sample.strength > 0)) return {};
  const Vec3 s_S =
      sample.direction.x() * coordinates.tangent_u + sample.direction.y() * coordinates.tangent_v;
  return {X_WS.q * s_S, sample.strength};
}


MatchstickCone CombineMatchstick(const Vec3& n, const SideStructure& a, const SideStructure& b,
                                 const PairFriction& friction) {
  MatchstickCone cone;
  cone.tangent = PerpendicularUnit(n);
  cone.bitangent = n.cross(cone.tangent);
  cone.mu_t = cone.mu_b = friction.iso;
  // each side's axis in the tangent plane (note i), or no weight
  const auto project = [&](const SideStructure& side, Vec3* axis) {
    if (!(side.strength > 0)) return Real(0);
    const Vec3 tangential = side.axis_W - side.axis_W.dot(n) * n;
    const Real length = tangential.norm();
    if (!(length > kMinTangentAxis * side.axis_W.norm())) return Real(0);
    *axis = tangential / length;
    return std::min<Real>(side.strength, 1);
  };
  Vec3 s_a = Vec3::Zero(), s_b = Vec3::Zero();
  const Real w_a = project(a, &s_a);
  const Real w_b = project(b, &s_b);
  if (w_a == 0 && w_b == 0) return cone;  // no grain on either side: isotropic (note iii)
  // sign-align b to a (note ii), then d [T eq 29] and t [T eq 30] weighted by the strengths
  const Real cosine = s_a.dot(s_b);
  if (cosine < 0) s_b = -s_b;
  // acos|cos| loses half the digits near alignment (acos(1 − 1e-16) = 1.5e-8): the same angle
  // as atan2(|ŝ_a × ŝ_b|, |ŝ_a·ŝ_b|) keeps them
  const Real angle = std::atan2(s_a.cross(s_b).norm(), std::abs(cosine));
  const Real d_ab = 1 - (2 / std::numbers::pi) * angle;
  const Real d = w_a * w_b * d_ab + w_a * (1 - w_b) + w_b * (1 - w_a);
  const Vec3 t = (w_a * s_a + w_b * s_b).normalized();
  // μ_t, μ_b [T eq 33-34] (digest reading: μ_major, μ_minor)
  cone.anisotropy = d;
  cone.mu_t = d * friction.major + (1 - d) * friction.iso;
  cone.mu_b = d * friction.minor + (1 - d) * friction.iso;
  // a round cone keeps the normal-only frame (reproducible, see the header)
  if (cone.mu_t == cone.mu_b) return cone;
  cone.tangent = t;
  cone.bitangent = n.cross(t);  // [T eq 31]
  return cone;
}


void AssignContactMaterials(const Model& model, const State& state, Contacts* contacts) {
  const bool fields = !model.structure_fields.empty();
  for (Contact& contact : contacts->items) {
    const int material_a = ContactSideMaterial(model, contact.a);
    const int material_b = ContactSideMaterial(model, contact.b);
    const auto restitution = [&](int m) { return m >= 0 ? model.materials[m].restitution : 0.0; };
    contact.restitution = std::max(restitution(material_a), restitution(material_b));
    const Vec3& n = contact.normal_W;
    if (!fields) {
      // no structure field in the model: the isotropic cone in the normal-only frame
      contact.tangent_W = PerpendicularUnit(n);
      contact.bitangent_W = n.cross(contact.tangent_W);
      contact.friction_t = contact.friction_b = ContactFriction(model, material_a, material_b);
      contact.anisotropy = 0;
      continue;
    }
    const MatchstickCone cone =
        CombineMatchstick(n, SampleSideStructure(model, state, contact, true),
                          SampleSideStructure(model, state, contact, false),
                          ContactFrictionAxes(model, material_a, material_b));
    contact.tangent_W = cone.tangent;
    contact.bitangent_W = cone.bitangent;
    contact.friction_t = cone.mu_t;
    contact.friction_b = cone.mu_b;
    contact.anisotropy = cone.anisotropy;
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
