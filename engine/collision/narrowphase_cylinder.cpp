// Cylinder narrow phase: cylinder against sphere, capsule, box, cylinder and hull (cylinder–plane
// is in narrowphase_plane.cpp). Method:
//  1. the deepest points and the normal: the closed form for a sphere; otherwise GJK (apart) or
//     EPA (overlapping) on the exact cylinder support s(d) = c ± h·axis + r·d⊥/|d⊥|, against the
//     other shape's support (a capsule by its core segment, its radius subtracted afterwards);
//  2. the manifold: each side's feature facing the other, within kFlatAngle of the normal: the
//     cylinder's cap (a 16-gon inscribed in the rim) or its side line, a box/hull face, a capsule
//     core line. A face clips the other side's face or line (reference/incident, as BoxVsBox) and
//     keeps at most four points; two parallel lines give the two ends of their overlap; any other
//     case gives the single point of step 1.
// Accuracy: depths and normals are exact (to rounding) where GJK/EPA are exact, i.e. whenever the
// contact is on flat parts of the Minkowski difference (cap or side line on a face, sphere pairs,
// polytope corners); on curved parts GJK stops at a relative 1e-12 and EPA at 1e-9·length or at
// its capacity (gjk.h). The 16-gon's vertices lie on the rim, so clipped points are true surface
// points: the polygon shrinks the manifold's extent by at most r(1 − cos(π/16)) ≈ 0.019·r, and for
// a cap tilted by θ ≤ kFlatAngle its deepest vertex can miss the deepest rim point by at most
// r(1 − cos(π/16))·sin θ ≈ 0.0017·r in depth (flat caps: exact).
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "engine/collision/gjk.h"
#include "engine/collision/narrowphase.h"
#include "engine/collision/narrowphase_feature.h"

