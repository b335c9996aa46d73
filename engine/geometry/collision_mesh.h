// A triangle mesh prepared for collision: its surface, mass properties of the enclosed solid and
// the acceleration data of the chapter-6 contacts (seed 000, digest pd-sdf-robotics.md §2): the
// mesh's features are optimized against other shapes' fields, and other shapes' features against
// this mesh's grid SDF (closed meshes only: an open mesh has no inside).
#pragma once

#include <memory>
#include <string>

#include "engine/core/diagnostics.h"
#include "engine/core/load_monitor.h"
#include "engine/core/math.h"
#include "engine/geometry/bvh.h"
#include "engine/geometry/mesh_topology.h"
#include "engine/geometry/sdf_grid.h"
#include "engine/geometry/triangle_mesh.h"

namespace sim {

struct MassProperties {
  Real volume = 0;                   ///< [m³]; 0 for an open mesh
  Vec3 centroid = Vec3::Zero();      ///< of the solid [m]
  Mat3 unit_inertia = Mat3::Zero();  ///< density 1, about the centroid [m⁵]
};

/// Volume, centroid and inertia of the solid bounded by a closed, outward-oriented triangle mesh,
/// by the divergence theorem over signed tetrahedra from the origin (Mirtich 1996, Eberly 2002).
MassProperties SolidMassProperties(const TriangleMesh& mesh);

struct CollisionMesh {
  TriangleMesh surface;
  MeshTopology topology;               ///< edges, normals and representative triangles (§2.9)
  TriangleBvh bvh;                     ///< closest points and box queries on the surface
  std::shared_ptr<const SdfGrid> sdf;  ///< grid SDF of a closed mesh, else null
  MassProperties mass;
  bool closed = false;  ///< watertight and consistently oriented (has an inside)
  Vec3 lower = Vec3::Zero(), upper = Vec3::Zero();  ///< bounds of the vertices [m]
};

struct CollisionMeshOptions {
  int sdf_resolution = 64;  ///< grid cells along the longest axis of the SDF (closed meshes)
  bool build_sdf = true;    ///< false: the mesh only collides through its own features
};

/// Validates `surface` (errors name `source` and the mesh) and prepares it for collision. Returns
/// null after reporting an error; degenerate triangles and an open surface are warnings (an
/// open mesh gets no SDF and no mass). `progress` follows the SDF, which a cancel stops.
std::shared_ptr<const CollisionMesh> BuildCollisionMesh(TriangleMesh surface,
                                                        const CollisionMeshOptions& options,
                                                        const std::string& source,
                                                        Diagnostics* diagnostics,
                                                        const LoadProgress& progress = {});

/// What the collision stage keeps of a soft body's boundary: the surface at rest over the body's
/// local node ids (material space), its topology (representative triangles) and the grid SDF of
/// the rest shape, which the deformable embedding of §2.9 maps through each tet.
struct SoftBodyCollision {
  TriangleMesh rest_surface;
  MeshTopology topology;
  std::shared_ptr<const SdfGrid> rest_sdf;  ///< null when the surface is not closed
};

/// Builds the collision data of a soft body from its rest node positions and boundary triangles
/// (local node ids). Problems name the body and `source`; null only after an error (a cancel of
/// `progress` during the SDF is one).
std::shared_ptr<const SoftBodyCollision> BuildSoftBodyCollision(
    const std::string& name, const std::vector<Vec3>& rest_nodes,
    const std::vector<std::array<int, 3>>& surface, int sdf_resolution, const std::string& source,
    Diagnostics* diagnostics, const LoadProgress& progress = {});

}  // namespace sim
