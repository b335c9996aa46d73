// Model: everything about a scene that does not change while it is simulated (bodies, shapes,
// materials, options). Immutable once built; shared read-only between threads as
// std::shared_ptr<const Model>. Editing a scene makes a new Model (MuJoCo mjModel, Newton Model).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/math.h"
#include "engine/model/structure_field.h"
#include "engine/model/teleop_spec.h"
#include "engine/solvers/solver_options.h"

namespace sim {

/// Index of the world (static) frame in `shape_body` and joint parent fields.
inline constexpr int kWorldBody = -1;

struct ConvexHull;
struct CollisionMesh;
struct VisualMesh;
class AnalyticSdf;

enum class ShapeType {
  kNone = 0,
  kPlane,
  kSphere,
  kBox,
  kCapsule,
  kCylinder,
  kConvexHull,  ///< convex polytope (qhull), e.g. of a robot link's collision mesh
  kMesh,        ///< triangle mesh, with a grid SDF when closed (seed 000 chapter 6 contacts)
  kSdf,         ///< analytic signed distance field: primitives and their combinations
};

inline constexpr int kShapeTypeCount = 9;

/// Lower-case name used in scene files and reports ("box", "sphere", ...).
const char* ShapeTypeName(ShapeType type);

/// Geometry of one collision/visual shape, in the frame of the body it is attached to.
/// Capsules and cylinders are aligned with their local z axis (as in URDF). Hulls, meshes and
/// fields are immutable and shared between models (an edited scene reuses them).
struct ShapeGeometry {
  ShapeType type = ShapeType::kNone;
  Vec3 half_extents = Vec3::Zero();        ///< box half sizes [m]
  Real radius = 0;                         ///< sphere, capsule, cylinder radius [m]
  Real half_length = 0;                    ///< capsule/cylinder half length of the axis segment [m]
  std::shared_ptr<const ConvexHull> hull;  ///< kConvexHull
  std::shared_ptr<const CollisionMesh> mesh;  ///< kMesh
  std::shared_ptr<const AnalyticSdf> sdf;     ///< kSdf
};

/// Radius of a sphere around the shape origin that holds the shape [m]; infinite for planes and
/// analytic fields (collision bounds, the studio's lane spacing).
Real BoundingRadius(const ShapeGeometry& geometry);

/// Surface and bulk properties shared by shapes.
struct Material {
  std::string name;
  Real friction = 0.5;  ///< Coulomb coefficient μ [-]
  /// anisotropic (Matchstick) coefficients along and across a structure field's grain,
  /// μ_major ≥ μ_minor [-]; negative means `friction` (isotropic). They act only where a contact
  /// has a structure direction (contact_material.h).
  Real friction_major = -1;
  Real friction_minor = -1;
  Real major() const { return friction_major < 0 ? friction : friction_major; }
  Real minor() const { return friction_minor < 0 ? friction : friction_minor; }
  /// coefficient of restitution e in [0, 1]: the separating over the approaching normal speed of
  /// an impact; a pair takes the larger of its two (contact_material.h) [-]
  Real restitution = 0;
  Real density = 1000;                              ///< [kg/m³], used when a body gives no mass
  std::array<float, 3> color = {0.7f, 0.7f, 0.7f};  ///< linear RGB in [0, 1]
};

/// Constitutive model of a soft body's tetrahedra (engine/fem/fem_material.h).
enum class FemMaterialModel { kStableNeoHookean = 0, kLinearCorotational };

const char* FemMaterialModelName(FemMaterialModel model);  ///< "neo_hookean", "corotational"

/// Global simulation options of a scene.
struct ModelOptions {
  Vec3 gravity = Vec3(0, 0, -9.81);  ///< [m/s²]
  Vec3 up = Vec3::UnitZ();           ///< world up axis (unit), for cameras and the ground grid
  SolverOptions solver;              ///< the running solver, the step's and every solver's settings
};

/// kPlanar (URDF "planar"): the child translates in the plane normal to the joint axis and
/// rotates about the axis (3 locked rows: no motion along the normal, no tilt of the normal).
enum class JointType { kNone = 0, kFixed, kRevolute, kContinuous, kPrismatic, kBall, kPlanar };

/// Lower-case name used in scene files and URDF ("revolute", ...).
const char* JointTypeName(JointType type);

/// Number of motion degrees of freedom a joint leaves free (revolute 1, ball 3, fixed 0).
int JointFreedoms(JointType type);

/// Implicit PD drive on a revolute, continuous or prismatic joint: the force is
/// f = −k (θ − θ*) − d (θ̇ − θ̇*), solved implicitly as a compliant row (see
/// engine/dynamics/constraint_rows.h). Units: θ in rad or m, k in N·m/rad or N/m, d in
/// N·m·s/rad or N·s/m.
struct JointDrive {
  Real stiffness = 0;        ///< k; 0 with d > 0 is a velocity drive
  Real damping = 0;          ///< d
  Real target_position = 0;  ///< θ* (overridable per step by Control)
  Real target_velocity = 0;  ///< θ̇*
  /// the most force the drive exerts, |f| ≤ f_max (URDF <limit effort>, a motor's saturation);
  /// +inf: unbounded [N·m or N]
  Real max_force = kInfinity;
  bool enabled() const { return stiffness > 0 || damping > 0; }
};

/// Coupling of two 1-DOF joints (URDF <mimic>): one rigid bilateral row
///   c = θ_follower − multiplier·θ_leader − offset = 0
/// (θ in rad for revolute/continuous joints, m for prismatic ones).
struct JointCoupling {
  int follower = -1;    ///< joint index: revolute, continuous or prismatic
  int leader = -1;      ///< joint index: revolute, continuous or prismatic, not the follower
  Real multiplier = 1;  ///< [-] (m/rad or rad/m between a prismatic and a revolute joint)
  Real offset = 0;      ///< [rad] or [m]
};

/// Contact friction of one pair of materials (scene `friction_pairs`): replaces the mean of
/// the two materials' coefficients for contacts between them.
struct FrictionPair {
  int material_a = 0;
  int material_b = 0;
  Real friction = 0.5;       ///< Coulomb coefficient μ [-]
  Real friction_major = -1;  ///< μ_major of the pair [-]; negative: `friction`
  Real friction_minor = -1;  ///< μ_minor of the pair [-]; negative: `friction`
};

/// The friction coefficients of a pair of materials: isotropic μ and the Matchstick axes.
struct PairFriction {
  Real iso = 0.5;    ///< μ [-]
  Real major = 0.5;  ///< μ_major [-]
  Real minor = 0.5;  ///< μ_minor [-]
};

/// What a probe records once per step (scene `probes`; `contact-sim run --report`).
enum class ProbeKind {
  kBodyPosition = 0,     ///< body COM position [m] (3 values)
  kBodyOrientation,      ///< body orientation quaternion w, x, y, z (4 values)
  kBodyVelocity,         ///< body COM linear velocity [m/s] (3 values)
  kBodyAngularVelocity,  ///< body angular velocity, world frame [rad/s] (3 values)
  kJointPosition,        ///< joint coordinate θ [rad] or s [m] (1 value)
  kJointVelocity,        ///< joint rate θ̇ [rad/s] or ṡ [m/s] (1 value)
  kParticlePosition,     ///< particle position [m] (3 values)
  kSoftBodyCentroid,     ///< mass-weighted mean of a soft body's nodes [m] (3 values)
};

/// A named measurement of the simulation, sampled after every step.
struct Probe {
  std::string name;
  ProbeKind kind = ProbeKind::kBodyPosition;
  int target = -1;  ///< body, joint, particle or soft body index, by kind
};

struct SoftBodyCollision;

/// A deformable solid: particles (its nodes, a contiguous range of the model's particles) joined
/// by tetrahedra. Its boundary triangles collide with shapes and with other soft bodies; the
/// elasticity of the tets belongs to the FEM solver.
struct SoftBody {
  std::string name;
  int first_particle = 0;  ///< the body's nodes are particles [first, first + count)
  int particle_count = 0;
  std::vector<std::array<int, 4>> tets;     ///< global particle ids, positively oriented
  std::vector<Vec3> rest_positions;         ///< node positions at rest (material space) [m]
  std::vector<std::array<int, 3>> surface;  ///< boundary triangles, global particle ids, CCW out
  std::vector<int> surface_tet;             ///< the tet of each boundary triangle
  /// surface topology (representative triangles) and the material-space SDF of the rest shape
  std::shared_ptr<const SoftBodyCollision> collision;
  int material = 0;
  /// structure field of the surface (index into Model::structure_fields), projected in the
  /// material (rest) frame and carried by the deforming triangles; −1: none
  int structure_field = -1;
  Real youngs_modulus = 1e5;  ///< Y [Pa]
  Real poisson_ratio = 0.3;   ///< ν [-]

