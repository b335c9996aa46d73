// Internal to the scene reader (scene_file.cpp and the scene_*.cpp readers of its objects): typed
// reads out of the located JSON tree, each problem reported at the line and JSON pointer of the
// offending value.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/geometry/visual_mesh.h"
#include "engine/io/file_roots.h"
#include "engine/io/json_document.h"
#include "engine/io/scene_file.h"
#include "engine/io/text_util.h"  // Join, FormatNumber for messages
#include "engine/model/model.h"
#include "engine/state/state.h"

namespace sim::io {

/// Degrees to radians, for the scene keys ending in `_deg`.
inline constexpr double kDegToRad = std::numbers::pi / 180.0;
/// Joint positions, limits and drive targets beyond this are typos, not mechanisms [rad or m].
inline constexpr double kMaxJointCoordinate = 1e4;
/// Finest `sdf_resolution` of a mesh or robot: the grid SDF is built in O(N³) time and memory
/// (a 0.56 x 0.56 x 0.66 m Fetch base shell of 1728 triangles: 7.5 s of CPU at 256, 60 s and
/// 1 GB at 512).
inline constexpr int kMaxSdfResolution = 256;
/// At most this many names are listed in "unknown name" messages.
inline constexpr int kMaxListedNames = 12;

/// What an object name of the scene stands for, so joints can refer to objects by name.
struct ObjectRef {
  enum class Kind { kInvalid = 0, kBody, kFixed, kParticle };
  Kind kind = Kind::kInvalid;  ///< kInvalid: the object had errors (already reported)
  int index = -1;              ///< body id (kBody) or particle id (kParticle)
};
using ObjectNames = std::map<std::string, ObjectRef>;

class SceneReader {
 public:
  SceneReader(std::string source, Diagnostics* diagnostics, const SceneOptions& options)
      : source_(std::move(source)),
        diagnostics_(diagnostics),
        options_(options),
        file_roots_(FileRoots::ForScene(source_, options.file_roots)) {}

  void Error(const JsonValue& at, const std::string& message) {
    diagnostics_->Error(source_, at.line(), at.pointer(), message);
  }
  void Warning(const JsonValue& at, const std::string& message) {
    diagnostics_->Warning(source_, at.line(), at.pointer(), message);
  }

  /// Warns about members of `object` not in `known`.
  void CheckKeys(const JsonValue& object, std::initializer_list<const char*> known,
                 const std::string& what);

  bool ExpectType(const JsonValue& value, JsonValue::Type type, const std::string& what);

  /// Number member `key`; `*out` keeps its default when absent. Checks [min, max], or (min, max]
  /// when `exclusive_min`.
  bool ReadNumber(const JsonValue& object, const char* key, double* out, double min, double max,
                  const std::string& what, bool exclusive_min = false);

  /// Whole-number member `key` in [min, max].
  bool ReadInt(const JsonValue& object, const char* key, int* out, int min, int max,
               const std::string& what);

  bool ReadString(const JsonValue& object, const char* key, std::string* out,
                  const std::string& what);

  bool ReadBool(const JsonValue& object, const char* key, bool* out, const std::string& what);

  /// String member `key` that must be one of `choices`; the error lists them.
  template <typename Enum>
  bool ReadEnum(const JsonValue& object, const char* key,
                std::initializer_list<std::pair<const char*, Enum>> choices, Enum* out,
                const std::string& what) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    if (!ExpectType(*value, JsonValue::Type::kString, what + " '" + key + "'")) return false;
    std::vector<std::string> names;
    for (const auto& [name, choice] : choices) {
      if (value->string() == name) {
        *out = choice;
        return true;
      }
      names.emplace_back(name);
    }
    Error(*value,
          what + " '" + key + "' is '" + value->string() + "', expected one of: " + Join(names));
    return false;
  }

  /// Array of exactly N finite numbers, each in [min, max].
  template <int N>
  bool ReadArray(const JsonValue& object, const char* key, Eigen::Matrix<double, N, 1>* out,
                 const std::string& what, double min = -1e9, double max = 1e9) {
    const JsonValue* value = object.Find(key);
    if (value == nullptr) return true;
    const std::string name = what + " '" + key + "'";
    if (!value->is_array() || static_cast<int>(value->items().size()) != N) {
      Error(*value, name + " must be an array of " + std::to_string(N) + " numbers");
      return false;
    }
    Eigen::Matrix<double, N, 1> result;
    for (int i = 0; i < N; ++i) {
      const JsonValue& item = value->items()[i];
      if (!item.is_number()) {
        Error(item, name + " must be an array of " + std::to_string(N) + " numbers, element " +
                        std::to_string(i) + " is a " + JsonValue::TypeName(item.type()));
        return false;
      }
      if (item.number() < min || item.number() > max) {
        Error(item, name + " element " + std::to_string(i) + " is " + FormatNumber(item.number()) +
                        ", expected a value in [" + FormatNumber(min) + ", " + FormatNumber(max) +
                        "]");
        return false;
      }
      result[i] = item.number();
    }
    *out = result;
    return true;
  }

