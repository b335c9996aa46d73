// Locating paint on structure fields, baking them for painting, and brush dabs (equations and
// conventions in structure_paint.h).
#include "engine/edit/structure_paint.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numbers>
#include <vector>

#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/geometry/isosurface.h"
#include "engine/model/structure_surface.h"

namespace sim {

namespace {

constexpr Real kPi = std::numbers::pi;
// smallest pitch of a "uv" bake [UV units] (the scene format's smallest tile_size)
constexpr Real kUvBakeMinPitch = 1e-4;
// blended doubled-angle vectors shorter than this have no direction to renormalize
constexpr Real kMinBlendLength = 1e-9;

// integer modulo into [0, n)
int Wrap(int i, int n) {
  const int m = i % n;
  return m < 0 ? m + n : m;
}


// the spot on a shape: the shape-frame point and outward normal, the mesh UVs of the triangle
// hit, and the field coordinates the contact stage would use there
std::optional<PaintSpot> LocateOnShape(const Model& model, const State& state, const RayHit& hit) {
  const int s = hit.shape;
  if (s < 0 || s >= static_cast<int>(model.shape_structure_field.size())) return std::nullopt;
  const int field_index = model.shape_structure_field[s];
  if (field_index < 0) return std::nullopt;
  const StructureField& field = *model.structure_fields[field_index];
  const ShapeGeometry& geometry = model.shape_geometry[s];
  const int body = model.shape_body[s];
  const Pose X_WS =
      body == kWorldBody ? model.shape_X_BS[s] : state.body_X_WB[body] * model.shape_X_BS[s];
  const Quat q_SW = X_WS.q.conjugate();
  const Vec3 p_S = q_SW * (hit.point - X_WS.p);
  // outward normal: a plane's +z, a mesh triangle's winding, else the ray-facing normal
  Vec3 n_S = geometry.type == ShapeType::kPlane ? Vec3::UnitZ() : Vec3(q_SW * hit.normal);
  PaintSpot spot;
  Vec2 mesh_uv = Vec2::Zero();
  const Vec2* uv = nullptr;
  const TriangleMesh* surface =
      geometry.type == ShapeType::kMesh && geometry.mesh ? &geometry.mesh->surface : nullptr;
  if (surface != nullptr && hit.triangle >= 0 && hit.triangle < surface->triangle_count()) {
    const auto& tri = surface->triangles[hit.triangle];
    const Vec3 e1 = surface->vertices[tri[1]] - surface->vertices[tri[0]];
    const Vec3 e2 = surface->vertices[tri[2]] - surface->vertices[tri[0]];
    if (e1.cross(e2).norm() > 0) n_S = e1.cross(e2).normalized();
    if (surface->has_uvs()) {
      for (int k = 0; k < 3; ++k) mesh_uv += hit.barycentric(k) * surface->uvs[tri[k]];
      uv = &mesh_uv;
      // k = sqrt(A_uv / A) where the mesh's UVs are the field coordinates
      const Vec2 d1 = surface->uvs[tri[1]] - surface->uvs[tri[0]];
      const Vec2 d2 = surface->uvs[tri[2]] - surface->uvs[tri[0]];
      const Real uv_area = std::abs(d1.x() * d2.y() - d2.x() * d1.y());
      if (field.projection.kind == FieldProjection::kUv && uv_area > 1e-14) {
        spot.units_per_metre = std::sqrt(uv_area / e1.cross(e2).norm());
      }
    }
  }
  const FieldCoordinates coordinates =
      ShapeFieldCoordinates(geometry, field.projection, hit.triangle, uv, p_S, n_S);
  spot.field = field_index;
  spot.shape = s;
  spot.uv = coordinates.uv;
  spot.tangent_u_W = X_WS.q * coordinates.tangent_u;
  spot.tangent_v_W = X_WS.q * coordinates.tangent_v;
  spot.normal_W = X_WS.q * n_S;
  return spot;
}


// the spot on a soft body's surface: the rest-frame point projected, tangents carried through
// the current triangle, k = sqrt(A_rest / A_now)
std::optional<PaintSpot> LocateOnSoftBody(const Model& model, const State& state,
                                          const RayHit& hit) {
  if (hit.soft_body >= static_cast<int>(model.soft_bodies.size())) return std::nullopt;
  const SoftBody& body = model.soft_bodies[hit.soft_body];
  if (body.structure_field < 0 || hit.triangle < 0 ||
      hit.triangle >= static_cast<int>(body.surface.size())) {
    return std::nullopt;
  }
  const StructureField& field = *model.structure_fields[body.structure_field];
  const SoftFieldFrame frame = SoftSurfaceFieldFrame(
      body, field.projection, body.surface[hit.triangle], hit.barycentric, state.particle_x_W);
  if (!frame.valid) return std::nullopt;
  const Vec3 now_normal = frame.current_edges.col(0).cross(frame.current_edges.col(1));
  if (!(now_normal.norm() > 0)) return std::nullopt;
  const Real rest_area = frame.rest_edges.col(0).cross(frame.rest_edges.col(1)).norm();
  PaintSpot spot;
  spot.field = body.structure_field;
  spot.soft_body = hit.soft_body;
  spot.uv = frame.rest.uv;
  spot.tangent_u_W = frame.ToWorld(frame.rest.tangent_u);
  spot.tangent_v_W = frame.ToWorld(frame.rest.tangent_v);
  spot.normal_W = now_normal.normalized();
  spot.units_per_metre = std::sqrt(rest_area / now_normal.norm());
  return spot;
}


// field coordinates covered by the surfaces of a field
struct FieldWindow {
  Vec2 lower = Vec2::Constant(std::numeric_limits<Real>::infinity());
  Vec2 upper = Vec2::Constant(-std::numeric_limits<Real>::infinity());
  bool unbounded = false;
  void Extend(const Vec2& uv) {
    lower = lower.cwiseMin(uv);
    upper = upper.cwiseMax(uv);
  }
  bool empty() const { return !(lower.x() <= upper.x()); }
};

// a box holding the shape, in its frame; false where the shape is unbounded
bool ShapeLocalBounds(const ShapeGeometry& g, Vec3* lower, Vec3* upper) {
  const Real r = g.radius;
  const bool round_ends = g.type == ShapeType::kCapsule;
  if (g.type == ShapeType::kSdf) return g.sdf && AnalyticSdfBounds(*g.sdf, lower, upper);
  if (g.type == ShapeType::kMesh && g.mesh) {
    *lower = g.mesh->lower;
    *upper = g.mesh->upper;
  } else if (g.type == ShapeType::kConvexHull && g.hull && !g.hull->vertices.empty()) {
    *lower = *upper = g.hull->vertices[0];
    for (const Vec3& v : g.hull->vertices) {
      *lower = lower->cwiseMin(v);
      *upper = upper->cwiseMax(v);
    }
  } else if (g.type == ShapeType::kBox || g.type == ShapeType::kSphere) {
    // primitives symmetric about the shape origin
    *upper = g.type == ShapeType::kBox ? g.half_extents : Vec3::Constant(r);
    *lower = -*upper;
  } else if (round_ends || g.type == ShapeType::kCylinder) {
    *upper = Vec3(r, r, g.half_length + (round_ends ? r : 0));
    *lower = -*upper;
  } else {
    return false;  // planes (and shapes without geometry) have no bounds
  }
  return true;
}

// the field coordinates of the box [lower, upper] under `spec`: the planar and triplanar maps
// are linear on each face orientation, so the corners bound them (all six orientations for
// triplanar); cylindrical: u = ρφ within ±π·ρ_max, v = the corners' heights along the axis
void ExtendByBox(const FieldProjectionSpec& spec, const Vec3& lower, const Vec3& upper,
                 FieldWindow* window) {
  Real rho_max = 0;
  Real v_lower = std::numeric_limits<Real>::infinity(), v_upper = -v_lower;
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p((corner & 1) ? upper.x() : lower.x(), (corner & 2) ? upper.y() : lower.y(),
                 (corner & 4) ? upper.z() : lower.z());
    if (spec.kind == FieldProjection::kPlanar) {
      window->Extend(ProjectSurfacePoint(spec, p, spec.axis).uv);
    } else if (spec.kind == FieldProjection::kCylindrical) {
      const Vec3 r = p - spec.origin;
      const Real height = r.dot(spec.axis);
      rho_max = std::max(rho_max, (r - height * spec.axis).norm());
      v_lower = std::min(v_lower, height);
      v_upper = std::max(v_upper, height);
    } else {
      for (int axis = 0; axis < 3; ++axis) {
        for (const Real sign : {Real(-1), Real(1)}) {
          window->Extend(ProjectSurfacePoint(spec, p, sign * Vec3::Unit(axis)).uv);
        }
      }
    }
  }
  if (spec.kind == FieldProjection::kCylindrical) {
    window->Extend(Vec2(-kPi * rho_max, v_lower));
    window->Extend(Vec2(kPi * rho_max, v_upper));
  }
}

// the window of every surface using field `f`
FieldWindow CoveredWindow(const Model& model, int f) {
  const StructureField& field = *model.structure_fields[f];
  FieldWindow window;
  for (int s = 0; s < static_cast<int>(model.shape_structure_field.size()); ++s) {
    if (model.shape_structure_field[s] != f) continue;
    const ShapeGeometry& g = model.shape_geometry[s];
    if (field.projection.kind == FieldProjection::kUv && g.mesh && g.mesh->surface.has_uvs()) {
      for (const Vec2& uv : g.mesh->surface.uvs) window.Extend(uv);
      continue;
    }
    Vec3 lower = Vec3::Zero(), upper = Vec3::Zero();
    if (!ShapeLocalBounds(g, &lower, &upper)) {
      window.unbounded = true;
      continue;
    }
    ExtendByBox(field.projection, lower, upper, &window);
  }
  for (const SoftBody& body : model.soft_bodies) {
    if (body.structure_field != f || body.rest_positions.empty()) continue;
    Vec3 lower = body.rest_positions[0], upper = lower;
    for (const Vec3& p : body.rest_positions) {
      lower = lower.cwiseMin(p);
      upper = upper.cwiseMax(p);
    }
    ExtendByBox(field.projection, lower, upper, &window);
  }
  return window;
}


// the falloff f(d / r) of the header
Real Falloff(Real s, Real hardness) {
  if (s >= 1) return 0;
  if (s <= hardness) return 1;
  const Real t = (s - hardness) / (1 - hardness);
  return 1 - t * t * (3 - 2 * t);
}

// a dab's texel geometry: the texel-centre coordinates (x, y) of its centre (column, row), its
// radius in texels per axis, and the unwrapped texel ranges it covers (at most one tile each)
struct DabGrid {
  Real x = 0, y = 0;
  Real texel_u = 0, texel_v = 0;  // field units per texel along columns and rows
  int column_begin = 0, column_end = 0;
  int row_begin = 0, row_end = 0;
  bool empty() const { return column_begin >= column_end || row_begin >= row_end; }
};

// the index range [begin, end) of texel centres within `radius` of `center` (texel units),
// limited to the `count` nearest images when the disc is wider than the tile
void CoveredRange(Real center, Real radius, int count, int* begin, int* end) {
  *begin = static_cast<int>(std::ceil(center - radius));
  *end = static_cast<int>(std::floor(center + radius)) + 1;
  if (*end - *begin > count) {
    *begin = static_cast<int>(std::ceil(center - 0.5 * count));
    *end = *begin + count;
  }
}

DabGrid GridOf(const StructureField& field, const FieldDab& dab) {
  DabGrid grid;
  if (!field.has_texels() || !(dab.radius > 0) || !dab.center.allFinite()) return grid;
  const int width = field.width(), height = field.height();
  grid.texel_u = field.tile_size.x() / width;
  grid.texel_v = field.tile_size.y() / height;
  // texel-centre coordinates as in StructureField::Sample (rows from the top, v up) of the
  // centre's image in the tile [0, size)
  const Vec2 tile = field.tile_size;
  const Vec2 center(dab.center.x() - tile.x() * std::floor(dab.center.x() / tile.x()),
                    dab.center.y() - tile.y() * std::floor(dab.center.y() / tile.y()));
  grid.x = center.x() / tile.x() * width - 0.5;
  grid.y = (1 - center.y() / tile.y()) * height - 0.5;
  // a radius of more than a few tiles covers them all: clamp before converting to int
  const Real tiles = 4;
  CoveredRange(grid.x, std::min(dab.radius / grid.texel_u, tiles * width), width,
               &grid.column_begin, &grid.column_end);
  CoveredRange(grid.y, std::min(dab.radius / grid.texel_v, tiles * height), height, &grid.row_begin,
               &grid.row_end);
  return grid;
}

// the in-tile rectangles of the unwrapped box [c0, c1) × [r0, r1) (each at most one tile)
DirtyTexels SplitWrapped(int c0, int c1, int r0, int r1, int width, int height) {
  DirtyTexels out;
  if (c0 >= c1 || r0 >= r1) return out;
  // each axis: one span, or two where it crosses the tile edge
  const auto spans = [](int begin, int end, int n, std::array<std::array<int, 2>, 2>* s) {
    const int start = Wrap(begin, n), length = end - begin;
    if (start + length <= n) {
      (*s)[0] = {start, length};
      return 1;
    }
    (*s)[0] = {start, n - start};
    (*s)[1] = {0, start + length - n};
    return 2;
  };
  std::array<std::array<int, 2>, 2> columns, rows;
  const int column_count = spans(c0, c1, width, &columns);
  const int row_count = spans(r0, r1, height, &rows);
  for (int j = 0; j < row_count; ++j) {
    for (int i = 0; i < column_count; ++i) {
      out.rects[out.count++] = {columns[i][0], rows[j][0], columns[i][1], rows[j][1]};
    }
  }
  return out;
}

// the box-blurred (cos 2θ, sin 2θ, w) of every texel of the grid, read before the dab: prefix
// sums along rows, then along columns, over a margin of `m` texels (wrapping)
std::vector<Vec3> BoxBlur(const StructureField& field, const DabGrid& grid, int m) {
  const int columns = grid.column_end - grid.column_begin;
  const int rows = grid.row_end - grid.row_begin;
  const int padded_columns = columns + 2 * m, padded_rows = rows + 2 * m;
  const int width = field.width(), height = field.height();
  // horizontal box sums of the padded rows
  std::vector<Vec3> horizontal(static_cast<std::size_t>(padded_rows) * columns);
  std::vector<Vec3> prefix(padded_columns + 1);
  for (int r = 0; r < padded_rows; ++r) {
    const int row = Wrap(grid.row_begin - m + r, height);
    prefix[0] = Vec3::Zero();
    for (int c = 0; c < padded_columns; ++c) {
      const StructureTexel& t = field.texels()[static_cast<std::size_t>(row) * width +
                                               Wrap(grid.column_begin - m + c, width)];
      prefix[c + 1] = prefix[c] + Vec3(t.cos2, t.sin2, t.strength);
    }
    for (int c = 0; c < columns; ++c) {
      horizontal[static_cast<std::size_t>(r) * columns + c] = prefix[c + 2 * m + 1] - prefix[c];
    }
  }
  // vertical box sums of those, averaged
  const Real area = Real(2 * m + 1) * (2 * m + 1);
  std::vector<Vec3> blurred(static_cast<std::size_t>(rows) * columns);
  std::vector<Vec3> column_prefix(padded_rows + 1);
  for (int c = 0; c < columns; ++c) {
    column_prefix[0] = Vec3::Zero();
    for (int r = 0; r < padded_rows; ++r) {
      column_prefix[r + 1] =
          column_prefix[r] + horizontal[static_cast<std::size_t>(r) * columns + c];
    }
    for (int r = 0; r < rows; ++r) {
      blurred[static_cast<std::size_t>(r) * columns + c] =
          (column_prefix[r + 2 * m + 1] - column_prefix[r]) / area;
    }
  }
  return blurred;
}

// moves `texel` toward `target` by a: the doubled-angle vector blended and renormalized (where
// `axis`), the strength linearly (where `strength`); a ≥ 1 copies the target exactly
void Blend(const StructureTexel& target, Real a, bool axis, bool strength, StructureTexel* texel) {
  if (a >= 1) {
    if (axis) {
      texel->cos2 = target.cos2;
      texel->sin2 = target.sin2;
    }
    if (strength) texel->strength = target.strength;
    return;
  }
  if (axis) {
    const Real c = (1 - a) * texel->cos2 + a * target.cos2;
    const Real s = (1 - a) * texel->sin2 + a * target.sin2;
    const Real length = std::sqrt(c * c + s * s);
    if (length > kMinBlendLength) {
      texel->cos2 = static_cast<float>(c / length);
      texel->sin2 = static_cast<float>(s / length);
    } else if (a >= 0.5) {  // opposite doubled angles (crossed axes): the nearer one wins
      texel->cos2 = target.cos2;
      texel->sin2 = target.sin2;
    }
  }
  if (strength) {
    texel->strength = static_cast<float>(texel->strength + a * (target.strength - texel->strength));
  }
}

}  // namespace