  // elasticity of the tets (engine/fem, rows of engine/solvers/nsn/element_rows.h)
  FemMaterialModel material_model = FemMaterialModel::kStableNeoHookean;
  /// stiffness-proportional (Rayleigh) material damping β [s]: the element force gains
  /// −β (∂²U/∂s²) ṡ, which damps a mode of angular frequency ω with ratio ζ = βω/2
  Real damping = 0;
  std::vector<Mat3> tet_rest_inverse;  ///< D_m⁻¹ per tet [1/m] (InitSoftBodyElements)
  std::vector<Real> tet_rest_volume;   ///< rest volume per tet [m³] (InitSoftBodyElements)
  /// activation pressure p per tet [Pa] (Ψ_act = −p(J − 1), PneuNet inflation); empty: none
  std::vector<Real> tet_activation;
  /// activation growth G per tet (material space; PneuNet chambers): the tet's rest shape
  /// becomes G·D_m, so only the elastic part F_e = F G⁻¹ stores energy, per grown volume
  /// det(G)·V_e (multiplicative growth). Uniaxial I + (s − 1) d dᵀ or isotropic s·I; empty: none
  std::vector<Mat3> tet_growth;
  /// the activation (pressure and growth) ramps linearly from none to full over this time [s]
  /// (0: at once)
  Real activation_ramp_time = 0;

