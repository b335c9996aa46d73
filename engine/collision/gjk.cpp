// GJK distance and EPA penetration on support mappings (see gjk.h for the method and sources).
#include "engine/collision/gjk.h"

#include <array>
#include <cmath>
#include <limits>

namespace sim::collision_internal {

namespace {

// GJK stops when |v|² − vᵀw ≤ this·|v|²: the distance is then within ~1e-12 of |v| relative
constexpr Real kGjkRelativeTolerance = 1e-12;
// enough for polytopes of hundreds of vertices and for curved sets at the relative tolerance
constexpr int kGjkMaxIterations = 128;
// distances below this fraction of the length scale count as contact (origin inside)
constexpr Real kOverlapTolerance = 1e-10;
// EPA stops when the support along the best facet is within this fraction of the length scale
constexpr Real kEpaTolerance = 1e-11;
// EPA capacity: stack arrays of about 50 kB; reaching it ends EPA with `converged` = false
constexpr int kEpaMaxVertices = 256;
constexpr int kEpaMaxFaces = 2 * kEpaMaxVertices;
constexpr int kEpaMaxHorizon = 3 * kEpaMaxVertices;

// a vertex of the Minkowski difference A − B with the points of A and B that made it
struct SupportPoint {
  Vec3 w;
  Vec3 a;
  Vec3 b;
};

SupportPoint Support(const ConvexSupport& a, const ConvexSupport& b, const Vec3& direction) {
  const Vec3 point_a = a(direction);
  const Vec3 point_b = b(-direction);
  return {point_a - point_b, point_a, point_b};
}

struct Simplex {
  std::array<SupportPoint, 4> vertices;
  std::array<Real, 4> weights{};  // barycentric weights of the closest point
  int count = 0;
};

// keeps the vertices listed in `keep` with the given weights
void Reduce(Simplex* simplex, std::initializer_list<int> keep,
            std::initializer_list<Real> weights) {
  std::array<SupportPoint, 4> kept;
  int count = 0;
  for (const int index : keep) kept[count++] = simplex->vertices[index];
  int i = 0;
  for (const Real weight : weights) simplex->weights[i++] = weight;
  for (i = 0; i < count; ++i) simplex->vertices[i] = kept[i];
  simplex->count = count;
}

// closest point of segment (0, 1) to the origin
void SolveSegment(Simplex* s) {
  const Vec3& a = s->vertices[0].w;
  const Vec3 ab = s->vertices[1].w - a;
  const Real length_squared = ab.squaredNorm();
  const Real t = length_squared > 0 ? -a.dot(ab) / length_squared : Real{0};
  if (t <= 0) {
    Reduce(s, {0}, {1});
  } else if (t >= 1) {
    Reduce(s, {1}, {1});
  } else {
    Reduce(s, {0, 1}, {1 - t, t});
  }
}

// closest point of triangle (i, j, k) to the origin (Ericson §5.1.5 with p = 0); writes the
// vertices kept and their weights
int ClosestOnTriangle(const Simplex& s, int i, int j, int k, std::array<int, 3>* keep,
                      std::array<Real, 3>* weight) {
  const Vec3& a = s.vertices[i].w;
  const Vec3& b = s.vertices[j].w;
  const Vec3& c = s.vertices[k].w;
  const Vec3 ab = b - a;
  const Vec3 ac = c - a;
  const Real d1 = -ab.dot(a);
  const Real d2 = -ac.dot(a);
  if (d1 <= 0 && d2 <= 0) {
    *keep = {i, 0, 0};
    *weight = {1, 0, 0};
    return 1;
  }
  const Real d3 = -ab.dot(b);
  const Real d4 = -ac.dot(b);
  if (d3 >= 0 && d4 <= d3) {
    *keep = {j, 0, 0};
    *weight = {1, 0, 0};
    return 1;
  }
  const Real vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const Real v = d1 / (d1 - d3);
    *keep = {i, j, 0};
    *weight = {1 - v, v, 0};
    return 2;
  }
  const Real d5 = -ab.dot(c);
  const Real d6 = -ac.dot(c);
  if (d6 >= 0 && d5 <= d6) {
    *keep = {k, 0, 0};
    *weight = {1, 0, 0};
    return 1;
  }
  const Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const Real w = d2 / (d2 - d6);
    *keep = {i, k, 0};
    *weight = {1 - w, w, 0};
    return 2;
  }
  const Real va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const Real w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    *keep = {j, k, 0};
    *weight = {1 - w, w, 0};
    return 2;
  }
  const Real denominator = 1 / (va + vb + vc);
  const Real v = vb * denominator;
  const Real w = vc * denominator;
  *keep = {i, j, k};
  *weight = {1 - v - w, v, w};
  return 3;
}

