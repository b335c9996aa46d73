// Procedural unit meshes of the primitive shapes. Spheres and capsules are latitude/longitude grids
// built from a list of rows (polar angle, hemisphere sign); the capsule repeats its equator row so
// that the vertex shader can pull the two hemispheres apart into the cylindrical part.
#include "render/meshes.h"

#include <cmath>
#include <numbers>

namespace sim::render {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// one row of a latitude/longitude grid: polar angle from +z and the capsule hemisphere sign
struct LatitudeRow {
  float theta;
  float cap_sign;
};

// appends a latitude/longitude grid of `rows` (ordered from +z to -z) around the z axis
void AppendLatitudeGrid(const std::vector<LatitudeRow>& rows, int segments, MeshData* mesh) {
  const auto base = static_cast<std::uint32_t>(mesh->vertices.size());
  const int columns = segments + 1;  // the seam column is duplicated so every row closes
  for (const LatitudeRow& row : rows) {
    const float sin_theta = std::sin(row.theta);
    const float cos_theta = std::cos(row.theta);
    for (int j = 0; j < columns; ++j) {
      const float phi = 2.0f * kPi * static_cast<float>(j) / static_cast<float>(segments);
      const std::array<float, 3> p = {sin_theta * std::cos(phi), sin_theta * std::sin(phi),
                                      cos_theta};
      mesh->vertices.push_back({p, p, row.cap_sign});
    }
  }
  // quads between consecutive rows; the triangle touching a pole collapses and is skipped
  const auto is_pole = [](float theta) { return std::abs(std::sin(theta)) < 1e-6f; };
  for (std::size_t i = 0; i + 1 < rows.size(); ++i) {
    for (int j = 0; j < segments; ++j) {
      const std::uint32_t a = base + static_cast<std::uint32_t>(i * columns + j);
      const std::uint32_t b = a + static_cast<std::uint32_t>(columns);
      const std::uint32_t c = b + 1;
      const std::uint32_t d = a + 1;
      if (!is_pole(rows[i + 1].theta)) mesh->indices.insert(mesh->indices.end(), {a, b, c});
      if (!is_pole(rows[i].theta)) mesh->indices.insert(mesh->indices.end(), {a, c, d});
    }
  }
}


// appends a flat disc of radius 1 at height z facing +z (facing_up) or -z
void AppendDisc(float z, bool facing_up, int segments, MeshData* mesh) {
  const auto centre = static_cast<std::uint32_t>(mesh->vertices.size());
  const std::array<float, 3> normal = {0.0f, 0.0f, facing_up ? 1.0f : -1.0f};
  mesh->vertices.push_back({{0.0f, 0.0f, z}, normal, 0.0f});
  for (int j = 0; j <= segments; ++j) {
    const float phi = 2.0f * kPi * static_cast<float>(j) / static_cast<float>(segments);
    mesh->vertices.push_back({{std::cos(phi), std::sin(phi), z}, normal, 0.0f});
  }
  // the rim runs counter-clockwise seen from +z, so the downward disc reverses each triangle
  for (int j = 0; j < segments; ++j) {
    const std::uint32_t rim = centre + 1 + static_cast<std::uint32_t>(j);
    if (facing_up) {
      mesh->indices.insert(mesh->indices.end(), {centre, rim, rim + 1});
    } else {
      mesh->indices.insert(mesh->indices.end(), {centre, rim + 1, rim});
    }
  }
}

}  // namespace


