// Ray casts against shapes, particles and soft surfaces (equations in raycast.h).
#include "engine/collision/raycast.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/geometry/analytic_sdf.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/state/state.h"

namespace sim {

namespace {

// directions this close to parallel to a plane or an axis are treated as parallel [-]
constexpr Real kParallel = 1e-12;
// sphere tracing: iterations, and the surface tolerance relative to the marched distance
constexpr int kSdfMaxSteps = 512;
constexpr Real kSdfTolerance = 1e-6;
// sphere tracing stops this far out when the caller gave no bound [m]
constexpr Real kSdfMaxRange = 1e3;

// a hit in the shape frame: distance t and surface normal (any orientation); on a mesh also the
// triangle and the point's barycentric weights
struct LocalHit {
  Real t = kInfinity;
  Vec3 normal = Vec3::UnitZ();
  int triangle = -1;
  Vec3 barycentric = Vec3::Zero();
  bool hit() const { return std::isfinite(t); }
};

// the interval of t where the ray is inside a convex set, with the normals where it enters and
// leaves (Cyrus–Beck); starts as the whole line
struct Interval {
  Real enter = -kInfinity;
  Real exit = kInfinity;
  Vec3 enter_normal = Vec3::UnitZ();
  Vec3 exit_normal = Vec3::UnitZ();
  bool empty = false;
};

// keeps the part of the ray where nᵀ(o + t d) ≤ offset (outward normal n)
void ClipHalfSpace(const Vec3& n, Real offset, const Vec3& o, const Vec3& d, Interval* in) {
  const Real denominator = n.dot(d);
  const Real distance = offset - n.dot(o);
  if (std::abs(denominator) < kParallel) {
    if (distance < 0) in->empty = true;
    return;
  }
  const Real t = distance / denominator;
  if (denominator < 0) {  // moving inwards: a lower bound
    if (t > in->enter) {
      in->enter = t;
      in->enter_normal = n;
    }
  } else if (t < in->exit) {  // moving outwards: an upper bound
    in->exit = t;
    in->exit_normal = n;
  }
}

// first crossing of a convex interval at t ≥ 0: the entry, or the exit from inside
LocalHit FirstCrossing(const Interval& in, Real max_distance) {
  LocalHit hit;
  if (in.empty || in.enter > in.exit || in.exit < 0) return hit;
  const bool inside = in.enter < 0;
  const Real t = inside ? in.exit : in.enter;
  if (t > max_distance || !std::isfinite(t)) return hit;
  hit.t = t;
  hit.normal = inside ? in.exit_normal : in.enter_normal;
  return hit;
}

// sphere of radius r at c: t² + 2 b t + c₀ = 0 with b = (o − c)·d, c₀ = |o − c|² − r²
LocalHit RaySphere(const Vec3& center, Real radius, const Vec3& o, const Vec3& d,
                   Real max_distance) {
  LocalHit hit;
  const Vec3 oc = o - center;
  const Real b = oc.dot(d);
  const Real c = oc.squaredNorm() - radius * radius;
  const Real discriminant = b * b - c;
  if (discriminant < 0) return hit;
  const Real root = std::sqrt(discriminant);
  Real t = -b - root;
  if (t < 0) t = -b + root;  // inside: the exit
  if (t < 0 || t > max_distance) return hit;
  hit.t = t;
  hit.normal = (oc + t * d) / radius;
  return hit;
}

// the slab |x_i| ≤ h_i as six half-spaces
void ClipBox(const Vec3& half, const Vec3& o, const Vec3& d, Interval* in) {
  for (int i = 0; i < 3; ++i) {
    const Vec3 axis = Vec3::Unit(i);
    ClipHalfSpace(axis, half[i], o, d, in);
    ClipHalfSpace(-axis, half[i], o, d, in);
  }
}

// infinite cylinder x² + y² ≤ r² around z: the quadratic in the xy components
void ClipInfiniteCylinder(Real radius, const Vec3& o, const Vec3& d, Interval* in) {
  const Real a = d.x() * d.x() + d.y() * d.y();
  const Real b = o.x() * d.x() + o.y() * d.y();
  const Real c = o.x() * o.x() + o.y() * o.y() - radius * radius;
  if (a < kParallel) {  // along the axis: inside everywhere or nowhere
    if (c > 0) in->empty = true;
    return;
  }
  const Real discriminant = b * b - a * c;
  if (discriminant < 0) {
    in->empty = true;
    return;
  }
  const Real root = std::sqrt(discriminant);
  const Real t0 = (-b - root) / a;
  const Real t1 = (-b + root) / a;
  auto radial = [&](Real t) {
    const Vec3 x = o + t * d;
    return Vec3(x.x(), x.y(), 0).normalized();
  };
  if (t0 > in->enter) {
    in->enter = t0;
    in->enter_normal = radial(t0);
  }
  if (t1 < in->exit) {
    in->exit = t1;
    in->exit_normal = radial(t1);
  }
}

// Möller–Trumbore, both faces; returns t and the barycentric (u, v) of p1, p2
bool RayTriangle(const Vec3& o, const Vec3& d, const Vec3& p0, const Vec3& p1, const Vec3& p2,
                 Real* t, Real* u, Real* v) {
  const Vec3 e1 = p1 - p0;
  const Vec3 e2 = p2 - p0;
  const Vec3 p = d.cross(e2);
  const Real det = e1.dot(p);
  if (std::abs(det) < kParallel * std::max(Real(1), e1.squaredNorm())) return false;
  const Real inv = 1 / det;
  const Vec3 s = o - p0;
  *u = s.dot(p) * inv;
  if (*u < 0 || *u > 1) return false;
  const Vec3 q = s.cross(e1);
  *v = d.dot(q) * inv;
  if (*v < 0 || *u + *v > 1) return false;
  *t = e2.dot(q) * inv;
  return *t >= 0;
}

// slab test of the ray against an axis-aligned box; the entry t (or 0 when inside) or +∞
Real RayBoxEntry(const Vec3& lower, const Vec3& upper, const Vec3& o, const Vec3& inv_d) {
  Real t_enter = 0;
  Real t_exit = kInfinity;
  for (int i = 0; i < 3; ++i) {
    Real t0 = (lower[i] - o[i]) * inv_d[i];
    Real t1 = (upper[i] - o[i]) * inv_d[i];
    if (t0 > t1) std::swap(t0, t1);
    // NaN (0·∞ for a ray in the slab's plane) keeps the bounds as they are
    if (t0 > t_enter) t_enter = t0;
    if (t1 < t_exit) t_exit = t1;
    if (t_enter > t_exit) return kInfinity;
  }
  return t_enter;
}

LocalHit RayMesh(const CollisionMesh& mesh, const Vec3& o, const Vec3& d, Real max_distance) {
  LocalHit hit;
  const TriangleBvh& bvh = mesh.bvh;
  if (bvh.empty()) return hit;
  const Vec3 inv_d = d.cwiseInverse();
  const std::vector<TriangleBvh::Node>& nodes = bvh.nodes();
  const std::vector<Vec3>& vertices = bvh.vertices();
  Real best = max_distance;
  // depth-first with an explicit stack, nearer subtrees are not sorted (picking is one query)
  int stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const TriangleBvh::Node& node = nodes[stack[--top]];
    if (RayBoxEntry(node.lower, node.upper, o, inv_d) > best) continue;
    if (node.count == 0) {
      stack[top++] = node.first;
      stack[top++] = node.first + 1;
      continue;
    }
    for (int i = node.first; i < node.first + node.count; ++i) {
      const std::array<int, 3>& tri = bvh.triangles()[bvh.order()[i]];
      Real t = 0, u = 0, v = 0;
      const Vec3& p0 = vertices[tri[0]];
      const Vec3& p1 = vertices[tri[1]];
      const Vec3& p2 = vertices[tri[2]];
      if (RayTriangle(o, d, p0, p1, p2, &t, &u, &v) && t <= best) {
        best = t;
        hit.t = t;
        hit.normal = (p1 - p0).cross(p2 - p0).normalized();
        hit.triangle = bvh.order()[i];
        hit.barycentric = Vec3(1 - u - v, u, v);
      }
    }
  }
  return hit;
}

// sphere tracing from outside the field; a ray starting inside hits at once
LocalHit RaySdf(const AnalyticSdf& sdf, const Vec3& o, const Vec3& d, Real max_distance) {
  LocalHit hit;
  const Real range = std::min(max_distance, kSdfMaxRange);
  Real t = 0;
  for (int step = 0; step < kSdfMaxSteps && t <= range; ++step) {
    const SdfSample sample = sdf.Sample(o + t * d);
    if (sample.distance < kSdfTolerance * (1 + t)) {
      hit.t = t;
      hit.normal = sample.gradient.normalized();
      return hit;
    }
    t += sample.distance;
  }
  return hit;
}


LocalHit RaycastLocal(const ShapeGeometry& g, const Vec3& o, const Vec3& d, Real max_distance) {
  Interval in;
  switch (g.type) {
    case ShapeType::kPlane: {
      LocalHit hit;
      if (std::abs(d.z()) < kParallel) return hit;
      const Real t = -o.z() / d.z();
      if (t < 0 || t > max_distance) return hit;
      hit.t = t;
      hit.normal = Vec3::UnitZ();
      return hit;
    }
    case ShapeType::kSphere:
      return RaySphere(Vec3::Zero(), g.radius, o, d, max_distance);
    case ShapeType::kBox:
      ClipBox(g.half_extents, o, d, &in);
      return FirstCrossing(in, max_distance);
    case ShapeType::kCylinder:
      ClipInfiniteCylinder(g.radius, o, d, &in);
      ClipHalfSpace(Vec3::UnitZ(), g.half_length, o, d, &in);
      ClipHalfSpace(-Vec3::UnitZ(), g.half_length, o, d, &in);
      return FirstCrossing(in, max_distance);
    case ShapeType::kCapsule: {
      // the side between the end circles, then the end spheres: the nearest of the three
      ClipInfiniteCylinder(g.radius, o, d, &in);
      ClipHalfSpace(Vec3::UnitZ(), g.half_length, o, d, &in);
      ClipHalfSpace(-Vec3::UnitZ(), g.half_length, o, d, &in);
      LocalHit best = FirstCrossing(in, max_distance);
      // a crossing of a cap plane lies inside an end sphere, which the sphere tests find
      if (best.hit() && std::abs(best.normal.z()) > 0.5) best = LocalHit();
      for (Real side : {Real(1), Real(-1)}) {
        const LocalHit end =
            RaySphere(Vec3(0, 0, side * g.half_length), g.radius, o, d, max_distance);
        if (end.t < best.t) best = end;
      }
      return best;
    }
    case ShapeType::kConvexHull:
      if (g.hull == nullptr) return LocalHit();
      for (const ConvexHull::Face& face : g.hull->faces) {
        ClipHalfSpace(face.normal, face.offset, o, d, &in);
      }
      return FirstCrossing(in, max_distance);
    case ShapeType::kMesh:
      return g.mesh != nullptr ? RayMesh(*g.mesh, o, d, max_distance) : LocalHit();
    case ShapeType::kSdf:
      return g.sdf != nullptr ? RaySdf(*g.sdf, o, d, max_distance) : LocalHit();
    case ShapeType::kNone:
      break;
  }
  return LocalHit();
}


// keeps `candidate` in `*best` when it is nearer
void KeepNearest(const RayHit& candidate, RayHit* best) {
  if (candidate.hit && candidate.distance < best->distance) *best = candidate;
}

}  // namespace