Vec3 Combination(const Simplex& s, const std::array<int, 3>& keep,
                 const std::array<Real, 3>& weight, int count) {
  Vec3 point = Vec3::Zero();
  for (int m = 0; m < count; ++m) point += weight[m] * s.vertices[keep[m]].w;
  return point;
}

void ApplyTriangle(Simplex* s, const std::array<int, 3>& keep, const std::array<Real, 3>& weight,
                   int count) {
  if (count == 1) Reduce(s, {keep[0]}, {weight[0]});
  if (count == 2) Reduce(s, {keep[0], keep[1]}, {weight[0], weight[1]});
  if (count == 3) Reduce(s, {keep[0], keep[1], keep[2]}, {weight[0], weight[1], weight[2]});
}

// closest point of the tetrahedron to the origin; returns false when the origin is inside
bool SolveTetrahedron(Simplex* s) {
  // faces with the opposite vertex: the origin is outside a face when it and the opposite vertex
  // lie on different sides of its plane
  constexpr int kFaces[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
  Real best_distance = std::numeric_limits<Real>::infinity();
  std::array<int, 3> best_keep{};
  std::array<Real, 3> best_weight{};
  int best_count = 0;
  for (const auto& face : kFaces) {
    const Vec3& a = s->vertices[face[0]].w;
    const Vec3 normal = (s->vertices[face[1]].w - a).cross(s->vertices[face[2]].w - a);
    const Real side_origin = -normal.dot(a);
    const Real side_opposite = normal.dot(s->vertices[face[3]].w - a);
    if (side_origin * side_opposite > 0) continue;
    if (side_origin == 0 && side_opposite != 0) continue;  // origin on the face plane, inside
    std::array<int, 3> keep{};
    std::array<Real, 3> weight{};
    const int count = ClosestOnTriangle(*s, face[0], face[1], face[2], &keep, &weight);
    const Real distance = Combination(*s, keep, weight, count).squaredNorm();
    if (distance < best_distance) {
      best_distance = distance;
      best_keep = keep;
      best_weight = weight;
      best_count = count;
    }
  }
  if (best_count == 0) return false;
  ApplyTriangle(s, best_keep, best_weight, best_count);
  return true;
}

// updates the simplex to the sub-simplex nearest the origin; returns false when it holds it
bool SolveSimplex(Simplex* s) {
  switch (s->count) {
    case 1:
      s->weights[0] = 1;
      return true;
    case 2:
      SolveSegment(s);
      return true;
    case 3: {
      std::array<int, 3> keep{};
      std::array<Real, 3> weight{};
      const int count = ClosestOnTriangle(*s, 0, 1, 2, &keep, &weight);
      ApplyTriangle(s, keep, weight, count);
      return true;
    }
    default:
      return SolveTetrahedron(s);
  }
}

Vec3 ClosestPoint(const Simplex& s) {
  Vec3 v = Vec3::Zero();
  for (int i = 0; i < s.count; ++i) v += s.weights[i] * s.vertices[i].w;
  return v;
}

// runs GJK; returns true when the sets overlap, with the final simplex in `simplex`
bool RunGjk(const ConvexSupport& a, const ConvexSupport& b, Real length_scale, Simplex* simplex,
            int* iterations) {
  const Real overlap_squared = kOverlapTolerance * kOverlapTolerance * length_scale * length_scale;
  simplex->vertices[0] = Support(a, b, Vec3::UnitX());
  simplex->weights[0] = 1;
  simplex->count = 1;
  Vec3 v = simplex->vertices[0].w;
  for (*iterations = 0; *iterations < kGjkMaxIterations; ++*iterations) {
    const Real v_squared = v.squaredNorm();
    if (v_squared <= overlap_squared) return true;
    const SupportPoint w = Support(a, b, -v);
    // converged: the lower bound vᵀw/|v| is within tolerance of |v|
    if (v_squared - v.dot(w.w) <= kGjkRelativeTolerance * v_squared) return false;
    // a repeated vertex means no progress is possible
    for (int i = 0; i < simplex->count; ++i) {
      if (simplex->vertices[i].w == w.w) return false;
    }
    simplex->vertices[simplex->count++] = w;
    const Simplex previous = *simplex;
    if (!SolveSimplex(simplex)) return true;
    const Vec3 next = ClosestPoint(*simplex);
    // no decrease (rounding on curved sets): keep the previous answer
    if (next.squaredNorm() >= v_squared) {
      *simplex = previous;
      simplex->count -= 1;
      return false;
    }
    v = next;
  }
  return false;
}

}  // namespace


