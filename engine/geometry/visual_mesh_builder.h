// Render-only surfaces (VisualMesh) from the engine's geometry: triangle meshes loaded from files
// or built for collision (smooth normals split at creases), convex hulls (flat faces), and the
// vertex welding that turns a file's per-corner vertices into a connected surface for collision.
//
// Crease-angle normals: the normal of corner k of triangle t is the area-weighted mean of the
// face normals n_f of the triangles f around the corner's position with n_f·n_t ≥ cos(crease),
//   n = normalize(Σ_f A_f n_f),
// so smooth surfaces shade smoothly and edges sharper than the crease angle (a box's) stay sharp.
#pragma once

#include <memory>
#include <string>

#include "engine/core/math.h"
#include "engine/geometry/convex_hull.h"
#include "engine/geometry/triangle_mesh.h"
#include "engine/geometry/visual_mesh.h"

namespace sim {

/// Default crease angle of BuildVisualMesh [rad] (40°: cylinders of 12+ sides shade smoothly,
/// box edges stay sharp).
inline constexpr Real kDefaultCreaseAngle = 0.6981317007977318;

/// Surface of `mesh` for drawing: positions and uvs (when the mesh has them) per corner, normals
/// split at creases sharper than `crease_angle` [rad]. Triangles keep their order, so triangle t
/// is indices [3t, 3t + 3) (parts of the source file map to index ranges). One part in the
/// default grey; degenerate triangles are kept with the normal of their neighbours (or +z).
std::shared_ptr<VisualMesh> BuildVisualMesh(const TriangleMesh& mesh,
                                            Real crease_angle = kDefaultCreaseAngle);

/// Surface of a convex hull with one flat normal per face (its polygon fan-triangulated).
std::shared_ptr<VisualMesh> BuildHullVisualMesh(const ConvexHull& hull);

/// Merges vertices closer than `tolerance` [m] (files store one vertex per corner when normals or
/// uvs differ, which leaves a closed surface looking open), and drops the triangles that collapse.
/// The result has no uvs. Vertex order follows the first occurrence of each position.
TriangleMesh WeldVertices(const TriangleMesh& mesh, Real tolerance);

/// Tolerance WeldVertices uses for a mesh whose bounding box diagonal is `diagonal` [m]: 1e-7 of
/// it (float round-off of the files' coordinates, far below any feature).
Real DefaultWeldTolerance(Real diagonal);

}  // namespace sim