std::optional<PaintSpot> LocatePaint(const Model& model, const State& state, const RayHit& hit) {
  if (!hit.hit || !MatchesModel(state, model)) return std::nullopt;
  if (hit.soft_body >= 0) return LocateOnSoftBody(model, state, hit);
  return LocateOnShape(model, state, hit);
}


std::optional<Real> TangentSpaceAngle(const PaintSpot& spot, const Vec3& direction_W) {
  // everything projected onto the tangent plane, then m' = α T_u' + β T_v' by least squares
  const Vec3& n = spot.normal_W;
  const Vec3 t_u = spot.tangent_u_W - spot.tangent_u_W.dot(n) * n;
  const Vec3 t_v = spot.tangent_v_W - spot.tangent_v_W.dot(n) * n;
  const Vec3 m = direction_W - direction_W.dot(n) * n;
  const Real gram_uu = t_u.dot(t_u), gram_uv = t_u.dot(t_v), gram_vv = t_v.dot(t_v);
  const Real det = gram_uu * gram_vv - gram_uv * gram_uv;
  if (!(m.norm() > 1e-12 * direction_W.norm()) || !(det > 1e-12 * gram_uu * gram_vv)) {
    return std::nullopt;
  }
  const Real rhs_u = t_u.dot(m), rhs_v = t_v.dot(m);
  const Real alpha = (gram_vv * rhs_u - gram_uv * rhs_v) / det;
  const Real beta = (gram_uu * rhs_v - gram_uv * rhs_u) / det;
  return std::atan2(beta, alpha);
}


