// Model: everything about a scene that does not change while it is simulated (bodies, shapes,
// materials, options). Immutable once built; shared read-only between threads as
// std::shared_ptr<const Model>. Editing a scene makes a new Model (MuJoCo mjModel, Newton Model).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/math.h"

namespace sim {

/// Index of the world (static) frame in `shape_body` and joint parent fields.
inline constexpr int kWorldBody = -1;

enum class ShapeType { kNone = 0, kPlane, kSphere, kBox, kCapsule, kCylinder };

/// Lower-case name used in scene files and reports ("box", "sphere", ...).
const char* ShapeTypeName(ShapeType type);

/// Geometry of one collision/visual shape, in the frame of the body it is attached to.
/// Capsules and cylinders are aligned with their local z axis (as in URDF).
struct ShapeGeometry {
  ShapeType type = ShapeType::kNone;
  Vec3 half_extents = Vec3::Zero();  ///< box half sizes [m]
  Real radius = 0;                   ///< sphere, capsule, cylinder radius [m]
  Real half_length = 0;              ///< capsule/cylinder half length of the axis segment [m]
};

/// Surface and bulk properties shared by shapes.
struct Material {
  std::string name;
  Real friction = 0.5;                              ///< Coulomb coefficient μ [-]
  Real density = 1000;                              ///< [kg/m³], used when a body gives no mass
  std::array<float, 3> color = {0.7f, 0.7f, 0.7f};  ///< linear RGB in [0, 1]
};

/// Global simulation options of a scene.
struct ModelOptions {
  Vec3 gravity = Vec3(0, 0, -9.81);  ///< [m/s²]
  Vec3 up = Vec3::UnitZ();           ///< world up axis (unit), for cameras and the ground grid
  Real dt = 1.0 / 120.0;             ///< time step [s]
  std::string solver = "nsn";        ///< solver name (see architecture §3)
};

/// Default viewpoint of a scene: an orbit camera around `target`.
struct CameraSetup {
  Vec3 target = Vec3(0, 0, 0.5);  ///< orbit centre [m]
  Real distance = 6;              ///< eye distance from the target [m]
  Real yaw_deg = 35;              ///< rotation about the up axis [deg]
  Real pitch_deg = 25;            ///< elevation above the horizon [deg]
  Real fov_y_deg = 45;            ///< vertical field of view [deg]
};

struct Model {
  std::string name;         ///< scene title
  std::string description;  ///< one-line description for `contact-sim scenes`
  ModelOptions options;
  CameraSetup camera;
  std::vector<Material> materials;

  // bodies (rigid, maximal coordinates); index = body id
  std::vector<std::string> body_name;
  std::vector<Real> body_mass;             ///< [kg]; 0 for static bodies
  std::vector<Mat3> body_inertia;          ///< about the COM, body frame [kg·m²]
  std::vector<unsigned char> body_static;  ///< 1: never moves (infinite mass)

  // shapes; index = shape id
  std::vector<std::string> shape_name;
  std::vector<ShapeGeometry> shape_geometry;
  std::vector<int> shape_body;      ///< owning body or kWorldBody
  std::vector<Pose> shape_X_BS;     ///< shape frame in the body frame (world frame for kWorldBody)
  std::vector<int> shape_material;  ///< index into materials
  std::vector<std::array<float, 3>> shape_color;  ///< linear RGB [0, 1]

  int body_count() const { return static_cast<int>(body_name.size()); }
  int shape_count() const { return static_cast<int>(shape_geometry.size()); }
};

/// Volume of a closed shape [m³]; 0 for planes.
Real ShapeVolume(const ShapeGeometry& shape);

/// Rotational inertia of a solid shape of mass `mass` [kg] about its centre, shape frame [kg·m²].
Mat3 ShapeUnitInertia(const ShapeGeometry& shape, Real mass);

}  // namespace sim
