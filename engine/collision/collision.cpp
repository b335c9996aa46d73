// Collision stage: the O(n²) pair loop over shapes (and particles against shapes) with the pair
// filters and a bounding-sphere test, the dispatch to the narrow phase, and the conversion of the
// manifolds into Contacts (body-frame points, tangent basis, friction).
//
// Side order of a pair: B is the shape of the lower ShapeType (plane < sphere < box < capsule <
// cylinder), so a plane is always B; for two shapes of the same type A is the lower shape id.
// A particle is always A (a sphere of particle_radius; its contact point is its centre and the
// thickness is its radius).
#include "engine/collision/collision.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/collision/narrowphase.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim {

namespace {

using collision_internal::Manifold;
using collision_internal::PlacedShape;

constexpr Real kInfinity = std::numeric_limits<Real>::infinity();

// radius of a sphere around the shape origin that holds the shape [m]; infinite for planes
Real BoundingRadius(const ShapeGeometry& geometry) {
  switch (geometry.type) {
    case ShapeType::kSphere:
      return geometry.radius;
    case ShapeType::kBox:
      return geometry.half_extents.norm();
    case ShapeType::kCapsule:
      return geometry.half_length + geometry.radius;
    case ShapeType::kCylinder:
      return std::hypot(geometry.half_length, geometry.radius);
    case ShapeType::kPlane:
    case ShapeType::kNone:
      break;
  }
  return kInfinity;
}

bool IsStatic(const Model& model, int body) {
  return body == kWorldBody || model.body_static[body] != 0;
}

// true when both bodies are in the same non-negative body_filter_group (see model.h)
bool SameFilterGroup(const Model& model, int body_a, int body_b) {
  if (body_a == kWorldBody || body_b == kWorldBody) return false;
  const auto& group = model.body_filter_group;
  if (static_cast<int>(group.size()) != model.body_count()) return false;
  return group[body_a] >= 0 && group[body_a] == group[body_b];
}

// true when a joint links the two bodies directly (either way round); world joints do not count
bool Jointed(const Model& model, int body_a, int body_b) {
  if (body_a == kWorldBody || body_b == kWorldBody) return false;
  for (int j = 0; j < model.joint_count(); ++j) {
    const int parent = model.joint_parent[j];
    const int child = model.joint_child[j];
    if ((parent == body_a && child == body_b) || (parent == body_b && child == body_a)) {
      return true;
    }
  }
  return false;
}

Real MaterialFriction(const Model& model, int material) {
  if (material < 0 || material >= static_cast<int>(model.materials.size())) {
    return Material{}.friction;
  }
  return model.materials[material].friction;
}

PlacedShape PlaceShape(const Model& model, const State& state, int shape) {
  const int body = model.shape_body[shape];
  const Pose X_WS = body == kWorldBody ? model.shape_X_BS[shape]
                                       : state.body_X_WB[body] * model.shape_X_BS[shape];
  return {&model.shape_geometry[shape], X_WS.p, X_WS.q.toRotationMatrix()};
}

// bounding test of two placed shapes (at most one plane) against the margin
bool BoundsOverlap(const PlacedShape& first, const PlacedShape& second, Real margin) {
  const ShapeGeometry& g1 = *first.geometry;
  const ShapeGeometry& g2 = *second.geometry;
  if (g1.type == ShapeType::kPlane || g2.type == ShapeType::kPlane) {
    const PlacedShape& plane = g1.type == ShapeType::kPlane ? first : second;
    const PlacedShape& other = g1.type == ShapeType::kPlane ? second : first;
    const Real height = plane.rotation.col(2).dot(other.center - plane.center);
    return height - BoundingRadius(*other.geometry) < margin;
  }
  return (first.center - second.center).norm() - BoundingRadius(g1) - BoundingRadius(g2) < margin;
}

// manifold of shape A against shape B (types ordered as in the file comment); false when the
// type pair has no narrow phase
bool Collide(const PlacedShape& a, const PlacedShape& b, Real margin, Manifold* manifold) {
  namespace np = collision_internal;
  const ShapeType type_a = a.geometry->type;
  const ShapeType type_b = b.geometry->type;
  if (type_b == ShapeType::kPlane) {
    switch (type_a) {
      case ShapeType::kSphere:
        np::SphereVsPlane(a, b, margin, manifold);
        return true;
      case ShapeType::kBox:
        np::BoxVsPlane(a, b, margin, manifold);
        return true;
      case ShapeType::kCapsule:
        np::CapsuleVsPlane(a, b, margin, manifold);
        return true;
      case ShapeType::kCylinder:
        np::CylinderVsPlane(a, b, margin, manifold);
        return true;
      default:
        return false;
    }
  }
  if (type_b == ShapeType::kSphere) {
    switch (type_a) {
      case ShapeType::kSphere:
        np::SphereVsSphere(a, b, margin, manifold);
        return true;
      case ShapeType::kBox:
        np::SphereVsBox(b, a, margin, manifold);
        manifold->SwapSides();
        return true;
      case ShapeType::kCapsule:
        np::SphereVsCapsule(b, a, margin, manifold);
        manifold->SwapSides();
        return true;
      default:
        return false;
    }
  }
  if (type_b == ShapeType::kBox) {
    if (type_a == ShapeType::kBox) {
      np::BoxVsBox(a, b, margin, manifold);
      return true;
    }
    if (type_a == ShapeType::kCapsule) {
      np::CapsuleVsBox(a, b, margin, manifold);
      return true;
    }
    return false;
  }
  if (type_b == ShapeType::kCapsule && type_a == ShapeType::kCapsule) {
    np::CapsuleVsCapsule(a, b, margin, manifold);
    return true;
  }
  return false;
}

// manifold of a particle (a sphere, side A) against shape B; false when unsupported
bool CollideParticle(const PlacedShape& particle, const PlacedShape& shape, Real margin,
                     Manifold* manifold) {
  namespace np = collision_internal;
  switch (shape.geometry->type) {
    case ShapeType::kPlane:
      np::SphereVsPlane(particle, shape, margin, manifold);
      return true;
    case ShapeType::kSphere:
      np::SphereVsSphere(particle, shape, margin, manifold);
      return true;
    case ShapeType::kBox:
      np::SphereVsBox(particle, shape, margin, manifold);
      return true;
    case ShapeType::kCapsule:
      np::SphereVsCapsule(particle, shape, margin, manifold);
      return true;
    default:
      return false;
  }
}

// one side of a contact before its point is known
struct SideSource {
  int body = kWorldBody;
  int particle = -1;
  int shape = -1;
  Real friction = 0.5;
};

SideSource ShapeSide(const Model& model, int shape) {
  return {model.shape_body[shape], -1, shape, MaterialFriction(model, model.shape_material[shape])};
}

// contact point in the side's frame: body frame, world for a static world shape, zero for a
// particle
Vec3 SidePoint(const State& state, const SideSource& side, const Vec3& point_W) {
  if (side.particle >= 0) return Vec3::Zero();
  if (side.body == kWorldBody) return point_W;
  const Pose& X_WB = state.body_X_WB[side.body];
  return X_WB.q.conjugate() * (point_W - X_WB.p);
}

// appends the manifold's points as contacts; `thickness` is the particle radius for a particle
// side A (its point is then the centre) and 0 otherwise
void AppendContacts(const State& state, const Manifold& manifold, const SideSource& a,
                    const SideSource& b, Real thickness, Real margin, Contacts* contacts) {
  for (int i = 0; i < manifold.count; ++i) {
    const collision_internal::ManifoldPoint& point = manifold.points[i];
    const Vec3 normal = point.normal.normalized();
    const Vec3 point_a = point.point_a + thickness * normal;  // the particle centre, if any
    const Real gap0 = normal.dot(point_a - point.point_b) - thickness;
    if (!(gap0 < margin)) continue;
    if (contacts->count() >= contacts->capacity) {
      contacts->overflowed = true;
      return;
    }
    Contact contact;
    contact.a = {a.body, a.particle, a.shape, SidePoint(state, a, point_a)};
    contact.b = {b.body, b.particle, b.shape, SidePoint(state, b, point.point_b)};
    contact.normal_W = normal;
    contact.thickness = thickness;
    contact.gap0 = gap0;
    contact.feature = point.feature;
    contact.tangent_W = collision_internal::PerpendicularUnit(normal);
    contact.bitangent_W = normal.cross(contact.tangent_W);
    contact.friction_t = contact.friction_b = 0.5 * (a.friction + b.friction);
    contacts->items.push_back(contact);
  }
}

// records a type pair without a narrow phase
void CountUnsupported(ShapeType first, ShapeType second, CollisionStats* stats) {
  const int low = std::min(static_cast<int>(first), static_cast<int>(second));
  const int high = std::max(static_cast<int>(first), static_cast<int>(second));
  ++stats->unsupported_pairs;
  stats->unsupported_mask |= std::uint64_t{1} << (6 * low + high);
}

}  // namespace


