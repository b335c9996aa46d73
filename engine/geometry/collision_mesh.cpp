#include "engine/geometry/collision_mesh.h"

namespace sim {

MassProperties SolidMassProperties(const TriangleMesh& mesh) {
  // each triangle (a, b, c) spans a signed tetrahedron with the origin, of volume a·(b×c)/6;
  // second moments ∫x_i x_j dV of the tetrahedron are det/120·(Σ_k v_ki v_kj + (Σ_k v_ki)(Σ_k
  // v_kj))
  Real volume = 0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (const auto& t : mesh.triangles) {
    const Vec3& a = mesh.vertices[t[0]];
    const Vec3& b = mesh.vertices[t[1]];
    const Vec3& c = mesh.vertices[t[2]];
    const Real det = a.dot(b.cross(c));
    volume += det / 6;
    first += det / 24 * (a + b + c);
    const Vec3 sum = a + b + c;
    second += det / 120 *
              (a * a.transpose() + b * b.transpose() + c * c.transpose() + sum * sum.transpose());
  }
  MassProperties mass;
  if (!(volume > 0)) return mass;
  mass.volume = volume;
  mass.centroid = first / volume;
  // about the centroid: I = tr(S) 1 − S with S the second moment shifted by the parallel axes
  const Mat3 centered = second - volume * mass.centroid * mass.centroid.transpose();
  mass.unit_inertia = centered.trace() * Mat3::Identity() - centered;
  return mass;
}


std::shared_ptr<const CollisionMesh> BuildCollisionMesh(TriangleMesh surface,
                                                        const CollisionMeshOptions& options,
                                                        const std::string& source,
                                                        Diagnostics* diagnostics,
                                                        const LoadProgress& progress) {
  // indices, finiteness (errors); degenerate, open and non-manifold surfaces (warnings)
  if (!ValidateMesh(surface, source, diagnostics)) return nullptr;
  auto mesh = std::make_shared<CollisionMesh>();
  mesh->topology = BuildMeshTopology(surface);
  mesh->closed = mesh->topology.closed;
  mesh->lower = mesh->upper = surface.vertices.front();
  for (const Vec3& v : surface.vertices) {
    mesh->lower = mesh->lower.cwiseMin(v);
    mesh->upper = mesh->upper.cwiseMax(v);
  }
  mesh->bvh.Build(surface.vertices, surface.triangles);
  // an inside needs a closed surface: only then mass and a field for other shapes' features
  if (mesh->closed) {
    mesh->mass = SolidMassProperties(surface);
    if (options.build_sdf) {
      SdfGridOptions grid;
      grid.resolution = options.sdf_resolution;
      mesh->sdf = SdfGrid::FromMesh(surface, grid, diagnostics, progress);
      if (!mesh->sdf) return nullptr;
    }
  }
  mesh->surface = std::move(surface);
  return mesh;
}


std::shared_ptr<const SoftBodyCollision> BuildSoftBodyCollision(
    const std::string& name, const std::vector<Vec3>& rest_nodes,
    const std::vector<std::array<int, 3>>& surface, int sdf_resolution, const std::string& source,
    Diagnostics* diagnostics, const LoadProgress& progress) {
  auto collision = std::make_shared<SoftBodyCollision>();
  collision->rest_surface.name = name;
  collision->rest_surface.vertices = rest_nodes;
  collision->rest_surface.triangles = surface;
  collision->topology = BuildMeshTopology(collision->rest_surface);
  // the boundary of a valid tet mesh is closed; without an inside there is no embedded field
  if (collision->topology.closed) {
    SdfGridOptions grid;
    grid.resolution = sdf_resolution;
    Diagnostics grid_diagnostics;
    collision->rest_sdf =
        SdfGrid::FromMesh(collision->rest_surface, grid, &grid_diagnostics, progress);
    diagnostics->Append(grid_diagnostics);
    if (!collision->rest_sdf) return nullptr;
  } else {
    diagnostics->Warning(source, 0, "",
                         "soft body '" + name +
                             "' has an open boundary surface; it will not detect "
                             "contacts from other soft bodies inside it");
  }
  return collision;
}

}  // namespace sim