GjkResult GjkDistance(const ConvexSupport& a, const ConvexSupport& b, Real length_scale) {
  GjkResult result;
  Simplex simplex;
  result.overlapping = RunGjk(a, b, length_scale, &simplex, &result.iterations);
  if (result.overlapping) return result;
  for (int i = 0; i < simplex.count; ++i) {
    result.point_a += simplex.weights[i] * simplex.vertices[i].a;
    result.point_b += simplex.weights[i] * simplex.vertices[i].b;
  }
  result.distance = (result.point_a - result.point_b).norm();
  return result;
}


namespace {

struct EpaFace {
  std::array<int, 3> v;
  Vec3 normal;  // unit, outward
  Real distance;
  bool alive;
};

struct Epa {
  std::array<SupportPoint, kEpaMaxVertices> vertices;
  std::array<EpaFace, kEpaMaxFaces> faces;
  int vertex_count = 0;
  int face_count = 0;
  Vec3 interior = Vec3::Zero();

  // adds face (i, j, k) oriented away from the interior point; false when out of capacity
  bool AddFace(int i, int j, int k) {
    if (face_count >= kEpaMaxFaces) return false;
    const Vec3& p = vertices[i].w;
    Vec3 normal = (vertices[j].w - p).cross(vertices[k].w - p);
    if (normal.dot(p - interior) < 0) {
      std::swap(j, k);
      normal = -normal;
    }
    const Real length = normal.norm();
    EpaFace& face = faces[face_count++];
    face.v = {i, j, k};
    face.alive = true;
    if (length > 0) {
      face.normal = normal / length;
      face.distance = face.normal.dot(p);
    } else {
      // degenerate sliver: never the closest facet, still part of the boundary
      face.normal = Vec3::UnitZ();
      face.distance = std::numeric_limits<Real>::infinity();
    }
    return true;
  }
};

// grows a simplex of 1–3 points into a tetrahedron of positive volume; false if the difference
// set is flat (no solid)
bool CompleteTetrahedron(const ConvexSupport& a, const ConvexSupport& b, Real length_scale,
                         Simplex* s) {
  const Real tiny = 1e-9 * length_scale;
  static const std::array<Vec3, 6> kAxes = {Vec3::UnitX(),  Vec3::UnitY(),  Vec3::UnitZ(),
                                            -Vec3::UnitX(), -Vec3::UnitY(), -Vec3::UnitZ()};
  if (s->count == 1) {
    for (const Vec3& axis : kAxes) {
      const SupportPoint p = Support(a, b, axis);
      if ((p.w - s->vertices[0].w).norm() > tiny) {
        s->vertices[s->count++] = p;
        break;
      }
    }
    if (s->count < 2) return false;
  }
  if (s->count == 2) {
    const Vec3 direction = (s->vertices[1].w - s->vertices[0].w).normalized();
    int axis = 0;
    for (int m = 1; m < 3; ++m) {
      if (std::abs(direction(m)) < std::abs(direction(axis))) axis = m;
    }
    const Vec3 u = direction.cross(Vec3::Unit(axis)).normalized();
    const Vec3 v = direction.cross(u);
    for (const Vec3& search : {u, Vec3(-u), v, Vec3(-v)}) {
      const SupportPoint p = Support(a, b, search);
      if ((p.w - s->vertices[0].w).cross(direction).norm() > tiny) {
        s->vertices[s->count++] = p;
        break;
      }
    }
    if (s->count < 3) return false;
  }
  if (s->count == 3) {
    const Vec3& p0 = s->vertices[0].w;
    const Vec3 normal = (s->vertices[1].w - p0).cross(s->vertices[2].w - p0).normalized();
    for (const Vec3& search : {normal, Vec3(-normal)}) {
      const SupportPoint p = Support(a, b, search);
      if (std::abs(normal.dot(p.w - p0)) > tiny) {
        s->vertices[s->count++] = p;
        break;
      }
    }
    if (s->count < 4) return false;
  }
  return true;
}

}  // namespace


