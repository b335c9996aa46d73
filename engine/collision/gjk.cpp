// GJK distance and EPA penetration on support mappings (see gjk.h for the method and sources).
#include "engine/collision/gjk.h"

#include <algorithm>
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
// the origin counts as inside a GJK tetrahedron only this far (fraction of the length scale)
// inside all its faces
constexpr Real kInsideTolerance = 1e-9;
// closest points nearer than this fraction of the length scale give no reliable direction
constexpr Real kNearContact = 1e-6;
// and the query is repeated with A moved by this fraction of the length scale
constexpr Real kNearContactShift = 1e-3;
// a GJK tetrahedron with volume below this fraction of its size cubed is flat
constexpr Real kFlatTetrahedron = 1e-9;
// EPA stops when the support along the best facet is within this fraction of the length scale
constexpr Real kEpaTolerance = 1e-9;
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

// closest point of the tetrahedron to the origin; returns false when the origin is inside by
// more than `tolerance` [m] from every face (a nearly flat tetrahedron on a flat part of the
// Minkowski difference must not report a point just outside it as inside)
bool SolveTetrahedron(Simplex* s, Real tolerance) {
  // faces with the opposite vertex: the origin is outside a face (or within the tolerance of
  // it) when its distance to the face plane, oriented away from the opposite vertex, is above
  // −tolerance
  constexpr int kFaces[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
  Real best_distance = std::numeric_limits<Real>::infinity();
  std::array<int, 3> best_keep{};
  std::array<Real, 3> best_weight{};
  int best_count = 0;
  for (const auto& face : kFaces) {
    const Vec3& a = s->vertices[face[0]].w;
    Vec3 normal = (s->vertices[face[1]].w - a).cross(s->vertices[face[2]].w - a);
    const Real length = normal.norm();
    if (length > 0) {
      normal /= length;
      if (normal.dot(s->vertices[face[3]].w - a) > 0) normal = -normal;
      if (-normal.dot(a) <= -tolerance) continue;
    }
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
bool SolveSimplex(Simplex* s, Real tolerance) {
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
      return SolveTetrahedron(s, tolerance);
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
    // a repeated vertex (to within the tolerance: curved sets return nearby points) means no
    // progress is possible
    for (int i = 0; i < simplex->count; ++i) {
      if ((simplex->vertices[i].w - w.w).norm() <= kOverlapTolerance * length_scale) return false;
    }
    simplex->vertices[simplex->count++] = w;
    const Simplex previous = *simplex;
    if (!SolveSimplex(simplex, kInsideTolerance * length_scale)) {
      // a flat tetrahedron cannot decide containment: stop with the previous answer instead
      const Vec3& p0 = previous.vertices[0].w;
      const Vec3 e1 = previous.vertices[1].w - p0;
      const Vec3 e2 = previous.vertices[2].w - p0;
      const Vec3 e3 = previous.vertices[3].w - p0;
      const Real size = std::max({e1.norm(), e2.norm(), e3.norm()});
      if (std::abs(e1.dot(e2.cross(e3))) > kFlatTetrahedron * size * size * size) return true;
      *simplex = previous;
      simplex->count -= 1;
      return false;
    }
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

  // adds face (i, j, k), turned away from the interior point when `orient` (the initial
  // tetrahedron; later faces inherit the winding of the horizon); false when out of capacity
  bool AddFace(int i, int j, int k, bool orient) {
    // reuse the first removed facet's slot, else append
    int slot = 0;
    while (slot < face_count && faces[slot].alive) ++slot;
    if (slot >= kEpaMaxFaces) return false;
    if (slot == face_count) ++face_count;
    const Vec3& p = vertices[i].w;
    Vec3 normal = (vertices[j].w - p).cross(vertices[k].w - p);
    if (orient && normal.dot(p - interior) < 0) {
      std::swap(j, k);
      normal = -normal;
    }
    const Real length = normal.norm();
    EpaFace& face = faces[slot];
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
  epa.AddFace(0, 1, 2, true);
  epa.AddFace(0, 3, 1, true);
  epa.AddFace(0, 2, 3, true);
  epa.AddFace(1, 3, 2, true);

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

    // remove the facets that see the new vertex, flood-filling over shared edges from the best
    // one (a connected set even where rounding makes the curved hull slightly non-convex); the
    // edges where the fill stops form the horizon, wound as the removed facets were
    int horizon_count = 0;
    bool overflow = false;
    std::array<int, kEpaMaxFaces> stack;
    int stack_count = 0;
    epa.faces[best].alive = false;
    stack[stack_count++] = best;
    while (stack_count > 0) {
      const std::array<int, 3> removed = epa.faces[stack[--stack_count]].v;
      for (int e = 0; e < 3; ++e) {
        const int from = removed[e];
        const int to = removed[(e + 1) % 3];
        // the live facet across this edge holds it the other way round
        int neighbor = -1;
        for (int g = 0; g < epa.face_count && neighbor < 0; ++g) {
          const EpaFace& face = epa.faces[g];
          if (!face.alive) continue;
          for (int m = 0; m < 3; ++m) {
            if (face.v[m] == to && face.v[(m + 1) % 3] == from) neighbor = g;
          }
        }
        if (neighbor < 0) continue;  // removed already: an inner edge
        EpaFace& face = epa.faces[neighbor];
        const Real height = std::isfinite(face.distance)
                                ? face.normal.dot(w.w - epa.vertices[face.v[0]].w)
                                : Real{1};  // slivers always go
        if (height > 0) {
          face.alive = false;
          stack[stack_count++] = neighbor;
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
      full = !epa.AddFace(horizon[h][0], horizon[h][1], added, false);
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


namespace {

// a support mapping translated by `offset`
struct ShiftedSupport {
  ConvexSupport base;
  Vec3 offset;
};

Vec3 ShiftedSupportPoint(const void* shape, const Vec3& direction) {
  const ShiftedSupport& shifted = *static_cast<const ShiftedSupport*>(shape);
  return shifted.base(direction) + shifted.offset;
}

// GJK when apart, else EPA; `overlapping` tells which
ConvexContact DirectContact(const ConvexSupport& a, const ConvexSupport& b, Real length_scale,
                            bool* overlapping) {
  ConvexContact contact;
  const GjkResult gjk = GjkDistance(a, b, length_scale);
  *overlapping = gjk.overlapping || gjk.distance <= kOverlapTolerance * length_scale;
  if (!*overlapping) {
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

}  // namespace


ConvexContact CalcConvexContact(const ConvexSupport& a, const ConvexSupport& b, Real length_scale) {
  bool overlapping = false;
  const ConvexContact direct = DirectContact(a, b, length_scale, &overlapping);
  if (overlapping || direct.distance > kNearContact * length_scale) return direct;
  // nearly touching: the direction a − b of GJK's tiny closest points is noise. A is moved by
  // −τ·n (n that guess) and queried again: deeper by τ if the guess was right (EPA is well
  // conditioned there), apart by τ if it was not; the answer is moved back along the new normal
  const Vec3 guess = direct.normal;
  const Real shift = kNearContactShift * length_scale;
  const ShiftedSupport shifted{a, -shift * guess};
  ConvexContact contact =
      DirectContact({&ShiftedSupportPoint, &shifted}, b, length_scale, &overlapping);
  contact.distance += shift * guess.dot(contact.normal);
  contact.point_a += shift * guess;
  return contact;
}

}  // namespace sim::collision_internal
