#include "render/teleop_gizmo.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sim::render {

namespace {

constexpr float kTwoPi = 6.28318530717959f;
constexpr int kRingSegments = 48;
const std::array<float, 3> kAxisColors[3] = {
    {0.90f, 0.12f, 0.10f}, {0.15f, 0.80f, 0.15f}, {0.15f, 0.30f, 0.95f}};

Eigen::Vector3f Position(const std::array<float, 12>& X) { return {X[3], X[7], X[11]}; }

bool IsTranslate(GizmoHandle h) {
  return h == GizmoHandle::kTranslateX || h == GizmoHandle::kTranslateY ||
         h == GizmoHandle::kTranslateZ;
}

int AxisOf(GizmoHandle h) {
  switch (h) {
    case GizmoHandle::kTranslateX:
    case GizmoHandle::kRotateX:
      return 0;
    case GizmoHandle::kTranslateY:
    case GizmoHandle::kRotateY:
      return 1;
    case GizmoHandle::kTranslateZ:
    case GizmoHandle::kRotateZ:
      return 2;
    case GizmoHandle::kNone:
      break;
  }
  return -1;
}

// parameter s of the point c + s·a on the axis line closest to the ray o + t·d (t ≥ 0 not
// enforced); false when the ray is parallel to the axis
bool ClosestOnAxis(const Vec3& c, const Vec3& a, const Vec3& o, const Vec3& d, Real* s, Real* t) {
  const Vec3 w = c - o;
  const Real b = a.dot(d);
  const Real denominator = 1 - b * b;
  if (denominator < Real(1e-8)) return false;
  *s = (b * d.dot(w) - a.dot(w)) / denominator;
  *t = (d.dot(w) - b * a.dot(w)) / denominator;
  return true;
}

// where the ray crosses the plane through c with unit normal n; false when parallel or behind
bool RayPlane(const Vec3& c, const Vec3& n, const Vec3& o, const Vec3& d, Vec3* hit, Real* t) {
  const Real along = n.dot(d);
  if (std::abs(along) < Real(1e-6)) return false;
  *t = n.dot(c - o) / along;
  if (*t < 0) return false;
  *hit = o + *t * d;
  return true;
}

}  // namespace


void AddTeleopMarkers(const VisualFrame& frame, float view_height, std::vector<Marker>* markers) {
  const float line = 0.6f * kArrowRadiusPerView * view_height;
  for (const VisualTeleopTarget& target : frame.teleop_targets) {
    const Eigen::Vector3f centre = Position(target.X_WT);
    const Eigen::Vector3f actual(target.actual[0], target.actual[1], target.actual[2]);
    if (!centre.allFinite() || !actual.allFinite()) continue;
    markers->push_back(MakeSphereMarker(centre, 2.0f * line, kTeleopTargetColor));
    const Eigen::Vector3f gap = centre - actual;
    if (gap.norm() > 2.0f * line) {
      const Eigen::Vector3f side = gap.unitOrthogonal();
      markers->push_back(MakeBarMarker(0.5f * (centre + actual), gap, side, 0.5f * gap.norm(),
                                       0.5f * line, 0.5f * line, kTeleopTargetColor));
    }
    if (!target.gizmo) continue;
    const float arrow = kGizmoArrowLengthPerView * view_height;
    const float ring = kGizmoRingRadiusPerView * view_height;
    for (int k = 0; k < 3; ++k) {
      std::array<float, 3> axis = {0, 0, 0};
      axis[k] = 1;
      markers->push_back(MakeArrowMarker({centre.x(), centre.y(), centre.z()}, axis, arrow,
                                         1.5f * line, kAxisColors[k]));
      // ring k in the plane normal to axis k
      const Eigen::Vector3f u = Eigen::Vector3f::Unit((k + 1) % 3);
      const Eigen::Vector3f v = Eigen::Vector3f::Unit((k + 2) % 3);
      const auto at = [&](int i) {
        const float phi = kTwoPi * static_cast<float>(i) / kRingSegments;
        return Eigen::Vector3f(centre + ring * (std::cos(phi) * u + std::sin(phi) * v));
      };
      for (int i = 0; i < kRingSegments; ++i) {
        const Eigen::Vector3f p0 = at(i), p1 = at(i + 1);
        markers->push_back(MakeBarMarker(0.5f * (p0 + p1), p1 - p0, Eigen::Vector3f::Unit(k),
                                         0.5f * (p1 - p0).norm() + 0.5f * line, line, line,
                                         kAxisColors[k]));
      }
    }
  }
}


