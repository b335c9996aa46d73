#include "engine/io/mesh_cache.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include "engine/geometry/hull_simplify.h"
#include "engine/geometry/visual_mesh_builder.h"

namespace sim::io {

namespace {

// key of one product: kind, file, scale, resolution and the file's modification time
std::string Key(const char* kind, const std::string& path, const Vec3& scale, int resolution) {
  std::error_code error;
  const auto time = std::filesystem::last_write_time(path, error);
  const long long stamp = error ? 0 : static_cast<long long>(time.time_since_epoch().count());
  char text[160];
  std::snprintf(text, sizeof(text), "|%.17g|%.17g|%.17g|%d|%lld", scale.x(), scale.y(), scale.z(),
                resolution, stamp);
  return std::string(kind) + "|" + path + text;
}


template <typename T>
struct WeakEntry {
  std::weak_ptr<const T> value;
  Diagnostics diagnostics;
  bool own_materials = false;
};

// bounding-box diagonal of a mesh [m], for the weld tolerance
Real Diagonal(const TriangleMesh& mesh) {
  if (mesh.vertices.empty()) return 0;
  Vec3 lower = mesh.vertices.front(), upper = lower;
  for (const Vec3& v : mesh.vertices) {
    lower = lower.cwiseMin(v);
    upper = upper.cwiseMax(v);
  }
  return (upper - lower).norm();
}


// the file a product is made of, `progress` told which one; nothing after an error or a cancel
// (reported in `*made`)
template <typename T>
std::optional<LoadedMesh> LoadForProduct(const std::string& path, const Vec3& scale,
                                         const LoadProgress& progress, MeshProduct<T>* made) {
  progress.Stage("loading mesh " + std::filesystem::path(path).filename().string());
  if (progress.CheckCancelled(path, &made->diagnostics)) return std::nullopt;
  Expected<LoadedMesh> loaded = LoadMesh(path, scale);
  made->diagnostics.Append(loaded.diagnostics());
  // assimp cannot be interrupted: checked again once it returns
  if (!loaded.ok() || progress.CheckCancelled(path, &made->diagnostics)) return std::nullopt;
  return std::move(loaded.value());
}

}  // namespace


struct MeshCache::State {
  std::map<std::string, WeakEntry<VisualMesh>> visuals;
  std::map<std::string, WeakEntry<ConvexHull>> hulls;
  std::map<std::string, WeakEntry<CollisionMesh>> collisions;
};


MeshCache::MeshCache() : state_(std::make_shared<State>()) {}


MeshCache& MeshCache::Global() {
  static MeshCache cache;
  return cache;
}


void MeshCache::Clear() {
  const std::lock_guard<std::mutex> lock(mutex_);
  state_ = std::make_shared<State>();
}


namespace {

// the live entry of `key`, or a new one made by `make` outside the lock (loads in parallel)
template <typename T, typename Make>
MeshProduct<T> Lookup(std::mutex& mutex, std::map<std::string, WeakEntry<T>>& entries,
                      const std::string& key, bool* own_materials, const Make& make) {
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto it = entries.find(key);
    if (it != entries.end()) {
      if (std::shared_ptr<const T> value = it->second.value.lock()) {
        if (own_materials != nullptr) *own_materials = it->second.own_materials;
        return {std::move(value), it->second.diagnostics};
      }
    }
  }
  bool own = false;
  MeshProduct<T> made = make(&own);
  if (own_materials != nullptr) *own_materials = own;
  if (made.value) {
    const std::lock_guard<std::mutex> lock(mutex);
    entries[key] = WeakEntry<T>{made.value, made.diagnostics, own};
  }
  return made;
}

}  // namespace


