// Procedural triangle meshes (closed, outward counter-clockwise): boxes, subdivided boxes,
// icospheres and tori, for tests, benchmarks and scene tools.
#pragma once

#include <string>

#include "engine/core/math.h"
#include "engine/geometry/triangle_mesh.h"

namespace sim {

/// Signed volume by the divergence theorem [m³] (> 0 for outward, counter-clockwise triangles).
Real MeshSignedVolume(const TriangleMesh& mesh);

/// Flips every triangle when the mesh is inside out.
void OrientOutward(TriangleMesh* mesh);

/// Axis-aligned box [−h, h] [m], 12 triangles.
TriangleMesh BoxMesh(const Vec3& half, const std::string& name = "box");

/// Box [−h, h] [m] with every face an n × n grid of quads (12 n² triangles).
TriangleMesh SubdividedBoxMesh(const Vec3& half, int n, const std::string& name = "box");

/// Sphere of radius r [m]: an icosahedron with `levels` midpoint subdivisions (20·4^levels
/// triangles).
TriangleMesh Icosphere(int levels, Real r, const std::string& name = "icosphere");

/// Torus around z with major radius R and minor radius r [m], nu × nv quads split in two.
TriangleMesh Torus(Real R, Real r, int nu, int nv, const std::string& name = "torus");

}  // namespace sim