GizmoHandle PickGizmoHandle(const Vec3& center, Real view_height, const Vec3& ray_origin,
                            const Vec3& ray_direction) {
  const Real arrow = kGizmoArrowLengthPerView * view_height;
  const Real ring = kGizmoRingRadiusPerView * view_height;
  const Real tolerance = kGizmoPickTolerancePerView * view_height;
  GizmoHandle best = GizmoHandle::kNone;
  Real best_t = std::numeric_limits<Real>::infinity();
  const GizmoHandle translate[3] = {GizmoHandle::kTranslateX, GizmoHandle::kTranslateY,
                                    GizmoHandle::kTranslateZ};
  const GizmoHandle rotate[3] = {GizmoHandle::kRotateX, GizmoHandle::kRotateY,
                                 GizmoHandle::kRotateZ};
  for (int k = 0; k < 3; ++k) {
    const Vec3 axis = Vec3::Unit(k);
    // arrow: the ray passes within the tolerance of the segment [c, c + arrow·a]
    Real s = 0, t = 0;
    if (ClosestOnAxis(center, axis, ray_origin, ray_direction, &s, &t) && t > 0) {
      const Real clamped = std::clamp(s, tolerance, arrow);
      const Vec3 on_axis = center + clamped * axis;
      const Real along_ray = std::max<Real>(0, ray_direction.dot(on_axis - ray_origin));
      const Real distance = (ray_origin + along_ray * ray_direction - on_axis).norm();
      if (distance < tolerance && along_ray < best_t) {
        best = translate[k];
        best_t = along_ray;
      }
    }
    // ring: the ray crosses the ring's plane within the tolerance of the circle
    Vec3 hit;
    if (RayPlane(center, axis, ray_origin, ray_direction, &hit, &t) &&
        std::abs((hit - center).norm() - ring) < tolerance && t < best_t) {
      best = rotate[k];
      best_t = t;
    }
  }
  return best;
}


Pose DragGizmo(GizmoHandle handle, const Pose& start, const Vec3& from_origin,
               const Vec3& from_direction, const Vec3& to_origin, const Vec3& to_direction) {
  const int k = AxisOf(handle);
  if (k < 0) return start;
  const Vec3 axis = Vec3::Unit(k);
  Pose moved = start;
  if (IsTranslate(handle)) {
    Real s0 = 0, s1 = 0, t = 0;
    if (!ClosestOnAxis(start.p, axis, from_origin, from_direction, &s0, &t) ||
        !ClosestOnAxis(start.p, axis, to_origin, to_direction, &s1, &t)) {
      return start;
    }
    moved.p = start.p + (s1 - s0) * axis;
    return moved;
  }
  Vec3 hit0, hit1;
  Real t = 0;
  if (!RayPlane(start.p, axis, from_origin, from_direction, &hit0, &t) ||
      !RayPlane(start.p, axis, to_origin, to_direction, &hit1, &t)) {
    return start;
  }
  const Vec3 r0 = hit0 - start.p, r1 = hit1 - start.p;
  const Real angle = std::atan2(axis.dot(r0.cross(r1)), r0.dot(r1));
  moved.q = (Quat(Eigen::AngleAxis<Real>(angle, axis)) * start.q).normalized();
  return moved;
}

}  // namespace sim::render