bool BakeForPainting(const Model& model, int field_index, const Vec2& near_uv) {
  StructureField& field = *model.structure_fields[field_index];
  if (field.has_texels()) return false;
  FieldWindow window = CoveredWindow(model, field_index);
  if (window.unbounded || window.empty()) {
    // a window centred on the first dab (with the bounded surfaces' as they are, if they fit)
    window.Extend(near_uv - Vec2::Constant(0.5 * kUnboundedPaintWindow));
    window.Extend(near_uv + Vec2::Constant(0.5 * kUnboundedPaintWindow));
  }
  // square texels, the larger side at most kPaintBakeMaxSide − 2 of them, plus one each side
  const Vec2 extent = window.upper - window.lower;
  const Real min_pitch =
      field.projection.kind == FieldProjection::kUv ? kUvBakeMinPitch : kPaintBakeMinPitch;
  const Real pitch = std::max(extent.maxCoeff() / (kPaintBakeMaxSide - 2), min_pitch);
  const auto texels = [&](Real length) {
    return std::clamp(static_cast<int>(std::ceil(length / pitch)) + 2, 1, kPaintBakeMaxSide);
  };
  const int width = texels(extent.x()), height = texels(extent.y());
  field.tile_size = Vec2(width * pitch, height * pitch);
  field.Bake(width, height, window.lower - 0.5 * (field.tile_size - extent));
  return true;
}