MeshData MakeBoxMesh() {
  // each face: outward normal n and in-face axes u, v with u × v = n (counter-clockwise from
  // outside)
  struct Face {
    std::array<float, 3> n, u, v;
  };
  static constexpr std::array<Face, 6> kFaces = {{
      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
      {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
      {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},
      {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
      {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},
      {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
  }};
  static constexpr std::array<std::array<float, 2>, 4> kCorners = {
      {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}};
  MeshData mesh;
  for (const Face& face : kFaces) {
    const auto first = static_cast<std::uint32_t>(mesh.vertices.size());
    for (const auto& corner : kCorners) {
      std::array<float, 3> p;
      for (int k = 0; k < 3; ++k) p[k] = face.n[k] + corner[0] * face.u[k] + corner[1] * face.v[k];
      mesh.vertices.push_back({p, face.n, 0.0f});
    }
    mesh.indices.insert(mesh.indices.end(),
                        {first, first + 1, first + 2, first, first + 2, first + 3});
  }
  return mesh;
}


MeshData MakeSphereMesh(int segments, int rings) {
  std::vector<LatitudeRow> rows;
  for (int i = 0; i <= rings; ++i) {
    rows.push_back({kPi * static_cast<float>(i) / static_cast<float>(rings), 0.0f});
  }
  MeshData mesh;
  AppendLatitudeGrid(rows, segments, &mesh);
  return mesh;
}


MeshData MakeCapsuleMesh(int segments, int rings_per_cap) {
  // upper hemisphere rows (sign +1) down to the equator, then the equator again and the lower
  // hemisphere (sign -1): the quads between the two equator rows become the cylinder side
  std::vector<LatitudeRow> rows;
  const float step = 0.5f * kPi / static_cast<float>(rings_per_cap);
  for (int i = 0; i <= rings_per_cap; ++i) rows.push_back({step * static_cast<float>(i), 1.0f});
  for (int i = 0; i <= rings_per_cap; ++i) {
    rows.push_back({0.5f * kPi + step * static_cast<float>(i), -1.0f});
  }
  MeshData mesh;
  AppendLatitudeGrid(rows, segments, &mesh);
  return mesh;
}


MeshData MakeCylinderMesh(int segments) {
  MeshData mesh;
  // side: two rings with horizontal normals, top row first as in the latitude grid
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  const int columns = segments + 1;
  for (const float z : {1.0f, -1.0f}) {
    for (int j = 0; j < columns; ++j) {
      const float phi = 2.0f * kPi * static_cast<float>(j) / static_cast<float>(segments);
      const float x = std::cos(phi);
      const float y = std::sin(phi);
      mesh.vertices.push_back({{x, y, z}, {x, y, 0.0f}, 0.0f});
    }
  }
  for (int j = 0; j < segments; ++j) {
    const std::uint32_t a = base + static_cast<std::uint32_t>(j);
    const std::uint32_t b = a + static_cast<std::uint32_t>(columns);
    mesh.indices.insert(mesh.indices.end(), {a, b, b + 1, a, b + 1, a + 1});
  }
  AppendDisc(1.0f, true, segments, &mesh);
  AppendDisc(-1.0f, false, segments, &mesh);
  return mesh;
}


MeshData MakeArrowMesh(int segments) {
  MeshData mesh;
  const int columns = segments + 1;
  // cone side normal: perpendicular to the slant from the head's rim (R, 0) to the tip (0, L)
  const float slant = std::hypot(kArrowHeadRadius, kArrowHeadLength);
  const float normal_radial = kArrowHeadLength / slant;
  const float normal_z = kArrowHeadRadius / slant;
  // rings: shaft bottom, shaft top (shifted), head rim (shifted), tip (shifted); the head's
  // base disc and the shaft's bottom disc close it
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  for (int ring = 0; ring < 4; ++ring) {
    for (int j = 0; j < columns; ++j) {
      const float phi = 2.0f * kPi * static_cast<float>(j) / static_cast<float>(segments);
      const float c = std::cos(phi);
      const float s = std::sin(phi);
      switch (ring) {
        case 0:
          mesh.vertices.push_back({{c, s, 0.0f}, {c, s, 0.0f}, 0.0f});
          break;
        case 1:
          mesh.vertices.push_back({{c, s, 0.0f}, {c, s, 0.0f}, 1.0f});
          break;
        case 2:
          mesh.vertices.push_back({{kArrowHeadRadius * c, kArrowHeadRadius * s, 0.0f},
                                   {normal_radial * c, normal_radial * s, normal_z},
                                   1.0f});
          break;
        default:
          mesh.vertices.push_back({{0.0f, 0.0f, kArrowHeadLength},
                                   {normal_radial * c, normal_radial * s, normal_z},
                                   1.0f});
          break;
      }
    }
  }
  // shaft side (rings 0-1) in quads, cone side (rim to tip) in triangles; counter-clockwise
  // from outside
  for (int j = 0; j < segments; ++j) {
    const std::uint32_t a = base + static_cast<std::uint32_t>(j);
    const std::uint32_t b = a + static_cast<std::uint32_t>(columns);
    mesh.indices.insert(mesh.indices.end(), {a, a + 1, b + 1, a, b + 1, b});
    const std::uint32_t rim = a + static_cast<std::uint32_t>(2 * columns);
    const std::uint32_t tip = rim + static_cast<std::uint32_t>(columns);
    mesh.indices.insert(mesh.indices.end(), {rim, rim + 1, tip});
  }
  // bottom of the shaft and underside of the head, both facing −z
  AppendDisc(0.0f, false, segments, &mesh);
  const auto head_base = static_cast<std::uint32_t>(mesh.vertices.size());
  AppendDisc(0.0f, false, segments, &mesh);
  for (std::size_t v = head_base; v < mesh.vertices.size(); ++v) {
    mesh.vertices[v].position[0] *= kArrowHeadRadius;
    mesh.vertices[v].position[1] *= kArrowHeadRadius;
    mesh.vertices[v].cap_sign = 1.0f;
  }
  return mesh;
}


std::array<float, 4> MeshScale(ShapeType type, const std::array<float, 3>& size) {
  switch (type) {
    case ShapeType::kBox:
      return {size[0], size[1], size[2], 0.0f};
    case ShapeType::kSphere:
      return {size[0], size[0], size[0], 0.0f};
    case ShapeType::kCapsule:
      return {size[0], size[0], size[0], size[1]};
    case ShapeType::kCylinder:
      return {size[0], size[0], size[1], 0.0f};
    case ShapeType::kPlane:
      return {size[0], 0.0f, 0.0f, size[1]};
    case ShapeType::kConvexHull:  // not unit meshes
    case ShapeType::kMesh:
    case ShapeType::kSdf:
    case ShapeType::kNone:
      break;
  }
  return {0.0f, 0.0f, 0.0f, 0.0f};
}

}  // namespace sim::render
