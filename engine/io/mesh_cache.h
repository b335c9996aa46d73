// Meshes loaded from files, shared: every (file, scale) is loaded once per product (drawn surface,
// convex hull, SDF-backed collision mesh) and the product is shared by every shape and visual that
// uses it, across robots and scenes loaded while it is alive (a scene of 20 identical humanoids
// loads each mesh once). The cache holds weak references, so a mesh no model uses any more is
// freed; an entry is keyed on the file's modification time too, so an edited file is reloaded.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/core/math.h"
#include "engine/geometry/collision_mesh.h"
#include "engine/geometry/convex_hull.h"
#include "engine/geometry/visual_mesh.h"
#include "engine/io/mesh_loader.h"

namespace sim::io {

/// A shared product of a mesh file and the diagnostics of making it (repeated on every use, so a
/// warning is shown for each scene that loads the file). `value` is null after an error.
template <typename T>
struct MeshProduct {
  std::shared_ptr<const T> value;
  Diagnostics diagnostics;
};

/// The drawn surface of a loaded mesh: crease-angle normals, the file's uvs, one part per material
/// of the file with its diffuse colour (default grey when the file gives none) and texture (a
/// texture file that does not exist is dropped with a warning).
std::shared_ptr<VisualMesh> VisualMeshFromFile(const LoadedMesh& loaded, Diagnostics* diagnostics);

/// True when some part of the file has its own colour or texture (URDF visuals then keep the
/// file's materials; see urdf_model.cpp).
bool HasOwnMaterials(const LoadedMesh& loaded);

/// Every product takes an optional `progress`: it names the file being loaded and follows the
/// SDF; a cancel makes the product null with the kLoadCancelledMessage error (and nothing is
/// cached).
class MeshCache {
 public:
  /// The process-wide cache (thread-safe).
  static MeshCache& Global();

  /// The drawn surface of `path` scaled by `scale` (VisualMeshFromFile), and whether the file has
  /// its own materials (`*own_materials`, may be null).
  MeshProduct<VisualMesh> Visual(const std::string& path, const Vec3& scale, bool* own_materials,
                                 const LoadProgress& progress = {});

  /// The convex hull of the file's vertices (qhull) with at most `max_vertices` vertices
  /// (BuildSimplifiedHull), named `path` in diagnostics.
  MeshProduct<ConvexHull> Hull(const std::string& path, const Vec3& scale, int max_vertices,
                               const LoadProgress& progress = {});

  /// The file's surface with its vertices welded, prepared for collision (BuildCollisionMesh with
  /// a grid SDF of `sdf_resolution` cells along the longest side when the surface is closed).
  MeshProduct<CollisionMesh> Collision(const std::string& path, const Vec3& scale,
                                       int sdf_resolution, const LoadProgress& progress = {});

  /// Drops every entry (tests).
  void Clear();

 private:
  struct State;
  MeshCache();

  std::mutex mutex_;
  std::shared_ptr<State> state_;
};

}  // namespace sim::io
