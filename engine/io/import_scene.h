// Importing a lone robot or mesh with the user's settings: its material, its mass (a density or
// a total), the file's up axis, a uniform scale and a pose. The result is an ordinary scene
// (docs/scene-format.md) with the object standing on a ground plane at z = 0, as the studio's
// import dialog shows it: loaded directly, or saved as a scene file that names the object's file
// relative to itself and opens like any other scene (`contact-sim check` accepts it).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/core/math.h"
#include "engine/io/scene_file.h"

namespace sim::io {

/// What kind of object a file becomes.
enum class ImportKind {
  kRobot,        ///< .urdf: an articulated robot
  kTetMesh,      ///< .msh .node .ele .vtk: a soft body
  kSurfaceMesh,  ///< meshes assimp reads: a rigid body (fixed when its surface is open)
};

/// The axis of the file that points up; the import turns it to world +Z.
enum class UpAxis { kPlusZ, kPlusY, kMinusY, kPlusX, kMinusX, kMinusZ };

/// What the import needs to know of the file, read once (InspectImportFile).
struct ImportSource {
  std::string path;  ///< absolute, normalized
  ImportKind kind = ImportKind::kTetMesh;
  /// volume of the tet mesh or the closed surface in the file's units cubed (scale 1) [m³];
  /// 0 for a robot and an open surface
  Real volume = 0;
  bool closed = true;   ///< a surface mesh has an inside (an open one is imported fixed)
  Real robot_mass = 0;  ///< a robot's mass from its inertials [kg]
  int nodes = 0;        ///< tet mesh nodes or surface vertices
  int elements = 0;     ///< tets or triangles
  /// bounds of the file's nodes or vertices (a robot's: of its links' origins), file units
  Vec3 lower = Vec3::Zero(), upper = Vec3::Zero();
};

/// A named set of material values the dialog offers (Young's modulus and Poisson's ratio matter
/// for soft bodies only).
struct ImportMaterialPreset {
  const char* name;
  Real friction;        ///< Coulomb μ with the ground
  Real density;         ///< [kg/m³]
  Real youngs_modulus;  ///< [Pa]
  Real poisson_ratio;
  Vec3 color;  ///< linear RGB in [0, 1]
};

/// The presets, "default" (the scene format's defaults) first.
const std::vector<ImportMaterialPreset>& ImportMaterialPresets();

/// The user's choices. Defaults: the scene format's (a default scene's object, but free to choose).
struct ImportSettings {
  ImportSource source;
  std::string name;           ///< the object's name; empty: the file's stem
  Real friction = 0.5;        ///< μ of the object against the ground
  Real youngs_modulus = 1e5;  ///< soft bodies [Pa], in [1, 1e13]
  Real poisson_ratio = 0.3;   ///< soft bodies, in [−0.99, 0.4999]
  Real density = 1000;        ///< [kg/m³], used unless `total_mass` is set
  /// linear RGB of the object's material (a robot's visuals keep their own colours): a warm clay
  /// that stands out against the grey ground
  Vec3 color = Vec3(0.8, 0.45, 0.25);
  std::optional<Real> total_mass;  ///< [kg]: the object's mass whatever its volume
  UpAxis up = UpAxis::kPlusZ;
  Real scale = 1;                ///< uniform, file units -> m (meshes; robots keep 1)
  Vec3 position = Vec3::Zero();  ///< offset of the footprint's centre from the origin [m]
  Real yaw_deg = 0;              ///< turn about world Z after the up axis is turned [deg]
  bool fixed_base = true;        ///< robots: the root link welded to the world
};

/// The kind of `path` by its extension, or nullopt when no import takes it.
std::optional<ImportKind> ImportKindOf(const std::string& path);

/// Reads `path` for the import (the tet mesh, the surface mesh, the URDF). Errors as the loaders
/// report them, located in the file; an unsupported kind is an error naming the kinds taken.
Expected<ImportSource> InspectImportFile(const std::string& path);

/// The mass the import gives the object [kg]: `total_mass`, else density × volume × scale³; 0
/// for a robot (its own inertials count) and an open surface (imported fixed).
Real ImportedMass(const ImportSettings& settings);

/// The object's size after the up axis is turned and the scale applied, yaw aside: x, y the
/// footprint, z the height [m] (a robot's: of its link origins).
Vec3 ImportedSize(const ImportSettings& settings);

/// The rotation of the import: the up axis to +Z, then `yaw_deg` about Z.
Quat ImportRotation(const ImportSettings& settings);

/// Applies "key=value,key=value" presets (the studio's --import flag) to `settings`: material
/// (a preset's name: its five values), friction, youngs_modulus, poisson_ratio, density, mass,
/// up (z, y, x, -z, -y, -x, with an optional +), scale, x, y, z (the position), yaw (deg), base
/// (fixed or free). Keys it does not take are returned in `*other` ("save=FILE" for the studio)
/// when `other` is given, else are errors. Errors name the entry and what was expected.
Diagnostics ApplyImportPresets(const std::string& presets, ImportSettings* settings,
                               std::vector<std::pair<std::string, std::string>>* other = nullptr);

/// The scene of the import as JSON text for a scene file at `scene_path` (which need not exist):
/// the ground plane, the object standing on it (its lowest point kDefaultSceneClearance above
/// z = 0, its footprint centred on `position`), its file named relative to the scene's folder,
/// and a camera that frames it. The object is loaded once to find its bounds; its diagnostics
/// come with the text. `progress` follows that load.
Expected<std::string> ImportSceneJson(const ImportSettings& settings, const std::string& scene_path,
                                      const LoadProgress& progress = {});

/// The import's scene without a file: ImportSceneJson for a scene beside the object's file, read
/// from the text (the object's file read wherever it is). The scene's path is the object's file.
/// With a `progress`, a cancelled load returns the one kLoadCancelledMessage error.
Expected<Scene> LoadImportScene(const ImportSettings& settings, const LoadProgress& progress = {});

/// Writes the import's scene to `scene_path` (ImportSceneJson), once it loads from there as the
/// studio and `contact-sim check` will read it: an object's file outside the scene's file roots
/// (its folder, resources/, CONTACT_STUDIO_FILE_ROOTS) is an error and nothing is written.
/// Returns the diagnostics (errors: not written).
Diagnostics SaveImportScene(const ImportSettings& settings, const std::string& scene_path);

}  // namespace sim::io