PenetrationResult EpaPenetration(const ConvexSupport& a, const ConvexSupport& b,
                                 Real length_scale) {
  PenetrationResult result;
  Simplex simplex;
  int iterations = 0;
  RunGjk(a, b, length_scale, &simplex, &iterations);
  if (!CompleteTetrahedron(a, b, length_scale, &simplex)) return result;

  // the initial tetrahedron, faces oriented away from its centroid
  Epa epa;
  for (int i = 0; i < 4; ++i) {
    epa.vertices[i] = simplex.vertices[i];
    epa.interior += 0.25 * simplex.vertices[i].w;
  }
  epa.vertex_count = 4;
  epa.AddFace(0, 1, 2);
  epa.AddFace(0, 3, 1);
  epa.AddFace(0, 2, 3);
  epa.AddFace(1, 3, 2);

  const Real tolerance = kEpaTolerance * length_scale;
  std::array<std::array<int, 2>, kEpaMaxHorizon> horizon;
  int best = -1;
  for (;;) {
    // the live facet nearest the origin (first on ties)
    best = -1;
    for (int f = 0; f < epa.face_count; ++f) {
      if (!epa.faces[f].alive) continue;
      if (best < 0 || epa.faces[f].distance < epa.faces[best].distance) best = f;
    }
    const EpaFace& closest = epa.faces[best];
    const SupportPoint w = Support(a, b, closest.normal);
    if (closest.normal.dot(w.w) - closest.distance <= tolerance) {
      result.converged = true;
      break;
    }
    if (epa.vertex_count >= kEpaMaxVertices) break;
    const int added = epa.vertex_count;
    epa.vertices[epa.vertex_count++] = w;

    // remove the facets that see the new vertex; their unshared edges form the horizon
    int horizon_count = 0;
    bool overflow = false;
    for (int f = 0; f < epa.face_count; ++f) {
      EpaFace& face = epa.faces[f];
      if (!face.alive) continue;
      const Real height = std::isfinite(face.distance)
                              ? face.normal.dot(w.w - epa.vertices[face.v[0]].w)
                              : Real{1};  // slivers always go
      if (height <= 0) continue;
      face.alive = false;
      for (int e = 0; e < 3; ++e) {
        const int from = face.v[e];
        const int to = face.v[(e + 1) % 3];
        int found = -1;
        for (int h = 0; h < horizon_count; ++h) {
          if (horizon[h][0] == to && horizon[h][1] == from) {
            found = h;
            break;
          }
        }
        if (found >= 0) {
          horizon[found] = horizon[--horizon_count];
        } else if (horizon_count < kEpaMaxHorizon) {
          horizon[horizon_count++] = {from, to};
        } else {
          overflow = true;
        }
      }
    }
    if (horizon_count == 0 || overflow) break;
    bool full = false;
    for (int h = 0; h < horizon_count && !full; ++h) {
      full = !epa.AddFace(horizon[h][0], horizon[h][1], added);
    }
    if (full) break;
  }

  // the closest point of the best facet's plane (barycentric in the facet)
  best = -1;
  for (int f = 0; f < epa.face_count; ++f) {
    if (!epa.faces[f].alive) continue;
    if (best < 0 || epa.faces[f].distance < epa.faces[best].distance) best = f;
  }
  const EpaFace& face = epa.faces[best];
  const Vec3 p = face.distance * face.normal;
  const Vec3& v0 = epa.vertices[face.v[0]].w;
  const Vec3 e1 = epa.vertices[face.v[1]].w - v0;
  const Vec3 e2 = epa.vertices[face.v[2]].w - v0;
  const Vec3 r = p - v0;
  const Real d11 = e1.dot(e1);
  const Real d12 = e1.dot(e2);
  const Real d22 = e2.dot(e2);
  const Real denominator = d11 * d22 - d12 * d12;
  Real l1 = 0;
  Real l2 = 0;
  if (denominator > 0) {
    l1 = (d22 * r.dot(e1) - d12 * r.dot(e2)) / denominator;
    l2 = (d11 * r.dot(e2) - d12 * r.dot(e1)) / denominator;
  }
  const Real l0 = 1 - l1 - l2;
  result.point_a = l0 * epa.vertices[face.v[0]].a + l1 * epa.vertices[face.v[1]].a +
                   l2 * epa.vertices[face.v[2]].a;
  result.point_b = l0 * epa.vertices[face.v[0]].b + l1 * epa.vertices[face.v[1]].b +
                   l2 * epa.vertices[face.v[2]].b;
  result.depth = std::max(face.distance, Real{0});
  result.normal = -face.normal;
  return result;
}


ConvexContact CalcConvexContact(const ConvexSupport& a, const ConvexSupport& b, Real length_scale) {
  ConvexContact contact;
  const GjkResult gjk = GjkDistance(a, b, length_scale);
  if (!gjk.overlapping && gjk.distance > kOverlapTolerance * length_scale) {
    contact.distance = gjk.distance;
    contact.normal = (gjk.point_a - gjk.point_b) / gjk.distance;
    contact.point_a = gjk.point_a;
    contact.point_b = gjk.point_b;
    return contact;
  }
  const PenetrationResult epa = EpaPenetration(a, b, length_scale);
  contact.distance = -epa.depth;
  contact.normal = epa.normal;
  contact.point_a = epa.point_a;
  contact.point_b = epa.point_b;
  contact.exact = epa.converged;
  return contact;
}

}  // namespace sim::collision_internal