  int tet_count() const { return static_cast<int>(tets.size()); }
};

/// How a scripted joint target moves from the previous keyframe to this one.
enum class ScriptInterpolation {
  kSmooth = 0,  ///< cubic ease in and out, s = 3u² − 2u³ (zero target velocity at both keys)
  kLinear,      ///< constant target velocity between the keys
  kStep,        ///< holds the previous value, jumps to this one at the key's time
};

/// The keyframes of one scripted joint: drive targets over time, played by Simulation::Step
/// into Control (engine/step/joint_script.h). The first key is at t = 0 (the loader inserts the
/// joint's initial drive target there when the script starts later); after the last key the
/// target holds.
struct JointScriptTrack {
  int joint = -1;                                  ///< a joint with a drive
  std::vector<Real> time;                          ///< [s], strictly increasing, time[0] = 0
  std::vector<Real> value;                         ///< drive target θ* at each key [rad|m]
  std::vector<ScriptInterpolation> interpolation;  ///< into each key (entry 0 unused)
};

/// Default viewpoint of a scene: an orbit camera around `target`.
struct CameraSetup {
  Vec3 target = Vec3(0, 0, 0.5);  ///< orbit centre [m]
  Real distance = 6;              ///< eye distance from the target [m]
  Real yaw_deg = 35;              ///< rotation about the up axis [deg]
  Real pitch_deg = 25;            ///< elevation above the horizon [deg]
  Real fov_y_deg = 45;            ///< vertical field of view [deg]
  /// Body the camera keeps in view (scene `follow`): the target moves with it; kWorldBody: none.
  int follow_body = kWorldBody;
};

/// A named viewpoint of a scene (scene `cameras`), for the studio's camera menu.
struct NamedCamera {
  std::string name;
  CameraSetup setup;
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
  /// Bodies with the same group >= 0 never collide with each other (a robot loaded without
  /// self-collision); -1 collides with everything. Empty (the default) means all -1; otherwise
  /// one entry per body.
  std::vector<int> body_filter_group;

  // shapes; index = shape id
  std::vector<std::string> shape_name;
  std::vector<ShapeGeometry> shape_geometry;
  std::vector<int> shape_body;      ///< owning body or kWorldBody
  std::vector<Pose> shape_X_BS;     ///< shape frame in the body frame (world frame for kWorldBody)
  std::vector<int> shape_material;  ///< index into materials
  std::vector<std::array<float, 3>> shape_color;  ///< linear RGB [0, 1]
  /// How a shape whose geometry is not a primitive (kConvexHull, kMesh, kSdf) is drawn: its
  /// surface as triangles in the shape frame, built once at load; null for primitives. Empty
  /// (as in hand-built test models) means all null.
  std::vector<std::shared_ptr<const VisualMesh>> shape_visual_mesh;
  /// Collision filtering by groups and masks (Bullet/PhysX style): shape s belongs to the groups
  /// whose bits are set in shape_collision_group[s] and collides with the groups set in
  /// shape_collision_mask[s]; two shapes collide only when each one's mask has a bit of the
  /// other's groups. Empty (the default) means group bit 1 (group index 0) and mask "all" for every
  /// shape; otherwise one entry per shape. Particles and soft-body surfaces are in group bit 1,
  /// mask all.
  std::vector<std::uint32_t> shape_collision_group;
  std::vector<std::uint32_t> shape_collision_mask;
  /// Structure field of each shape's surface (index into structure_fields), −1 for none. Empty
  /// (the default) means none for every shape; otherwise one entry per shape.
  std::vector<int> shape_structure_field;
  /// The structure fields of shapes and soft-body surfaces (structure_field.h). The fields are
  /// mutable through the const Model so a painter can edit them between steps; see there.
  std::vector<std::shared_ptr<StructureField>> structure_fields;

