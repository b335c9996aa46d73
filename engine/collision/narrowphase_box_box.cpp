// Box–box narrow phase: separating-axis test over the 15 axes (face axes preferred within a small
// tolerance, for stable manifolds), then either a face contact (the incident face clipped against
// the reference face's side planes, Sutherland–Hodgman, reduced to at most four points) or an
// edge–edge contact (one point at the closest points of the two edges).
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/collision/narrowphase.h"

namespace sim::collision_internal {

namespace {

// preference for face axes: another axis must separate more by this fraction of the smallest
// half extent to be chosen instead (B's faces over A's, edges over faces)
constexpr Real kFaceAxisTolerance = 1e-3;
constexpr Real kEdgeAxisTolerance = 5e-3;
// the reference face's side planes are moved out by this fraction of the smallest half extent so
// incident vertices lying on them (flush stacks) are kept as vertices under tiny perturbations
constexpr Real kClipSlack = 1e-5;
// edge axes from edges closer to parallel than this (sine) are skipped
constexpr Real kParallelEdgeSine = 1e-6;

struct Box {
  Vec3 center;
  Mat3 rotation;
  Vec3 half;
};

// half width of a box's projection on a unit axis [m]
Real ProjectedRadius(const Box& box, const Vec3& axis) {
  return box.half(0) * std::abs(box.rotation.col(0).dot(axis)) +
         box.half(1) * std::abs(box.rotation.col(1).dot(axis)) +
         box.half(2) * std::abs(box.rotation.col(2).dot(axis));
}

// polygon vertex with its feature code: incident corner 0..7, or 8 + 2·plane + (leaving) for a
// point created by clipping against side plane `plane`
struct ClipVertex {
  Vec3 point;
  std::uint32_t code;
};

constexpr int kMaxPolygon = 8;  // 4 corners, at most one more per clip plane
using Polygon = std::array<ClipVertex, kMaxPolygon>;

// keeps the part of `in` where axis·x ≤ offset (Sutherland–Hodgman); returns the vertex count
int ClipPolygon(const Polygon& in, int count, const Vec3& axis, Real offset, int plane,
                Polygon* out) {
  int out_count = 0;
  for (int v = 0; v < count; ++v) {
    const ClipVertex& current = in[v];
    const ClipVertex& next = in[(v + 1) % count];
    const Real current_distance = axis.dot(current.point) - offset;
    const Real next_distance = axis.dot(next.point) - offset;
    const bool current_inside = current_distance <= 0;
    if (current_inside && out_count < kMaxPolygon) (*out)[out_count++] = current;
    if (current_inside != (next_distance <= 0) && out_count < kMaxPolygon) {
      const Real t = current_distance / (current_distance - next_distance);
      const std::uint32_t code = 8 + 2 * static_cast<std::uint32_t>(plane) + (current_inside);
      (*out)[out_count++] = {current.point + t * (next.point - current.point), code};
    }
  }
  return out_count;
}

// index of the first value within `tolerance` of the largest one (stable under tiny changes)
template <typename Values>
int FirstNearMax(const Values& values, int count, const std::array<bool, kMaxPolygon>& taken,
                 Real tolerance) {
  Real largest = -std::numeric_limits<Real>::infinity();
  for (int i = 0; i < count; ++i) {
    if (!taken[i]) largest = std::max(largest, values[i]);
  }
  for (int i = 0; i < count; ++i) {
    if (!taken[i] && values[i] >= largest - tolerance) return i;
  }
  return -1;
}

// chooses at most four of `count` points: the deepest, the farthest from it, the one spanning the
// largest triangle with both, and the one adding the most area; returns them in polygon order
int ReduceToFour(const Polygon& polygon, const std::array<Real, kMaxPolygon>& separation, int count,
                 const Vec3& normal, Real length_scale, std::array<int, 4>* chosen) {
  std::array<bool, kMaxPolygon> taken{};
  std::array<Real, kMaxPolygon> score{};
  const auto point = [&](int i) -> const Vec3& { return polygon[i].point; };
  // deepest (smallest separation)
  for (int i = 0; i < count; ++i) score[i] = -separation[i];
  const int first = FirstNearMax(score, count, taken, 1e-4 * length_scale);
  taken[first] = true;
  // farthest from the deepest
  for (int i = 0; i < count; ++i) score[i] = (point(i) - point(first)).squaredNorm();
  const int second = FirstNearMax(score, count, taken, 1e-6 * length_scale * length_scale);
  taken[second] = true;
  // largest triangle with the first two
  const Vec3 base = point(second) - point(first);
  for (int i = 0; i < count; ++i) {
    score[i] = std::abs(base.cross(point(i) - point(first)).dot(normal));
  }
  const int third = FirstNearMax(score, count, taken, 1e-6 * length_scale * length_scale);
  taken[third] = true;
  // most area added outside the triangle (its edges oriented counter-clockwise about `normal`)
  const std::array<int, 3> corner = {first, second, third};
  const Real orientation =
      base.cross(point(third) - point(first)).dot(normal) >= 0 ? Real{1} : Real{-1};
  for (int i = 0; i < count; ++i) {
    Real added = -std::numeric_limits<Real>::infinity();
    for (int e = 0; e < 3; ++e) {
      const Vec3& from = point(corner[e]);
      const Vec3& to = point(corner[(e + 1) % 3]);
      added = std::max(added, -orientation * (to - from).cross(point(i) - from).dot(normal));
    }
    score[i] = added;
  }
  const int fourth = FirstNearMax(score, count, taken, 1e-6 * length_scale * length_scale);
  std::array<int, 4> picked = {first, second, third, fourth};
  std::sort(picked.begin(), picked.end());
  *chosen = picked;
  return 4;
}

// face contact: `reference` owns the face of axis `axis` whose outward normal is `face_normal`
// (towards the incident box); `normal_ba` is the contact normal from B to A
void AddFaceContact(const Box& reference, const Box& incident, bool reference_is_a, int axis,
                    const Vec3& face_normal, const Vec3& normal_ba, Real margin, Real length_scale,
                    Manifold* out) {
  const Real face_sign = reference.rotation.col(axis).dot(face_normal) >= 0 ? 1.0 : -1.0;
  const Vec3 face_center =
      reference.center + face_sign * reference.half(axis) * reference.rotation.col(axis);
  const std::uint32_t face_id = static_cast<std::uint32_t>(2 * axis + (face_sign > 0));

  // incident face: the face of the incident box most anti-parallel to the reference normal
  int incident_axis = 0;
  for (int k = 1; k < 3; ++k) {
    if (std::abs(incident.rotation.col(k).dot(face_normal)) >
        std::abs(incident.rotation.col(incident_axis).dot(face_normal)) + 1e-12) {
      incident_axis = k;
    }
  }
  const Real incident_sign = incident.rotation.col(incident_axis).dot(face_normal) > 0 ? -1.0 : 1.0;
  const int k1 = (incident_axis + 1) % 3;
  const int k2 = (incident_axis + 2) % 3;
  constexpr Real kLoop[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  Polygon polygon{};
  for (int v = 0; v < 4; ++v) {
    Vec3 local;
    local(incident_axis) = incident_sign * incident.half(incident_axis);
    local(k1) = kLoop[v][0] * incident.half(k1);
    local(k2) = kLoop[v][1] * incident.half(k2);
    std::uint32_t corner = 0;
    for (int m = 0; m < 3; ++m) corner |= (local(m) > 0 ? 1u : 0u) << m;
    polygon[v] = {incident.center + incident.rotation * local, corner};
  }

  // clip against the four side planes of the reference face
  int count = 4;
  Polygon clipped{};
  int plane = 0;
  for (const int j : {(axis + 1) % 3, (axis + 2) % 3}) {
    for (const Real sign : {1.0, -1.0}) {
      const Vec3 side_normal = sign * reference.rotation.col(j);
      const Real offset =
          side_normal.dot(reference.center) + reference.half(j) + kClipSlack * length_scale;
      count = ClipPolygon(polygon, count, side_normal, offset, plane++, &clipped);
      polygon = clipped;
    }
  }

  // keep the vertices below the margin over the reference face
  Polygon kept{};
  std::array<Real, kMaxPolygon> separation{};
  int kept_count = 0;
  for (int v = 0; v < count; ++v) {
    const Real height = face_normal.dot(polygon[v].point - face_center);
    if (height >= margin) continue;
    separation[kept_count] = height;
    kept[kept_count++] = polygon[v];
  }
  std::array<int, 4> chosen = {0, 1, 2, 3};
  const int chosen_count = kept_count > 4 ? ReduceToFour(kept, separation, kept_count, face_normal,
                                                         length_scale, &chosen)
                                          : kept_count;

  const std::uint32_t prefix = (reference_is_a ? 0u : 256u) | (face_id << 4);
  for (int c = 0; c < chosen_count; ++c) {
    const ClipVertex& vertex = kept[chosen[c]];
    const Vec3 on_face = vertex.point - separation[chosen[c]] * face_normal;
    const std::uint32_t feature = prefix | vertex.code;
    if (reference_is_a) {
      out->Add(normal_ba, on_face, vertex.point, feature);
    } else {
      out->Add(normal_ba, vertex.point, on_face, feature);
    }
  }
}

// the edge of `box` parallel to its axis `axis` that is extreme along `direction`; returns the
// edge id (4·axis + sign bits of the two other axes) and its end points
std::uint32_t ExtremeEdge(const Box& box, int axis, const Vec3& direction, Vec3* start, Vec3* end) {
  Vec3 middle = box.center;
  std::uint32_t id = 4 * static_cast<std::uint32_t>(axis);
  for (int m = 1; m < 3; ++m) {
    const int other = (axis + m) % 3;
    const bool positive = box.rotation.col(other).dot(direction) > 0;
    middle += (positive ? 1.0 : -1.0) * box.half(other) * box.rotation.col(other);
    if (positive) id |= 1u << (m - 1);
  }
  const Vec3 half_edge = box.half(axis) * box.rotation.col(axis);
  *start = middle - half_edge;
  *end = middle + half_edge;
  return id;
}

}  // namespace


void BoxVsBox(const PlacedShape& shape_a, const PlacedShape& shape_b, Real margin, Manifold* out) {
  const Box a{shape_a.center, shape_a.rotation, shape_a.geometry->half_extents};
  const Box b{shape_b.center, shape_b.rotation, shape_b.geometry->half_extents};
  const Vec3 offset = a.center - b.center;
  const Real length_scale = std::min(a.half.minCoeff(), b.half.minCoeff());

  // face axes of A, then of B (B's must separate more by the tolerance to win)
  Real best_face_separation = -std::numeric_limits<Real>::infinity();
  bool face_of_a = true;
  int face_axis = 0;
  for (int i = 0; i < 3; ++i) {
    const Vec3 axis = a.rotation.col(i);
    const Real separation = std::abs(offset.dot(axis)) - a.half(i) - ProjectedRadius(b, axis);
    if (separation >= margin) return;
    if (separation > best_face_separation) {
      best_face_separation = separation;
      face_axis = i;
    }
  }
  for (int j = 0; j < 3; ++j) {
    const Vec3 axis = b.rotation.col(j);
    const Real separation = std::abs(offset.dot(axis)) - ProjectedRadius(a, axis) - b.half(j);
    if (separation >= margin) return;
    if (separation > best_face_separation + kFaceAxisTolerance * length_scale) {
      best_face_separation = separation;
      face_of_a = false;
      face_axis = j;
    }
  }

  // edge axes: cross products of an edge of A and an edge of B
  Real best_edge_separation = -std::numeric_limits<Real>::infinity();
  int edge_a = -1;
  int edge_b = -1;
  Vec3 edge_axis = Vec3::UnitZ();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      Vec3 axis = a.rotation.col(i).cross(b.rotation.col(j));
      const Real length = axis.norm();
      if (length < kParallelEdgeSine) continue;
      axis /= length;
      const Real separation =
          std::abs(offset.dot(axis)) - ProjectedRadius(a, axis) - ProjectedRadius(b, axis);
      if (separation >= margin) return;
      if (separation > best_edge_separation) {
        best_edge_separation = separation;
        edge_a = i;
        edge_b = j;
        edge_axis = axis;
      }
    }
  }

