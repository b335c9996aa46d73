#include "engine/visual/structure_glyphs.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/collision/collision.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/state/contacts.h"
#include "engine/state/state.h"
#include "engine/step/contact_material.h"

namespace sim {

namespace {

// dash length as a fraction of the spacing between neighbouring glyphs
constexpr Real kDashPerSpacing = 0.8;
// glyphs on each round or box shape (sphere lattice, box faces, rings) about this many
constexpr int kRoundShapeGlyphs = 240;

// one place to sample on a shape, in the shape frame
struct SurfaceSpot {
  Vec3 point_S = Vec3::Zero();
  Vec3 normal_S = Vec3::UnitZ();
  int triangle = -1;  ///< mesh triangle whose UVs the spot has (uv projection), or −1
  Vec2 uv = Vec2::Zero();
};

std::array<float, 3> ToFloat(const Vec3& v) {
  return {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
}

// the glyph of a sampled side at `center_W` with outward normal `normal_W`
VisualStructureGlyph MakeGlyph(const SideStructure& sample, const Vec3& center_W,
                               const Vec3& normal_W, Real half_length) {
  VisualStructureGlyph glyph;
  glyph.center = ToFloat(center_W);
  glyph.normal = ToFloat(normal_W);
  glyph.half_length = static_cast<float>(half_length);
  const Vec3 tangential = sample.axis_W - sample.axis_W.dot(normal_W) * normal_W;
  if (sample.strength > 0 && tangential.norm() > 1e-9) {
    glyph.axis = ToFloat(tangential.normalized());
    glyph.strength = static_cast<float>(std::min<Real>(sample.strength, 1));
  } else {
    glyph.axis = ToFloat(PerpendicularUnit(normal_W));
  }
  return glyph;
}

// the smallest of 1, 2, 5 × 10^k at least `x` (> 0)
Real NiceSpacing(Real x) {
  const Real decade = std::pow(10.0, std::floor(std::log10(x)));
  for (Real m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * decade >= x) return m * decade;
  }
  return 10 * decade;
}

// a plane's grid over the moving part of the scene, in the plane frame (z = 0, normal +z)
Real PlaneSpots(const Model& model, const State& state, const Pose& X_WS,
                std::vector<SurfaceSpot>* spots) {
  const Quat q_SW = X_WS.q.conjugate();
  Vec2 lower(0, 0), upper(0, 0);
  bool any = false;
  const auto include = [&](const Vec3& p_W) {
    const Vec3 p = q_SW * (p_W - X_WS.p);
    if (!p.allFinite()) return;
    const Vec2 xy(p.x(), p.y());
    lower = any ? Vec2(lower.cwiseMin(xy)) : xy;
    upper = any ? Vec2(upper.cwiseMax(xy)) : xy;
    any = true;
  };
  for (int b = 0; b < model.body_count(); ++b) {
    if (!model.body_static[b]) include(state.body_X_WB[b].p);
  }
  for (const Vec3& x : state.particle_x_W) include(x);
  include(model.camera.target);
  const Vec2 center = 0.5 * (lower + upper);
  const Real half_span =
      std::clamp(std::max(0.75 * (upper - lower).maxCoeff() + 0.25,
                          kPlaneGlyphSpanPerCameraDistance * model.camera.distance),
                 kMinPlaneGlyphHalfSpan, 1e3);
  const Real spacing = NiceSpacing(2 * half_span / kPlaneGlyphsPerSide);
  const auto first = [&](Real c) {
    return static_cast<long>(std::floor((c - half_span) / spacing));
  };
  const long i0 = first(center.x()), j0 = first(center.y());
  const long n = std::min<long>(static_cast<long>(std::ceil(2 * half_span / spacing)) + 1,
                                static_cast<long>(std::sqrt(Real(kMaxGlyphsPerShape))));
  for (long i = 0; i < n; ++i) {
    for (long j = 0; j < n; ++j) {
      SurfaceSpot spot;
      spot.point_S = Vec3((i0 + i + 0.5) * spacing, (j0 + j + 0.5) * spacing, 0);
      spots->push_back(spot);
    }
  }
  return spacing;
}

// grid cells on each face of a box of half extents h
Real BoxSpots(const Vec3& h, std::vector<SurfaceSpot>* spots) {
  const Real area = 8 * (h.x() * h.y() + h.y() * h.z() + h.z() * h.x());
  const Real spacing = std::sqrt(area / kRoundShapeGlyphs);
  for (int axis = 0; axis < 3; ++axis) {
    const int i = (axis + 1) % 3, j = (axis + 2) % 3;
    const int n_i = std::clamp(static_cast<int>(std::lround(2 * h(i) / spacing)), 1, 16);
    const int n_j = std::clamp(static_cast<int>(std::lround(2 * h(j) / spacing)), 1, 16);
    for (Real sign : {-1.0, 1.0}) {
      for (int a = 0; a < n_i; ++a) {
        for (int b = 0; b < n_j; ++b) {
          SurfaceSpot spot;
          spot.normal_S = Vec3::Zero();
          spot.normal_S(axis) = sign;
          spot.point_S(axis) = sign * h(axis);
          spot.point_S(i) = h(i) * (2 * (a + 0.5) / n_i - 1);
          spot.point_S(j) = h(j) * (2 * (b + 0.5) / n_j - 1);
          spots->push_back(spot);
        }
      }
    }
  }
  return spacing;
}

// a Fibonacci lattice of `count` unit directions; capsule halves pushed apart along z by
// `half_length`, and for a cylinder (flat) a side band and two capped discs
Real RoundSpots(ShapeType type, Real radius, Real half_length, std::vector<SurfaceSpot>* spots) {
  const Real golden = std::numbers::pi * (3 - std::sqrt(5.0));
  if (type == ShapeType::kCylinder) {
    const Real area = 2 * std::numbers::pi * radius * (radius + 2 * half_length);
    const Real spacing = std::sqrt(area / kRoundShapeGlyphs);
    const int around =
        std::max(6, static_cast<int>(std::lround(2 * std::numbers::pi * radius / spacing)));
    const int rings = std::max(1, static_cast<int>(std::lround(2 * half_length / spacing)));
    for (int r = 0; r < rings; ++r) {
      for (int k = 0; k < around; ++k) {
        const Real phi = 2 * std::numbers::pi * (k + 0.5 * (r % 2)) / around;
        SurfaceSpot spot;
        spot.normal_S = Vec3(std::cos(phi), std::sin(phi), 0);
        spot.point_S = radius * spot.normal_S;
        spot.point_S.z() = half_length * (2 * (r + 0.5) / rings - 1);
        spots->push_back(spot);
      }
    }
    // caps: a sunflower disc each
    const int cap =
        std::max(1, static_cast<int>(std::numbers::pi * radius * radius / (spacing * spacing)));
    for (Real sign : {-1.0, 1.0}) {
      for (int k = 0; k < cap; ++k) {
        const Real rho = radius * std::sqrt((k + 0.5) / cap);
        SurfaceSpot spot;
        spot.point_S =
            Vec3(rho * std::cos(k * golden), rho * std::sin(k * golden), sign * half_length);
        spot.normal_S = Vec3(0, 0, sign);
        spots->push_back(spot);
      }
    }
    return spacing;
  }
  const Real area = 4 * std::numbers::pi * radius * radius +
                    (type == ShapeType::kCapsule ? 4 * std::numbers::pi * radius * half_length : 0);
  const int count = kRoundShapeGlyphs;
  for (int k = 0; k < count; ++k) {
    const Real z = 1 - 2 * (k + 0.5) / count;
    const Real rho = std::sqrt(std::max<Real>(0, 1 - z * z));
    SurfaceSpot spot;
    spot.normal_S = Vec3(rho * std::cos(k * golden), rho * std::sin(k * golden), z);
    spot.point_S = radius * spot.normal_S;
    if (type == ShapeType::kCapsule) spot.point_S.z() += (z >= 0 ? 1 : -1) * half_length;
    spots->push_back(spot);
  }
  return std::sqrt(area / count);
}

// the centroid of each face of a hull
Real HullSpots(const ConvexHull& hull, std::vector<SurfaceSpot>* spots) {
  Real area = 0;
  for (const ConvexHull::Face& face : hull.faces) {
    if (face.count < 3) continue;
    Vec3 sum = Vec3::Zero();
    for (int k = 0; k < face.count; ++k) sum += hull.vertices[hull.face_vertices[face.first + k]];
    SurfaceSpot spot;
    spot.point_S = sum / face.count;
    spot.normal_S = face.normal;
    spots->push_back(spot);
    const Vec3& origin = hull.vertices[hull.face_vertices[face.first]];
    for (int k = 1; k + 1 < face.count; ++k) {
      const Vec3 e1 = hull.vertices[hull.face_vertices[face.first + k]] - origin;
      const Vec3 e2 = hull.vertices[hull.face_vertices[face.first + k + 1]] - origin;
      area += 0.5 * e1.cross(e2).norm();
    }
  }
  return spots->empty() ? 0 : std::sqrt(area / spots->size());
}

// triangle centroids of a mesh, every stride-th so at most kMaxGlyphsPerShape
Real MeshSpots(const TriangleMesh& mesh, bool with_uvs, std::vector<SurfaceSpot>* spots) {
  const int triangles = mesh.triangle_count();
  const int stride = std::max(1, (triangles + kMaxGlyphsPerShape - 1) / kMaxGlyphsPerShape);
  Real area = 0;
  for (int t = 0; t < triangles; t += stride) {
    const auto& tri = mesh.triangles[t];
    const Vec3 cross = (mesh.vertices[tri[1]] - mesh.vertices[tri[0]])
                           .cross(mesh.vertices[tri[2]] - mesh.vertices[tri[0]]);
    if (!(cross.norm() > 0)) continue;
    SurfaceSpot spot;
    spot.point_S = (mesh.vertices[tri[0]] + mesh.vertices[tri[1]] + mesh.vertices[tri[2]]) / 3;
    spot.normal_S = cross.normalized();
    if (with_uvs) {
      spot.triangle = t;
      spot.uv = (mesh.uvs[tri[0]] + mesh.uvs[tri[1]] + mesh.uvs[tri[2]]) / 3;
    }
    spots->push_back(spot);
    area += 0.5 * cross.norm() * stride;
  }
  return spots->empty() ? 0 : std::sqrt(area / spots->size());
}

// the glyphs of shape s: its spots sampled as side B of a contact with normal along the spot's
// outward normal (the contact stage's own sampling)
void AppendShapeGlyphs(const Model& model, const State& state, int s,
                       std::vector<VisualStructureGlyph>* glyphs) {
  const ShapeGeometry& geometry = model.shape_geometry[s];
  const int body = model.shape_body[s];
  const Pose X_BS = model.shape_X_BS[s];
  const Pose X_WS = body == kWorldBody ? X_BS : state.body_X_WB[body] * X_BS;
  std::vector<SurfaceSpot> spots;
  Real spacing = 0;
  switch (geometry.type) {
    case ShapeType::kPlane:
      spacing = PlaneSpots(model, state, X_WS, &spots);
      break;
    case ShapeType::kBox:
      spacing = BoxSpots(geometry.half_extents, &spots);
      break;
    case ShapeType::kSphere:
    case ShapeType::kCapsule:
    case ShapeType::kCylinder:
      spacing = RoundSpots(geometry.type, geometry.radius, geometry.half_length, &spots);
      break;
    case ShapeType::kConvexHull:
      if (geometry.hull) spacing = HullSpots(*geometry.hull, &spots);
      break;
    case ShapeType::kMesh:
      if (geometry.mesh) {
        const StructureField* field = ShapeStructureField(model, s);
        const bool uvs =
            field->projection.kind == FieldProjection::kUv && geometry.mesh->surface.has_uvs();
        spacing = MeshSpots(geometry.mesh->surface, uvs, &spots);
      }
      break;
    default:
      break;
  }
  Contact contact;
  contact.b.body = body;
  contact.b.shape = s;
  for (const SurfaceSpot& spot : spots) {
    if (static_cast<int>(glyphs->size()) >= kMaxStructureGlyphs) return;
    // side B's point in its body frame (world for static shapes); its outward normal is +n
    contact.b.p_B = X_BS * spot.point_S;
    contact.normal_W = X_WS.q * spot.normal_S;
    contact.b.has_uv = spot.triangle >= 0;
    contact.b.uv = spot.uv;
    contact.b.feature_kind = spot.triangle >= 0 ? FeatureKind::kFace : FeatureKind::kNone;
    contact.b.feature_index = spot.triangle;
    const SideStructure sample = SampleSideStructure(model, state, contact, /*is_a=*/false);
    glyphs->push_back(
        MakeGlyph(sample, X_WS * spot.point_S, contact.normal_W, 0.5 * kDashPerSpacing * spacing));
    glyphs->back().on_world = body == kWorldBody;
  }
}

// the glyphs of soft body s at the centroids of its (current) boundary triangles
void AppendSoftBodyGlyphs(const Model& model, const State& state, int s,
                          std::vector<VisualStructureGlyph>* glyphs) {
  const SoftBody& body = model.soft_bodies[s];
  const int triangles = static_cast<int>(body.surface.size());
  const int stride = std::max(1, (triangles + kMaxGlyphsPerShape - 1) / kMaxGlyphsPerShape);
  Real area = 0;
  int count = 0;
  for (int t = 0; t < triangles; t += stride) {
    const auto& tri = body.surface[t];
    area += 0.5 * (state.particle_x_W[tri[1]] - state.particle_x_W[tri[0]])
                      .cross(state.particle_x_W[tri[2]] - state.particle_x_W[tri[0]])
                      .norm();
    ++count;
  }
  const Real half_length = count > 0 ? 0.5 * kDashPerSpacing * std::sqrt(area * stride / count) : 0;
  Contact contact;
  contact.b.soft_body = s;
  contact.b.weights = Vec3::Constant(1.0 / 3);
  for (int t = 0; t < triangles; t += stride) {
    if (static_cast<int>(glyphs->size()) >= kMaxStructureGlyphs) return;
    const auto& tri = body.surface[t];
    const Vec3& x0 = state.particle_x_W[tri[0]];
    const Vec3& x1 = state.particle_x_W[tri[1]];
    const Vec3& x2 = state.particle_x_W[tri[2]];
    const Vec3 cross = (x1 - x0).cross(x2 - x0);
    if (!(cross.norm() > 0)) continue;
    contact.b.particles = tri;
    const SideStructure sample = SampleSideStructure(model, state, contact, /*is_a=*/false);
    glyphs->push_back(MakeGlyph(sample, (x0 + x1 + x2) / 3, cross.normalized(), half_length));
  }
}

}  // namespace


void AppendStructureGlyphs(const Model& model, const State& state,
                           std::vector<VisualStructureGlyph>* glyphs) {
  if (model.structure_fields.empty()) return;
  for (int s = 0; s < model.shape_count(); ++s) {
    if (ShapeStructureField(model, s) != nullptr) AppendShapeGlyphs(model, state, s, glyphs);
  }
  for (int s = 0; s < static_cast<int>(model.soft_bodies.size()); ++s) {
    if (model.soft_bodies[s].structure_field >= 0) AppendSoftBodyGlyphs(model, state, s, glyphs);
  }
}

}  // namespace sim