  const std::string& source() const { return source_; }
  Diagnostics* diagnostics() { return diagnostics_; }
  const SceneOptions& options() const { return options_; }
  /// The folders the scene's files may be in.
  const FileRoots& file_roots() const { return file_roots_; }

  /// `path` (a file or folder the scene names at `at`) when it lies inside file_roots(), else ""
  /// after an error at `at` naming the roots and how to allow more.
  std::string Confined(const std::string& path, const JsonValue& at, const std::string& what);

  /// The share of the load that the object being read reports to, and where it checks for a
  /// cancel (ParseScene sets it per object; unmonitored by default).
  const LoadProgress& progress() const { return progress_; }
  void set_progress(const LoadProgress& progress) { progress_ = progress; }

 private:
  std::string source_;
  Diagnostics* diagnostics_;
  LoadProgress progress_;
  SceneOptions options_;
  FileRoots file_roots_;
};

/// Collision filter of an object's shapes (see Model::shape_collision_group): 'collision_group'
/// is a group index in [0, 31] (default 0), 'collides_with' an array of group indices (default:
/// every group).
struct CollisionFilter {
  std::uint32_t group = 1;   ///< bit of the object's group
  std::uint32_t mask = ~0u;  ///< bits of the groups it collides with
  bool given = false;        ///< either key was present
};

/// Reads 'collision_group' and 'collides_with' of `object`. Returns false after reporting.
bool ReadCollisionFilter(SceneReader& reader, const JsonValue& object, const std::string& what,
                         CollisionFilter* filter);

/// Gives shapes [first_shape, shape_count) the filter; the model's filter arrays are created
/// (earlier shapes: group 0, all groups) only when some object sets a filter.
void ApplyCollisionFilter(const CollisionFilter& filter, int first_shape, Model* model);

/// Orientation from "quaternion_wxyz" or "rpy_deg" (URDF convention: R = Rz Ry Rx).
bool ReadOrientation(SceneReader& reader, const JsonValue& object, Quat* q,
                     const std::string& what);

/// Object of type "urdf": loads the robot (scene_urdf.cpp) and registers its bodies as
/// "name/link" in `names`.
void ReadUrdfObject(SceneReader& reader, const JsonValue& object, const std::string& name,
                    const std::map<std::string, int>& materials, ObjectNames* names, Model* model,
                    State* state);

/// A drive object {stiffness, damping, target_position or target_position_deg (`angular` only),
/// target_velocity} (scene_joints.cpp); `drive_what` names it in messages.
bool ReadDriveObject(SceneReader& reader, const JsonValue& value, bool angular, JointDrive* drive,
                     const std::string& drive_what);

/// Geometry of an object of type "mesh" (a surface file as a hull or an SDF-backed mesh) or
/// "sdf" (an analytic field), scene_shapes.cpp, and how it is drawn (`*visual`: the hull's faces,
/// the file's surface with its materials, or the field's isosurface; may be null). Returns false
/// after reporting.
bool ReadFileGeometry(SceneReader& reader, const JsonValue& object, const std::string& type,
                      ShapeGeometry* geometry, const std::string& what,
                      std::shared_ptr<const VisualMesh>* visual);

/// `file` of an object resolved against the scene's folder; "" after reporting its absence.
std::string ResolveFile(SceneReader& reader, const JsonValue& object, const std::string& what);

/// Appends the diagnostics of a file the scene loaded (a mesh, a URDF), each followed by a note
/// at the scene value `at` that loaded it, saying `note` ("loaded by <what>").
void AppendWithNote(SceneReader& reader, const Diagnostics& from, const JsonValue& at,
                    const std::string& note);

/// Object of type "tetmesh": a deformable solid whose nodes become particles, from a tet mesh
/// file, a closed surface file or a primitive (tetrahedralized), with its material, fixed nodes
/// and activation (scene_soft_bodies.cpp).
void ReadTetMeshObject(SceneReader& reader, const JsonValue& object, const std::string& name,
                       const std::map<std::string, int>& materials, ObjectNames* names,
                       Model* model, State* state);

/// Orbit camera fields {target, distance, yaw_deg, pitch_deg, fov_deg} of `camera` into
/// `*setup` (scene_extras.cpp); other keys than these and `extra_keys` are warnings.
bool ReadCameraSetup(SceneReader& reader, const JsonValue& camera, CameraSetup* setup,
                     const std::string& what, std::initializer_list<const char*> extra_keys = {});

/// The optional `cameras` array of named views; the first becomes the default view when the
/// scene gives no `camera`.
void ReadCameras(SceneReader& reader, const JsonValue& root, bool has_default_camera, Model* model);

/// The `follow` bodies of `camera` and of the named views in `cameras` (CameraSetup::follow_body);
/// needs the objects read.
void ReadCameraFollow(SceneReader& reader, const JsonValue& root, const ObjectNames& objects,
                      Model* model);

/// The optional `friction_pairs` array: [{materials: [a, b], friction: μ}].
void ReadFrictionPairs(SceneReader& reader, const JsonValue& root,
                       const std::map<std::string, int>& materials, Model* model);

/// The optional `probes` array; needs the objects and joints already read.
void ReadProbes(SceneReader& reader, const JsonValue& root, const ObjectNames& objects,
                Model* model);

