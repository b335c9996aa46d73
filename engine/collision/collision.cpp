// Collision stage: the O(n²) pair loop over shapes (and particles against shapes) with the pair
// filters and a bounding-sphere test, the dispatch to the narrow phase, and the conversion of the
// manifolds into Contacts (body-frame points, thickness, gap). Friction and the tangent frame are
// the contact-material stage's (engine/step/contact_material.h).
//
// Side order of a pair: B is the shape of the lower ShapeType (plane < sphere < box < capsule <
// cylinder), so a plane is always B; for two shapes of the same type A is the lower shape id.
// A particle is always A (a sphere of particle_radius; its contact point is its centre and the
// thickness is its radius).
#include "engine/collision/collision.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/collision/collision_fields.h"
#include "engine/collision/collision_soft.h"
#include "engine/collision/narrowphase.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim {

namespace {

using collision_internal::HalfExtentsWorld;
using collision_internal::Manifold;
using collision_internal::PlacedShape;
using collision_internal::PlaceShape;


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

// key of an unordered body pair
std::uint64_t BodyPairKey(int x, int y) {
  const auto low = static_cast<std::uint32_t>(std::min(x, y));
  const auto high = static_cast<std::uint32_t>(std::max(x, y));
  return (std::uint64_t{low} << 32) | high;
}

// distance any point of the shape can travel in dt at the body's current twist [m]: the
// shape centre's speed plus, except for a sphere (rotation does not move its surface), the
// rotation of its bounding sphere
Real ShapeSweep(const Model& model, const State& state, int shape, const PlacedShape& placed,
                Real dt) {
  const int body = model.shape_body[shape];
  if (dt <= 0 || IsStatic(model, body)) return 0;
  const Vec3& w = state.body_w_W[body];
  const Vec3 center_velocity =
      state.body_v_W[body] + w.cross(placed.center - state.body_X_WB[body].p);
  const Real spin =
      placed.geometry->type == ShapeType::kSphere ? 0 : w.norm() * BoundingRadius(*placed.geometry);
  return (center_velocity.norm() + spin) * dt;
}


// manifold of shape A against shape B (types ordered as in the file comment); false when the
// type pair has no narrow phase
bool Collide(const PlacedShape& a, const PlacedShape& b, Real margin, Manifold* manifold) {
  namespace np = collision_internal;
  const ShapeType type_a = a.geometry->type;
  const ShapeType type_b = b.geometry->type;
  // cylinders and convex hulls (A has the higher type: the hull, or the cylinder)
  if (type_a == ShapeType::kCylinder) {
    switch (type_b) {
      case ShapeType::kPlane:
        np::CylinderVsPlane(a, b, margin, manifold);
        return true;
      case ShapeType::kSphere:
        np::CylinderVsSphere(a, b, margin, manifold);
        return true;
      case ShapeType::kBox:
        np::CylinderVsBox(a, b, margin, manifold);
        return true;
      case ShapeType::kCapsule:
        np::CylinderVsCapsule(a, b, margin, manifold);
        return true;
      case ShapeType::kCylinder:
        np::CylinderVsCylinder(a, b, margin, manifold);
        return true;
      default:
        return false;
    }
  }
  if (type_a == ShapeType::kConvexHull && a.geometry->hull) {
    const ConvexHull& hull = *a.geometry->hull;
    switch (type_b) {
      case ShapeType::kPlane:
        np::HullVsPlane(hull, a, b, margin, manifold);
        return true;
      case ShapeType::kSphere:
        np::HullVsSphere(hull, a, b, margin, manifold);
        return true;
      case ShapeType::kBox:
        np::HullVsBox(hull, a, b, margin, manifold);
        return true;
      case ShapeType::kCapsule:
        np::HullVsCapsule(hull, a, b, margin, manifold);
        return true;
      case ShapeType::kCylinder:
        np::CylinderVsHull(b, hull, a, margin, manifold);
        manifold->SwapSides();
        return true;
      case ShapeType::kConvexHull:
        if (!b.geometry->hull) return false;
        np::HullVsHull(hull, a, *b.geometry->hull, b, margin, manifold);
        return true;
      default:
        return false;
    }
  }
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
    case ShapeType::kCylinder:
      np::CylinderVsSphere(shape, particle, margin, manifold);
      manifold->SwapSides();
      return true;
    case ShapeType::kConvexHull:
      if (!shape.geometry->hull) return false;
      np::HullVsSphere(*shape.geometry->hull, shape, particle, margin, manifold);
      manifold->SwapSides();
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
};

SideSource ShapeSide(const Model& model, int shape) { return {model.shape_body[shape], -1, shape}; }

// contact point in the side's frame: body frame, world for a static world shape, zero for a
// particle
Vec3 SidePoint(const State& state, const SideSource& side, const Vec3& point_W) {
  if (side.particle >= 0) return Vec3::Zero();
  if (side.body == kWorldBody) return point_W;
  const Pose& X_WB = state.body_X_WB[side.body];
  return X_WB.q.conjugate() * (point_W - X_WB.p);
}

ContactSide MakeSide(const SideSource& source, const Vec3& point, Real radius) {
  ContactSide side;
  side.body = source.body;
  side.shape = source.shape;
  side.particles[0] = source.particle;
  side.p_B = point;
  side.radius = radius;
  if (source.particle >= 0) side.feature_kind = FeatureKind::kVertex;
  return side;
}

// round part of a side [m]: the radius of a sphere, capsule or particle, 0 for sharp shapes
Real RoundRadius(const Model& model, const SideSource& side) {
  if (side.particle >= 0) return model.particle_radius[side.particle];
  const ShapeGeometry& g = model.shape_geometry[side.shape];
  return g.type == ShapeType::kSphere || g.type == ShapeType::kCapsule ? g.radius : 0;
}

// appends the manifold's points as contacts. A round side contributes its core point (sphere
// centre, capsule axis point, particle centre) and its radius to the thickness: the core is a
// material point, so the gap stays right while the body turns within the step, where a point
// on a spinning sphere's surface would rotate away from the contact and lift off
void AppendContacts(const Model& model, const State& state, const Manifold& manifold,
                    const SideSource& a, const SideSource& b, Real margin, Contacts* contacts) {
  const Real radius_a = RoundRadius(model, a);
  const Real radius_b = RoundRadius(model, b);
  for (int i = 0; i < manifold.count; ++i) {
    const collision_internal::ManifoldPoint& point = manifold.points[i];
    const Vec3 normal = point.normal.normalized();
    const Vec3 core_a = point.point_a + radius_a * normal;
    const Vec3 core_b = point.point_b - radius_b * normal;
    const Real thickness = radius_a + radius_b;
    const Real gap0 = normal.dot(core_a - core_b) - thickness;
    if (!(gap0 < margin)) continue;
    if (contacts->count() >= contacts->capacity) {
      contacts->overflowed = true;
      return;
    }
    Contact contact;
    contact.a = MakeSide(a, SidePoint(state, a, core_a), radius_a);
    contact.b = MakeSide(b, SidePoint(state, b, core_b), radius_b);
    contact.normal_W = normal;
    contact.thickness = thickness;
    contact.gap0 = gap0;
    contact.feature = point.feature;
    contacts->items.push_back(contact);
  }
}

// appends contacts found through fields (feature, barycentric and UV of each side kept)
void AppendFieldContacts(const State& state,
                         const std::vector<collision_internal::FieldContact>& found, int begin,
                         const SideSource& a, const SideSource& b, Real margin,
                         Contacts* contacts) {
  const auto side = [&](const SideSource& source, const collision_internal::FieldSide& f,
                        const Vec3& point) {
    ContactSide s = MakeSide(source, SidePoint(state, source, point), f.radius);
    if (f.kind != FeatureKind::kNone) s.feature_kind = f.kind;
    s.feature_index = f.index;
    s.barycentric = f.barycentric;
    s.uv = f.uv;
    s.has_uv = f.has_uv;
    return s;
  };
  for (int i = begin; i < static_cast<int>(found.size()); ++i) {
    const collision_internal::FieldContact& c = found[i];
    if (!(c.gap < margin)) continue;
    if (contacts->count() >= contacts->capacity) {
      contacts->overflowed = true;
      return;
    }
    Contact contact;
    contact.a = side(a, c.a, c.point_a);
    contact.b = side(b, c.b, c.point_b);
    contact.normal_W = c.normal;
    contact.thickness = c.a.radius + c.b.radius;
    contact.gap0 = c.gap;
    contact.feature = c.feature;
    contacts->items.push_back(contact);
  }
}

// contacts of a pair through fields, both ways (A's features in B's field and B's in A's),
// reduced to a few per normal direction; false when neither way applies
bool CollideByFields(const PlacedShape& a, const PlacedShape& b, Real margin,
                     std::vector<collision_internal::FieldContact>* found) {
  namespace np = collision_internal;
  // at most this many contacts per group of similar normals: a supported polygon needs 4
  constexpr int kMaxPerNormal = 4;
  found->clear();
  bool any = np::FeaturesAgainstField(a, b, margin, 0, found);
  const int forward = static_cast<int>(found->size());
  if (np::FeaturesAgainstField(b, a, margin, 1, found)) {
    any = true;
    for (int i = forward; i < static_cast<int>(found->size()); ++i) (*found)[i].SwapSides();
  }
  // rank each contact by the lowest gap it reaches this step at the bodies' motion
  for (np::FieldContact& c : *found) {
    const Real approach =
        c.normal.dot(a.StepDisplacement(c.point_a) - b.StepDisplacement(c.point_b));
    c.predicted_gap = c.gap + std::min<Real>(0, approach);
  }
  np::ReduceContacts(found, 0, kMaxPerNormal, np::kDepthBandOfMargin * margin);
  return any;
}

// records a type pair without a narrow phase
void CountUnsupported(ShapeType first, ShapeType second, CollisionStats* stats) {
  const int low = std::min(static_cast<int>(first), static_cast<int>(second));
  const int high = std::max(static_cast<int>(first), static_cast<int>(second));
  ++stats->unsupported_pairs;
  stats->unsupported_mask.set(kShapeTypeCount * low + high);
}

// one candidate pair of colliders (shape id, or −1 − particle id; at most one particle) after
// the broad phase: filters, bounding test with the pair's margin, narrow phase, contacts
void CollidePair(const Model& model, const State& state, int first, int second, Real margin,
                 const CollisionWorkspace& ws, Contacts* contacts, CollisionStats* stats) {
  if (first < 0 && second < 0) return;  // particle–particle contact is not modelled
  if (first < 0 || second < 0) {
    const int particle = first < 0 ? -1 - first : -1 - second;
    const int shape = first < 0 ? second : first;
    if (!model.ShapesMayCollide(-1, shape)) return;  // filtered by group/mask
    ShapeGeometry sphere;
    sphere.type = ShapeType::kSphere;
    sphere.radius = model.particle_radius[particle];
    const PlacedShape placed_particle{&sphere, state.particle_x_W[particle], Mat3::Identity()};
    const PlacedShape placed_shape = PlaceShape(model, state, shape, ws.dt);
    if (!BoundsOverlap(placed_particle, placed_shape, margin)) return;
    ++stats->pairs_tested;
    const SideSource particle_side{kWorldBody, particle, -1};
    Manifold manifold;
    if (CollideParticle(placed_particle, placed_shape, margin, &manifold)) {
      AppendContacts(model, state, manifold, particle_side, ShapeSide(model, shape), margin,
                     contacts);
      return;
    }
    // meshes, hulls and fields: the particle's centre in the shape's field
    thread_local std::vector<collision_internal::FieldContact> found;
    found.clear();
    if (!collision_internal::FeaturesAgainstField(placed_particle, placed_shape, margin, 0,
                                                  &found)) {
      CountUnsupported(ShapeType::kSphere, placed_shape.geometry->type, stats);
      return;
    }
    AppendFieldContacts(state, found, 0, particle_side, ShapeSide(model, shape), margin, contacts);
    return;
  }
  // shape pairs: same body, static pairs, plane pairs and jointed bodies never collide
  const ShapeType first_type = model.shape_geometry[first].type;
  const ShapeType second_type = model.shape_geometry[second].type;
  const int first_body = model.shape_body[first];
  const int second_body = model.shape_body[second];
  if (first_body == second_body) return;
  if (IsStatic(model, first_body) && IsStatic(model, second_body)) return;
  if (first_type == ShapeType::kPlane && second_type == ShapeType::kPlane) return;
  if (first_body != kWorldBody && second_body != kWorldBody &&
      std::binary_search(ws.jointed.begin(), ws.jointed.end(),
                         BodyPairKey(first_body, second_body))) {
    return;
  }
  if (SameFilterGroup(model, first_body, second_body)) return;  // a robot without self-collision
  if (!model.ShapesMayCollide(first, second)) return;           // the scene's groups and masks
  const PlacedShape first_placed = PlaceShape(model, state, first, ws.dt);
  const PlacedShape second_placed = PlaceShape(model, state, second, ws.dt);
  if (!BoundsOverlap(first_placed, second_placed, margin)) return;
  ++stats->pairs_tested;

  // side order: B has the lower type, A the lower id among equal types
  const bool first_is_a = first_type > second_type || (first_type == second_type && first < second);
  const int shape_a = first_is_a ? first : second;
  const int shape_b = first_is_a ? second : first;
  const PlacedShape& placed_a = first_is_a ? first_placed : second_placed;
  const PlacedShape& placed_b = first_is_a ? second_placed : first_placed;
  Manifold manifold;
  if (Collide(placed_a, placed_b, margin, &manifold)) {
    AppendContacts(model, state, manifold, ShapeSide(model, shape_a), ShapeSide(model, shape_b),
                   margin, contacts);
    return;
  }
  // no analytic pair: the chapter-6 contacts through the shapes' fields
  thread_local std::vector<collision_internal::FieldContact> found;
  if (!CollideByFields(placed_a, placed_b, margin, &found)) {
    CountUnsupported(first_type, second_type, stats);
    return;
  }
  AppendFieldContacts(state, found, 0, ShapeSide(model, shape_a), ShapeSide(model, shape_b), margin,
                      contacts);
}


}  // namespace


