// URDF robot loader: a robot description -> UrdfRobot (validated, with the line of every element),
// then UrdfRobot -> bodies, shapes and joints of a Model. urdfdom parses the model; a tinyxml2 walk
// of the same text checks every value first so each problem is reported as `robot.urdf:42: error:
// ...` naming the link or joint. Mesh files are resolved (existence checked), not loaded.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim::io {

struct UrdfOptions {
  /// Roots searched for `package://pkg/rest` before CONTACT_STUDIO_PACKAGE_PATH and
  /// ROS_PACKAGE_PATH (both colon-separated): R/pkg/rest, and R/rest when R's basename is pkg.
  std::vector<std::string> package_paths;
};

/// One collision or visual geometry of a link, in the link frame.
struct UrdfGeometry {
  ShapeGeometry shape;  ///< type kNone for meshes
  bool is_mesh = false;
  std::string mesh_uri;   ///< as written in the file
  std::string mesh_path;  ///< resolved existing file, empty when unresolved
  Pose X_LS;              ///< geometry origin in the link frame
  int line = 0;
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
  Real damping = 0, friction = 0;
};

struct UrdfRobot {
  std::string name;
  std::string source;  ///< file path as given
  std::vector<UrdfLink> links;
  std::vector<UrdfJoint> joints;
  int root_link = 0;
  int mesh_count = 0;     ///< <mesh> elements (visual and collision)
  int mesh_resolved = 0;  ///< of those, how many name an existing file

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

/// Resolves a mesh URI (package://, file://, relative to `base_dir`, absolute). Returns the
/// existing file or "", and appends every path tried to `tried`.
std::string ResolveResource(const std::string& uri, const std::string& base_dir,
                            const std::vector<std::string>& package_paths,
                            std::vector<std::string>* tried);

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
  bool self_collision = false;
};

/// Adds the robot's bodies, primitive collision shapes and joints to `model` and their poses at
/// the requested configuration to `state`. Body frames are at the COM (see the .cpp). Problems
/// (unknown joint in initial_positions, massless bodies, unsupported features) go to
/// `diagnostics` located at the URDF line. Returns the body index of the root link.
int AddRobotToModel(const UrdfRobot& robot, const RobotPlacement& placement, Model* model,
                    State* state, Diagnostics* diagnostics);

}  // namespace sim::io
