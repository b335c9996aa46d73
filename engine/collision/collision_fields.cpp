#include "engine/collision/collision_fields.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/collision/sdf_contact.h"
#include "engine/geometry/analytic_sdf.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"

namespace sim::collision_internal {
namespace {

// vertices and edges of a polyhedral shape in its frame (boxes, hulls, cylinders as 16-gons)
struct PolyFeatures {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 2>> edges;
};

constexpr int kCylinderSegments = 16;  // rim polygon of a cylinder against a field

bool CollectPolyFeatures(const ShapeGeometry& g, PolyFeatures* out) {
  out->vertices.clear();
  out->edges.clear();
  if (g.type == ShapeType::kBox) {
    for (int i = 0; i < 8; ++i) {
      out->vertices.emplace_back((i & 1 ? 1 : -1) * g.half_extents.x(),
                                 (i & 2 ? 1 : -1) * g.half_extents.y(),
                                 (i & 4 ? 1 : -1) * g.half_extents.z());
    }
    // edges join corners differing in one bit
    for (int i = 0; i < 8; ++i) {
      for (int bit : {1, 2, 4}) {
        if (!(i & bit)) out->edges.push_back({i, i | bit});
      }
    }
    return true;
  }
  if (g.type == ShapeType::kCylinder) {
    const int n = kCylinderSegments;
    for (int cap = 0; cap < 2; ++cap) {
      for (int k = 0; k < n; ++k) {
        const Real angle = 2 * std::numbers::pi * k / n;
        out->vertices.emplace_back(g.radius * std::cos(angle), g.radius * std::sin(angle),
                                   (cap ? 1 : -1) * g.half_length);
      }
    }
    for (int k = 0; k < n; ++k) {
      out->edges.push_back({k, (k + 1) % n});
      out->edges.push_back({n + k, n + (k + 1) % n});
      out->edges.push_back({k, n + k});
    }
    return true;
  }
  if (g.type == ShapeType::kConvexHull && g.hull) {
    out->vertices = g.hull->vertices;
    out->edges = g.hull->edges;
    return true;
  }
  return false;
}

std::uint32_t FeatureId(int direction, int kind, int index) {
  // 1 bit direction, 2 bits kind, 21 bits element (ContactKey keeps 24 bits of feature)
  return (std::uint32_t(direction) << 23) | (std::uint32_t(kind) << 21) |
         (std::uint32_t(index) & 0x1FFFFF);
}

// contact from a minimized point x (B's frame) with its sample, radius of A's feature
template <class Field>
bool MakeContact(const Field& field, const Vec3& x_B, const SdfSample& sample, Real radius,
                 Real margin, const Pose& X_WB, FieldContact* c) {
  SdfContactPoint point;
  if (!MakeSdfContact(field, x_B, sample, margin + radius, &point)) return false;
  c->normal = X_WB.q * point.normal;
  c->point_a = X_WB * x_B;
  c->point_b = X_WB * point.surface_point;
  c->a.radius = radius;
  c->gap = point.distance - radius;
  return true;
}

template <class Field>
void RoundAgainstField(const PlacedShape& a, const Field& field, const Pose& X_WB, Real margin,
                       int direction, std::vector<FieldContact>* out) {
  const ShapeGeometry& g = *a.geometry;
  const Pose X_BA = X_WB.Inverse() * PoseOf(a);
  FieldContact c;
  if (g.type == ShapeType::kSphere) {
    const Vec3 x = X_BA.p;
    if (!MakeContact(field, x, field.Sample(x), g.radius, margin, X_WB, &c)) return;
    c.feature = FeatureId(direction, 0, 0);
    out->push_back(c);
    return;
  }
  // capsule: golden-section search along the axis segment (§2.7)
  const Vec3 p = X_BA * Vec3(0, 0, g.half_length);
  const Vec3 q = X_BA * Vec3(0, 0, -g.half_length);
  const EdgeResult r = MinimizeEdgeGoldenSection(p, q, field);
  if (!MakeContact(field, r.point, {r.distance, r.gradient}, g.radius, margin, X_WB, &c)) return;
  c.feature = FeatureId(direction, 1, 0);
  out->push_back(c);
}

template <class Field>
void PolyAgainstField(const PlacedShape& a, const PolyFeatures& features, const Field& field,
                      const Pose& X_WB, Real margin, int direction,
                      std::vector<FieldContact>* out) {
  const Pose X_BA = X_WB.Inverse() * PoseOf(a);
  // vertices sampled (§2.9, Guendelman et al.)
  for (int v = 0; v < static_cast<int>(features.vertices.size()); ++v) {
    const Vec3 x = X_BA * features.vertices[v];
    FieldContact c;
    if (!MakeContact(field, x, field.Sample(x), 0, margin, X_WB, &c)) continue;
    c.feature = FeatureId(direction, 0, v);
    c.a.kind = FeatureKind::kVertex;
    c.a.index = v;
    out->push_back(c);
  }
  // edges by golden-section search; a minimum at an end is that vertex's contact already
  constexpr Real kEndTolerance = 1e-6;
  for (int e = 0; e < static_cast<int>(features.edges.size()); ++e) {
    const Vec3 p = X_BA * features.vertices[features.edges[e][0]];
    const Vec3 q = X_BA * features.vertices[features.edges[e][1]];
    if (!PassesCull(Vec3((p + q) / 2), (p - q).norm() / 2, margin, field)) continue;
    const EdgeResult r = MinimizeEdgeGoldenSection(p, q, field);
    if (r.u < kEndTolerance || r.u > 1 - kEndTolerance) continue;
    FieldContact c;
    if (!MakeContact(field, r.point, {r.distance, r.gradient}, 0, margin, X_WB, &c)) continue;
    c.feature = FeatureId(direction, 1, e);
    c.a.kind = FeatureKind::kEdge;
    c.a.index = e;
    c.a.barycentric = Vec3(r.u, 1 - r.u, 0);
    out->push_back(c);
  }
}

template <class Field>
void MeshAgainstField(const PlacedShape& a, const CollisionMesh& mesh, const Field& field,
                      const Pose& X_WB, Real margin, int direction,
                      std::vector<FieldContact>* out) {
  // faces by projected gradient descent (§2.3), one contact per triangle (§2.9)
  SdfCollideSettings settings;
  settings.face_method = FaceMethod::kPgd;
  settings.margin = margin;
  // and the vertices of the faces near the field (§2.9 "vertices of both meshes for coarse
  // rigid shapes"): they give a flat face its support polygon
  settings.face_vertices = true;
  thread_local std::vector<SdfMeshContact> found;
  found.clear();
  CollideMeshSdf(mesh.surface, PoseOf(a), field, X_WB, settings, {}, &found);
  constexpr Real kFeatureTolerance = 1e-6;
  for (const SdfMeshContact& m : found) {
    const bool vertex = m.kind == SdfElementKind::kVertex;
    if (!vertex) {
      // a face optimum at a corner is that vertex's contact already; one on an edge or inside
      // is kept by the one triangle owning that feature (representative triangles, §2.9), so
      // neighbours do not report the same contact
      if (ClassifyBarycentric(m.barycentric, kFeatureTolerance).kind ==
          TriangleFeatureKind::kVertex) {
        continue;
      }
      if (!OwnsFeature(mesh.topology, m.element, m.barycentric, kFeatureTolerance)) continue;
    }
    FieldContact c;
    c.normal = m.normal_W;
    c.point_a = m.point_mesh_W;
    c.point_b = m.point_sdf_W;
    c.gap = m.distance;
    c.feature = FeatureId(direction, vertex ? 0 : 2, m.element);
    c.a.kind = vertex ? FeatureKind::kVertex : FeatureKind::kFace;
    c.a.index = m.element;
    c.a.barycentric = m.barycentric;
    if (mesh.surface.has_uvs()) {
      Vec2 uv = Vec2::Zero();
      for (int k = 0; k < 3; ++k) {
        if (m.vertex_ids[k] >= 0) uv += m.barycentric(k) * mesh.surface.uvs[m.vertex_ids[k]];
      }
      c.a.uv = uv;
      c.a.has_uv = true;
    }
    out->push_back(c);
  }
}

}  // namespace


PlacedShape PlaceShape(const Model& model, const State& state, int shape, Real dt) {
  const int body = model.shape_body[shape];
  const Pose X_WS = body == kWorldBody ? model.shape_X_BS[shape]
                                       : state.body_X_WB[body] * model.shape_X_BS[shape];
  PlacedShape placed{&model.shape_geometry[shape], X_WS.p, X_WS.q.toRotationMatrix()};
  if (body != kWorldBody && dt > 0) {
    placed.step_translation = dt * state.body_v_W[body];
    placed.step_rotation = dt * state.body_w_W[body];
    placed.motion_origin = state.body_X_WB[body].p;
  }
  return placed;
}


Vec3 HalfExtentsWorld(const PlacedShape& placed) {
  const ShapeGeometry& g = *placed.geometry;
  const Mat3 abs_rotation = placed.rotation.cwiseAbs();
  switch (g.type) {
    case ShapeType::kSphere:
      return Vec3::Constant(g.radius);
    case ShapeType::kBox:
      return abs_rotation * g.half_extents;
    case ShapeType::kCapsule:
      return abs_rotation.col(2) * g.half_length + Vec3::Constant(g.radius);
    case ShapeType::kCylinder:
      // conservative: the axis segment grown by the radius on every axis
      return abs_rotation.col(2) * g.half_length + Vec3::Constant(g.radius);
    case ShapeType::kConvexHull:
    case ShapeType::kMesh:
      return Vec3::Constant(BoundingRadius(g));
    default:
      return Vec3::Constant(std::numeric_limits<Real>::infinity());
  }
}


bool HasFieldPath(ShapeType a, ShapeType b) {
  const auto field_only = [](ShapeType t) { return t == ShapeType::kMesh || t == ShapeType::kSdf; };
  return field_only(a) || field_only(b);
}


bool FeaturesAgainstField(const PlacedShape& a, const PlacedShape& b, Real margin, int direction,
                          std::vector<FieldContact>* out) {
  const ShapeGeometry& g = *a.geometry;
  const Pose X_WB = PoseOf(b);
  bool has_features = true;
  const bool has_field = WithField(*b.geometry, [&](const auto& field) {
    if (g.type == ShapeType::kSphere || g.type == ShapeType::kCapsule) {
      RoundAgainstField(a, field, X_WB, margin, direction, out);
    } else if (g.type == ShapeType::kMesh && g.mesh) {
      MeshAgainstField(a, *g.mesh, field, X_WB, margin, direction, out);
    } else {
      thread_local PolyFeatures features;
      if (CollectPolyFeatures(g, &features)) {
        PolyAgainstField(a, features, field, X_WB, margin, direction, out);
      } else {
        has_features = false;  // planes and analytic fields have no features
      }
    }
  });
  return has_field && has_features;
}


int ReduceContacts(std::vector<FieldContact>* contacts, int begin, int max_per_group,
                   Real depth_band) {
  auto& c = *contacts;
  const int end = static_cast<int>(c.size());
  if (end - begin <= max_per_group) return end;
  // deepest (by the gap it may reach this step) first, ties by feature id (deterministic)
  const auto rank = [](const FieldContact& x) {
    return std::isnan(x.predicted_gap) ? x.gap : x.predicted_gap;
  };
  std::sort(c.begin() + begin, c.end(), [&](const FieldContact& x, const FieldContact& y) {
    return rank(x) < rank(y) || (rank(x) == rank(y) && x.feature < y.feature);
  });
  const Real kSameNormal = std::cos(25 * std::numbers::pi / 180);
  thread_local std::vector<int> group, kept;
  thread_local std::vector<unsigned char> used;
  used.assign(end - begin, 0);
  kept.clear();
  for (int seed = begin; seed < end; ++seed) {
    if (used[seed - begin]) continue;
    // the group of the deepest unused contact: normals within ~25° of it
    group.clear();
    for (int i = seed; i < end; ++i) {
      if (!used[i - begin] && c[i].normal.dot(c[seed].normal) > kSameNormal) {
        group.push_back(i);
        used[i - begin] = 1;
      }
    }
    const Vec3 n = c[seed].normal;
    const auto planar = [&](int i) { return Vec3(c[i].point_b - n.dot(c[i].point_b) * n); };
    const int take = std::min<int>(max_per_group, static_cast<int>(group.size()));
    // the group sorted by rank: the contacts within the band compete on spread; with fewer than
    // `take` in the band, the deepest `take` are kept as they are
    const Real band_top = rank(c[group[0]]) + depth_band;
    const int in_band = static_cast<int>(
        std::count_if(group.begin(), group.end(), [&](int i) { return rank(c[i]) <= band_top; }));
    if (in_band <= take) {
      for (int k = 0; k < take; ++k) kept.push_back(group[k]);
      continue;
    }
    group.resize(in_band);
    std::vector<int> chosen = {group[0]};
    // then greedily the point that adds the most spread: farthest from the chosen ones in the
    // tangent plane for the second, largest triangle / quadrilateral area after that
    while (static_cast<int>(chosen.size()) < take) {
      int best = -1;
      Real best_score = -1;
      for (int i : group) {
        if (std::find(chosen.begin(), chosen.end(), i) != chosen.end()) continue;
        Real score = 0;
        if (chosen.size() == 1) {
          score = (planar(i) - planar(chosen[0])).squaredNorm();
        } else {
          // the smallest area the point makes with any chosen edge: large when it extends the
          // polygon instead of sitting near one of its edges
          score = std::numeric_limits<Real>::infinity();
          for (std::size_t a = 0; a < chosen.size(); ++a) {
            for (std::size_t b = a + 1; b < chosen.size(); ++b) {
              const Vec3 area =
                  (planar(chosen[a]) - planar(i)).cross(planar(chosen[b]) - planar(i));
              score = std::min(score, area.squaredNorm());
            }
          }
        }
        if (score > best_score) {
          best_score = score;
          best = i;
        }
      }
      if (best < 0) break;
      chosen.push_back(best);
    }
    for (int i : chosen) kept.push_back(i);
  }
  // compact the kept contacts, in their sorted order
  std::sort(kept.begin(), kept.end());
  int out = begin;
  for (int i : kept) c[out++] = c[i];
  c.resize(out);
  return out;
}

}  // namespace sim::collision_internal