  // visuals: render-only geometry of bodies (URDF <visual>, scene objects drawn differently from
  // their collision shapes). A body with at least one visual is drawn by its visuals and its
  // collision shapes are hidden unless the viewer asks for collision geometry; a body without
  // visuals is drawn by its shapes. Index = visual id.
  std::vector<std::string> visual_name;
  std::vector<int> visual_body;   ///< owning body or kWorldBody
  std::vector<Pose> visual_X_BV;  ///< visual frame in the body frame (world for kWorldBody)
  /// kBox, kSphere, kCapsule, kCylinder (sizes as for shapes), or kMesh with visual_mesh set
  std::vector<ShapeGeometry> visual_geometry;
  std::vector<std::shared_ptr<const VisualMesh>> visual_mesh;  ///< kMesh: the mesh, else null
  /// linear RGBA [0, 1]; a mesh visual with alpha 0 keeps the colours and textures of its file
  std::vector<std::array<float, 4>> visual_color;

  // free particles (3 DOF point masses; FEM nodes later); index = particle id
  std::vector<std::string> particle_name;
  std::vector<Real> particle_mass;    ///< [kg], > 0
  std::vector<Real> particle_radius;  ///< contact radius [m]
  std::vector<int> particle_material;
  /// 1: the particle never moves (a clamped FEM node). Particles past the end of the vector
  /// (all of them when it is empty, the default) are free; use particle_is_fixed().
  std::vector<unsigned char> particle_fixed;

  // joints between two bodies (maximal coordinates: each joint is a set of constraint rows);
  // the joint frame J is fixed in both bodies and coincides with them when the joint is at 0
  std::vector<std::string> joint_name;
  std::vector<JointType> joint_type;
  std::vector<int> joint_parent;  ///< body or kWorldBody
  std::vector<int> joint_child;   ///< body (never kWorldBody)
  std::vector<Pose> joint_X_PJ;   ///< joint frame in the parent body frame (world if kWorldBody)
  std::vector<Pose> joint_X_CJ;   ///< joint frame in the child body frame
  std::vector<Vec3> joint_axis;   ///< unit axis in the joint frame (revolute, prismatic)
  std::vector<unsigned char> joint_limited;  ///< 1: lower/upper are unilateral limit rows
  std::vector<Real> joint_lower;             ///< [rad] or [m]
  std::vector<Real> joint_upper;             ///< [rad] or [m]
  std::vector<Real> joint_compliance;        ///< compliance E of the locked rows [m/N]; 0 = rigid
  std::vector<JointDrive> joint_drive;
  /// compliance of the locked rotations [rad/(N·m)] (a bending joint: 1/k for a bending stiffness
  /// k); negative, or no entry (hand-built models), means the same as joint_compliance
  std::vector<Real> joint_angular_compliance;

  // deformable solids over particles
  std::vector<SoftBody> soft_bodies;

