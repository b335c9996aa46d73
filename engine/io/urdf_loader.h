// URDF robot loader: a robot description -> UrdfRobot (validated, with the line of every element),
// then UrdfRobot -> bodies, shapes and joints of a Model. urdfdom parses the model; a tinyxml2 walk
// of the same text checks every value first so each problem is reported as `robot.urdf:42: error:
// ...` naming the link or joint. Mesh and texture files are resolved (existence checked) by the
// parser; AddRobotToModel loads the meshes (through the shared MeshCache) into collision shapes
// (convex hulls or SDF-backed meshes) and visuals.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim::io {

/// Most links, and most joints, of one robot: far above any robot we know of (Fetch has 25
/// links). A larger file is refused at its first link or joint over the limit, before urdfdom
/// reads it (urdfdom takes 47 s on a chain of 10^6 links).
inline constexpr int kMaxUrdfLinks = 10000;

struct UrdfOptions {
  /// Roots searched for `package://pkg/rest` before CONTACT_STUDIO_PACKAGE_PATH and
  /// ROS_PACKAGE_PATH (both colon-separated): R/pkg/rest, and R/rest when R's basename is pkg.
  std::vector<std::string> package_paths;
  /// When not empty, mesh and texture files must lie (symbolic links followed) inside one of
  /// these folders or a package root: a scene's robot gets the scene's folders.
  std::vector<std::string> resource_roots;
};

/// One collision or visual geometry of a link, in the link frame.
struct UrdfGeometry {
  ShapeGeometry shape;  ///< type kNone for meshes
  bool is_mesh = false;
  std::string mesh_uri;            ///< as written in the file
  std::string mesh_path;           ///< resolved existing file, empty when unresolved
  Vec3 mesh_scale = Vec3::Ones();  ///< <mesh scale> per axis
  Pose X_LS;                       ///< geometry origin in the link frame
  int line = 0;
  // visuals: the URDF <material> (its own or the robot-level one it names)
  std::string material;    ///< material name, "" when none or unnamed
  bool has_color = false;  ///< the material gives <color rgba>
  std::array<float, 4> color = {0.7f, 0.7f, 0.7f, 1.0f};  ///< RGBA [0, 1] as written
  std::string texture;                                    ///< resolved <texture filename>, or ""
};

struct UrdfLink {
  std::string name;
  int line = 0;
  bool has_inertial = false;
  Real mass = 0;                ///< [kg]
  Pose X_LI;                    ///< inertial frame (COM, principal or not) in the link frame
  Mat3 inertia = Mat3::Zero();  ///< about the COM, inertial frame [kg·m²]
  std::vector<UrdfGeometry> collisions;
  std::vector<UrdfGeometry> visuals;
};

enum class UrdfJointType { kRevolute, kContinuous, kPrismatic, kFixed, kFloating, kPlanar };

/// "revolute", "continuous", ... as in URDF.
const char* UrdfJointTypeName(UrdfJointType type);

struct UrdfJoint {
  std::string name;
  int line = 0;
  UrdfJointType type = UrdfJointType::kFixed;
  int parent = -1;            ///< link index
  int child = -1;             ///< link index
  Pose X_PJ;                  ///< joint origin in the parent link frame (= child link at q=0)
  Vec3 axis = Vec3::UnitX();  ///< unit axis in the joint frame
  bool has_limits = false;
  Real lower = 0, upper = 0;  ///< [rad] or [m]
  Real velocity = 0;          ///< <limit velocity> [rad/s] or [m/s]; 0: none given
  Real effort = 0;            ///< <limit effort> [N·m] or [N]; 0: none given
  Real damping = 0;           ///< <dynamics damping> [N·m·s/rad] or [N·s/m]
  Real friction = 0;          ///< <dynamics friction> [N·m] or [N]
  int mimic_leader = -1;      ///< <mimic joint>: index of the leader joint, −1 for none
  Real mimic_multiplier = 1;  ///< θ = multiplier·θ_leader + offset
  Real mimic_offset = 0;      ///< [rad] or [m]
};

struct UrdfRobot {
  std::string name;
  std::string source;  ///< file path as given
  std::vector<UrdfLink> links;
  std::vector<UrdfJoint> joints;
  int root_link = 0;
  int mesh_count = 0;     ///< <mesh> elements (visual and collision)
  int mesh_resolved = 0;  ///< of those, how many name an existing file
  int mimic_count = 0;    ///< joints with <mimic>

