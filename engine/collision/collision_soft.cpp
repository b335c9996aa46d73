#include "engine/collision/collision_soft.h"

#include <algorithm>
#include <cmath>

#include "engine/collision/collision_fields.h"
#include "engine/collision/sdf_contact.h"
#include "engine/geometry/closest_point.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/state/state.h"

namespace sim::collision_internal {
namespace {

// feature ids of soft contacts: 2 bits kind (triangle face/edge 1, node vs surface 2), 22 bits
// element (the triangle or the node); the side keys already name the bodies
std::uint32_t SoftFeature(int kind, int element) {
  return (std::uint32_t(kind) << 22) | (std::uint32_t(element) & 0x3FFFFF);
}

// a side on a soft body's surface: the triangle's nodes weighted by `weights`
ContactSide SurfaceSide(const SoftBody& body, const std::array<int, 3>& triangle_nodes,
                        int triangle, const Vec3& weights, Real radius) {
  ContactSide side;
  side.particles = triangle_nodes;
  side.weights = weights;
  side.radius = radius;
  side.soft_body = -1;
  side.feature_kind = FeatureKind::kFace;
  side.feature_index = triangle;
  side.barycentric = weights;
  (void)body;
  return side;
}

bool Push(const Contact& contact, Contacts* contacts) {
  if (contacts->count() >= contacts->capacity) {
    contacts->overflowed = true;
    return false;
  }
  contacts->items.push_back(contact);
  return true;
}

// the boundary triangles of soft body `s` against one placed shape's field (§2.3, §2.5, §2.9)
template <class Field>
void TrianglesAgainstField(const Model& model, int s, const std::vector<Vec3>& x,
                           const TriangleBvh& bvh, const PlacedShape& shape_placed, int shape,
                           const Field& field, Real margin, Contacts* contacts) {
  const SoftBody& body = model.soft_bodies[s];
  const SoftBodyCollision& collision = *body.collision;
  const Real radius = model.particle_radius[body.first_particle];
  const Pose X_WF = PoseOf(shape_placed);
  const Pose X_FW = X_WF.Inverse();
  const Real reach = radius + margin;
  // candidate triangles: those near the shape's bounds (all of them for unbounded shapes)
  const Vec3 half = HalfExtentsWorld(shape_placed);
  const bool bounded = half.allFinite();
  const Vec3 lower = shape_placed.center - half - Vec3::Constant(reach);
  const Vec3 upper = shape_placed.center + half + Vec3::Constant(reach);
  const int body_id = model.shape_body[shape];
  constexpr Real kFeatureTolerance = 1e-6;

  const auto visit = [&](int t) {
    const auto& local = collision.rest_surface.triangles[t];
    const Vec3 p = X_FW * x[local[0]], q = X_FW * x[local[1]], r = X_FW * x[local[2]];
    const Vec3 centroid = (p + q + r) / 3;
    if (!PassesCull(centroid, FaceCullRadius(p, q, r, centroid), reach, field)) return;
    const FaceResult f = MinimizeFacePgd(p, q, r, field, SdfOptimizerSettings{});
    // an optimum at a node is that node's particle contact; shared edges go to their owner
    const Vec3& w = f.barycentric;
    const int zeros =
        (w(0) <= kFeatureTolerance) + (w(1) <= kFeatureTolerance) + (w(2) <= kFeatureTolerance);
    if (zeros >= 2) return;
    if (!OwnsFeature(collision.topology, t, w, kFeatureTolerance)) return;
    SdfContactPoint point;
    if (!MakeSdfContact(field, f.point, {f.distance, f.gradient}, reach, &point)) return;
    Contact c;
    const std::array<int, 3> nodes = {body.first_particle + local[0],
                                      body.first_particle + local[1],
                                      body.first_particle + local[2]};
    c.a = SurfaceSide(body, nodes, t, w, radius);
    c.a.soft_body = s;
    c.a.feature_kind = zeros == 1 ? FeatureKind::kEdge : FeatureKind::kFace;
    c.b.body = body_id;
    c.b.shape = shape;
    // the shape's point in its body frame (world for a world shape): shape frame → body frame
    c.b.p_B = model.shape_X_BS[shape] * point.surface_point;
    c.normal_W = X_WF.q * point.normal;
    c.thickness = radius;
    c.gap0 = point.distance - radius;
    c.feature = SoftFeature(1, t);
    Push(c, contacts);
  };
  if (bounded) {
    bvh.Query(lower, upper, visit);
  } else {
    for (int t = 0; t < collision.rest_surface.triangle_count(); ++t) visit(t);
  }
}

// surface nodes of soft body `a` against the deformed surface of soft body `b`
void NodesAgainstSurface(const Model& model, const State& state, int a, int b,
                         const CollisionWorkspace& ws, Real margin, Contacts* contacts) {
  const SoftBody& body_a = model.soft_bodies[a];
  const SoftBody& body_b = model.soft_bodies[b];
  const SoftBodyCollision& col_a = *body_a.collision;
  const SoftBodyCollision& col_b = *body_b.collision;
  const std::vector<Vec3>& x_b = ws.soft_positions[b];
  const Real r_a = model.particle_radius[body_a.first_particle];
  const Real r_b = model.particle_radius[body_b.first_particle];
  const Real reach = r_a + r_b + margin;
  // each surface node of A once (vertex_owner ≥ 0 marks the nodes on A's surface)
  for (int v = 0; v < col_a.rest_surface.vertex_count(); ++v) {
    if (col_a.topology.vertex_owner[v] < 0) continue;
    const int particle = body_a.first_particle + v;
    const Vec3& x = state.particle_x_W[particle];
    if ((x.array() < ws.soft_min[b].array() - reach).any() ||
        (x.array() > ws.soft_max[b].array() + reach).any()) {
      continue;
    }
    // deep inside B the closest surface point can be far: search B's whole extent
    const Real extent = (ws.soft_max[b] - ws.soft_min[b]).norm();
    const TriangleBvh::Hit hit = ws.soft_bvh[b].Closest(x, extent);
    if (hit.triangle < 0) continue;
    // inside or outside: B's rest field through the tet under the closest triangle (§2.9)
    const int tet = body_b.surface_tet[hit.triangle];
    std::array<Vec3, 4> rest, deformed;
    for (int k = 0; k < 4; ++k) {
      const int node = body_b.tets[tet][k] - body_b.first_particle;
      rest[k] = body_b.rest_positions[node];
      deformed[k] = x_b[node];
    }
    const Real distance = std::sqrt(hit.distance_squared);
    if (distance > reach && !col_b.rest_sdf) continue;
    const auto& tri = col_b.rest_surface.triangles[hit.triangle];
    const Vec3 face = (x_b[tri[1]] - x_b[tri[0]]).cross(x_b[tri[2]] - x_b[tri[0]]).normalized();
    // inside or outside: beyond the grid's error, B's rest field through the tet under the
    // closest triangle (§2.9); closer than that the field cannot tell, the face can
    bool inside = face.dot(x - hit.point) < 0;
    if (col_b.rest_sdf && distance > 2 * col_b.rest_sdf->error_bound()) {
      const EmbeddedField<SdfGrid> embedded(*col_b.rest_sdf, rest, deformed);
      if (!embedded.ok()) continue;  // inverted or flat tet: no reliable side (§2.9)
      inside = embedded.Sample(x).distance < 0;
    }
    if (!inside && distance > reach) continue;
    // normal out of B: the face normal when the closest point is inside the face, else along
    // x − closest (flipped when x is inside)
    constexpr Real kInterior = 1e-6;
    Vec3 normal = face;
    if (hit.barycentric.minCoeff() <= kInterior && distance > 1e-9) {
      normal = (x - hit.point) / distance;
      if (inside) normal = -normal;
    }
    Contact c;
    c.a.particles[0] = particle;
    c.a.radius = r_a;
    c.a.soft_body = a;
    c.a.feature_kind = FeatureKind::kVertex;
    c.a.feature_index = v;
    c.b = SurfaceSide(body_b,
                      {body_b.first_particle + tri[0], body_b.first_particle + tri[1],
                       body_b.first_particle + tri[2]},
                      hit.triangle, hit.barycentric, r_b);
    c.b.soft_body = b;
    c.normal_W = normal;
    c.thickness = r_a + r_b;
    c.gap0 = normal.dot(x - hit.point) - c.thickness;
    c.feature = SoftFeature(2, v);
    Push(c, contacts);
  }
}

}  // namespace


void CollideSoftBodies(const Model& model, const State& state, Real margin, Real dt,
                       CollisionWorkspace* ws, Contacts* contacts, CollisionStats* stats) {
  const int count = static_cast<int>(model.soft_bodies.size());
  ws->soft_positions.resize(count);
  ws->soft_bvh.resize(count);
  ws->soft_min.resize(count);
  ws->soft_max.resize(count);
  ws->soft_sweep.resize(count);
  // current node positions, bounds grown by the fastest node's travel, refitted hierarchies
  for (int s = 0; s < count; ++s) {
    const SoftBody& body = model.soft_bodies[s];
    if (!body.collision || body.particle_count == 0) continue;
    std::vector<Vec3>& x = ws->soft_positions[s];
    x.resize(body.particle_count);
    Real speed = 0;
    Vec3 lower = Vec3::Constant(std::numeric_limits<Real>::infinity());
    Vec3 upper = -lower;
    for (int k = 0; k < body.particle_count; ++k) {
      x[k] = state.particle_x_W[body.first_particle + k];
      speed = std::max(speed, state.particle_v_W[body.first_particle + k].norm());
      lower = lower.cwiseMin(x[k]);
      upper = upper.cwiseMax(x[k]);
    }
    const Real grow = model.particle_radius[body.first_particle] + speed * dt;
    ws->soft_sweep[s] = speed * dt;
    ws->soft_min[s] = lower - Vec3::Constant(grow);
    ws->soft_max[s] = upper + Vec3::Constant(grow);
    TriangleBvh& bvh = ws->soft_bvh[s];
    if (bvh.triangles().size() != body.collision->rest_surface.triangles.size()) {
      bvh.Build(x, body.collision->rest_surface.triangles);
    } else {
      bvh.Refit(x);
    }
  }

  for (int s = 0; s < count; ++s) {
    const SoftBody& body = model.soft_bodies[s];
    if (!body.collision) continue;
    const Real pair_margin = margin + ws->soft_sweep[s];
    // triangles against every shape whose bounds reach the body's
    for (int shape = 0; shape < model.shape_count(); ++shape) {
      if (!model.ShapesMayCollide(-1, shape)) continue;  // filtered by group/mask
      const PlacedShape placed = PlaceShape(model, state, shape);
      const Vec3 half = HalfExtentsWorld(placed);
      if (half.allFinite() &&
          ((placed.center + half).array() < ws->soft_min[s].array() - pair_margin).any()) {
        continue;
      }
      if (half.allFinite() &&
          ((placed.center - half).array() > ws->soft_max[s].array() + pair_margin).any()) {
        continue;
      }
      if (placed.geometry->type == ShapeType::kPlane) {
        // a plane only matters when some node is within reach of it
        const Vec3 n = placed.rotation.col(2);
        Real lowest = std::numeric_limits<Real>::infinity();
        for (const Vec3& x : ws->soft_positions[s])
          lowest = std::min(lowest, n.dot(x - placed.center));
        if (lowest > pair_margin + model.particle_radius[body.first_particle]) continue;
      }
      ++stats->pairs_tested;
      WithField(*placed.geometry, [&](const auto& field) {
        TrianglesAgainstField(model, s, ws->soft_positions[s], ws->soft_bvh[s], placed, shape,
                              field, pair_margin, contacts);
      });
    }
    // other soft bodies, both ways
    for (int other = 0; other < count; ++other) {
      if (other == s || !model.soft_bodies[other].collision) continue;
      if ((ws->soft_max[s].array() < ws->soft_min[other].array() - margin).any() ||
          (ws->soft_min[s].array() > ws->soft_max[other].array() + margin).any()) {
        continue;
      }
      ++stats->pairs_tested;
      NodesAgainstSurface(model, state, s, other, *ws,
                          margin + ws->soft_sweep[s] + ws->soft_sweep[other], contacts);
    }
  }
}

}  // namespace sim::collision_internal