RayHit RaycastShape(const ShapeGeometry& geometry, const Pose& X_WS, const Vec3& origin,
                    const Vec3& direction, Real max_distance) {
  // the ray in the shape frame; distances are kept by the rigid transform
  const Quat q_SW = X_WS.q.conjugate();
  const Vec3 o_S = q_SW * (origin - X_WS.p);
  const Vec3 d_S = q_SW * direction;
  const LocalHit local = RaycastLocal(geometry, o_S, d_S, max_distance);
  RayHit hit;
  if (!local.hit()) return hit;
  hit.hit = true;
  hit.distance = local.t;
  hit.point = origin + local.t * direction;
  hit.normal = X_WS.q * local.normal;
  if (hit.normal.dot(direction) > 0) hit.normal = -hit.normal;
  hit.triangle = local.triangle;
  hit.barycentric = local.barycentric;
  return hit;
}


RayHit Raycast(const Model& model, const State& state, const Vec3& origin, const Vec3& direction,
               const RaycastOptions& options) {
  RayHit best;
  const Real length = direction.norm();
  if (!(length > 0) || !MatchesModel(state, model)) return best;
  const Vec3 d = direction / length;
  best.distance = options.max_distance;

  // shapes of bodies and of the world
  for (int s = 0; s < model.shape_count(); ++s) {
    const int body = model.shape_body[s];
    const bool is_static = body == kWorldBody || model.body_static[body] != 0;
    if (is_static && !options.static_shapes) continue;
    const Pose X_WS =
        body == kWorldBody ? model.shape_X_BS[s] : state.body_X_WB[body] * model.shape_X_BS[s];
    RayHit hit = RaycastShape(model.shape_geometry[s], X_WS, origin, d, best.distance);
    hit.shape = s;
    hit.body = body;
    KeepNearest(hit, &best);
  }

  // soft bodies: their deformed boundary triangles; the node nearest the hit is reported
  std::vector<unsigned char> in_soft_body(model.particle_count(), 0);
  for (int b = 0; b < static_cast<int>(model.soft_bodies.size()); ++b) {
    const SoftBody& soft = model.soft_bodies[b];
    for (int i = 0; i < soft.particle_count; ++i) in_soft_body[soft.first_particle + i] = 1;
    if (!options.soft_bodies) continue;
    for (int f = 0; f < static_cast<int>(soft.surface.size()); ++f) {
      const std::array<int, 3>& tri = soft.surface[f];
      const Vec3& p0 = state.particle_x_W[tri[0]];
      const Vec3& p1 = state.particle_x_W[tri[1]];
      const Vec3& p2 = state.particle_x_W[tri[2]];
      Real t = 0, u = 0, v = 0;
      if (!RayTriangle(origin, d, p0, p1, p2, &t, &u, &v) || t >= best.distance) continue;
      const Real w = 1 - u - v;
      best = RayHit();
      best.hit = true;
      best.distance = t;
      best.point = origin + t * d;
      best.normal = (p1 - p0).cross(p2 - p0).normalized();
      if (best.normal.dot(d) > 0) best.normal = -best.normal;
      best.soft_body = b;
      best.particle = w >= u && w >= v ? tri[0] : (u >= v ? tri[1] : tri[2]);
      best.triangle = f;
      best.barycentric = Vec3(w, u, v);
      for (int k = 0; k < 3; ++k) best.nodes[k] = tri[k] - soft.first_particle;
    }
  }

  // free particles: spheres of their contact radius
  if (options.particles) {
    for (int p = 0; p < model.particle_count(); ++p) {
      if (in_soft_body[p] || !(model.particle_radius[p] > 0)) continue;
      const LocalHit local =
          RaySphere(state.particle_x_W[p], model.particle_radius[p], origin, d, best.distance);
      if (!local.hit()) continue;
      best = RayHit();
      best.hit = true;
      best.distance = local.t;
      best.point = origin + local.t * d;
      best.normal = local.normal.dot(d) > 0 ? -local.normal : local.normal;
      best.particle = p;
    }
  }
  if (!best.hit) best.distance = std::numeric_limits<Real>::infinity();
  return best;
}

}  // namespace sim