void DetectContacts(const Model& model, const State& state, Real margin, Contacts* contacts,
                    CollisionStats* stats) {
  CollisionWorkspace workspace;
  DetectContacts(model, state, margin, 0, &workspace, contacts, stats);
}


void DetectContacts(const Model& model, const State& state, Real margin, Real dt,
                    CollisionWorkspace* ws, Contacts* contacts, CollisionStats* stats) {
  contacts->Clear();
  ws->dt = dt;
  *stats = {};
  const int shape_count = model.shape_count();

  // jointed and excluded body pairs, sorted for binary search (adjacent links do not collide)
  ws->jointed.clear();
  for (int j = 0; j < model.joint_count(); ++j) {
    const int parent = model.joint_parent[j];
    const int child = model.joint_child[j];
    if (parent == kWorldBody || child == kWorldBody) continue;
    ws->jointed.push_back(BodyPairKey(parent, child));
  }
  for (const auto& pair : model.body_collision_exclusions) {
    ws->jointed.push_back(BodyPairKey(pair[0], pair[1]));
  }
  std::sort(ws->jointed.begin(), ws->jointed.end());

  // colliders: every bounded shape and every particle, with its AABB grown by its sweep
  ws->collider.clear();
  ws->planes.clear();
  ws->box_min.clear();
  ws->box_max.clear();
  ws->sweep.clear();
  for (int shape = 0; shape < shape_count; ++shape) {
    const ShapeType type = model.shape_geometry[shape].type;
    if (type == ShapeType::kNone) continue;
    if (type == ShapeType::kPlane) {
      ws->planes.push_back(shape);
      continue;
    }
    const PlacedShape placed = PlaceShape(model, state, shape);
    const Vec3 half = HalfExtentsWorld(placed);
    const Real sweep = ShapeSweep(model, state, shape, placed, dt);
    ws->collider.push_back(shape);
    ws->box_min.push_back(placed.center - half - Vec3::Constant(sweep));
    ws->box_max.push_back(placed.center + half + Vec3::Constant(sweep));
    ws->sweep.push_back(sweep);
  }
  for (int particle = 0; particle < model.particle_count(); ++particle) {
    const Real r = model.particle_radius[particle];
    const Real sweep = state.particle_v_W[particle].norm() * dt;
    ws->collider.push_back(-1 - particle);
    ws->box_min.push_back(state.particle_x_W[particle] - Vec3::Constant(r + sweep));
    ws->box_max.push_back(state.particle_x_W[particle] + Vec3::Constant(r + sweep));
    ws->sweep.push_back(sweep);
  }

  // sort and sweep along x: candidates are the pairs whose grown boxes overlap on all axes.
  // Particle–particle contact is not modelled (CollidePair), so shapes and particles are swept
  // as two lists and only shape–shape and shape–particle pairs are visited: in one list the
  // nodes of a soft body met each other ~80k times per step on a 7k-tet ball (1.5 ms)
  const int n = static_cast<int>(ws->collider.size());
  const int shapes = n - model.particle_count();  // the shapes come first in `collider`
  const auto overlap = [&](int first, int second) {
    return !((ws->box_min[second].array() > ws->box_max[first].array() + margin).any() ||
             (ws->box_min[first].array() > ws->box_max[second].array() + margin).any());
  };
  const auto starts_before = [&](int x, int y) {
    return ws->box_min[x].x() < ws->box_min[y].x() ||
           (ws->box_min[x].x() == ws->box_min[y].x() && x < y);
  };
  ws->order.resize(n);
  for (int i = 0; i < n; ++i) ws->order[i] = i;
  const auto particles_begin = ws->order.begin() + shapes;
  std::sort(ws->order.begin(), particles_begin, starts_before);
  std::sort(particles_begin, ws->order.end(), starts_before);
  ws->candidates.clear();
  const auto add = [&](int first, int second) {
    ws->candidates.push_back({std::min(first, second), std::max(first, second)});
  };
  // shape–shape: each shape against the shapes that start after it, within its extent
  for (int i = 0; i < shapes; ++i) {
    const int first = ws->order[i];
    for (int k = i + 1; k < shapes; ++k) {
      const int second = ws->order[k];
      if (ws->box_min[second].x() > ws->box_max[first].x() + margin) break;
      if (overlap(first, second)) add(first, second);
    }
  }
  // shape–particle: each of the pair is found from the one that starts first (in the order of
  // starts_before), scanning the other list from there
  const auto scan = [&](int first, auto begin, auto end) {
    for (auto it = std::upper_bound(begin, end, first, starts_before); it != end; ++it) {
      if (ws->box_min[*it].x() > ws->box_max[first].x() + margin) break;
      if (overlap(first, *it)) add(first, *it);
    }
  };
  for (int i = 0; i < shapes; ++i) scan(ws->order[i], particles_begin, ws->order.end());
  for (int i = shapes; i < n; ++i) scan(ws->order[i], ws->order.begin(), particles_begin);

  // narrow phase in a canonical pair order, so the contacts (and the solver's rows) do not depend
  // on the traversal order of the sweep
  std::sort(ws->candidates.begin(), ws->candidates.end());
  for (const auto& [first, second] : ws->candidates) {
    const Real pair_margin = margin + ws->sweep[first] + ws->sweep[second];
    CollidePair(model, state, ws->collider[first], ws->collider[second], pair_margin, *ws, contacts,
                stats);
  }

  // deformable surfaces: triangles against shapes, nodes against other soft bodies' surfaces
  collision_internal::CollideSoftBodies(model, state, margin, dt, ws, contacts, stats);

  // planes against every collider (a plane is unbounded)
  for (int plane : ws->planes) {
    for (int i = 0; i < n; ++i) {
      CollidePair(model, state, plane, ws->collider[i], margin + ws->sweep[i], *ws, contacts,
                  stats);
    }
  }
}

}  // namespace sim
