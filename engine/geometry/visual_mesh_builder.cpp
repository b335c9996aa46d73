#include "engine/geometry/visual_mesh_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace sim {
namespace {

std::array<float, 3> ToFloat(const Vec3& v) {
  return {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
}


// integer cell of a point on a grid of spacing `cell`, packed into one key
struct CellKey {
  std::int64_t x, y, z;
  bool operator==(const CellKey& o) const { return x == o.x && y == o.y && z == o.z; }
};

struct CellHash {
  std::size_t operator()(const CellKey& k) const {
    // large odd multipliers mix the three coordinates (Teschner et al. 2003 spatial hashing)
    return static_cast<std::size_t>(k.x * 73856093) ^ static_cast<std::size_t>(k.y * 19349663) ^
           static_cast<std::size_t>(k.z * 83492791);
  }
};


// canonical index of every vertex: the first vertex within `tolerance` of it
std::vector<int> WeldMap(const std::vector<Vec3>& vertices, Real tolerance, int* unique_count) {
  const Real cell = std::max(tolerance, Real(1e-300));
  std::unordered_map<CellKey, std::vector<int>, CellHash> grid;
  grid.reserve(vertices.size());
  std::vector<int> canonical(vertices.size(), -1);
  int unique = 0;
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    const Vec3& p = vertices[v];
    const CellKey key{static_cast<std::int64_t>(std::floor(p.x() / cell)),
                      static_cast<std::int64_t>(std::floor(p.y() / cell)),
                      static_cast<std::int64_t>(std::floor(p.z() / cell))};
    // a match within the tolerance lies in this cell or one of its 26 neighbours
    int match = -1;
    for (int dx = -1; dx <= 1 && match < 0; ++dx) {
      for (int dy = -1; dy <= 1 && match < 0; ++dy) {
        for (int dz = -1; dz <= 1 && match < 0; ++dz) {
          const auto it = grid.find(CellKey{key.x + dx, key.y + dy, key.z + dz});
          if (it == grid.end()) continue;
          for (int w : it->second) {
            if ((vertices[w] - p).norm() <= tolerance) {
              match = w;
              break;
            }
          }
        }
      }
    }
    if (match >= 0) {
      canonical[v] = canonical[match];
    } else {
      canonical[v] = unique++;
      grid[key].push_back(static_cast<int>(v));
    }
  }
  *unique_count = unique;
  return canonical;
}

}  // namespace


Real DefaultWeldTolerance(Real diagonal) { return 1e-7 * std::max(diagonal, Real(1e-9)); }


TriangleMesh WeldVertices(const TriangleMesh& mesh, Real tolerance) {
  int unique = 0;
  const std::vector<int> canonical = WeldMap(mesh.vertices, tolerance, &unique);
  TriangleMesh welded;
  welded.name = mesh.name;
  welded.vertices.resize(unique);
  // the first occurrence of each position defines it
  std::vector<char> set(unique, 0);
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    if (set[canonical[v]]) continue;
    welded.vertices[canonical[v]] = mesh.vertices[v];
    set[canonical[v]] = 1;
  }
  welded.triangles.reserve(mesh.triangles.size());
  for (const auto& t : mesh.triangles) {
    const std::array<int, 3> w = {canonical[t[0]], canonical[t[1]], canonical[t[2]]};
    if (w[0] == w[1] || w[1] == w[2] || w[0] == w[2]) continue;
    welded.triangles.push_back(w);
  }
  return welded;
}


