// Opening any file the studio accepts: a scene (.json) as it is, or a lone robot or mesh with a
// default scene around it (a ground plane, the object resting just above it, a camera framing
// it), so File > Open works on a URDF or a tet mesh as MuJoCo's simulate does on a model file.
//   .urdf                                   a fixed-base robot holding its initial pose with drives
//   .msh .vtk .node .ele                    a tetmesh soft body dropped onto the ground
//   .obj .stl .dae .ply .off .glb .gltf     a rigid body (its convex hull) dropped onto the ground
// (The loaders' own default-scene function in engine/io replaces this one when it lands.)
#pragma once

#include <string>

#include "engine/core/diagnostics.h"
#include "engine/io/scene_file.h"

namespace sim::ui {

/// What kind of file `path` is, by extension.
enum class AssetKind { kScene, kUrdf, kTetMesh, kSurfaceMesh, kUnknown };
AssetKind AssetKindOf(const std::string& path);

/// The file dialog's filter for every kind above.
const char* OpenFileFilter();

/// Loads `path` as a scene, or builds the default scene around the asset. Diagnostics name the
/// asset's file and line; problems of the generated scene name "<path> (default scene)". Never
/// throws for bad input. Thread-safe (runs on Qt's pool).
Expected<io::Scene> LoadSceneOrAsset(const std::string& path);

}  // namespace sim::ui