  // edge–edge: one point at the closest points of the two edges
  if (edge_a >= 0 &&
      best_edge_separation > best_face_separation + kEdgeAxisTolerance * length_scale) {
    const Vec3 normal = offset.dot(edge_axis) >= 0 ? edge_axis : Vec3(-edge_axis);
    Vec3 a_start, a_end, b_start, b_end;
    const std::uint32_t id_a = ExtremeEdge(a, edge_a, -normal, &a_start, &a_end);
    const std::uint32_t id_b = ExtremeEdge(b, edge_b, normal, &b_start, &b_end);
    Real s = 0;
    Real t = 0;
    ClosestPointsOfSegments(a_start, a_end, b_start, b_end, &s, &t);
    const Vec3 point_a = a_start + s * (a_end - a_start);
    const Vec3 point_b = b_start + t * (b_end - b_start);
    if (normal.dot(point_a - point_b) >= margin) return;
    out->Add(normal, point_a, point_b, 512u | (id_a << 4) | id_b);
    return;
  }

  // face contact: the normal is the reference face axis oriented from B to A
  const Box& reference = face_of_a ? a : b;
  const Vec3 axis = reference.rotation.col(face_axis);
  const Vec3 normal = offset.dot(axis) >= 0 ? axis : Vec3(-axis);
  const Vec3 face_normal = face_of_a ? Vec3(-normal) : normal;
  AddFaceContact(reference, face_of_a ? b : a, face_of_a, face_axis, face_normal, normal, margin,
                 length_scale, out);
}

}  // namespace sim::collision_internal