void DetectContacts(const Model& model, const State& state, Real margin, Contacts* contacts,
                    CollisionStats* stats) {
  contacts->Clear();
  *stats = {};
  const int shape_count = model.shape_count();

  // shape pairs
  for (int first = 0; first < shape_count; ++first) {
    const ShapeType first_type = model.shape_geometry[first].type;
    if (first_type == ShapeType::kNone) continue;
    const int first_body = model.shape_body[first];
    for (int second = first + 1; second < shape_count; ++second) {
      const ShapeType second_type = model.shape_geometry[second].type;
      const int second_body = model.shape_body[second];
      // filters: empty shapes, same body, static pairs, plane pairs, jointed bodies, one
      // non-colliding group (a robot without self-collision)
      if (second_type == ShapeType::kNone || first_body == second_body) continue;
      if (IsStatic(model, first_body) && IsStatic(model, second_body)) continue;
      if (first_type == ShapeType::kPlane && second_type == ShapeType::kPlane) continue;
      if (Jointed(model, first_body, second_body)) continue;
      if (SameFilterGroup(model, first_body, second_body)) continue;

      const PlacedShape first_placed = PlaceShape(model, state, first);
      const PlacedShape second_placed = PlaceShape(model, state, second);
      if (!BoundsOverlap(first_placed, second_placed, margin)) continue;
      ++stats->pairs_tested;

      // side order: B has the lower type, A the lower id among equal types
      const bool first_is_a = first_type >= second_type;
      const int shape_a = first_is_a ? first : second;
      const int shape_b = first_is_a ? second : first;
      Manifold manifold;
      if (!Collide(first_is_a ? first_placed : second_placed,
                   first_is_a ? second_placed : first_placed, margin, &manifold)) {
        CountUnsupported(first_type, second_type, stats);
        continue;
      }
      AppendContacts(state, manifold, ShapeSide(model, shape_a), ShapeSide(model, shape_b), 0,
                     margin, contacts);
    }
  }

  // particles against shapes
  ShapeGeometry particle_sphere;
  particle_sphere.type = ShapeType::kSphere;
  for (int particle = 0; particle < model.particle_count(); ++particle) {
    particle_sphere.radius = model.particle_radius[particle];
    const PlacedShape placed_particle{&particle_sphere, state.particle_x_W[particle],
                                      Mat3::Identity()};
    const SideSource particle_side{kWorldBody, particle, -1,
                                   MaterialFriction(model, model.particle_material[particle])};
    for (int shape = 0; shape < shape_count; ++shape) {
      if (model.shape_geometry[shape].type == ShapeType::kNone) continue;
      const PlacedShape placed_shape = PlaceShape(model, state, shape);
      if (!BoundsOverlap(placed_particle, placed_shape, margin)) continue;
      ++stats->pairs_tested;
      Manifold manifold;
      if (!CollideParticle(placed_particle, placed_shape, margin, &manifold)) {
        CountUnsupported(ShapeType::kSphere, placed_shape.geometry->type, stats);
        continue;
      }
      AppendContacts(state, manifold, particle_side, ShapeSide(model, shape),
                     particle_sphere.radius, margin, contacts);
    }
  }
}

}  // namespace sim