  // added with the URDF/scene-format work; each empty in hand-built models, meaning "none"
  /// Coulomb friction bound of each joint's motion [N·m or N] (URDF <dynamics friction>): the
  /// joint resists with up to this torque/force while it sticks, with exactly it while it slides
  /// (one box-constrained row, see constraint_rows.h). Empty means no joint friction; otherwise
  /// one entry per joint.
  std::vector<Real> joint_friction;
  std::vector<JointCoupling> joint_couplings;  ///< mimic joints
  /// speed limit of each joint [rad/s or m/s] (URDF <limit velocity>), 0 for none; empty: none
  /// given. Bounds how fast a drive's target may move (engine/step/target_rate.h).
  std::vector<Real> joint_velocity_limit;
  std::vector<FrictionPair> friction_pairs;  ///< per-pair contact friction
  std::vector<Probe> probes;                 ///< recorded per step by `contact-sim run`
  std::vector<NamedCamera> cameras;          ///< extra named views; `camera` is the default
  /// Body pairs that never collide besides jointed pairs and filter groups (a robot loaded with
  /// self-collision: its links already touching in the initial configuration), (lower, higher).
  std::vector<std::array<int, 2>> body_collision_exclusions;
  // scripted control: keyframed joint drive targets, one track per scripted joint (scene key
  // "script"); empty when the scene has no script
  std::vector<JointScriptTrack> joint_script;
  // attachments: a particle held at a point of a body (grippers, clamps, the cantilever's wall)
  // by three bilateral rows c = x_p − X_WB·p_B (world axes); index = attachment id
  std::vector<int> attachment_particle;
  std::vector<int> attachment_body;         ///< body or kWorldBody
  std::vector<Vec3> attachment_p_B;         ///< point in the body frame (world if kWorldBody) [m]
  std::vector<Real> attachment_compliance;  ///< [m/N]; 0 = rigid
  // named frames fixed in bodies: every URDF link ("robot/link"), also the links welded into
  // their parent's body by fixed joints, which have no body of their own; index = frame id
  std::vector<std::string> frame_name;
  std::vector<int> frame_body;   ///< owning body
  std::vector<Pose> frame_X_BF;  ///< frame in the body frame (the body frame is at the COM)
  /// what an operator can steer (scene `teleop`): end effectors, grippers, synergies, bases
  std::vector<TeleopTarget> teleop_targets;

  int body_count() const { return static_cast<int>(body_name.size()); }
  int shape_count() const { return static_cast<int>(shape_geometry.size()); }
  int particle_count() const { return static_cast<int>(particle_mass.size()); }
  int joint_count() const { return static_cast<int>(joint_type.size()); }
  int visual_count() const { return static_cast<int>(visual_body.size()); }
  /// Joint j's friction bound [N·m or N]; 0 when joint_friction is empty.
  Real JointFrictionLimit(int j) const {
    return joint_friction.empty() ? Real(0) : joint_friction[j];
  }
  int attachment_count() const { return static_cast<int>(attachment_particle.size()); }
  int tet_count() const;  ///< tets of all soft bodies
  bool particle_is_fixed(int p) const {
    return p < static_cast<int>(particle_fixed.size()) && particle_fixed[p] != 0;
  }

  /// Index of the body, particle or joint with this name, or -1.
  int FindBody(const std::string& name) const;
  int FindParticle(const std::string& name) const;
  int FindJoint(const std::string& name) const;
  int FindMaterial(const std::string& name) const;
  /// Index of the named frame (frame_name), or -1.
  int FindFrame(const std::string& name) const;

  /// Whether the group/mask filter lets shapes `a` and `b` collide (see shape_collision_group);
  /// −1 stands for a particle or soft-body surface (group bit 1, mask all).
  bool ShapesMayCollide(int a, int b) const;
  /// Compliance of joint j's locked rotation rows [rad/(N·m)] (joint_angular_compliance when set,
  /// else joint_compliance).
  Real JointAngularCompliance(int j) const;
};

/// Coulomb coefficient of a contact between shapes (or particles) of materials a and b: the
/// `friction_pairs` entry of the pair when there is one, else the mean of the two materials' μ.
Real ContactFriction(const Model& model, int material_a, int material_b);

/// All three coefficients of a pair the same way: the pair's entry, else each the mean of the two
/// materials' (digest §2.12: μ_major, μ_minor "averaged like μ").
PairFriction ContactFrictionAxes(const Model& model, int material_a, int material_b);

/// Structure field of shape s, or null.
inline const StructureField* ShapeStructureField(const Model& model, int s) {
  if (s < 0 || s >= static_cast<int>(model.shape_structure_field.size())) return nullptr;
  const int f = model.shape_structure_field[s];
  return f >= 0 ? model.structure_fields[f].get() : nullptr;
}

/// Lower-case name of a probe kind as written in scene files ("body_position", ...).
const char* ProbeKindName(ProbeKind kind);

/// Number of values a probe of this kind records per step (3 for a position, 1 for a joint).
int ProbeValueCount(ProbeKind kind);

/// Volume of a closed shape [m³]; 0 for planes and open meshes.
Real ShapeVolume(const ShapeGeometry& shape);

/// Centre of mass of a solid shape of uniform density, shape frame [m] (the origin for the
/// symmetric primitives; the centre of the bounds for an open mesh).
Vec3 ShapeCentroid(const ShapeGeometry& shape);

/// Rotational inertia of a solid shape of mass `mass` [kg] about its centroid, shape axes
/// [kg·m²]. An open mesh (no inside) gets the inertia of the solid box of its bounds.
Mat3 ShapeUnitInertia(const ShapeGeometry& shape, Real mass);

}  // namespace sim