namespace sim::collision_internal {

namespace {

// a cap or side line is used as a face when within this angle of the normal (as CylinderVsPlane)
constexpr Real kFlatAngle = 5.0 * std::numbers::pi / 180.0;
// vertices of the polygon standing in for a cap (see the file comment for the error)
constexpr int kCapVertices = 16;
// feature ids of the cylinder's points: cap vertices 16·cap + k, side line ends 32 + end
constexpr std::uint32_t kSideId = 32;
// two lines closer to parallel than this (sine) give the two ends of their overlap
constexpr Real kParallelSine = 0.05;
// ids of the points of parallel lines
constexpr std::uint32_t kLineOverlapId = 1u << 29;

struct Cylinder {
  Vec3 center;
  Mat3 rotation;  // columns x, y, axis
  Real radius;
  Real half_length;
};

Cylinder MakeCylinder(const PlacedShape& shape) {
  return {shape.center, shape.rotation, shape.geometry->radius, shape.geometry->half_length};
}

Vec3 CylinderSupport(const void* shape, const Vec3& direction) {
  const Cylinder& c = *static_cast<const Cylinder*>(shape);
  const Vec3 axis = c.rotation.col(2);
  const Real along = axis.dot(direction);
  const Vec3 radial = direction - along * axis;
  const Real radial_length = radial.norm();
  Vec3 point = c.center + (along >= 0 ? c.half_length : -c.half_length) * axis;
  if (radial_length > 1e-12 * direction.norm()) point += (c.radius / radial_length) * radial;
  return point;
}

// a segment given as two consecutive Vec3
Vec3 SegmentSupport(const void* shape, const Vec3& direction) {
  const Vec3* ends = static_cast<const Vec3*>(shape);
  return direction.dot(ends[1] - ends[0]) > 0 ? ends[1] : ends[0];
}

// the cylinder's feature facing `direction` (unit, outward): cap polygon, side line or point
void CylinderFeature(const Cylinder& c, const Vec3& direction, ContactFeature* feature) {
  const Vec3 axis = c.rotation.col(2);
  const Real along = axis.dot(direction);
  if (std::abs(along) >= std::cos(kFlatAngle)) {
    // cap polygon, counter-clockwise about the cap's outward normal
    const int cap = along >= 0 ? 1 : 0;
    const Real sign = cap ? 1.0 : -1.0;
    const Vec3 cap_center = c.center + sign * c.half_length * axis;
    feature->count = kCapVertices;
    for (int i = 0; i < kCapVertices; ++i) {
      const int k = cap ? i : (kCapVertices - i) % kCapVertices;
      const Real angle = 2 * std::numbers::pi * k / kCapVertices;
      feature->points[i] = cap_center + c.radius * (std::cos(angle) * c.rotation.col(0) +
                                                    std::sin(angle) * c.rotation.col(1));
      feature->ids[i] = static_cast<std::uint32_t>(kCapVertices * cap + k);
    }
    feature->normal = sign * axis;
    feature->id = static_cast<std::uint32_t>(cap);
    return;
  }
  if (std::abs(along) <= std::sin(kFlatAngle)) {
    // side line, its ends at the caps
    const Vec3 radial = (direction - along * axis).normalized();
    feature->count = 2;
    for (int end = 0; end < 2; ++end) {
      const Real sign = end ? 1.0 : -1.0;
      feature->points[end] = c.center + sign * c.half_length * axis + c.radius * radial;
      feature->ids[end] = kSideId + static_cast<std::uint32_t>(end);
    }
    feature->normal = radial;
    return;
  }
  feature->count = 1;
  feature->points[0] = CylinderSupport(&c, direction);
  feature->ids[0] = kSideId + 2;
}

// a polytope's face facing `direction` (unit) when within kFlatAngle, else a point
void PolytopeFeature(const Polytope& polytope, const Vec3& direction, ContactFeature* feature) {
  const int face = MostAlignedFace(polytope, direction);
  if (polytope.FaceNormal(face).dot(direction) >= std::cos(kFlatAngle) &&
      PolytopeFace(polytope, face, feature)) {
    return;
  }
  feature->count = 1;
  feature->points[0] = polytope.Vertex(polytope.SupportVertex(direction));
  feature->ids[0] = 0;
}

// the manifold of the cylinder (A, feature facing −n) and B (feature facing +n), from the deepest
// points and normal in `contact`
void AddFeatureContact(const ContactFeature& feature_a, const ContactFeature& feature_b,
                       const ConvexContact& contact, Real margin, Real length_scale,
                       Manifold* out) {
  if (feature_b.count >= 3 && feature_a.count >= 2 &&
      AddClippedContact(feature_b, feature_a, false, margin, length_scale, out) > 0) {
    return;
  }
  if (feature_a.count >= 3 && feature_b.count >= 2 &&
      AddClippedContact(feature_a, feature_b, true, margin, length_scale, out) > 0) {
    return;
  }
  if (feature_a.count == 2 && feature_b.count == 2) {
    // parallel lines: the ends of their overlap along A's line
    const Vec3 a0 = feature_a.points[0];
    const Vec3 a1 = feature_a.points[1];
    const Vec3 b0 = feature_b.points[0];
    const Vec3 b1 = feature_b.points[1];
    const Vec3 along_a = a1 - a0;
    const Real length_a = along_a.norm();
    const Vec3 direction = along_a / length_a;
    if (direction.cross((b1 - b0).normalized()).norm() < kParallelSine) {
      const Real s0 = direction.dot(b0 - a0);
      const Real s1 = direction.dot(b1 - a0);
      const Real low = std::max(Real{0}, std::min(s0, s1));
      const Real high = std::min(length_a, std::max(s0, s1));
      if (high - low > 1e-9 * length_scale) {
        for (int end = 0; end < 2; ++end) {
          const Vec3 point_a = a0 + (end == 0 ? low : high) * direction;
          const Vec3 point_b = b0 + ClosestParameterOnSegment(b0, b1, point_a) * (b1 - b0);
          if (contact.normal.dot(point_a - point_b) >= margin) continue;
          out->Add(contact.normal, point_a, point_b,
                   kLineOverlapId | static_cast<std::uint32_t>(end));
        }
        return;
      }
    }
  }
  // one point: the deepest points
  out->Add(contact.normal, contact.point_a, contact.point_b, 0);
}

// cylinder A against a shape B given by its support; `feature_of_b` gives B's feature facing a
// direction. `axis_b` and `center_b`: B's axis line when it has one (capsule, cylinder)
template <typename FeatureOfB>
void CylinderVsConvex(const PlacedShape& cylinder_shape, const ConvexSupport& support_b,
                      Real radius_b, Real length_scale_b, const FeatureOfB& feature_of_b,
                      const Vec3* axis_b, const Vec3& center_b, Real margin, Manifold* out) {
  const Cylinder cylinder = MakeCylinder(cylinder_shape);
  const Real length_scale = std::min({cylinder.radius, cylinder.half_length, length_scale_b});
  ConvexContact contact = CalcConvexContact({&CylinderSupport, &cylinder}, support_b, length_scale);
  // a round B (capsule) is its core grown by its radius
  contact.distance -= radius_b;
  contact.point_b += radius_b * contact.normal;
  if (contact.distance >= margin) return;

  // exactly parallel axes side by side: the normal is the axes' common perpendicular (GJK/EPA
  // on the curved sides only approach it)
  const Vec3 axis = cylinder.rotation.col(2);
  if (axis_b != nullptr && axis.cross(*axis_b).norm() <= 1e-12 &&
      std::abs(axis.dot(contact.normal)) <= std::sin(kFlatAngle)) {
    Vec3 offset = cylinder.center - center_b;
    offset -= axis.dot(offset) * axis;
    if (offset.norm() > 1e-9 * length_scale) contact.normal = offset.normalized();
  }

  // the facing features; a face of either side sets the other's facing direction exactly
  ContactFeature feature_a;
  ContactFeature feature_b;
  feature_of_b(contact.normal, &feature_b);
  CylinderFeature(cylinder, feature_b.count >= 3 ? Vec3(-feature_b.normal) : Vec3(-contact.normal),
                  &feature_a);
  if (feature_b.count < 3 && feature_a.count >= 3) feature_of_b(-feature_a.normal, &feature_b);
  AddFeatureContact(feature_a, feature_b, contact, margin, length_scale, out);
}

}  // namespace


void CylinderVsSphere(const PlacedShape& cylinder, const PlacedShape& sphere, Real margin,
                      Manifold* out) {
  const Mat3& rotation = cylinder.rotation;
  const Real r = cylinder.geometry->radius;
  const Real h = cylinder.geometry->half_length;
  const Real radius = sphere.geometry->radius;
  const Vec3 center = rotation.transpose() * (sphere.center - cylinder.center);
  const Real rho = center.head<2>().norm();

  // closest point of the solid cylinder (cylinder frame)
  Vec3 closest = center;
  if (rho > r) closest.head<2>() *= r / rho;
  closest.z() = std::clamp(center.z(), -h, h);
  const Vec3 outside = center - closest;
  Vec3 normal_out;  // from the cylinder towards the sphere centre, cylinder frame
  if (outside.squaredNorm() > 0) {
    const Real distance = outside.norm();
    if (distance - radius >= margin) return;
    normal_out = outside / distance;
  } else {
    // centre inside: leave through the cap or the side, whichever is nearer (the cap on ties)
    const Real to_cap = h - std::abs(center.z());
    const Real to_side = r - rho;
    if (to_cap <= to_side) {
      normal_out = Vec3(0, 0, center.z() >= 0 ? 1.0 : -1.0);
      closest.z() = normal_out.z() * h;
    } else {
      normal_out = rho > 0 ? Vec3(center.x() / rho, center.y() / rho, 0) : Vec3::UnitX();
      closest.head<2>() = r * normal_out.head<2>();
    }
  }
  // n from B (sphere) to A (cylinder)
  const Vec3 normal = -(rotation * normal_out);
  out->Add(normal, cylinder.center + rotation * closest, sphere.center + radius * normal, 0);
}


void CylinderVsCapsule(const PlacedShape& cylinder, const PlacedShape& capsule, Real margin,
                       Manifold* out) {
  const Vec3 axis = capsule.rotation.col(2);
  const Vec3 half = capsule.geometry->half_length * axis;
  const std::array<Vec3, 2> core = {capsule.center - half, capsule.center + half};
  const Real radius = capsule.geometry->radius;
  const auto feature_of_b = [&](const Vec3& normal, ContactFeature* feature) {
    // the capsule's surface line facing A when its core is ⟂ the normal, else its nearest end
    feature->count = std::abs(axis.dot(normal)) <= std::sin(kFlatAngle) ? 2 : 1;
    if (feature->count == 1) {
      feature->points[0] = (axis.dot(normal) >= 0 ? core[1] : core[0]) + radius * normal;
      feature->ids[0] = 0;
      return;
    }
    for (int end = 0; end < 2; ++end) {
      feature->points[end] = core[end] + radius * normal;
      feature->ids[end] = static_cast<std::uint32_t>(end);
    }
  };
  CylinderVsConvex(cylinder, {&SegmentSupport, core.data()}, radius, radius, feature_of_b, &axis,
                   capsule.center, margin, out);
}


void CylinderVsBox(const PlacedShape& cylinder, const PlacedShape& box, Real margin,
                   Manifold* out) {
  const BoxPolytope box_polytope(box.geometry->half_extents);
  const Polytope polytope = box_polytope.Placed(box.center, box.rotation);
  const auto feature_of_b = [&](const Vec3& normal, ContactFeature* feature) {
    PolytopeFeature(polytope, normal, feature);
  };
  CylinderVsConvex(cylinder, PolytopeSupport(&polytope), 0, polytope.InnerScale(), feature_of_b,
                   nullptr, Vec3::Zero(), margin, out);
}


void CylinderVsCylinder(const PlacedShape& a, const PlacedShape& b, Real margin, Manifold* out) {
  const Cylinder cylinder_b = MakeCylinder(b);
  const auto feature_of_b = [&](const Vec3& normal, ContactFeature* feature) {
    CylinderFeature(cylinder_b, normal, feature);
  };
  const Vec3 axis_b = cylinder_b.rotation.col(2);
  CylinderVsConvex(a, {&CylinderSupport, &cylinder_b}, 0,
                   std::min(cylinder_b.radius, cylinder_b.half_length), feature_of_b, &axis_b,
                   cylinder_b.center, margin, out);
}


void CylinderVsHull(const PlacedShape& cylinder, const ConvexHull& hull, const PlacedShape& placed,
                    Real margin, Manifold* out) {
  const Polytope polytope = MakePolytope(hull, placed);
  const auto feature_of_b = [&](const Vec3& normal, ContactFeature* feature) {
    PolytopeFeature(polytope, normal, feature);
  };
  CylinderVsConvex(cylinder, PolytopeSupport(&polytope), 0, polytope.InnerScale(), feature_of_b,
                   nullptr, Vec3::Zero(), margin, out);
}

}  // namespace sim::collision_internal