std::shared_ptr<VisualMesh> BuildVisualMesh(const TriangleMesh& mesh, Real crease_angle) {
  auto visual = std::make_shared<VisualMesh>();
  visual->name = mesh.name;
  const int triangles = mesh.triangle_count();

  // area-weighted face normals (the cross product's length is twice the area)
  std::vector<Vec3> weighted(triangles);
  std::vector<Vec3> unit(triangles);
  for (int t = 0; t < triangles; ++t) {
    const auto& tri = mesh.triangles[t];
    const Vec3 n = (mesh.vertices[tri[1]] - mesh.vertices[tri[0]])
                       .cross(mesh.vertices[tri[2]] - mesh.vertices[tri[0]]);
    weighted[t] = n;
    const Real length = n.norm();
    unit[t] = length > 0 ? Vec3(n / length) : Vec3::Zero();
  }

  // triangles around each position (corners that share a position across uv/normal seams)
  Vec3 lower = Vec3::Zero(), upper = Vec3::Zero();
  if (!mesh.vertices.empty()) lower = upper = mesh.vertices.front();
  for (const Vec3& v : mesh.vertices) {
    lower = lower.cwiseMin(v);
    upper = upper.cwiseMax(v);
  }
  int positions = 0;
  const std::vector<int> position =
      WeldMap(mesh.vertices, DefaultWeldTolerance((upper - lower).norm()), &positions);
  std::vector<int> ring_begin(positions + 1, 0);
  for (const auto& tri : mesh.triangles) {
    for (int v : tri) ++ring_begin[position[v] + 1];
  }
  for (int p = 0; p < positions; ++p) ring_begin[p + 1] += ring_begin[p];
  std::vector<int> ring(ring_begin.back());
  std::vector<int> cursor(ring_begin.begin(), ring_begin.end() - 1);
  for (int t = 0; t < triangles; ++t) {
    for (int v : mesh.triangles[t]) ring[cursor[position[v]]++] = t;
  }

  // one output vertex per (position, uv, normal): corners of a smooth region share it, and so do
  // the per-corner copies files store for their own flat normals
  const Real cos_crease = std::cos(crease_angle);
  const bool uvs = mesh.has_uvs();
  struct Key {
    int position;
    std::array<float, 5> attributes;  // normal, uv
    bool operator==(const Key& o) const {
      return position == o.position &&
             std::memcmp(attributes.data(), o.attributes.data(), sizeof(attributes)) == 0;
    }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint32_t bits[5];
      std::memcpy(bits, k.attributes.data(), sizeof(bits));
      std::size_t hash = std::hash<int>()(k.position);
      for (std::uint32_t b : bits) hash = hash * 1000003u ^ b;
      return hash;
    }
  };
  std::unordered_map<Key, std::uint32_t, KeyHash> emitted;
  emitted.reserve(mesh.vertices.size());
  visual->indices.reserve(3 * triangles);
  for (int t = 0; t < triangles; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int v = mesh.triangles[t][k];
      const int p = position[v];
      Vec3 sum = Vec3::Zero();
      for (int i = ring_begin[p]; i < ring_begin[p + 1]; ++i) {
        const int f = ring[i];
        if (unit[t].isZero() || unit[f].dot(unit[t]) >= cos_crease) sum += weighted[f];
      }
      // a degenerate corner with nothing around it: any unit vector keeps the contract
      const std::array<float, 3> n =
          ToFloat(sum.norm() > 0 ? Vec3(sum.normalized()) : Vec3::UnitZ());
      const std::array<float, 2> uv = {uvs ? static_cast<float>(mesh.uvs[v].x()) : 0.0f,
                                       uvs ? static_cast<float>(mesh.uvs[v].y()) : 0.0f};
      const Key key{p, {n[0], n[1], n[2], uv[0], uv[1]}};
      const auto [it, added] =
          emitted.emplace(key, static_cast<std::uint32_t>(visual->positions.size()));
      if (added) {
        visual->positions.push_back(ToFloat(mesh.vertices[v]));
        visual->normals.push_back(n);
        if (uvs) visual->uvs.push_back(uv);
      }
      visual->indices.push_back(it->second);
    }
  }
  VisualMesh::Part part;
  part.index_count = static_cast<std::uint32_t>(visual->indices.size());
  visual->parts.push_back(part);
  return visual;
}


std::shared_ptr<VisualMesh> BuildHullVisualMesh(const ConvexHull& hull) {
  auto visual = std::make_shared<VisualMesh>();
  visual->name = hull.name;
  // each face gets its own vertices so its flat normal is not averaged with the neighbours'
  for (const ConvexHull::Face& face : hull.faces) {
    const auto base = static_cast<std::uint32_t>(visual->positions.size());
    for (int i = 0; i < face.count; ++i) {
      visual->positions.push_back(ToFloat(hull.vertices[hull.face_vertices[face.first + i]]));
      visual->normals.push_back(ToFloat(face.normal));
    }
    for (int i = 1; i + 1 < face.count; ++i) {
      visual->indices.insert(visual->indices.end(), {base, base + static_cast<std::uint32_t>(i),
                                                     base + static_cast<std::uint32_t>(i + 1)});
    }
  }
  VisualMesh::Part part;
  part.index_count = static_cast<std::uint32_t>(visual->indices.size());
  visual->parts.push_back(part);
  return visual;
}

}  // namespace sim