std::shared_ptr<VisualMesh> VisualMeshFromFile(const LoadedMesh& loaded, Diagnostics* diagnostics) {
  std::shared_ptr<VisualMesh> visual = BuildVisualMesh(loaded.mesh);
  // triangles keep their order: part p covers indices [3 first, 3 (first + count))
  visual->parts.clear();
  for (const LoadedMesh::Part& part : loaded.parts) {
    VisualMesh::Part drawn;
    drawn.first_index = static_cast<std::uint32_t>(3 * part.first_triangle);
    drawn.index_count = static_cast<std::uint32_t>(3 * part.triangle_count);
    if (part.has_color) drawn.color = {part.color[0], part.color[1], part.color[2], 1.0f};
    if (!part.texture.empty()) {
      std::error_code error;
      if (std::filesystem::is_regular_file(part.texture, error)) {
        drawn.texture = part.texture;
      } else {
        diagnostics->Warning(loaded.mesh.name, 0, "",
                             "texture '" + part.texture +
                                 "' of the mesh does not exist; the part is drawn untextured");
      }
    }
    visual->parts.push_back(drawn);
  }
  if (visual->parts.empty()) {
    VisualMesh::Part all;
    all.index_count = static_cast<std::uint32_t>(visual->indices.size());
    visual->parts.push_back(all);
  }
  return visual;
}


bool HasOwnMaterials(const LoadedMesh& loaded) {
  for (const LoadedMesh::Part& part : loaded.parts) {
    if (part.has_color || !part.texture.empty()) return true;
  }
  return false;
}


MeshProduct<VisualMesh> MeshCache::Visual(const std::string& path, const Vec3& scale,
                                          bool* own_materials, const LoadProgress& progress) {
  std::shared_ptr<State> state;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    state = state_;
  }
  return Lookup<VisualMesh>(
      mutex_, state->visuals, Key("visual", path, scale, 0), own_materials, [&](bool* own) {
        MeshProduct<VisualMesh> made;
        const std::optional<LoadedMesh> loaded = LoadForProduct(path, scale, progress, &made);
        if (!loaded) return made;
        *own = HasOwnMaterials(*loaded);
        made.value = VisualMeshFromFile(*loaded, &made.diagnostics);
        return made;
      });
}


MeshProduct<ConvexHull> MeshCache::Hull(const std::string& path, const Vec3& scale,
                                        int max_vertices, const LoadProgress& progress) {
  std::shared_ptr<State> state;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    state = state_;
  }
  return Lookup<ConvexHull>(
      mutex_, state->hulls, Key("hull", path, scale, max_vertices), nullptr, [&](bool*) {
        MeshProduct<ConvexHull> made;
        const std::optional<LoadedMesh> loaded = LoadForProduct(path, scale, progress, &made);
        if (!loaded) return made;
        // welded first: qhull's time grows with its input, and files repeat every corner
        const TriangleMesh welded =
            WeldVertices(loaded->mesh, DefaultWeldTolerance(Diagonal(loaded->mesh)));
        made.value = BuildSimplifiedHull(welded.vertices, path, max_vertices, &made.diagnostics);
        return made;
      });
}


MeshProduct<CollisionMesh> MeshCache::Collision(const std::string& path, const Vec3& scale,
                                                int sdf_resolution, const LoadProgress& progress) {
  std::shared_ptr<State> state;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    state = state_;
  }
  return Lookup<CollisionMesh>(
      mutex_, state->collisions, Key("collision", path, scale, sdf_resolution), nullptr,
      [&](bool*) {
        MeshProduct<CollisionMesh> made;
        const std::optional<LoadedMesh> loaded = LoadForProduct(path, scale, progress, &made);
        if (!loaded) return made;
        // files keep one vertex per corner where normals or uvs differ: weld them so a closed
        // surface is seen as closed (and gets its inside, its SDF and its mass)
        TriangleMesh surface =
            WeldVertices(loaded->mesh, DefaultWeldTolerance(Diagonal(loaded->mesh)));
        CollisionMeshOptions options;
        options.sdf_resolution = sdf_resolution;
        made.value =
            BuildCollisionMesh(std::move(surface), options, path, &made.diagnostics, progress);
        return made;
      });
}

}  // namespace sim::io
