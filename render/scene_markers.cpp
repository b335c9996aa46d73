#include "render/scene_markers.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

#include "render/meshes.h"

namespace sim::render {

namespace {

// forces below this fraction of the largest are not drawn (round-off of resting contacts)
constexpr float kNegligibleForceFraction = 1e-4f;


Eigen::Vector3f Vec(const std::array<float, 3>& v) { return {v[0], v[1], v[2]}; }


std::array<float, 4> Rgba(const std::array<float, 3>& rgb) { return {rgb[0], rgb[1], rgb[2], 1}; }


Marker MakeSphereMarker(const Eigen::Vector3f& centre, float radius,
                        const std::array<float, 3>& color) {
  Marker marker;
  marker.mesh = MarkerMesh::kSphere;
  marker.X_WM = {1, 0, 0, centre.x(), 0, 1, 0, centre.y(), 0, 0, 1, centre.z()};
  marker.scale = {radius, radius, radius, 0};
  marker.color = Rgba(color);
  return marker;
}


void AddContactMarkers(const VisualFrame& frame, const RenderOptions& options, float view_height,
                       std::vector<Marker>* markers) {
  const ForceScale scale = ComputeForceScale(frame, options, view_height);
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
    // normal force on A, along +n from the point
    markers->push_back(MakeArrowMarker(contact.point, contact.normal,
                                       contact.normal_force * scale.meters_per_newton, arrow_radius,
                                       kNormalForceColor));
    // friction force on A, tangential
    const Eigen::Vector3f friction = Vec(contact.friction_force);
    const float friction_norm = friction.norm();
    if (friction_norm > negligible && std::isfinite(friction_norm)) {
      const Eigen::Vector3f direction = friction / friction_norm;
      markers->push_back(
          MakeArrowMarker(contact.point, {direction.x(), direction.y(), direction.z()},
                          friction_norm * scale.meters_per_newton, arrow_radius, stick_slip));
    }
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


float ViewHeightAtTarget(const OrbitCamera& camera) {
  constexpr float kDegrees = 3.14159265358979f / 180.0f;
  return 2.0f * camera.distance * std::tan(0.5f * camera.fov_y_deg * kDegrees);
}


ForceScale ComputeForceScale(const VisualFrame& frame, const RenderOptions& options,
                             float view_height) {
  ForceScale scale;
  for (const VisualContact& contact : frame.contacts) {
    const float friction = Vec(contact.friction_force).norm();
    for (float force : {contact.normal_force, friction}) {
      if (std::isfinite(force)) scale.max_force = std::max(scale.max_force, force);
    }
  }
  if (scale.max_force > 0) {
    scale.meters_per_newton = options.arrow_length * view_height / scale.max_force;
  }
  return scale;
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
                  std::vector<Marker>* markers) {
  if (options.view == ViewMode::kContacts) {
    AddContactMarkers(frame, options, view_height, markers);
  }
  if (options.show_joint_frames) AddJointFrames(frame, view_height, markers);
  if (options.show_com) AddCentresOfMass(frame, view_height, markers);
  if (frame.drag.active) AddDragSpring(frame.drag, view_height, markers);
}

}  // namespace sim::render
