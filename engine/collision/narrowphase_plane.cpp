// Narrow phase against planes: sphere, box, capsule and cylinder vs the half-space below a plane's
// local +z axis. Manifolds are vertex based (corners, segment ends, cap rim points) so their count
// and feature ids only change when a vertex crosses the margin.
#include <cmath>
#include <numbers>

#include "engine/collision/narrowphase.h"

namespace sim::collision_internal {

namespace {

// a cap is treated as resting flat when its normal is within this angle of the plane normal
constexpr Real kFlatCapAngle = 5.0 * std::numbers::pi / 180.0;

// adds the contact of a point of A (on A's surface) when it is below the margin over the plane
void AddPointOverPlane(const Vec3& point_a, const Vec3& plane_normal, const Vec3& plane_origin,
                       std::uint32_t feature, Real margin, Manifold* out) {
  const Real height = plane_normal.dot(point_a - plane_origin);
  if (height >= margin) return;
  out->Add(plane_normal, point_a, point_a - height * plane_normal, feature);
}

}  // namespace


void SphereVsPlane(const PlacedShape& sphere, const PlacedShape& plane, Real margin,
                   Manifold* out) {
  const Vec3 normal = plane.rotation.col(2);
  const Vec3 lowest = sphere.center - sphere.geometry->radius * normal;
  AddPointOverPlane(lowest, normal, plane.center, 0, margin, out);
}


void BoxVsPlane(const PlacedShape& box, const PlacedShape& plane, Real margin, Manifold* out) {
  const Vec3 normal = plane.rotation.col(2);
  const Vec3& half = box.geometry->half_extents;
  // corner i has coordinate k positive when bit k of i is set
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 local((corner & 1) ? half.x() : -half.x(), (corner & 2) ? half.y() : -half.y(),
                     (corner & 4) ? half.z() : -half.z());
    const Vec3 point = box.center + box.rotation * local;
    AddPointOverPlane(point, normal, plane.center, static_cast<std::uint32_t>(corner), margin, out);
  }
}


void CapsuleVsPlane(const PlacedShape& capsule, const PlacedShape& plane, Real margin,
                    Manifold* out) {
  const Vec3 normal = plane.rotation.col(2);
  const Vec3 axis = capsule.rotation.col(2);
  const Real radius = capsule.geometry->radius;
  // the two end spheres of the axis segment
  for (int end = 0; end < 2; ++end) {
    const Real side = end == 0 ? -1.0 : 1.0;
    const Vec3 center = capsule.center + side * capsule.geometry->half_length * axis;
    AddPointOverPlane(center - radius * normal, normal, plane.center,
                      static_cast<std::uint32_t>(end), margin, out);
  }
}


void CylinderVsPlane(const PlacedShape& cylinder, const PlacedShape& plane, Real margin,
                     Manifold* out) {
  const Vec3 normal = plane.rotation.col(2);
  const Vec3 axis = cylinder.rotation.col(2);
  const Real radius = cylinder.geometry->radius;
  const bool cap_flat = std::abs(axis.dot(normal)) > std::cos(kFlatCapAngle);
  for (int cap = 0; cap < 2; ++cap) {
    const Real side = cap == 0 ? -1.0 : 1.0;
    const Vec3 cap_center = cylinder.center + side * cylinder.geometry->half_length * axis;
    const std::uint32_t base = static_cast<std::uint32_t>(5 * cap);
    if (cap_flat) {
      // nearly flat cap: four rim points on the shape's x and y axes (features base + 1..4)
      const Vec3 x = radius * cylinder.rotation.col(0);
      const Vec3 y = radius * cylinder.rotation.col(1);
      AddPointOverPlane(cap_center + x, normal, plane.center, base + 1, margin, out);
      AddPointOverPlane(cap_center + y, normal, plane.center, base + 2, margin, out);
      AddPointOverPlane(cap_center - x, normal, plane.center, base + 3, margin, out);
      AddPointOverPlane(cap_center - y, normal, plane.center, base + 4, margin, out);
      continue;
    }
    // tilted cap: the rim point deepest along −normal (feature base)
    const Vec3 down = -(normal - axis.dot(normal) * axis);
    const Vec3 rim_point = cap_center + radius * down.normalized();
    AddPointOverPlane(rim_point, normal, plane.center, base, margin, out);
  }
}

}  // namespace sim::collision_internal
