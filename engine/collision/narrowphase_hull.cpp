// Convex hull narrow phase: hull against plane, sphere, capsule, box and hull. The polytope pairs
// generalize BoxVsBox: separating-axis test over the face normals of both and the cross products
// of their edges (face axes preferred within a small tolerance, for stable manifolds), then a face
// contact (incident face clipped against the reference face's side planes, Sutherland–Hodgman,
// reduced to at most four points) or an edge–edge contact (closest points of the two edges).
// Round shapes use GJK for the exact closest point and the hull's face planes when their core
// enters the hull.
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/collision/gjk.h"
#include "engine/collision/narrowphase.h"
#include "engine/collision/narrowphase_feature.h"

namespace sim::collision_internal {

namespace {

// as BoxVsBox: another axis must separate more by this fraction of the length scale to win
// (B's faces over A's, edges over faces)
constexpr Real kFaceAxisTolerance = 1e-3;
constexpr Real kEdgeAxisTolerance = 5e-3;
// side planes are moved out by this fraction of the length scale (flush stacks keep vertices)
constexpr Real kClipSlack = 1e-5;
// edge axes from edges closer to parallel than this (sine) are skipped
constexpr Real kParallelEdgeSine = 1e-6;
// a face region: the closest-point direction within this (1 − cos) of a face normal
constexpr Real kFaceRegionCosine = 1e-9;
// bisection steps of the 1-D minimization of the face distance along a segment (2⁻⁶⁰ of it)
constexpr int kSegmentBisections = 60;
// clipping buffers: an incident polygon grows by at most one vertex per side plane
constexpr int kMaxClipPoints = 2 * kMaxFeaturePoints;
constexpr std::uint32_t kClipCode = 1u << 18;

struct ClipVertex {
  Vec3 point;
  std::uint32_t code;
};
using ClipPolygon = std::array<ClipVertex, kMaxClipPoints>;

// keeps the part of `in` where axis·x ≤ offset (Sutherland–Hodgman); `closed` is false for a
// segment (two vertices, no closing edge)
int ClipAgainstPlane(const ClipPolygon& in, int count, bool closed, const Vec3& axis, Real offset,
                     int plane, ClipPolygon* out) {
  int out_count = 0;
  const int edges = closed ? count : count - 1;
  for (int v = 0; v < count; ++v) {
    const ClipVertex& current = in[v];
    const Real current_distance = axis.dot(current.point) - offset;
    const bool current_inside = current_distance <= 0;
    if (current_inside && out_count < kMaxClipPoints) (*out)[out_count++] = current;
    if (v >= edges) continue;
    const ClipVertex& next = in[(v + 1) % count];
    const Real next_distance = axis.dot(next.point) - offset;
    if (current_inside != (next_distance <= 0) && out_count < kMaxClipPoints) {
      const Real t = current_distance / (current_distance - next_distance);
      const std::uint32_t code =
          kClipCode | (2 * static_cast<std::uint32_t>(plane) + (current_inside ? 1u : 0u));
      (*out)[out_count++] = {current.point + t * (next.point - current.point), code};
    }
  }
  return out_count;
}

// index of the first value within `tolerance` of the largest one among those not taken
int FirstNearMax(const Real* values, int count, const bool* taken, Real tolerance) {
  Real largest = -std::numeric_limits<Real>::infinity();
  for (int i = 0; i < count; ++i) {
    if (!taken[i]) largest = std::max(largest, values[i]);
  }
  for (int i = 0; i < count; ++i) {
    if (!taken[i] && values[i] >= largest - tolerance) return i;
  }
  return -1;
}

Vec3 PolytopeSupportPoint(const void* shape, const Vec3& direction) {
  const Polytope& polytope = *static_cast<const Polytope*>(shape);
  return polytope.Vertex(polytope.SupportVertex(direction));
}

Vec3 PointSupport(const void* shape, const Vec3& /*direction*/) {
  return *static_cast<const Vec3*>(shape);
}

// a segment given as two consecutive Vec3
Vec3 SegmentSupport(const void* shape, const Vec3& direction) {
  const Vec3* ends = static_cast<const Vec3*>(shape);
  return direction.dot(ends[1] - ends[0]) > 0 ? ends[1] : ends[0];
}

// extent [min, max] of the polytope along a world axis
void Project(const Polytope& polytope, const Vec3& axis, Real* low, Real* high) {
  const Vec3 local = polytope.rotation.transpose() * axis;
  Real min_value = std::numeric_limits<Real>::infinity();
  Real max_value = -std::numeric_limits<Real>::infinity();
  for (int v = 0; v < polytope.vertex_count; ++v) {
    const Real value = local.dot(polytope.vertices[v]);
    min_value = std::min(min_value, value);
    max_value = std::max(max_value, value);
  }
  const Real shift = axis.dot(polytope.center);
  *low = min_value + shift;
  *high = max_value + shift;
}

// the edge of `polytope` parallel to `direction` (world, unit) that lies farthest along `side`
int ExtremeParallelEdge(const Polytope& polytope, const Vec3& direction, const Vec3& side,
                        Real length_scale) {
  int best = -1;
  Real best_value = -std::numeric_limits<Real>::infinity();
  // two passes: the largest value, then the first edge within a tolerance of it (stable ids)
  for (int pass = 0; pass < 2; ++pass) {
    for (int e = 0; e < polytope.edge_count; ++e) {
      const Vec3 p0 = polytope.Vertex(polytope.edges[e][0]);
      const Vec3 p1 = polytope.Vertex(polytope.edges[e][1]);
      const Vec3 along = p1 - p0;
      if (along.cross(direction).norm() > 1e-6 * along.norm()) continue;
      const Real value = side.dot(p0 + p1);
      if (pass == 0) {
        best_value = std::max(best_value, value);
      } else if (value >= best_value - 1e-6 * length_scale) {
        return e;
      }
    }
  }
  return best;
}

// separation of A and B along `axis` (oriented from B to A where it separates more); writes the
// orientation
Real AxisSeparation(const Polytope& a, const Polytope& b, const Vec3& axis, Vec3* oriented) {
  Real a_low, a_high, b_low, b_high;
  Project(a, axis, &a_low, &a_high);
  Project(b, axis, &b_low, &b_high);
  const Real forward = a_low - b_high;  // A above B along +axis
  const Real backward = b_low - a_high;
  if (forward >= backward) {
    *oriented = axis;
    return forward;
  }
  *oriented = -axis;
  return backward;
}

// polytope–polytope contact (A, B); see the file comment
void PolytopeVsPolytope(const Polytope& a, const Polytope& b, Real margin, Manifold* out) {
  const Real length_scale = std::min(a.InnerScale(), b.InnerScale());

  // face axes of A: separation of B from A's face plane
  Real best_face_separation = -std::numeric_limits<Real>::infinity();
  bool face_of_a = true;
  int face = -1;
  for (int f = 0; f < a.face_count; ++f) {
    const Vec3 normal = a.FaceNormal(f);
    const Real separation = normal.dot(b.Vertex(b.SupportVertex(-normal))) - a.FaceOffset(f);
    if (separation >= margin) return;
    if (separation > best_face_separation) {
      best_face_separation = separation;
      face = f;
    }
  }
  // face axes of B (must separate more by the tolerance to win)
  for (int f = 0; f < b.face_count; ++f) {
    const Vec3 normal = b.FaceNormal(f);
    const Real separation = normal.dot(a.Vertex(a.SupportVertex(-normal))) - b.FaceOffset(f);
    if (separation >= margin) return;
    if (separation > best_face_separation + kFaceAxisTolerance * length_scale) {
      best_face_separation = separation;
      face_of_a = false;
      face = f;
    }
  }

  // edge axes: cross products of an edge of A and an edge of B
  // TODO(hull): test only edge pairs forming a Minkowski face (Gauss-map arcs that cross) once
  // ConvexHull carries edge–face adjacency; every pair is tested now (E_A·E_B·(V_A + V_B)).
  Real best_edge_separation = -std::numeric_limits<Real>::infinity();
  int edge_a = -1;
  int edge_b = -1;
  Vec3 edge_normal = Vec3::UnitZ();
  for (int i = 0; i < a.edge_count; ++i) {
    const Vec3 direction_a = (a.Vertex(a.edges[i][1]) - a.Vertex(a.edges[i][0])).normalized();
    for (int j = 0; j < b.edge_count; ++j) {
      const Vec3 direction_b = (b.Vertex(b.edges[j][1]) - b.Vertex(b.edges[j][0])).normalized();
      Vec3 axis = direction_a.cross(direction_b);
      const Real length = axis.norm();
      if (length < kParallelEdgeSine) continue;
      axis /= length;
      Vec3 oriented;
      const Real separation = AxisSeparation(a, b, axis, &oriented);
      if (separation >= margin) return;
      if (separation > best_edge_separation) {
        best_edge_separation = separation;
        edge_a = i;
        edge_b = j;
        edge_normal = oriented;
      }
    }
  }

  // edge–edge: one point at the closest points of the two extreme parallel edges
  if (edge_a >= 0 &&
      best_edge_separation > best_face_separation + kEdgeAxisTolerance * length_scale) {
    const Vec3 direction_a =
        (a.Vertex(a.edges[edge_a][1]) - a.Vertex(a.edges[edge_a][0])).normalized();
    const Vec3 direction_b =
        (b.Vertex(b.edges[edge_b][1]) - b.Vertex(b.edges[edge_b][0])).normalized();
    const int extreme_a = ExtremeParallelEdge(a, direction_a, -edge_normal, length_scale);
    const int extreme_b = ExtremeParallelEdge(b, direction_b, edge_normal, length_scale);
    const Vec3 a_start = a.Vertex(a.edges[extreme_a][0]);
    const Vec3 a_end = a.Vertex(a.edges[extreme_a][1]);
    const Vec3 b_start = b.Vertex(b.edges[extreme_b][0]);
    const Vec3 b_end = b.Vertex(b.edges[extreme_b][1]);
    Real s = 0;
    Real t = 0;
    ClosestPointsOfSegments(a_start, a_end, b_start, b_end, &s, &t);
    const Vec3 point_a = a_start + s * (a_end - a_start);
    const Vec3 point_b = b_start + t * (b_end - b_start);
    if (edge_normal.dot(point_a - point_b) >= margin) return;
    const std::uint32_t feature = (1u << 30) |
                                  ((static_cast<std::uint32_t>(extreme_a) & 0x7FFFu) << 15) |
                                  (static_cast<std::uint32_t>(extreme_b) & 0x7FFFu);
    out->Add(edge_normal, point_a, point_b, feature);
    return;
  }

  // face contact: the reference face's polygon against the most anti-parallel incident face
  const Polytope& reference = face_of_a ? a : b;
  const Polytope& incident = face_of_a ? b : a;
  ContactFeature reference_face;
  ContactFeature incident_face;
  if (!PolytopeFace(reference, face, &reference_face) ||
      !PolytopeFace(incident, IncidentFace(incident, reference_face.normal), &incident_face)) {
    // TODO(hull): faces above kMaxFeaturePoints vertices get one deepest point only
    const Vec3 normal = face_of_a ? Vec3(-reference.FaceNormal(face)) : reference.FaceNormal(face);
    const Vec3 deepest = incident.Vertex(incident.SupportVertex(face_of_a ? normal : -normal));
    const Real height = reference.FaceNormal(face).dot(deepest) - reference.FaceOffset(face);
    const Vec3 on_face = deepest - height * reference.FaceNormal(face);
    if (face_of_a) {
      out->Add(normal, on_face, deepest, 0);
    } else {
      out->Add(normal, deepest, on_face, 0);
    }
    return;
  }
  AddClippedContact(reference_face, incident_face, face_of_a, margin, length_scale, out);
}

// hull's signed face distance max_f (n_fᵀx − o_f) at world point x; writes the first max face
Real FaceDistance(const Polytope& polytope, const Vec3& point, int* face) {
  Real best = -std::numeric_limits<Real>::infinity();
  for (int f = 0; f < polytope.face_count; ++f) {
    const Real value = polytope.FaceNormal(f).dot(point) - polytope.FaceOffset(f);
    if (value > best) {
      best = value;
      *face = f;
    }
  }
  return best;
}

// parameter of the segment p0 + t·(p1 − p0) minimizing the polytope's face distance (a convex
// piecewise linear function of t): bisection on the sign of its slope, then the crossing of the
// two active face planes
Real MinimizeFaceDistance(const Polytope& polytope, const Vec3& p0, const Vec3& p1) {
  const Vec3 delta = p1 - p0;
  const auto slope_at = [&](Real t, int* face) {
    FaceDistance(polytope, p0 + t * delta, face);
    return polytope.FaceNormal(*face).dot(delta);
  };
  int face_low = 0;
  int face_high = 0;
  if (slope_at(0, &face_low) >= 0) return 0;
  if (slope_at(1, &face_high) <= 0) return 1;
  Real low = 0;
  Real high = 1;
  for (int i = 0; i < kSegmentBisections; ++i) {
    const Real middle = 0.5 * (low + high);
    int face = 0;
    const Real slope = slope_at(middle, &face);
    // a plateau (the active face parallel to the segment): any point of it is a minimum
    if (std::abs(slope) <= 1e-12 * delta.norm()) return middle;
    if (slope < 0) {
      low = middle;
      face_low = face;
    } else {
      high = middle;
      face_high = face;
    }
  }
  // the two active planes meet where their distances are equal
  const Real value_low = polytope.FaceNormal(face_low).dot(p0) - polytope.FaceOffset(face_low);
  const Real value_high = polytope.FaceNormal(face_high).dot(p0) - polytope.FaceOffset(face_high);
  const Real slope_low = polytope.FaceNormal(face_low).dot(delta);
  const Real slope_high = polytope.FaceNormal(face_high).dot(delta);
  if (slope_high - slope_low <= 0) return 0.5 * (low + high);
  return std::clamp((value_low - value_high) / (slope_high - slope_low), low, high);
}

// the round shape (core point or segment, radius) is A and the polytope B
void RoundVsPolytope(const Vec3& start, const Vec3& end, Real radius, const Polytope& polytope,
                     bool is_segment, Real margin, Manifold* out) {
  const Real length_scale = polytope.InnerScale();
  // early out: the face distance bounds the distance from below
  int face = 0;
  if (!is_segment && FaceDistance(polytope, start, &face) - radius >= margin) return;

  // exact closest points while the core is outside
  const std::array<Vec3, 2> ends = {start, end};
  const ConvexSupport core_support = is_segment ? ConvexSupport{&SegmentSupport, ends.data()}
                                                : ConvexSupport{&PointSupport, &start};
  const GjkResult gjk = GjkDistance(core_support, PolytopeSupport(&polytope), length_scale);
  Real t_closest = 0;
  Vec3 closest = start;
  if (!gjk.overlapping && gjk.distance > 1e-12 * length_scale) {
    if (gjk.distance - radius >= margin) return;
    const Vec3 normal = (gjk.point_a - gjk.point_b) / gjk.distance;
    // a face region when the direction is a face normal and the closest point lies on that face
    face = MostAlignedFace(polytope, normal);
    const bool face_region = polytope.FaceNormal(face).dot(normal) >= 1 - kFaceRegionCosine;
    if (!face_region || !is_segment) {
      out->Add(normal, gjk.point_a - radius * normal, gjk.point_b, 0);
      return;
    }
    t_closest = ClosestParameterOnSegment(start, end, gjk.point_a);
    closest = start + t_closest * (end - start);
  } else {
    // the core touches or enters: the deepest core point and its face of least penetration
    if (is_segment) t_closest = MinimizeFaceDistance(polytope, start, end);
    closest = start + t_closest * (end - start);
    const Real deepest = FaceDistance(polytope, closest, &face);
    // at a plateau's end the plateau's face (parallel to the segment) is active with another:
    // take the plateau's, so a segment lying in the hull gets its face region
    const Vec3 delta = end - start;
    for (int f = 0; f < polytope.face_count && is_segment; ++f) {
      const Vec3 n = polytope.FaceNormal(f);
      if (n.dot(closest) - polytope.FaceOffset(f) >= deepest - 1e-12 * length_scale &&
          std::abs(n.dot(delta)) <= 1e-9 * delta.norm()) {
        face = f;
        break;
      }
    }
  }

  const Vec3 normal = polytope.FaceNormal(face);
  const Real offset = polytope.FaceOffset(face);
  if (!is_segment) {
    const Real height = normal.dot(start) - offset;
    if (height - radius >= margin) return;
    out->Add(normal, start - radius * normal, start - height * normal, 0);
    return;
  }
  // face region: clip the segment to the face's side planes, one point per end of the part left
  const Vec3 delta = end - start;
  Real low = 0;
  Real high = 1;
  const ConvexHull::Face& f = polytope.faces[face];
  for (int k = 0; k < f.count; ++k) {
    const Vec3 p = polytope.Vertex(polytope.face_vertices[f.first + k]);
    const Vec3 q = polytope.Vertex(polytope.face_vertices[f.first + (k + 1) % f.count]);
    const Vec3 side = (q - p).cross(normal);  // outward in the face plane
    const Real start_value = side.dot(start - p);
    const Real rate = side.dot(delta);
    if (rate == 0) continue;
    const Real t = -start_value / rate;
    if (rate > 0) {
      high = std::min(high, t);
    } else {
      low = std::max(low, t);
    }
  }
  if (low > t_closest || high < t_closest) low = high = t_closest;   // rounding guard
  const int end_count = (high - low) * delta.norm() > 1e-9 ? 2 : 1;  // clipped part over 1 nm
  for (int e = 0; e < end_count; ++e) {
    const Vec3 core = start + (e == 0 ? low : high) * delta;
    const Real height = normal.dot(core) - offset;
    if (height - radius >= margin) continue;
    out->Add(normal, core - radius * normal, core - height * normal,
             1 + 2 * static_cast<std::uint32_t>(face) + static_cast<std::uint32_t>(e));
  }
}

}  // namespace


int Polytope::SupportVertex(const Vec3& direction) const {
  // TODO(hull): hill-climb on ConvexHull::vertex_neighbors for large hulls
  const Vec3 local = rotation.transpose() * direction;
  int best = 0;
  Real best_value = local.dot(vertices[0]);
  for (int v = 1; v < vertex_count; ++v) {
    const Real value = local.dot(vertices[v]);
    if (value > best_value) {
      best_value = value;
      best = v;
    }
  }
  return best;
}


Real Polytope::InnerScale() const {
  Vec3 mean = Vec3::Zero();
  for (int v = 0; v < vertex_count; ++v) mean += vertices[v];
  mean /= std::max(vertex_count, 1);
  Real smallest = std::numeric_limits<Real>::infinity();
  for (int f = 0; f < face_count; ++f) {
    smallest = std::min(smallest, faces[f].offset - faces[f].normal.dot(mean));
  }
  return smallest;
}


Polytope MakePolytope(const ConvexHull& hull, const PlacedShape& placed) {
  Polytope polytope;
  polytope.vertices = hull.vertices.data();
  polytope.vertex_count = static_cast<int>(hull.vertices.size());
  polytope.faces = hull.faces.data();
  polytope.face_count = static_cast<int>(hull.faces.size());
  polytope.face_vertices = hull.face_vertices.data();
  polytope.edges = hull.edges.data();
  polytope.edge_count = static_cast<int>(hull.edges.size());
  polytope.center = placed.center;
  polytope.rotation = placed.rotation;
  return polytope;
}


BoxPolytope::BoxPolytope(const Vec3& half) {
  for (int i = 0; i < 8; ++i) {
    vertices[i] = Vec3((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(),
                       (i & 4) ? half.z() : -half.z());
  }
  // loop about +axis_k in the (k1, k2) plane, reversed on the negative face
  constexpr int kLoop[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  int edge = 0;
  for (int k = 0; k < 3; ++k) {
    const int k1 = (k + 1) % 3;
    const int k2 = (k + 2) % 3;
    for (int positive = 0; positive < 2; ++positive) {
      const int f = 2 * k + positive;
      faces[f].normal = (positive ? 1.0 : -1.0) * Vec3::Unit(k);
      faces[f].offset = half(k);
      faces[f].first = 4 * f;
      faces[f].count = 4;
      for (int v = 0; v < 4; ++v) {
        const int corner = positive ? v : (4 - v) % 4;
        face_vertices[4 * f + v] =
            (positive << k) | (kLoop[corner][0] << k1) | (kLoop[corner][1] << k2);
      }
    }
    // the four edges along axis k
    for (int other = 0; other < 4; ++other) {
      const int base = ((other & 1) << k1) | (((other >> 1) & 1) << k2);
      edges[edge++] = {base, base | (1 << k)};
    }
  }
}


Polytope BoxPolytope::Placed(const Vec3& center, const Mat3& rotation) const {
  Polytope polytope;
  polytope.vertices = vertices.data();
  polytope.vertex_count = 8;
  polytope.faces = faces.data();
  polytope.face_count = 6;
  polytope.face_vertices = face_vertices.data();
  polytope.edges = edges.data();
  polytope.edge_count = 12;
  polytope.center = center;
  polytope.rotation = rotation;
  return polytope;
}


ConvexSupport PolytopeSupport(const Polytope* polytope) {
  return {&PolytopeSupportPoint, polytope};
}


bool PolytopeFace(const Polytope& polytope, int f, ContactFeature* feature) {
  const ConvexHull::Face& face = polytope.faces[f];
  if (face.count > kMaxFeaturePoints) return false;
  feature->count = face.count;
  for (int k = 0; k < face.count; ++k) {
    const int v = polytope.face_vertices[face.first + k];
    feature->points[k] = polytope.Vertex(v);
    feature->ids[k] = static_cast<std::uint32_t>(v);
  }
  feature->normal = polytope.FaceNormal(f);
  feature->id = static_cast<std::uint32_t>(f);
  return true;
}


int IncidentFace(const Polytope& polytope, const Vec3& normal) {
  return MostAlignedFace(polytope, -normal);
}


int MostAlignedFace(const Polytope& polytope, const Vec3& direction) {
  int best = 0;
  Real best_value = polytope.FaceNormal(0).dot(direction);
  for (int f = 1; f < polytope.face_count; ++f) {
    const Real value = polytope.FaceNormal(f).dot(direction);
    if (value > best_value + 1e-12) {
      best_value = value;
      best = f;
    }
  }
  return best;
}


namespace {

// the spread choice of ReduceToFour among `count` (> 4) candidate points
int ReduceToFourSpread(const Vec3* points, const Real* separation, int count, const Vec3& normal,
                       Real length_scale, std::array<int, 4>* chosen) {
  std::array<bool, kMaxClipPoints> taken{};
  std::array<Real, kMaxClipPoints> score{};
  // deepest (smallest separation)
  for (int i = 0; i < count; ++i) score[i] = -separation[i];
  const int first = FirstNearMax(score.data(), count, taken.data(), 1e-4 * length_scale);
  taken[first] = true;
  // farthest from the deepest
  const Real area_tolerance = 1e-6 * length_scale * length_scale;
  for (int i = 0; i < count; ++i) score[i] = (points[i] - points[first]).squaredNorm();
  const int second = FirstNearMax(score.data(), count, taken.data(), area_tolerance);
  taken[second] = true;
  // largest triangle with the first two
  const Vec3 base = points[second] - points[first];
  for (int i = 0; i < count; ++i) {
    score[i] = std::abs(base.cross(points[i] - points[first]).dot(normal));
  }
  const int third = FirstNearMax(score.data(), count, taken.data(), area_tolerance);
  taken[third] = true;
  // most area added outside the triangle (its edges oriented counter-clockwise about `normal`)
  const std::array<int, 3> corner = {first, second, third};
  const Real orientation =
      base.cross(points[third] - points[first]).dot(normal) >= 0 ? Real{1} : Real{-1};
  for (int i = 0; i < count; ++i) {
    Real added = -std::numeric_limits<Real>::infinity();
    for (int e = 0; e < 3; ++e) {
      const Vec3& from = points[corner[e]];
      const Vec3& to = points[corner[(e + 1) % 3]];
      added = std::max(added, -orientation * (to - from).cross(points[i] - from).dot(normal));
    }
    score[i] = added;
  }
  const int fourth = FirstNearMax(score.data(), count, taken.data(), area_tolerance);
  std::array<int, 4> picked = {first, second, third, fourth};
  std::sort(picked.begin(), picked.end());
  *chosen = picked;
  return 4;
}

}  // namespace


int ReduceToFour(const Vec3* points, const Real* separation, int count, const Vec3& normal,
                 Real length_scale, Real depth_band, std::array<int, 4>* chosen) {
  if (count <= 4) {
    for (int i = 0; i < count; ++i) (*chosen)[i] = i;
    return count;
  }
  // the candidates: points within `depth_band` of the deepest. A tilted body's far points,
  // still almost a margin away, would otherwise win on spread over the points next to the
  // deepest that are about to touch, and those would sink in unseen and be pushed out (a
  // rocking body gaining energy)
  const Real deepest = *std::min_element(separation, separation + count);
  std::array<int, kMaxClipPoints> band{};
  int band_count = 0;
  for (int i = 0; i < count; ++i) {
    if (separation[i] <= deepest + depth_band) band[band_count++] = i;
  }
  if (band_count > 4) {
    std::array<Vec3, kMaxClipPoints> band_points;
    std::array<Real, kMaxClipPoints> band_separation{};
    for (int k = 0; k < band_count; ++k) {
      band_points[k] = points[band[k]];
      band_separation[k] = separation[band[k]];
    }
    std::array<int, 4> picked{};
    ReduceToFourSpread(band_points.data(), band_separation.data(), band_count, normal, length_scale,
                       &picked);
    for (int k = 0; k < 4; ++k) (*chosen)[k] = band[picked[k]];
    std::sort(chosen->begin(), chosen->end());
    return 4;
  }
  // few points near the deepest: all of them, then the next deepest (ties to the lower index)
  std::array<int, kMaxClipPoints> order{};
  for (int i = 0; i < count; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.begin() + count,
                   [&](int x, int y) { return separation[x] < separation[y]; });
  for (int k = 0; k < 4; ++k) (*chosen)[k] = order[k];
  std::sort(chosen->begin(), chosen->end());
  return 4;
}


int AddClippedContact(const ContactFeature& reference, const ContactFeature& incident,
                      bool reference_is_a, Real margin, Real length_scale, Manifold* out) {
  const Vec3& face_normal = reference.normal;  // outward from the reference, towards incident
  const Vec3 face_point = reference.points[0];
  ClipPolygon polygon{};
  for (int v = 0; v < incident.count; ++v) polygon[v] = {incident.points[v], incident.ids[v]};
  int count = incident.count;
  const bool closed = incident.count >= 3;

  // clip against the side planes of the reference polygon (normals (q − p) × n, outward)
  ClipPolygon clipped{};
  for (int k = 0; k < reference.count && count > 0; ++k) {
    const Vec3& p = reference.points[k];
    const Vec3& q = reference.points[(k + 1) % reference.count];
    const Vec3 side = (q - p).cross(face_normal).normalized();
    const Real offset = side.dot(p) + kClipSlack * length_scale;
    count = ClipAgainstPlane(polygon, count, closed && count >= 3, side, offset, k, &clipped);
    polygon = clipped;
  }

  // keep the points below the margin over the reference face
  std::array<Vec3, kMaxClipPoints> kept;
  std::array<std::uint32_t, kMaxClipPoints> codes{};
  std::array<Real, kMaxClipPoints> separation{};
  int kept_count = 0;
  for (int v = 0; v < count; ++v) {
    const Real height = face_normal.dot(polygon[v].point - face_point);
    if (height >= margin) continue;
    separation[kept_count] = height;
    codes[kept_count] = polygon[v].code;
    kept[kept_count++] = polygon[v].point;
  }
  std::array<int, 4> chosen{};
  const int chosen_count = ReduceToFour(kept.data(), separation.data(), kept_count, face_normal,
                                        length_scale, kDepthBandOfMargin * margin, &chosen);

  const Vec3 normal_ba = reference_is_a ? Vec3(-face_normal) : face_normal;
  const std::uint32_t prefix = (reference_is_a ? 0u : 1u << 31) | ((reference.id & 0x7FFu) << 19);
  for (int c = 0; c < chosen_count; ++c) {
    const int i = chosen[c];
    const Vec3 on_face = kept[i] - separation[i] * face_normal;
    const std::uint32_t feature = prefix | (codes[i] & 0x7FFFFu);
    if (reference_is_a) {
      out->Add(normal_ba, on_face, kept[i], feature);
    } else {
      out->Add(normal_ba, kept[i], on_face, feature);
    }
  }
  return chosen_count;
}


void HullVsPlane(const ConvexHull& hull, const PlacedShape& placed, const PlacedShape& plane,
                 Real margin, Manifold* out) {
  const Polytope polytope = MakePolytope(hull, placed);
  const Vec3 normal = plane.rotation.col(2);
  // vertices below the margin, in index order
  std::array<Vec3, kMaxClipPoints> points;
  std::array<Real, kMaxClipPoints> heights{};
  std::array<std::uint32_t, kMaxClipPoints> ids{};
  int count = 0;
  int deepest = -1;
  Real deepest_height = std::numeric_limits<Real>::infinity();
  for (int v = 0; v < polytope.vertex_count; ++v) {
    const Vec3 point = polytope.Vertex(v);
    const Real height = normal.dot(point - plane.center);
    if (height >= margin) continue;
    if (height < deepest_height) {
      deepest_height = height;
      deepest = v;
    }
    if (count < kMaxClipPoints) {
      points[count] = point;
      heights[count] = height;
      ids[count++] = static_cast<std::uint32_t>(v);
    }
  }
  if (count == 0) return;
  // TODO(hull): more than kMaxClipPoints vertices under the plane keep the first ones and the
  // deepest (only very fine hulls sunk deep)
  if (deepest >= 0 && ids[count - 1] < static_cast<std::uint32_t>(deepest)) {
    points[count - 1] = polytope.Vertex(deepest);
    heights[count - 1] = deepest_height;
    ids[count - 1] = static_cast<std::uint32_t>(deepest);
  }
  // ranked by the lowest height each point reaches within the step at the bodies' motion
  std::array<Real, kMaxClipPoints> predicted{};
  for (int i = 0; i < count; ++i) {
    const Real approach =
        normal.dot(placed.StepDisplacement(points[i]) - plane.StepDisplacement(points[i]));
    predicted[i] = heights[i] + std::min<Real>(0, approach);
  }
  std::array<int, 4> chosen{};
  const int chosen_count =
      ReduceToFour(points.data(), predicted.data(), count, normal, polytope.InnerScale(),
                   kDepthBandOfMargin * margin, &chosen);
  for (int c = 0; c < chosen_count; ++c) {
    const int i = chosen[c];
    out->Add(normal, points[i], points[i] - heights[i] * normal, ids[i]);
  }
}


void HullVsSphere(const ConvexHull& hull, const PlacedShape& placed, const PlacedShape& sphere,
                  Real margin, Manifold* out) {
  const Polytope polytope = MakePolytope(hull, placed);
  const int first = out->count;
  RoundVsPolytope(sphere.center, sphere.center, sphere.geometry->radius, polytope, false, margin,
                  out);
  SwapSidesFrom(first, out);
}


void HullVsCapsule(const ConvexHull& hull, const PlacedShape& placed, const PlacedShape& capsule,
                   Real margin, Manifold* out) {
  const Polytope polytope = MakePolytope(hull, placed);
  const Vec3 half = capsule.geometry->half_length * capsule.rotation.col(2);
  const int first = out->count;
  RoundVsPolytope(capsule.center - half, capsule.center + half, capsule.geometry->radius, polytope,
                  true, margin, out);
  SwapSidesFrom(first, out);
}


void HullVsBox(const ConvexHull& hull, const PlacedShape& placed, const PlacedShape& box,
               Real margin, Manifold* out) {
  const BoxPolytope box_polytope(box.geometry->half_extents);
  PolytopeVsPolytope(MakePolytope(hull, placed), box_polytope.Placed(box.center, box.rotation),
                     margin, out);
}


void HullVsHull(const ConvexHull& hull_a, const PlacedShape& placed_a, const ConvexHull& hull_b,
                const PlacedShape& placed_b, Real margin, Manifold* out) {
  PolytopeVsPolytope(MakePolytope(hull_a, placed_a), MakePolytope(hull_b, placed_b), margin, out);
}

}  // namespace sim::collision_internal