/// The `attachments` of every tetmesh object in `objects` (the scene's objects array): nodes held
/// at points of bodies. Needs all objects read (attachments name bodies by object name).
void ReadSoftBodyAttachments(SceneReader& reader, const JsonValue& objects,
                             const ObjectNames& names, const State& state, Model* model);

/// Reads the optional top-level `joints` array into the model's joint_* arrays. Needs the objects
/// already read: `objects` maps names to bodies, `state` holds their initial poses.
void ReadJoints(SceneReader& reader, const JsonValue& root, const ObjectNames& objects,
                const State& state, Model* model);

/// Geometry of a primitive or mesh object by its `type` value (scene_file.cpp).
/// `*visual` receives the drawn surface of a mesh.
bool ReadShapeGeometry(SceneReader& reader, const JsonValue& object, const JsonValue& type_value,
                       ShapeGeometry* geometry, const std::string& what,
                       std::shared_ptr<const VisualMesh>* visual);

/// `material` of an object by name; `*material` is unchanged when absent (scene_file.cpp).
bool ReadObjectMaterial(SceneReader& reader, const JsonValue& object,
                        const std::map<std::string, int>& materials, int* material,
                        const std::string& what);

/// `color` [r, g, b] in [0, 1]; `*color` is unchanged when absent (scene_file.cpp).
bool ReadObjectColor(SceneReader& reader, const JsonValue& object, std::array<float, 3>* color,
                     const std::string& what);

/// Object of type "compound": one body (or fixed world shapes) of several primitive or mesh
/// shapes, mass properties combined (scene_compound.cpp).
void ReadCompoundObject(SceneReader& reader, const JsonValue& object, const std::string& name,
                        const std::map<std::string, int>& materials, ObjectNames* names,
                        Model* model, State* state);

/// The optional Matchstick coefficients 'friction_major' and 'friction_minor' of a material or
/// friction pair (negative: `friction`), checked μ_major ≥ μ_minor and μ_minor > 0 when
/// μ_major > 0 (scene_file.cpp). Returns false after reporting.
bool ReadFrictionAxes(SceneReader& reader, const JsonValue& object, double friction, double* major,
                      double* minor, const std::string& what);

/// What ReadStructureField returns after reporting errors.
inline constexpr int kBadStructureField = -2;

/// The projection a shape's structure field gets when the scene names none: planar along the
/// plane normal for planes, cylindrical about z for spheres, capsules and cylinders, the texture
/// coordinates of a mesh that has them, else triplanar (scene_structure.cpp).
FieldProjectionSpec DefaultFieldProjection(const ShapeGeometry& geometry);

/// Reads `object`[key] (a structure field: {"procedural": kind, parameters} or {"image": PNG},
/// with "strength", "projection", "tile_size") into a new entry of model->structure_fields and
/// returns its index; −1 when the key is absent or null, kBadStructureField after errors.
/// `has_uvs`: whether the surface has texture coordinates ("projection": "uv" needs them).
int ReadStructureField(SceneReader& reader, const JsonValue& object, const char* key,
                       const FieldProjectionSpec& default_projection, bool has_uvs,
                       const std::string& owner, Model* model);

/// The same with a triplanar default projection and no texture coordinates (robots, compounds as a
/// whole, tet meshes); `ok` false skips the read (−1), so errors are not reported twice.
inline int ReadTriplanarStructureField(SceneReader& reader, const JsonValue& object,
                                       const char* key, const std::string& owner, bool ok,
                                       Model* model) {
  if (!ok) return -1;
  return ReadStructureField(reader, object, key, {.kind = FieldProjection::kTriplanar}, false,
                            owner, model);
}

/// Gives shapes [first_shape, shape_count) the structure field `field` (−1: none), creating the
/// model's shape_structure_field array (earlier shapes: none) when a field first appears.
void ApplyStructureField(int field, int first_shape, Model* model);

/// Reads the optional top-level `script` array (keyframed joint drive targets, scene_script.cpp)
/// into model->joint_script. Needs every joint of the scene already in the model.
void ReadScript(SceneReader& reader, const JsonValue& root, Model* model);

/// Whether joint j is revolute, continuous or prismatic with a drive (scene_script.cpp).
bool DrivableJoint(const Model& model, int j);

/// "a, b, c, ... (n more)" of the drivable joints, or how to give joints drives.
std::string DrivableJointNames(const Model& model);

/// Reads the optional top-level `keyframes` array (scene_keyframes.cpp) into `key_frames`: each
/// the initial state at its time with the bodies it names moved, and the drive targets it names
/// commanded. Needs every body and joint of the scene already in the model.
void ReadKeyFrames(SceneReader& reader, const JsonValue& root, const Model& model,
                   const State& initial_state, std::vector<KeyFrame>* key_frames);

/// Reads the optional top-level `teleop` array (scene_teleop.cpp) into model->teleop_targets.
/// Needs every body, link frame and joint of the scene already in the model.
void ReadTeleop(SceneReader& reader, const JsonValue& root, Model* model);

}  // namespace sim::io
