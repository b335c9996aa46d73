// Narrow phase of round shapes against boxes: sphere–box (closest point on the box, or the face of
// least penetration when the centre is inside) and capsule–box (exact minimum of the box's signed
// distance along the capsule segment; a capsule over a face is clipped to that face and gets up to
// two points, so one lying on a box does not rock).
#include <algorithm>
#include <cmath>

#include "engine/collision/narrowphase.h"

namespace sim::collision_internal {

namespace {

// signed distance from a point to a box centred at the origin (negative inside) [m]
Real BoxSignedDistance(const Vec3& point, const Vec3& half) {
  const Vec3 excess = point.cwiseAbs() - half;
  const Real outside = excess.cwiseMax(0.0).norm();
  const Real inside = std::min(excess.maxCoeff(), Real{0});
  return outside + inside;
}

// parameter t ∈ [0, 1] minimizing the box's signed distance along start + t·delta (box frame).
// The distance is convex in t and piecewise smooth, so its minimum is at an end, at the
// stationary point of a piece (fixed set of clamped coordinates), or at a kink of the inside part
// (two of the six face functions ±p_j − h_j equal); all of them are evaluated exactly.
Real MinimizeBoxDistanceOnSegment(const Vec3& start, const Vec3& delta, const Vec3& half) {
  // breakpoints: the ends and the crossings of the six face planes
  std::array<Real, 8> breaks{};
  int break_count = 0;
  breaks[break_count++] = 0;
  breaks[break_count++] = 1;
  for (int j = 0; j < 3; ++j) {
    if (delta(j) == 0) continue;
    for (const Real sign : {-1.0, 1.0}) {
      const Real t = (sign * half(j) - start(j)) / delta(j);
      if (t > 0 && t < 1) breaks[break_count++] = t;
    }
  }
  // insertion sort (at most 8 values)
  for (int i = 1; i < break_count; ++i) {
    for (int k = i; k > 0 && breaks[k] < breaks[k - 1]; --k) std::swap(breaks[k], breaks[k - 1]);
  }

  std::array<Real, 32> candidates{};
  int candidate_count = 0;
  for (int i = 0; i < break_count; ++i) candidates[candidate_count++] = breaks[i];

  // stationary point of the squared outside distance on each piece
  for (int i = 0; i + 1 < break_count; ++i) {
    const Real low = breaks[i];
    const Real high = breaks[i + 1];
    if (high <= low) continue;
    const Vec3 middle = start + 0.5 * (low + high) * delta;
    Real slope = 0;
    Real curvature = 0;
    for (int j = 0; j < 3; ++j) {
      if (std::abs(middle(j)) <= half(j)) continue;
      const Real bound = middle(j) > 0 ? half(j) : -half(j);
      slope += (start(j) - bound) * delta(j);
      curvature += delta(j) * delta(j);
    }
    if (curvature > 0) candidates[candidate_count++] = std::clamp(-slope / curvature, low, high);
  }

  // kinks of the inside distance max_j(±p_j − h_j): pairs of the six face functions
  for (int f = 0; f < 6; ++f) {
    for (int g = f + 1; g < 6; ++g) {
      const int j = f / 2;
      const int k = g / 2;
      const Real sign_f = (f % 2) ? 1.0 : -1.0;
      const Real sign_g = (g % 2) ? 1.0 : -1.0;
      const Real denominator = sign_f * delta(j) - sign_g * delta(k);
      if (denominator == 0) continue;
      const Real t = ((sign_g * start(k) - half(k)) - (sign_f * start(j) - half(j))) / denominator;
      if (t > 0 && t < 1) candidates[candidate_count++] = t;
    }
  }

  // the first smallest distance (deterministic on plateaus)
  Real best_t = 0;
  Real best_distance = BoxSignedDistance(start, half);
  for (int i = 0; i < candidate_count; ++i) {
    const Real distance = BoxSignedDistance(start + candidates[i] * delta, half);
    if (distance < best_distance) {
      best_distance = distance;
      best_t = candidates[i];
    }
  }
  return best_t;
}

}  // namespace


void SphereVsBox(const PlacedShape& sphere, const PlacedShape& box, Real margin, Manifold* out) {
  const Mat3& rotation = box.rotation;
  const Vec3& half = box.geometry->half_extents;
  const Real radius = sphere.geometry->radius;
  const Vec3 center = rotation.transpose() * (sphere.center - box.center);
  const Vec3 closest = center.cwiseMax(-half).cwiseMin(half);
  const Vec3 outside = center - closest;

  // centre outside the box: the closest point on its surface
  if (outside.squaredNorm() > 0) {
    const Real distance = outside.norm();
    if (distance - radius >= margin) return;
    const Vec3 normal = rotation * (outside / distance);
    out->Add(normal, sphere.center - radius * normal, box.center + rotation * closest, 0);
    return;
  }

  // centre inside: push out through the face of least penetration
  int axis = 0;
  for (int j = 1; j < 3; ++j) {
    if (half(j) - std::abs(center(j)) < half(axis) - std::abs(center(axis))) axis = j;
  }
  const Real sign = center(axis) >= 0 ? 1.0 : -1.0;
  Vec3 on_face = center;
  on_face(axis) = sign * half(axis);
  const Vec3 normal = sign * rotation.col(axis);
  out->Add(normal, sphere.center - radius * normal, box.center + rotation * on_face, 0);
}


void CapsuleVsBox(const PlacedShape& capsule, const PlacedShape& box, Real margin, Manifold* out) {
  const Mat3& rotation = box.rotation;
  const Vec3& half = box.geometry->half_extents;
  const Real radius = capsule.geometry->radius;
  const Vec3 axis = capsule.rotation.col(2);
  // the capsule segment in the box frame: start + t·delta, t ∈ [0, 1]
  const Vec3 start =
      rotation.transpose() * (capsule.center - capsule.geometry->half_length * axis - box.center);
  const Vec3 delta = rotation.transpose() * (2 * capsule.geometry->half_length * axis);
  const Real t_closest = MinimizeBoxDistanceOnSegment(start, delta, half);
  const Vec3 closest = start + t_closest * delta;
  const Vec3 on_box = closest.cwiseMax(-half).cwiseMin(half);

  // which face region holds the closest point (one coordinate clamped, or inside the box)
  int clamped = 0;
  int face_axis = 0;
  for (int j = 0; j < 3; ++j) {
    if (std::abs(closest(j)) > half(j)) {
      ++clamped;
      face_axis = j;
    }
  }
  if (clamped == 0) {
    const Vec3 excess = closest.cwiseAbs() - half;
    excess.maxCoeff(&face_axis);
  }

  // edge or corner region: one point between the closest points (feature 0)
  if (clamped > 1) {
    const Vec3 outside = closest - on_box;
    const Real distance = outside.norm();
    if (distance - radius >= margin) return;
    const Vec3 normal = rotation * (outside / distance);
    const Vec3 core_point = box.center + rotation * closest;
    out->Add(normal, core_point - radius * normal, box.center + rotation * on_box, 0);
    return;
  }

  // face region: clip the segment to the face's side slabs, one point per end of the clipped part
  const Real face_sign = closest(face_axis) >= 0 ? 1.0 : -1.0;
  Real low = 0;
  Real high = 1;
  for (int j = 0; j < 3; ++j) {
    if (j == face_axis || delta(j) == 0) continue;
    const Real t0 = (-half(j) - start(j)) / delta(j);
    const Real t1 = (half(j) - start(j)) / delta(j);
    low = std::max(low, std::min(t0, t1));
    high = std::min(high, std::max(t0, t1));
  }
  if (low > t_closest || high < t_closest) low = high = t_closest;  // rounding guard
  const Vec3 normal = face_sign * rotation.col(face_axis);
  const std::uint32_t face_id = static_cast<std::uint32_t>(2 * face_axis + (face_sign > 0));
  const int ends = (high - low) * delta.norm() > 1e-9 ? 2 : 1;  // clipped part longer than 1 nm
  for (int end = 0; end < ends; ++end) {
    const Vec3 core_point = start + (end == 0 ? low : high) * delta;
    const Real gap = face_sign * core_point(face_axis) - half(face_axis) - radius;
    if (gap >= margin) continue;
    Vec3 face_point = core_point;
    face_point(face_axis) = face_sign * half(face_axis);
    const Vec3 core_point_W = box.center + rotation * core_point;
    out->Add(normal, core_point_W - radius * normal, box.center + rotation * face_point,
             1 + 2 * face_id + static_cast<std::uint32_t>(end));
  }
}

}  // namespace sim::collision_internal