  int FindLink(const std::string& name) const;
  Real TotalMass() const;
  /// "25 joints: 6 revolute, 5 continuous, 4 prismatic, 10 fixed" (types that occur, URDF order).
  std::string JointSummary() const;
};

/// Parses and validates URDF text; `source_name` is used in diagnostics and relative mesh paths
/// are resolved against its directory. Errors make the result empty; warnings come with a value.
Expected<UrdfRobot> ParseUrdf(const std::string& text, const std::string& source_name,
                              const UrdfOptions& options);

/// Same, from a file.
Expected<UrdfRobot> LoadUrdf(const std::string& path, const UrdfOptions& options);

/// The roots searched for package:// resources: `package_paths`, then those of
/// CONTACT_STUDIO_PACKAGE_PATH and ROS_PACKAGE_PATH.
std::vector<std::string> PackageRoots(const std::vector<std::string>& package_paths);

/// Resolves a mesh URI (package://, file://, relative to `base_dir`, absolute). Returns the
/// existing file or "", and appends every path tried to `tried`.
std::string ResolveResource(const std::string& uri, const std::string& base_dir,
                            const std::vector<std::string>& package_paths,
                            std::vector<std::string>* tried);

/// How a robot's collision meshes collide.
enum class MeshCollision {
  kHull,  ///< the convex hull of the mesh (qhull): fast, what robotics users expect
  kSdf,   ///< the triangle mesh with its grid SDF (chapter-6 contacts): exact, slower
};

struct RobotPlacement {
  std::string name_prefix;  ///< body/joint names become prefix + link name ("fetch/")
  Pose X_W_base;            ///< root link pose in the world
  bool fixed_base = true;   ///< fixed joint from the world to the root body
  std::map<std::string, Real> initial_positions;  ///< joint name -> position [rad] or [m]
  Real hold_stiffness = 0;                        ///< > 0: position drive on every actuated joint
  Real hold_damping = 0;                          ///< added to each actuated joint's URDF damping
  bool weld_fixed_joints = true;                  ///< links joined by fixed joints become one body
  int material = 0;                               ///< material of every shape
  /// false: the robot's bodies never collide with each other (coarse primitive shapes of
  /// non-adjacent links often overlap, e.g. Allegro finger bases); adjacent links never collide.
  /// true: they do, except pairs joined by a joint and pairs already touching in the initial
  /// configuration (body_collision_exclusions, the rule of MoveIt's default-pose filter).
  bool self_collision = false;
  MeshCollision collision_meshes = MeshCollision::kHull;
  int sdf_resolution = 64;  ///< grid cells along the longest side of each SDF (kSdf)
  int hull_vertices = 64;   ///< vertex budget of each collision hull (kHull), ≥ 4
  bool visuals = true;      ///< false: no Model visuals (headless checks)
  /// Per-joint drives by URDF joint name, replacing the hold drive (and the URDF damping).
  std::map<std::string, JointDrive> drives;
  /// Factor on every URDF <dynamics friction> (0 disables joint friction; files often carry
  /// placeholder values, e.g. 10 N·m on the Allegro fingers).
  Real joint_friction_scale = 1;
  /// true: every drive's force is limited to its joint's URDF <limit effort> (a motor's
  /// saturation; a scene drive's own `max_force` wins); false: unbounded drives
  bool effort_limits = true;
};

/// Adds the robot's bodies, collision shapes (primitives; meshes as hulls or SDF-backed meshes),
/// visuals and joints (with their friction and mimic couplings) to `model` and their poses at
/// the requested configuration to `state`. Body frames are at the COM (see the .cpp). Problems
/// (unknown joint in initial_positions, massless bodies, mesh files that do not load) go to
/// `diagnostics` located at the URDF line. Returns the body index of the root link. `progress`
/// advances by mesh file; a cancel skips the files not yet started (each then reports the
/// kLoadCancelledMessage error).
int AddRobotToModel(const UrdfRobot& robot, const RobotPlacement& placement, Model* model,
                    State* state, Diagnostics* diagnostics, const LoadProgress& progress = {});

}  // namespace sim::io
