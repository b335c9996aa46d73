#include "engine/model/model.h"

#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace sim {

namespace {

template <typename Names>
int IndexOf(const Names& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace


const char* FemMaterialModelName(FemMaterialModel model) {
  return model == FemMaterialModel::kLinearCorotational ? "corotational" : "neo_hookean";
}


int Model::tet_count() const {
  int count = 0;
  for (const SoftBody& body : soft_bodies) count += body.tet_count();
  return count;
}


const char* JointTypeName(JointType type) {
  switch (type) {
    case JointType::kNone:
      return "none";
    case JointType::kFixed:
      return "fixed";
    case JointType::kRevolute:
      return "revolute";
    case JointType::kContinuous:
      return "continuous";
    case JointType::kPrismatic:
      return "prismatic";
    case JointType::kBall:
      return "ball";
    case JointType::kPlanar:
      return "planar";
  }
  return "none";
}


int JointFreedoms(JointType type) {
  switch (type) {
    case JointType::kRevolute:
    case JointType::kContinuous:
    case JointType::kPrismatic:
      return 1;
    case JointType::kBall:
    case JointType::kPlanar:
      return 3;
    case JointType::kFixed:
    case JointType::kNone:
      return 0;
  }
  return 0;
}


bool Model::ShapesMayCollide(int a, int b) const {
  if (shape_collision_group.empty()) return true;
  // particles, soft surfaces and shapes past the arrays (added without a filter): group 1, all
  const auto group = [this](int s) {
    return s >= 0 && s < static_cast<int>(shape_collision_group.size()) ? shape_collision_group[s]
                                                                        : 1u;
  };
  const auto mask = [this](int s) {
    return s >= 0 && s < static_cast<int>(shape_collision_mask.size()) ? shape_collision_mask[s]
                                                                       : ~0u;
  };
  return (group(a) & mask(b)) != 0 && (group(b) & mask(a)) != 0;
}


int Model::FindBody(const std::string& name) const { return IndexOf(body_name, name); }
int Model::FindParticle(const std::string& name) const { return IndexOf(particle_name, name); }
int Model::FindJoint(const std::string& name) const { return IndexOf(joint_name, name); }
int Model::FindFrame(const std::string& name) const { return IndexOf(frame_name, name); }


const char* TeleopTargetTypeName(TeleopTargetType type) {
  switch (type) {
    case TeleopTargetType::kEndEffector:
      return "end_effector";
    case TeleopTargetType::kGripper:
      return "gripper";
    case TeleopTargetType::kSynergy:
      return "synergy";
    case TeleopTargetType::kBase:
      return "base";
    case TeleopTargetType::kLookAt:
      return "look_at";
  }
  return "end_effector";
}


Real Model::JointAngularCompliance(int j) const {
  if (j < static_cast<int>(joint_angular_compliance.size()) && joint_angular_compliance[j] >= 0) {
    return joint_angular_compliance[j];
  }
  return joint_compliance[j];
}


int Model::FindMaterial(const std::string& name) const {
  for (std::size_t i = 0; i < materials.size(); ++i) {
    if (materials[i].name == name) return static_cast<int>(i);
  }
  return -1;
}


Real ContactFriction(const Model& model, int material_a, int material_b) {
  for (const FrictionPair& pair : model.friction_pairs) {
    if ((pair.material_a == material_a && pair.material_b == material_b) ||
        (pair.material_a == material_b && pair.material_b == material_a)) {
      return pair.friction;
    }
  }
  // materials outside the table (hand-built models with none) have the default μ
  const auto mu = [&](int m) {
    return m >= 0 && m < static_cast<int>(model.materials.size()) ? model.materials[m].friction
                                                                  : Material{}.friction;
  };
  return 0.5 * (mu(material_a) + mu(material_b));
}


PairFriction ContactFrictionAxes(const Model& model, int material_a, int material_b) {
  for (const FrictionPair& pair : model.friction_pairs) {
    if ((pair.material_a == material_a && pair.material_b == material_b) ||
        (pair.material_a == material_b && pair.material_b == material_a)) {
      return {pair.friction, pair.friction_major < 0 ? pair.friction : pair.friction_major,
              pair.friction_minor < 0 ? pair.friction : pair.friction_minor};
    }
  }
  // materials outside the table (hand-built models with none) have the default μ
  static const Material kDefault;
  const auto material = [&](int m) -> const Material& {
    return m >= 0 && m < static_cast<int>(model.materials.size()) ? model.materials[m] : kDefault;
  };
  const Material& a = material(material_a);
  const Material& b = material(material_b);
  return {0.5 * (a.friction + b.friction), 0.5 * (a.major() + b.major()),
          0.5 * (a.minor() + b.minor())};
}


const char* ProbeKindName(ProbeKind kind) {
  switch (kind) {
    case ProbeKind::kBodyPosition:
      return "body_position";
    case ProbeKind::kBodyOrientation:
      return "body_orientation";
    case ProbeKind::kBodyVelocity:
      return "body_velocity";
    case ProbeKind::kBodyAngularVelocity:
      return "body_angular_velocity";
    case ProbeKind::kJointPosition:
      return "joint_position";
    case ProbeKind::kJointVelocity:
      return "joint_velocity";
    case ProbeKind::kParticlePosition:
      return "particle_position";
    case ProbeKind::kSoftBodyCentroid:
      return "soft_body_centroid";
  }
  return "body_position";
}


int ProbeValueCount(ProbeKind kind) {
  switch (kind) {
    case ProbeKind::kBodyOrientation:
      return 4;
    case ProbeKind::kJointPosition:
    case ProbeKind::kJointVelocity:
      return 1;
    default:
      return 3;
  }
}


const char* ShapeTypeName(ShapeType type) {
  switch (type) {
    case ShapeType::kNone:
      return "none";
    case ShapeType::kPlane:
      return "plane";
    case ShapeType::kSphere:
      return "sphere";
    case ShapeType::kBox:
      return "box";
    case ShapeType::kCapsule:
      return "capsule";
    case ShapeType::kCylinder:
      return "cylinder";
    case ShapeType::kConvexHull:
      return "hull";
    case ShapeType::kMesh:
      return "mesh";
    case ShapeType::kSdf:
      return "sdf";
  }
  return "none";
}


Real ShapeVolume(const ShapeGeometry& shape) {
  constexpr Real kPi = std::numbers::pi;
  const Real r = shape.radius;
  const Real h = 2 * shape.half_length;
  switch (shape.type) {
    case ShapeType::kBox:
      return 8 * shape.half_extents.prod();
    case ShapeType::kSphere:
      return 4.0 / 3.0 * kPi * r * r * r;
    case ShapeType::kCylinder:
      return kPi * r * r * h;
    case ShapeType::kCapsule:
      return kPi * r * r * h + 4.0 / 3.0 * kPi * r * r * r;
    case ShapeType::kConvexHull:
      return shape.hull ? shape.hull->volume : 0;
    case ShapeType::kMesh:
      return shape.mesh ? shape.mesh->mass.volume : 0;
    case ShapeType::kSdf:  // an analytic field has no closed-form volume: bodies give their mass
    case ShapeType::kPlane:
    case ShapeType::kNone:
      return 0;
  }
  return 0;
}


Vec3 ShapeCentroid(const ShapeGeometry& shape) {
  if (shape.type == ShapeType::kConvexHull && shape.hull) return shape.hull->centroid;
  if (shape.type == ShapeType::kMesh && shape.mesh) {
    // an open mesh has no inside: the centre of its bounds stands in
    if (!(shape.mesh->mass.volume > 0)) return 0.5 * (shape.mesh->lower + shape.mesh->upper);
    return shape.mesh->mass.centroid;
  }
  return Vec3::Zero();
}


Mat3 ShapeUnitInertia(const ShapeGeometry& shape, Real mass) {
  const Real r = shape.radius;
  const Real h = 2 * shape.half_length;
  Mat3 inertia = Mat3::Zero();
  switch (shape.type) {
    case ShapeType::kBox: {
      // solid cuboid: I_x = m (b² + c²) / 12 with full side lengths
      const Vec3 s = 2 * shape.half_extents;
      inertia.diagonal() << s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(),
          s.x() * s.x() + s.y() * s.y();
      inertia *= mass / 12;
      break;
    }
    case ShapeType::kSphere:
      inertia.diagonal().setConstant(0.4 * mass * r * r);
      break;
    case ShapeType::kCylinder: {
      // solid cylinder along z: I_z = m r²/2, I_x = m (3r² + h²)/12
      const Real lateral = mass * (3 * r * r + h * h) / 12;
      inertia.diagonal() << lateral, lateral, 0.5 * mass * r * r;
      break;
    }
    case ShapeType::kCapsule: {
      // cylinder plus two hemispheres, mass split by volume; hemisphere centroid at 3r/8 from the
      // flat face, parallel-axis shift to the capsule centre (standard result, e.g. Eberly 2002)
      constexpr Real kPi = std::numbers::pi;
      const Real v_cyl = kPi * r * r * h;
      const Real v_sph = 4.0 / 3.0 * kPi * r * r * r;
      const Real m_cyl = mass * v_cyl / (v_cyl + v_sph);
      const Real m_sph = mass - m_cyl;
      const Real axial = 0.5 * m_cyl * r * r + 0.4 * m_sph * r * r;
      const Real lateral =
          m_cyl * (3 * r * r + h * h) / 12 + m_sph * (0.4 * r * r + 0.25 * h * h + 0.375 * h * r);
      inertia.diagonal() << lateral, lateral, axial;
      break;
    }
    case ShapeType::kConvexHull:
      if (shape.hull && shape.hull->volume > 0) {
        inertia = mass / shape.hull->volume * shape.hull->unit_inertia;
      }
      break;
    case ShapeType::kMesh:
      if (shape.mesh && shape.mesh->mass.volume > 0) {
        inertia = mass / shape.mesh->mass.volume * shape.mesh->mass.unit_inertia;
      } else if (shape.mesh) {
        // an open mesh (given an explicit mass) has no inside to integrate: the solid box of
        // its bounds stands in, so the body still has a rotational inertia
        ShapeGeometry bounds;
        bounds.type = ShapeType::kBox;
        bounds.half_extents = 0.5 * (shape.mesh->upper - shape.mesh->lower);
        inertia = ShapeUnitInertia(bounds, mass);
      }
      break;
    case ShapeType::kSdf:
    case ShapeType::kPlane:
    case ShapeType::kNone:
      break;
  }
  return inertia;
}


Real BoundingRadius(const ShapeGeometry& geometry) {
  switch (geometry.type) {
    case ShapeType::kSphere:
      return geometry.radius;
    case ShapeType::kBox:
      return geometry.half_extents.norm();
    case ShapeType::kCapsule:
      return geometry.half_length + geometry.radius;
    case ShapeType::kCylinder:
      return std::hypot(geometry.half_length, geometry.radius);
    case ShapeType::kConvexHull: {
      Real radius = 0;
      if (geometry.hull) {
        for (const Vec3& v : geometry.hull->vertices) radius = std::max(radius, v.norm());
      }
      return radius;
    }
    case ShapeType::kMesh:
      return geometry.mesh
                 ? geometry.mesh->lower.cwiseAbs().cwiseMax(geometry.mesh->upper.cwiseAbs()).norm()
                 : 0;
    case ShapeType::kSdf:  // an analytic field may be unbounded
    case ShapeType::kPlane:
    case ShapeType::kNone:
      break;
  }
  return std::numeric_limits<Real>::infinity();
}

}  // namespace sim
