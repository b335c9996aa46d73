#include "render/scene_markers.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

#include "render/meshes.h"
#include "render/teleop_gizmo.h"

namespace sim::render {

namespace {

// forces below this fraction of the largest are not drawn (round-off of resting contacts)
constexpr float kNegligibleForceFraction = 1e-4f;


Eigen::Vector3f Vec(const std::array<float, 3>& v) { return {v[0], v[1], v[2]}; }


std::array<float, 4> Rgba(const std::array<float, 3>& rgb) { return {rgb[0], rgb[1], rgb[2], 1}; }


// the outline of an anisotropic contact's friction ellipse (semi-axes μ_t·λ_n along t, μ_b·λ_n
// along b, at `meters_per_newton`), as kEllipseSegments bars
void AddFrictionEllipse(const VisualContact& contact, float meters_per_newton, float thickness,
                        std::vector<Marker>* markers) {
  const Eigen::Vector3f n = Vec(contact.normal);
  Eigen::Vector3f t = Vec(contact.tangent);
  t = (t - t.dot(n) * n);
  if (!(t.norm() > 1e-6f) || !n.allFinite()) return;
  t.normalize();
  const Eigen::Vector3f b = n.cross(t);
  // a round cone's circle tells nothing the arrows do not: only anisotropic cones are drawn
  if (!(std::abs(contact.friction_t - contact.friction_b) >
        kRoundConeTolerance * std::max(contact.friction_t, contact.friction_b))) {
    return;
  }
  const float a_t = contact.friction_t * contact.normal_force * meters_per_newton;
  const float a_b = contact.friction_b * contact.normal_force * meters_per_newton;
  if (!(a_t > 0 || a_b > 0) || !std::isfinite(a_t) || !std::isfinite(a_b)) return;
  const Eigen::Vector3f centre = Vec(contact.point);
  const auto at = [&](int k) {
    const float phi = 2.0f * 3.14159265358979f * static_cast<float>(k) / kEllipseSegments;
    return Eigen::Vector3f(centre + a_t * std::cos(phi) * t + a_b * std::sin(phi) * b);
  };
  for (int k = 0; k < kEllipseSegments; ++k) {
    const Eigen::Vector3f p0 = at(k), p1 = at(k + 1);
    const float half = 0.5f * (p1 - p0).norm();
    if (!(half > 0)) continue;
    markers->push_back(MakeBarMarker(0.5f * (p0 + p1), p1 - p0, n, half + 0.5f * thickness,
                                     thickness, thickness, kFrictionEllipseColor));
  }
}


void AddStructureDashes(const VisualFrame& frame, std::vector<Marker>* markers) {
  for (const VisualStructureGlyph& glyph : frame.structure_glyphs) {
    const Eigen::Vector3f normal = Vec(glyph.normal);
    const Eigen::Vector3f axis = Vec(glyph.axis);
    const float length = 2 * glyph.half_length;
    if (!(length > 0) || !normal.allFinite() || !axis.allFinite() || !std::isfinite(length)) {
      continue;
    }
    // grainless spots are short grey ticks, grained ones dashes as long as their strength
    const float strength = std::clamp(glyph.strength, 0.0f, 1.0f);
    const float half_length = glyph.half_length * (strength > 0 ? 0.45f + 0.55f * strength : 0.2f);
    const float half_width = 0.5f * kDashWidthPerLength * length;
    const Eigen::Vector3f centre = Vec(glyph.center) + kDashLiftPerLength * length * normal;
    Marker marker = MakeBarMarker(centre, axis, normal, half_length, half_width, 0.5f * half_width,
                                  GrainColor(strength));
    marker.ghost = false;
    markers->push_back(marker);
  }
}


void AddContactMarkers(const VisualFrame& frame, const RenderOptions& options, float view_height,
                       const Eigen::Matrix4f* view_projection, std::vector<Marker>* markers) {
  const ForceScale scale = ComputeForceScale(frame, options, view_height, view_projection);
  const float arrow_radius = kArrowRadiusPerView * view_height;
  const float point_radius = kContactPointRadiusPerView * view_height;
  const float negligible = kNegligibleForceFraction * scale.max_force;
  for (const VisualContact& contact : frame.contacts) {
    const Eigen::Vector3f point = Vec(contact.point);
    if (!point.allFinite()) continue;
    // a contact that carries no force: a small grey point
    if (!(contact.normal_force > negligible)) {
      markers->push_back(MakeSphereMarker(point, 0.6f * point_radius, kInactiveContactColor));
      continue;
    }
    const std::array<float, 3>& stick_slip = contact.sliding ? kSlipColor : kStickColor;
    markers->push_back(MakeSphereMarker(point, point_radius, stick_slip));
    const Eigen::Vector3f normal = contact.normal_force * Vec(contact.normal);
    const Eigen::Vector3f friction = Vec(contact.friction_force);
    if (!options.contact_force_split) {
      // the total force on A in one arrow, coloured by stick or slip
      const Eigen::Vector3f total = normal + friction;
      const float total_norm = total.norm();
      if (total_norm > negligible && std::isfinite(total_norm)) {
        const Eigen::Vector3f direction = total / total_norm;
        markers->push_back(
            MakeArrowMarker(contact.point, {direction.x(), direction.y(), direction.z()},
                            ArrowLength(scale, total_norm), arrow_radius, stick_slip));
      }
      continue;
    }
    // normal force on A, along +n from the point
    markers->push_back(MakeArrowMarker(contact.point, contact.normal,
                                       ArrowLength(scale, contact.normal_force), arrow_radius,
                                       kNormalForceColor));
    // friction force on A, tangential
    const float friction_norm = friction.norm();
    if (friction_norm > negligible && std::isfinite(friction_norm)) {
      const Eigen::Vector3f direction = friction / friction_norm;
      markers->push_back(
          MakeArrowMarker(contact.point, {direction.x(), direction.y(), direction.z()},
                          ArrowLength(scale, friction_norm), arrow_radius, stick_slip));
    }
    // the friction limit is drawn only where lengths are linear in force
    if (!scale.log)
      AddFrictionEllipse(contact, scale.meters_per_newton, 0.5f * arrow_radius, markers);
  }
}


void AddJointFrames(const VisualFrame& frame, float view_height, std::vector<Marker>* markers) {
  const float length = kJointAxisLengthPerView * view_height;
  const float radius = 0.6f * kArrowRadiusPerView * view_height;
  constexpr std::array<std::array<float, 3>, 3> kAxisColors = {
      {{0.9f, 0.05f, 0.05f}, {0.05f, 0.75f, 0.05f}, {0.05f, 0.15f, 1.0f}}};
  for (const VisualJoint& joint : frame.joints) {
    const std::array<float, 3> origin = {joint.X_WJ[3], joint.X_WJ[7], joint.X_WJ[11]};
    // the frame's axes are the columns of its rotation
    for (int axis = 0; axis < 3; ++axis) {
      const std::array<float, 3> direction = {joint.X_WJ[axis], joint.X_WJ[4 + axis],
                                              joint.X_WJ[8 + axis]};
      markers->push_back(MakeArrowMarker(origin, direction, length, radius, kAxisColors[axis]));
    }
    // the motion axis, longer than the frame's axes
    const bool has_axis = joint.type == JointType::kRevolute ||
                          joint.type == JointType::kContinuous ||
                          joint.type == JointType::kPrismatic;
    if (has_axis) {
      markers->push_back(
          MakeArrowMarker(origin, joint.axis_W, 1.5f * length, 0.8f * radius, kJointAxisColor));
    }
  }
}


void AddCentresOfMass(const VisualFrame& frame, float view_height, std::vector<Marker>* markers) {
  const float radius = kComRadiusPerView * view_height;
  for (const VisualBody& body : frame.bodies) {
    if (body.is_static) continue;
    markers->push_back(MakeSphereMarker(Eigen::Vector3f(body.X_WB[3], body.X_WB[7], body.X_WB[11]),
                                        radius, kComColor));
  }
}


// a flat plate across the up axis resting `lift` above `point`: where the world holds something
void AddMount(const Eigen::Vector3f& point, const Eigen::Vector3f& up, float half_width, float lift,
              std::vector<Marker>* markers) {
  const Eigen::Vector3f seed =
      std::abs(up.x()) < 0.9f ? Eigen::Vector3f::UnitX() : Eigen::Vector3f::UnitY();
  const Eigen::Vector3f along = up.cross(seed).normalized();
  const float half_thickness = 0.25f * half_width;
  Marker plate = MakeBarMarker(point + (lift + half_thickness) * up, along, up, half_width,
                               half_width, half_thickness, kMountColor);
  plate.ghost = false;
  markers->push_back(plate);
}


// joint anchors (mounted where the parent is the world), attachment struts, fixed nodes
void AddConstraints(const VisualFrame& frame, float view_height, std::vector<Marker>* markers) {
  Eigen::Vector3f up = Vec(frame.up);
  up = up.squaredNorm() > 0 ? up.normalized() : Eigen::Vector3f::UnitZ();
  const float anchor_radius = kJointAnchorRadiusPerView * view_height;
  const float mount = kMountHalfWidthPerView * view_height;
  const float hold = kHoldRadiusPerView * view_height;
  for (const VisualJoint& joint : frame.joints) {
    const Eigen::Vector3f origin(joint.X_WJ[3], joint.X_WJ[7], joint.X_WJ[11]);
    if (joint.type == JointType::kNone || !origin.allFinite()) continue;
    // hidden inside bodies like scene geometry: a robot's dozens of joints do not clutter it
    Marker sphere = MakeSphereMarker(origin, anchor_radius, kJointAnchorColor);
    sphere.ghost = false;
    markers->push_back(sphere);
    if (joint.parent == kWorldBody) AddMount(origin, up, mount, anchor_radius, markers);
  }
  for (const VisualAttachment& attachment : frame.attachments) {
    const Eigen::Vector3f anchor = Vec(attachment.anchor);
    if (!anchor.allFinite()) continue;
    markers->push_back(MakeSphereMarker(anchor, hold, kAttachmentColor));
    if (attachment.body == kWorldBody) {
      AddMount(anchor, up, 0.5f * mount, hold, markers);
      continue;
    }
    // the strut the body holds the node by, from its centre of mass
    const Eigen::Vector3f com = Vec(attachment.body_com);
    const Eigen::Vector3f span = anchor - com;
    const float half = 0.5f * span.norm();
    if (!(half > hold) || !std::isfinite(half)) continue;
    const Eigen::Vector3f side =
        std::abs(span.normalized().dot(up)) < 0.9f ? up : Eigen::Vector3f(up.y(), up.z(), up.x());
    markers->push_back(MakeBarMarker(0.5f * (com + anchor), span, side, half, 0.6f * hold,
                                     0.6f * hold, kAttachmentColor));
  }
  for (const std::array<float, 3>& node : frame.fixed_particles) {
    const Eigen::Vector3f p = Vec(node);
    if (!p.allFinite()) continue;
    markers->push_back(MakeBarMarker(p, Eigen::Vector3f::UnitX(), Eigen::Vector3f::UnitZ(), hold,
                                     hold, hold, kFixedNodeColor));
  }
}


void AddDragSpring(const VisualDrag& drag, float view_height, std::vector<Marker>* markers) {
  const Eigen::Vector3f anchor = Vec(drag.anchor);
  const Eigen::Vector3f target = Vec(drag.target);
  if (!anchor.allFinite() || !target.allFinite()) return;
  const float radius = 1.2f * kArrowRadiusPerView * view_height;
  markers->push_back(MakeSphereMarker(anchor, 1.5f * radius, kDragColor));
  const Eigen::Vector3f span = target - anchor;
  const float length = span.norm();
  if (length <= 0) return;
  const Eigen::Vector3f direction = span / length;
  markers->push_back(MakeArrowMarker(drag.anchor, {direction.x(), direction.y(), direction.z()},
                                     length, radius, kDragColor));
}

}  // namespace


Marker MakeSphereMarker(const Eigen::Vector3f& centre, float radius,
                        const std::array<float, 3>& color) {
  Marker marker;
  marker.mesh = MarkerMesh::kSphere;
  marker.X_WM = {1, 0, 0, centre.x(), 0, 1, 0, centre.y(), 0, 0, 1, centre.z()};
  marker.scale = {radius, radius, radius, 0};
  marker.color = Rgba(color);
  return marker;
}


Marker MakeBarMarker(const Eigen::Vector3f& centre, const Eigen::Vector3f& along,
                     const Eigen::Vector3f& normal, float half_length, float half_width,
                     float half_thickness, const std::array<float, 3>& color) {
  const Eigen::Vector3f x = along.normalized();
  const Eigen::Vector3f y = normal.cross(x).normalized();
  const Eigen::Vector3f z = x.cross(y);
  Marker marker;
  marker.mesh = MarkerMesh::kBox;
  for (int row = 0; row < 3; ++row) {
    marker.X_WM[row * 4 + 0] = x(row);
    marker.X_WM[row * 4 + 1] = y(row);
    marker.X_WM[row * 4 + 2] = z(row);
    marker.X_WM[row * 4 + 3] = centre(row);
  }
  marker.scale = {half_length, half_width, half_thickness, 0};
  marker.color = Rgba(color);
  return marker;
}


std::array<float, 3> GrainColor(float strength) {
  const float w = std::isfinite(strength) ? std::clamp(strength, 0.0f, 1.0f) : 0.0f;
  const auto& from = w < 0.5f ? kNoGrainColor : kHalfGrainColor;
  const auto& to = w < 0.5f ? kHalfGrainColor : kFullGrainColor;
  const float f = w < 0.5f ? 2 * w : 2 * w - 1;
  return {from[0] + f * (to[0] - from[0]), from[1] + f * (to[1] - from[1]),
          from[2] + f * (to[2] - from[2])};
}


float ViewHeightAtTarget(const OrbitCamera& camera) {
  constexpr float kDegrees = 3.14159265358979f / 180.0f;
  return 2.0f * camera.distance * std::tan(0.5f * camera.fov_y_deg * kDegrees);
}


namespace {

// the larger of a contact's normal and friction force [N], or 0 when not finite
float LargerForce(const VisualContact& contact) {
  float larger = 0;
  for (float force : {contact.normal_force, Vec(contact.friction_force).norm()}) {
    if (std::isfinite(force)) larger = std::max(larger, force);
  }
  return larger;
}


bool TouchesBody(const VisualContact& contact, std::int32_t body) {
  return body != kWorldBody && contact.lane == 0 &&
         (contact.body_a == body || contact.body_b == body);
}


// an arrow's length for `force` [N] at `scale` before clipping [m]
float UnclippedLength(const ForceScale& scale, float force) {
  if (!(force > 0) || !(scale.max_force > 0)) return 0;
  if (!scale.log) return force * scale.meters_per_newton;
  return scale.reference_length * std::log1p(force / (kLogForceFloor * scale.max_force)) /
         std::log1p(1 / kLogForceFloor);
}


// the contact point lies inside the view frustum of `view_projection` (world → Vulkan clip)
bool InView(const VisualContact& contact, const Eigen::Matrix4f& view_projection) {
  const Eigen::Vector4f clip = view_projection * Vec(contact.point).homogeneous();
  return clip.w() > 0 && std::abs(clip.x()) <= clip.w() && std::abs(clip.y()) <= clip.w() &&
         clip.z() >= 0 && clip.z() <= clip.w();
}

}  // namespace


ForceScale ComputeForceScale(const VisualFrame& frame, const RenderOptions& options,
                             float view_height, const Eigen::Matrix4f* view_projection) {
  ForceScale scale;
  scale.log = options.contact_force_log;
  scale.reference_length = options.arrow_length * view_height;
  // the reference contacts: the selected body's, else those in view, else all
  const auto fit = [&](auto&& counts) {
    float largest = 0;
    for (const VisualContact& contact : frame.contacts) {
      if (counts(contact)) largest = std::max(largest, LargerForce(contact));
    }
    return largest;
  };
  scale.max_force =
      fit([&](const VisualContact& c) { return TouchesBody(c, frame.selected_body); });
  scale.reference = ForceScaleReference::kSelectedBody;
  if (!(scale.max_force > 0) && view_projection != nullptr) {
    scale.max_force = fit([&](const VisualContact& c) { return InView(c, *view_projection); });
    scale.reference = ForceScaleReference::kInView;
  }
  if (!(scale.max_force > 0) && view_projection == nullptr) {
    scale.max_force = fit([](const VisualContact&) { return true; });
    scale.reference = ForceScaleReference::kAll;
  }
  if (!(scale.max_force > 0)) {
    scale.max_force = 0;
    scale.reference = ForceScaleReference::kNone;
    return scale;
  }
  scale.meters_per_newton = scale.reference_length / scale.max_force;
  const float longest = kMaxArrowFactor * scale.reference_length;
  for (const VisualContact& contact : frame.contacts) {
    if (UnclippedLength(scale, LargerForce(contact)) > longest) ++scale.clipped;
  }
  return scale;
}


float ArrowLength(const ForceScale& scale, float force) {
  return std::min(UnclippedLength(scale, force), kMaxArrowFactor * scale.reference_length);
}


const char* ForceScaleReferenceName(ForceScaleReference reference) {
  switch (reference) {
    case ForceScaleReference::kSelectedBody:
      return "the selected body's contacts";
    case ForceScaleReference::kInView:
      return "contacts in view";
    case ForceScaleReference::kAll:
      return "all contacts";
    case ForceScaleReference::kNone:
      break;
  }
  return "no contacts";
}


Marker MakeArrowMarker(const std::array<float, 3>& from, const std::array<float, 3>& direction,
                       float length, float radius, const std::array<float, 3>& color) {
  // rotation taking +z to the direction
  Eigen::Vector3f d = Vec(direction);
  d = d.squaredNorm() > 0 ? d.normalized() : Eigen::Vector3f::UnitZ();
  const Eigen::Matrix3f R =
      Eigen::Quaternionf::FromTwoVectors(Eigen::Vector3f::UnitZ(), d).toRotationMatrix();
  // a short arrow gets a thinner shaft so its head fits: head + a shaft of one head length
  const float r = std::min(radius, length / (2.0f * kArrowHeadLength));
  Marker marker;
  marker.mesh = MarkerMesh::kArrow;
  for (int row = 0; row < 3; ++row) {
    for (int c = 0; c < 3; ++c) marker.X_WM[row * 4 + c] = R(row, c);
    marker.X_WM[row * 4 + 3] = from[row];
  }
  marker.scale = {r, r, r, std::max(0.0f, length - kArrowHeadLength * r)};
  marker.color = Rgba(color);
  return marker;
}


void BuildMarkers(const VisualFrame& frame, const RenderOptions& options, float view_height,
                  std::vector<Marker>* markers, const Eigen::Matrix4f* view_projection) {
  if (options.view == ViewMode::kContacts) {
    AddContactMarkers(frame, options, view_height, view_projection, markers);
  }
  if (options.view == ViewMode::kStructure) AddStructureDashes(frame, markers);
  if (options.show_joint_frames) AddJointFrames(frame, view_height, markers);
  if (options.show_com) AddCentresOfMass(frame, view_height, markers);
  if (options.show_constraints) AddConstraints(frame, view_height, markers);
  if (frame.drag.active) AddDragSpring(frame.drag, view_height, markers);
  if (!frame.teleop_targets.empty()) AddTeleopMarkers(frame, view_height, markers);
}

}  // namespace sim::render
