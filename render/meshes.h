// Procedural unit meshes of the primitive shapes (box, sphere, capsule, cylinder) with normals, and
// the per-instance scale that turns a unit mesh into a shape of given size. CPU only: the scene
// renderer uploads them once; the tests check them without a device.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/model/model.h"

namespace sim::render {

/// One vertex of a unit mesh or of an uploaded VisualMesh, laid out as the shape vertex shader
/// reads it (36 bytes).
struct MeshVertex {
  std::array<float, 3> position;  ///< unit-mesh position (see the Make*Mesh functions)
  std::array<float, 3> normal;    ///< unit outward normal
  /// Capsules: -1 on the lower, +1 on the upper hemisphere (shifted by ∓/± half length); arrows:
  /// 1 on the shaft's top and the head (shifted by the shaft length); else 0.
  float cap_sign;
  std::array<float, 2> uv = {0.0f, 0.0f};  ///< texture coordinates (VisualMesh convention)
};

/// Indexed triangle list; triangles wind counter-clockwise seen from outside.
struct MeshData {
  std::vector<MeshVertex> vertices;
  std::vector<std::uint32_t> indices;
};

/// Cube [-1, 1]³ with flat face normals (24 vertices, 12 triangles); scaled by the half extents.
MeshData MakeBoxMesh();
/// Unit sphere; `segments` around z (≥ 3), `rings` from pole to pole (≥ 2).
MeshData MakeSphereMesh(int segments, int rings);
/// Unit sphere split at its equator into two hemispheres tagged with cap_sign ∓1, joined by a
/// band of zero height that stretches into the cylindrical part when the caps are pushed apart.
/// `rings_per_cap` ≥ 1.
MeshData MakeCapsuleMesh(int segments, int rings_per_cap);
/// Cylinder of radius 1 along z from -1 to 1, smooth sides and flat caps.
MeshData MakeCylinderMesh(int segments);

/// Arrow head length and radius, in shaft radii.
inline constexpr float kArrowHeadLength = 5.0f;
inline constexpr float kArrowHeadRadius = 2.2f;

/// Arrow along +z from the origin: a shaft of radius 1 whose top ring has cap_sign 1 and a cone
/// head (radius kArrowHeadRadius, length kArrowHeadLength, cap_sign 1) on it. With scale
/// (r, r, r, s) it is s + kArrowHeadLength·r long with a shaft of radius r.
MeshData MakeArrowMesh(int segments);

/// Per-instance scale of a unit mesh: local = scale.xyz · p + cap_sign · scale.w · e_z.
/// Box: (hx, hy, hz, 0); sphere: (r, r, r, 0); capsule: (r, r, r, h); cylinder: (r, r, h, 0).
/// Plane (drawn by the grid shader, not a mesh): (half size, half size, 1, grid cell size).
/// `size` as in VisualShape::size.
std::array<float, 4> MeshScale(ShapeType type, const std::array<float, 3>& size);

}  // namespace sim::render
