// Narrow phase of round shapes: sphere–sphere, sphere–capsule and capsule–capsule, all reduced to
// pairs of spheres placed at the closest points of their core points/segments. Two capsules lying
// side by side get two points (the ends of their overlap) so one resting on the other cannot rock.
#include <algorithm>
#include <cmath>

#include "engine/collision/narrowphase.h"

namespace sim::collision_internal {

namespace {

// segments closer to parallel than this (sine of the angle) give a two-point manifold
constexpr Real kParallelSine = 0.05;
// centres closer than this are treated as coincident (the normal falls back) [m]
constexpr Real kCoincidentDistance = 1e-12;

struct Segment {
  Vec3 start;
  Vec3 end;
};

Segment CapsuleSegment(const PlacedShape& capsule) {
  const Vec3 half = capsule.geometry->half_length * capsule.rotation.col(2);
  return {capsule.center - half, capsule.center + half};
}

}  // namespace


void ClosestPointsOfSegments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1,
                             Real* s, Real* t) {
  const Vec3 d1 = p1 - p0;
  const Vec3 d2 = q1 - q0;
  const Vec3 r = p0 - q0;
  const Real a = d1.squaredNorm();
  const Real e = d2.squaredNorm();
  const Real f = d2.dot(r);
  // degenerate segments (points)
  if (a <= 0 && e <= 0) {
    *s = 0;
    *t = 0;
    return;
  }
  if (a <= 0) {
    *s = 0;
    *t = std::clamp(f / e, Real{0}, Real{1});
    return;
  }
  const Real c = d1.dot(r);
  if (e <= 0) {
    *t = 0;
    *s = std::clamp(-c / a, Real{0}, Real{1});
    return;
  }
  // general case: s on the infinite lines, then clamped and t recomputed
  const Real b = d1.dot(d2);
  const Real denominator = a * e - b * b;
  Real s_value = denominator > 1e-14 * a * e
                     ? std::clamp((b * f - c * e) / denominator, Real{0}, Real{1})
                     : Real{0};
  Real t_value = (b * s_value + f) / e;
  if (t_value < 0) {
    t_value = 0;
    s_value = std::clamp(-c / a, Real{0}, Real{1});
  } else if (t_value > 1) {
    t_value = 1;
    s_value = std::clamp((b - c) / a, Real{0}, Real{1});
  }
  *s = s_value;
  *t = t_value;
}


void AddSpherePair(const Vec3& center_a, Real radius_a, const Vec3& center_b, Real radius_b,
                   const Vec3& fallback_normal, std::uint32_t feature, Real margin, Manifold* out) {
  const Vec3 delta = center_a - center_b;
  const Real distance = delta.norm();
  if (distance - radius_a - radius_b >= margin) return;
  const Vec3 normal = distance > kCoincidentDistance ? Vec3(delta / distance) : fallback_normal;
  out->Add(normal, center_a - radius_a * normal, center_b + radius_b * normal, feature);
}


void SphereVsSphere(const PlacedShape& a, const PlacedShape& b, Real margin, Manifold* out) {
  AddSpherePair(a.center, a.geometry->radius, b.center, b.geometry->radius, Vec3::UnitZ(), 0,
                margin, out);
}


void SphereVsCapsule(const PlacedShape& sphere, const PlacedShape& capsule, Real margin,
                     Manifold* out) {
  const Segment core = CapsuleSegment(capsule);
  const Real t = ClosestParameterOnSegment(core.start, core.end, sphere.center);
  const Vec3 closest = core.start + t * (core.end - core.start);
  AddSpherePair(sphere.center, sphere.geometry->radius, closest, capsule.geometry->radius,
                PerpendicularUnit(capsule.rotation.col(2)), 0, margin, out);
}


void CapsuleVsCapsule(const PlacedShape& a, const PlacedShape& b, Real margin, Manifold* out) {
  const Segment core_a = CapsuleSegment(a);
  const Segment core_b = CapsuleSegment(b);
  const Vec3 axis_a = a.rotation.col(2);
  const Vec3 axis_b = b.rotation.col(2);
  const Real radius_a = a.geometry->radius;
  const Real radius_b = b.geometry->radius;
  const Real half_a = a.geometry->half_length;

  // fallback normal for intersecting cores: ⟂ to A's axis, towards A
  Vec3 fallback = (a.center - b.center) - (a.center - b.center).dot(axis_a) * axis_a;
  fallback = fallback.norm() > kCoincidentDistance ? Vec3(fallback.normalized())
                                                   : PerpendicularUnit(axis_a);

  // nearly parallel cores: the two ends of their overlap along A's axis (features 1, 2)
  if (half_a > 0 && b.geometry->half_length > 0 && axis_a.cross(axis_b).norm() < kParallelSine) {
    const Real start_b = axis_a.dot(core_b.start - a.center);
    const Real end_b = axis_a.dot(core_b.end - a.center);
    const Real low = std::max(-half_a, std::min(start_b, end_b));
    const Real high = std::min(half_a, std::max(start_b, end_b));
    if (high - low > 0.01 * std::min(radius_a, radius_b)) {
      for (int end = 0; end < 2; ++end) {
        const Vec3 point_a = a.center + (end == 0 ? low : high) * axis_a;
        const Real t = ClosestParameterOnSegment(core_b.start, core_b.end, point_a);
        const Vec3 point_b = core_b.start + t * (core_b.end - core_b.start);
        AddSpherePair(point_a, radius_a, point_b, radius_b, fallback,
                      static_cast<std::uint32_t>(1 + end), margin, out);
      }
      return;
    }
  }

  // general case: one point at the closest points of the cores (feature 0)
  Real s = 0;
  Real t = 0;
  ClosestPointsOfSegments(core_a.start, core_a.end, core_b.start, core_b.end, &s, &t);
  const Vec3 point_a = core_a.start + s * (core_a.end - core_a.start);
  const Vec3 point_b = core_b.start + t * (core_b.end - core_b.start);
  Vec3 crossing = axis_a.cross(axis_b);
  if (crossing.norm() > kParallelSine) {
    crossing.normalize();
    if (crossing.dot(a.center - b.center) < 0) crossing = -crossing;
    fallback = crossing;
  }
  AddSpherePair(point_a, radius_a, point_b, radius_b, fallback, 0, margin, out);
}

}  // namespace sim::collision_internal