const char* BrushToolName(BrushTool tool) {
  // in the order of the enum
  constexpr const char* kNames[] = {"comb", "set angle", "smooth", "erase", "strength"};
  const int index = static_cast<int>(tool);
  return index >= 0 && index < static_cast<int>(std::size(kNames)) ? kNames[index] : "unknown";
}


FieldDab DabAt(const PaintSpot& spot, const Brush& brush, const Vec3& stroke_motion_W) {
  FieldDab dab;
  dab.center = spot.uv;
  dab.radius = brush.radius * spot.units_per_metre;
  dab.angle = brush.angle;
  if (brush.tool == BrushTool::kComb) {
    dab.angle =
        TangentSpaceAngle(spot, stroke_motion_W).value_or(std::numeric_limits<Real>::quiet_NaN());
  }
  return dab;
}


TexelRect DirtyTexels::Bounds() const {
  if (count == 0) return {};
  int c0 = rects[0].column, r0 = rects[0].row;
  int c1 = c0 + rects[0].width, r1 = r0 + rects[0].height;
  for (int i = 1; i < count; ++i) {
    c0 = std::min(c0, rects[i].column);
    r0 = std::min(r0, rects[i].row);
    c1 = std::max(c1, rects[i].column + rects[i].width);
    r1 = std::max(r1, rects[i].row + rects[i].height);
  }
  return {c0, r0, c1 - c0, r1 - r0};
}


DirtyTexels DabTexels(const StructureField& field, const FieldDab& dab) {
  const DabGrid grid = GridOf(field, dab);
  return SplitWrapped(grid.column_begin, grid.column_end, grid.row_begin, grid.row_end,
                      field.width(), field.height());
}


DirtyTexels ApplyDab(StructureField* field, const Brush& brush, const FieldDab& dab) {
  const bool oriented = brush.tool == BrushTool::kComb || brush.tool == BrushTool::kSetAngle;
  if (oriented && !std::isfinite(dab.angle)) return {};
  const DabGrid grid = GridOf(*field, dab);
  if (grid.empty()) return {};
  // the tool's target, what it moves (axis, strength), and the blur a smooth dab reads
  StructureTexel target = TexelFromAxis(dab.angle, std::clamp<Real>(brush.strength, 0, 1));
  const bool axis = oriented;
  const bool strength = !(oriented && brush.keep_strength);
  if (brush.tool == BrushTool::kErase) target.strength = 0;
  std::vector<Vec3> blurred;
  if (brush.tool == BrushTool::kSmooth) {
    // half-width ¼ of the radius in texels, within one tile
    const Real radius_texels = std::min({dab.radius / grid.texel_u, dab.radius / grid.texel_v,
                                         Real(std::max(field->width(), field->height()))});
    blurred = BoxBlur(*field, grid, std::max(1, static_cast<int>(std::lround(radius_texels / 4))));
  }
  const Real opacity = std::clamp<Real>(brush.opacity, 0, 1);
  const Real hardness = std::clamp<Real>(brush.hardness, 0, 1);
  const int width = field->width(), height = field->height();
  std::vector<StructureTexel>& texels = field->mutable_texels();
  // the texels written, unwrapped, for the dirty rectangles
  int c0 = grid.column_end, c1 = grid.column_begin, r0 = grid.row_end, r1 = grid.row_begin;
  const Real radius_squared = dab.radius * dab.radius;
  const int columns = grid.column_end - grid.column_begin;
  for (int row = grid.row_begin; row < grid.row_end; ++row) {
    const Real dy = (row - grid.y) * grid.texel_v;
    if (dy * dy >= radius_squared) continue;
    StructureTexel* texel_row = &texels[static_cast<std::size_t>(Wrap(row, height)) * width];
    int wrapped = Wrap(grid.column_begin, width);
    for (int column = grid.column_begin; column < grid.column_end; ++column, ++wrapped) {
      if (wrapped == width) wrapped = 0;
      const Real dx = (column - grid.x) * grid.texel_u;
      const Real distance_squared = dx * dx + dy * dy;
      if (distance_squared >= radius_squared) continue;
      const Real a = opacity * Falloff(std::sqrt(distance_squared) / dab.radius, hardness);
      if (!(a > 0)) continue;
      StructureTexel* texel = &texel_row[wrapped];
      if (brush.tool == BrushTool::kSmooth) {
        // the blur of this texel, as a unit doubled angle where it has one
        const Vec3& b = blurred[static_cast<std::size_t>(row - grid.row_begin) * columns + column -
                                grid.column_begin];
        const Real length = std::sqrt(b.x() * b.x() + b.y() * b.y());
        target.cos2 = static_cast<float>(length > kMinBlendLength ? b.x() / length : 0);
        target.sin2 = static_cast<float>(length > kMinBlendLength ? b.y() / length : 0);
        target.strength = static_cast<float>(b.z());
        Blend(target, a, length > kMinBlendLength, true, texel);
      } else {
        Blend(target, a, axis, strength, texel);
      }
      c0 = std::min(c0, column);
      c1 = std::max(c1, column + 1);
      r0 = std::min(r0, row);
      r1 = std::max(r1, row + 1);
    }
  }
  const DirtyTexels dirty = SplitWrapped(c0, c1, r0, r1, width, height);
  if (!dirty.empty()) field->MarkChanged();
  return dirty;
}

}  // namespace sim
